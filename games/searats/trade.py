"""Trades: the ship on turn proposes an exchange (what it gives, then what it asks) to a ship within 5 dots in
a straight line, whose commander accepts or declines; the one who opened it may abandon it while building
it; and the answer to every offer."""

from __future__ import annotations

from collections.abc import Callable

from games.core import JSON, Action, Event, IllegalAction, act
from games.i18n import T
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
        T(
            "`{verb} <cannonballs> <supplies>` (add `chest` for the Treasure); the exchange must move something "
            "and leave no ship with more than 12 items (12 of a kind).",
            verb=action.verb,
        )
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
        events.append(Event(T("{ship} abandons the trade with {partner}.", ship=who(seat), partner=who(offer["to"]))))
        enter_act(state, dice, events)
        return
    if phase == "give":
        if action.verb != "give":
            raise IllegalAction(T("Say what you give first: `give <cannonballs> <supplies>`."))
        offer["give"] = list(_cargo(action, trade_gives(state, offer["to"])))
        state["phase"] = "ask"
        return
    if phase == "ask":
        if action.verb != "ask":
            raise IllegalAction(T("Now say what you ask in return: `ask <cannonballs> <supplies>`."))
        get = _cargo(action, trade_asks(state, offer))
        make_offer(state, "trade", offer["from"], offer["to"], tuple(offer["give"]), get, events)
        events.append(
            Event(
                T(
                    "🤝 {ship} offers {partner} {give} for {get}.",
                    ship=who(offer["from"]),
                    partner=who(offer["to"]),
                    give=bundle(offer["give"]),
                    get=bundle(get),
                )
            )
        )
        return
    raise IllegalAction(T("That is not a move at this point of the trade."))


def answer(state: JSON, seat: int, action: Action, dice: Dice, events: list[Event]) -> None:
    """``accept`` or ``decline`` an offer; ``lapse`` (applied by the platform's timer, never a player's
    move) lets it lapse unanswered, which declines it."""
    if action.args or action.verb not in ("accept", "decline", "lapse"):
        raise IllegalAction(T("Answer the offer: `accept` or `decline`."))
    offer = state["offer"]
    accepted = action.verb == "accept"
    events.append(Event(ANSWERS[action.verb, offer["kind"]](who(seat))))
    if offer["kind"] != "trade":
        answer_deal(state, accepted, dice, events)
        return
    state["offer"] = None
    if accepted:
        exchange(state, offer)
    enter_act(state, dice, events)


ANSWERS: dict[tuple[str, str], Callable[[str], str]] = {
    ("accept", "bribe"): lambda ship: T("{ship} accepts the bribe.", ship=ship),
    ("accept", "demand"): lambda ship: T("{ship} accepts the demand.", ship=ship),
    ("accept", "trade"): lambda ship: T("{ship} accepts the trade.", ship=ship),
    ("decline", "bribe"): lambda ship: T("{ship} declines the bribe.", ship=ship),
    ("decline", "demand"): lambda ship: T("{ship} declines the demand.", ship=ship),
    ("decline", "trade"): lambda ship: T("{ship} declines the trade.", ship=ship),
    ("lapse", "bribe"): lambda ship: T("{ship} lets the bribe lapse unanswered.", ship=ship),
    ("lapse", "demand"): lambda ship: T("{ship} lets the demand lapse unanswered.", ship=ship),
    ("lapse", "trade"): lambda ship: T("{ship} lets the trade lapse unanswered.", ship=ship),
}
"""The event of an answer (``accept``, ``decline``, or ``lapse`` by the timer) to each kind of offer."""


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
