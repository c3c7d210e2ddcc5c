"""A bounded pool of renderers, so a burst of boards uses the machine's cores without queueing behind (or
crowding out) everything else that runs in asyncio's default executor.

The renders run on threads of the bot's process, or in processes beside it (``processes``), one thread
of the pool per process handing it one render at a time. Pillow releases the GIL while it resizes,
composites and encodes, but the Python that lays out a board holds it, as does the bot's event loop:
in a burst of boards, threads take turns with the answers they are drawn for, processes do not.
More renderers than cores only add memory and switching.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import ctypes
import functools
import gc
import heapq
import itertools
import logging
import os
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, ParamSpec, TypeVar

from games.processes import worker_context
from rendering import cache

log = logging.getLogger("rendering.pool")

P = ParamSpec("P")
R = TypeVar("R")
Guard = Callable[[], contextlib.AbstractContextManager[Any]]


TRIM_AFTER = 20
"""Renders after which a worker that finds the queue empty hands the C heap's free pages back
(:func:`trim_memory`): when the pool falls idle, never between the renders of a burst."""
TRIM_IDLE = 1.0
"""Seconds with nothing to draw after which the pool hands back the free pages of the renders since it last
did, however few (a quiet bot keeps no garbage of its last boards)."""


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


def default_pool() -> RenderPool:
    """The pool :func:`run` and :func:`run_later` use (set by :func:`configure`)."""
    return _default


def _start_render_process(cache_bytes: int) -> None:
    """A render process's start: its own render cache, of ``cache_bytes``."""
    cache.configure(cache_bytes)


Warm = Callable[[], int]
"""A warm-up (:func:`rendering.warmup.warm_renderers` with its games): draws images, returns how many. Picklable
(a module-level function, or a partial of one, of plain values) for render processes."""


_warmed = False
"""Whether this render process was warmed up (:func:`_warm_process`)."""


def _warm_process(warm: Warm) -> int:
    """In a render process, once (0 images when it is warm already): ``warm``, then the heap frozen out of the
    garbage collector's way and the dropped images' pages handed back, as the bot does with its own after its
    warm-up (``TableBot.warm_up``)."""
    global _warmed
    if _warmed:
        return 0
    _warmed = True
    drawn = warm()
    gc.collect()
    gc.freeze()
    trim_memory()
    return drawn


