"""The bot: it opens the table service, loads the game cogs, and delivers the service's outbox through the
courier. ``bot.py`` builds it; cogs reach the service as ``bot.tables``."""

from __future__ import annotations

import asyncio
import gc
import logging
import os
from dataclasses import replace
from functools import partial
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

from cogs import handlers
from cogs.base import add_game_cogs
from cogs.components import DYNAMIC_ITEMS
from cogs.courier import Courier, remember
from games.i18n import ENGLISH, language, localize, translated
from tables.compose import Tables
from tables.config import Config

log = logging.getLogger("tables")


def now_ts() -> float:
    """Wall-clock seconds. Discord's clock helper, so that simulated time in tests applies too."""
    return discord.utils.utcnow().timestamp()


# The bot never joins voice: silence the warnings every discord.Client gives about the optional voice
# libraries (set on import, before SimCord's own probe client in the demo and the bench is built).
discord.VoiceClient.warn_nacl = False
discord.VoiceClient.warn_dave = False


PERMISSIONS = discord.Permissions(
    view_channel=True,  # the channel a game is started in: fetched, written to
    send_messages=True,  # challenges, open tables and boards in that channel
    create_public_threads=True,  # a thread per game, started on its challenge message
    read_message_history=True,  # Discord asks for it to start a thread on a message already posted
    send_messages_in_threads=True,  # the boards and events in a game's thread
    manage_threads=True,  # a finished game's thread archived and locked (locking needs it)
    embed_links=True,  # /<game> rules answers with an embed
    attach_files=True,  # every board and hand is an image; a finished game's log a file
    manage_events=True,  # a tournament's start as a Discord scheduled event (members get Discord's reminder)
)
"""What the bot does in a server's channels, and nothing more: no reactions, pins, webhooks or other
servers' emojis, no moderation but of its own threads. Without the thread permissions it plays in the
channel itself."""


def invite_url(client_id: int) -> str:
    """The link that adds the application ``client_id`` to a server as this bot: its slash commands and a
    bot user with :data:`PERMISSIONS`."""
    return discord.utils.oauth_url(client_id, permissions=PERMISSIONS, scopes=("bot", "applications.commands"))


class CatalogTranslator(app_commands.Translator):
    """Discord's command descriptions, option descriptions and choice names in each member's language, from
    the message catalogs (:mod:`games.i18n`). Command and option names stay as they are in every language:
    they are what the README, the help texts and typed moves refer to. Nothing is cut here: a text over
    Discord's limits is a catalog's to shorten (a test reads every one in every language)."""

    NAMES = (
        app_commands.TranslationContextLocation.command_name,
        app_commands.TranslationContextLocation.group_name,
        app_commands.TranslationContextLocation.parameter_name,
    )

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContext
    ) -> str | None:
        lang = language(locale)
        if lang == ENGLISH or context.location in self.NAMES:
            return None
        marked = string.extras.get("marked")  # a description with values (cogs.base.valued)
        text = localize(marked, lang) if marked is not None else translated(string.message, lang)
        return text or None


