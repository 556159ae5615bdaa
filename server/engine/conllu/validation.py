"""UD validation of a CoNLL-U document in the engine: live and incremental.

The validator (`scorer.validation`) is made for an editor: a block (the
lines between blank lines, which is what a text segment holds) is validated
from its text alone, and the checks that need the whole document run over
the facts the blocks report.  So:

* each segment keeps its block's validation (`SegmentValidation`: the
  validator's result and the problems made of it), made once for its text
  and the settings.  An edit makes new segments only where the text
  changed, and only those are validated again;
* every rescore runs the document-wide checks (a sent_id used twice,
  ``newpar`` after ``SpaceAfter=No`` …) over all the blocks' facts, with
  what lies between blocks: blank lines that are sentences of their own,
  and CR line ends, which the text store no longer shows
  (`TextStore.has_cr`).  That is a few ms per 10,000 sentences;
* what is shown is kept by runs of segments (`Page`): the problems of a
  run, at absolute lines and ready to show, are made again only when one of
  its segments has a new validation or moved, so that a rescore costs what
  the edited runs cost, not what every finding costs (the same problem
  objects are shown again, and the LSP adapter reuses their JSON);
* the first validation of a document with many blocks goes to helper
  processes (`validation_parts`) while annoscore's own pass runs here
  (`begin`, then `end`).  In the language server a large document's first
  validation is handed over once that pass is done and not waited for: the
  pass's diagnostics come first (as fast as without validation), the
  validator's follow when it is done (`DocumentValidation.pending`);
* meanwhile the last findings stay (docs/reliability.md): a new segment
  whose block the last pass saw takes that validation (`_reuse`: a whole
  new text validates only the blocks it changed), and the last pass's
  document-wide findings are shown moved with the text, but for those on
  segments that changed (`document_problems`).

The blocks and settings given to the validator come from `validator_input`
(`settings_for`, `block_of`: a byte-order mark alone on the first line is
where segments and blocks differ); what could not run (no language, no
data) is in the notes of `scorer.validation.prepare`, for the adapters to
tell once.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from functools import partial
from itertools import compress, count
from operator import attrgetter, is_, is_not, ne
from typing import Any, Callable

from annoscore.scorer.excerpt import excerpt
from annoscore.scorer.problems import Problem, Severity
from annoscore.scorer.validation import (BlockValidation, FileFacts, Prepared, ValidationSettings, blank_sentence_lines,
                               prepare, validate_block, validate_document)
from annoscore.scorer.validation.incident import TESTS, Incident

from ...textstore import Segment, TextStore
from ..diagnostics import DiagnosticCap, Listing
from . import unparsed_fold
from .twins import TWIN_IDS, Twins
from . import validation_cache
from .validation_parts import MIN_BLOCKS, BlockJob, helpers, take_early
from .validator_input import block_of, bom_line_joins, document_blocks

# A document whose first validation goes to the helpers is not waited for
# in the language server: annoscore's own diagnostics come as fast as
# without validation, the validator's follow (see `end`).
BACKGROUND_SEGMENTS = MIN_BLOCKS


@dataclass(slots=True, eq=False)
class SegmentValidation:
    """A segment's block, validated (``result`` None: the segment has no block)."""

    prepared: Prepared
    # The block starts on the line before the segment, the byte-order mark's
    # (for the mark's own segment: its line is the next block's).
    joined: bool
    result: BlockValidation | None
    problems: tuple[Problem, ...]    # lines relative to the block's first line
    twins: tuple[Problem, ...]       # those that may be one of annoscore's problems
    # ``problems`` at absolute lines, and the block's first line they are for
    # (kept: the same objects are shown while the block stays there).
    placed: tuple[int, tuple[Problem, ...]] | None = None

    def placed_at(self, first: int) -> tuple[Problem, ...]:
        placed = self.placed
        if placed is None or placed[0] != first:
            placed = self.placed = (first, tuple(p.shifted(first) for p in self.problems))
        return placed[1]


