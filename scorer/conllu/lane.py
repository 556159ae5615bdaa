"""Which plain lane is active: the compiled one (`_plain`, built from
``_plain.c`` when a C compiler was there at install) or the pure-Python one
(`bulk.PlainPairs`), which is also the fallback and the guard.

``ANNOSCORE_NO_EXTENSION=1`` forces the Python lane.  This module only loads
the extension (`bulk` and `plain_pairs` read ``lane._plain`` when they run,
so a test can turn it off); `plain_pairs` picks the lane for a batch.
"""

from __future__ import annotations

import os

if os.environ.get("ANNOSCORE_NO_EXTENSION", "") not in ("", "0"):
    _plain = None
    WHY_PYTHON = "ANNOSCORE_NO_EXTENSION is set"
else:
    try:
        from . import _plain
    except ImportError:
        _plain = None
        WHY_PYTHON = "the C extension is not built: there was no C compiler at install"
    else:
        WHY_PYTHON = ""


def active_lane() -> str:
    """'compiled' or 'python', with why for the latter."""
    if _plain is not None:
        return f"compiled (C extension {_plain.__name__})"
    return f"python ({WHY_PYTHON})"
