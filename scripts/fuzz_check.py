#!/usr/bin/env python3
"""Fuzz `annoscore check --level 5 --lang L` with mutated excerpts of real treebanks.

Each run takes an excerpt (20-80 sentences by default) of a UD treebank
under the data folder (the language from the file name, en_ewt-ud-dev ->
en), applies one to a few line or byte mutations (deleted, duplicated,
swapped lines, tabs, combining marks, RTL marks, U+FFFD, NUL, invalid
UTF-8, huge numbers, odd IDs such as 2-1 or 3.1, misplaced empty nodes and
comments, blank lines, CRLF, BOM) and runs ``check --level 5 --lang L
--json`` through the CLI's main entry, in process; every
``--subprocess-every``-th run goes through a fresh interpreter instead (a
crash of the interpreter itself).  A run fails on a traceback, an
``internal-error`` diagnostic, output that is not JSON, an exit status
other than 0/1/2, or more than ``--time-limit`` seconds.

For ``--parity`` of the runs (spread evenly) the official validator
(``udvalidate`` of udtools 0.2.9, from the test extras; GPL, so only run as
a separate program, never imported) validates the same file at the same
level and language, and the (line, test id, severity) multisets must be
equal; files on which udvalidate crashes are counted and skipped.

Every run is reproducible from (--seed, its index): a failure is written
to ``--out`` as ``<run>.conllu`` (the mutated input, as bytes) and
``<run>.txt`` (the command, what failed, the traceback or the difference).
Counts are printed at the end; the exit status is 1 when anything failed.

    python scripts/fuzz_check.py --runs 10000 --parity 300 --out /tmp/fuzz-failures
    python scripts/fuzz_check.py --runs 1 --first 4711 --out /tmp/f   # run 4711 alone
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

DEFAULT_DATA = ROOT.parent / "shared" / "data" / "ud"

# --- mutations --------------------------------------------------------------------------------
# Each takes the excerpt's lines (str, without line ends) and a random
# generator and changes the lines in place; the byte mutations run later on
# the encoded file (Mutation.on_bytes).

HUGE = ("99999999999999999999999", "18446744073709551617", "1" * 60, "1e400", "-0", "٣")
ODD_IDS = ("2-1", "3.1", "0", "0.1", "1-1", "01", "2.0", "-1", "1.", "1-", "3-3", "1.1.1", "10-2",
           "5.99999999999999999999", "1-99999999999999999999", " 1")
CHARS = {
    "combining": ("\u0301", "\u0308", "\u20dd"),
    "rtl": ("\u200f", "\u202e", "\u202b", "\u061c", "\u2067"),
    "fffd": ("\ufffd",),
    "nul": ("\x00",),
}


def _token_lines(lines: list[str]) -> list[int]:
    return [i for i, line in enumerate(lines) if line and not line.startswith("#")]


def _any_line(lines: list[str], rng: random.Random) -> int:
    return rng.randrange(len(lines)) if lines else 0


def delete_line(lines, rng):
    if lines:
        del lines[_any_line(lines, rng)]


def duplicate_line(lines, rng):
    if lines:
        i = _any_line(lines, rng)
        lines.insert(i, lines[i])


def swap_lines(lines, rng):
    if len(lines) > 1:
        i = rng.randrange(len(lines) - 1)
        j = i + 1 if rng.random() < 0.7 else rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]


def blank_line(lines, rng):
    """A blank line added (a sentence split) or removed (two joined)."""
    blanks = [i for i, line in enumerate(lines) if not line]
    if blanks and rng.random() < 0.5:
        del lines[rng.choice(blanks)]
    else:
        lines.insert(_any_line(lines, rng), rng.choice(("", " ", "\t")))


def _cell_edit(lines, rng, change):
    tokens = _token_lines(lines)
    if not tokens:
        return
    i = rng.choice(tokens)
    cells = lines[i].split("\t")
    c = rng.randrange(len(cells))
    cells[c] = change(cells[c])
    lines[i] = "\t".join(cells)


def tab(lines, rng):
    """A tab inserted in a cell (a column too many), a tab removed (one too
    few), a doubled tab (an empty cell) or a trailing tab."""
    tokens = _token_lines(lines)
    if not tokens:
        return
    i = rng.choice(tokens)
    line = lines[i]
    action = rng.randrange(4)
    if action == 0:
        at = rng.randrange(len(line) + 1)
        lines[i] = line[:at] + "\t" + line[at:]
    elif action == 1 and "\t" in line:
        at = rng.choice([m.start() for m in re.finditer("\t", line)])
        lines[i] = line[:at] + rng.choice(("", " ")) + line[at + 1:]
    elif action == 2:
        lines[i] = line.replace("\t", "\t\t", 1)
    else:
        lines[i] = line + "\t"


def _insert_char(kind):
    def mutate(lines, rng):
        if not lines:
            return
        i = _any_line(lines, rng)
        line = lines[i]
        if line and rng.random() < 0.6:  # inside a cell: at its start, inside or at its end
            cells = line.split("\t")
            c = rng.randrange(len(cells))
            at = rng.choice((0, len(cells[c]), rng.randrange(len(cells[c]) + 1)))
            cells[c] = cells[c][:at] + rng.choice(CHARS[kind]) + cells[c][at:]
            lines[i] = "\t".join(cells)
        elif rng.random() < 0.5:  # as an eleventh column
            lines[i] = line + "\t" + rng.choice(CHARS[kind])
        else:
            at = rng.randrange(len(line) + 1)
            lines[i] = line[:at] + rng.choice(CHARS[kind]) + line[at:]
    mutate.__name__ = kind
    return mutate


def huge_number(lines, rng):
    """A huge or odd number in ID, HEAD, a DEPS head or a sent_id."""
    def change(cell):
        return rng.choice(HUGE)
    tokens = _token_lines(lines)
    if not tokens:
        return
    i = rng.choice(tokens)
    cells = lines[i].split("\t")
    where = rng.choice((0, 6, 8)) if len(cells) >= 9 else 0
    if where == 8 and ":" in cells[8]:
        cells[8] = rng.choice(HUGE) + cells[8][cells[8].index(":"):]
    else:
        cells[where] = change(cells[where])
    lines[i] = "\t".join(cells)


def odd_id(lines, rng):
    tokens = _token_lines(lines)
    if tokens:
        i = rng.choice(tokens)
        cells = lines[i].split("\t")
        cells[0] = rng.choice(ODD_IDS)
        lines[i] = "\t".join(cells)


def empty_node(lines, rng):
    """An empty node where it does not belong: before its word, at a
    sentence's start, after its end, with a HEAD, or a copy of a word as one."""
    tokens = _token_lines(lines)
    if not tokens:
        return
    i = rng.choice(tokens)
    cells = lines[i].split("\t")
    whole = cells[0].split("-")[0].split(".")[0]
    n = whole if whole.isdigit() else "1"
    number = rng.choice((n, str(int(n) + 1), str(max(int(n) - 1, 0)), "0", "99"))
    node = [f"{number}.{rng.choice(('1', '2', '0'))}", "x", "x", "NOUN", "_", "_",
            rng.choice(("_", "0", n)), rng.choice(("_", "dep")), f"{n}:dep" if rng.random() < 0.7 else "_", "_"]
    lines.insert(rng.choice((i, i + 1)), "\t".join(node))


