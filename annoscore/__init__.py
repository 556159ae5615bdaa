"""annoscore: scores and live diagnostics for treebanks, segmentation and labels.

Installed, everything lives under this one package: the scoring library is
`annoscore.scorer` (the repository's ``scorer/`` folder), the engine, the
language server and the command line are `annoscore.server` (``server/``);
setup.py maps the folders onto the package.

The public Python API (stable: names and keyword arguments change only with
a major version; anything else under `annoscore.scorer` / `annoscore.server`
is internal and may change in any release)::

    from annoscore import evaluate_conllu, evaluate_many, evaluate_systems, compare_conllu

Each returns what the matching command prints with ``--json``.  The names
load on first use, so ``import annoscore`` stays cheap.
"""

from __future__ import annotations

from typing import Any

from .scorer import __version__

__all__ = ["evaluate_conllu", "evaluate_many", "evaluate_systems", "compare_conllu", "__version__"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from .scorer import api

        value = getattr(api, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'annoscore' has no attribute {name!r}")
