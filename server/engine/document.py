"""A document the engine holds: its text, what it is, what was made of it.

The text is an editor buffer, or a file read from disk when no editor has
it open, kept as a `TextStore` (CoNLL-U, in sentence segments) or a
`LineStore` (segmentation and labels).  ``setup`` says what the document is
and what it is scored against (`server.config.setup_for`); ``results`` is
what its format's handler made at the last rescore (the handler's own
type), and ``edits`` what changed since.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from annoscore.scorer.binary import is_stray_nul, nul_note
from annoscore.scorer.problems import Problem, Severity

from ..config import DocumentSetup
from ..textstore import LineStore, TextStore, forget_segments


@dataclass(eq=False)
class Document:
    key: str
    path: str | None
    store: TextStore | LineStore
    setup: DocumentSetup
    version: int | None = None
    in_editor: bool = False
    # Why the text is not scored (a file that is not text: compressed,
    # UTF-16): a format-binary problem, the one diagnostic then; None for
    # text.  (A NUL in text is a note among the byte problems: `nul_note`.)
    binary: Problem | None = None
    # What the file's bytes had that the text cannot show (bytes that are
    # not UTF-8); set by whoever read it from disk.
    byte_problems: tuple[Problem, ...] = ()
    # Why the last rescore failed (a fault of annoscore's, logged), or None.
    failure: str | None = None
    # Its gold is a declared test split: scored without it (server.engine.splits).
    gold_withheld: bool = False
    # Edits since the last rescore: (segments removed, segments inserted);
    # None when unknown (a whole new text): then everything is looked at.
    edits: list[tuple[list, list]] | None = None
    # What the format's handler made at the last rescore.
    results: Any = None
    # Its agreement with other annotations (server.engine.agreement), by their paths.
    agreement: Any = None

    @property
    def format(self) -> str:
        return self.setup.format

    def replace_text(self, text: str, byte_problems: Sequence[Problem] = (), from_disk: bool = False) -> None:
        """A whole new text (from disk, or an editor sending everything).
        A file's lone CRs end lines, as `evaluate` reads them."""
        forget_segments(getattr(self.store, "segments", ()))
        if from_disk:
            self.store.lone_cr_ends_lines = True
        self.store.replace_all(text)
        self.edits = None
        self.set_byte_problems(text, byte_problems)

    def set_byte_problems(self, text: str, byte_problems: Sequence[Problem] = ()) -> None:
        """What the text (and the bytes it was read from) say it is."""
        self.binary = next((p for p in byte_problems if p.code == "format-binary" and not is_stray_nul(p)
                            and p.severity == Severity.ERROR), None)
        rest = tuple(p for p in byte_problems if p.code != "format-binary")
        note = nul_note(text) if self.binary is None else None
        self.byte_problems = rest + (note,) if note is not None else rest

    @property
    def has_nul(self) -> bool:
        """A NUL noted in the text (its place moves with edits)."""
        return any(p.code == "format-binary" for p in self.byte_problems)