class TableBot(commands.Bot):
    """The bot: opens the table service and loads the game cogs in ``setup_hook`` (before connecting), and
    starts the service's work (delivery, clocks, AI turns, lobbies' expiry) once connected."""

    tables: Tables
    handlers = handlers
    """What interactions do (persistent components reach it through the client)."""
    warmed: asyncio.Task[int] | None = None
    """The background warm-up started at set-up (``None`` when switched off): :meth:`warm_up`."""

    def __init__(self, config: Config, **shards: Any) -> None:
        intents = discord.Intents.default()  # no privileged intents: everything is slash commands
        # Nor messages: the bot reads none (it answers interactions and edits its boards by id), and each
        # message event, in every channel it sees (its own posts and edits among them), is parsed for nothing.
        intents.guild_messages = intents.dm_messages = False
        super().__init__(
            **shards,
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),  # each message names whom it notifies
            # Everything arrives as interactions and boards are edited by id: the cache of recent
            # messages would only hold ~1000 boards' worth of objects for the garbage collector to walk.
            max_messages=None,
        )
        self._config = config
        self._started = False

    @property
    def config(self) -> Config:
        """The settings the bot and its table service run with."""
        return self._config

    async def setup_hook(self) -> None:
        from rendering import cache, pool

        config = self.config
        cache.configure(config.render_cache_mb * 2**20)
        self.tables = await Tables.open(config, now=now_ts)
        # The hard AI's searches wait while a board is drawn, as while an action is applied (tables.thinking).
        pool.configure(
            config.render_threads,
            during_boards=self.tables.thinker.answering,
            processes=config.render_processes,
        )
        self.tables.delivery.sender = Courier(self, self.tables)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        await self.tree.set_translator(CatalogTranslator())
        self.tree.on_error = self.on_app_command_error
        await add_game_cogs(self)  # every registered game's command group, built from its registry entry
        await self.load_extension("cogs.games")
        await self.load_extension("cogs.tournaments")
        if config.warm_renderers:
            self.warmed = self.loop.create_task(self.warm_up())
        self.loop.create_task(self._start())

    async def _start(self) -> None:
        """Once connected: deliver what is owed (at once after a restart) and resume the games' work; with
        other processes on the database, sweep the games' leases every ``lease / 3`` seconds."""
        await self.wait_until_ready()
        if not self._started:
            self._started = True
            await self.tables.start()
            if self.tables.store.shared:
                self._sweeps.change_interval(seconds=self.tables.config.lease / 3)
                self._sweeps.start()

    @tasks.loop(seconds=10)
    async def _sweeps(self) -> None:
        try:
            await self.tables.runner.sweep()
        except Exception:
            log.exception("The lease sweep failed; it runs again in %.0f s", self.tables.config.lease / 3)

    async def warm_up(self) -> int:
        """Fill the renderers' caches (returns the images drawn), in a thread or in each render process,
        then move everything allocated so far (modules, discord.py, fonts, cached images) out of the
        garbage collector's way.

        A full collection walks every tracked object: ~60k after start-up, about 40 ms on a small
        machine, paid by whichever player's action it lands in. Frozen, those live on and are simply
        no longer walked (``gc.freeze``, as the CPython docs suggest for long-running servers).
        """
        from games.registry import GAMES
        from rendering import pool
        from rendering.warmup import warm_renderers

        drawn = await pool.default_pool().warm(partial(warm_renderers, tuple(GAMES.values())))
        gc.collect()
        gc.freeze()
        await asyncio.to_thread(pool.trim_memory)  # the warm-up's dropped images: ~50 MB back to the system
        log.info("Warmed up: %d images drawn, %d start-up objects frozen", drawn, gc.get_freeze_count())
        log.info("%s", pool.describe())
        return drawn

    async def close(self) -> None:
        self._sweeps.cancel()
        if hasattr(self, "tables"):
            await self.tables.stop()  # first: other processes take this one's games at once
        await super().close()
        if hasattr(self, "tables"):
            await self.tables.close()

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Every interaction tells the member's language and their server's: remembered for the messages
        the bot sends them later (a DM when their turn comes, a board in their server)."""
        try:
            await self.tables.languages.seen(handlers.caller_of(interaction))
        except Exception:
            log.exception("Could not remember the languages of interaction %s", interaction.id)

    async def on_app_command_completion(
        self, interaction: discord.Interaction, command: app_commands.Command[Any, ..., Any]
    ) -> None:
        """A command answered: its token may post the game's next board in that channel (:func:`remember`)."""
        remember(interaction)

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A thread was deleted: a game played in it goes on in its channel at once, and says so there."""
        try:
            await self.tables.places.lose_thread(payload.thread_id, board=True)
        except Exception:
            log.exception("Could not move the games of deleted thread %s", payload.thread_id)

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot left a server (removed, or the server deleted): its games end, and its data is erased after
        the grace period unless the bot is back by then."""
        try:
            await self.tables.privacy.left(guild.id)
        except Exception:
            log.exception("Could not record leaving server %s", guild.id)

    async def on_guild_join(self, guild: discord.Guild) -> None:
        await self._back(guild, joined=True)

    async def on_guild_available(self, guild: discord.Guild) -> None:
        await self._back(guild, joined=False)

    async def _back(self, guild: discord.Guild, *, joined: bool) -> None:
        """The bot is in a server (added again, or every server at a start): an erasure waiting is called off."""
        try:
            await self.tables.privacy.back(guild.id, joined=joined)
        except Exception:
            log.exception("Could not call off the erasure of server %s", guild.id)

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: discord.app_commands.AppCommandError
    ) -> None:
        """The one handler for unexpected errors: log with the traceback, apologise briefly."""
        await handlers.apologise(interaction, error)


def create_bot(
    *,
    database: str | os.PathLike[str] | None = None,
    ai_delay: float | None = None,
    invite_ttl: float | None = None,
    seed: str | None = None,
    warm_renderers: bool | None = None,
    shard_count: int | None = None,
    shard_ids: tuple[int, ...] | None = None,
    process: str | None = None,
    lease: float | None = None,
    config: Config | None = None,
) -> TableBot:
    """Build a fully configured bot without connecting it (tests and the demo run it in SimCord).

    Settings come from ``config`` (default: the environment), overridden by the keyword arguments.
    """
    config = config or Config.from_env()
    given = {
        "database": None if database is None else str(database),
        "ai_delay": ai_delay,
        "invite_ttl": invite_ttl,
        "seed": seed,
        "warm_renderers": warm_renderers,
        "shard_count": shard_count,
        "shard_ids": shard_ids,
        "process": process,
        "lease": lease,
    }
    config = replace(config, **{k: v for k, v in given.items() if v is not None}).checked()
    if config.shard_count is None:
        return TableBot(config)
    ids = list(config.shard_ids) if config.shard_ids is not None else None
    return ShardedTableBot(config, shard_count=config.shard_count, shard_ids=ids)


class ShardedTableBot(TableBot, commands.AutoShardedBot):
    """The bot on several Discord shards: one gateway connection per shard of this process
    (``shard_ids``) out of the bot's ``shard_count``, as Discord requires of bots in many servers."""
