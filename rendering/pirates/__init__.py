"""Pirates Card Game images: the table (``render_board``), a player's private hand (``render_hand``) and
the final table (``render_final``), each drawn from one view."""

from rendering.pirates.table import hand_view, render_board, render_final, render_hand

__all__ = ["hand_view", "render_board", "render_final", "render_hand"]
