"""Reading the client's messages from stdin: frames, a size cap, faults.

An LSP message is a few header lines (``Content-Length: N``), a blank line,
and N bytes of JSON.  `MessageReader` reads them from a file descriptor with
its own small buffer:

- header lines are at most `MAX_HEADER_LINE` bytes; a longer line, or a
  ``Content-Length`` that is not a number, is a framing fault;
- a body may be at most `MAX_MESSAGE_BYTES`.  A larger ``Content-Length`` is
  refused before anything is allocated for it: the reader then skips to the
  next ``Content-Length: N`` line in the stream.  JSON allows a raw line
  break only between tokens, where no letters can be, so such a line cannot
  be inside a real body, and skipping that way gets over an honest message
  that is too large (read and dropped as it arrives, in chunks) as well as
  over a header that lies;
- a body takes memory as it arrives, not when its size is announced (a
  large one is read into a memory map that the system fills in page by
  page), then is decoded and parsed here, on the reader's thread, so that
  parsing a 140 MB didOpen does not hold up the event loop;
- what is not UTF-8, not JSON or not a JSON-RPC 2.0 object becomes a
  `Fault`: the server answers it with the protocol's error and logs one
  line (see `AnnoscoreProtocol.refuse`).

`serve` runs the reader in a daemon thread that hands each message to the
event loop and waits until it has been taken, one at a time, in order.  It
reads the descriptor with ``os.read``, not through ``sys.stdin.buffer``: a
thread blocked there holds the buffer's lock, and Python cannot then exit
cleanly on Ctrl-C (``Fatal Python error: _enter_buffered_busy``).
"""

from __future__ import annotations

import asyncio
import codecs
import concurrent.futures
import json
import logging
import mmap
import os
import re
import reprlib
import threading
from dataclasses import dataclass
from typing import Any, Callable

logger = logging.getLogger("annoscore")

# The largest message body read.  The largest real documents are treebank
# files of about a million words: about 130 MB of CoNLL-U, about 140 MB as
# the JSON of a didOpen (tabs and newlines are escaped).  Scoring such a file
# takes the server about 800 MB; 512 MiB leaves room for files three to four
# times larger (a few GB in the server) and refuses what no editor sends, a
# Content-Length of gigabytes or more, before anything is allocated for it.
MAX_MESSAGE_BYTES = 512 << 20
MAX_HEADER_LINE = 4096        # a header line is a few dozen bytes
CHUNK = 1 << 20               # what one read asks for
LARGE_MESSAGE = 1 << 20       # bodies this large are announced (`large_body_coming`)

# JSON-RPC 2.0's error codes.
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603

# A Content-Length line as the next message starts with it.  It cannot be
# inside a JSON body: its line break would have to be a raw one, which JSON
# allows only between tokens, where letters cannot be.
_HEADER_LINE = re.compile(rb"(?i)content-length:[ \t]*\d+[ \t]*\r?\n")
_HEADER_KEPT = 200
_IGNORED_TOLD = 3   # lines that are not headers logged in a row (then one word for the rest)
_EXCERPT = 60


@dataclass
class Fault:
    """A message that could not be taken: the error to answer with and log."""

    code: int
    message: str                      # one line, short excerpts only
    id: int | str | None = None       # the request's id, when it is known
    answer: bool = True               # False for a notification or a response: no reply
    tell_user: bool = False           # told the user (window/showMessage) instead of a reply


def excerpt(data: bytes | str, size: int = _EXCERPT) -> str:
    """A short, printable quote of some input."""
    if isinstance(data, bytes):
        data = data[:size * 4].decode("utf-8", errors="replace")
    shown = repr(data[:size])
    return shown + ("…" if len(data) > size else "")


_SHORT = reprlib.Repr()
_SHORT.maxstring, _SHORT.maxother, _SHORT.maxlevel = _EXCERPT, _EXCERPT, 3


def shown(value: Any) -> str:
    """A short quote of a value from a message, however large or deep it is."""
    return _SHORT.repr(value)


def message_id(data: dict) -> int | str | None:
    """A message's id, when it is one a response may carry."""
    value = data.get("id")
    return value if isinstance(value, (int, str)) and not isinstance(value, bool) else None


def _size(n: int) -> str:
    if n >= 1 << 30:
        return f"{n / (1 << 30):.1f} GiB"
    return f"{n / (1 << 20):.0f} MiB" if n >= 1 << 20 else f"{n / 1024:.0f} KiB"


