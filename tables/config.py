"""The bot's settings, from the environment (see README, "Configuration"): a bad setting is one line
naming it and why (:class:`ConfigError`)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from data.engine import database_target, is_postgres

DEFAULT_DATABASE = Path(__file__).resolve().parent.parent / "data" / "tables.db"


class ConfigError(ValueError):
    """A setting that cannot be used; ``str(exc)`` says which and why, in one line."""


def _float_env(name: str, default: float, low: float = 0.0) -> float:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = float(raw)
    except ValueError:
        value = low - 1
    if not value >= low:  # also refuses nan
        raise ConfigError(f"{name} must be a number of seconds from {low:g} up, not {raw!r}")
    return value


LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


def _log_level(raw: str) -> str:
    level = raw.strip().upper()
    if level not in LOG_LEVELS:
        raise ConfigError(f"TABLES_LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {raw!r}")
    return level


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
    forget_server_after: float = 30 * 86400.0
    """Seconds after the bot leaves a server before that server's data is erased (unless it is back before)."""
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
    cached_games: int = 250
    """Games whose latest record stays in memory (least recently used ones are read again when needed)."""
    render_cache_mb: int = 96
    """Megabytes of pre-drawn layers, icons and text the renderers keep (:mod:`rendering.cache`). Boards of
    every game drawn in turn stay as fast at 96 MB as at 128 MB; at 64 MB text and icons are redrawn (p99
    1.7×; see ``rendering.cache.DEFAULT_BUDGET``)."""
    render_threads: int | None = None
    """Boards and hands drawn at once (:mod:`rendering.pool`; ``None``: one per CPU core)."""
    render_processes: int = 0
    """Processes beside the bot that draw the boards and hands (each with its own render cache of
    :attr:`render_cache_mb`); 0: threads of the bot's process (:attr:`render_threads`)."""
    ai_think_ms: int = 1000
    """Milliseconds the ``hard`` AI searches for one decision (:mod:`tables.thinking`)."""
    ai_processes: int = 1
    """Processes that run the ``hard`` AI's searches, off the event loop (0: a thread of this process,
    for tests and the demo)."""

    @classmethod
    def from_env(cls) -> Config:
        """The settings in the environment; :class:`ConfigError` names one that cannot be used."""
        ids = os.environ.get("TABLES_SHARD_IDS", "").strip()
        try:
            shards = shard_ids(ids) if ids else None
        except ValueError as exc:
            raise ConfigError(f"TABLES_SHARD_IDS: {exc}") from None
        try:
            database = database_target(os.environ.get("TABLES_DATABASE") or str(DEFAULT_DATABASE))
        except ValueError as exc:
            raise ConfigError(f"TABLES_DATABASE: {exc}") from None
        return cls(
            database=database,
            ai_delay=_float_env("TABLES_AI_DELAY", cls.ai_delay),
            invite_ttl=_float_env("TABLES_INVITE_TTL", cls.invite_ttl, 1.0),
            archive_after=_float_env("TABLES_ARCHIVE_AFTER", cls.archive_after),
            forget_server_after=_float_env("TABLES_FORGET_SERVER_AFTER", cls.forget_server_after),
            log_level=_log_level(os.environ.get("TABLES_LOG_LEVEL") or cls.log_level),
            shard_count=_int_env("TABLES_SHARD_COUNT", None, 1),
            shard_ids=shards,
            process=os.environ.get("TABLES_PROCESS", "").strip() or None,
            lease=_float_env("TABLES_LEASE", cls.lease),
            cached_games=_int_env("TABLES_CACHED_GAMES", cls.cached_games, 1) or cls.cached_games,
            render_cache_mb=_int_env("TABLES_RENDER_CACHE_MB", cls.render_cache_mb, 0) or 0,
            render_threads=_int_env("TABLES_RENDER_THREADS", None, 1),
            render_processes=_int_env("TABLES_RENDER_PROCESSES", cls.render_processes, 0) or 0,
            ai_think_ms=_int_env("TABLES_AI_THINK_MS", cls.ai_think_ms, 10) or cls.ai_think_ms,
            ai_processes=_int_env("TABLES_AI_PROCESSES", cls.ai_processes, 0) or 0,
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
