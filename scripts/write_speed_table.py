#!/usr/bin/env python3
"""Write the table of the latest benchmark figures into docs/performance.md,
from the dated results files under benchmarks/results/.

The figures are never retyped: each benchmark writes what it printed to
``benchmarks/results/YYYY-MM-DD-HHMMSS-NAME.txt`` (benchmarks/results.py),
and this script reads the newest file of each benchmark that holds a row,
so that a new run replaces the figures it measured and a partial run (one
part of bench_speed, say) leaves the others as they were.  The table goes
between two markers in the page; everything else on the page is prose.

    python scripts/write_speed_table.py          # write the table
    python scripts/write_speed_table.py --check  # exit 1 if it is out of date (tests/project/test_speed_table.py)

Each row sets annoscore's figure beside what it is compared with — the
reference tool, or plain code, run in the same benchmark, taking turns; or
the latency target — and the ratio is that figure divided by annoscore's (as the benchmark printed it,
where it prints one):
above 1, annoscore took less time (or used less memory), or stayed within
the target by that factor.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
PAGE = ROOT / "docs" / "performance.md"
BEGIN = "<!-- speed-table: begin (written by scripts/write_speed_table.py from benchmarks/results/; do not edit) -->"
END = "<!-- speed-table: end -->"
FILE_NAME = re.compile(r"\d{4}-\d\d-\d\d-\d{6}-(?P<benchmark>\w+)\.txt")


@dataclass(frozen=True)
class Row:
    """One line of the table: a figure of annoscore's beside what it is compared with."""

    key: str  # which figure, the same in every run of the benchmark (the newest file that has it wins)
    what: str
    ours: str
    beside: str
    ratio: float
    load: str | None = None  # the load when this figure's part began, where the benchmark says it


@dataclass(frozen=True)
class Results:
    """One results file: its header's fields and what the benchmark printed."""

    name: str
    fields: dict[str, str]
    output: str

    @property
    def load(self) -> str:
        """The one-minute load average at the run's start."""
        return self.fields.get("load", "?").split()[0]


def read_results(path: Path) -> Results:
    head, _, output = path.read_text(encoding="utf-8").partition("\n\n")
    fields = dict(line.split(": ", 1) for line in head.splitlines() if ": " in line)
    return Results(path.name, fields, output)


def _ratio(ratio: float) -> str:
    return f"{ratio:,.0f}×" if ratio >= 100 else f"{ratio:.1f}×" if ratio >= 1 else f"{ratio:.2f}×"


def _search(pattern: str, text: str) -> re.Match | None:
    return re.search(pattern, text, re.M)


# --------------------------------------------------------------------------
# One reader per benchmark: the rows its output holds (none when a line it
# looks for is not there).

def bench_speed(output: str) -> Iterator[Row]:
    """CPU time of the process tree, median of the runs, the machine as it is (not the burner's phase)."""
    quiet = output.split("=== with a CPU burner")[0]
    for section in re.split(r"\n(?=\S)", quiet):
        title = _search(r"^(.+?)  \(load ([\d.]+)", section)
        reference = _search(r"^  (udeval|udvalidate)\s+CPU\s+([\d.]+) s", section)
        if not title or not reference or "results equal in every run: yes" not in section:
            continue
        for line in re.finditer(r"^  (annoscore \S+(?: --jobs 1)?)\s+CPU\s+([\d.]+) s\s+wall\s+[\d.]+ s.*?"
                                r"([\d.]+)x CPU", section, re.M):
            command = line[1]
            size = re.sub(r"(\d+)([km]) pair \(.*?\)", lambda m: f"{m[1]}{m[2].replace('m', 'M')} words",
                          title[1].split(", ", 1)[1]).replace("EWT train", "EWT train, 204,577 words")
            yield Row(f"{title[1]}|{command}", f"`{command}`, {size} (CPU)", f"{line[2]} s",
                      f"{reference[1]} {reference[2]} s", float(line[3]), title[2])


