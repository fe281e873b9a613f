"""Per-document debounce for diagnostics: coalesce bursts of edits, never run two at once."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)


class Debouncer:
    """Runs `job(key)` `delay` seconds after the first request for `key`; requests that arrive
    while it waits or runs are folded into one more run afterwards."""

    def __init__(self, job: Callable[[str], Awaitable[None]], delay: float) -> None:
        self.job = job
        self.delay = delay
        self._tasks: dict[str, asyncio.Task] = {}
        self._again: dict[str, bool] = {}

    def request(self, key: str, at_once: bool = False) -> None:
        """Ask for a run of `job(key)`; `at_once`: without the delay, when none waits or runs (an
        open: no keystroke is on its way to fold in)."""
        task = self._tasks.get(key)
        if task is not None and not task.done():
            self._again[key] = True
            return
        self._again[key] = False
        self._tasks[key] = asyncio.get_running_loop().create_task(self._run(key, at_once))

    def cancel(self, key: str) -> None:
        task = self._tasks.pop(key, None)
        self._again.pop(key, None)
        if task is not None and not task.done():
            task.cancel()

    def pending(self, key: str) -> bool:
        task = self._tasks.get(key)
        return task is not None and not task.done()

    async def _run(self, key: str, at_once: bool = False) -> None:
        try:
            while True:
                if self.delay > 0 and not at_once:
                    await asyncio.sleep(self.delay)
                at_once = False
                self._again[key] = False
                try:
                    await self.job(key)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("diagnostics job failed for %s", key)
                if not self._again.get(key):
                    break
        finally:
            if self._tasks.get(key) is asyncio.current_task():
                del self._tasks[key]
