"""The table service, composed: everything the platform decides about games, with no Discord in it, as small
services with one job each, built and wired here and nowhere else.

=================  =====================================================================================
``cache``          the games' latest records (:mod:`tables.cache`)
``languages``      who reads which language (:mod:`tables.languages`)
``play``           the one way a game changes and ends: members' actions, the AI's turns, time-outs,
                   resigning, abandoning, with the end-of-game listeners (:mod:`tables.play`,
                   :mod:`tables.endings`)
``moves``          finding the game and the move a member means (:mod:`tables.moves`)
``seats``          handing seats over, following, reminders (:mod:`tables.seats`)
``places``         boards posted again, games out of deleted threads (:mod:`tables.places`)
``starter``        creating games (:mod:`tables.starting`)
``lobbies``        challenges, open tables, rematches (:mod:`tables.lobbies`)
``delivery``       the outbox delivered to Discord (:mod:`tables.delivery`, :mod:`tables.rows`)
``clocks``         turn clocks (:mod:`tables.clocks`)
``ai``             the AI's turns as tasks, and the hard AI's searches (:mod:`tables.ai`, :mod:`tables.thinking`)
``runner``         which games this process runs (:mod:`tables.runner`)
``tournaments``    sign-ups, rounds drawn as games, standings: an end-of-game listener and a scheduler
                   (:mod:`tables.tournaments.service`)
``reads``          the read model: lists, leaderboards, stats, history, replays, logs (:mod:`tables.reads`)
``privacy``        what is stored about a member, shown and erased; servers the bot left, erased after a
                   grace period (:mod:`tables.privacy`)
=================  =====================================================================================

Each gets the few collaborators it uses; none holds this container. A change of a game is told to the
delivery, the clocks and the AI through :func:`compose`'s ``changed``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from data.outbox import Entry
from data.store import GameRecord, Store
from tables.ai import AiDriver
from tables.cache import GameCache
from tables.clocks import Clocks
from tables.collector import Collector
from tables.config import Config
from tables.delivery import Delivery
from tables.endings import listeners
from tables.languages import Languages
from tables.lobbies import Lobbies
from tables.locks import KeyedLocks
from tables.moves import Moves
from tables.places import Places
from tables.play import Play
from tables.privacy import Privacy
from tables.reads import Reads
from tables.rows import Rows
from tables.runner import Runner
from tables.seating import ai_seats_to_act
from tables.seats import Seats
from tables.starting import Starter
from tables.thinking import Thinker
from tables.tournaments.service import Tournaments


@dataclass
class Tables:
    """The composed service (see the module): what the cogs call."""

    store: Store
    config: Config
    now: Callable[[], float]
    cache: GameCache
    languages: Languages
    play: Play
    moves: Moves
    seats: Seats
    places: Places
    starter: Starter
    lobbies: Lobbies
    delivery: Delivery
    clocks: Clocks
    thinker: Thinker
    ai: AiDriver
    runner: Runner
    reads: Reads
    collector: Collector
    privacy: Privacy
    tournaments: Tournaments
    _closed: bool = False

    @classmethod
    async def open(cls, config: Config, *, now: Callable[[], float]) -> Tables:
        """The service over the database ``config`` names (opened and migrated)."""
        return compose(await Store.open(config.database, owner=config.runner), config, now)

    async def start(self) -> None:
        """Begin this process's work: deliver what is owed (after a restart: at once), run the clocks, the AI
        turns of the games it runs, and the expiry of open lobbies."""
        await self.store.outbox.release(self.config.runner)
        await self.store.outbox.rush(now=self.now(), waiting=True)
        if self.delivery.sender is not None:
            self.collector.start()  # its collections are made between the delivery loop's looks
        self.delivery.start()
        self.clocks.start()
        await self.runner.start()
        await self.lobbies.resume()
        self.privacy.start()  # erases the servers whose grace period ran out while the bot was down
        await self.tournaments.resume()

    async def stop(self) -> None:
        """Stop this process's work (other processes take its games at once) before the store closes."""
        await self.runner.stop()
        await self.privacy.stop()
        await self.lobbies.stop()
        await self.tournaments.stop()
        await self.ai.stop()
        self.thinker.close()
        await self.clocks.stop()
        await self.delivery.stop()
        self.collector.stop()

    async def close(self) -> None:
        """Stop, then close the store (once: closing again does nothing), even if stopping failed or was
        cancelled: its connections' threads would otherwise keep the program alive."""
        if not self._closed:
            self._closed = True
            try:
                await self.stop()
            finally:
                await self.store.close()


def compose(store: Store, config: Config, now: Callable[[], float]) -> Tables:
    """Build the table service over ``store``: each service with the collaborators it uses."""
    cache = GameCache(store, config, now)
    languages = Languages(store, now)
    locks = KeyedLocks()
    thinker = Thinker(config.ai_processes, config.ai_think_ms)

    def changed(record: GameRecord, written: Sequence[Entry] = ()) -> None:
        """After a committed change: deliver what it owes (``written``: the rows the delivery may begin with at
        once), look at its clock, let the AI move."""
        if not delivery.begin(written):
            delivery.wake()
        if record.status == "active":
            clocks.arm(record.id)
            if ai_seats_to_act(cache.spec(record), record):  # else a member decides next: no task to start
                ai.kick(record.id)
        else:
            clocks.disarm(record.id)

    def wake() -> None:
        delivery.wake()

    play = Play(store, cache, config, now, locks, thinker.search, changed, thinker.answering)
    starter = Starter(cache, config, now, changed, thinker.warm)
    tournaments = Tournaments(store, now, starter, wake)
    play.listeners.extend([*listeners(config.archive_after), tournaments.ended])  # rated, then the tournament
    places = Places(store, cache, now, wake)
    collector = Collector(lambda: thinker.busy or delivery.posting)
    delivery = Delivery(store, Rows(store, cache, languages, places, now, config.lease), config, now, collector.tick)
    clocks = Clocks(store, cache, play, now)
    ai = AiDriver(cache, play, config)

    def resume(game_id: int) -> None:
        ai.kick(game_id)
        clocks.arm(game_id)

    runner = Runner(store, cache, config, now, resume=resume, leave=clocks.disarm, wake=wake)
    lobbies = Lobbies(store, config, now, cache, starter, wake)
    return Tables(
        store=store,
        config=config,
        now=now,
        cache=cache,
        languages=languages,
        play=play,
        moves=Moves(cache, play.back),
        seats=Seats(store, cache, config, now, locks, changed, wake),
        places=places,
        starter=starter,
        lobbies=lobbies,
        delivery=delivery,
        clocks=clocks,
        thinker=thinker,
        ai=ai,
        runner=runner,
        reads=Reads(store),
        collector=collector,
        privacy=Privacy(store, cache, config, now, play, lobbies, languages, changed, tournaments),
        tournaments=tournaments,
    )
