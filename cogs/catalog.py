"""What the Discord layer needs to host each game: its engine, AI and renderers."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from games import registry
from games.core import Game, Player
from rendering import piratz as piratz_render
from rendering import sewerpirats as sewerpirats_render

Renderer = Callable[[dict[str, Any], Sequence[str]], bytes]


@dataclass(frozen=True, slots=True)
class GameSpec:
    game: Game
    ai: Player
    render_board: Renderer
    render_final: Renderer
    render_hand: Renderer | None = None
    """A private image of one seat's view (their hand), if the game has one."""
    dm_hands: bool = False
    """Send each player their private view by DM whenever it changes."""
    colour: int = 0xC9A227
    emoji: str = "🏴‍☠️"

    @property
    def key(self) -> str:
        return self.game.key

    @property
    def title(self) -> str:
        return self.game.title


CATALOG: dict[str, GameSpec] = {
    "piratz": GameSpec(
        game=registry.engine("piratz"),
        ai=registry.ai_player("piratz"),
        render_board=piratz_render.render_board,
        render_final=piratz_render.render_final,
        colour=0xD4A017,
        emoji="💰",
    ),
    "sewerpirats": GameSpec(
        game=registry.engine("sewerpirats"),
        ai=registry.ai_player("sewerpirats"),
        render_board=sewerpirats_render.render_board,
        render_final=sewerpirats_render.render_final,
        render_hand=sewerpirats_render.render_hand,
        dm_hands=True,
        colour=0x3D8B5A,
        emoji="🐀",
    ),
}


def warm_renderers(every: int = 20) -> int:
    """Render boards (and hands, and final scores) from short seeded AI games at every seat count, so
    the renderers' per-layout caches are filled before players arrive. Blocking: run it in a thread.
    Returns the number of images drawn."""
    drawn = 0
    names = [f"Player {i + 1}" for i in range(8)]
    for spec in CATALOG.values():
        game, ai = spec.game, spec.ai
        for seats in range(game.min_seats, game.max_seats + 1):
            state = game.new_game(seats, None, f"warm-{seats}")
            steps = 0
            while not game.is_over(state):
                seat = game.to_act(state)[0]
                state = game.apply(state, seat, ai.choose(game, state, seat, game.rng(state)), inplace=True).state
                steps += 1
                if steps % every == 1:
                    spec.render_board(game.view(state, None), names[:seats])
                    if spec.render_hand is not None:
                        spec.render_hand(game.view(state, seat), names[:seats])
                    drawn += 1
            spec.render_final(game.view(state, None), names[:seats])
            drawn += 1
    return drawn
