"""A bounded pool of render threads, so a burst of boards uses the machine's cores without queueing
behind (or crowding out) everything else that runs in asyncio's default executor.

Pillow releases the GIL while it resizes, composites and encodes, so render threads do run in parallel;
more threads than cores only add memory and switching.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


def default_threads() -> int:
    """Threads of the default pool: the one set by :func:`configure`, else one per CPU (2 if unknown)."""
    return _default.threads


class RenderPool:
    """``threads`` dedicated worker threads; :meth:`run` awaits a blocking render on one of them."""

    def __init__(self, threads: int | None = None) -> None:
        self.threads = threads or os.cpu_count() or 2
        if self.threads < 1:
            raise ValueError("a render pool needs at least one thread")
        self._executor = ThreadPoolExecutor(max_workers=self.threads, thread_name_prefix="render")

    async def run(self, fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        """``fn(*args, **kwargs)`` on a pool thread (in the caller's context, as ``asyncio.to_thread``)."""
        call = functools.partial(contextvars.copy_context().run, fn, *args, **kwargs)
        return await asyncio.get_running_loop().run_in_executor(self._executor, call)

    def shutdown(self) -> None:
        """Stop taking renders; those already queued still finish."""
        self._executor.shutdown(wait=False)


_default = RenderPool()


def configure(threads: int | None = None) -> RenderPool:
    """Replace the default pool by one of ``threads`` threads (``None``: one per CPU) and return it.
    Renders already queued on the old pool finish there."""
    global _default
    old, _default = _default, RenderPool(threads)
    old.shutdown()
    return _default


async def run(fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """``fn(*args, **kwargs)`` on the default pool: what the cogs await to draw an image."""
    return await _default.run(fn, *args, **kwargs)
