"""Starting a game: its seats, its seed and state, and the messages it owes (its thread, the opening, the
first board, the private views), written in the transaction of the lobby change that starts it."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from data.store import GameRecord, SeatRecord, Unit
from games.core import IllegalAction
from games.registry import GAMES
from tables import menus, notices, outbox, words
from tables.authority import GameError
from tables.cache import GameCache
from tables.config import Config
from tables.outbox import Message
from tables.play import Changed

AI_NAMES = ("Salty Sal", "One-Eyed Olga", "Barnacle Bill", "Captain Cheddar", "Rusty Rita", "Peg-Leg Pip", "Bosun Bea")


def ai_name(seat: int) -> str:
    return f"🤖 {AI_NAMES[seat % len(AI_NAMES)]}"


@dataclass(frozen=True, slots=True)
class Started:
    """A game that was created, and the outbox entry the caller's interaction may deliver as its answer."""

    record: GameRecord
    answer: int | None = None


@dataclass(frozen=True, slots=True)
class Table:
    """Who sits at a new game and how it is played."""

    kind: str
    players: Sequence[tuple[int, str]]
    """The members, in seat order: (user id, name)."""
    ai: int
    options: dict[str, Any]
    clock: int = 0
    """Seconds per decision (0: no clock)."""
    ai_level: str = "normal"


class Starter:
    """Creates games (for the lobbies: challenges, open tables, rematches) and sets them going."""

    def __init__(
        self, cache: GameCache, config: Config, now: Callable[[], float], changed: Changed, warm: Callable[[], None]
    ) -> None:
        self.cache = cache
        self.config = config
        self.now = now
        self.changed = changed
        self.warm = warm
        """Start the hard AI's search processes (a game that will search has begun)."""
        self._seeded = 0

    def _next_seed(self) -> str:
        if self.config.seed is None:
            return secrets.token_hex(16)
        self._seeded += 1
        return self.config.seed if self._seeded == 1 else f"{self.config.seed}-{self._seeded}"

    async def create(
        self,
        db: Unit,
        table: Table,
        *,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        lobby: int | None = None,
        announce: Message | None = None,
        answered: bool = True,
    ) -> Started:
        """A new game in transaction ``db``, and the messages it owes: its thread (on the lobby's message, or on
        ``announce``, posted first: as the caller's answer if ``answered``), the opening that notifies every
        member, the first board and the private views."""
        spec = GAMES[table.kind]
        seats = [SeatRecord(i, name, user_id) for i, (user_id, name) in enumerate(table.players)]
        seats += [SeatRecord(len(seats) + i, ai_name(len(seats) + i)) for i in range(table.ai)]
        seed = self._next_seed()
        try:
            state = spec.game.new_game(len(seats), table.options, seed)
        except IllegalAction as exc:
            raise GameError(str(exc)) from exc
        now = self.now()
        game_id = await db.games.create(
            kind=table.kind,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            seats=seats,
            seed=seed,
            options=spec.game.options_of(state),
            state=state,
            now=now,
            clock=table.clock,
            ai_level=table.ai_level,
            runner=self.config.runner,
            lease_until=now + self.config.lease,
        )
        record = await db.games.load(game_id)
        assert record is not None
        answer = None
        if announce is not None:
            post = outbox.to_channel(outbox.game_lane(game_id), channel_id, guild_id, announce, game_id=game_id)
            (answer,) = await db.outbox.add([outbox.answering(post, now=now) if answered else post], now=now)
        name = menus.clip(f"{spec.title} #{game_id}: {words.listing(record.names)}", 100)
        (thread,) = await db.outbox.add(
            [outbox.open_thread(game_id, channel_id, name, lobby=lobby, entry=answer)], now=now
        )
        humans = [s.user_id for s in seats if s.user_id is not None]
        owed = [
            outbox.to_place(game_id, Message(words.opening(spec, record), notifies=humans)),
            *await notices.board_again(db, spec, record, [], [], now=now),  # nobody follows a game yet
            # Private messages link to the game's thread: they go once it is open.
            *(replace(o, after=thread) for o in await notices.private(db, spec, record, {})),
        ]
        await db.outbox.add(owed, now=now)
        return Started(record, answer)

    def started(self, record: GameRecord) -> None:
        """A game was created (its transaction committed): remember it and set it going."""
        self.cache.remember(record)
        if record.ai_level == "hard":
            self.warm()  # its first search should not wait for the search processes to start
        self.changed(record, ())
