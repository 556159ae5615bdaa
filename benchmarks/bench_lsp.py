"""The language server end to end: first score, one-cell edits, memory.

Drives ``annoscore lsp`` over stdio as an editor does (initialize, didOpen,
didChange + didSave) and measures, in one run:

- the time from opening the 1-million-word prediction of bench_conllu.py to
  its first diagnostics and ``annoscore/score``, beside the one-shot
  ``annoscore evaluate`` of the same pair;
- the time from sending a one-cell edit (and the save) to the updated
  diagnostics and score, over 30 edits of random cells (median, and the
  ratio to the first full scoring);
- edits that change a token's text (a letter added to a FORM), after which
  the pairing with gold is made again;
- the same edits on a 25,000-word file;
- the server's peak resident memory with the large pair open (with the
  process it starts to score the first half, summed at each moment).

A latency ends when the last message it waits for is received whole; the
time this client then takes to decode the JSON (an editor's work, which
grows with the diagnostics shown) is given apart, with the size.
``--edit gold`` opens and edits the gold treebank itself, as an annotator
correcting it does (it has far fewer validation findings than the
prediction).

UD validation is as the project file says: ``--validation LEVEL`` (0: off)
and ``--lang L`` write it there (by default the server's default: the
prediction's name has no language, so level 3).  A large document's first
validation is not waited for: its findings follow in a second publication,
whose time is given too.

    python benchmarks/bench_lsp.py [--workdir DIR] [--copies 5] [--edits 30] [--form-edits 5] [--rounds 2]
                                   [--validation 0-5] [--lang en]
                                   [--edit prediction|gold] [--wait-validation] [--burner]

Needs ../shared (the treebank and mkpred.py) to make the pair.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_conllu import make_pair  # noqa: E402
from measure import PeakSampler, run_measured  # noqa: E402
import results  # noqa: E402  (benchmarks/results.py: the dated results file)

ROOT = Path(__file__).resolve().parent.parent
WAIT_VALIDATION = 900.0  # seconds, with --wait-validation


_HEAD = re.compile(rb'^\{"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics", '
                   rb'"params": \{"uri": ("(?:[^"\\]|\\.)*")(?:, "version": (\d+))?')


def published_head(body: bytes) -> dict | None:
    """A ``publishDiagnostics`` known from its first bytes (as annoscore
    writes it), its diagnostics left undecoded (``body``): decoding a few MB
    of them here would hold up reading the message after it (the score),
    whose arrival is timed."""
    found = _HEAD.match(body[:4096])
    if found is None:
        return None
    version = int(found[2]) if found[2] is not None else None
    return {"method": "textDocument/publishDiagnostics", "body": body,
            "params": {"uri": json.loads(found[1]), "version": version}}


def decoded(message: dict) -> tuple[int, float]:
    """The number of diagnostics of a `published_head` message, and the
    seconds it takes to decode its JSON."""
    start = time.perf_counter()
    count = len(json.loads(message["body"])["params"]["diagnostics"])
    return count, time.perf_counter() - start


class Client:
    """Just enough of an LSP client: requests, notifications, and waiting
    for the server's notifications."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.next_id = 0
        self.replies: dict[int, asyncio.Future] = {}
        self.seen: list[tuple[float, dict]] = []  # (arrival, notification)
        self.arrived = asyncio.Event()
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            length = 0
            while True:
                line = await stream.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode().partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            body = await stream.readexactly(length)
            arrival = time.perf_counter()  # delivered: decoding it is the editor's work (timed apart)
            message = published_head(body)
            if message is None:  # (the rest are small)
                message = json.loads(body)
            if "id" in message and "method" not in message:
                future = self.replies.pop(message["id"], None)
                if future is not None:
                    future.set_result(message.get("result"))
            elif "id" in message:  # a request from the server: answer with nothing
                self._send({"jsonrpc": "2.0", "id": message["id"], "result": None})
            else:
                self.seen.append((arrival, message))
                self.arrived.set()

    def _send(self, message: dict) -> None:
        body = json.dumps(message).encode()
        assert self.process.stdin is not None
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    async def request(self, method: str, params: dict) -> object:
        self.next_id += 1
        future = asyncio.get_running_loop().create_future()
        self.replies[self.next_id] = future
        self._send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return await future

    def notify(self, method: str, params: dict) -> float:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})
        return time.perf_counter()

    async def wait_for(self, done, start_index: int) -> float:
        """Wait until ``done(notifications since start_index)``; return when
        the last one it needed arrived."""
        while True:
            found = done(self.seen[start_index:])
            if found is not None:
                return found
            self.arrived.clear()
            await asyncio.wait_for(self.arrived.wait(), timeout=600)


