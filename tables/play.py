"""Playing: a member's action, the AI's turns, time-outs and lapses, resigning and abandoning — each one
:class:`Change` committed the one way a game changes (:meth:`Play.commit`): the engine validates and applies
its moves, and one transaction stores the new state, the action log, the seats and every message the change
owes; a change that ends the game calls the end-of-game listeners (:mod:`tables.endings`) inside it.

Nothing the bot owes is sent fire and forget: the messages are outbox rows, delivered after the commit.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager, AbstractContextManager
from dataclasses import dataclass, field, replace
from typing import Any

from data.engine import Conflict
from data.games import Commit
from data.outbox import Entry, Owed
from data.store import GameRecord, Store, Unit
from games.core import Action, Event, IllegalAction, Termination
from games.i18n import T, seat_ref
from tables import attention, notices, outbox, words
from tables.authority import Caller, GameError, StaleBoard, may_abandon, may_decide, seated
from tables.cache import GameCache
from tables.config import Config
from tables.deadlines import deadlines
from tables.endings import Ended, Listener
from tables.locks import KeyedLocks
from tables.outbox import Message
from tables.results import after_resignation, ended_without_play, result_of
from tables.turns import Plan, Turn

log = logging.getLogger("tables.play")

Changed = Callable[[GameRecord, Sequence[Entry]], None]
"""Told of every committed change of a game (its record after it, the outbox rows it wrote): the delivery, the
clocks and the AI's turns look at it."""
Search = Callable[[GameRecord, int], Awaitable[Action]]
"""The hard AI's decision for an engine seat (the normal AI's when it cannot search)."""


@dataclass(frozen=True, slots=True)
class Applied:
    """An action that was accepted and committed: the game before and after, and what happened."""

    before: GameRecord
    record: GameRecord
    seat: int
    action: Action | None
    events: list[Event]
    answer: int | None = None
    """The outbox row the member's click may deliver as its answer (the update of the board they clicked)."""


@dataclass(frozen=True, slots=True)
class Change:
    """What one commit does to a game: engine ``moves``, or an ending the platform decides (``ended``)."""

    moves: Sequence[tuple[int, Action]] = ()
    member: tuple[int, int] | None = None
    """``(user_id, player)`` whose own decision this is: the store checks they still hold that place."""
    presence: tuple[int, int, bool] | None = None
    """A player's time-outs in a row and whether they are away, from now on."""
    trusted: bool = False
    """The platform's own moves (AI, lapses, time-outs), picked from the legal ones."""
    take_over: bool = False
    """A member's action takes the game's lease for this process; the platform's moves only while it runs it."""
    notes: Sequence[Event] = ()
    """Public lines before the moves' events."""
    resigned: int | None = None
    """The player who resigns (their seats are the AI's from now on)."""
    ended: tuple[str, dict[str, Any]] | None = None
    """The status and result the platform ends the game with (a resignation that leaves one team, an abandon)."""
    said: Sequence[str] = ()
    """Lines posted in the game's place (a resignation, an abandon)."""
    closed: bool = False
    """Ended by a member's decision to close it (an abandon): its thread is archived at once."""
    answered: bool = False
    """A click on the game's latest board: its update may be the click's answer."""


