"""Where a rat may go and where a trap may be put: straight runs along pipes, toilets, trap pushes.

These read the state's ``board`` (a tile mask per square), ``traps`` (0 none, 1 black, 2 red per square)
and ``rats`` (each seat's square, ``None`` once it is out), and never change them.
"""

from __future__ import annotations

from collections.abc import Collection

from games.core import JSON
from games.sewerrat.components import BLACK, DIRECTIONS, NEIGHBOUR, OUTWARD, RED, SQUARES, toilet_exit


def occupied(state: JSON) -> set[int]:
    """The squares holding a rat."""
    return {q for q in state["rats"] if q is not None}


def run(board: list[int], traps: list[int], rats: Collection[int], start: int, d: int) -> list[int]:
    """The squares a rat on ``start`` may stop on moving in direction ``d``, nearest first.

    The rat leaves through the opening on side ``d``; each square it enters must hold no trap; it may
    stop on one without a rat, and goes on only if that square's pipe runs straight through."""
    stops: list[int] = []
    if not board[start] & d:
        return stops
    here = start
    while True:
        there = NEIGHBOUR[here][d]
        if there < 0 or traps[there]:
            return stops
        if there not in rats:
            stops.append(there)
        if not board[there] & d:
            return stops
        here = there


def toilets(board: list[int], traps: list[int], rats: Collection[int], start: int) -> list[int]:
    """The sides of ``start`` through whose toilet a rat there may travel: neither end square holds a
    trap and the exit holds no rat."""
    sides = OUTWARD[start] & board[start]
    if not sides or traps[start]:
        return []
    out = []
    for d in DIRECTIONS:
        if sides & d:
            exit_ = toilet_exit(start, d)
            if not traps[exit_] and exit_ not in rats:
                out.append(d)
    return out


def moves(state: JSON, seat: int) -> tuple[dict[int, list[int]], list[int]]:
    """The legal moves of ``seat``'s rat: its stops per direction (only directions with one) and the
    sides of its toilets."""
    start = state["rats"][seat]
    rats = occupied(state)
    rats.discard(start)
    board, traps = state["board"], state["traps"]
    runs = {}
    for d in DIRECTIONS:
        stops = run(board, traps, rats, start, d)
        if stops:
            runs[d] = stops
    return runs, toilets(board, traps, rats, start)


def can_move(state: JSON, seat: int) -> bool:
    runs, sides = moves(state, seat)
    return bool(runs or sides)


def escapes(state: JSON, seat: int) -> dict[int, int]:
    """Where a displaced rat may go: per direction, the nearest square it can legally stop on."""
    runs, _ = moves(state, seat)
    return {d: stops[0] for d, stops in runs.items()}


def free_squares(state: JSON) -> list[int]:
    """Squares on which the roller may put a trap: no red trap and no rat."""
    rats = occupied(state)
    traps = state["traps"]
    return [q for q in range(SQUARES) if traps[q] != RED and q not in rats]


def pushes(state: JSON) -> list[tuple[int, int]]:
    """Every black trap push: (trap square, direction) onto a square in the grid with no red trap and
    no rat (traps never go through a toilet)."""
    rats = occupied(state)
    traps = state["traps"]
    out = []
    for q in range(SQUARES):
        if traps[q] == BLACK:
            for d in DIRECTIONS:
                there = NEIGHBOUR[q][d]
                if there >= 0 and traps[there] != RED and there not in rats:
                    out.append((q, d))
    return out


def add_trap(traps: list[int], q: int, kind: int) -> int:
    """Put a trap of ``kind`` on ``q`` (a black onto a black makes a red); returns the square's trap."""
    traps[q] = RED if kind == RED or traps[q] == BLACK else BLACK
    return traps[q]


def freedom(board: list[int], traps: list[int], rats: Collection[int], q: int) -> float:
    """How safe a rat on ``q`` is: -30 when it cannot move; more for more ways out (directions and
    toilets) and for more squares to stop on (up to 3 a direction)."""
    ways = 0
    stops = 0
    for d in DIRECTIONS:
        found = run(board, traps, rats, q, d)  # a straight run never comes back to its own square
        if found:
            ways += 1
            stops += min(len(found), 3)
    ways += len(toilets(board, traps, rats, q))
    return 3.0 * ways + stops if ways else -30.0
