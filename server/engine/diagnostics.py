"""What a document shows: severities from the settings, a cap per code and
a limit per document.

A file a parser got badly wrong can have tens of thousands of diagnostics
of many kinds; an editor shown them all freezes (VS Code keeps at most 1,000
per file anyway).  `DiagnosticCap` applies the user's severities (dropping
codes turned off) and then two bounds, in this order:

1. at most ``max_diagnostics`` per code (the first ones, in the order they
   are added: the *candidates*);
2. at most ``max_diagnostics_per_document`` in all, summaries included:
   the candidates that rank first by severity (errors first), then by
   place in the document (from the top).

Every code with diagnostics left out gets one summary that says how many,
at its first one; the summaries are always shown (with more codes left out
than the limit, only they are).  Callers that can tell whether something would be shown
(`wants`, `saturated`) skip building the diagnostics past the cap.

The limit is applied as problems come in, so that a document with a
hundred thousand findings costs what the shown ones cost: while more than
the limit are in hand they are kept in a heap whose top is the one that
ranks last, and a problem (or a whole `Listing`, by its best-ranked one)
that ranks after it is only counted.

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

import heapq
from collections import Counter
from dataclasses import dataclass
from operator import attrgetter
from typing import Sequence

from annoscore.scorer.problems import Problem, Severity

from ..config import Settings, severity_for


@dataclass(frozen=True, slots=True, eq=False)
class Listing:
    """Problems ready to show (see `DiagnosticCap.listing`)."""

    settings: Settings
    problems: tuple[Problem, ...]                 # absolute lines, severities applied, in order
    by_code: dict[str, tuple[Problem, ...]]       # the same, by code
    best: tuple[int, int, int] | None             # the best rank among them (see `_rank`), None if none


_ORDER = attrgetter("line", "start")  # (a stable sort: on one place, the order they came in)


def _rank(problem: Problem) -> tuple[int, int, int]:
    """How a problem ranks for the per-document limit: lower is shown first."""
    return (problem.severity, problem.line, problem.start)


class DiagnosticCap:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.cap = settings.max_diagnostics
        self.limit = settings.max_diagnostics_per_document
        self.severity: dict[tuple[str, Severity], Severity | None] = {}
        self.counts: dict[str, int] = {}       # per code: every problem not turned off, shown or not
        self.problems: list[Problem] = []      # the candidates in hand, in the order they came
        # Past the limit: the candidates kept, as a heap of (-severity, -line,
        # -start, -arrival, problem) whose top ranks last (None until then).
        self.heap: list[tuple[int, int, int, int, Problem]] | None = None
        self.arrivals = 0
        self.first: dict[str, Problem] = {}    # per code: the first candidate (where its summary goes)
        self.cells: dict[str, tuple[int, int, str]] = {}  # codes summed up in cells (see `in_cells`)
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

    def _outranked(self, severity: int, line: int, start: int) -> bool:
        """Whether a candidate at this rank would not be shown (it ranks
        after every one kept, and as many as the limit are kept)."""
        heap = self.heap
        if heap is None:
            return False
        last = heap[0]
        return (-severity, -line, -start) <= (last[0], last[1], last[2])

    def _keep(self, problem: Problem) -> None:
        """A candidate (lines absolute, severity applied), as far as the limit lets it."""
        heap = self.heap
        if heap is None:
            self.problems.append(problem)
            if len(self.problems) > self.limit:
                self._start_heap()
            return
        self.arrivals += 1
        entry = (-problem.severity, -problem.line, -problem.start, -self.arrivals, problem)
        if entry > heap[0]:
            heapq.heapreplace(heap, entry)

    def _start_heap(self) -> None:
        heap = [(-p.severity, -p.line, -p.start, -k, p) for k, p in enumerate(self.problems)]
        heapq.heapify(heap)
        while len(heap) > self.limit:
            heapq.heappop(heap)
        self.heap, self.arrivals, self.problems = heap, len(self.problems), []

    def saturated(self, problems: Sequence[Problem], line: int = 0) -> bool:
        """Count the problems (lines relative to ``line``) without looking
        at them when none of them would be shown, past the cap or past the
        limit (True), else leave them to `add` (False)."""
        counts, cap, severity = self.counts, self.cap, self._severity
        heap = self.heap
        for p in problems:
            if counts.get(p.code, 0) < cap:
                if heap is None:
                    return False
                s = severity(p.code, p.severity)
                if s is not None and not self._outranked(s, p.line + line, p.start):
                    return False
        for p in problems:
            s = severity(p.code, p.severity)
            if s is not None:
                counts[p.code] = counts.get(p.code, 0) + 1
                if p.code not in self.first:
                    self.first[p.code] = p.moved(line, s)
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
        if self.heap is not None and self._outranked(severity, problem.line + line, problem.start):
            if n == 1:
                self.first[problem.code] = problem.moved(line, severity)
            return
        problem = problem.moved(line, severity)
        self._keep(problem)
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
        best = min(map(_rank, ready)) if ready else None
        return Listing(self.settings, tuple(ready), {code: tuple(ps) for code, ps in by_code.items()}, best)

    def add_listing(self, listing: Listing, count_past_cap: bool = True) -> None:
        """Show a listing's problems as far as the cap lets each code and the
        limit lets the document (the listing must be made for these
        settings: see `Listing.settings`).  ``count_past_cap`` False: those
        past the cap are not counted either (the caller sums them up
        itself: see `in_cells`)."""
        counts, cap, first = self.counts, self.cap, self.first
        by_code = listing.by_code
        outranked = listing.best is not None and self._outranked(*listing.best)
        if outranked and count_past_cap:
            # None of them is shown: only counted (the common case past the limit, made quick).
            for code, ps in by_code.items():
                have = counts.get(code)
                if have is None:
                    counts[code] = len(ps)
                    first[code] = ps[0]
                else:
                    counts[code] = have + len(ps)
            return
        if all(counts.get(code, 0) + len(ps) <= cap for code, ps in by_code.items()):
            if not outranked:
                if self.heap is None and len(self.problems) + len(listing.problems) <= self.limit:
                    self.problems.extend(listing.problems)
                else:
                    for p in listing.problems:
                        self._keep(p)
            for code, ps in by_code.items():
                counts[code] = counts.get(code, 0) + len(ps)
                first.setdefault(code, ps[0])
            return
        for code, ps in by_code.items():
            have = counts.get(code, 0)
            counts[code] = have + len(ps) if count_past_cap else max(have, min(have + len(ps), cap))
            if have < cap:
                if not outranked:
                    for p in ps[:cap - have]:
                        self._keep(p)
                first.setdefault(code, ps[0])

    @staticmethod
    def tally(listings: Sequence[Listing]) -> tuple[tuple[int, int, int] | None, dict[str, tuple[int, Problem]]]:
        """What `count_tally` needs of a run of listings: the best rank among
        them, and per code (in the order the codes first come) how many
        problems and the first one."""
        codes: dict[str, tuple[int, Problem]] = {}
        best = None
        for listing in listings:
            if listing.best is not None and (best is None or listing.best < best):
                best = listing.best
            for code, ps in listing.by_code.items():
                have = codes.get(code)
                codes[code] = (len(ps), ps[0]) if have is None else (have[0] + len(ps), have[1])
        return best, codes

    def count_tally(self, tally: tuple[tuple[int, int, int] | None, dict[str, tuple[int, Problem]]]) -> bool:
        """The listings of a `tally`, added one by one with `add_listing`,
        when none of their problems would be shown (past the limit): then
        only counted, at the cost of their codes (True); else nothing is
        done (False: the caller adds them one by one)."""
        best, codes = tally
        if best is None or not self._outranked(*best):
            return False
        counts, first = self.counts, self.first
        for code, (n, p) in codes.items():
            have = counts.get(code)
            if have is None:
                counts[code] = n
                first[code] = p
            else:
                counts[code] = have + n
        return True

    def in_cells(self, code: str, total: int, past_cap: int, what: str) -> None:
        """Sum ``code`` up in cells, not diagnostics: its diagnostics name
        ``total`` cells (in the datum ``cells``, 1 when none), ``past_cap``
        of them in diagnostics past the cap, which the caller did not add
        (see `add_listing`'s ``count_past_cap``).  Its one summary says how
        many of ``what`` ("cells below …") are not shown, whichever bound
        left them out."""
        self.cells[code] = (total, past_cap, what)

    def finish(self, ordered: bool = True) -> list[Problem]:
        """What is shown: the problems (in line order, unless ``ordered`` is
        False: then by rank), then the summaries of what is not."""
        if self.heap is None:
            kept = self.problems
            # Within the limit, each code shows its candidates: the first `cap`.
            if len(kept) + len(self.counts) + len(self.cells) <= self.limit or \
                    len(kept) + self._summed_up(None, None) <= self.limit:
                out = sorted(kept, key=_ORDER) if ordered else list(kept)
                return out + self._summaries(None, None)
            entries = sorted((p.severity, p.line, p.start, k, p) for k, p in enumerate(kept))
        else:
            entries = [(-s, -line, -start, -k, p) for s, line, start, k, p in sorted(self.heap, reverse=True)]
        # The summaries count towards the limit: each one shown leaves room for one problem fewer.
        room = len(entries)
        shown = Counter(entry[4].code for entry in entries)
        cells = Counter()
        for entry in entries:
            if entry[4].code in self.cells:
                cells[entry[4].code] += entry[4].datum("cells", 1)
        while True:
            fits = max(0, min(room, self.limit - self._summed_up(shown, cells)))
            if fits == room:
                break
            for entry in entries[fits:room]:
                code = entry[4].code
                shown[code] -= 1
                if code in self.cells:
                    cells[code] -= entry[4].datum("cells", 1)
            room = fits
        kept_entries = entries[:room]
        if ordered:  # in line order; on one place, the order they came in
            kept_entries.sort(key=lambda e: (e[1], e[2], e[3]))
        return [e[4] for e in kept_entries] + self._summaries(shown, cells)

    def _hidden(self, code: str, n: int, shown: Counter | None, cells: Counter | None) -> int:
        """How many of ``code`` are not shown when ``shown`` (per code; None:
        the candidates, the first `cap` of each) are: diagnostics, or cells."""
        if code in self.cells:
            total, past_cap, _ = self.cells[code]
            return past_cap if cells is None else total - cells.get(code, 0)
        return n - (min(n, self.cap) if shown is None else shown.get(code, 0))

    def _summaries(self, shown: Counter | None, cells: Counter | None) -> list[Problem]:
        """One per code with some not shown, at its first one."""
        out = []
        for code, n in self._codes():
            hidden = self._hidden(code, n, shown, cells)
            if hidden <= 0:
                continue
            first = self.first.get(code)
            if code in self.cells:
                _, past_cap, what = self.cells[code]
                by_cap, by_limit = past_cap > 0, hidden > past_cap
                message = f"{hidden} more {what} are not shown ({self._bounds(by_cap, by_limit)})"
            else:
                message = (f"{hidden} more '{code}' diagnostics are not shown "
                           f"({self._bounds(n > self.cap, hidden > max(0, n - self.cap))})")
            out.append(Problem(code, message, first.line if first else 0, first.start if first else 0,
                               first.end if first else 0, first.severity if first else Severity.HINT))
        return out

    def _summed_up(self, shown: Counter | None, cells: Counter | None) -> int:
        """How many codes need a summary when ``shown`` are shown (see `_hidden`)."""
        return sum(1 for code, n in self._codes() if self._hidden(code, n, shown, cells) > 0)

    def _codes(self):
        """(code, how many were counted) for each code seen, and the codes summed up in cells."""
        return {**self.counts, **dict.fromkeys(self.cells, 0)}.items()

    def _bounds(self, by_cap: bool, by_limit: bool) -> str:
        """Which bounds left diagnostics out, and where to see them all."""
        if not by_limit:
            return f"at most {self.cap} diagnostics per kind; see annoscore.maxDiagnostics"
        if not by_cap:
            return (f"at most {self.limit} diagnostics per document; see annoscore.maxDiagnosticsPerDocument; "
                    "'annoscore check' lists them all")
        return (f"at most {self.cap} diagnostics per kind and {self.limit} per document; see "
                "annoscore.maxDiagnostics and annoscore.maxDiagnosticsPerDocument; 'annoscore check' lists them all")
