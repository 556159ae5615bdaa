"""Reading the client's messages (server/lsp/transport.py): framing, the
size cap, faults.  First the reader on its own, fed from memory; then the
real server over pipes with raw bytes (what no client library sends)."""

from __future__ import annotations

import io
import json
import sys
import time
import tracemalloc

import pytest

from tests.support.lsp import RawServer
from annoscore.server.lsp import transport
from annoscore.server.lsp.transport import (INVALID_REQUEST, LARGE_MESSAGE, MAX_MESSAGE_BYTES, PARSE_ERROR, Fault,
                                  MessageReader)


def framed(body: bytes | dict) -> bytes:
    if isinstance(body, dict):
        body = json.dumps(body).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def reader_of(data: bytes, most: int | None = None) -> MessageReader:
    """A reader of ``data``; each read gives at most ``most`` bytes (a pipe
    gives what has come, not what was asked for)."""
    stream = io.BytesIO(data)

    def read_into(view: memoryview) -> int:
        return stream.readinto(view[:most] if most else view)
    return MessageReader(read_into)


def every(reader: MessageReader) -> list:
    out = []
    while (item := reader.next()) is not None:
        out.append(item)
    return out


PING = {"jsonrpc": "2.0", "id": 1, "method": "annoscore/score", "params": {"uri": "file:///a.conllu"}}
NOTE = {"jsonrpc": "2.0", "method": "initialized", "params": {}}


def test_messages_come_whole_however_the_bytes_arrive():
    """One byte per read, or everything at once, with extra headers and
    stray blank lines: the same messages."""
    big = {"jsonrpc": "2.0", "method": "x", "params": {"text": "é\t" * LARGE_MESSAGE}}
    data = (b"\r\n" + framed(PING) + b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n"
            + framed(NOTE) + framed(big) + framed(PING))
    assert every(reader_of(data)) == [PING, NOTE, big, PING]
    small = data.replace(framed(big), b"")
    assert every(reader_of(small, most=1)) == [PING, NOTE, PING]
    assert every(reader_of(data, most=4093)) == [PING, NOTE, big, PING]


def test_the_input_ending_inside_a_message_ends_the_reading():
    for data in (framed(PING)[:-1], framed(PING)[:10], framed({"t": "a" * LARGE_MESSAGE})[:LARGE_MESSAGE]):
        assert every(reader_of(data)) == []


def test_a_large_body_is_announced_before_it_is_read():
    """The server starts what a large document's first pass needs while the
    body is still being read; a failure there never stops the reading."""
    body = {"jsonrpc": "2.0", "method": "x", "params": {"text": "a" * LARGE_MESSAGE}}
    stream = io.BytesIO(framed(PING) + framed(body))
    reader = MessageReader(stream.readinto)
    announced = []

    def coming(size: int) -> None:
        announced.append((size, stream.tell()))
        raise RuntimeError("could not get ready")

    reader.large_body_coming = coming
    assert reader.next() == PING and announced == []
    assert reader.next() == body  # read all the same
    size = len(json.dumps(body))
    # Told with the body's size, when at most one read's worth of it had come.
    assert announced[0][0] == size and announced[0][1] <= len(framed(PING)) + len(framed(body)) - size + transport.CHUNK


@pytest.mark.parametrize("size", [99999999999999, 3000000000, MAX_MESSAGE_BYTES + 1])
def test_a_message_over_the_limit_is_refused_before_anything_is_allocated(size):
    """The header is refused as soon as it is read (the user is told), with
    almost nothing allocated; the reader then finds the next message."""
    data = b"Content-Length: %d\r\n\r\n" % size + json.dumps(PING).encode() + framed(NOTE)
    reader = reader_of(data)
    tracemalloc.start()
    try:
        fault = reader.next()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert isinstance(fault, Fault) and fault.tell_user and fault.code == INVALID_REQUEST
    assert str(size) in fault.message and "512 MiB" in fault.message
    assert peak < 4 * transport.CHUNK
    assert reader.next() == NOTE and reader.next() is None


