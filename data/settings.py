"""Member settings: whether a member wants turn reminders by direct message."""

from __future__ import annotations

from data.engine import Repository


class SettingsRepo(Repository):
    """The ``users`` table."""

    __slots__ = ()

    async def set_notify(self, user_id: int, on: bool) -> None:
        async with self._writing() as tx:
            await tx.execute(
                "INSERT INTO users (user_id, notify) VALUES (?, ?)"
                " ON CONFLICT(user_id) DO UPDATE SET notify = excluded.notify",
                (user_id, int(on)),
            )

    async def notify_enabled(self, user_id: int) -> bool:
        row = await self._q.fetchone("SELECT notify FROM users WHERE user_id = ?", (user_id,))
        return bool(row and row["notify"])
