"""The annotator's requests on the 1-million-word prediction of bench_conllu.py:
the tree of the sentence under the cursor, the outline, the next place of a
kind, and the progress in the score payload.

Two measures of each:

- server time: the engine's own work for the request, in this process
  (the document opened and scored against its gold as the server does);
- round trip: the request sent to ``annoscore lsp`` over stdio and its
  answer read back, as an editor sees it (JSON on the wire included: the
  outline of ~60,000 sentences is several megabytes).

The tree is asked at random lines (data, and with the text drawing);
``annoscore/next`` from random lines for frequent kinds (low-confidence,
gold-diff), and from the top for ones that send the walk over the whole
document (refused and unparsed, which this prediction has none or few of).

    python benchmarks/bench_annotator.py [--workdir DIR] [--copies 5] [--samples 200]

Needs ../shared (the treebank and mkpred.py) to make the pair.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_conllu import make_pair  # noqa: E402
from bench_lsp import Client, published  # noqa: E402
import results  # noqa: E402  (benchmarks/results.py: the dated results file)

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def timed(work, repeat: int = 1) -> list[float]:
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        out.append(time.perf_counter() - start)
    return out


def summary(seconds: list[float]) -> str:
    ms = sorted(1000 * s for s in seconds)
    return f"median {statistics.median(ms):7.2f} ms, p95 {ms[int(0.95 * (len(ms) - 1))]:7.2f} ms, max {ms[-1]:7.2f} ms"


def in_process(prediction: Path, lines: list[int], samples: int) -> None:
    from annoscore.server.config import load_project
    from annoscore.server.engine import Engine
    from annoscore.server.engine.outline import segment_outlines
    from annoscore.server.engine.seek import find
    from annoscore.server.engine.tree import sentence_tree
    from annoscore.server.engine.treetext import render_tree

    settings, _ = load_project(str(prediction.parent))  # (its annoscore.toml pairs it with its gold)
    engine = Engine(str(prediction.parent), settings)
    key = str(prediction)
    start = time.perf_counter()
    engine.open(key, key, prediction.read_text(encoding="utf-8"), 1)
    engine.rescore(key)
    assert engine.documents[key].results.score is not None, "no gold"
    print(f"opened and scored in this process: {time.perf_counter() - start:.1f} s")
    rng = random.Random(7)
    at = [rng.choice(lines) for _ in range(samples)]
    print("server time (the engine's work):")
    print(f"  annoscore/tree:                {summary([timed(lambda: sentence_tree(engine, key, line))[0] for line in at])}")
    print(f"  annoscore/tree, format text:   "
          f"{summary([timed(lambda: render_tree(sentence_tree(engine, key, line)))[0] for line in at])}")
    entries = []
    print(f"  outline (documentSymbol):      {summary(timed(lambda: entries.append([e for _, kept in segment_outlines(engine, key) for e in kept]), 5))}"
          f" — {len(entries[0]):,} sentences")
    feature = outline_feature(engine)
    uri = prediction.as_uri()
    print(f"  outline as the LSP answers it: {summary(timed(lambda: feature.outline_of(uri), 1))} (first), "
          f"then {summary(timed(lambda: feature.outline_of(uri), 3))} (the same text: kept)")
    engine.change(key, 2, [((0, 0), (0, 0), "# edited\n")])  # a line more at the top: every line moves
    print(f"  outline after an edit at the top: {summary(timed(lambda: feature.outline_of(uri), 1))}")
    engine.rescore(key)
    for kind in ("low-confidence", "gold-diff", "segmentation-mismatch"):
        print(f"  next {kind + ':':22}{summary([timed(lambda: find(engine, key, line, 0, kind))[0] for line in at[:50]])}")
    for kind in ("refused", "unparsed", "error"):
        found = []
        seconds = timed(lambda: found.append(find(engine, key, 0, 0, kind)), 3)
        print(f"  next {kind + ' from the top:':22}{summary(seconds)} — "
              f"{'found at line ' + str(found[0].line + 1) if found[0].line is not None else found[0].message}")
    found = []
    print(f"  previous gold-diff from the end: "
          f"{summary(timed(lambda: found.append(find(engine, key, lines[-1] + 10, 0, 'gold-diff', 'previous')), 3))}")
    index = engine.documents[key].results.sentences
    index._marked = None
    print(f"  progress, first (the marker searched): {summary(timed(lambda: engine.score(key), 1))}")
    print(f"  score payload with progress, after:    {summary(timed(lambda: engine.score(key), 5))}")


def outline_feature(engine):
    """The LSP feature, on a stand-in for the server (only what it reads)."""
    from annoscore.server.lsp.features.outline import SentenceOutline
    from annoscore.server.lsp.server import AnnoscoreServer

    class Stand:
        key_for = staticmethod(AnnoscoreServer.key_for)
        encoding = "utf-16"

    stand = Stand()
    stand.engine = engine
    return SentenceOutline(stand)


async def round_trips(prediction: Path, lines: list[int], samples: int) -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "annoscore", "lsp", cwd=str(ROOT), stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL, limit=1 << 26)
    client = Client(process)
    root = prediction.parent.as_uri()
    await client.request("initialize", {"processId": None, "rootUri": root, "capabilities": {
        "textDocument": {"documentSymbol": {"hierarchicalDocumentSymbolSupport": True}}}})
    client.notify("initialized", {})
    uri = prediction.as_uri()
    mark = len(client.seen)
    start = client.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "conllu", "version": 1, "text": prediction.read_text(encoding="utf-8")}})
    end = await client.wait_for(published(uri, 1), mark)
    print(f"the server's first diagnostics and score: {end - start:.1f} s")
    rng = random.Random(8)
    at = [rng.choice(lines) for _ in range(samples)]

    async def trip(method: str, params: dict) -> tuple[float, object]:
        start = time.perf_counter()
        result = await client.request(method, params)
        return time.perf_counter() - start, result

    print("round trip (request to answer, over stdio):")
    for form in ("data", "text"):
        seconds = [(await trip("annoscore/tree", {"uri": uri, "position": {"line": line, "character": 0},
                                                  "format": form}))[0] for line in at]
        print(f"  annoscore/tree ({form}):{'':8}{summary(seconds)}")
    outline = [await trip("textDocument/documentSymbol", {"textDocument": {"uri": uri}}) for _ in range(3)]
    print(f"  documentSymbol:                {summary([s for s, _ in outline])} — {len(outline[0][1]):,} symbols")
    for kind in ("low-confidence", "gold-diff"):
        seconds = [(await trip("annoscore/next", {"uri": uri, "position": {"line": line, "character": 0},
                                                  "kind": kind}))[0] for line in at[:50]]
        print(f"  annoscore/next {kind + ':':15}{summary(seconds)}")
    seconds, result = await trip("annoscore/next", {"uri": uri, "position": {"line": 0, "character": 0},
                                                    "kind": "unparsed"})
    print(f"  annoscore/next unparsed (top): {summary([seconds])} — {result.get('message') if result else result}")
    await client.request("shutdown", {})
    client.notify("exit", {})
    await process.wait()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workdir", help="keep the generated pair here (reused when present)")
    parser.add_argument("--copies", type=int, default=5)
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--skip-lsp", action="store_true", help="only the in-process server time")
    args = parser.parse_args()
    workdir = Path(args.workdir or tempfile.mkdtemp(prefix="annoscore-bench-"))
    workdir.mkdir(parents=True, exist_ok=True)
    gold, prediction = make_pair(workdir, args.copies)
    (workdir / "annoscore.toml").write_text('[[pair]]\nfiles = "pred.conllu"\ngold = "gold.conllu"\n')
    text = prediction.read_text(encoding="utf-8")
    rows = text.split("\n")
    words = sum(1 for row in rows if row[:1].isdigit() and row.split("\t", 1)[0].isdigit())
    lines = [n for n, row in enumerate(rows) if row[:1].isdigit()]  # token lines, to put the cursor on
    print(f"prediction: {prediction} ({len(text) >> 20} MB, {words:,} words, {len(rows):,} lines)")
    in_process(prediction, lines, args.samples)
    if not args.skip_lsp:
        asyncio.run(round_trips(prediction, lines, args.samples))
    return 0


if __name__ == "__main__":
    sys.exit(results.run(main, __file__))
