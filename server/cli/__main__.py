"""``python -m server.cli``: the same as the ``annoscore`` command."""

from . import console

console()
