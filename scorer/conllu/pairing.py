"""Which system sentences go with which gold sentences.

The official scorer reads both files as one running text each and refuses
them unless the texts are equal.  We want more: to score a file that holds
only some of gold's sentences (a partly annotated file), in any order, and to
carry on past a sentence whose text differs.  So system sentences are paired
with gold sentences one at a time, in the system file's order:

1. **By sent_id**: a system sentence whose ``sent_id`` names a gold sentence
   with the same text (the same characters once spaces are removed) is paired
   with it.
2. **As one stream**, as the official scorer does: otherwise the system
   sentence is compared with the gold text where the previous pair ended.
   When one side's sentence is longer (the system merged two gold sentences,
   or split one), sentences are taken from the shorter side until both end
   at the same character; that run of sentences is one chunk.
3. **By text**: failing both, a gold sentence with exactly the same text is
   looked up (the first one not used yet, preferring those further on).
4. Otherwise the system sentence is *unmatched*: its text is not gold's.

Gold sentences no system sentence was paired with are *missing*.  When the
system file is a complete copy of gold's text, steps 1 and 2 pair exactly
the chunks the official scorer's own walk would, so the counts are equal.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, Protocol

from .sentence import Sentence

PAIRED = "paired"
UNMATCHED = "unmatched"  # system sentences whose text is not gold's
MISSING = "missing"      # gold sentences without a system sentence


@dataclass(slots=True)
class Mismatch:
    """Where a system sentence's text first differs from the gold text it was held against."""

    offset: int              # in the system sentence's characters
    system_text: str         # a few characters from there
    gold_text: str | None    # gold's characters at the same place (None: no gold left)
    gold_index: int | None


@dataclass(slots=True)
class Chunk:
    kind: str
    gold: list[int] = field(default_factory=list)          # indices into the gold sentences
    system: list[Sentence] = field(default_factory=list)
    mismatch: Mismatch | None = None


class GoldText(Protocol):
    """What pairing needs to know of the gold sentences.  Sources may read
    the gold file lazily: ``exists`` reads ahead as far as needed."""

    def exists(self, index: int) -> bool: ...
    def chars(self, index: int) -> str: ...
    def find(self, sent_id: str) -> int | None: ...
    def with_text(self, text: str) -> list[int]: ...
    def count(self) -> int: ...