def bench_conllu(output: str) -> Iterator[Row]:
    pair = _search(r"^pair: .*?, (\d+) gold words", output)
    ours = _search(r"^annoscore:\s+([\d.]+) s\s+peak\s+(\d+) MB", output)
    official = _search(r"^official:\s+([\d.]+) s\s+peak\s+(\d+) MB", output)
    ratio = _search(r"^speed-up: ([\d.]+)x; .*raw counts equal: yes", output)
    if not (pair and ours and official and ratio):
        return
    words = f"{int(pair[1]):,} words"
    yield Row("time", f"`annoscore evaluate`, {words} (wall)", f"{ours[1]} s",
              f"conll18_ud_eval.py {official[1]} s", float(ratio[1]))
    yield Row("memory", f"`annoscore evaluate`, {words}: peak memory", f"{ours[2]} MB",
              f"conll18_ud_eval.py {official[2]} MB", float(official[2]) / float(ours[2]))


def bench_validation(output: str) -> Iterator[Row]:
    file = _search(r"^file: (\S+), (\d+) words, (.+)$", output)
    official = _search(r"^udvalidate:\s+([\d.]+) s", output)
    if not file or not official:
        return
    where = f"{file[1].removesuffix('.conllu')}, {int(file[2]):,} words, {file[3]}"
    for key, pattern, what in (
            ("library", r"^annoscore:\s+([\d.]+) s.*\n^speed-up: ([\d.]+)x; .*multisets equal: yes",
             "UD validation (library)"),
            ("check", r"^annoscore check:\s+([\d.]+) s.*\n^check's speed-up: ([\d.]+)x; .*multisets equal: yes",
             "`annoscore check`")):
        ours = _search(pattern, output)
        if ours:
            yield Row(key, f"{what}, {where} (wall)", f"{ours[1]} s", f"udvalidate {official[1]} s",
                      float(ours[2]))
    data = _search(r"^language data \[(\w+)\]: (\d+) ms for the one language \(decoding the five files whole: (\d+) ms\)",
                   output)
    if data:
        yield Row("data", f"UD language data for `{data[1]}`: the one language decoded", f"{data[2]} ms",
                  f"the five files whole {data[3]} ms", float(data[3]) / float(data[2]))


def bench_many(output: str) -> Iterator[Row]:
    pairs = _search(r"^(\d+) pairs, (\d+) gold words", output)
    loop = _search(r"^shell loop \(one process per pair\)\s+([\d.]+) s", output)
    one = _search(r"^directory run, --jobs 1\s+([\d.]+) s", output)
    ratio = _search(r"^directory run vs loop: ([\d.]+)x with one process, .*raw counts equal: yes", output)
    if pairs and loop and one and ratio:
        yield Row("directory", f"`annoscore evaluate` of {pairs[1]} treebanks ({int(pairs[2]):,} words) as one "
                  "directory run, `--jobs 1` (wall)", f"{one[1]} s",
                  f"a shell loop, one `evaluate` per pair, {loop[1]} s", float(ratio[1]))


def _setups(output: str, unit: str, kind: str) -> Iterator[Row]:
    size = _search(r"^([\d,]+) gold (?:words|items)", output)
    if not size or "agree." not in output:
        return
    for line in re.finditer(r"^(\S.*?)\s+([\d.]+)s\s+([\d.]+)s\s+([\d.]+)x ", output, re.M):
        setup = line[1]
        yield Row(setup, f"{kind} scoring, {setup}, {size[1]} {unit} (library)", f"{line[2]} s",
                  f"plain Python {line[3]} s", float(line[4]))


def bench_segmentation(output: str) -> Iterator[Row]:
    return _setups(output, "words", "segmentation")


def bench_labels(output: str) -> Iterator[Row]:
    return _setups(output, "items", "label")


def bench_hygiene(output: str) -> Iterator[Row]:
    leaks = _search(r"^leaks --near digits,jaccard=0\.8\s+([\d.]+) s", output)
    pairs = _search(r"^all pairs for jaccard: .*?about ([\d,]+) s for dev and test .*the index found the same pairs",
                    output)
    if leaks and pairs:
        yield Row("jaccard", "`annoscore leaks --near digits,jaccard=0.8`, EWT train, dev, test (wall)",
                  f"{leaks[1]} s", f"all pairs compared, {pairs[1]} s (extrapolated)",
                  float(pairs[1].replace(",", "")) / float(leaks[1]))


