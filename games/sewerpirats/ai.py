"""A heuristic Sewer Pirats player that sees only its own view.

It values tokens by what they add to its score plus a share of what they may add later (a parrot
for its toys, a can opener for its tins, a ketchup for its fries...), estimates what each figure
would seize from the group in front of a ship given the figures ahead of it, and prices a Talisman
card at a fixed number of points. Each decision takes the option with the best estimate.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cached_property

from games.core import JSON, Action, Game, Player
from games.sewerpirats.board import CAPTAIN, SHIP_INDEX
from games.sewerpirats.components import HAND_LIMIT
from games.sewerpirats.sailing import toad_target
from games.sewerpirats.scoring import FOOD
from games.sewerpirats.view import build_view

CARD = 1.6
"""Points one Talisman card is worth when spent."""
TOTAL_GROUPS = 14
MARKET = {"fries": 1.0, "noodles": 1.0, "burger": 1.0, "teddy": 0.5, "doll": 0.5, "tincan": 0.5}
"""How much of its printed value a booty token is worth to a typical player (the others' picks)."""
TRIBE_CARDS = {"rats": 2.5, "cockroaches": 2.0, "weasels": 1.5, "toads": 1.5, "raccoons": 1.0, "snails": 0.5}
"""Auction: how many cards each tribe's ability is worth."""
FOOD_BONUS = {booty: (bonus, plus) for booty, bonus, plus, _ in FOOD}
BONUS_FOOD = {bonus: (booty, plus) for booty, bonus, plus, _ in FOOD}


def _grouped(tokens: Sequence[JSON]) -> dict[str, list[int]]:
    grouped: dict[str, list[int]] = {}
    for token in tokens:
        grouped.setdefault(token["type"], []).append(token["value"])
    return grouped


def _toys(grouped: dict[str, list[int]], future: float) -> float:
    teddy, doll = sum(grouped.get("teddy", ())), sum(grouped.get("doll", ()))
    parrots = len(grouped.get("parrot", ()))
    if parrots == 0:
        return future * 0.35 * (teddy + doll)
    if parrots == 1:
        return max(teddy, doll) + 1 + future * (0.3 * min(teddy, doll) + 3)
    return teddy + doll + parrots


def _cans(grouped: dict[str, list[int]], future: float) -> float:
    cans = sorted(grouped.get("tincan", ()), reverse=True)
    openers = len(grouped.get("opener", ()))
    return sum(cans[:openers]) + future * (0.35 * sum(cans[openers:]) + 4 * max(openers - len(cans), 0))


def token_gain(grouped: dict[str, list[int]], token: JSON, future: float) -> float:
    """What ``token`` adds to a collection: its score now plus a share of the combinations it may
    still make (``future`` is the share of flotsam groups not yet taken, 1 at the start)."""
    kind, value = token["type"], token["value"]
    if kind in FOOD_BONUS:
        bonus, plus = FOOD_BONUS[kind]
        return value + plus * (len(grouped.get(bonus, ())) + 0.25 * future)
    if kind in BONUS_FOOD:
        food, plus = BONUS_FOOD[kind]
        return plus * (len(grouped.get(food, ())) + 1.2 * future)
    category = _toys if kind in ("teddy", "doll", "parrot") else _cans
    before = category(grouped, future)
    values = grouped.setdefault(kind, [])
    values.append(value)
    after = category(grouped, future)
    values.pop()
    return after - before


class SewerPiratsAI(Player):
    """Greedy heuristic play for every variant, from ``game.view(state, seat)`` only."""

    name = "Heuristic"

    def choose(self, game: Game, state: JSON, seat: int, rng: random.Random) -> Action:
        actions = game.legal_actions(state, seat)
        if len(actions) == 1:
            return actions[0]
        return _Turn(build_view(state, seat, brief=True), seat).best(actions)


class _Turn:
    """One decision: the view, with the token gains and card counts it needs, computed once."""

    def __init__(self, view: JSON, seat: int) -> None:
        self.view = view
        self.seat = seat
        self.hand: list[str] = view["hand"]
        self.mine = _grouped(view["players"][seat]["tokens"])
        on_board = sum(g is not None for ship in view["ships"] for g in ship["flotsam"])
        self.future = min(1.0, (view["groups_left"] + on_board) / TOTAL_GROUPS)
        self.abilities: bool = view["abilities"]
        self._gains: dict[tuple[str, int], float] = {}
        self._takes_cache: dict[tuple[int, int, int], float] = {}
        self._positions: dict[tuple[int, int, str], float] = {}

    def gain(self, token: JSON) -> float:
        """What a token adds to my collection's worth."""
        key = (token["type"], token["value"])
        value = self._gains.get(key)
        if value is None:
            value = self._gains[key] = token_gain(self.mine, token, self.future)
        return value

    def best(self, actions: list[Action]) -> Action:
        """The action with the best estimate among the legal ``actions``."""
        verbs = {a.verb for a in actions}
        if self.view["sailing"] is not None:
            return self._seize(actions)
        if self.view["auction"] is not None:
            return self._auction(actions)
        if verbs == {"discard"}:
            return self._discard(actions)
        if verbs == {"snail"}:
            return Action("snail", ("reveal",))
        if verbs == {"tribe"}:
            return max(actions, key=lambda a: TRIBE_CARDS[a.args[0]])
        return max(actions, key=self._action_value)

    def _discard(self, actions: list[Action]) -> Action:
        """Discard (or pay) the symbol I hold most of and need least."""
        return max(actions, key=lambda a: self.hand.count(a.args[0]) - self._need[SHIP_INDEX[a.args[0]]])

    # ------------------------------------------------------------------ seizing

    def _seize(self, actions: list[Action]) -> Action:
        """Seize the token worth most to me. A rat's second token is always worth taking (every token
        adds to a score or denies it), so ``stop`` is worth nothing. A toad stays aboard when becoming
        captain for free beats the best token, or when the best token is worth little."""
        sailing = self.view["sailing"]
        s = SHIP_INDEX[sailing["ship"]]
        ship = self.view["ships"][s]
        booty = ship["flotsam"][0]["booty"]

        def value(action: Action) -> float:
            if action.verb == "seize":
                token = booty[int(action.args[0]) - 1]
                return self.gain(token) + 0.01 * token["value"]
            if action.verb == "stop":
                return 0.0
            if toad_target(self.view, s, sailing["space"], self.seat) == CAPTAIN:
                # The toad captain will seize the next group first, for free.
                nxt = ship["flotsam"][1]
                return self._captain_take(nxt, "toads") if nxt is not None else 0.0
            return 0.5

        return max(actions, key=value)

    # ------------------------------------------------------------------ ships

    def _takes(self, tribe: str) -> int:
        return 2 if self.abilities and tribe == "rats" else 1

    @cached_property
    def _ahead(self) -> list[list[int]]:
        """Per ship and crew space index: how many tokens the figures on the spaces ahead take first."""
        ahead = []
        for ship in self.view["ships"]:
            counts, behind = [0] * (CAPTAIN + 1), 0
            for i in range(CAPTAIN, -1, -1):
                counts[i] = behind
                fig = ship["spaces"][i]
                if fig is not None:
                    behind += self._takes(fig["tribe"])
            ahead.append(counts)
        return ahead

    def _crew_take(self, s: int, target: int, tribe: str) -> float:
        """My estimated gain for a figure of ``tribe`` on crew space index ``target`` of ship ``s`` if it
        sailed now (the moving figure is never ahead of its own target, so it does not count there)."""
        group = self.view["ships"][s]["flotsam"][0]
        if group is None:
            return 0.0
        key = (s, self._ahead[s][target], self._takes(tribe))
        value = self._takes_cache.get(key)
        if value is None:
            left = sorted(group["booty"], key=lambda t: -MARKET[t["type"]] * t["value"])[key[1] :]
            gains = sorted((self.gain(t) for t in left), reverse=True)
            value = self._takes_cache[key] = sum(gains[: key[2]])
        return value

    def _captain_take(self, group: JSON | None, tribe: str) -> float:
        if group is None:
            return 0.0
        gains = sorted((self.gain(t) for t in group["booty"]), reverse=True)
        bonus = self.gain(group["bonus"] | {"value": 0}) if group["bonus"] else 0.0
        return bonus + sum(gains[: self._takes(tribe)])

    def _position(self, s: int, target: int, tribe: str) -> float:
        """The worth of having a figure of ``tribe`` on crew space index ``target`` of ship ``s``,
        discounted by when it may sail."""
        key = (s, target, tribe)
        value = self._positions.get(key)
        if value is None:
            value = self._positions[key] = self._estimate_position(s, target, tribe)
        return value

    def _estimate_position(self, s: int, target: int, tribe: str) -> float:
        ship = self.view["ships"][s]
        take = self._crew_take(s, target, tribe)
        if ship["spaces"][CAPTAIN] is not None:
            return 0.95 * take
        value = 0.6 * take
        if target == 2:
            value = max(value, 0.6 * (self._captain_take(ship["flotsam"][0], tribe) - CARD))
        return value

    @cached_property
    def _need(self) -> list[float]:
        """How useful a card of each ship's symbol is to me now (from 0 to about 1)."""
        need = []
        for ship in self.view["ships"]:
            group = ship["flotsam"][0]
            have = self.hand.count(ship["ship"])
            if group is None:
                need.append(-0.15 * have)
                continue
            open_captaincy = 0.2 if ship["spaces"][CAPTAIN] is None else 0.0
            need.append(0.3 + 0.1 * len(group["booty"]) + open_captaincy - 0.15 * have)
        return need

    @cached_property
    def _figures(self) -> dict[str, tuple[JSON, int]]:
        """My figures by id, with their crew space index (-1 in the play area)."""
        figures = {f["id"]: (f, -1) for f in self.view["players"][self.seat]["play_area"]}
        for ship in self.view["ships"]:
            for i, f in enumerate(ship["spaces"]):
                if f is not None and f["owner"] == self.seat:
                    figures[f["id"]] = (f, i)
        return figures

    def _action_value(self, action: Action) -> float:
        verb, args = action.verb, action.args
        view = self.view
        if verb == "done":
            return 0.0
        if verb == "sail":
            return 100.0
        if verb == "draw":
            # Cards beyond the hand limit are discarded at once: with a full hand, drawing only stalls.
            kept = min(2, HAND_LIMIT - len(self.hand))
            base = CARD * kept if kept > 0 else -1.0
            if args[0] == "row":
                return base + 0.6 * self._need[SHIP_INDEX[view["row"][int(args[1]) - 1]]]
            return base + 0.2
        s = SHIP_INDEX[args[1]]
        ship = view["ships"][s]
        spaces = ship["spaces"]
        fig, start = self._figures[args[0]]
        tribe = fig["tribe"]
        before = self._position(s, start, tribe) if start >= 0 else 0.0
        discount = 1 if self.abilities and tribe == "cockroaches" else 0
        if verb == "captain":
            cost = max((3 if start < 0 else 1) - discount, 0)
            after = 0.97 * self._captain_take(ship["flotsam"][0], tribe)
            passed = spaces[start + 1 : CAPTAIN]
        else:
            target = int(args[2]) - 1
            cost = max(spaces[start + 1 : target + 1].count(None) - discount, 0)
            after = self._position(s, target, tribe)
            passed = spaces[start + 1 : target]
        if self.abilities and tribe == "raccoons":
            victims = {f["owner"] for f in passed if f is not None} - {self.seat}
            after += CARD * sum(1 for v in victims if view["players"][v]["hand_count"])
        if self.abilities and tribe == "weasels":
            after += 0.5
        return after - before - CARD * cost

    # ------------------------------------------------------------------ auction

    def _auction(self, actions: list[Action]) -> Action:
        auction = self.view["auction"]
        bar = auction["bar"]

        def figure_value(stool: int) -> float:
            tribe_value = TRIBE_CARDS[bar[stool]["tribe"]] if self.abilities else 0.0
            return tribe_value + bar[stool]["cards_under"]

        verb = actions[0].verb
        if verb == "discard":
            return self._discard(actions)
        if verb == "hire":
            return max(actions, key=lambda a: figure_value(int(a.args[0]) - 1) - (int(a.args[0]) - 1))
        if auction["bid"] is None:
            return actions[0]
        lot = auction["lot"]
        others = [figure_value(i) - (i - (i > lot)) for i in range(len(bar)) if i != lot]
        limit = figure_value(lot) - max([0.0, *others])
        raise_to = auction["bid"] + 1
        if actions[0].verb == "bid" and raise_to <= limit and actions[0].args == (str(raise_to),):
            return actions[0]
        return Action("pass")
