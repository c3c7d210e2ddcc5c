"""Changing up to 4 tiles: the pending change is built one square at a time and checked as a whole.

The mover picks a square (``state["picking"]``), then the tile it will hold; ``state["pending"]`` is a
list of ``[square, mask]``. A new tile of the same shape is the old one rotated; another shape comes from
the supply, and the old tile goes back to it; keeping the old tile is allowed (the square still counts
toward the 4). Only the confirmation checks the plumbing (it may be broken between two steps).
"""

from __future__ import annotations

from games.core import JSON
from games.sewerrat.board import occupied
from games.sewerrat.components import SHAPE_OF, SQUARES
from games.sewerrat.plumbing import problem

MAX_TILES = 4


def changed_board(state: JSON) -> list[int]:
    """The board as it would be with the pending change."""
    board = list(state["board"])
    for q, mask in state["pending"]:
        board[q] = mask
    return board


def supply_with_pending(state: JSON) -> dict[str, int]:
    """The supply as it would be with the pending change: new shapes taken, replaced tiles returned."""
    supply = dict(state["supply"])
    board = state["board"]
    for q, mask in state["pending"]:
        old, new = SHAPE_OF[board[q]], SHAPE_OF[mask]
        if old != new:
            supply[old] += 1
            supply[new] -= 1
    return supply


def tile_squares(state: JSON) -> list[int]:
    """Squares the change may still take: not yet in it, without a rat or a trap, while fewer than 4
    are taken."""
    if len(state["pending"]) >= MAX_TILES:
        return []
    chosen = {q for q, _ in state["pending"]}
    rats = occupied(state)
    traps = state["traps"]
    return [q for q in range(SQUARES) if q not in chosen and q not in rats and not traps[q]]


def tile_masks(state: JSON, q: int) -> list[int]:
    """The tiles square ``q`` may take: its own (kept), its rotations, and every tile of a shape the supply
    still holds."""
    old = state["board"][q]
    supply = supply_with_pending(state)
    return [m for m in range(16) if SHAPE_OF[m] == SHAPE_OF[old] or supply[SHAPE_OF[m]] > 0]


def change_problem(state: JSON) -> str | None:
    """Why the pending change would leave the plumbing invalid, or ``None``."""
    return problem(changed_board(state))


def commit(state: JSON) -> None:
    """Lay the pending change (already checked) and update the supply."""
    state["supply"] = supply_with_pending(state)
    state["board"] = changed_board(state)
    state["pending"] = []
    state["picking"] = None
