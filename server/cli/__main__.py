"""``python -m annoscore``: the same as the ``annoscore`` command."""

from . import console

console()
