"""Drawing a few boards of every registered game before players arrive, so the renderers' per-layout
caches (fonts, icons, pre-drawn layers) are full when the first real board is needed."""

from __future__ import annotations

from games.registry import GAMES
from games.simulate import self_play

SAMPLES = (1, 40)
"""Steps of each warm-up game whose board (and a hand) are drawn, besides the final position: enough to
fill every layout cache of a seat count without drawing the whole game."""


def warm_renderers() -> int:
    """Render boards, hands and final scores from one short seeded AI game per game and seat count.
    Blocking: run it in a thread. Returns the number of images drawn."""
    drawn = 0
    names = [f"Player {i + 1}" for i in range(8)]
    for spec in GAMES.values():
        game = spec.game
        for players in range(game.min_players, game.max_players + 1):
            state = None
            for steps, state in enumerate(self_play(game, spec.player, players, f"warm-{players}")):
                if steps in SAMPLES:
                    seat_names = names[: state["seats"]]
                    spec.render_board(game.view(state, None), seat_names)
                    for seat in game.to_act(state)[:1]:
                        if spec.render_hand is not None:
                            spec.render_hand(game.view(state, seat), seat_names)
                    drawn += 1
            assert state is not None
            spec.render_final(game.view(state, None), names[: state["seats"]])
            drawn += 1
    return drawn
