"""The Sea Rats! AI commands whole fleets and beats a random commander: at least 90% of seeded 2-player
games (fleets of three ships), and 4-player games against three random players. Every choice it makes in
these games is checked by the engine (the conformance suite also plays it against random seats)."""

from __future__ import annotations

import pytest

from games.core import RandomPlayer
from games.searats import SeaRats, SeaRatsAI
from games.simulate import play_game

G = SeaRats()


def ai_share(players: int, games: int, *, check: bool) -> float:
    """The AI's share of wins, its seat rotating, the others random."""
    ai, random_player = SeaRatsAI(), RandomPlayer()
    won = 0.0
    for i in range(games):
        seat = i % players
        table = [random_player] * players
        table[seat] = ai
        run = play_game(G, table, f"ai-vs-random-{players}-{i}", check=check)
        assert not run.violations, run.violations[:3]
        if seat in run.winners:
            won += 1 / len(run.winners)
    return won / games


def test_the_ai_beats_a_random_commander() -> None:
    assert ai_share(2, 30, check=True) >= 0.9


@pytest.mark.slow
def test_the_ai_wins_at_least_90_percent_of_1000_two_player_games() -> None:
    assert ai_share(2, 1000, check=False) >= 0.9


@pytest.mark.slow
def test_the_ai_beats_three_random_commanders() -> None:
    assert ai_share(4, 1000, check=False) >= 0.9
