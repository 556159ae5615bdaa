"""The common base of the LSP features.

A feature is one small class: its handlers (`register`, called once when the
server is made) and the lifecycle hooks the server calls, in the order the
features are listed in `server.lsp.server.FEATURES`, from its single handler
for each of those messages.  A feature that needs another asks the server
for it by class (`AnnoscoreServer.get_feature`), never by name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

if TYPE_CHECKING:  # pragma: no cover
    from ..server import AnnoscoreServer


class LanguageFeature:
    def __init__(self, server: "AnnoscoreServer") -> None:
        self.server = server

    def register(self) -> None:
        """Register the feature's handlers with the server."""

    def initialize(self, params: types.InitializeParams) -> None:
        """The client's initialize request (capabilities, options)."""

    async def initialized(self) -> None:
        """The client is ready: requests to it may be made now."""

    def stop(self) -> None:
        """The server shuts down: stop background work."""
