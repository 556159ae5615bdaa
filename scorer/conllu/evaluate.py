"""Scoring a system CoNLL-U file against gold, the whole way through.

The system file is read as a stream; gold is read as far as pairing needs it
(see `gold.GoldFile`).  Each system sentence is paired (`pairing`), each
chunk of paired sentences is counted (`score`), and the counts are summed.

Most sentence pairs are simple (the same token lines, well formed on both
sides); they are queued and scored in batches straight from their text by
the bulk lane (`bulk`), which never builds a `Sentence` for them.  The
queue keeps the file's order: a pair the bulk lane turns down, or that
pairing would not pair by sent_id at that point, goes the ordinary way in
its place, so the result is the same as if every sentence had gone that way.

A chunk whose word alignment ends with words left over on one side is not
counted alone: the official scorer's walk would carry those words into the
next chunk, so the two are counted together (see `align`).  With
``annotated_only``, chunks holding a sentence that is not parsed yet are left
out *before* that joining, exactly as if they had never been in either file.

What is listed besides the counts: gold sentences missing from the system
file, system sentences not parsed yet, system sentences the official scorer
would refuse (with the reasons), and system sentences whose text is not
gold's.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from operator import attrgetter
from typing import Callable, Sequence

from ..excerpt import quoted
from ..gcpause import gc_paused
from ..problems import Problem
from ..stats import CalibrationTable, ThresholdReport
from .checks import tree_problems
from .confidence import CONF_COLUMNS, word_confidences
from .counts import Counts
from .gold import GoldFile
from .chunks import ChunkCounter, IdenticalBatch
from .pairing import Chunk, Mismatch, SentencePairer
from .plain_pairs import plain_pairs
from .parse import parse_blocks, read_comments
from .reader import ConlluFileReader
from .identical import identity_ready
from .score import (
    DEPREL_FULL_OK, FEATS_ALL_OK, HEAD_OK, LEMMA_OK, METRIC_BITS, UPOS_OK, XPOS_OK,
    ChunkScore, one_side_counts, score_chunk,
)
from .sentence import Sentence

# Which outcome bit says a predicted cell is right, for calibration.  A cell
# is judged as a whole: FEATS with all features (order ignored), DEPREL with
# its subtype.
CELL_BITS = {"UPOS": UPOS_OK, "XPOS": XPOS_OK, "LEMMA": LEMMA_OK, "FEATS": FEATS_ALL_OK,
             "HEAD": HEAD_OK, "DEPREL": DEPREL_FULL_OK}

CONTENT_ONLY_METRICS = ("CLAS", "MLAS", "BLEX")
# Called with each chunk's gold and system sentences once it is counted.
ChunkSink = Callable[[list[Sentence], list[Sentence]], None]
# Called with every counted unit, word outcomes included (`ChunkScore` with
# details): paired chunks, gold sentences missing from the prediction
# ([gold], []) and system sentences no gold text matched ([], [system]).
DetailSink = Callable[[list[Sentence], list[Sentence], ChunkScore], None]
LISTED = 10  # sentences kept per list beyond the counts (all are counted)
# System sentences queued for the bulk lane before it runs.  A batch's text
# and columns stay within a core's cache (2 MB here): with 256 sentences per
# batch, scoring a 15 MB pair missed that cache 1.7 times as often, and took
# 0.7% more instructions.
BULK_BATCH = 64


@dataclass
class ConlluOptions:
    strict: bool = False
    predicted_only: bool = False
    annotated_only: bool = False
    calibration: bool = False
    threshold: float | None = None
    # Keep, per gold word, whether it is right for this metric (--save-errors).
    outcome_metric: str | None = None
    # Keep each counted unit's counts (`ConlluResult.units`), for tests that
    # resample sentences (the paired tests of scorer.significance).
    units: bool = False

    @property
    def ignore_missing(self) -> bool:
        return self.predicted_only or self.annotated_only


@dataclass
class SentenceRef:
    sent_id: str | None
    line: int  # 0-based, the sentence's first line
    reasons: list[Problem] = field(default_factory=list)
    mismatch: Mismatch | None = None


@dataclass(slots=True)
class Unit:
    """What the evaluator counts in one go: usually one gold sentence and
    the system sentence paired with it, but a chunk whose alignment runs
    on holds several.  ``gold``: the gold sentences' indices in the gold
    file (empty for a system sentence that no gold text matched)."""

    gold: tuple[int, ...]
    counts: Counts


@dataclass
class RefList:
    """A count, and the first few items for the report."""

    count: int = 0
    items: list[SentenceRef] = field(default_factory=list)

    def add(self, ref: SentenceRef) -> None:
        self.count += 1
        if len(self.items) < LISTED:
            self.items.append(ref)


# The sentence lists of a result, by the file their lines are in.
SYSTEM_REFS = ("unparsed", "refused", "unmatched", "excluded", "conf_problems")
GOLD_REFS = ("missing", "gold_refused")


@dataclass
class ConlluResult:
    counts: Counts
    options: ConlluOptions
    gold_sentences: int = 0
    system_sentences: int = 0
    scored_system_sentences: int = 0
    scored_gold_sentences: int = 0
    missing: RefList = field(default_factory=RefList)
    unparsed: RefList = field(default_factory=RefList)
    refused: RefList = field(default_factory=RefList)
    gold_refused: RefList = field(default_factory=RefList)
    unmatched: RefList = field(default_factory=RefList)
    excluded: RefList = field(default_factory=RefList)
    # File-level problems (final blank line, encoding, ...), absolute lines.
    system_file_problems: list[Problem] = field(default_factory=list)
    gold_file_problems: list[Problem] = field(default_factory=list)
    conf_problems: RefList = field(default_factory=RefList)
    calibration: CalibrationTable | None = None
    threshold: ThresholdReport | None = None
    # Per gold word, in gold order: True/False for outcome_metric; None for a
    # word that metric does not score (CLAS etc. skip function words).
    outcomes: list[bool | None] | None = None
    # SHA-256 of the inputs when they were read whole.
    system_sha256: str | None = None
    gold_sha256: str | None = None
    # For scoring a file in parts (see server.parallel): whether the last
    # chunk's alignment ended with words left over, gold's sent_ids, the
    # system's (a list: a sent_id used twice must show), and the line ends
    # in each file's part (system, gold).
    ended_unclean: bool = False
    gold_ids: set[str] | None = None
    system_ids: list[str] | None = None
    part_lines: tuple[int, int] | None = None
    # With ConlluOptions.units: every counted unit in the order counted;
    # their counts add up to ``counts``.
    units: list[Unit] | None = None
    # Whether the gold sentences were counted in gold's order, one after the
    # other: the official scorer reads each file as one running text, so a
    # prediction in another order is refused even where pairing by sent_id
    # scores it.
    gold_in_order: bool = True
    # Sentences none of whose token lines could be read (not ten columns, no
    # word ID: text that is not CoNLL-U), and the first such line's problem
    # (absolute lines).  When every sentence of a file is so, the file is not
    # CoNLL-U and the command line says so (`unreadable_file`).
    system_unreadable: int = 0
    gold_unreadable: int = 0
    system_unreadable_first: Problem | None = None
    gold_unreadable_first: Problem | None = None

    def unreadable_file(self) -> tuple[str, Problem] | None:
        """("system" or "gold", the first problem) when no sentence of that
        file could be read, else None."""
        for side, total, bad, first in (
                ("system", self.system_sentences, self.system_unreadable, self.system_unreadable_first),
                ("gold", self.gold_sentences, self.gold_unreadable, self.gold_unreadable_first)):
            if total and bad == total and first is not None:
                return side, first
        return None

    def move_down(self, system_lines: int, gold_lines: int) -> None:
        """Move every line number this many lines down: for a part scored
        from its own first line, once the lines before it are known."""
        for name in SYSTEM_REFS + GOLD_REFS:
            lines = gold_lines if name in GOLD_REFS else system_lines
            for ref in getattr(self, name).items:
                ref.line += lines
                ref.reasons = [p.shifted(lines) for p in ref.reasons]
        self.system_file_problems = [p.shifted(system_lines) for p in self.system_file_problems]
        self.gold_file_problems = [p.shifted(gold_lines) for p in self.gold_file_problems]
        if self.system_unreadable_first is not None:
            self.system_unreadable_first = self.system_unreadable_first.shifted(system_lines)
        if self.gold_unreadable_first is not None:
            self.gold_unreadable_first = self.gold_unreadable_first.shifted(gold_lines)

    @property
    def official_would_refuse(self) -> bool:
        """What the official scorer does with the two files as given,
        whatever the options: it refuses a file it cannot read (a refusing
        problem, a HEAD `_`) and a pair whose texts differ (a gold sentence
        missing, a predicted one not in gold, another order)."""
        return bool(self.refused.count or self.unmatched.count or self.gold_refused.count
                    or self.missing.count or self.unparsed.count or self.excluded.count
                    or not self.gold_in_order
                    or any(p.refuses for p in self.system_file_problems + self.gold_file_problems))


# Problems that mean a token line could not be read as one.
_UNREAD_CODES = frozenset({"format-columns", "format-id"})


def unreadable_problem(sentence: Sentence) -> Problem | None:
    """The first problem of a sentence none of whose token lines could be
    read as a CoNLL-U line (absolute line), or None."""
    bad: dict[int, Problem] = {}
    for p in sentence.problems:
        if p.code in _UNREAD_CODES:
            bad.setdefault(p.line, p)
    if not bad:
        return None
    for k, line in enumerate(sentence.lines):
        if line and not line.startswith("#") and k not in bad:
            return None
    first = bad[min(bad)]
    shown = replace(first, message=f"{first.message}: {quoted(sentence.lines[first.line])}")
    return shown.shifted(sentence.first_line)


def unreadable_message(path: str, problem: Problem) -> str:
    """One line for a file no sentence of which could be read."""
    return (f"{problem.location(path)}: not CoNLL-U: no sentence of this file could be read "
            f"(the official scorer refuses it): {problem.message}")


def _ref(sentence: Sentence, reasons: Sequence[Problem] = ()) -> SentenceRef:
    return SentenceRef(sentence.sent_id, sentence.first_line,
                       [p.shifted(sentence.first_line) for p in reasons])


class ConlluEvaluator:
    """Feed system sentences; read the result when done (`evaluate_files` does both).

    Chunks are counted by the shared rules (`chunks.ChunkCounter`); this
    class is their sink: it counts each chunk, and keeps the sentence lists,
    per-word outcomes and confidence tables of the report."""

    def __init__(self, gold: GoldFile, options: ConlluOptions,
                 chunk_sink: ChunkSink | None = None, detail_sink: DetailSink | None = None) -> None:
        self.gold = gold
        self.options = options
        self.chunk_sink = chunk_sink
        self.detail_sink = detail_sink
        self.result = ConlluResult(Counts(), options)
        if options.units:
            self.result.units = []
        self.pairer = SentencePairer(gold)
        self.counter: ChunkCounter[Sentence] = ChunkCounter(
            self, options.annotated_only, options.ignore_missing, attrgetter("has_missing_heads"))
        self._details = (options.calibration or options.threshold is not None or bool(options.outcome_metric)
                         or detail_sink is not None)
        if options.calibration:
            self.result.calibration = CalibrationTable()
        if options.threshold is not None:
            self.result.threshold = ThresholdReport(options.threshold)
        self._outcomes: dict[int, list[bool | None]] = {}
        self._identical: IdenticalBatch[None] = IdenticalBatch()
        self._conf: dict[int, list[dict[str, float] | None]] = {}  # per system sentence id()
        # The bulk lane needs nothing per word beyond counts.
        self.bulk = not self._details and chunk_sink is None
        self._queue: list[tuple[int, str]] = []  # system blocks (first line, text)
        self._next_gold = 0  # the gold sentence the official walk takes next

    # --- gold ------------------------------------------------------------------

    def on_gold_sentence(self, index: int, sentence: Sentence) -> None:
        problems = [p for p in sentence.problems if p.refuses]
        problems += [p for p in tree_problems(sentence) if p.refuses]
        if problems:
            self.result.gold_refused.add(_ref(sentence, problems))
            unread = unreadable_problem(sentence)
            if unread is not None:
                self.result.gold_unreadable += 1
                self.result.gold_unreadable_first = self.result.gold_unreadable_first or unread

    # --- system ----------------------------------------------------------------

    def feed_block(self, first_line: int, body: str) -> None:
        """A system sentence block as read from the file (see `feed`)."""
        if not self.bulk:
            for sentence in parse_blocks(body, first_line):
                self.feed(sentence)
            return
        self._queue.append((first_line, body))
        if len(self._queue) >= BULK_BATCH:
            self._run_queue()

    def _run_queue(self) -> None:
        """Score the queued blocks: through the bulk lane where pairing would
        pair them by sent_id, the ordinary way otherwise, in file order."""
        queue, self._queue = self._queue, []
        gold = self.gold
        candidates: list[tuple[int, int]] = []  # (queue position, gold index)
        system_lines: list[str | None] = []     # their token lines
        gold_lines: list[str | None] = []
        for position, (_, body) in enumerate(queue):
            # (A block split by a line of whitespace never passes the bulk
            # checks: such a line has no ID.)
            if not body.startswith("#"):
                continue
            sent_id, start = read_comments(body)
            if sent_id is None:
                continue
            index = gold.find(sent_id)
            if index is not None and gold.body(index) is not None:
                candidates.append((position, index))
                system_lines.append(None if start < 0 else body[start:])
                gold_lines.append(gold.token_lines(index))
        batch = plain_pairs(system_lines, gold_lines)
        chosen = [False] * len(candidates)
        units = self.result.units
        each = batch.counts_each() if units is not None else None  # per passed pair
        result = self.result
        c = 0
        for position, (first_line, body) in enumerate(queue):
            if c < len(candidates) and candidates[c][0] == position:
                k, c = c, c + 1
                index = candidates[k][1]
                if batch.passed[k] and self.counter.idle and self.pairer.can_claim(index):
                    self.pairer.claim(index)
                    self._in_order(index, index)
                    if result.system_ids is not None:
                        result.system_ids.append(gold.sent_ids[index])  # found by this sent_id
                    gold.take_clean(index)
                    chosen[k] = True
                    result.system_sentences += 1
                    result.scored_gold_sentences += 1
                    result.scored_system_sentences += 1
                    if each is not None:
                        units.append(Unit((index,), each[k]))  # type: ignore[union-attr, arg-type]
                    continue
            for sentence in parse_blocks(body, first_line):
                self.feed(sentence)
        if each is not None:  # (the chosen pairs' units are in `units` already)
            self.result.counts += sum((each[k] for k in range(len(each)) if chosen[k]), Counts())  # type: ignore[misc]
        else:
            self._add(batch.counts(chosen))

    def feed(self, sentence: Sentence) -> None:
        result = self.result
        result.system_sentences += 1
        if result.system_ids is not None and sentence.sent_id is not None:
            result.system_ids.append(sentence.sent_id)
        tree = tree_problems(sentence)
        reasons = [p for p in sentence.problems if p.refuses] + [p for p in tree if p.refuses]
        if sentence.is_unparsed:
            result.unparsed.add(_ref(sentence))
        elif reasons:
            result.refused.add(_ref(sentence, reasons))
        if reasons or sentence.is_unparsed:
            unread = unreadable_problem(sentence)
            if unread is not None:
                result.system_unreadable += 1
                result.system_unreadable_first = result.system_unreadable_first or unread
        if self.result.calibration is not None or self.result.threshold is not None:
            confidences, problems = word_confidences(sentence)
            self._conf[id(sentence)] = confidences
            for problem in problems:
                result.conf_problems.add(SentenceRef(sentence.sent_id, sentence.first_line,
                                                     [problem.shifted(sentence.first_line)]))
        for chunk in self.pairer.feed(sentence):
            self.counter.handle(chunk)

    def finish(self, system_file_problems: list[Problem]) -> ConlluResult:
        if self._queue:
            self._run_queue()
        for chunk in self.pairer.finish():
            self.counter.handle(chunk)
        self.result.ended_unclean = self.counter.finish()
        self._identical.flush()
        result = self.result
        result.counts += self._identical.total
        result.gold_sentences = self.gold.count()
        result.system_file_problems = system_file_problems
        result.gold_file_problems = self.gold.reader.problems
        if self.options.outcome_metric:
            result.outcomes = [o for k in sorted(self._outcomes) for o in self._outcomes[k]]
        return result

    # --- the sink of the chunk counter (see chunks.CountingSink) -------------------

    def count(self, gold_indices: list[int], system: list[Sentence], final: bool) -> bool:
        if len(gold_indices) == 1 and len(system) == 1 and not self._details and self.result.units is None:
            sentence = self.gold.get(gold_indices[0])
            if identity_ready(sentence, system[0]):
                self._identical.add(sentence, system[0], None)
                if self.chunk_sink is not None:
                    self.chunk_sink([sentence], system)
                self._scored(gold_indices, system)
                return True
        gold = [self.gold.get(k) for k in gold_indices]
        scored = score_chunk(gold, system, self._details)
        if not scored.clean and not final:
            return False
        self._add(scored.counts, tuple(gold_indices))
        if self.chunk_sink is not None:
            self.chunk_sink(gold, system)
        if self.detail_sink is not None:
            self.detail_sink(gold, system, scored)
        if self._details:
            self._use_details(gold_indices, gold, system, scored)
        self._scored(gold_indices, system)
        return True

    def exclude(self, chunk: Chunk) -> None:
        for s in chunk.system:
            self.result.excluded.add(_ref(s))
        for k in chunk.gold:
            self.gold.release(k)

    def unmatched(self, chunk: Chunk) -> None:
        for s in chunk.system:
            self.result.unmatched.add(SentenceRef(s.sent_id, s.first_line, [], chunk.mismatch))
            self._one_side([], [s], ())

    def missing(self, k: int, counted: bool) -> None:
        sentence = self.gold.get(k)
        self.result.missing.add(_ref(sentence))
        if counted:
            self._one_side([sentence], [], (k,))
            if self.options.outcome_metric:
                self._outcomes[k] = self._missing_outcomes(sentence)
        self.gold.release(k)

    def _in_order(self, first: int, last: int) -> None:
        """Gold sentences ``first``..``last`` are counted next."""
        if first != self._next_gold:
            self.result.gold_in_order = False
        self._next_gold = last + 1

    def _scored(self, gold_indices: list[int], system: list[Sentence]) -> None:
        if gold_indices:
            self._in_order(min(gold_indices), max(gold_indices))
        self.result.scored_gold_sentences += len(gold_indices)
        self.result.scored_system_sentences += len(system)
        for k in gold_indices:
            self.gold.release(k)
        for s in system:
            self._conf.pop(id(s), None)

    def _one_side(self, gold: list[Sentence], system: list[Sentence], gold_indices: tuple[int, ...]) -> None:
        """A sentence with nothing on the other side: it only adds to the totals."""
        if self.detail_sink is not None:
            scored = score_chunk(gold, system, details=True)
            self._add(scored.counts, gold_indices)
            self.detail_sink(gold, system, scored)
        else:
            self._add(one_side_counts((gold or system)[0], gold=bool(gold)), gold_indices)

    def _add(self, counts: Counts, gold_indices: tuple[int, ...] | None = None) -> None:
        """Add to the totals; ``gold_indices``: the gold sentences of one
        unit (None for the sum of many, which never happens with units on)."""
        self.result.counts += counts
        if self.result.units is not None and gold_indices is not None:
            self.result.units.append(Unit(gold_indices, counts))

    # --- per-word details ------------------------------------------------------

    def _missing_outcomes(self, sentence: Sentence) -> list[bool | None]:
        metric = self.options.outcome_metric
        if metric in CONTENT_ONLY_METRICS:
            content = _content_flags(sentence)
            return [False if c else None for c in content]
        return [False] * len(sentence.form)

    def _use_details(self, gold_indices: list[int], gold: list[Sentence],
                     system: list[Sentence], scored: ChunkScore) -> None:
        assert scored.outcomes is not None and scored.unaligned_system is not None
        metric = self.options.outcome_metric
        if metric:
            bit = METRIC_BITS.get(metric)
            per_sentence: dict[int, list[bool | None]] = {k: [] for k in gold_indices}
            content_only = metric in CONTENT_ONLY_METRICS
            content = [_content_flags(s) for s in gold] if content_only else None
            for o in scored.outcomes:
                k = gold_indices[o.gold_sentence]
                if content_only and not content[o.gold_sentence][o.gold_word]:
                    per_sentence[k].append(None)
                elif bit is None:  # Words: aligned or not
                    per_sentence[k].append(o.system_sentence >= 0)
                else:
                    per_sentence[k].append(bool(o.mask & bit))
            self._outcomes.update(per_sentence)
        calibration, threshold = self.result.calibration, self.result.threshold
        if calibration is None and threshold is None:
            return
        for o in scored.outcomes:
            if o.system_sentence < 0:
                continue
            confidences = self._conf.get(id(system[o.system_sentence]))
            conf = confidences[o.system_word] if confidences else None
            if conf:
                self._add_cells(conf, o.mask)
        for sk, sw in scored.unaligned_system:
            confidences = self._conf.get(id(system[sk]))
            conf = confidences[sw] if confidences else None
            if conf:
                self._add_cells(conf, 0)

    def _add_cells(self, conf: dict[str, float], mask: int) -> None:
        calibration, threshold = self.result.calibration, self.result.threshold
        for column in CONF_COLUMNS:
            value = conf.get(column)
            if value is None:
                continue
            correct = bool(mask & CELL_BITS[column])
            if calibration is not None:
                calibration.add(column, value, correct)
            if threshold is not None:
                threshold.add(value, correct)


def _content_flags(sentence: Sentence) -> list[bool]:
    from .relations import BASE_DEPREL, CONTENT_DEPRELS
    return [BASE_DEPREL[d] in CONTENT_DEPRELS for d in sentence.deprel]


ProgressCallback = Callable[[int, int], None]


Part = tuple[int, "int | None", int]  # start byte, end byte (None: to the end), first line


def evaluate_files(system_path: str | os.PathLike[str], gold_path: str | os.PathLike[str],
                   options: ConlluOptions | None = None,
                   progress: ProgressCallback | None = None,
                   chunk_sink: ChunkSink | None = None,
                   system_part: Part | None = None, gold_part: Part | None = None,
                   bulk: bool = True, detail_sink: DetailSink | None = None) -> ConlluResult:
    """Score a system file against a gold file.  Raises OSError and
    reader.BinaryFileError for files that cannot be read at all.

    ``bulk=False`` sends every sentence the ordinary way (the tests compare
    the two).

    ``system_part`` and ``gold_part`` score a part of each file (see
    server.parallel, which checks that the parts can be scored apart).

    ``detail_sink`` receives every counted unit with its word outcomes
    (see `DetailSink`; scorer.conllu.breakdown uses it).
    """
    options = options or ConlluOptions()
    evaluator_ref: list[ConlluEvaluator] = []
    gold = GoldFile(gold_path, on_sentence=lambda i, s: evaluator_ref[0].on_gold_sentence(i, s),
                    part=gold_part)
    evaluator = ConlluEvaluator(gold, options, chunk_sink, detail_sink)
    evaluator.bulk = evaluator.bulk and bulk
    evaluator_ref.append(evaluator)
    if system_part is not None:
        evaluator.result.system_ids = []
    start, end, first_line = system_part or (0, None, 0)
    reader = ConlluFileReader(system_path, start=start, end=end, first_line=first_line)
    total = (end if end is not None else os.path.getsize(system_path)) - start if progress else 0
    with gc_paused():
        for n, (first_line, body) in enumerate(reader.blocks()):
            evaluator.feed_block(first_line, body)
            if progress is not None and n % 512 == 0:
                progress(reader.bytes_read - start, total)
        result = evaluator.finish(reader.problems)
    result.system_sha256 = reader.sha256
    result.gold_sha256 = gold.reader.sha256
    if system_part is not None:
        result.gold_ids = {i for i in gold.sent_ids if i is not None}
        result.part_lines = (reader.lines, gold.reader.lines)  # type: ignore[assignment]
    return result


def merge_results(parts: list[ConlluResult]) -> ConlluResult:
    """One result from the results of consecutive parts of the same files."""
    first = parts[0]
    merged = ConlluResult(Counts(), first.options)
    gold_before = 0  # a part numbers its gold sentences from 0
    for part in parts:
        merged.counts += part.counts
        if part.units is not None:
            merged.units = (merged.units or []) + [
                Unit(tuple(k + gold_before for k in unit.gold), unit.counts) for unit in part.units]
        gold_before += part.gold_sentences
        for name in ("gold_sentences", "system_sentences", "scored_system_sentences",
                     "scored_gold_sentences"):
            setattr(merged, name, getattr(merged, name) + getattr(part, name))
        for name in SYSTEM_REFS + GOLD_REFS:
            mine, theirs = getattr(merged, name), getattr(part, name)
            mine.count += theirs.count
            mine.items.extend(theirs.items[:max(0, LISTED - len(mine.items))])
        merged.system_file_problems += part.system_file_problems
        merged.gold_in_order = merged.gold_in_order and part.gold_in_order
        merged.system_unreadable += part.system_unreadable
        merged.gold_unreadable += part.gold_unreadable
        merged.system_unreadable_first = merged.system_unreadable_first or part.system_unreadable_first
        merged.gold_unreadable_first = merged.gold_unreadable_first or part.gold_unreadable_first
        merged.gold_file_problems += part.gold_file_problems
        if part.calibration is not None:
            if merged.calibration is None:
                merged.calibration = CalibrationTable()
            merged.calibration.merge(part.calibration)
        if part.threshold is not None:
            if merged.threshold is None:
                merged.threshold = ThresholdReport(part.threshold.threshold)
            merged.threshold.merge(part.threshold)
        if part.outcomes is not None:
            merged.outcomes = (merged.outcomes or []) + part.outcomes
    merged.ended_unclean = parts[-1].ended_unclean
    return merged
