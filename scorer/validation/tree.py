"""The basic tree and enhanced graph of a sentence that passed levels 1-2.

The official validator hands such a sentence to Udapi and runs its level
3-5 checks on Udapi's nodes.  `Tree` is the little of Udapi they use, kept
in parallel lists indexed by word number (0 is the artificial root), with
Udapi's readings of the cells where they matter:

* UPOS and DEPREL ``_`` read as "none" (None) on words, not on empty nodes;
* FEATS and MISC read as ``name=value`` items, a repeated name keeping its
  last value and a name without ``=`` reading as ``True``;
* the words of a multiword token lose ``SpaceAfter`` from their MISC (Udapi
  moves it to the token);
* a one-word sentence whose MISC is exactly ``Empty=Yes`` has no words;
* an empty node's number is the float of its ID (so ``1.10`` reads as 1.1).

Enhanced dependencies are lists of (head number, relation), the head
number being 0, a word number or an empty node's float.
"""

from __future__ import annotations

from annoscore.scorer.columns import DEPREL, DEPS, FEATS, FORM, HEAD, ID, LEMMA, MISC, UPOS
from annoscore.scorer.validation.level1 import ValidatedSentence
from annoscore.scorer.validation.level2 import DEPS_PAIRS, WordColumns
from annoscore.scorer.validation.memo import Memo


def _items(value: str) -> dict:
    """A FEATS or MISC cell read as Udapi reads it."""
    if value == "_" or value == "":
        return {}
    result: dict = {}
    for item in value.split("|"):
        name, eq, rest = item.partition("=")
        result[name] = rest if eq else True
    return result


ITEMS = Memo(_items)
UDEPREL = Memo(lambda deprel: deprel.split(":", 1)[0])


