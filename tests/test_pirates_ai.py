"""The Pirates Card Game's heuristic AI (the ``normal`` level): it plays a Joker where only a Joker
completes what its missions need, heads for a town when a mission needs one, and wins solo games
without running into the turn limit."""

from __future__ import annotations

import random

import pytest

from games.core import Termination, act
from games.pirates import Pirates, PiratesAI
from games.simulate import self_play
from tests.test_pirates_rules import do, table

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


def test_the_hard_ais_estimate_counts_missions_first_then_a_mission_and_crew() -> None:
    even = table(2, s0={"missions": ["5h"], "hand": ["2c"]}, s1={"missions": ["6h"], "hand": ["3c"]})
    assert G.estimate(even, 0) == pytest.approx(0.5) and G.estimate(even, 1) == pytest.approx(0.5)
    ahead = table(2, s0={"done": ["5h"], "hand": ["2c"]}, s1={"missions": ["6h"], "hand": ["3c", "4c", "5c"]})
    assert G.estimate(ahead, 0) > 0.6 and G.estimate(ahead, 0) + G.estimate(ahead, 1) == pytest.approx(1)
    ahead["players"][1]["out"] = True
    assert G.estimate(ahead, 0) == 1 and G.estimate(ahead, 1) == 0


def test_solo_the_hard_ais_estimate_is_the_progress_toward_three_missions() -> None:
    start = table(1, s0={"missions": ["5h"], "hand": ["2c"]})
    later = table(1, s0={"done": ["5h", "6h"], "missions": ["7h"], "hand": ["2c"]})
    assert 0 < G.estimate(start, 0) < G.estimate(later, 0) < 1
    later["players"][0]["out"] = True
    assert G.estimate(later, 0) == 0
