"""The game service: load a game, let the engine validate and apply an action, commit it.

No Discord here: the cogs call this with user ids and action text, and turn its errors into ephemeral
replies. One asyncio lock per game serialises actions inside this process; the store's version check
protects against everything else (a second process, a stale snapshot).

Several processes (shards) on one PostgreSQL: a cached game is checked against the database's revision
before it is trusted, and each active game has one *runner*, the process holding its lease, which alone
runs its AI turns and clocks. A member's action hands the lease to the process that applied it; a
process renews its leases while it lives (:mod:`cogs.runner`), and another takes a game over once its
lease ran out.

Players and seats: a stored game has one :class:`SeatRecord` per *player* (a member or an AI), while
the engine moves *seats* (rats, ships, hands). :meth:`Game.controller` says which player decides for a
seat; most games have one seat per player, Sea Rats! gives a player a fleet.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from collections import OrderedDict
from collections.abc import AsyncIterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, replace
from typing import Any

from data.store import GameRecord, SeatRecord, Store
from games.core import Action, Event, Game, IllegalAction, Outcome, Termination
from games.registry import GAMES, GameSpec


class GameError(Exception):
    """An expected problem with a user's request; ``str(exc)`` is shown to that user only."""


class NotSeated(GameError):
    pass


class NotYourTurn(GameError):
    pass


class StaleBoard(GameError):
    pass


@dataclass(slots=True)
class Applied:
    """An action that was accepted and committed: the game before and after, and what happened."""

    before: GameRecord
    record: GameRecord
    seat: int
    action: Action
    events: list[Event]


def seed_digest(seed: str) -> str:
    """The SHA-256 posted when a game starts, so players can verify the shuffle once the seed is revealed."""
    return hashlib.sha256(seed.encode()).hexdigest()


# ---------------------------------------------------------------------------------------------- seats


def seat_owners(game: Game, state: dict[str, Any]) -> list[int]:
    """The player deciding for each seat."""
    return [game.controller(state, s) for s in range(state["seats"])]


def seat_names(game: Game, record: GameRecord) -> list[str]:
    """A display name per engine seat (its controller's), for ``{pN}`` in engine text and for renderers."""
    names = record.names
    return [names[p] for p in seat_owners(game, record.state)]


def players_out(game: Game, record: GameRecord) -> set[int]:
    """Players who have no seat left in the game (every seat they control is out)."""
    out = game.out(record.state)
    owners = seat_owners(game, record.state)
    playing = {owners[s] for s in range(len(owners)) if s not in out}
    return {p.seat for p in record.seats if p.seat not in playing}


def seats_of(game: Game, state: dict[str, Any], player: int) -> list[int]:
    """Every seat ``player`` decides for (one, or a fleet)."""
    return [s for s in range(state["seats"]) if game.controller(state, s) == player]


def deciding(game: Game, record: GameRecord, player: int) -> list[int]:
    """The seats ``player`` must decide for now, in the engine's order."""
    state = record.state
    return [s for s in game.to_act(state) if game.controller(state, s) == player]


# ---------------------------------------------------------------------------------------------- results


def result_of(game: Game, state: dict[str, Any], outcome: Outcome, players: Sequence[SeatRecord]) -> dict[str, Any]:
    """The stored result of a finished game, per team. Resigned players cannot win: their seats are never
    winners, and a team whose players all resigned is out of the running; if that leaves no winning
    team, the best-scoring team still standing wins (ties shared). A game the engine ends without a
    winner (a draw with nobody left) has none."""
    resigned = {p.seat for p in players if p.resigned}
    owners = seat_owners(game, state)
    teams = game.teams(state)

    def standing(team: tuple[int, ...]) -> bool:
        return any(owners[s] not in resigned for s in team)

    winning = [t for t in teams if standing(t) and any(s in outcome.winners for s in t)]
    if not winning and outcome.winners and outcome.scores:
        # The engine's winners all resigned: the best of the teams still standing win instead.
        alive = [t for t in teams if standing(t)]
        if alive:
            best = max(max(outcome.scores[s] for s in t) for t in alive)
            winning = [t for t in alive if max(outcome.scores[s] for s in t) == best]
    winners = sorted(s for t in winning for s in t if owners[s] not in resigned)
    return {
        "winners": winners,
        "scores": list(outcome.scores),
        "summary": outcome.summary,
        "reason": outcome.termination.name.lower(),
    }


def ended_without_play(winners: Sequence[int], summary: str, termination: Termination) -> dict[str, Any]:
    """The stored result of a game ended by resignation or abandonment."""
    return {"winners": list(winners), "scores": [], "summary": summary, "reason": termination.name.lower()}


# ---------------------------------------------------------------------------------------------- service


