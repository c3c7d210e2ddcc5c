"""A heuristic AI for the Pirates Card Game. It decides from what its seat may see (:func:`ai_view`) and
its legal actions only.

Plan: take a mission whenever it has none; keep the hand full while docked; sail to hunt ships; fire
the fewest, smallest cards that win, always keeping one crew card at sea; strike its colours rather
than waste a hand on a lost fight; dock where a delivery or raid is due or when the crew runs low.
"""

from __future__ import annotations

import random

from games.core import JSON, Action, Game, Player, act
from games.pirates.cards import BY_CODE, Face, Mission
from games.pirates.view import ai_view


def _value(me: JSON, code: str) -> int:
    """A card's expected cannon value for this seat (a Joker's drawn ship counted as 5)."""
    f = BY_CODE[code]
    mine = BY_CODE[me["ship"]].suit
    return f.cannons + (1 if mine is not None and f.suit == mine else 0) + (5 if f.joker else 0)


def _missions(view: JSON) -> list[Face]:
    return [BY_CODE[c] for c in view["missions"]]


def _delivery_need(view: JSON, mission: Face) -> int:
    me = view["players"][view["viewer"]]
    have = sum(BY_CODE[c].size for c in me["holds"] if BY_CODE[c].suit == mission.suit)
    return mission.size + 2 - have


