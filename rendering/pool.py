"""A bounded pool of render threads, so a burst of boards uses the machine's cores without queueing
behind (or crowding out) everything else that runs in asyncio's default executor.

Pillow releases the GIL while it resizes, composites and encodes, so render threads do run in parallel;
more threads than cores only add memory and switching.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import ctypes
import functools
import itertools
import os
import queue
import threading
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")
Guard = Callable[[], contextlib.AbstractContextManager[Any]]


TRIM_AFTER = 20
"""Renders after which a worker that finds the queue empty hands the C heap's free pages back
(:func:`trim_memory`): when the pool falls idle, never between the renders of a burst."""


def trim_memory() -> None:
    """Hand the C heap's free pages back to the system (glibc's ``malloc_trim``). The images renders draw
    and drop are freed into glibc's heaps, which keep their pages: ~50 MB after the warm-up alone. It takes
    a few milliseconds and slows no render (unlike making glibc map each large image on its own, which
    doubles render times). Nothing to do on another C library."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None).malloc_trim(0)


def default_threads() -> int:
    """Threads of the default pool: the one set by :func:`configure`, else one per CPU (2 if unknown)."""
    return _default.threads


class RenderPool:
    """``threads`` dedicated worker threads; :meth:`run` awaits a blocking render on one of them.

    Renders an answer waits for (a board) go before those that follow an answer (private hands, final
    scoring, records): in a burst, a hand queued earlier never delays another action's board."""

    def __init__(self, threads: int | None = None, during_boards: Guard = contextlib.nullcontext) -> None:
        self.threads = threads or os.cpu_count() or 2
        self.during_boards = during_boards
        """Entered while a render an answer waits for is queued or drawn (the bot's other work gives way)."""
        if self.threads < 1:
            raise ValueError("a render pool needs at least one thread")
        self._queue: queue.PriorityQueue[tuple[int, int, _Job | None]] = queue.PriorityQueue()
        self._order = itertools.count()
        self._since_trim = 0  # renders of every worker since one last trimmed (a race only trims twice)
        self._workers = [
            threading.Thread(target=self._work, name=f"render-{n}", daemon=True) for n in range(self.threads)
        ]
        for worker in self._workers:
            worker.start()

    async def run(self, fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        """``fn(*args, **kwargs)`` on a pool thread (in the caller's context, as ``asyncio.to_thread``),
        before every render queued by :meth:`run_later`, within :attr:`during_boards`."""
        with self.during_boards():
            return await self._submit(URGENT, functools.partial(fn, *args, **kwargs))

    async def run_later(self, fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        """As :meth:`run`, for a render no answer waits for (a private hand, the final scoring): it yields to
        every :meth:`run`."""
        return await self._submit(LATER, functools.partial(fn, *args, **kwargs))

    async def _submit(self, priority: int, call: Callable[[], R]) -> R:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[R] = loop.create_future()
        self._queue.put((priority, next(self._order), _Job(loop, future, contextvars.copy_context(), call)))
        return await future

    def _work(self) -> None:
        while True:
            _, _, job = self._queue.get()
            if job is None:
                return
            job.run()
            self._since_trim += 1
            if self._since_trim >= TRIM_AFTER and self._queue.empty():
                self._since_trim = 0
                trim_memory()

    def shutdown(self) -> None:
        """Stop taking renders; those already queued still finish."""
        for _ in self._workers:
            self._queue.put((STOP, next(self._order), None))


URGENT, LATER, STOP = 0, 1, 2
"""Queue priorities: renders an answer waits for, renders that follow an answer, a worker's end."""


class _Job:
    """One queued render: its call, and the future (on the caller's loop) that gets its result."""

    __slots__ = ("call", "context", "future", "loop")

    def __init__(
        self, loop: asyncio.AbstractEventLoop, future: asyncio.Future[Any], context: contextvars.Context, call: Any
    ) -> None:
        self.loop, self.future, self.context, self.call = loop, future, context, call

    def run(self) -> None:
        try:
            result = self.context.run(self.call)
        except BaseException as exc:  # handed to the awaiting coroutine, like an executor does
            self._settle(None, exc)
        else:
            self._settle(result, None)

    def _settle(self, result: Any, error: BaseException | None) -> None:
        def settle() -> None:
            if self.future.cancelled():
                return
            if error is not None:
                self.future.set_exception(error)
            else:
                self.future.set_result(result)

        with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits for this render any more
            self.loop.call_soon_threadsafe(settle)


_default = RenderPool()


def configure(threads: int | None = None, during_boards: Guard = contextlib.nullcontext) -> RenderPool:
    """Replace the default pool by one of ``threads`` threads (``None``: one per CPU) and return it;
    ``during_boards`` is entered around every board's render (:class:`RenderPool`). Renders already queued
    on the old pool finish there."""
    global _default
    old, _default = _default, RenderPool(threads, during_boards)
    old.shutdown()
    return _default


async def run(fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """``fn(*args, **kwargs)`` on the default pool: what the cogs await to draw an image an answer waits
    for (a board)."""
    return await _default.run(fn, *args, **kwargs)


async def run_later(fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """``fn(*args, **kwargs)`` on the default pool after every board waiting: an image that follows an
    answer (a private hand, the final scoring, a record)."""
    return await _default.run_later(fn, *args, **kwargs)
