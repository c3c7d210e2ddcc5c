"""A heuristic Piratz player.

It values a card by how much each of its symbols raises the chance of winning the cube(s) beside
that type: the chance of beating an opponent on a type is a logistic function of the symbol lead,
flattened by the number of symbols of that type still to be collected. From those marginal values it

* values a pass by its haul, less what the leftover cards would give the best opponent;
* reveals whenever no rat lies in the middle: no alert can follow, and passing stays possible;
* with a rat in the middle, reveals while the haul is below a threshold, and beyond it (or as the
  last spade holder) only while the expected gain of one more card outweighs the chance of a rat
  alert times what the alert would cost;
* after revealing, passes once the haul reaches the threshold, else ends the turn;
* on a rat alert takes the rat card worth more to it, or none when no rat card is worth taking
  (a card adds its symbols and a rat for the tie-break, and leaves less to the others, so in practice
  it always takes one); buries the card an opponent wants most, and keeps rats in the middle to
  threaten the next revealer.

The weights in :class:`Params` were tuned by self-play against the previous settings.

It reads only what :meth:`Piratz.view` shows a seat: the middle, the collected piles (unless blind),
the cubes, who holds a spade, and the public card list, from which it counts the cards not yet
seen. It reads those fields from the state directly instead of building the whole view, which would
cost more than the decision itself; the conformance suite (``tests/test_engines.py``) checks that its
choices never depend on anything the view hides.
"""

from __future__ import annotations

import functools
import math
import random
from dataclasses import dataclass
from typing import ClassVar

from games.core import JSON, Action, Game, Player

from .cards import CARDS, SKULL_IDS, SYMBOL_TOTALS, TYPES
from .engine import (
    BURY,
    END,
    PASS_NOTHING,
    PASS_TYPE,
    RAT,
    RAT_ALERT,
    REVEAL,
    SYMS,
    TAKE_NONE,
    symbol_counts,
    unburied,
)

NT = len(TYPES)
TOTALS_ALL: tuple[int, ...] = tuple(SYMBOL_TOTALS[t] for t in TYPES)
TOTALS_2P: tuple[int, ...] = tuple(a - b for a, b in zip(TOTALS_ALL, symbol_counts(SKULL_IDS), strict=True))


@dataclass(frozen=True, slots=True)
class Params:
    """Tunable weights of the heuristic."""

    spread: float = 0.6
    """Base width of the logistic curve, in symbols."""
    spread_per_left: float = 0.05
    """Extra width per symbol of that type still to be collected."""
    leftover: float = 0.6
    """Weight of what the leftover cards are worth to the best opponent."""
    threshold: float = 1.5
    """Haul value at which a player holding one of several spades passes, with 2 players."""
    threshold_more: float = 3.0
    """The same with 3–4 players (two cubes per type raise the stakes)."""
    bury_self: float = 0.3
    """How much the buryer's own interest in a card counts against burying it."""
    rat_keep: float = 0.15
    """Bonus for leaving a rat card unburied (it threatens the next revealer)."""


class PiratzAI(Player):
    """Marginal-value heuristic: see the module docstring."""

    name: ClassVar[str] = "Piratz AI"

    def __init__(self, params: Params | None = None) -> None:
        self.params = params or Params()

    def choose(self, game: Game, state: JSON, seat: int, rng: random.Random) -> Action:
        actions = game.legal_actions(state, seat)
        if len(actions) == 1:
            return actions[0]
        middle = unburied(state)
        if REVEAL in actions and not any(RAT[c] for c in middle):
            # With no rat in the middle a look is free: no alert can follow, and passing stays possible.
            return REVEAL
        piles = state["piles"]
        mv = marginal_values(
            self.params,
            tuple(map(tuple, state["cubes"])),
            tuple(map(len, piles)),
            None if state["options"]["blind"] else tuple(map(tuple, piles)),
        )
        return _Decision(self.params, state, seat, middle, mv).choose(actions)


@functools.lru_cache(maxsize=1024)
def marginal_values(
    p: Params,
    cubes: tuple[tuple[int, ...], ...],
    sizes: tuple[int, ...],
    piles: tuple[tuple[int, ...], ...] | None,
) -> tuple[tuple[float, ...], ...]:
    """``mv[seat][type]``: how much one more symbol of the type raises the seat's expected cube points,
    given the cubes, the pile sizes and the piles' contents (``None`` when blind). Cached: the values
    change only when a pile grows."""
    n = len(sizes)
    totals = TOTALS_2P if n == 2 else TOTALS_ALL
    if piles is None:
        # Contents unknown: every pile counts as empty, and the piles hold an average share of each type.
        counts = [[0] * NT for _ in range(n)]
        rats = [0] * n
        share = sum(sizes) / (len(CARDS) - (len(SKULL_IDS) if n == 2 else 0))
        left = [totals[t] * max(0.0, 1 - share) for t in range(NT)]
    else:
        counts = [symbol_counts(pile) for pile in piles]
        rats = [sum(RAT[c] for c in pile) for pile in piles]
        left = [totals[t] - sum(counts[s][t] for s in range(n)) for t in range(NT)]
    # Opponents' counts are shifted by the tie-breaks (more rats, then fewer cards).
    shifts = [
        [
            (
                o,
                0.3 * ((rats[s] > rats[o]) - (rats[s] < rats[o]))
                or 0.1 * ((sizes[o] > sizes[s]) - (sizes[o] < sizes[s])),
            )
            for o in range(n)
            if o != s
        ]
        for s in range(n)
    ]
    table = [[0.0] * NT for _ in range(n)]
    for t in range(NT):
        values = cubes[t]
        if not values or left[t] <= 0:
            continue
        spread = p.spread + p.spread_per_left * left[t]
        for s in range(n):
            mine = counts[s][t]
            others = [counts[o][t] - shift for o, shift in shifts[s]]
            gain = _cube_value(mine + 1, others, spread, values)
            table[s][t] = gain - _cube_value(mine, others, spread, values) if mine else gain
    return tuple(map(tuple, table))