@dataclass(eq=False)
class DocumentValidation:
    settings: ValidationSettings
    prepared: Prepared
    # The document-wide problems of the last complete validation (absolute lines).
    problems: list[Problem] = field(default_factory=list)
    # A first validation in the helpers, not waited for (see `end`), and
    # the (segment, joined) it is for.
    pending: BlockJob | None = None
    pending_segments: list[tuple[Segment, bool]] = field(default_factory=list)
    last_pass: "DocumentPass | None" = None  # the last document-wide pass (see `_document_problems`)
    # What is shown, by runs of segments (see `pages`), and the (text
    # version, generation) they were made for; the generation counts the
    # calls of `begin` and `end`, which are what validate segments.
    pages: list["Page"] = field(default_factory=list)
    pages_made_for: tuple[int, int] | None = None
    # The (page size, validations, first lines) of the segments the pages
    # were made of, and the indexes of the pages not settled (see `Page`).
    pages_of: tuple[int, list[Any], list[int]] | None = None
    unsettled_pages: list[int] = field(default_factory=list)
    # Runs of the pages' listings and their tallies, by where the run starts (see `add_problems`).
    tallies: dict[int, tuple[list[Listing], Any]] = field(default_factory=dict)
    # ``problems`` ready to show: (the list they were made of, the listing).
    problems_listed: tuple[list[Problem], Listing] | None = None
    document_twins: tuple[list[Problem], list[tuple[Problem, Problem]]] | None = None
    # While blocks are pending: the last pass's problems moved with the text
    # (see `document_problems`), and the (text version, generation) they are for.
    moved: tuple[tuple[int, int], list[Problem]] | None = None
    # The segment that took the block of a segment of the last pass (by id),
    # for a whole new text (see `_reuse`).
    successors: dict[int, Segment] = field(default_factory=dict)
    generation: int = 0
    # A first validation not found in the cache (`validation_cache`): its
    # key, for `end` to keep the result under.
    cache_key: str | None = None

    @property
    def notes(self) -> tuple[str, ...]:
        return self.prepared.notes


# --- problems ------------------------------------------------------------------

_DATA: dict[str, tuple[tuple[str, object], ...]] = {}


def validation_data(test_id: str) -> tuple[tuple[str, object], ...]:
    """The ``Problem.data`` of a validation problem: its test id, level and class."""
    data = _DATA.get(test_id)
    if data is None:
        level, test_class, _ = TESTS[test_id]
        data = _DATA[test_id] = (("test_id", test_id), ("level", level), ("class", test_class))
    return data


def problem_of(incident: Incident, line_text: str | None = None) -> Problem:
    """The diagnostic of an incident.  One the validator places on a line
    alone (0-0) covers the line, when its text is given."""
    end = incident.end
    if not end and not incident.start and line_text:
        end = len(line_text)
    return Problem(incident.test_id, incident.message, incident.line, incident.start, end,
                   TESTS[incident.test_id][2], related=incident.related, data=validation_data(incident.test_id))


def fault_problem(line: int, fault: str) -> Problem:
    """The diagnostic of a sentence whose checks failed (see `validate_block`)."""
    return Problem("internal-error", f"annoscore's UD checks failed on this sentence: {excerpt(fault)} "
                   "(a fault of annoscore's; please report it); the rest of the document is "
                   "checked as usual", line, 0, 0, Severity.ERROR)


def _segment_validation(prepared: Prepared, joined: bool, block: str | None,
                        result: BlockValidation | None) -> SegmentValidation:
    if result is None or not (result.incidents or result.faults):
        return SegmentValidation(prepared, joined, result, (), ())
    lines: list[str] | None = None
    problems = [fault_problem(first, fault) for first, _, fault in result.faults]
    for incident in result.incidents:
        text = None
        if not incident.start and not incident.end and block is not None:
            lines = lines if lines is not None else block.split("\n")
            text = lines[incident.line] if incident.line < len(lines) else None
        problems.append(problem_of(incident, text))
    return SegmentValidation(prepared, joined, result, tuple(problems),
                             tuple(p for p in problems if p.code in TWIN_IDS))


# --- which blocks --------------------------------------------------------------


def _current(segment: Segment, prepared: Prepared, joined: bool) -> bool:
    v = segment.validation
    return v is not None and v.prepared is prepared and v.joined == joined  # type: ignore[attr-defined]


