"""A heuristic Sea Rats! commander. Everything in Sea Rats! is public, so it reads the position directly.

It keeps its ships stocked (charting the nearest useful port, sailing for it when cargo runs low), sails
to where it can fire at close range at an enemy (a die beats the distance more often the closer it is),
fires a full broadside at close range (at 4–5 dots it keeps two cannonballs back unless the salvo may
sink the foe) and fires back on the same rule, captures rather than sinks, takes the Treasure when it
lies within reach, hands it over as the Most Powerful Bribe to escape a sinking, turns it in for More
Booty when the hold is empty enough and for a Stronger Wind when far from port. When a broadside would
sink it, it offers a bribe; with one cannonball left it demands supplies instead of firing; under
blackmail it pays when a refusal would sink it; it takes bribes of three items or more (or all the
attacker can take) and never offers less, takes trades that give it more than they cost, flees out of
line after a deal, and hands spare cannonballs to ships of its fleet that have none.
"""

from __future__ import annotations

import random

from games.core import JSON, Action, Game, Player, act
from games.searats.battle import divisions, may_demand, offers
from games.searats.board import (
    aim_targets,
    charts,
    occupied,
    payments,
    port_range,
    port_take,
    same_fleet,
    trade_asks,
    trade_gives,
    trade_partners,
)
from games.searats.components import HOLD, SHIPS, cargo
from games.searats.geometry import DISTANCES, PORT_AT, PORTS, RAYS, SIZE, X

SPARE = 2
"""Cannonballs a ship with plenty hands to a ship of its fleet that has none."""
HUNT = 0.8
"""How much a dot closer to the nearest enemy is worth to a ship ready to fight (it shortens games)."""
HIT = (1.0, 5 / 6, 4 / 6, 3 / 6, 2 / 6, 1 / 6, 0.0)
"""Chance that one die is greater than the distance."""


RESERVE = 2
"""Cannonballs kept back at long range (4 or 5 dots, where a die hits one time in three or six)."""


def _salvo(balls: int, foe_supplies: int, dist: int, most: int) -> int:
    """How many cannonballs to fire (0: hold fire): a full salvo at close range or when it may sink the
    foe; at long range only what leaves a reserve for the next fight (a ship with no cannonball can
    neither attack nor answer)."""
    top = min(most, balls)
    if dist <= 3 or top * HIT[dist] >= foe_supplies:
        return top
    return max(0, min(top, balls - RESERVE))


def steps(a: int, b: int) -> int:
    """Dots between two dots sailing freely (a king's distance)."""
    ac, ar = a % SIZE, a // SIZE
    bc, br = b % SIZE, b // SIZE
    return max(abs(ac - bc), abs(ar - br))


KING = tuple(tuple(steps(a, b) for b in range(SIZE * SIZE)) for a in range(SIZE * SIZE))
"""The free sailing distance between every two dots."""
TO_PORT = {port: KING[PORTS[port]] for port in PORTS}
"""Per port, the free sailing distance to it from every dot."""
FAR = (SIZE,) * (SIZE * SIZE)


def enemies(state: JSON, seat: int) -> list[int]:
    """The ships afloat of every other commander."""
    return [s for s, ship in enumerate(state["ships"]) if not ship["sunk"] and not same_fleet(state, seat, s)]


def hungry(ship: JSON) -> bool:
    """Whether the ship should head for a port."""
    return ship["supplies"] <= 4 or ship["balls"] <= 2 or cargo(ship) <= 7


def fair_bribe(defender: JSON, attacker: JSON) -> int:
    """The bribe the AI takes, and so offers: three items, or as many as the attacker can take (at least 1)."""
    return max(1, min(3, max((sum(pay) for pay in payments(defender, attacker)), default=0)))