def published(uri: str, version: int | None):
    """A check for both the diagnostics and the score of ``uri`` at ``version``."""
    def done(messages: list[tuple[float, dict]]) -> float | None:
        diagnostics = score = None
        for arrival, message in messages:
            params = message.get("params") or {}
            if params.get("uri") != uri or (version is not None and params.get("version") != version):
                continue
            if message["method"] == "textDocument/publishDiagnostics":
                diagnostics = arrival
            elif message["method"] == "annoscore/score":
                score = arrival
        return max(diagnostics, score) if diagnostics and score else None
    return done


def republished(uri: str, version: int):
    """A check for a second publication of the diagnostics of ``uri`` at ``version``."""
    def done(messages: list[tuple[float, dict]]) -> float | None:
        arrivals = [arrival for arrival, message in messages
                    if message["method"] == "textDocument/publishDiagnostics"
                    and (message.get("params") or {}).get("uri") == uri
                    and (message.get("params") or {}).get("version") == version]
        return arrivals[1] if len(arrivals) > 1 else None
    return done


def utf16_length(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def cell_edits(text: str, count: int, seed: int, column: int) -> list[tuple[int, int, int, str]]:
    """(line, start, end, new text) for a cell of random word lines: UPOS
    (column 3) gets another tag; FORM (column 1) a letter more, so that the
    sentence's text no longer matches gold's (the pairing is made again)."""
    lines = text.split("\n")
    words = [i for i, line in enumerate(lines) if line[:1].isdigit() and line.split("\t", 1)[0].isdigit()]
    rng = random.Random(seed)
    edits = []
    for line in rng.sample(words, count):
        cells = lines[line].split("\t")
        start = utf16_length("\t".join(cells[:column]) + "\t")
        value = cells[column]
        new = ("X" if value != "X" else "NOUN") if column == 3 else value + "z"
        edits.append((line, start, start + utf16_length(value), new))
    return edits


async def session(workdir: Path, prediction: Path, edits: int, form_edits: int, validating: bool = True,
                  wait_validation: bool = False) -> dict:
    """Open the prediction, then make one-cell edits; times in seconds.
    ``wait_validation``: the edits start once the first validation's
    findings are in (up to `WAIT_VALIDATION`), so that they time an edit of
    a validated document, not an edit beside the helpers still validating."""
    # Each server gets a cache folder of its own, empty: a first opening is
    # timed, not one answered from the caches of an earlier round (which
    # publish the validator's findings at once: no second publication to
    # wait for; bench_reopen.py times those).
    cache = tempfile.mkdtemp(prefix="annoscore-bench-cache-")
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "annoscore", "lsp", cwd=str(workdir), stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL, limit=1 << 26,
        env={**os.environ, "XDG_CACHE_HOME": cache})
    client = Client(process)
    sampler = PeakSampler(process.pid)  # the server and the processes it starts
    await client.request("initialize", {"processId": None, "rootUri": workdir.as_uri(), "capabilities": {
        "general": {"positionEncodings": ["utf-16"]},
        "textDocument": {"publishDiagnostics": {"versionSupport": True}}}})
    client.notify("initialized", {})
    text = prediction.read_text(encoding="utf-8")
    uri = prediction.resolve().as_uri()
    start_index = len(client.seen)
    opened = client.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "conllu", "version": 1, "text": text}})
    first = await client.wait_for(published(uri, 1), start_index) - opened
    # A large document's first validation, left to the helpers, is published
    # again when it is done (only what is printed for the large document
    # reads it; a small one is validated before its first publication).
    validated: float | None = first
    if validating:
        waited = WAIT_VALIDATION if wait_validation else max(5.0, 2 * first)
        try:
            validated = await asyncio.wait_for(client.wait_for(republished(uri, 1), start_index),
                                               timeout=waited) - opened
        except asyncio.TimeoutError:
            validated = None  # not within `waited` of the first publication: said so, not timed
    latencies = []
    version = 1
    form_latencies: list[float] = []
    shown: list[tuple[int, int, float]] = []  # per edit: diagnostics, bytes received, seconds decoding
    for (line, start, end, tag), times in [(e, latencies) for e in cell_edits(text, edits, 7, 3)] + \
            [(e, form_latencies) for e in cell_edits(text, form_edits, 8, 1)]:
        version += 1
        start_index = len(client.seen)
        sent = client.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"range": {"start": {"line": line, "character": start},
                                          "end": {"line": line, "character": end}}, "text": tag}]})
        client.notify("textDocument/didSave", {"textDocument": {"uri": uri}})
        times.append(await client.wait_for(published(uri, version), start_index) - sent)
        message = next(m for _, m in reversed(client.seen) if "body" in m)
        count, decoding = decoded(message)
        shown.append((count, len(message["body"]), decoding))
    peak = sampler.stop()
    await client.request("shutdown", {})
    client.notify("exit", {})
    await process.wait()
    client.reader.cancel()
    shutil.rmtree(cache, ignore_errors=True)
    return {"first": first, "validated": validated, "edits": latencies, "form_edits": form_latencies,
            "peak_rss": peak, "shown": shown}


