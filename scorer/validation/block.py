"""Validate one block: everything that depends on its own text only.

A block is what the engine keeps as one segment: the lines between blank
lines.  The official validator also ends a sentence at a line that holds
only whitespace, so a block may be several of its sentences; each is
validated in the validator's order, stopping where it stops (a sentence
with level-1 errors, a broken tree, an unreadable FEATS).

Beside its incidents (lines relative to the block) a block returns the
*facts* the document-wide checks need, in `BlockValidation`: its sent_ids
and parallel_ids, whether it has features or an enhanced graph, its
newdoc/newpar lines and SpaceAfter=No state, the incidents that wait for
the corpus to have features, and the few quirks of the validator's global
state that can change what later sentences get (see `document`).
"""

from __future__ import annotations

import re
from dataclasses import replace

from annoscore.scorer.columns import DEPS
from annoscore.scorer.validation.chars import is_whitespace_line
from annoscore.scorer.validation.incident import Incident
from annoscore.scorer.validation.level1 import (ValidatedSentence, check_columns, check_ids, check_lines,
                                      check_ranges, plain_sentence, quick_kinds)
from annoscore.scorer.validation.level2 import (CellFacts, check_cells, check_references, check_tree, quick_level2,
                                      row_kinds)
from annoscore.scorer.validation.level3 import TreeFacts, check_roots, check_words, egraph_unconnected
from annoscore.scorer.validation.level45 import check_language
from annoscore.scorer.validation.metadata import MetaFacts, check_parallel_id, check_sent_id, check_text
from annoscore.scorer.validation.registry import checks
from annoscore.scorer.validation.settings import Prepared, ValidationSettings, prepare
from annoscore.scorer.validation.tree import Tree

# The validator's "default line" after a sentence that ended on its
# metadata checks: the first token line of the corpus's last sentence.
SENTENCE_LINE = -1


class BlockValidation:
    """A block's incidents (block-relative lines) and facts."""

    __slots__ = ("incidents", "sent_ids", "ids", "special", "parallel_ids", "has_features", "has_enhancement",
                 "deps_seen", "ref_candidates", "if_features", "egraph_first_with",
                 "egraph_first_without", "egraph_events", "newdocpar_entry", "spaceafter_exit",
                 "default_line", "last_sentence_line", "n_lines", "faults")

    def __init__(self) -> None:
        self.incidents: tuple[Incident, ...] = ()
        self.sent_ids: tuple[tuple[int, str], ...] = ()          # (line, sent_id), validated ones
        self.ids: tuple[str, ...] = ()                           # the same sent_ids alone
        self.special = False  # parallel ids, egraph events, waiting or 'ref' incidents: a closer look
        self.parallel_ids: tuple[tuple[int, str | None, tuple], ...] = ()  # (line, sent_id, parallel)
        self.has_features = False
        self.has_enhancement = False
        self.deps_seen = False
        self.ref_candidates: tuple[Incident, ...] = ()           # only if no block before read a DEPS
        self.if_features: tuple[Incident, ...] = ()              # only if the corpus has features
        self.egraph_first_with: tuple[int, str | None] | None = None
        self.egraph_first_without: tuple[int, str | None] | None = None
        self.egraph_events: tuple[tuple[int, bool, bool, str | None], ...] = ()
        self.newdocpar_entry: tuple[tuple[int, str | None], ...] = ()  # depend on the state before
        self.spaceafter_exit: bool | None = None
        self.default_line: int | None = None
        self.last_sentence_line = 0
        self.n_lines = 0
        # Sentences whose checks failed (a fault of annoscore's): (first
        # line, stop line, what failed); their incidents are dropped.
        self.faults: tuple[tuple[int, int, str], ...] = ()

    def shifted_incidents(self, first_line: int) -> list[Incident]:
        return [incident.shifted(first_line) for incident in self.incidents]


# Where a whitespace-only line may start: a line that starts with whitespace.
_WS_START = re.compile(r"\n[^\S\n\x1c-\x1f]")


def split_sentences(lines: list[str], block: str | None = None) -> list[tuple[int, int]]:
    """(start, stop) of the validator's sentences in a block's lines: each
    whitespace-only line ends one (it is its last line)."""
    if block is not None and not block[:1].isspace() and not _WS_START.search(block):
        return [(0, len(lines))]
    spans = []
    start = 0
    for i, line in enumerate(lines):
        if line[:1].isspace() and is_whitespace_line(line):
            spans.append((start, i + 1))
            start = i + 1
    if start < len(lines):
        spans.append((start, len(lines)))
    return spans