def test_a_real_message_over_the_limit_is_dropped_as_it_comes(monkeypatch):
    """An honest body over the limit (the limit made small here) is read
    and dropped in chunks, up to the next message's header (JSON never holds
    a raw line break in a string, so no header can be inside a body)."""
    monkeypatch.setattr(transport, "MAX_MESSAGE_BYTES", 1000)
    huge = {"jsonrpc": "2.0", "method": "textDocument/didOpen",
            "params": {"text": "Content-Length: 12\\r\\n" * 10_000}}
    items = every(reader_of(framed(huge) + framed(PING), most=777))
    assert len(items) == 2 and isinstance(items[0], Fault) and items[1] == PING


def test_framing_faults_are_told_and_the_next_message_is_read():
    cases = [b"Content-Length: twelve\r\n\r\n{}", b"Content-Length: " + b"9" * 5000 + b"\r\n\r\n{}",
             b"X-Junk: " + b"x" * 10_000 + b"\r\n\r\n"]
    for case in cases:
        items = every(reader_of(case + framed(PING), most=1000))
        assert len(items) == 2 and items[1] == PING, case[:40]
        assert isinstance(items[0], Fault) and items[0].code == PARSE_ERROR
        assert len(items[0].message) < 300  # quotes a short excerpt only
    # Lines that are not headers (someone typing JSON) are only logged.
    assert every(reader_of(b'{"jsonrpc": "2.0"}\r\n' + framed(PING))) == [PING]


@pytest.mark.parametrize("body, code, words", [
    (b"\xff\xfe{}", PARSE_ERROR, "not UTF-8: byte 0xFF at 0"),
    (b'{"jsonrpc": "2.0", "id": 1, "method": ', PARSE_ERROR, "not JSON"),
    (b"[" * 100_000 + b"]" * 100_000, PARSE_ERROR, "nested too deeply"),
    (b"[1, 2]", INVALID_REQUEST, "not an array"),
    (b'"text"', INVALID_REQUEST, "not a string"),
    (b"null", INVALID_REQUEST, "not null"),
    (b'{"id": 3, "method": "shutdown"}', INVALID_REQUEST, '"jsonrpc": "2.0"'),
    (b'{"jsonrpc": "2.0", "id": [3], "method": "shutdown"}', INVALID_REQUEST, "id must be a number or a string"),
    (b'{"jsonrpc": "2.0", "id": 4, "method": 5}', INVALID_REQUEST, "method must be a string"),
])
def test_a_body_that_is_not_a_message_is_a_fault(body, code, words):
    (fault, ping) = every(reader_of(framed(body) + framed(PING)))
    assert isinstance(fault, Fault) and fault.code == code and words in fault.message, fault
    assert ping == PING
    known = json.loads(body).get("id") if body.startswith(b'{"') and body.endswith(b"}") else None
    assert fault.id == (known if isinstance(known, int) else None)  # answered to its id when it has one


# --- the real server, over pipes ------------------------------------------------------

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads memory from /proc")


@pytest.fixture
def raw(tmp_path):
    server = RawServer(tmp_path)
    server.initialize()
    yield server
    if server.process.poll() is None:
        server.process.kill()
        server.process.wait()


def score_request(request_id) -> dict:
    return {"jsonrpc": "2.0", "id": request_id, "method": "annoscore/score",
            "params": {"uri": "file:///nowhere.conllu"}}


def no_traceback(raw: RawServer) -> None:
    text = "".join(raw.stderr)
    assert "Traceback" not in text and "Error in server" not in text, text[-2000:]


@linux_only
@pytest.mark.parametrize("size", [b"99999999999999", b"3000000000"])
def test_a_huge_content_length_does_not_stop_the_server(raw: RawServer, size: bytes):
    before = raw.memory_mb()
    raw.write(b"Content-Length: " + size + b"\r\n\r\n" + json.dumps(score_request(1)).encode())
    told = raw.next()
    assert told["method"] == "window/showMessage" and size.decode() in told["params"]["message"]
    raw.send(score_request(2))
    assert raw.answer(2) == {"id": 2, "jsonrpc": "2.0", "result": None}
    assert raw.memory_mb()["VmHWM"] < before["VmHWM"] + 50  # nothing near the announced size
    assert raw.stop() == 0  # (and its stderr read to the end)
    assert sum("over the server's limit" in line for line in raw.stderr) == 1
    no_traceback(raw)


