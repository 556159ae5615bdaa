"""Messages with wrong-typed params, for every method the language server registers.

A property test (tests/server/lsp/test_lsp_untrusted.py) sends these to the real
server and requires an answer to each request, no traceback and bounded
memory.  To stay true as features are added, the methods are read from the
server itself (pygls's feature manager: its features, its built-in features
and its commands), and a valid example of each method's params is built
from lsprotocol's types (or, for annoscore's own methods, from the table
below); a message is then that example with one value somewhere — or the
whole params — replaced by a value of another type or an absurd size.
"""

from __future__ import annotations

import collections.abc
import enum
import random
import typing
from typing import Any

import attrs
from lsprotocol import types

URI = "file:///nowhere/wrong-params.conllu"
SAMPLE = "# sent_id = s1\n1\tA\ta\tNOUN\t_\t_\t0\troot\t_\tConf=0.5\n2\tb\tb\tX\t_\t_\t1\tdep\t_\t_\n\n"

# annoscore's own requests (no lsprotocol type): a valid example each.
OWN_EXAMPLES: dict[str, Any] = {
    "annoscore/score": {"uri": URI},
    "annoscore/report": {"uri": URI},
    "annoscore/tree": {"uri": URI, "position": {"line": 0, "character": 0}, "format": "text"},
    "annoscore/next": {"uri": URI, "position": {"line": 0, "character": 0}, "kind": "error",
                       "direction": "next"},
}
# Any other method of annoscore's: a bit of everything a request of ours takes.
GENERIC_EXAMPLE = {"uri": URI, "textDocument": {"uri": URI}, "position": {"line": 0, "character": 0},
                   "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}}}
# Never sent at random: they end the session (tested on their own).
ENDING = {types.SHUTDOWN, types.EXIT}


def registered(server) -> tuple[list[str], list[str], list[str]]:
    """The server's (requests, notifications, commands), read from pygls's feature manager."""
    fm = server.protocol.fm
    methods = sorted(set(fm.features) | set(fm.builtin_features))
    requests, notifications = [], []
    for method in methods:
        kinds = types.METHOD_TO_TYPES.get(method)
        if kinds is None:  # one of ours: a request when it answers (annoscore/… requests all do)
            requests.append(method)
        elif "Notification" in kinds[0].__name__:
            notifications.append(method)
        else:
            requests.append(method)
    return requests, notifications, sorted(fm.commands)


def _value_of(kind: Any, name: str, depth: int) -> Any:
    """A valid value of a (Python) type from lsprotocol's annotations."""
    origin = typing.get_origin(kind)
    if kind is type(None):
        return None
    if origin is typing.Union:
        arms = [a for a in typing.get_args(kind) if a is not type(None)]
        return _value_of(arms[0], name, depth) if arms else None
    if origin is typing.Literal:
        return typing.get_args(kind)[0]
    if origin in (list, collections.abc.Sequence) or kind is list:
        args = typing.get_args(kind)
        return [_value_of(args[0], name, depth + 1)] if args and depth < 6 else []
    if origin is dict or kind is dict:
        return {}
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return next(iter(kind)).value if issubclass(kind, str) else next(iter(kind))
    if kind is str:
        if "uri" in name.lower():
            return URI
        return {"command": "annoscore.rescore", "language_id": "conllu", "text": SAMPLE}.get(name, "x")
    if kind is bool:
        return False
    if kind is int:
        return 0
    if kind is float:
        return 0.0
    if attrs.has(kind):
        return _instance(kind, depth + 1)
    return None  # LSPAny and the like


def _instance(kind: type, depth: int = 0) -> Any:
    values = {}
    for f in attrs.fields(kind):
        if f.default is attrs.NOTHING:
            values[f.alias] = _value_of(f.type, f.name, depth)
    return kind(**values)


def valid_params(method: str) -> Any:
    """A valid example of ``method``'s params, as JSON."""
    if method in OWN_EXAMPLES:
        return OWN_EXAMPLES[method]
    kinds = types.METHOD_TO_TYPES.get(method)
    if kinds is None:
        return dict(GENERIC_EXAMPLE)
    params = kinds[2]
    if params is None:
        return None
    from lsprotocol.converters import get_converter

    try:
        return get_converter().unstructure(_value_of(params, "params", 0))
    except Exception:  # a type this little builder cannot make: the generic example
        return dict(GENERIC_EXAMPLE)


def _deep(depth: int) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


def wrong_values(rng: random.Random) -> Any:
    """A value of some type, often absurd."""
    pick = rng.randrange(17)
    return [
        5, -1, 2 ** 31, 2 ** 64, 1.5, True, None, "x", "\x1b[31mred\x1b[0m\nforged.conllu:1:1: error",
        "a" * rng.choice((1_000, 100_000, 300_000)), [], [1, "two", None], list(range(20_000)),
        {}, {"uri": 5, "line": "x"}, _deep(rng.choice((50, 400))), {"a" * 50_000: 1},
    ][pick]


def _paths(value: Any, path: tuple = ()) -> list[tuple]:
    out = [path]
    if isinstance(value, dict):
        for key, inner in value.items():
            out += _paths(inner, path + (key,))
    elif isinstance(value, list):
        for k, inner in enumerate(value[:3]):
            out += _paths(inner, path + (k,))
    return out


def _replaced(value: Any, path: tuple, new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: _replaced(value[head], rest, new)}
    copy = list(value)
    copy[head] = _replaced(copy[head], rest, new)
    return copy


def wrong_params(example: Any, rng: random.Random) -> Any:
    """``example`` with one value (or all of it) replaced by a wrong one."""
    paths = _paths(example)
    path = rng.choice(paths)
    return _replaced(example, path, wrong_values(rng))


def wrong_command(commands: list[str], rng: random.Random) -> dict:
    """``workspace/executeCommand`` params: a registered command (or a
    strange name) with wrong arguments."""
    name: Any = rng.choice(commands) if commands and rng.random() < 0.8 else wrong_values(rng)
    arguments: Any = rng.choice([wrong_values(rng), [wrong_values(rng)], [URI, wrong_values(rng)]])
    params: Any = {"command": name, "arguments": arguments}
    if rng.random() < 0.1:
        params = wrong_values(rng)
    return params
