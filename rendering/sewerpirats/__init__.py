"""Sewer Pirats images: the public table (:func:`render_board`), one player's private hand
(:func:`render_hand`) and the final scoring (:func:`render_final`).

``icons`` paints the game's icons, ``pieces`` the figures, tokens and cards made from them, and
``board``, ``hand`` and ``final`` lay out one image each.
"""

from __future__ import annotations

from rendering.sewerpirats.board import _board_layer, render_board
from rendering.sewerpirats.final import render_final
from rendering.sewerpirats.hand import hand_view, render_hand

__all__ = ["_board_layer", "hand_view", "render_board", "render_final", "render_hand"]
"""``_board_layer`` is here for the start-up test, which checks that the warm-up filled its cache."""
