"""Trades: the ship on turn proposes an exchange (what it gives, then what it asks) to a ship within 5 dots in
a straight line, whose commander accepts or declines; the one who opened it may abandon it while building
it; and the answer to every offer."""

from __future__ import annotations

from games.core import JSON, Action, Event, IllegalAction, act
from games.searats.battle import answer_deal, bundle, make_offer
from games.searats.board import trade_asks, trade_gives
from games.searats.components import Dice, who
from games.searats.flow import enter_act


def _cargo_action(verb: str, b: int, s: int, chest: bool) -> Action:
    return act(verb, b, s, "chest") if chest else act(verb, b, s)


def trade_actions(state: JSON) -> list[Action]:
    phase = state["phase"]
    if phase == "give":
        return [*(_cargo_action("give", *g) for g in trade_gives(state, state["offer"]["to"])), act("abandon")]
    if phase == "ask":
        return [*(_cargo_action("ask", *a) for a in trade_asks(state, state["offer"])), act("abandon")]
    return [act("accept"), act("decline")] if phase == "answer" else []


def _cargo(action: Action, options: list[tuple[int, int, bool]]) -> tuple[int, int, bool]:
    args = action.args
    chest = len(args) == 3 and args[2] == "chest"
    if len(args) in (2, 3) and (len(args) == 2 or chest) and all(a.isdigit() and a == str(int(a)) for a in args[:2]):
        found = (int(args[0]), int(args[1]), chest)
        if found in options:
            return found
    raise IllegalAction(
        f"`{action.verb} <cannonballs> <supplies>` (add `chest` for the Treasure); the exchange must move "
        "something and leave no ship with more than 12 items (12 of a kind)."
    )


def start_trade(state: JSON, seat: int, partner: int) -> None:
    state["trading"] = True
    state["traded"].append(partner)
    state["offer"] = {"kind": "trade", "from": seat, "to": partner, "give": None, "get": None}
    state["phase"] = "give"


def play_trade(state: JSON, seat: int, action: Action, dice: Dice, events: list[Event]) -> None:
    phase = state["phase"]
    offer = state["offer"]
    if action.verb == "abandon" and not action.args:
        state["offer"] = None
        events.append(Event(f"{who(seat)} abandons the trade with {who(offer['to'])}."))
        enter_act(state, dice, events)
        return
    if phase == "give":
        if action.verb != "give":
            raise IllegalAction("Say what you give first: `give <cannonballs> <supplies>`.")
        offer["give"] = list(_cargo(action, trade_gives(state, offer["to"])))
        state["phase"] = "ask"
        return
    if phase == "ask":
        if action.verb != "ask":
            raise IllegalAction("Now say what you ask in return: `ask <cannonballs> <supplies>`.")
        get = _cargo(action, trade_asks(state, offer))
        make_offer(state, "trade", offer["from"], offer["to"], tuple(offer["give"]), get, events)
        events.append(
            Event(f"🤝 {who(offer['from'])} offers {who(offer['to'])} {bundle(offer['give'])} for {bundle(get)}.")
        )
        return
    raise IllegalAction("That is not a move at this point of the trade.")


def answer(state: JSON, seat: int, action: Action, dice: Dice, events: list[Event]) -> None:
    """``accept`` or ``decline`` an offer; ``lapse`` (applied by the platform's timer, never a player's
    move) lets it lapse unanswered, which declines it."""
    if action.args or action.verb not in ("accept", "decline", "lapse"):
        raise IllegalAction("Answer the offer: `accept` or `decline`.")
    offer = state["offer"]
    accepted = action.verb == "accept"
    said = {"accept": "accepts", "decline": "declines", "lapse": "lets"}[action.verb]
    tail = " lapse unanswered" if action.verb == "lapse" else ""
    events.append(Event(f"{who(seat)} {said} the {offer['kind']}{tail}."))
    if offer["kind"] != "trade":
        answer_deal(state, accepted, dice, events)
        return
    state["offer"] = None
    if accepted:
        exchange(state, offer)
    enter_act(state, dice, events)


def exchange(state: JSON, offer: JSON) -> None:
    giver, taker = state["ships"][offer["from"]], state["ships"][offer["to"]]
    gb, gs, gc = offer["give"]
    ab, asup, ac = offer["get"]
    giver["balls"] += ab - gb
    giver["supplies"] += asup - gs
    taker["balls"] += gb - ab
    taker["supplies"] += gs - asup
    if gc:
        state["treasure"] = offer["to"]
    elif ac:
        state["treasure"] = offer["from"]
