"""Questions about a position that every part of the engine asks: who is afloat, where a ship may sail,
whom it may fire at or trade with, how much a port gives."""

from __future__ import annotations

from games.core import JSON, Action
from games.searats.components import BOOTY_HOLD, HOLD, RANGE, cargo, room
from games.searats.geometry import DIRECTIONS, distance, reach


def afloat(state: JSON) -> list[int]:
    return [s for s, ship in enumerate(state["ships"]) if not ship["sunk"]]


def occupied(state: JSON, moving: int) -> set[int]:
    """Dots held by ships afloat other than ``moving``."""
    return {ship["at"] for s, ship in enumerate(state["ships"]) if s != moving and not ship["sunk"]}


def commanders_afloat(state: JSON) -> set[int]:
    ctrl = state["ctrl"]
    return {ctrl[s] for s, ship in enumerate(state["ships"]) if not ship["sunk"]}


def charts(state: JSON) -> list[int]:
    """Ports the ship to act may chart with this turn's dice: never its last port; its current course is kept
    without charting it again."""
    ship = state["ships"][state["turn"]]
    return sorted(set(state["roll"]) - {ship["last"], ship["chart"]})


def sail_targets(state: JSON, seat: int, steps: int) -> dict[str, list[int]]:
    """Per direction, the dots ``seat`` may end a sail of at most ``steps`` dots on (directions with none left out)."""
    start = state["ships"][seat]["at"]
    blocked = occupied(state, seat)
    found = {}
    for direction in DIRECTIONS:
        dots = reach(start, direction, steps, blocked)
        if dots:
            found[direction] = dots
    return found


def sail_actions(state: JSON, seat: int, steps: int, chart_ports: list[int]) -> list[Action]:
    """``anchor`` and every ``sail <direction> <dots>``, each also with every ``chart <port>`` allowed."""
    targets = sail_targets(state, seat, steps)
    actions = []
    for port in [None, *chart_ports]:
        extra = () if port is None else ("chart", str(port))
        actions.append(Action("anchor", extra))
        for direction, dots in targets.items():
            actions.extend(Action("sail", (direction, str(n), *extra)) for n in range(1, len(dots) + 1))
    return actions


def in_range(state: JSON, seat: int, excluded: list[int]) -> list[tuple[int, int]]:
    """Other ships afloat in a straight line within 5 dots of ``seat``, as (ship, distance), in ship order."""
    at = state["ships"][seat]["at"]
    found = []
    for s, ship in enumerate(state["ships"]):
        if s == seat or ship["sunk"] or s in excluded:
            continue
        d = distance(at, ship["at"])
        if d is not None and d <= RANGE:
            found.append((s, d))
    return found


def same_fleet(state: JSON, ship: int, other: int) -> bool:
    """Whether two ships have one commander (a captured ship is its captor's from then on)."""
    return state["ctrl"][ship] == state["ctrl"][other]


def aim_targets(state: JSON) -> list[tuple[int, int]]:
    """Ships the ship on turn may still attack: of another commander (a fleet never fights itself), in
    range, not fought this turn, while it has a cannonball and has not begun trading."""
    seat = state["turn"]
    if state["trading"] or state["ships"][seat]["balls"] < 1:
        return []
    return [(s, d) for s, d in in_range(state, seat, state["fought"]) if not same_fleet(state, seat, s)]


def limit(ship: JSON) -> int:
    """The most items ``ship`` may hold after an exchange: 12, or what it has now if More Booty put it above."""
    return max(HOLD, cargo(ship))


def holds(balls: int, supplies: int, cap: int) -> bool:
    """Whether a ship may end an exchange with ``balls`` and ``supplies``: never more than 12 of one kind,
    and no more than ``cap`` items together (see :func:`limit`)."""
    return 0 <= balls <= BOOTY_HOLD and 0 <= supplies <= BOOTY_HOLD and balls + supplies <= cap


def port_take(state: JSON) -> int:
    """How many items the ship in port takes from its roll(s)."""
    ship = state["ships"][state["turn"]]
    total = sum(state["port"]["dice"])
    if state["port"]["booty"]:
        return min(total, max(0, BOOTY_HOLD - ship["balls"]) + max(0, BOOTY_HOLD - ship["supplies"]))
    return min(total, room(ship))