def validate_block(block: str, settings: ValidationSettings | Prepared, terminated: bool = True,
                   bom: bool = False) -> BlockValidation:
    """Validate one block of lines (no blank line inside, none at the end).

    ``terminated``: a blank line follows (False only for the last block of
    a file that does not end with one).  ``bom``: the block is the file's
    first and the file starts with a byte-order mark (not in ``block``; the
    validator sees it as part of the first line).
    """
    prepared = settings if isinstance(settings, Prepared) else prepare(settings)
    lines = block.split("\n")
    if bom:
        lines[0] = "\ufeff" + lines[0]
    result = BlockValidation()
    result.n_lines = len(lines)
    out: list[Incident] = []
    acc = _Accumulator()
    cells = CellFacts()
    keep = prepared.keep
    if lines == [""]:
        spans = [(0, 1)]  # an empty block: one empty line, a sentence of its own
        terminated = False
    else:
        spans = split_sentences(lines, block)
    # One plain sentence (the usual case) may take the quick way through level 1.
    plain = block if (terminated and not bom and len(spans) == 1) else None
    faults: list[tuple[int, int, str]] = []
    for start, stop in spans:
        own = lines[start:stop]
        if stop == len(lines) and terminated and not _ends_sentence(own[-1]):
            own.append("")  # the blank line after the block ends this sentence
        s = ValidatedSentence(own, start, bom and start == 0, keep)
        _contained(s, prepared, cells, acc, plain, out, faults, stop)
    if terminated and _ends_sentence(lines[-1]):
        # The block ended on a whitespace-only line: the blank line after it
        # is a sentence of its own (an empty one).
        s = ValidatedSentence([""], len(lines), False, keep)
        _contained(s, prepared, cells, acc, None, out, faults, len(lines))
    result.incidents = tuple(out)
    result.faults = tuple(faults)
    acc.finish(result, cells)
    return result


def _contained(s: ValidatedSentence, prepared: Prepared, cells: CellFacts, acc: _Accumulator, block: str | None,
               out: list[Incident], faults: list[tuple[int, int, str]], stop: int) -> None:
    """Validate one sentence; a fault of ours in its checks costs that
    sentence only: its incidents are dropped and the fault is recorded for
    the caller to show (``internal-error``), the next sentence checked as usual."""
    try:
        _validate_sentence(s, prepared, cells, acc, block)
    except Exception as error:  # noqa: BLE001 - any fault of a check is contained here
        faults.append((s.first, stop, f"{type(error).__name__}: {error}"))
        return
    out.extend(s.out)


def _ends_sentence(line: str) -> bool:
    return not line or (line[:1].isspace() and is_whitespace_line(line))


class _Accumulator:
    """Collects the facts of a block's sentences in order."""

    def __init__(self) -> None:
        self.sent_ids: list[tuple[int, str]] = []
        self.parallel_ids: list[tuple[int, str | None, tuple]] = []
        self.if_features: list[Incident] = []
        self.egraph_first_with = None
        self.egraph_first_without = None
        self.egraph_events: list[tuple[int, bool, bool, str | None]] = []
        self.newdocpar_entry: list[tuple[int, str | None]] = []
        self.spaceafter: bool | None = None
        self.default_line: int | None = None
        self.last_sentence_line = 0

    def finish(self, result: BlockValidation, cells: CellFacts) -> None:
        result.sent_ids = tuple(self.sent_ids)
        result.ids = tuple(sid for _, sid in self.sent_ids)
        result.parallel_ids = tuple(self.parallel_ids)
        result.has_features = cells.has_features
        result.has_enhancement = cells.has_enhancement
        result.deps_seen = cells.deps_seen
        result.ref_candidates = tuple(Incident(test_id, "unknown relation 'ref' (the validator knows "
                                               "'ref' only after it has read an enhanced graph)",
                                               line, start, end, sid)
                                      for test_id, line, start, end, sid in cells.ref_candidates)
        result.if_features = tuple(self.if_features)
        result.egraph_first_with = self.egraph_first_with
        result.egraph_first_without = self.egraph_first_without
        result.egraph_events = tuple(self.egraph_events)
        result.newdocpar_entry = tuple(self.newdocpar_entry)
        result.spaceafter_exit = self.spaceafter
        result.default_line = self.default_line
        result.last_sentence_line = self.last_sentence_line
        result.special = bool(result.parallel_ids or result.egraph_events or result.if_features
                              or result.ref_candidates)


def _validate_sentence(s: ValidatedSentence, prepared: Prepared, cells: CellFacts, acc: _Accumulator,
                       block: str | None = None) -> None:
    try:
        _run_checks(s, prepared, cells, acc, block)
    finally:
        acc.last_sentence_line = s.sentence_line
        if s.out and s.sent_id is not None and any(i.sent_id != s.sent_id for i in s.out):
            s.out = [i if i.sent_id == s.sent_id else replace(i, sent_id=s.sent_id) for i in s.out]


