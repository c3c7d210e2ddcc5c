"""The board and the house tile set of Sewer Rat: squares, directions, tiles as opening masks, toilets.

A square is an index 0–63 (row-major); its text form is ``r3c4`` (row 3, column 4, both 1–8, the
numbers of the yellow and green toilets at the ends of that row and column). A tile is the set of its
pipe openings, a 4-bit mask (N=1, E=2, S=4, W=8): every one of the 16 masks is exactly one shape in
one rotation, so a mask names a tile and its orientation at once.
"""

from __future__ import annotations

from games.i18n import P, T

SIZE = 8
SQUARES = SIZE * SIZE

N, E, S, W = 1, 2, 4, 8
DIRECTIONS = (N, E, S, W)
DIR_NAME = {N: "n", E: "e", S: "s", W: "w"}
DIR_BY_NAME = {v: k for k, v in DIR_NAME.items()}
DIR_WORD = {N: T("North"), E: T("East"), S: T("South"), W: T("West")}
"""A direction as a label (a button, a picker's entry)."""
DIR_WAY = {N: T("north"), E: T("east"), S: T("south"), W: T("west")}
"""A direction inside a sentence, the way a rat goes: "runs {direction} to r3c4"."""
DIR_SIDE = {N: T("the north side"), E: T("the east side"), S: T("the south side"), W: T("the west side")}
"""A side of a square inside a sentence: "There is no toilet on {side} of r3c4"."""
OPPOSITE = {N: S, E: W, S: N, W: E}
STEP = {N: (-1, 0), E: (0, 1), S: (1, 0), W: (0, -1)}

TILE_SET: dict[str, int] = {"straight": 32, "elbow": 32, "tee": 20, "cross": 17, "cap": 16, "blank": 3}
"""The house tile set (120 tiles): shape -> number of tiles."""

SHAPE_WORD = {
    "straight": T("Straight"),
    "elbow": T("Elbow"),
    "tee": T("Tee"),
    "cross": T("Cross"),
    "cap": T("Dead end (white dot)"),
    "blank": T("Blank"),
}
"""A tile's shape as a label."""
SHAPE_NAME = {
    "straight": T("straight"),
    "elbow": T("elbow"),
    "tee": T("tee"),
    "cross": T("cross"),
    "cap": T("dead end (white dot)"),
    "blank": T("blank"),
}
"""A tile's shape inside a sentence: "No {shape} tile is left in the supply"."""
TRAPS = ("", "black", "red")
"""A square's trap code in the state: 0 none, 1 black, 2 red."""
BLACK, RED = 1, 2


def shape_of(mask: int) -> str:
    """The shape of the tile with openings ``mask``."""
    count = bin(mask).count("1")
    if count == 2:
        return "straight" if mask in (N | S, E | W) else "elbow"
    return ("blank", "cap", "", "tee", "cross")[count]


SHAPE_OF = tuple(shape_of(m) for m in range(16))


def mask_text(mask: int) -> str:
    """The text form of a tile: its openings in N, E, S, W order (``ne``, ``nesw``), ``blank`` for none."""
    return "".join(DIR_NAME[d] for d in DIRECTIONS if mask & d) or "blank"


MASK_BY_TEXT = {mask_text(m): m for m in range(16)}


COMPASS = {N: P("compass", "N"), E: P("compass", "E"), S: P("compass", "S"), W: P("compass", "W")}
"""A direction's compass letter as a reader's language writes it (German: N, O, S, W)."""


def openings_text(mask: int) -> str:
    """A tile's openings by their compass letters: ``"N–E"`` (German ``"N–O"``; empty for none)."""
    return "–".join(COMPASS[d] for d in DIRECTIONS if mask & d)


def tile_phrase(mask: int) -> str:
    """A tile inside a sentence, with its article: "an elbow N–E", "a dead end S", "a cross", "a blank"."""
    shape, openings = SHAPE_OF[mask], openings_text(mask)
    if shape == "straight":
        return T("a straight {openings}", openings=openings)
    if shape == "elbow":
        return T("an elbow {openings}", openings=openings)
    if shape == "tee":
        return T("a tee {openings}", openings=openings)
    if shape == "cap":
        return T("a dead end {openings}", openings=openings)
    return T("a cross") if shape == "cross" else T("a blank")


def openings_label(mask: int) -> str:
    """``"Openings N–E"`` or ``"No openings"``: a tile's rotation, once its shape is known."""
    openings = openings_text(mask)
    return T("Openings {openings}", openings=openings) if openings else T("No openings")


def square(row: int, col: int) -> int:
    """The square at ``row``, ``col`` (0-based)."""
    return row * SIZE + col


def square_text(sq: int) -> str:
    """``r3c4`` (1-based row and column)."""
    return f"r{sq // SIZE + 1}c{sq % SIZE + 1}"


SQUARE_BY_TEXT = {square_text(q): q for q in range(SQUARES)}


def square_name(sq: int) -> str:
    """A square as a reader's language names it in a sentence: ``r3c4`` in English (the typed form), ``Z3S4``
    in German (*Zeile*, *Spalte*)."""
    return T("r{row}c{column}", row=sq // SIZE + 1, column=sq % SIZE + 1)


def square_label(sq: int) -> str:
    return T("Row {row}, column {column}", row=sq // SIZE + 1, column=sq % SIZE + 1)


def _neighbour(sq: int, d: int) -> int:
    dr, dc = STEP[d]
    r, c = sq // SIZE + dr, sq % SIZE + dc
    return square(r, c) if 0 <= r < SIZE and 0 <= c < SIZE else -1


NEIGHBOUR: tuple[dict[int, int], ...] = tuple({d: _neighbour(q, d) for d in DIRECTIONS} for q in range(SQUARES))
"""``NEIGHBOUR[sq][d]``: the square beside ``sq`` in direction ``d``, or -1 past the edge (a toilet)."""

OUTWARD: tuple[int, ...] = tuple(sum(d for d in DIRECTIONS if NEIGHBOUR[q][d] < 0) for q in range(SQUARES))
"""The sides of each square that face a toilet (0 for the 36 inner squares, two sides at the corners)."""


def toilet_name(sq: int, d: int) -> str:
    """The toilet beside edge square ``sq`` on side ``d``, by its colour's letter in the reader's language:
    ``Y3`` (yellow, a row's end) or ``G5`` (green, a column's); German ``Ge3``, ``Gr5``."""
    return yellow_toilet(sq // SIZE + 1) if d in (E, W) else green_toilet(sq % SIZE + 1)


def yellow_toilet(n: int) -> str:
    """Yellow toilet ``n`` (at both ends of row ``n``), as it is drawn and named."""
    return T("Y{n}", n=n)


def green_toilet(n: int) -> str:
    """Green toilet ``n`` (at both ends of column ``n``), as it is drawn and named."""
    return T("G{n}", n=n)


def toilet_exit(sq: int, d: int) -> int:
    """Where a rat entering the toilet beside ``sq`` on side ``d`` pops out: the first square at the
    opposite end of the same row (yellow) or column (green)."""
    row, col = divmod(sq, SIZE)
    if d in (E, W):
        return square(row, 0 if d == E else SIZE - 1)
    return square(0 if d == S else SIZE - 1, col)
