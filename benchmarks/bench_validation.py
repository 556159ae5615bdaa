"""UD validation speed: annoscore's validator beside the official one.

``udvalidate --lang en --level 5 --max-err 0`` (udtools 0.2.9) and ours on
the same file, each as a separate process started from scratch (language
data loading included); ours runs once before the official validator and
twice after it, its median compared, since this machine's speed drifts.
The script checks that the two multisets of (line, test id) are equal,
compared per test id, and prints the times and their ratio.  The same for
what a user runs, ``annoscore check --json --level 5 --lang en FILE`` (the
validator with annoscore's own reading and checks of the file, the
validation in helper processes only when the load leaves a core idle), its
findings read from the JSON.  It then times
the parts inside one process: `validate_text` warm, the document-wide
checks alone (`validate_document`, what an editor re-runs after every edit)
per 10k sentences, and loading the language data.

    python benchmarks/bench_validation.py [FILE] [--lang en] [--level 5] [--runs 3]

Default FILE: ../shared/data/ud/UD_English-EWT/en_ewt-ud-train.conllu.
Needs udtools (the test extras).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from measure import run_measured  # noqa: E402
import results  # noqa: E402  (benchmarks/results.py: the dated results file)

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("ANNOSCORE_SHARED", ROOT.parent / "shared"))
DEFAULT = SHARED / "data" / "ud" / "UD_English-EWT" / "en_ewt-ud-train.conllu"

OURS = """
import json, sys
from annoscore.scorer.validation import ValidationSettings, validate_file
result = validate_file(sys.argv[1], ValidationSettings(level=int(sys.argv[2]), lang=sys.argv[3]))
print(json.dumps([[i.line, i.test_id] for i in result.incidents]))
"""

# [Line 812 Sent s34]: [L2 MORPHO unknown-upos] ...
_OFFICIAL_LINE = re.compile(r"^\[(?:File \S+ )?Line (\d+) Sent [^\]]*\]: \[L\d \S+ (\S+)\]")


def official_incidents(stderr: str) -> Counter:
    found = Counter()
    for line in stderr.split("\n"):
        match = _OFFICIAL_LINE.match(line)
        if match:
            found[(int(match.group(1)) - 1, match.group(2))] += 1
    return found


def table(expected: Counter, got: Counter) -> str:
    rows = []
    for test_id in sorted({k[1] for k in expected} | {k[1] for k in got}):
        e = sum(v for k, v in expected.items() if k[1] == test_id)
        g = sum(v for k, v in got.items() if k[1] == test_id)
        same = Counter({k: v for k, v in expected.items() if k[1] == test_id}) == \
            Counter({k: v for k, v in got.items() if k[1] == test_id})
        rows.append(f"  {test_id:34} official {e:6}  ours {g:6}  {'equal' if same else 'DIFFERENT'}")
    return "\n".join(rows)


def two_processes(path: Path, level: int, lang: str, env: dict) -> float:
    """Wall time of two processes validating the two halves of the file at
    once (cut at a blank line): what splitting the blocks over two
    processes would give, before merging their facts for the document."""
    import subprocess
    import tempfile

    text = path.read_text(encoding="utf-8")
    middle = text.find("\n\n", len(text) // 2) + 2
    folder = Path(tempfile.mkdtemp(prefix="annoscore-bench-"))
    halves = [folder / "first.conllu", folder / "second.conllu"]
    halves[0].write_text(text[:middle], encoding="utf-8")
    halves[1].write_text(text[middle:], encoding="utf-8")
    start = time.perf_counter()
    running = [subprocess.Popen([sys.executable, "-c", OURS, str(h), str(level), lang], env={**os.environ, **env},
                                stdout=subprocess.DEVNULL) for h in halves]
    for process in running:
        process.wait()
    seconds = time.perf_counter() - start
    shutil.rmtree(folder)
    return seconds


def in_process(path: Path, level: int, lang: str) -> None:
    sys.path.insert(0, str(ROOT))
    from annoscore.scorer.validation import ValidationSettings, validate_block, validate_document, validate_text
    from annoscore.scorer.validation.langdata import LanguageData, installed_data_dir
    from annoscore.scorer.validation.text import cut

    folder = installed_data_dir()
    start = time.perf_counter()
    data = LanguageData(folder)
    data.check_language(lang)
    data.edeprels(lang)
    data.tospace(lang)
    partial = time.perf_counter() - start
    start = time.perf_counter()
    for name in ("feats.json", "deprels.json", "edeprels.json", "data.json", "tospace.json"):
        json.loads((folder / name).read_text(encoding="utf-8"))
    whole = time.perf_counter() - start
    print(f"language data [{lang}]: {partial * 1000:.0f} ms for the one language "
          f"(decoding the five files whole: {whole * 1000:.0f} ms)")

    text = path.read_text(encoding="utf-8")
    settings = ValidationSettings(level=level, lang=lang)
    validate_text(text, settings)
    times = []
    for _ in range(3):
        start = time.perf_counter()
        validate_text(text, settings)
        times.append(time.perf_counter() - start)
    blocks, facts = cut(text)
    results = [(b.first_line, validate_block(b.text, settings, b.terminated, b.bom)) for b in blocks]
    doc = []
    for _ in range(5):
        start = time.perf_counter()
        validate_document(results, facts, settings)
        doc.append(time.perf_counter() - start)
    per_10k = min(doc) * 10_000 / len(results)
    print(f"in one process: validate_text {min(times):.2f} s (best of 3, warm); "
          f"validate_document {min(doc) * 1000:.1f} ms for {len(results)} blocks "
          f"= {per_10k * 1000:.1f} ms per 10k sentences")


def _compile_bytecode() -> str:
    """Both as installed: pip compiles an installed package's bytecode (so
    udtools has its own), and Python writes it on a checkout's first run,
    unless PYTHONDONTWRITEBYTECODE is set, as on some machines; then every
    run would compile annoscore's modules again (0.15 s per process that
    imports the engine).  So the checkout's bytecode is written first."""
    import compileall

    if not os.environ.get("PYTHONDONTWRITEBYTECODE"):
        return "written by Python as it runs"
    ok = all(compileall.compile_dir(str(ROOT / package), quiet=1) for package in ("scorer", "server"))
    return "PYTHONDONTWRITEBYTECODE is set: compiled first, as pip does on install" if ok else \
        "could not be compiled (each run compiles the modules)"