def _validate_here(segment: Segment, prepared: Prepared, joined: bool) -> None:
    block = block_of(segment, joined)
    result = None if block is None else validate_block(block[0], prepared, block[1], block[2])
    segment.validation = _segment_validation(prepared, joined, None if block is None else block[0], result)


# --- rescoring -------------------------------------------------------------------


def begin(document: Any, vsettings: ValidationSettings | None,
          previous: DocumentValidation | None) -> DocumentValidation | None:
    """Validate the blocks the edits since the last rescore made (here), or
    hand a first validation of many blocks to the helpers; `end` completes
    it.  ``vsettings`` None: validation is off (see `settings_for`)."""
    if vsettings is None:
        if previous is not None and previous.pending is not None:
            previous.pending.cancel()
        return None
    prepared = prepare(vsettings)
    state = previous
    if state is None or state.prepared is not prepared:
        if state is not None and state.pending is not None:
            state.pending.cancel()
        state = DocumentValidation(vsettings, prepared)
    state.generation += 1
    segments = document.store.segments
    joins = bom_line_joins(segments)
    waiting = {id(s) for s, _ in state.pending_segments}
    todo = [(segments[k], joins and k < 2) for k in _not_current(segments, prepared, joins, state.last_pass)
            if id(segments[k]) not in waiting]
    if todo:
        todo = _reuse(segments, todo, state)
    if len(todo) >= validation_cache.MIN_BLOCKS and len(todo) == len(segments) and validation_cache.enabled():
        todo = _from_cache(todo, prepared, state)
    if len(todo) >= MIN_BLOCKS and helpers() > 1 and state.pending is None:
        blocks, chosen = [], []
        for s, joined in todo:
            block = block_of(s, joined)
            if block is None:
                _validate_here(s, prepared, joined)
            else:
                blocks.append(block)
                chosen.append((s, joined))
        job = take_early(blocks, vsettings) or BlockJob(blocks, vsettings)
        if job.error is None:
            state.pending, state.pending_segments = job, chosen
            return state
    for s, joined in todo:
        _validate_here(s, prepared, joined)
    return state


_VALIDATION = attrgetter("validation")
_FIRST_LINE = attrgetter("first_line")
_PREPARED = attrgetter("prepared")
_JOINED = attrgetter("joined")


def _not_current(segments: list[Segment], prepared: Prepared, joins: bool,
                 last: "DocumentPass | None" = None) -> list[int]:
    """The indexes of the segments whose validation is not current (none
    yet, other settings, or joined otherwise: see `_current`).  Every
    rescore asks, and after a one-cell edit the answer is one segment of
    tens of thousands: so the common case is found with loops that run in
    C, and the segments are looked at one by one only when those do not
    settle it.  With ``last`` (the last document-wide pass, for which every
    segment's validation was current with ``prepared``), only the segments
    whose validation is another object than then are looked at (and the
    first two, which the byte-order mark may join); without it, a None is
    searched for and the settings and marks are gathered in sets."""
    validations = list(map(_VALIDATION, segments))
    if last is not None and len(last.validations) == len(validations):
        looked = sorted(set(compress(count(), map(is_not, last.validations, validations))) |
                        set(range(min(2, len(validations)))))
        try:
            return [k for k in looked if (v := validations[k]) is None or v.prepared is not prepared
                    or v.joined != (joins and k < 2)]
        except AttributeError:  # (not a SegmentValidation: looked at one by one below)
            pass
    missing = []
    k = -1
    try:
        while True:
            k = validations.index(None, k + 1)
            missing.append(k)
    except ValueError:
        pass
    try:
        present = list(filter(partial(is_not, None), validations)) if missing else validations
        settled = set(map(id, map(_PREPARED, present))) <= {id(prepared)} and \
            not any(map(_JOINED, present))
    except AttributeError:  # (not a SegmentValidation: looked at one by one)
        settled = False
    if settled and not joins:
        return missing
    out = []
    for k, v in enumerate(validations):
        joined = joins and k < 2
        if v is None or v.prepared is not prepared or v.joined != joined:  # type: ignore[attr-defined]
            out.append(k)
    return out


