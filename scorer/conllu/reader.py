"""Reading CoNLL-U texts and files: a tolerant reader that never raises on bad input.

Reading happens in two steps: the text is cut into sentence blocks
(`scorer.conllu.blocks`), and each block is parsed into a `Sentence`
(`scorer.conllu.parse`); the cells of token lines are read the same way
everywhere (`scorer.conllu.columns`).  This module reads whole texts
(`read_text`) and files (`ConlluFileReader`: a stream of blocks, a chunk at
a time, with the file's SHA-256 and the problems between sentences).
"""

from __future__ import annotations

import hashlib
import io
import os
import re
from typing import Iterable, Iterator

from ..binary import HEAD_BYTES, binary_problem, file_binary_problem, text_binary_problem
from ..problems import Problem
from .sentence import Sentence
from .blocks import BlockSplitter, encoding_problems, iter_blocks
from .parse import parse_blocks
from ..reading import open_file


CHUNK_SIZE = 64 << 10  # small enough that a chunk and the blocks cut from it stay in the core's cache

_SURROGATE = re.compile("[\udc80-\udcff]")


class BinaryFileError(ValueError):
    """The input is not a text file (NUL bytes, compressed, UTF-16 ...):
    ``problem`` says what it is and where (see `scorer.binary`)."""

    def __init__(self, path: str, problem: Problem) -> None:
        super().__init__(f"{problem.location(path)}: {problem.message}")
        self.problem = problem


class ConlluDocument:
    """Sentences of a whole text, and the problems found between sentences."""

    def __init__(self, sentences: list[Sentence], problems: list[Problem]) -> None:
        self.sentences = sentences
        self.problems = problems  # between sentences, absolute lines

    def all_problems(self) -> list[Problem]:
        out = list(self.problems)
        for sentence in self.sentences:
            out.extend(sentence.absolute_problems())
        out.sort(key=lambda p: (p.line, p.start))
        return out


def read_text(text: str) -> ConlluDocument:
    """Read CoNLL-U from a string."""
    problems: list[Problem] = []
    binary = text_binary_problem(text)
    if binary is not None:
        return ConlluDocument([], [binary])
    if _SURROGATE.search(text):
        text, problems = encoding_problems(0, text)
    blocks, block_problems = iter_blocks(text)
    sentences = [s for line, body in blocks for s in parse_blocks(body, line)]
    return ConlluDocument(sentences, problems + block_problems)


class _ByteRange(io.RawIOBase):
    """Bytes ``start`` to ``end`` of a file, hashed on the way when asked
    (so that a signature needs no second pass over a large file)."""

    def __init__(self, raw: io.BufferedReader, start: int, end: int | None, digest=None) -> None:
        super().__init__()
        self.raw = raw
        self.remaining = None if end is None else end - start
        self.digest = digest
        self.position = start
        raw.seek(start)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        view = memoryview(buffer)
        if self.remaining is not None:
            view = view[:self.remaining]
        n = self.raw.readinto(view)
        if n:
            if self.remaining is not None:
                self.remaining -= n
            if self.digest is not None:
                self.digest.update(view[:n])
            self.position += n
        return n


class ConlluFileReader:
    """Streams the sentences of a file, collecting file-level problems.

    Iterate over it for sentences; ``problems`` is complete once the
    iteration ends.  Raises `BinaryFileError` on a file that is not text
    (at the start, or at the first chunk with a NUL byte) and OSError when
    the file cannot be read.

    ``start``/``end`` (byte offsets, at sentence boundaries) and
    ``first_line`` read part of a file, for scoring in parallel.  Reading a
    whole file also computes its SHA-256 (``sha256``).
    """

    def __init__(self, path: str | os.PathLike[str], chunk_size: int = CHUNK_SIZE,
                 start: int = 0, end: int | None = None, first_line: int = 0) -> None:
        self.path = os.fspath(path)
        self.chunk_size = chunk_size
        self.start, self.end, self.first_line = start, end, first_line
        self.problems: list[Problem] = []
        self.bytes_read = 0
        self.sha256: str | None = None
        self.lines: int | None = None  # line ends read, once the iteration ends

    def __iter__(self) -> Iterator[Sentence]:
        for line, body in self.blocks():
            yield from parse_blocks(body, line)

    def blocks(self) -> Iterator[tuple[int, str]]:
        """The sentence blocks as ``(first_line, text)``, not parsed yet
        (undecodable bytes already replaced and reported)."""
        whole = self.start == 0 and self.end is None
        splitter = BlockSplitter(self.first_line, at_file_start=self.start == 0)
        digest = hashlib.sha256() if whole else None
        with open_file(self.path) as raw:
            binary = binary_problem(raw.read(HEAD_BYTES))
            if binary is not None:
                raise BinaryFileError(self.path, binary)
            part = _ByteRange(raw, self.start, self.end, digest)
            stream = io.TextIOWrapper(io.BufferedReader(part, 1 << 16), encoding="utf-8",
                                      errors="surrogateescape", newline=None)
            while True:
                chunk = stream.read(self.chunk_size)
                self.bytes_read = part.position
                if not chunk:
                    break
                if "\x00" in chunk:  # anywhere in the file: say where its first NUL is
                    raise BinaryFileError(self.path, file_binary_problem(self.path) or binary_problem(b"\x00"))
                yield from self._decoded(splitter.feed(chunk))
            yield from self._decoded(splitter.finish())
        if digest is not None:
            self.sha256 = digest.hexdigest()
        self.lines = splitter.line - self.first_line
        self.problems = splitter.problems + self.problems
        self.problems.sort(key=lambda p: (p.line, p.start))

    def _decoded(self, blocks: Iterable[tuple[int, str]]) -> Iterator[tuple[int, str]]:
        for line, body in blocks:
            if not body.isascii() and _SURROGATE.search(body):
                body, problems = encoding_problems(line, body)
                self.problems.extend(problems)
            yield line, body
