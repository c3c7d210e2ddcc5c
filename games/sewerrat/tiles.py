"""Changing up to 4 tiles: the pending change is built one square at a time and checked as a whole.

The mover picks a square (``state["picking"]``), then the tile it will hold; ``state["pending"]`` is a
list of ``[square, mask]``. A new tile of the same shape is the old one rotated; another shape comes from
the supply, and the old tile goes back to it; keeping the old tile is allowed (the square still counts
toward the 4). Only the confirmation checks the plumbing (it may be broken between two steps).

The squares of a change may be picked in any order: a shape is offered whenever some order of the change's
squares, with the squares still to be picked, finds each new tile in the supply (a Tee for an Elbow is
offered first when another square's Tee can still go back to the supply), and the confirmation refuses a
change that no order of its squares can lay.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import permutations

from games.core import JSON
from games.i18n import N, T, joined
from games.sewerrat.board import occupied
from games.sewerrat.components import SHAPE_OF, SQUARES, TILE_SET
from games.sewerrat.plumbing import problem

MAX_TILES = 4

Swap = tuple[str, str]
"""One square's new shape from the supply: ``(old shape, new shape)``; its old tile goes back."""


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


def swaps(state: JSON, pending: Sequence[Sequence[int]]) -> list[Swap]:
    """The shapes a change takes from the supply, one per square whose shape changes."""
    board = state["board"]
    return [(SHAPE_OF[board[q]], SHAPE_OF[mask]) for q, mask in pending if SHAPE_OF[board[q]] != SHAPE_OF[mask]]


def in_some_order(supply: Mapping[str, int], changes: Sequence[Swap]) -> bool:
    """Whether some order of ``changes`` finds each new tile in ``supply`` (each replaced tile goes back
    to it before the next square is changed)."""
    for order in set(permutations(changes)):
        left = dict(supply)
        for old, new in order:
            if left[new] <= 0:
                break
            left[new] -= 1
            left[old] += 1
        else:
            return True
    return False


def _can_finish(supply: Mapping[str, int], changes: list[Swap], room: int, free: Counter[str]) -> bool:
    """Whether ``changes``, with at most ``room`` more squares (``free`` counts their shapes), can be laid
    in some order: the squares added give back the shapes the change is short of."""
    if in_some_order(supply, changes):
        return True
    if room == 0:
        return False
    left = Counter(supply)
    for old, new in changes:
        left[new] -= 1
        left[old] += 1
    short = [shape for shape in TILE_SET if left[shape] < 0] or [new for _, new in changes]  # else: a cycle
    for old in dict.fromkeys(short):
        if free[old] <= 0:
            continue
        for new in sorted(TILE_SET, key=lambda shape: -left[shape]):
            if new != old and _can_finish(supply, [*changes, (old, new)], room - 1, free - Counter({old: 1})):
                return True
    return False


def tile_masks(state: JSON, q: int) -> list[int]:
    """The tiles square ``q`` may take: its own (kept), its rotations, and every tile of a shape that some
    order of the change's squares (those picked and up to 4 in all) finds in the supply."""
    old = SHAPE_OF[state["board"][q]]
    changes = swaps(state, state["pending"])
    room = MAX_TILES - len(state["pending"]) - 1
    free = Counter(SHAPE_OF[state["board"][s]] for s in tile_squares(state) if s != q)
    shapes = {
        shape
        for shape in TILE_SET
        if shape == old or _can_finish(state["supply"], [*changes, (old, shape)], room, free)
    }
    return [m for m in range(16) if SHAPE_OF[m] in shapes]


def shape_count(shape: str, n: int) -> str:
    """``n`` tiles of ``shape``, counted: "1 tee", "2 elbows"."""
    if shape == "straight":
        return N("{n} straight", "{n} straights", n)
    if shape == "elbow":
        return N("{n} elbow", "{n} elbows", n)
    if shape == "tee":
        return N("{n} tee", "{n} tees", n)
    if shape == "cross":
        return N("{n} cross", "{n} crosses", n)
    if shape == "cap":
        return N("{n} dead end", "{n} dead ends", n)
    return N("{n} blank", "{n} blanks", n)


def supply_problem(state: JSON) -> str | None:
    """Why no order of the pending change's squares finds each new tile in the supply, or ``None``."""
    changes = swaps(state, state["pending"])
    if in_some_order(state["supply"], changes):
        return None
    left = supply_with_pending(state)
    short = joined([shape_count(shape, -left[shape]) for shape in TILE_SET if left[shape] < 0])
    if short:
        return T("the supply is short of {tiles} (a square changed from that shape gives one back)", tiles=short)
    return T("no order of its squares finds each new tile in the supply")


def change_problem(state: JSON) -> str | None:
    """Why the pending change cannot be laid: the supply cannot give its tiles in any order, or the
    plumbing would be invalid; ``None`` when it can."""
    return supply_problem(state) or problem(changed_board(state))


def commit(state: JSON) -> None:
    """Lay the pending change (already checked) and update the supply."""
    state["supply"] = supply_with_pending(state)
    state["board"] = changed_board(state)
    state["pending"] = []
    state["picking"] = None
