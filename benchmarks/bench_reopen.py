"""Opening a large treebank again: the cache of its UD validation.

Issue 31 asks a reopened 200k-word file's first diagnostics to come at once.
In one run, with the cache in a fresh folder of this run's
(``XDG_CACHE_HOME``), each step measured as an editor or a hook sees it:

- the language server, EWT train opened (``annoscore.toml``: lang en,
  validation level 5): the time to its first diagnostics, and to the
  diagnostics with the validator's findings (a large document's first
  validation follows its first publication); then closed and opened again
  in the same server; then opened in a new server process (an editor
  started again: the cache on disk; ``--runs`` servers, the median); then
  in a server with the cache off.  Opened again, what the document showed
  comes from the server's cache of it (`server.lsp.shown_cache`), and its
  live model is built after that;
- ``check --json --level 5 --lang en`` of the same file: cold (a new cache),
  warm, and with ``--no-cache``: CPU of the whole process tree, and wall.

The diagnostics that end each opening, and the findings of each check, are
compared: they must be equal with and without the cache.

    python benchmarks/bench_reopen.py [--workdir DIR] [--runs 3]

Needs ../shared (EWT train).
"""

from __future__ import annotations

import argparse
import asyncio
import ctypes
import json
import os
import resource
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import results  # noqa: E402
from bench_lsp import Client  # noqa: E402
from bench_speed import TRAIN, _PR_SET_CHILD_SUBREAPER, run  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def diagnostics_of(client: Client, uri: str, start_index: int, version: int) -> list[tuple[float, dict]]:
    out = []
    for arrival, message in client.seen[start_index:]:
        params = message.get("params") or {}
        if message.get("method") == "textDocument/publishDiagnostics" and params.get("uri") == uri \
                and params.get("version") == version:
            out.append((arrival, message))
    return out


def reap() -> None:
    """Wait for every process left to this one (a server's helpers, ending
    after it): their CPU is then counted where it was spent, not in the
    next run's figures."""
    while True:
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            return


def children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def shown(message: dict) -> list:
    body = json.loads(message["body"]) if "body" in message else message
    return sorted(json.dumps(d, sort_keys=True) for d in body["params"]["diagnostics"])


def has_findings(message: dict) -> bool:
    """The publication shows the validator's findings (EWT train has
    thousands at level 5; a large document's first validation, when not
    cached, follows the first publication)."""
    return b'"test_id"' in message["body"] if "body" in message else "test_id" in json.dumps(message)


async def open_and_wait(client: Client, uri: str, text: str, version: int, timeout: float) -> dict:
    """didOpen; the times of the first publication and of the first with
    the validator's findings."""
    start_index = len(client.seen)
    opened = client.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "conllu", "version": version, "text": text}})

    def found(first_only: bool):
        published = diagnostics_of(client, uri, start_index, version)
        if first_only:
            return published[0] if published else None
        return next(((t, m) for t, m in published if has_findings(m)), None)

    async def wait(first_only: bool):
        while found(first_only) is None:
            client.arrived.clear()
            await asyncio.wait_for(client.arrived.wait(), timeout=timeout)
        return found(first_only)

    first_at, first = await wait(True)
    complete_at, complete = await wait(False)
    return {"first": first_at - opened, "complete": complete_at - opened, "with_findings": has_findings(first),
            "shown": shown(complete)}


async def server(workdir: Path, env: dict, opens: int, timeout: float) -> list[dict]:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "annoscore", "lsp", cwd=str(workdir), stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL, limit=1 << 26, env=env)
    client = Client(process)
    await client.request("initialize", {"processId": None, "rootUri": workdir.as_uri(), "capabilities": {
        "general": {"positionEncodings": ["utf-16"]},
        "textDocument": {"publishDiagnostics": {"versionSupport": True}}}})
    client.notify("initialized", {})
    path = workdir / TRAIN.name
    text = path.read_text(encoding="utf-8")
    uri = path.resolve().as_uri()
    out = []
    for k in range(opens):
        if k:
            client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
        out.append(await open_and_wait(client, uri, text, k + 1, timeout))
    await client.request("shutdown", {})
    client.notify("exit", {})
    await process.wait()
    client.reader.cancel()
    return out


