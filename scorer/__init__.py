"""annoscore's scoring library: readers, checks, metrics, statistics, reports.

Pure functions over text: no editor protocol, no threads, no printing.

The Python API (`scorer.api`) is importable from here::

    from annoscore.scorer import evaluate_conllu, evaluate_many, evaluate_systems, compare_conllu

Its names are loaded on first use, so that ``import scorer`` stays cheap
for the command line and the language server.
"""

__version__ = "0.1.0"

__all__ = ["evaluate_conllu", "evaluate_many", "evaluate_systems", "compare_conllu", "__version__"]


def __getattr__(name: str):
    if name in __all__:
        from . import api
        return getattr(api, name)
    raise AttributeError(f"module 'scorer' has no attribute {name!r}")
