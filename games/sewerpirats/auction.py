"""The Crew Member Auction variant: players hire the figures at the bar, paying with Talisman cards.

``state["auction"]`` holds the ``bar`` (front first; each stool ``{"tribe", "under": [cards]}``), the
step ``kind`` ("hire": the opener picks a figure, "open": the opening bid, "raise": raise or pass,
"pay": the winner discards the bid one card at a time), the ``lot``, ``bid``, ``bidder``, the seats
still ``active`` in this auction and the ``last`` player to take a figure.
"""

from __future__ import annotations

import random

from games.core import JSON, Action, Event, IllegalAction, act
from games.i18n import N, T, joined, seat_ref
from games.sewerpirats.board import SHIP_INDEX, StepRng, discard_from_hand, draw_card, log
from games.sewerpirats.components import CREW_SIZE, SHIPS, TRIBE_CODES, TRIBES
from games.sewerpirats.words import CARD_NOUN, SYMBOL, THE_FIGURE, UNDER_THE_FIGURE, cards


def fill_bar(seats: int, rng: random.Random) -> list[JSON]:
    """Each player in turn reveals 4 of the 6 Tribe cards and seats each figure on the rearmost empty
    stool, so the first figure placed ends at the rear of the bar."""
    placed = [tribe for _ in range(seats) for tribe in rng.sample(TRIBES, CREW_SIZE)]
    return [{"tribe": tribe, "under": []} for tribe in reversed(placed)]


def begin(state: JSON, bar: list[JSON], opener: int) -> None:
    """Start the auction; ``opener`` (chosen at random) opens the first one."""
    state["auction"] = {
        "bar": bar,
        "kind": "hire",
        "lot": None,
        "bid": None,
        "bidder": None,
        "active": [],
        "pay": 0,
        "last": None,
    }
    state["phase"] = "auction"
    _open(state, opener, [])


def auction_actions(state: JSON, seat: int) -> list[Action]:
    """The legal actions of the player to act in the auction."""
    a = state["auction"]
    held = len(state["players"][seat]["hand"])
    if a["kind"] == "hire":
        return [act("hire", i + 1) for i in range(min(len(a["bar"]), held + 1))]  # stools as shown: 1, 2…
    if a["kind"] == "open":
        return [act("bid", n) for n in range(a["lot"], held + 1)]
    if a["kind"] == "raise":
        return [*(act("bid", n) for n in range(a["bid"] + 1, held + 1)), act("pass")]
    hand = state["players"][seat]["hand"]
    return [act("discard", symbol) for symbol in SHIPS if symbol in hand]


def play_auction(state: JSON, seat: int, action: Action, rng: StepRng, events: list[Event]) -> None:
    """Apply ``hire``, ``bid``, ``pass`` or (paying) ``discard``; IllegalAction changes nothing."""
    a = state["auction"]
    kind, verb, args = a["kind"], action.verb, action.args
    if kind == "hire":
        if verb != "hire" or len(args) != 1 or not args[0].isdigit():
            raise IllegalAction(T("Pick a figure at the bar by its stool number, e.g. `hire 1`."))
        _hire(state, seat, int(args[0]) - 1, rng, events)
    elif kind == "pay":
        if verb != "discard" or len(args) != 1 or args[0] not in SHIP_INDEX:
            raise IllegalAction(T("Pay your bid one card at a time: `discard cat`, `bird` or `fish`."))
        if args[0] not in state["players"][seat]["hand"]:
            raise IllegalAction(T("You hold no {card}.", card=CARD_NOUN[args[0]]))
        _pay(state, seat, args[0], events)
        _pay_or_next(state, events)
    elif verb == "pass" and kind == "raise" and not args:
        a["active"].remove(seat)
        log(state, events, T("{seat} passes.", seat=seat_ref(seat)))
        _next_bidder(state, seat, events)
    elif verb == "bid" and len(args) == 1 and args[0].isdigit():
        _bid(state, seat, int(args[0]), events)
    else:
        raise IllegalAction(
            T("Bid a number of cards, e.g. `bid 2`, or pass.")
            if kind == "raise"
            else T("Bid a number of cards, e.g. `bid 2`.")
        )


def _hire(state: JSON, seat: int, lot: int, rng: StepRng, events: list[Event]) -> None:
    """``seat`` opens the auction of the figure on stool ``lot``; a card goes under the front figure when
    it is not the one auctioned."""
    a = state["auction"]
    if not 0 <= lot < len(a["bar"]):
        raise IllegalAction(T("The bar has stools 1 to {last}.", last=len(a["bar"])))
    held = len(state["players"][seat]["hand"])
    if lot > held:
        raise IllegalAction(
            N(
                "That figure's minimum bid is {n} card and you hold only {held}.",
                "That figure's minimum bid is {n} cards and you hold only {held}.",
                lot,
                held=held,
            )
        )
    a["lot"] = lot
    a["kind"] = "open"
    figure = THE_FIGURE[a["bar"][lot]["tribe"]]
    log(
        state,
        events,
        T("{seat} auctions {figure} on stool {stool}.", seat=seat_ref(seat), figure=figure, stool=lot + 1),
    )
    if lot:
        card = draw_card(state, rng)
        if card is not None:
            a["bar"][0]["under"].append(card)
            log(state, events, T("A card goes face down under the front figure of the bar."))


