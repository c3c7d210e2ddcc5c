"""The store: the bot's database, as repositories by concern over one engine interface (SQLite, the
default, or PostgreSQL: :mod:`data.engine`).

* :mod:`data.games` — games, seats and the action log, leases;
* :mod:`data.lobbies` — challenges, open tables, rematch proposals;
* :mod:`data.seats` — seats changing after the start (resignations, presence, substitutes) and followers;
* :mod:`data.ratings` — ratings and what each game did to them;
* :mod:`data.outbox` — the messages the bot owes, and what each player was last told;
* :mod:`data.settings` — member and server settings;
* :mod:`data.privacy` — a member's data read and erased, and servers the bot left;
* :mod:`data.tournaments` — tournaments, their entrants, rounds and tables.

``store.games`` and the others write each change in a transaction of its own; ``async with
store.transaction() as tx`` gives the same repositories writing in one transaction, so that a change and
the messages it owes commit together or not at all. Nothing here knows a game's rules: the table service
(:mod:`tables`) decides, this module stores.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from data.connect import open_database
from data.engine import Database, Transaction
from data.games import GameRecord, GamesRepo, SeatRecord
from data.lobbies import LobbiesRepo, LobbyRecord
from data.migrations import MIGRATIONS
from data.outbox import MarkerCache, OutboxRepo
from data.privacy import PrivacyRepo
from data.ratings import RatingsRepo
from data.seats import SeatsRepo
from data.settings import SettingsRepo
from data.tournaments import TournamentRecord, TournamentsRepo

__all__ = ["GameRecord", "LobbyRecord", "SeatRecord", "Store", "TournamentRecord", "Unit"]


class Unit:
    """Every repository, bound to one database or one transaction."""

    __slots__ = ("_committed", "games", "lobbies", "outbox", "privacy", "ratings", "seats", "settings", "tournaments")

    def __init__(
        self,
        queries: Database | Transaction,
        owner: str | None = None,
        markers: MarkerCache | None = None,
        pending: dict | None = None,
    ) -> None:
        self.games = GamesRepo(queries)
        self.lobbies = LobbiesRepo(queries)
        self.seats = SeatsRepo(queries)
        self.ratings = RatingsRepo(queries)
        self.outbox = OutboxRepo(queries, owner, markers, pending)
        self.settings = SettingsRepo(queries)
        self.privacy = PrivacyRepo(queries)
        self.tournaments = TournamentsRepo(queries)
        self._committed: list[Callable[[], None]] = []

    def after_commit(self, then: Callable[[], None]) -> None:
        """Call ``then`` once this unit's transaction has committed (never if it rolls back): what must wait
        for the commit, such as setting a game made in it going (:meth:`tables.starting.Starter.started`)."""
        self._committed.append(then)


class Store(Unit):
    """The bot's database. Use :meth:`open`; every method is a coroutine."""

    __slots__ = ("_db", "_markers")

    def __init__(self, db: Database, owner: str | None = None) -> None:
        # Markers are cached where no other process writes them (SQLite).
        self._markers = None if db.shared else MarkerCache()
        super().__init__(db, owner, self._markers)
        self._db = db

    @property
    def shared(self) -> bool:
        """Whether other processes may write to this store too (PostgreSQL): a cached game must then be
        checked against the database's revision before it is trusted."""
        return self._db.shared

    @classmethod
    async def open(cls, target: str | os.PathLike[str], *, owner: str | None = None) -> Store:
        """Open the database ``TABLES_DATABASE`` names — a ``postgresql://`` URL, or an SQLite file (created
        with its folders if missing) or ``:memory:`` — and run the migrations it has not run yet. ``owner``:
        this process's name, which delivers the messages it writes into the outbox."""
        db = await open_database(target)
        await db.migrate(MIGRATIONS)
        return cls(db, owner)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Unit]:
        """Every repository writing in one transaction: committed when the block ends, rolled back if it
        raises."""
        pending: dict = {}
        async with self._db.transaction() as tx:
            unit = Unit(tx, self.outbox.owner, self._markers, pending)
            yield unit
        if self._markers is not None:  # committed
            self._markers.commit(pending)
        for then in unit._committed:
            then()

    async def close(self) -> None:
        await self._db.close()

    async def schema_version(self) -> int:
        return await self._db.schema_version()
