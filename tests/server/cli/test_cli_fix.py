"""``annoscore fix``: the certain fixes, idempotent; --select, --diff, --statistics; exit status;
an atomic write that refuses a file changed while it ran."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

import annoscore.server.cli.fix as fix_command
import annoscore.server.engine.autofix as autofix
from tests.support.fix import FAULTY_CODES, FAULTY_TEXT
from annoscore.scorer.conllu.editing.renumber import out_of_sequence
from annoscore.server.cli import main

BLOCK = ["# sent_id = s1", "# text = a b c", "1\ta\ta\tX\t_\t_\t2\tdep\t_\t_", "2\tb\tb\tX\t_\t_\t0\troot\t_\t_",
         "3\tc\tc\tX\t_\t_\t2\tdep\t_\t_"]


def annoscore(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "annoscore", *args], capture_output=True, text=True)


def test_fix_renumbers_a_hand_insertion_and_diff_writes_nothing(tmp_path: Path):
    inserted = BLOCK[:3] + ["2\tnew\tnew\tX\t_\t_\t2\tdep\t_\t_"] + BLOCK[3:]
    path = tmp_path / "a.conllu"
    text = "\n".join(inserted) + "\n\n"
    path.write_text(text)
    shown = annoscore("fix", "--diff", str(path))
    assert shown.returncode == 1  # fixes to make
    assert "+3\tb\tb\tX\t_\t_\t0\troot\t_\t_\n" in shown.stdout and "+# text = a new b c\n" in shown.stdout
    assert "would fix 2" in shown.stderr and "+" not in shown.stderr  # (the diff alone on stdout)
    assert path.read_text() == text  # --diff wrote nothing
    done = annoscore("fix", str(path))
    assert done.returncode == 0, done.stderr
    assert "fixed 2 (ids-out-of-sequence 1, text-form-mismatch 1)" in done.stdout
    assert "Found 2 fixable findings (2 fixed, 0 remaining)." in done.stdout
    lines = path.read_text().split("\n")
    assert lines[1:6] == ["# text = a new b c", "1\ta\ta\tX\t_\t_\t3\tdep\t_\t_", "2\tnew\tnew\tX\t_\t_\t3\tdep\t_\t_",
                          "3\tb\tb\tX\t_\t_\t0\troot\t_\t_", "4\tc\tc\tX\t_\t_\t3\tdep\t_\t_"]
    assert out_of_sequence("\n".join(lines[:6])) is None
    assert not list(tmp_path.glob(".annoscore-fix-*"))  # no temporary file left


def test_a_sentence_whose_references_do_not_all_map_is_left_and_fails(tmp_path: Path, capsys):
    deleted = BLOCK[:3] + BLOCK[4:]  # word 2, the head of the others, deleted by hand
    path = tmp_path / "a.conllu"
    path.write_text("\r\n".join(deleted) + "\r\n\r\n", newline="")
    assert main(["fix", str(path)]) == 1  # a finding is left
    assert path.read_bytes().decode() == "\n".join(deleted) + "\n\n"  # only the CRs went
    out = capsys.readouterr().out
    assert "a.conllu:4:1: error ids-out-of-sequence" in out
    assert "Found 2 fixable findings (1 fixed, 1 remaining)." in out


def test_every_fault_fixed_and_a_second_run_changes_nothing(tmp_path: Path, capsys):
    path = tmp_path / "a.conllu"
    path.write_text(FAULTY_TEXT, encoding="utf-8")
    assert main(["fix", "--statistics", str(path)]) == 0
    out = capsys.readouterr().out
    for code in FAULTY_CODES:
        assert f"  {code}  (" in out and f"  {code}  (0 fixed" not in out
    once = path.read_bytes()
    assert once != FAULTY_TEXT.encode()
    assert main(["fix", str(path)]) == 0
    assert path.read_bytes() == once  # idempotent
    assert capsys.readouterr().out == ""  # nothing found, nothing said
    assert main(["fix", "--diff", str(path)]) == 0


def test_select_is_comma_separated_and_repeatable(tmp_path: Path, capsys):
    path = tmp_path / "a.conllu"
    path.write_text(FAULTY_TEXT, encoding="utf-8")
    assert main(["fix", "--select", "unsorted-features,unsorted-feature-values", "--select", "format-spaces",
                 str(path)]) == 0
    text = path.read_text(encoding="utf-8")
    assert "Case=Nom|Number=Sing" in text and "PronType=Int,Rel" in text and "1 a a X" not in text
    assert "# text = a c" in text and "\n\n\n" in text  # the others not made
    capsys.readouterr()
    assert main(["fix", "--select", "cycle", str(path)]) == 2  # no certain fix: a usage error
    assert "no certain fix for cycle" in capsys.readouterr().err
    assert path.read_text(encoding="utf-8") == text


def test_several_files_each_fixed_and_summed_up(tmp_path: Path, capsys):
    clean, faulty = tmp_path / "clean.conllu", tmp_path / "faulty.conllu"
    clean.write_text("\n".join(BLOCK) + "\n\n")
    faulty.write_text("\n".join(BLOCK).replace("# text = a b c", "# text = a b") + "\n\n")
    assert main(["fix", str(clean), str(faulty)]) == 0
    out = capsys.readouterr().out
    assert "clean.conllu" not in out and "faulty.conllu: fixed 1 (text-form-mismatch 1)" in out
    assert faulty.read_text() == clean.read_text()


def test_a_file_changed_while_it_was_fixed_is_left_as_it_is(tmp_path: Path, monkeypatch, capsys):
    path = tmp_path / "a.conllu"
    path.write_text(FAULTY_TEXT, encoding="utf-8")
    original = autofix.fix_document

    def meanwhile(*args, **kwargs):
        path.write_text(FAULTY_TEXT + "# an annotator's edit\n", encoding="utf-8")  # saved by an editor meanwhile
        return original(*args, **kwargs)
    monkeypatch.setattr(autofix, "fix_document", meanwhile)
    assert main(["fix", str(path)]) == 1
    assert path.read_text(encoding="utf-8") == FAULTY_TEXT + "# an annotator's edit\n"
    assert "changed while it was being fixed; left as it is" in capsys.readouterr().err
    assert not list(tmp_path.glob(".annoscore-fix-*"))


def test_a_failed_write_leaves_the_file_whole_and_no_temporary_file(tmp_path: Path, monkeypatch, capsys):
    path = tmp_path / "a.conllu"
    path.write_text(FAULTY_TEXT, encoding="utf-8")

    def full_disk(fd):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(fix_command.os, "fsync", full_disk)  # after part of the new text was written
    assert main(["fix", str(path)]) == 2
    assert path.read_text(encoding="utf-8") == FAULTY_TEXT
    assert "No space left on device; left as it is" in capsys.readouterr().err
    assert not list(tmp_path.glob(".annoscore-fix-*"))


def test_the_written_file_keeps_its_mode(tmp_path: Path, capsys):
    path = tmp_path / "a.conllu"
    path.write_text(FAULTY_TEXT, encoding="utf-8")
    os.chmod(path, 0o640)
    assert main(["fix", str(path)]) == 0
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640


@pytest.mark.parametrize("name, content, message", [
    ("a.conllu", b"1\ta\xff\n", "a.conllu: 1:4: not UTF-8 (byte 0xff)"),
    ("a.conllu", None, "a.conllu: No such file or directory"),
    ("a.txt", b"Some text.\r\n",
     "a.txt: not a CoNLL-U file (annoscore reads it as space-separated tokens); nothing fixed")])
def test_unreadable_files_are_named_fail_and_stay_as_they_are(tmp_path: Path, capsys, name, content, message):
    path = tmp_path / name
    if content is not None:
        path.write_bytes(content)
    assert main(["fix", str(path)]) == 2
    assert message in capsys.readouterr().err
    assert content is None or path.read_bytes() == content


def test_a_nul_inside_text_is_read_as_text_and_the_rest_fixed(tmp_path: Path):
    """A NUL inside otherwise UTF-8 text is a note, the text read as it is
    (as check and udvalidate read it): the CR is fixed, the NUL stays."""
    path = tmp_path / "a.conllu"
    path.write_bytes(b"# note = a\x00b\r\n" + FAULTY_TEXT.split("\n", 1)[1].encode("utf-8"))
    main(["fix", "--select", "non-unix-newline", str(path)])
    assert path.read_bytes().startswith(b"# note = a\x00b\n")
