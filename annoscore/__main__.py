"""``python -m annoscore …``: the same as the ``annoscore`` command."""

from .server.cli import console

if __name__ == "__main__":
    console()
