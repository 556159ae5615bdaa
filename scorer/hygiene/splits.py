"""The three splits, in the order in which they may not leak, and how file names tell them.

Train comes first, then dev (validation), then test: an item of a later
split must not occur in an earlier one.  A file's split can be read from
its name, as UD and common ML layouts name files: a word ``train`` /
``training``, ``dev`` / ``valid`` / ``validation`` / ``val``, or ``test``
/ ``testing``, standing alone between the start or end of the name and
``-``, ``_`` or ``.`` (``en_ewt-ud-train.conllu``, ``train.csv``,
``data_valid.tsv``, ``fr_gsd-ud-test.conllu``; not ``contest.txt``).  A
name with words of two splits says nothing.
"""

from __future__ import annotations

import os
import re

TRAIN, DEV, TEST = "train", "dev", "test"
SPLITS = (TRAIN, DEV, TEST)
_WORDS = {"train": TRAIN, "training": TRAIN, "dev": DEV, "valid": DEV, "validation": DEV, "val": DEV,
          "test": TEST, "testing": TEST}
_WORD = re.compile(r"(?:^|(?<=[-_.]))([a-z]+)(?=[-_.]|$)")


def split_from_name(path: str) -> str | None:
    """``train``, ``dev`` or ``test`` from a file's name; None when the name
    does not say (or says two)."""
    name = os.path.basename(path).lower()
    found = {_WORDS[w] for w in _WORD.findall(name) if w in _WORDS}
    return found.pop() if len(found) == 1 else None


def rank(split: str) -> int:
    return SPLITS.index(split)
