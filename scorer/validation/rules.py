"""Every test id of the validator with the check that reports it.

``RULES`` maps each test id of `incident.TESTS` to a `Rule`: its level,
class and severity (from ``TESTS``), the function that checks it
(``module.name``, to open in an editor) and that function's docstring, the
rule's explanation, and the reference entry's other texts (why it matters,
how to fix it, an example: `explanations`).  The generated reference reads this table; the checks
themselves declare their ids with `registry.checks`.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Mapping

from annoscore.scorer.code_example import Example
from annoscore.scorer.problems import Severity
# The modules whose checks declare test ids (imported for their declarations).
from annoscore.scorer.validation import block, document, level1, level2, level3, level45, metadata  # noqa: F401
from annoscore.scorer.validation.explanations import EXPLANATIONS
from annoscore.scorer.validation.incident import TESTS
from annoscore.scorer.validation.registry import DECLARED


@dataclass(frozen=True)
class Rule:
    id: str
    level: int
    test_class: str
    severity: Severity
    doc: str           # the checking function's docstring
    function: str      # where it is: scorer.validation.level3.check_leaves
    also: tuple[str, ...] = ()  # other functions reporting it (a block's part and the document's)
    # The reference entry's texts beside it (`explanations.EXPLANATIONS`): why it matters, how to fix it.
    why: str = ""
    fix: str = ""
    example: Example | None = None


def _table() -> dict[str, Rule]:
    table: dict[str, Rule] = {}
    for ids, function in DECLARED:
        doc = inspect.cleandoc(function.__doc__ or "")
        where = f"{function.__module__}.{function.__qualname__}"
        for test_id in ids:
            known = table.get(test_id)
            if known is not None:
                table[test_id] = replace(known, also=(*known.also, where))
                continue
            level, test_class, severity = TESTS[test_id]
            texts = EXPLANATIONS.get(test_id)
            table[test_id] = Rule(test_id, level, test_class, severity, doc, where,
                                  **({} if texts is None else
                                     {"why": texts.why, "fix": texts.fix, "example": texts.example}))
    return {test_id: table[test_id] for test_id in TESTS if test_id in table}


RULES: Mapping[str, Rule] = MappingProxyType(_table())