def _reuse(segments: list[Segment], todo: list[tuple[Segment, bool]],
           state: DocumentValidation) -> list[tuple[Segment, bool]]:
    """The segments of ``todo`` that still need a validation: a new segment
    whose block is one the last document-wide pass saw (the same text, end
    and mark) takes that block's validation, which depends on nothing else.
    A whole new text (an editor sending everything, a large paste, the file
    read again) then costs only the blocks that really changed, instead of a
    validation of every block in the helpers while the findings are missing."""
    last = state.last_pass
    if last is None or len(todo) < MIN_BLOCKS:  # (a few blocks: validated here at once)
        return todo
    # A segment's block as the validator reads it (`block_of`) follows from these.
    present = {id(s) for s in segments}
    known: dict[tuple[str, bool, bool, bool], SegmentValidation] = {}
    for old, v in zip(last.segments, last.validations):
        if isinstance(v, SegmentValidation) and v.prepared is state.prepared and id(old) not in present:
            known.setdefault((old.text, old.bom, old.has_block, v.joined), v)
    # Which old segment each new one is, the texts aligned in order (the same
    # text may be there many times): it takes that one's document-wide findings.
    matcher = SequenceMatcher(None, [s.text for s in last.segments], [s.text for s in segments], autojunk=False)
    was = {id(segments[j + t]): last.segments[i + t]
           for i, j, n in matcher.get_matching_blocks() for t in range(n)}
    left = []
    for s, joined in todo:
        key = (s.text, s.bom, s.has_block, joined)
        v = known.get(key)
        if v is None:
            left.append((s, joined))
            continue
        # (a copy: each segment places its problems at its own lines)
        s.validation = SegmentValidation(v.prepared, joined, v.result, v.problems, v.twins)
        old = was.get(id(s))
        if old is not None and id(old) not in present:
            state.successors[id(old)] = s  # its document-wide findings follow it (see `document_problems`)
    return left


def _from_cache(todo: list[tuple[Segment, bool]], prepared: Prepared,
                state: DocumentValidation) -> list[tuple[Segment, bool]]:
    """A whole document's first validation: its blocks' validations from
    the cache when it has them (then nothing is left to do), else the key
    for `end` to keep them under."""
    with_block = []
    for s, joined in todo:
        block = block_of(s, joined)
        if block is None:
            _validate_here(s, prepared, joined)  # (no block: nothing to validate)
        else:
            with_block.append((s, joined, block))
    blocks = [block for _, _, block in with_block]
    key = validation_cache.document_key(blocks, prepared)
    results = validation_cache.load(key, blocks)
    if results is None:
        state.cache_key = key
        return [(s, joined) for s, joined, _ in with_block]
    for (s, joined, block), result in zip(with_block, results):
        s.validation = _segment_validation(prepared, joined, block[0], result)
    return []


def _keep_in_cache(document: Any, state: DocumentValidation) -> None:
    """After a first validation that was not in the cache: keep it there,
    if the document is still the one validated (every segment's validation
    current; an edit meanwhile makes another document, not cached)."""
    key, state.cache_key = state.cache_key, None
    segments = document.store.segments
    joins = bom_line_joins(segments)
    results = []
    for k, s in enumerate(segments):
        joined = joins and k < 2
        if not _current(s, state.prepared, joined):
            return
        if block_of(s, joined) is not None:
            results.append(s.validation.result)  # type: ignore[attr-defined]
    if validation_cache.document_key(document_blocks(segments), state.prepared) == key:
        validation_cache.save(key, results, getattr(document, "path", None))


def end(document: Any, state: DocumentValidation | None, wait: bool = True,
        log: Callable[[str], None] | None = None) -> None:
    """Take the helpers' results (waiting for them, unless ``wait`` is False
    and they are not done yet), then run the document-wide checks."""
    if state is None:
        return
    state.generation += 1
    job = state.pending
    prepared = state.prepared
    if job is not None:
        if not wait and not job.done():
            return
        results = job.results()
        chosen, state.pending, state.pending_segments = state.pending_segments, None, []
        if results is None:
            if log is not None:
                log(f"validating in helper processes failed ({job.error}): validating here")
        else:
            for (s, joined), result in zip(chosen, results):
                if not _current(s, prepared, joined):
                    block = block_of(s, joined)
                    s.validation = _segment_validation(prepared, joined, block[0] if block else None, result)
        # What the helpers did not do (they failed, or the first line changed meanwhile).
        segments = document.store.segments
        joins = bom_line_joins(segments)
        for k, s in enumerate(segments):
            if not _current(s, prepared, joins and k < 2):
                _validate_here(s, prepared, joins and k < 2)
    if state.cache_key is not None:
        _keep_in_cache(document, state)
    state.problems = _document_problems(document.store, prepared, state)


