"""The command-line faults of issue 15, each with the behaviour that fixes it.

Every test here failed before its fix; the issue's item number is in the
test's name or docstring.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from tests.support.cli import run
from tests.support.data import conllu, write
from annoscore.scorer.problems import Severity
from annoscore.server.cli import main
from tests.server.lsp.test_lsp import client, diagnostics_for, open_document  # noqa: F401  (client: the LSP fixture)

COMMAND = [sys.executable, "-m", "annoscore"]

GOLD = conllu("# sent_id = a\n1 The the DET DT _ 2 det _ _\n2 cat cat NOUN NN _ 0 root _ _",
              "# sent_id = b\n1 It it PRON PRP _ 2 nsubj _ _\n2 sat sit VERB VBD _ 0 root _ _")
PRED = conllu("# sent_id = a\n1 The the DET DT _ 2 det _ _\n2 cat cat VERB NN _ 0 root _ _",
              "# sent_id = b\n1 It it PRON PRP _ 2 nsubj _ _\n2 sat sit VERB VBD _ 0 root _ _")


# --- 15: demo --json prints only JSON ----------------------------------------------


def test_15_demo_json_is_only_json(capsys):
    status, out, err = run(capsys, "demo", "--json")
    assert status == 0
    data = json.loads(out)  # the whole of stdout parses
    assert data["metrics"]["LAS"]["gold_total"] > 0
    assert err.startswith("$ annoscore evaluate ")  # what it ran, where it does not get in the way


def test_15_demo_text_still_shows_the_command(capsys):
    status, out, _ = run(capsys, "demo")
    assert status == 0 and out.startswith("$ annoscore evaluate ")


# --- 10: every message quotes at most a short excerpt ------------------------------

LONG = "x" * 100_000
MESSAGE_LIMIT = 300  # characters: a message with its excerpts, a path and a line number


def _messages(data):
    """Every "message" string anywhere in a JSON value."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key == "message" and isinstance(value, str):
                yield value
            else:
                yield from _messages(value)
    elif isinstance(data, list):
        for value in data:
            yield from _messages(value)


def _long_conllu() -> tuple[str, str]:
    """A prediction with user text of 100,000 characters in every place a
    message quotes one, and its gold."""
    rows = [
        f"# sent_id = {LONG}\n1 a a X _ _ 0 root _ _",                               # the sentence's name
        f"# sent_id = s2\n1 {LONG} a X _ _ 0 root _ _",                              # a text mismatch
        f"# sent_id = s3\n1 a a X _ _ {LONG} root _ _",                              # HEAD
        f"# sent_id = s4\n1 a a X _ _ 0 root {LONG} _",                              # DEPS
        f"# sent_id = s5\n1 a a X _ _ 0 root _ Conf={LONG}",                         # Conf
        f"# sent_id = s6\n1 a {LONG} X _ _ 0 root _ Conf=LEMMA:0.1",                 # low confidence
        f"# sent_id = s7\n1 a a X _ _ 0 root _ _\n1.{LONG} a a X _ _ _ _ 0:root _",  # an empty node's ID
        f"# sent_id = s8\n1-{LONG} ab _ _ _ _ _ _ _ _\n1 a a X _ _ 0 root _ _",      # a multiword range
        f"# sent_id = s9\n{LONG} a a X _ _ 0 root _ _",                              # a word ID
    ]
    pred = conllu(*rows) + LONG + "\n\n"                                                # a line of one column
    gold = conllu(f"# sent_id = {LONG}\n1 a a X _ _ 0 root _ _",
                  *(f"# sent_id = s{k}\n1 a a X _ _ 0 root _ _" for k in range(2, 10)))
    return pred, gold


def test_10_conllu_messages_are_short(capsys, tmp_path, monkeypatch):
    pred_text, gold_text = _long_conllu()
    pred = write(tmp_path, "p.conllu", pred_text)
    gold = write(tmp_path, "p.gold.conllu", gold_text)
    monkeypatch.chdir(tmp_path)
    status, out, _ = run(capsys, "check", "p.conllu", "--json", "--threshold", "0.5")
    messages = list(_messages(json.loads(out)))
    codes = {d["code"] for f in json.loads(out)["files"] for d in f["diagnostics"]}
    assert {"format-id", "format-head", "format-deps", "format-conf", "low-confidence",
            "text-mismatch", "format-columns"} <= codes
    assert status == 1 and messages and max(map(len, messages)) < MESSAGE_LIMIT
    assert any("(100,000 characters)" in m for m in messages)
    for argv in ([], ["--json"]):
        status, out, err = run(capsys, "evaluate", str(pred), str(gold), "--threshold", "0.5", *argv)
        assert status == 0
        lines = list(_messages(json.loads(out))) if argv else out.splitlines()
        assert lines and max(map(len, lines)) < MESSAGE_LIMIT, max(lines, key=len)[:200]


