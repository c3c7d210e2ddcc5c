"""Who sits where and who watches: resignations, time-outs and absence, seats handed to a substitute, and
the members following a game. Every change to a seat counts as a write to its game (its revision)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from data.repository import Repository


class SeatsRepo(Repository):
    """The ``seats`` table's changes after a game began, and the ``followers`` table."""

    __slots__ = ()

    async def _change(self, game_id: int, sql: str, args: Sequence[Any]) -> int:
        """Change a seat (rows changed), counting it as a write to its game."""
        async with self._writing() as tx:
            changed = await tx.execute(sql, args)
            if changed:
                await tx.execute("UPDATE games SET revision = revision + 1 WHERE id = ?", (game_id,))
            return changed

    async def resign(self, game_id: int, seat: int, *, user_id: int) -> bool:
        """Mark a member's place resigned, if that member still holds it and had not resigned."""
        return bool(
            await self._change(
                game_id,
                "UPDATE seats SET resigned = 1 WHERE game_id = ? AND seat = ? AND user_id = ? AND resigned = 0",
                (game_id, seat, user_id),
            )
        )

    async def set_presence(self, game_id: int, seat: int, *, timeouts: int, away: bool) -> None:
        """Record a player's time-outs in a row and whether they are away."""
        await self._change(
            game_id,
            "UPDATE seats SET timeouts = ?, away = ? WHERE game_id = ? AND seat = ?",
            (timeouts, int(away), game_id, seat),
        )

    async def substitute(
        self, game_id: int, seat: int, *, holder: int | None, user_id: int, name: str, now: float
    ) -> bool:
        """Hand a place from ``holder`` (``None``: the AI) to another member, who plays it from ``now`` on (not
        resigned, not away; the clock of a decision of theirs starts then). False, writing nothing, if the
        place changed hands since the offer was made or the member holds a place in the game already: of two
        acceptances at once, one wins."""
        return bool(
            await self._change(
                game_id,
                "UPDATE seats SET user_id = ?, name = ?, resigned = 0, timeouts = 0, away = 0, acted_at = NULL,"
                " seated_at = ? WHERE game_id = ? AND seat = ? AND COALESCE(user_id, 0) = ?"
                " AND NOT EXISTS (SELECT 1 FROM seats o WHERE o.game_id = ? AND o.user_id = ?)",
                (user_id, name, now, game_id, seat, holder or 0, game_id, user_id),
            )
        )

    async def follow(self, game_id: int, user_id: int, on: bool) -> bool:
        """Start or stop following a game; False if nothing changed."""
        if on:
            sql = "INSERT INTO followers (game_id, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING"
        else:
            sql = "DELETE FROM followers WHERE game_id = ? AND user_id = ?"
        return await self._write(sql, (game_id, user_id)) == 1

    async def followers(self, game_id: int) -> list[int]:
        return [
            r["user_id"]
            for r in await self._q.fetchall(
                "SELECT user_id FROM followers WHERE game_id = ? ORDER BY user_id", (game_id,)
            )
        ]
