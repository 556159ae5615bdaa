"""The ``annoscore`` command.

Each subcommand lives in its own module with ``add_parser(subparsers)`` and
``run(args) -> int``; they are wired here, in one place.  Errors become one
line on stderr and an exit status (1: an input cannot be used, 2: the command
line is wrong), never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys

from scorer import __version__

from . import check, compare, demo, evaluate, leaks, lsp, split, tree, watch
from .errors import InputError, UsageError

COMMANDS = [evaluate, compare, check, tree, watch, leaks, split, lsp, demo]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="annoscore",
        description="Scores and diagnostics for CoNLL-U treebanks, word segmentation and labels.")
    parser.add_argument("--version", action="version", version=f"annoscore {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    subparsers.required = True
    for command in COMMANDS:
        command.add_parser(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except (InputError, UsageError) as error:
        print(f"annoscore {args.command}: {error}", file=sys.stderr)
        return error.exit_status
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:
        # `annoscore evaluate ... | head`: the reader went away; not an error.
        return 0


def console() -> None:
    """The ``annoscore`` program: `main`, then a quick exit.

    Ending the interpreter would free a loaded treebank's objects one by one
    and join the helper processes in its own order (about 0.2 s after a
    check of a 200k-word treebank); the command has finished, so its output
    is flushed, the helper processes are stopped, and the process ends at once.
    """
    status = main()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # its reader is gone, or it was closed (the language server's stdout)
            pass
    # Helpers left running would hold the output's pipes open after the exit.
    helpers = sys.modules.get("server.engine.conllu.validation_parts")
    if helpers is not None:
        helpers.shutdown(wait=True, final=True)
    if "multiprocessing" in sys.modules:
        for child in sys.modules["multiprocessing"].active_children():
            child.terminate()
        # What multiprocessing would do at a normal exit: release its
        # semaphores (a pool a thread still held, say, when the language
        # server was told to exit during a first scoring), which its tracker
        # process would otherwise report leaked on stderr.
        finalizers = getattr(sys.modules.get("multiprocessing.util"), "_run_finalizers", None)
        if finalizers is not None:
            finalizers(0)
    os._exit(status)


if __name__ == "__main__":  # pragma: no cover
    console()
