"""JSON Schemas (draft 2020-12) of annoscore's own LSP methods: the params
and the result of each custom request, the params of each custom
notification, the arguments and the result of each command.

The JSON files beside this module are the contract (docs/lsp-protocol.md
links each of them); the payloads are plain dicts built in the features
(`server.lsp.features`), so the files are written by hand and the tests
(tests/server/lsp/test_lsp_schemas.py) hold every answer of the running server
to them.  A file is named ``<method>.<part>.json``: the method with its
``/`` written ``-`` (``annoscore-tree``; a command keeps its dotted name,
``annoscore.edit``), the part one of `PARTS`.  ``common.json`` holds the
definitions the others share.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any

COMMON = "common.json"
# Per kind of method, the parts it has a schema for.
PARTS = {"request": ("params", "result"), "notification": ("notification",),
         "command": ("arguments", "result")}


def method_of(filename: str) -> tuple[str, str]:
    """(method, part) of a schema file: 'annoscore-tree.result.json' →
    ('annoscore/tree', 'result')."""
    stem, part, suffix = filename.rsplit(".", 2)
    if suffix != "json" or not any(part in parts for parts in PARTS.values()):
        raise ValueError(f"{filename}: not a schema file name (<method>.<part>.json)")
    return (stem.replace("-", "/", 1) if "/" not in stem and "." not in stem else stem), part


def file_of(method: str, part: str) -> str:
    """The schema file of a method's part: ('annoscore/tree', 'result') → 'annoscore-tree.result.json'."""
    return f"{method.replace('/', '-')}.{part}.json"


@lru_cache(maxsize=1)
def schemas() -> dict[str, dict[str, Any]]:
    """Every schema file (common.json too), by file name."""
    folder = resources.files(__name__)
    return {entry.name: json.loads(entry.read_text(encoding="utf-8"))
            for entry in sorted(folder.iterdir(), key=lambda e: e.name) if entry.name.endswith(".json")}


def methods() -> dict[tuple[str, str], str]:
    """(method, part) → schema file name, for every file but common.json."""
    return {method_of(name): name for name in schemas() if name != COMMON}
