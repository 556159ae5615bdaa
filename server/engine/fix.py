"""One fix: what the editor's quick fix is called and the edits it makes.

Apart from `fixes` (which finds the fix for a problem) so that the modules
making fixes of their own kind (`agreement`, `suggestions`) need not import
the module that dispatches to them.
"""

from __future__ import annotations

from dataclasses import dataclass

# (start line, start column, end line, end column, new text), in code points.
Edit = tuple[int, int, int, int, str]


@dataclass
class Fix:
    title: str
    edits: list[Edit]
