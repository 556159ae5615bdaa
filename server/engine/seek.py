"""The next (or previous) place of a kind, from the engine's own results
(``annoscore/next``).

Navigating by the published diagnostics stops where they stop: past
``maxDiagnostics`` per code nothing is published, and publishing every one
freezes editors.  Here the places are found from what the engine keeps for
every sentence — `SentenceInfo` (problems, refused, unparsed, the number of
low-confidence cells, the problems found against gold) and the score's
pairing — so every one of them is reachable, however many there are, and
the answer says when there is no further one (it never wraps around).

A *kind* is one function, registered with `kind`: given a sentence (a
`SentenceView`) it returns that sentence's places, as problems with lines
relative to the sentence.  A kind that cannot answer for some documents
(against gold without gold; ``validation`` when validation is off) says
why with ``unavailable``: the answer is then "none", with that reason.  The sentences are walked from the cursor's, in
the direction asked, through the document's segments; most kinds look at an
attribute of the info first (``info.low``, ``info.refused``), so a walk
over 60,000 sentences that finds nothing costs some milliseconds (a kind
can make that look for one document: ``wanted_in``).  To add a kind, write
its function here (see `KINDS`).  The ``validation`` kind reads the UD
validator's findings kept on each segment, and the document-wide ones; the
``error`` kind takes the validator's errors too.

Sentences edited since the last rescore have fresh infos (analysed here,
not kept) and nothing against gold yet: kinds against gold skip them until
the rescore.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Iterable, Iterator, Sequence

from annoscore.scorer.conllu.checks import cycle_marks
from annoscore.scorer.conllu.pairing import PAIRED
from annoscore.scorer.conllu.score import score_chunk
from annoscore.scorer.conllu.sentence import Sentence
from annoscore.scorer.problems import Problem, Severity

from ..config import severity_for
from ..textstore import Segment, TextStore
from .conllu.analysis import SentenceInfo, analyze_segment
from .conllu.handler import results_of
from .conllu.index import SentenceIndex
from .conllu.messages import gold_diff
from .conllu.score import IncrementalScore
from .conllu.validation import findings_on
from .splits import TEST_SPLIT_MESSAGE

DIRECTIONS = ("next", "previous")


def _anything(info: SentenceInfo, segment: Segment) -> bool:
    return True


def _always_available(document) -> str | None:
    return None


@dataclass
class Kind:
    name: str
    place: str                 # what one place is, in messages ("low-confidence word")
    description: str           # what a place of this kind is (README, errors)
    places: Callable[["SentenceView"], Iterable[Problem]]
    # Why the kind cannot answer for a document (None: it can).
    unavailable: Callable[[object], str | None] = _always_available
    # How many there are in the document, from its SentenceIndex, and of what.
    count: Callable[[SentenceIndex], int] | None = None
    counted: str = ""
    # A quick look at a sentence's info (and segment): False when it cannot
    # have a place, so that a long walk makes no view for it.
    wanted: Callable[[SentenceInfo, Segment], bool] = _anything
    # Or that quick look made for one document (before a walk); None: ``wanted``.
    wanted_in: Callable[[object], Callable[[SentenceInfo, Segment], bool] | None] | None = None


KINDS: dict[str, Kind] = {}


def kind(name: str, place: str, description: str,
         unavailable: Callable[[object], str | None] = _always_available,
         count: Callable[[SentenceIndex], int] | None = None, counted: str = "",
         wanted: Callable[[SentenceInfo, Segment], bool] = _anything,
         wanted_in: Callable[[object], Callable[[SentenceInfo, Segment], bool] | None] | None = None):
    """Register a function ``(SentenceView) -> problems (relative lines)`` as a kind."""
    def register(function: Callable[["SentenceView"], Iterable[Problem]]):
        KINDS[name] = Kind(name, place, description, function, unavailable, count, counted, wanted, wanted_in)
        return function
    return register


class SentenceView:
    """One sentence as the kinds see it: its info, and what the engine has
    for it against gold (only when the pairing was made from this info)."""

    __slots__ = ("engine", "document", "info", "score", "settings", "between", "_sentence")

    def __init__(self, engine, document, info: SentenceInfo, score: IncrementalScore | None,
                 between: Sequence[Problem]) -> None:
        self.engine, self.document, self.info, self.score = engine, document, info, score
        self.settings = engine.settings
        # The problems between sentences (blank lines …) just before it, absolute lines.
        self.between = between
        self._sentence: Sentence | None = None

    @property
    def paired(self) -> bool:
        """Whether the score's pairing is up to date with this sentence."""
        score, info = self.score, self.info
        return score is not None and 0 <= info.position < len(score.system) and score.system[info.position] is info

    def sentence(self) -> Sentence:
        if self._sentence is None:
            self._sentence = self.info.parse()
        return self._sentence

    def shown(self, problem: Problem) -> Severity | None:
        """The problem's severity in the user's settings (None: turned off)."""
        return severity_for(self.settings, problem.code, problem.severity)


