"""Work-done progress (``$/progress``) for a long whole pass.

The first scoring of a large document takes seconds; without a word from the
server an editor shows nothing meanwhile.  When the client can show progress
(``window.workDoneProgress``), a whole pass over a large document (see
`Engine.long_pass_ahead`) gets a progress token: begin, a percentage now and
then, end.  The engine reports from its worker thread; the reports are
handed to the event loop, which alone writes to the client.
"""

from __future__ import annotations

import asyncio
import logging
import os
import uuid

from lsprotocol import types

logger = logging.getLogger("annoscore")

STEP = 5  # percent between two reports


class PassProgress:
    def __init__(self, server, key: str) -> None:
        self.server = server
        self.key = key
        self.token = f"annoscore-{uuid.uuid4().hex[:12]}"
        self.loop = asyncio.get_running_loop()
        self.shown = -STEP

    @staticmethod
    def wanted(server) -> bool:
        capabilities = server.client_capabilities
        window = capabilities.window if capabilities else None
        return bool(window and window.work_done_progress)

    async def begin(self) -> bool:
        """Ask the client for the token and show the bar; False when it refuses."""
        try:
            await self.server.work_done_progress.create_async(self.token)
        except Exception as error:  # the client would not: score without it
            logger.info("no progress shown (%s)", error)
            return False
        self.server.work_done_progress.begin(self.token, types.WorkDoneProgressBegin(
            title="annoscore", message=f"scoring {os.path.basename(self.key)}", percentage=0,
            cancellable=False))
        return True

    def report(self, fraction: float) -> None:
        """(From the engine thread.)"""
        percentage = int(100 * min(max(fraction, 0.0), 1.0))
        if percentage - self.shown >= STEP:
            self.shown = percentage
            self.loop.call_soon_threadsafe(self._send, percentage)

    def _send(self, percentage: int) -> None:
        self.server.work_done_progress.report(self.token, types.WorkDoneProgressReport(percentage=percentage))

    def end(self) -> None:
        self.server.work_done_progress.end(self.token, types.WorkDoneProgressEnd(message="scored"))
