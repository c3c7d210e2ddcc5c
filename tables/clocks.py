"""Turn clocks: an absent player never stalls a game.

A table chooses a clock per decision when it is created (``clock`` on ``new`` and ``open``). A member's
decision — their turn, or one they must make out of turn (an answer, a secret card) — is due ``clock``
seconds after it began (``state["since"]`` says when: the time of that action in the log). At half time
the member is reminded (a mention in the thread, and a DM with ``/games notify on``); when the time is up
the AI makes the decision for the seat from what that seat may see, and the thread says so. Two time-outs
in a row mark the player **away**: the AI plays for them until they use the game again.

Decisions the rules let lapse by themselves (an unanswered offer, :meth:`Game.lapse`) are timed the same
way, with or without a clock.

Deadlines are pure functions of the stored game and its log (:func:`deadlines`, :func:`next_due`); a
reminder is recorded with the message it sends, and a time-out is an action committed like any other, so
nothing is lost or done twice across a restart. One :class:`Clocks` scheduler per process waits for the
next thing due in any game it runs.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

from data.store import GameRecord, Unit
from games.registry import GAMES
from tables.authority import GameError
from tables.pacer import Pacer

if TYPE_CHECKING:
    from tables.service import Tables

log = logging.getLogger("tables.clocks")


@dataclass(frozen=True, slots=True, order=True)
class Due:
    """The next thing a clock does: at ``when``, remind (``half``), time out (``timeout``) or let lapse
    (``lapse``) the decision of ``seat`` that began at step ``since``."""

    when: float
    kind: str
    seat: int
    since: int


def _since(record: GameRecord) -> list[int]:
    return record.state.get("since") or [0] * record.state["seats"]


async def began(db: Unit, record: GameRecord, seat: int) -> float:
    """When ``seat``'s current decision began for its player: the time of the action that opened it (the last
    one, in a game played in turn: known without asking the store), or when its member took the place over,
    if later (a newcomer's time starts when they sit down)."""
    step = _since(record)[seat]
    seated = record.seats[GAMES[record.kind].game.controller(record.state, seat)].seated_at or 0.0
    if step == 0:
        at: float | None = record.created_at
    elif step == record.version and record.updated_at is not None:
        at = record.updated_at
    else:
        at = await db.games.action_time(record.id, step)
    return max(at if at is not None else record.created_at, seated)


async def deadlines(db: Unit, record: GameRecord) -> dict[int, float]:
    """When each member's pending decision is due, by engine seat (empty without a clock)."""
    if record.status != "active" or not record.clock:
        return {}
    game, state = GAMES[record.kind].game, record.state
    out = {}
    for seat in game.to_act(state):
        if not record.seats[game.controller(state, seat)].is_ai:
            out[seat] = await began(db, record, seat) + record.clock
    return out


async def next_due(db: Unit, record: GameRecord, now: float) -> Due | None:
    """The next reminder, time-out or lapse of an active game, if any."""
    if record.status != "active":
        return None
    since = _since(record)
    due = []
    for seat, deadline in (await deadlines(db, record)).items():
        due.append(Due(deadline, "timeout", seat, since[seat]))
        half = deadline - record.clock / 2
        # Before half time no reminder can have gone out: only later does the store need asking.
        if half > now or await db.outbox.marker(record.id, seat, "half") != str(since[seat]):
            due.append(Due(half, "half", seat, since[seat]))
    lapse = GAMES[record.kind].game.lapse(record.state)
    if lapse is not None:
        due.append(Due(await began(db, record, lapse.seat) + lapse.after, "lapse", lapse.seat, since[lapse.seat]))
    return min(due, default=None)


class Clocks:
    """The one scheduler of every clock in this process: the next thing due per game it runs, looked at
    again when the game's position changes, and handed to the service when its time comes."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
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
        tables = self.tables
        while self._changed:
            game_id = self._changed.pop()
            try:
                record = await tables.get(game_id)
            except GameError:
                self._due.pop(game_id, None)
                continue
            due = await next_due(tables.store, record, tables.now()) if tables.runs(record) else None
            if due is None:
                self._due.pop(game_id, None)
            else:
                self._due[game_id] = due
        now = tables.now()
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
                await self.tables.remind(game_id, due.seat, since=due.since)
            elif due.kind == "lapse":
                await self.tables.lapse(game_id, version=due.since)
            else:
                await self.tables.time_out(game_id, due.seat, version=due.since)
        except Exception:
            log.exception("Game %s: its clock could not act (%s)", game_id, due.kind)
