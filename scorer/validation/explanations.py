"""Each validator test id's reference texts: why it matters, how to fix it, an example.

What a test id means is its checking function's docstring (`rules.RULES`);
this table adds, beside it, what the reference entry needs for a user who
meets the id (docs/reference/codes.md, ``annoscore explain``): why the
finding matters, how to fix it (which column, which value, which quick
fix), and a few lines of CoNLL-U that produce it at the id's level, which
tests/server/test_code_examples.py runs through ``annoscore check``.
Families of ids with one cause share a text (`_family`), written so that it
reads right for each of them.
"""

from __future__ import annotations

from dataclasses import dataclass

from annoscore.scorer.code_example import Example, conllu, sentence
from annoscore.scorer.validation.incident import TESTS


@dataclass(frozen=True)
class Explanation:
    why: str
    fix: str
    example: Example | None = None


EXPLANATIONS: dict[str, Explanation] = {}


def _explain(test_id: str, why: str, fix: str, example: Example | None = None) -> None:
    if test_id not in TESTS:  # (a typo would leave the id without its entry's texts)
        raise ValueError(f"not a validator test id: {test_id}")
    EXPLANATIONS[test_id] = Explanation(why, fix, example)
