"""What a benchmark needs before it starts: the shared data (``../shared``,
or the folder ANNOSCORE_SHARED names), said in one line with exit 2 when it
is absent, rather than a traceback half-way through."""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def shared_folder() -> Path:
    """The shared data's folder: ANNOSCORE_SHARED, else ../shared beside the checkout."""
    return Path(os.environ.get("ANNOSCORE_SHARED", ROOT.parent / "shared"))


def require(script: str, paths: list[Path], what: str) -> None:
    """Exit 2 naming the first of ``paths`` that is missing and what it is for."""
    for path in paths:
        if not path.exists():
            print(f"{script}: needs {what}: {path} is missing (set ANNOSCORE_SHARED to the shared data's "
                  f"folder, or give the path on the command line)", file=sys.stderr)
            sys.exit(2)