# --- the kinds ----------------------------------------------------------------------


def _without_gold(document) -> str | None:
    """(For the kinds against gold.)"""
    if results_of(document).score is not None:
        return None
    if document.gold_withheld:
        return f"gold is a declared test split ({TEST_SPLIT_MESSAGE})"
    return "this document has no gold" if document.setup.gold is None else "it is not scored against gold yet"


@kind("low-confidence", "low-confidence word", "a word with a cell whose Conf= is below the threshold "
      "(one place per word, or per cell with lowConfidence = cell)",
      count=lambda index: index.low, counted="low-confidence cells", wanted=lambda info, _: info.low > 0)
def _low_confidence(view: SentenceView) -> Iterable[Problem]:
    if not view.info.low:
        return ()
    settings = view.settings
    return view.info.low_problems(settings.threshold, settings.low_confidence == "word")


@kind("refused", "refused sentence", "a sentence the official scorer would refuse (a cycle, several roots, "
      "a missing HEAD, a format problem …; not the unparsed ones): its first refusing problem",
      count=lambda index: index.refused, counted="refused sentences",
      wanted=lambda info, _: info.refused and not info.unparsed)
def _refused(view: SentenceView) -> Iterable[Problem]:
    info = view.info
    if not info.refused or info.unparsed:
        return ()
    return [p for p in info.problems if p.refuses][:1]


@kind("unparsed", "unparsed sentence", "a sentence not parsed yet (every HEAD is _): its first word",
      count=lambda index: index.unparsed, counted="unparsed sentences", wanted=lambda info, _: info.unparsed)
def _unparsed(view: SentenceView) -> Iterable[Problem]:
    if not view.info.unparsed:
        return ()
    return [p for p in view.info.problems if p.code == "unparsed"][:1]


@kind("segmentation-mismatch", "segmentation mismatch", "a word not aligned with gold's because the "
      "tokenization differs, or a sentence boundary where gold has none (segmentation-mismatch, "
      "sentence-boundary)", unavailable=_without_gold, wanted=lambda info, _: bool(info.pair_problems))
def _segmentation(view: SentenceView) -> Iterable[Problem]:
    if not view.info.pair_problems or not view.paired:
        return ()
    return [p for p in view.info.pair_problems if p.code in ("segmentation-mismatch", "sentence-boundary")]


@kind("gold-diff", "cell that differs from gold", "a cell (UPOS, XPOS, LEMMA, FEATS, HEAD, DEPREL) that "
      "differs from gold's, whether or not goldDiff shows them", unavailable=_without_gold)
def _gold_diff(view: SentenceView) -> Iterable[Problem]:
    if not view.paired:
        return ()
    shown = [p for p in view.info.pair_problems if p.code == "gold-diff"]
    if shown or view.score.settings.gold_diff:  # (made by the pairing already)
        return shown
    return _gold_differences(view)


def _not_compared(document) -> str | None:
    """(For the disagreement kind.)"""
    if getattr(document, "agreement", None):
        return None
    return "this document is not compared with another annotation ([agreement] others, or Compare with " \
        "another annotation…)"


@kind("disagreement", "cell another annotation fills otherwise", "a cell (UPOS, XPOS, LEMMA, FEATS, HEAD, "
      "DEPREL, DEPS) that another annotation of the same text gives another value (`disagreement`)",
      unavailable=_not_compared)
def _disagreements(view: SentenceView) -> Iterable[Problem]:
    from . import agreement
    return agreement.sentence_problems(view.engine, view.document, view.info)


