"""The arena: two AI levels play seeded games against each other, for ``bot.py arena``.

The levels sit at the seats alternately (a, b, a, …) and the pattern turns by one seat every game, so
both levels play from every seat; each deal is played in every turn of the pattern (game ``i`` has the
seed ``S-(i // players)``), so neither level is dealt the luckier hands.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Mapping
from typing import Any

from games.core import JSON, Action, Game, Player
from games.registry import GameSpec
from games.search import player_for
from games.simulate import play_game


class _Timed(Player):
    """A player that notes how long each of its decisions with a real choice takes."""

    def __init__(self, player: Player, times: list[float]) -> None:
        self.player = player
        self.times = times

    def choose(self, game: Game, state: JSON, seat: int, rng: random.Random) -> Action:
        started = time.perf_counter()
        action = self.player.choose(game, state, seat, rng)
        if len(game.legal_actions(state, seat)) > 1:
            self.times.append((time.perf_counter() - started) * 1000)
        return action


def seat_levels(levels: tuple[str, str], players: int, game: int) -> list[str]:
    """The level of each player in arena game number ``game``: alternately, turned by ``game`` seats."""
    return [levels[(s + game) % players % 2] for s in range(players)]


def _timing(times: list[float]) -> dict[str, Any]:
    if not times:
        return {"decisions": 0, "mean_ms": None, "p50_ms": None, "p99_ms": None}
    cuts = statistics.quantiles(times, n=100, method="inclusive") if len(times) > 1 else [times[0]] * 99
    return {
        "decisions": len(times),
        "mean_ms": round(statistics.fmean(times), 1),
        "p50_ms": round(cuts[49], 1),
        "p99_ms": round(cuts[98], 1),
    }


def arena(
    spec: GameSpec,
    levels: tuple[str, str],
    games: int,
    players: int = 2,
    options: Mapping[str, Any] | None = None,
    *,
    think_ms: int,
    seed: str = "arena",
    progress: Callable[[int, dict[str, float]], None] | None = None,
) -> dict[str, Any]:
    """Play ``games`` games between the two ``levels`` (different ones, from :data:`games.registry.LEVELS`);
    return the JSON summary ``bot.py arena`` prints: wins per level (a shared victory split between its
    winners), draws (games nobody won), and each level's decision times in milliseconds, counting the
    decisions that had more than one legal action. ``progress``, if given, is told after every game how many
    have been played and each level's wins so far."""
    times: dict[str, list[float]] = {level: [] for level in levels}
    ais = {level: _Timed(player_for(spec, level, think_ms), times[level]) for level in levels}
    wins = dict.fromkeys(levels, 0.0)
    draws = 0
    for i in range(games):
        seated = seat_levels(levels, players, i)
        run = play_game(spec.game, [ais[level] for level in seated], f"{seed}-{i // players}", options)
        if not run.winners:
            draws += 1
        for winner in run.winners:
            wins[seated[winner]] += 1 / len(run.winners)
        if progress is not None:
            progress(i + 1, dict(wins))
    return {
        "game": spec.kind,
        "games": games,
        "players": players,
        "levels": list(levels),
        "think_ms": think_ms,
        "seed": seed,
        "options": spec.game.resolve_options(options or {}),
        "wins": {level: round(w, 2) for level, w in wins.items()},
        "win_rate": {level: round(w / games, 3) for level, w in wins.items()},
        "draws": draws,
        "decision_time": {level: _timing(t) for level, t in times.items()},
    }
