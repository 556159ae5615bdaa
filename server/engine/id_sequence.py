"""One cause for what IDs written out of sequence bring about.

A line inserted, deleted or moved by hand without renumbering makes every
later ID "wrong", HEADs point at other words than meant, and the checks
report each consequence: an ID out of order on every later line, cycles of
words that are their own head, heads past the end.  None of those says what
happened.  In the editor, a sentence whose IDs are out of sequence
(`scorer.conllu.editing.renumber.out_of_sequence`) shows instead ONE error,
``ids-out-of-sequence``, on its first out-of-sequence line, with those
consequences as its related information, and the quick fix "Renumber this
sentence" (see `server.lsp.features.editing`).  ``annoscore check`` keeps
reporting each finding as the UD validator does (the engine folds only
when its presentation ``explains_id_sequence``, as the language server's
`IN_EDITOR` does: see server.engine.presentation).
"""

from __future__ import annotations

from annoscore.scorer.conllu.editing.renumber import out_of_sequence, renumber
from annoscore.scorer.conllu.editing import EditError
from annoscore.scorer.problems import Problem, Related, Severity

from ..textstore import TextStore

CODE = "ids-out-of-sequence"
# What IDs out of sequence bring about (annoscore's codes and the UD validator's test ids).
CONSEQUENCES = frozenset({
    "format-id-order", "format-mwt", "format-head", "format-deps", "cycle", "head-out-of-range", "missing-head",
    "multiple-roots", "no-root", "word-id-sequence", "invalid-word-interval", "misplaced-word-interval",
    "misplaced-empty-node", "word-interval-out", "overlapping-word-intervals", "reversed-word-interval",
    "unsorted-deps", "unsorted-deps-2", "repeated-deps", "invalid-head", "invalid-deps", "invalid-ehead",
    "unknown-head", "head-self-loop", "non-tree", "deps-self-loop", "unknown-ehead", "0-is-not-root",
    "root-is-not-0", "enhanced-0-is-not-root", "enhanced-root-is-not-0",
})


def fold(problems: list[Problem], store: TextStore) -> list[Problem]:
    """``problems`` with each out-of-sequence sentence's consequences folded
    into one ``ids-out-of-sequence`` error (see the module's docstring)."""
    causes: dict[int, Problem | None] = {}  # segment index → its cause (None: in sequence)
    for p in problems:
        if p.code in CONSEQUENCES:
            index = store.segment_at(p.line)
            if index not in causes:
                causes[index] = _cause(store, index)
    if not any(causes.values()):
        return problems
    folded: dict[int, list[Problem]] = {}
    out: list[Problem] = []
    for p in problems:
        index = store.segment_at(p.line) if p.code in CONSEQUENCES else None
        if index is not None and causes.get(index) is not None:
            folded.setdefault(index, []).append(p)
        else:
            out.append(p)
    for index, consequences in folded.items():
        cause = causes[index]
        assert cause is not None
        # In reading order, whatever order the problems came in (the language
        # server lists them unordered, and an incremental rescore lists them
        # in another order than a fresh one).
        consequences.sort(key=lambda p: (p.line, p.start, p.end, p.code, p.message))
        related = tuple(Related(p.line, p.start, p.end, f"{p.code}: {p.message}") for p in consequences)
        out.append(Problem(cause.code, cause.message, cause.line, cause.start, cause.end, cause.severity,
                           refuses=True, related=related))
    return out


def _cause(store: TextStore, index: int) -> Problem | None:
    segment = store.segments[index]
    block = segment.block
    if block is None:
        return None
    found = out_of_sequence(block)
    if found is None:
        return None
    message = (f"IDs are out of sequence from here: {found.found} where {found.expected} was expected "
               "(a line inserted, deleted or moved without renumbering?)")
    try:
        result = renumber(block)
    except EditError:
        result = None
    if result is not None and result.ambiguous:
        message += "; it cannot be renumbered for certain: " + "; ".join(result.ambiguous)
    elif result is not None:
        message += "; the quick fix renumbers it, every word keeping the head it pointed to"
        if result.lost:
            message += f" (except {len(result.lost)} reference{'s' if len(result.lost) > 1 else ''} "\
                       "to lines no longer there)"
    line = segment.first_line + found.line
    id_end = store.line(line).find("\t")
    return Problem("ids-out-of-sequence", message, line, 0, id_end if id_end > 0 else len(store.line(line)),
                   Severity.ERROR, refuses=True)
