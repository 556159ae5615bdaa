"""An index of the items of some files (a train split), asked "where does this text occur?".

Built once from the files (`LeakIndex.add_file`), then asked about one text
at a time (`occurrences`), cheaply: a question costs a normalization, a
near key and two dict lookups, plus, with a ``jaccard`` rule, a look at the
few indexed texts that share one of the question's rarest words (see
`scorer.hygiene.similar`).  The leak check asks it about every item of a
later split; an editor can ask it about each sentence of an open dev or
test file as it changes.

What "occurs" means (the rules of `scorer.hygiene.normalize` and
`scorer.hygiene.near`):

- *exact*: the normalized texts are equal;
- *near*: they are not, but their near keys are (digits masked, word
  classes), or their word sets are similar enough (``jaccard=T``).

Texts with fewer words than ``min_words`` are neither indexed nor looked
up (a "Thanks!" in train and in test is not a leak anyone can avoid).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, NamedTuple

from .items import Item, ItemFile
from .near import DEFAULT as DEFAULT_NEAR
from .near import WORDS, NearRules, parse_near
from .normalize import DEFAULT_NORMALIZATION, Normalization
from .similar import SimilarityIndex

EXACT, NEAR = "exact", "near"
_WORD = re.compile(r"\w+")


class Keys(NamedTuple):
    """What a text is compared by."""

    normalized: str
    near: str | None                 # the near key (None without keyed rules)
    near_rules: tuple[str, ...]      # the rules that changed the text
    words: frozenset[str] | None     # for jaccard (None without it)
    counted: bool                    # False: shorter than min_words, not compared


@dataclass(frozen=True, slots=True)
class Entry:
    """An indexed item: which file (its number in the index), and the item."""

    file: int
    item: Item
    near_rules: tuple[str, ...] = ()


class Match(NamedTuple):
    entry: Entry
    kind: str                 # EXACT or NEAR
    rules: tuple[str, ...]    # for NEAR: the rules that made the texts equal ("digits", "jaccard=0.86")


class Occurrence(NamedTuple):
    """Where a text occurs: file, 0-based first line, sent_id (or ID), how."""

    file: str
    line: int
    sent_id: str | None
    kind: str
    rules: tuple[str, ...]


def _similarity(value: Fraction) -> str:
    return f"jaccard={float(value):.2f}"


class LeakIndex:
    def __init__(self, normalization: Normalization = DEFAULT_NORMALIZATION,
                 near: NearRules | None = None, min_words: int = 0) -> None:
        self.normalization = normalization
        self.near = near if near is not None else parse_near(DEFAULT_NEAR, normalization)
        self.min_words = min_words
        self.files: list[str] = []
        self.splits: list[str] = []
        self._exact: dict[str, list[Entry]] = {}
        self._near: dict[str, list[Entry]] = {}
        self._entries: list[tuple[frozenset[str], Entry]] = []
        self._similar: SimilarityIndex | None = None
        self.items = 0

    # --- building -----------------------------------------------------------

    def keys(self, text: str) -> Keys:
        normalized = self.normalization(text)
        counted = bool(normalized) and (not self.min_words
                                        or len(_WORD.findall(normalized)) >= self.min_words)
        near, rules = self.near.key(normalized) if self.near.keyed else (None, ())
        words = frozenset(WORDS.findall(near if near is not None else normalized)) \
            if self.near.jaccard is not None else None
        return Keys(normalized, near, rules, words, counted)

    def add_file(self, items: ItemFile, split: str = "train") -> None:
        """Index every item of a file (read with `scorer.hygiene.items`)."""
        self.add_items(self.new_file(items.path, split), items.items)

    def new_file(self, path: str, split: str) -> int:
        """A file whose items will be added (`add_items`, `add_keyed`): its number."""
        self.files.append(path)
        self.splits.append(split)
        return len(self.files) - 1

    def add_items(self, file: int, items: Iterable[Item]) -> None:
        for item in items:
            keys = self.keys(item.text)
            if not keys.counted:
                continue
            self.add_keyed(file, item, keys)

    def add_keyed(self, file: int, item: Item, keys: Keys) -> None:
        entry = Entry(file, item, keys.near_rules)
        self._exact.setdefault(keys.normalized, []).append(entry)
        if keys.near is not None:
            self._near.setdefault(keys.near, []).append(entry)
        if keys.words is not None:
            self._entries.append((keys.words, entry))
            self._similar = None
        self.items += 1

    # --- asking -------------------------------------------------------------

    def matches(self, keys: Keys) -> list[Match]:
        """Every indexed item the text with these keys occurs as: the exact
        ones first, then the near ones (each item once, in index order
        within each kind)."""
        if not keys.counted:
            return []
        exact = self._exact.get(keys.normalized, [])
        out = [Match(entry, EXACT, ()) for entry in exact]
        taken = {id(entry) for entry in exact}
        if keys.near is not None:
            for entry in self._near.get(keys.near, ()):
                if id(entry) not in taken:
                    taken.add(id(entry))
                    rules = tuple(dict.fromkeys(keys.near_rules + entry.near_rules))
                    out.append(Match(entry, NEAR, rules))
        if keys.words is not None and keys.words:
            for words, value in self._similarity_index().similar(keys.words):
                for entry in self._by_words[words]:
                    if id(entry) not in taken:
                        taken.add(id(entry))
                        out.append(Match(entry, NEAR, (_similarity(value),)))
        return out

    def occurrences(self, text: str) -> list[Occurrence]:
        """Where ``text`` occurs in the indexed files (exact first, then near)."""
        return [Occurrence(self.files[m.entry.file], m.entry.item.line, m.entry.item.id, m.kind, m.rules)
                for m in self.matches(self.keys(text))]

    def _similarity_index(self) -> SimilarityIndex:
        if self._similar is None:
            assert self.near.jaccard is not None
            self._by_words: dict[frozenset[str], list[Entry]] = {}
            for words, entry in self._entries:
                self._by_words.setdefault(words, []).append(entry)
            self._similar = SimilarityIndex(((words, None) for words in self._by_words), self.near.jaccard)
        return self._similar
