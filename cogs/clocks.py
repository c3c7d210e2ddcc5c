"""Turn clocks: an absent player never stalls a game.

A table chooses a clock per decision when it is created (``clock`` on ``new`` and ``open``). A member's
decision — their turn, or one they must make out of turn (an answer, a secret card) — is due
``clock`` seconds after it began (``state["since"]`` says when: the time of that action in the log).
At half time the member is reminded (a mention in the thread, and a DM with ``/games notify on``); when
the time is up the bot's AI makes the decision for the seat from what that seat may see, and the thread
says so. Two time-outs in a row mark the player **away**: the AI plays for them until they use the game
again (any button or command).

Decisions the rules let lapse by themselves (an unanswered offer, :meth:`Game.lapse`) are timed the same
way, with or without a clock.

Nothing is kept in memory that a restart could lose: deadlines are derived from the action log,
reminders are recorded as deliveries, and a time-out is an action committed like any other, so it
can neither be lost nor applied twice.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord

from cogs.messages import mention, pings, shown, title
from data.store import GameRecord
from games.core import Event
from tables.service import GameError

if TYPE_CHECKING:
    from cogs.host import Host

log = logging.getLogger("tables.clocks")

CLOCKS: dict[str, tuple[str, int]] = {
    "off": ("Off", 0),
    "2m": ("2 minutes", 120),
    "10m": ("10 minutes", 600),
    "1h": ("1 hour", 3600),
    "24h": ("24 hours", 86400),
}
"""The ``clock`` choices of ``new`` and ``open``: value -> (name, seconds per decision)."""
DEFAULT_CLOCK = "1h"
"""Long enough never to hurry a player who is there, short enough that an absent one costs the table an
hour, not the game."""


def now_ts() -> float:
    """Wall-clock seconds. Discord's clock helper, so that simulated time in tests applies too."""
    return discord.utils.utcnow().timestamp()


def clock_seconds(value: str) -> int:
    return CLOCKS[value][1]


def clock_name(seconds: int) -> str:
    return next((name for name, s in CLOCKS.values() if s == seconds), f"{seconds} s")


@dataclass(frozen=True, slots=True, order=True)
class Due:
    """The next thing a clock does: at ``when``, remind (``half``) or time out the decision of ``seat``
    that began at step ``since``."""

    when: float
    kind: str
    seat: int
    since: int


