"""Drawing a few boards of every registered game before players arrive, so the renderers' per-layout
caches (fonts, icons, pre-drawn layers) are full when the first real board is needed."""

from __future__ import annotations

from games.registry import GAMES
from games.simulate import self_play


def warm_renderers(every: int = 20) -> int:
    """Render boards (and hands, and final scores) from short seeded AI games at every seat count.
    Blocking: run it in a thread. Returns the number of images drawn."""
    drawn = 0
    names = [f"Player {i + 1}" for i in range(8)]
    for spec in GAMES.values():
        game = spec.game
        for seats in range(game.min_players, game.max_players + 1):
            state = None
            for steps, state in enumerate(self_play(game, spec.player, seats, f"warm-{seats}")):
                if steps % every == 1:
                    spec.render_board(game.view(state, None), names[:seats])
                    for seat in game.to_act(state)[:1]:
                        if spec.render_hand is not None:
                            spec.render_hand(game.view(state, seat), names[:seats])
                    drawn += 1
            assert state is not None
            spec.render_final(game.view(state, None), names[:seats])
            drawn += 1
    return drawn
