"""Where the engine's work runs, and how background tasks are kept honest.

The engine is not thread-safe, so every call into it goes through one worker
thread, in order (`EngineWorker.run`): edits are applied in the order the
client sent them, and a rescore sees them all.  That thread is separate from
pygls's own pool, on which stdin is read, so a long rescore never stops the
server from reading messages.

`Tasks` keeps a reference to every background asyncio task (so none is
garbage-collected mid-way) and logs any exception it ends with.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Coroutine

logger = logging.getLogger("annoscore")


class EngineWorker:
    def __init__(self) -> None:
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="annoscore-engine")

    async def run(self, function: Callable[..., Any], *args: Any) -> Any:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, function, *args)

    def submit(self, function: Callable[..., Any], *args: Any) -> asyncio.Future:
        """Queue the call now (`run` queues it when first awaited): calls
        submitted in one step of a handler keep their order against every
        other handler's."""
        return asyncio.get_running_loop().run_in_executor(self._executor, function, *args)

    def shutdown(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)


class Tasks:
    def __init__(self) -> None:
        self._tasks: set[asyncio.Task] = set()

    def spawn(self, coroutine: Coroutine, name: str) -> asyncio.Task:
        task = asyncio.get_running_loop().create_task(coroutine, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task) -> None:
        self._tasks.discard(task)
        if task.cancelled():
            return
        error = task.exception()
        if error is not None:
            logger.error("background task %s failed", task.get_name(), exc_info=error)

    def cancel_all(self) -> None:
        for task in list(self._tasks):
            task.cancel()
