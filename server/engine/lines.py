"""Segmentation and label files in the engine.

Both are one item per line, so their documents are line stores
(`server.textstore.LineStore`), and every line pair is scored by the
library's one-line functions (`scorer.segmentation.score_line`,
`scorer.labels.score_item`), which are pure: results are cached by the two
lines' texts, and a rescore after an edit looks up every unchanged line
instead of scoring it again.

Segmentation lines pair by position when both files have the same number of
lines with words, else by their text (as ``annoscore evaluate`` does);
label items pair by ID when both files have IDs, else by position.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from annoscore.scorer.labels import LabelCounts, parse_item, parse_labels, score_item
from annoscore.scorer.problems import Problem, Severity
from annoscore.scorer.report import Signature
from annoscore.scorer.segmentation import (SegmentationCounts, SegmentationOptions, evaluate_lines, parse_line,
                                 score_line, split_words)
from annoscore.scorer.segmentation.pairing import pair_by_text
from annoscore.scorer.segmentation.report import segmentation_text
from annoscore.scorer.segmentation.tokens import has_tokens

from ..textstore import LineStore

if TYPE_CHECKING:  # pragma: no cover
    from .document import Document

CACHE_LIMIT = 1 << 18


@dataclass
class LineState:
    """What a segmentation or labels document shows, from its last rescore."""

    problems: list[Problem] = field(default_factory=list)       # on this document
    gold_problems: list[Problem] = field(default_factory=list)  # on its gold (missing lines/items)
    metrics: dict[str, dict[str, float]] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    cache: dict = field(default_factory=dict)
    has_gold: bool = False


def _lines(document: Document) -> list[str]:
    """A line document's lines as `evaluate` reads them: a byte-order mark
    at the start is not part of the first line (`_bom_problem` reports it)."""
    lines = document.store.lines
    if lines and lines[0].startswith("\ufeff"):
        return [lines[0][1:]] + lines[1:]
    return lines


def _bom_problem(document: Document) -> list[Problem]:
    lines = document.store.lines
    if lines and lines[0].startswith("\ufeff"):
        return [Problem("format-bom", "a byte-order mark at the start of the file was ignored",
                        0, 0, 1, Severity.WARNING)]
    return []


def _cache(state: LineState) -> dict:
    if len(state.cache) > CACHE_LIMIT:
        state.cache.clear()
    return state.cache


# --------------------------------------------------------------------------
# Segmentation
# --------------------------------------------------------------------------


def _options(document: Document) -> SegmentationOptions:
    return SegmentationOptions(document.format, document.setup.pos)


def _segmentation(document: Document, gold: Document | None, old: LineState) -> LineState:
    options = _options(document)
    state = LineState(cache=old.cache)
    lines = _lines(document)
    state.problems += _bom_problem(document)
    cache = _cache(state)
    if gold is None:
        for number, line in enumerate(lines):
            key = ("parse", line)
            problems = cache.get(key)
            if problems is None:
                problems = cache[key] = tuple(parse_line(line, options).problems())
            state.problems += [p.shifted(number) for p in problems]
        state.counts = {"sentences": sum(1 for line in lines if has_tokens(line, options))}
        return state
    gold_lines = _lines(gold)
    n_gold = _content_lines(gold_lines, options)
    n_system = _content_lines(lines, options)
    if n_gold == n_system:
        pairs: list[tuple[int, int | None]] = [(i, i) for i in range(n_gold)]
        missing: list[int] = []
    else:
        pairing = pair_by_text([_text(line, options) for line in gold_lines[:n_gold]],
                               [_text(line, options) for line in lines[:n_system]])
        if pairing.unpaired is not None:
            # A predicted line that rebuilds no gold line: pair by position as
            # far as both go; its line shows the text mismatch.
            pairs = [(i, i) for i in range(min(n_gold, n_system))]
            missing = list(range(n_system, n_gold))
            pairs += [(i, None) for i in missing]
        else:
            pairs, missing = pairing.pairs, pairing.missing
    totals = SegmentationCounts()
    for g, s in pairs:
        key = (gold_lines[g], lines[s] if s is not None else None)
        scored = cache.get(key)
        if scored is None:
            scored = cache[key] = score_line(key[0], key[1], options)
        totals = totals + scored.counts
        if s is not None:
            state.problems += [p.shifted(s) for p in scored.problems]
    for g in missing:
        state.gold_problems.append(Problem("missing-sentence", "no predicted line for this gold line",
                                           g, 0, len(gold_lines[g]), Severity.INFORMATION))
    if missing:
        state.problems.append(Problem(
            "missing-sentence", f"{len(missing)} gold lines have no predicted line (they count against "
            "recall)", 0, 0, 0, Severity.INFORMATION))
    names = ("Word", "Boundary", "TaggedWord") if options.pos else ("Word", "Boundary")
    for name in names:
        s = totals.score(name)
        state.metrics[name] = {"precision": s.precision, "recall": s.recall, "f1": s.f1}
    state.counts = {"sentences": totals.sentences, "mismatched": totals.mismatched, "missing": len(missing)}
    state.has_gold = True
    return state


def _content_lines(lines: list[str], options: SegmentationOptions) -> int:
    """Lines up to the last one with tokens (trailing empty lines do not count)."""
    n = len(lines)
    while n and not has_tokens(lines[n - 1], options):
        n -= 1
    return n


def _text(line: str, options: SegmentationOptions) -> str | None:
    words = split_words(line, options)
    return "".join(words.words) if words.words else None


# --------------------------------------------------------------------------
# Labels
# --------------------------------------------------------------------------


def _labels(document: Document, gold: Document | None, old: LineState) -> LineState:
    state = LineState(cache=old.cache)
    lines = _lines(document)
    state.problems += _bom_problem(document)
    system = parse_labels(lines)
    state.problems += system.problems
    state.counts = {"items": len(system.labels)}
    if gold is None:
        return state
    gold_lines = _lines(gold)
    reference = parse_labels(gold_lines)
    classes = frozenset(reference.labels)
    by_id = system.has_ids and reference.has_ids
    if by_id:
        where: dict[str, int] = {}
        for k, item_id in enumerate(system.ids or []):
            where.setdefault(item_id, k)  # the first of duplicate IDs, as `evaluate` pairs them
        partner = [where.get(item_id) for item_id in reference.ids or []]
    else:
        partner = [k if k < len(system.labels) else None for k in range(len(reference.labels))]

    def item(file, text_lines, k):
        line = file.lines[k]
        return parse_item(text_lines[line], line, file.has_ids)[0]

    pairs: Counter = Counter()
    unpredicted: Counter = Counter()
    missing = []
    for g, k in enumerate(partner):
        scored = score_item(item(reference, gold_lines, g),
                            None if k is None else item(system, lines, k), classes)
        pairs.update(scored.counts.pairs)
        unpredicted.update(scored.counts.unpredicted)
        state.problems += scored.problems
        if k is None:
            missing.append(g)
    used = set(partner)
    extra = [k for k in range(len(system.labels)) if k not in used]
    for k in extra:
        scored = score_item(None, item(system, lines, k), classes)
        state.problems += scored.problems
    totals = LabelCounts(pairs, unpredicted, len(extra))
    for g in missing:
        line = reference.lines[g]
        state.gold_problems.append(Problem("missing-item", "no predicted item for this gold item", line,
                                           0, len(gold_lines[line]), Severity.INFORMATION))
    if missing:
        names = ", ".join((reference.ids or [])[g] if by_id else f"line {reference.lines[g] + 1}"
                          for g in missing[:5])
        state.problems.append(Problem("missing-item", f"{len(missing)} gold items have no prediction "
                                      f"({names}{' ...' if len(missing) > 5 else ''}); they count as wrong",
                                      0, 0, 0, Severity.INFORMATION))
    scores = totals.scores()
    for name, value in (("Accuracy", scores.accuracy), ("MacroRecall", scores.macro_recall),
                        ("MacroF1", scores.macro_f1)):
        state.metrics[name] = {"precision": value, "recall": value, "f1": value, "value": value}
    state.counts.update({"missing": len(missing), "unknown": sum(scores.unknown.values())})
    state.has_gold = True
    return state


# --------------------------------------------------------------------------
# The handler the engine calls
# --------------------------------------------------------------------------


class LinesHandler:
    """Segmentation and label documents (see the module's docstring)."""

    formats = ("space", "tsv", "labels")
    store_class = LineStore

    def new_store(self, text: str, lone_cr_ends_lines: bool) -> LineStore:
        return LineStore(text, lone_cr_ends_lines)

    def opened(self, document) -> None:
        pass

    def forget(self, document) -> None:
        document.results = None
        document.edits = None

    def settings_changed(self, document, old, new) -> None:
        pass  # line documents have no setting of their own beyond their pairing

    def gold_changed(self, document) -> None:
        document.results = None

    def long_pass_ahead(self, document) -> bool:
        return False  # one cached score per line: fast enough without a progress bar

    def rescore(self, document, gold, settings, log, progress, background: bool = False) -> None:
        state = document.results if isinstance(document.results, LineState) else LineState()
        if document.format == "labels":
            document.results = _labels(document, gold, state)
        else:
            document.results = _segmentation(document, gold, state)

    # (UD validation is for CoNLL-U alone.)
    def twins(self, document, fold_unparsed: bool = False) -> None:
        return None

    def validation_pending(self, document) -> None:
        return None

    def notes(self, document) -> tuple[str, ...]:
        return ()

    def diagnostics(self, document, dependents, settings, shown, fold_unparsed: bool = False) -> None:
        state = document.results if isinstance(document.results, LineState) else LineState()
        for problem in state.problems:
            shown.add(problem)
        for dependent in dependents:
            if isinstance(dependent.results, LineState):
                for problem in dependent.results.gold_problems:
                    shown.add(problem)

    def score(self, document) -> dict[str, Any]:
        state = document.results if isinstance(document.results, LineState) else LineState()
        return {
            "path": document.path or document.key,
            "format": document.format,
            "gold": document.setup.gold if state.has_gold else None,
            "metrics": dict(state.metrics),
            "counts": dict(state.counts),
        }

    def report(self, document, gold, settings) -> str:
        if gold is None:
            return "No gold file for this document: no score."
        signature = Signature(document.format, {"pos": document.setup.pos})
        if document.format == "labels":
            from annoscore.scorer.labels import evaluate_label_files
            from annoscore.scorer.labels.report import labels_text
            result = evaluate_label_files(parse_labels(_lines(gold)), parse_labels(_lines(document)))
            return labels_text(result, signature)
        result = evaluate_lines(_lines(gold), _lines(document), _options(document))
        return segmentation_text(result, signature)
