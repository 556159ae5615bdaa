"""A sentence not parsed yet shows one diagnostic, not one per HEAD (in the editor).

A file being annotated holds sentences whose HEAD and DEPREL are still
``_`` everywhere: annoscore reports each as ``unparsed`` (information, the
official scorer refuses it), and the UD validator, rightly for a finished
treebank, reports every word's HEAD: ``invalid-head`` and ``unknown-head``,
12 errors for 6 words.  None of them says more than ``unparsed`` does.  So
in the language server, the validator's findings that follow from the
missing heads are folded under the sentence's ``unparsed`` diagnostic: it
carries them as related information (test id and message at each place, at
most `RELATED_SHOWN`, then one entry counting the rest) and its message says
how many were folded.  ``annoscore check`` and ``check --json`` keep every
finding, as udvalidate reports them (the engine folds only when its
presentation ``folds_unparsed``, as the language server's `IN_EDITOR`
does: see server.engine.presentation), and the setting
``foldUnparsedFindings`` / ``fold_unparsed_findings`` false shows them one
by one in the editor too.

Which findings fold (`FOLDED_IDS`): those of the tests that judge HEAD,
DEPREL or the tree made of them, on the lines of a sentence annoscore
reports as ``unparsed`` (every HEAD is ``_``):

* ``invalid-head`` (level 2, FORMAT: the HEAD cell is not a number);
* every test of the SYNTAX class, levels 2-5: the HEAD and DEPREL values
  (``unknown-head``, ``invalid-deprel``, ``unknown-udeprel``,
  ``unknown-deprel``), the tree (``head-self-loop``, ``multiple-roots``,
  ``non-tree``) and the level-3 rules about relations and the tree
  (``0-is-not-root``, ``rel-upos-…``, ``right-to-left-…``, ``leaf-…`` …).
  With every HEAD ``_`` there is no tree, so any of them is about the tree
  that is not there yet.  (udtools 0.2.9 itself reports only
  ``invalid-head`` and ``unknown-head`` on such a sentence: it checks a
  DEPREL only under a valid HEAD and builds no tree without one.)

Everything else stays a diagnostic of its own, on its cell: the line and
Unicode checks of level 1, FEATS, UPOS, MISC, DEPS and the enhanced graph,
the metadata (``# sent_id``, ``# text``), the document-wide checks (none of
which has a folded id: see the tests).  A sentence with some HEADs is not
``unparsed``, and nothing of it is folded.

Nothing is lost: the folded findings are exactly those the editor would
otherwise show one by one (the codes turned off in ``severities`` are not
folded, nor shown; with ``unparsed`` itself turned off nothing folds), and
they do not count against ``maxDiagnostics`` or
``maxDiagnosticsPerDocument``, their ``unparsed`` diagnostic does.  With
more unparsed sentences than the handler shows one by one
(`server.engine.conllu.handler.UNPARSED_CAP`), their one summary carries the
findings of all of them.
"""

from __future__ import annotations

from typing import Sequence

from annoscore.scorer.problems import Problem, Related
from annoscore.scorer.validation.incident import TESTS

from ...textstore import Segment

FOLDED_IDS = frozenset({"invalid-head"} | {test_id for test_id, (_, test_class, _) in TESTS.items()
                                           if test_class == "SYNTAX"})
# Related entries of one diagnostic, before the one that counts the rest.
RELATED_SHOWN = 20
SETTING = "annoscore.foldUnparsedFindings"

# Per unparsed sentence (by its absolute first line): its findings that fold.
Folds = list[tuple[int, tuple[Problem, ...]]]


def split(segment: Segment, placed: tuple[Problem, ...], first: int) -> tuple[tuple[Problem, ...], Folds] | None:
    """A segment's validation problems (``placed``: absolute lines, its
    block starting at line ``first``) as (those that stay, the folds of
    its unparsed sentences); None when it is not analysed yet (which of its
    sentences are unparsed is not known)."""
    if not any(p.code in FOLDED_IDS for p in placed):
        return placed, []
    analysis = segment.analysis
    if analysis is None:
        return None
    infos = analysis[1]  # type: ignore[index]
    spans = []  # (first line, end line) of each unparsed sentence
    for k, info in enumerate(infos):
        if info.unparsed:
            start = first if k == 0 else segment.first_line + info.line_offset
            end = segment.first_line + (infos[k + 1].line_offset if k + 1 < len(infos) else segment.n_lines)
            spans.append((segment.first_line + info.line_offset, start, end))
    if not spans:
        return placed, []
    kept: list[Problem] = []
    folded: dict[int, list[Problem]] = {}
    for p in placed:
        sentence = next((line for line, start, end in spans if start <= p.line < end), None) \
            if p.code in FOLDED_IDS else None
        if sentence is None:
            kept.append(p)
        else:
            folded.setdefault(sentence, []).append(p)
    return tuple(kept), [(line, tuple(ps)) for line, ps in folded.items()]


def folded_into(problem: Problem, folded: Sequence[Problem], line: int = 0) -> Problem:
    """The ``unparsed`` problem (lines relative to ``line``) carrying the
    ``folded`` findings (absolute lines) as related information."""
    if not folded:
        return problem
    related = [Related(p.line - line, p.start, p.end, f"{p.code}: {p.message}") for p in folded[:RELATED_SHOWN]]
    rest = len(folded) - RELATED_SHOWN
    if rest > 0:
        after = folded[RELATED_SHOWN]
        related.append(Related(after.line - line, after.start, after.end,
                               f"{rest:,} more folded finding{'s' if rest > 1 else ''} of the UD validator "
                               f"(not listed; {SETTING}: false shows each)"))
    ids = ", ".join(dict.fromkeys(p.code for p in folded))
    n = len(folded)
    message = (f"{problem.message}; folded here: the UD validator's {n:,} finding{'s' if n > 1 else ''} on the "
               f"missing HEADs ({ids}; {SETTING}: false shows each)")
    return Problem(problem.code, message, problem.line, problem.start, problem.end, problem.severity,
                   problem.refuses, problem.related + tuple(related), problem.data)
