"""Readable label paths of legal actions (the Discord buttons and pickers): a square by row then column,
a move by direction then distance, a tile by square, shape, then rotation."""

from __future__ import annotations

from functools import cache

from games.core import JSON, Action
from games.i18n import N, T
from games.sewerrat.board import escapes, moves
from games.sewerrat.components import (
    DIR_BY_NAME,
    DIR_WORD,
    MASK_BY_TEXT,
    NEIGHBOUR,
    SHAPE_OF,
    SHAPE_WORD,
    SIZE,
    SQUARE_BY_TEXT,
    openings_label,
    square_label,
    square_name,
    toilet_exit,
    toilet_name,
)


@cache
def _row_col(q: int) -> tuple[str, str]:
    """A square's row and column labels (marked once: a trap's menu labels every free square)."""
    return T("Row {n}", n=q // SIZE + 1), T("Column {n}", n=q % SIZE + 1)


def describe_action(state: JSON, seat: int, action: Action) -> tuple[str, ...]:
    """The label path of a legal ``action`` of ``seat``."""
    verb, args = action.verb, action.args
    if verb == "place":
        return (T("Place your rat"), square_label(SQUARE_BY_TEXT[args[0]]))
    if verb == "flee":
        d = DIR_BY_NAME[args[0]]
        return (T("Flee the trap"), f"{DIR_WORD[d]} → {square_name(escapes(state, seat)[d])}")
    if verb in ("black", "red"):
        first = T("Place a red trap") if verb == "red" else T("Place a black trap")
        return (first, *_row_col(SQUARE_BY_TEXT[args[0]]))
    if verb == "extra":
        return (T("Doubles on a red trap"), T("One red trap") if args[0] == "red" else T("Two black traps"))
    if verb == "move":
        d, k = DIR_BY_NAME[args[0]], int(args[1])
        there = moves(state, seat)[0][d][k - 1]
        return (
            T("Move"),
            DIR_WORD[d],
            N("{n} square → {square}", "{n} squares → {square}", k, square=square_name(there)),
        )
    if verb == "toilet":
        start, d = state["rats"][seat], DIR_BY_NAME[args[0]]
        there = square_name(toilet_exit(start, d))
        return (T("Move"), T("Toilet {toilet} → {square}", toilet=toilet_name(start, d), square=there))
    if verb == "push":
        q, d = SQUARE_BY_TEXT[args[0]], DIR_BY_NAME[args[1]]
        return (T("Push a black trap"), *_row_col(q), f"{DIR_WORD[d]} → {square_name(NEIGHBOUR[q][d])}")
    if verb == "tile":
        return (T("Change tiles"), *_row_col(SQUARE_BY_TEXT[args[0]]))
    if verb == "lay":
        q, mask = state["picking"], MASK_BY_TEXT[args[0]]
        first = T("New tile for {square}", square=square_name(q))
        if mask == state["board"][q]:
            return (first, T("Keep the tile there"))
        return (first, SHAPE_WORD[SHAPE_OF[mask]], openings_label(mask))
    return {"confirm": (T("Confirm changes"),), "cancel": (T("Cancel"),), "pass": (T("End turn"),)}[verb]
