"""``python -m server.cli``: the same as the ``annoscore`` command."""

import sys

from . import main

sys.exit(main())
