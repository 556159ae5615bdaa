"""Settings: defaults, the project file, and the editor's ``annoscore.*`` section.

Editor settings come from ``workspace/configuration`` when the client offers
it (pulled again on ``workspace/didChangeConfiguration``), else from the
initialization options.  Invalid values are reported — a message to the user
and, for the project file, a diagnostic on its line — and replaced by the
defaults; the server carries on.
"""

from __future__ import annotations

import logging
import os
from typing import Any

from lsprotocol import types

from annoscore.scorer.problems import Problem, Severity
from annoscore.scorer.reading import set_size_limit

from ..feature import LanguageFeature, handles
from ..server import AnnoscoreServer
from ...config import ConfigProblem, Settings, apply_editor_settings, load_project

logger = logging.getLogger("annoscore")


def _section(data: Any) -> Any:
    """The annoscore section, whether given as {"annoscore": {...}} or bare.
    An empty list is an empty object (Lua's empty table encodes as [])."""
    if isinstance(data, dict) and "annoscore" in data:
        data = data["annoscore"]
    if data == []:
        return {}
    return data


class Configuration(LanguageFeature):
    server: AnnoscoreServer

    def __init__(self, server: AnnoscoreServer) -> None:
        super().__init__(server)
        self.editor_data: Any = None
        self.settings = Settings()
        self.problems: list[ConfigProblem] = []
        self._published_config_file: str | None = None
        self._shown: list[ConfigProblem] = []

    @handles(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def did_change_configuration(self, params: types.DidChangeConfigurationParams) -> None:
        data = _section(params.settings) if params.settings else None
        if isinstance(data, dict) and data:
            self.editor_data = data
        elif self._can_pull():
            await self.pull()
        await self.apply()

    # --- events ---------------------------------------------------------------

    def initialize(self, params: types.InitializeParams) -> None:
        root = None
        if params.workspace_folders:
            root = self.server.key_for(params.workspace_folders[0].uri)[1]
        elif params.root_uri:
            root = self.server.key_for(params.root_uri)[1]
        elif params.root_path:
            root = os.path.abspath(params.root_path)
        self.server.engine.root = root
        options = params.initialization_options
        if options is not None:
            self.editor_data = _section(options)
        self.settings, self.problems = self._compute()
        self.server.engine.settings = self.settings

    async def initialized(self) -> None:
        # A client opens documents right after `initialized`, and they may be
        # scored before the pulled settings arrive: `apply` rescores them.
        if self._can_pull():
            await self.pull()
        await self.apply()

    # --- work -------------------------------------------------------------------

    def _can_pull(self) -> bool:
        capabilities = self.server.client_capabilities
        workspace = capabilities.workspace if capabilities else None
        return bool(workspace and workspace.configuration)

    async def pull(self) -> None:
        try:
            result = await self.server.workspace_configuration_async(
                types.ConfigurationParams(items=[types.ConfigurationItem(section="annoscore")]))
        except Exception as error:  # a client that fails the request: keep what we have
            logger.warning("workspace/configuration failed: %s", error)
            return
        if result:
            data = result[0]
            if data is not None:
                self.editor_data = _section(data)

    def _compute(self) -> tuple[Settings, list[ConfigProblem]]:
        # What only the user may set (docs/reliability.md) is the editor's,
        # read first: the project file's paths are checked against it.
        user, more = apply_editor_settings(Settings(), self.editor_data)
        base = Settings(allow_outside_project=user.allow_outside_project, max_file_size=user.max_file_size)
        settings, problems = load_project(self.server.engine.root, base)
        settings, more = apply_editor_settings(settings, self.editor_data)
        set_size_limit(settings.max_file_size)
        from ...engine.conllu import validation_cache

        validation_cache.set_enabled(settings.cache)
        return settings, problems + more

    async def apply(self) -> None:
        """Recompute the settings (project file and editor), and rescore."""
        self.settings, self.problems = self._compute()
        keys = await self.server.worker.run(self.server.engine.set_settings, self.settings)
        await self._report()
        self.server.announce(lambda feature: feature.settings_changed(keys))

    async def _report(self) -> None:
        server = self.server
        if self.problems and self.problems != self._shown:
            text = "annoscore: " + "; ".join(p.message for p in self.problems[:5])
            if len(self.problems) > 5:
                text += f"; and {len(self.problems) - 5} more"
            server.window_show_message(types.ShowMessageParams(type=types.MessageType.Warning, message=text))
            for p in self.problems:
                logger.warning("%s", p.message)
        self._shown = list(self.problems)
        # Diagnostics on the project file itself (and none left on the one
        # that had them before).
        paths = {p.path for p in self.problems if p.path}
        for path in (paths | {self._published_config_file}) - {None}:
            problems = [Problem("config", p.message, p.line, 0, 0, Severity.WARNING)
                        for p in self.problems if p.path == path]
            # On the engine's thread: lsp_diagnostics reads the engine's documents.
            diagnostics = await server.worker.run(server.lsp_diagnostics, path, problems)
            server.publish_diagnostics(server.uri_for(path), diagnostics)
        self._published_config_file = next(iter(paths), None)
