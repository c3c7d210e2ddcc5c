"""The Sea Rats! AI commands whole fleets and beats a random commander: at least 90% of seeded 2-player
games (fleets of three ships), and 4-player games against three random players. Every choice it makes in
these games is checked by the engine (the conformance suite also plays it against random seats)."""

from __future__ import annotations

import random

import pytest

from games.core import RandomPlayer
from games.searats import SeaRats, SeaRatsAI
from games.search import candidates
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


def position(**ships: tuple[str, int, int]) -> dict:
    """A 2-player game with ships placed: ``black=("e3", balls, supplies)``; the others parked out of range."""
    from tests.test_searats_rules import game, ship

    state = game(**{colour: where for colour, (where, _b, _s) in ships.items()})
    for colour, (_where, balls, supplies) in ships.items():
        ship(state, ("black", "red", "blue", "green", "purple", "yellow").index(colour)).update(
            balls=balls, supplies=supplies
        )
    return state


def battle(state: dict, phase: str, distance: int) -> dict:
    state.update(
        turn=0,
        phase=phase,
        roll=[1],
        fought=[1],
        battle={"att": 0, "def": 1, "dist": distance, "fired": 0, "hits": [0, 0], "offers": [0, 0], "closed": False},
    )
    return state


def choice(state: dict, seat: int) -> str:
    action = SeaRatsAI().choose(G, state, seat, None)  # type: ignore[arg-type]
    assert action in G.legal_actions(state, seat)
    return action.encode()


def test_the_ai_braces_when_it_can_take_the_broadside_and_bribes_when_it_cannot() -> None:
    state = battle(position(black=("e3", 6, 4), red=("e4", 4, 6)), "bribe", 1)
    assert choice(state, 1) == "brace"
    state["ships"][1]["supplies"] = 2
    assert choice(state, 1) == "offer 2 0"  # cannonballs, not the supplies that keep it afloat
    state["treasure"] = 1
    assert choice(state, 1) == "offer chest"


def test_the_ai_pays_blackmail_only_when_refusing_would_sink_it() -> None:
    state = battle(position(black=("e3", 6, 4), red=("e4", 4, 6)), "answer", 1)
    state["offer"] = {"kind": "demand", "from": 0, "to": 1, "give": [0, 0, False], "get": [0, 2, False]}
    assert choice(state, 1) == "decline"
    state["ships"][1]["supplies"] = 2
    assert choice(state, 1) == "accept"


def test_the_ai_fires_its_broadside_captures_and_fires_back() -> None:
    state = battle(position(black=("e3", 6, 4), red=("e4", 4, 6)), "fire", 1)
    assert choice(state, 0) == "fire 3"
    state.update(phase="counter")
    state["battle"]["fired"] = 2
    assert choice(state, 1) == "fire 2"
    state.update(phase="prize", prize={"captor": 0, "ship": 1, "missing": 1})
    assert choice(state, 0).startswith("capture")


def test_the_ai_hands_spare_cannonballs_to_its_own_ship() -> None:
    state = position(black=("e3", 8, 4), blue=("e6", 0, 6))  # Black and Blue both sail for player 0
    state.update(turn=0, phase="act", roll=[1], fought=[], traded=[], trading=False)
    assert choice(state, 0) == "trade blue"
    state = G.apply(state, 0, "trade blue").state
    assert choice(state, 0) == "give 2 0"
    state = G.apply(state, 0, "give 2 0").state
    assert choice(state, 0) == "ask 0 0"
    state = G.apply(state, 0, "ask 0 0").state
    assert choice(state, 2) == "accept"


def test_the_ai_never_considers_a_ship_of_its_own_fleet() -> None:
    # Blue, Black's fleet-mate, lies a dot away with no supplies and the Treasure aboard: an enemy there would be
    # a sure sinking and the Treasure. Red, the enemy, is 3 dots away: a shot not worth the counter-fire.
    state = position(black=("e3", 3, 6), blue=("e4", 3, 0), red=("e6", 6, 6))
    state.update(turn=0, phase="act", roll=[1], fought=[], traded=[], trading=False, treasure=2)
    assert choice(state, 0) == "end"
    # The hard AI's search compares the normal AI's choice and its shortlist: never an aim at Blue either.
    considered = [a.encode() for a in candidates(G, state, 0, SeaRatsAI(), random.Random(1))]
    assert [a for a in considered if a.startswith("aim")] == ["aim red"]


def test_at_long_range_the_ai_keeps_cannonballs_back_unless_the_salvo_may_sink() -> None:
    from games.searats.ai import _salvo

    assert _salvo(balls=6, foe_supplies=6, dist=2, most=3) == 3  # close: a full broadside
    assert _salvo(balls=3, foe_supplies=6, dist=5, most=3) == 1  # far: two kept back
    assert _salvo(balls=2, foe_supplies=6, dist=4, most=3) == 0  # far, nothing to spare: hold fire
    assert _salvo(balls=3, foe_supplies=0, dist=5, most=3) == 3  # it may sink the foe: everything
    state = battle(position(black=("e3", 2, 4), red=("e7", 4, 6)), "counter", 4)
    state["battle"]["fired"] = 2
    assert choice(state, 1) == "fire 2"  # Red has 4: it can answer in full and keep two
    state["ships"][1]["balls"] = 2
    assert choice(state, 1) == "hold"


def test_the_hard_ais_estimate_weighs_ships_supplies_and_the_treasure() -> None:
    state = G.new_game(2, seed="estimate")
    assert G.estimate(state, 0) == pytest.approx(0.5) and G.estimate(state, 1) == pytest.approx(0.5)
    state["ships"][1]["supplies"] -= 3  # Red, player 1's, took three hits
    hurt = G.estimate(state, 0)
    assert hurt > 0.5 and hurt + G.estimate(state, 1) == pytest.approx(1)
    state["ships"][3]["sunk"] = True  # Green, player 1's, sank
    sunk = G.estimate(state, 0)
    assert sunk > hurt
    state["treasure"] = 2  # Blue, player 0's, holds the Treasure
    assert G.estimate(state, 0) > sunk
    for ship in (1, 3, 5):
        state["ships"][ship]["sunk"] = True
    assert G.estimate(state, 0) == 1 and G.estimate(state, 1) == 0
