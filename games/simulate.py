"""Engine-level self-play: AI-versus-AI games with invariant checks, for `bot.py simulate`, the
benchmarks and the random-play tests."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.core import JSON, Game, Player


def next_actor(game: Game, state: JSON, rng: random.Random) -> int:
    """The seat a driver acts for next: one of the seats that must act, in a seeded random order, so that
    self-play, tests, the demo and the benchmark exercise simultaneous decisions in every order."""
    seats = game.to_act(state)
    return seats[0] if len(seats) == 1 else rng.choice(seats)


def self_play(
    game: Game, player: Player, seats: int, seed: str, options: Mapping[str, Any] | None = None
) -> Iterator[JSON]:
    """The states of one game that ``player`` plays for every seat, from setup to the end (in place: each
    yielded state is changed by the next step; copy it to keep it)."""
    state = game.new_game(seats, options, seed)
    rng = random.Random(f"{seed}/drive")
    yield state
    while not game.is_over(state):
        seat = next_actor(game, state, rng)
        action = player.choose(game, state, seat, game.rng(state))
        state = game.apply(state, seat, action, inplace=True, trusted=True).state
        yield state


@dataclass(slots=True)
class GameRun:
    """One finished self-play game."""

    actions: int
    winners: tuple[int, ...]
    """The winning players (a player may command several seats: a fleet)."""
    scores: tuple[int, ...]
    violations: list[str] = field(default_factory=list)


def play_game(
    game: Game,
    players: Sequence[Player],
    seed: str,
    options: Mapping[str, Any] | None = None,
    *,
    check: bool = False,
    max_actions: int = 20_000,
) -> GameRun:
    """Play one game to the end. With ``check``, every step is validated (pure apply, invariants,
    legal actions non-empty for every seat to act); otherwise the fast in-place path is used."""
    state = game.new_game(len(players), options, seed)
    rng = random.Random(f"{seed}/players")
    violations: list[str] = []
    actions = 0
    while (outcome := game.outcome(state)) is None:
        if actions >= max_actions:
            violations.append(f"seed {seed}: no end after {max_actions} actions")
            return GameRun(actions, (), (), violations)
        to_act = game.to_act(state)
        if not to_act:
            violations.append(f"seed {seed} step {state['step']}: nobody to act but the game is not over")
            return GameRun(actions, (), (), violations)
        seat = to_act[0] if len(to_act) == 1 else rng.choice(to_act)
        if check and not game.legal_actions(state, seat):
            violations.append(f"seed {seed} step {state['step']}: seat {seat} must act but has no move")
            return GameRun(actions, (), (), violations)
        action = players[game.controller(state, seat)].choose(game, state, seat, rng)
        # Checked games also prove the AI picks only legal actions: the engine verifies each one.
        state = game.apply(state, seat, action, inplace=not check, trusted=not check).state
        actions += 1
        if check:
            violations.extend(f"seed {seed} step {state['step']}: {v}" for v in game.check_invariants(state))
    winners = tuple(sorted({game.controller(state, s) for s in outcome.winners}))
    return GameRun(actions, winners, outcome.scores, violations)


def simulate(
    game: Game,
    players: Sequence[Player],
    games: int,
    seed: str = "0",
    options: Mapping[str, Any] | None = None,
    *,
    check: bool = True,
) -> dict[str, Any]:
    """Play ``games`` seeded games; return the JSON summary printed by ``bot.py simulate``."""
    seats = len(players)
    wins = [0.0] * seats
    total_actions = 0
    violations: list[str] = []
    started = time.perf_counter()
    for i in range(games):
        run = play_game(game, players, f"{seed}-{i}", options, check=check)
        total_actions += run.actions
        violations.extend(run.violations)
        for w in run.winners:
            wins[w] += 1 / len(run.winners)  # a shared victory counts as a fraction of a win
    elapsed = time.perf_counter() - started
    return {
        "game": game.kind,
        "games": games,
        "players": seats,
        "mean_actions": round(total_actions / games, 2) if games else 0,
        "wins": [round(w, 2) for w in wins],
        "games_per_s": round(games / elapsed, 1) if elapsed else None,
        "violations": len(violations),
        "violation_examples": violations[:5],
    }