def read_into_from(fd: int) -> Callable[[memoryview], int]:
    """A `MessageReader`'s source: reads of a file descriptor, into a buffer."""
    if hasattr(os, "readv"):
        return lambda view: os.readv(fd, [view])

    def read_into(view: memoryview) -> int:  # (Windows has no readv)
        data = os.read(fd, len(view))
        view[:len(data)] = data
        return len(data)
    return read_into


class MessageReader:
    """Messages from a byte source; `next` gives one at a time (blocking)."""

    def __init__(self, read_into: Callable[[memoryview], int]) -> None:
        # read_into(view): fills the start of view, returns how many bytes
        # (at least one; 0 at the end of input), as os.readv and readinto do.
        self._read_into = read_into
        self._scratch = bytearray(CHUNK)
        self._pending = bytearray()   # read from the source, not yet taken
        self._ended = False
        self._skip_from: int | None = None  # after a framing fault: skip to a header from here
        self._ignored = 0                   # lines that are not headers since the last message
        # Called with a large body's size before it is read (see server.main).
        self.large_body_coming: Callable[[int], None] | None = None

    # --- bytes ------------------------------------------------------------------

    def _fill(self) -> bool:
        """Read more into the buffer; False at the end of input."""
        if self._ended:
            return False
        with memoryview(self._scratch) as view:
            got = self._read_into(view)
            if not got:
                self._ended = True
                return False
            self._pending += view[:got]
        return True

    def _line(self) -> bytes | None:
        """The next line with its end; b"" at the end of input; None when
        it is longer than MAX_HEADER_LINE (nothing of it is taken)."""
        searched = 0
        while True:
            end = self._pending.find(b"\n", searched)
            if end >= 0:
                if end + 1 > MAX_HEADER_LINE:
                    return None
                line = bytes(self._pending[:end + 1])
                del self._pending[:end + 1]
                return line
            if len(self._pending) > MAX_HEADER_LINE:
                return None
            searched = len(self._pending)
            if not self._fill():
                line = bytes(self._pending)
                self._pending.clear()
                return line

    def _body(self, size: int) -> bytearray | mmap.mmap | None:
        """``size`` bytes, read as they come; None when the input ends first.

        A large body is read straight into an anonymous memory map of its
        size: the system gives it memory page by page as the bytes are
        written, so a body takes memory as it arrives, not when it is
        announced, and is never copied while it grows."""
        if size < LARGE_MESSAGE:
            while len(self._pending) < size:
                if not self._fill():
                    return None
            body = self._pending[:size]
            del self._pending[:size]
            return body
        body = mmap.mmap(-1, size)
        done = min(size, len(self._pending))
        body[:done] = self._pending[:done]
        del self._pending[:done]
        with memoryview(body) as view:
            while done < size:
                got = self._read_into(view[done:done + CHUNK])
                if not got:
                    self._ended = True
                    break
                done += got
        if done < size:
            body.close()
            return None
        return body

    def _skip_to_header(self, start: int = 0) -> int:
        """Drop input up to the next ``Content-Length: N`` line at or after
        ``start`` (or to the end of input), a chunk at a time; the number of
        bytes dropped."""
        dropped = 0
        while True:
            found = _HEADER_LINE.search(self._pending, start)
            if found is not None:
                del self._pending[:found.start()]
                return dropped + found.start()
            # Keep the end: a header line may be cut between two reads.
            cut = min(len(self._pending), max(start, len(self._pending) - _HEADER_KEPT))
            del self._pending[:cut]
            dropped += cut
            start = 0
            if not self._fill():
                dropped += len(self._pending)
                self._pending.clear()
                return dropped

    # --- messages ---------------------------------------------------------------

    def next(self) -> dict | Fault | None:
        """The next message as a dict, a `Fault`, or None at the end of input."""
        if self._skip_from is not None:
            # After a framing fault (told as soon as it was seen): the input
            # up to the next header goes, as it comes.
            dropped = self._skip_to_header(self._skip_from)
            self._skip_from = None
            logger.info("skipped %d bytes to the next message", dropped)
        size = None
        while True:
            line = self._line()
            if line is None:
                self._skip_from = 1  # (the long line itself may start like a header)
                return Fault(PARSE_ERROR, f"a header line longer than {MAX_HEADER_LINE} bytes: "
                                          f"{excerpt(bytes(self._pending[:100]))}; skipping to the next message")
            if not line:
                return None
            if not line.strip():
                if size is not None:
                    break
                continue  # a stray blank line between messages
            name, colon, value = line.partition(b":")
            if not colon:
                self._ignored += 1
                if self._ignored <= _IGNORED_TOLD:
                    logger.warning("not an LSP header, ignored: %s (a message starts with "
                                   "'Content-Length: N' and a blank line)", excerpt(line.rstrip(b"\r\n")))
                elif self._ignored == _IGNORED_TOLD + 1:
                    logger.warning("more lines that are not LSP headers: ignored without a word")
                continue
            if name.strip().lower() == b"content-length":
                text = value.strip()
                if not text.isdigit():
                    self._skip_from = 0
                    return Fault(PARSE_ERROR, f"Content-Length is not a number: {excerpt(text)}; "
                                              "skipping to the next message")
                size = int(text)
        if size > MAX_MESSAGE_BYTES:
            self._skip_from = 0
            return Fault(INVALID_REQUEST,
                         f"a message of {size} bytes ({_size(size)}) is over the server's limit of "
                         f"{_size(MAX_MESSAGE_BYTES)}: skipped (a document that large cannot be opened)",
                         tell_user=True)
        if size >= LARGE_MESSAGE and self.large_body_coming is not None:
            try:
                self.large_body_coming(size)
            except Exception:  # only a head start: never in the way of reading
                logger.exception("getting ready for a large message failed")
        body = self._body(size)
        if body is None:
            return None  # the input ended inside a body
        self._ignored = 0
        return parse(body)


