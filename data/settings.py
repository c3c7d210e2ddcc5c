"""Member and server settings: whether a member wants turn reminders by direct message, a member's Discord
language, a server's language for its games and whether its members may all organize tournaments."""

from __future__ import annotations

from data.repository import Repository


class SettingsRepo(Repository):
    """The ``users`` and ``guilds`` tables."""

    __slots__ = ()

    async def set_notify(self, user_id: int, on: bool) -> None:
        await self._write(
            "INSERT INTO users (user_id, notify) VALUES (?, ?)"
            " ON CONFLICT(user_id) DO UPDATE SET notify = excluded.notify",
            (user_id, int(on)),
        )

    async def notify_enabled(self, user_id: int) -> bool:
        row = await self._q.fetchone("SELECT notify FROM users WHERE user_id = ?", (user_id,))
        return bool(row and row["notify"])

    async def set_locale(self, user_id: int, locale: str) -> None:
        await self._write(
            "INSERT INTO users (user_id, locale) VALUES (?, ?)"
            " ON CONFLICT(user_id) DO UPDATE SET locale = excluded.locale",
            (user_id, locale),
        )

    async def locales(self, user_ids: list[int]) -> dict[int, str]:
        """The Discord language last seen of each member that has one."""
        if not user_ids:
            return {}
        marks = ", ".join("?" * len(user_ids))
        rows = await self._q.fetchall(
            f"SELECT user_id, locale FROM users WHERE locale IS NOT NULL AND user_id IN ({marks})", tuple(user_ids)
        )
        return {row["user_id"]: row["locale"] for row in rows}

    async def set_guild_language(
        self, guild_id: int, *, language: str | None = None, preferred: str | None = None
    ) -> None:
        """Set the server's chosen ``language`` (``""``: none, follow the server's own) or its ``preferred``
        locale as Discord says it; a value not given stays."""
        await self._write(
            "INSERT INTO guilds (guild_id, language, preferred) VALUES (?, ?, ?) ON CONFLICT(guild_id) DO UPDATE"
            " SET language = COALESCE(excluded.language, guilds.language),"
            " preferred = COALESCE(excluded.preferred, guilds.preferred)",
            (guild_id, language, preferred),
        )

    async def guild_language(self, guild_id: int) -> tuple[str | None, str | None]:
        """The server's chosen language (``None`` or ``""``: none) and its preferred locale, as stored."""
        row = await self._q.fetchone("SELECT language, preferred FROM guilds WHERE guild_id = ?", (guild_id,))
        return (row["language"], row["preferred"]) if row else (None, None)

    async def set_tournaments_open(self, guild_id: int, on: bool) -> None:
        """Whether every member of the server may organize tournaments (else those with Manage Events or
        Manage Server)."""
        await self._write(
            "INSERT INTO guilds (guild_id, tournaments_open) VALUES (?, ?)"
            " ON CONFLICT(guild_id) DO UPDATE SET tournaments_open = excluded.tournaments_open",
            (guild_id, int(on)),
        )

    async def tournaments_open(self, guild_id: int) -> bool:
        row = await self._q.fetchone("SELECT tournaments_open FROM guilds WHERE guild_id = ?", (guild_id,))
        return bool(row and row["tournaments_open"])
