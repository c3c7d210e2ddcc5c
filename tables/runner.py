"""Which games this process runs: their AI turns and clocks, each game in exactly one process.

On SQLite one process owns the database and runs every game. On a shared PostgreSQL each active game
has a lease (``games.runner``, ``games.runner_until``): the process that created the game or applied its
latest action holds it and alone moves for AI seats and times decisions out (a commit under a lost lease
is refused by the store). Every ``lease / 3`` seconds (:meth:`Runner.sweep`, which the bot runs as a
``discord.ext.tasks`` loop) a process renews its leases, delivers what a process that died left in the
outbox, and takes over the games whose lease ran out — at once for the servers its own shards serve,
after one more lease for others (in case their own process is only slow) — so a process that dies has
its games carried on within ``2 × lease`` at most, by whoever is left. A process that shuts down lets its
leases go, so its games move on at the next sweep of another process.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from data.store import Store
from tables.cache import GameCache
from tables.config import Config

log = logging.getLogger("tables.runner")


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard that receives a server's events (Discord's formula); direct messages come to shard 0."""
    return ((guild_id or 0) >> 22) % shard_count


class Runner:
    """Keeps this process's leases and resumes the games it comes to run (after a start or a takeover)."""

    def __init__(
        self,
        store: Store,
        cache: GameCache,
        config: Config,
        now: Callable[[], float],
        *,
        resume: Callable[[int], None],
        leave: Callable[[int], None],
        wake: Callable[[], None],
    ) -> None:
        self.store = store
        self.cache = cache
        self.config = config
        self.now = now
        self.resume = resume
        """Set a game this process runs now going: its AI turns and its clock."""
        self.leave = leave
        """Stop a game's clock: another process runs it now."""
        self.wake = wake
        """Tell the delivery loop to look: a process that died may have left rows."""
        self.running: set[int] = set()
        """The active games whose lease this process held at its last sweep."""

    def serves(self, guild_id: int | None) -> bool:
        """Whether a server's events come to this process (one of its shards), or it has every shard."""
        ids, count = self.config.shard_ids, self.config.shard_count
        return ids is None or not count or shard_of(guild_id, count) in ids

    async def start(self) -> None:
        """Resume this process's games: every active one on a database of its own; on a shared one, those
        it holds or can take (and again at each sweep)."""
        if self.store.shared:
            await self.sweep()
        else:
            for game_id in await self.store.games.ids():
                self.resume(game_id)

    async def stop(self) -> None:
        """Let this process's leases go (others take its games at their next sweep)."""
        if self.store.shared:
            await self.store.games.release_leases(self.config.runner)

    async def sweep(self) -> set[int]:
        """Renew this process's leases and take over the games nobody runs; resume those it did not run
        before. Returns the games it runs now."""
        games = self.store.games
        now = self.now()
        held = set(await games.renew_leases(self.config.runner, until=now + self.config.lease))
        for game_id, guild_id, until in await games.unleased(now=now):
            if (self.serves(guild_id) or until < now - self.config.lease) and await self.cache.claim(game_id):
                log.info("Game %s: taken over (its lease ran out)", game_id)
                held.add(game_id)
        for game_id in self.running - held:
            self.leave(game_id)  # another process runs it now
        for game_id in sorted(held - self.running):
            self.resume(game_id)
        self.running = held
        self.wake()  # what a process that died left in the outbox
        return held
