"""The ``hard`` AI's searches, off the event loop.

A search takes up to ``TABLES_AI_THINK_MS`` of full CPU per decision. On the event loop it would stall
every other game's answers for that long, and in a thread it would still hold the GIL most of the time,
so it runs in a small pool of worker processes (``TABLES_AI_PROCESSES``), started in the background
when a hard game begins (or by the first search).
The workers import only ``games/`` (pure engines, no Discord, no database): a search is a pure function
of the game's kind, the state, the seat and a random seed (:func:`games.search.decide`).

A search gives way to the bot's answers twice over. Its processes run at the lowest priority, so the
bot's process always gets a core before them; and while the bot answers a member (an action applied and
committed, a board drawn: :meth:`Thinker.answering`), every search waits between two playouts, so that
the answer need not share the machine's cores, caches and memory bandwidth with it.
The count of answers under way is one integer in shared memory, written by the bot and read by the
searches.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from functools import partial
from typing import Any

from data.store import GameRecord
from games.core import Action
from games.processes import worker_context
from games.registry import GAMES
from games.search import decide

log = logging.getLogger("tables.thinking")

PAUSE_S = 0.05
"""The longest a search waits for the bot's answers between two playouts (should a count be left behind,
a search still ends within its time)."""
PAUSE_STEP_S = 0.001
"""How often a waiting search looks at the count of answers under way."""

_answering: Any = None
"""In a search process: the bot's count of answers under way (shared memory)."""


def lowest_priority() -> None:
    """Give this process only the CPU time nothing else wants: Linux's ``SCHED_IDLE`` class, else the
    highest niceness. A search is timed by the clock, so on a busy machine it plays fewer playouts rather
    than delaying the bot's answers."""
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):
        os.nice(19)


def _start_search_process(answering: Any) -> None:
    global _answering
    _answering = answering
    lowest_priority()


def answers_seen() -> int:
    """In a search process: how many answers the bot is giving now."""
    return _answering.value if _answering is not None else 0


def wait_for_answers(answering: Any) -> None:
    """Between two playouts: wait while ``answering`` (a count of the bot's answers under way) is not
    zero, at most :data:`PAUSE_S`."""
    deadline = time.monotonic() + PAUSE_S
    while answering.value > 0 and time.monotonic() < deadline:
        time.sleep(PAUSE_STEP_S)


def think(kind: str, state: dict[str, Any], seat: int, think_ms: int, seed: str) -> str:
    """:func:`games.search.decide` in a search process, waiting for the bot's answers between playouts."""
    pause = partial(wait_for_answers, _answering) if _answering is not None else None
    return decide(kind, state, seat, think_ms, seed, pause=pause)


class SearchFailed(Exception):
    """The hard AI could not search a decision (its processes keep dying)."""


class Thinker:
    """Runs the hard AI's searches: in ``processes`` worker processes, or (0) in a thread."""

    def __init__(self, processes: int, think_ms: int) -> None:
        self.processes = processes
        self.think_ms = think_ms
        self._pool: ProcessPoolExecutor | None = None
        self._salt = random.SystemRandom().getrandbits(64)
        self._context = worker_context()
        self._answering = self._context.RawValue("i", 0)
        """The answers under way (:meth:`answering`), read by the searches between playouts."""

    @contextmanager
    def answering(self) -> Iterator[None]:
        """Around the bot's work for a member (applying an action, drawing a board): the searches
        wait meanwhile."""
        self._answering.value += 1
        try:
            yield
        finally:
            self._answering.value -= 1

    @property
    def busy(self) -> bool:
        """Whether an answer is under way (:meth:`answering`)."""
        return self._answering.value > 0

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # At the lowest priority: where the search processes and the bot share cores, the bot's answers
            # come first.
            self._pool = ProcessPoolExecutor(
                self.processes,
                mp_context=self._context,
                initializer=_start_search_process,
                initargs=(self._answering,),
            )
            log.info("Started %d process(es) for the hard AI (%d ms a decision)", self.processes, self.think_ms)
        return self._pool

    def warm(self) -> None:
        """Start the search processes in the background, if they are not running (a game that will search
        has begun)."""
        if self.processes and self._pool is None:
            self._executor().submit(os.getpid)

    async def decide(self, kind: str, state: dict[str, Any], seat: int, *, game_id: int) -> Action:
        """The hard AI's decision for ``seat``. Its random seed is this process's own, never derived from
        the game's secret seed.

        A search process that died (killed, out of memory) breaks the pool: it is started again and the search
        tried once more; :class:`SearchFailed` if that fails too (the caller decides another way)."""
        seed = f"{self._salt:x}/{game_id}/{state['step']}/{seat}"
        if not self.processes:
            pause = partial(wait_for_answers, self._answering)
            return Action.decode(await asyncio.to_thread(decide, kind, state, seat, self.think_ms, seed, pause=pause))
        for attempt in range(2):
            pool = self._executor()
            try:
                text = await asyncio.get_running_loop().run_in_executor(
                    pool, think, kind, state, seat, self.think_ms, seed
                )
                return Action.decode(text)
            except BrokenProcessPool:
                log.warning("Game %s: a search process died; starting them again (try %d of 2)", game_id, attempt + 1)
                self._discard(pool)
        raise SearchFailed(f"game {game_id}: the search processes died twice")

    def _discard(self, pool: ProcessPoolExecutor) -> None:
        """Forget a broken pool (the next search starts a new one)."""
        if self._pool is pool:
            self._pool = None
        pool.shutdown(wait=False, cancel_futures=True)

    async def search(self, record: GameRecord, seat: int) -> Action:
        """The hard AI's decision for ``seat`` in the game as ``record`` has it; the normal AI's if it cannot
        search (its processes keep dying): an AI turn always happens."""
        try:
            return await self.decide(record.kind, record.state, seat, game_id=record.id)
        except SearchFailed as exc:
            log.warning("Game %s: %s; the normal AI decides for seat %d", record.id, exc, seat)
        spec = GAMES[record.kind]
        return spec.player.choose(spec.game, record.state, seat, spec.game.rng(record.state))

    def close(self) -> None:
        """Stop the worker processes (a search under way is abandoned: its game's AI turn is tried again
        by the process that runs the game next)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