def _document_problems(store: TextStore, prepared: Prepared, state: DocumentValidation) -> list[Problem]:
    """The document-wide checks, over every block's facts (`begin` and
    `end` validated every segment).  Their incidents are those of the last
    pass when no block's facts changed (see `_unchanged`): a one-cell edit
    re-validates its block, and the pass over every block is skipped; so
    are the problems of that pass, but for those on a segment edited since
    (the end of a problem on a line alone is the line's length)."""
    segments = store.segments
    if not segments or (len(segments) == 1 and not segments[0].text):
        line_count = 0
    else:
        line_count = segments[-1].first_line + segments[-1].n_lines
    layout = (line_count, store.has_cr, list(map(_FIRST_LINE, segments)))
    validations = list(map(_VALIDATION, segments))
    last = state.last_pass
    changed = None if last is None else _unchanged(last, segments, validations, layout)
    if last is not None and changed is not None:
        incidents, problems, by_segment = last.incidents, last.problems, last.by_segment
        for k in changed:
            for j in by_segment.get(k, ()):
                if problems is last.problems:
                    problems = list(problems)
                problems[j] = problem_of(incidents[j], store.line(incidents[j].line))
    else:
        incidents = validate_document(*_document_facts(segments, line_count, store.has_cr), prepared)
        problems, by_segment = _placed_problems(store, incidents, layout[2], last)
    state.last_pass = DocumentPass(list(segments), validations, layout, incidents, problems, by_segment)
    state.successors = {}
    return problems


def _placed_problems(store: TextStore, incidents: list[Incident], firsts: list[int],
                     last: "DocumentPass | None") -> tuple[list[Problem], dict[int, list[int]]]:
    """The problems of a document-wide pass's incidents, and the incidents
    on each segment.  An incident the last pass found too, on a segment that
    is the same object at the same place, keeps its problem (the same text
    under it: the LSP adapter's JSON of it stays); only the others are made
    (a UPOS edit can change a block's facts, and then the whole pass runs)."""
    segments = store.segments
    top = len(segments) - 1
    old: dict[Incident, Problem] = {}
    same: Callable[[int], bool] = lambda k: False
    if last is not None and last.layout[2] == firsts and len(last.segments) == len(segments):
        old = dict(zip(last.incidents, last.problems))
        last_segments = last.segments
        same = lambda k: last_segments[k] is segments[k]  # noqa: E731
    problems: list[Problem] = []
    by_segment: dict[int, list[int]] = {}
    for j, incident in enumerate(incidents):
        k = max(0, min(top, bisect_right(firsts, incident.line) - 1))  # (`TextStore.segment_at`)
        p = old.get(incident)
        if p is None or not same(k):
            p = problem_of(incident, store.line(incident.line))
        problems.append(p)
        by_segment.setdefault(k, []).append(j)
    return problems, by_segment


def _document_facts(segments: list[Segment], line_count: int,
                    has_cr: bool) -> tuple[list[tuple[int, BlockValidation]], FileFacts]:
    entries: list[tuple[int, BlockValidation]] = []
    spans: list[tuple[int, int, int]] = []
    for segment in segments:
        v: SegmentValidation = segment.validation  # type: ignore[assignment]
        result = v.result
        ends_line = segment.text.endswith("\n")
        if result is None:
            if not v.joined:  # (the mark's line is in the next block)
                spans.append((segment.first_line, 0, segment.n_lines if ends_line else 0))
            continue
        first = segment.first_line - v.joined
        entries.append((first, result))
        # (first line, lines of the block, blank lines after it)
        spans.append((first, result.n_lines, segment.n_lines + v.joined - result.n_lines if ends_line else 0))
    return entries, FileFacts(line_count, has_cr, blank_sentence_lines(spans))


