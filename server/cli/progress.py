"""Progress on stderr for long runs, only when stderr is a terminal."""

from __future__ import annotations

import sys
import time

from annoscore.scorer.excerpt import terminal_safe

MIN_BYTES = 8 << 20  # smaller files are done before a progress line helps


class Progress:
    def __init__(self, label: str, total: int, stream=None) -> None:
        self.stream = stream or sys.stderr
        # Its carriage returns go to the terminal itself (the command line's
        # guard would escape them: server.cli.TerminalSafe); its text is made
        # safe here.
        self._raw = getattr(self.stream, "unguarded", self.stream)
        self.label = label
        self.enabled = total >= MIN_BYTES and getattr(self.stream, "isatty", lambda: False)()
        self._last = 0.0
        self._shown = False

    def note(self, text: str) -> None:
        """A line without a percentage (work done elsewhere, e.g. in other processes)."""
        if self.enabled:
            self._shown = True
            self._raw.write("\r" + terminal_safe(f"{self.label} {text}"))
            self.stream.flush()
            self.label = f"{self.label} {text}"

    def update(self, done: int, total: int) -> None:
        if not self.enabled or not total:
            return
        now = time.monotonic()
        if now - self._last < 0.2:
            return
        self._last = now
        self._shown = True
        self._raw.write("\r" + terminal_safe(f"{self.label} {100 * done / total:3.0f}%"))
        self.stream.flush()

    def done(self) -> None:
        if self._shown:
            self._raw.write("\r" + " " * (len(self.label) + 6) + "\r")
            self.stream.flush()
