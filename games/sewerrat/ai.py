"""A heuristic Sewer Rat player: keep its own rat (and its team's) free to move, hem the others in.

The measure of a rat's safety is its *freedom*: the directions it can run in, the squares it can stop
on (a few per direction count) and its toilets. A rat with one way out dies to one trap; with none it
is out. Every decision (placing the rat, fleeing a trap, putting the roller's traps, moving, pushing a
black trap, changing two tiles at once to open or close an edge) is the candidate with the best
balance of friendly and hostile freedom. It decides from the public view only (nothing is secret).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.core import JSON, Action, Game, Player, act
from games.sewerrat.actions import dots
from games.sewerrat.board import add_trap, escapes, free_squares, freedom, moves, pushes
from games.sewerrat.components import (
    BLACK,
    DIR_NAME,
    DIRECTIONS,
    NEIGHBOUR,
    OPPOSITE,
    RED,
    SHAPE_OF,
    mask_text,
    square_text,
    toilet_exit,
)
from games.sewerrat.flow import team_of
from games.sewerrat.plumbing import INNER_EDGES
from games.sewerrat.tiles import change_problem, tile_masks, tile_squares

MARGIN = 0.5
"""How much better than doing nothing a push or tile change must look to be worth it."""
SHORTLIST = 6
"""How many of its best-scored trap squares, pushes and tile changes the AI offers the hard AI's search."""


def balance(state: JSON, seat: int, board: list[int], traps: list[int], rats: Sequence[int | None]) -> float:
    """Friendly freedom minus the mean hostile freedom (the own rat counts double)."""
    placed = {q for q in rats if q is not None}
    mine = team_of(state, seat)
    friends = 0.0
    foes = 0.0
    count = 0
    for s, q in enumerate(rats):
        if q is None:
            continue
        value = freedom(board, traps, placed, q)
        if s == seat:
            friends += 2.0 * value
        elif team_of(state, s) == mine:
            friends += value
        else:
            foes += value
            count += 1
    return friends - (foes / count if count else 0.0)


def _moved(rats: Sequence[int | None], seat: int, q: int) -> list[int | None]:
    new = list(rats)
    new[seat] = q
    return new


def _near(state: JSON, seat: int, *, foes_only: bool) -> set[int]:
    """Squares where a trap or a tile matters to a rat (of another team, with ``foes_only``): its stops
    and the squares beside it."""
    mine = team_of(state, seat)
    out: set[int] = set()
    for s, q in enumerate(state["rats"]):
        if q is None or (foes_only and team_of(state, s) == mine):
            continue
        runs, _ = moves(state, s)
        for stops in runs.values():
            out.update(stops)
        out.update(n for n in NEIGHBOUR[q].values() if n >= 0)
    return out


def _first_pick(supply: dict[str, int], *picks: tuple[int, int, int]) -> int | None:
    """Which square of a two-tile change to pick first so that each pick finds its tile in the supply
    (a replaced tile goes back before the second pick), or ``None`` if neither order works."""
    for a, b in (picks, picks[::-1]):
        left = dict(supply)
        ok = True
        for _, old, new in (a, b):
            if SHAPE_OF[old] != SHAPE_OF[new]:
                if left[SHAPE_OF[new]] <= 0:
                    ok = False
                    break
                left[SHAPE_OF[new]] -= 1
                left[SHAPE_OF[old]] += 1
        if ok:
            return a[0]
    return None