def comment(lines, rng):
    """A comment inside a sentence, after its last word, or one of the
    comments the validator reads (sent_id, text, newdoc, newpar) doubled,
    emptied or put inside the words."""
    i = _any_line(lines, rng)
    text = rng.choice(("# misplaced", "# sent_id = x", "# text = ", "# newdoc", "# newpar id = p1",
                       "# sent_id = a/b", "# text = \t", "#", "# = ", "# global.columns = ID FORM"))
    if rng.random() < 0.3:  # an existing comment moved into the words
        comments = [j for j, line in enumerate(lines) if line.startswith("#")]
        if comments:
            j = rng.choice(comments)
            text = lines.pop(j)
            i = min(i, len(lines))
    lines.insert(i, text)


def _cr_lines(lines, rng):
    """Some lines end with CR (the file's other lines as they were)."""
    for _ in range(rng.randint(1, 3)):
        if lines:
            i = _any_line(lines, rng)
            lines[i] += "\r"


@dataclass(frozen=True)
class Mutation:
    name: str
    on_lines: object = None  # (lines, rng) -> None
    on_bytes: object = None  # (bytes, rng) -> bytes


def _nul_byte(data: bytes, rng: random.Random) -> bytes:
    at = rng.randrange(len(data) + 1)
    return data[:at] + b"\x00" + data[at:]


