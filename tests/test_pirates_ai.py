"""The Pirates Card Game's heuristic AI (the ``normal`` level): it plays a Joker where only a Joker
completes what its missions need, heads for a town when a mission needs one, and wins solo games
without running into the turn limit."""

from __future__ import annotations

import json
import random

import pytest

from games.core import Termination, act
from games.pirates import Pirates, PiratesAI, fit, strength
from games.search import playout
from games.simulate import self_play
from tests.test_pirates_rules import do, table
from tests.test_search import Counting

G = Pirates()
AI = PiratesAI()


def choice(state: dict) -> str:
    return AI.choose(G, state, 0, random.Random(0)).encode()


def test_a_joker_is_played_as_the_treasure_fleet_a_treasure_fleet_mission_needs() -> None:
    state = table(1, s0={"ship": "ks", "hand": ["jk", "kh", "qh", "jh", "10h", "9h"], "missions": ["jk"]})
    state["players"][0]["place"] = "sea"
    assert choice(state) == "ship jk"


def test_a_joker_is_played_as_pirate_cove_for_a_ship_of_another_nation() -> None:
    # A Hunt for English ships cannot be completed on an English ship: only Pirate Cove's swap helps.
    state = table(1, s0={"ship": "5h", "hand": ["jk", "2c", "3c", "4d"], "missions": ["5s"], "place": "sea"})
    assert choice(state) == "town jk"
    do(state, 0, "town jk")
    assert choice(state) == "cove ship"
    do(state, 0, "cove ship")
    picked = choice(state)
    assert picked.startswith("swap ") and not picked.endswith("h")


def test_a_joker_is_played_for_the_magistrate_when_no_card_is_left_to_draw() -> None:
    state = table(1, s0={"ship": "kc", "hand": ["jk", "5c"]})
    state["deck"], state["discard"] = [], []
    assert act("magistrate", "jk") in G.legal_actions(state, 0)
    assert choice(state) == "magistrate jk"


def test_a_joker_is_played_to_disembark_short_handed_with_a_full_crew() -> None:
    state = table(1, s0={"ship": "kc", "hand": ["jk", "5c"], "missions": ["7h"]})
    assert choice(state) == "disembark jk"
    do(state, 0, "disembark jk")
    assert state["players"][0]["place"] == "sea" and len(state["players"][0]["hand"]) == 6


def test_at_sea_it_heads_for_a_town_with_a_delivery_aboard() -> None:
    state = table(1, s0={"ship": "kc", "hand": ["5c", "6c", "7c", "8c"], "missions": ["2h"], "holds": ["10h"]})
    state["players"][0]["place"] = "sea"
    assert choice(state) == "town"


def solo(seed: str) -> tuple[bool, Termination]:
    *_, state = self_play(G, AI, 1, seed)  # the states are one dict changed in place: the last is the end
    outcome = G.outcome(state)
    assert outcome is not None
    return bool(outcome.winners), outcome.termination


def test_solo_games_end_by_the_rules_never_at_the_turn_limit() -> None:
    results = [solo(f"aieval-solo-{i}") for i in range(30)]
    assert all(t is not Termination.SAFETY_LIMIT for _, t in results)
    assert sum(won for won, _ in results) >= 29


@pytest.mark.slow
def test_the_solo_ai_wins_at_least_95_percent_of_300_games_none_at_the_turn_limit() -> None:
    results = [solo(f"aieval-solo-{i}") for i in range(300)]
    assert not [i for i, (_, t) in enumerate(results) if t is Termination.SAFETY_LIMIT]
    assert sum(won for won, _ in results) >= 285


