"""Sewer Pirats random play: invariants, hidden information, illegal actions and replays over
thousands of seeded games with 2–5 players, every variant, and a mix of random and AI players."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

from games.core import Action, IllegalAction, Player, RandomPlayer, clone
from games.sewerpirats import SewerPirats, SewerPiratsAI
from games.sewerpirats.components import SHIPS, TRIBES
from games.simulate import play_game

G = SewerPirats()
VARIANTS = ("standard", "landlubber", "auction")
JSON = dict[str, Any]


def tables(count: int, tag: str) -> Iterator[tuple[str, int, str, list[Player]]]:
    """Seeded games cycling through 2–5 seats and the three variants; about a third of seats are AI."""
    for i in range(count):
        seats = 2 + i % 4
        players: list[Player] = [SewerPiratsAI() if (i + k) % 3 == 0 else RandomPlayer() for k in range(seats)]
        yield f"{tag}-{i}", seats, VARIANTS[(i // 4) % 3], players


def play(seed: str, seats: int, variant: str, players: list[Player]) -> Iterator[JSON]:
    """Play a game in place, yielding the state before every action (then the final state)."""
    state = G.new_game(seats, {"variant": variant}, seed)
    rng = random.Random(seed)
    while G.outcome(state) is None:
        yield state
        seat = G.to_act(state)[0]
        state = G.apply(state, seat, players[seat].choose(G, state, seat, rng), inplace=True).state
    yield state


def test_invariants_hold_in_random_play() -> None:
    finished = 0
    for seed, seats, variant, players in tables(1500, "inv"):
        for state in play(seed, seats, variant, players):
            problems = G.check_invariants(state)  # includes "the seat to act has a legal action"
            assert not problems, f"{seed} step {state['step']}: {problems}"
            if state["result"] is None:
                seat = G.to_act(state)[0]
                assert all(not G.legal_actions(state, s) for s in range(seats) if s != seat)
            assert state["step"] < 5000, f"{seed} does not end"
        finished += 1
        assert G.to_act(state) == () and G.outcome(state) is not None
        assert all(len(p["area"]) + sum(f is not None and f["owner"] == s for sh in state["ships"]
                   for f in sh["spaces"]) == 4 for s, p in enumerate(state["players"]))  # fmt: skip
    assert finished == 1500


def _scramble(state: JSON, viewer: int | None) -> JSON:
    """The same position with every secret the viewer may not know changed."""
    other = clone(state)
    rng = random.Random(state["step"])
    for seat, p in enumerate(other["players"]):
        if seat != viewer:
            p["hand"] = [rng.choice(SHIPS) for _ in p["hand"]]
            p["tokens"] = [{"type": "tincan", "value": rng.randint(8, 13)} for _ in p["tokens"]]
    for pile in ("deck", "discard", "booty_pool", "bonus_pool", "box"):
        rng.shuffle(other[pile])
    other["deck"] = [rng.choice(SHIPS) for _ in other["deck"]]
    other["discard"] = [rng.choice(SHIPS) for _ in other["discard"]]
    other["seed"] = "scrambled"
    if other["auction"] is not None:
        for stool in other["auction"]["bar"]:
            stool["under"] = [rng.choice(SHIPS) for _ in stool["under"]]
    return other


def test_views_leak_no_secret() -> None:
    for seed, seats, variant, players in tables(120, "view"):
        for state in play(seed, seats, variant, players):
            if state["result"] is not None or state["step"] % 3:
                continue
            for viewer in [None, *range(seats)]:
                view = G.view(state, viewer)
                json.dumps(view)
                assert view == G.view(_scramble(state, viewer), viewer), f"{seed} step {state['step']}"
                for seat, p in enumerate(view["players"]):
                    if seat != viewer:
                        assert p["tokens"] is None and p["score"] is None
                if viewer is None:
                    assert view["hand"] is None
                else:
                    assert view["hand"] == state["players"][viewer]["hand"]
                    assert view["players"][viewer]["score"] is not None
                assert len(G.summary(view)) < 300 and G.seat_summary(view)


def _candidates(state: JSON) -> list[Action]:
    """Legal and near-miss actions: every figure on every ship and space, every index, every verb."""
    ids = {f["id"] for sh in state["ships"] for f in sh["spaces"] if f} | {"9ra1", "x"}
    ids |= {f["id"] for p in state["players"] for f in p["area"]}
    texts = [
        "draw deck",
        "done",
        "pass",
        "stay",
        "stay captain",
        "stay put",
        "snail reveal",
        "snail skip",
        "sail",
    ]
    texts += ["fly", "draw", "seize", "seize x", "bid", "bid -1", "hire x", "tribe"]
    texts += [f"draw row {i}" for i in range(6)] + [f"seize {i}" for i in range(4)]
    texts += [f"bid {i}" for i in range(14)] + [f"hire {i}" for i in range(21)]
    texts += [f"tribe {t}" for t in TRIBES] + [f"discard {s}" for s in (*SHIPS, "boat")]
    for ship in (*SHIPS, "boat"):
        texts.append(f"sail {ship}")
        for fid in ids:
            texts.append(f"captain {fid} {ship}")
            texts += [f"move {fid} {ship} {space}" for space in ("0", "1", "2", "3", "4", "c")]
    return [Action.decode(t) for t in texts]


def test_play_accepts_exactly_the_legal_actions_and_illegal_ones_change_nothing() -> None:
    for seed, seats, variant, players in tables(70, "illegal"):
        pick = random.Random(seed)
        for state in play(seed, seats, variant, players):
            if state["result"] is not None or state["step"] % 5:
                continue
            actor = G.to_act(state)[0]
            legal = set(G.legal_actions(state, actor))
            labels = [G.describe(state, actor, a) for a in legal]
            assert all(0 < len(" → ".join(p)) <= 80 for p in labels)
            assert len(legal) <= 60, f"{seed}: {len(legal)} actions"
            near_misses = [a for a in _candidates(state) if a not in legal]
            for action in [*legal, *pick.sample(near_misses, 40)]:
                copy = clone(state)
                try:
                    G.apply(copy, actor, action, inplace=True)
                except IllegalAction as exc:
                    assert action not in legal, f"{seed}: legal {action} refused: {exc}"
                    assert copy == state, f"{seed}: illegal {action} changed the state"
                    assert str(exc)
                else:
                    assert action in legal, f"{seed}: {action} accepted but not legal"
            for seat in range(seats):
                if seat != actor:
                    copy = clone(state)
                    for action in list(legal)[:3]:
                        try:
                            G.apply(copy, seat, action)
                        except IllegalAction:
                            continue
                        raise AssertionError(f"{seed}: seat {seat} acted out of turn")


def test_replay_from_the_seed_reproduces_the_game() -> None:
    for seed, seats, variant, players in tables(120, "replay"):
        log: list[tuple[int, Action]] = []
        state = G.new_game(seats, {"variant": variant}, seed)
        rng = random.Random(seed)
        while G.outcome(state) is None:
            seat = G.to_act(state)[0]
            action = players[seat].choose(G, state, seat, rng)
            assert action in G.legal_actions(state, seat)
            log.append((seat, action))
            state = G.apply(state, seat, action).state
        replay = G.new_game(seats, {"variant": variant}, seed)
        for seat, action in log:
            replay = G.apply(replay, seat, Action.decode(action.encode())).state
        assert replay == state


def test_ai_beats_random_players() -> None:
    wins = 0.0
    games = 240
    for i in range(games):
        ai = i % 3
        players: list[Player] = [RandomPlayer(), RandomPlayer(), RandomPlayer()]
        players[ai] = SewerPiratsAI()
        run = play_game(G, players, f"ai-{i}", {"variant": VARIANTS[(i // 3) % 3]})
        if ai in run.winners:
            wins += 1 / len(run.winners)
    assert wins / games > 0.75