def _run_checks(s: ValidatedSentence, prepared: Prepared, cells: CellFacts, acc: _Accumulator,
                block: str | None) -> None:
    kinds = plain_sentence(s, block) if block is not None else None
    clean_cells = kinds is not None
    if not clean_cells:
        if not check_lines(s):
            return
        ok = check_columns(s)
        full_rows = [i for i, cols in enumerate(s.rows) if len(cols) == 10]
        if full_rows:
            acc.default_line = s.sentence_line + full_rows[-1]
        if not ok:
            return
        kinds = quick_kinds(s.rows)
        if kinds is None:
            if not check_ids(s) or not check_ranges(s):
                return
            kinds = row_kinds(s.rows)
    else:
        acc.default_line = s.sentence_line + len(s.rows) - 1
    level = prepared.level
    if level < 2:
        return
    words = quick_level2(s, kinds, cells) if "e" not in kinds else None
    if words is None:
        if not check_references(s, kinds) or not check_tree(s, kinds):
            return
        n_refs = len(cells.ref_candidates)
        safe = check_cells(s, kinds, cells)
        _stamp_refs(cells, n_refs, s.sent_id)
        if not safe:
            return
    # Enhanced graph in all sentences or in none.
    if words is not None:
        has_graph = words.cols[DEPS].count("_") != len(words.rows)
    else:
        has_graph = any(kind == "e" or cols[DEPS] != "_" for cols, kind in zip(s.rows, kinds) if kind != "m")
    if has_graph:
        if acc.egraph_first_with is None:
            acc.egraph_first_with = (s.sentence_line, s.sent_id)
    elif acc.egraph_first_without is None:
        acc.egraph_first_without = (s.sentence_line, s.sent_id)
    _check_metadata(s, prepared, kinds, clean_cells, acc)
    tree = Tree(s, kinds, words)
    tree_facts = TreeFacts()
    if level >= 3:
        n_refs = len(cells.ref_candidates)
        check_roots(s, tree, tree_facts)
        if level >= 4 and prepared.data is not None:
            check_language(s, tree, level, prepared.lang, prepared.data, cells)
        _stamp_refs(cells, n_refs, s.sent_id)
        if tree.empty or tree.n:
            last_empty = tree.empty[-1][1] if tree.empty else None
            last = tree.line[tree.n] if tree.n else None
            if tree.empty and (not tree.n or tree.empty[-1][0] > tree.n):
                acc.default_line = tree.lines_by_id().get(str(tree.empty[-1][0]), last_empty)
            else:
                acc.default_line = last
    egraph_unconnected(s, tree)
    if level >= 3:
        check_words(s, tree, tree_facts)
        if tree.n:
            acc.default_line = tree.line[tree.n]
        acc.if_features.extend(tree_facts.if_features)
        acc.egraph_events.extend((line, empty, orphan, s.sent_id)
                                 for line, empty, orphan in tree_facts.egraph_events)


def _check_metadata(s: ValidatedSentence, prepared: Prepared, kinds: str, clean_cells: bool, acc: _Accumulator) -> None:
    """The comment lines' checks (sent_id, parallel_id, text), their facts kept for the document."""
    meta = MetaFacts()
    comments = [(s.first + k, s.lines[k]) for k in range(s.sentence_line - s.comment_start)]
    check_sent_id(s, prepared.lang, meta, comments)
    if "parallel_id" in "".join(line for _, line in comments):
        check_parallel_id(s, meta, comments)
    check_text(s, kinds, meta, clean_cells, comments)
    acc.default_line = SENTENCE_LINE
    if meta.sent_id is not None:
        acc.sent_ids.append((s.sentence_line, meta.sent_id))
    if meta.parallel is not None:
        acc.parallel_ids.append((s.sentence_line, s.sent_id, meta.parallel))
    if meta.newdocpar:
        if acc.spaceafter is None:
            acc.newdocpar_entry.append((s.sentence_line, s.sent_id))
        else:
            check_spaceafter_before_newdocpar(s, acc.spaceafter)
    if meta.spaceafter is not None:
        acc.spaceafter = meta.spaceafter


@checks("spaceafter-newdocpar")
def check_spaceafter_before_newdocpar(s: ValidatedSentence, spaceafter: bool) -> None:
    """A new document or paragraph (``# newdoc``, ``# newpar``) does not
    start right after a sentence whose last token has SpaceAfter=No (a
    block's first sentence: the document looks at the block before)."""
    if spaceafter:
        s.add("spaceafter-newdocpar", s.sentence_line,
              "a new document or paragraph starts after a sentence whose last token has SpaceAfter=No")


def _stamp_refs(cells: CellFacts, since: int, sent_id: str | None) -> None:
    """Give the 'ref' candidates found just now their sentence's id."""
    for k in range(since, len(cells.ref_candidates)):
        candidate = cells.ref_candidates[k]
        if len(candidate) == 4:
            cells.ref_candidates[k] = candidate + (sent_id,)  # type: ignore[assignment]
