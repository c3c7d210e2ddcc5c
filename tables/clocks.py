"""Turn clocks: an absent player never stalls a game.

A table chooses a clock per decision when it is created (``clock`` on ``new`` and ``open``). A member's
decision — their turn, or one they must make out of turn (an answer, a secret card) — is due ``clock``
seconds after it began (``state["since"]`` says when: the time of that action in the log). At half time
the member is reminded (a mention in the thread, and a DM with ``/games notify on``); when the time is up
the AI makes the decision for the seat from what that seat may see, and the thread says so. Two time-outs
in a row mark the player **away**: the AI plays for them until they use the game again.

Decisions the rules let lapse by themselves (an unanswered offer, :meth:`Game.lapse`) are timed the same
way, with or without a clock.

Deadlines are pure functions of the stored game and its log (:mod:`tables.deadlines`); a
reminder is recorded with the message it sends, and a time-out is an action committed like any other, so
nothing is lost or done twice across a restart. One :class:`Clocks` scheduler per process waits for the
next thing due in any game it runs.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from data.store import Store
from tables.authority import GameError
from tables.deadlines import Due, next_due
from tables.pacer import Pacer

if TYPE_CHECKING:  # the clocks act through play, which reads their deadlines (no import back)
    from tables.cache import GameCache
    from tables.play import Play

log = logging.getLogger("tables.clocks")


class Clocks:
    """The one scheduler of every clock in this process: the next thing due per game it runs, looked at
    again when the game's position changes, and handed to the service when its time comes."""

    def __init__(self, store: Store, cache: GameCache, play: Play, now: Callable[[], float]) -> None:
        self.store = store
        self.cache = cache
        self.play = play
        self.now = now
        self._due: dict[int, Due] = {}
        self._changed: set[int] = set()
        self._pacer = Pacer(self._look, "clocks")
        self._started = False

    def arm(self, game_id: int) -> None:
        """A game's position changed (or this process began to run it): look at its clock again."""
        self._changed.add(game_id)
        if self._started:
            self._pacer.wake()

    def disarm(self, game_id: int) -> None:
        """Stop a game's clock (another process runs the game now, or it is over)."""
        self._changed.discard(game_id)
        self._due.pop(game_id, None)

    def start(self) -> None:
        self._started = True
        self._pacer.wake()

    async def stop(self) -> None:
        await self._pacer.stop()

    @property
    def watched(self) -> int:
        """Games with something due."""
        return len(self._due)

    async def _look(self) -> float | None:
        """Look again at the games whose position changed, act on what is due; the seconds until the next."""
        while self._changed:
            game_id = self._changed.pop()
            try:
                record = await self.cache.get(game_id)
            except GameError:
                self._due.pop(game_id, None)
                continue
            due = await next_due(self.store, record, self.now()) if self.cache.runs(record) else None
            if due is None:
                self._due.pop(game_id, None)
            else:
                self._due[game_id] = due
        now = self.now()
        for game_id, due in sorted(self._due.items(), key=lambda item: item[1]):
            if due.when > now:
                break
            del self._due[game_id]
            await self._fire(game_id, due)
            self._changed.add(game_id)
        if self._changed:
            return 0.0
        if not self._due:
            return None
        return max(0.0, min(d.when for d in self._due.values()) - now)

    async def _fire(self, game_id: int, due: Due) -> None:
        try:
            if due.kind == "half":
                await self.play.remind(game_id, due.seat, since=due.since)
            elif due.kind == "lapse":
                await self.play.lapse(game_id, version=due.since)
            else:
                await self.play.time_out(game_id, due.seat, version=due.since)
        except Exception:
            log.exception("Game %s: its clock could not act (%s)", game_id, due.kind)
