"""The common base of the LSP features: the events they hear, and how they
declare the messages they answer.

A feature is one small class.  It answers its LSP methods with methods of
its own, declared with `handles` (a request or notification) and `command`
(a ``workspace/executeCommand`` command), each with the check of its params
when annoscore defines them (`AnnoscoreProtocol.check_params`); `register`
hands them to pygls once, when the server is made.  What happens to every
feature — the client's initialize, a document opened or saved, the settings
changed, the shutdown — it hears through the typed hooks below, which the
server calls on every feature in the order they were added
(`AnnoscoreServer.announce`): no feature registers a handler for another's
sake.  A feature that needs another asks the server for it by its class
(`AnnoscoreServer.get_feature`), and uses only its public methods.

This module knows neither the server nor any feature: the server imports
it, and the features import both (each narrows ``server`` to
`AnnoscoreServer`).
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Any, Awaitable, Callable, Optional, TypeVar

from lsprotocol import types
from pygls.lsp.server import LanguageServer

# A check of a request's params (or a command's arguments): what is wrong, or None.
ParamsCheck = Callable[[Any], Optional[str]]
Method = TypeVar("Method", bound=Callable[..., Any])


@dataclass(frozen=True)
class Handles:
    """What a feature's method answers: an LSP method (or a command's name)."""

    name: str
    is_command: bool
    options: Any = None
    check: ParamsCheck | None = None


def handles(name: str, options: Any = None, check: ParamsCheck | None = None) -> Callable[[Method], Method]:
    """Mark a feature's method as the handler of the LSP request or
    notification ``name`` (with pygls's ``options`` for it, and ``check``
    for the params of annoscore's own requests)."""
    def mark(method: Method) -> Method:
        method.__lsp__ = Handles(name, False, options, check)  # type: ignore[attr-defined]
        return method
    return mark


def command(name: str, check: ParamsCheck | None = None) -> Callable[[Method], Method]:
    """Mark a feature's method as the handler of the command ``name``; it
    gets the command's arguments unpacked (``*args``), as pygls gives them."""
    def mark(method: Method) -> Method:
        method.__lsp__ = Handles(name, True, None, check)  # type: ignore[attr-defined]
        return method
    return mark


def _pygls_handler(method: Callable[..., Any]) -> Callable[..., Any]:
    """A plain function calling a bound method, for pygls: it marks the
    functions it is given (a bound method takes no attributes), and it hands
    the server only to a function whose first parameter is ``ls``."""
    if inspect.iscoroutinefunction(method):
        async def answer(*args: Any) -> Any:
            return await method(*args)
    else:
        def answer(*args: Any) -> Any:  # type: ignore[misc]
            return method(*args)
    answer.__name__ = answer.__qualname__ = method.__name__
    return answer


class LanguageFeature:
    """One feature of the language server: its handlers, and the hooks it
    overrides (the others do nothing)."""

    server: LanguageServer

    def __init__(self, server: LanguageServer) -> None:
        self.server = server

    def register(self) -> None:
        """Hand the methods marked with `handles` and `command` to pygls."""
        for cls in reversed(type(self).__mro__):
            for attribute, value in vars(cls).items():
                marked: Handles | None = getattr(value, "__lsp__", None)
                if marked is None:
                    continue
                handler = _pygls_handler(getattr(self, attribute))
                if marked.check is not None:
                    self.server.protocol.check_params(marked.name, marked.check)  # type: ignore[attr-defined]
                if marked.is_command:
                    self.server.command(marked.name)(handler)
                else:
                    self.server.feature(marked.name, marked.options)(handler)

    # --- the events every feature hears (in the order the features were added) ---

    def initialize(self, params: types.InitializeParams) -> None:
        """The client's initialize request (its capabilities and options)."""

    async def initialized(self) -> None:
        """The client is ready: requests to it may be made now."""

    def document_opened(self, key: str) -> None:
        """The engine holds a document the client opened (by its engine key)."""

    def document_changed(self, key: str) -> None:
        """The engine has applied the client's changes to a document."""

    def document_saved(self, key: str) -> None:
        """The client saved a document."""

    def document_closed(self, key: str) -> None:
        """The client closed a document; the engine lets it go right after."""

    def settings_changed(self, keys: list[str]) -> None:
        """The settings changed (project file or editor); ``keys`` are the
        documents whose results change with them."""

    def files_changed(self, keys: list[str]) -> None:
        """Files changed on disk; ``keys`` are the documents they change
        (the document itself, its gold, its other annotations)."""

    def shutdown(self) -> None:
        """The server stops: stop background work."""


# What `AnnoscoreServer.announce` calls on each feature: one of its hooks
# (``lambda feature: feature.document_saved(key)``); `announce_awaited`'s
# returns the coroutine of an async hook.
Hook = Callable[[LanguageFeature], None]
AsyncHook = Callable[[LanguageFeature], Awaitable[None]]
