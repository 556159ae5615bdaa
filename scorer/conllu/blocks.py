"""Cutting a CoNLL-U text into sentence blocks, and what is wrong between them.

The text is cut at blank lines into sentence blocks (`BlockSplitter`).
Everything that is wrong *between* sentences is noticed here: several blank
lines in a row (the official scorer reads an empty sentence there and
refuses the file), lines of only whitespace, a file that does not end with a
blank line, a byte-order mark, bytes that are not UTF-8.  The splitter works
on a stream of text chunks, so a large file is never held in memory, and on
a whole text (the editor's buffer).  Line ends: CRLF and lone CR end lines
as Python's universal newlines read them (`normalize_newlines`).
"""

from __future__ import annotations

import re

from ..problems import Problem, Severity


_SURROGATE = re.compile("[\udc80-\udcff]")


class BlockSplitter:
    """Cuts text into sentence blocks, reporting problems between sentences.

    ``feed`` takes text chunks (newlines already ``\\n``) and returns the
    blocks completed so far as ``(first_line, text)``; ``finish`` returns the
    rest.  ``problems`` collects what was found, with absolute lines.
    """

    def __init__(self, first_line: int = 0, at_file_start: bool = True) -> None:
        self.line = first_line
        self.problems: list[Problem] = []
        # Text after the last blank line, in the pieces it came in: joined
        # only once a blank line ends it, so that a block longer than many
        # chunks (a file without blank lines) costs linear time, not quadratic.
        self._pending: list[str] = []
        # A byte-order mark only counts at the very start of a file.
        self._started = not at_file_start

    def feed(self, chunk: str) -> list[tuple[int, str]]:
        if not self._started and chunk:
            self._started = True
            if chunk.startswith("\ufeff"):
                chunk = chunk[1:]
                self.problems.append(Problem(
                    "format-bom", "the file starts with a byte-order mark; the official scorer "
                    "refuses it", self.line, 0, 1, Severity.WARNING, refuses=True))
        pending = self._pending
        if "\n\n" not in chunk:  # (one across the boundary is found with the next one)
            if chunk:
                pending.append(chunk)
            return []
        buf = "".join(pending) + chunk if pending else chunk
        end = buf.rfind("\n\n")
        # Cut before the whole run of newlines, so that a run of blank lines
        # split over two chunks is still seen as one run.
        while end > 0 and buf[end - 1] == "\n":
            end -= 1
        rest = buf[end + 2:]
        self._pending = [rest] if rest else []
        return self._elements(buf[:end].split("\n\n"), final=False)

    def finish(self) -> list[tuple[int, str]]:
        buf, self._pending = "".join(self._pending), []
        if not buf:
            return []
        blocks = self._elements(buf.split("\n\n"), final=True)
        # Each element counted the blank line after it; the last has none.
        # Now ``line`` is first_line plus the line ends read.
        self.line -= 2
        return blocks

    def _elements(self, elements: list[str], final: bool) -> list[tuple[int, str]]:
        blocks: list[tuple[int, str]] = []
        last = len(elements) - 1
        for k, element in enumerate(elements):
            line = self.line
            self.line += element.count("\n") + 2
            if final and k == last:
                if not element:
                    break  # the file ended with its blank line: good
                if not element.strip("\n"):
                    self._extra_blank_lines(line, element.count("\n"))
                    break
            body = element.lstrip("\n")
            if len(body) != len(element):
                self._extra_blank_lines(line, len(element) - len(body))
                line += len(element) - len(body)
            elif not element:
                self._extra_blank_lines(line, 2)
                continue
            if final and k == last:
                stripped = body.rstrip("\n")
                last_line = line + stripped.count("\n")
                self.problems.append(Problem(
                    "format-final-blank-line",
                    "the file does not end with a blank line after the last sentence; "
                    "the official scorer refuses it", last_line, 0, len(stripped) - stripped.rfind("\n") - 1,
                    refuses=True))
                body = stripped
            blocks.append((line, body))
        return blocks

    def _extra_blank_lines(self, line: int, count: int) -> None:
        self.problems.append(Problem(
            "format-empty-sentence",
            "more than one blank line between sentences; the official scorer reads an "
            "empty sentence here and refuses the file" if count == 1 else
            f"{count} extra blank lines; the official scorer reads an empty sentence here "
            "and refuses the file",
            line, 0, 0, refuses=True))


def encoding_problems(first_line: int, text: str) -> tuple[str, list[Problem]]:
    """Report undecodable bytes (read as lone surrogates) and replace them."""
    problems = []
    seen_lines = set()
    for match in _SURROGATE.finditer(text):
        pos = match.start()
        line = text.count("\n", 0, pos)
        if line in seen_lines:
            continue
        seen_lines.add(line)
        col = pos - (text.rfind("\n", 0, pos) + 1)
        byte = ord(match.group()) - 0xDC00
        problems.append(Problem(
            "format-encoding", f"byte 0x{byte:02X} is not valid UTF-8 (read as U+FFFD)",
            first_line + line, col, col + 1))
    return _SURROGATE.sub("\ufffd", text), problems


def normalize_newlines(text: str, lone_cr_ends_lines: bool = True) -> str:
    """CRLF and lone CR become LF, as Python's universal newlines (and the
    LSP) read them.  ``lone_cr_ends_lines=False``: only CRLF does; a lone
    CR stays in its line as a character, as editors such as Neovim and
    Emacs keep it (see `lone_cr_problems`)."""
    if "\r" in text:
        text = text.replace("\r\n", "\n")
        if lone_cr_ends_lines:
            text = text.replace("\r", "\n")
    return text


def lone_cr_problems(lines: list[str]) -> list[Problem]:
    """``format-newline`` on each carriage return left inside a line (lines
    relative to the caller's first)."""
    out = []
    for number, line in enumerate(lines):
        column = line.find("\r")
        while column >= 0:
            out.append(Problem(
                "format-newline", "a lone carriage return (CR) inside the line: this editor keeps it as a "
                "character, while evaluate, the official scorer and the UD validator read it as a line "
                "break (the validator's non-unix-newline); remove it", number, column, column + 1,
                Severity.WARNING))
            column = line.find("\r", column + 1)
    return out


def iter_blocks(text: str) -> tuple[list[tuple[int, str]], list[Problem]]:
    """Blocks of a whole text (already in memory)."""
    splitter = BlockSplitter()
    text = normalize_newlines(text)
    blocks = splitter.feed(text)
    blocks += splitter.finish()
    return blocks, splitter.problems


