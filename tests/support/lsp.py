"""Helpers for the end-to-end LSP tests: sample workspaces and a client fixture."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from lsprotocol import types

ROOT = Path(__file__).resolve().parent.parent
SERVER = [sys.executable, "-m", "annoscore", "lsp"]
# Client presets shipped with pytest-lsp: VS Code (UTF-16, dynamic registration),
# Neovim 0.11 (UTF-8 positions, no dynamic watched files), Neovim 0.7.
PRESETS = ["visual-studio-code", "neovim@v0.11.0", "neovim@v0.7.0"]


def tabs(text: str) -> str:
    """Sample CoNLL-U written with single spaces between columns."""
    out = []
    for line in text.strip("\n").split("\n"):
        if line and not line.startswith("#") and line.strip():
            line = "\t".join(line.split(" "))
        out.append(line.strip() if not line.strip() else line)
    return "\n".join(out) + "\n\n"


GOLD = tabs("""
# sent_id = s1
1 The the DET DT _ 2 det _ _
2 cat cat NOUN NN _ 3 nsubj _ _
3 sat sit VERB VBD _ 0 root _ _

# sent_id = s2
1 a a X _ _ 0 root _ _
2 b b X _ _ 1 dep _ _
3 c c X _ _ 2 dep _ _

# sent_id = s3
1 d d X _ _ 0 root _ _
2 e e X _ _ 1 dep _ _

# sent_id = s4
1 f f X _ _ 0 root _ _
2 g g X _ _ 1 dep _ _

# sent_id = s5
1 h h X _ _ 0 root _ _
2 i i X _ _ 1 dep _ _

# sent_id = s6
1 j j X _ _ 0 root _ _
2 k k X _ _ 1 dep _ _

# sent_id = s7
1 dog dog NOUN _ _ 0 root _ _

# sent_id = s8
1 ab ab X _ _ 0 root _ _

# sent_id = s9
1 gone gone X _ _ 0 root _ _

# sent_id = s10
1 m m X _ _ 0 root _ _
2 n n X _ _ 1 dep _ _
""")

PRED = tabs("""
# sent_id = s1
1 The the DET DT _ 2 det _ _
2 cat cat VERB NN _ 3 nsubj _ Conf=UPOS:0.30
3 sat sit VERB VBD _ 0 root _ _

# sent_id = s2
1 a a X _ _ 0 root _ _
2 b b X _ _ 3 dep _ _
3 c c X _ _ 2 dep _ _

# sent_id = s3
1 d d X _ _ 0 root _ _
2 e e X _ _ 0 root _ _

# sent_id = s4
1 f f X _ _ 0 root _ _
2 g g X _ _ _ dep _ _

# sent_id = s5
1 h h X _ _ _ _ _ _
2 i i X _ _ _ _ _ _

# sent_id = s6
1 j j X _ _ 0 root _ _
2 k k X _ _ 9 dep _ _

# sent_id = s7
1 dug dug NOUN _ _ 0 root _ _

# sent_id = s8
1 a a X _ _ 0 root _ _
2 b b X _ _ 1 dep _ _

