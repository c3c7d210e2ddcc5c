"""The AI's turns: AI seats (and resigned or away members) move by themselves in the games this process
runs, a little after the position is shown (``TABLES_AI_DELAY``) so that people can follow. A run of AI
decisions is committed together, with one board, so a table of AI seats does not flood the thread."""

from __future__ import annotations

import asyncio
import logging

from tables.authority import GameError
from tables.cache import GameCache
from tables.config import Config
from tables.play import Play
from tables.seating import ai_seats_to_act

log = logging.getLogger("tables.ai")

AI_BATCH = 12
"""AI decisions applied before a board is posted."""
RETRIES = (1.0, 5.0, 30.0)
"""Pauses before the AI tries its turn again after an unexpected failure (then it waits for the next
action, the lease sweep or a restart), so that one failure never leaves a table of AI seats waiting."""


class AiDriver:
    """One task per game while its AI seats have something to decide."""

    def __init__(self, cache: GameCache, play: Play, config: Config) -> None:
        self.cache = cache
        self.play = play
        self.config = config
        self._tasks: dict[int, asyncio.Task[None]] = {}

    def kick(self, game_id: int) -> None:
        """Let the game's AI seats move, unless they are moving already."""
        task = self._tasks.get(game_id)
        if task is None or task.done():
            self._tasks[game_id] = asyncio.get_running_loop().create_task(self._run(game_id), name=f"ai-{game_id}")

    async def stop(self) -> None:
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _run(self, game_id: int) -> None:
        try:
            for pause in (*RETRIES, None):
                try:
                    await self._turns(game_id)
                    return
                except Exception:
                    then = "trying again shortly" if pause is not None else "it starts again with the next action"
                    log.exception("Game %s: the AI's turn failed; %s", game_id, then)
                if pause is not None:
                    await asyncio.sleep(pause)
        finally:
            if self._tasks.get(game_id) is asyncio.current_task():
                del self._tasks[game_id]

    async def _turns(self, game_id: int) -> None:
        """Play the game's AI decisions while there are any."""
        while True:
            record = await self.cache.get(game_id)
            if not ai_seats_to_act(self.cache.spec(record), record) or not self.cache.runs(record):
                return
            if self.config.ai_delay > 0:
                await asyncio.sleep(self.config.ai_delay)
            try:
                if await self.play.ai_turn(game_id, AI_BATCH) is None:
                    return
            except GameError as exc:
                # A member acted at the same moment (simultaneous choices): look again.
                log.info("Game %s: AI turn not applied: %s", game_id, exc)