class Tree:
    """Words 1..n (index 0 is the root), empty nodes, and line numbers."""

    __slots__ = ("n", "form", "lemma", "upos", "xpos", "feats", "misc", "deprel", "udeprel", "head",
                 "raw_deps", "line", "rows", "mwt_row", "children", "empty", "sentence",
                 "_misc_items", "node_line", "heads_text", "mwt_feats")

    def __init__(self, s: ValidatedSentence, kinds: str, words: WordColumns | None = None) -> None:
        self.sentence = s
        self._misc_items: dict[int, dict] = {}
        self.node_line = None
        self.empty = []
        self.heads_text = None
        self.mwt_feats = False     # a multiword token line has FEATS (Typo=Yes)
        if words is not None and not (len(words.rows) == 1 and words.rows[0][MISC] == "Empty=Yes"):
            self._from_words(words)
            return
        rows = s.rows
        first = s.sentence_line
        words = [(first + i, cols) for i, (cols, kind) in enumerate(zip(rows, kinds)) if kind == "w"]
        # Udapi drops the only word of a sentence whose MISC is exactly Empty=Yes.
        if len(words) == 1 and words[0][1][MISC] == "Empty=Yes":
            words = []
        self.n = n = len(words)
        self.line = [first - 1] + [line for line, _ in words]
        self.rows = [None] + [cols for _, cols in words]
        self.form = ["<ROOT>"] + [cols[FORM] for _, cols in words]
        self.lemma = ["<ROOT>"] + [cols[LEMMA] for _, cols in words]
        self.upos = ["<ROOT>"] + [None if cols[UPOS] == "_" else cols[UPOS] for _, cols in words]
        self.feats = ["_"] + [cols[FEATS] for _, cols in words]
        self.misc = ["_"] + [cols[MISC] for _, cols in words]
        self.deprel = ["<ROOT>"] + [None if cols[DEPREL] == "_" else cols[DEPREL] for _, cols in words]
        self.udeprel = ["<ROOT>"] + [None if d is None else d.split(":", 1)[0] for d in self.deprel[1:]]
        self.head = [None] + [int(cols[HEAD]) for _, cols in words]
        self.raw_deps = ["_"] + [cols[DEPS] for _, cols in words]
        children: list[list[int]] = [[] for _ in range(n + 1)]
        for k in range(1, n + 1):
            children[self.head[k]].append(k)
        self.children = children
        # The multiword token (its cells) of each word, if any.
        self.mwt_row: list[list[str] | None] = [None] * (n + 1)
        if "m" in kinds and n:
            for cols, kind in zip(rows, kinds):
                if kind == "m":
                    beg, end = cols[ID].split("-")
                    for k in range(int(beg), min(int(end), n) + 1):
                        self.mwt_row[k] = cols
                    self.mwt_feats = self.mwt_feats or cols[FEATS] != "_"
        # Empty nodes: (number, line, cells).
        self.empty = [(float(cols[ID]), first + i, cols)
                      for i, (cols, kind) in enumerate(zip(rows, kinds)) if kind == "e"]

    def _from_words(self, words: WordColumns) -> None:
        """The same lists from the columns the quick level-2 checks made."""
        _, form, lemma, upos, _, feats, _, deprel, deps, misc = words.cols
        self.n = len(form)
        self.rows = [None] + words.rows
        self.line = words.lines
        self.form = ("<ROOT>",) + form
        self.lemma = ("<ROOT>",) + lemma
        self.upos = ("<ROOT>",) + upos            # no _ here: the quick checks required known tags
        self.feats = ("_",) + feats
        self.misc = ("_",) + misc
        self.deprel = ("<ROOT>",) + deprel        # no _ either (a known relation)
        self.udeprel = ["<ROOT>"] + list(map(UDEPREL.__getitem__, deprel))
        self.head = words.heads
        self.raw_deps = ("_",) + deps
        self.children = words.children
        self.heads_text = words.cols[HEAD]
        self.mwt_row = [None] * (self.n + 1)
        if len(self.rows) - 1 != len(self.sentence.rows):
            for cols in self.sentence.rows:
                if "-" in cols[ID]:
                    beg, end = cols[ID].split("-")
                    for k in range(int(beg), min(int(end), self.n) + 1):
                        self.mwt_row[k] = cols
                    self.mwt_feats = self.mwt_feats or cols[FEATS] != "_"

    # --- cells as Udapi reads them ---------------------------------------------------

    def misc_of(self, k: int) -> dict:
        """MISC of word k, without SpaceAfter inside a multiword token."""
        items = ITEMS[self.misc[k]]
        if self.mwt_row[k] is not None and "SpaceAfter" in items:
            cached = self._misc_items.get(k)
            if cached is None:
                cached = self._misc_items[k] = {a: v for a, v in items.items() if a != "SpaceAfter"}
            return cached
        return items

    def formtl(self, k: int) -> str:
        translit = self.misc_of(k).get("Translit", "")
        return self.form[k] + (" " + str(translit) if translit != "" else "")

    # --- enhanced graph -----------------------------------------------------------

    def lines_by_id(self) -> dict[str, int]:
        """IDs (as in the file) to lines, as the validator's line table."""
        if self.node_line is None:
            s = self.sentence
            self.node_line = {cols[ID]: s.sentence_line + i for i, cols in enumerate(s.rows)}
        return self.node_line

    def edeps(self, raw: str) -> list[tuple[float | int, str]]:
        """(head number, relation) of a DEPS cell (heads known to exist)."""
        if raw == "_":
            return []
        result = []
        for head, rel in DEPS_PAIRS[raw]:
            if "." in head:
                number = next((e[0] for e in self.empty if str(e[0]) == head), None)
                if number is None:
                    continue  # Udapi would fail here (an ID such as 1.10); skip the relation
                result.append((number, rel))
            else:
                result.append((int(head), rel))
        return result

    def misc_items_of_number(self, number: float | int) -> dict:
        if isinstance(number, int):
            return self.misc_of(number) if 0 < number <= self.n else {}
        for e in self.empty:
            if e[0] == number:
                return ITEMS[e[2][MISC]]
        return {}