def test_10_segmentation_and_labels_messages_are_short(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "s.txt", f"a {LONG}b\nc d\n")
    write(tmp_path, "s.gold.txt", f"a {LONG} b\nc d\n")
    write(tmp_path, "t.txt", f"a/NOUN b/{LONG}\n")
    write(tmp_path, "t.gold.txt", "a/NOUN b/NOUN\n")
    (tmp_path / "annoscore.toml").write_text(
        '[[pair]]\nfiles = "l.tsv"\ngold = "l.gold.tsv"\nformat = "labels"\n'
        '[[pair]]\nfiles = "t.txt"\ngold = "t.gold.txt"\npos = true\n')
    write(tmp_path, "l.tsv", f"{LONG}\t{LONG}y\n{LONG}\tz\nb\t{LONG}y\n")
    write(tmp_path, "l.gold.tsv", f"{LONG}\t{LONG}\nb\tz\n")
    status, out, _ = run(capsys, "check", "s.txt", "t.txt", "l.tsv", "--json")
    data = json.loads(out)
    codes = {d["code"] for f in data["files"] for d in f["diagnostics"]}
    assert {"segmentation-mismatch", "format-unknown-tag", "label-mismatch", "format-duplicate-id",
            "unknown-label"} <= codes
    messages = list(_messages(data))
    assert max(map(len, messages)) < MESSAGE_LIMIT
    for argv in (["s.txt", "s.gold.txt"], ["t.txt", "t.gold.txt", "--pos"],
                 ["l.tsv", "l.gold.tsv", "--format", "labels"]):
        status, out, err = run(capsys, "evaluate", *argv)
        assert max(map(len, (out + err).splitlines())) < MESSAGE_LIMIT, argv


def test_10_the_excerpt_helper():
    from annoscore.scorer.excerpt import excerpt, quoted
    assert quoted("abc") == "'abc'"
    assert quoted("a" * 50, 4) == "'aaaa…' (50 characters)"
    assert excerpt("a\tb\x00c\x1b[2J\udce9") == "a\\tb\\x00c\\x1b[2J\\xE9"
    assert excerpt("a\u00a0b\u200cc") == "a\u00a0b\u200cc"  # no-break space, ZWNJ: part of words


# --- 11: NUL bytes, UTF-16, gzip: format-binary with a place, the same everywhere --


def _with_nul(text: str, line: int, column: int) -> bytes:
    lines = text.split("\n")
    lines[line] = lines[line][:column] + "\x00" + lines[line][column:]
    return "\n".join(lines).encode("utf-8")


BIG = "".join(f"# sent_id = s{k}\n1\tA\ta\tX\t_\t_\t0\troot\t_\t_\n2\tb\tb\tX\t_\t_\t1\tdep\t_\t_\n\n"
              for k in range(4000))  # about 200 KB: several of the reader's 64 KB chunks


@pytest.mark.parametrize("line", [1, 2001, 15998])  # in the first 8 KB, in a later chunk, near the end
def test_11_a_nul_anywhere_is_format_binary_at_its_line_and_column(capsys, tmp_path, monkeypatch, line):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "p.conllu").write_bytes(_with_nul(BIG, line, 3))
    write(tmp_path, "g.conllu", BIG)
    for jobs in ("1", "2"):
        status, out, err = run(capsys, "evaluate", "p.conllu", "g.conllu", "--jobs", jobs)
        assert status == 1 and out == "" and "\x00" not in err
        assert err.startswith(f"annoscore evaluate: p.conllu:{line + 1}:4: a NUL byte"), err
    status, out, err = run(capsys, "evaluate", "g.conllu", "p.conllu")  # as gold, too
    assert status == 1 and f"p.conllu:{line + 1}:4: a NUL byte" in err
    # check (issue 25, item 6): the NUL is noted at its place, and the text
    # is checked as it is, so the validator's findings stay its own.
    status, out, err = run(capsys, "check", "p.conllu", "--gold", "g.conllu")
    assert "\x00" not in out + err
    notes = [k for k in out.splitlines() if " format-binary " in k]
    assert notes == [f"p.conllu:{line + 1}:4: information format-binary a NUL byte: text has no NUL bytes, "
                     "so the file may be damaged here (checked and validated as it is; evaluate does not score it)"]
    assert "not scored" not in err and len(out.splitlines()) > 1