# sent_id = s10
1 m m X _ _ 0 root _ _
2 n n X _ _ 1 dep _
""")


def cell(text: str, line: int, column: int) -> tuple[int, int, int]:
    """(line, start, end) of a tab-separated cell, found independently of the server."""
    row = text.split("\n")[line]
    start = 0
    for _ in range(column):
        start = row.index("\t", start) + 1
    end = row.find("\t", start)
    return line, start, len(row) if end < 0 else end


def line_of(text: str, needle: str) -> int:
    return text.split("\n").index(needle)


def workspace(tmp_path: Path, pred: str = PRED, gold: str = GOLD, name: str = "x") -> tuple[Path, Path]:
    pred_path, gold_path = tmp_path / f"{name}.conllu", tmp_path / f"{name}.gold.conllu"
    pred_path.write_text(pred, encoding="utf-8")
    gold_path.write_text(gold, encoding="utf-8")
    return pred_path, gold_path


def span(diagnostic: types.Diagnostic) -> tuple[int, int, int]:
    r = diagnostic.range
    assert r.start.line == r.end.line
    return r.start.line, r.start.character, r.end.character


async def wait_for(predicate, timeout: float = 20.0, step: float = 0.05):
    """Poll until predicate() is true (notifications may arrive in any order)."""
    waited = 0.0
    while not predicate():
        await asyncio.sleep(step)
        waited += step
        if waited > timeout:
            raise AssertionError("timed out waiting")


class RawServer:
    """``annoscore lsp`` as a subprocess, driven with raw bytes over its pipes
    (for what a well-behaved client library cannot send).  Messages it
    writes are collected by a thread; stderr too."""

    def __init__(self, cwd: Path, env: dict | None = None) -> None:
        import queue
        import subprocess
        import threading
        self.process = subprocess.Popen(SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, cwd=str(ROOT), env=env)
        self.cwd = cwd
        self.messages: "queue.Queue[dict | None]" = queue.Queue()
        self.stderr: list[str] = []
        threading.Thread(target=self._read_stdout, daemon=True).start()
        self._stderr_reader = threading.Thread(target=self._read_stderr, daemon=True)
        self._stderr_reader.start()

    def _read_stdout(self) -> None:
        import json
        stream = self.process.stdout
        while True:
            size = None
            while True:
                line = stream.readline()
                if not line:
                    self.messages.put(None)
                    return
                if line.lower().startswith(b"content-length:"):
                    size = int(line.split(b":")[1])
                if line == b"\r\n" and size is not None:
                    break
            self.messages.put(json.loads(stream.read(size)))

    def _read_stderr(self) -> None:
        for line in self.process.stderr:
            self.stderr.append(line.decode("utf-8", errors="replace"))

    def write(self, data: bytes) -> None:
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def send(self, body: bytes | dict) -> None:
        import json
        if isinstance(body, dict):
            body = json.dumps(body).encode()
        self.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def next(self, timeout: float = 20.0) -> dict:
        import queue
        try:
            message = self.messages.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no message from the server in {timeout} s") from None
        assert message is not None, "the server closed its stdout: " + "".join(self.stderr[-5:])
        return message

    def answer(self, request_id, timeout: float = 20.0) -> dict:
        """The response to a request, skipping the notifications before it."""
        while True:
            message = self.next(timeout)
            if message.get("id") == request_id and "method" not in message:
                return message

    def initialize(self) -> None:
        self.send({"jsonrpc": "2.0", "id": "init", "method": "initialize",
                   "params": {"capabilities": {}, "rootUri": self.cwd.as_uri()}})
        assert "result" in self.answer("init")
        self.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})

    def wait(self, timeout: float = 20.0) -> int:
        """The exit status once the server has ended and its stderr is read
        to the end (under load the reader thread can lag behind the exit)."""
        status = self.process.wait(timeout=timeout)
        self._stderr_reader.join(timeout=timeout)
        return status

    def memory_mb(self) -> dict[str, int]:
        """The server's resident memory now and at its peak (Linux)."""
        found = {}
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith(("VmRSS:", "VmHWM:")):
                    name, value = line.split(":")
                    found[name] = int(value.split()[0]) // 1024
        return found

    def stop(self) -> int:
        """shutdown and exit, as an editor does; the exit status."""
        import subprocess
        try:
            self.send({"jsonrpc": "2.0", "id": "bye", "method": "shutdown"})
            self.answer("bye")
            self.send({"jsonrpc": "2.0", "method": "exit"})
            return self.wait(timeout=20)
        except (OSError, AssertionError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()
            raise


def sentence_outline(engine, key: str):
    """The outline's entries of a CoNLL-U document in order, lines absolute
    (`segment_outlines` gives them relative to their segments); None for
    another document."""
    from annoscore.server.engine.outline import OutlineEntry, segment_outlines

    walk = segment_outlines(engine, key)
    if walk is None:
        return None
    return [OutlineEntry(e.sent_id, e.detail, base + e.first_line, e.first_text,
                         base + e.last_line, e.last_text, e.unparsed, e.refused)
            for base, entries in walk for e in entries]
