"""A ship's turn up to its battles: the roll (with the Stronger Wind), charting, sailing, making port."""

from __future__ import annotations

from games.core import JSON, Action, Event, IllegalAction, act
from games.i18n import T
from games.searats.board import charts, occupied, port_range, port_take, sail_actions
from games.searats.components import Dice, goods, ship_name, who
from games.searats.flow import enter_act, roll_to_sail
from games.searats.geometry import DIRECTIONS, PORT_AT, X, name, reach


def turn_actions(state: JSON, seat: int) -> list[Action]:
    phase = state["phase"]
    if phase == "start":
        return [act("roll"), act("wind")] if state["treasure"] == seat else [act("roll")]
    if phase == "sail":
        return sail_actions(state, seat, sum(state["roll"]), charts(state))
    if phase == "haven":
        return [act("haven"), act("skip")]
    if phase == "port":
        low, high = port_range(state)
        actions = [act("stock", b) for b in range(low, high + 1)]
        if state["treasure"] == seat and not state["port"]["booty"]:
            actions.append(act("booty"))
        return actions
    return []


# ---------------------------------------------------------------------------------------------- moves


def parse_sail(state: JSON, seat: int, action: Action, steps: int, chart_ports: list[int]) -> tuple[int, int | None]:
    """The dot a ``sail``/``anchor`` action ends on and the port it charts; :class:`IllegalAction` otherwise."""
    args = list(action.args)
    port = None
    if len(args) >= 2 and args[-2] == "chart":
        if not args[-1].isdigit() or int(args[-1]) not in chart_ports:
            raise IllegalAction(_chart_refusal(state, seat, args[-1], chart_ports))
        port = int(args[-1])
        args = args[:-2]
    at = state["ships"][seat]["at"]
    if action.verb == "anchor":
        if args:
            raise IllegalAction(T("`anchor` takes no direction: the ship stays where it is."))
        return at, port
    if len(args) != 2 or args[0] not in DIRECTIONS or not args[1].isdigit():
        raise IllegalAction(
            T("Sail like `sail ne 3`: a direction (`n`, `ne`, `e`, `se`, `s`, `sw`, `w`, `nw`) and a number of dots.")
        )
    n = int(args[1])
    if not 1 <= n <= steps or args[1] != str(n):
        raise IllegalAction(T("You may sail 1 to {steps} dots (or `anchor`).", steps=steps))
    dots = reach(at, args[0], n, occupied(state, seat))
    if len(dots) < n:
        raise IllegalAction(T("That sail leaves the ocean or runs onto or over another ship."))
    return dots[n - 1], port


def _chart_refusal(state: JSON, seat: int, text: str, chart_ports: list[int]) -> str:
    ship = state["ships"][seat]
    if text.isdigit() and int(text) == ship["last"]:
        return T(
            "You cannot chart port {port}: it is the last port where {ship} stocked up.",
            port=text,
            ship=ship_name(seat),
        )
    if text.isdigit() and int(text) == ship["chart"]:
        return T("Port {port} is your course already.", port=text)
    roll = [str(v) for v in state.get("roll") or []]
    rolled = (
        T("{first} or {second}", first=", ".join(roll[:-1]), second=roll[-1]) if len(roll) > 1 else "".join(roll) or "—"
    )
    return T("You may chart only the port you rolled ({rolled}).", rolled=rolled)


def move_ship(state: JSON, seat: int, to: int, events: list[Event], *, fleeing: bool) -> None:
    """Move a ship (sailing, or ``fleeing`` after a deal); ending a sail on the X while the Treasure is there
    takes it aboard."""
    ship = state["ships"][seat]
    start = ship["at"]
    ship["at"] = to
    if to == start:
        events.append(Event(T("{ship} drops anchor at {dot}.", ship=who(seat), dot=name(to))))
        return
    if fleeing:
        events.append(Event(T("{ship} flees to {dot}.", ship=who(seat), dot=name(to))))
    else:
        events.append(Event(T("{ship} sails to {dot}.", ship=who(seat), dot=name(to))))
    if to == X and state["treasure"] is None:
        state["treasure"] = seat
        events.append(Event(T("💰 {ship} digs up the Treasure!", ship=who(seat))))


