"""``python bot.py play GAME``: a local table in the browser, offline and without a token.

The real bot runs in SimCord (an in-memory Discord) and SimCord's Preview serves what it does on a loopback
page that looks like Discord's: the channel, the slash-command composer, buttons, selects, images and
ephemeral answers, with a "Viewing as" picker for each member a person plays (a hot-seat table). The first
member challenges the others and the AI seats with ``/GAME new`` (the others click **Accept** on the page),
and from then on everything is played on the page as in Discord.

The page follows the game: every delivery the bot makes is published at once (the Preview shows only
what has been published), and once a game begins the page presents its thread. SimCord's Preview presents
one channel per session and has no public way to present another: :func:`present` moves it, the one
place that reaches into the Preview's pages (SimCord is pinned below its next major version).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import discord
import simcord
from simcord.backend.errors import SetupError

from cogs.app import TableBot, create_bot
from cogs.offline.driver import SimTable, speaking
from games.registry import GAMES

log = logging.getLogger("tables.play")

FOLLOW_EVERY = 0.25
"""Seconds between two looks at where the newest game is played."""
REFRESH_RETRY = 0.2
"""Seconds before publishing again when the page's own action was being answered (it publishes then too)."""
_PAGE_LOCALES = frozenset(locale.value for locale in discord.Locale)
"""The locales the Preview's page knows (Discord's)."""


def present(preview: Any, place: simcord.builders.ChannelHandle) -> None:
    """Make the Preview present ``place`` (a channel or a thread) on every open page, following its newest
    messages. SimCord's Preview is made for one channel: its pages keep the channel they present, which is
    moved here with them."""
    preview.channel = place
    for page in preview._pages.values():
        page.channel_id = place.id
        page.target_id = None
        page.window_end_id = None  # the window follows the newest messages
        page.generation += 1


class LocalTable:
    """A running ``play`` session: the bot, its SimCord world, the members a person plays, and the Preview."""

    def __init__(self, env: simcord.Env, bot: TableBot, table: SimTable, preview: Any) -> None:
        self.env = env
        self.bot = bot
        self.table = table
        self.preview = preview
        self.changed = asyncio.Event()
        self._newest = 0
        """The newest game the page has followed."""

    def delivered(self) -> None:
        """The bot delivered something (called by its delivery loop): publish it, unless a person's action on the
        page is being answered (the page publishes what it did once the bot has settled)."""
        if self.preview._active_action is None:
            self.changed.set()

    async def follow(self) -> None:
        """Publish what the bot delivered by itself (the AI's turns, the clocks, a command ``play`` ran), and
        present the place of the newest game once it has one (a person's Accept or command may have begun it)."""
        while True:
            # asyncio.timeout, not wait_for: on Python 3.11 wait_for can swallow a cancellation that comes as
            # its wait ends, and the table would never close.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(FOLLOW_EVERY):
                    await self.changed.wait()
            await self.publish(force=self.changed.is_set())

    async def publish(self, *, force: bool = True) -> None:
        """Settle the bot's work and publish it (``force``), and move to the newest game's place if it moved."""
        while True:
            if self.preview._active_action is not None:
                # A person's action on the page is being answered: it publishes when done; look again then.
                await asyncio.sleep(REFRESH_RETRY)
                continue
            try:
                self.changed.clear()
                place = await self.place()
                if place is not None:
                    present(self.preview, place)
                if force or place is not None:
                    await self.preview.refresh()
                return
            except SetupError:  # an action began meanwhile
                await asyncio.sleep(REFRESH_RETRY)

    async def place(self) -> simcord.builders.ChannelHandle | None:
        """Where the newest game of the session is played (its thread once opened), if the page presents
        another place."""
        newest = max(await self.bot.tables.cache.game_ids(), default=0)
        self._newest = max(newest, self._newest)
        if not self._newest:
            return None
        place = self.table.place(await self.bot.tables.cache.get(self._newest))
        return place if place.id != self.preview.channel.id else None


