"""A player who resigned cannot win (:func:`tables.results.result_of`): when their seats, played on by the AI,
top the game, the final image crowns the platform's winners, not the engine's (``Game.crowned``), as the
result line and the ratings do — in the final message and the replay's last frame alike."""

from __future__ import annotations

import pytest

from games.registry import GAMES
from tables.results import final_view

KINDS = ["piratz", "sewerpirats", "pirates", "sewerrat", "searats"]


def finished(kind: str, players: int, seed: str) -> dict:
    spec = GAMES[kind]
    game = spec.game
    state = game.new_game(players, None, seed)
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        state = game.apply(state, seat, spec.player.choose(game, state, seat, game.rng(state)), trusted=True).state
    return state


@pytest.mark.parametrize("kind", KINDS)
def test_the_final_image_crowns_the_platforms_winners(kind: str) -> None:
    spec = GAMES[kind]
    game = spec.game
    state = next(
        s for s in (finished(kind, spec.bench_players, f"crown-{n}") for n in range(6)) if game.outcome(s).winners
    )
    engine = sorted(game.outcome(state).winners)
    view = game.view(state, None)
    names = [f"Player{n}" for n in range(spec.bench_players)]
    assert final_view(game, state, {"winners": engine}) == view, "the same winners: the engine's view as it is"
    assert final_view(game, state, None) == view
    drawn = spec.render_final(view, names)
    # Another seat, or nobody (every seat still standing resigned: Sea Rats! ends with one commander's fleet).
    others = [[s] for s in range(game.seats_of(state)) if s not in engine] + [[]]
    redrawn = [spec.render_final(final_view(game, state, {"winners": w}), names) for w in others]
    assert all(png != drawn for png in redrawn[-1:]), "crowning nobody changes the final image"
    assert any(png != drawn for png in redrawn[:-1]) or len(others) == 1, "crowning another seat changes it"


def test_a_pirates_captain_who_resigned_leaves_the_headline_to_the_most_missions_done() -> None:
    from rendering.pirates.table import _ending

    game = GAMES["pirates"].game
    state = finished("pirates", 2, "crown-0")
    winner = game.outcome(state).winners[0]
    other = 1 - winner
    view = final_view(game, state, {"winners": [other]})
    headline, under = _ending(view, ["Anne", "Ben"], "en")
    assert ["Anne", "Ben"][other] in headline and "mission" in headline and under == ""