def _invalid_utf8(data: bytes, rng: random.Random) -> bytes:
    bad = rng.choice((b"\xff", b"\xc3", b"\xe2\x82", b"\x80", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xc0\xaf"))
    at = rng.randrange(len(data) + 1)
    if rng.random() < 0.3:
        return data[:at] + bad + data[at + 1:]  # replacing a byte: often cutting a character in two
    return data[:at] + bad + data[at:]


def _crlf(data: bytes, rng: random.Random) -> bytes:
    if rng.random() < 0.5:
        return data.replace(b"\n", b"\r\n")
    return data  # (the line-wise CR mutation does the partial case)


def _bom(data: bytes, rng: random.Random) -> bytes:
    if rng.random() < 0.7:
        return b"\xef\xbb\xbf" + data
    at = data.find(b"\n", rng.randrange(len(data) + 1))
    at = len(data) if at < 0 else at + 1
    return data[:at] + b"\xef\xbb\xbf" + data[at:]  # at the start of a later line


MUTATIONS = (
    Mutation("delete-line", delete_line),
    Mutation("duplicate-line", duplicate_line),
    Mutation("swap-lines", swap_lines),
    Mutation("blank-line", blank_line),
    Mutation("tab", tab),
    Mutation("combining-mark", _insert_char("combining")),
    Mutation("rtl-mark", _insert_char("rtl")),
    Mutation("fffd", _insert_char("fffd")),
    Mutation("nul", _insert_char("nul")),
    Mutation("nul-byte", on_bytes=_nul_byte),
    Mutation("invalid-utf8", on_bytes=_invalid_utf8),
    Mutation("huge-number", huge_number),
    Mutation("odd-id", odd_id),
    Mutation("empty-node", empty_node),
    Mutation("comment", comment),
    Mutation("cr-lines", _cr_lines),
    Mutation("crlf", on_bytes=_crlf),
    Mutation("bom", on_bytes=_bom),
)


# --- the corpus -------------------------------------------------------------------------------


@dataclass
class Source:
    name: str
    lang: str
    blocks: list[str]


def load_corpus(data: Path) -> list[Source]:
    """Every *.conllu under ``data`` (one folder level down too), cut into
    sentences; the language from the UD file name."""
    from annoscore.scorer.validation import guess_language

    sources = []
    for path in sorted({*data.glob("*.conllu"), *data.glob("*/*.conllu")}):
        lang = guess_language(path)
        if not lang:
            continue
        blocks = [b for b in path.read_text(encoding="utf-8").split("\n\n") if b.strip()]
        if blocks:
            sources.append(Source(path.name, lang, blocks))
    return sources


@dataclass
class Case:
    index: int
    source: str
    lang: str
    start: int
    sentences: int
    kinds: list[str]
    data: bytes


def make_case(sources: list[Source], seed: int, index: int, low: int = 20, high: int = 80) -> Case:
    """Run ``index`` of campaign ``seed``: the same excerpt and mutations each time."""
    rng = random.Random(f"{seed}:{index}")
    source = rng.choice(sources)
    count = min(rng.randint(low, high), len(source.blocks))
    start = rng.randrange(len(source.blocks) - count + 1)
    text = "\n\n".join(block.strip("\n") for block in source.blocks[start:start + count]) + "\n\n"
    lines = text.split("\n")[:-1]  # (each line without its end; the file ends with one)
    chosen = [rng.choice(MUTATIONS) for _ in range(rng.choice((1, 1, 2, 2, 3, 4)))]
    for mutation in chosen:
        if mutation.on_lines:
            mutation.on_lines(lines, rng)
    data = ("\n".join(lines) + "\n").encode("utf-8")
    if rng.random() < 0.05:  # sometimes no final line end
        data = data.rstrip(b"\n")
    for mutation in chosen:
        if mutation.on_bytes:
            data = mutation.on_bytes(data, rng)
    return Case(index, source.name, source.lang, start, count, [m.name for m in chosen], data)


# --- one run ----------------------------------------------------------------------------------


class _TimeLimit(Exception):
    pass


def _on_alarm(signum, frame):
    raise _TimeLimit()


def check_command(path: str, lang: str) -> list[str]:
    return ["check", "--level", "5", "--lang", lang, "--json", path]


@dataclass
class Outcome:
    status: int | None
    stdout: str
    stderr: str
    seconds: float
    fault: str = ""  # a traceback caught in process
    timed_out: bool = False


def run_in_process(path: str, lang: str, time_limit: float) -> Outcome:
    from annoscore.server.cli import main

    out, err = io.StringIO(), io.StringIO()
    fault, status, timed_out = "", None, False
    old = signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, time_limit)
    began = time.perf_counter()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = main(check_command(path, lang))
            except SystemExit as stop:  # (argparse)
                status = stop.code if isinstance(stop.code, int) else 2
    except _TimeLimit:
        timed_out = True
    except BaseException:  # noqa: BLE001 - anything escaping main is what we look for
        fault = traceback.format_exc()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    return Outcome(status, out.getvalue(), err.getvalue(), time.perf_counter() - began, fault, timed_out)


def run_in_subprocess(path: str, lang: str, time_limit: float) -> Outcome:
    command = [sys.executable, "-m", "annoscore", *check_command(path, lang)]
    began = time.perf_counter()
    try:
        done = subprocess.run(command, capture_output=True, timeout=time_limit, cwd=os.path.dirname(path),
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    except subprocess.TimeoutExpired as late:
        return Outcome(None, (late.stdout or b"").decode("utf-8", "replace"),
                       (late.stderr or b"").decode("utf-8", "replace"), time.perf_counter() - began, timed_out=True)
    return Outcome(done.returncode, done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace"),
                   time.perf_counter() - began)


def problems_of(outcome: Outcome, time_limit: float) -> tuple[list[str], object]:
    """What is wrong with a run (empty: nothing), and its JSON."""
    wrong = []
    if outcome.timed_out or outcome.seconds > time_limit:
        wrong.append(f"took more than {time_limit:g} s")
    if outcome.fault:
        wrong.append("an exception escaped the CLI's main")
    if "Traceback (most recent call last)" in outcome.stdout + outcome.stderr:
        wrong.append("a traceback in its output")
    if not outcome.timed_out and outcome.status not in (0, 1, 2):
        wrong.append(f"exit status {outcome.status}")
    document = None
    if not outcome.timed_out and not outcome.fault:
        try:
            document = json.loads(outcome.stdout)
        except ValueError as error:
            wrong.append(f"its output is not JSON ({error})")
    if document is not None and "internal-error" in json.dumps(document):
        wrong.append("an internal-error diagnostic")
    return wrong, document


# --- parity with udvalidate -------------------------------------------------------------------

# [Line 38 Sent x]: [L1 FORMAT word-id-sequence] message  (a warning's class is WARNING)
_UDV_LINE = re.compile(r"^\[Line (\d+) Sent .*?\]: \[L\d (\S+) (\S+)\] ")


def udvalidate_program() -> str | None:
    here = Path(sys.executable).with_name("udvalidate")
    return str(here) if here.exists() else shutil.which("udvalidate")


@dataclass(frozen=True)
class Crashed:
    """udvalidate did not finish: why (its exception's name, or a time out)."""
    reason: str


def official(path: str, lang: str, time_limit: float = 120) -> Counter | Crashed:
    """udvalidate's (0-based line, test id, severity) multiset on the file,
    or how it crashed (a traceback, no summary, or a time out)."""
    program = udvalidate_program()
    try:
        done = subprocess.run([program, "--level", "5", "--lang", lang, "--max-err", "0", path],
                              capture_output=True, timeout=time_limit)
    except subprocess.TimeoutExpired:
        return Crashed("time-out")
    text = (done.stdout + done.stderr).decode("utf-8", "replace")
    if "Traceback (most recent call last)" in text or done.returncode not in (0, 1) or \
            ("*** PASSED ***" not in text and "*** FAILED ***" not in text):
        last = re.findall(r"^(\w+(?:Error|Exception|Interrupt)\b)", done.stderr.decode("utf-8", "replace"), re.M)
        return Crashed(last[-1] if last else f"exit status {done.returncode}")
    found: Counter = Counter()
    for line in text.split("\n"):
        match = _UDV_LINE.match(line)
        if match:
            number, testclass, test_id = match.groups()
            found[(int(number) - 1, test_id, "warning" if testclass == "WARNING" else "error")] += 1
    return found


def ours(document) -> Counter:
    """The validator's findings in ``check --json``: (0-based line, test id, severity)."""
    found: Counter = Counter()
    for file in document.get("files", []) if isinstance(document, dict) else []:
        for diagnostic in file.get("diagnostics", []):
            # (annoscore's own codes have no test id; where one diagnostic is both
            # annoscore's and the validator's, ud_line is the validator's line)
            if diagnostic.get("test_id"):
                found[((diagnostic.get("ud_line") or diagnostic["line"]) - 1, diagnostic["test_id"],
                       diagnostic["severity"])] += 1
    return found


def difference(expected: Counter, got: Counter) -> str:
    rows = []
    for key in sorted(set(expected) | set(got)):
        if expected[key] != got[key]:
            rows.append(f"  line {key[0] + 1} {key[1]} {key[2]}: udvalidate {expected[key]}, annoscore {got[key]}")
    return "\n".join(rows[:40]) + (f"\n  … {len(rows) - 40} more" if len(rows) > 40 else "")


# --- the campaign -----------------------------------------------------------------------------


@dataclass
class Counts:
    runs: int = 0
    in_subprocess: int = 0
    kinds: Counter = field(default_factory=Counter)
    statuses: Counter = field(default_factory=Counter)
    failures: int = 0
    failed_kinds: Counter = field(default_factory=Counter)
    parity_compared: int = 0
    parity_equal: int = 0
    parity_crashed: int = 0
    crash_reasons: Counter = field(default_factory=Counter)
    slowest: float = 0.0
    seconds: float = 0.0

    def report(self) -> str:
        kinds = ", ".join(f"{k} {n}" for k, n in sorted(self.kinds.items()))
        failed = ", ".join(f"{k} {n}" for k, n in sorted(self.failed_kinds.items())) or "none"
        statuses = ", ".join(f"{k}: {n}" for k, n in sorted(self.statuses.items(), key=str))
        return "\n".join((
            f"runs {self.runs} ({self.in_subprocess} in a subprocess), {self.seconds:.0f} s, "
            f"slowest {self.slowest:.2f} s",
            f"exit statuses: {statuses}",
            f"mutations: {kinds}",
            f"failures {self.failures} (by mutation: {failed})",
            f"parity: compared {self.parity_compared}, equal {self.parity_equal}, "
            f"udvalidate crashed {self.parity_crashed}"
            + (f" ({', '.join(f'{k} {n}' for k, n in sorted(self.crash_reasons.items()))})"
               if self.crash_reasons else ""),
        ))


def write_reproducer(out: Path, seed: int, case: Case, what: list[str], detail: str) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    stem = f"seed{seed}-run{case.index}"
    path = out / f"{stem}.conllu"
    path.write_bytes(case.data)
    (out / f"{stem}.txt").write_text(
        f"annoscore {' '.join(check_command(path.name, case.lang))}\n"
        f"# reproduce: python scripts/fuzz_check.py --seed {seed} --first {case.index} --runs 1 --out DIR\n"
        f"# from {case.source}, sentences {case.start + 1}-{case.start + case.sentences}, "
        f"mutations {', '.join(case.kinds)}\n"
        + "".join(f"# {w}\n" for w in what) + ("\n" + detail if detail else ""), encoding="utf-8")
    return path


def campaign(sources: list[Source], *, seed: int, first: int, runs: int, parity: int, out: Path,
             time_limit: float = 20, subprocess_every: int = 50, low: int = 20, high: int = 80,
             progress=None) -> Counts:
    counts = Counts()
    parity_every = max(runs // parity, 1) if parity else 0
    began = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="annoscore-fuzz-") as folder:
        for index in range(first, first + runs):
            case = make_case(sources, seed, index, low, high)
            path = os.path.join(folder, "fuzz.conllu")  # (not a UD name: the language is --lang's)
            with open(path, "wb") as handle:
                handle.write(case.data)
            by_subprocess = subprocess_every and index % subprocess_every == 0
            run = run_in_subprocess if by_subprocess else run_in_process
            outcome = run(path, case.lang, time_limit)
            counts.runs += 1
            counts.in_subprocess += bool(by_subprocess)
            counts.kinds.update(case.kinds)
            counts.statuses[outcome.status if not outcome.timed_out else "time-out"] += 1
            counts.slowest = max(counts.slowest, outcome.seconds)
            wrong, document = problems_of(outcome, time_limit)
            detail = outcome.fault or (outcome.stderr[-4000:] if wrong else "")
            wants_parity = parity_every and (index - first) % parity_every == 0 \
                and counts.parity_compared + counts.parity_crashed < parity
            if wants_parity and document is not None:
                expected = official(path, case.lang)
                if isinstance(expected, Crashed):
                    counts.parity_crashed += 1
                    counts.crash_reasons[expected.reason] += 1
                else:
                    counts.parity_compared += 1
                    got = ours(document)
                    if got == expected:
                        counts.parity_equal += 1
                    else:
                        wrong.append("the validator's findings differ from udvalidate's")
                        detail += difference(expected, got)
            if wrong:
                counts.failures += 1
                counts.failed_kinds.update(set(case.kinds))
                written = write_reproducer(out, seed, case, wrong, detail)
                print(f"run {index}: {'; '.join(wrong)} -> {written}", file=sys.stderr, flush=True)
            if progress and counts.runs % progress == 0:
                print(f"… {counts.runs} runs, {counts.failures} failures, "
                      f"{time.perf_counter() - began:.0f} s", file=sys.stderr, flush=True)
    counts.seconds = time.perf_counter() - began
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10_000, help="how many mutated files (default 10000)")
    parser.add_argument("--parity", type=int, default=300,
                        help="how many of them udvalidate validates too (default 300; 0 for none)")
    parser.add_argument("--seed", type=int, default=0, help="the campaign's seed (default 0)")
    parser.add_argument("--first", type=int, default=0, help="the first run's index (default 0)")
    parser.add_argument("--out", type=Path, required=True, help="the folder failures are written to")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA,
                        help=f"the treebanks' folder (default {DEFAULT_DATA})")
    parser.add_argument("--time-limit", type=float, default=20, help="seconds per run (default 20)")
    parser.add_argument("--subprocess-every", type=int, default=50,
                        help="every N-th run in a fresh interpreter (default 50; 0 for none)")
    parser.add_argument("--sentences", type=int, nargs=2, default=(20, 80), metavar=("MIN", "MAX"),
                        help="sentences per excerpt (default 20 80)")
    parser.add_argument("--progress", type=int, default=500, help="a progress line every N runs (0: none)")
    args = parser.parse_args(argv)
    if not args.data.is_dir():
        print(f"fuzz_check: {args.data} is not a folder: give the UD treebanks' folder with --data "
              "(the shared test data: ../shared/data/ud)", file=sys.stderr)
        return 2
    sources = load_corpus(args.data)
    if not sources:
        print(f"fuzz_check: no UD-named *.conllu file (such as en_ewt-ud-dev.conllu) in {args.data}",
              file=sys.stderr)
        return 2
    if args.parity and not udvalidate_program():
        print("fuzz_check: udvalidate is not installed (pip install -e '.[test]'), or give --parity 0",
              file=sys.stderr)
        return 2
    counts = campaign(sources, seed=args.seed, first=args.first, runs=args.runs, parity=args.parity,
                      out=args.out, time_limit=args.time_limit, subprocess_every=args.subprocess_every,
                      low=args.sentences[0], high=args.sentences[1], progress=args.progress)
    print(counts.report())
    return 1 if counts.failures else 0


if __name__ == "__main__":
    sys.exit(main())
