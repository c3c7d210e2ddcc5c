"""Piratz in random play: what the conformance suite (``test_engines.py``) cannot say for every game. Each
view shows exactly the cards the rules show, a choice always fits one Discord picker, and the AI beats
random players."""

from __future__ import annotations

import pytest

from games.core import Player, RandomPlayer
from games.piratz import Piratz, PiratzAI
from games.simulate import self_play, simulate
from tests.test_piratz_engine import VIEW_KEYS

GAME = Piratz()


def card_ids(view: dict) -> set[int]:
    """Every card id a view mentions."""
    ids = {c["id"] for c in view["middle"]}
    for p in view["players"]:
        ids.update(c["id"] for c in p["pile"] or ())
    return ids


def check_view(state: dict, viewer: int | None) -> None:
    view = GAME.view(state, viewer)
    assert set(view) == VIEW_KEYS
    over = state["phase"] == "over"
    hidden = state["options"]["blind"] and not over
    visible = set(state["middle"])
    if not hidden:
        visible.update(c for pile in state["piles"] for c in pile)
    assert card_ids(view) == visible, "no draw, discard or hidden pile card appears"
    assert view["draw_count"] == len(state["draw"]) and view["discard_count"] == len(state["discard"])
    for p in view["players"]:
        assert (p["pile"] is None) == hidden and (p["symbols"] is None) == hidden and (p["rats"] is None) == hidden
    if hidden:
        assert not any(" passed on " in e or " took the " in e for e in view["events"])
    assert (view["scoring"] is not None) == over


@pytest.mark.parametrize("blind", [False, True])
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_views_show_exactly_the_cards_the_rules_show(seats: int, blind: bool) -> None:
    for i in range(20):
        player: Player = PiratzAI() if i % 3 == 0 else RandomPlayer()
        for state in self_play(GAME, player, seats, f"view-{seats}-{blind}-{i}", {"blind": blind}):
            for viewer in (*range(seats), None):
                check_view(state, viewer)
            for seat in GAME.to_act(state):
                assert len(GAME.legal_actions(state, seat)) <= 25, "the choice fits a Discord picker"


def test_ai_beats_random_players() -> None:
    games = 150
    ai_first = simulate(GAME, [PiratzAI(), RandomPlayer()], games, seed="ai-a", check=False)
    ai_second = simulate(GAME, [RandomPlayer(), PiratzAI()], games, seed="ai-b", check=False)
    rate = (ai_first["wins"][0] + ai_second["wins"][1]) / (2 * games)
    assert rate >= 0.75, rate
    blind = simulate(GAME, [PiratzAI(), RandomPlayer()], games, seed="ai-c", options={"blind": True}, check=False)
    assert blind["wins"][0] / games >= 0.75
    four = simulate(GAME, [RandomPlayer(), PiratzAI(), RandomPlayer(), RandomPlayer()], 100, seed="ai-d", check=False)
    assert four["wins"][1] / 100 >= 0.5, "a clear majority against three random players"