class RenderPool:
    """``threads`` dedicated worker threads; :meth:`run` awaits a blocking render on one of them. With
    ``processes``, as many render processes (each with a render cache of ``cache_bytes``) and a thread
    per process that hands it its renders: the function and arguments of every render must then be
    picklable (module-level functions of plain values).

    Renders an answer waits for (a board) go before those that follow an answer (private hands, final
    scoring, records): in a burst, a hand queued earlier never delays another action's board. And those
    that follow an answer never take every thread: with two or more, one is always free for the next
    board, so a player who acts while the last action's hands are drawn does not wait for them."""

    def __init__(
        self,
        threads: int | None = None,
        during_boards: Guard = contextlib.nullcontext,
        *,
        processes: int = 0,
        cache_bytes: int | None = None,
    ) -> None:
        if processes < 0:
            raise ValueError("a render pool cannot have fewer than no processes")
        self.processes = processes
        self.threads = processes or threads or os.cpu_count() or 2
        self.during_boards = during_boards
        """Entered while a render an answer waits for is queued or drawn (the bot's other work gives way)."""
        if self.threads < 1:
            raise ValueError("a render pool needs at least one thread")
        self._cache_bytes = cache_bytes
        self._processes = self._start_processes() if processes else None
        self._replacing = threading.Lock()
        self._jobs: list[tuple[int, int, _Job]] = []
        """The renders queued, a heap by priority, then order of arrival."""
        self._ready = threading.Condition()
        """Guards the queue and the counts below; notified when a render is queued or one that follows an
        answer ends, and when the pool stops."""
        self._later_threads = max(1, self.threads - 1)
        self._later_running = 0
        self._stopping = False
        self._order = itertools.count()
        self._since_trim = 0
        """Renders of every worker since one last handed the free pages back."""
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
        with self._ready:
            heapq.heappush(
                self._jobs, (priority, next(self._order), _Job(loop, future, contextvars.copy_context(), call))
            )
            self._ready.notify()
        return await future

    async def warm(self, warm: Warm) -> int:
        """Warm the renderers up with ``warm``: this process's (in a thread; the caller then freezes its heap),
        or every render process's (each has its own cache; one warm-up per process, drawn side by side). The
        images drawn."""
        if self._processes is None:
            return await asyncio.to_thread(warm)
        loop = asyncio.get_running_loop()
        # One call per process: each takes seconds, so they spread over the processes as they start.
        drawn = [loop.run_in_executor(self._processes, _warm_process, warm) for _ in range(self.processes)]
        return sum(await asyncio.gather(*drawn))

    def _start_processes(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            self.processes,
            mp_context=worker_context(),
            initializer=_start_render_process,
            initargs=(cache.stats().budget if self._cache_bytes is None else self._cache_bytes,),
        )

    def _draw(self, job: _Job) -> Any:
        """Run ``job``'s render here or in a render process. A render process that died (killed, out of
        memory) is replaced and the render tried once more there: one lost process never stops drawing."""
        processes = self._processes
        if processes is None:
            return job.context.run(job.call)
        try:
            return processes.submit(job.call).result()
        except BrokenProcessPool:
            with self._replacing:
                if self._processes is processes:
                    log.warning("A render process stopped unexpectedly; starting new ones")
                    self._processes = self._start_processes()
            assert self._processes is not None
            return self._processes.submit(job.call).result()

    def _next(self) -> tuple[int, _Job | None] | None:
        """A worker's next render and its priority: the first queued, unless it follows an answer while all
        the threads such renders may have draw one; ``(IDLE, None)`` once the pool has had nothing to draw
        for :data:`TRIM_IDLE` since its last renders; ``None`` once it stops and nothing is left."""
        with self._ready:
            while True:
                if self._jobs and (self._jobs[0][0] == URGENT or self._later_running < self._later_threads):
                    priority, _, job = heapq.heappop(self._jobs)
                    self._later_running += priority == LATER
                    return priority, job
                if self._stopping and not self._jobs:
                    self._ready.notify_all()  # the other workers stop too
                    return None
                if self._since_trim and not self._jobs:
                    if not self._ready.wait(TRIM_IDLE) and not self._jobs and self._since_trim:
                        self._since_trim = 0
                        return IDLE, None
                    continue
                self._ready.wait()

    def _work(self) -> None:
        while (picked := self._next()) is not None:
            priority, job = picked
            if job is None:  # idle
                self._trim()
                continue
            try:
                job.run(self._draw)
            finally:
                if priority == LATER:
                    with self._ready:
                        self._later_running -= 1
                        self._ready.notify_all()  # a render it held back may go now
            with self._ready:
                self._since_trim += 1
                trim = self._since_trim >= TRIM_AFTER and not self._jobs
                if trim:
                    self._since_trim = 0
            if trim:
                self._trim()

    def _trim(self) -> None:
        """Hand the free heap pages back: this process's, or a render process's."""
        if self._processes is None:
            trim_memory()
        else:
            with contextlib.suppress(BrokenProcessPool, RuntimeError):  # the next render replaces it
                self._processes.submit(trim_memory)

    def shutdown(self) -> None:
        """Stop taking renders; those already queued still finish (then the render processes stop)."""
        with self._ready:
            self._stopping = True
            self._ready.notify_all()
        if self._processes is not None:
            threading.Thread(target=self._stop_processes, name="render-stop", daemon=True).start()

    def _stop_processes(self) -> None:
        for worker in self._workers:
            worker.join()
        assert self._processes is not None
        self._processes.shutdown()


URGENT, LATER, IDLE = 0, 1, 2
"""Queue priorities: renders an answer waits for, renders that follow an answer; and what a worker does
when the pool has been idle a while (it hands the free pages back)."""


class _Job:
    """One queued render: its call, and the future (on the caller's loop) that gets its result."""

    __slots__ = ("call", "context", "future", "loop")

    def __init__(
        self, loop: asyncio.AbstractEventLoop, future: asyncio.Future[Any], context: contextvars.Context, call: Any
    ) -> None:
        self.loop, self.future, self.context, self.call = loop, future, context, call

    def run(self, draw: Callable[[_Job], Any]) -> None:
        try:
            result = draw(self)
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


def configure(
    threads: int | None = None, during_boards: Guard = contextlib.nullcontext, *, processes: int = 0
) -> RenderPool:
    """Replace the default pool by one of ``threads`` threads (``None``: one per CPU), or of ``processes``
    render processes with the render cache's budget, and return it; ``during_boards`` is entered around
    every board's render (:class:`RenderPool`). Renders already queued on the old pool finish there."""
    global _default
    old, _default = _default, RenderPool(threads, during_boards, processes=processes)
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


def describe(threads: int | None = None) -> str:
    """One line for the start-up log: "render cache: 23.4 MB of 64 MB in 512 images; 2 render threads", or
    with render processes "2 render processes, each with a render cache of 96 MB". ``threads`` defaults
    to the default render pool's."""
    now = cache.stats()
    processes = default_pool().processes if threads is None else 0
    if processes:
        plural = "es" * (processes != 1)
        return f"{processes} render process{plural}, each with a render cache of {now.budget / 2**20:.0f} MB"
    count = default_threads() if threads is None else threads
    return (
        f"render cache: {now.bytes / 2**20:.1f} MB of {now.budget / 2**20:.0f} MB in {now.entries} images; "
        f"{count} render thread{'s' * (count != 1)}"
    )
