"""``annoscore lsp``: the language server on stdio (what editors start).

Typed in a terminal it would sit there silently, reading LSP messages that
never come; so when stdin is a terminal it first says on stderr what it is
and how to stop it.  Ctrl-C stops it (exit status 130, as for every
command).
"""

from __future__ import annotations

import argparse
import sys

from annoscore.scorer import __version__
from .commands import SUMMARIES

IN_A_TERMINAL = f"""\
annoscore lsp {__version__}: the annoscore language server.  It talks the
Language Server Protocol (JSON-RPC messages) on stdin and stdout, and is
meant to be started by an editor: see "Editors" in the README (VS Code,
Neovim, Helix, Emacs, Sublime Text).  To score files from a terminal, use
`annoscore evaluate PRED GOLD`, `annoscore check FILE` or `annoscore watch`.
Waiting for messages; press Ctrl-C to stop."""


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("lsp", help=SUMMARIES["lsp"],
                              description="Run the annoscore language server on stdin/stdout. "
                                          "Logs go to stderr (ANNOSCORE_LOG=debug for more).")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if sys.stdin.isatty():
        print(IN_A_TERMINAL, file=sys.stderr, flush=True)
    from ..lsp.app import main
    return main()
