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
