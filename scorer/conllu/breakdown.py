"""Where the errors are: scores broken down by category, and the most frequent confusions.

`BreakdownCollector` is a `evaluate.DetailSink`: the evaluator hands it every
counted unit with each gold word's outcome (aligned or not, and which cells
are right, `score.WordOutcome`) and the system words left unaligned.  From
those it counts, per category:

- ``upos``: per gold UPOS — gold words, aligned, UPOS right, UAS and LAS
  right; and the system words with that UPOS, so that UPOS has a precision,
  recall and F1 per tag;
- ``deprel``: per gold relation, universal (``obl``) and full
  (``obl:arg``) — gold words, UAS and LAS right (LASFull for full
  relations), and the system words with that relation: LAS precision
  (right / system words with the relation), recall (right / gold words with
  it) and F1.  A word is LAS-right for its gold relation exactly when the
  system gave it that relation and the right head, so one count serves both;
- ``feats``: per ``Feature=Value`` (all features, language-specific ones
  included) — gold words with it, system words with it, and aligned words
  that both have it: precision, recall, F1;
- ``length``: per bin of gold sentence length in words (1–10, 11–20, …,
  51+) — sentences, gold words, UAS and LAS right (attachment accuracy);
  gold words count under their own sentence, a unit's system words under
  its first gold sentence (their own sentence when the unit has no gold);
- ``distance``: per bin of head distance, |HEAD − ID| (root, 1, 2, 3, 4,
  5, 6, 7+): gold words by their gold distance, system words by theirs;
  UAS right counts for both (the head is the same word), so attachment has
  a precision, recall and F1 per distance, as in McDonald and Nivre (2007).

Gold words of missing sentences and system words no gold matched are
counted too, so the categories of each breakdown add up to the file's
totals (gold words, system words, UAS and LAS right): the tests hold them
to it.

``confusions``: for aligned words whose universal relation (or UPOS)
differs from gold's, how often each (gold, predicted) pair occurs, with the
first few examples: the sent_id and the word in context with both values,
``… saw Joana[nsubj>obj] yesterday …``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from ..excerpt import excerpt
from ..report import percent, proportion, render_table
from .relations import BASE_DEPREL
from .score import HEAD_OK, LAS_FULL_OK, LAS_OK, UPOS_OK, ChunkScore
from .sentence import Sentence

BREAKDOWNS = ("upos", "deprel", "feats", "length", "distance")
LENGTH_BINS = ((1, 10), (11, 20), (21, 30), (31, 40), (41, 50), (51, None))
DISTANCE_BINS = ("root", "1", "2", "3", "4", "5", "6", "7+")
EXAMPLES = 3       # kept per confusion
CONTEXT = 3        # words on each side of an example's word


def length_bin(words: int) -> str:
    for low, high in LENGTH_BINS:
        if high is None or words <= high:
            return f"{low}-{high}" if high is not None else f"{low}+"
    raise AssertionError  # pragma: no cover


def distance_bin(word: int, head: int | None) -> str | None:
    """The bin of a word's head distance (``word`` 0-based, HEAD as read);
    None when the HEAD is not a number."""
    if head is None:
        return None
    if head == 0:
        return "root"
    d = abs(head - (word + 1))
    return str(d) if d < 7 else "7+"


@dataclass
class Tally:
    """Counts of one category."""

    gold: int = 0
    system: int = 0
    aligned: int = 0
    right: int = 0       # the category's own measure (UPOS, LAS, feature, UAS by distance)
    uas: int = 0
    las: int = 0
    sentences: int = 0

    def as_json(self, kind: str) -> dict[str, Any]:
        out: dict[str, Any] = {"gold": self.gold}
        if kind == "length":
            out["sentences"] = self.sentences
        if kind != "length":
            out["system"] = self.system
        if kind != "feats":
            out.update(uas=self.uas, las=self.las,
                       uas_accuracy=proportion(self.uas / self.gold if self.gold else None),
                       las_accuracy=proportion(self.las / self.gold if self.gold else None))
        if kind in ("upos", "deprel", "deprel_full", "feats", "distance"):
            out["aligned"] = self.aligned
            out["right"] = self.right
            out.update(_prf(self.right, self.gold, self.system))
        return out


def _prf(right: int, gold: int, system: int) -> dict[str, float | None]:
    return {"precision": proportion(right / system if system else 0.0),
            "recall": proportion(right / gold if gold else 0.0),
            "f1": proportion(2 * right / (gold + system) if gold + system else 0.0)}


# What each breakdown's "right" means, for the tables.
RIGHT_MEANS = {"upos": "UPOS", "deprel": "LAS", "deprel_full": "LASFull", "feats": "the feature",
               "distance": "UAS"}


@dataclass
class Confusion:
    count: int = 0
    examples: list[dict[str, Any]] = field(default_factory=list)


class BreakdownCollector:
    """Collects the breakdowns asked for (names from BREAKDOWNS) and the
    ``confusions`` most frequent confusions (0: none), as a DetailSink."""

    def __init__(self, breakdowns: Sequence[str] = BREAKDOWNS, confusions: int = 0) -> None:
        unknown = [b for b in breakdowns if b not in BREAKDOWNS]
        if unknown:
            raise ValueError(f"unknown breakdown {unknown[0]!r} (use {', '.join(BREAKDOWNS)})")
        self.breakdowns = tuple(dict.fromkeys(breakdowns))
        self.confusions = confusions
        kinds = list(self.breakdowns)
        if "deprel" in kinds:
            kinds.insert(kinds.index("deprel") + 1, "deprel_full")
        self.tables: dict[str, dict[str, Tally]] = {kind: {} for kind in kinds}
        self.confused: dict[str, dict[tuple[str, str], Confusion]] = {"deprel": {}, "upos": {}}

    # --- the sink -----------------------------------------------------------------

    def __call__(self, gold: list[Sentence], system: list[Sentence], scored: ChunkScore) -> None:
        outcomes = scored.outcomes or []
        tables = self.tables
        aligned_system: set[tuple[int, int]] = set()
        for o in outcomes:
            g = gold[o.gold_sentence]
            i = o.gold_word
            aligned = o.system_sentence >= 0
            mask = o.mask
            s = system[o.system_sentence] if aligned else None
            j = o.system_word
            if aligned:
                aligned_system.add((o.system_sentence, j))
            uas, las = bool(mask & HEAD_OK), bool(mask & LAS_OK)
            if "upos" in tables:
                self._gold_word(tables["upos"], g.upos[i], aligned, bool(mask & UPOS_OK), uas, las)
            if "deprel" in tables:
                self._gold_word(tables["deprel"], BASE_DEPREL[g.deprel[i]], aligned, las, uas, las)
                self._gold_word(tables["deprel_full"], g.deprel[i], aligned, bool(mask & LAS_FULL_OK), uas, las)
            if "distance" in tables:
                head = g.heads[i]
                b = distance_bin(i, head if head is None or head <= len(g.form) else None)
                if b is not None:
                    self._gold_word(tables["distance"], b, aligned, uas, uas, las)
            if "length" in tables:
                self._gold_word(tables["length"], length_bin(len(g.form)), aligned, False, uas, las)
            if "feats" in tables:
                gold_feats = _features(g.feats[i])
                system_feats = _features(s.feats[j]) if s is not None else set()
                for feature in gold_feats:
                    tally = tables["feats"].setdefault(feature, Tally())
                    tally.gold += 1
                    tally.aligned += aligned
                    tally.right += feature in system_feats
            if s is not None:
                self._system_word(s, j)
                if self.confusions:
                    self._confusion("deprel", BASE_DEPREL[g.deprel[i]], BASE_DEPREL[s.deprel[j]], g, i)
                    self._confusion("upos", g.upos[i], s.upos[j], g, i)
        for sk, sw in scored.unaligned_system or ():
            self._system_word(system[sk], sw)
        if "length" in tables:
            for g in gold:
                tables["length"].setdefault(length_bin(len(g.form)), Tally()).sentences += 1
            if not gold:  # system words with no gold: their own sentence's length
                for sentence in system:
                    tables["length"].setdefault(length_bin(len(sentence.form)), Tally()).system += len(sentence.form)
            else:
                first = length_bin(len(gold[0].form))
                tables["length"].setdefault(first, Tally()).system += sum(map(len, (s.form for s in system)))

    @staticmethod
    def _gold_word(table: dict[str, Tally], key: str, aligned: bool, right: bool, uas: bool, las: bool) -> None:
        tally = table.get(key)
        if tally is None:
            tally = table[key] = Tally()
        tally.gold += 1
        tally.aligned += aligned
        tally.right += right
        tally.uas += uas
        tally.las += las

    def _system_word(self, sentence: Sentence, j: int) -> None:
        tables = self.tables
        if "upos" in tables:
            tables["upos"].setdefault(sentence.upos[j], Tally()).system += 1
        if "deprel" in tables:
            tables["deprel"].setdefault(BASE_DEPREL[sentence.deprel[j]], Tally()).system += 1
            tables["deprel_full"].setdefault(sentence.deprel[j], Tally()).system += 1
        if "distance" in tables:
            b = distance_bin(j, sentence.heads[j] if sentence.heads[j] is None
                             or sentence.heads[j] <= len(sentence.form) else None)
            if b is not None:
                tables["distance"].setdefault(b, Tally()).system += 1
        if "feats" in tables:
            for feature in _features(sentence.feats[j]):
                tables["feats"].setdefault(feature, Tally()).system += 1

    def _confusion(self, kind: str, gold_value: str, system_value: str, sentence: Sentence, i: int) -> None:
        if gold_value == system_value:
            return
        table = self.confused[kind]
        key = (gold_value, system_value)
        confusion = table.get(key)
        if confusion is None:
            confusion = table[key] = Confusion()
        confusion.count += 1
        if len(confusion.examples) < EXAMPLES:
            confusion.examples.append({"sent_id": sentence.sent_id, "line": sentence.first_line + 1,
                                       "word": i + 1,
                                       "context": in_context(sentence.form, i, f"{gold_value}>{system_value}")})

    # --- results ------------------------------------------------------------------

    def top_confusions(self, kind: str, every: bool = False) -> list[tuple[tuple[str, str], Confusion]]:
        items = sorted(self.confused[kind].items(), key=lambda item: (-item[1].count, item[0]))
        return items if every else items[:self.confusions]

    def as_json(self, every_confusion: bool = False) -> dict[str, Any]:
        """The breakdowns and the most frequent confusions (``every_confusion``:
        all of them, for pooling several results exactly)."""
        out: dict[str, Any] = {}
        if self.breakdowns:
            out["breakdown"] = {kind: {key: tally.as_json(kind) for key, tally in _ordered(kind, table)}
                                for kind, table in self.tables.items()}
        if self.confusions:
            out["confusions"] = {
                kind: [{"gold": g, "predicted": p, "count": c.count, "examples": c.examples}
                       for (g, p), c in self.top_confusions(kind, every_confusion)]
                for kind in ("deprel", "upos")}
        return out


def _features(feats: str) -> set[str]:
    return set() if feats in ("_", "") else {f for f in feats.split("|") if f}


def in_context(forms: Sequence[str], i: int, mark: str) -> str:
    """The word with a few words around it, the word marked: ``a b Joana[nsubj>obj] c``."""
    left = max(0, i - CONTEXT)
    words = [excerpt(w, 20) for w in forms[left:i + CONTEXT + 1]]
    words[i - left] = f"{words[i - left]}[{mark}]"
    return ("… " if left else "") + " ".join(words) + (" …" if i + CONTEXT + 1 < len(forms) else "")


def _ordered(kind: str, table: dict[str, Tally]) -> list[tuple[str, Tally]]:
    if kind == "length":
        order = [length_bin(low) for low, _ in LENGTH_BINS]
        return [(k, table[k]) for k in order if k in table]
    if kind == "distance":
        return [(k, table[k]) for k in DISTANCE_BINS if k in table]
    return sorted(table.items(), key=lambda item: (-item[1].gold, item[0]))


# --------------------------------------------------------------------------
# Tables
# --------------------------------------------------------------------------

TITLES = {"upos": "By gold UPOS", "deprel": "By gold relation (universal)",
          "deprel_full": "By gold relation (full, with subtypes)", "feats": "By feature (Feature=Value)",
          "length": "By gold sentence length (words)", "distance": "By head distance |HEAD - ID|"}


def breakdown_text(data: dict[str, Any], rows: int | None = None) -> str:
    """The breakdown and confusions of a result's JSON as tables; ``rows``
    caps the rows of the long tables (the JSON has every row)."""
    lines: list[str] = []
    for kind, table in data.get("breakdown", {}).items():
        items = list(table.items())
        left_out = 0
        if rows is not None and kind not in ("length", "distance") and len(items) > rows:
            left_out = len(items) - rows
            items = items[:rows]
        if kind == "length":
            headers = ["Length", "Sentences", "Gold", "UAS", "LAS"]
            body = [[k, t["sentences"], t["gold"], percent(t["uas_accuracy"]), percent(t["las_accuracy"])]
                    for k, t in items]
        elif kind == "feats":
            headers = ["Feature", "Gold", "Predicted", "Right", "P", "R", "F1"]
            body = [[excerpt(k, 30), t["gold"], t["system"], t["right"], percent(t["precision"]),
                     percent(t["recall"]), percent(t["f1"])] for k, t in items]
        else:
            first = {"upos": "UPOS", "deprel": "Relation", "deprel_full": "Relation", "distance": "Distance"}[kind]
            measure = RIGHT_MEANS[kind]
            headers = [first, "Gold", "Predicted", f"{measure} P", f"{measure} R", f"{measure} F1",
                       "UAS acc", "LAS acc"]
            body = [[excerpt(k, 30), t["gold"], t["system"], percent(t["precision"]), percent(t["recall"]),
                     percent(t["f1"]), percent(t["uas_accuracy"]), percent(t["las_accuracy"])]
                    for k, t in items]
        lines += [f"{TITLES[kind]}:", render_table(headers, body)]
        if left_out:
            lines.append(f"  ... and {left_out} more (all in --json)")
        lines.append("")
    for kind, items in data.get("confusions", {}).items():
        title = "relations (universal)" if kind == "deprel" else "UPOS"
        lines.append(f"Most frequent confusions of {title} (gold > predicted):")
        if not items:
            lines.append("  none")
        for item in items:
            lines.append(f"  {item['count']:>5}  {excerpt(item['gold'], 20)} > {excerpt(item['predicted'], 20)}")
            for example in item["examples"]:
                where = excerpt(example["sent_id"], 80) if example["sent_id"] is not None else f"line {example['line']}"
                lines.append(f"         {where}: {example['context']}")
        lines.append("")
    return "\n".join(lines).rstrip("\n")


def merge_breakdowns(results: Sequence[dict[str, Any]], confusions: int = 0) -> dict[str, Any]:
    """The breakdowns and confusions of several results pooled (each from
    `BreakdownCollector.as_json` with ``every_confusion``): counts summed per
    category, measures made again from the sums; the ``confusions`` most
    frequent confusions, their examples the first few in the results' order."""
    tables: dict[str, dict[str, Tally]] = {}
    confused: dict[str, dict[tuple[str, str], Confusion]] = {}
    for result in results:
        for kind, table in result.get("breakdown", {}).items():
            merged = tables.setdefault(kind, {})
            for key, entry in table.items():
                tally = merged.setdefault(key, Tally())
                for name in ("gold", "system", "aligned", "right", "uas", "las", "sentences"):
                    setattr(tally, name, getattr(tally, name) + entry.get(name, 0))
        for kind, items in result.get("confusions", {}).items():
            merged_confusions = confused.setdefault(kind, {})
            for item in items:
                confusion = merged_confusions.setdefault((item["gold"], item["predicted"]), Confusion())
                confusion.count += item["count"]
                confusion.examples += item["examples"][:EXAMPLES - len(confusion.examples)]
    out: dict[str, Any] = {}
    if tables:
        out["breakdown"] = {kind: {key: tally.as_json(kind) for key, tally in _ordered(kind, table)}
                            for kind, table in tables.items()}
    if confused and confusions:
        out["confusions"] = {
            kind: [{"gold": g, "predicted": p, "count": c.count, "examples": c.examples}
                   for (g, p), c in sorted(table.items(), key=lambda item: (-item[1].count, item[0]))[:confusions]]
            for kind, table in confused.items()}
    return out
