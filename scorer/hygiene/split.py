"""The split maker: train, dev and test files that cannot leak into each other.

In plain words:

1. **Conflicting duplicates are dropped.**  Items with the same normalized
   text whose annotations disagree (`scorer.hygiene.annotation`: another
   label, tree or segmentation) cannot all be right; every copy goes, and
   the report lists them.
2. **Items that must stay together are grouped** (union-find): the same
   normalized text, the same near key (digits, word classes), word sets at
   least as similar as ``jaccard=T`` (`scorer.hygiene.similar`), and with
   ``group_by="newdoc"`` the sentences of one CoNLL-U document.  A group
   lands in one split, so the leak check with the same rules finds nothing
   between the outputs.
3. **Targets.**  For each stratum — each label with ``by_label``, else all
   items — the ideal size of a split is its ratio times the stratum's
   items; the targets are these rounded by largest remainder, so they add
   up and each is within one item of the ideal.
4. **Order.**  Groups are taken in the order of the SHA-256 of the seed and
   the group's text (larger groups first, so that small ones fill the
   gaps): the split depends on the seed and on the content, not on the
   Python version or the order of the input's lines.
5. **Assignment.**  Each group goes to the split it fits in (for each of its
   labels, room left under the target) whose share of its targets is least
   filled; when it fits nowhere, to the one with the most room.  Items of
   one group and one label are thus assigned exactly to the targets: with
   groups of one item the counts equal the targets.
6. **Output.**  Each split's items are written as they were in the input
   (the same bytes per item, in input order), so outputs are byte-identical
   for the same input and seed.
"""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from math import floor
from typing import Any, Sequence

from .annotation import agree
from .index import LeakIndex
from .items import Item, ItemFile
from .near import NearRules
from .normalize import Normalization
from .similar import SimilarityIndex
from .splits import SPLITS

ALL = "*"  # the one stratum without by_label


@dataclass(frozen=True)
class SplitOptions:
    ratios: tuple[float, float, float] = (0.8, 0.1, 0.1)
    seed: int = 42
    by_label: bool = False
    group_by: str | None = None  # None or "newdoc"
    min_words: int = 0


@dataclass
class SplitResult:
    split_of: list[str | None]                 # per item: its split, None when dropped
    targets: dict[str, dict[str, int]]         # stratum -> split -> target
    ideal: dict[str, dict[str, float]]         # stratum -> split -> ratio x items
    dropped: list[int] = field(default_factory=list)   # conflicting duplicates (item indices)
    dropped_texts: int = 0
    groups: int = 0
    largest_group: int = 0
    joined: dict[str, int] = field(default_factory=dict)  # rule -> unions it made

    def members(self, split: str) -> list[int]:
        return [k for k, s in enumerate(self.split_of) if s == split]


def largest_remainder(n: int, ratios: Sequence[float]) -> list[int]:
    """``n`` cut in parts as near ``ratio x n`` as whole numbers allow
    (each within 1 of it), adding up to ``n``; ties go to the earlier part."""
    exact = [Fraction(r).limit_denominator(10 ** 9) * n for r in ratios]
    parts = [floor(x) for x in exact]
    left = n - sum(parts)
    order = sorted(range(len(ratios)), key=lambda k: (-(exact[k] - parts[k]), k))
    for k in order[:left]:
        parts[k] += 1
    return parts


class _UnionFind:
    def __init__(self, n: int) -> None:
        self.parent = list(range(n))

    def find(self, k: int) -> int:
        parent = self.parent
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    def union(self, a: int, b: int) -> bool:
        a, b = self.find(a), self.find(b)
        if a == b:
            return False
        if b < a:
            a, b = b, a
        self.parent[b] = a  # the smaller index is the root: deterministic
        return True


