"""The oracle (:mod:`games.oracle`): candidates valued by playouts to the end on shared worlds, and a
search configuration's score as the sum of what its switches gain by those values."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from games.core import JSON, Action, Game, Player, clone
from games.oracle import build, main, score, values, world
from games.registry import GAMES
from games.search import candidates, determinize, playout, reward, search
from tests.test_search import Counting, positions


@pytest.fixture(scope="module")
def oracle() -> JSON:
    """A small Pirates Card Game oracle: the positions of one two-player game, four worlds each."""
    built = build("pirates", 2, 1, seed="oracle-test", share=0.2, playouts=4, jobs=1)
    assert len(built["positions"]) >= 4
    return built


def test_a_playout_to_the_end_ignores_the_horizon(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = GAMES["searats"]
    game = spec.game
    monkeypatch.setattr(type(game), "horizon", lambda self, state: 7)
    world = clone(positions("searats", 1)[0][0])
    policy = Counting(spec.player)
    value = playout(game, world, policy, random.Random(5), 0, to_end=True)
    assert game.is_over(world) and policy.asked > 7
    assert value == reward(game, world, 0)


def test_the_oracles_worlds_are_the_true_state_or_samples_of_what_the_seat_may_know(oracle: JSON) -> None:
    game = GAMES["pirates"].game
    position = oracle["positions"][0]
    state, seat = position["state"], position["seat"]
    true = world(game, state, seat, random.Random(1), "true")
    assert true["seed"] != state["seed"] and {**true, "seed": state["seed"]} == state
    sampled = world(game, state, seat, random.Random(1), "sampled")
    assert game.view(sampled, seat) == game.view(state, seat)

    def hands(state: JSON) -> list[list[int]]:
        return [p["hand"] for i, p in enumerate(state["players"]) if i != seat]

    assert any(hands(state)), "no other captain holds a card: the test would prove nothing"
    assert any(hands(world(game, state, seat, random.Random(r), "sampled")) != hands(state) for r in range(5))


def test_every_candidate_of_a_position_is_valued_and_the_normal_choice_comes_first(oracle: JSON) -> None:
    game, policy = GAMES["pirates"].game, GAMES["pirates"].player
    for position in oracle["positions"]:
        state, seat = position["state"], position["seat"]
        known = determinize(game, state, seat, random.Random(1))
        moves = [m.encode() for m in candidates(game, known, seat, policy, random.Random(1))]
        assert len(moves) > 1
        assert position["default"] == moves[0] == policy.choose(game, state, seat, random.Random(2)).encode()
        assert list(position["values"]) == moves
        # Four playouts of a two-player game: each value is a count of wins (or shared wins) over four.
        assert all(0 <= v <= 1 and (v * 8).is_integer() for v in position["values"].values())


def test_the_candidates_meet_the_same_worlds_and_luck_and_the_values_are_reproducible(
    oracle: JSON, monkeypatch: pytest.MonkeyPatch
) -> None:
    position = oracle["positions"][0]
    seen: list[tuple[str, int]] = []

    def noted(game: Game, world: JSON, policy: Player, rng: random.Random, player: int, *, to_end: bool) -> float:
        assert to_end
        seen.append((world["seed"], rng.getrandbits(32)))
        return 0.5

    state, seat = position["state"], position["seat"]
    again = values("pirates", state, seat, 4, "oracle-test/values-0")
    assert again == position
    monkeypatch.setattr("games.oracle.playout", noted)
    measured = values("pirates", state, seat, 3, "same")
    moves = len(measured["values"])
    assert len(seen) == 3 * moves and set(measured["values"].values()) == {0.5}
    for number in range(3):  # every candidate of a world: its seed and its luck
        played = seen[number * moves : (number + 1) * moves]
        assert len(set(played)) == 1
    assert len({s for s, _ in seen}) == 3


def test_the_score_adds_what_the_searchs_switches_gain(oracle: JSON) -> None:
    game, policy = GAMES["pirates"].game, GAMES["pirates"].player
    rigged = clone(oracle)
    for position in rigged["positions"]:  # the normal AI's choice worth nothing, every other move a win
        position["values"] = {move: float(move != position["default"]) for move in position["values"]}
    decided = [
        search(game, p["state"], p["seat"], policy, random.Random(f"rig-{i}"), iterations=16).encode()
        for i, p in enumerate(rigged["positions"])
    ]
    switched = [i for i, (p, move) in enumerate(zip(rigged["positions"], decided, strict=True)) if move != p["default"]]
    assert switched, "no switch in this oracle: the test would prove nothing"
    del rigged["positions"][switched[0]]["values"][decided[switched[0]]]  # a move the oracle did not value

    report = score(rigged, iterations=16, seed="rig", jobs=1)
    assert report["positions"] == len(rigged["positions"]) and report["iterations"] == 16
    assert report["unvalued"] == 1
    assert report["switches"] == len(switched) - 1 == report["gain"]
    decode = Action.decode
    kinds = {f"{decode(rigged['positions'][i]['default']).verb}→{decode(decided[i]).verb}" for i in switched[1:]}
    assert set(report["by_switch"]) == kinds
    assert sum(k["count"] for k in report["by_switch"].values()) == report["switches"]


def test_the_command_writes_an_oracle_and_scores_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "oracle.json"
    args = ["build", "pirates", "--games", "1", "--share", "0.05", "--playouts", "2", "--jobs", "1", "--out", str(out)]
    assert main(args) == 0
    assert '"positions"' in capsys.readouterr().out
    assert main(["score", str(out), "--iterations", "4", "--jobs", "1"]) == 0
    report = capsys.readouterr().out
    assert '"gain"' in report and '"by_switch"' in report


def test_an_oracle_of_tables_with_an_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "blind.json"
    args = ["build", "piratz", "--games", "1", "--share", "0.05", "--playouts", "2", "--jobs", "1", "--out", str(out)]
    assert main([*args, "--option", "blind=on"]) == 0
    built = json.loads(out.read_text(encoding="utf-8"))
    assert built["options"] == {"blind": True} and built["positions"]
    assert all(p["state"]["options"]["blind"] for p in built["positions"])
    with pytest.raises(SystemExit):
        main([*args, "--option", "sails=on"])
    assert "has no option 'sails'" in capsys.readouterr().err