def _has_error(info: SentenceInfo, segment: Segment) -> bool:
    return bool(info.problems or info.pair_problems or segment.problems)


def _error_wanted(document) -> Callable[[SentenceInfo, Segment], bool] | None:
    if results_of(document).validation is None:
        return None
    found = _validation_wanted(document)
    return lambda info, segment: _has_error(info, segment) or found(info, segment)


@kind("error", "error", "any problem of severity error (in the user's severities): refused trees, "
      "format problems, text that is not gold's, the UD validator's errors …",
      wanted=_has_error, wanted_in=_error_wanted)
def _errors(view: SentenceView) -> Iterable[Problem]:
    info = view.info
    problems: list[Problem] = list(view.between)
    for p in info.problems:
        problems += cycle_marks(p) if p.code == "cycle" else [p]
    if view.paired:
        problems += info.pair_problems
    if results_of(view.document).validation is not None:  # (without those that are annoscore's too)
        problems += _findings(view, twins=False)
    return [p for p in problems if view.shown(p) == Severity.ERROR]


VALIDATION_OFF = "UD validation is off (validation.level is 0)"
VALIDATION_PENDING = "the first UD validation of this document is not done yet"


def _validation_unavailable(document) -> str | None:
    """Why the ``validation`` kind cannot answer: validation is off, or a
    large document's first validation is still in the helpers."""
    state = results_of(document).validation
    if state is None:
        return VALIDATION_OFF
    return VALIDATION_PENDING if state.pending is not None else None


def _validation_wanted(document) -> Callable[[SentenceInfo, Segment], bool]:
    """The segments with a finding: their own, or a document-wide one on
    one of their lines (a sent_id used twice …)."""
    state = results_of(document).validation
    store = document.store
    with_wide = {id(store.segments[store.segment_at(p.line)]) for p in state.problems} if state else set()
    return lambda info, segment: bool(getattr(segment.validation, "problems", None)) or id(segment) in with_wide


def _findings(view: SentenceView, twins: bool = True) -> list[Problem]:
    """The validator's findings on the sentence's lines (lines relative to
    it; ``twins`` False: without those that may be one of annoscore's own)."""
    info, segment = view.info, view.info.segment
    infos = _infos(segment, view.settings.threshold)
    # The sentence's lines: the first one takes the block's lines before it (a byte-order mark's).
    start = info.first_line if info.index else segment.first_line - int(getattr(segment.validation, "joined", 0))
    end = infos[info.index + 1].first_line if info.index + 1 < len(infos) else segment.first_line + segment.n_lines
    return [replace(p, line=max(p.line, info.first_line) - info.first_line)
            for p in findings_on(view.document, segment, start, end, twins) if view.shown(p) is not None]


@kind("validation", "validation problem", "a finding of the UD validator (levels 1-5, as `annoscore check` "
      "reports it): one place per finding, errors and warnings", unavailable=_validation_unavailable,
      wanted_in=_validation_wanted)
def _validation(view: SentenceView) -> Iterable[Problem]:
    """The UD validator's findings in one sentence, lines relative to it:
    its segment's (the block's validation kept on it) and the
    document-wide ones on its lines, as the diagnostics show them (a
    finding that annoscore reports too is one place, at the validator's)."""
    return _findings(view)


# --- gold differences when the pairing did not make them --------------------------------


def _gold_differences(view: SentenceView) -> list[Problem]:
    """The ``gold-diff`` problems of a sentence, made as the pairing makes
    them with goldDiff on: its unit aligned and compared word by word."""
    score, info = view.score, view.info
    u = score.unit_of[info.position] if info.position < len(score.unit_of) else -1
    if u < 0 or score.units[u].kind != PAIRED:
        return []
    unit = score.units[u]
    systems = [view.sentence() if k == info.position else score.system[k].parse() for k in unit.system]
    golds = [score.gold[g].parse() for g in unit.gold]
    k = unit.system.index(info.position)
    if len(golds) == 1 and len(systems) == 1 and _same_annotation(golds[0], systems[0]):
        return []
    scored = score_chunk(golds, systems, details=True)
    system_words = scored.system_words()
    out: list[Problem] = []
    for outcome in scored.outcomes or ():
        if outcome.system_sentence != k:
            continue
        gold = golds[outcome.gold_sentence]
        head = scored.head_in_system(gold, outcome.gold_sentence, outcome.gold_word, k, system_words)
        out += gold_diff(gold, outcome.gold_word, systems[k], outcome.system_word, outcome.mask, head)
    out.sort(key=lambda p: (p.line, p.start))
    return out