def bench_agree(output: str) -> Iterator[Row]:
    agree = _search(r"^\| `annoscore agree` \| ([\d.]+) \|", output)
    evaluate = _search(r"^\| `annoscore evaluate` \| ([\d.]+) \|", output)
    lines = _search(r"of (\S+), ([\d,]+) token lines each", output)
    if agree and evaluate and lines:
        yield Row("agree", f"`annoscore agree` (1,000 resamples), two annotations of {lines[1].removesuffix('.conllu')}"
                  " (wall)", f"{agree[1]} s", f"`annoscore evaluate` {evaluate[1]} s",
                  float(evaluate[1]) / float(agree[1]))
    # CPU time: the steadier figure on a shared machine (the wall time grows with the others' load).
    agree_cpu = _search(r"^\| `annoscore agree` \| [\d.]+ \| [^|]+ \| ([\d.]+) \|", output)
    evaluate_cpu = _search(r"^\| `annoscore evaluate` \| [\d.]+ \| [^|]+ \| ([\d.]+) \|", output)
    if agree_cpu and evaluate_cpu and lines:
        yield Row("agree-cpu", f"`annoscore agree` (1,000 resamples), two annotations of "
                  f"{lines[1].removesuffix('.conllu')} (CPU)", f"{agree_cpu[1]} s",
                  f"`annoscore evaluate` {evaluate_cpu[1]} s", float(evaluate_cpu[1]) / float(agree_cpu[1]))


def bench_lsp(output: str) -> Iterator[Row]:
    large = _search(r"^large pair \((\d+) MB prediction\)", output)
    evaluate = _search(r"^  one-shot evaluate:\s+([\d.]+) s", output)
    first = _search(r"^  server, first diagnostics\+score:\s+([\d.]+) s", output)
    edit = _search(r"^  one-cell edit, median of (\d+):\s+([\d.]+) ms", output)
    if not (large and evaluate and first and edit):
        return
    # A run with validation on, or editing gold, is another row than the default run's.
    validation = _search(r"^validation: (.*), lang: (\S+)$", output)
    edited = _search(r"the (\w+) is the document edited", output)
    level = _search(r"level = (\d)", validation[1]) if validation else None
    kind = ("gold edited" if edited and edited[1] == "gold" else "the prediction edited") + \
        (f", validation level {level[1]} `{validation[2]}`" if level else "") + \
        (", after the first validation" if _search(r"^  the edits began once", output) else "") + \
        (", a CPU burner beside" if _search(r"^a CPU burner on one core", output) else "")
    size = f"the pair of a {large[1]} MB prediction, {kind}"
    yield Row(f"first|{kind}", f"language server, first diagnostics and score, {size}", f"{first[1]} s",
              f"one-shot `annoscore evaluate` {evaluate[1]} s", float(evaluate[1]) / float(first[1]))
    yield Row(f"edit|{kind}", f"language server, one-cell edit to new diagnostics and score, {size} (median)",
              f"{edit[2]} ms", "target 100 ms", 100 / float(edit[2]))
    small = _search(r"^25,000-word file:\n.*\n  one-cell edit, median of \d+:\s+([\d.]+) ms", output)
    if small:
        yield Row(f"edit-25k|{kind}", f"language server, one-cell edit, 25,000 words, {kind} (median)",
                  f"{small[1]} ms", "target 30 ms", 30 / float(small[1]))


def bench_annotator(output: str) -> Iterator[Row]:
    tree = _search(r"^  annoscore/tree:\s+median\s+[\d.]+ ms, p95\s+[\d.]+ ms, max\s+([\d.]+) ms", output)
    words = _search(r"^prediction: .*?([\d,]+) words", output)
    if tree and words:
        yield Row("tree", f"`annoscore/tree` of the sentence under the cursor, {words[1]} words (server time, worst)",
                  f"{tree[1]} ms", "target 20 ms", 20 / float(tree[1]))


def bench_editing(output: str) -> Iterator[Row]:
    worst = _search(r"^worst of all: ([\d.]+) ms", output)
    words = _search(r"^document: (\d+) words", output)
    if worst and words:
        yield Row("worst", f"`annoscore.edit`, every operation, {int(words[1]):,} words (server time, worst)",
                  f"{worst[1]} ms", "target 50 ms", 50 / float(worst[1]))


def bench_reading(output: str) -> Iterator[Row]:
    words = _search(r"^document: (\d+) words", output)
    for line in re.finditer(r"^\| (inlay hints, 100 lines|document highlight|folding ranges, whole document \(first[^|]*\)) \| [\d.]+ \| "
                            r"([\d.]+) \| ≤ (\d+) ms \|", output, re.M):
        if words:
            yield Row(line[1], f"{line[1]}, {int(words[1]):,} words (engine time, worst)",
                      f"{line[2]} ms", f"target {line[3]} ms", float(line[3]) / float(line[2]))


