"""The bot class and its configuration. ``bot.py`` builds it; cogs reach shared services through it."""

from __future__ import annotations

import asyncio
import gc
import logging
import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from data.engine import is_postgres
from data.store import Store

if TYPE_CHECKING:
    from cogs.host import Host
    from cogs.lobby import Lobbies
    from tables.service import Tables

log = logging.getLogger("tables")

DEFAULT_DATABASE = Path(__file__).resolve().parent.parent / "data" / "tables.db"


def extensions() -> list[str]:
    """Every registered game's cog, then the shared ones."""
    from games.registry import GAMES

    return [*(spec.cog for spec in GAMES.values()), "cogs.games"]


# The bot never joins voice: silence the warnings every discord.Client gives about the optional voice
# libraries (set on import, before SimCord's own probe client in the demo and the bench is built).
discord.VoiceClient.warn_nacl = False
discord.VoiceClient.warn_dave = False


class ConfigError(ValueError):
    """A setting that cannot be used; ``str(exc)`` says which and why, in one line."""


def _float_env(name: str, default: float) -> float:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return float(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a number of seconds, not {raw!r}") from None


def _int_env(name: str, default: int | None, low: int) -> int | None:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        value = low - 1
    if value < low:
        raise ConfigError(f"{name} must be a whole number from {low} up, not {raw!r}")
    return value


def shard_ids(text: str) -> tuple[int, ...]:
    """``0,1`` (or ``0 1``) as shard ids; ``ValueError`` with a one-line reason otherwise."""
    parts = text.replace(",", " ").split()
    if not parts or not all(p.isdigit() for p in parts):
        raise ValueError(f"shard ids are whole numbers separated by commas, such as 0,1 — not {text!r}")
    ids = tuple(int(p) for p in parts)
    if len(set(ids)) != len(ids):
        raise ValueError(f"shard ids must differ, not {text!r}")
    return ids


@dataclass(frozen=True)
class Config:
    """Settings, from the environment (see README, "Configuration")."""

    database: str = str(DEFAULT_DATABASE)
    ai_delay: float = 1.5
    """Seconds an AI seat waits before it moves, so humans can follow the game."""
    invite_ttl: float = 600.0
    """Seconds before an unanswered invitation or an unstarted open table expires."""
    archive_after: float = 86400.0
    """Seconds after a game ends before its thread is archived."""
    max_open_invitations: int = 3
    """Invitations and open tables one user may have waiting at once (anti-spam)."""
    log_level: str = "INFO"
    warm_renderers: bool = True
    """Draw a few boards in the background at start, so the first players don't wait for cold caches,
    then freeze the start-up heap out of garbage collection (see :meth:`TableBot.warm_up`)."""
    seed: str | None = None
    """Fixed seed for reproducible games (demo, tests, benchmarks); ``None``: a fresh random seed per game."""
    shard_count: int | None = None
    """Discord shards of the whole bot (``None``: one connection, no sharding)."""
    shard_ids: tuple[int, ...] | None = None
    """The shards this process connects (``None``: all of them)."""
    process: str | None = None
    """This process's name in the games' leases (``None``: from its shards; see :attr:`runner`)."""
    lease: float = 30.0
    """Seconds a process's hold on a game's AI turns and clocks lasts unless renewed (several processes)."""
    cached_games: int = 1000
    """Games whose latest record stays in memory (least recently used ones are read again when needed)."""
    render_cache_mb: int = 128
    """Megabytes of pre-drawn layers, icons and text the renderers keep (:mod:`rendering.cache`). Boards of
    every game and table size drawn in turn stay fast (p50 11–34 ms measured) from 128 MB; at 64 MB they
    are redrawn from scratch (150–230 ms)."""
    render_threads: int | None = None
    """Boards and hands drawn at once (:mod:`rendering.pool`; ``None``: one per CPU core)."""

    @classmethod
    def from_env(cls) -> Config:
        """The settings in the environment; :class:`ConfigError` names one that cannot be used."""
        ids = os.environ.get("TABLES_SHARD_IDS", "").strip()
        try:
            shards = shard_ids(ids) if ids else None
        except ValueError as exc:
            raise ConfigError(f"TABLES_SHARD_IDS: {exc}") from None
        return cls(
            database=os.environ.get("TABLES_DATABASE") or str(DEFAULT_DATABASE),
            ai_delay=_float_env("TABLES_AI_DELAY", cls.ai_delay),
            invite_ttl=_float_env("TABLES_INVITE_TTL", cls.invite_ttl),
            archive_after=_float_env("TABLES_ARCHIVE_AFTER", cls.archive_after),
            log_level=os.environ.get("TABLES_LOG_LEVEL", cls.log_level).upper(),
            shard_count=_int_env("TABLES_SHARD_COUNT", None, 1),
            shard_ids=shards,
            process=os.environ.get("TABLES_PROCESS", "").strip() or None,
            lease=_float_env("TABLES_LEASE", cls.lease),
            cached_games=_int_env("TABLES_CACHED_GAMES", cls.cached_games, 1) or cls.cached_games,
            render_cache_mb=_int_env("TABLES_RENDER_CACHE_MB", cls.render_cache_mb, 0) or 0,
            render_threads=_int_env("TABLES_RENDER_THREADS", None, 1),
        ).checked()

    def checked(self) -> Config:
        """This configuration, if its settings fit together; otherwise :class:`ConfigError`."""
        if self.shard_ids is not None:
            if self.shard_count is None:
                raise ConfigError("shard ids need the shard count too (--shard-count / TABLES_SHARD_COUNT)")
            wrong = [i for i in self.shard_ids if i >= self.shard_count]
            if wrong:
                raise ConfigError(f"shard {wrong[0]} does not exist: the ids go from 0 to {self.shard_count - 1}")
            if len(self.shard_ids) < self.shard_count and not is_postgres(self.database):
                raise ConfigError(
                    "a process with only some of the shards shares its games with the others: set TABLES_DATABASE "
                    "to a postgresql:// URL (an SQLite file belongs to one process)"
                )
        if self.lease < 3:
            raise ConfigError(f"TABLES_LEASE must be at least 3 seconds, not {self.lease:g}")
        return self

    @property
    def runner(self) -> str:
        """This process's name in the games' leases: ``TABLES_PROCESS``, or its shards (``shards 0,1 of 4``),
        the same after a restart so that it takes its games straight back; ``main`` when unsharded."""
        if self.process:
            return self.process
        if self.shard_ids is None or self.shard_count is None or len(self.shard_ids) == self.shard_count:
            return "main"
        return f"shards {','.join(map(str, self.shard_ids))} of {self.shard_count}"


class TableBot(commands.Bot):
    """The bot: opens the store and loads the game cogs in ``setup_hook`` (before connecting)."""

    store: Store
    tables: Tables
    warmed: asyncio.Task[int] | None = None
    """The background warm-up started at set-up (``None`` when switched off): :meth:`warm_up`."""
    host: Host
    lobbies: Lobbies

    def __init__(self, config: Config, **shards: Any) -> None:
        intents = discord.Intents.default()  # no privileged intents: everything is slash commands
        super().__init__(
            **shards,
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            # Everything arrives as interactions and boards are edited by id: the cache of recent
            # messages would only hold ~1000 boards' worth of objects for the garbage collector to walk.
            max_messages=None,
        )
        self.config = config

    async def setup_hook(self) -> None:
        from cogs.components import DYNAMIC_ITEMS
        from cogs.host import Host
        from cogs.lobby import Lobbies
        from rendering import cache, pool
        from tables.service import Tables

        config = self.config
        cache.configure(config.render_cache_mb * 2**20)
        pool.configure(config.render_threads)
        self.store = await Store.open(config.database)
        self.tables = Tables(
            self.store, seed=config.seed, cached=config.cached_games, runner=config.runner, lease=config.lease
        )
        self.host = Host(self)
        self.lobbies = Lobbies(self)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        self.tree.on_error = self.on_app_command_error
        for extension in extensions():
            await self.load_extension(extension)
        if self.config.warm_renderers:
            self.warmed = self.loop.create_task(self.warm_up())

        # Resume what was under way before a restart: AI turns and invitation timers.
        self.loop.create_task(self.host.resume())
        self.loop.create_task(self.lobbies.resume())

    async def warm_up(self) -> int:
        """Fill the renderers' caches in a thread (returns the images drawn), then move everything
        allocated so far (modules, discord.py, fonts, cached images) out of the garbage collector's way.

        A full collection walks every tracked object: ~60k after start-up, about 40 ms on a small
        machine, paid by whichever player's action it lands in. Frozen, those live on and are simply
        no longer walked (``gc.freeze``, as the CPython docs suggest for long-running servers).
        """
        from rendering import cache
        from rendering.pool import trim_memory
        from rendering.warmup import warm_renderers

        drawn = await asyncio.to_thread(warm_renderers)
        gc.collect()
        gc.freeze()
        await asyncio.to_thread(trim_memory)  # the warm-up's dropped images: ~50 MB back to the system
        log.info("Warmed up: %d images drawn, %d start-up objects frozen", drawn, gc.get_freeze_count())
        log.info("%s", cache.describe())
        return drawn

    async def close(self) -> None:
        if hasattr(self, "host"):
            await self.host.stop()  # first: other processes take this one's games at once
        await super().close()
        if hasattr(self, "store"):
            await self.store.close()

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: discord.app_commands.AppCommandError
    ) -> None:
        """The one handler for unexpected errors: log with the traceback, apologise briefly."""
        from cogs.host import apologise

        await apologise(interaction, error)


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
    overrides: dict[str, Any] = {}
    if database is not None:
        overrides["database"] = str(database)
    if ai_delay is not None:
        overrides["ai_delay"] = ai_delay
    if invite_ttl is not None:
        overrides["invite_ttl"] = invite_ttl
    if seed is not None:
        overrides["seed"] = seed
    if warm_renderers is not None:
        overrides["warm_renderers"] = warm_renderers
    for name, value in (("shard_count", shard_count), ("shard_ids", shard_ids), ("process", process), ("lease", lease)):
        if value is not None:
            overrides[name] = value
    config = replace(config, **overrides).checked()
    if config.shard_count is None:
        return TableBot(config)
    ids = list(config.shard_ids) if config.shard_ids is not None else None
    return ShardedTableBot(config, shard_count=config.shard_count, shard_ids=ids)


class ShardedTableBot(TableBot, commands.AutoShardedBot):
    """The bot on several Discord shards: one gateway connection per shard of this process
    (``shard_ids``) out of the bot's ``shard_count``, as Discord requires of bots in many servers."""