class SeaRatsAI(Player):
    """The bot's commander for every ship of a fleet."""

    name = "Sea Rats! AI"

    def choose(self, game: Game, state: JSON, seat: int, rng: random.Random) -> Action:
        phase = state["phase"]
        if phase in ("sail", "flee"):
            return self._best_sail(state, seat, fleeing=phase == "flee")
        handler = getattr(self, f"_{phase}", None)
        if handler is not None:
            # Each decision is built from the position rather than picked from the full list of legal actions
            # (a bribe alone may have 150): self-play speed depends on it. The conformance suite checks that
            # every choice is legal.
            return handler(state, seat)
        return game.legal_actions(state, seat)[0]

    # ------------------------------------------------------------------ the turn

    def _start(self, state: JSON, seat: int) -> Action:
        ship = state["ships"][seat]
        far = ship["chart"] is None or steps(ship["at"], PORTS[ship["chart"]]) > 6
        wind = state["treasure"] == seat and hungry(ship) and far and ship["supplies"] > 3
        return act("wind") if wind else act("roll")

    def _best_sail(self, state: JSON, seat: int, *, fleeing: bool) -> Action:
        ship = state["ships"][seat]
        total = state["flee"]["roll"] if fleeing else sum(state["roll"])
        start = ship["at"]
        blocked = occupied(state, seat)
        moves: list[tuple[int, str, int]] = [(start, "", 0)]
        for direction, line in RAYS[start].items():
            for n, to in enumerate(line[:total], start=1):
                if to in blocked:
                    break
                moves.append((to, direction, n))
        courses = [None] if fleeing else [None, *charts(state)]
        need = hungry(ship)
        room = HOLD - cargo(ship)
        has_chest = state["treasure"] == seat
        pull = 1.5 if need else 0.3
        stock = 2.0 * room + (8 if need else 0)
        last = ship["last"]
        chest_at = X if state["treasure"] is None and ship["at"] != X else None
        threats = self._threats(state, seat, fleeing)
        # A ship ready to fight closes in on the nearest enemy; the others keep their distance.
        hunt = 0.0 if fleeing or need or ship["balls"] < 3 else HUNT
        prey = [foe for foe, _ in threats]
        plans = []
        for course in courses:
            chart = ship["chart"] if course is None else course
            useful = chart is not None and chart != last
            plans.append((course, chart, TO_PORT[chart] if useful else FAR))
        best: tuple[float, str, int, int | None] = (-1e9, "", 0, None)
        for to, direction, n in moves:
            row = DISTANCES[to]
            base = 9.0 if to == chest_at else 0.0
            if hunt and prey:
                near = KING[to]
                base -= hunt * min(near[at] for at in prey)
            for at, gains in threats:
                d = row[at]
                if d is not None and d <= 5:
                    base += gains[d]
            port = PORT_AT.get(to)
            docks = not fleeing and port is not None and port != last
            for course, chart, far in plans:
                score = base - pull * far[to]
                if docks and (port == chart or has_chest):
                    score += stock
                if score > best[0]:
                    best = (score, direction, n, course)
        _, direction, n, course = best
        extra = () if course is None else ("chart", str(course))
        return Action("sail", (direction, str(n), *extra)) if n else Action("anchor", extra)

    @staticmethod
    def _threats(state: JSON, seat: int, fleeing: bool) -> list[tuple[int, tuple[float, ...]]]:
        """Per enemy ship, what ending a sail at each distance 0–5 from it is worth: shots at it (and the chance
        to sink it) against shots from it; fleeing, only the distance counts."""
        ship = state["ships"][seat]
        strong = ship["balls"] >= 1 and ship["supplies"] >= 3
        shots = min(3, ship["balls"])
        out = []
        for s in enemies(state, seat):
            foe = state["ships"][s]
            back = min(3, foe["balls"])
            if fleeing:
                gains = tuple(float(d - 6) for d in range(6))
            elif strong:
                gains = tuple(
                    3 * shots * HIT[d] - 1.5 * back * HIT[d] + (6 if shots * HIT[d] >= foe["supplies"] else 0)
                    for d in range(6)
                )
            else:
                gains = tuple(-2 * back * HIT[d] for d in range(6))
            out.append((foe["at"], gains))
        return out

    def _haven(self, state: JSON, seat: int) -> Action:
        return act("haven") if cargo(state["ships"][seat]) < HOLD else act("skip")

    def _port(self, state: JSON, seat: int) -> Action:
        ship = state["ships"][seat]
        if state["treasure"] == seat and not state["port"]["booty"] and cargo(ship) <= 8:
            return act("booty")
        low, high = port_range(state)
        balls, supplies = ship["balls"], ship["supplies"]
        taken = 0
        for _ in range(port_take(state)):
            # Supplies first up to 4, then cannonballs up to 6, then alternately.
            if supplies < 4 or (balls >= 6 and supplies <= balls):
                supplies += 1
            else:
                balls += 1
                taken += 1
        return act("stock", min(high, max(low, taken)))

    # ------------------------------------------------------------------ battles

    def _act(self, state: JSON, seat: int) -> Action:
        ship = state["ships"][seat]
        best, best_score = act("end"), 0.4
        for target, d in aim_targets(state):  # never a ship of its own fleet
            foe = state["ships"][target]
            mine = min(3, ship["balls"]) * HIT[d]
            theirs = min(3, foe["balls"], ship["balls"]) * HIT[d]
            sinks = mine >= foe["supplies"] + 0.5
            # The Treasure goes to the ship with more hits, on a tie to the one not carrying it.
            chest = 1.5 if state["treasure"] == target else -2.0 if state["treasure"] == seat else 0.0
            score = mine - (0 if sinks else 0.8 * theirs) + (2 if sinks else 0) + chest
            if ship["supplies"] <= theirs and not sinks:
                score -= 2
            if score > best_score:
                best, best_score = act("aim", SHIPS[target]), score
        if best.verb == "end" and ship["balls"] >= SPARE + 2 and not state["trading"]:
            # Nothing worth a shot: hand spare cannonballs to a ship of the fleet that has none to fire.
            for partner, _d in trade_partners(state):
                mate = state["ships"][partner]
                if same_fleet(state, seat, partner) and mate["balls"] < 2 and cargo(mate) + SPARE <= HOLD:
                    return act("trade", SHIPS[partner])
        return best

    def _give(self, state: JSON, seat: int) -> Action:
        if (SPARE, 0, False) in trade_gives(state, state["offer"]["to"]):
            return act("give", SPARE, 0)
        return act("abandon")  # only a trade it did not open itself (a search tries every move) gets here

    def _ask(self, state: JSON, seat: int) -> Action:
        offer = state["offer"]
        asks = trade_asks(state, offer)
        if (0, 0, False) in asks:
            return act("ask", 0, 0)
        if not asks:
            return act("abandon")
        # The partner's hold cannot take the gift alone: ask as little back from a ship of the fleet and as
        # much from an enemy.
        mate = same_fleet(state, offer["to"], seat)
        b, s, chest = (min if mate else max)(asks, key=lambda a: a[0] + a[1] + a[2])
        return act("ask", b, s, "chest") if chest else act("ask", b, s)

    def _bribe(self, state: JSON, seat: int) -> Action:
        battle = state["battle"]
        attacker = state["ships"][battle["att"]]
        expected = min(3, attacker["balls"]) * HIT[battle["dist"]]
        mine = state["ships"][seat]
        if expected < mine["supplies"]:
            return act("brace")
        if state["treasure"] == seat:
            return act("offer", "chest")
        # The broadside would likely sink it: buy the attacker off, cannonballs first (supplies keep it afloat).
        # Never less than its own rule accepts (:func:`fair_bribe`): a smaller bribe would only be declined.
        offers = [pay for pay in payments(mine, attacker) if sum(pay) >= fair_bribe(mine, attacker)]
        if not offers:
            return act("brace")
        return act("offer", *max(offers, key=lambda pay: (-sum(pay), -pay[1])))

    def _fire(self, state: JSON, seat: int) -> Action:
        battle = state["battle"]
        ship, foe = state["ships"][seat], state["ships"][battle["def"]]
        if ship["balls"] == 1 and offers(battle)[1] == 0 and may_demand(battle):
            # One shot left: rather demand supplies (once) than spend it.
            ask = min(foe["supplies"], 2, HOLD - cargo(ship))
            if ask > 0 and (0, ask) in payments(foe, ship):
                return act("demand", 0, ask)
        return act("fire", max(1, _salvo(ship["balls"], foe["supplies"], battle["dist"], 3)))

    def _counter(self, state: JSON, seat: int) -> Action:
        battle = state["battle"]
        ship, foe = state["ships"][seat], state["ships"][battle["att"]]
        n = _salvo(ship["balls"], foe["supplies"], battle["dist"], battle["fired"])
        return act("fire", n) if n else act("hold")

    def _prize(self, state: JSON, seat: int) -> Action:
        prize = state["prize"]
        mine, theirs = state["ships"][prize["captor"]], state["ships"][prize["ship"]]
        balls = mine["balls"] + theirs["balls"]
        supplies = mine["supplies"] - prize["missing"]

        def balance(split: tuple[int, int]) -> float:
            b, s = split
            return abs(2 * b - balls) + abs(2 * s - supplies) - 0.1 * s

        splits = divisions(state)
        return act("capture", *min(splits, key=balance)) if splits else act("sink")

    def _answer(self, state: JSON, seat: int) -> Action:
        offer = state["offer"]
        if offer["kind"] == "bribe":
            battle = state["battle"]
            fair = fair_bribe(state["ships"][battle["def"]], state["ships"][battle["att"]])
            return act("accept") if sum(offer["give"][:2]) >= fair else act("decline")
        if offer["kind"] == "demand":
            battle = state["battle"]
            attacker = state["ships"][battle["att"]]
            expected = min(3, attacker["balls"]) * HIT[battle["dist"]]
            return act("accept") if expected + 0.5 >= state["ships"][seat]["supplies"] else act("decline")
        gain = sum(offer["give"][:2]) - sum(offer["get"][:2]) + 6 * (offer["give"][2] - offer["get"][2])
        return act("accept") if same_fleet(state, offer["from"], seat) or gain > 0 else act("decline")
