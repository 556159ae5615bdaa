"""A workspace someone else wrote (issue 26, S1-S14): it cannot hang, exhaust,
crawl, leak or write outside — on the command line (the language server's
side is tests/server/lsp/test_lsp_untrusted.py).  Each case is a folder a
`git clone` could make: regular files and symlinks (FIFOs where said).

Cases that hung or read forever before their fix run the command in a
subprocess with a timeout, so that a regression fails instead of hanging."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from annoscore.scorer import reading
from annoscore.server.cli import main
from annoscore.server.workspace import walk_glob

ROOT = Path(__file__).resolve().parents[3]
DEMO = ROOT / "server" / "demo"
SECRET = "root:x:0:0:root:/root:/bin/bash\n"
posix_only = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs and /dev need a POSIX system")


def run(args: list[str], cwd: Path, timeout: float = 60, stdin=subprocess.DEVNULL) -> subprocess.CompletedProcess:
    """``annoscore ARGS`` in a subprocess; a hang fails the test (TimeoutExpired)."""
    return subprocess.run([sys.executable, "-m", "annoscore", *args], cwd=cwd, stdin=stdin, capture_output=True,
                          text=True, timeout=timeout, env={**os.environ, "PYTHONPATH": str(ROOT)})


@pytest.fixture
def clone(tmp_path, monkeypatch):
    """A cloned project (``proj/``) and, beside it, a file of the machine's
    that must never be quoted (``secret.txt``)."""
    project = tmp_path / "proj"
    project.mkdir()
    shutil.copy(DEMO / "sample.conllu", project / "dev.conllu")
    (tmp_path / "secret.txt").write_text(SECRET)
    monkeypatch.chdir(project)
    return project


def no_traceback(text: str) -> None:
    assert "Traceback" not in text and "internal-error" not in text, text[-3000:]


# --- S1-S4: what is not a regular file -------------------------------------------------


@posix_only
def test_s1_a_gold_linked_to_dev_zero_is_refused_not_read(clone):
    (clone / "dev.gold.conllu").symlink_to("/dev/zero")
    done = run(["check", "dev.conllu"], clone)
    assert "dev.conllu:1:1: warning gold-refused its gold" in done.stdout
    assert "is a character device, not a regular file" in done.stdout
    no_traceback(done.stdout + done.stderr)
    # named on the command line, it is refused the same way (not copied as a stream)
    done = run(["evaluate", "dev.conllu", "dev.gold.conllu"], clone)
    assert done.returncode == 1 and "is a character device, not a regular file" in done.stderr


@posix_only
def test_s2_a_gold_linked_to_stdin_does_not_hang(clone):
    (clone / "dev.gold.conllu").symlink_to("/dev/stdin")
    writer = subprocess.PIPE  # (kept open: reading it would wait for ever)
    done = run(["check", "dev.conllu"], clone, stdin=writer)
    assert "gold-refused" in done.stdout and "not a regular file" in done.stdout


@posix_only
def test_s3_s4_fifos_as_gold_and_in_a_folder_do_not_hang(clone):
    os.mkfifo(clone / "dev.gold.conllu")
    os.mkfifo(clone / "b.conllu")
    done = run(["check", "."], clone)
    assert "gold-refused its gold" in done.stdout and "is a FIFO (a named pipe)" in done.stdout
    assert "annoscore check: ./b.conllu: is a FIFO (a named pipe), not a regular file" in done.stderr
    assert "skipped" in done.stderr
    no_traceback(done.stdout + done.stderr)


@posix_only
def test_opening_a_fifo_never_waits():
    """The reading module opens without blocking, then looks: a FIFO with no
    writer is refused at once (a plain open would wait for a writer)."""
    import tempfile
    folder = tempfile.mkdtemp()
    fifo = os.path.join(folder, "pipe.conllu")
    os.mkfifo(fifo)
    outcome: list = []

    def attempt() -> None:
        try:
            reading.read_file(fifo)
        except OSError as error:
            outcome.append(error)

    thread = threading.Thread(target=attempt, daemon=True)
    thread.start()
    thread.join(5)
    assert outcome and isinstance(outcome[0], reading.ReadRefused), "the open waited for a writer"
    assert "is a FIFO (a named pipe), not a regular file" in str(outcome[0]) and fifo in str(outcome[0])
    shutil.rmtree(folder)


def test_the_size_bound_refuses_before_reading_and_while_reading(tmp_path):
    path = tmp_path / "big.conllu"
    path.write_bytes(b"x" * 5000)
    assert reading.read_file(path, 5000) == b"x" * 5000
    with pytest.raises(reading.ReadRefused, match="over annoscore's limit of 4.9 KiB"):
        reading.read_file(path, 4999)
    with reading.open_file(path, 6000) as f:  # grows past the bound after it was opened
        with open(path, "ab") as grow:
            grow.write(b"y" * 2000)
        with pytest.raises(reading.ReadRefused):
            f.read()
    link = tmp_path / "link.conllu"
    link.symlink_to(path)  # a symlink to a regular file is read
    assert len(reading.read_file(link)) == 7000
    assert reading.parse_size("4G") == 4 << 30 and reading.parse_size("500 MiB") == 500 << 20
    with pytest.raises(ValueError):
        reading.parse_size("lots")


def test_max_file_size_is_an_option_of_every_command(clone, capsys):
    assert main(["check", "dev.conllu", "--max-file-size", "1K"]) == 1
    assert "dev.conllu: cannot be read: is 2.5 KiB, over annoscore's limit of 1 KiB" in capsys.readouterr().err
    assert main(["evaluate", "dev.conllu", "dev.conllu", "--max-file-size", "1K"]) == 1
    assert "over annoscore's limit of 1 KiB" in capsys.readouterr().err
    main(["check", "dev.conllu"])  # the next command has its own bound (the default)
    assert "over annoscore's limit" not in capsys.readouterr().err


# --- S5-S8: the project file's paths, globs and depth ------------------------------------


def test_s5_a_gold_outside_the_project_is_never_quoted(clone, capsys):
    (clone / "a.txt").write_text("helloworld\n")
    (clone / "annoscore.toml").write_text('[[pair]]\nfiles = "a.txt"\ngold = "../secret.txt"\nformat = "space"\n')
    main(["check", "a.txt"])
    out = capsys.readouterr()
    assert "root:x" not in out.out + out.err
    assert "pair #1.gold: ../secret.txt is outside the project folder: not read; allow it with " \
           "--allow-outside-project" in out.err
    # the same through a symlink inside the project: its real path is outside
    (clone / "gold").mkdir()
    (clone / "gold" / "a.txt").symlink_to(clone.parent / "secret.txt")
    (clone / "annoscore.toml").write_text('[[pair]]\nfiles = "a.txt"\ngold = "gold/{name}"\nformat = "space"\n')
    main(["check", "a.txt"])
    out = capsys.readouterr()
    assert "root:x" not in out.out + out.err
    assert "a.txt:1:1: warning gold-refused its gold" in out.out and "is outside the project folder" in out.out
    # allowed by the user (and only then), it is read and compared
    main(["check", "a.txt", "--allow-outside-project"])
    out = capsys.readouterr()
    assert "root:x" in out.out  # (what the guard keeps out)
    assert "gold-refused" not in out.out


def test_s5_the_project_file_cannot_allow_itself(clone, capsys):
    (clone / "annoscore.toml").write_text('allow_outside_project = true\n[[pair]]\nfiles = "dev.conllu"\n'
                                          'gold = "/etc/{name}"\n')
    main(["check", "dev.conllu"])
    err = capsys.readouterr().err
    assert "allow_outside_project: only the user can allow paths outside the project" in err
    assert "pair #1.gold: /etc/{name} is outside the project folder" in err


def test_s6_a_glob_up_the_tree_does_not_crawl(clone, capsys):
    (clone / "annoscore.toml").write_text('[splits]\ntrain = "../../../../../../../**/*.conllu"\ndev = "dev.conllu"\n')
    main(["check", "dev.conllu"])
    err = capsys.readouterr().err
    assert "splits.train: ../../../../../../../**/*.conllu is outside the project folder: not read" in err


def test_globs_visit_a_bounded_number_of_entries_and_no_symlinked_folder(tmp_path):
    for k in range(30):
        (tmp_path / f"d{k}").mkdir()
        (tmp_path / f"d{k}" / "x.conllu").write_text("")
    (tmp_path / "up").symlink_to(tmp_path.parent)  # a loop and a way out: never walked
    found = walk_glob(str(tmp_path), "**/*.conllu", limit=1000)
    assert len(found.files) == 30 and found.problem is None
    found = walk_glob(str(tmp_path), "**/*.conllu", limit=20)
    assert len(found.files) < 30 and "stopped after 20 files and folders" in found.problem
    found = walk_glob(str(tmp_path), "../**/*.conllu", allow_outside=True, limit=50)
    assert found.problem is not None and "stopped after 50" in found.problem


def test_s7_an_absolute_split_path_is_a_message(clone, capsys):
    (clone / "annoscore.toml").write_text('[splits]\ntrain = "/etc/passwd"\ndev = "dev.conllu"\n')
    status = main(["check", "dev.conllu"])
    err = capsys.readouterr().err
    assert status in (0, 1)
    assert "splits.train: /etc/passwd is outside the project folder: not read" in err


@pytest.mark.parametrize("name, head", [("annoscore.toml", "x = "), ("pyproject.toml", "[tool.annoscore]\nx = ")])
def test_s8_a_project_file_nested_too_deeply_is_a_message(clone, name, head):
    (clone / name).write_text(head + "[" * 100_000 + "]" * 100_000 + "\n")
    done = run(["check", "dev.conllu"], clone)
    assert f"annoscore check: {name}: nested too deeply to be read; using the defaults" in done.stderr
    no_traceback(done.stderr)


# --- S9: language data of the wrong shape -------------------------------------------------


def _data_dir(folder: Path, **overrides) -> Path:
    files = {"feats.json": {"features": {"en": {"Number": {"permitted": 1, "uvalues": ["Sing"], "lvalues": [],
                                                             "byupos": {"NOUN": {"Sing": 1}}}}}},
             "deprels.json": {"deprels": {"en": {"nsubj": {"permitted": 1}}}},
             "edeprels.json": {"edeprels": {"en": {}}},
             "data.json": {"auxiliaries": {"en": {"be": {"functions": [{"function": "cop.AUX"}]}}}},
             "tospace.json": {"expressions": {}}}
    files.update(overrides)
    folder.mkdir()
    for name, data in files.items():
        (folder / name).write_text(json.dumps(data))
    return folder


@pytest.mark.parametrize("override", [
    {"feats.json": {"features": {"en": {"Number": 5}}}},
    {"feats.json": {"features": {"en": {"Number": {"permitted": 1, "byupos": {"NOUN": 3}}}}}},
    {"deprels.json": {"deprels": {"en": {"nsubj": [1]}}}},
    {"data.json": {"auxiliaries": {"en": {"be": {"functions": "cop"}}}}},
    {"edeprels.json": {"edeprels": {"en": {"x": {"extends": ["(unclosed"]}}}}},
], ids=["feats-number", "feats-byupos", "deprels", "data-functions", "edeprels-regex"])
def test_s9_language_data_of_the_wrong_shape_falls_back_to_level_3(clone, capsys, override):
    _data_dir(clone / "data", **override)
    (clone / "annoscore.toml").write_text('[validation]\ndata_dir = "data"\n')
    main(["check", "dev.conllu", "--lang", "en", "--level", "5"])
    out = capsys.readouterr()
    assert "internal-error" not in out.out
    assert "is not UD language data" in out.err or "a bad expression" in out.err
    assert "validating at level 3" in out.err


def test_s9_language_data_nested_too_deeply(clone, capsys):
    folder = _data_dir(clone / "data")
    (folder / "feats.json").write_text('{"features": {"en": ' + "[" * 100_000 + "]" * 100_000 + "}}")
    (clone / "annoscore.toml").write_text('[validation]\ndata_dir = "data"\n')
    main(["check", "dev.conllu", "--lang", "en", "--level", "4"])
    out = capsys.readouterr()
    assert "internal-error" not in out.out and "validating at level 3" in out.err


def test_a_data_dir_outside_the_project_is_refused(clone, capsys):
    (clone / "annoscore.toml").write_text('[validation]\ndata_dir = "/usr/share"\n')
    main(["check", "dev.conllu"])
    assert "validation.data_dir: /usr/share is outside the project folder" in capsys.readouterr().err


# --- S10: names and text that would move the terminal or forge a line -------------------


def test_s10_a_file_name_cannot_forge_a_line_or_colour_the_terminal(clone):
    (clone / "dev.conllu").unlink()
    name = "a\x1b[31mRED\x1b[0m\nfake.conllu"
    shutil.copy(DEMO / "sample.conllu", clone / name)
    (clone / "b.conllu").write_text("1\tx\x1b]0;title\x07\tx\tX\t_\t_\t0\troot\t_\t_\n\n")
    done = run(["check", "."], clone)
    for stream in (done.stdout, done.stderr):
        assert "\x1b" not in stream and "\x07" not in stream
        assert not any(line.startswith("fake.conllu") for line in stream.split("\n"))
    assert "a\\x1b[31mRED\\x1b[0m\\nfake.conllu:14:" in done.stdout
    as_json = run(["check", ".", "--json"], clone).stdout
    assert "\x1b" not in as_json  # (JSON escapes it; a reader gets the real name back)
    assert {f["path"] for f in json.loads(as_json)["files"]} == {name, "b.conllu"}


# --- S11-S14: the ledger ------------------------------------------------------------------


@pytest.fixture
def project(clone):
    (clone / "gold").mkdir()
    shutil.copy(DEMO / "sample.gold.conllu", clone / "gold" / "test.conllu")
    (clone / "annoscore.toml").write_text('[splits]\ntest = ["gold/test.conllu"]\n')
    return clone


FINAL = ["evaluate", "dev.conllu", "gold/test.conllu", "--final"]


def test_s11_a_ledger_nested_too_deeply_is_exit_2(project, capsys):
    (project / ".annoscore").mkdir()
    (project / ".annoscore" / "final-runs.json").write_text("[" * 100_000 + "]" * 100_000)
    assert main(FINAL) == 2
    err = capsys.readouterr().err
    assert "final-runs.json: not a ledger of final runs (nested too deeply)" in err
    no_traceback(err)


@posix_only
def test_s12_a_ledger_linked_to_dev_zero_is_exit_2(project):
    (project / ".annoscore").mkdir()
    (project / ".annoscore" / "final-runs.json").symlink_to("/dev/zero")
    done = run(FINAL, project)
    assert done.returncode == 2 and "final-runs.json is a symlink" in done.stderr
    no_traceback(done.stderr)


def test_s13_a_symlinked_annoscore_folder_is_never_written(project, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (project / ".annoscore").symlink_to(elsewhere)
    done = run(FINAL, project)
    assert done.returncode == 2 and ".annoscore is a symlink" in done.stderr
    assert list(elsewhere.iterdir()) == []


def test_s14_a_symlinked_lock_creates_nothing(project, tmp_path):
    (project / ".annoscore").mkdir()
    target = tmp_path / "created-by-annoscore"
    (project / ".annoscore" / ".lock").symlink_to(target)
    done = run(FINAL, project)
    assert done.returncode == 2 and ".lock is a symlink" in done.stderr
    assert not os.path.lexists(target)
    # the lock itself, reached past the checks (another process made it a link meanwhile): O_NOFOLLOW
    from annoscore.server import ledger
    with pytest.raises(ledger.LedgerError, match="is a symlink"):
        with ledger._locked(str(project)):
            pass
    assert not os.path.lexists(target)


# --- issue 25: one behaviour for a file a command cannot use -----------------------------


@pytest.mark.parametrize("content, words", [
    (b"", "the file is empty: nothing to score or check"),
    (b"\x1f\x8b\x08\x00rest", "this file is gzip-compressed (it starts with gzip's magic number); decompress it "
                              "first, e.g. with gunzip -k"),
])
@pytest.mark.parametrize("name", ["x.conllu", "x.conllu.gz"])
def test_every_command_says_the_same_of_an_empty_or_compressed_file(clone, capsys, content, words, name):
    if name.endswith(".gz") and not content:
        return  # (an empty x.gz is just not a file annoscore reads)
    (clone / name).write_bytes(content)
    said = {}
    for command in (["check", name], ["evaluate", name, "dev.conllu"], ["tree", name, "--line", "1"]):
        if command[0] == "tree" and name.endswith(".gz"):
            continue
        status = main(command)
        err = capsys.readouterr()
        assert status == 1, (command, err)
        said[command[0]] = err.out + err.err
        assert words in said[command[0]], (command, said[command[0]])


def test_the_command_line_output_is_terminal_safe_whatever_is_printed(capsys):
    """The last guard (server.cli.TerminalSafe): a raw escape that some
    message let through still reaches the terminal escaped."""
    from annoscore.server.cli import TerminalSafe
    from annoscore.scorer.excerpt import terminal_safe

    assert terminal_safe("a\x1b[2Jb\x07\x9b\ud800\tc\nd") == "a\\u001b[2Jb\\u0007\\u009b\\ud800\tc\nd"
    stream = TerminalSafe(sys.stdout)
    print("x\x1b]0;title\x07 y", file=stream)
    assert capsys.readouterr().out == "x\\u001b]0;title\\u0007 y\n"
    # JSON written with its C1 characters raw stays JSON, with the same text
    print(json.dumps({"form": "a\x9bb\x7f"}, ensure_ascii=False), file=stream)
    assert json.loads(capsys.readouterr().out) == {"form": "a\x9bb\x7f"}


def test_a_progress_line_keeps_its_carriage_return_and_nothing_else():
    import io

    from annoscore.server.cli import TerminalSafe
    from annoscore.server.cli.progress import MIN_BYTES, Progress

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    terminal = Terminal()
    progress = Progress("scoring a\x1b[2J.conllu", MIN_BYTES, TerminalSafe(terminal))
    progress.update(1, 2)
    progress.done()
    shown = terminal.getvalue()
    assert shown.startswith("\rscoring a\\u001b[2J.conllu  50%") and "\x1b" not in shown