@dataclass(frozen=True, eq=False)
class DocumentPass:
    """What the last document-wide pass looked at, and what it found."""

    segments: list[Segment]
    validations: list[Any]
    layout: tuple[int, bool, list[int]]  # line count, CR line ends, each segment's first line
    incidents: list[Incident]
    problems: list[Problem]              # of the incidents (a new list when one of them is new)
    by_segment: dict[int, list[int]]     # segment -> the incidents on its lines


# The facts of a block that the document-wide checks read: all but its own incidents.
_DOCUMENT_FACTS = tuple(name for name in BlockValidation.__slots__ if name != "incidents")
_CHANGED_BLOCKS_COMPARED = 16  # more changed blocks than this: the pass runs again


def _unchanged(last: DocumentPass, segments: list[Segment], validations: list[Any],
               layout: tuple[int, bool, list[int]]) -> list[int] | None:
    """The segments validated again since ``last`` (a new validation
    object), when the document-wide checks would read the same facts as
    then: the same lines, and each of those blocks has the same facts and
    the same line end; None when the facts may have changed."""
    if layout != last.layout or len(validations) != len(last.validations):
        return None
    if validations == last.validations:  # (identity: nothing validated again)
        return []
    changed = list(compress(count(), map(is_not, last.validations, validations)))  # (in C: see `_not_current`)
    if len(changed) > _CHANGED_BLOCKS_COMPARED:
        return None
    for k in changed:
        old, new = last.validations[k], validations[k]
        if old.joined != new.joined or old.prepared is not new.prepared:
            return None
        if last.segments[k].text.endswith("\n") != segments[k].text.endswith("\n"):
            return None
        if (old.result is None) != (new.result is None):
            return None
        if old.result is not None and any(getattr(old.result, name) != getattr(new.result, name)
                                          for name in _DOCUMENT_FACTS):
            return None
    return changed


# --- what is shown ------------------------------------------------------------------

# Segments whose shown problems are kept together (see `Page`): the cost of a
# rescore is a look at every page and the making of the edited ones.
PAGE_SEGMENTS = 64
# Pages' listings counted together past the limit (see `add_problems`).
TALLY_LISTINGS = 16


@dataclass(eq=False)
class Page:
    """The validation problems of a run of segments, at absolute lines: kept
    while each of those segments keeps its validation and its first line,
    so that the problem objects (and the LSP adapter's JSON of them) stay."""

    validations: list[Any]
    firsts: list[int]
    problems: tuple[Problem, ...]                # absolute lines, in order
    twins: list[tuple[Problem, Problem]]         # those annoscore's own may take, as (p, p)
    listed: Listing | None = None                # `problems` ready to show, for some settings
    # In the editor, the findings of unparsed sentences that fold under
    # their ``unparsed`` diagnostic (see `unparsed_fold`): the problems
    # that stay (``problems`` itself when none fold), the folds, the twins
    # among those that stay, and those ready to show.
    unfolded: tuple[Problem, ...] = ()
    folds: unparsed_fold.Folds = field(default_factory=list)
    unfolded_twins: list[tuple[Problem, Problem]] = field(default_factory=list)
    listed_unfolded: Listing | None = None
    # False: a segment of it was not analysed yet (its folds are not known): made again next time.
    settled: bool = True


def _page(segments: list[Segment], validations: list[Any], firsts: list[int], prepared: Prepared) -> Page:
    problems: list[Problem] = []
    unfolded: list[Problem] = []
    folds: unparsed_fold.Folds = []
    settled = True
    for segment, v in zip(segments, validations):
        if v is None or not v.problems or v.prepared is not prepared:  # (not validated yet)
            continue
        first = segment.first_line - v.joined
        placed = v.placed_at(first)
        problems += placed
        split = unparsed_fold.split(segment, placed, first)
        if split is None:
            settled = False
            unfolded += placed
        else:
            unfolded += split[0]
            folds += split[1]
    twins = [(p, p) for p in problems if p.code in TWIN_IDS]
    if not folds:
        return Page(validations, firsts, tuple(problems), twins, None, tuple(problems), folds, twins, None, settled)
    return Page(validations, firsts, tuple(problems), twins, None, tuple(unfolded), folds,
                [(p, p) for p in unfolded if p.code in TWIN_IDS], None, settled)


