"""Near-duplicates: texts that are the same once some differences are masked.

A template copy leaks as surely as an exact one: "Meet me on Monday at 10"
in train and "Meet me on Friday at 4" in test teach the same thing.  The
rules below turn a normalized text into its *near key*; two texts whose
near keys are equal (and whose normalized texts are not) are near
duplicates.  Keys are compared by hashing (a dict), never pair by pair.

Rules (``--near`` takes them separated by commas; ``none`` for no rule):

- ``digits``: every run of digits (any script's) becomes ``0``: dates,
  times, prices and counts no longer tell texts apart.
- ``weekdays``, ``months``: the English names of the days of the week /
  of the months (full names only: ``sat`` and ``sun`` are words too; ``may``
  and ``march`` are masked wherever they are words, which only matters for
  two texts that differ in nothing else) become one word.
- ``NAME=WORD|WORD|…``: your own class: each of these words (or phrases)
  becomes the same word, e.g. ``city=paris|london|new york`` or the
  weekdays of another language.  Words are normalized as the texts are and
  matched as whole words.
- ``jaccard=T`` (0 < T ≤ 1): texts whose *sets of words* (after the rules
  above; punctuation marks count as words) have a Jaccard similarity of at
  least T: |A ∩ B| / |A ∪ B| ≥ T.  Not a key: found by prefix filtering
  (`scorer.hygiene.similar`), exact and fast.

A finding names the rules that changed either text (``digits``,
``weekdays``…) or, for ``jaccard``, the similarity.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

from .normalize import Normalization

DEFAULT = "digits"
BUILTIN_CLASSES = {
    "weekdays": ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"),
    "months": ("january", "february", "march", "april", "may", "june", "july", "august", "september",
               "october", "november", "december"),
}
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*\Z")
_DIGITS = re.compile(r"\d+")
WORDS = re.compile(r"\w+|[^\w\s]")  # the words of a text for jaccard, and for --min-words (\w+ only)


@dataclass(frozen=True)
class WordClass:
    name: str
    words: tuple[str, ...]     # as given
    pattern: re.Pattern[str]   # the words, normalized, as whole words


@dataclass(frozen=True)
class NearRules:
    digits: bool = False
    classes: tuple[WordClass, ...] = ()
    jaccard: Fraction | None = None
    spec: tuple[str, ...] = ()  # the rules as given, for reports

    @property
    def name(self) -> str:
        return ",".join(self.spec) or "none"

    @property
    def keyed(self) -> bool:
        """True when some rule makes a near key (all but jaccard)."""
        return self.digits or bool(self.classes)

    def key(self, normalized: str) -> tuple[str, tuple[str, ...]]:
        """The near key of a normalized text, and the rules that changed it."""
        changed = []
        for word_class in self.classes:
            normalized, n = word_class.pattern.subn(f"_{word_class.name}_", normalized)
            if n:
                changed.append(word_class.name)
        if self.digits:
            normalized, n = _DIGITS.subn("0", normalized)
            if n:
                changed.append("digits")
        return normalized, tuple(changed)


def _word_class(name: str, words: Sequence[str], normalization: Normalization) -> WordClass:
    forms = sorted({normalization(w) for w in words if normalization(w)}, key=lambda w: (-len(w), w))
    if not forms:
        raise ValueError(f"the class {name!r} has no words")
    pattern = re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, forms)) + r")(?!\w)")
    return WordClass(name, tuple(words), pattern)


def parse_near(spec: str | Sequence[str], normalization: Normalization) -> NearRules:
    """Rules from ``"digits,weekdays,city=paris|london,jaccard=0.8"`` (or a
    list of rules; ``none`` for none).  Raises ValueError saying what is wrong."""
    rules = spec.split(",") if isinstance(spec, str) else list(spec)
    if not all(isinstance(r, str) for r in rules):
        raise ValueError("the rules must be strings")
    rules = [r.strip() for r in rules if r.strip()]
    if [r.lower() for r in rules] == ["none"]:
        return NearRules()
    digits, classes, jaccard, seen = False, [], None, set()
    for rule in rules:
        name, equals, value = rule.partition("=")
        name = name.strip()
        key = name.lower()
        if key in seen:
            raise ValueError(f"the rule {name!r} is given twice")
        seen.add(key)
        if not equals:
            if key == "digits":
                digits = True
            elif key in BUILTIN_CLASSES:
                classes.append(_word_class(key, BUILTIN_CLASSES[key], normalization))
            else:
                raise ValueError(f"unknown rule {rule!r} (the rules: digits, weekdays, months, "
                                 "NAME=WORD|WORD|…, jaccard=T, or none)")
        elif key == "jaccard":
            try:
                jaccard = Fraction(value.strip())
            except (ValueError, ZeroDivisionError):
                raise ValueError(f"jaccard={value.strip()!r}: the threshold must be a number") from None
            if not 0 < jaccard <= 1:
                raise ValueError(f"jaccard={value.strip()}: the threshold must be above 0 and at most 1")
        else:
            if not _NAME.match(name):
                raise ValueError(f"{name!r}: a class name is letters, digits, _ and -, starting with a letter")
            if key in BUILTIN_CLASSES or key == "digits":
                raise ValueError(f"{name!r} is a built-in rule; give your class another name")
            words = [w.strip() for w in value.split("|") if w.strip()]
            classes.append(_word_class(name, words, normalization))
    return NearRules(digits, tuple(classes), jaccard, tuple(rules))
