"""Which diagnostics ``annoscore check`` reports: ``--select`` / ``--ignore``.

``--select`` and ``--include-only`` are one option under two names (ruff's
and the UD validator's), and so are ``--ignore`` and ``--exclude``.  Each
takes names of three kinds, mixed freely (separated by spaces or commas):

- a UD validator test id (``unknown-upos``),
- a validator class (``MORPHO``, ``SYNTAX`` …; any case),
- one of annoscore's own codes (``low-confidence``, ``cycle`` …).

A diagnostic *matches* a name when its code, its validator test id or its
validator class is that name (a problem annoscore and the validator both
found is one diagnostic with annoscore's code and the validator's test id,
so it matches either).  With names selected, only diagnostics that match
one of them are reported; a diagnostic that matches an ignored name is not
reported, whatever is selected.  What is not reported does not fail the
check and is not counted by ``--statistics``.

The validator's names are also handed to the validator
(`ValidationConfig.include_only` / ``exclude``), so that it does not run
what nobody will see; the filter here is what makes the meaning exact for
every kind of name.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Iterable

from annoscore.scorer.codes import CODES
from annoscore.scorer.excerpt import quoted
from annoscore.scorer.validation.incident import CLASSES as VALIDATION_CLASSES
from annoscore.scorer.validation.incident import TESTS as VALIDATION_TESTS

from .errors import UsageError


def names_in(given: Iterable[str] | None) -> list[str]:
    """The names of repeated options, each possibly ``a,b c``, in order."""
    return [name for item in given or () for name in item.replace(",", " ").split()]


def canonical(name: str, option: str) -> str:
    """A name as it is matched (a class in capitals); a usage error for a
    name that is none of the three kinds."""
    if name in VALIDATION_TESTS or name in CODES:
        return name
    if name.upper() in VALIDATION_CLASSES:
        return name.upper()
    close = difflib.get_close_matches(name, [*CODES, *VALIDATION_TESTS], n=1)
    hint = f"; did you mean '{close[0]}'?" if close else ""
    raise UsageError(f"{option}: {quoted(name)} is neither a code of annoscore's (such as 'low-confidence'), "
                     f"a validator test id (such as 'unknown-upos') nor a class "
                     f"({', '.join(VALIDATION_CLASSES)}){hint}")


@dataclass(frozen=True)
class Selection:
    select: frozenset[str] = frozenset()
    ignore: frozenset[str] = frozenset()

    @classmethod
    def from_options(cls, select: list[tuple[str, str]], ignore: list[tuple[str, str]]) -> "Selection":
        """From (option, name) pairs, the option named in a usage error."""
        return cls(frozenset(canonical(n, o) for o, n in select), frozenset(canonical(n, o) for o, n in ignore))

    def validator_names(self, names: frozenset[str]) -> tuple[str, ...]:
        """The validator's test ids and classes among ``names`` (sorted), for its settings."""
        return tuple(sorted(n for n in names if n in VALIDATION_TESTS or n in VALIDATION_CLASSES))

    def matches(self, diagnostic, names: frozenset[str]) -> bool:
        return diagnostic.code in names or diagnostic.test_id in names or \
            (diagnostic.test_class is not None and diagnostic.test_class.upper() in names)

    def keeps(self, diagnostic) -> bool:
        if self.ignore and self.matches(diagnostic, self.ignore):
            return False
        return not self.select or self.matches(diagnostic, self.select)

    def __bool__(self) -> bool:
        return bool(self.select or self.ignore)
