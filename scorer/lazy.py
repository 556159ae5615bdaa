"""Package exports imported when first asked for (PEP 562).

A package's ``__init__`` that re-exports its modules' names would load all
of them as soon as any one module of the package is imported; with
`lazy_exports` a name's module is imported when the name is first used, so
reading one constant (as server.config does of the validator's ids) does
not load the whole package: `annoscore evaluate` needs none of it.
"""

from __future__ import annotations

import importlib
from typing import Any, Callable


def lazy_exports(package: str, where: dict[str, str], namespace: dict[str, Any]) -> Callable[[str], Any]:
    """The package's module ``__getattr__``: ``where`` maps each exported
    name to its module; a name once imported is kept in ``namespace`` (the
    package's globals)."""
    def __getattr__(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        namespace[name] = value
        return value
    return __getattr__
