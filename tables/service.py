"""The table service: everything the platform decides about games, with no Discord in it.

The cogs turn an interaction into a call here, with a :class:`~tables.authority.Caller`; the service
checks who may act (:mod:`tables.authority`), lets the engine validate and apply the action, and commits in
one transaction the new state, the action, the rating of a finished game and every message the change
owes (:mod:`tables.notices`, written into the outbox). Then the cog answers its interaction, and the
delivery loop (:mod:`tables.delivery`) hands the messages to Discord. Nothing the bot owes is sent fire
and forget, so nothing is lost when Discord fails or the process stops.

One asyncio lock per game serialises the changes to a game inside this process; the store's conditional
writes settle everything else (a second process, a seat handed over meanwhile, a stale snapshot).

Several processes (shards) on one PostgreSQL: a cached game is checked against the database's revision
before it is trusted, and each active game has one *runner*, the process holding its lease, which alone
runs its AI turns and clocks. A member's action hands the lease to the process that applied it; a process
renews its leases while it lives (:mod:`tables.runner`), and another takes a game over once it ran out.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, replace
from typing import Any

from data.engine import Conflict
from data.games import Commit
from data.outbox import Entry, Owed
from data.store import GameRecord, SeatRecord, Store, Unit
from games.core import Action, Choice, Event, IllegalAction, Termination, format_seats
from games.i18n import ENGLISH, LANGUAGES, T, language, localize, seat_ref
from games.registry import GAMES, GameSpec
from tables import attention, menus, notices, outbox, words
from tables.authority import (
    Caller,
    GameError,
    NotSeated,
    NotYourTurn,
    StaleBoard,
    may_abandon,
    may_offer,
    may_set_language,
    reach,
    seated,
)
from tables.clocks import Clocks
from tables.clocks import deadlines as clock_deadlines
from tables.config import Config
from tables.outbox import Message
from tables.results import after_resignation, ended_without_play, placings, result_of
from tables.seating import ai_seats_to_act, deciding, players_out, seat_names

__all__ = [
    "Applied",
    "Caller",
    "GameError",
    "GameRecord",
    "NotSeated",
    "NotYourTurn",
    "SeatRecord",
    "StaleBoard",
    "Tables",
]

log = logging.getLogger("tables.service")

LANGUAGE_KEPT = 60.0
"""Seconds a process keeps a server's language before reading it again, where processes share the store."""
LOCALES_KEPT = 10_000
"""Members whose language a process keeps in memory (the others are read from the store when needed)."""
AI_NAMES = ("Salty Sal", "One-Eyed Olga", "Barnacle Bill", "Captain Cheddar", "Rusty Rita", "Peg-Leg Pip", "Bosun Bea")


def ai_name(seat: int) -> str:
    return f"🤖 {AI_NAMES[seat % len(AI_NAMES)]}"


@dataclass(slots=True)
class Applied:
    """An action that was accepted and committed: the game before and after, and what happened."""

    before: GameRecord
    record: GameRecord
    seat: int
    action: Action
    events: list[Event]


@dataclass(frozen=True, slots=True)
class Started:
    """A game that was created, and the outbox entry the caller's interaction may deliver as its answer."""

    record: GameRecord
    answer: int | None = None


class KeyedLocks:
    """One asyncio lock per key, kept only while someone holds it or waits for it: idle keys cost nothing."""

    def __init__(self) -> None:
        self._locks: dict[int, tuple[asyncio.Lock, list[int]]] = {}

    @asynccontextmanager
    async def hold(self, key: int) -> AsyncIterator[None]:
        lock, users = self._locks.setdefault(key, (asyncio.Lock(), [0]))
        users[0] += 1
        try:
            async with lock:
                yield
        finally:
            users[0] -= 1
            if not users[0]:
                del self._locks[key]

    def __len__(self) -> int:
        return len(self._locks)


