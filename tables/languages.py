"""Who reads which language: a member's private messages follow their Discord language as last seen, a game's
public messages its server's (the one chosen with ``/games language``, else the server's preferred locale)."""

from __future__ import annotations

from collections.abc import Callable

from cachetools import LRUCache

from data.store import Store
from games.i18n import ENGLISH, LANGUAGES, T, language
from tables.authority import Caller, GameError, may_set_language

LANGUAGE_KEPT = 60.0
"""Seconds a process keeps a server's language before reading it again, where processes share the store."""
LOCALES_KEPT = 10_000
"""Members whose language a process keeps in memory (the others are read from the store when needed)."""


class Languages:
    """The languages the bot writes in, as the store and the latest interactions say."""

    def __init__(self, store: Store, now: Callable[[], float]) -> None:
        self.store = store
        self.now = now
        self._locales: LRUCache[int, str] = LRUCache(maxsize=LOCALES_KEPT)
        """Members' languages as last seen (a member's own interaction updates it)."""
        self._preferred: dict[int, str] = {}
        self._servers: dict[int, tuple[str | None, str | None, float]] = {}
        """Servers' chosen languages and preferred locales as stored, with when they were read."""

    async def seen(self, caller: Caller) -> None:
        """Remember the languages an interaction tells: the member's Discord language (their private messages
        sent later follow it) and their server's preferred locale. Written only when it changed."""
        lang = language(caller.locale)
        if caller.locale is not None and self._locales.get(caller.user_id) != lang:
            self._locales[caller.user_id] = lang
            await self.store.settings.set_locale(caller.user_id, lang)
        if caller.guild_id is not None and caller.guild_locale is not None:
            preferred = language(caller.guild_locale)
            if self._preferred.get(caller.guild_id) != preferred:
                self._preferred[caller.guild_id] = preferred  # in force at once, before it is written
                await self.store.settings.set_guild_language(caller.guild_id, preferred=preferred)

    def forget(self, user_id: int) -> None:
        """Forget a member's language as last seen (they asked to be forgotten; the store's copy is erased)."""
        self._locales.pop(user_id, None)

    async def member(self, user_id: int) -> str:
        """The language of a member's private messages: their Discord language as last seen (English until the
        bot has seen one)."""
        kept = self._locales.get(user_id)
        if kept is None:
            kept = (await self.store.settings.locales([user_id])).get(user_id, ENGLISH)
            self._locales[user_id] = kept
        return kept

    async def server(self, guild_id: int | None) -> str:
        """The language of a server's games in public: the one chosen with ``/games language``, else the
        server's preferred locale, else English. Kept for :data:`LANGUAGE_KEPT` seconds where processes share
        the store (one of them may change it)."""
        if guild_id is None:
            return ENGLISH
        kept = self._servers.get(guild_id)
        if kept is None or (self.store.shared and self.now() - kept[2] >= LANGUAGE_KEPT):
            chosen, preferred = await self.store.settings.guild_language(guild_id)
            kept = self._servers[guild_id] = (chosen or None, preferred, self.now())
        return language(kept[0] or self._preferred.get(guild_id) or kept[1] or ENGLISH)

    async def choose(self, caller: Caller, code: str | None) -> str:
        """Set the language of the caller's server's games (``None``: follow the server's preferred locale),
        which a member with Manage Server may do; the language now in force."""
        may_set_language(caller)
        if code is not None and code not in LANGUAGES:
            raise GameError(T("I do not speak {language}.", language=code))
        await self.store.settings.set_guild_language(caller.guild_id, language=code or "")
        self._servers.pop(caller.guild_id, None)
        return await self.server(caller.guild_id)