class SentencePairer:
    """Feed system sentences in file order; get chunks back as they are decided."""

    def __init__(self, gold: GoldText) -> None:
        self.gold = gold
        self.used = bytearray()
        self.next_gold = 0  # where the gold stream continues
        # A chunk that is waiting for more system sentences: its gold
        # sentences are longer than the system sentences so far.
        self._open: Chunk | None = None
        self._open_gold_text = ""
        self._open_system_text = ""

    # --- public -------------------------------------------------------------

    def feed(self, sentence: Sentence) -> list[Chunk]:
        if self._open is not None:
            return self._continue(sentence)
        return self._start(sentence)

    def finish(self) -> list[Chunk]:
        """Close the last chunk; then every unused gold sentence is missing."""
        out: list[Chunk] = []
        if self._open is not None:
            out += self._fail_open(None)
        for i in range(self.gold.count()):
            if not self._is_used(i):
                out.append(Chunk(MISSING, [i]))
        return out

    def can_claim(self, gold_index: int) -> bool:
        """Whether a system sentence whose sent_id names this gold sentence,
        with the same text, would be paired with it now by step 1 (used by the
        bulk lane, which then calls `claim` instead of `feed`)."""
        return self._open is None and not self._is_used(gold_index)

    def claim(self, gold_index: int) -> None:
        """Pair a system sentence with this gold sentence, as step 1 would
        (also: mark one taken by a chunk decided before, to carry on a
        pairing from the middle; see the engine's `pair_again_locally`)."""
        self._pair([gold_index], [])

    def is_idle(self) -> bool:
        """No chunk is open (waiting for more system sentences)."""
        return self._open is None

    # --- steps ----------------------------------------------------------------

    def _is_used(self, i: int) -> bool:
        return i < len(self.used) and self.used[i] == 1

    def _set_used(self, i: int, value: int) -> None:
        if i >= len(self.used):
            self.used.extend(bytes(i + 1 - len(self.used)))
        self.used[i] = value

    def _skip_used(self) -> None:
        while self._is_used(self.next_gold):
            self.next_gold += 1

    def _pair(self, gold_indices: list[int], system: list[Sentence]) -> Chunk:
        for i in gold_indices:
            self._set_used(i, 1)
        if gold_indices[-1] >= self.next_gold:
            self.next_gold = gold_indices[-1] + 1
        return Chunk(PAIRED, gold_indices, system)

    def _start(self, sentence: Sentence) -> list[Chunk]:
        gold = self.gold
        text = sentence.chars
        if not text:
            return [Chunk(UNMATCHED, [], [sentence], Mismatch(0, "", None, None))]
        # 1. By sent_id.
        j = gold.find(sentence.sent_id) if sentence.sent_id is not None else None
        if j is not None and not self._is_used(j) and gold.chars(j) == text:
            return [self._pair([j], [sentence])]
        # 2. As one stream.
        self._skip_used()
        k = self.next_gold
        if gold.exists(k):
            gold_text = gold.chars(k)
            if gold_text == text:
                return [self._pair([k], [sentence])]
            if gold_text.startswith(text) or text.startswith(gold_text):
                self._open = Chunk(PAIRED, [k], [sentence])
                self._open_gold_text = gold_text
                self._open_system_text = text
                self._set_used(k, 1)
                return self._grow_gold()
        # 3. By text.
        for j in self._text_candidates(text):
            return [self._pair([j], [sentence])]
        # 4. Unmatched.
        return [Chunk(UNMATCHED, [], [sentence], self._mismatch(text, k))]

    def _text_candidates(self, text: str) -> Iterator[int]:
        candidates = [j for j in self.gold.with_text(text) if not self._is_used(j)]
        later = [j for j in candidates if j >= self.next_gold]
        yield from later[:1] or candidates[:1]

    def _mismatch(self, text: str, k: int) -> Mismatch:
        if not self.gold.exists(k):
            return Mismatch(0, text[:20], None, None)
        gold_text = self.gold.chars(k)
        offset = 0
        limit = min(len(text), len(gold_text))
        while offset < limit and text[offset] == gold_text[offset]:
            offset += 1
        return Mismatch(offset, text[offset:offset + 20], gold_text[offset:offset + 20], k)

    def _continue(self, sentence: Sentence) -> list[Chunk]:
        """Add a system sentence to the open chunk (its gold text is longer so far)."""
        chunk = self._open
        assert chunk is not None
        done = len(self._open_system_text)
        text = sentence.chars
        expected = self._open_gold_text[done:done + len(text)]
        if not text or not (text.startswith(expected) if len(text) > len(expected) else text == expected):
            return self._fail_open(sentence)
        chunk.system.append(sentence)
        self._open_system_text += text
        return self._grow_gold()

    def _grow_gold(self) -> list[Chunk]:
        """Take gold sentences while the system text is longer; close the chunk
        when both end at the same character."""
        chunk = self._open
        assert chunk is not None
        gold = self.gold
        while len(self._open_gold_text) < len(self._open_system_text):
            k = chunk.gold[-1] + 1
            if not gold.exists(k) or self._is_used(k):
                return self._fail_open(None)
            piece = gold.chars(k)
            start = len(self._open_gold_text)
            if not self._open_system_text.startswith(piece[:len(self._open_system_text) - start], start):
                return self._fail_open(None)
            chunk.gold.append(k)
            self._set_used(k, 1)
            self._open_gold_text += piece
        if len(self._open_gold_text) == len(self._open_system_text):
            self._open = None
            self._open_gold_text = self._open_system_text = ""
            return [self._pair(chunk.gold, chunk.system)]
        return []

    def _fail_open(self, sentence: Sentence | None) -> list[Chunk]:
        """The open chunk's texts went apart: its system sentences are unmatched,
        its gold sentences free again; ``sentence`` starts afresh."""
        chunk = self._open
        assert chunk is not None
        self._open = None
        for i in chunk.gold:
            self._set_used(i, 0)
        system_text, gold_text = self._open_system_text, self._open_gold_text
        self._open_gold_text = self._open_system_text = ""
        out = []
        offset = 0
        for s in chunk.system:
            out.append(Chunk(UNMATCHED, [], [s], _first_difference(s.chars, gold_text, offset, chunk.gold[0])))
            offset += len(s.chars)
        if sentence is not None:
            mismatch = _first_difference(sentence.chars, gold_text, len(system_text), chunk.gold[0])
            # The new sentence may still pair by sent_id or by text.
            started = self._start(sentence)
            if started and started[0].kind == UNMATCHED and started[0].system == [sentence]:
                started[0].mismatch = mismatch
            out += started
        return out


def _first_difference(text: str, gold_text: str, offset: int, gold_index: int) -> Mismatch:
    i = 0
    while i < len(text) and offset + i < len(gold_text) and text[i] == gold_text[offset + i]:
        i += 1
    rest = gold_text[offset + i:offset + i + 20]
    return Mismatch(i, text[i:i + 20], rest if offset + i < len(gold_text) else None, gold_index)
