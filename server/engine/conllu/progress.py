"""How far the annotation of a CoNLL-U document has come.

Two counts, of all its sentences:

- *annotated*: sentences with a HEAD in every word — nothing left ``_`` (or
  not a number). This needs no convention: it is what a parser or an
  annotator still has to fill in. It comes from each sentence's analysis
  (`SentenceInfo.missing_heads`) and is kept by the document's index.
- *marked*: sentences carrying the workspace's marker comment, for teams
  that mark a sentence as checked by hand. The marker is a comment key
  (setting ``progressMarker``, ``progress_marker`` in annoscore.toml;
  default ``annotated``; "" for none): a sentence is marked when one of the
  comments before its first token line is ``# annotated``, or
  ``# annotated = …`` / ``# annotated: …`` with any value but ``no``,
  ``false`` or ``0``. Only segments whose text holds the marker at all are
  looked at line by line, so counting is a fast text search.
"""

from __future__ import annotations

from typing import Any

from .analysis import SentenceInfo

NOT_MARKED = ("no", "false", "0")


def is_annotated(info: SentenceInfo) -> bool:
    return info.words > 0 and not info.missing_heads


def is_marked(info: SentenceInfo, marker: str) -> bool:
    """Whether the sentence's leading comments hold the marker (see the module's docstring)."""
    text = info.segment.text
    if not marker or marker not in text:
        return False
    lines = text.split("\n", info.line_offset + 64)[info.line_offset:info.line_offset + 64]
    for line in lines:
        if not line.startswith("#"):
            return False
        body = line[1:].strip()
        if not body.startswith(marker):
            continue
        rest = body[len(marker):]
        if not rest:
            return True
        if rest[0] in "=:" or rest[0].isspace():
            value = rest.lstrip(" \t=:").strip().lower()
            return value not in NOT_MARKED
    return False


def annotation_progress(index, marker: str) -> dict[str, Any]:
    """The ``progress`` of the score payload: sentences, annotated, and
    marked (None without a marker)."""
    return {"sentences": len(index.infos), "annotated": index.annotated,
            "marker": marker or None, "marked": index.marked(marker) if marker else None}


def progress_text(progress: dict[str, Any]) -> str:
    """One line for the report: ``Annotation progress: 5 of 6 sentences (83.33%) with a HEAD in every word …``."""
    n = progress["sentences"]

    def share(k: int) -> str:
        return f"{k:,} of {n:,} sentence{'s' if n != 1 else ''}" + (f" ({100 * k / n:.2f}%)" if n else "")

    text = f"Annotation progress: {share(progress['annotated'])} with a HEAD in every word"
    if progress["marker"]:
        text += f"; {progress['marked']:,} marked '# {progress['marker']}'"
    return text