class Tables:
    """Games, lobbies, seats and the messages they owe, for every game kind. Keeps the latest records of the
    most recently used games in memory, so memory does not grow with every game ever played.

    ``now`` is the clock (Discord's, so simulated time in tests applies too)."""

    def __init__(self, store: Store, config: Config, *, now: Callable[[], float]) -> None:
        from tables.ai import AiDriver
        from tables.collector import Collector
        from tables.delivery import Delivery
        from tables.lobbies import Lobbies
        from tables.runner import Runner

        self.store = store
        self.config = config
        self.now = now
        self.runner_name = config.runner
        self.lease = config.lease
        self._seeded = 0
        self._closed = False
        self.locks = KeyedLocks()
        self._cache: OrderedDict[int, GameRecord] = OrderedDict()
        self._locales: OrderedDict[int, str] = OrderedDict()
        """Members' languages as last seen (a member's own interaction updates it), the
        :data:`LOCALES_KEPT` used most recently."""
        self._preferred: dict[int, str] = {}
        self._languages: dict[int, tuple[str | None, str | None, float]] = {}
        """Servers' chosen languages and preferred locales as stored, with when they were read."""
        self.clocks = Clocks(self)
        self.ai = AiDriver(self)
        self.delivery = Delivery(self)
        self.lobbies = Lobbies(self)
        self.runner = Runner(self)
        self.collector = Collector(self.answering)

    @classmethod
    async def open(cls, config: Config, *, now: Callable[[], float]) -> Tables:
        """The service over the database ``config`` names (opened and migrated)."""
        return cls(await Store.open(config.database, owner=config.runner), config, now=now)

    # ------------------------------------------------------------------ running

    async def start(self) -> None:
        """Begin this process's work: deliver what is owed (after a restart: at once), run the clocks, the
        AI turns of the games it runs, and the expiry of open lobbies."""
        await self.store.outbox.release(self.runner_name)
        await self.store.outbox.rush(now=self.now(), waiting=True)
        if self.delivery.sender is not None:
            self.collector.start()  # its collections are made between the delivery loop's looks
        self.delivery.start()
        self.clocks.start()
        await self.runner.start()
        await self.lobbies.resume()

    async def stop(self) -> None:
        """Stop this process's work (other processes take its games at once) before the store closes."""
        await self.runner.stop()
        await self.lobbies.stop()
        await self.ai.stop()
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

    def answering(self) -> bool:
        """Whether an answer to a member is under way: an action applied and committed, or a board drawn or
        posted (what a full garbage collection waits for, :mod:`tables.collector`)."""
        return self.ai.thinker.busy or self.delivery.posting

    def spec(self, record: GameRecord) -> GameSpec:
        return GAMES[record.kind]

    def lock(self, game_id: int) -> AbstractAsyncContextManager[None]:
        """Hold the game: one change at a time in this process."""
        return self.locks.hold(game_id)

    def runs(self, record: GameRecord) -> bool:
        """Whether this process may run the game's AI turns and clocks: it holds the lease, or nobody does.
        (The store has the last word: a commit under a lease that was lost is refused.)"""
        return record.runner in (None, self.runner_name) or record.runner_until < self.now()

    def _changed(self, record: GameRecord, written: Sequence[Entry] = ()) -> None:
        """After a committed change: deliver what it owes (``written``: those rows, which the delivery may
        begin with at once), look at its clock, let the AI move."""
        if not self.delivery.begin(written):
            self.delivery.wake()
        if record.status == "active":
            self.clocks.arm(record.id)
            if ai_seats_to_act(self.spec(record), record):  # else a member decides next: no task to start
                self.ai.kick(record.id)
        else:
            self.clocks.disarm(record.id)

    # ------------------------------------------------------------------ records

    async def get(self, game_id: int) -> GameRecord:
        """The game's latest record: from memory, once checked against the database's revision when other
        processes share the store."""
        record = self._cache.get(game_id)
        if record is not None and self.store.shared:
            revision = await self.store.games.revision(game_id)
            if revision != record.revision or self._cache.get(game_id) is not record:
                record = None  # written since, by another process or by a task of this one: read it again
        if record is None:
            record = await self.store.games.load(game_id)
            if record is None:
                raise GameError(T("There is no game #{number}.", number=game_id))
            self._remember(record)
        else:
            self._cache.move_to_end(game_id)
        return record

    async def reach(self, caller: Caller, game_id: int) -> GameRecord:
        """Game ``game_id``, if the caller may reach it (:func:`tables.authority.reach`)."""
        try:
            record = await self.get(game_id)
        except GameError:
            raise GameError(T("There is no game #{number} here.", number=game_id)) from None
        reach(caller, record)
        return record

    def _remember(self, record: GameRecord) -> None:
        """Cache a record as the most recently used; forget the least recently used games beyond the limit."""
        self._cache[record.id] = record
        self._cache.move_to_end(record.id)
        while len(self._cache) > self.config.cached_games:
            self._cache.popitem(last=False)

    def forget(self, game_id: int) -> None:
        self._cache.pop(game_id, None)

    async def set_place(
        self,
        game_id: int,
        *,
        thread_id: int | None = None,
        message_id: int | None = None,
        no_thread: bool = False,
        owed: Sequence[Owed] = (),
    ) -> None:
        """Record the game's thread, or that it has none any more (``no_thread``), or its latest board
        message, with the messages that owes, in the store and the cached record."""
        if not owed:  # the board's message, after each post: one write of its own (on SQLite one trip)
            revision = await self.store.games.set_place(
                game_id, thread_id=thread_id, message_id=message_id, no_thread=no_thread
            )
        else:
            async with self.store.transaction() as db:
                revision = await db.games.set_place(
                    game_id, thread_id=thread_id, message_id=message_id, no_thread=no_thread
                )
                await db.outbox.add(owed, now=self.now())
        record = self._cache.get(game_id)
        if record is not None and revision is not None:
            if thread_id is not None or no_thread:
                record.thread_id = thread_id
            if message_id is not None:
                record.message_id = message_id
            # Exact: the store returned the revision this write made (any write by another process in
            # between makes it differ from what this copy saw, and the next get reads the game again).
            record.revision = revision if revision == record.revision + 1 else -1
        if owed:
            self.delivery.wake()

    async def log_text(self, game_id: int) -> str:
        """The verifiable action log of a game that is over (:func:`tables.records.game_log`)."""
        from tables.records import game_log

        record = await self.get(game_id)
        return await asyncio.to_thread(game_log, record, await self.store.games.actions(game_id))

    async def claim(self, game_id: int) -> bool:
        """Take the game's lease for this process if nobody else holds it (see :meth:`runs`)."""
        now = self.now()
        claimed = await self.store.games.claim(game_id, self.runner_name, until=now + self.lease, now=now)
        self.forget(game_id)
        return claimed

    async def game_ids(self, *, status: str = "active") -> list[int]:
        """Every game of a status, oldest first."""
        return await self.store.games.ids(status=status)

    async def games_here(self, place_id: int, user_id: int | None = None) -> list[GameRecord]:
        """The active games played in a thread or channel (newest first); with ``user_id``, only those that
        user plays in."""
        records = [await self.get(g) for g in await self.store.games.in_place(place_id)]
        if user_id is not None:
            records = [r for r in records if r.seat_of(user_id) is not None]
        return records

    async def games_of(self, caller: Caller) -> list[GameRecord]:
        """The caller's active games within their reach (all of them in DMs, this server's in a server)."""
        records = [await self.get(g) for g in await self.store.games.ids(user_id=caller.user_id)]
        return [r for r in records if caller.guild_id is None or r.guild_id == caller.guild_id]

    async def my_game(
        self, caller: Caller, kind: str | None, game_id: int | None = None, *, action: str | None = None
    ) -> GameRecord:
        """The caller's game: ``game_id`` if given (within their reach); else the one they play where they
        asked — when they play several, the one where ``action`` is legal for them, or a question which one."""
        if game_id is not None:
            record = await self.reach(caller, game_id)
            if kind is not None and record.kind != kind:
                raise GameError(
                    T(
                        "Game #{number} is {game}: use `/{kind}` commands.",
                        number=game_id,
                        game=self.spec(record).title,
                        kind=record.kind,
                    )
                )
            return record
        records = await self.games_here(caller.channel_id) if caller.channel_id is not None else []
        records = [r for r in records if r.guild_id == caller.guild_id]
        if not records:
            raise GameError(T("There is no game in progress here: use this in a game's thread."))
        if kind is not None:
            of_kind = [r for r in records if r.kind == kind]
            if not of_kind:
                other = self.spec(records[0])
                raise GameError(
                    T("This thread hosts {game}: use `/{kind}` commands here.", game=other.title, kind=records[0].kind)
                )
            records = of_kind
        mine = [r for r in records if r.seat_of(caller.user_id) is not None]
        if len(mine) == 1:
            return mine[0]
        if not mine:
            return records[0]  # the newest: acting says "You are not playing in …"
        if action is not None:
            fits = [r for r in mine if self.named_choice(r, caller.user_id, action, caller.locale) is not None]
            if len(fits) == 1:
                return fits[0]
        numbers = ", ".join(f"#{r.id}" for r in mine)
        raise GameError(
            T("You play several games here ({numbers}): say which one with the `game` option.", numbers=numbers)
        )

    # ------------------------------------------------------------------ creating

    def _next_seed(self) -> str:
        if self.config.seed is None:
            return secrets.token_hex(16)
        self._seeded += 1
        return self.config.seed if self._seeded == 1 else f"{self.config.seed}-{self._seeded}"

    async def create(
        self,
        db: Unit,
        kind: str,
        *,
        players: Sequence[tuple[int, str]],
        ai: int,
        options: dict[str, Any],
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        clock: int = 0,
        ai_level: str = "normal",
        lobby: int | None = None,
        announce: Message | None = None,
        answered: bool = True,
    ) -> Started:
        """A new game in transaction ``db`` for ``players`` (members, in seat order) and ``ai`` AI seats
        playing at ``ai_level``, with a turn clock of ``clock`` seconds per decision (0: none), and the
        messages it owes: its thread (on the lobby's message, or on ``announce``, posted first: as the
        caller's answer if ``answered``), the opening that notifies every member, the first board and the
        private views."""
        spec = GAMES[kind]
        seats = [SeatRecord(i, name, user_id) for i, (user_id, name) in enumerate(players)]
        seats += [SeatRecord(len(seats) + i, ai_name(len(seats) + i)) for i in range(ai)]
        seed = self._next_seed()
        try:
            state = spec.game.new_game(len(seats), options, seed)
        except IllegalAction as exc:
            raise GameError(str(exc)) from exc
        now = self.now()
        game_id = await db.games.create(
            kind=kind,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            seats=seats,
            seed=seed,
            options=state["options"],
            state=state,
            now=now,
            clock=clock,
            ai_level=ai_level,
            runner=self.runner_name,
            lease_until=now + self.lease,
        )
        record = await db.games.load(game_id)
        assert record is not None
        answer = None
        if announce is not None:
            post = outbox.to_channel(outbox.game_lane(game_id), channel_id, guild_id, announce, game_id=game_id)
            (answer,) = await db.outbox.add([outbox.answering(post, now=now) if answered else post], now=now)
        name = menus.clip(f"{spec.title} #{game_id}: {words.listing(record.names)}", 100)
        humans = [s.user_id for s in seats if s.user_id is not None]
        (thread,) = await db.outbox.add(
            [outbox.open_thread(game_id, channel_id, name, lobby=lobby, entry=answer)], now=now
        )
        owed = [
            outbox.to_place(game_id, Message(words.opening(spec, record), notifies=humans)),
            *await notices.board(db, spec, record, [], [], []),  # nobody follows a game yet
            # Private messages link to the game's thread: they go once it is open.
            *(replace(o, after=thread) for o in await notices.private(db, spec, record, {})),
        ]
        await db.outbox.add(owed, now=now)
        return Started(record, answer)

    def started(self, record: GameRecord) -> None:
        """A game was created (its transaction committed): remember it and set it going."""
        self._remember(record)
        if record.ai_level == "hard":
            self.ai.thinker.warm()  # its first search should not wait for the search processes to start
        self._changed(record)

    # ------------------------------------------------------------------ acting

    def seats_to_act(
        self, record: GameRecord, *, user_id: int | None = None, seat: int | None = None, version: int | None = None
    ) -> list[int]:
        """The engine seats a user (``user_id``) or an AI (``seat``) may act for now, on the board
        ``version`` they saw; otherwise the specific reason as a :class:`GameError`.

        A click from an older board is good for a seat whose own decision has not changed since
        (``state["since"]``): another seat's secret choice does not make it stale."""
        spec = self.spec(record)
        game, state = spec.game, record.state
        if record.status != "active":
            raise GameError(T("{game} is over.", game=f"{spec.title} #{record.id}"))
        if user_id is not None:
            player = record.seat_of(user_id)
            if player is None:
                raise NotSeated(T("You are not playing in {game}.", game=f"{spec.title} #{record.id}"))
            if record.seats[player].resigned:
                raise NotSeated(T("You resigned from this game; the AI plays your seat now."))
            if player in players_out(game, record):
                raise NotYourTurn(T("You are out of this game; the others play on."))
            seats = deciding(game, record, player)
        else:
            assert seat is not None
            seats = [seat] if seat in game.to_act(state) else []
        if version is not None:
            since = state.get("since") or [record.version] * state["seats"]
            fresh = [s for s in seats if since[s] <= version <= record.version]
            if version != record.version and not fresh:
                raise StaleBoard(T("That board is out of date: use the buttons on the latest board message."))
            seats = fresh
        if not seats:
            names = seat_names(game, record)
            mine = [s for s in range(state["seats"]) if game.controller(state, s) == player] if seat is None else [seat]
            why = next((text for s in mine if (text := game.waiting(state, s))), None)
            if why is not None:
                raise NotYourTurn(format_seats(why, [words.shown(n) for n in names]))
            waiting = ", ".join(dict.fromkeys(words.shown(names[s]) for s in game.to_act(state)))
            raise NotYourTurn(T("It is not your turn: waiting for {players}.", players=waiting))
        return seats

    async def act(self, caller: Caller, game_id: int, action_text: str, *, version: int | None = None) -> Applied:
        """Apply a member's action (for whichever of their seats may take it), checking the board ``version``
        they acted on when given. Commits, with every message it owes, before returning. The hard AI's
        searches wait meanwhile."""
        with self.ai.thinker.answering():
            async with self.lock(game_id):
                before = await self.reach(caller, game_id)
                spec = self.spec(before)
                seats = self.seats_to_act(before, user_id=caller.user_id, version=version)
                try:
                    action = Action.decode(action_text)
                except IllegalAction as exc:
                    raise GameError(str(exc)) from exc
                acting = next((s for s in seats if action in spec.game.legal_actions(before.state, s)), seats[0])
                player = before.seats[spec.game.controller(before.state, acting)]
                presence = (player.seat, 0, False) if player.timeouts or player.away else None
                return await self._commit(
                    before, [(acting, action)], member=(caller.user_id, player.seat), presence=presence, take_over=True
                )

    async def ai_turn(self, game_id: int, moves: int) -> Applied | None:
        """Up to ``moves`` decisions of the AI seats that must act now, committed together with one board;
        ``None`` if no AI seat must act, or another process runs the game now."""
        async with self.lock(game_id):
            before = await self.get(game_id)
            spec = self.spec(before)
            game = spec.game
            if before.status != "active" or not self.runs(before):
                return None
            state, played = before.state, []
            for _ in range(moves):
                if game.is_over(state):
                    break
                seats = [s for s in game.to_act(state) if before.seats[game.controller(state, s)].is_ai]
                if not seats:
                    break
                seat = seats[0]
                if self._searches(before, state, seat):
                    if played:
                        break  # commit the quick decisions first: the board shows them while the AI thinks
                    action = await self.ai.thinker.decide(before.kind, state, seat, game_id=game_id)
                    state = game.apply(state, seat, action, trusted=True).state
                    played.append((seat, action))
                    break
                action = spec.player.choose(game, state, seat, game.rng(state))
                state = game.apply(state, seat, action, trusted=True, inplace=state is not before.state).state
                played.append((seat, action))
            if not played:
                return None
            return await self._commit(before, played, trusted=True)

    def _searches(self, record: GameRecord, state: dict[str, Any], seat: int) -> bool:
        """Whether the hard AI searches ``seat``'s decision: an AI seat of a game at ``hard`` with a real
        choice (away, resigned and timed-out members' seats are played at ``normal``)."""
        game = self.spec(record).game
        return (
            record.ai_level == "hard"
            and record.seats[game.controller(state, seat)].user_id is None
            and len(game.legal_actions(state, seat)) > 1
        )

    async def time_out(self, game_id: int, seat: int, *, version: int) -> Applied | None:
        """The turn clock ran out for ``seat``'s decision on board ``version``: the AI decides for it, from
        what the seat may see, and the player's time-outs in a row are counted (two make them away).
        ``None`` if the decision was made meanwhile, or another process runs the game now."""
        async with self.lock(game_id):
            before = await self.get(game_id)
            spec = self.spec(before)
            game, state = spec.game, before.state
            if before.status != "active" or seat not in game.to_act(state) or not self.runs(before):
                return None
            since = state.get("since") or [0] * state["seats"]
            player = before.seats[game.controller(state, seat)]
            if since[seat] > version or player.is_ai:
                return None
            action = spec.player.choose(game, state, seat, game.rng(state))
            timeouts = player.timeouts + 1
            note = "⏰ " + T("{player}'s time ran out: the AI decided for them.", player=seat_ref(seat))
            if timeouts >= 2:
                away = T(
                    "{player} is away now: the AI plays for them until they use the game again.", player=seat_ref(seat)
                )
                note += " " + away
            return await self._commit(
                before, [(seat, action)], presence=(player.seat, timeouts, timeouts >= 2), notes=[Event(note)]
            )

    async def lapse(self, game_id: int, *, version: int) -> Applied | None:
        """A decision the rules let lapse (``Game.lapse``) has waited its time since board ``version``: apply
        its lapse. ``None`` if it was decided meanwhile, or another process runs the game now."""
        async with self.lock(game_id):
            before = await self.get(game_id)
            game = self.spec(before).game
            lapse = game.lapse(before.state) if before.status == "active" else None
            since = before.state.get("since") or [0] * before.state["seats"]
            if lapse is None or since[lapse.seat] > version or not self.runs(before):
                return None
            return await self._commit(before, [(lapse.seat, lapse.action)], trusted=True)

    async def remind(self, game_id: int, seat: int, *, since: int) -> None:
        """Half the time for ``seat``'s decision (begun at step ``since``) is gone: mention its member in the
        thread, and DM them if they asked for reminders. Once per decision, even across a restart."""
        async with self.lock(game_id):
            record = await self.get(game_id)
            spec = self.spec(record)
            state = record.state
            player = record.seats[spec.game.controller(state, seat)]
            still = record.status == "active" and seat in spec.game.to_act(state)
            if not still or (state.get("since") or [0] * state["seats"])[seat] != since or player.user_id is None:
                return
            due = (await clock_deadlines(self.store, record)).get(seat)
            if due is None:
                return
            text = "⏳ " + T(
                "{member}, half your time for this decision is gone: the AI decides for you {when} unless you do.",
                member=words.mention(player.user_id),
                when=f"<t:{int(due)}:R>",
            )
            owed = [outbox.to_place(game_id, Message(text, notifies=[player.user_id]))]
            async with self.store.transaction() as db:
                if await db.outbox.marker(game_id, seat, "half") == str(since):
                    return
                await db.outbox.set_marker(game_id, seat, "half", str(since))
                if await db.settings.notify_enabled(player.user_id):
                    note = Message(f"⏳ {words.title(spec, record)}: {text}")
                    owed.append(outbox.direct(game_id, player.user_id, note))
                await db.outbox.add(owed, now=self.now())
        self.delivery.wake()

    async def _commit(
        self,
        before: GameRecord,
        moves: Sequence[tuple[int, Action]],
        *,
        member: tuple[int, int] | None = None,
        presence: tuple[int, int, bool] | None = None,
        trusted: bool = False,
        take_over: bool = False,
        notes: Sequence[Event] = (),
    ) -> Applied:
        """Apply and commit ``moves`` (the caller holds the game's lock), with every message they owe.

        ``member``: the member whose own decision this is (``(user_id, player)``; the store checks they
        still hold that place); ``presence`` updates a player's time-outs and away flag; ``trusted``: the
        platform's own moves (AI, lapses), picked from the legal ones; ``notes``: public lines before the
        events. The commit takes the game's lease for this process: a member's action always
        (``take_over``), the platform's own moves only while this process may run the game (:meth:`runs`)."""
        spec = self.spec(before)
        game = spec.game
        state, events = before.state, list(notes)
        # On SQLite the game's followers are read while the moves are applied, on the reading connection,
        # outside the one write lock: a member who follows the game just as this commits gets this board or
        # only the next, as if they had followed just after. On PostgreSQL they are read in the transaction
        # (below), on its own connection: read from the pool beside it, each action checked out a second
        # pooled connection (0.93 of the actions a second, measured).
        reading = None if self.store.shared else asyncio.ensure_future(self.store.seats.followers(before.id))
        try:
            for seat, action in moves:
                step = game.apply(state, seat, action, trusted=trusted, inplace=state is not before.state)
                state = step.state
                events += step.events
        except BaseException as exc:
            if reading is not None:
                reading.cancel()
            if isinstance(exc, IllegalAction):
                raise GameError(str(exc)) from exc
            raise
        outcome = game.outcome(state)
        status = "active" if outcome is None else "finished"
        result = result_of(game, state, outcome, before.seats) if outcome else None
        now = self.now()
        seats = before.seats
        if presence is not None or member is not None:
            seats = [replace(s) for s in seats]
            if presence is not None:
                number, timeouts, away = presence
                seats[number].timeouts, seats[number].away = timeouts, away
            if member is not None:
                seats[member[1]].acted_at = now
        # A new record object: callers holding the old one keep a consistent snapshot.
        record = replace(
            before,
            state=state,
            version=before.version + len(moves),
            status=status,
            result=result,
            seats=seats,
            ended_at=None if status == "active" else now,
            updated_at=now,
            runner=self.runner_name,
            runner_until=now + self.lease,
            last_member=member[0] if member is not None else before.last_member,
        )
        step = Commit([(s, a.encode()) for s, a in moves], state, status, result, member, presence)
        notified = attention.notified(spec, before, record, now=now)
        followers = None if reading is None else await reading
        try:
            # On SQLite one trip to the database, the commit's own, while the transaction holds the one write
            # lock: the game's row, written only over the version the moves were applied to (the check), the
            # seat's and the log's writes, and every message the step owes. A read inside (the followers on
            # PostgreSQL, a clock's start, a finished game's ratings) takes the writes so far with it, the
            # check first.
            async with self.store.transaction() as db:
                stored = db.games.commit(
                    before.id,
                    expected_version=before.version,
                    step=step,
                    now=now,
                    runner=self.runner_name,
                    lease_until=now + self.lease,
                    take_over=take_over,
                )
                if followers is None:
                    followers = await db.seats.followers(before.id)
                owed = await notices.board(db, spec, record, events, notified, followers)
                owed.append(notices.privates(spec, record, events))
                if status != "active":
                    await self._finish(db, spec, record)
                    owed += notices.ending(spec, record, archive_after=self.config.archive_after)
                written = db.outbox.write_later(owed, now=now)
        except Conflict:  # the game moved on, or the member lost their place: nothing was written
            self.forget(before.id)
            raise StaleBoard(T("The game moved on while you were acting; look at the latest board.")) from None
        record.revision = stored.rows[0]["revision"]
        self._remember(record)
        self._changed(record, written.entries)
        return Applied(before, record, moves[-1][0], moves[-1][1], events)

    async def _finish(self, db: Unit, spec: GameSpec, record: GameRecord) -> None:
        """Rate a game that has just finished, in the transaction that stores its result."""
        placed = placings(spec.game, record.state, record.result or {}, record.seats)
        if record.status == "finished" and placed is not None:
            await db.ratings.rate(record.id, record.kind, record.guild_id, placed, now=self.now())

    # ------------------------------------------------------------------ menus

    def named_choice(self, record: GameRecord, user_id: int, text: str, locale: str | None = None) -> Choice | None:
        """The user's legal choice that ``text`` names, by its action text or its label as shown, in English or
        in their language (``locale``)."""
        spec = self.spec(record)
        player = record.seat_of(user_id)
        if player is None or record.status != "active":
            return None
        wanted = text.strip().lower()
        names = seat_names(spec.game, record)
        langs = {ENGLISH, language(locale)}
        for seat in deciding(spec.game, record, player):
            # An action's text (what autocomplete offers) is found without labelling every other action.
            for action in spec.game.legal_actions(record.state, seat):
                if wanted == action.encode():
                    return spec.game.choice(record.state, seat, action)
            for choice in spec.game.choices(record.state, seat):
                label = format_seats(choice.label, names)
                if any(wanted == localize(label, lang).lower() for lang in langs):
                    return choice
        return None

    async def walk(
        self, caller: Caller, game_id: int, version: int, first: str, path: tuple[int, ...]
    ) -> tuple[GameRecord, Choice | menus.Menu]:
        """A board button, picker button or picker option was used: the caller's completed choice, or the
        next picker level to show them (only they see it)."""
        record = await self.back(caller, await self.reach(caller, game_id))
        spec = self.spec(record)
        for seat in self.seats_to_act(record, user_id=caller.user_id, version=version):
            node = menus.walk(spec.game.choices(record.state, seat), first, path)
            if node is not None:
                return record, node
        raise GameError(T("That option is not yours to choose right now."))

    def picker(self, record: GameRecord, menu: menus.Menu) -> Message:
        """A picker level as an ephemeral message: the trail so far and what to choose next."""
        names = seat_names(self.spec(record).game, record)
        labels = [format_seats(e.label, names) for e in menu.entries]
        trail = format_seats(" → ".join(menu.trail), words.names_shown(self.spec(record), record))
        return Message(
            T("**{trail}** — choose:", trail=trail),
            components=menus.picker_components(record.id, record.version, menu, labels),
        )

    async def autocomplete(self, caller: Caller, kind: str, current: str) -> list[tuple[str, str]]:
        """The caller's legal actions in games of ``kind`` where they asked, as (label, action text), filtered by
        what they typed. When they must move in several games there, labels and values start with the game's
        number."""
        if caller.channel_id is None:
            return []
        records = [
            r
            for r in await self.games_here(caller.channel_id, caller.user_id)
            if r.kind == kind and r.guild_id == caller.guild_id
        ]
        needle = current.strip().lower()
        lang = language(caller.locale)
        options = []
        for record in records:
            player = record.seat_of(caller.user_id)
            if player is None or record.seats[player].resigned:
                continue
            seats = deciding(self.spec(record).game, record, player)
            if seats:
                options.append((record, seats))
        out: list[tuple[str, str]] = []
        seen: set[str] = set()
        for record, seats in options:
            spec = self.spec(record)
            names = seat_names(spec.game, record)
            for seat in seats:
                for choice in spec.game.choices(record.state, seat):
                    label, value = format_seats(choice.label, names), choice.action.encode()
                    english, label = localize(label), localize(label, lang)
                    if len(options) > 1:
                        label, value = f"#{record.id}: {label}", f"#{record.id} {value}"
                    found = needle in label.lower() or needle in value or needle in english.lower()
                    if found and value not in seen:
                        seen.add(value)  # a fleet's seats often share an action: offer it once
                        out.append((menus.clip(label, 100), value))
        return out[:25]

    # ------------------------------------------------------------------ views and boards

    async def back(self, caller: Caller, record: GameRecord) -> GameRecord:
        """A member who was away used the game again: they play their seat themselves from now on."""
        player = record.seat_of(caller.user_id)
        if player is None or not record.seats[player].away:
            return record
        async with self.lock(record.id):
            await self.store.seats.set_presence(record.id, player, timeouts=0, away=False)
            self.forget(record.id)
            record = await self.get(record.id)
        self._changed(record)
        return record

    async def private_view(self, caller: Caller, game_id: int) -> Message:
        """The caller's private view (every seat they control), for an ephemeral answer."""
        record = await self.back(caller, await self.reach(caller, game_id))
        if record.seat_of(caller.user_id) is None:
            title = self.spec(record).title
            raise NotSeated(T("You are not playing in {game}, so you have no hand here.", game=f"{title} #{game_id}"))
        message = notices.private_message(self.spec(record), record, seated(caller, record))
        return replace(message, content=words.linked(message.content, record))

    async def repost(self, caller: Caller, game_id: int) -> None:
        """Post the board again in the game's place (notifying nobody), and try at once what is still owed."""
        record = await self.reach(caller, game_id)
        spec = self.spec(record)
        now = self.now()
        async with self.store.transaction() as db:
            owed = await notices.board(db, spec, record, [], [], await db.seats.followers(record.id))
            await db.outbox.add(owed, now=now)
            await db.outbox.rush(now=now, game_id=game_id)
        self.delivery.wake()

    # ------------------------------------------------------------------ leaving

    async def resign(self, caller: Caller, game_id: int) -> tuple[GameRecord, bool]:
        """Resign the caller's place: the AI plays all of their seats from now on. Returns the record and
        whether that ended the game: won by the one team still standing, or abandoned when no member is
        left playing."""
        async with self.lock(game_id):
            record = await self.reach(caller, game_id)
            spec = self.spec(record)
            player = seated(caller, record)
            if record.status != "active":
                raise GameError(T("This game is already over."))
            if record.seats[player].resigned:
                raise GameError(T("You have already resigned from this game."))
            seats = [replace(s, resigned=True) if s.seat == player else s for s in record.seats]
            result = after_resignation(spec.game, record.state, seats, player)
            name = words.shown(record.seats[player].name)
            now = self.now()
            async with self.store.transaction() as db:
                if not await db.seats.resign(game_id, player, user_id=caller.user_id):
                    raise GameError(T("You have already resigned from this game."))
                if result is None:
                    note = "🏳️ " + T("{name} resigned; the AI plays their seat for the rest of the game.", name=name)
                    await db.outbox.add([outbox.to_place(game_id, Message(note))], now=now)
                else:
                    status = "finished" if result["reason"] == "resignation" else "abandoned"
                    await db.games.finish(game_id, status=status, result=result, now=now)
                    ended = await db.games.load(game_id)
                    assert ended is not None
                    await self._finish(db, spec, ended)
                    note = outbox.to_place(game_id, Message("🏳️ " + T("{name} resigned.", name=name)))
                    await db.outbox.add(
                        [note, *notices.ending(spec, ended, archive_after=self.config.archive_after)], now=now
                    )
            self.forget(game_id)
            record = await self.get(game_id)
        self._changed(record)
        return record, result is not None

    async def abandon(self, caller: Caller, game_id: int) -> GameRecord:
        """End a game without a result (its host or a moderator), and close its thread at once."""
        async with self.lock(game_id):
            record = await self.reach(caller, game_id)
            may_abandon(caller, record)
            if record.status != "active":
                raise GameError(T("This game is already over."))
            spec = self.spec(record)
            name = words.shown(caller.name)
            result = ended_without_play([], T("Abandoned by {name}.", name=name), Termination.ABANDONED)
            now = self.now()
            async with self.store.transaction() as db:
                if not await db.games.finish(game_id, status="abandoned", result=result, now=now):
                    raise GameError(T("This game is already over."))
                ended = await db.games.load(game_id)
                assert ended is not None
                abandoned = T("{game} was abandoned by {name}.", game=f"{spec.title} #{game_id}", name=name)
                note = outbox.to_place(game_id, Message("🏴 " + abandoned))
                await db.outbox.add([note, *notices.ending(spec, ended, archive_after=0.0)], now=now)
            self.forget(game_id)
            record = await self.get(game_id)
        self._changed(record)
        return record

    # ------------------------------------------------------------------ seats and followers

    async def follow(self, caller: Caller, game_id: int) -> bool:
        """Follow (or stop following) a game as a spectator: the public board by DM after every turn.
        Whether the caller follows it now."""
        record = await self.reach(caller, game_id)
        spec = self.spec(record)
        if record.seat_of(caller.user_id) is not None:
            raise GameError(T("You play in {game}: its turns come to you already.", game=f"{spec.title} #{game_id}"))
        if record.status != "active":
            raise GameError(T("{game} is over.", game=f"{spec.title} #{game_id}"))
        if await self.store.seats.follow(game_id, caller.user_id, True):
            return True
        await self.store.seats.follow(game_id, caller.user_id, False)
        return False

    def seat_named(self, record: GameRecord, text: str) -> int:
        """A place named by its number (1-based), its player's name or a mention."""
        wanted = text.strip().lower()
        for s in record.seats:
            if wanted in (str(s.seat + 1), s.name.lower(), f"<@{s.user_id}>", f"<@!{s.user_id}>"):
                return s.seat
        raise GameError(
            T(
                "This game has no seat {seat}; its seats: {seats}.",
                seat=repr(words.shown(text)),
                seats=words.listing(record.names),
            )
        )

    async def offer_seat(self, caller: Caller, game_id: int, seat: str, member: Caller) -> None:
        """``/games substitute``: offer a place at the table to ``member`` (of the game's server), who must
        accept. Its player, the game's host or a moderator may offer it; never to a member who already has a
        place at this table."""
        record = await self.reach(caller, game_id)
        spec = self.spec(record)
        player = self.seat_named(record, seat)
        if record.status != "active":
            raise GameError(T("{game} is over.", game=f"{spec.title} #{record.id}"))
        may_offer(caller, record, player)
        if member.bot:
            raise GameError(T("{name} is a bot account.", name=words.shown(member.name)))
        if member.guild_id != record.guild_id:
            raise GameError(T("{name} is not a member of this game's server.", name=words.shown(member.name)))
        if record.seat_of(member.user_id) is not None:
            raise GameError(T("{name} already plays in this game.", name=words.shown(member.name)))
        at = int(self.now())
        holder = record.seats[player].user_id or 0
        buttons = [
            {
                "type": "seat",
                "game": game_id,
                "seat": player,
                "user": member.user_id,
                "holder": holder,
                "at": at,
                "op": op,
            }
            for op in ("take", "refuse")
        ]
        text = "🔁 " + T(
            "{member}, {name} offers you {holder}'s seat in {game}. The offer expires {when}.",
            member=words.mention(member.user_id),
            name=words.shown(caller.name),
            holder=words.shown(record.seats[player].name),
            game=words.title(spec, record),
            when=f"<t:{at + int(self.config.invite_ttl)}:R>",
        )
        owed = outbox.to_place(game_id, Message(text, components=buttons, notifies=[member.user_id]))
        await self.store.outbox.add([owed], now=self.now())
        self.delivery.wake()

    async def answer_seat(
        self,
        caller: Caller,
        game_id: int,
        player: int,
        *,
        user_id: int,
        holder: int,
        at: int,
        take: bool,
        message: tuple[int, int] | None,
    ) -> Message | None:
        """The member offered a place accepts it (they play it and get its private view at once, which is
        returned; its former player no longer can) or declines. ``message``: the offer's ``(channel, id)``,
        which loses its buttons. Of two members accepting at once, one takes the place."""
        if caller.user_id != user_id:
            raise GameError(T("This offer is for someone else."))
        record = await self.reach(caller, game_id)
        spec = self.spec(record)
        if self.now() > at + self.config.invite_ttl:
            raise GameError(T("This offer has expired; ask for a new one."))
        if record.status != "active":
            raise GameError(T("{game} is over.", game=f"{spec.title} #{game_id}"))
        if (record.seats[player].user_id or 0) != holder:
            raise GameError(T("This seat has changed hands since the offer was made."))
        name, old = words.shown(caller.name), record.seats[player]
        if take:
            done = "🔁 " + T("{name} takes over {holder}'s seat.", name=name, holder=words.shown(old.name))
        else:
            done = "🚫 " + T("{name} declined the seat.", name=name)
        now = self.now()
        async with self.lock(game_id):
            async with self.store.transaction() as db:
                owed: list[Owed] = []
                if message is not None:
                    channel_id, message_id = message
                    lane = outbox.game_lane(game_id)
                    owed.append(
                        outbox.edit_message(lane, message_id, Message(done), channel_id=channel_id, game_id=game_id)
                    )
                if take:
                    if not await db.seats.substitute(
                        game_id, player, holder=old.user_id, user_id=caller.user_id, name=caller.name
                    ):
                        raise GameError(T("This seat has changed hands since the offer was made."))
                    owed += await self._hand_over(db, spec, record, player, old.user_id, caller.name)
                    record = await db.games.load(game_id)
                    assert record is not None
                    owed += await notices.board(db, spec, record, [], [], await db.seats.followers(game_id))
                    owed += await notices.private(db, spec, record, {})
                await db.outbox.add(owed, now=now)
            self.forget(game_id)
        if not take:
            self.delivery.wake()
            return None
        record = await self.get(game_id)
        self._changed(record)
        message = notices.private_message(spec, record, player)
        return replace(message, content=words.linked(message.content, record))

    async def _hand_over(
        self, db: Unit, spec: GameSpec, record: GameRecord, player: int, old: int | None, newcomer: str
    ) -> list[Owed]:
        """A place changed hands: the former member's private message no longer shows it, and the newcomer's
        private messages start afresh."""
        kept = await db.outbox.marker(record.id, player, "hand_message")
        await db.outbox.forget_markers(record.id, player)
        if old is None or kept is None:
            return []
        note = T(
            "You handed your seat in {game} over to {name}; this view is no longer kept.",
            game=words.title(spec, record),
            name=words.shown(newcomer),
        )
        lane = outbox.dm_lane(record.id, old)
        return [outbox.edit_message(lane, int(kept), Message(note), user=old, game_id=record.id)]

    async def set_notify(self, user_id: int, on: bool) -> None:
        """Whether a member wants a direct message when it is their turn (``/games notify``)."""
        await self.store.settings.set_notify(user_id, on)

    # ------------------------------------------------------------------ languages

    async def seen(self, caller: Caller) -> None:
        """Remember the languages an interaction tells: the member's Discord language (their private
        messages sent later follow it) and their server's preferred locale. Written only when it changed."""
        lang = language(caller.locale)
        if caller.locale is not None and self._locales.get(caller.user_id) != lang:
            self._keep_locale(caller.user_id, lang)
            await self.store.settings.set_locale(caller.user_id, lang)
        if caller.guild_id is not None and caller.guild_locale is not None:
            preferred = language(caller.guild_locale)
            if self._preferred.get(caller.guild_id) != preferred:
                self._preferred[caller.guild_id] = preferred  # in force at once, before it is written
                await self.store.settings.set_guild_language(caller.guild_id, preferred=preferred)

    async def member_language(self, user_id: int) -> str:
        """The language of a member's private messages: their Discord language as last seen (English until
        the bot has seen one)."""
        kept = self._locales.get(user_id)
        if kept is None:
            kept = (await self.store.settings.locales([user_id])).get(user_id, ENGLISH)
        self._keep_locale(user_id, kept)
        return kept

    def _keep_locale(self, user_id: int, lang: str) -> None:
        self._locales[user_id] = lang
        self._locales.move_to_end(user_id)
        if len(self._locales) > LOCALES_KEPT:
            self._locales.popitem(last=False)

    async def guild_language(self, guild_id: int | None) -> str:
        """The language of a server's games in public: the one chosen with ``/games language``, else the
        server's preferred locale, else English. Kept for :data:`LANGUAGE_KEPT` seconds where processes
        share the store (one of them may change it)."""
        if guild_id is None:
            return ENGLISH
        kept = self._languages.get(guild_id)
        if kept is None or (self.store.shared and self.now() - kept[2] >= LANGUAGE_KEPT):
            chosen, preferred = await self.store.settings.guild_language(guild_id)
            kept = self._languages[guild_id] = (chosen or None, preferred, self.now())
        return language(kept[0] or self._preferred.get(guild_id) or kept[1] or ENGLISH)

    async def set_language(self, caller: Caller, code: str | None) -> str:
        """Set the language of the caller's server's games (``None``: follow the server's preferred locale),
        which a member with Manage Server may do; the language now in force."""
        may_set_language(caller)
        if code is not None and code not in LANGUAGES:
            raise GameError(T("I do not speak {language}.", language=code))
        await self.store.settings.set_guild_language(caller.guild_id, language=code or "")
        self._languages.pop(caller.guild_id, None)
        return await self.guild_language(caller.guild_id)

    # ------------------------------------------------------------------ records

    async def replay(self, game_id: int) -> dict[str, Any]:
        """Rebuild a game's state from its seed and action log (for audits and tests)."""
        from tables.records import replay

        record = await self.get(game_id)
        return replay(record, await self.store.games.actions(game_id))
