"""Parser confidence per cell, written in MISC as ``Conf=…``.

Two forms (names case-insensitive, values in [0, 1]):

- ``Conf=0.93``: one value for every predicted cell of the word;
- ``Conf=UPOS:0.98,XPOS:0.97,LEMMA:0.99,FEATS:0.91,HEAD:0.72,DEPREL:0.80``:
  a value per cell, any subset of the six.
"""

from __future__ import annotations

import math
import re

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
        if key in out:
            raise ConfError(f"{key} is given twice", pos, pos + len(name))
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


# --------------------------------------------------------------------------
# Cells below a threshold
# --------------------------------------------------------------------------

_CONF_VALUE = re.compile(r"Conf=([^|\n]*)")
_NAMES = frozenset(CONF_COLUMNS)


def count_low(sentence: Sentence, threshold: float) -> tuple[int, list[Problem]]:
    """How many cells have confidence below ``threshold``, and problems for Conf
    values that cannot be read.

    The engine counts every sentence of a file and places only the cells it
    shows (`low_cells`), so counting must be cheap: the Conf values of the
    whole sentence are split and compared with C-level string operations.
    Anything unusual (a value that is not a plain list of known names and
    numbers in [0, 1], a name given twice, ``Conf=`` inside another item)
    goes to the exact parser instead, so the count is always the exact one.
    """
    joined = "\n".join(sentence.misc)
    expected = joined.count("Conf=")
    if not expected:
        return 0, []
    at_item_start = joined.count("|Conf=") + joined.count("\nConf=") + joined.startswith("Conf=")
    values = _CONF_VALUE.findall(joined)
    if at_item_start != expected or len(values) != expected:
        return _count_word_by_word(sentence, threshold)
    named = [v for v in values if ":" in v]
    numbers = [v for v in values if ":" not in v]  # whole values count for all six cells
    per_whole = len(CONF_COLUMNS)
    if named:
        flat = ",".join(named)
        pieces = flat.replace(",", ":").split(":")
        if len(pieces) != 2 * (flat.count(",") + 1):
            return _count_word_by_word(sentence, threshold)
        names = pieces[0::2]
        if not set(names) <= _NAMES and not set(map(str.upper, names)) <= _NAMES:
            return _count_word_by_word(sentence, threshold)
        if not _no_repeated_names(named, names):
            return _count_word_by_word(sentence, threshold)
        whole, numbers = len(numbers), numbers + pieces[1::2]
    else:
        whole = len(numbers)
    low = _count_below(numbers, threshold, whole, per_whole)
    if low is None:
        return _count_word_by_word(sentence, threshold)
    return low, []


def _no_repeated_names(named: list[str], names: list[str]) -> bool:
    """No value names a column twice.  Parsers write the same names in the
    same order on every word, which one list comparison confirms; otherwise
    each value is looked at."""
    first = [part.partition(":")[0] for part in named[0].split(",")]
    if len(set(map(str.upper, first))) == len(first) and names == first * len(named):
        return True
    start = 0
    for value in named:
        size = value.count(",") + 1
        if len(set(map(str.upper, names[start:start + size]))) != size:
            return False
        start += size
    return True


def _count_below(numbers: list[str], threshold: float, whole: int, per_whole: int) -> int | None:
    """How many numbers are below the threshold (the first ``whole`` of them
    count ``per_whole`` times); None when one is not a number in [0, 1].

    Numbers written alike ("0.98", "1.00": a digit, a point, n digits) compare
    as strings exactly as they compare as numbers, which spares a float()
    per number."""
    if not numbers:
        return 0
    width = len(numbers[0])
    text = "".join(numbers)
    if (width >= 3 and len(text) == width * len(numbers) and text[1::width] == "." * len(numbers)
            and text.replace(".", "").isdigit() and set(text[0::width]) <= {"0", "1"}
            and max(numbers) <= "1." + "0" * (width - 2)):
        bound = f"{threshold:.{width - 2}f}"
        if 0.0 <= threshold <= 1.0 and float(bound) == threshold:
            below = list(map(bound.__gt__, numbers))
            return sum(below[:whole]) * per_whole + sum(below[whole:])
    try:
        values = list(map(float, numbers))
    except ValueError:
        return None
    if min(values) < 0.0 or max(values) > 1.0 or any(map(math.isnan, values)):
        return None
    below = list(map(threshold.__gt__, values))
    return sum(below[:whole]) * per_whole + sum(below[whole:])


def low_cells(sentence: Sentence, threshold: float
              ) -> tuple[list[tuple[int, int, int, str, float]], list[Problem]]:
    """Cells whose confidence is below ``threshold``, as (line, start, end,
    column name, confidence), and problems for Conf values that cannot be read."""
    low = []
    confidences, problems = word_confidences(sentence)
    for i, conf in enumerate(confidences):
        if not conf:
            continue
        for column, number in conf.items():
            if number < threshold:
                line = sentence.word_line[i]
                start, end = cell_span(sentence.lines[line], column_index(column))
                low.append((line, start, end, column, number))
    return low, problems


def _count_word_by_word(sentence: Sentence, threshold: float) -> tuple[int, list[Problem]]:
    cells, problems = low_cells(sentence, threshold)
    return len(cells), problems