def _same_annotation(gold: Sentence, system: Sentence) -> bool:
    """The same words with the same cells (what gold-diff compares): nothing differs."""
    return (gold.form == system.form and gold.upos == system.upos and gold.xpos == system.xpos
            and gold.lemma == system.lemma and gold.feats == system.feats and gold.head == system.head
            and gold.deprel == system.deprel and not gold.mwts and not system.mwts)


# --- walking the document ----------------------------------------------------------------


@dataclass
class Found:
    kind: str
    direction: str
    line: int | None = None       # None: nothing further
    start: int = 0
    end: int = 0
    message: str = ""
    sent_id: str | None = None
    total: int | None = None      # how many there are in the document, when known


def find(engine, key: str, line: int, column: int, name: str, direction: str = "next") -> Found | None:
    """The nearest place of kind ``name`` after (before) ``(line, column)`` —
    strictly, so that asking again from the place moves on — or a `Found`
    whose ``line`` is None, with the reason in ``message``.  None when the
    document is not an open CoNLL-U one."""
    document = engine.documents.get(key)
    if document is None or document.format != "conllu" or not isinstance(document.store, TextStore):
        return None
    chosen = KINDS[name]
    results = results_of(document)
    total = chosen.count(results.sentences) if chosen.count is not None and results.sentences is not None \
        and not document.edits else None
    why = chosen.unavailable(document)
    if why is not None:
        return Found(name, direction, message=f"no {chosen.place}: {why}", total=total)
    forward = direction == "next"
    wanted = (chosen.wanted_in(document) if chosen.wanted_in is not None else None) or chosen.wanted
    for segment, info, between in _sentences(engine, document, line, forward):
        if not wanted(info, segment):
            continue
        view = SentenceView(engine, document, info, results.score, _between(segment, info) if between else ())
        first = info.first_line
        places = sorted((first + p.line, p.start, p.end, p.message) for p in chosen.places(view))
        if not forward:
            places.reverse()
        for where in places:
            if (where[:2] > (line, column)) if forward else (where[:2] < (line, column)):
                return Found(name, direction, where[0], where[1], where[2], where[3], view.info.sent_id, total)
    side = "below" if forward else "above"
    counted = chosen.counted[:-1] if total == 1 else chosen.counted  # ("1 refused sentence")
    found = f" ({total:,} {counted} in the document)" if total else ""
    return Found(name, direction, message=f"no further {chosen.place} {side} line {line + 1}{found}", total=total)


def _sentences(engine, document, line: int, forward: bool) -> Iterator[tuple[Segment, SentenceInfo, bool]]:
    """The document's sentences from the one at (or nearest to) ``line`` on,
    forward or backward: (segment, info, whether the segment's problems
    between sentences go with it — its first sentence's)."""
    store = document.store
    segments = store.segments
    if not segments:
        return
    threshold = engine.settings.threshold
    k = store.segment_at(line)
    order = range(k, len(segments)) if forward else range(k, -1, -1)
    for s in order:
        segment = segments[s]
        if not segment.has_block:
            continue
        infos = _infos(segment, threshold)
        if forward:
            for n, info in enumerate(infos):
                yield segment, info, n == 0 and bool(segment.problems)
        else:
            for n in range(len(infos) - 1, -1, -1):
                yield segment, infos[n], n == 0 and bool(segment.problems)


def _infos(segment: Segment, threshold: float) -> list[SentenceInfo]:
    analysis = segment.analysis
    if analysis is not None and analysis[0] == threshold:
        return analysis[1]  # type: ignore[return-value]
    return analyze_segment(segment, threshold)[0]


def _between(segment: Segment, first: SentenceInfo) -> list[Problem]:
    """A segment's problems between sentences (absolute lines), with lines
    relative to its first sentence."""
    return [replace(p, line=p.line - first.first_line) for p in segment.problems]