@dataclass
class Play:
    """The one way games change, in this process."""

    store: Store
    cache: GameCache
    config: Config
    now: Callable[[], float]
    locks: KeyedLocks
    search: Search
    changed: Changed
    answering: Callable[[], AbstractContextManager[None]]
    """Around a member's action: the hard AI's searches wait meanwhile (:meth:`tables.thinking.Thinker.answering`)."""
    listeners: list[Listener] = field(default_factory=list)
    """Called inside the commit that ends a game, in order (:mod:`tables.endings`)."""

    def lock(self, game_id: int) -> AbstractAsyncContextManager[None]:
        """Hold the game: one change at a time in this process."""
        return self.locks.hold(game_id)

    # ------------------------------------------------------------------ who changes a game

    async def act(
        self,
        caller: Caller,
        game_id: int,
        action_text: str,
        *,
        version: int | None = None,
        seat: int | None = None,
        answered: bool = False,
    ) -> Applied:
        """Apply a member's action for engine seat ``seat`` (the one the move was found for: a button, a picker,
        a label typed), checking the board ``version`` they acted on when given; the engine alone decides
        whether it is legal. Without a seat (an action's text as typed), for whichever of their seats may take
        it. Commits, with every message it owes, before returning. ``answered``: a click on the game's board,
        whose update may be the click's answer (:attr:`Applied.answer`)."""
        with self.answering():
            async with self.lock(game_id):
                before = await self.cache.reach(caller, game_id)
                game = self.cache.spec(before).game
                permit = may_decide(before, caller.user_id, version)
                try:
                    action = Action.decode(action_text)
                except IllegalAction as exc:
                    raise GameError(str(exc)) from exc
                if seat not in permit.seats:
                    legal = (s for s in permit.seats if action in game.legal_actions(before.state, s))
                    seat = next(legal, permit.seats[0])
                acting = seat
                player = before.seats[permit.player]
                presence = (player.seat, 0, False) if player.timeouts or player.away else None
                change = Change(
                    [(acting, action)], member=permit.member, presence=presence, take_over=True, answered=answered
                )
                return await self.commit(before, change)

    async def ai_turn(self, game_id: int, moves: int) -> Applied | None:
        """Up to ``moves`` decisions of the AI seats that must act now, committed together with one board;
        ``None`` if no AI seat must act, or another process runs the game now.

        A decision the hard AI searches is searched without holding the game, so that a member's resignation,
        substitution or abandon meanwhile need not wait for it; it is applied only if the game has not moved
        on since (else the position is looked at again)."""
        searched: tuple[int, int, Action] | None = None
        """A search's result: for the game's version and seat it was made on, the action."""
        while True:
            async with self.lock(game_id):
                before = await self.cache.get(game_id)
                if before.status != "active" or not self.cache.runs(before):
                    return None
                played, search = self._ai_moves(before, moves, searched)
                if played:
                    return await self.commit(before, Change(played, trusted=True))
                if search is None:
                    return None
            searched = (before.version, search, await self.search(before, search))

    def _ai_moves(
        self, before: GameRecord, moves: int, searched: tuple[int, int, Action] | None
    ) -> tuple[list[tuple[int, Action]], int | None]:
        """The AI's quick decisions from ``before`` (at most ``moves``), or the seat whose decision the hard AI
        must search first: it is searched alone, after the quick ones are committed (the board shows them
        while the AI thinks). ``searched`` is a search's result, used if it was made on this position."""
        spec = self.cache.spec(before)
        game, state, played = spec.game, before.state, []
        for _ in range(moves):
            seats = [] if game.is_over(state) else game.to_act(state)
            seats = [s for s in seats if before.seats[game.controller(state, s)].is_ai]
            if not seats:
                break
            seat = seats[0]
            if self.searches(before, state, seat):
                if not played and searched is not None and searched[:2] == (before.version, seat):
                    return [(seat, searched[2])], None
                return played, None if played else seat
            action = spec.player.choose(game, state, seat, game.rng(state))
            state = game.apply(state, seat, action, trusted=True, inplace=state is not before.state).state
            played.append((seat, action))
        return played, None

    def searches(self, record: GameRecord, state: dict[str, Any], seat: int) -> bool:
        """Whether the hard AI searches ``seat``'s decision: an AI seat of a game at ``hard`` with a real
        choice (away, resigned and timed-out members' seats are played at ``normal``)."""
        game = self.cache.spec(record).game
        return (
            record.ai_level == "hard"
            and record.seats[game.controller(state, seat)].user_id is None
            and len(game.legal_actions(state, seat)) > 1
        )

    async def time_out(self, game_id: int, seat: int, *, version: int) -> Applied | None:
        """The turn clock ran out for ``seat``'s decision on board ``version``: the AI decides for it, from what
        the seat may see, and the player's time-outs in a row are counted (two make them away). ``None`` if the
        decision was made meanwhile, or another process runs the game now."""
        async with self.lock(game_id):
            before = await self.cache.get(game_id)
            spec = self.cache.spec(before)
            game, state = spec.game, before.state
            if before.status != "active" or seat not in game.to_act(state) or not self.cache.runs(before):
                return None
            player = before.seats[game.controller(state, seat)]
            if game.since(state, seat) > version or player.is_ai:
                return None
            action = spec.player.choose(game, state, seat, game.rng(state))
            timeouts = player.timeouts + 1
            note = "⏰ " + T("{player}'s time ran out: the AI decided for them.", player=seat_ref(seat))
            if timeouts >= 2:
                note += " " + T(
                    "{player} is away now: the AI plays for them until they use the game again.", player=seat_ref(seat)
                )
            presence = (player.seat, timeouts, timeouts >= 2)
            return await self.commit(before, Change([(seat, action)], presence=presence, notes=[Event(note)]))

    async def lapse(self, game_id: int, *, version: int) -> Applied | None:
        """A decision the rules let lapse (``Game.lapse``) has waited its time since board ``version``: apply its
        lapse. ``None`` if it was decided meanwhile, or another process runs the game now."""
        async with self.lock(game_id):
            before = await self.cache.get(game_id)
            game = self.cache.spec(before).game
            lapse = game.lapse(before.state) if before.status == "active" else None
            if lapse is None or game.since(before.state, lapse.seat) > version or not self.cache.runs(before):
                return None
            return await self.commit(before, Change([(lapse.seat, lapse.action)], trusted=True))

    async def resign(self, caller: Caller, game_id: int) -> tuple[GameRecord, bool]:
        """Resign the caller's place: the AI plays all of their seats from now on. Returns the record and whether
        that ended the game: won by the one team still standing, or abandoned when no member is left playing."""
        async with self.lock(game_id):
            record = await self.cache.reach(caller, game_id)
            spec = self.cache.spec(record)
            player = seated(caller, record)
            if record.status != "active":
                raise GameError(T("This game is already over."))
            if record.seats[player].resigned:
                raise GameError(T("You have already resigned from this game."))
            seats = [replace(s, resigned=True) if s.seat == player else s for s in record.seats]
            result = after_resignation(spec.game, record.state, seats, player)
            name = words.shown(record.seats[player].name)
            if result is None:
                said = "🏳️ " + T("{name} resigned; the AI plays their seat for the rest of the game.", name=name)
                change = Change(member=(caller.user_id, player), resigned=player, said=[said])
            else:
                status = "finished" if result["reason"] == "resignation" else "abandoned"
                said = "🏳️ " + T("{name} resigned.", name=name)
                change = Change(member=(caller.user_id, player), resigned=player, ended=(status, result), said=[said])
            applied = await self.commit(record, change)
        return applied.record, result is not None

    async def abandon(self, caller: Caller, game_id: int) -> GameRecord:
        """End a game without a result (its host or a moderator), and close its thread at once."""
        async with self.lock(game_id):
            record = await self.cache.reach(caller, game_id)
            may_abandon(caller, record)
            if record.status != "active":
                raise GameError(T("This game is already over."))
            spec = self.cache.spec(record)
            name = words.shown(caller.name)
            result = ended_without_play([], T("Abandoned by {name}.", name=name), Termination.ABANDONED)
            said = "🏴 " + T("{game} was abandoned by {name}.", game=f"{spec.title} #{game_id}", name=name)
            change = Change(ended=("abandoned", result), said=[said], closed=True)
            return (await self.commit(record, change)).record

    async def close(self, game_id: int, result: dict[str, Any]) -> GameRecord:
        """End a game in progress for a reason of the platform's own (the bot left its server) with ``result``
        (who resigned and why, or nobody: abandoned), its thread closed at once."""
        async with self.lock(game_id):
            record = await self.cache.get(game_id)
            if record.status != "active":
                raise GameError(T("This game is already over."))
            status = "abandoned" if result["reason"] == "abandoned" else "finished"
            return (await self.commit(record, Change(ended=(status, result), closed=True))).record

    async def back(self, caller: Caller, record: GameRecord) -> GameRecord:
        """A member who was away used the game again: they play their seat themselves from now on."""
        player = record.seat_of(caller.user_id)
        if player is None or not record.seats[player].away:
            return record
        async with self.lock(record.id):
            await self.store.seats.set_presence(record.id, player, timeouts=0, away=False)
            self.cache.forget(record.id)
            record = await self.cache.get(record.id)
        self.changed(record, ())
        return record

    async def remind(self, game_id: int, seat: int, *, since: int) -> None:
        """Half the time for ``seat``'s decision (begun at step ``since``) is gone: mention its member in the
        thread, and DM them if they asked for reminders. Once per decision, even across a restart."""
        async with self.lock(game_id):
            record = await self.cache.get(game_id)
            spec = self.cache.spec(record)
            game, state = spec.game, record.state
            player = record.seats[game.controller(state, seat)]
            still = record.status == "active" and seat in game.to_act(state)
            if not still or game.since(state, seat) != since or player.user_id is None:
                return
            due = (await deadlines(self.store, record)).get(seat)
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
        self.changed(record, ())

    # ------------------------------------------------------------------ the one commit

    async def commit(self, before: GameRecord, change: Change) -> Applied:
        """Commit ``change`` of the game as ``before`` has it (the caller holds the game's lock), with every
        message it owes; a change that ends the game calls the end-of-game listeners in its transaction. The
        game's lease goes to this process (a member's action always; the platform's own moves only while it
        runs the game). :class:`StaleBoard` if the game moved on meanwhile: nothing was written."""
        # On SQLite the followers are read while the moves are applied, on the reading connection, outside the
        # one write lock (a member following just then gets this board or the next); on PostgreSQL in the
        # transaction, on its connection (from the pool beside it, each action took a second connection).
        reading = None
        if change.moves and not self.store.shared:
            reading = asyncio.ensure_future(self.store.seats.followers(before.id))
        try:
            record, events = self._after(before, change)
        except BaseException:
            if reading is not None:
                reading.cancel()
            raise
        spec = self.cache.spec(before)
        notified = attention.notified(spec, before, record, now=record.updated_at or 0.0)
        plan = None
        if change.moves:
            actor = change.member[0] if change.member else None
            plan = notices.turn_of(spec, before, record, events, actor=actor, now=record.updated_at or 0.0)
            record.turn = plan.turn.stored()
        followers = None if reading is None else await reading
        try:
            async with self.store.transaction() as db:
                stored = await self._write(db, before, record, change)
                owed, answer = await self._owed(db, before, record, change, events, plan, notified, followers)
                written = db.outbox.write_later(owed, now=record.updated_at or self.now())
        except Conflict:  # the game moved on, or the member lost their place: nothing was written
            self.cache.forget(before.id)
            raise StaleBoard(T("The game moved on while you were acting; look at the latest board.")) from None
        record = await self._remembered(before, record, change, stored)
        entries = written.entries
        self.changed(record, entries)
        seat, action = change.moves[-1] if change.moves else (change.resigned or 0, None)
        return Applied(before, record, seat, action, events, None if answer is None else entries[answer].id)

    def _after(self, before: GameRecord, change: Change) -> tuple[GameRecord, list[Event]]:
        """The game once ``change`` is applied (not stored yet), and the public and private events of its moves
        (:class:`GameError` for a move the engine refuses)."""
        spec = self.cache.spec(before)
        game = spec.game
        state, events = before.state, list(change.notes)
        try:
            for seat, action in change.moves:
                step = game.apply(state, seat, action, trusted=change.trusted, inplace=state is not before.state)
                state = step.state
                events += step.events
        except IllegalAction as exc:
            raise GameError(str(exc)) from exc
        status, result = change.ended or ("active", None)
        if change.moves and (outcome := game.outcome(state)) is not None:
            status, result = "finished", result_of(game, state, outcome, before.seats)
        now = self.now()
        seats = before.seats
        if change.presence is not None or change.member is not None or change.resigned is not None:
            seats = [replace(s) for s in seats]
            if change.presence is not None:
                number, timeouts, away = change.presence
                seats[number].timeouts, seats[number].away = timeouts, away
            if change.member is not None and change.moves:
                seats[change.member[1]].acted_at = now
            if change.resigned is not None:
                seats[change.resigned].resigned = True
        # A new record object: callers holding the old one keep a consistent snapshot.
        record = replace(
            before,
            state=state,
            version=before.version + len(change.moves) + (0 if change.moves or not change.ended else 1),
            status=status,
            result=result,
            seats=seats,
            ended_at=None if status == "active" else now,
            updated_at=now,
            runner=self.config.runner,
            runner_until=now + self.config.lease,
            last_member=change.member[0] if change.member and change.moves else before.last_member,
        )
        return record, events

    async def _write(self, db: Unit, before: GameRecord, record: GameRecord, change: Change) -> Any:
        """The change's conditional writes, in transaction ``db``: the moves only over the version they were
        applied to (a :class:`Conflict` otherwise); a resignation only by the seat's member, once; an ending
        only of an active game."""
        if change.resigned is not None:
            user_id = change.member[0] if change.member else 0
            if not await db.seats.resign(before.id, change.resigned, user_id=user_id):
                raise GameError(T("You have already resigned from this game."))
        if change.moves:
            actions = [(s, a.encode()) for s, a in change.moves]
            step = Commit(
                actions, record.state, record.status, record.result, change.member, change.presence, record.turn
            )
            return db.games.commit(
                before.id,
                expected_version=before.version,
                step=step,
                now=record.updated_at or 0.0,
                runner=self.config.runner,
                lease_until=record.runner_until,
                take_over=change.take_over,
            )
        if change.ended is not None:
            status, result = change.ended
            if not await db.games.finish(before.id, status=status, result=result, now=record.updated_at or 0.0):
                raise GameError(T("This game is already over."))
        return None

    async def _owed(
        self,
        db: Unit,
        before: GameRecord,
        record: GameRecord,
        change: Change,
        events: list[Event],
        plan: Plan | None,
        notified: list[int],
        followers: list[int] | None,
    ) -> tuple[list[Owed], int | None]:
        """What the change owes: its lines, the board and private views after moves (``plan`` says how the thread
        shows them), and once the game is over what every end-of-game listener owes; and which of them the
        member's click may deliver as its answer."""
        spec = self.cache.spec(record)
        owed: list[Owed] = [outbox.to_place(record.id, Message(line)) for line in change.said]
        answer = None
        turn = Turn.of(before.turn)
        told, strip = turn.carried, turn.open
        if plan is not None:
            if followers is None:
                followers = await db.seats.followers(before.id)
            now = record.updated_at or self.now()
            shown = await notices.board(
                db, spec, before, record, plan, notified, followers, answered=change.answered, now=now
            )
            answer = None if shown.answer is None else len(owed) + shown.answer
            owed += shown.owed
            owed.append(notices.privates(spec, record, events))
            told, strip = plan.final, plan.strip
        if record.status != "active":
            ended = Ended(spec, record, record.ended_at or self.now(), closed=change.closed, told=told, strip=strip)
            for listener in self.listeners:
                owed += await listener(db, ended)
        return owed, answer

    async def _remembered(self, before: GameRecord, record: GameRecord, change: Change, stored: Any) -> GameRecord:
        """The committed record, cached. A change with moves is known whole (its revision from the store);
        another (a resignation, an ending without a move) is read again."""
        if not change.moves:
            self.cache.forget(before.id)
            return await self.cache.get(before.id)
        record.revision = stored.rows[0]["revision"]
        cached = self.cache.cached(before.id)
        if cached is not None:
            # The commit does not write where the game is played; the delivery may have, meanwhile, outside the
            # game's lock (its thread opened, its latest board posted: on the cached record). Kept: a 6-player
            # Sea Rats! table, whose AI moved while its thread opened, went on in the channel.
            record.thread_id, record.message_id = cached.thread_id, cached.message_id
            record.board_turn = cached.board_turn
        self.cache.remember(record)
        return record