@linux_only
def test_a_large_body_takes_memory_as_it_arrives(raw: RawServer):
    size = 100 << 20
    head = b'{"jsonrpc": "2.0", "method": "x/unknown", "params": {"text": "'
    body = head + b"a" * (size - len(head) - 3) + b'"}}'
    before = raw.memory_mb()
    raw.write(b"Content-Length: %d\r\n\r\n" % size + body[:1 << 20])
    time.sleep(1)  # (the server reads what has come)
    assert raw.memory_mb()["VmRSS"] < before["VmRSS"] + 30  # 1 MB of 100 have come
    raw.write(body[1 << 20:])
    raw.send(score_request(2))
    assert raw.answer(2)["result"] is None
    assert raw.stop() == 0


def test_bodies_that_are_not_messages_are_answered_and_logged_in_one_line(raw: RawServer):
    cases = [(b"[1, 2]", INVALID_REQUEST), (b"\xc3\x28", PARSE_ERROR), (b'{"jsonrpc": "2.0", "id": 5', PARSE_ERROR),
             (b'"hello"', INVALID_REQUEST), (b'{"id": 9, "method": "shutdown"}', INVALID_REQUEST)]
    for body, code in cases:
        raw.send(body)
        answer = raw.next()
        assert answer["error"]["code"] == code and answer["id"] == (9 if b'"id": 9' in body else None), answer
    raw.send(score_request(2))
    assert raw.answer(2)["result"] is None
    assert raw.stop() == 0  # (and its stderr read to the end)
    assert sum(line.startswith("annoscore WARNING: refused:") for line in raw.stderr) == len(cases)
    no_traceback(raw)


# --- typed in a terminal -----------------------------------------------------------------

@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="uses a pseudo-terminal")
def test_in_a_terminal_it_says_what_it_is_and_stops_on_the_first_ctrl_c():
    """stdin a terminal: a word on stderr, what is typed is not taken for a
    message, and one SIGINT (what Ctrl-C sends) stops it at once, cleanly —
    the reading thread blocked on the terminal used to hold stdin's buffer,
    and Python then aborted ('_enter_buffered_busy') on a second Ctrl-C."""
    import os
    import pty
    import select
    import signal
    import subprocess
    from tests.support.lsp import ROOT, SERVER
    master, slave = pty.openpty()
    # In a terminal SIGINT is at its default; a test run started in the
    # background of a script inherits it ignored, and Python then keeps it so.
    process = subprocess.Popen(SERVER, stdin=slave, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               cwd=str(ROOT), preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    os.close(slave)
    told = b""

    def wait_for(words: bytes) -> None:
        nonlocal told
        deadline = time.monotonic() + 20
        while words not in told:
            ready, _, _ = select.select([process.stderr], [], [], max(0.0, deadline - time.monotonic()))
            assert ready, f"waited for {words!r}; stderr: {told!r}"
            chunk = process.stderr.read1(4096)
            assert chunk, told
            told += chunk

    try:
        wait_for(b"Ctrl-C to stop")
        assert b"language server" in told and b"started by an editor" in told
        os.write(master, b"hello\n")
        wait_for(b"not an LSP header")
        process.send_signal(signal.SIGINT)
        # About a second, on a busy machine too (the old server never
        # stopped); the margin is for a machine shared with other work.
        status = process.wait(timeout=30)
        rest = process.stderr.read().decode()
    finally:
        os.close(master)
        if process.poll() is None:
            process.kill()
            process.wait()
    assert status == 130
    assert "Fatal Python error" not in rest and "Traceback" not in rest, rest


def test_started_by_an_editor_it_says_nothing_of_the_kind(raw: RawServer):
    assert raw.stop() == 0
    assert not any("started by an editor" in line for line in raw.stderr)


def test_what_is_told_stays_short_however_large_the_input(caplog):
    """Lines of junk are told a few at a time, and a fault quotes an excerpt
    of a value of any size."""
    import logging
    junk = b"".join(b"junk line %d\n" % k for k in range(1000))
    with caplog.at_level(logging.WARNING, logger="annoscore"):
        assert every(reader_of(junk + framed(PING) + b"more junk\n" + framed(PING))) == [PING, PING]
    told = [r.getMessage() for r in caplog.records]
    assert len(told) == 3 + 1 + 1 and "more junk" in told[-1]  # three, "more ...", then the next run
    huge = {"jsonrpc": "2.0", "id": ["x" * 1_000_000], "method": "m"}
    (fault, _) = every(reader_of(framed(huge) + framed(PING)))
    assert isinstance(fault, Fault) and len(fault.message) < 200
