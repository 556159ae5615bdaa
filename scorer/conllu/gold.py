"""Gold sentences read from a file only as far as pairing needs them.

When the system file follows gold's order (the usual case), each gold
sentence is parsed once, used, and dropped, so memory stays small whatever
the file's size.  Sentences read ahead but not used yet are kept as their
text (cheap) and parsed again when they are needed.
"""

from __future__ import annotations

import os
from collections import OrderedDict
from typing import Callable, Iterator

from .reader import ConlluFileReader, parse_block
from .sentence import Sentence

PARSED_WINDOW = 2048


class GoldFile:
    def __init__(self, path: str | os.PathLike[str],
                 on_sentence: Callable[[int, Sentence], None] | None = None,
                 part: tuple[int, int | None, int] | None = None) -> None:
        start, end, first_line = part or (0, None, 0)
        self.reader = ConlluFileReader(path, start=start, end=end, first_line=first_line)
        self._sentences: Iterator[Sentence] = iter(self.reader)
        self.on_sentence = on_sentence
        self.sent_ids: list[str | None] = []
        self.first_lines: list[int] = []
        self._chars: list[str] = []
        self._parsed: OrderedDict[int, Sentence] = OrderedDict()
        self._bodies: dict[int, str] = {}
        self._by_id: dict[str, int] = {}
        self._by_text: dict[str, list[int]] | None = None
        self.done = False

    # --- reading ----------------------------------------------------------------

    def _read_one(self) -> bool:
        sentence = next(self._sentences, None)
        if sentence is None:
            self.done = True
            return False
        index = len(self._chars)
        self.sent_ids.append(sentence.sent_id)
        self.first_lines.append(sentence.first_line)
        self._chars.append(sentence.chars)
        if sentence.sent_id is not None and sentence.sent_id not in self._by_id:
            self._by_id[sentence.sent_id] = index
        if self._by_text is not None:
            self._by_text.setdefault(sentence.chars, []).append(index)
        if self.on_sentence is not None:
            self.on_sentence(index, sentence)
        self._parsed[index] = sentence
        if len(self._parsed) > PARSED_WINDOW:
            old, old_sentence = self._parsed.popitem(last=False)
            self._bodies[old] = old_sentence.body
        return True

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
        return self._chars[index]

    def find(self, sent_id: str) -> int | None:
        while sent_id not in self._by_id and not self.done:
            self._read_one()
        return self._by_id.get(sent_id)

    def with_text(self, text: str) -> list[int]:
        if self._by_text is None:
            self._by_text = {}
            for i, chars in enumerate(self._chars):
                self._by_text.setdefault(chars, []).append(i)
        self.read_all()
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
        return sentence

    def release(self, index: int) -> None:
        """The sentence has been scored: forget its words."""
        self._parsed.pop(index, None)
        self._bodies.pop(index, None)