def parse(body: bytearray | bytes | mmap.mmap) -> dict | Fault:
    """A message body as a JSON-RPC message (a dict), or the `Fault` that it
    is not.  A memory-mapped body is closed (its memory freed) once decoded."""
    try:
        text, _ = codecs.utf_8_decode(body, "strict", True)
    except UnicodeDecodeError as error:
        return Fault(PARSE_ERROR, f"a message of {len(body)} bytes is not UTF-8: byte "
                                  f"0x{body[error.start]:02X} at {error.start}")
    finally:
        if isinstance(body, mmap.mmap):
            body.close()
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        return Fault(PARSE_ERROR, f"a message is not JSON: {error.msg} at line {error.lineno} "
                                  f"column {error.colno}: {excerpt(text)}")
    except RecursionError:
        return Fault(PARSE_ERROR, f"a message is nested too deeply to be read: {excerpt(text)}")
    del text
    if not isinstance(data, dict):
        kind = {list: "an array", str: "a string", int: "a number", float: "a number",
                bool: "a boolean", type(None): "null"}.get(type(data), type(data).__name__)
        return Fault(INVALID_REQUEST, f"a message must be a JSON object, not {kind}")
    if data.get("jsonrpc") != "2.0":
        return Fault(INVALID_REQUEST, f"a message without \"jsonrpc\": \"2.0\": {shown(data)}",
                     message_id(data))
    if "id" in data and message_id(data) is None:
        return Fault(INVALID_REQUEST, f"a message id must be a number or a string, not "
                                      f"{shown(data['id'])}")
    if "method" in data and not isinstance(data["method"], str):
        return Fault(INVALID_REQUEST, f"a method must be a string, not {shown(data['method'])}",
                     message_id(data))
    return data


async def serve(reader: MessageReader, receive: Callable[[dict | Fault], Any]) -> None:
    """Hand the reader's messages to ``receive`` on this event loop, in order,
    until the input ends."""
    loop = asyncio.get_running_loop()
    ended = loop.create_future()

    def deliver(item: dict | Fault, taken: concurrent.futures.Future) -> None:
        try:
            receive(item)
        finally:
            taken.set_result(None)

    def pump() -> None:
        try:
            while True:
                item = reader.next()
                if item is None:
                    break
                taken: concurrent.futures.Future = concurrent.futures.Future()
                loop.call_soon_threadsafe(deliver, item, taken)
                del item  # (a large message is the handler's alone from here)
                taken.result()
        except RuntimeError:
            return  # the event loop is closed: the server is stopping
        except Exception:
            logger.exception("reading the client's messages failed")
        try:
            loop.call_soon_threadsafe(lambda: ended.done() or ended.set_result(None))
        except RuntimeError:
            pass

    threading.Thread(target=pump, name="annoscore-stdin", daemon=True).start()
    await ended
