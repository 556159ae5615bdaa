"""Params taken by their type, strictly, before any work is done on them.

pygls types a message with lsprotocol's cattrs converter, which is lenient
where a client (or a fuzzer, or a hostile file's plugin) sends the wrong
type: a string where a list is expected is iterated, character by
character, each character structured (and failed) as the element type — a
300,000-character ``context.diagnostics`` took 42 s and 1.2 GB, kept after
the answer — and a dict where a string is expected becomes its ``repr``.
`make_strict` changes the converter so that

- a list (``list[T]``, ``Sequence[T]``) is a JSON array, or refused at
  once; its elements are structured in order and the first that does not
  fit stops it (cattrs would collect a failure for every element);
- ``str``, ``int``, ``bool`` and ``float`` take values of their JSON type
  only (a bool is not an int; an int is a float).

Enums (lsprotocol's IntEnum and str enums) keep cattrs's own hooks, which
take only their members.  Refusals are the errors cattrs raises (with the index of a list's element
in a note), so `protocol._describe` names the field as before.
"""

from __future__ import annotations

import collections.abc
import enum
import typing
from typing import Any

import cattrs
from cattrs.errors import IterableValidationError, IterableValidationNote

_SEQUENCES = (list, collections.abc.Sequence, collections.abc.MutableSequence, typing.List, typing.Sequence)


def _is_list_type(kind: Any) -> bool:
    return kind in (list, typing.List) or typing.get_origin(kind) in _SEQUENCES


def json_kind(value: Any) -> str:
    """The JSON name of a value's type, for a message."""
    return {list: "an array", dict: "an object", str: "a string", int: "a number", float: "a number",
            bool: "a boolean", type(None): "null"}.get(type(value), type(value).__name__)


def make_strict(converter: cattrs.Converter) -> None:
    """Make ``converter`` refuse values of the wrong JSON type (see above).
    Call it before the converter structures anything: cattrs makes a class's
    structuring function once, with the hooks it finds then."""

    def list_hook(kind: Any):
        args = typing.get_args(kind)
        element = args[0] if args else Any
        hooks: list = []  # found on first use: a type may contain itself (DocumentSymbol.children)

        def structure(value: Any, _: Any) -> list:
            if not isinstance(value, list):
                raise TypeError(f"expected an array, not {json_kind(value)}")
            if not hooks:
                hooks.append(converter.get_structure_hook(element))
            hook = hooks[0]
            out = []
            for index, item in enumerate(value):
                try:
                    out.append(hook(item, element))
                except Exception as error:
                    error.__notes__ = [*getattr(error, "__notes__", []),
                                       IterableValidationNote(f"Structuring {kind} @ index {index}", index, element)]
                    raise IterableValidationError(f"While structuring {kind!r}", [error], kind) from None
            return out
        return structure

    converter.register_structure_hook_factory(_is_list_type, list_hook)

    def strict(kind: type, accepted: tuple[type, ...], refused: tuple[type, ...] = ()):
        def structure(value: Any, wanted: Any) -> Any:
            if not isinstance(value, accepted) or isinstance(value, refused):
                raise TypeError(f"expected {json_kind(kind())}, not {json_kind(value)}")
            if wanted is not kind and isinstance(wanted, type) and issubclass(wanted, enum.Enum):
                return wanted(value)  # (as cattrs makes an enum: its member, or ValueError)
            return value if type(value) is kind else kind(value)
        return structure

    # A hook registered for a class takes its subclasses too — lsprotocol's
    # IntEnum and str enums (DiagnosticSeverity) —, which stay enums above.
    for kind, accepted, refused in ((str, (str,), ()), (int, (int,), (bool,)), (float, (int, float), (bool,)),
                                    (bool, (bool,), ())):
        converter.register_structure_hook(kind, strict(kind, accepted, refused))
