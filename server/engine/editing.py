"""Structural edits of the sentence at the cursor, planned on the engine's
copy of a document (see `scorer.conllu.editing` for the operations).

`plan` runs an operation on the block the cursor is in and gives the edits
that make it (in code points, lines of the document), for the editor to
apply as one WorkspaceEdit: the server never writes the file.  The version
it was asked for must be the one the engine holds; otherwise the plan is
refused, so an edit is never applied to text it was not made for.
"""

from __future__ import annotations

from collections import Counter
from itertools import compress, count
from operator import is_not
from dataclasses import dataclass
from weakref import WeakKeyDictionary

from annoscore.scorer.conllu.columns import cell_span
from annoscore.scorer.conllu.editing import EditError
from annoscore.scorer.conllu.editing.operations import OPERATIONS, Outcome, edit_block, smallest_change
from annoscore.scorer.conllu.editing.renumber import renumber
from annoscore.scorer.conllu.parse import block_sent_id
from annoscore.scorer.conllu.sentence import FORM

from ..textstore import TextStore

# (start line, start column, end line, end column, new text), in code points.
Edit = tuple[int, int, int, int, str]
RENUMBER = "renumber"


@dataclass
class PlannedEdit:
    label: str
    version: int | None
    edits: list[Edit]
    # False when the edit sets references it could not map to ``_`` (a
    # renumbering with lost heads: the editor offers it, `fix` does not).
    certain: bool = True


def _document(engine, key: str, version: int | None):
    document = engine.documents.get(key)
    if document is None or document.format != "conllu" or not isinstance(document.store, TextStore):
        raise EditError("not a CoNLL-U document annoscore holds")
    if version is not None and document.version is not None and version != document.version:
        raise EditError(f"the document changed since this edit was asked for (version {version}; "
                        f"it is {document.version} now): nothing was changed, ask again")
    return document


def segment_sent_ids(segment) -> set[str]:
    """A segment's sent_ids (from the analyses kept, or read from the block)."""
    analysis = segment.analysis
    if analysis is not None:
        return {info.sent_id for info in analysis[1] if info.sent_id}
    found = block_sent_id(segment.text)
    return {found} if found else set()


def _same_first(old: list, new: list) -> int:
    """How many leading items are the same objects (counted in C)."""
    return next(compress(count(), map(is_not, old, new)), min(len(old), len(new)))


class SentIds:
    """The document's sent_ids, kept per store and brought up to date with
    the segments that changed since the last split: gathering all of a
    1M-word document's takes ~200 ms, over the 50 ms an operation may take.
    The store replaces a segment whose text changes, so what changed lies
    between the segments that are the same objects at the start and at the
    end; nothing is looked at while the store's version stays."""

    def __init__(self) -> None:
        self.version: int | None = None
        self.segments: list = []        # the store's segments when last brought up to date
        self.found: list[set[str]] = []  # each one's sent_ids
        self.counts: Counter[str] = Counter()

    def update(self, store: TextStore) -> SentIds:
        if self.version == store.version:
            return self
        old, new = self.segments, store.segments
        start = _same_first(old, new)
        end = _same_first(old[::-1], new[::-1])
        end = min(end, len(old) - start, len(new) - start)  # (the two ends must not overlap)
        for gone in self.found[start:len(old) - end]:
            self.counts.subtract(gone)
        fresh = [segment_sent_ids(segment) if segment.has_block else set()
                 for segment in new[start:len(new) - end]]
        for found in fresh:
            self.counts.update(found)
        self.found[start:len(old) - end] = fresh
        self.segments, self.version = list(new), store.version
        return self

    def __contains__(self, sent_id: object) -> bool:
        return self.counts.get(sent_id, 0) > 0  # type: ignore[call-overload]


_SENT_IDS: WeakKeyDictionary = WeakKeyDictionary()  # store → its SentIds


def sent_ids(store: TextStore) -> SentIds:
    """The document's sent_ids, for a split's new one to differ from them."""
    kept = _SENT_IDS.get(store)
    if kept is None:
        kept = _SENT_IDS[store] = SentIds()
    return kept.update(store)


def plan(engine, key: str, operation: str, line: int, column: int, args: dict | None = None,
         version: int | None = None) -> PlannedEdit:
    """The edits of ``operation`` with the cursor at (line, column); EditError
    (with the reason) when it cannot be made."""
    if operation not in OPERATIONS and operation != RENUMBER:
        raise EditError(f"no operation '{operation}' (known: {', '.join((*OPERATIONS, RENUMBER))})")
    document = _document(engine, key, version)
    store: TextStore = document.store
    index = store.segment_at(line)
    segment = store.segments[index]
    block = segment.block
    first = segment.first_line
    if block is None or line - first >= block.count("\n") + 1:
        raise EditError("put the cursor on a sentence's line")
    args = dict(args or {})
    relative = line - first
    certain = True
    if operation == RENUMBER:
        result = renumber(block)
        if result.ambiguous:
            raise EditError("cannot renumber: " + "; ".join(result.ambiguous))
        old = block.split("\n")
        start, end, lines = smallest_change(old, result.lines)
        outcome = Outcome(renumber_title(result.lost), start, end, lines)
        certain = result.certain
    else:
        following = None
        between = 1
        if operation == "joinWithNext":
            for later in store.segments[index + 1:]:
                if later.has_block:
                    following = later
                    break
            if following is not None:
                between = following.first_line - first - block.count("\n") - 1
        if operation == "splitWord" and "at" not in args and "forms" not in args:
            text = store.line(line)
            start, end = cell_span(text, FORM)
            if start < column < end:
                args["at"] = column - start
        outcome = edit_block(operation, block, relative, args,
                             sent_ids(store) if operation == "splitSentence" else None,
                             following.block if following is not None else None, between)
    return PlannedEdit(outcome.label, document.version, [_edit(store, segment, first, outcome)], certain)


def renumber_title(lost: list[str]) -> str:
    title = "Renumber this sentence"
    if lost:
        title += " (not mapped, set to _: " + "; ".join(lost) + ")"
    return title


def _edit(store: TextStore, segment, first: int, outcome: Outcome) -> Edit:
    """Lines ``first + start`` .. ``first + end`` replaced by the outcome's lines."""
    a, b = first + outcome.start, first + outcome.end
    start_column = 1 if segment.bom and a == 0 else 0  # the byte-order mark stays
    if b <= store.last_line:
        return a, start_column, b, 0, "".join(line + "\n" for line in outcome.lines)
    # The block ends the document without a newline after it.
    last = store.last_line
    if outcome.lines:
        return a, start_column, last, len(store.line(last)), "\n".join(outcome.lines)
    if a == 0:
        return 0, start_column, last, len(store.line(last)), ""
    return a - 1, len(store.line(a - 1)), last, len(store.line(last)), ""