def test_the_hard_ais_estimate_weighs_what_foretells_a_win() -> None:
    even = table(2, s0={"ship": "5h", "missions": ["5d"], "hand": ["2c"]}, s1={"ship": "5s", "hand": ["2s"]})
    # The same ship size, hand size and cannons: an even share, whatever the missions in hand.
    assert G.estimate(even, 0) == pytest.approx(0.5) and G.estimate(even, 1) == pytest.approx(0.5)
    one = table(2, s0={"ship": "5h", "done": ["5d"], "hand": ["2c"]}, s1={"ship": "5s", "hand": ["2s"]})
    two = table(2, s0={"ship": "5h", "done": ["5d", "6d"], "hand": ["2c"]}, s1={"ship": "5s", "hand": ["2s"]})
    assert 0.5 < G.estimate(one, 0) < G.estimate(two, 0) and G.estimate(one, 0) + G.estimate(one, 1) == pytest.approx(1)
    # A second mission completed counts for more than the first (one more brings the win).
    odds = [G.estimate(s, 0) / G.estimate(s, 1) for s in (even, one, two)]
    assert odds[2] / odds[1] > odds[1] / odds[0] > 2
    bigger = table(2, s0={"ship": "ks", "hand": ["2c"]}, s1={"ship": "5s", "hand": ["2s"]})
    assert G.estimate(bigger, 0) > 0.5  # a ship of 6 crew against one of 4
    cargo = table(2, s0={"ship": "5h", "holds": ["2d", "3d"], "hand": ["2c"]}, s1={"ship": "5s", "hand": ["2s"]})
    assert G.estimate(cargo, 0) > 0.5
    strong = table(2, s0={"ship": "5h", "hand": ["kc"]}, s1={"ship": "5s", "hand": ["2s"]})
    assert G.estimate(strong, 0) > 0.5  # as many cards, more cannons
    one["players"][1]["out"] = True
    assert G.estimate(one, 0) == 1 and G.estimate(one, 1) == 0
    four = table(4, s0={"done": ["5d"]}, s2={"hand": ["kc", "qc"]})
    shares = [G.estimate(four, s) for s in range(4)]
    assert sum(shares) == pytest.approx(1) and max(shares) == shares[0]


def test_the_hard_ais_playouts_give_every_captain_the_same_turns_at_any_table() -> None:
    """15 actions per captain: 30 at two (and solo), 45 at three, 60 at four; a playout stops there."""
    assert [G.horizon(G.new_game(n, seed="horizon")) for n in (1, 2, 3, 4)] == [30, 30, 45, 60]
    world = G.new_game(4, seed="horizon")
    policy = Counting(PiratesAI())
    value = playout(G, world, policy, random.Random(3), 0)
    assert policy.asked == 60 and not G.is_over(world) and value == G.estimate(world, 0)


def test_solo_the_hard_ais_estimate_is_the_progress_toward_three_missions() -> None:
    start = table(1, s0={"missions": ["5h"], "hand": ["2c"]})
    later = table(1, s0={"done": ["5h", "6h"], "missions": ["7h"], "hand": ["2c"]})
    assert 0 < G.estimate(start, 0) < G.estimate(later, 0) < 1
    later["players"][0]["out"] = True
    assert G.estimate(later, 0) == 0


def test_the_estimates_weights_come_from_a_fit_that_tells_who_wins(capsys: pytest.CaptureFixture[str]) -> None:
    samples = fit.positions(12, seed="test")
    assert len(samples) > 100 and all(0 <= won < len(seats) for seats, won in samples)
    even = [0.0] * len(strength.STRENGTH)
    # The weights the engine uses foretell the winners of games they were not fitted to.
    assert fit.log_loss(samples, strength.STRENGTH) < fit.log_loss(samples, even) - 0.05
    weights = fit.fit(samples)
    assert weights[0] > 0.5  # a completed mission weighs most
    assert fit.log_loss(samples, weights) < fit.log_loss(samples, even)
    # Newton's method reaches the likelihood's top: no other weights fit these positions better.
    assert fit.log_loss(samples, weights) <= fit.log_loss(samples, strength.STRENGTH) + 1e-6
    assert fit.main(["--games", "3", "--iterations", "5"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["positions"] > 0 and len(report["weights"]) == len(strength.STRENGTH)
