"""Reading aids on a large document: inlay hints for a screen, document
highlight, folding ranges for the whole document, and semantic tokens'
cost for a screen and (estimated from a sample) for the whole document.

Engine time (the work a request does on the engine thread, JSON of the
folding answer included), on a document of ``--words`` words made from
the shared UD data when present, else generated sentences.  Prints the
median and the worst of ``--repeat`` requests at random places.

    python benchmarks/bench_reading.py --words 1000000
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

import results  # benchmarks/results.py: the dated results file

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from annoscore.scorer.conllu.columns import cell_span  # noqa: E402
from annoscore.server.engine import Engine  # noqa: E402
from annoscore.server.engine.reading import folding_ranges, highlights, inlay_hints, sentences_between  # noqa: E402

UD = Path("/work/shared/data/ud")


def _document(words: int) -> str:
    blocks = []
    for path in sorted(UD.glob("*/*.conllu")) if UD.is_dir() else []:
        blocks += [b for b in path.read_text(encoding="utf-8").split("\n\n") if b.strip()]
        if sum(b.count("\n") for b in blocks) > words:
            break
    if not blocks:
        blocks = ["# sent_id = s\n" + "\n".join(f"{i}\tw{i}\tw\tNOUN\t_\t_\t{0 if i == 1 else 1}\tdep\t_\t_"
                                                 for i in range(1, 18))]
    out, n, k = [], 0, 0
    while n < words:
        block = blocks[k % len(blocks)]
        out.append(block)
        n += block.count("\n")
        k += 1
    return "\n\n".join(out) + "\n\n"


def _semantic_tokens(engine, key: str, first: int, last: int) -> int:
    """What a semantic-tokens answer must compute: one token per cell (10 per
    token line, one per comment), encoded as LSP's relative integers."""
    data: list[int] = []
    prev_line = 0
    for start, sentence in sentences_between(engine, key, first, last):
        for relative, text in enumerate(sentence.lines):
            line = start + relative
            if not first <= line <= last:
                continue
            if text.startswith("#"):
                data += [line - prev_line, 0, len(text), 10, 0]
                prev_line = line
                continue
            prev_start = 0
            for column in range(10):
                a, b = cell_span(text, column)
                data += [line - prev_line, a - prev_start, b - a, column, 0]
                prev_line, prev_start = line, a
    return len(data) // 5


def _timed(work, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        work()
        out.append((time.perf_counter() - t) * 1000)
    return out


def _row(name: str, times: list[float], target: str) -> None:
    print(f"| {name} | {statistics.median(times):.2f} | {max(times):.2f} | {target} |")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--words", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args()
    text = _document(args.words)
    engine = Engine()
    engine.open("bench", None, text, language="conllu")
    t = time.perf_counter()
    engine.rescore("bench")  # as the server does on opening: the analysis kept per segment
    print(f"rescore on opening (not part of any request): {time.perf_counter() - t:.1f} s")
    store = engine.documents["bench"].store
    lines = store.last_line + 1
    words = sum(1 for s in store.segments for line in s.text.split("\n") if line[:1].isdigit()
                and "\t" in line and line.split("\t", 1)[0].isdigit())
    print(f"document: {words} words, {lines} lines, {len(store.segments)} segments; load {os.getloadavg()}")
    rng = random.Random(27)
    print("\n| request | median ms | worst ms | target |\n|---|---|---|---|")
    _row("inlay hints, 100 lines", _timed(lambda: inlay_hints(engine, "bench", (a := rng.randrange(lines - 100)),
                                                             a + 99), args.repeat), "≤ 10 ms")
    word_lines = [i for i in (rng.randrange(lines) for _ in range(2000)) if "\t" in store.line(i)
                  and not store.line(i).startswith("#")]
    it = iter(word_lines * 10)
    _row("document highlight", _timed(lambda: highlights(engine, "bench", next(it)), args.repeat), "≤ 5 ms")
    from annoscore.server.lsp.features.folding import SentenceFolding  # the JSON answer too

    class _Server:
        pass

    server = _Server()
    server.engine = engine
    server.key_for = lambda uri: (uri, None)
    folding = SentenceFolding.__new__(SentenceFolding)
    folding.server = server
    first = _timed(lambda: folding.ranges("bench"), 1)
    _row("folding ranges, whole document (first after the rescore)", first, "≤ 300 ms")
    _row("folding ranges, whole document (again)", _timed(lambda: folding.ranges("bench"), 5), "≤ 300 ms")
    print(f"(folding ranges: {len(folding_ranges(engine, 'bench'))})")
    _row("semantic tokens, 100 lines (computed, not offered)",
         _timed(lambda: _semantic_tokens(engine, "bench", (a := rng.randrange(lines - 100)), a + 99), args.repeat),
         "≤ 10 ms")
    sample = 20_000
    t = time.perf_counter()
    tokens = _semantic_tokens(engine, "bench", 0, sample)
    per_line = (time.perf_counter() - t) * 1000 / sample
    print(f"| semantic tokens, whole document (estimated from {sample} lines) | {per_line * lines:.0f} | | "
          f"{tokens * lines // sample} tokens, ~{tokens * lines // sample * 5 * 3 // 1_000_000} MB of JSON |")
    print(f"\nload at the end: {os.getloadavg()}")


if __name__ == "__main__":
    sys.exit(results.run(main, __file__))
