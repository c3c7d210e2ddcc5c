"""The game service: load a game, let the engine validate and apply an action, commit it.

No Discord here: the cogs call this with user ids and action text, and turn its errors into ephemeral
replies. One asyncio lock per game serialises actions inside this process; the store's version check
protects against everything else (a second process, a stale snapshot).
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from data.store import GameRecord, SeatRecord, Store
from games.core import Action, Event, IllegalAction, Outcome
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
    """An action that was accepted and committed."""

    record: GameRecord
    seat: int
    action: Action
    events: list[Event]


def seed_digest(seed: str) -> str:
    """The SHA-256 posted when a game starts, so players can verify the shuffle once the seed is revealed."""
    return hashlib.sha256(seed.encode()).hexdigest()


def result_of(outcome: Outcome, seats: Sequence[SeatRecord]) -> dict[str, Any]:
    """The stored result of a finished game. Resigned seats cannot win: if the engine's winners all
    resigned, the best-scoring seats still in the game win instead."""
    resigned = {s.seat for s in seats if s.resigned}
    winners = [w for w in outcome.winners if w not in resigned]
    if not winners:
        standing = [s.seat for s in seats if s.seat not in resigned]
        if standing:
            best = max(outcome.scores[s] for s in standing)
            winners = [s for s in standing if outcome.scores[s] == best]
    return {"winners": winners, "scores": list(outcome.scores), "summary": outcome.summary}


class Tables:
    """Creates games and applies actions to them. Keeps the latest record of each game in memory."""

    def __init__(self, store: Store, *, seed: str | None = None) -> None:
        self.store = store
        self._seed = seed
        self._seeded = 0
        self._locks: dict[int, asyncio.Lock] = {}
        self._cache: dict[int, GameRecord] = {}

    def spec(self, record: GameRecord) -> GameSpec:
        return GAMES[record.kind]

    def lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    async def get(self, game_id: int) -> GameRecord:
        record = self._cache.get(game_id)
        if record is None:
            record = await self.store.load_game(game_id)
            if record is None:
                raise GameError(f"There is no game #{game_id}.")
            self._cache[game_id] = record
        return record

    async def set_place(self, game_id: int, *, thread_id: int | None = None, message_id: int | None = None) -> None:
        """Record the game's thread or latest board message, in the store and the cached record."""
        await self.store.set_place(game_id, thread_id=thread_id, message_id=message_id)
        record = self._cache.get(game_id)
        if record is not None:
            if thread_id is not None:
                record.thread_id = thread_id
            if message_id is not None:
                record.message_id = message_id

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
    ) -> GameRecord:
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
        )
        return await self.get(game_id)

    def _next_seed(self) -> str:
        if self._seed is None:
            return secrets.token_hex(16)
        self._seeded += 1
        return self._seed if self._seeded == 1 else f"{self._seed}-{self._seeded}"

    def seat_to_act(
        self, record: GameRecord, *, user_id: int | None = None, seat: int | None = None, version: int | None = None
    ) -> int:
        """The seat a user (``user_id``) or an AI (``seat``) acts for, if it may act now on the board
        ``version`` it saw; otherwise the specific reason as a :class:`GameError`."""
        spec = self.spec(record)
        if record.status != "active":
            raise GameError(f"{spec.title} #{record.id} is over.")
        if user_id is not None:
            seat = record.seat_of(user_id)
            if seat is None:
                raise NotSeated(f"You are not playing in {spec.title} #{record.id}.")
            if record.seats[seat].resigned:
                raise NotSeated("You resigned from this game; the AI plays your seat now.")
        assert seat is not None
        if version is not None and version != record.version:
            raise StaleBoard("That board is out of date: use the buttons on the latest board message.")
        to_act = spec.game.to_act(record.state)
        if seat not in to_act:
            waiting = ", ".join(record.seats[s].name for s in to_act)
            raise NotYourTurn(f"It is not your turn: waiting for {waiting}.")
        return seat

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
        """Apply an action for a user (``user_id``) or an AI seat (``seat``), checking the board
        ``version`` the user acted on when given. Commits before returning."""
        async with self.lock(game_id):
            record = await self.get(game_id)
            spec = self.spec(record)
            seat = self.seat_to_act(record, user_id=user_id, seat=seat, version=version)
            try:
                step = spec.game.apply(record.state, seat, action_text)
            except IllegalAction as exc:
                raise GameError(str(exc)) from exc
            outcome = spec.game.outcome(step.state)
            status = "active" if outcome is None else "finished"
            result = result_of(outcome, record.seats) if outcome else None
            action = Action.decode(action_text)
            if not await self.store.commit_action(
                game_id,
                expected_version=record.version,
                seat=seat,
                action=action.encode(),
                state=step.state,
                now=now,
                status=status,
                result=result,
            ):
                self.forget(game_id)
                raise StaleBoard("The game moved on while you were acting; look at the latest board.")
            # A new record object: callers holding the old one keep a consistent snapshot.
            record = replace(record, state=step.state, version=record.version + 1, status=status, result=result)
            self._cache[game_id] = record
            return Applied(record, seat, action, step.events)

    async def resign(self, game_id: int, user_id: int, *, now: float) -> tuple[GameRecord, bool]:
        """Resign a user's seat. Returns the record and whether that ended the game (only one seat left
        standing wins); otherwise the AI plays the resigned seat from now on."""
        async with self.lock(game_id):
            record = await self.get(game_id)
            seat = record.seat_of(user_id)
            if seat is None:
                raise NotSeated(f"You are not playing in {self.spec(record).title} #{game_id}.")
            if record.status != "active":
                raise GameError("This game is already over.")
            if record.seats[seat].resigned:
                raise GameError("You have already resigned from this game.")
            await self.store.resign_seat(game_id, seat)
            record.seats[seat].resigned = True
            standing = [s.seat for s in record.seats if not s.resigned]
            humans = [s for s in record.seats if s.user_id is not None and not s.resigned]
            if len(standing) == 1 or not humans:
                result = {
                    "winners": standing if len(standing) == 1 else [],
                    "scores": [],
                    "summary": f"{record.seats[seat].name} resigned.",
                }
                status = "finished" if len(standing) == 1 else "abandoned"
                await self.store.finish_game(game_id, status=status, result=result, now=now)
                self.forget(game_id)
                record = await self.get(game_id)
                return record, True
            return record, False

    async def abandon(self, game_id: int, *, by: str, now: float) -> GameRecord:
        async with self.lock(game_id):
            record = await self.get(game_id)
            if record.status != "active":
                raise GameError("This game is already over.")
            await self.store.finish_game(
                game_id,
                status="abandoned",
                result={"winners": [], "scores": [], "summary": f"Abandoned by {by}."},
                now=now,
            )
            self.forget(game_id)
            return await self.get(game_id)

    async def replay(self, game_id: int) -> dict[str, Any]:
        """Rebuild a game's state from its seed and action log (for audits and tests)."""
        record = await self.get(game_id)
        game = self.spec(record).game
        state = game.new_game(len(record.seats), record.options, record.seed)
        for _seq, seat, action in await self.store.actions(game_id):
            state = game.apply(state, seat, action, inplace=True).state
        return state