def pages(store: TextStore, state: DocumentValidation) -> list[Page]:
    """The document's pages, made again where a segment has a new
    validation or another first line (once per text and validation), or
    where one was not analysed yet when its page was made."""
    made_for = (store.version, state.generation)
    if state.pages_made_for == made_for and not state.unsettled_pages:
        return state.pages
    segments = store.segments
    validations = list(map(_VALIDATION, segments))
    firsts = list(map(_FIRST_LINE, segments))
    old, size = state.pages, PAGE_SEGMENTS
    known = state.pages_of
    if known is not None and known[0] == size and len(known[1]) == len(validations) \
            and len(old) == -(-len(segments) // size):
        # The pages to make again, found in C: those with a segment whose
        # validation or first line is not what it was, and the unsettled.
        redo = set(k // size for k in compress(count(), map(is_not, known[1], validations)))
        if known[2] != firsts:
            redo.update(k // size for k in compress(count(), map(ne, known[2], firsts)))
        redo.update(state.unsettled_pages)
        new = list(old)
        for k in redo:
            start, end = k * size, k * size + size
            new[k] = _page(segments[start:end], validations[start:end], firsts[start:end], state.prepared)
        unsettled = sorted(k for k in redo if not new[k].settled)
    else:
        new = []
        for k, start in enumerate(range(0, len(segments), size)):
            end = start + size
            page = old[k] if k < len(old) else None
            if page is None or not page.settled or page.validations != validations[start:end] \
                    or page.firsts != firsts[start:end]:
                page = _page(segments[start:end], validations[start:end], firsts[start:end], state.prepared)
            new.append(page)
        unsettled = [k for k, page in enumerate(new) if not page.settled]
    state.pages, state.pages_made_for = new, made_for
    state.pages_of, state.unsettled_pages = (size, validations, firsts), unsettled
    return new


def document_problems(store: TextStore, state: DocumentValidation) -> list[Problem]:
    """The document-wide problems to show.  While blocks are being validated
    in the helpers (`pending`), those of the last complete pass, moved with
    the text: each is kept while the segment its line is on is still in the
    document (unchanged, maybe on other lines), and goes with it otherwise.
    So an edit that leaves many blocks to the helpers does not take every
    finding of the sentences it did not touch off the screen until they are
    done; the next complete pass replaces these."""
    last = state.last_pass
    if state.pending is None or last is None:
        return state.problems
    made_for = (store.version, state.generation)
    if state.moved is not None and state.moved[0] == made_for:
        return state.moved[1]
    present = {id(s) for s in store.segments}
    firsts = last.layout[2]
    moved: list[Problem] = []
    on_segment = {j: k for k, js in last.by_segment.items() for j in js}
    for j, problem in enumerate(last.problems):
        k = on_segment.get(j)
        if k is None:
            continue
        segment = last.segments[k]
        if id(segment) not in present:  # gone, or a new segment took its block
            segment = state.successors.get(id(segment))
            if segment is None or id(segment) not in present:
                continue
        moved.append(problem.shifted(segment.first_line - firsts[k]))
    state.moved = (made_for, moved)
    return moved


def _document_twins(problems: list[Problem], state: DocumentValidation) -> list[tuple[Problem, Problem]]:
    """The document-wide problems annoscore's own may take, as (p, p)."""
    kept = state.document_twins
    if kept is None or kept[0] is not problems:
        kept = state.document_twins = (problems, [(p, p) for p in problems if p.code in TWIN_IDS])
    return kept[1]


def twins(document: Any, state: DocumentValidation | None, fold_unparsed: bool = False) -> Twins | None:
    """The validation problems annoscore's own may take (see `twins`):
    (absolute problem, the problem kept) pairs; ``fold_unparsed``: not
    those folded under an ``unparsed`` diagnostic (see `unparsed_fold`)."""
    if state is None:
        return None
    store = document.store
    found = list(_document_twins(document_problems(store, state), state))
    for page in pages(store, state):
        found += page.unfolded_twins if fold_unparsed else page.twins
    return Twins(found, store.segment_at) if found else None


def unparsed_folds(document: Any, state: DocumentValidation | None,
                   shown: DiagnosticCap) -> dict[int, tuple[Problem, ...]]:
    """The findings that fold under each unparsed sentence's diagnostic, by
    the sentence's first line (absolute), without the codes turned off (see
    `unparsed_fold`; the document-wide checks report none of its ids)."""
    if state is None:
        return {}
    out: dict[int, tuple[Problem, ...]] = {}
    for page in pages(document.store, state):
        for line, problems in page.folds:
            if all(shown.enabled(p.code) for p in problems):
                out[line] = problems
            else:
                out[line] = tuple(p for p in problems if shown.enabled(p.code))
    return out


def add_problems(document: Any, state: DocumentValidation | None, shown: DiagnosticCap,
                 taken: Twins | None, fold_unparsed: bool = False) -> None:
    """The validation problems that annoscore's own did not take, to
    ``shown``; ``fold_unparsed``: but those folded under an ``unparsed``
    diagnostic (see `unparsed_folds`)."""
    if state is None:
        return
    taken_ids = taken.taken if taken is not None else set()
    listings: list[Listing] = []  # each page's, in order
    for page in pages(document.store, state):
        problems = page.unfolded if fold_unparsed else page.problems
        if not problems:
            continue
        page_twins = page.unfolded_twins if fold_unparsed else page.twins
        if taken_ids and page_twins and any(id(p) in taken_ids for p, _ in page_twins):
            listings.append(shown.listing([p for p in problems if id(p) not in taken_ids]))
            continue
        if problems is page.problems:
            listed = page.listed
            if listed is None or listed.settings is not shown.settings:
                listed = page.listed = shown.listing(problems)
        else:
            listed = page.listed_unfolded
            if listed is None or listed.settings is not shown.settings:
                listed = page.listed_unfolded = shown.listing(problems)
        listings.append(listed)
    # By runs of listings: a run none of whose problems would be shown (past
    # the limit) is counted at the cost of its codes, from its tally, kept
    # while the run is made of the same listings (see `DiagnosticCap.tally`).
    tallies = state.tallies
    for start in range(0, len(listings), TALLY_LISTINGS):
        run = listings[start:start + TALLY_LISTINGS]
        kept = tallies.get(start)
        if kept is None or len(kept[0]) != len(run) or not all(map(is_, kept[0], run)):
            kept = tallies[start] = (run, DiagnosticCap.tally(run))
        if not shown.count_tally(kept[1]):
            for listed in run:
                shown.add_listing(listed)
    for start in [k for k in tallies if k >= len(listings)]:
        del tallies[start]
    problems = document_problems(document.store, state)
    if problems:
        if taken_ids and any(id(p) in taken_ids for p, _ in _document_twins(problems, state)):
            shown.add_listing(shown.listing([p for p in problems if id(p) not in taken_ids]))
            return
        listed = state.problems_listed
        if listed is None or listed[0] is not problems or listed[1].settings is not shown.settings:
            listed = state.problems_listed = (problems, shown.listing(problems))
        shown.add_listing(listed[1])


def findings_on(document: Any, segment: Segment, start: int, end: int, twins: bool = True) -> list[Problem]:
    """The validator's findings on lines ``start`` .. ``end - 1`` (absolute,
    within ``segment``), with absolute lines: the segment's block's and the
    document-wide ones, the settings' exclusions applied (``twins`` False:
    without those that may be one of annoscore's own problems).  For the
    requests that look at one sentence (``annoscore/next``, the tree)."""
    state = getattr(document.results, "validation", None)
    if state is None:
        return []
    found: list[Problem] = []
    v = segment.validation
    if isinstance(v, SegmentValidation) and v.prepared is state.prepared:
        skip = set() if twins else {id(p) for p in v.twins}
        first = segment.first_line - v.joined
        found += [p.shifted(first) for p in v.problems if id(p) not in skip and start <= first + p.line < end]
    found += [p for p in document_problems(document.store, state)
              if start <= p.line < end and (twins or p.code not in TWIN_IDS)]
    return found