CACHED_GAMES = 1000
"""Game records kept in memory (the most recently used; the others are read from the store again)."""
LEASE = 30.0
"""Seconds a process's lease on a game lasts unless renewed (see :mod:`cogs.runner`)."""


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
    """Creates games and applies actions to them. Keeps the latest records of the most recently used games
    in memory, so memory does not grow with every game ever played.

    ``runner`` names this process among those sharing the store (its leases carry the name; a process
    restarted under the same name takes its games back at once); ``lease``: seconds a lease lasts."""

    def __init__(
        self,
        store: Store,
        *,
        seed: str | None = None,
        cached: int = CACHED_GAMES,
        runner: str = "main",
        lease: float = LEASE,
    ) -> None:
        self.store = store
        self.runner = runner
        self.lease = lease
        self._seed = seed
        self._seeded = 0
        self.locks = KeyedLocks()
        self._cache: OrderedDict[int, GameRecord] = OrderedDict()
        self._cached = cached

    def spec(self, record: GameRecord) -> GameSpec:
        return GAMES[record.kind]

    def lock(self, game_id: int) -> AbstractAsyncContextManager[None]:
        """Hold the game: one action (or seat change) at a time in this process."""
        return self.locks.hold(game_id)

    def runs(self, record: GameRecord, now: float) -> bool:
        """Whether this process may run the game's AI turns and clocks: it holds the lease, or nobody
        does. (The store has the last word: a commit under a lease that was lost is refused.)"""
        return record.runner in (None, self.runner) or record.runner_until < now

    async def get(self, game_id: int) -> GameRecord:
        """The game's latest record: from memory, once checked against the database's revision when other
        processes share the store."""
        record = self._cache.get(game_id)
        if record is not None and self.store.shared and await self.store.revision(game_id) != record.revision:
            record = None  # another process wrote to it since: read it again
        if record is None:
            record = await self.store.load_game(game_id)
            if record is None:
                raise GameError(f"There is no game #{game_id}.")
            self._remember(record)
        else:
            self._cache.move_to_end(game_id)
        return record

    def _remember(self, record: GameRecord) -> None:
        """Cache a record as the most recently used; forget the least recently used games beyond the limit."""
        self._cache[record.id] = record
        self._cache.move_to_end(record.id)
        while len(self._cache) > self._cached:
            self._cache.popitem(last=False)

    async def set_place(self, game_id: int, *, thread_id: int | None = None, message_id: int | None = None) -> None:
        """Record the game's thread or latest board message, in the store and the cached record."""
        revision = await self.store.set_place(game_id, thread_id=thread_id, message_id=message_id)
        record = self._cache.get(game_id)
        if record is not None and revision is not None:
            if thread_id is not None:
                record.thread_id = thread_id
            if message_id is not None:
                record.message_id = message_id
            # Exact: the store returned the revision this write made (any write by another process in
            # between makes it differ from what this copy saw, and the next get reads the game again).
            record.revision = revision if revision == record.revision + 1 else -1

    async def claim(self, game_id: int, *, now: float) -> bool:
        """Take the game's lease for this process if nobody else holds it (see :meth:`runs`)."""
        claimed = await self.store.claim_game(game_id, self.runner, until=now + self.lease, now=now)
        self.forget(game_id)
        return claimed

    def forget(self, game_id: int) -> None:
        self._cache.pop(game_id, None)

    async def create(
        self,
        kind: str,
        *,
        seats: Sequence[SeatRecord],
        options: dict[str, Any],
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        now: float,
        seed: str | None = None,
        clock: int = 0,
    ) -> GameRecord:
        """A new game for ``seats`` (one record per player, members and AIs), with a turn clock of
        ``clock`` seconds per decision (0: none)."""
        spec = GAMES[kind]
        seed = seed or self._next_seed()
        try:
            state = spec.game.new_game(len(seats), options, seed)
        except IllegalAction as exc:
            raise GameError(str(exc)) from exc
        game_id = await self.store.create_game(
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
            runner=self.runner,
            lease_until=now + self.lease,
        )
        return await self.get(game_id)

    def _next_seed(self) -> str:
        if self._seed is None:
            return secrets.token_hex(16)
        self._seeded += 1
        return self._seed if self._seeded == 1 else f"{self._seed}-{self._seeded}"

    async def games_here(self, place_id: int, user_id: int | None = None) -> list[GameRecord]:
        """The active games played in a thread or channel (newest first); with ``user_id``, only those
        that user plays in."""
        records = [await self.get(g) for g in await self.store.games_in_place(place_id)]
        if user_id is not None:
            records = [r for r in records if r.seat_of(user_id) is not None]
        return records

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
            raise GameError(f"{spec.title} #{record.id} is over.")
        if user_id is not None:
            player = record.seat_of(user_id)
            if player is None:
                raise NotSeated(f"You are not playing in {spec.title} #{record.id}.")
            if record.seats[player].resigned:
                raise NotSeated("You resigned from this game; the AI plays your seat now.")
            if player in players_out(game, record):
                raise NotYourTurn("You are out of this game; the others play on.")
            seats = deciding(game, record, player)
        else:
            assert seat is not None
            seats = [seat] if seat in game.to_act(state) else []
        if version is not None:
            since = state.get("since") or [record.version] * state["seats"]
            fresh = [s for s in seats if since[s] <= version <= record.version]
            if version != record.version and not fresh:
                raise StaleBoard("That board is out of date: use the buttons on the latest board message.")
            seats = fresh
        if not seats:
            names = seat_names(game, record)
            waiting = ", ".join(dict.fromkeys(names[s] for s in game.to_act(state)))
            raise NotYourTurn(f"It is not your turn: waiting for {waiting}.")
        return seats

    async def act(
        self,
        game_id: int,
        action_text: str,
        *,
        now: float,
        user_id: int | None = None,
        seat: int | None = None,
        version: int | None = None,
    ) -> Applied:
        """Apply an action for a user (``user_id``: whichever of their seats may take it) or an AI seat
        (``seat``), checking the board ``version`` the user acted on when given. Commits before returning."""
        async with self.lock(game_id):
            before = await self.get(game_id)
            spec = self.spec(before)
            seats = self.seats_to_act(before, user_id=user_id, seat=seat, version=version)
            try:
                action = Action.decode(action_text)
                acting = next((s for s in seats if action in spec.game.legal_actions(before.state, s)), seats[0])
            except IllegalAction as exc:
                raise GameError(str(exc)) from exc
            presence = None
            if user_id is not None:
                player = before.seats[spec.game.controller(before.state, acting)]
                if player.timeouts or player.away:
                    presence = (player.seat, 0, False)  # the member is here: their clock count starts afresh
            return await self._commit(before, acting, action, now=now, presence=presence, take_over=user_id is not None)

    async def time_out(self, game_id: int, seat: int, *, version: int, now: float) -> Applied | None:
        """The turn clock ran out for ``seat``'s decision on board ``version``: the AI decides for it, from
        what the seat may see, and the player's time-outs in a row are counted (two make them away).
        ``None`` if the decision was made meanwhile, or another process runs the game now."""
        async with self.lock(game_id):
            before = await self.get(game_id)
            spec = self.spec(before)
            game, state = spec.game, before.state
            if before.status != "active" or seat not in game.to_act(state) or not self.runs(before, now):
                return None
            since = state.get("since") or [0] * state["seats"]
            player = before.seats[game.controller(state, seat)]
            if since[seat] > version or player.is_ai:
                return None
            action = spec.player.choose(game, state, seat, game.rng(state))
            timeouts = player.timeouts + 1
            return await self._commit(before, seat, action, now=now, presence=(player.seat, timeouts, timeouts >= 2))

    async def lapse(self, game_id: int, *, version: int, now: float) -> Applied | None:
        """A decision the rules let lapse (``Game.lapse``) has waited its time since board ``version``:
        apply its lapse. ``None`` if it was decided meanwhile, or another process runs the game now."""
        async with self.lock(game_id):
            before = await self.get(game_id)
            game = self.spec(before).game
            lapse = game.lapse(before.state) if before.status == "active" else None
            since = before.state.get("since") or [0] * before.state["seats"]
            if lapse is None or since[lapse.seat] > version or not self.runs(before, now):
                return None
            return await self._commit(before, lapse.seat, lapse.action, now=now, presence=None, trusted=True)

    async def _commit(
        self,
        before: GameRecord,
        seat: int,
        action: Action,
        *,
        now: float,
        presence: tuple[int, int, bool] | None,
        trusted: bool = False,
        take_over: bool = False,
    ) -> Applied:
        """Apply and commit one action (the caller holds the game's lock); ``presence`` updates a player's
        time-outs and away flag in the same transaction; ``trusted``: the platform's own action (a lapse).
        The commit takes the game's lease for this process: a member's action always (``take_over``), the
        platform's own actions only while this process may run the game (:meth:`runs`)."""
        spec = self.spec(before)
        try:
            step = spec.game.apply(before.state, seat, action, trusted=trusted)
        except IllegalAction as exc:
            raise GameError(str(exc)) from exc
        outcome = spec.game.outcome(step.state)
        status = "active" if outcome is None else "finished"
        result = result_of(spec.game, step.state, outcome, before.seats) if outcome else None
        revision = await self.store.commit_action(
            before.id,
            expected_version=before.version,
            seat=seat,
            action=action.encode(),
            state=step.state,
            now=now,
            status=status,
            result=result,
            presence=presence,
            runner=self.runner,
            lease_until=now + self.lease,
            take_over=take_over,
        )
        if revision is None:
            self.forget(before.id)
            raise StaleBoard("The game moved on while you were acting; look at the latest board.")
        seats = before.seats
        if presence is not None:
            number, timeouts, away = presence
            seats = [replace(s, timeouts=timeouts, away=away) if s.seat == number else s for s in seats]
        # A new record object: callers holding the old one keep a consistent snapshot.
        record = replace(
            before,
            state=step.state,
            version=before.version + 1,
            status=status,
            result=result,
            seats=seats,
            ended_at=None if status == "active" else now,
            updated_at=now,
            revision=revision,
            runner=self.runner,
            runner_until=now + self.lease,
        )
        self._remember(record)
        return Applied(before, record, seat, action, step.events)

    async def back(self, record: GameRecord, user_id: int) -> GameRecord:
        """A member who was away used the game again: they play their seat themselves from now on."""
        player = record.seat_of(user_id)
        if player is None or not record.seats[player].away:
            return record
        async with self.lock(record.id):
            await self.store.set_presence(record.id, player, timeouts=0, away=False)
            self.forget(record.id)
            return await self.get(record.id)

    async def substitute(self, game_id: int, player: int, *, user_id: int, name: str) -> GameRecord:
        """Hand a place at the table to another member: they play it (and see its private view) from now
        on; its former player no longer can. A member already at the table cannot take a second place,
        except in games that give players several seats."""
        async with self.lock(game_id):
            record = await self.get(game_id)
            spec = self.spec(record)
            if record.status != "active":
                raise GameError("This game is over.")
            if not 0 <= player < len(record.seats):
                raise GameError("There is no such seat in this game.")
            game = spec.game
            fleets = game.seat_count(len(record.seats), record.options) > len(record.seats)
            if record.seat_of(user_id) is not None and not fleets:
                raise GameError("That member already plays in this game.")
            if not await self.store.substitute(game_id, player, user_id=user_id, name=name):
                raise GameError("That member already holds this seat.")
            self.forget(game_id)
            return await self.get(game_id)

    async def resign(self, game_id: int, user_id: int, *, now: float) -> tuple[GameRecord, bool]:
        """Resign a user's place: the AI plays all of their seats from now on. Returns the record and
        whether that ended the game: won by the one team still standing, or abandoned when no member is
        left playing."""
        async with self.lock(game_id):
            record = await self.get(game_id)
            spec = self.spec(record)
            player = record.seat_of(user_id)
            if player is None:
                raise NotSeated(f"You are not playing in {spec.title} #{game_id}.")
            if record.status != "active":
                raise GameError("This game is already over.")
            if record.seats[player].resigned:
                raise GameError("You have already resigned from this game.")
            await self.store.resign_seat(game_id, player)
            record.seats[player].resigned = True
            game, state = spec.game, record.state
            owners = seat_owners(game, state)
            gone = {p.seat for p in record.seats if p.resigned} | players_out(game, record)
            teams = [t for t in game.teams(state) if any(owners[s] not in gone for s in t)]
            humans = [p for p in record.seats if p.user_id is not None and p.seat not in gone]
            if len(teams) > 1 and humans:
                return record, False
            summary = f"{record.seats[player].name} resigned."
            if len(teams) == 1:
                winners = [s for s in teams[0] if owners[s] not in gone]
                result = ended_without_play(winners, summary, Termination.RESIGNATION)
                status = "finished"
            else:
                result = ended_without_play([], summary, Termination.ABANDONED)
                status = "abandoned"
            await self.store.finish_game(game_id, status=status, result=result, now=now)
            self.forget(game_id)
            return await self.get(game_id), True

    async def abandon(self, game_id: int, *, by: str, now: float) -> GameRecord:
        async with self.lock(game_id):
            record = await self.get(game_id)
            if record.status != "active":
                raise GameError("This game is already over.")
            result = ended_without_play([], f"Abandoned by {by}.", Termination.ABANDONED)
            await self.store.finish_game(game_id, status="abandoned", result=result, now=now)
            self.forget(game_id)
            return await self.get(game_id)

    async def replay(self, game_id: int) -> dict[str, Any]:
        """Rebuild a game's state from its seed and action log (for audits and tests)."""
        record = await self.get(game_id)
        game = self.spec(record).game
        state = game.new_game(len(record.seats), record.options, record.seed)
        for _seq, seat, text in await self.store.actions(game_id):
            # A lapse is the platform's own action, never a legal move: replay it as it was applied.
            lapse = game.lapse(state)
            trusted = lapse is not None and lapse.seat == seat and lapse.action == Action.decode(text)
            state = game.apply(state, seat, text, inplace=True, trusted=trusted).state
        return state
