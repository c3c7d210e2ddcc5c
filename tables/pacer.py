"""Work that runs when woken and again when it asks to, without a task parked on anything but
``asyncio.sleep``: the delivery loop and the clocks. (Simulated clocks, SimCord's in the tests and the
demo, see every such wait; a task waiting on an event would look stuck to them.)"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger("tables.pacer")


class Pacer:
    """Runs ``work`` when woken (once more if woken while it runs), then again after the seconds it
    returns (``None``: only when woken). A timer already set to wake it in time is kept: a new one per
    run left a cancelled timer behind for every action (one every few milliseconds in a burst)."""

    def __init__(self, work: Callable[[], Awaitable[float | None]], name: str) -> None:
        self._work = work
        self._name = name
        self._running: asyncio.Task[None] | None = None
        self._timer: asyncio.Task[None] | None = None
        self._due = float("inf")  # when the timer wakes it (the loop's clock)
        self._again = False
        self._stopped = False

    def wake(self) -> None:
        if self._stopped:
            return
        if self._running is not None and not self._running.done():
            self._again = True
            return
        self._running = asyncio.get_running_loop().create_task(self._run(), name=self._name)

    async def _run(self) -> None:
        delay: float | None = None
        while True:
            self._again = False
            try:
                delay = await self._work()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("%s failed; it runs again in a second", self._name)
                delay = 1.0
            if not self._again:
                break
        loop = asyncio.get_running_loop()
        timer = self._timer  # never this task: a timer that fires starts a new run (see _sleep)
        due = None if delay is None else loop.time() + max(0.0, delay)
        if timer is not None and not timer.done() and due is not None and self._due <= due:
            return  # the timer set already wakes it in time (a wake too early only runs the work again)
        if timer is not None:
            timer.cancel()
        self._timer = None if due is None else loop.create_task(self._sleep(due), name=f"{self._name}-timer")
        self._due = due if due is not None else float("inf")

    async def _sleep(self, due: float) -> None:
        await asyncio.sleep(max(0.0, due - asyncio.get_running_loop().time()))
        if self._timer is asyncio.current_task():
            self._timer = None
        self.wake()

    async def stop(self) -> None:
        self._stopped = True
        tasks = [t for t in (self._running, self._timer) if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
