"""Lobbies: challenges (named invitees accept) and open tables (anyone joins), and rematch proposals.

Every write checks the version it read, so of two clicks at the same moment one wins and the other reads
the lobby again; a game has at most one open rematch proposal (a unique index decides between two
members proposing it at once).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from data.engine import Repository, Row, dumps, loads


@dataclass(slots=True)
class LobbyRecord:
    id: int
    kind: str
    mode: str
    """``challenge`` (named invitees must accept) or ``open`` (anyone may join)."""
    status: str
    """``open``, ``started``, ``declined``, ``cancelled`` or ``expired``."""
    guild_id: int | None
    channel_id: int
    message_id: int | None
    host_id: int
    invitees: list[int]
    accepted: list[int]
    ai: int
    options: dict[str, Any]
    expires_at: float
    names: dict[str, str] = field(default_factory=dict)
    game_id: int | None = None
    version: int = 0
    """Counts the writes; :meth:`LobbiesRepo.update` writes only over the version it read."""
    closed_by: int | None = None
    """Who closed the lobby (the member who declined, or the host who cancelled), if anyone did."""
    clock: int = 0
    """The turn clock of the game it starts (seconds per decision, 0 = off)."""
    rematch_of: int | None = None
    """The finished game this lobby plays again."""
    ai_level: str = "normal"
    """How the game's AI seats play (``normal`` or ``hard``)."""


def _lobby(row: Row) -> LobbyRecord:
    return LobbyRecord(
        id=row["id"],
        kind=row["kind"],
        mode=row["mode"],
        status=row["status"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        message_id=row["message_id"],
        host_id=row["host_id"],
        invitees=loads(row["invitees"]),
        accepted=loads(row["accepted"]),
        ai=row["ai"],
        options=loads(row["options"]),
        expires_at=row["expires_at"],
        names=loads(row["names"]),
        game_id=row["game_id"],
        version=row["version"],
        closed_by=row["closed_by"],
        clock=row["clock"],
        rematch_of=row["rematch_of"],
        ai_level=row["ai_level"],
    )


_COLUMNS = (
    "kind, mode, status, guild_id, channel_id, host_id, invitees, accepted, ai, options, names, expires_at, clock,"
    " rematch_of, ai_level"
)


class LobbiesRepo(Repository):
    """The ``lobbies`` table."""

    __slots__ = ()

    @staticmethod
    def _values(lobby: LobbyRecord) -> tuple[Any, ...]:
        return (
            lobby.kind,
            lobby.mode,
            lobby.status,
            lobby.guild_id,
            lobby.channel_id,
            lobby.host_id,
            dumps(lobby.invitees),
            dumps(lobby.accepted),
            lobby.ai,
            dumps(lobby.options),
            dumps(lobby.names),
            lobby.expires_at,
            lobby.clock,
            lobby.rematch_of,
            lobby.ai_level,
        )

    async def create(self, lobby: LobbyRecord) -> int | None:
        """Store a new lobby (its ``id`` and ``version`` are ignored); its id. ``None`` for a rematch proposal
        when the game has an open or started one already (nothing is written then)."""
        marks = ", ".join("?" * len(_COLUMNS.split(",")))
        async with self._writing() as tx:
            row = await tx.fetchone(
                f"INSERT INTO lobbies ({_COLUMNS}) VALUES ({marks}) ON CONFLICT (rematch_of)"
                " WHERE rematch_of IS NOT NULL AND status IN ('open', 'started') DO NOTHING RETURNING id",
                self._values(lobby),
            )
            return None if row is None else row["id"]

    async def load(self, lobby_id: int) -> LobbyRecord | None:
        row = await self._q.fetchone("SELECT * FROM lobbies WHERE id = ?", (lobby_id,))
        return None if row is None else _lobby(row)

    async def update(self, lobby: LobbyRecord) -> bool:
        """Write back a changed lobby if nobody wrote it since it was read (its version is unchanged), and
        advance ``lobby.version``. False if it changed meanwhile (nothing is written then): read it again,
        check the change still holds and retry. The message id is not written here (see
        :meth:`set_message`)."""
        changed = await self._write(
            "UPDATE lobbies SET status = ?, invitees = ?, accepted = ?, names = ?, game_id = ?, closed_by = ?,"
            " version = version + 1 WHERE id = ? AND version = ?",
            (
                lobby.status,
                dumps(lobby.invitees),
                dumps(lobby.accepted),
                dumps(lobby.names),
                lobby.game_id,
                lobby.closed_by,
                lobby.id,
                lobby.version,
            ),
        )
        if changed != 1:
            return False
        lobby.version += 1
        return True

    async def set_message(self, lobby_id: int, message_id: int) -> None:
        """Remember the message that shows a lobby. Only this writes the message id, so a change read
        before the message was posted cannot erase it."""
        await self._write("UPDATE lobbies SET message_id = ? WHERE id = ?", (message_id, lobby_id))

    async def rematch_of(self, game_id: int) -> LobbyRecord | None:
        """The newest lobby that plays ``game_id`` again (open or not)."""
        row = await self._q.fetchone("SELECT * FROM lobbies WHERE rematch_of = ? ORDER BY id DESC LIMIT 1", (game_id,))
        return None if row is None else _lobby(row)

    async def open(self, *, host_id: int | None = None) -> list[LobbyRecord]:
        """The lobbies still open (of one host), oldest first."""
        sql, args = "SELECT * FROM lobbies WHERE status = 'open'", ()
        if host_id is not None:
            sql, args = sql + " AND host_id = ?", (host_id,)
        return [_lobby(r) for r in await self._q.fetchall(sql + " ORDER BY id", args)]

    async def count_open(self, host_id: int) -> int:
        (count,) = await self._q.fetchone(
            "SELECT COUNT(*) FROM lobbies WHERE status = 'open' AND host_id = ?", (host_id,)
        )
        return int(count)
