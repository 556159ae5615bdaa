"""The commands of ``annoscore``: each one's module and one-line summary.

Kept apart from the modules themselves so that ``annoscore --help`` and
``--version`` can list them without importing any (`server.cli.build_parser`
imports only the module of the command asked for).
"""

from __future__ import annotations

# name -> the one line ``annoscore --help`` shows (in this order).
SUMMARIES: dict[str, str] = {
    "evaluate": "score a prediction against gold (prediction first, gold second)",
    "compare": "is system A really better than B? (two --save-errors lists, or two predictions with --gold)",
    "agree": "agreement between two or more annotations of the same text (chance-corrected)",
    "check": "show diagnostics for files (exit 1 when there are problems)",
    "fix": "make the certain quick fixes (FEATS order, # text, SpaceAfter, whitespace, CR, renumbering); --diff to look first",
    "tree": "draw a sentence's dependency tree as text (with gold's differences)",
    "watch": "score files and rescore on every change on disk",
    "leaks": "find items of dev and test that occur in train (and test in dev), and conflicts",
    "split": "make train/dev/test files that cannot leak, with split_report.json",
    "explain": "print a diagnostic code's reference entry (annoscore's codes and UD validator test ids); --all lists them",
    "lsp": "run the language server on stdio (for editors)",
    "demo": "score the bundled sample files (shows what the report looks like)",
}


def module_name(command: str) -> str:
    """The module holding a command's ``add_parser`` and ``run``."""
    return f"{__package__}.{command}"
