"""Validate a whole file's text: cut it into blocks, validate each, then the document.

This is what ``annoscore check`` and the parity tests use.  The text is cut
as the engine cuts a document (blocks between blank lines, after CR LF and
lone CR became LF, a leading byte-order mark set apart), so validating the
blocks one by one and then the document gives exactly what this gives.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace

from annoscore.scorer.validation.block import BlockValidation, validate_block
from annoscore.scorer.validation.document import FileFacts, validate_document
from annoscore.scorer.validation.incident import Incident
from annoscore.scorer.validation.langdata import guess_language
from annoscore.scorer.validation.settings import ValidationSettings, prepare
from ..reading import open_file


@dataclass(frozen=True)
class Block:
    first_line: int
    text: str            # the block's lines, without the blank line after it
    terminated: bool     # a blank line follows
    bom: bool            # the file's byte-order mark precedes it


def cut(text: str) -> tuple[list[Block], FileFacts]:
    """Blocks and file facts of a raw text (any line ends, maybe a BOM)."""
    has_cr = "\r" in text
    if has_cr:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    bom = text.startswith("\ufeff")
    if bom:
        text = text[1:]
    line_count = text.count("\n") + (0 if text.endswith("\n") else 1)
    if not text and not bom:
        line_count = 0
    blocks: list[Block] = []
    blanks: list[int] = []
    size = len(text)
    pos, line = 0, 0
    if not bom:
        while pos < size and text[pos] == "\n":  # blank lines before the first block
            blanks.append(line)
            pos += 1
            line += 1
    while pos < size or (bom and not blocks):
        end = text.find("\n\n", pos)
        if end < 0:
            body = text[pos:]
            if body.endswith("\n"):
                body = body[:-1]
            blocks.append(Block(line, body, False, bom and not blocks))
            break
        body = text[pos:end]
        run = end
        while run < size and text[run] == "\n":
            run += 1
        newlines = run - end
        blocks.append(Block(line, body, True, bom and not blocks))
        n_lines = body.count("\n") + 1
        # One newline ends the block's last line, the next its blank line;
        # each further one is a blank line of its own.
        blanks.extend(range(line + n_lines + 1, line + n_lines + newlines - 1))
        line += n_lines + newlines - 1
        pos = run
    return blocks, FileFacts(line_count, has_cr, tuple(blanks))


@dataclass(frozen=True)
class ValidationResult:
    incidents: list[Incident]     # sorted by line and column
    level: int                    # the level that ran
    lang: str                     # the language whose lists were used ('ud' below level 4)
    notes: tuple[str, ...]        # why a level could not run, unknown ids ...

    @property
    def errors(self) -> int:
        return sum(1 for i in self.incidents if i.is_error)


def validate_text(text: str, settings: ValidationSettings = ValidationSettings(),
                  path: str | os.PathLike | None = None) -> ValidationResult:
    """Validate a whole file.  Without ``settings.lang``, the language is
    guessed from ``path`` when it is a UD file name."""
    if settings.lang is None and path is not None:
        guessed = guess_language(path)
        if guessed:
            settings = replace(settings, lang=guessed)
    prepared = prepare(settings)
    blocks, facts = cut(text)
    results: list[tuple[int, BlockValidation]] = []
    incidents: list[Incident] = []
    for block in blocks:
        result = validate_block(block.text, prepared, block.terminated, block.bom)
        results.append((block.first_line, result))
        if result.incidents:
            incidents.extend(result.shifted_incidents(block.first_line))
    incidents.extend(validate_document(results, facts, prepared))
    incidents.sort(key=lambda i: (i.line, i.start, i.test_id))
    return ValidationResult(incidents, prepared.level, prepared.lang, prepared.notes)


def validate_file(path: str | os.PathLike, settings: ValidationSettings = ValidationSettings()
                  ) -> ValidationResult:
    """`validate_text` of a file read as UTF-8 (undecodable bytes become
    U+FFFD, which the validator reports as ``invalid-utf``)."""
    with open_file(path) as handle:
        data = handle.read()
    return validate_text(data.decode("utf-8", errors="replace"), settings, path)
