"""Valid plumbing: the check and the seeded layout the bot lays at setup.

A plumbing is valid when every opening meets an opening of the neighbouring tile, every edge square
opens toward each toilet beside it, and so the circle caps are the only ends. Validity is local, so a
valid board is the same thing as a choice, for each of the 112 inner edges, of open or closed: the tile
of a square is then the set of its open sides (plus its sides facing toilets).
"""

from __future__ import annotations

import random
from collections import Counter

from games.i18n import T
from games.sewerrat.components import (
    DIRECTIONS,
    NEIGHBOUR,
    OPPOSITE,
    OUTWARD,
    SHAPE_OF,
    SQUARES,
    TILE_SET,
    E,
    S,
    square_name,
)

MIN_DOTS = 8
"""A laid plumbing has at least this many white dots (one per rat, with room to choose)."""

OPEN_CHANCE = 0.58
"""The chance that an inner edge starts open: enough crossings for long runs, enough caps for the dots."""

INNER_EDGES: tuple[tuple[int, int, int], ...] = tuple(
    (q, d, NEIGHBOUR[q][d]) for q in range(SQUARES) for d in (E, S) if NEIGHBOUR[q][d] >= 0
)
"""Each inner edge once: (square, side E or S, the square beyond)."""


def problem(board: list[int]) -> str | None:
    """Why ``board`` (a tile mask per square) is not a valid plumbing, or ``None`` if it is."""
    for q in range(SQUARES):
        mask = board[q]
        if mask & OUTWARD[q] != OUTWARD[q]:
            return T("{square} must open toward its toilet", square=square_name(q))
        for d in DIRECTIONS:
            there = NEIGHBOUR[q][d]
            if there >= 0 and bool(mask & d) != bool(board[there] & OPPOSITE[d]):
                return T(
                    "the pipes of {square} and {other} do not meet", square=square_name(q), other=square_name(there)
                )
    return None


def shape_counts(board: list[int]) -> Counter[str]:
    return Counter(SHAPE_OF[m] for m in board)


def _cost(counts: Counter[str]) -> int:
    excess = sum(max(0, counts[shape] - limit) for shape, limit in TILE_SET.items())
    return excess + max(0, MIN_DOTS - counts["cap"])


def lay(rng: random.Random) -> list[int]:
    """A random valid plumbing from the house tile set with at least :data:`MIN_DOTS` white dots.

    Inner edges start open at random; then random edges are flipped, keeping each flip that does not
    make the layout worse, until no shape is used more often than the set holds and there are enough
    dots. Every state of the search is a valid plumbing, so the search only has to fix the counts; it
    always ends (restarting from a new random layout in the unlikely case that it stalls)."""
    while True:
        board = list(OUTWARD)
        for q, d, there in INNER_EDGES:
            if rng.random() < OPEN_CHANCE:
                board[q] |= d
                board[there] |= OPPOSITE[d]
        counts = shape_counts(board)
        cost = _cost(counts)
        for _ in range(2000):
            if cost == 0:
                return board
            q, d, there = rng.choice(INNER_EDGES)
            before = (board[q], board[there])
            after = (board[q] ^ d, board[there] ^ OPPOSITE[d])
            for old, new in zip(before, after, strict=True):
                counts[SHAPE_OF[old]] -= 1
                counts[SHAPE_OF[new]] += 1
            new_cost = _cost(counts)
            if new_cost <= cost:
                board[q], board[there] = after
                cost = new_cost
            else:
                for old, new in zip(before, after, strict=True):
                    counts[SHAPE_OF[new]] -= 1
                    counts[SHAPE_OF[old]] += 1


def supply_after(board: list[int]) -> dict[str, int]:
    """The tiles of the house set that ``board`` does not use."""
    counts = shape_counts(board)
    return {shape: limit - counts[shape] for shape, limit in TILE_SET.items()}