class Clocks:
    """Runs the turn clocks of every game in this process (one waiting task per game with a clock)."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.bot = host.bot
        self._tasks: dict[int, asyncio.Task[None]] = {}

    def arm(self, record: GameRecord) -> None:
        """(Re)start a game's clock after its position changed."""
        task = self._tasks.pop(record.id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        lapses = self.host.tables.spec(record).game.lapse(record.state) if record.status == "active" else None
        if record.status == "active" and (record.clock or lapses):
            self._tasks[record.id] = asyncio.create_task(self._run(record.id), name=f"clock-{record.id}")

    def kick(self, game_id: int) -> None:
        """Start a game's clock unless it runs already (after a start, or when this process takes the game
        over); a game without a clock or a lapse stops at once."""
        if game_id not in self._tasks:
            self._tasks[game_id] = asyncio.create_task(self._run(game_id), name=f"clock-{game_id}")

    def tasks(self) -> list[asyncio.Task[None]]:
        """The clocks running now (one task per game)."""
        return list(self._tasks.values())

    def disarm(self, game_id: int) -> None:
        """Stop a game's clock (another process runs the game now)."""
        task = self._tasks.pop(game_id, None)
        if task is not None:
            task.cancel()

    async def deadlines(self, record: GameRecord) -> dict[int, float]:
        """When each member's pending decision is due, by engine seat (empty without a clock)."""
        if record.status != "active" or not record.clock:
            return {}
        spec = self.host.tables.spec(record)
        game, state = spec.game, record.state
        out = {}
        for seat in game.to_act(state):
            if not record.seats[game.controller(state, seat)].is_ai:
                out[seat] = await self._began(record, seat) + record.clock
        return out

    async def _began(self, record: GameRecord, seat: int) -> float:
        """When ``seat``'s current decision began: the time of the action that opened it (the last one, in
        a game played in turn: known without asking the store)."""
        since = record.state.get("since") or [0] * record.state["seats"]
        if since[seat] == 0:
            return record.created_at
        if since[seat] == record.version and record.updated_at is not None:
            return record.updated_at
        began = await self.bot.store.action_time(record.id, since[seat])
        return began if began is not None else record.created_at

    async def next_due(self, record: GameRecord) -> Due | None:
        store = self.bot.store
        since = record.state.get("since") or [0] * record.state["seats"]
        due = []
        for seat, deadline in (await self.deadlines(record)).items():
            due.append(Due(deadline, "timeout", seat, since[seat]))
            half = deadline - record.clock / 2
            # Before half time no reminder can have gone out: only later does the store need asking.
            if half > now_ts() or await store.delivery(record.id, seat, "half") != str(since[seat]):
                due.append(Due(half, "half", seat, since[seat]))
        lapse = self.host.tables.spec(record).game.lapse(record.state) if record.status == "active" else None
        if lapse is not None:
            when = await self._began(record, lapse.seat) + lapse.after
            due.append(Due(when, "lapse", lapse.seat, since[lapse.seat]))
        return min(due, default=None)

    async def _run(self, game_id: int) -> None:
        try:
            while True:
                record = await self.host.tables.get(game_id)
                if not self.host.tables.runs(record, now_ts()):
                    return  # another process runs this game and its clock
                due = await self.next_due(record)
                if due is None:
                    return
                wait = due.when - now_ts()
                if wait > 0:
                    await asyncio.sleep(wait)
                    continue  # look again: the game may have moved on while we slept
                if due.kind == "half":
                    await self._remind(record, due)
                elif due.kind == "lapse":
                    await self._lapse(record, due)
                else:
                    await self._time_out(record, due)
        except asyncio.CancelledError:
            raise
        except GameError as exc:
            log.info("Game %s: its clock stopped: %s", game_id, exc)  # the game is gone, or moved elsewhere
        except Exception:
            log.exception("Game %s: its clock failed; it restarts with the next action or restart", game_id)
        finally:
            if self._tasks.get(game_id) is asyncio.current_task():
                del self._tasks[game_id]

    async def _remind(self, record: GameRecord, due: Due) -> None:
        """Half the time is gone: mention the member in the thread (and DM them if they asked)."""
        store = self.bot.store
        await store.set_delivery(record.id, due.seat, "half", str(due.since))  # first: once, even on a crash
        spec = self.host.tables.spec(record)
        player = record.seats[spec.game.controller(record.state, due.seat)]
        assert player.user_id is not None
        deadline = int(due.when + record.clock / 2)
        text = (
            f"⏳ {mention(player.user_id)}, half your time for this decision is gone: "
            f"the AI decides for you <t:{deadline}:R> unless you do."
        )
        try:
            await self.host.place(record).send(text, allowed_mentions=pings([player.user_id]))
            if await store.notify_enabled(player.user_id):
                await self.host.mail.dm(record, player, content=f"⏳ {title(spec, record)}: {text}")
        except discord.HTTPException as exc:
            log.info("Game %s: the half-time reminder failed: %s", record.id, exc)

    async def _time_out(self, record: GameRecord, due: Due) -> None:
        """The time is up: the AI decides for the seat, and the thread says so."""
        tables = self.host.tables
        applied = await tables.time_out(record.id, due.seat, version=due.since, now=now_ts())
        if applied is None:
            return
        spec = tables.spec(applied.record)
        player = applied.record.seats[spec.game.controller(applied.before.state, due.seat)]
        name = shown(player.name)
        note = f"⏰ {name}'s time ran out: the AI decided for them."
        if player.away:
            note += f" {name} is away now: the AI plays for them until they use the game again."
        events = [Event(note), *applied.events]
        self.host.follow_up(spec, await self.host.publish(applied.record, events, before=applied.before))

    async def _lapse(self, record: GameRecord, due: Due) -> None:
        """The rules let this decision lapse: apply the lapse and show what it did."""
        applied = await self.host.tables.lapse(record.id, version=due.since, now=now_ts())
        if applied is not None:
            spec = self.host.tables.spec(applied.record)
            self.host.follow_up(spec, await self.host.publish(applied.record, applied.events, before=applied.before))