def make_split(source: ItemFile, normalization: Normalization, near: NearRules,
               options: SplitOptions) -> SplitResult:
    if options.by_label and source.format != "labels":
        raise ValueError("by_label needs labelled items (a labels or CSV file)")
    items = source.items
    index = LeakIndex(normalization, near, options.min_words)
    keys = [index.keys(item.text) for item in items]

    # 1. Conflicting duplicates.
    by_text: dict[str, list[int]] = defaultdict(list)
    for k, key in enumerate(keys):
        if key.counted:
            by_text[key.normalized].append(k)
    dropped: set[int] = set()
    dropped_texts = 0
    for members in by_text.values():
        first = items[members[0]].annotation
        if any(not agree(source.format, items[k].annotation, first, normalization) for k in members[1:]):
            dropped.update(members)
            dropped_texts += 1
    kept = [k for k in range(len(items)) if k not in dropped]

    # 2. Groups.
    groups = _UnionFind(len(items))
    joined: Counter = Counter()

    def join_all(rule: str, buckets) -> None:
        for members in buckets:
            members = [k for k in members if k not in dropped]
            for k in members[1:]:
                if groups.union(members[0], k):
                    joined[rule] += 1

    join_all("exact", by_text.values())
    if near.keyed:
        by_near: dict[str, list[int]] = defaultdict(list)
        for k, key in enumerate(keys):
            if key.counted and key.near is not None:
                by_near[key.near].append(k)
        join_all("near", by_near.values())
    if near.jaccard is not None:
        owners: dict[frozenset[str], list[int]] = defaultdict(list)
        for k in kept:
            if keys[k].counted and keys[k].words:
                owners[keys[k].words].append(k)
        join_all("jaccard", owners.values())
        similar = SimilarityIndex(((words, None) for words in owners), near.jaccard)
        for words, members in owners.items():
            for other, _ in similar.similar(words):
                if other != words and groups.union(members[0], owners[other][0]):
                    joined["jaccard"] += 1
    if options.group_by == "newdoc":
        by_document: dict[int, list[int]] = defaultdict(list)
        for k in kept:
            by_document[items[k].document].append(k)
        join_all("document", by_document.values())

    members_of: dict[int, list[int]] = defaultdict(list)
    for k in kept:
        members_of[groups.find(k)].append(k)

    # 3. Targets.
    def stratum(item: Item) -> str:
        return (item.annotation or "") if options.by_label else ALL

    sizes = Counter(stratum(items[k]) for k in kept)
    active = [s for s, r in zip(SPLITS, options.ratios) if r > 0]
    targets: dict[str, dict[str, int]] = {}
    ideal: dict[str, dict[str, float]] = {}
    for name in sorted(sizes):
        parts = largest_remainder(sizes[name], options.ratios)
        targets[name] = dict(zip(SPLITS, parts))
        ideal[name] = {s: r * sizes[name] for s, r in zip(SPLITS, options.ratios)}

    # 4. Order: larger groups first, then by the hash of the seed and the group's text.
    seen_texts: Counter = Counter()
    ordered = []
    for root, members in members_of.items():
        text = keys[members[0]].normalized
        seen_texts[text] += 1
        digest = hashlib.sha256(f"{options.seed}\x00{text}\x00{seen_texts[text]}".encode(
            "utf-8", "surrogatepass")).hexdigest()
        ordered.append((-len(members), digest, root))
    ordered.sort()

    # 5. Assignment.
    count: dict[str, dict[str, int]] = {name: dict.fromkeys(SPLITS, 0) for name in targets}
    split_of: list[str | None] = [None] * len(items)
    for _, _, root in ordered:
        members = members_of[root]
        need = {stratum(items[members[0]]): 1} if len(members) == 1 else \
            Counter(stratum(items[k]) for k in members)
        chosen = _choose(need, targets, count, active)
        for name, n in need.items():
            count[name][chosen] += n
        for k in members:
            split_of[k] = chosen

    return SplitResult(split_of, targets, ideal, sorted(dropped), dropped_texts, len(members_of),
                       max((len(m) for m in members_of.values()), default=0), dict(joined))


