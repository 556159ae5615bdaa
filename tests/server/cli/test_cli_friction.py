"""Issue 25's friction list: option lists that cannot take a file name,
one behaviour for empty and compressed files, and messages that say what
to do (each test fails without its fix)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from annoscore.server.cli import main

DEMO = Path(__file__).resolve().parents[3] / "server" / "demo"


@pytest.fixture
def sample(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in ("sample.conllu", "sample.gold.conllu"):
        shutil.copy(DEMO / name, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    return tmp_path / "sample.conllu"


def _codes(out: str) -> set[str]:
    return {line.split()[2] for line in out.splitlines() if line.startswith("sample.conllu:")}


def test_list_options_take_commas_and_repeats_not_the_file(sample: Path, capsys) -> None:
    assert main(["check", "--lang", "en", "--exclude", "FORMAT,MORPHO", "sample.conllu"]) == 1
    comma = capsys.readouterr().out
    assert main(["check", "--lang", "en", "--exclude", "FORMAT", "--exclude", "MORPHO", "sample.conllu"]) == 1
    assert capsys.readouterr().out == comma
    assert main(["check", "--lang", "en", "--include-only", "SYNTAX", "sample.conllu"]) == 1
    assert _codes(capsys.readouterr().out) <= {"cycle", "invalid-head", "unknown-head", "no-root"}
    assert main(["check", "--lang", "en", "sample.conllu"]) == 1
    everything = capsys.readouterr().out
    assert "invalid-head" in everything and "invalid-head" not in comma  # FORMAT left out


def test_space_separated_list_names_the_comma_form(sample: Path, capsys) -> None:
    # The old form `--exclude A B FILE`: B is read as a FILE, and said to be a name.
    assert main(["check", "--lang", "en", "--exclude", "METADATA", "MORPHO", "sample.conllu"]) == 2
    err = capsys.readouterr().err
    assert "MORPHO is a check's name, not a file" in err and "--exclude A,MORPHO" in err


@pytest.mark.parametrize("script", [["bench_hygiene.py"], ["bench_conllu.py", "--one-process"]])
def test_benchmarks_say_what_they_need_without_shared(script: list[str], tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[3]
    env = {**os.environ, "ANNOSCORE_SHARED": str(tmp_path / "absent")}
    done = subprocess.run([sys.executable, str(root / "benchmarks" / script[0]), *script[1:]], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert f"{script[0]}: needs " in done.stderr and str(tmp_path / "absent") in done.stderr
    assert "ANNOSCORE_SHARED" in done.stderr


def test_a_manifest_from_a_pipe_resolves_against_the_working_folder(sample: Path, capsys) -> None:
    import os
    import threading

    read, write = os.pipe()  # what `--manifest <(…)` gives: /dev/fd/N, no regular file
    writer = threading.Thread(target=lambda: (os.write(write, b"sample.conllu\tsample.gold.conllu\tdemo\n"),
                                              os.close(write)))
    writer.start()
    try:
        status = main(["evaluate", "--manifest", f"/dev/fd/{read}", "--json"])
    finally:
        writer.join()
        os.close(read)
    out = capsys.readouterr()
    assert status == 0, out.err
    assert '"demo"' in out.out and "no such file" not in out.err


def test_the_level_3_fall_back_names_the_command_that_installs_the_data(monkeypatch) -> None:
    from annoscore.scorer.validation import settings

    monkeypatch.setattr(settings, "installed_data_dir", lambda: None)  # a plain install: no udtools
    settings.prepare.cache_clear()
    try:
        prepared = settings.prepare(settings.ValidationSettings(level="auto", lang="en"))
    finally:
        settings.prepare.cache_clear()
    assert prepared.level == 3
    note = " ".join(prepared.notes)
    assert "validating at level 3" in note and "pip install 'annoscore[ud]'" in note and "--ud-data" in note


@pytest.mark.parametrize("options, level", [([], "UD validation at level 3"), (["--lang", "en"], "UD validation at level 5"),
                                            (["--level", "0"], "no UD validation")])
def test_check_closes_with_the_level_and_counts_per_severity(sample: Path, capsys, options, level) -> None:
    if "--lang" in options and __import__("importlib").util.find_spec("udtools") is None:
        pytest.skip("level 5 needs udtools' data (test extras)")
    main(["check", *options, "sample.conllu"])
    out = capsys.readouterr()
    lines = out.out.splitlines()
    counts = {s: sum(1 for line in lines if line.split()[1] == s) for s in ("error", "warning", "information", "hint")}
    expected = (f"annoscore check: 1 file, {level}: {counts['error']} errors, {counts['warning']} warning, "
                f"{counts['information']} information, {counts['hint']} hints")
    assert out.err.splitlines()[-1] == expected
    assert counts["error"] > 1 and counts["warning"] == 1 and counts["hint"] > 1  # (the plural forms above)


@pytest.mark.parametrize("letter, encoding, named", [("é", "latin-1", "LATIN1"), ("’", "cp1252", "CP1252")])
def test_a_file_in_another_encoding_is_one_line_and_a_few_examples(sample: Path, capsys, letter, encoding,
                                                                   named) -> None:
    text = (sample.parent / "sample.gold.conllu").read_text(encoding="utf-8")
    lines = [line.replace("\t_\t", f"\t{letter}\t", 1) if line[:1].isdigit() else line for line in text.split("\n")]
    words = sum(1 for line in lines if letter in line)
    assert words > 20
    (sample.parent / "other.conllu").write_bytes("\n".join(lines).encode(encoding))
    main(["evaluate", "other.conllu", "sample.gold.conllu"])
    out = capsys.readouterr().out
    assert out.count("is not valid UTF-8") == 3
    summary = [line for line in out.splitlines() if "iconv" in line]
    assert summary == [f"In the prediction file: {words} lines with bytes that are not UTF-8 (read as U+FFFD); "
                       f"the file is likely {'Windows-1252' if named == 'CP1252' else 'Latin-1 (ISO-8859-1)'}: "
                       f"convert it with iconv -f {named} -t UTF-8 other.conllu > other.utf8.conllu"]
    assert f"  ... and {words - 3} more" in out


@pytest.mark.parametrize("make, said", [
    (lambda path: path.write_bytes(b""), "the file is empty: nothing to score or check"),
    (lambda path: path.write_bytes(__import__("gzip").compress((DEMO / "sample.conllu").read_bytes())),
     "this file is gzip-compressed (it starts with gzip's magic number); decompress it first, e.g. with gunzip -k"),
])
@pytest.mark.parametrize("name", ["x.conllu", "x.gz"])
def test_empty_and_compressed_files_fail_alike_in_every_command(sample: Path, capsys, make, said, name) -> None:
    make(sample.parent / name)
    for argv in (["check", name], ["evaluate", name, "sample.gold.conllu"], ["tree", name]):
        # (check says it as the file's diagnostic or score line and goes on with
        # the other files; the other commands stop there)
        assert main(argv) == 1, argv
        out = capsys.readouterr()
        said_where = out.out + out.err
        assert said in said_where and name in said_where, (argv, said_where)