def test_11_utf16_and_gzip_are_named_with_what_to_do(capsys, tmp_path, monkeypatch):
    import gzip
    monkeypatch.chdir(tmp_path)
    (tmp_path / "u.conllu").write_bytes(PRED.encode("utf-16"))
    (tmp_path / "u16.txt").write_bytes("a b\n".encode("utf-16-le"))  # no byte-order mark
    (tmp_path / "z.conllu").write_bytes(gzip.compress(PRED.encode("utf-8")))
    write(tmp_path, "g.conllu", GOLD)
    write(tmp_path, "g.txt", "a b\n")
    for name, needle in (("u.conllu", "UTF-16 (it starts with a UTF-16 byte-order mark); annoscore reads "
                                      "UTF-8: convert it, e.g. with iconv -f UTF-16 -t UTF-8"),
                         ("z.conllu", "gzip-compressed (it starts with gzip's magic number); decompress "
                                      "it first, e.g. with gunzip -k"),
                         ("u16.txt", "looks like UTF-16 (little-endian, without a byte-order mark)")):
        gold = "g.txt" if name.endswith(".txt") else "g.conllu"
        status, out, err = run(capsys, "evaluate", name, gold)
        assert status == 1 and f"{name}:1:1: this file " in err and needle in err
        assert "NUL" not in err
        status, out, err = run(capsys, "check", name)
        assert status == 1 and out.startswith(f"{name}:1:1: error format-binary this file ") and needle in out


def test_11_segmentation_and_labels_say_where_the_nul_is(capsys, tmp_path):
    pred = tmp_path / "p.txt"
    pred.write_bytes(b"a b\n" * 5000 + b"c d\x00e\n")
    gold = write(tmp_path, "g.txt", "a b\n" * 5001)
    status, _, err = run(capsys, "evaluate", str(pred), str(gold))
    assert status == 1 and f"{pred}:5001:4: a NUL byte" in err
    status, _, err = run(capsys, "evaluate", str(pred), str(gold), "--format", "labels")
    assert status == 1 and f"{pred}:5001:4: a NUL byte" in err


def test_11_the_engine_marks_a_nul_typed_in_a_buffer_and_clears_it():
    """What the language server shows: a NUL pasted into a buffer gives
    format-binary (information) at its place, the text still checked and
    scored as it is (issue 25, item 6); deleting it clears the note."""
    from annoscore.server.engine import Engine
    engine = Engine()
    engine.open("p", None, PRED, 1, language="conllu")
    engine.rescore("p")
    assert engine.score("p")["counts"]["sentences"] == 2
    engine.change("p", 2, [((2, 2), (2, 2), "\x00")])
    engine.rescore("p")
    (problem,) = [p for p in engine.diagnostics("p") if p.code == "format-binary"]
    assert (problem.line, problem.start, problem.severity) == (2, 2, Severity.INFORMATION)
    assert engine.score("p")["counts"]["sentences"] == 2
    engine.change("p", 3, [((0, 0), (0, 0), "# x\n")])  # the note moves with the NUL
    engine.rescore("p")
    (problem,) = [p for p in engine.diagnostics("p") if p.code == "format-binary"]
    assert (problem.line, problem.start) == (3, 2)
    engine.change("p", 4, [((0, 0), (1, 0), "")])
    engine.change("p", 5, [((2, 2), (2, 3), "")])
    engine.rescore("p")
    assert "format-binary" not in {p.code for p in engine.diagnostics("p")}
    assert engine.score("p")["counts"]["sentences"] == 2


# --- 12: check reports bytes that are not UTF-8, as evaluate does -----------------------


