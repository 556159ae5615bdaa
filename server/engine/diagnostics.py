"""What a document shows: severities from the settings, and a cap per code.

A file a parser got badly wrong can have tens of thousands of diagnostics
of one kind; an editor shown them all freezes.  `DiagnosticCap` applies the
user's severities (dropping codes turned off), keeps at most
``max_diagnostics`` per code, and adds one summary per code that had more.
Callers that can tell whether something would be shown (`wants`,
`saturated`) skip building the diagnostics past the cap.

Problems that stay from one rescore to the next (the UD validator's
findings of sentences that were not edited) are made ready to show once, as
a `Listing`: absolute lines, the user's severities applied, counted per
code.  `add_listing` takes a whole listing at the cost of its codes, not of
its problems, so that a document with a hundred thousand findings costs
per rescore what the shown ones cost.  A listed problem object is shown
again only at the same place of the same text (the LSP adapter keeps each
one's JSON by the object).

``twins`` (`server.engine.conllu.twins.Twins`), when set, is asked about
each problem added: a UD validation problem that is the same problem is
taken into it (one diagnostic, carrying both codes).
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import attrgetter
from typing import Sequence

from scorer.problems import Problem, Severity

from ..config import Settings, severity_for


@dataclass(frozen=True, slots=True, eq=False)
class Listing:
    """Problems ready to show (see `DiagnosticCap.listing`)."""

    settings: Settings
    problems: tuple[Problem, ...]                 # absolute lines, severities applied, in order
    by_code: dict[str, tuple[Problem, ...]]       # the same, by code


_ORDER = attrgetter("line", "start")  # (a stable sort: on one place, the order they came in)


class DiagnosticCap:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.cap = settings.max_diagnostics
        self.severity: dict[tuple[str, Severity], Severity | None] = {}
        self.counts: dict[str, int] = {}
        self.problems: list[Problem] = []
        self.first: dict[str, Problem] = {}
        self.summaries: list[Problem] = []
        self.twins = None

    def _severity(self, code: str, default: Severity) -> Severity | None:
        key = (code, default)  # (one code may come with two defaults: see twins)
        if key not in self.severity:
            self.severity[key] = severity_for(self.settings, code, default)
        return self.severity[key]

    def enabled(self, code: str) -> bool:
        # Any default will do: only "off" (None) matters here.
        return self._severity(code, Severity.ERROR) is not None

    def wants(self, code: str) -> bool:
        return self.counts.get(code, 0) < self.cap and self.enabled(code)

    def saturated(self, problems: Sequence[Problem]) -> bool:
        """Count the problems without looking at them when every one of them
        is past the cap already (True), else leave them to `add` (False)."""
        counts, cap = self.counts, self.cap
        for p in problems:
            if counts.get(p.code, 0) < cap:
                return False
        for p in problems:
            if self._severity(p.code, p.severity) is not None:
                counts[p.code] = counts.get(p.code, 0) + 1
        return True

    def add(self, problem: Problem, line: int = 0) -> None:
        """A problem (lines relative to ``line``), with the user's severity."""
        if self.twins is not None:
            problem = self.twins.claim(problem, line)
        severity = self._severity(problem.code, problem.severity)
        if severity is None:
            return
        n = self.counts[problem.code] = self.counts.get(problem.code, 0) + 1
        if n > self.cap:
            return
        problem = problem.moved(line, severity)
        self.problems.append(problem)
        self.first.setdefault(problem.code, problem)

    def listing(self, problems: Sequence[Problem], line: int = 0) -> Listing:
        """``problems`` (lines relative to ``line``) ready for `add_listing`;
        those whose code is turned off left out.  Twins are not claimed:
        for problems that annoscore's own may not take."""
        severity = self._severity
        ready = []
        by_code: dict[str, list[Problem]] = {}
        for p in problems:
            s = severity(p.code, p.severity)
            if s is not None:
                p = p.moved(line, s)
                ready.append(p)
                by_code.setdefault(p.code, []).append(p)
        return Listing(self.settings, tuple(ready), {code: tuple(ps) for code, ps in by_code.items()})

    def add_listing(self, listing: Listing, count_past_cap: bool = True) -> None:
        """Show a listing's problems as far as the cap lets each code (the
        listing must be made for these settings: see `Listing.settings`).
        ``count_past_cap`` False: those past the cap are not counted either
        (the caller sums them up itself, with `extra`)."""
        counts, cap, first = self.counts, self.cap, self.first
        by_code = listing.by_code
        if all(counts.get(code, 0) + len(ps) <= cap for code, ps in by_code.items()):
            self.problems.extend(listing.problems)
            for code, ps in by_code.items():
                counts[code] = counts.get(code, 0) + len(ps)
                first.setdefault(code, ps[0])
            return
        for code, ps in by_code.items():
            have = counts.get(code, 0)
            counts[code] = have + len(ps) if count_past_cap else max(have, min(have + len(ps), cap))
            if have < cap:
                self.problems.extend(ps[:cap - have])
                first.setdefault(code, ps[0])

    def extra(self, problem: Problem) -> None:
        """A summary of the caller's own, past the cap (not counted)."""
        self.summaries.append(problem)

    def finish(self, ordered: bool = True) -> list[Problem]:
        """What is shown: the problems (in line order, unless ``ordered`` is
        False), then the summaries of what is not."""
        out = sorted(self.problems, key=_ORDER) if ordered else list(self.problems)
        for code, n in self.counts.items():
            first = self.first.get(code)
            if n > self.cap and first is not None:
                out.append(Problem(
                    code, f"{n - self.cap} more '{code}' diagnostics are not shown (at most {self.cap} "
                    "per kind; see annoscore.maxDiagnostics)", first.line, first.start, first.end,
                    first.severity))
        return out + self.summaries