def _choose(need: dict[str, int], targets: dict[str, dict[str, int]], count: dict[str, dict[str, int]],
            active: list[str]) -> str:
    if len(need) == 1:  # one stratum (nearly every group): the same choice, in integers
        ((name, n),) = need.items()
        target, have = targets[name], count[name]
        best = None
        for split in active:
            # fits, and less filled than the best so far: have/target < best's, cross-multiplied
            if have[split] + n <= target[split] and (
                    best is None or have[split] * target[best] < have[best] * target[split]):
                best = split
        if best is not None:
            return best
        return max(active, key=lambda s: (target[s] - have[s], -SPLITS.index(s)))
    def room(split: str) -> int:
        return sum(targets[name][split] - count[name][split] for name in need)

    def fits(split: str) -> bool:
        return all(count[name][split] + n <= targets[name][split] for name, n in need.items())

    def filled(split: str) -> Fraction:
        share = Fraction(0)
        for name, n in need.items():
            target = targets[name][split]
            share += n * (Fraction(count[name][split], target) if target else Fraction(1))
        return share

    fitting = [s for s in active if fits(s)]
    if fitting:
        return min(fitting, key=lambda s: (filled(s), SPLITS.index(s)))
    return max(active, key=lambda s: (room(s), -SPLITS.index(s)))


def split_texts(source: ItemFile, result: SplitResult, options: SplitOptions) -> dict[str, str]:
    """The text of each output file (splits with a ratio of 0 have none)."""
    out: dict[str, str] = {}
    items = source.items
    for split, ratio in zip(SPLITS, options.ratios):
        if ratio <= 0:
            continue
        members = result.members(split)
        if source.format == "conllu":
            out[split] = "".join(items[k].raw + "\n\n" for k in members)
        else:
            head = source.header + "\n" if source.header is not None else ""
            out[split] = head + "".join(items[k].raw + "\n" for k in members)
    return out


def _words(item: Item) -> int:
    return sum(1 for line in (item.annotation or "").split("\n") if line.split("\t", 1)[0].isdecimal())


def split_report(source: ItemFile, name: str, result: SplitResult, normalization: Normalization,
                 near: NearRules, options: SplitOptions, outputs: dict[str, tuple[str, str]],
                 version: str, listed: int = 1000) -> dict[str, Any]:
    """``split_report.json``: what was read, the rules, what went where and
    what was dropped.  ``outputs``: split -> (file name, SHA-256).  Nothing
    in it depends on the time or the folder, so it is byte-identical for
    the same input and seed."""
    items = source.items
    per_split: dict[str, Any] = {}
    for split in SPLITS:
        members = result.members(split)
        entry: dict[str, Any] = {}
        if split in outputs:
            entry["file"], entry["sha256"] = outputs[split]
        entry[f"{source.unit}s"] = len(members)
        if source.format == "conllu":
            entry["words"] = sum(_words(items[k]) for k in members)
        if source.format == "labels":
            entry["labels"] = dict(sorted(Counter(items[k].annotation or "" for k in members).items()))
        per_split[split] = entry
    report: dict[str, Any] = {
        "annoscore": version,
        "input": {"name": name, "sha256": source.sha256, "format": source.format,
                  f"{source.unit}s": len(items)},
        "seed": options.seed,
        "ratios": dict(zip(SPLITS, options.ratios)),
        "normalization": normalization.name,
        "near": near.name,
        "group_by": options.group_by,
        "by_label": options.by_label,
        "min_words": options.min_words,
        "splits": per_split,
    }
    if options.by_label:
        report["per_label"] = {
            label: {split: {"items": per_split[split]["labels"].get(label, 0),
                            "target": result.targets[label][split],
                            "ideal": round(result.ideal[label][split], 6)} for split in SPLITS}
            for label in sorted(result.targets)}
    report["groups"] = {"count": result.groups, "largest": result.largest_group,
                        "joined_by": dict(sorted(result.joined.items()))}
    report["dropped"] = {
        "conflicting_duplicates": {
            "why": "the same normalized text with annotations that disagree: they cannot all be right",
            "texts": result.dropped_texts, f"{source.unit}s": len(result.dropped),
            "first": [{"line": items[k].line + 1, "id": items[k].id, "text": items[k].text[:200]}
                      for k in result.dropped[:listed]]},
    }
    return report