def test_12_check_reports_latin1_as_evaluate_does(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "l.conllu").write_bytes(PRED.replace("cat\tcat", "caf\xe9\tcat").encode("latin-1"))
    write(tmp_path, "g.conllu", GOLD)
    (tmp_path / "l.txt").write_bytes("ok\nab\xffc\n".encode("latin-1"))
    status, out, _ = run(capsys, "evaluate", "l.conllu", "g.conllu", "--json")
    (expected,) = json.loads(out)["file_problems"]["system"]
    status, out, _ = run(capsys, "check", "l.conllu", "--gold", "g.conllu", "--json")
    assert status == 1
    found = [d for d in json.loads(out)["files"][0]["diagnostics"] if d["code"] == "format-encoding"]
    assert [(d["line"], d["column"], d["message"]) for d in found] == [
        (expected["line"], expected["column"], expected["message"])]
    assert (found[0]["line"], found[0]["column"]) == (3, 6)
    status, out, _ = run(capsys, "check", "l.txt")
    assert status == 1 and "l.txt:2:3: error format-encoding not UTF-8: byte 0xFF at column 3" in out


# --- 9: FIFOs are read once; - is standard input -------------------------------------


def _feed_fifo(path, data: bytes):
    """A writer for a FIFO, as a shell's ``cat file > fifo`` would be: it
    writes once and closes, so a second open by the reader would wait forever."""
    import threading

    def write_all():
        with open(path, "wb") as f:
            f.write(data)
    thread = threading.Thread(target=write_all, daemon=True)
    thread.start()
    return thread


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs (os.mkfifo)")
@pytest.mark.parametrize("argv,pred,gold", [
    ([], PRED, GOLD),
    (["--format", "space"], "a b\nc d\n", "a b\nc d\n"),
    (["--format", "labels"], "x\tA\ny\tB\n", "x\tA\ny\tA\n"),
])
def test_9_fifos_are_read_once(tmp_path, argv, pred, gold):
    pred_fifo, gold_fifo = tmp_path / "pred.fifo", tmp_path / "gold.fifo"
    os.mkfifo(pred_fifo)
    os.mkfifo(gold_fifo)
    writers = [_feed_fifo(pred_fifo, pred.encode()), _feed_fifo(gold_fifo, gold.encode())]
    # (A reader that opens a FIFO twice waits for a second writer: the timeout ends it.)
    done = subprocess.run(COMMAND + ["evaluate", str(pred_fifo), str(gold_fifo), "--json", *argv],
                          capture_output=True, text=True, timeout=20)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["signature"]["files"]["pred"]["path"] == str(pred_fifo)
    import hashlib
    assert data["signature"]["files"]["gold"]["sha256"] == hashlib.sha256(gold.encode()).hexdigest()
    for writer in writers:
        writer.join(5)


