"""Quick fixes: the edits that mend a diagnostic, for the editor to apply.

The server never writes a user's file; a fix is a list of edits (in code
points, as everywhere in the engine) that the editor applies and can undo.
Only problems with one obviously right mend get a fix:

- ``format-spaces``: the line's columns separated by spaces become TABs
  (the reader found exactly ten fields split on whitespace);
- ``format-empty-sentence`` on a blank line: the extra blank lines go, so
  that one blank line is left between the sentences (none before the first);
- ``format-final-blank-line``: a blank line is added at the end;
- ``disagreement``: the cell takes the other annotation's value ("Take
  B's value"; see `agreement`);
- ``gold-diff``: the cell takes gold's value (a HEAD renumbered to this
  sentence's words; no fix when gold's head word is not aligned with one).
  Offered on any cell that differs from gold (`gold_fix_at`), also when the
  gold-diff diagnostics are off.

The UD validator's findings of form (sorted FEATS, ``# text`` from the
FORMs, ``SpaceAfter`` spelling, whitespace) have theirs in `ud_fixes`.

Refused trees (cycles, several roots, missing heads) get none: attaching a
word somewhere would make the tree acceptable and the annotation wrong, and
choosing the right head is the annotator's job.
"""

from __future__ import annotations

from annoscore.scorer.conllu.sentence import HEAD
from annoscore.scorer.excerpt import quoted

from ..textstore import TextStore
from .cells import Cell, describe
from .fix import Fix
from .ud_fixes import FIXES as UD_FIXES

FIXABLE = frozenset({"format-spaces", "format-empty-sentence", "format-final-blank-line", "gold-diff",
                     "disagreement"}) \
    | frozenset(UD_FIXES)
# The cells gold's value can be taken for.
GOLD_COLUMNS = frozenset({"LEMMA", "UPOS", "XPOS", "FEATS", "HEAD", "DEPREL"})



def fix_for(engine, key: str, code: str, line: int, start: int, other: str | None = None) -> Fix | None:
    """The fix for the problem ``code`` found at (line, start), or None
    (``other``: for a ``disagreement``, the other annotation's path)."""
    document = engine.documents.get(key)
    if code not in FIXABLE or document is None or not isinstance(document.store, TextStore):
        return None
    if code == "disagreement":
        from .agreement import agreement_fix
        return agreement_fix(engine, key, line, start, other)
    store = document.store
    if code in UD_FIXES:
        found = UD_FIXES[code](store, line, start)
        return None if found is None else Fix(*found)
    text = store.line(line)
    if code == "format-spaces":
        fields = text.split()
        if len(fields) != 10:
            return None
        return Fix("Separate the columns with TABs", [(line, 0, line, len(text), "\t".join(fields))])
    if code == "format-empty-sentence":
        if text.strip() or line > store.last_line:
            return None  # (the other kind: comments without token lines)
        end = line
        while end <= store.last_line and not store.line(end):
            end += 1
        end = min(end, store.last_line)
        if end == line:
            return None
        extra = end - line
        return Fix(f"Remove {extra} extra blank line{'s' if extra > 1 else ''}", [(line, 0, end, 0, "")])
    if code == "format-final-blank-line":
        last = store.last_line
        tail = store.line(last)
        return Fix("Add the blank line that ends the last sentence",
                   [(last, len(tail), last, len(tail), "\n" if not tail else "\n\n")])
    return gold_fix_at(engine, key, line, start)


def gold_fix_at(engine, key: str, line: int, column: int) -> Fix | None:
    """Gold's value for the cell at (line, column) when it differs (offered
    wherever the cursor is, whether or not gold-diff diagnostics are shown)."""
    cell = describe(engine, key, line, column)
    if not isinstance(cell, Cell) or cell.gold is None or cell.word is None or \
            cell.name not in GOLD_COLUMNS:
        return None
    value = cell.gold.value(cell.column)
    if cell.column == HEAD and cell.gold.head_here is None:
        return None
    if value == cell.value:
        return None
    return Fix(f"Use gold's {cell.name} {quoted(value)}", [(cell.line, cell.start, cell.line, cell.end, value)])
