"""One pending call per key (a lobby's expiry, a tournament's start): armed for a time, armed again in place of
the one before, disarmed, and all cancelled when the service stops."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable


class KeyedTimers:
    """Calls ``then(key)`` at the time a key was armed for (at once if it has passed), once."""

    def __init__(self, now: Callable[[], float], then: Callable[[int], Awaitable[None]], name: str) -> None:
        self.now, self.then, self.name = now, then, name
        self._tasks: dict[int, asyncio.Task[None]] = {}

    def arm(self, key: int, at: float) -> None:
        self.disarm(key)
        self._tasks[key] = asyncio.get_running_loop().create_task(self._later(key, at), name=f"{self.name}-{key}")

    def disarm(self, key: int) -> None:
        task = self._tasks.pop(key, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def _later(self, key: int, at: float) -> None:
        await asyncio.sleep(max(0.0, at - self.now()))
        self._tasks.pop(key, None)
        await self.then(key)

    async def stop(self) -> None:
        tasks = list(self._tasks.values())
        self._tasks.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
