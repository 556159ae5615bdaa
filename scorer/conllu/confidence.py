"""Parser confidence per cell, written in MISC as ``Conf=…``.

Two forms (names case-insensitive, values in [0, 1]):

- ``Conf=0.93``: one value for every predicted cell of the word;
- ``Conf=UPOS:0.98,XPOS:0.97,LEMMA:0.99,FEATS:0.91,HEAD:0.72,DEPREL:0.80``:
  a value per cell, any subset of the six.
"""

from __future__ import annotations

import math
import re
from itertools import accumulate, repeat
from operator import gt
from typing import TYPE_CHECKING, Sequence

from ..excerpt import excerpt, quoted
from ..problems import Problem, Severity
from .columns import cell_span
from .sentence import MISC, Sentence

if TYPE_CHECKING:
    import numpy as np

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
        raise ConfError(f"{quoted(text)} is not a number", start, start + len(text)) from None
    if not (0.0 <= value <= 1.0) or math.isnan(value):
        raise ConfError(f"{excerpt(text)} is outside [0, 1]", start, start + len(text))
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
            raise ConfError(f"{quoted(part)} should be NAME:VALUE", pos, pos + len(part))
        if key not in _COLUMN_INDEX:
            raise ConfError(f"unknown column {quoted(name)} (use UPOS, XPOS, LEMMA, FEATS, HEAD, DEPREL)",
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
    whole sentence are split and compared with C-level string operations
    (`count_low_fast`).  Anything unusual goes to the exact parser instead,
    so the count is always the exact one.
    """
    low = count_low_fast(sentence.misc, threshold)
    if low is None:
        return _count_word_by_word(sentence, threshold)
    return low, []


def count_low_fast(misc: Sequence[str], threshold: float) -> int | None:
    """How many cells of these MISC values are below ``threshold``, or None
    when a value is unusual (not a plain list of known names and numbers in
    [0, 1], a name given twice, ``Conf=`` inside another item) and needs the
    exact parser."""
    joined = "\n".join(misc)
    expected = joined.count("Conf=")
    if not expected:
        return 0
    if expected > 1 and max(map(str.count, misc, repeat("Conf="))) > 1:
        return None  # a word with two: the exact parser reads only the first
    at_item_start = joined.count("|Conf=") + joined.count("\nConf=") + joined.startswith("Conf=")
    values = _CONF_VALUE.findall(joined)
    if at_item_start != expected or len(values) != expected:
        return None
    named = [v for v in values if ":" in v]
    numbers = [v for v in values if ":" not in v]  # whole values count for all six cells
    per_whole = len(CONF_COLUMNS)
    if named:
        flat = ",".join(named)
        items = flat.split(",")
        if list(map(str.count, items, repeat(":"))) != [1] * len(items):  # name:number each
            return None
        pieces = ":".join(items).split(":")
        names = pieces[0::2]
        if not set(names) <= _NAMES and not set(map(str.upper, names)) <= _NAMES:
            return None
        if not _no_repeated_names(named, names):
            return None
        whole, numbers = len(numbers), numbers + pieces[1::2]
    else:
        whole = len(numbers)
    below = _below(numbers, threshold)
    if below is None:
        return None
    return sum(below[:whole]) * per_whole + sum(below[whole:])


def count_low_many(misc: Sequence[str], words: Sequence[int], threshold: float) -> list[int | None]:
    """`count_low_fast` for each of several sentences whose MISC values are
    laid end to end (``words`` per sentence).

    A parser writes the same kind of Conf on every word: then all values
    are compared at once and summed per sentence with numpy; otherwise each
    sentence is counted on its own."""
    n = len(misc)
    joined = "\n".join(misc)
    total = joined.count("Conf=")
    if not total:
        return [0] * len(words)
    per_word_conf = list(map(str.count, misc, repeat("Conf=")))
    if total <= n and max(per_word_conf) == 1:  # no word with two
        at_item_start = joined.count("|Conf=") + joined.count("\nConf=") + joined.startswith("Conf=")
        low = None
        if at_item_start == total:
            # Every "Conf=" starts an item and no word has two: the values
            # are what follows each up to the item's end (what
            # _CONF_VALUE.findall would find, in a third of the time).
            values = [piece.partition("|")[0] for piece in joined.replace("\n", "|").split("Conf=")[1:]]
            low = _per_word_low(values, total, threshold)
        if low is not None:
            import numpy as np  # (when first needed: its import costs 0.1-0.2 s)

            per_word = np.zeros(n, dtype=np.int64)
            per_word[np.array(per_word_conf, dtype=bool)] = low  # words without Conf: 0
            starts = np.fromiter(accumulate(words, initial=0), dtype=np.int64, count=len(words) + 1)[:-1]
            return np.add.reduceat(per_word, starts).tolist()
    out: list[int | None] = []
    start = 0
    for size in words:
        out.append(count_low_fast(misc[start:start + size], threshold))
        start += size
    return out


_PLAIN_NUMBER = re.compile(r"[0-9]+(?:\.[0-9]+)?")


def _fixed_width_low(values: list[str], threshold: float) -> np.ndarray | None:
    """`_per_word_low` when every value is laid out like the first, character
    for character (the same names in the same order, each number written
    with the same number of digits: what a parser writes), or None.

    The values then form a table of bytes: numpy checks that every row has
    the first row's names, points and commas and digits elsewhere, and reads
    each number as an integer over a power of ten.  That division is
    correctly rounded, so it gives the very float that ``float(text)`` gives,
    and compares with the threshold exactly as the exact parser does."""
    import numpy as np  # (when first needed: its import costs 0.1-0.2 s)

    first = values[0]
    width, n = len(first), len(values)
    joined = "".join(values)
    if len(joined) != width * n or not joined.isascii():
        return None
    items = first.split(",")
    named = ":" in first
    numbers = []   # (offset of the number in the value, its text)
    offset = 0
    names = []
    for item in items:
        name, sep, number = item.rpartition(":") if named else ("", "", item)
        if named and (not sep or ":" in name):
            return None
        names.append(name)
        if not _PLAIN_NUMBER.fullmatch(number) or len(number) > 16:  # exact in an int64 and a float
            return None
        numbers.append((offset + len(name) + len(sep), number))
        offset += len(item) + 1
    if named and (len(set(map(str.upper, names))) != len(names)
                  or not (set(names) <= _NAMES or set(map(str.upper, names)) <= _NAMES)):
        return None
    table = np.frombuffer(joined.encode("ascii"), dtype=np.uint8).reshape(n, width)
    digit_columns = [start + k for start, text in numbers for k, ch in enumerate(text) if ch != "."]
    fixed = np.ones(width, dtype=bool)
    fixed[digit_columns] = False
    if not (table[:, fixed] == table[0, fixed]).all():
        return None
    digits = table[:, digit_columns].astype(np.int64) - 48
    if digits.min() < 0 or digits.max() > 9:
        return None
    below = np.zeros(n, dtype=np.int64)
    column = 0
    for _, text in numbers:
        size = len(text) - ("." in text)
        powers = 10 ** np.arange(size - 1, -1, -1, dtype=np.int64)
        value = digits[:, column:column + size] @ powers
        column += size
        scale = 10 ** (size - len(text.partition(".")[0]))
        if value.max() > scale:  # above 1: the exact parser reports it
            return None
        below += (value / scale) < threshold
    return below if named else below * len(CONF_COLUMNS)


def _per_word_low(values: list[str], n: int, threshold: float) -> np.ndarray | None:
    """Cells below the threshold per word, when every word has one Conf value
    of the same shape (all whole numbers, or the same names in the same order)."""
    import numpy as np  # (when first needed: its import costs 0.1-0.2 s)

    fixed = _fixed_width_low(values, threshold)
    if fixed is not None:
        return fixed
    if ":" not in values[0]:
        if any(":" in v for v in values):
            return None
        below = _below(values, threshold)
        return None if below is None else np.array(below, dtype=np.int64) * len(CONF_COLUMNS)
    first = [part.partition(":")[0] for part in values[0].split(",")]
    if len(set(map(str.upper, first))) != len(first) or not (
            set(first) <= _NAMES or set(map(str.upper, first)) <= _NAMES):
        return None
    flat = ",".join(values)
    m = len(first)
    items = flat.split(",")
    if list(map(str.count, values, repeat(","))) != [m - 1] * n or \
            list(map(str.count, items, repeat(":"))) != [1] * len(items):
        return None  # not m name:number items on every word
    pieces = ":".join(items).split(":")
    if pieces[0::2] != first * n:
        return None
    below = _below(pieces[1::2], threshold)
    if below is None:
        return None
    return np.array(below, dtype=np.int64).reshape(n, m).sum(axis=1)


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


def _below(numbers: list[str], threshold: float) -> list[bool] | None:
    """Whether each number is below the threshold; None when one is not a
    number in [0, 1].

    Numbers written alike ("0.98", "1.00": a digit, a point, n digits) compare
    as strings exactly as they compare as numbers, which spares a float()
    per number."""
    if not numbers:
        return []
    width = len(numbers[0])
    text = "".join(numbers)
    if (width >= 3 and len(text) == width * len(numbers) and text[1::width] == "." * len(numbers)
            and text.isascii() and text.replace(".", "").isdigit() and set(text[0::width]) <= {"0", "1"}
            and max(numbers) <= "1." + "0" * (width - 2)):
        bound = f"{threshold:.{width - 2}f}"
        if 0.0 <= threshold <= 1.0 and float(bound) == threshold:
            return list(map(gt, repeat(bound), numbers))
    try:
        values = list(map(float, numbers))
    except ValueError:
        return None
    if min(values) < 0.0 or max(values) > 1.0 or any(map(math.isnan, values)):
        return None
    return list(map(gt, repeat(threshold), values))


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
