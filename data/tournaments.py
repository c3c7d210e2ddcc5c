"""Tournaments: their sign-ups (entrants), the rounds drawn and each table of a round with the game it became.

Every change of a tournament begins by taking its row (:meth:`TournamentsRepo.take`: a conditional
``UPDATE`` of its version, which on PostgreSQL holds the row until the transaction ends, and on SQLite
happens under the one write lock). So two changes of one tournament — two clicks on **Start**, a **Join**
and the start, the last two games of a round ending in two processes — run one after the other, the second
seeing what the first committed; and a round's primary key means it is drawn once in any case.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from data.repository import Repository
from data.rows import FLAG, JSON, MAYBE_JSON, Rows, column


@dataclass(slots=True)
class TournamentRecord:
    id: int
    guild_id: int
    channel_id: int
    host_id: int
    kind: str
    format: str
    """``swiss`` or ``round-robin``."""
    rounds: int
    table_size: int
    options: dict[str, Any] = column(JSON)
    clock: int
    starts_at: float
    status: str
    """``open`` (signing up), ``running``, ``finished`` or ``cancelled``."""
    seed: str
    created_at: float
    round: int = 0
    """The round being played (0 before the start)."""
    message_id: int | None = None
    event_id: int | None = None
    """The Discord scheduled event of its start, once made."""
    version: int = 0
    ended_at: float | None = None


@dataclass(slots=True)
class EntrantRecord:
    tournament_id: int
    user_id: int
    name: str
    joined_at: float
    dropped: bool = column(FLAG, default=False)
    """Left, or away a whole game: not drawn again."""


@dataclass(slots=True)
class TableRecord:
    """A table of a round: its players in seat order, the game it became (``None``: a bye), and the points it
    gave each player (user id as text → a fraction as text) once its game ended."""

    tournament_id: int
    round: int
    table_no: int
    players: list[int] = column(JSON)
    game_id: int | None = None
    points: dict[str, str] | None = column(MAYBE_JSON, default=None)


_TOURNAMENTS = Rows(TournamentRecord)
_ENTRANTS = Rows(EntrantRecord)
_TABLES = Rows(TableRecord)
_CREATED = (
    "guild_id",
    "channel_id",
    "host_id",
    "kind",
    "format",
    "rounds",
    "table_size",
    "options",
    "clock",
    "starts_at",
    "status",
    "seed",
    "created_at",
)
_TABLE_COLUMNS = ("tournament_id", "round", "table_no", "players", "game_id", "points")


class TournamentsRepo(Repository):
    """The ``tournaments``, ``entrants``, ``tournament_rounds`` and ``tournament_tables`` tables."""

    __slots__ = ()

    async def create(self, tournament: TournamentRecord) -> int:
        """Store a new tournament (its id, round, message and version are ignored); its id."""
        sql = f"INSERT INTO tournaments ({', '.join(_CREATED)}) VALUES ({', '.join('?' * len(_CREATED))}) RETURNING id"
        row = await self._write_returning(sql, _TOURNAMENTS.values(tournament, _CREATED))
        assert row is not None
        return int(row["id"])

    async def load(self, tournament_id: int) -> TournamentRecord | None:
        row = await self._q.fetchone("SELECT * FROM tournaments WHERE id = ?", (tournament_id,))
        return None if row is None else _TOURNAMENTS.read(row)

    async def take(self, tournament_id: int, *statuses: str) -> TournamentRecord | None:
        """Take the tournament's row for this transaction if its status is one of ``statuses`` (see the
        module), and read it; ``None`` if it is not (nothing is written then)."""
        marks = ", ".join("?" * len(statuses))
        changed = await self._write(
            f"UPDATE tournaments SET version = version + 1 WHERE id = ? AND status IN ({marks})",
            (tournament_id, *statuses),
        )
        return await self.load(tournament_id) if changed == 1 else None

    async def set_status(
        self, tournament_id: int, status: str, *, was: str, rounds: int | None = None, ended_at: float | None = None
    ) -> bool:
        """Change the status (and the rounds it plays, and when it ended) of a tournament whose status is
        ``was``."""
        return (
            await self._write(
                "UPDATE tournaments SET status = ?, rounds = COALESCE(?, rounds), ended_at = COALESCE(?, ended_at)"
                " WHERE id = ? AND status = ?",
                (status, rounds, ended_at, tournament_id, was),
            )
            == 1
        )

    async def advance(self, tournament_id: int, *, drawn: int, now: float) -> bool:
        """Record round ``drawn`` as drawn and make it the tournament's current round; ``False`` (nothing
        written) if it was drawn already."""
        row = await self._write_returning(
            "INSERT INTO tournament_rounds (tournament_id, round, drawn_at) VALUES (?, ?, ?)"
            " ON CONFLICT (tournament_id, round) DO NOTHING RETURNING round",
            (tournament_id, drawn, now),
        )
        if row is None:
            return False
        await self._write("UPDATE tournaments SET round = ? WHERE id = ?", (drawn, tournament_id))
        return True

    async def set_message(self, tournament_id: int, message_id: int) -> None:
        await self._write("UPDATE tournaments SET message_id = ? WHERE id = ?", (message_id, tournament_id))

    async def set_event(self, tournament_id: int, event_id: int | None) -> None:
        await self._write("UPDATE tournaments SET event_id = ? WHERE id = ?", (event_id, tournament_id))

    async def listed(self, *statuses: str, guild_id: int | None = None) -> list[TournamentRecord]:
        """The tournaments in ``statuses`` (of one server), oldest first."""
        sql = f"SELECT * FROM tournaments WHERE status IN ({', '.join('?' * len(statuses))})"
        args: tuple[Any, ...] = statuses
        if guild_id is not None:
            sql, args = sql + " AND guild_id = ?", (*args, guild_id)
        return [_TOURNAMENTS.read(r) for r in await self._q.fetchall(sql + " ORDER BY id", args)]

    # ------------------------------------------------------------------ entrants

    async def entrants(self, tournament_id: int) -> list[EntrantRecord]:
        """Everyone who signed up, in the order they joined (those who left too)."""
        rows = await self._q.fetchall(
            "SELECT * FROM entrants WHERE tournament_id = ? ORDER BY joined_at, user_id", (tournament_id,)
        )
        return [_ENTRANTS.read(r) for r in rows]

    async def join(self, tournament_id: int, user_id: int, name: str, *, now: float) -> None:
        """Sign a member up (again, if they had left)."""
        await self._write(
            "INSERT INTO entrants (tournament_id, user_id, name, joined_at, dropped) VALUES (?, ?, ?, ?, 0)"
            " ON CONFLICT (tournament_id, user_id) DO UPDATE SET dropped = 0, name = excluded.name,"
            " joined_at = excluded.joined_at",
            (tournament_id, user_id, name, now),
        )

    async def drop(self, tournament_id: int, user_ids: list[int]) -> int:
        """Mark members as gone (not drawn again); how many were still in."""
        count = 0
        for user_id in user_ids:
            count += await self._write(
                "UPDATE entrants SET dropped = 1 WHERE tournament_id = ? AND user_id = ? AND dropped = 0",
                (tournament_id, user_id),
            )
        return count

    async def remove(self, tournament_id: int, user_id: int) -> int:
        """Take a member off the list before the start."""
        return await self._write(
            "DELETE FROM entrants WHERE tournament_id = ? AND user_id = ?", (tournament_id, user_id)
        )

    # ------------------------------------------------------------------ tables

    async def add_tables(self, tables: list[TableRecord]) -> None:
        sql = f"INSERT INTO tournament_tables ({', '.join(_TABLE_COLUMNS)}) VALUES ({', '.join('?' * 6)})"
        for table in tables:
            await self._write(sql, _TABLES.values(table, _TABLE_COLUMNS))

    async def tables(self, tournament_id: int) -> list[TableRecord]:
        """Every table of every round, in order."""
        rows = await self._q.fetchall(
            "SELECT * FROM tournament_tables WHERE tournament_id = ? ORDER BY round, table_no", (tournament_id,)
        )
        return [_TABLES.read(r) for r in rows]

    async def table_of(self, game_id: int) -> TableRecord | None:
        """The tournament table a game was made for, if any."""
        row = await self._q.fetchone("SELECT * FROM tournament_tables WHERE game_id = ?", (game_id,))
        return None if row is None else _TABLES.read(row)

    async def score(self, game_id: int, points: dict[str, str]) -> bool:
        """Record the points a table's game gave; ``False`` if they were recorded already."""
        return (
            await self._write(
                "UPDATE tournament_tables SET points = ? WHERE game_id = ? AND points IS NULL",
                (_TABLES.values(TableRecord(0, 0, 0, [], None, points), ("points",))[0], game_id),
            )
            == 1
        )

    async def unscored(self, tournament_id: int, round_no: int) -> int:
        """Tables of a round whose game has not ended yet."""
        (count,) = await self._q.fetchone(
            "SELECT COUNT(*) FROM tournament_tables WHERE tournament_id = ? AND round = ? AND points IS NULL",
            (tournament_id, round_no),
        )
        return int(count)
