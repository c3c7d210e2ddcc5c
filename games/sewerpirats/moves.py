"""Actions B and C (move a figure to a crew space, become captain): costs, legality, and the raccoon
and snail abilities they trigger."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from games.core import JSON, Action, Event, IllegalAction
from games.i18n import T, seat_ref
from games.sewerpirats import hidden
from games.sewerpirats.board import (
    AREA,
    CAPTAIN,
    SHIP_INDEX,
    Figure,
    StepRng,
    area_choices,
    captain_ship,
    discard_from_hand,
    draw_card,
    has_ability,
    locate,
    log,
    owner_of,
)
from games.sewerpirats.components import SHIPS
from games.sewerpirats.words import CARD_NOUN, SHIP_NOUN, TRIBE, TRIBES_WORD, cards_of

FROM_AREA_TO_CAPTAIN = 3
"""Cards to become captain straight from the play area (1 from a crew space)."""


class Plan(NamedTuple):
    """A checked Move or Become Captain: the figure, its ship, from where to where, and the card cost."""

    fig: Figure
    ship: int
    start: int
    """``AREA`` or a crew space index (0-2)."""
    target: int
    """A crew space index, or ``CAPTAIN``."""
    cost: int


def _discounted(state: JSON, fig: Figure, cost: int) -> int:
    return max(cost - 1, 0) if has_ability(state, fig, "cockroaches") else cost


def _captain_cost(state: JSON, fig: Figure, start: int) -> int:
    """Cards for ``fig`` to become captain from ``start`` (the play area or a crew space)."""
    return _discounted(state, fig, FROM_AREA_TO_CAPTAIN if start == AREA else 1)


def _own_starts(state: JSON, seat: int, only: str | None) -> list[tuple[Figure, int, int]]:
    """(figure, ship or AREA, start) for each figure of ``seat`` that may move or become captain; only
    figure ``only`` if given (a weasel's extra action belongs to that very figure, even in a play area
    where a lower-numbered figure of its tribe stands for the others)."""
    if only is not None:
        where = locate(state, only)
        if where is None or (where[0] != AREA and where[1] == CAPTAIN):
            return []
        on, index = where
        if on == AREA:
            return [(state["players"][seat]["area"][index], AREA, AREA)]
        return [(state["ships"][on]["spaces"][index], on, index)]
    starts = [(f, AREA, AREA) for f in area_choices(state["players"][seat]["area"])]
    for s, ship in enumerate(state["ships"]):
        for i in range(CAPTAIN):
            fig = ship["spaces"][i]
            if fig is not None and fig["owner"] == seat:
                starts.append((fig, s, i))
    return starts


def plan_actions(state: JSON, seat: int, only: str | None = None) -> list[Action]:
    """Every legal Move, then every legal Become Captain, of ``seat`` (of figure ``only`` if given), as
    actions. Figures of one tribe in the play area are alike and count once."""
    hand = state["players"][seat]["hand"]
    have = [hand.count(symbol) for symbol in SHIPS]
    may_captain = captain_ship(state, seat) is None
    moves: list[Action] = []
    captains: list[Action] = []
    for fig, on, start in _own_starts(state, seat, only):
        discount = 1 if has_ability(state, fig, "cockroaches") else 0
        fid = fig["id"]
        for s in range(len(SHIPS)) if on == AREA else (on,):
            spaces = state["ships"][s]["spaces"]
            cost = -discount
            for t in range(start + 1, CAPTAIN):
                if spaces[t] is None:
                    cost += 1
                    if cost > have[s]:
                        break
                    moves.append(Action("move", (fid, SHIPS[s], str(t + 1))))
            if (
                may_captain
                and spaces[CAPTAIN] is None
                and all(spaces[i] is not None for i in range(start + 1, CAPTAIN))
                and _captain_cost(state, fig, start) <= have[s]
            ):
                captains.append(Action("captain", (fid, SHIPS[s])))
    return moves + captains


def _ship(name: str) -> int:
    if name not in SHIP_INDEX:
        raise IllegalAction(T("There is no {name} ship: choose cat, bird or fish.", name=name))
    return SHIP_INDEX[name]


def _own_figure(state: JSON, seat: int, fid: str, s: int, only: str | None) -> tuple[Figure, int]:
    where = locate(state, fid)
    if where is None or owner_of(fid) != seat:
        raise IllegalAction(T("You have no figure {figure}.", figure=fid))
    if only is not None and fid != only:
        raise IllegalAction(T("The extra action must use the same weasel."))
    on, index = where
    if on == AREA:
        fig = state["players"][seat]["area"][index]
        # Alike figures count once, except the weasel whose extra action this is (``only``).
        canonical = next(f["id"] for f in area_choices(state["players"][seat]["area"]) if f["tribe"] == fig["tribe"])
        if only is None and canonical != fid:
            raise IllegalAction(
                T(
                    "Your {tribe} in the play area are alike: use {figure}.",
                    tribe=TRIBES_WORD[fig["tribe"]],
                    figure=canonical,
                )
            )
        return fig, AREA
    if on != s:
        raise IllegalAction(
            T(
                "That figure is aboard the {ship}; figures leave a ship only when it sets sail.",
                ship=SHIP_NOUN[SHIPS[on]],
            )
        )
    if index == CAPTAIN:
        raise IllegalAction(T("A captain does not move: it sets sail."))
    return state["ships"][s]["spaces"][index], index


def _afford(state: JSON, seat: int, s: int, cost: int) -> None:
    if state["players"][seat]["hand"].count(SHIPS[s]) < cost:
        raise IllegalAction(T("You need {cards} for that.", cards=cards_of(SHIPS[s], cost)))


def check_move(state: JSON, seat: int, args: Sequence[str], only: str | None = None) -> Plan:
    """The plan of ``move <figure> <ship> <space>``, or IllegalAction saying why not."""
    if len(args) != 3:
        raise IllegalAction(T("Say which figure, ship and crew space, e.g. `move 0ra1 fish 2`."))
    fid, ship_name, space = args
    s = _ship(ship_name)
    if space in ("c", "captain") or (space.isdigit() and int(space) > CAPTAIN):
        raise IllegalAction(T("Space 3 is the last crew space; the captain's space is taken with `captain`."))
    if not space.isdigit() or int(space) < 1:
        raise IllegalAction(T("Crew spaces are numbered 1 to 3."))
    target = int(space) - 1
    fig, start = _own_figure(state, seat, fid, s, only)
    spaces = state["ships"][s]["spaces"]
    if target <= start:
        raise IllegalAction(T("Figures move only toward the bow."))
    if spaces[target] is not None:
        raise IllegalAction(T("Space {space} is occupied: a move must end on an empty crew space.", space=target + 1))
    empty = spaces[start + 1 : target + 1].count(None)
    cost = _discounted(state, fig, empty)
    _afford(state, seat, s, cost)
    return Plan(fig, s, start, target, cost)


def check_captain(state: JSON, seat: int, args: Sequence[str], only: str | None = None) -> Plan:
    """The plan of ``captain <figure> <ship>``, or IllegalAction saying why not."""
    if len(args) != 2:
        raise IllegalAction(T("Say which figure and ship, e.g. `captain 0ra1 cat`."))
    fid, ship_name = args
    s = _ship(ship_name)
    if captain_ship(state, seat) is not None:
        raise IllegalAction(T("You already have a captain: a player has one captain at most."))
    spaces = state["ships"][s]["spaces"]
    if spaces[CAPTAIN] is not None:
        raise IllegalAction(T("The {ship} already has a captain.", ship=SHIP_NOUN[ship_name]))
    fig, start = _own_figure(state, seat, fid, s, only)
    if any(spaces[i] is None for i in range(start + 1, CAPTAIN)):
        raise IllegalAction(T("Every crew space between the figure and the captain's space must be occupied."))
    cost = _captain_cost(state, fig, start)
    _afford(state, seat, s, cost)
    return Plan(fig, s, start, CAPTAIN, cost)


def carry_out(state: JSON, seat: int, plan: Plan, rng: StepRng, events: list[Event]) -> None:
    """Pay for and perform a checked plan, then let a raccoon steal from the owners it passed over."""
    symbol = SHIPS[plan.ship]
    discard_from_hand(state, seat, symbol, plan.cost, face_up=True)
    spaces = state["ships"][plan.ship]["spaces"]
    if plan.start == AREA:
        state["players"][seat]["area"].remove(plan.fig)
    else:
        spaces[plan.start] = None
    spaces[plan.target] = plan.fig
    figure, ship = TRIBE[plan.fig["tribe"]], SHIP_NOUN[symbol]
    paid = cards_of(symbol, plan.cost) if plan.cost else T("free")
    if plan.target == CAPTAIN:
        log(
            state,
            events,
            T(
                "{seat}'s {figure} became captain of the {ship} ({paid}).",
                seat=seat_ref(seat),
                figure=figure,
                ship=ship,
                paid=paid,
            ),
        )
    else:
        log(
            state,
            events,
            T(
                "{seat} moved a {figure} to space {space} of the {ship} ({paid}).",
                seat=seat_ref(seat),
                figure=figure,
                space=plan.target + 1,
                ship=ship,
                paid=paid,
            ),
        )
    if has_ability(state, plan.fig, "raccoons"):
        passed = {spaces[i]["owner"] for i in range(plan.start + 1, plan.target) if spaces[i] is not None}
        _steal(state, seat, sorted(passed - {seat}, key=lambda v: (v - seat) % state["seats"]), rng, events)


def _steal(state: JSON, thief: int, victims: list[int], rng: StepRng, events: list[Event]) -> None:
    for victim in victims:
        hand = state["players"][victim]["hand"]
        if not hand:
            continue
        card = hand.pop(rng.get().randrange(len(hand)))
        hidden.lost(state, victim, 1)
        state["players"][thief]["hand"].append(card)
        log(
            state,
            events,
            T("{thief}'s raccoon stole a card from {victim}.", thief=seat_ref(thief), victim=seat_ref(victim)),
        )
        events.append(
            Event(T("Your raccoon stole a {card} from {victim}.", card=CARD_NOUN[card], victim=seat_ref(victim)), thief)
        )
        events.append(
            Event(T("{thief}'s raccoon stole your {card}.", thief=seat_ref(thief), card=CARD_NOUN[card]), victim)
        )


def snail_reveal(state: JSON, fid: str, rng: StepRng, events: list[Event]) -> None:
    """Reveal the top card for a snail that just moved; on a match it steps (or swaps) one space on.

    The owner cannot hold another captain here: a player with a captain may only set sail.
    """
    where = locate(state, fid)
    card = draw_card(state, rng)
    assert where is not None and card is not None, "the snail is aboard and its move paid a card"
    s, index = where
    state["discard"].append(card)
    seat = owner_of(fid)
    if card != SHIPS[s]:
        log(
            state,
            events,
            T("{seat} revealed a {card} for the snail: no match.", seat=seat_ref(seat), card=CARD_NOUN[card]),
        )
        return
    spaces = state["ships"][s]["spaces"]
    ahead = spaces[index + 1]
    spaces[index], spaces[index + 1] = ahead, spaces[index]
    values = {"seat": seat_ref(seat), "card": CARD_NOUN[card]}
    if ahead is None:
        if index + 1 == CAPTAIN:
            text = T("{seat} revealed a {card}: the snail moves to the captain's space.", **values)
        else:
            text = T("{seat} revealed a {card}: the snail moves to space {space}.", space=index + 2, **values)
    else:
        values |= {"owner": seat_ref(ahead["owner"]), "figure": TRIBE[ahead["tribe"]]}
        if index + 1 == CAPTAIN:
            text = T(
                "{seat} revealed a {card}: the snail moves to the captain's space, swapping with {owner}'s {figure}.",
                **values,
            )
        else:
            text = T(
                "{seat} revealed a {card}: the snail moves to space {space}, swapping with {owner}'s {figure}.",
                space=index + 2,
                **values,
            )
    log(state, events, text)
