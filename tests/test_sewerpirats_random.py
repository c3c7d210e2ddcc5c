"""Sewer Pirats in random play: what the conformance suite (``test_engines.py``) cannot say for every game.
Each view shows the viewer its own hand and tokens and nobody else's, the choices stay few with short
labels, and the AI beats random players. Games cycle through 2–5 players and the three variants, with
random and AI seats."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from games.core import Player, RandomPlayer
from games.i18n import localize
from games.sewerpirats import SewerPirats, SewerPiratsAI
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


def test_views_show_the_viewer_its_own_hand_and_tokens_only() -> None:
    for seed, seats, variant, players in tables(120, "view"):
        for state in play(seed, seats, variant, players):
            if state["result"] is not None or state["step"] % 3:
                continue
            for seat in G.to_act(state):
                choices = G.choices(state, seat)
                assert len(choices) <= 60, f"{seed} step {state['step']}: {len(choices)} choices"
                for lang in ("en", "de"):
                    assert all(len(localize(c.label, lang)) <= 80 for c in choices), "a label path fits a Discord label"
            for viewer in [None, *range(seats)]:
                view = G.view(state, viewer)
                for seat, p in enumerate(view["players"]):
                    if seat != viewer:
                        assert p["tokens"] is None and p["score"] is None
                if viewer is None:
                    assert view["hand"] is None
                else:
                    assert view["hand"] == state["players"][viewer]["hand"]
                    assert view["players"][viewer]["score"] is not None
                assert len(localize(G.summary(view))) < 300 and G.seat_summary(view)


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
