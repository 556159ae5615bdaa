"""The leak check's results as text for people and JSON for programs.

Text: the files and rules, then one section per pair of splits (``dev in
train``, ``test in train``, ``test in dev``, then conflicts ``within``
each split), each finding on two lines — the later place, then the earlier
one (``path:line [sent_id] 'text'``) — at most `SHOWN` per section unless
all are asked for; a summary last.

JSON (a contract)::

    {"files": [{"path", "split", "format", "items", "sha256"}],
     "rules": {"normalize", "near", "min_words"},
     "counts": {"dev in train": {"exact", "near", "conflict"}, ..., "within train": {"conflict"}},
     "findings": [{"kind": "exact"|"near"|"conflict", "rules": [...], "detail": str|null, "more": n,
                   "later": {"file", "split", "line", "id", "text"}, "earlier": {...}}],
     "duplicates": {split: n}, "not_compared": n, "findings_total": n}

Lines are 1-based; texts and IDs are cut to `JSON_TEXT` characters.
"""

from __future__ import annotations

from typing import Any

from ..excerpt import identifier, printable_name, quoted
from .leaks import CONFLICT, KINDS, Finding, LeakReport, Place
from .splits import SPLITS

SHOWN = 10       # findings per section in the text, unless all are asked for
JSON_TEXT = 200  # characters of an item's text in the JSON

PAIRS = [(later, earlier) for later in SPLITS for earlier in SPLITS if SPLITS.index(earlier) < SPLITS.index(later)]


def _section(later: str, earlier: str) -> str:
    return f"within {later}" if later == earlier else f"{later} in {earlier}"


def _sections(report: LeakReport) -> list[tuple[str, list[Finding]]]:
    out = []
    for later, earlier in PAIRS + [(s, s) for s in SPLITS]:
        found = [f for f in report.findings if f.later.split == later and f.earlier.split == earlier]
        if found:
            out.append((_section(later, earlier), found))
    return out


def _place(place: Place) -> str:
    where = f"{place.file}:{place.line + 1}"
    if place.id:
        where += f" [{identifier(place.id)}]"
    return f"{where} {quoted(place.text)}"


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def _counts_line(found: list[Finding]) -> str:
    parts = []
    for kind in KINDS:
        n = sum(1 for f in found if f.kind == kind)
        if n:
            parts.append(_plural(n, kind) if kind == CONFLICT else f"{n:,} {kind}")
    return ", ".join(parts)


def leaks_text(report: LeakReport, show_all: bool = False) -> str:
    lines = ["Files: " + "; ".join(f"{split} {printable_name(f.path)} ({_plural(len(f.items), f.unit)})"
                                   for f, split in report.files)]
    rules = f"Same text after: {report.normalization.name}; near: {report.near.name}"
    if report.min_words:
        rules += f"; items of fewer than {report.min_words} words not compared ({report.short:,})"
    lines += [rules, ""]
    sections = _sections(report)
    for title, found in sections:
        lines.append(f"{title}: {_counts_line(found)}")
        for finding in found if show_all else found[:SHOWN]:
            lines.append(f"  {finding.kind:<9} {_place(finding.later)}")
            earlier = _place(finding.earlier)
            if finding.more:
                earlier += f", and {finding.more:,} more in {finding.earlier.split}"
            if finding.kind == CONFLICT:
                lines.append(f"  {'vs':<9} {earlier}: {finding.detail}")
            elif finding.kind == "near":
                lines.append(f"  {'like':<9} {earlier} ({', '.join(finding.rules)})")
            else:
                lines.append(f"  {'also':<9} {earlier}")
        if not show_all and len(found) > SHOWN:
            lines.append(f"  … and {len(found) - SHOWN:,} more (--all lists them; --json gives all)")
    if not sections:
        lines.append("No leaks: no item of a later split occurs in an earlier one, and no text has "
                     "conflicting annotations.")
    else:
        between = [f for f in report.findings if not f.within]
        within = [f for f in report.findings if f.within]
        summary = f"Leaks: {_plural(len(between), 'item')} of a later split found in an earlier one"
        if between:
            summary += f" ({_counts_line(between)})"
        if within:
            summary += f"; {_plural(len(within), 'conflict')} within a split"
        lines += ["", summary + "."]
    copies = [f"{split} {n:,}" for split, n in report.duplicates.items() if n]
    if copies:
        lines.append("Copies within a split that agree (not leaks): " + ", ".join(copies) + ".")
    return "\n".join(lines)


def _place_json(place: Place) -> dict[str, Any]:
    return {"file": place.file, "split": place.split, "line": place.line + 1,
            "id": place.id[:JSON_TEXT] if place.id is not None else None,
            "text": place.text[:JSON_TEXT]}


def leaks_json(report: LeakReport) -> dict[str, Any]:
    counts: dict[str, dict[str, int]] = {}
    for later, earlier in PAIRS:
        if any(s == later for _, s in report.files) and any(s == earlier for _, s in report.files):
            counts[_section(later, earlier)] = {kind: report.count(kind, later, earlier) for kind in KINDS}
    for split in SPLITS:
        if any(s == split for _, s in report.files):
            counts[_section(split, split)] = {CONFLICT: report.count(CONFLICT, split, split)}
    return {
        "files": [{"path": f.path, "split": split, "format": f.format, "items": len(f.items), "sha256": f.sha256}
                  for f, split in report.files],
        "rules": {"normalize": report.normalization.name, "near": report.near.name,
                  "min_words": report.min_words},
        "counts": counts,
        "findings": [{"kind": f.kind, "rules": list(f.rules), "detail": f.detail, "more": f.more,
                      "later": _place_json(f.later), "earlier": _place_json(f.earlier)}
                     for f in report.findings],
        "duplicates": dict(report.duplicates),
        "not_compared": report.short,
        "findings_total": len(report.findings),
    }
