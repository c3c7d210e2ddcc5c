"""Readable label paths of legal actions (the Discord buttons and pickers): a square by row then column,
a move by direction then distance, a tile by square, shape, then rotation."""

from __future__ import annotations

from games.core import JSON, Action
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
    square_text,
    toilet_exit,
    toilet_name,
)


def _row_col(q: int) -> tuple[str, str]:
    return f"Row {q // SIZE + 1}", f"Column {q % SIZE + 1}"


def describe_action(state: JSON, seat: int, action: Action) -> tuple[str, ...]:
    """The label path of a legal ``action`` of ``seat``."""
    verb, args = action.verb, action.args
    if verb == "place":
        return ("Place your rat", square_label(SQUARE_BY_TEXT[args[0]]))
    if verb == "flee":
        d = DIR_BY_NAME[args[0]]
        return ("Flee the trap", f"{DIR_WORD[d]} → {square_text(escapes(state, seat)[d])}")
    if verb in ("black", "red"):
        return (f"Place a {verb} trap", *_row_col(SQUARE_BY_TEXT[args[0]]))
    if verb == "extra":
        return ("Doubles on a red trap", "One red trap" if args[0] == "red" else "Two black traps")
    if verb == "move":
        d, k = DIR_BY_NAME[args[0]], int(args[1])
        there = moves(state, seat)[0][d][k - 1]
        return ("Move", DIR_WORD[d], f"{k} square{'s' if k > 1 else ''} → {square_text(there)}")
    if verb == "toilet":
        start, d = state["rats"][seat], DIR_BY_NAME[args[0]]
        return ("Move", f"Toilet {toilet_name(start, d)} → {square_text(toilet_exit(start, d))}")
    if verb == "push":
        q, d = SQUARE_BY_TEXT[args[0]], DIR_BY_NAME[args[1]]
        return ("Push a black trap", *_row_col(q), f"{DIR_WORD[d]} → {square_text(NEIGHBOUR[q][d])}")
    if verb == "tile":
        return ("Change tiles", *_row_col(SQUARE_BY_TEXT[args[0]]))
    if verb == "lay":
        q, mask = state["picking"], MASK_BY_TEXT[args[0]]
        first = f"New tile for {square_text(q)}"
        if mask == state["board"][q]:
            return (first, "Keep the tile there")
        return (first, SHAPE_WORD[SHAPE_OF[mask]], openings_label(mask))
    return {"confirm": ("Confirm changes",), "cancel": ("Cancel",), "pass": ("End turn",)}[verb]