def play_turn(state: JSON, seat: int, action: Action, dice: Dice, events: list[Event]) -> None:
    """The moves of the ship whose turn it is, before its battles."""
    phase, verb = state["phase"], action.verb
    if phase == "start":
        if action.args or verb not in ("roll", "wind") or (verb == "wind" and state["treasure"] != seat):
            raise IllegalAction(T("Roll the die (`roll`), or `wind` if you carry the Treasure."))
        if verb == "wind":
            state["treasure"] = None
            state["wind"] = True
            events.append(
                Event(T("🌬️ {ship} turns in the Treasure for a Stronger Wind; it returns to the X.", ship=who(seat)))
            )
        roll_to_sail(state, 2 if verb == "wind" else 1, dice)
        return
    if phase == "sail":
        if verb not in ("sail", "anchor"):
            raise IllegalAction(T("Sail first: `sail <direction> <dots>` or `anchor`."))
        to, port = parse_sail(state, seat, action, sum(state["roll"]), charts(state))
        ship = state["ships"][seat]
        anchored = to == ship["at"]
        if port is not None:
            ship["chart"] = port
            events.append(Event(T("🧭 {ship} charts a course for port {port}.", ship=who(seat), port=port)))
        move_ship(state, seat, to, events, fleeing=False)
        after_sail(state, seat, dice, events, anchored=anchored)
        return
    if phase == "haven":
        if action.args or verb not in ("haven", "skip"):
            raise IllegalAction(T("Make port with the Treasure's Safe Haven (`haven`) or not (`skip`)."))
        if verb == "haven":
            enter_port(state, seat, dice, events, haven=True)
        else:
            enter_act(state, dice, events)
        return
    if phase == "port":
        play_port(state, seat, action, dice, events)
        return
    raise IllegalAction(T("That is not a move at this point of the turn."))


def after_sail(state: JSON, seat: int, dice: Dice, events: list[Event], *, anchored: bool) -> None:
    """After the sail: make port on the charted port unless the ship last stocked up there; with the
    Treasure (Safe Haven), on any port it sailed to, its last port included. A sail of 0 dots (``anchored``)
    makes port only on a charted port that is not its last port. Then the battles."""
    ship = state["ships"][seat]
    port = PORT_AT.get(ship["at"])
    if port is not None:
        if port == ship["chart"] and port != ship["last"]:
            enter_port(state, seat, dice, events, haven=False)
            return
        if state["treasure"] == seat and not anchored:
            state["phase"] = "haven"
            return
    enter_act(state, dice, events)


def enter_port(state: JSON, seat: int, dice: Dice, events: list[Event], *, haven: bool) -> None:
    port = PORT_AT[state["ships"][seat]["at"]]
    if haven:
        events.append(Event(T("⚓ {ship} makes port {port} (Safe Haven).", ship=who(seat), port=port)))
    else:
        events.append(Event(T("⚓ {ship} makes port {port}.", ship=who(seat), port=port)))
    values = dice.roll(1, lambda shown: T("{ship} rolls for cargo: {dice}.", ship=who(seat), dice=shown))
    state["port"] = {"number": port, "dice": values, "booty": False}
    state["dice"] = {"seat": seat, "what": "port", "values": values}
    state["phase"] = "port"
    settle_port(state, seat, dice, events)


def settle_port(state: JSON, seat: int, dice: Dice, events: list[Event]) -> None:
    """Stock up without a question when there is nothing to choose (a full hold, or no More Booty to call)."""
    low, high = port_range(state)
    if low == high and not (state["treasure"] == seat and not state["port"]["booty"]):
        stock(state, seat, low, dice, events)


def play_port(state: JSON, seat: int, action: Action, dice: Dice, events: list[Event]) -> None:
    if action.verb == "booty" and not action.args:
        if state["treasure"] != seat or state["port"]["booty"]:
            raise IllegalAction(T("More Booty needs the Treasure aboard, once per port."))
        state["treasure"] = None
        state["port"]["booty"] = True
        events.append(Event(T("💰 {ship} turns in the Treasure for More Booty; it returns to the X.", ship=who(seat))))
        state["port"]["dice"] += dice.roll(
            1, lambda shown: T("{ship} rolls again for More Booty: {dice}.", ship=who(seat), dice=shown)
        )
        state["dice"] = {"seat": seat, "what": "port", "values": list(state["port"]["dice"])}
        settle_port(state, seat, dice, events)
        return
    low, high = port_range(state)
    if action.verb != "stock" or len(action.args) != 1 or not action.args[0].isdigit():
        raise IllegalAction(
            T("Divide the roll: `stock <cannonballs>` ({low}–{high}); the rest are supplies.", low=low, high=high)
        )
    balls = int(action.args[0])
    if not low <= balls <= high or action.args[0] != str(balls):
        raise IllegalAction(T("Take {low}–{high} cannonballs; the rest of the roll are supplies.", low=low, high=high))
    stock(state, seat, balls, dice, events)


def stock(state: JSON, seat: int, balls: int, dice: Dice, events: list[Event]) -> None:
    ship = state["ships"][seat]
    supplies = port_take(state) - balls
    ship["balls"] += balls
    ship["supplies"] += supplies
    ship["last"] = state["port"]["number"]
    events.append(
        Event(
            T(
                "📦 {ship} stocks up {goods} (now {balls}/{supplies}).",
                ship=who(seat),
                goods=goods(balls, supplies),
                balls=ship["balls"],
                supplies=ship["supplies"],
            )
        )
    )
    state["port"] = None
    enter_act(state, dice, events)