async def run_play(
    kind: str,
    players: int,
    humans: Sequence[str],
    options: dict[str, Any],
    *,
    locale: str = "en-US",
    port: int | None = None,
    database: Path | None = None,
    start: bool = True,
    seed: str | None = None,
    ready: Callable[[str], None] = print,
) -> int:
    """Serve a local table of ``kind`` until the page's session ends or the task is cancelled (Ctrl-C).

    ``humans`` are the members a person plays (in seat order; the first one challenges the others), the
    other ``players - len(humans)`` seats are the AI. ``ready`` gets the page's address once the table is set. With
    ``database`` the games are kept in that file (a table survives a restart of ``play``: its board is
    posted again); otherwise in a temporary one. ``start=False`` opens the tavern only (start a game with
    the composer). ``seed`` makes the games' shuffles repeatable. The arguments come checked by ``bot.py``."""
    with tempfile.TemporaryDirectory() as tmp:
        bot = create_bot(database=database or Path(tmp) / "play.db", ai_delay=0, seed=seed, warm_renderers=False)
        try:
            async with simcord.run(bot) as env:
                if options.get("ai_level") == "hard":
                    env.settle_timeout = 600  # a page's click waits for the AI's searches that follow it
                await bot.tree.sync()
                table = SimTable(env, bot, humans, locale=locale)
                members = [table.members[name] for name in humans]
                with speaking({member.id: locale for member in members}):
                    await _serve(env, bot, table, kind, players, options, locale, port, start, ready)
        finally:
            try:
                await bot.close()
            finally:
                if hasattr(bot, "tables"):
                    await bot.tables.close()
    return 0


async def _serve(
    env: simcord.Env,
    bot: TableBot,
    table: SimTable,
    kind: str,
    players: int,
    options: dict[str, Any],
    locale: str,
    port: int | None,
    start: bool,
    ready: Callable[[str], None],
) -> None:
    members = list(table.members.values())
    page_locale = locale if locale in _PAGE_LOCALES else "en-US"
    async with env.preview(table.channel, viewers=members, layout="channel", locale=page_locale, port=port) as preview:
        session = LocalTable(env, bot, table, preview)
        bot.tables.delivery.listeners.append(session.delivered)
        follower = asyncio.get_running_loop().create_task(session.follow())
        try:
            resumed = await _resume(table, session)
            if start and not resumed:
                names = list(table.members)
                await table.members[names[0]].slash(table.channel, f"{kind} new", **_challenge(table, players, options))
            await session.publish()
            ready(preview.url)  # the page opens on the table as it is
            await preview.wait_closed()
        finally:
            follower.cancel()
            await asyncio.gather(follower, return_exceptions=True)


def _challenge(table: SimTable, players: int, options: dict[str, Any]) -> dict[str, Any]:
    """The options of the first member's ``/GAME new``: the other members, the AI seats, the game's options."""
    others = list(table.members.values())[1:]
    args: dict[str, Any] = {f"player{i + 2}": member for i, member in enumerate(others)}
    if players > len(table.members):
        args["ai"] = players - len(table.members)
    return {**args, **options}


async def _resume(table: SimTable, session: LocalTable) -> bool:
    """After a restart on a kept database: post each active game's board again (its thread was SimCord's,
    which is gone with it: the game moves to the channel and says so). Whether there was one."""
    tables = session.bot.tables
    resumed = False
    for game_id in await tables.cache.game_ids():
        record = await tables.cache.get(game_id)
        seated = [m for m in table.members.values() if record.seat_of(m.id) is not None]
        if seated:
            await seated[0].slash(table.channel, f"{record.kind} board", game=game_id)
            resumed = True
    return resumed


def check_humans(kind: str, players: int, humans: Sequence[str]) -> str | None:
    """What is wrong with ``--humans`` for ``players`` seats of ``kind``, in one line; ``None`` if nothing."""
    spec = GAMES[kind]
    if any(not name.strip() for name in humans):
        return "names must not be empty"
    if len({name.strip().lower() for name in humans}) != len(humans):
        return "each name once"
    if len(humans) > players:
        return f"{len(humans)} members for {players} seats: add --players {len(humans)}"
    if len(humans) > spec.members:
        return f"/{kind} new seats at most {spec.members} members"
    return None
