"""CoNLL-U documents in the engine: rescoring, diagnostics, score, report.

The engine (`server.engine.engine`) keeps documents and their lifecycle; for
a CoNLL-U document it calls this handler, which keeps the document's
results (`ConlluResults`): the index of its analysed sentences and, with
gold, its `IncrementalScore`.

A rescore validates the blocks the edits made (UD validation, see
`validation`; a first validation of many blocks goes to helper processes
meanwhile), then looks at the edits since the last one (`_patch`): each
edit's new segments are analysed and put where the removed ones were in the
index.  When every edit kept the number of sentences, the score is brought
up to date in place (the same pairing: count the edited units again; or
pair again around the edit); otherwise, or without an index yet, a whole
pass, which a large file makes in two processes (`parts`).

Memory: a whole pass makes about a million objects that live as long as the
document.  Python's cyclic collector would scan them all, again and again as
they pile up, and once more at some moment after it.  So a pass runs with
the collector paused, and what it made is then *frozen* (`gc.freeze`): kept
out of later collections.  The one reference cycle a pass makes (a
segment's analysis holds infos that point back at the segment) is broken by
hand when a segment leaves its document (`textstore.forget_segments`), so frozen
objects are still freed by reference counting; closing a document
unfreezes, so that anything else is collected as usual.
"""

from __future__ import annotations

import gc
import hashlib
import os
from dataclasses import dataclass
from itertools import accumulate, chain
from operator import attrgetter
from typing import Any, Callable, Sequence

from annoscore.scorer.conllu.checks import cycle_marks
from annoscore.scorer.conllu.counts import METRICS
from annoscore.scorer.conllu.evaluate import ConlluOptions, ConlluResult, SentenceRef
from annoscore.scorer.conllu.report import conllu_text
from annoscore.scorer.excerpt import identifier
from annoscore.scorer.gcpause import gc_paused
from annoscore.scorer.problems import Problem, Severity
from annoscore.scorer.report import Signature

from ...config import Settings
from ...processes import start_forkserver
from ...textstore import TextStore, forget_segments
from ..diagnostics import DiagnosticCap, Listing
from . import parts, unparsed_fold, validation
from .analysis import SentenceInfo, analyze_segment, analyze_segments
from .goldsource import GoldSource
from .index import SentenceIndex
from .score import IncrementalScore, ScoreSettings
from .validator_input import settings_for

Progress = Callable[[float], None]

UNPARSED_CAP = 20  # more unparsed sentences than this: one summary diagnostic
INCREMENTAL_LIMIT = 64  # more new sentences than this in one rescore: pair everything again
# A whole pass over a document of this many sentence segments or more is
# long enough (a few seconds) for an editor to show its progress.
LONG_PASS_SEGMENTS = 5000
PROGRESS_STEP = 512  # segments between two reports of a gold-free pass's progress


@dataclass(eq=False)
class ConlluResults:
    """What a CoNLL-U document's last rescore made."""

    # The analysed sentences in order; None before the first rescore (or
    # after new settings or a new text).
    sentences: SentenceIndex | None = None
    # The score against gold; None without gold.
    score: IncrementalScore | None = None
    # The UD validation of the document; None when it is off.
    validation: validation.DocumentValidation | None = None

    def index(self, store: TextStore) -> SentenceIndex:
        """The index; before a rescore made one, what is analysed so far
        (numbering nothing: a half-analysed text never becomes the index an
        edit is patched into)."""
        if self.sentences is None:
            return SentenceIndex(store, numbered=False)
        return self.sentences


def results_of(document) -> ConlluResults:
    if not isinstance(document.results, ConlluResults):
        document.results = ConlluResults()
    return document.results


