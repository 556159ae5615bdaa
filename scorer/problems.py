"""Problems found in input files: the one type every reader and check returns.

A problem names a place (0-based line, and a span of character offsets in
that line, counted in code points as Python indexes strings) and carries a
stable ``code`` that tools can rely on (``format-columns``, ``cycle``, ...).
On line 1 of a file with a byte-order mark, columns count from the first
character after the mark: editors show (and send) the text without it.
Editors get these spans as LSP ranges (the LSP adapter converts code points
to UTF-16 units when the client needs it); the command line prints them
1-based as ``path:line:col``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import IntEnum


class Severity(IntEnum):
    """Same numbers as LSP's DiagnosticSeverity."""

    ERROR = 1
    WARNING = 2
    INFORMATION = 3
    HINT = 4

    @property
    def label(self) -> str:
        return self.name.lower()


@dataclass(frozen=True, slots=True)
class Related:
    """Another place that belongs to a problem (e.g. the other HEADs of a cycle)."""

    line: int
    start: int
    end: int
    message: str


@dataclass(frozen=True, slots=True)
class Problem:
    code: str
    message: str
    line: int
    start: int = 0
    end: int = 0
    severity: Severity = Severity.ERROR
    # True when the official conll18_ud_eval.py would refuse the file for this.
    refuses: bool = False
    related: tuple[Related, ...] = ()
    # Facts for tools beside the message, as (name, value) pairs: e.g. the
    # words of a cycle in order (see `scorer.conllu.checks.cycle_marks`).
    data: tuple[tuple[str, object], ...] = ()

    def datum(self, name: str, default: object = None) -> object:
        return next((value for key, value in self.data if key == name), default)

    def shifted(self, lines: int) -> "Problem":
        """The same problem ``lines`` further down (sentences count lines from
        their own first line; files count from the top)."""
        return self.moved(lines, self.severity)

    def moved(self, lines: int, severity: Severity) -> "Problem":
        """`shifted`, with another severity (the editor's settings may change
        it).  Built directly: ``dataclasses.replace`` is slow for the
        thousands of diagnostics a large file shows."""
        if not lines and severity == self.severity:
            return self
        related = tuple(replace(r, line=r.line + lines) for r in self.related) if lines else self.related
        return Problem(self.code, self.message, self.line + lines, self.start, self.end, severity,
                       self.refuses, related, self.data)

    def location(self, path: str) -> str:
        """``path:line:col`` with 1-based numbers, as compilers print them."""
        return f"{path}:{self.line + 1}:{self.start + 1}"
