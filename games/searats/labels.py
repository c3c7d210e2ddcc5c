"""Readable label paths of legal actions: the first label is a board button, deeper ones picker levels
(direction then distance, target then cannonballs, cannonballs then supplies)."""

from __future__ import annotations

from games.core import JSON, Action, plural
from games.searats.board import charts, port_take
from games.searats.components import SHIPS, goods, p, ship_name
from games.searats.geometry import DIRECTION_NAMES, PORT_AT, X, distance, name, ray


def _ship(seat: int, distance: int | None = None) -> str:
    text = f"{ship_name(seat)} ({p(seat)})"
    return text if distance is None else f"{text}, {plural(distance, 'dot')}"


def _balls(n: int) -> str:
    return plural(n, "cannonball")


def _sail_path(state: JSON, seat: int, action: Action, first: str) -> tuple[str, ...]:
    at = state["ships"][seat]["at"]
    if action.verb == "anchor":
        return (first, f"Drop anchor at {name(at)}")
    direction, n = action.args[0], int(action.args[1])
    to = ray(at, direction, n)[-1]  # a legal sail is never blocked: it ends n dots along the line
    note = ""
    if to in PORT_AT:
        note = f" (port {PORT_AT[to]})"
    elif to == X and state["treasure"] is None:
        note = " (the Treasure!)"
    return (first, DIRECTION_NAMES[direction], f"{plural(n, 'dot')} → {name(to)}{note}")


def _cargo_path(first: str, args: tuple[str, ...], chest_level: bool) -> tuple[str, ...]:
    b, s = int(args[0]), int(args[1])
    chest = len(args) == 3
    path: tuple[str, ...] = (first,)
    if chest_level:
        path += ("With the Treasure" if chest else "Without the Treasure",)
    return (*path, _balls(b), goods(b, s) + (" + the Treasure" if chest else ""))


def describe_action(state: JSON, seat: int, action: Action) -> tuple[str, ...]:
    """The label path of a legal ``action`` of ``seat``."""
    verb, args = action.verb, action.args
    phase = state["phase"]
    if verb == "roll":
        return ("Roll the die",)
    if verb == "wind":
        return ("Stronger Wind: turn in the Treasure, roll 2 dice",)
    if verb in ("sail", "anchor"):
        if phase == "flee":
            return _sail_path(state, seat, action, "Flee")
        charted = len(args) >= 2 and args[-2] == "chart"
        if charted:
            first = f"Chart port {args[-1]}, then sail"
            action = Action(verb, args[:-2])
        else:
            first = "Sail, keep course" if _can_chart(state) else "Sail"
        return _sail_path(state, seat, action, first)
    if verb == "haven":
        return ("Make port (Safe Haven)",)
    if verb == "skip":
        return ("Do not make port",)
    if verb == "stock":
        b = int(args[0])
        return ("Stock up", goods(b, port_take(state) - b) if port_take(state) else "Nothing: the hold is full")
    if verb == "booty":
        return ("More Booty: turn in the Treasure for another die",)
    if verb in ("aim", "trade"):
        target = SHIPS.index(args[0])
        distance = _distance(state, seat, target)
        return ("Attack" if verb == "aim" else "Trade", _ship(target, distance))
    if verb == "end":
        return ("End the turn",)
    if verb in ("offer", "demand"):
        if args == ("chest",):
            return ("Bribe with the Treasure (must be accepted)",) if verb == "offer" else ("Demand the Treasure",)
        first = "Offer a bribe" if verb == "offer" else "Demand cargo"
        return _cargo_path(first, args, state["treasure"] == state["battle"]["def"])
    if verb == "brace":
        return ("Stop bargaining",) if state["battle"]["offers"][1] else ("No bribe",)
    if verb == "fire":
        battle = state["battle"]
        n = int(args[0])
        if phase == "counter":
            return ("Fire back", _balls(n))
        return (f"Fire at {ship_name(battle['def'])}", _balls(n))
    if verb == "hold":
        return ("Hold fire",)
    if verb == "sink":
        return ("Sink it",)
    if verb == "capture":
        return _capture_path(state, int(args[0]), int(args[1]), len(args) == 3)
    if verb in ("give", "ask"):
        holder = state["offer"]["from"] if verb == "give" else state["offer"]["to"]
        first = "Give" if verb == "give" else "Ask in return"
        return _cargo_path(first, args, state["treasure"] == holder)
    if verb == "abandon":
        return ("Abandon the trade",)
    if verb == "accept":
        return ("Accept",)
    if verb == "decline":
        return ("Decline",)
    return (verb.title(),)


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
    path: tuple[str, ...] = ("Capture",)
    if state["treasure"] in (prize["captor"], prize["ship"]):
        path += (f"The Treasure aboard {theirs if chest else mine}",)
    return (
        *path,
        f"{mine} keeps {_balls(b)}",
        f"{mine}: {b}/{s}, {theirs}: {balls - b}/{supplies - s} (cannonballs/supplies)",
    )
