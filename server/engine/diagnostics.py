"""What a document shows: severities from the settings, and a cap per code.

A file a parser got badly wrong can have tens of thousands of diagnostics
of one kind; an editor shown them all freezes.  `DiagnosticCap` applies the
user's severities (dropping codes turned off), keeps at most
``max_diagnostics`` per code, and adds one summary per code that had more.
Callers that can tell whether something would be shown (`wants`,
`saturated`) skip building the diagnostics past the cap.

``twins`` (`server.engine.conllu.twins.Twins`), when set, is asked about
each problem added: a UD validation problem that is the same problem is
taken into it (one diagnostic, carrying both codes).
"""

from __future__ import annotations

from typing import Sequence

from scorer.problems import Problem, Severity

from ..config import Settings, severity_for


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
        return severity_for(self.settings, code, Severity.ERROR) is not None

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

    def extra(self, problem: Problem) -> None:
        """A summary of the caller's own, past the cap (not counted)."""
        self.summaries.append(problem)

    def finish(self) -> list[Problem]:
        out = sorted(self.problems, key=lambda p: (p.line, p.start))
        for code, n in self.counts.items():
            first = self.first.get(code)
            if n > self.cap and first is not None:
                out.append(Problem(
                    code, f"{n - self.cap} more '{code}' diagnostics are not shown (at most {self.cap} "
                    "per kind; see annoscore.maxDiagnostics)", first.line, first.start, first.end,
                    first.severity))
        return out + self.summaries
