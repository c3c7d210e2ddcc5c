"""Lobbies: challenges (named invitees accept) and open tables (anyone joins), and rematch proposals.

Every write checks the version it read, so of two clicks at the same moment one wins and the other reads
the lobby again; a game has at most one open rematch proposal (a unique index decides between two
members proposing it at once).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from data.repository import Repository
from data.rows import JSON, Rows, column


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
    invitees: list[int] = column(JSON)
    accepted: list[int] = column(JSON)
    ai: int
    options: dict[str, Any] = column(JSON)
    expires_at: float
    names: dict[str, str] = column(JSON, default_factory=dict)
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


_LOBBIES = Rows(LobbyRecord)
_CREATED = (
    "kind",
    "mode",
    "status",
    "guild_id",
    "channel_id",
    "host_id",
    "invitees",
    "accepted",
    "ai",
    "options",
    "names",
    "expires_at",
    "clock",
    "rematch_of",
    "ai_level",
)
"""The columns a new lobby is written with (its id, version and message come later)."""
_CREATE = (
    f"INSERT INTO lobbies ({', '.join(_CREATED)}) VALUES ({', '.join('?' * len(_CREATED))}) ON CONFLICT (rematch_of)"
    " WHERE rematch_of IS NOT NULL AND status IN ('open', 'started') DO NOTHING RETURNING id"
)
_CHANGED = ("status", "invitees", "accepted", "names", "game_id", "closed_by")
"""The columns :meth:`LobbiesRepo.update` writes back."""
_UPDATE = (
    f"UPDATE lobbies SET {', '.join(f'{name} = ?' for name in _CHANGED)}, version = version + 1"
    " WHERE id = ? AND version = ?"
)


class LobbiesRepo(Repository):
    """The ``lobbies`` table."""

    __slots__ = ()

    async def create(self, lobby: LobbyRecord) -> int | None:
        """Store a new lobby (its ``id`` and ``version`` are ignored); its id. ``None`` for a rematch proposal
        when the game has an open or started one already (nothing is written then)."""
        async with self._writing() as tx:
            row = await tx.fetchone(_CREATE, _LOBBIES.values(lobby, _CREATED))
            return None if row is None else row["id"]

    async def load(self, lobby_id: int) -> LobbyRecord | None:
        row = await self._q.fetchone("SELECT * FROM lobbies WHERE id = ?", (lobby_id,))
        return None if row is None else _LOBBIES.read(row)

    async def update(self, lobby: LobbyRecord) -> bool:
        """Write back a changed lobby if nobody wrote it since it was read (its version is unchanged), and
        advance ``lobby.version``. False if it changed meanwhile (nothing is written then): read it again,
        check the change still holds and retry. The message id is not written here (see
        :meth:`set_message`)."""
        changed = await self._write(_UPDATE, _LOBBIES.values(lobby, (*_CHANGED, "id", "version")))
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
        return None if row is None else _LOBBIES.read(row)

    async def open(self, *, host_id: int | None = None) -> list[LobbyRecord]:
        """The lobbies still open (of one host), oldest first."""
        sql, args = "SELECT * FROM lobbies WHERE status = 'open'", ()
        if host_id is not None:
            sql, args = sql + " AND host_id = ?", (host_id,)
        return [_LOBBIES.read(r) for r in await self._q.fetchall(sql + " ORDER BY id", args)]

    async def count_open(self, host_id: int) -> int:
        (count,) = await self._q.fetchone(
            "SELECT COUNT(*) FROM lobbies WHERE status = 'open' AND host_id = ?", (host_id,)
        )
        return int(count)