def test_9_dash_is_standard_input_for_either_file(tmp_path, files):
    pred, gold = files
    expected = json.loads(subprocess.run(COMMAND + ["evaluate", str(pred), str(gold), "--json"],
                                         capture_output=True, text=True, timeout=60).stdout)
    for argv, stdin in (([ "-", str(gold)], PRED), ([str(pred), "-"], GOLD)):
        done = subprocess.run(COMMAND + ["evaluate", *argv, "--json"], input=stdin,
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        data = json.loads(done.stdout)
        assert data["metrics"] == expected["metrics"]
        role = "pred" if argv[0] == "-" else "gold"
        assert data["signature"]["files"][role]["path"] == "<stdin>"
        assert data["signature"]["files"][role]["sha256"] == expected["signature"]["files"][role]["sha256"]
    done = subprocess.run(COMMAND + ["evaluate", "-", "-"], input=PRED, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2 and "only one input can be -" in done.stderr
    done = subprocess.run(COMMAND + ["evaluate", "-", str(gold)], input="\x00x", capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 1 and "<stdin>:1:1: a NUL byte" in done.stderr
    assert "annoscore-input-" not in done.stderr  # the copy read is never named


# --- 16: --official takes a command on PATH, says what a failed run printed, exits 1 --

OFFICIAL = "import sys\nfrom udtools.cli import main_eval\nsys.exit(main_eval())\n"


def test_16_official_accepts_a_command_on_path(capsys, tmp_path, monkeypatch, files):
    folder = tmp_path / "bin"
    folder.mkdir()
    command = folder / "my-udeval"
    command.write_text(f"#!{sys.executable}\n" + OFFICIAL)
    command.chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ.get('PATH', '')}")
    status, out, err = run(capsys, "evaluate", str(files[0]), str(files[1]), "--official", "my-udeval", "--json")
    assert status == 0, err
    official = json.loads(out)["official"]
    assert official["error"] is None and official["metrics"]["UPOS"]["f1"] == pytest.approx(0.75)
    status, _, err = run(capsys, "evaluate", str(files[0]), str(files[1]), "--official", "no-such-udeval")
    assert status == 1 and "no-such-udeval: not found, neither as a file nor as a command on PATH" in err


@pytest.mark.parametrize("script,needle", [
    ("", "printed no table of scores (is it conll18_ud_eval.py?); it printed nothing on stdout"),
    ("print('hello')\nprint('Usage: x')\n", "printed no table of scores (is it conll18_ud_eval.py?); "
                                           "the last of its 2 lines on stdout: 'Usage: x'"),
    ("import sys\nprint('boom', file=sys.stderr)\nsys.exit(3)\n", "exited with status 3; its only line on stderr: 'boom'"),
])
def test_16_a_failed_official_run_says_what_it_printed_and_exits_1(capsys, tmp_path, files, script, needle):
    path = write(tmp_path, "conll18_ud_eval.py", script)
    status, out, err = run(capsys, "evaluate", str(files[0]), str(files[1]), "--official", str(path))
    assert status == 1
    assert needle in out and needle in err  # in the report, and on stderr
    assert "Metric    | Precision" in out  # our own table is still there
    status, out, err = run(capsys, "evaluate", str(files[0]), str(files[1]), "--official", str(path), "--json")
    assert status == 1 and needle in json.loads(out)["official"]["error"]


# --- 13: watch: deletions, binary overwrites, gold files, floods, a start message ----


class Watch:
    """``annoscore watch`` in a folder, its stdout lines pumped into a queue
    (so that a test waiting for a line never hangs); Ctrl-C at the end."""

    def __init__(self, folder, *argv):
        import queue
        import signal
        import threading
        # Ctrl-C as in a terminal (a suite run in the background inherits SIGINT ignored).
        self.process = subprocess.Popen(COMMAND + ["watch", *argv], cwd=folder, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True,
                                        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()
        self.stderr = ""

    def _pump(self):
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))

    def until(self, predicate, timeout=30):
        """Lines up to and including the first one for which predicate is true."""
        import queue
        import time
        out, deadline = [], time.time() + timeout
        while time.time() < deadline:
            try:
                line = self.lines.get(timeout=0.2)
            except queue.Empty:
                continue
            out.append(line)
            if predicate(line):
                return out
        raise AssertionError(f"no such line; got {out[-20:]}")

    def quiet_for(self, seconds):
        """The lines printed in the next few seconds."""
        import queue
        import time
        out, deadline = [], time.time() + seconds
        while time.time() < deadline:
            try:
                out.append(self.lines.get(timeout=0.1))
            except queue.Empty:
                pass
        return out

    def stop(self):
        import signal
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(timeout=10)
        finally:
            self.process.kill()
        self.stderr = self.process.stderr.read()
        return self.process.returncode


def _gold_of(n: int) -> str:
    return "".join(f"# sent_id = s{k}\n1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n\n" for k in range(n))


def test_13_watch_says_what_it_watches_and_reports_deletion_and_binary(tmp_path):
    import time
    (tmp_path / "dev.conllu").write_text(_gold_of(3), encoding="utf-8")
    (tmp_path / "dev.gold.conllu").write_text(_gold_of(3), encoding="utf-8")
    watch = Watch(tmp_path)
    try:
        start = watch.until(lambda line: line.startswith("dev.gold.conllu:"))
        assert "dev.conllu: LAS 100.00" in "\n".join(start)
        assert start[-1] == "dev.gold.conllu: the gold of dev.conllu"  # not "no gold"
        time.sleep(1.0)  # let the watcher settle
        (tmp_path / "dev.conllu").write_bytes(b"\x1f\x8b\x08\x00binary")
        lines = watch.until(lambda line: line.startswith("dev.conllu: not scored"))
        assert any("dev.conllu:1:1: error format-binary this file is gzip-compressed" in l for l in lines)
        time.sleep(0.5)
        (tmp_path / "dev.conllu").unlink()
        assert watch.until(lambda line: "deleted" in line)[-1] == "dev.conllu: deleted (scored again if it comes back)"
        time.sleep(0.5)
        (tmp_path / "dev.conllu").write_text(_gold_of(3), encoding="utf-8")
        watch.until(lambda line: line.startswith("dev.conllu: LAS 100.00"))
        # The gold is rescored with its prediction, but nothing changed for it: no line.
        later = watch.quiet_for(1.5)
        assert not any(l.startswith("dev.gold.conllu") for l in later), later
    finally:
        assert watch.stop() == 0
    assert watch.stderr.startswith("annoscore watch: watching .: 2 files annoscore reads (1 scored against "
                                   "gold); printing what changes on every save. Ctrl-C stops.")
    assert "Traceback" not in watch.stderr


def test_13_watch_caps_a_flood_of_one_code(tmp_path):
    import time
    (tmp_path / "dev.gold.conllu").write_text(_gold_of(300), encoding="utf-8")
    (tmp_path / "dev.conllu").write_text(_gold_of(300), encoding="utf-8")
    watch = Watch(tmp_path)
    try:
        watch.until(lambda line: line.startswith("dev.gold.conllu:"))
        time.sleep(1.0)
        (tmp_path / "dev.conllu").write_text(_gold_of(1), encoding="utf-8")  # a parser run that stopped
        lines = watch.until(lambda line: line.startswith("dev.gold.conllu: the gold of"))
        missing = [l for l in lines if "dev.gold.conllu" in l and "information missing-sentence" in l]
        assert len(missing) == 10
        assert "+ dev.gold.conllu: … and 289 more 'missing-sentence' (annoscore check dev.gold.conllu " \
               "lists them all)" in lines
    finally:
        assert watch.stop() == 0


def test_13_watch_json_says_deleted(tmp_path):
    import time
    (tmp_path / "dev.conllu").write_text(_gold_of(2), encoding="utf-8")
    watch = Watch(tmp_path, "--json")
    try:
        watch.until(lambda line: json.loads(line)["path"] == "dev.conllu")
        time.sleep(1.0)
        (tmp_path / "dev.conllu").unlink()
        event = json.loads(watch.until(lambda line: json.loads(line)["event"] == "deleted")[-1])
        assert event == {"event": "deleted", "path": "dev.conllu"}
    finally:
        assert watch.stop() == 0


# --- The CLI friction bullet ------------------------------------------------------------


def test_friction_counts_option_shows_raw_counts_and_intervals(capsys, files):
    status, out, _ = run(capsys, "evaluate", str(files[0]), str(files[1]), "--json")
    upos = json.loads(out)["metrics"]["UPOS"]
    status, out, _ = run(capsys, "evaluate", str(files[0]), str(files[1]), "--counts")
    assert status == 0
    header, _, *rows = out.splitlines()
    assert [c.strip() for c in header.split("|")] == [
        "Metric", "Precision", "Recall", "F1", "AlignedAcc", "Correct", "Gold", "Predicted", "Aligned",
        "P 95% CI", "R 95% CI"]
    cells = [c.strip() for c in next(r for r in rows if r.startswith("UPOS")).split("|")]
    assert cells[5:9] == [str(upos["correct"]), str(upos["gold_total"]), str(upos["system_total"]),
                          str(upos["aligned_total"])]
    low, high = upos["precision_ci95"]
    assert cells[9] == f"{100 * low:.2f}-{100 * high:.2f}"
    status, out, _ = run(capsys, "evaluate", str(files[0]), str(files[1]))
    assert "Correct" not in out.splitlines()[0]  # the default stays the official table
    status, _, err = run(capsys, "evaluate", "a.txt", "b.txt", "--counts")
    assert status != 0


def test_friction_help_texts_and_metric_names(capsys):
    from annoscore.server.cli import evaluate_conllu, evaluate_labels
    from annoscore.scorer.segmentation.evaluate import OUTCOME_METRICS
    for command, needle in (("demo", "bundled sample prediction"), ("check", "folders to search"),
                            ("watch", "files or folders to watch")):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        assert needle in " ".join(capsys.readouterr().out.split())
    with pytest.raises(SystemExit):
        main(["evaluate", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for name in evaluate_conllu.SAVE_METRICS + OUTCOME_METRICS + evaluate_labels.OUTCOME_METRICS:
        assert re.search(rf"\b{name}\b", text.split("--metric M", 1)[1]), name
    assert "--counts" in text and "command on PATH" in text and "- for standard input" in text


def test_friction_check_errors_paths_and_empty_folders(capsys, tmp_path, monkeypatch, files):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    inside = tmp_path / "work"
    inside.mkdir()
    monkeypatch.chdir(inside)
    status, _, err = run(capsys, "check", str(files[0]), "--gold", "nope.conllu")
    assert status == 1 and err.strip() == "annoscore check: nope.conllu: no such file (gold)"
    # A file outside the current folder is named by its absolute path, not ../pred.conllu.
    status, out, err = run(capsys, "check", str(files[0]), "--json")
    assert json.loads(out)["files"][0]["path"] == str(files[0])
    status, out, err = run(capsys, "check", str(files[0]))
    assert err.startswith(f"{files[0]}: ")
    write(inside, "here.conllu", PRED)
    status, out, err = run(capsys, "check", str(inside / "here.conllu"))
    assert err.startswith("here.conllu: ")
    # No file to check is an error, not a silent pass.
    status, out, err = run(capsys, "check", str(elsewhere))
    assert status == 1 and out == ""
    assert f"{elsewhere}: no file annoscore reads here" in err
    (elsewhere / "notes.md").write_text("# hi\n")
    assert run(capsys, "check", str(elsewhere))[0] == 1


def test_friction_save_errors_says_what_it_wrote(capsys, tmp_path, files):
    target = tmp_path / "errors.json"
    status, out, err = run(capsys, "evaluate", str(files[0]), str(files[1]), "--save-errors", str(target),
                           "--json")
    assert status == 0 and json.loads(out)  # stdout is still only the JSON
    assert err.strip() == (f"annoscore evaluate: wrote LAS right/wrong for 4 gold words (4 right, 0 wrong) "
                           f"to {target}; `annoscore compare {target} OTHER` compares it with another "
                           "system's list")
    assert json.loads(target.read_text())["outcomes"] == "1111"


# --- Options with nothing to work on: no Conf values, no DEPS -----------------------------


def test_no_confidences_and_no_enhanced_dependencies_are_said(capsys, files):
    status, out, _ = run(capsys, "evaluate", str(files[0]), str(files[1]), "--calibration", "--threshold", "0.8")
    assert status == 0
    assert "Calibration: the prediction has no confidences (no Conf= in MISC)." in out
    assert "Cells below confidence 0.8: none counted, the prediction has no confidences (no Conf= in MISC)." in out
    assert "Expected calibration error:  points" not in out and "0 of 0" not in out
    assert ("Note: ELAS and EULAS: gold has no enhanced dependencies (DEPS is _ everywhere), so there is "
            "nothing to score; they are 0 as in the official script.") in out
    status, out, _ = run(capsys, "evaluate", str(files[0]), str(files[1]), "--calibration", "--threshold",
                         "0.8", "--json")
    data = json.loads(out)
    assert data["metrics"]["ELAS"]["gold_total"] == 0 and data["metrics"]["ELAS"]["f1"] == 0.0  # official counts kept
    assert any(n.startswith("ELAS and EULAS: gold has no enhanced dependencies") for n in data["notes"])
    assert any("--calibration and --threshold: the prediction has no confidences" in n for n in data["notes"])


def test_a_prediction_without_deps_against_gold_with_deps_is_said(capsys, tmp_path, files):
    gold = write(tmp_path, "g2.conllu", GOLD.replace("\t_\t_\n", "\t0:root\t_\n").replace(
        "\tdet\t_\t_", "\tdet\t2:det\t_").replace("\tnsubj\t_\t_", "\tnsubj\t2:nsubj\t_"))
    status, out, _ = run(capsys, "evaluate", str(files[0]), str(gold))
    assert "Note: ELAS and EULAS: the prediction has no enhanced dependencies" in out
    status, out, _ = run(capsys, "evaluate", str(gold), str(gold))
    assert "Note: ELAS" not in out


# --- Likely mistakes noticed: --pos forgotten, labels read as segmentation, files swapped --


def _hints(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("annoscore evaluate: hint: ")]


def test_hint_word_pos_without_pos(capsys, tmp_path):
    gold = write(tmp_path, "g.txt", "The/DET cat/NOUN sat/VERB\nA/DET dog/NOUN ran/VERB\n")
    pred = write(tmp_path, "p.txt", "The/DET cat/VERB sat/VERB\nA/DET dog/NOUN ran/VERB\n")
    status, out, err = run(capsys, "evaluate", str(pred), str(gold))
    assert status == 0
    assert _hints(err) == ["annoscore evaluate: hint: the tokens look like word/UPOS (e.g. 'The/DET'): did "
                           "you mean --pos? Without it the tags are part of the text, and lines whose tags "
                           "differ are left out"]
    assert run(capsys, "evaluate", str(pred), str(gold), "--pos")[2] == ""


def test_hint_labels_read_as_segmentation(capsys, tmp_path):
    gold = write(tmp_path, "g.tsv", "s1\tce\ns2\til\ns3\tce\n")
    pred = write(tmp_path, "p.tsv", "s1\tce\ns2\tce\n")
    status, _, err = run(capsys, "evaluate", str(pred), str(gold))
    assert status == 1 and "so lines cannot be paired by position" in err.splitlines()[-1]  # the error stays
    assert _hints(err) == ["annoscore evaluate: hint: every line looks like ID<TAB>LABEL: for labels, add "
                           "--format labels (.tsv files are read as segmentation unless told)"]
    gold = write(tmp_path, "g.txt", "ce\nil\nce\nce\nil\n")
    pred = write(tmp_path, "p.txt", "ce\nce\nce\nil\nil\n")
    status, _, err = run(capsys, "evaluate", str(pred), str(gold))
    assert status == 0 and len(_hints(err)) == 1 and "add --format labels (.txt files" in err
    assert run(capsys, "evaluate", str(pred), str(gold), "--format", "labels")[2] == ""
    # A segmentation that scores (no mismatch) gets no hint, whatever its lines look like.
    assert run(capsys, "evaluate", str(gold), str(gold))[2] == ""


def test_hint_gold_and_prediction_swapped(capsys, tmp_path, files):
    pred = write(tmp_path, "confident.conllu", PRED.replace("root\t_\t_", "root\t_\tConf=0.9"))
    status, out, err = run(capsys, "evaluate", str(files[1]), str(pred), "--json")
    assert status == 0 and json.loads(out)
    assert _hints(err) == ["annoscore evaluate: hint: GOLD has confidences (Conf= in MISC) and PRED has not: "
                           "are they swapped? annoscore takes the prediction first, then gold "
                           "(conll18_ud_eval.py takes gold first)"]
    assert run(capsys, "evaluate", str(pred), str(files[1]))[2] == ""
    unparsed = write(tmp_path, "unparsed.conllu", PRED.replace("\t2\tnsubj\t", "\t_\tnsubj\t").replace(
        "\t0\troot\t_\t_\n\n", "\t_\troot\t_\t_\n\n"))
    status, out, err = run(capsys, "evaluate", str(files[1]), str(unparsed))
    assert "GOLD has sentences not parsed yet (HEAD _) and PRED has not" in err


# --- 11, in the editor: a NUL typed into a buffer, through a real LSP client -------------


def _change(lsp_client, uri: str, version: int, line: int, start: int, end: int, text: str) -> None:
    """One edit, then a save (the server rescores on save by default)."""
    from lsprotocol import types
    lsp_client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[types.TextDocumentContentChangePartial(
            range=types.Range(start=types.Position(line=line, character=start),
                              end=types.Position(line=line, character=end)), text=text)]))
    lsp_client.text_document_did_save(types.DidSaveTextDocumentParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))


@pytest.mark.asyncio(loop_scope="function")
async def test_11_a_nul_typed_in_the_editor_is_format_binary_at_its_place(client):
    from tests.support.lsp import workspace
    pred, _ = workspace(client.root)
    uri = open_document(client, pred)
    before = await diagnostics_for(client, uri)
    assert "format-binary" not in {d.code for d in before}
    scored = await client.protocol.send_request_async("annoscore/score", {"uri": uri})
    _change(client, uri, 2, 3, 2, 2, "\x00")
    after = await diagnostics_for(client, uri, previous=before, version=2)
    notes = [(d.range.start.line, d.range.start.character, d.severity) for d in after if d.code == "format-binary"]
    assert notes == [(3, 2, 3)]  # information at the NUL, the rest still checked (issue 25, item 6)
    answer = await client.protocol.send_request_async("annoscore/score", {"uri": uri})
    assert answer.counts.sentences == scored.counts.sentences > 0
    _change(client, uri, 3, 3, 2, 3, "")
    mended = await diagnostics_for(client, uri, previous=after, version=3)
    assert {(d.code, d.range.start.line) for d in mended} == {(d.code, d.range.start.line) for d in before}