def port_range(state: JSON) -> tuple[int, int]:
    """The cannonballs the ship in port may take (lowest, highest); the rest of its take is supplies."""
    take = port_take(state)
    if not state["port"]["booty"]:
        return 0, take
    ship = state["ships"][state["turn"]]
    supply_room = max(0, BOOTY_HOLD - ship["supplies"])
    return max(0, take - supply_room), min(take, max(0, BOOTY_HOLD - ship["balls"]))


def payments(giver: JSON, receiver: JSON) -> list[tuple[int, int]]:
    """Every (cannonballs, supplies) ``giver`` could hand ``receiver`` as a bribe or under blackmail: at
    least one item, within the receiver's hold (:func:`holds`)."""
    cap = limit(receiver)
    return [
        (b, s)
        for b in range(giver["balls"] + 1)
        for s in range(giver["supplies"] + 1)
        if b + s > 0 and holds(receiver["balls"] + b, receiver["supplies"] + s, cap)
    ]


def exchange_fits(me: JSON, partner: JSON, give: tuple[int, int], get: tuple[int, int]) -> bool:
    """Whether handing ``give`` (cannonballs, supplies) over and receiving ``get`` keeps both holds within
    their limits."""
    (gb, gs), (ab, asup) = give, get
    return holds(me["balls"] - gb + ab, me["supplies"] - gs + asup, limit(me)) and holds(
        partner["balls"] + gb - ab, partner["supplies"] + gs - asup, limit(partner)
    )


def _asks_exist(me: JSON, other: JSON, gb: int, gs: int, nonempty: bool) -> bool:
    """Whether some (cannonballs, supplies) asked of ``other`` for ``gb``/``gs`` keeps both holds within
    their limits; ``nonempty``: it must ask at least one item (nothing else makes the exchange)."""
    b_lo, b_hi = max(0, other["balls"] + gb - BOOTY_HOLD), min(other["balls"], BOOTY_HOLD - me["balls"] + gb)
    s_lo, s_hi = max(0, other["supplies"] + gs - BOOTY_HOLD), min(other["supplies"], BOOTY_HOLD - me["supplies"] + gs)
    if b_lo > b_hi or s_lo > s_hi:
        return False
    give = gb + gs
    low = max(b_lo + s_lo, cargo(other) + give - limit(other), 1 if nonempty else 0)
    high = min(b_hi + s_hi, limit(me) - cargo(me) + give)
    return low <= high


def trade_gives(state: JSON, partner: int) -> list[tuple[int, int, bool]]:
    """What the ship on turn may offer ``partner`` (cannonballs, supplies, the Treasure) such that some
    answer (``trade_asks``) completes a non-empty exchange within both holds."""
    seat = state["turn"]
    me, other = state["ships"][seat], state["ships"][partner]
    chests = (False, True) if state["treasure"] == seat else (False,)
    return [
        (b, s, chest)
        for chest in chests
        for b in range(me["balls"] + 1)
        for s in range(me["supplies"] + 1)
        if _can_complete(state, me, other, partner, b, s, chest)
    ]


def _can_complete(state: JSON, me: JSON, other: JSON, partner: int, gb: int, gs: int, chest: bool) -> bool:
    # Giving nothing, the exchange needs an item asked, unless the partner's Treasure may be.
    return _asks_exist(me, other, gb, gs, not (gb + gs or chest or state["treasure"] == partner))


def trade_asks(state: JSON, offer: JSON) -> list[tuple[int, int, bool]]:
    """What the ship on turn may ask in return for the cargo it offers."""
    me, other = state["ships"][offer["from"]], state["ships"][offer["to"]]
    gb, gs, gc = offer["give"]
    chests = (False, True) if state["treasure"] == offer["to"] else (False,)
    asks = []
    for chest in chests:
        for b in range(other["balls"] + 1):
            for s in range(other["supplies"] + 1):
                if (gb + gs + gc + b + s + chest) and exchange_fits(me, other, (gb, gs), (b, s)):
                    asks.append((b, s, chest))
    return asks


def trade_partners(state: JSON) -> list[tuple[int, int]]:
    """Ships the ship on turn may still propose a trade to: within 5 dots in a straight line, not asked
    yet this turn, with some exchange possible."""
    seat = state["turn"]
    me = state["ships"][seat]
    found = []
    for s, d in in_range(state, seat, state["traded"]):
        other = state["ships"][s]
        chests = (False, True) if state["treasure"] == seat else (False,)
        if any(
            _can_complete(state, me, other, s, b, sup, chest)
            for chest in chests
            for b in range(me["balls"] + 1)
            for sup in range(me["supplies"] + 1)
        ):
            found.append((s, d))
    return found
