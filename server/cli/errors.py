"""Errors the command line turns into one clear line and an exit status."""


class InputError(Exception):
    """An input cannot be used (missing, a directory, binary, empty, unreadable): exit 1."""

    exit_status = 1


class UsageError(Exception):
    """The command line itself is wrong: exit 2 (argparse uses 2 as well)."""

    exit_status = 2