def bench_reopen(output: str) -> Iterator[Row]:
    name = _search(r"^(\S+\.conllu) \((\d+) KiB\), validation level (\d)", output)
    if not name:
        return
    for setup, what in (("a new server, the cache on disk", "opened in a new server, the cache on disk"),
                        ("closed and opened again", "closed and opened again in the same server")):
        first = _search(rf"^  {re.escape(setup)}\s+first diagnostics\s+([\d.]+) s \(with the validator", output)
        if first:
            yield Row(setup, f"language server, {name[1]} (validation level {name[3]}) {what}: first diagnostics",
                      f"{first[1]} s", "target 0.3 s", 0.3 / float(first[1]))


# The benchmarks in the table, in its order.  bench_revisions is not: it
# sets two revisions of annoscore side by side, not annoscore and a reference.
READERS: dict[str, Callable[[str], Iterator[Row]]] = {
    "bench_speed": bench_speed, "bench_conllu": bench_conllu, "bench_validation": bench_validation,
    "bench_many": bench_many, "bench_segmentation": bench_segmentation, "bench_labels": bench_labels,
    "bench_hygiene": bench_hygiene, "bench_agree": bench_agree, "bench_lsp": bench_lsp,
    "bench_annotator": bench_annotator, "bench_editing": bench_editing, "bench_reading": bench_reading,
    "bench_reopen": bench_reopen,
}


def latest_rows(results: Path | None = None) -> list[tuple[Row, Results]]:
    """Each benchmark's rows, each from the newest results file that has it."""
    results = results or RESULTS
    files: dict[str, list[Path]] = {}
    for path in sorted(results.glob("*.txt"), reverse=True):  # the names begin with the date: newest first
        match = FILE_NAME.fullmatch(path.name)
        if match and match["benchmark"] in READERS:
            files.setdefault(match["benchmark"], []).append(path)
    rows: list[tuple[Row, Results]] = []
    for benchmark, reader in READERS.items():
        seen: set[str] = set()
        for path in files.get(benchmark, []):
            results_file = read_results(path)
            for row in reader(results_file.output):
                if row.key not in seen:
                    seen.add(row.key)
                    rows.append((row, results_file))
    return rows


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def table(results: Path | None = None) -> str:
    rows = latest_rows(results)
    # The kernel's build changes from one boot to the next; the rest says what the machine is.
    machines = sorted({r.fields.get("machine", "unknown").split("; ", 1)[-1] for _, r in rows})
    lines = [BEGIN, "",
             "| What | annoscore | Beside it | Ratio | Load | Results file |", "|---|---:|---|---:|---:|---|"]
    for row, source in rows:
        lines.append(f"| {_cell(row.what)} | {row.ours} | {_cell(row.beside)} | {_ratio(row.ratio)} | {row.load or source.load} "
                     f"| `{source.name}` |")
    lines += ["",
              "The ratio is the figure beside divided by annoscore's: above 1, annoscore took less time (or "
              "memory), or stayed within the target by that factor. Each row is from the newest file of its "
              "benchmark that has it (`benchmarks/results/`, with the commit and the command). Both sides of a "
              "ratio were measured in one run, taking turns or one right after the other, on a machine shared "
              "with other work: the times grow with the load (the 1-minute load average when the run or its part "
              "began), while the ratio of two figures measured side by side stays meaningful. A latency set "
              "beside its target has no such partner: under load it is the worst case, and a row below 1 "
              "there says that target was missed on that run. Machine: "
              + " | ".join(machines) + ".",
              "", END]
    return "\n".join(lines)


def written(page_text: str, results: Path | None = None) -> str:
    """The page with the table between its markers replaced by the current one."""
    before, begin, rest = page_text.partition(BEGIN)
    _, end, after = rest.partition(END)
    if not begin or not end:
        raise SystemExit(f"{PAGE.name} has no speed-table markers ({BEGIN!r} … {END!r})")
    return before + table(results) + after


def main() -> int:
    text = PAGE.read_text(encoding="utf-8")
    new = written(text)
    if "--check" in sys.argv:
        if new != text:
            print(f"{PAGE.name}'s speed table is out of date: run python scripts/write_speed_table.py",
                  file=sys.stderr)
            return 1
        return 0
    PAGE.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
