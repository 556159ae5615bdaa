"""When two texts count as the same: the normalization, named and configurable.

A text is normalized before it is compared, so that a leak is not hidden by
a different Unicode form, case or spacing.  The steps, always applied in
this order whatever order they are named in:

- ``nfc`` (or ``nfkc``): Unicode normal form C, so that ``é`` written as one
  code point or as ``e`` + combining accent is the same; NFKC also folds
  compatibility forms (full-width letters, ligatures, superscripts).
- ``casefold``: Unicode case folding (``Straße`` = ``STRASSE``), normalized
  again after it (folding can undo a normal form).
- ``punct``: characters of the Unicode categories P* (punctuation) removed.
- ``space``: runs of whitespace become one space, none at either end; or
  ``nospace``: all whitespace removed (a CoNLL-U text rebuilt with spaces
  where ``# text`` has none then still matches).

The default is ``nfc,casefold,space``.  A normalization is named by its
steps in that order (``nfc,casefold,space``): reports and the split
maker's ``split_report.json`` say which was used.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

ORDER = ("nfc", "nfkc", "casefold", "punct", "space", "nospace")
DEFAULT = "nfc,casefold,space"
_EXCLUSIVE = (("nfc", "nfkc"), ("space", "nospace"))
_WHITESPACE = re.compile(r"\s+")


@lru_cache(maxsize=1)
def _punctuation_table() -> dict[int, None]:
    # Built once, when `punct` is first used (a walk over all code points).
    return {c: None for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)).startswith("P")}


@dataclass(frozen=True)
class Normalization:
    """The steps (in `ORDER`); call it on a text."""

    steps: tuple[str, ...]

    @property
    def name(self) -> str:
        return ",".join(self.steps) or "none"

    def __call__(self, text: str) -> str:
        steps = self.steps
        form = "NFC" if "nfc" in steps else "NFKC" if "nfkc" in steps else None
        if form and not text.isascii():
            text = unicodedata.normalize(form, text)
        if "casefold" in steps:
            text = text.casefold()
            if form and not text.isascii():  # folding can leave a text that is not normalized
                text = unicodedata.normalize(form, text)
        if "punct" in steps:
            text = text.translate(_punctuation_table())
        if "space" in steps:
            text = " ".join(text.split()) if text.isascii() else _WHITESPACE.sub(" ", text).strip()
        elif "nospace" in steps:
            text = "".join(text.split()) if text.isascii() else _WHITESPACE.sub("", text)
        return text


def parse_normalization(spec: str | Sequence[str]) -> Normalization:
    """``"nfc,casefold,space"`` (or a list of step names; ``none`` for no
    step) as a `Normalization`.  Raises ValueError saying what is wrong."""
    names = spec.split(",") if isinstance(spec, str) else list(spec)
    if not all(isinstance(n, str) for n in names):
        raise ValueError("the steps must be names (strings)")
    wanted = [n.strip().lower() for n in names if n.strip()]
    if wanted == ["none"]:
        return Normalization(())
    unknown = [n for n in wanted if n not in ORDER]
    if unknown:
        raise ValueError(f"unknown normalization step {unknown[0]!r} (the steps: {', '.join(ORDER)}, or none)")
    for a, b in _EXCLUSIVE:
        if a in wanted and b in wanted:
            raise ValueError(f"{a} and {b} cannot both be used")
    return Normalization(tuple(step for step in ORDER if step in wanted))


DEFAULT_NORMALIZATION = parse_normalization(DEFAULT)
