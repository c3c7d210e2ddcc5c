"""A hand image is drawn from its hand view alone (``GameSpec.hand_view``): the part of a seat's view the image
draws, which the bot compares to decide whether a member's DM needs a new image. For every game with a hand
image: the hand view draws exactly the image the whole view draws, holds nothing of other seats, and stays
the same over moves that change only the public board."""

from __future__ import annotations

import itertools

import pytest

from games.core import clone
from games.registry import GAMES
from games.simulate import self_play
from tests.support import pixels

HANDS = [kind for kind, spec in GAMES.items() if spec.hand_image]
NAMES = ["Anne", "Ben", "Calico", "Dara", "Edda"]


def _positions(kind: str, players: int, every: int) -> list[dict]:
    spec = GAMES[kind]
    states = [clone(s) for s in self_play(spec.game, spec.player, players, f"hand-view-{players}")]
    picked = states[::every]
    return picked if picked[-1] is states[-1] else [*picked, states[-1]]


def test_every_game_with_a_hand_image_has_a_hand_view() -> None:
    assert HANDS == ["sewerpirats", "pirates"]
    for kind in HANDS:
        assert callable(GAMES[kind].render_hand)


@pytest.mark.parametrize("kind", HANDS)
def test_the_hand_view_draws_the_image_the_whole_view_draws(kind: str) -> None:
    spec = GAMES[kind]
    game = spec.game
    players = max(game.min_players, 3)
    for state in _positions(kind, players, every=23):
        for seat in [*range(state["seats"]), None]:
            view = game.view(state, seat)
            drawn = spec.hand_view(view)
            assert spec.hand_view(drawn) == drawn  # a hand view is its own hand view
            names = NAMES[: state["seats"]]
            assert pixels(spec.render_hand(drawn, names)) == pixels(spec.render_hand(view, names)), (seat, state)


@pytest.mark.parametrize("kind", HANDS)
def test_a_hand_view_holds_nothing_of_another_seat_and_outlasts_public_moves(kind: str) -> None:
    spec = GAMES[kind]
    game = spec.game
    states = _positions(kind, 3, every=1)
    same = 0
    for before, after in itertools.pairwise(states):
        for seat in range(after["seats"]):
            drawn = spec.hand_view(game.view(after, seat))
            assert all(p is None for s, p in enumerate(drawn["players"]) if s != seat)
            whole_changed = game.view(before, seat) != game.view(after, seat)
            same += whole_changed and spec.hand_view(game.view(before, seat)) == drawn
    assert same > len(states) // 2  # most moves change a seat's view but not what its hand image draws