def project_file(pair: str, validation: int | None, lang: str | None) -> str:
    """annoscore.toml: the language first (a top-level key), then the tables."""
    text = (f'lang = "{lang}"\n' if lang else "") + pair
    return text + (f"[validation]\nlevel = {validation}\n" if validation is not None else "")


def small_pair(workdir: Path, gold: Path, prediction: Path, words: int, project: str) -> tuple[Path, Path]:
    """The first sentences of the pair, up to about ``words`` gold words."""
    out = workdir / "small"
    out.mkdir(exist_ok=True)
    gold_blocks = gold.read_text(encoding="utf-8").split("\n\n")
    total, kept, ids = 0, [], set()
    for block in gold_blocks:
        if total >= words:
            break
        kept.append(block)
        total += sum(1 for line in block.split("\n") if line[:1].isdigit() and line.split("\t", 1)[0].isdigit())
        ids.update(line for line in block.split("\n") if line.startswith("# sent_id = "))
    (out / "gold.conllu").write_text("\n\n".join(kept) + "\n\n", encoding="utf-8")
    predicted = [b for b in prediction.read_text(encoding="utf-8").split("\n\n")
                 if any(line in ids for line in b.split("\n") if line.startswith("# sent_id = "))]
    (out / "pred.conllu").write_text("\n\n".join(predicted) + "\n\n", encoding="utf-8")
    (out / "annoscore.toml").write_text(project)
    return out / "gold.conllu", out / "pred.conllu"


def main() -> int:
    # The work itself, every run: a run after the first would find a large file's
    # validation in the cache (benchmarks/bench_reopen.py measures the cache).
    os.environ["ANNOSCORE_NO_CACHE"] = "1"
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workdir", help="keep the generated pair here (reused when present)")
    parser.add_argument("--copies", type=int, default=5)
    parser.add_argument("--edits", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=2, help="evaluate and the server, taking turns")
    parser.add_argument("--form-edits", type=int, default=5, help="edits that change a token's text")
    parser.add_argument("--validation", type=int, choices=range(6), help="UD validation level (0: off)")
    parser.add_argument("--lang", help="the language validated at levels 4-5")
    parser.add_argument("--burner", action="store_true",
                        help="keep one core busy (a Python loop) beside the whole run, as a busy machine does")
    parser.add_argument("--wait-validation", action="store_true",
                        help="start the edits once the first validation's findings are in (else they may "
                             "run beside it)")
    parser.add_argument("--edit", choices=("prediction", "gold"), default="prediction",
                        help="the document opened and edited: the parser's output (scored against gold) "
                             "or the gold treebank itself, as an annotator correcting it")
    args = parser.parse_args()
    burner = subprocess.Popen([sys.executable, "-c", "while True: pass"]) if args.burner else None
    try:
        return measured(args)
    finally:
        if burner is not None:
            burner.kill()
            burner.wait()


