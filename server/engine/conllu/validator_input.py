"""What the UD validator is given for a document: its settings and its blocks.

Kept apart from `validation` (which keeps the findings) and light to
import: ``annoscore check`` hands a large file's blocks to the helper
processes before it has imported the rest of the engine
(`validation_parts.start_early`), and both sides must cut the same blocks
with the same settings.

One place where segments and the validator's blocks differ: a byte-order
mark alone on the first line.  The text store sets it apart as a blank
line, but for the validator that line holds U+FEFF: when no blank line
follows, it is the first line of the next block (which is then validated
from the line before its segment, ``joined``); otherwise it is a block of
its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from annoscore.scorer.validation import ValidationSettings, guess_language

if TYPE_CHECKING:
    from ...config import ValidationConfig
    from ...textstore import Segment


def settings_for(config: ValidationConfig, path: str | None) -> ValidationSettings | None:
    """What a document is validated with (None: validation is off).  The
    language: the setting, else the file's UD name, else the project's;
    the level as set ("auto": 5 if it can run, else 3, saying why: see
    `scorer.validation.settings.prepare`)."""
    if config.level == 0:
        return None
    lang = config.lang or (guess_language(path) if path else None) or config.project_lang
    return ValidationSettings(config.level, lang, config.data_dir, frozenset(config.exclude),
                              frozenset(config.include_only))


def bom_line_joins(segments: Sequence[Segment]) -> bool:
    """The byte-order mark's line, alone and followed by no blank line, is
    the first line of the next block."""
    return len(segments) > 1 and segments[0].bom and not segments[0].has_block \
        and segments[0].text.count("\n") == 1


def block_of(segment: Segment, joined: bool) -> tuple[str, bool, bool] | None:
    """(text, terminated, bom) of a segment's block as the validator reads it;
    None for a segment without one.  ``joined``: the byte-order mark's line
    is the block's first (for the mark's own segment: it is not a block)."""
    if segment.has_block:
        block = segment.block or ""
        return ("\n" + block if joined else block), segment.text.endswith("\n\n"), segment.bom or joined
    if segment.bom and not joined:  # the mark alone, with a blank line after it (or the whole file)
        return "", segment.text.count("\n") >= 2, True
    return None


def document_blocks(segments: Sequence[Segment]) -> list[tuple[str, bool, bool]]:
    """The blocks of every segment that has one, in order: what a first
    validation hands to the helpers."""
    joins = bom_line_joins(segments)
    out = []
    for k, segment in enumerate(segments):
        block = block_of(segment, joins and k < 2)
        if block is not None:
            out.append(block)
    return out
