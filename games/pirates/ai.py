"""A heuristic AI for the Pirates Card Game. It decides from what its seat may see (:func:`ai_view`) and
its legal actions only.

Plan: take a mission whenever it has none; keep the hand full while docked; sail to hunt ships; fire
the fewest, smallest cards that win, always keeping one crew card at sea; strike its colours rather
than waste a hand on a lost fight; head for a town when a mission needs one (a delivery aboard, a raid,
a new mission) or the crew runs low, and dock where a delivery or raid is due.

A Joker is kept for what only it can do while a mission cannot be completed otherwise (a Hunt for its
own nation's ships, a Treasure Fleet): the treasure fleet (which completes a mission) when the hand can
sink it, Pirate Cove (a new ship of another nation, or a full crew when the hand is nearly empty), a
full crew at once when disembarking short-handed, and the magistrate when no card is left to draw.
"""

from __future__ import annotations

import random

from games.core import JSON, Action, Game, Player, act
from games.pirates.cards import BY_CODE, NEXT_NATION, Face, Mission
from games.pirates.view import ai_view

FLEET_POWER = 18
"""Cannons (the Joker played as the fleet not counted, one crew card kept) that make the AI look for the
treasure fleet with its Joker: the galleon needs 11 and an average escort about 8 more."""


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


def _possible(ship: str, mission: Face) -> bool:
    """Whether ``ship`` can complete ``mission`` without a Joker: no Hunt for its own nation's ships
    (they are friendly), no Treasure Fleet (only a Joker brings the fleet)."""
    if mission.mission is Mission.TREASURE:
        return False
    return mission.mission is not Mission.HUNT or NEXT_NATION[mission.suit or "h"] != BY_CODE[ship].suit


def _blocked(ship: str, missions: list[Face]) -> bool:
    """A Hunt for ``ship``'s own nation is among ``missions``: only another ship can complete it."""
    return any(m.mission is Mission.HUNT and not _possible(ship, m) for m in missions)


def _stuck(view: JSON) -> bool:
    """A mission is left that only a Joker can complete, or the ship is so small (3 crew) that a Joker is
    best kept for Pirate Cove's choice of a bigger one."""
    me = view["players"][view["viewer"]]
    return me["limit"] <= 3 or any(not _possible(me["ship"], m) for m in _missions(view))


def _arsenal(view: JSON, target: str) -> list[str]:
    """The hand cards the AI would fire at ``target``: a Joker only when it is not kept for a mission
    that needs it (see :func:`_stuck`), or against the treasure fleet itself."""
    if _stuck(view) and target != "fleet":
        return [c for c in view["hand"] if c != "jk"]
    return view["hand"]


def _power(me: JSON, cards: list[str], keep: int = 0) -> int:
    """The cannons of ``cards`` without Jokers, the ``keep`` weakest held back."""
    values = sorted(_value(me, c) for c in cards if c != "jk")
    return sum(values[keep:])


class PiratesAI(Player):
    name = "Pirates AI"

    def choose(self, game: Game, state: JSON, seat: int, rng: random.Random) -> Action:
        legal = game.legal_actions(state, seat)
        view = ai_view(state, seat)
        view["left"] = len(state["deck"]) + len(state["discard"])  # public counts: is a card left to draw?
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
            return self._sail(view, legal)
        if act("magistrate", "jk") in legal and not view["left"]:
            return act("magistrate", "jk")
        if act("magistrate") in legal:
            return act("magistrate")
        town = BY_CODE[me["town"]] if me["town"] else None
        if act("attack") in legal and town is not None:
            raid = any(m.mission is Mission.RAID and m.suit == town.suit for m in missions)
            power = sum(_value(me, c) for c in _arsenal(view, "town"))
            if raid and power >= 2 * town.size + 1:
                return act("attack")
        seafaring = all(m.mission in (Mission.HUNT, Mission.BOUNTY) for m in missions)
        if act("disembark", "jk") in legal and seafaring and not _stuck(view) and len(hand) <= me["limit"] - 3:
            return act("disembark", "jk")
        if act("crew") in legal:
            return act("crew")
        delivery = [m for m in missions if m.mission is Mission.DELIVERY and _delivery_need(view, m) > 0]
        salvage = any(BY_CODE[c].suit == m.suit for m in delivery for c in view["discard"])
        if salvage and act("trade", "jk") in legal:
            return act("trade", "jk")
        if delivery and len(me["holds"]) < me["limit"] and len(hand) >= 3 and act("trade") in legal:
            return act("trade")
        return act("disembark")

    def _sail(self, view: JSON, legal: list[Action]) -> Action:
        me = view["players"][view["viewer"]]
        hand = view["hand"]
        missions = _missions(view)
        if act("ship", "jk") in legal and missions and _power(me, hand, keep=1) >= FLEET_POWER:
            return act("ship", "jk")
        if act("town", "jk") in legal and (len(hand) <= 2 or me["limit"] <= 3 or _blocked(me["ship"], missions)):
            return act("town", "jk")
        ready = any(m.mission is Mission.DELIVERY and _delivery_need(view, m) <= 0 for m in missions)
        hunting = any(m.mission in (Mission.HUNT, Mission.BOUNTY) and _possible(me["ship"], m) for m in missions)
        raid = any(m.mission is Mission.RAID for m in missions) and (_power(me, hand) >= 12 or not hunting)
        if len(hand) <= 2 or not missions or ready or raid:
            return act("town")
        return act("ship")

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
        ship = view["players"][view["viewer"]]["ship"]
        order = {Mission.HUNT: 0, Mission.BOUNTY: 1, Mission.RAID: 2, Mission.DELIVERY: 3, Mission.TREASURE: 4}
        return min(legal, key=lambda a: (not _possible(ship, BY_CODE[a.args[0]]), order[BY_CODE[a.args[0]].mission]))

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
        if me["limit"] <= 3 or _blocked(me["ship"], _missions(view)):
            return act("cove", "ship")
        if not view["missions"]:
            return act("cove", "mission")
        return act("cove", "crew")

    def _swap(self, view: JSON, legal: list[Action]) -> Action:
        missions = _missions(view)
        return max(
            legal,
            key=lambda a: (not _blocked(a.args[0], missions), BY_CODE[a.args[0]].crew, BY_CODE[a.args[0]].size),
        )

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
        hand = sorted(_arsenal(view, pending["target"]), key=lambda c: _value(me, c), reverse=True)
        # At sea one crew card stays aboard, unless the hand surely sinks a ship: its wreck joins the crew.
        sure = pending["target"] == "ship" and _power(me, hand) >= missing
        keep = 1 if me["place"] == "sea" and not sure else 0
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
        if not view["hand"]:
            return act("plunder", "crew")  # an empty hand at sea is the end of the game
        wreck = BY_CODE[view["encounter"]["cards"][0]]
        goods = {m.suit for m in _missions(view) if m.mission is Mission.DELIVERY}
        if wreck.suit in goods and act("plunder", "cargo") in legal:
            return act("plunder", "cargo")
        ship = view["players"][view["viewer"]]["ship"]
        if wreck.mission in (Mission.HUNT, Mission.BOUNTY) and _possible(ship, wreck) and len(view["missions"]) < 2:
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