def measured(args: argparse.Namespace) -> int:
    if args.burner:
        print("a CPU burner on one core beside the whole run")
    workdir = Path(args.workdir or tempfile.mkdtemp(prefix="annoscore-bench-"))
    workdir.mkdir(parents=True, exist_ok=True)
    gold, prediction = make_pair(workdir, args.copies)
    project = project_file('[[pair]]\nfiles = "pred.conllu"\ngold = "gold.conllu"\n', args.validation, args.lang)
    (workdir / "annoscore.toml").write_text(project)

    # The machine's speed drifts over minutes: evaluate and the server take
    # turns, and each figure is the median over the rounds.
    evaluates, firsts, validateds, edits, form_edits, peaks, shown = [], [], [], [], [], [], []
    for round_number in range(args.rounds):
        evaluate = run_measured([sys.executable, "-m", "annoscore", "evaluate", str(prediction), str(gold),
                                 "--json"])
        if evaluate.returncode != 0:
            print(evaluate.stderr, file=sys.stderr)
            return 1
        large = asyncio.run(session(workdir, gold if args.edit == "gold" else prediction, args.edits,
                                    args.form_edits, args.validation != 0, args.wait_validation))
        evaluates.append(evaluate.seconds)
        firsts.append(large["first"])
        validateds.append(large["validated"])
        edits += large["edits"]
        shown += large["shown"]
        form_edits += large["form_edits"]
        peaks.append(large["peak_rss"])
        print(f"round {round_number + 1}: evaluate {evaluate.seconds:.2f} s, server's first "
              f"diagnostics+score {large['first']:.2f} s", flush=True)
    evaluate_seconds, first, median = map(statistics.median, (evaluates, firsts, edits))
    print(f"validation: {project.partition('[validation]')[2].strip() or 'the default'}, "
          f"lang: {args.lang or 'none'}")
    print(f"large pair ({prediction.stat().st_size >> 20} MB prediction), medians of {args.rounds} rounds; "
          f"the {args.edit} is the document edited:")
    print(f"  one-shot evaluate:             {evaluate_seconds:7.2f} s")
    print(f"  server, first diagnostics+score: {first:7.2f} s "
          f"({first / evaluate_seconds:.2f}x the one-shot evaluate)")
    timed = [v for v in validateds if v is not None]
    if len(timed) == len(validateds):
        print(f"  server, the first validation's findings: {statistics.median(timed):7.2f} s")
    else:
        print(f"  server, the first validation's findings: not received in {len(validateds) - len(timed)} of "
              f"{len(validateds)} rounds within " + (f"{WAIT_VALIDATION:.0f} s" if args.wait_validation else
                                                     "twice the first diagnostics' time") +
              " (the benchmark stops waiting)")
    print("  the edits began " + ("once the first validation's findings were in" if args.wait_validation
                                  else "without waiting for the first validation's findings"))
    print(f"  one-cell edit, median of {len(edits)}:  {1000 * median:7.1f} ms "
          f"(max {1000 * max(edits):.1f} ms; {first / median:.0f}x faster than the first scoring)")
    print(f"  one-token text edit (the pairing made again), median of {len(form_edits)}: "
          f"{1000 * statistics.median(form_edits):7.1f} ms")
    print(f"  server peak memory (with its helper process): {max(peaks) / 2**20:5.0f} MB")
    print(shown_line(shown))

    small_gold, small_prediction = small_pair(workdir, gold, prediction, 25_000, project)
    small = asyncio.run(session(small_gold.parent, small_gold if args.edit == "gold" else small_prediction,
                                args.edits, args.form_edits, args.validation != 0, args.wait_validation))
    print("25,000-word file:")
    print(f"  first diagnostics+score:       {1000 * small['first']:7.1f} ms")
    print(f"  one-cell edit, median of {len(small['edits'])}:  {1000 * statistics.median(small['edits']):7.1f} ms")
    print(f"  one-token text edit, median of {len(small['form_edits'])}: "
          f"{1000 * statistics.median(small['form_edits']):7.1f} ms")
    print(shown_line(small["shown"]))
    return 0


def shown_line(shown: list[tuple[int, int, float]]) -> str:
    """What each edit's publication held, and what decoding it cost the
    client (not in the latencies above, which end when it is received)."""
    count, size, decoding = (statistics.median(x) for x in zip(*shown))
    return (f"  after an edit: {count:.0f} diagnostics, {size / 2**20:.1f} MB of JSON received; "
            f"decoding it took this client {1000 * decoding:.1f} ms more (median)")


if __name__ == "__main__":
    sys.exit(results.run(main, __file__))