def _bid(state: JSON, seat: int, bid: int, events: list[Event]) -> None:
    """``seat`` opens the bidding or raises it to ``bid`` cards."""
    a = state["auction"]
    kind = a["kind"]
    floor = a["lot"] if kind == "open" else a["bid"] + 1
    if bid < floor:
        least = cards(floor)
        raise IllegalAction(
            T("Bid at least {cards}, or pass.", cards=least)
            if kind == "raise"
            else T("Bid at least {cards}.", cards=least)
        )
    held = len(state["players"][seat]["hand"])
    if bid > held:
        raise IllegalAction(T("You cannot bid more cards than you hold ({held}).", held=held))
    if kind == "open":
        a["active"] = [s for s in range(state["seats"]) if len(state["players"][s]["area"]) < CREW_SIZE]
    a["bid"], a["bidder"] = bid, seat
    log(state, events, T("{seat} bids {cards}.", seat=seat_ref(seat), cards=cards(bid)))
    _next_bidder(state, seat, events)


def _next_bidder(state: JSON, after: int, events: list[Event]) -> None:
    a = state["auction"]
    hands = [len(p["hand"]) for p in state["players"]]
    for k in range(1, state["seats"] + 1):
        seat = (after + k) % state["seats"]
        if seat == a["bidder"] or seat not in a["active"]:
            continue
        if hands[seat] <= a["bid"]:
            a["active"].remove(seat)
            log(state, events, T("{seat} cannot raise and passes.", seat=seat_ref(seat)))
            continue
        a["kind"] = "raise"
        state["actor"] = seat
        return
    _award(state, events)


def _take(state: JSON, seat: int, stool: int, events: list[Event]) -> str:
    """Give the figure on ``stool`` (and the cards under it) to ``seat``; its name for the log."""
    entry = state["auction"]["bar"].pop(stool)
    player = state["players"][seat]
    tribe = entry["tribe"]
    number = 1 + sum(1 for f in player["area"] if f["tribe"] == tribe)
    player["area"].append({"id": f"{seat}{TRIBE_CODES[tribe]}{number}", "owner": seat, "tribe": tribe})
    if entry["under"]:
        player["hand"].extend(entry["under"])
        found = joined([SYMBOL[card] for card in entry["under"]])
        events.append(Event(T("Under {figure} you found: {cards}.", figure=UNDER_THE_FIGURE[tribe], cards=found), seat))
    state["auction"]["last"] = seat
    if entry["under"]:
        return T("{figure} and the {cards} under it", figure=THE_FIGURE[tribe], cards=cards(len(entry["under"])))
    return THE_FIGURE[tribe]


def _award(state: JSON, events: list[Event]) -> None:
    a = state["auction"]
    winner = a["bidder"]
    taken = _take(state, winner, a["lot"], events)
    log(
        state,
        events,
        T("{seat} hires {figure} for {cards}.", seat=seat_ref(winner), figure=taken, cards=cards(a["bid"])),
    )
    a["kind"] = "pay"
    a["pay"] = a["bid"]
    state["actor"] = winner
    _pay_or_next(state, events)


def _pay(state: JSON, seat: int, symbol: str, events: list[Event]) -> None:
    discard_from_hand(state, seat, symbol, 1, face_up=False)
    state["auction"]["pay"] -= 1
    events.append(Event(T("You paid a {card}.", card=CARD_NOUN[symbol]), seat))


def _pay_or_next(state: JSON, events: list[Event]) -> None:
    a = state["auction"]
    seat = a["bidder"]
    hand = state["players"][seat]["hand"]
    while a["pay"] and (len(set(hand)) == 1 or len(hand) == a["pay"]):
        _pay(state, seat, hand[-1], events)
    if not a["pay"]:
        _open(state, (seat + 1) % state["seats"], events)


def _open(state: JSON, seat: int, events: list[Event]) -> None:
    """The next auction, opened by the first player from ``seat`` clockwise who still hires."""
    a = state["auction"]
    n = state["seats"]
    hiring = [(seat + k) % n for k in range(n) if len(state["players"][(seat + k) % n]["area"]) < CREW_SIZE]
    if len(hiring) > 1:
        a.update(kind="hire", lot=None, bid=None, bidder=None, active=[])
        state["turn"] = state["actor"] = hiring[0]
        return
    if hiring:
        taken = [_take(state, hiring[0], 0, events) for _ in range(len(a["bar"]))]
        log(state, events, T("{seat} takes {figures} for free.", seat=seat_ref(hiring[0]), figures=joined(taken)))
    first = a["last"]
    state["auction"] = None
    state["first"] = state["turn"] = state["actor"] = first
    state["phase"] = "action"
    log(
        state, events, T("The bar is empty: {seat} took the last figure and is the first player.", seat=seat_ref(first))
    )
