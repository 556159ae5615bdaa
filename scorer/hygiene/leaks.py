"""The leak check: items of a later split that occur in an earlier one, and conflicts.

Given files with their splits (train, dev, test), every item of dev is
looked up in train, and every item of test in train and in dev, through a
`LeakIndex` per earlier split (hashing, never all pairs).  A finding is one
of:

- ``exact``: the same text after normalization, with the same annotation
  (label, segmentation or tree: `scorer.hygiene.annotation`) or none;
- ``near``: not the same text, but the same under a near rule (digits
  masked, a word class, a Jaccard similarity);
- ``conflict``: the same text with another annotation — across splits (a
  leak too) or within one split, in one file or across its files (they
  cannot both be right).

Each finding names both places: the later item, and the first earlier
place it occurs in (with how many more there are).  One finding per item
and earlier split; within a split, each item whose annotation differs from
the first occurrence of its text.  Copies within a split that agree are no
finding; they are counted (``duplicates``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from .annotation import agree, difference
from .index import EXACT, LeakIndex
from .items import ItemFile
from .near import NearRules
from .normalize import Normalization
from .splits import SPLITS, rank

CONFLICT = "conflict"
KINDS = (EXACT, "near", CONFLICT)


@dataclass(frozen=True)
class Place:
    file: str
    split: str
    line: int          # 0-based
    id: str | None
    text: str          # as a person reads it (not cut: reports cut it)


@dataclass(frozen=True)
class Finding:
    kind: str
    later: Place
    earlier: Place
    more: int = 0                    # other earlier places in the same split
    rules: tuple[str, ...] = ()      # near: which rules made the texts equal
    detail: str | None = None        # conflict: what differs

    @property
    def within(self) -> bool:
        return self.later.split == self.earlier.split


@dataclass
class LeakReport:
    files: list[tuple[ItemFile, str]]
    normalization: Normalization
    near: NearRules
    min_words: int = 0
    findings: list[Finding] = field(default_factory=list)
    duplicates: dict[str, int] = field(default_factory=dict)  # split -> copies that agree, beyond the first
    short: int = 0  # items with fewer words than min_words, not compared

    def count(self, kind: str, later: str, earlier: str) -> int:
        return sum(1 for f in self.findings if f.kind == kind and f.later.split == later
                   and f.earlier.split == earlier)


def find_leaks(files: Sequence[tuple[ItemFile, str]], normalization: Normalization, near: NearRules,
               min_words: int = 0) -> LeakReport:
    """Check ``files`` (each with its split) as the module docstring says."""
    report = LeakReport(list(files), normalization, near, min_words)
    earlier: dict[str, LeakIndex] = {}
    for split in SPLITS:
        members = [f for f, s in files if s == split]
        if not members:
            continue
        index = LeakIndex(normalization, near, min_words)
        first: dict[str, tuple[Place, str | None]] = {}  # normalized text -> its first place in this split
        copies = 0
        for items in members:
            number = index.new_file(items.path, split)
            for item in items.items:
                keys = index.keys(item.text)
                if not keys.counted:
                    report.short += 1
                    continue
                place = Place(items.path, split, item.line, item.id, items.shown(item))
                for other in earlier.values():
                    finding = _against(items.format, place, item.annotation, other.matches(keys), other)
                    if finding is not None:
                        report.findings.append(finding)
                seen = first.get(keys.normalized)
                if seen is None:
                    first[keys.normalized] = (place, item.annotation)
                elif not agree(items.format, item.annotation, seen[1], normalization):
                    report.findings.append(Finding(CONFLICT, place, seen[0], detail=difference(
                        items.format, item.annotation, seen[1], normalization)))
                else:
                    copies += 1
                index.add_keyed(number, item, keys)
        report.duplicates[split] = copies
        earlier[split] = index
    report.findings.sort(key=lambda f: (rank(f.later.split), rank(f.earlier.split),
                                        _file_order(report, f.later.file), f.later.line))
    return report


def _file_order(report: LeakReport, path: str) -> int:
    return next(k for k, (f, _) in enumerate(report.files) if f.path == path)


def _against(fmt: str, place: Place, annotation: str | None, matches, index: LeakIndex) -> Finding | None:
    """The finding of an item against an earlier split's matches, if any."""
    if not matches:
        return None

    def where(match) -> Place:
        entry = match.entry
        item = entry.item
        shown = item.raw if fmt in ("space", "tsv") else item.text
        return Place(index.files[entry.file], index.splits[entry.file], item.line, item.id, shown)

    exact = [m for m in matches if m.kind == EXACT]
    if exact:
        n = index.normalization
        other = next((m for m in exact if not agree(fmt, annotation, m.entry.item.annotation, n)), None)
        if other is not None:
            return Finding(CONFLICT, place, where(other), len(exact) - 1,
                           detail=difference(fmt, annotation, other.entry.item.annotation, n))
        return Finding(EXACT, place, where(exact[0]), len(exact) - 1)
    return Finding("near", place, where(matches[0]), len(matches) - 1, rules=matches[0].rules)