class SewerRatAI(Player):
    """Greedy on freedom, one decision at a time."""

    name = "Sewer Rat AI"

    def choose(self, game: Game, state: JSON, seat: int, rng: random.Random) -> Action:
        phase = state["phase"]
        handler = getattr(self, f"_{phase}")
        return handler(state, seat, rng)

    def _best(self, scored: list[tuple[float, Action]], rng: random.Random) -> Action:
        top = max(score for score, _ in scored)
        return rng.choice([a for score, a in scored if score >= top - 1e-9])

    def _place(self, state: JSON, seat: int, rng: random.Random) -> Action:
        board, traps, rats = state["board"], state["traps"], state["rats"]
        scored = [
            (balance(state, seat, board, traps, _moved(rats, seat, q)), act("place", square_text(q)))
            for q in dots(state)
        ]
        return self._best(scored, rng)

    def _displace(self, state: JSON, seat: int, rng: random.Random) -> Action:
        board, rats = state["board"], state["rats"]
        traps = list(state["traps"])
        for _, fall in state["queue"]:  # the trap that displaced the rat and any still to fall
            if fall >= 0:
                traps[fall] = RED
        scored = [
            (balance(state, seat, board, traps, _moved(rats, seat, there)), act("flee", DIR_NAME[d]))
            for d, there in escapes(state, seat).items()
        ]
        return self._best(scored, rng)

    def shortlist(self, game: Game, state: JSON, seat: int) -> list[Action]:
        """For the search: the best few trap squares, and the best few pushes and tile changes beside passing.
        The picks and tiles of a change go on with the plan its first pick was chosen for."""
        phase = state["phase"]
        if phase == "put":
            scored = self._put_scores(state, seat)
        elif phase == "after":
            scored = self._follow_ups(state, seat)
        elif phase in ("tile", "tiles"):
            return [self.choose(game, state, seat, random.Random(0))]  # these choices draw nothing at random
        else:
            return game.legal_actions(state, seat)
        ranked = dict.fromkeys(a for _, a in sorted(scored, key=lambda pair: -pair[0]))
        return list(ranked)[:SHORTLIST]

    def _put(self, state: JSON, seat: int, rng: random.Random) -> Action:
        return self._best(self._put_scores(state, seat), rng)

    def _put_scores(self, state: JSON, seat: int) -> list[tuple[float, Action]]:
        kind = state["queue"][0][0]
        free = free_squares(state)
        near = _near(state, seat, foes_only=True)
        candidates = [q for q in free if q in near] or free
        board, rats = state["board"], state["rats"]
        scored = []
        for q in candidates:
            traps = list(state["traps"])
            add_trap(traps, q, RED if kind == "red" else BLACK)
            scored.append((balance(state, seat, board, traps, rats), act(kind, square_text(q))))
        return scored

    def _extra(self, state: JSON, seat: int, rng: random.Random) -> Action:
        """One red trap or two black ones: whichever leaves the better balance, the two black traps placed
        one after the other as :meth:`_put` would (a black one on a black one makes a red one)."""
        red = self._best_trap(state, seat, list(state["traps"]), "red")
        first = self._best_trap(state, seat, list(state["traps"]), "black")
        blacks = self._best_trap(state, seat, first[1], "black")
        return act("extra", "red") if red[0] > blacks[0] else act("extra", "black")

    def _best_trap(self, state: JSON, seat: int, traps: list[int], kind: str) -> tuple[float, list[int]]:
        """The best balance one trap of ``kind`` can leave on ``traps``, and the traps it leaves."""
        rats = state["rats"]
        placed = {q for q in rats if q is not None}
        near = _near(state, seat, foes_only=True)
        free = [q for q in range(len(traps)) if traps[q] != RED and q not in placed]
        best: tuple[float, list[int]] = (float("-inf"), traps)
        for q in [q for q in free if q in near] or free:
            after = list(traps)
            add_trap(after, q, RED if kind == "red" else BLACK)
            score = balance(state, seat, state["board"], after, rats)
            if score > best[0]:
                best = (score, after)
        return best

    def _move(self, state: JSON, seat: int, rng: random.Random) -> Action:
        """The move that leaves the best balance."""
        rats = state["rats"]
        runs, sides = moves(state, seat)
        targets = [(q, act("move", DIR_NAME[d], k + 1)) for d, stops in runs.items() for k, q in enumerate(stops)]
        targets += [(toilet_exit(rats[seat], d), act("toilet", DIR_NAME[d])) for d in sides]
        scored = [(balance(state, seat, state["board"], state["traps"], _moved(rats, seat, q)), a) for q, a in targets]
        return self._best(scored, rng)

    def _after(self, state: JSON, seat: int, rng: random.Random) -> Action:
        return self._best(self._follow_ups(state, seat), rng)

    def _follow_ups(self, state: JSON, seat: int) -> list[tuple[float, Action]]:
        """Passing, and the pushes and two-tile changes near a rat, each with the balance it leaves."""
        board, traps, rats = state["board"], state["traps"], state["rats"]
        base = balance(state, seat, board, traps, rats)
        scored: list[tuple[float, Action]] = [(base + MARGIN, act("pass"))]
        near = _near(state, seat, foes_only=False)
        for q, d in pushes(state):
            there = NEIGHBOUR[q][d]
            if q not in near and there not in near:
                continue
            moved = list(traps)
            moved[q] = 0
            add_trap(moved, there, BLACK)  # a pushed black trap
            scored.append((balance(state, seat, board, moved, rats), act("push", square_text(q), DIR_NAME[d])))
        scored += self._toggles(state, seat, near)
        return scored

    def _edges(self, state: JSON, seat: int, near: set[int]) -> list[tuple[float, int, int]]:
        """Two-tile changes that open or close one inner edge next to a rat's runs: the balance each
        leaves, the square to pick first and the tile it gets."""
        board, traps, rats = state["board"], state["traps"], state["rats"]
        placed = {q for q in rats if q is not None}
        supply = state["supply"]
        out = []
        for q, d, there in INNER_EDGES:
            if (q not in near and there not in near) or q in placed or there in placed or traps[q] or traps[there]:
                continue
            new_q, new_there = board[q] ^ d, board[there] ^ OPPOSITE[d]
            first = _first_pick(supply, (q, board[q], new_q), (there, board[there], new_there))
            if first is None:
                continue
            changed = list(board)
            changed[q], changed[there] = new_q, new_there
            out.append((balance(state, seat, changed, traps, rats), first, changed[first]))
        return out

    def _toggles(self, state: JSON, seat: int, near: set[int]) -> list[tuple[float, Action]]:
        return [(value, act("tile", square_text(first))) for value, first, _ in self._edges(state, seat, near)]

    def _tile(self, state: JSON, seat: int, rng: random.Random) -> Action:
        """Lay the picked square's tile: its half of the best edge to open or close (the first pick), the
        tile that completes the planned edge (the second), or the same tile if the plan fails."""
        q, board = state["picking"], state["board"]
        allowed = tile_masks(state, q)
        if state["pending"]:
            p, mask = state["pending"][0]
            flipped = board[p] ^ mask
            if flipped in DIRECTIONS and NEIGHBOUR[p][flipped] == q and board[q] ^ OPPOSITE[flipped] in allowed:
                return act("lay", mask_text(board[q] ^ OPPOSITE[flipped]))
            return act("lay", mask_text(board[q]))
        options = [(v, m) for v, first, m in self._edges(state, seat, {q}) if first == q and m in allowed]
        if not options:
            return act("lay", mask_text(board[q]))
        return act("lay", mask_text(max(options)[1]))

    def _tiles(self, state: JSON, seat: int, rng: random.Random) -> Action:
        """Go on with the planned two-tile change: pick the partner square, confirm it, or give up."""
        pending = state["pending"]
        if state["refused"] or len(pending) > 2:
            return act("cancel")
        if len(pending) == 2:
            return act("confirm") if change_problem(state) is None else act("cancel")
        q, mask = pending[0]
        flipped = state["board"][q] ^ mask
        if flipped not in DIRECTIONS:
            return act("cancel")
        there = NEIGHBOUR[q][flipped]
        if there < 0 or there not in tile_squares(state):
            return act("cancel")
        return act("tile", square_text(there))
