"""What everyone sees (Sea Rats! has no secrets): the renderer's input and the text summaries."""

from __future__ import annotations

from games.core import JSON, Outcome
from games.i18n import T
from games.searats.board import aim_targets, sail_targets
from games.searats.components import ROUNDS, SHIPS, balls_text, ship_name, supplies_text, who
from games.searats.geometry import PORTS, X, coords, distance, name

WAITING = {
    "start": T("to roll"),
    "sail": T("to chart and sail"),
    "haven": T("to choose Safe Haven or not"),
    "port": T("to stock up"),
    "act": T("to attack, trade or end the turn"),
    "bribe": T("to offer a bribe or brace"),
    "fire": T("to fire or demand cargo"),
    "answer": T("to answer the offer"),
    "counter": T("to fire back or hold fire"),
    "prize": T("to sink or capture"),
    "flee": T("to flee"),
    "give": T("to say what it gives"),
    "ask": T("to say what it asks in return"),
}
"""What the ship to act is to do in each phase: said after the ship ("Black (Anne) to roll"), marked."""


def _ship(state: JSON, seat: int) -> JSON:
    ship = state["ships"][seat]
    return {
        "name": ship_name(seat),
        "colour": SHIPS[seat],
        "at": list(coords(ship["at"])),
        "dot": name(ship["at"]),
        "balls": ship["balls"],
        "supplies": ship["supplies"],
        "chart": ship["chart"],
        "last": ship["last"],
        "sunk": ship["sunk"],
        "commander": state["ctrl"][seat],
        "treasure": state["treasure"] == seat,
    }


def _reach(state: JSON) -> tuple[int | None, list[list[int]]]:
    phase = state["phase"]
    if phase == "sail":
        seat, steps = state["turn"], sum(state["roll"])
    elif phase == "flee":
        seat, steps = state["flee"]["ship"], state["flee"]["roll"]
    else:
        return None, []
    dots = [at for line in sail_targets(state, seat, steps).values() for at in line]
    return seat, [list(coords(at)) for at in dots]


def build_view(state: JSON, seat: int | None, to_act: tuple[int, ...], outcome: Outcome | None) -> JSON:
    """The whole public position, plus ``viewer`` (Sea Rats! hides nothing). Who is ``to_act`` and the
    ``outcome`` are the engine's to say: it gives them, so that this module needs nothing of it."""
    phase = state["phase"]
    mover, reach = _reach(state)
    battle = state["battle"]
    targets: list[JSON] = []
    if phase == "act":
        targets = [{"ship": s, "dist": d} for s, d in aim_targets(state)]
    elif battle is not None:
        targets = [{"ship": battle["def"], "dist": battle["dist"]}]
    return {
        "viewer": seat,
        "players": state["players"],
        "round": min(state["round"], ROUNDS),
        "rounds": ROUNDS,
        "phase": phase,
        "turn": state["turn"],
        "to_act": list(to_act),
        "waiting": WAITING.get(phase, ""),
        "ships": [_ship(state, s) for s in range(state["seats"])],
        "ports": [{"number": n, "at": list(coords(at))} for n, at in PORTS.items()],
        "x": list(coords(X)),
        "treasure": state["treasure"],
        "roll": list(state["roll"]),
        "wind": state["wind"],
        "dice": state["dice"],
        "mover": mover,
        "reach": reach,
        "targets": targets,
        "range": [list(coords(a)) for a in _range_dots(state)] if targets else [],
        "battle": None if battle is None else {k: battle[k] for k in ("att", "def", "dist", "fired", "hits")},
        "offer": state["offer"],
        "prize": state["prize"],
        "fates": [dict(f) for f in state["fates"]],
        "over": outcome is not None,
        "winners": list(outcome.winners) if outcome else [],
        "result": outcome.summary if outcome else None,
        "events": list(state.get("log", ())),
    }


def _range_dots(state: JSON) -> list[int]:
    """Dots in a straight line within 5 of the firing ship: its range."""
    battle = state["battle"]
    seat = battle["att"] if battle else state["turn"]
    at = state["ships"][seat]["at"]
    return [d for d in range(121) if d != at and (distance(at, d) or 99) <= 5]


def ship_line(ship: JSON) -> str:
    """``"Black at C1: 6 cannonballs, 6 supplies; course port 3; last port 1"`` (marked)."""
    if ship["sunk"]:
        return T("{ship}: sunk", ship=ship["name"])
    course = T("course port {port}", port=ship["chart"]) if ship["chart"] else T("no course charted")
    last = T("last port {port}", port=ship["last"]) if ship["last"] else T("not stocked up yet")
    values = {
        "ship": ship["name"],
        "dot": ship["dot"],
        "balls": balls_text(ship["balls"]),
        "supplies": supplies_text(ship["supplies"]),
        "course": course,
        "last": last,
    }
    if ship["treasure"]:
        return T("{ship} at {dot}: {balls}, {supplies}; {course}; {last}; 💰 the Treasure aboard", **values)
    return T("{ship} at {dot}: {balls}, {supplies}; {course}; {last}", **values)


def seat_text(view: JSON) -> str:
    """The viewer's ship and its log (``hand``)."""
    seat = view["viewer"]
    if seat is None:
        return T("Spectators see everything on the board.")
    return ship_line(view["ships"][seat])


def summary_line(view: JSON) -> str:
    ships = view["ships"]
    afloat = ", ".join(f"{s['name']} {s['balls']}/{s['supplies']}" for s in ships if not s["sunk"])
    if view["over"]:
        return T(
            "Sea Rats! over after round {round}: {result} Afloat: {afloat}.",
            round=view["round"],
            result=view["result"] or "",
            afloat=afloat,
        )
    deciding = ", ".join(who(s) for s in view["to_act"])
    values = {"round": view["round"], "deciding": deciding, "waiting": view["waiting"], "afloat": afloat}
    if view["treasure"] is None:
        return T(
            "Round {round}: {deciding} {waiting}. Afloat (balls/supplies): {afloat}. Treasure: on the X.", **values
        )
    return T(
        "Round {round}: {deciding} {waiting}. Afloat (balls/supplies): {afloat}. Treasure: aboard {ship}.",
        ship=ships[view["treasure"]]["name"],
        **values,
    )
