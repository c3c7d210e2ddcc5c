"""The games' latest records, kept in memory for the games used most recently, and where each is played.

Several processes (shards) on one PostgreSQL: a cached game is checked against the database's revision
before it is trusted, and each active game has one *runner*, the process holding its lease, which alone
runs its AI turns and clocks (:meth:`GameCache.runs`; the store has the last word).
"""

from __future__ import annotations

from collections.abc import Callable

from cachetools import LRUCache

from data.store import GameRecord, SeatRecord, Store
from games.i18n import T
from games.registry import GAMES, GameSpec
from tables.authority import Caller, GameError, reach
from tables.config import Config

__all__ = ["GameCache", "GameRecord", "SeatRecord"]


class GameCache:
    """The latest record of the :attr:`Config.cached_games` games used most recently (so memory does not grow
    with every game ever played), read from the store when missing or written since by another process."""

    def __init__(self, store: Store, config: Config, now: Callable[[], float]) -> None:
        self.store = store
        self.config = config
        self.now = now
        self._records: LRUCache[int, GameRecord] = LRUCache(maxsize=config.cached_games)

    @staticmethod
    def spec(record: GameRecord) -> GameSpec:
        return GAMES[record.kind]

    async def get(self, game_id: int) -> GameRecord:
        """The game's latest record: from memory, once checked against the database's revision when other
        processes share the store."""
        record = self._records.get(game_id)
        if record is not None and self.store.shared:
            revision = await self.store.games.revision(game_id)
            if revision != record.revision or self._records.get(game_id) is not record:
                record = None  # written since, by another process or by a task of this one: read it again
        if record is None:
            record = await self.store.games.load(game_id)
            if record is None:
                raise GameError(T("There is no game #{number}.", number=game_id))
            self.remember(record)
        return record

    def cached(self, game_id: int) -> GameRecord | None:
        """The record in memory, if any (not checked against the store)."""
        return self._records.get(game_id)

    async def reach(self, caller: Caller, game_id: int) -> GameRecord:
        """Game ``game_id``, if the caller may reach it (:func:`tables.authority.reach`)."""
        try:
            record = await self.get(game_id)
        except GameError:
            raise GameError(T("There is no game #{number} here.", number=game_id)) from None
        reach(caller, record)
        return record

    def remember(self, record: GameRecord) -> None:
        """Keep a record as the most recently used (the least recently used beyond the limit are forgotten)."""
        self._records[record.id] = record

    def forget(self, game_id: int) -> None:
        self._records.pop(game_id, None)

    def runs(self, record: GameRecord) -> bool:
        """Whether this process may run the game's AI turns and clocks: it holds the lease, or nobody does.
        (The store has the last word: a commit under a lease that was lost is refused.)"""
        return record.runner in (None, self.config.runner) or record.runner_until < self.now()

    async def claim(self, game_id: int) -> bool:
        """Take the game's lease for this process if nobody else holds it (see :meth:`runs`)."""
        now = self.now()
        claimed = await self.store.games.claim(game_id, self.config.runner, until=now + self.config.lease, now=now)
        self.forget(game_id)
        return claimed

    async def set_place(
        self,
        game_id: int,
        *,
        thread_id: int | None = None,
        message_id: int | None = None,
        board_turn: int | None = None,
    ) -> None:
        """Record the game's thread or its latest board message (and that board's number), in the store and the
        cached record (one write of its own: on SQLite one trip)."""
        revision = await self.store.games.set_place(
            game_id, thread_id=thread_id, message_id=message_id, board_turn=board_turn
        )
        record = self._records.get(game_id)
        if record is not None and revision is not None:
            if thread_id is not None:
                record.thread_id = thread_id
            if message_id is not None:
                record.message_id = message_id
            if board_turn is not None:
                record.board_turn = board_turn
            # Exact: the store returned the revision this write made (any write by another process in
            # between makes it differ from what this copy saw, and the next get reads the game again).
            record.revision = revision if revision == record.revision + 1 else -1

    async def game_ids(self, *, status: str = "active") -> list[int]:
        """Every game of a status, oldest first."""
        return await self.store.games.ids(status=status)

    async def games_here(self, place_id: int, user_id: int | None = None) -> list[GameRecord]:
        """The active games played in a thread or channel (newest first); with ``user_id``, only those that
        user plays in."""
        records = [await self.get(g) for g in await self.store.games.in_place(place_id)]
        if user_id is not None:
            records = [r for r in records if r.seat_of(user_id) is not None]
        return records

    async def games_of(self, caller: Caller) -> list[GameRecord]:
        """The caller's active games within their reach (all of them in DMs, this server's in a server)."""
        records = [await self.get(g) for g in await self.store.games.ids(user_id=caller.user_id)]
        return [r for r in records if caller.guild_id is None or r.guild_id == caller.guild_id]