class PiratesAI(Player):
    name = "Pirates AI"

    def choose(self, game: Game, state: JSON, seat: int, rng: random.Random) -> Action:
        legal = game.legal_actions(state, seat)
        view = ai_view(state, seat)
        pick = self._pick(view, legal)
        return pick if pick in legal else rng.choice(legal)

    def _pick(self, view: JSON, legal: list[Action]) -> Action:
        pending = view["pending"]
        if pending is None or pending["seat"] != view["viewer"]:
            if view["duel"] and view["pending"] is None:
                return self._duel(view, legal)
            return self._main(view, legal)
        kind = pending["kind"]
        handler = getattr(self, f"_{kind}")
        return handler(view, legal)

    # ------------------------------------------------------------------ turn

    def _main(self, view: JSON, legal: list[Action]) -> Action:
        me = view["players"][view["viewer"]]
        hand = view["hand"]
        missions = _missions(view)
        if me["place"] == "sea":
            if len(hand) <= 2:
                return act("town")
            return act("ship")
        if act("magistrate") in legal:
            return act("magistrate")
        town = BY_CODE[me["town"]] if me["town"] else None
        if act("attack") in legal and town is not None:
            raid = any(m.mission is Mission.RAID and m.suit == town.suit for m in missions)
            power = sum(_value(me, c) for c in hand)
            if raid and power >= 2 * town.size + 1:
                return act("attack")
        if act("crew") in legal:
            return act("crew")
        delivery = [m for m in missions if m.mission is Mission.DELIVERY and _delivery_need(view, m) > 0]
        salvage = any(BY_CODE[c].suit == m.suit for m in delivery for c in view["discard"])
        if salvage and act("trade", "jk") in legal:
            return act("trade", "jk")
        if delivery and len(me["holds"]) < me["limit"] and len(hand) >= 3 and act("trade") in legal:
            return act("trade")
        return act("disembark")

    def _trade(self, view: JSON, legal: list[Action]) -> Action:
        me = view["players"][view["viewer"]]
        goods = {m.suit for m in _missions(view) if m.mission is Mission.DELIVERY}
        for c in me["holds"]:
            if BY_CODE[c].suit not in goods and act("sell", c, "hold") in legal:
                return act("sell", c, "hold")
        if view["pending"]["tons"] > 0:
            return act("buy")
        if view["hand"]:
            return act("sell", min(view["hand"], key=lambda c: _value(me, c)))
        return act("sell", min(me["holds"], key=lambda c: BY_CODE[c].size), "hold")

    def _salvage(self, view: JSON, legal: list[Action]) -> Action:
        goods = {m.suit for m in _missions(view) if m.mission is Mission.DELIVERY}
        wanted = [a for a in legal if a.verb == "take" and BY_CODE[a.args[0]].suit in goods]
        if wanted:
            return max(wanted, key=lambda a: BY_CODE[a.args[0]].size)
        return act("done")

    def _keep(self, view: JSON, legal: list[Action]) -> Action:
        order = {Mission.HUNT: 0, Mission.TREASURE: 1, Mission.BOUNTY: 2, Mission.RAID: 3, Mission.DELIVERY: 4}
        return min(legal, key=lambda a: order[BY_CODE[a.args[0]].mission])

    def _dock(self, view: JSON, legal: list[Action]) -> Action:
        me = view["players"][view["viewer"]]
        town = BY_CODE[view["encounter"]["cards"][0]]
        hand = view["hand"]
        due = any(
            (m.mission is Mission.DELIVERY and m.suit == town.suit and _delivery_need(view, m) <= 0)
            or (m.mission is Mission.RAID and m.suit == town.suit)
            for m in _missions(view)
        )
        if view["pending"]["friendly"]:
            return act("dock") if due or len(hand) < me["limit"] - 1 or not view["missions"] else act("stay")
        if due or len(hand) <= 2 or not view["missions"]:
            low = min(hand, key=lambda c: _value(me, c))
            return act("dock", low)
        return act("stay")

    def _cove(self, view: JSON, legal: list[Action]) -> Action:
        me = view["players"][view["viewer"]]
        if me["limit"] <= 3:
            return act("cove", "ship")
        if not view["missions"]:
            return act("cove", "mission")
        return act("cove", "crew")

    def _swap(self, view: JSON, legal: list[Action]) -> Action:
        return max(legal, key=lambda a: (BY_CODE[a.args[0]].crew, BY_CODE[a.args[0]].size))

    def _trim(self, view: JSON, legal: list[Action]) -> Action:
        me = view["players"][view["viewer"]]
        if legal[0].verb == "drop":
            return min(legal, key=lambda a: _value(me, a.args[0]))
        goods = {m.suit for m in _missions(view) if m.mission is Mission.DELIVERY}
        return min(legal, key=lambda a: (BY_CODE[a.args[0]].suit in goods, BY_CODE[a.args[0]].size))

    def _friend(self, view: JSON, legal: list[Action]) -> Action:
        return legal[0]

    def _encounter(self, view: JSON, legal: list[Action]) -> Action:
        bounty = any(m.mission is Mission.BOUNTY for m in _missions(view))
        rivals = [a for a in legal if a.args]
        if rivals and (bounty or act("fight") not in legal):
            return max(rivals, key=lambda a: view["players"][int(a.args[0])]["hand"] * -1)
        return act("fight")

    # ------------------------------------------------------------------ combat

    def _combat(self, view: JSON, legal: list[Action]) -> Action:
        me = view["players"][view["viewer"]]
        pending = view["pending"]
        missing = pending["need"] - pending["total"]
        keep = 1 if me["place"] == "sea" else 0
        hand = sorted(view["hand"], key=lambda c: _value(me, c), reverse=True)
        usable = hand[: len(hand) - keep] if keep else hand
        if sum(_value(me, c) for c in usable) >= missing and usable:
            enough = [c for c in usable if _value(me, c) >= missing]
            card = min(enough, key=lambda c: _value(me, c)) if enough else usable[0]
            return act("fire", BY_CODE[card].code)
        if act("flee") in legal:
            return act("flee")
        enemy = sum(2 * BY_CODE[c].size for c in view["encounter"]["cards"])
        goods = {m.suit for m in _missions(view) if m.mission is Mission.DELIVERY}
        spare = [c for c in me["holds"] if BY_CODE[c].suit not in goods]
        if spare and me["weight"] - sum(BY_CODE[c].size for c in spare) < enemy:
            return act("dump", max(spare, key=lambda c: BY_CODE[c].size))
        return act("yield")

    def _plunder(self, view: JSON, legal: list[Action]) -> Action:
        wreck = BY_CODE[view["encounter"]["cards"][0]]
        goods = {m.suit for m in _missions(view) if m.mission is Mission.DELIVERY}
        if wreck.suit in goods and act("plunder", "cargo") in legal:
            return act("plunder", "cargo")
        if wreck.mission in (Mission.HUNT, Mission.BOUNTY) and len(view["missions"]) < 2:
            return act("plunder", "mission")
        if act("plunder", "crew") in legal:
            return act("plunder", "crew")
        return act("plunder", "mission")

    def _duel(self, view: JSON, legal: list[Action]) -> Action:
        me = view["players"][view["viewer"]]
        plays = [a for a in legal if a.verb == "play"]
        return max(plays, key=lambda a: _value(me, a.args[0]))

    def _spoils(self, view: JSON, legal: list[Action]) -> Action:
        for choice in (act("spoils", "mission"), act("spoils", "crew")):
            if choice in legal:
                return choice
        return legal[0]
