"""Files changed on disk by other programs: a parser rewriting the
prediction, ``git checkout`` of a gold file, the project file edited.

A watchfiles task watches the workspace root and the folders of open
documents and their gold.  It does not trust the change kind (an atomic
save — a temporary file renamed over the target — arrives as "added", a
Vim-style save as "added" and "deleted" in one batch): it collects the paths
of a batch and lets the engine look at each again.  Buffers open in the
editor win over the disk.  ``workspace/didChangeWatchedFiles`` from clients
that send it goes the same way.
"""

from __future__ import annotations

import asyncio
import logging
import os

from lsprotocol import types
from watchfiles import DefaultFilter, awatch

from ..feature import LanguageFeature, handles
from ..server import AnnoscoreServer
from .configuration import Configuration
from ...project import CONFIG_FILES

logger = logging.getLogger("annoscore")


class FileWatching(LanguageFeature):
    server: AnnoscoreServer

    def __init__(self, server: AnnoscoreServer) -> None:
        super().__init__(server)
        self._stop: asyncio.Event | None = None
        self._task: asyncio.Task | None = None
        self._folders: frozenset[str] = frozenset()

    @handles(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    async def did_change_watched_files(self, params: types.DidChangeWatchedFilesParams) -> None:
        await self.changed({self.server.key_for(change.uri)[1] for change in params.changes} - {None})

    # --- events ---------------------------------------------------------------

    async def initialized(self) -> None:
        self.refresh()

    def document_opened(self, key: str) -> None:
        self.refresh()  # (its folder, or its gold's, may be new)

    def shutdown(self) -> None:
        self.stop()

    # --- watching -------------------------------------------------------------

    def folders(self) -> frozenset[str]:
        engine = self.server.engine
        folders = set()
        if engine.root and os.path.isdir(engine.root):
            folders.add(os.path.abspath(engine.root))
        for document in list(engine.documents.values()):
            for path in (document.path, document.setup.gold):
                if path:
                    folder = os.path.dirname(os.path.abspath(path))
                    if os.path.isdir(folder) and not any(
                            folder == f or folder.startswith(f + os.sep) for f in folders):
                        folders.add(folder)
        return frozenset(folders)

    def refresh(self) -> None:
        """(Re)start the watcher when the folders to watch have changed."""
        folders = self.folders()
        if folders == self._folders and self._task is not None and not self._task.done():
            return
        self.stop()
        self._folders = folders
        if folders:
            self._stop = asyncio.Event()
            self._task = self.server.tasks.spawn(self._watch(folders, self._stop), "watch files")

    def stop(self) -> None:
        if self._stop is not None:
            self._stop.set()
        self._task = None

    async def _watch(self, folders: frozenset[str], stop: asyncio.Event) -> None:
        logger.info("watching %s", ", ".join(sorted(folders)))
        async for changes in awatch(*sorted(folders), stop_event=stop, watch_filter=DefaultFilter(),
                                    debounce=400, step=50, recursive=True, ignore_permission_denied=True):
            await self.changed({os.path.abspath(path) for _, path in changes})

    async def changed(self, paths: set[str]) -> None:
        ls = self.server
        if any(os.path.basename(p) in CONFIG_FILES for p in paths):
            await ls.get_feature(Configuration).apply()
        keys: list[str] = []
        for path in sorted(paths):
            for key in await ls.worker.run(ls.engine.disk_changed, path):
                if key not in keys:
                    keys.append(key)
        ls.announce(lambda feature: feature.files_changed(keys))