def main() -> int:
    # The work itself, every run: a run after the first would find a large file's
    # validation in the cache (benchmarks/bench_reopen.py measures the cache).
    os.environ["ANNOSCORE_NO_CACHE"] = "1"
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", nargs="?", default=str(DEFAULT))
    parser.add_argument("--lang", default="en")
    parser.add_argument("--level", type=int, default=5)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    path = Path(args.file)
    if not path.exists():
        print(f"no such file: {path} (the shared treebanks live in ../shared)", file=sys.stderr)
        return 2
    udvalidate = shutil.which("udvalidate") or str(Path(sys.executable).parent / "udvalidate")
    words = sum(1 for line in open(path, encoding="utf-8") if line[:1].isdigit() and line.split("\t", 1)[0].isdigit())
    print(f"file: {path.name}, {words} words, --lang {args.lang} --level {args.level}")

    compiled = _compile_bytecode()
    print(f"bytecode: {compiled}")
    command = [sys.executable, "-c", OURS, str(path), str(args.level), args.lang]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    runs = [run_measured(command, env=env)]
    official = run_measured([udvalidate, "--lang", args.lang, "--level", str(args.level), "--max-err", "0",
                             str(path)])
    runs += [run_measured(command, env=env) for _ in range(args.runs - 1)]
    for run in runs:
        if run.returncode != 0:
            print(run.stderr, file=sys.stderr)
            return 1
    ours = sorted(runs, key=lambda r: r.seconds)[len(runs) // 2]
    got = Counter((line, test_id) for line, test_id in json.loads(ours.stdout))
    expected = official_incidents(official.stderr)
    print(f"udvalidate: {official.seconds:7.2f} s  peak {official.peak_rss / 2**20:5.0f} MB  "
          f"{sum(expected.values())} incidents")
    print(f"annoscore:  {ours.seconds:7.2f} s  peak {ours.peak_rss / 2**20:5.0f} MB  {sum(got.values())} incidents"
          f"  (median of {len(runs)} runs: {', '.join(f'{r.seconds:.2f}' for r in runs)} s)")
    same = expected == got
    print(f"speed-up: {official.seconds / ours.seconds:.1f}x; (line, test id) multisets equal: "
          f"{'yes' if same else 'NO'}")
    if not same:
        print(table(expected, got))
    check = [sys.executable, "-m", "annoscore", "check", "--json", "--level", str(args.level),
             "--lang", args.lang, str(path)]
    checks = [run_measured(check, env=env) for _ in range(args.runs)]
    if any(run.returncode not in (0, 1) for run in checks):
        print(checks[0].stderr, file=sys.stderr)
        return 1
    middle = sorted(checks, key=lambda r: r.seconds)[len(checks) // 2]
    found = Counter(((d.get("ud_line") or d["line"]) - 1, d["test_id"])
                    for d in json.loads(middle.stdout)["files"][0]["diagnostics"] if "test_id" in d)
    print(f"annoscore check: {middle.seconds:7.2f} s  peak {middle.peak_rss / 2**20:5.0f} MB  "
          f"{sum(found.values())} incidents  (median of {len(checks)} runs: "
          f"{', '.join(f'{r.seconds:.2f}' for r in checks)} s)")
    print(f"check's speed-up: {official.seconds / middle.seconds:.1f}x; (line, test id) multisets equal: "
          f"{'yes' if found == expected else 'NO'}")
    if found != expected:
        print(table(expected, found))
        same = False
    pair = two_processes(path, args.level, args.lang, env)
    print(f"two processes, one half each: {pair:.2f} s ({official.seconds / pair:.1f}x)")
    in_process(path, args.level, args.lang)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(results.run(main, __file__))