def _cube_value(mine: int, others: list[float], spread: float, values: tuple[int, ...]) -> float:
    """Expected cube points for ``mine`` symbols against ``others`` (pairwise logistic chances)."""
    ps = [1.0 / (1.0 + math.exp((o - mine) / spread)) for o in others]
    first = math.prod(ps)
    value = values[0] * first
    if len(values) > 1:
        value += values[1] * sum((1 - pj) * first / pj for pj in ps)
    return value


class _Decision:
    """The public information one decision needs, and the rules of thumb applied to it."""

    def __init__(
        self, params: Params, state: JSON, seat: int, middle: list[int], mv: tuple[tuple[float, ...], ...]
    ) -> None:
        self.p = params
        self.state = state
        self.seat = seat
        self.mv = mv
        self.threshold = params.threshold if state["seats"] == 2 else params.threshold_more
        self.middle = middle
        # Value of each face-up unburied card to every seat.
        self.values = [{c: sum(row[t] for t in SYMS[c]) for c in self.middle} for row in mv]
        self.mine = self.values[seat]
        self.theirs = [self.values[s] for s in range(state["seats"]) if s != seat]

    @property
    def unseen(self) -> list[int]:
        """Cards in play that are neither in the middle nor (unless blind) in a visible pile."""
        state = self.state
        seen = set(state["middle"]) | set(state["removed"])
        if not state["options"]["blind"]:
            for pile in state["piles"]:
                seen.update(pile)
        return [c for c in range(len(CARDS)) if c not in seen]

    def card_value(self, c: int) -> float:
        """Value of any card (in the middle or not) to the deciding seat."""
        row = self.mv[self.seat]
        return sum(row[t] for t in SYMS[c])

    def threat(self, cards: list[int]) -> float:
        """What the best opponent would gain by passing on ``cards``, after the buryer covers one of them."""
        best = 0.0
        for values in self.theirs:
            sums = [0.0] * NT
            top = [0.0] * NT
            for c in cards:
                v = values[c]
                for t in SYMS[c]:
                    sums[t] += v
                    if v > top[t]:
                        top[t] = v
            best = max(best, *(a - b for a, b in zip(sums, top, strict=True)))
        return best

    def pass_options(self) -> list[tuple[float, int]]:
        """(value, type) of every type one could pass on now."""
        out = []
        mine = self.mine
        for t in {t for c in self.middle for t in SYMS[c]}:
            gain = 0.0
            rest = []
            for c in self.middle:
                if t in SYMS[c]:
                    gain += mine[c]
                else:
                    rest.append(c)
            out.append((gain - self.p.leftover * self.threat(rest), t))
        return out

    # ------------------------------------------------------------------ decisions

    def choose(self, actions: list[Action]) -> Action:
        phase = self.state["phase"]
        if phase == RAT_ALERT:
            return max(actions, key=self._alert_value)
        if phase == BURY:
            return max(actions, key=lambda a: self._bury_value(int(a.args[0])))
        options = self.pass_options()
        if not options:
            return REVEAL if REVEAL in actions else PASS_NOTHING
        value, best = max(options)
        pass_best = PASS_TYPE[best]
        if REVEAL not in actions:
            return END if END in actions and value < self.threshold else pass_best
        if self.state["spades"].count(True) > 1 and value < self.threshold:
            return REVEAL
        return REVEAL if self._reveal_gain(value, best) > 0 else pass_best

    def _alert_value(self, action: Action) -> float:
        """What taking the rat card of ``action`` (or none) is worth, less what it leaves the others."""
        if action == TAKE_NONE:
            return -self.p.leftover * self.threat(self.middle)
        return self._take_value(int(action.args[0]))

    def _take_value(self, c: int) -> float:
        rest = [x for x in self.middle if x != c]
        return self.mine[c] - self.p.leftover * self.threat(rest)

    def _bury_value(self, c: int) -> float:
        deny = max(values[c] for values in self.theirs)
        return deny - self.p.bury_self * self.mine[c] - self.p.rat_keep * RAT[c]

    def _reveal_gain(self, value: float, best: int) -> float:
        """Expected change of the haul from revealing one more card with a rat in the middle."""
        unseen = self.unseen
        if not unseen:
            return -1.0
        rats = [c for c in unseen if RAT[c]]
        p_rat = len(rats) / len(unseen)
        # After an alert the revealer takes the better of the waiting rat card and the new one.
        waiting = max(self._take_value(c) for c in self.middle if RAT[c])
        alert = sum(max(waiting, self.card_value(c)) for c in rats) / len(rats) if rats else 0.0
        fits = sum(self.card_value(c) for c in unseen if not RAT[c] and best in SYMS[c])
        gain = fits / len(unseen)
        return gain - p_rat * (value - alert)