def findings(stdout: str) -> list:
    return sorted(json.dumps(d, sort_keys=True) for d in json.loads(stdout)["files"][0]["diagnostics"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workdir", help="where the treebank, the project file and the cache go")
    parser.add_argument("--runs", type=int, default=3, help="of each check, and of new servers with the cache")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds to wait for a publication")
    args = parser.parse_args()
    if not TRAIN.exists():
        print(f"needs {TRAIN}", file=sys.stderr)
        return 2
    ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    workdir = Path(args.workdir or tempfile.mkdtemp(prefix="annoscore-reopen-")).resolve()
    workdir.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(TRAIN, workdir / TRAIN.name)
    (workdir / "annoscore.toml").write_text('lang = "en"\n[validation]\nlevel = 5\n', encoding="utf-8")
    cache = workdir / "cache"
    shutil.rmtree(cache, ignore_errors=True)
    env = {**os.environ, "XDG_CACHE_HOME": str(cache), "PYTHONPATH": str(ROOT)}
    env.pop("ANNOSCORE_NO_CACHE", None)
    os.environ.update({"XDG_CACHE_HOME": str(cache)})
    os.environ.pop("ANNOSCORE_NO_CACHE", None)
    print(f"{TRAIN.name} ({os.path.getsize(TRAIN) >> 10} KiB), validation level 5, lang en\n")

    print("language server (seconds from didOpen)")
    equal = True
    rows = []

    def session(env: dict, opens: int) -> tuple[list[dict], float]:
        reap()
        before = children_cpu()
        opened = asyncio.run(server(workdir, env, opens, args.timeout))
        reap()
        return opened, children_cpu() - before

    (cold, again), cpu = session(env, 2)
    rows += [("opened, cache empty", cold, None), ("closed and opened again", again, cpu)]
    news = [session(env, 1) for _ in range(args.runs)]
    firsts = [warm[0]["first"] for warm, _ in news]
    middle = sorted(range(len(news)), key=lambda k: firsts[k])[len(news) // 2]
    rows.append(("a new server, the cache on disk", news[middle][0][0], news[middle][1]))
    off, cpu = session({**env, "ANNOSCORE_NO_CACHE": "1"}, 1)
    rows.append(("a new server, cache off", off[0], cpu))
    reference = rows[-1][1]["shown"]
    for name, row, cpu in rows:
        tree = "" if cpu is None else f";  CPU of the server's tree {cpu:5.2f} s"
        print(f"  {name:32} first diagnostics {row['first']:5.2f} s"
              f" ({'with' if row['with_findings'] else 'before'} the validator's findings);"
              f"  the findings {row['complete']:5.2f} s{tree}")
        equal &= row["shown"] == reference
    print("  (the CPU of the first server is that of both its openings; a new server with the cache on disk: "
          f"the median of {len(news)} servers, first diagnostics {', '.join(f'{t:.2f}' for t in firsts)} s)")
    print(f"  final diagnostics equal with and without the cache: {'yes' if equal else 'NO'}")

    print("\ncheck --json --level 5 --lang en (CPU of the process tree; median of the runs)")
    command = [sys.executable, "-m", "annoscore", "check", "--json", "--level", "5", "--lang", "en",
               str(workdir / TRAIN.name)]
    reap()
    measured: dict[str, list] = {"cold (empty cache)": [], "warm": [], "--no-cache": []}
    for _ in range(args.runs):
        shutil.rmtree(cache, ignore_errors=True)
        measured["cold (empty cache)"].append(run(command, set()))
        measured["warm"].append(run(command, set()))
        measured["--no-cache"].append(run([*command, "--no-cache"], set()))
    same = findings(measured["--no-cache"][0].stdout)
    for name, runs in measured.items():
        cpu = statistics.median(r.cpu for r in runs)
        wall = statistics.median(r.wall for r in runs)
        equal &= all(findings(r.stdout) == same for r in runs)
        print(f"  {name:20} CPU {cpu:6.2f} s  wall {wall:6.2f} s  (CPU of the runs: "
              f"{', '.join(f'{r.cpu:.2f}' for r in runs)})")
    print(f"  findings equal in every run: {'yes' if equal else 'NO'}   (load "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} at the end)")
    entries = list((cache / "annoscore" / "validation").glob("*.json"))
    print(f"  cache entry: {sum(e.stat().st_size for e in entries) / 1e6:.1f} MB in {len(entries)} file(s)")
    return 0 if equal else 1


if __name__ == "__main__":
    sys.exit(results.run(main, __file__))
