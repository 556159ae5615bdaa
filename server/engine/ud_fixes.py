"""Quick fixes for the UD validator's findings whose mend is certain.

Only the problems of form get one — the order of features, the spelling of
``SpaceAfter``, whitespace around a value, a ``# text`` that the FORMs
spell otherwise — never the content (a relation, a tag, a head: that is
the annotator's decision).  Each fix is a list of edits of the document's
current text (`server.engine.fixes.Edit`, code points), made from the line
the diagnostic is on:

- ``unsorted-features`` / ``unsorted-feature-values``: the FEATS cell
  sorted as the validator wants it (by name, case-insensitively; the
  values of each feature likewise);
- ``missing-text``, ``text-form-mismatch``, ``text-extra-chars``: ``# text``
  (re)written from the sentence's surface FORMs and their ``SpaceAfter=No``
  (after the ``sent_id`` line when one is missing);
- ``text-trailing-whitespace``: the trailing whitespace of ``# text`` goes;
- ``nospaceafter-yes``: ``NoSpaceAfter=Yes`` becomes ``SpaceAfter=No``;
- ``spaceafter-value``: ``SpaceAfter=no`` (any case) becomes ``SpaceAfter=No``,
  and ``SpaceAfter=Yes`` goes (it is what no attribute means); other values
  get no fix;
- ``misc-attr-typo``: the attribute's name as the validator spells it
  (``spaceafter=No`` → ``SpaceAfter=No``);
- ``leading-whitespace``, ``trailing-whitespace``, ``misc-extra-space``:
  the whitespace around the cell or the MISC attribute goes;
- ``format-newline`` (a lone CR kept inside a line by the editor): it
  becomes the line break that `evaluate` and the validator read there.

CR LF line ends (``non-unix-newline``) cannot be changed by text edits: the
editor keeps a document's line ends itself (VS Code, Neovim), so that fix
is a command of the editor clients (see `server.lsp.features.quickfix`).
"""

from __future__ import annotations

import re
from typing import Callable

from annoscore.scorer.conllu.columns import cell_span
from annoscore.scorer.validation.chars import WS_CLASS
from annoscore.scorer.validation.level2 import MISC_ATTRIBUTES

from ..textstore import TextStore

FEATS, MISC = 5, 9

Edit = tuple[int, int, int, int, str]
Found = tuple[str, list[Edit]]  # (title, edits)

_TEXT_LINE = re.compile(r"#\s*text\s*=")
_LEADING = re.compile(r"^" + WS_CLASS + r"+")
_TRAILING = re.compile(WS_CLASS + r"+$")
_KNOWN = {name.lower(): name for name in MISC_ATTRIBUTES}


def _sentence(store: TextStore, line: int) -> tuple[int, list[str]] | None:
    """(first line, lines) of the sentence holding ``line``: its block's
    lines, up to a blank (or whitespace-only) line."""
    segment = store.segments[store.segment_at(line)]
    block = segment.block
    if block is None:
        return None
    lines = block.split("\n")
    first = segment.first_line
    start = line - first
    if not 0 <= start < len(lines):
        return None
    lo = start
    while lo > 0 and lines[lo - 1].strip():
        lo -= 1
    hi = start
    while hi + 1 < len(lines) and lines[hi + 1].strip():
        hi += 1
    return first + lo, lines[lo:hi + 1]


def text_from_forms(lines: list[str]) -> str | None:
    """The sentence's text as its surface tokens spell it: each token's
    FORM, then a space unless its MISC says ``SpaceAfter=No`` (multiword
    tokens stand for their words; empty nodes have no surface)."""
    pieces: list[str] = []
    inside = 0  # the last word of the multiword token being read
    for line in lines:
        if line.startswith("#") or "\t" not in line:
            continue
        cols = line.split("\t")
        if len(cols) != 10:
            return None
        ident = cols[0]
        if "." in ident:
            continue
        if "-" in ident:
            try:
                inside = int(ident.split("-")[1])
            except ValueError:
                return None
        elif ident.isdigit() and int(ident) <= inside:
            continue
        pieces.append(cols[1])
        pieces.append("" if "SpaceAfter=No" in cols[MISC].split("|") else " ")
    if not pieces:
        return None
    return "".join(pieces[:-1])  # no space after the last token


def _text_fix(store: TextStore, line: int) -> Found | None:
    found = _sentence(store, line)
    if found is None:
        return None
    first, lines = found
    text = text_from_forms(lines)
    if text is None:
        return None
    texts = [k for k, l in enumerate(lines) if _TEXT_LINE.match(l)]
    if len(texts) > 1:
        return None  # several text lines: which one is meant is for the annotator
    new_line = f"# text = {text}"
    if texts:
        k = texts[0]
        if lines[k] == new_line:
            return None
        return "Rewrite # text from the FORMs", [(first + k, 0, first + k, len(lines[k]), new_line)]
    sent_id = next((k for k, l in enumerate(lines) if l.startswith("# sent_id")), None)
    at = first + (sent_id + 1 if sent_id is not None else
                  next((k for k, l in enumerate(lines) if not l.startswith("#")), len(lines)))
    return "Add # text from the FORMs", [(at, 0, at, 0, new_line + "\n")]


