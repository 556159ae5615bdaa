"""Which function checks which test id: the decorator the checks wear.

Each check of the validator (a function per rule, or per small family of
rules that one pass over a sentence decides together) is declared with the
test ids it reports::

    @checks("too-many-subjects too-many-objects")
    def check_subjects_and_objects(w: WordContext) -> None:
        \"\"\"A predicate has at most one subject and one direct object ...\"\"\"

Its docstring is the rules' explanation.  `scorer.validation.rules.RULES`
gathers the declarations into one table (test id -> `Rule`), for the
reference documentation and for anyone looking for a test id's code.  The
decorator returns the function itself: declaring costs the checks nothing.
"""

from __future__ import annotations

from typing import Callable, TypeVar

from annoscore.scorer.validation.incident import TESTS

F = TypeVar("F", bound=Callable)

# (test ids, function) in the order the modules declare them.
DECLARED: list[tuple[tuple[str, ...], Callable]] = []


def checks(ids: str) -> Callable[[F], F]:
    """Declare that the function reports these test ids (separated by spaces)."""
    names = tuple(ids.split())
    unknown = [name for name in names if name not in TESTS]
    if unknown:  # (a typo here would hide a rule from the reference)
        raise ValueError(f"not validator test ids: {', '.join(unknown)}")

    def declare(function: F) -> F:
        DECLARED.append((names, function))
        return function

    return declare
