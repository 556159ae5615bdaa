"""``annoscore lsp``: the language server on stdio (what editors start)."""

from __future__ import annotations

import argparse


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("lsp", help="run the language server on stdio (for editors)",
                              description="Run the annoscore language server on stdin/stdout. "
                                          "Logs go to stderr (ANNOSCORE_LOG=debug for more).")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..lsp.server import main
    return main()