def _text_trailing(store: TextStore, line: int) -> Found | None:
    found = _sentence(store, line)
    if found is None:
        return None
    first, lines = found
    for k, text in enumerate(lines):
        if _TEXT_LINE.match(text):
            trailing = _TRAILING.search(text)
            if trailing:
                return "Remove the trailing whitespace of # text", [
                    (first + k, trailing.start(), first + k, len(text), "")]
    return None


def _cell_fix(store: TextStore, line: int, column: int, title: str,
              mend: Callable[[str], str | None]) -> Found | None:
    text = store.line(line)
    if text.count("\t") != 9:
        return None
    start, end = cell_span(text, column)
    old = text[start:end]
    new = mend(old)
    if new is None or new == old:
        return None
    return title, [(line, start, line, end, new)]


def _sorted_feats(feats: str) -> str | None:
    if feats == "_":
        return None
    items = []
    for item in feats.split("|"):
        name, equals, values = item.partition("=")
        if not equals:
            return None
        items.append(name + "=" + ",".join(sorted(values.split(","), key=str.lower)))
    return "|".join(sorted(items, key=str.lower))


def _misc_mend(mend_attribute: Callable[[str], str | None]) -> Callable[[str], str | None]:
    """A mend of a MISC cell, attribute by attribute (None: drop it)."""
    def mend(misc: str) -> str | None:
        if misc == "_":
            return None
        kept = [a for a in (mend_attribute(attribute) for attribute in misc.split("|")) if a is not None]
        return "|".join(kept) if kept else "_"
    return mend


def _spaceafter_value(attribute: str) -> str | None:
    name, equals, value = attribute.partition("=")
    if name != "SpaceAfter" or not equals:
        return attribute
    if value.lower() == "no":
        return "SpaceAfter=No"
    if value.lower() == "yes":
        return None
    return attribute


def _strip(text: str) -> str:
    """Without the whitespace the validator sees around it (its class, not str.strip's)."""
    return _TRAILING.sub("", _LEADING.sub("", text))


def _attribute_name(attribute: str) -> str | None:
    name, equals, value = attribute.partition("=")
    known = _KNOWN.get(_strip(name).lower())
    return (known + equals + value) if known is not None else attribute


def _stripped_attribute(attribute: str) -> str | None:
    name, equals, value = attribute.partition("=")
    return _strip(name) + equals + _strip(value) if equals else _strip(attribute)


def _nospaceafter(store: TextStore, line: int) -> Found | None:
    found = _sentence(store, line)
    if found is None:
        return None
    first, lines = found
    edits: list[Edit] = []
    for k, text in enumerate(lines):
        if "NoSpaceAfter=Yes" not in text or text.count("\t") != 9:
            continue
        start, end = cell_span(text, MISC)
        misc = text[start:end]
        new = "|".join("SpaceAfter=No" if a == "NoSpaceAfter=Yes" else a for a in misc.split("|"))
        if new != misc:
            edits.append((first + k, start, first + k, end, new))
    return ("Write SpaceAfter=No for NoSpaceAfter=Yes", edits) if edits else None


def _whitespace(store: TextStore, line: int, start: int) -> Found | None:
    text = store.line(line)
    if "\t" not in text:
        return None
    column = text.count("\t", 0, min(start, len(text)))
    return _cell_fix(store, line, column, "Remove the whitespace around the value",
                     lambda value: _strip(value) or None)


def _lone_cr(store: TextStore, line: int, start: int) -> Found | None:
    text = store.line(line)
    if text[start:start + 1] != "\r":
        return None
    return "Make the carriage return a line break (LF)", [(line, start, line, start + 1, "\n")]


FIXES: dict[str, Callable[[TextStore, int, int], Found | None]] = {
    "unsorted-features": lambda store, line, start: _cell_fix(store, line, FEATS, "Sort the features",
                                                              _sorted_feats),
    "unsorted-feature-values": lambda store, line, start: _cell_fix(store, line, FEATS,
                                                                    "Sort the features' values", _sorted_feats),
    "missing-text": lambda store, line, start: _text_fix(store, line),
    "text-form-mismatch": lambda store, line, start: _text_fix(store, line),
    "text-extra-chars": lambda store, line, start: _text_fix(store, line),
    "text-trailing-whitespace": lambda store, line, start: _text_trailing(store, line),
    "nospaceafter-yes": lambda store, line, start: _nospaceafter(store, line),
    "spaceafter-value": lambda store, line, start: _cell_fix(store, line, MISC, "Write SpaceAfter as No, or "
                                                             "leave it out", _misc_mend(_spaceafter_value)),
    "misc-attr-typo": lambda store, line, start: _cell_fix(store, line, MISC, "Spell the MISC attribute as UD "
                                                           "does", _misc_mend(_attribute_name)),
    "misc-extra-space": lambda store, line, start: _cell_fix(store, line, MISC, "Remove the spaces around the "
                                                             "MISC attribute", _misc_mend(_stripped_attribute)),
    "leading-whitespace": _whitespace,
    "trailing-whitespace": _whitespace,
    "format-newline": _lone_cr,
}