class ConlluHandler:
    formats = ("conllu",)
    store_class = TextStore

    def new_store(self, text: str, lone_cr_ends_lines: bool) -> TextStore:
        return TextStore(text, lone_cr_ends_lines)

    def opened(self, document) -> None:
        if document.setup.gold is not None and len(document.store.segments) >= parts.MIN_SENTENCES:
            start_forkserver()  # its first scoring will want a second process

    def forget(self, document) -> None:
        """Everything derived from the text goes: the next rescore starts afresh."""
        forget_segments(document.store.segments)
        document.results = ConlluResults()
        document.edits = None

    def settings_changed(self, document, old: Settings, new: Settings) -> None:
        results = results_of(document)
        results.sentences = None
        if new.threshold != old.threshold:
            document.edits = None
            for segment in document.store.segments:
                segment.analysis = None
        if (new.sentences, new.gold_diff) != (old.sentences, old.gold_diff):
            results.score = None

    def gold_changed(self, document) -> None:
        results_of(document).score = None

    def long_pass_ahead(self, document) -> bool:
        if len(document.store.segments) < LONG_PASS_SEGMENTS:
            return False
        results = results_of(document)
        return results.sentences is None or document.edits is None or \
            (document.setup.gold is not None and results.score is None)

    # --- rescoring ----------------------------------------------------------------

    def rescore(self, document, gold, settings: Settings, log: Callable[[str], None],
                progress: Progress | None, background: bool = False) -> None:
        """Bring the results up to date.  ``background``: a large document's
        first validation may be left to finish later (`validation_pending`)."""
        results = results_of(document)
        # A document of many blocks in the language server: its first
        # validation is handed to the helpers once annoscore's own pass is
        # done (on two cores, running both at once would delay the first
        # diagnostics), and not waited for.  Otherwise (`check`) the helpers
        # work while the pass runs.
        later = background and len(document.store.segments) >= validation.BACKGROUND_SEGMENTS

        def begin():
            results.validation = validation.begin(
                document, settings_for(settings.validation, document.path), results.validation)
            return results.validation

        checked = None if later else begin()
        self._score(document, gold, settings, log, progress)
        if later:
            checked = begin()
        validation.end(document, checked, not later, log)

    def validation_pending(self, document):
        state = results_of(document).validation
        return None if state is None or state.pending is None else state.pending.future

    def notes(self, document) -> tuple[str, ...]:
        state = results_of(document).validation
        return () if state is None else state.notes

    def twins(self, document, fold_unparsed: bool = False):
        return validation.twins(document, results_of(document).validation, fold_unparsed)

    def _score(self, document, gold, settings: Settings, log: Callable[[str], None],
               progress: Progress | None) -> None:
        results = results_of(document)
        threshold = settings.threshold
        edits, document.edits = document.edits, []
        changes = self._patch(document, results, edits, threshold)
        for removed, _ in edits or ():
            forget_segments(removed)
        if gold is None:
            if changes is None:
                with gc_paused():
                    segments = document.store.segments
                    # Plain sentences judged from their columns in bulk (see `analyze_segments`).
                    for start in range(0, len(segments), PROGRESS_STEP):
                        analyze_segments(segments[start:start + PROGRESS_STEP], threshold)
                        if progress is not None:
                            progress(start / len(segments))
                    gc.freeze()
                results.sentences = SentenceIndex(document.store)
            results.score = None
            return
        score_settings = ScoreSettings(settings.sentences, settings.gold_diff)
        # The gold as it was when the score was made (its text, and the
        # document object: a gold file that was closed and read again is new).
        gold_state = (id(gold), gold.store.version, threshold)
        score = results.score
        in_place = False
        if changes is not None and score is not None and score.settings == score_settings \
                and score.gold_state == gold_state and sum(len(c[0]) for c in changes) <= INCREMENTAL_LIMIT:
            positions = [p for c in changes for p in c[0]]
            infos = [i for c in changes for i in c[1]]
            if score.pairs_alike(positions, infos):
                # The same pairing: count the edited units again (False when
                # the units around them would be grouped otherwise).
                in_place = score.update(positions, infos, [s for c in changes for s in c[2]])
            else:
                # Another text or sent_id: pair again around the edit.
                in_place = score.pair_again_locally(positions, infos,
                                                lambda: GoldSource(gold.store.segments, threshold))
        if not in_place:
            # Units of the old score are reused only when gold is the same
            # and the sentences were edited here and there (some may have
            # been split or joined); otherwise it is a first pass, which a
            # large file makes in two processes.
            reusable = score is not None and score.units and edits is not None \
                and score.gold_state == gold_state
            if score is None or score.settings != score_settings:
                score = results.score = IncrementalScore(score_settings)
            with gc_paused():
                if reusable or not parts.rescore_in_two(score, document.store.segments, gold.store.segments,
                                                        threshold, log, progress):
                    score.rescore(document.store.segments, GoldSource(gold.store.segments, threshold),
                                  progress=progress)
                gc.freeze()  # see the module's docstring
            score.gold_state = gold_state
        if changes is None:
            results.sentences = SentenceIndex(document.store)  # every segment is analysed now

    def _patch(self, document, results: ConlluResults, edits: list[tuple[list, list]] | None,
               threshold: float) -> list[tuple] | None:
        """Analyse what the edits inserted and put it in the document's index.

        Returns, per edit, (positions, new infos, parsed sentences), or None
        when the sentences did not stay where they were (a sentence appeared
        or vanished, or no index yet): then everything is looked at again."""
        index = results.sentences
        if edits is None or index is None:
            return None
        out = []
        for removed, inserted in edits:
            old: list[SentenceInfo] = []
            for segment in removed:
                if segment.analysis is None or segment.analysis[0] != threshold:
                    return None
                old += segment.analysis[1]
            new: list[SentenceInfo] = []
            parsed: list = []
            for segment in inserted:
                if segment.analysis is None or segment.analysis[0] != threshold:
                    infos, sentences = analyze_segment(segment, threshold)
                    segment.analysis = (threshold, infos)
                else:
                    infos, sentences = segment.analysis[1], [None] * len(segment.analysis[1])
                new += infos
                parsed += sentences
            if len(old) != len(new):
                return None
            positions = [info.position for info in old]
            if positions and (positions[0] < 0 or positions != list(range(positions[0], positions[0] + len(old)))):
                return None
            index.replace(positions, new)
            out.append((positions, new, parsed))
        return out

    # --- what is shown ------------------------------------------------------------

    def diagnostics(self, document, dependents: Sequence, settings: Settings, shown: DiagnosticCap,
                    fold_unparsed: bool = False) -> None:
        """Everything the document shows, to ``shown``.  ``fold_unparsed``
        (the editor's default): the UD validator's findings that follow from
        the missing HEADs of an unparsed sentence are folded under its
        ``unparsed`` diagnostic (see `unparsed_fold`)."""
        for p in chain.from_iterable(map(attrgetter("problems"), document.store.segments)):
            shown.add(p)
        results = results_of(document)
        index = results.index(document.store)
        infos = index.infos
        summarize_unparsed = index.unparsed > UNPARSED_CAP
        unparsed = [i for i in infos if i.unparsed] if summarize_unparsed else []
        folds = validation.unparsed_folds(document, results.validation, shown) \
            if fold_unparsed and index.unparsed else {}
        for info in filter(attrgetter("problems"), infos):
            line = info.first_line
            # Against gold, the roots gold disagrees with replace the gold-free marks.
            roots_by_gold = any(p.code == "multiple-roots" for p in info.pair_problems)
            for p in info.problems:
                if p.code == "cycle":
                    for mark in cycle_marks(p):
                        shown.add(mark, line)
                elif p.code == "unparsed" and folds and not summarize_unparsed:
                    shown.add(unparsed_fold.folded_into(p, folds.get(line, ()), line), line)
                elif not (summarize_unparsed and p.code == "unparsed") and \
                        not (roots_by_gold and p.code == "multiple-roots"):
                    shown.add(p, line)
        for info in filter(attrgetter("pair_problems"), infos):
            problems, line = info.pair_problems, info.first_line
            if shown.saturated(problems, line):  # past the cap or the limit: only counted
                continue
            # At absolute lines, kept while the sentence stays there: a
            # problem moved (its related places too) is made once, not at
            # every rescore, and the LSP adapter's JSON of it stays.
            placed = info.pairs_placed
            if placed is None or placed[0] is not problems or placed[1] != line:
                placed = info.pairs_placed = (problems, line, tuple(p.shifted(line) for p in problems))
            for p in placed[2]:
                shown.add(p)
        self._low_confidence(index, settings, shown)
        if summarize_unparsed:
            first = unparsed[0].first_line
            summary = Problem(
                "unparsed", f"{len(unparsed)} sentences are not parsed yet (all HEADs _), from line "
                f"{first + 1} on; the official scorer refuses them", first, 0, 0, Severity.INFORMATION,
                refuses=True)
            if folds:  # (in the order of the sentences)
                summary = unparsed_fold.folded_into(
                    summary, [p for i in unparsed for p in folds.get(i.first_line, ())])
            shown.add(summary)
        score = results.score
        if score is not None and score.missing:
            names = [identifier(score.gold[k].sent_id or "") or f"line {score.gold[k].first_line + 1}"
                     for k in score.missing[:5]]
            more = f" and {len(score.missing) - 5} more" if len(score.missing) > 5 else ""
            shown.add(Problem(
                "missing-sentence", f"{len(score.missing)} gold sentences are not in this file: "
                f"{', '.join(names)}{more}" + (" (they count against recall)"
                                               if settings.sentences == "all" else ""),
                0, 0, 0, Severity.INFORMATION))
        # Gold documents show which of their sentences a prediction lacks.
        for dependent in dependents:
            theirs = dependent.results.score if isinstance(dependent.results, ConlluResults) else None
            if theirs is None:
                continue
            name = os.path.basename(dependent.path or dependent.key)
            for k in theirs.missing:
                info = theirs.gold[k]
                shown.add(Problem("missing-sentence", f"not in the prediction {name}",
                                  info.first_line, 0, 0, Severity.INFORMATION))
        # The UD validator's findings that annoscore's own did not take.
        validation.add_problems(document, results.validation, shown, shown.twins, fold_unparsed)

    def _low_confidence(self, index: SentenceIndex, settings: Settings, shown: DiagnosticCap) -> None:
        """Low-confidence cells become diagnostics only as far as they are
        shown; the cells not shown are summed up in one."""
        threshold, left = settings.threshold, index.low
        per_word = settings.low_confidence == "word"
        for info in filter(attrgetter("low"), index.infos):
            if not shown.wants("low-confidence"):
                break
            room = shown.cap - shown.counts.get("low-confidence", 0)
            listing, cells = _low_listing(info, threshold, per_word, shown)
            shown.add_listing(listing, count_past_cap=False)
            left -= cells[min(room, len(cells)) - 1] if cells else 0
        if index.low and shown.enabled("low-confidence"):
            shown.in_cells("low-confidence", index.low, left, f"cells below the confidence threshold {threshold:g}")

    def score(self, document) -> dict[str, Any]:
        results = results_of(document)
        index = results.index(document.store)
        score = results.score
        payload: dict[str, Any] = {
            "path": document.path or document.key,
            "format": "conllu",
            "gold": document.setup.gold if score is not None else None,
            "metrics": {},
            "counts": {
                "sentences": len(index.infos),
                "unparsed": index.unparsed,
                "refused": index.refused,
                "lowConfidence": index.low,
            },
        }
        if score is not None:
            totals = score.totals
            for name in METRICS:
                s = totals.score(name)
                payload["metrics"][name] = {"precision": s.precision, "recall": s.recall, "f1": s.f1}
            payload["counts"]["missing"] = len(score.missing)
            payload["counts"]["unmatched"] = len(score.unmatched)
        return payload

    def report(self, document, gold, settings: Settings) -> str:
        """The plain-text report, as ``annoscore evaluate`` prints it."""
        score = results_of(document).score
        if score is None:
            return "No gold file for this document: no score. " + gold_hint(document)
        result = ConlluResult(score.totals, ConlluOptions(
            predicted_only=settings.sentences == "predicted",
            annotated_only=settings.sentences == "annotated"))
        result.gold_sentences = len(score.gold)
        result.system_sentences = len(score.system)
        result.scored_system_sentences = sum(len(u.system) for u in score.units if u.kind == "paired")
        result.scored_gold_sentences = sum(len(u.gold) for u in score.units if u.kind == "paired")
        for info in score.system:
            ref = SentenceRef(info.sent_id, info.first_line,
                              [p.shifted(info.first_line) for p in info.problems if p.refuses])
            if info.unparsed:
                result.unparsed.add(SentenceRef(info.sent_id, info.first_line))
            elif ref.reasons:
                result.refused.add(ref)
        for k in score.missing:
            result.missing.add(SentenceRef(score.gold[k].sent_id, score.gold[k].first_line))
        for k in score.unmatched:
            result.unmatched.add(SentenceRef(score.system[k].sent_id, score.system[k].first_line))
        for k in score.excluded:
            result.excluded.add(SentenceRef(score.system[k].sent_id, score.system[k].first_line))
        signature = Signature("conllu", {"sentences": settings.sentences})
        for role, doc in (("pred", document), ("gold", gold)):
            if doc is not None:
                text = doc.store.text
                signature.files[role] = {"path": doc.path or doc.key,
                                         "sha256": hashlib.sha256(text.encode("utf-8")).hexdigest()}
        return conllu_text(result, signature)


def _low_listing(info: SentenceInfo, threshold: float, per_word: bool,
                 shown: DiagnosticCap) -> tuple[Listing, list[int]]:
    """A sentence's low-confidence problems ready to show, and the cells
    they name counted up (the first k name ``cells[k - 1]``), kept on the
    sentence while it stays on its line (so that the same objects are shown
    again: see `server.engine.diagnostics.Listing`)."""
    line = info.first_line
    kept = info.low_listed
    if kept is not None and kept[:3] == (threshold, per_word, line) and kept[3].settings is shown.settings:
        return kept[3], kept[4]
    listing = shown.listing(info.low_problems(threshold, per_word), line)
    cells = list(accumulate(p.datum("cells", 1) for p in listing.problems))  # type: ignore[misc]
    info.low_listed = (threshold, per_word, line, listing, cells)
    return listing, cells


def gold_hint(document) -> str:
    if document.path is None:
        return ""
    stem, extension = os.path.splitext(document.path)
    return (f"Put the gold beside it as {os.path.basename(stem)}.gold{extension}, or pair it in "
            "annoscore.toml.")
