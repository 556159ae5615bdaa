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

from annoscore.scorer import __version__
from annoscore.scorer.excerpt import one_line, terminal_safe

from .commands import SUMMARIES, module_name
from .errors import InputError, UsageError


class _Version(argparse.Action):
    """``--version``: the version and which plain lane counts (compiled or
    Python), found out only when asked."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        from annoscore.scorer.conllu.lane import active_lane

        print(f"annoscore {__version__}\nplain lane: {active_lane()}")
        parser.exit()


def requested_command(argv: list[str]) -> str | None:
    """The command an argument list asks for: its first argument that is
    not an option (the top level has only --version and --help)."""
    for arg in argv:
        if not arg.startswith("-"):
            return arg if arg in SUMMARIES else None
    return None


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser, with the full options of the command ``argv`` asks for
    and only the name and summary of the others (so that a command, or
    ``--help`` and ``--version``, imports no other command's module);
    ``argv=None`` builds every command in full."""
    import importlib

    parser = argparse.ArgumentParser(
        prog="annoscore",
        description="Scores and diagnostics for CoNLL-U treebanks, word segmentation and labels.")
    parser.add_argument("--version", action=_Version, help="show the version and the active plain lane, and exit")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    subparsers.required = True
    wanted = None if argv is None else requested_command(argv)
    # A run of a command (its name first) needs no other command's parser:
    # building the eleven others (each with its help formatter and options)
    # cost a small evaluate a tenth of its start.  ``--help`` and the like
    # still list them all.
    alone = wanted is not None and argv[0] == wanted
    for name, summary in SUMMARIES.items():
        if argv is None or name == wanted:
            importlib.import_module(module_name(name)).add_parser(subparsers)
        elif not alone:
            subparsers.add_parser(name, help=summary)
    for sub in subparsers.choices.values():
        add_trust_options(sub)
    return parser


def add_trust_options(parser: argparse.ArgumentParser) -> None:
    """What only the user can allow, whatever a workspace says (docs/reliability.md)."""
    group = parser.add_argument_group("untrusted workspaces")
    group.add_argument("--allow-outside-project", action="store_true",
                       help="use paths of the project file, and files its globs and symlinks lead to, "
                            "outside the project folder (refused by default)")
    group.add_argument("--max-file-size", metavar="SIZE", type=_size,
                       help="the largest file read, such as 8G (default 4G, or $ANNOSCORE_MAX_FILE_SIZE)")


def _size(text: str) -> int:
    from annoscore.scorer.reading import parse_size

    try:
        return parse_size(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


class TerminalSafe:
    """A text stream whose writes have every control character but TAB and
    LF escaped (`scorer.excerpt.terminal_safe`): whatever a file's name or
    text is, no command's output moves the cursor, recolours the terminal or
    rewrites a line.  (File names are escaped where they are printed too, so
    that a newline in one cannot start a forged line.)"""

    def __init__(self, stream) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        return self._stream.write(terminal_safe(text))

    @property
    def unguarded(self):
        """The stream itself, for what must write a control character on
        purpose (a progress line's carriage return: server.cli.progress)."""
        return self._stream

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    from annoscore.scorer.reading import set_size_limit

    from .. import workspace

    set_size_limit(getattr(args, "max_file_size", None))
    workspace.allowed_by_command_line = bool(getattr(args, "allow_outside_project", False))
    streams = sys.stdout, sys.stderr
    if args.command != "lsp":  # (its stdout is the protocol's, written as bytes)
        sys.stdout, sys.stderr = TerminalSafe(sys.stdout), TerminalSafe(sys.stderr)
    try:
        return _run(args)
    finally:
        if isinstance(sys.stdout, TerminalSafe):
            sys.stdout, sys.stderr = streams


def _run(args: argparse.Namespace) -> int:
    try:
        return args.run(args)
    except (InputError, UsageError) as error:
        print(f"annoscore {args.command}: {one_line(str(error))}", file=sys.stderr)
        return error.exit_status
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:
        # `annoscore evaluate ... | head`: the reader went away; not an error.
        return 0


# The variables the BLAS libraries numpy may use read for their thread count.
BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "OMP_NUM_THREADS")


def one_blas_thread() -> None:
    """Matrix products in one thread, unless the user says otherwise (set
    before numpy is first imported, when the libraries read it).

    Where annoscore gains from several cores it uses processes of its own.
    OpenBLAS's threads spin while they wait for work: on this 2-core machine
    shared with other jobs, the bootstrap's products of ``annoscore agree``
    took 2.4 s of CPU with two threads against 0.1 s with one, for the
    same numbers."""
    for name in BLAS_THREADS:
        os.environ.setdefault(name, "1")


def console() -> None:
    """The ``annoscore`` program: `main`, then a quick exit.

    Ending the interpreter would free a loaded treebank's objects one by one
    and join the helper processes in its own order (about 0.2 s after a
    check of a 200k-word treebank); the command has finished, so its output
    is flushed, the helper processes are stopped, and the process ends at once.
    """
    one_blas_thread()
    status = main()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # its reader is gone, or it was closed (the language server's stdout)
            pass
    # Helpers left running would hold the output's pipes open after the exit.
    helpers = sys.modules.get("annoscore.server.engine.conllu.validation_parts")
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
