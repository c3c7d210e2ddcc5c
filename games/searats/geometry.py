"""The ocean of Sea Rats!: an 11×11 grid of dots, columns A–K and rows 1–11 (row 1 at the top).

A dot is stored as one int, ``row * 11 + col`` (0-based), so states stay small JSON. Ships sail and fire
along rows, columns and diagonals; the distance between two dots on such a line is the number of steps.
"""

from __future__ import annotations

from games.i18n import T

SIZE = 11
COLUMNS = "abcdefghijk"

DIRECTIONS: dict[str, tuple[int, int]] = {
    "n": (0, -1),
    "ne": (1, -1),
    "e": (1, 0),
    "se": (1, 1),
    "s": (0, 1),
    "sw": (-1, 1),
    "w": (-1, 0),
    "nw": (-1, -1),
}
"""The eight directions as (column step, row step); north is toward row 1."""

DIRECTION_NAMES = {
    "n": T("North"),
    "ne": T("North-east"),
    "e": T("East"),
    "se": T("South-east"),
    "s": T("South"),
    "sw": T("South-west"),
    "w": T("West"),
    "nw": T("North-west"),
}
"""Each direction's name as a label shows it (marked)."""


def dot(col: int, row: int) -> int:
    """The dot at 0-based ``col`` and ``row``."""
    return row * SIZE + col


def coords(at: int) -> tuple[int, int]:
    """``(col, row)``, 0-based, of a dot."""
    return at % SIZE, at // SIZE


def parse(name: str) -> int:
    """``"f6"`` -> the dot F6."""
    col = COLUMNS.index(name[0].lower())
    row = int(name[1:]) - 1
    if not 0 <= row < SIZE:
        raise ValueError(name)
    return dot(col, row)


def name(at: int) -> str:
    """The dot's name as printed on the map, ``"F6"``."""
    col, row = coords(at)
    return f"{COLUMNS[col].upper()}{row + 1}"


X = parse("f6")
"""The Treasure's place, the centre dot."""

PORTS: dict[int, int] = {
    1: parse("c1"),
    2: parse("i1"),
    3: parse("k6"),
    4: parse("i11"),
    5: parse("c11"),
    6: parse("a6"),
}
"""Port number -> its dot on the ocean's edge."""

PORT_AT: dict[int, int] = {at: number for number, at in PORTS.items()}
"""Dot -> the port number there."""


def _distance(a: int, b: int) -> int | None:
    ac, ar = coords(a)
    bc, br = coords(b)
    dc, dr = abs(ac - bc), abs(ar - br)
    if dc == 0 or dr == 0 or dc == dr:
        return max(dc, dr)
    return None


def _ray(start: int, direction: str) -> tuple[int, ...]:
    dc, dr = DIRECTIONS[direction]
    col, row = coords(start)
    dots = []
    while 0 <= col + dc < SIZE and 0 <= row + dr < SIZE:
        col += dc
        row += dr
        dots.append(dot(col, row))
    return tuple(dots)


DOTS = range(SIZE * SIZE)
DISTANCES = tuple(tuple(_distance(a, b) for b in DOTS) for a in DOTS)
RAYS = tuple({direction: _ray(at, direction) for direction in DIRECTIONS} for at in DOTS)
"""Every distance and every line from every dot, worked out once: the AI and the legal-move lists ask
for them hundreds of times per turn."""


def distance(a: int, b: int) -> int | None:
    """Steps from ``a`` to ``b`` along a row, column or diagonal; ``None`` if they are not in a straight line."""
    return DISTANCES[a][b]


def ray(start: int, direction: str, steps: int) -> tuple[int, ...]:
    """The dots ``1..steps`` away from ``start`` in ``direction`` that lie on the grid, nearest first."""
    return RAYS[start][direction][:steps]


def reach(start: int, direction: str, steps: int, occupied: set[int] | frozenset[int]) -> list[int]:
    """The dots a ship at ``start`` may end on sailing ``direction`` at most ``steps`` dots: never off the
    grid, never onto or over an occupied dot."""
    dots = []
    for at in RAYS[start][direction][:steps]:
        if at in occupied:
            break
        dots.append(at)
    return dots
