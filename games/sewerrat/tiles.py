"""Changing up to 4 tiles: the pending change is built one square at a time and checked as a whole.

``state["pending"]`` is a list of ``[square, mask]``: the tile each chosen square will hold. A new tile
of the same shape is the old one rotated; another shape comes from the supply, and the old tile goes
back to it. Only the confirmation checks the plumbing (it may be broken between two steps).
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


def _free(state: JSON) -> list[int]:
    """Squares the change may still take: not yet in it, without a rat or a trap."""
    if len(state["pending"]) >= MAX_TILES:
        return []
    chosen = {q for q, _ in state["pending"]}
    rats = occupied(state)
    traps = state["traps"]
    return [q for q in range(SQUARES) if q not in chosen and q not in rats and not traps[q]]


def _fits(old: int, mask: int, supply: dict[str, int]) -> bool:
    return mask != old and (SHAPE_OF[mask] == SHAPE_OF[old] or supply[SHAPE_OF[mask]] > 0)


def tile_options(state: JSON) -> list[tuple[int, int]]:
    """Every (square, new tile) the mover may add to the change: a square not yet in it, without a rat
    or trap, and a tile other than the one there, rotated or of a shape the supply still holds."""
    board = state["board"]
    supply = supply_with_pending(state)
    return [(q, mask) for q in _free(state) for mask in range(16) if _fits(board[q], mask, supply)]


def tile_allowed(state: JSON, q: int, mask: int) -> bool:
    """Whether (``q``, ``mask``) is one of :func:`tile_options`."""
    return q in _free(state) and _fits(state["board"][q], mask, supply_with_pending(state))


def change_problem(state: JSON) -> str | None:
    """Why the pending change would leave the plumbing invalid, or ``None``."""
    return problem(changed_board(state))


def commit(state: JSON) -> None:
    """Lay the pending change (already checked) and update the supply."""
    state["supply"] = supply_with_pending(state)
    state["board"] = changed_board(state)
    state["pending"] = []
