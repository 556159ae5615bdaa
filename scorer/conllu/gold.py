"""Gold sentences read from a file only as far as pairing needs them.

The gold file is read block by block as the system file asks for it (a
sent_id not seen yet, the next sentence of the stream).  A block is kept as
its text with its sent_id, which is cheap; it is parsed only when someone
needs its words or its characters, and dropped once it has been scored.  So
memory stays small whatever the file's size when the system file follows
gold's order (the usual case), and a sentence that the bulk lane
(`bulk`) scores straight from its text is never parsed at all.

Every gold sentence is checked once: ``on_sentence`` is called the first
time it is parsed, and `take_clean` marks the ones the bulk lane checked
itself.
"""

from __future__ import annotations

import os
from collections import OrderedDict
from typing import Callable, Iterator

from .bulk import token_text
from .parse import holds_one_sentence, parse_block, parse_blocks, read_comments
from .reader import ConlluFileReader
from .sentence import Sentence

# Parsed sentences kept for reuse (pairing often asks for the same one twice).
PARSED_WINDOW = 2048


class GoldFile:
    def __init__(self, path: str | os.PathLike[str],
                 on_sentence: Callable[[int, Sentence], None] | None = None,
                 part: tuple[int, int | None, int] | None = None) -> None:
        start, end, first_line = part or (0, None, 0)
        self.reader = ConlluFileReader(path, start=start, end=end, first_line=first_line)
        self._blocks: Iterator[tuple[int, str]] = self.reader.blocks()
        self.on_sentence = on_sentence
        self.sent_ids: list[str | None] = []
        self.first_lines: list[int] = []
        self._chars: list[str | None] = []        # None: not parsed yet
        self._bodies: dict[int, str] = {}          # sentences not scored yet
        # Where their token lines start, read with the sent_id (-1: none);
        # not known for blocks that held several sentences.
        self._token_starts: dict[int, int] = {}
        self._parsed: OrderedDict[int, Sentence] = OrderedDict()
        self._checked = bytearray()                # 1: on_sentence called or bulk-checked
        self._by_id: dict[str, int] = {}
        self._by_text: dict[str, list[int]] | None = None
        self.done = False

    # --- reading ----------------------------------------------------------------

    def _read_one(self) -> bool:
        block = next(self._blocks, None)
        if block is None:
            self.done = True
            return False
        line, body = block
        if holds_one_sentence(body):
            sent_id, start = read_comments(body) if body.startswith("#") else (None, 0)
            self._add(sent_id, line, body, None, start)
        else:  # lines of whitespace split it into several sentences
            for sentence in parse_blocks(body, line):
                index = self._add(sentence.sent_id, sentence.first_line, sentence.body, sentence.chars, None)
                self._remember(index, sentence)
        return True

    def _add(self, sent_id: str | None, line: int, body: str, chars: str | None,
             token_start: int | None) -> int:
        index = len(self._chars)
        self.sent_ids.append(sent_id)
        self.first_lines.append(line)
        self._chars.append(chars)
        self._checked.append(0)
        self._bodies[index] = body
        if token_start is not None:
            self._token_starts[index] = token_start
        if sent_id is not None and sent_id not in self._by_id:
            self._by_id[sent_id] = index
        return index

    def _remember(self, index: int, sentence: Sentence) -> None:
        """A sentence just parsed: check it once, keep it for a while."""
        self._chars[index] = sentence.chars
        if not self._checked[index]:
            self._checked[index] = 1
            if self.on_sentence is not None:
                self.on_sentence(index, sentence)
        self._parsed[index] = sentence
        if len(self._parsed) > PARSED_WINDOW:
            self._parsed.popitem(last=False)

    def read_all(self) -> None:
        while not self.done:
            self._read_one()

    # --- what pairing asks (see pairing.GoldText) -----------------------------

    def exists(self, index: int) -> bool:
        while len(self._chars) <= index and not self.done:
            self._read_one()
        return index < len(self._chars)

    def chars(self, index: int) -> str:
        self.exists(index)
        chars = self._chars[index]
        if chars is None:
            chars = self.get(index).chars
        return chars

    def find(self, sent_id: str) -> int | None:
        while sent_id not in self._by_id and not self.done:
            self._read_one()
        return self._by_id.get(sent_id)

    def with_text(self, text: str) -> list[int]:
        self.read_all()
        if self._by_text is None:
            self._by_text = {}
            for index, chars in enumerate(self._chars):
                if chars is None:
                    if index not in self._bodies:
                        continue  # scored by the bulk lane: used already
                    chars = self.get(index).chars
                self._by_text.setdefault(chars, []).append(index)
        return self._by_text.get(text, [])

    def count(self) -> int:
        self.read_all()
        return len(self._chars)

    # --- the sentences themselves -------------------------------------------------

    def get(self, index: int) -> Sentence:
        self.exists(index)
        sentence = self._parsed.get(index)
        if sentence is None:
            sentence = parse_block(self._bodies[index], self.first_lines[index])
            self._remember(index, sentence)
        return sentence

    def body(self, index: int) -> str | None:
        """The text of a sentence not scored yet (None once released)."""
        return self._bodies.get(index)

    def token_lines(self, index: int) -> str | None:
        """The lines of a sentence not scored yet after its leading comments
        (None when it has none or was released): `bulk.token_text`."""
        body = self._bodies.get(index)
        if body is None:
            return None
        start = self._token_starts.get(index)
        if start is None:
            return token_text(body)
        return None if start < 0 else body[start:] if start else body

    def take_clean(self, index: int) -> None:
        """The bulk lane scored this sentence and found it well formed."""
        self._checked[index] = 1
        self.release(index)

    def release(self, index: int) -> None:
        """The sentence has been scored: forget its words."""
        self._parsed.pop(index, None)
        self._bodies.pop(index, None)
        self._token_starts.pop(index, None)
