"""Shared fixtures: the real bot from ``create_bot()`` running in SimCord, with seated members; the store
and the table service without Discord.

SimCord's pytest plugin provides ``simcord_env`` around the ``simcord_bot`` defined here.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import simcord

from cogs.app import TableBot, create_bot
from cogs.offline.driver import SimTable
from data.store import Store
from tables.compose import Tables
from tests.discord_rules import (
    discord_rules,  # noqa: F401  (fixture: Discord's rules SimCord lacks)
    follow_ups_as_posts,
)
from tests.postgres import postgres_server, postgres_url, store_target  # noqa: F401  (fixtures: both engines)
from tests.service_support import tables_on


@dataclass
class World:
    env: simcord.Env
    bot: TableBot
    table: SimTable
    database: Path

    async def restart(self, **settings: Any) -> None:
        """Stop the bot and start a fresh one on the same database, as after a crash or deploy (with other
        ``settings`` of :func:`create_bot`, if given)."""
        old = self.bot
        given = {"ai_delay": 0, "seed": "e2e-restarted", "warm_renderers": False, **settings}
        self.bot = create_bot(database=self.database, **given)
        await self.env.restart_bot(self.bot)
        await old.tables.close()  # SimCord detaches the old bot without closing it
        self.table.bot = self.bot


@pytest.fixture(autouse=True, scope="session")
def _follow_ups_are_posts() -> Iterator[None]:
    """An injected fault of a post in a channel fails it also when the bot makes it as a follow-up."""
    with follow_ups_as_posts():
        yield


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return tmp_path / "tables.db"


@pytest.fixture
def simcord_bot(database: Path) -> TableBot:
    return create_bot(database=database, ai_delay=0, seed="e2e", warm_renderers=False)


@pytest.fixture
async def world(simcord_env: simcord.Env, simcord_bot: TableBot, database: Path) -> AsyncIterator[World]:
    await simcord_bot.tree.sync()
    world = World(simcord_env, simcord_bot, SimTable(simcord_env, simcord_bot), database)
    try:
        yield world
    finally:
        # The aiosqlite worker thread would otherwise keep the test process alive.
        await world.bot.tables.close()


@pytest.fixture
async def store(store_target: str) -> AsyncIterator[Store]:  # noqa: F811 (the fixture, by name)
    """The store on each engine (SQLite, and PostgreSQL where its server is installed)."""
    s = await Store.open(store_target)
    yield s
    await s.close()


@pytest.fixture
async def tables(store: Store) -> AsyncIterator[Tables]:
    """The table service on that store, without Discord."""
    t = tables_on(store)
    yield t
    await t.stop()
