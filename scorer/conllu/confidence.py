"""Parser confidence per cell, written in MISC as ``Conf=…``.

Two forms (names case-insensitive, values in [0, 1]):

- ``Conf=0.93``: one value for every predicted cell of the word;
- ``Conf=UPOS:0.98,XPOS:0.97,LEMMA:0.99,FEATS:0.91,HEAD:0.72,DEPREL:0.80``:
  a value per cell, any subset of the six.
"""

from __future__ import annotations

import math

from ..problems import Problem, Severity
from .reader import cell_span
from .sentence import MISC, Sentence

CONF_COLUMNS = ("UPOS", "XPOS", "LEMMA", "FEATS", "HEAD", "DEPREL")
_COLUMN_INDEX = {"UPOS": 3, "XPOS": 4, "LEMMA": 2, "FEATS": 5, "HEAD": 6, "DEPREL": 7}


def column_index(name: str) -> int:
    """CoNLL-U column number (0-9) of a confidence name."""
    return _COLUMN_INDEX[name]


class ConfError(ValueError):
    def __init__(self, message: str, start: int, end: int) -> None:
        super().__init__(message)
        self.start, self.end = start, end  # offsets inside the Conf value


def _probability(text: str, start: int) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ConfError(f"'{text}' is not a number", start, start + len(text)) from None
    if not (0.0 <= value <= 1.0) or math.isnan(value):
        raise ConfError(f"{text} is outside [0, 1]", start, start + len(text))
    return value


def parse_conf(value: str) -> dict[str, float]:
    """The confidences in one ``Conf=`` value (the part after '='), by column.

    Raises ConfError, with the offending span inside ``value``.
    """
    if ":" not in value:
        p = _probability(value, 0)
        return dict.fromkeys(CONF_COLUMNS, p)
    out: dict[str, float] = {}
    pos = 0
    for part in value.split(","):
        name, sep, number = part.partition(":")
        key = name.strip().upper()
        if not sep:
            raise ConfError(f"'{part}' should be NAME:VALUE", pos, pos + len(part))
        if key not in _COLUMN_INDEX:
            raise ConfError(f"unknown column '{name}' (use UPOS, XPOS, LEMMA, FEATS, HEAD, DEPREL)",
                            pos, pos + len(name))
        out[key] = _probability(number, pos + len(name) + 1)
        pos += len(part) + 1
    return out


def conf_item(misc: str) -> tuple[int, str] | None:
    """Offset (inside MISC) and text of the ``Conf=`` value, if any."""
    if "Conf=" not in misc:
        return None
    pos = 0
    for item in misc.split("|"):
        if item.startswith("Conf="):
            return pos + 5, item[5:]
        pos += len(item) + 1
    return None


def word_confidences(sentence: Sentence) -> tuple[list[dict[str, float] | None], list[Problem]]:
    """Per word, its confidences (None without ``Conf=``), and problems for
    malformed values (with lines relative to the sentence)."""
    out: list[dict[str, float] | None] = []
    problems: list[Problem] = []
    for i, misc in enumerate(sentence.misc):
        found = conf_item(misc)
        if found is None:
            out.append(None)
            continue
        offset, value = found
        try:
            out.append(parse_conf(value))
        except ConfError as error:
            out.append(None)
            line = sentence.word_line[i]
            start, _ = cell_span(sentence.lines[line], MISC)
            problems.append(Problem(
                "format-conf", f"Conf: {error}", line, start + offset + error.start,
                start + offset + max(error.end, error.start + 1), Severity.WARNING))
    return out, problems
