"""Readable label paths of legal actions: the first label is a board button, deeper ones picker levels
(direction then distance, target then cannonballs, cannonballs then supplies)."""

from __future__ import annotations

from games.core import JSON, Action
from games.i18n import N, T
from games.searats.board import charts, port_take
from games.searats.components import SHIPS, balls_text, goods, ship_name, who
from games.searats.geometry import DIRECTION_NAMES, PORT_AT, X, distance, name, ray


def _ship(seat: int, distance: int) -> str:
    return N("{ship}, {n} dot", "{ship}, {n} dots", distance, ship=who(seat))


def _sail_path(state: JSON, seat: int, action: Action, first: str) -> tuple[str, ...]:
    at = state["ships"][seat]["at"]
    if action.verb == "anchor":
        return (first, T("Drop anchor at {dot}", dot=name(at)))
    direction, n = action.args[0], int(action.args[1])
    to = ray(at, direction, n)[-1]  # a legal sail is never blocked: it ends n dots along the line
    if to in PORT_AT:
        last = N("{n} dot → {dot} (port {port})", "{n} dots → {dot} (port {port})", n, dot=name(to), port=PORT_AT[to])
    elif to == X and state["treasure"] is None:
        last = N("{n} dot → {dot} (the Treasure!)", "{n} dots → {dot} (the Treasure!)", n, dot=name(to))
    else:
        last = N("{n} dot → {dot}", "{n} dots → {dot}", n, dot=name(to))
    return (first, DIRECTION_NAMES[direction], last)


def _cargo_path(first: str, args: tuple[str, ...], chest_level: bool) -> tuple[str, ...]:
    b, s = int(args[0]), int(args[1])
    chest = len(args) == 3
    path: tuple[str, ...] = (first,)
    if chest_level:
        path += (T("With the Treasure") if chest else T("Without the Treasure"),)
    last = T("{goods} + the Treasure", goods=goods(b, s)) if chest else goods(b, s)
    return (*path, balls_text(b), last)


FIXED = {
    "roll": (T("Roll the die"),),
    "wind": (T("Stronger Wind: turn in the Treasure, roll 2 dice"),),
    "haven": (T("Make port (Safe Haven)"),),
    "skip": (T("Do not make port"),),
    "booty": (T("More Booty: turn in the Treasure for another die"),),
    "end": (T("End the turn"),),
    "hold": (T("Hold fire"),),
    "sink": (T("Sink it"),),
    "abandon": (T("Abandon the trade"),),
    "accept": (T("Accept"),),
    "decline": (T("Decline"),),
}
"""The label paths of the actions that depend on nothing but their verb."""


def describe_action(state: JSON, seat: int, action: Action) -> tuple[str, ...]:
    """The label path of a legal ``action`` of ``seat``."""
    verb, args = action.verb, action.args
    if verb in FIXED:
        return FIXED[verb]
    if verb in ("sail", "anchor"):
        return _sail_or_flee(state, seat, action)
    if verb == "stock":
        b = int(args[0])
        return (T("Stock up"), goods(b, port_take(state) - b) if port_take(state) else T("Nothing: the hold is full"))
    if verb in ("aim", "trade"):
        target = SHIPS.index(args[0])
        distance = _distance(state, seat, target)
        return (T("Attack") if verb == "aim" else T("Trade"), _ship(target, distance))
    if verb in ("offer", "demand"):
        if args == ("chest",):
            if verb == "offer":
                return (T("Bribe with the Treasure (must be accepted)"),)
            return (T("Demand the Treasure"),)
        first = T("Offer a bribe") if verb == "offer" else T("Demand cargo")
        return _cargo_path(first, args, state["treasure"] == state["battle"]["def"])
    if verb == "brace":
        return (T("Stop bargaining"),) if state["battle"]["offers"][1] else (T("No bribe"),)
    if verb == "fire":
        n = int(args[0])
        if state["phase"] == "counter":
            return (T("Fire back"), balls_text(n))
        return (T("Fire at {ship}", ship=ship_name(state["battle"]["def"])), balls_text(n))
    if verb == "capture":
        return _capture_path(state, int(args[0]), int(args[1]), len(args) == 3)
    if verb in ("give", "ask"):
        holder = state["offer"]["from"] if verb == "give" else state["offer"]["to"]
        first = T("Give") if verb == "give" else T("Ask in return")
        return _cargo_path(first, args, state["treasure"] == holder)
    return (verb.title(),)  # no legal action comes here: every verb above has its label


def _sail_or_flee(state: JSON, seat: int, action: Action) -> tuple[str, ...]:
    """A sail (or ``anchor``) of the turn, charting a port first or keeping the course, or a flight."""
    if state["phase"] == "flee":
        return _sail_path(state, seat, action, T("Flee"))
    args = action.args
    if len(args) >= 2 and args[-2] == "chart":
        first = T("Chart port {port}, then sail", port=args[-1])
        return _sail_path(state, seat, Action(action.verb, args[:-2]), first)
    first = T("Sail, keep course") if _can_chart(state) else T("Sail")
    return _sail_path(state, seat, action, first)


def _can_chart(state: JSON) -> bool:
    return bool(charts(state))


def _distance(state: JSON, seat: int, target: int) -> int:
    return distance(state["ships"][seat]["at"], state["ships"][target]["at"]) or 0


def _capture_path(state: JSON, b: int, s: int, chest: bool) -> tuple[str, ...]:
    prize = state["prize"]
    captor, ship = state["ships"][prize["captor"]], state["ships"][prize["ship"]]
    balls = captor["balls"] + ship["balls"]
    supplies = captor["supplies"] - prize["missing"]
    mine, theirs = ship_name(prize["captor"]), ship_name(prize["ship"])
    path: tuple[str, ...] = (T("Capture"),)
    if state["treasure"] in (prize["captor"], prize["ship"]):
        path += (T("The Treasure aboard {ship}", ship=theirs if chest else mine),)
    return (
        *path,
        N("{ship} keeps {n} cannonball", "{ship} keeps {n} cannonballs", b, ship=mine),
        T(
            "{ship}: {balls}/{supplies}, {prize}: {prize_balls}/{prize_supplies} (cannonballs/supplies)",
            ship=mine,
            balls=b,
            supplies=s,
            prize=theirs,
            prize_balls=balls - b,
            prize_supplies=supplies - s,
        ),
    )
