"""Driving the table service without Discord: a settable clock, callers, games made as the lobbies make
them, and what the outbox holds. Shared by the service's tests."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import pytest

from data.store import GameRecord, Store
from games.i18n import localize
from games.registry import GAMES
from tables.authority import Caller, GameError
from tables.compose import Tables, compose
from tables.config import Config
from tables.outbox import Message
from tables.starting import Table

NAMES = ("Anne", "Bart", "Cleo", "Dirk", "Edda", "Finn")
USERS = (101, 102, 103, 104, 105, 106)
GUILD, CHANNEL = 1, 2


class Clock:
    """The service's clock, moved by hand."""

    def __init__(self, t: float = 10.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def tables_on(store: Store, *, seed: str | None = "test", runner: str = "main", **settings: Any) -> Tables:
    """A service on ``store`` whose AI seats wait to be told to move (``ai_turn``) and whose messages
    stay in the outbox (no delivery: nothing sends them)."""
    config = Config(database=":memory:", seed=seed, process=runner, **{"ai_delay": 3600.0, **settings})
    return compose(store, config, now=Clock())


async def idle(tables: Tables) -> None:
    """Wait for the service's looks at its games' AI seats (one task per created or changed game): each
    reads its game, which can bring it back into memory."""
    while running := [task for task in tables.ai._tasks.values() if not task.done()]:
        await asyncio.gather(*running)


def member(i: int, *, guild: int | None = GUILD, channel: int | None = CHANNEL, **kw: Any) -> Caller:
    """Player ``i`` (Anne, Bart…) asking from the game's server."""
    return Caller(USERS[i], NAMES[i], guild, channel, **kw)


async def new_game(
    tables: Tables, n: int = 2, *, ai: int = 0, kind: str = "piratz", options: dict | None = None, **where: Any
) -> GameRecord:
    """A game of ``n`` players, the last ``ai`` of them the AI, created as a lobby creates one."""
    async with tables.store.transaction() as db:
        started = await tables.starter.create(
            db,
            Table(kind, [(USERS[i], NAMES[i]) for i in range(n - ai)], ai, options or {}, where.get("clock", 0)),
            guild_id=where.get("guild", GUILD),
            channel_id=where.get("channel", CHANNEL),
            host_id=USERS[0],
        )
    tables.starter.started(started.record)
    return started.record


def game_of(record: GameRecord):
    return GAMES[record.kind].game


def to_act(record: GameRecord) -> int:
    (seat,) = game_of(record).to_act(record.state)
    return seat


def mover(record: GameRecord) -> Caller:
    """The member who must decide now."""
    game = game_of(record)
    return member(game.controller(record.state, to_act(record)))


def some_legal(record: GameRecord) -> str:
    return game_of(record).legal_actions(record.state, to_act(record))[0].encode()


async def owed(tables: Tables, game_id: int | None = None) -> list[tuple[str, str, Message, dict]]:
    """What the outbox holds undelivered (of one game): ``(lane, kind, message, payload)`` in order, each
    message written out in English (as the delivery loop writes it for an English reader)."""
    rows = await tables.store.outbox.pending(game_id=game_id)
    return [(r.lane, r.kind, Message.from_json(r.payload.get("message", {})).written("en"), r.payload) for r in rows]


@contextmanager
def refused(kind: type[GameError] = GameError, match: str | None = None) -> Iterator[Any]:
    """``pytest.raises(kind, match=match)`` over the refusal as its reader reads it in English (a
    :class:`GameError` holds a marked message)."""
    with pytest.raises(kind) as caught:
        yield caught
    if match is not None:
        said = localize(str(caught.value))
        assert re.search(match, said), f"{match!r} not in {said!r}"


async def deliver_all(tables: Tables) -> None:
    """Mark everything owed as delivered (a test that looks only at what comes next)."""
    for row in await tables.store.outbox.pending():
        await tables.store.outbox.settle(row.id, "done", "1", now=tables.now())


def seat_holder(record: GameRecord, seat: int) -> int | None:
    return record.seats[seat].user_id


def with_seats(record: GameRecord, **changes: Any) -> GameRecord:
    return replace(record, **changes)
