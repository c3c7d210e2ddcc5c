"""A player's turn: the action choice, drawing two cards, discarding to the hand limit, the snail's
reveal and the weasel's extra action."""

from __future__ import annotations

from games.core import JSON, Action, Event, IllegalAction, act
from games.i18n import T, seat_ref
from games.sewerpirats import hidden
from games.sewerpirats.board import (
    CAPTAIN,
    SHIP_INDEX,
    StepRng,
    can_draw,
    captain_ship,
    discard_from_hand,
    draw_card,
    has_ability,
    log,
    refill_row,
)
from games.sewerpirats.components import HAND_LIMIT, SHIPS
from games.sewerpirats.moves import carry_out, check_captain, check_move, plan_actions, snail_reveal
from games.sewerpirats.sailing import end_action, offer_weasel, start_sail, weasel_actions
from games.sewerpirats.words import CARD_NOUN, SHIP_NOUN

TURN_PHASES = ("action", "draw", "discard", "snail", "weasel")


def draw_actions(state: JSON) -> list[Action]:
    """Where the next card may come from: the deck (if it or the discard pile has cards) or the row."""
    actions = [Action("draw", ("deck",))] if can_draw(state) else []
    return actions + [Action("draw", ("row", str(i + 1))) for i in range(len(state["row"]))]


def turn_actions(state: JSON, seat: int) -> list[Action]:
    """The legal actions of the player to act in one of the ``TURN_PHASES``."""
    phase = state["phase"]
    if phase == "action":
        s = captain_ship(state, seat)
        if s is not None:
            return [act("sail", SHIPS[s])]
        actions = draw_actions(state)
        return actions + plan_actions(state, seat)
    if phase == "draw":
        return draw_actions(state)
    if phase == "discard":
        hand = state["players"][seat]["hand"]
        return [act("discard", symbol) for symbol in SHIPS if symbol in hand]
    if phase == "snail":
        return [act("snail", "reveal"), act("snail", "skip")]
    return [*weasel_actions(state, state["weasel"]), act("done")]


def play_turn(state: JSON, seat: int, action: Action, rng: StepRng, events: list[Event]) -> None:
    """Apply an action in one of the ``TURN_PHASES`` (validated first; IllegalAction changes nothing)."""
    phase, verb = state["phase"], action.verb
    if phase == "action":
        s = captain_ship(state, seat)
        if s is not None and verb != "sail":
            raise IllegalAction(T("Your captain is aboard the {ship}: you must set sail.", ship=SHIP_NOUN[SHIPS[s]]))
        if verb == "draw":
            _draw(state, seat, action.args, rng, events)
        elif verb in ("move", "captain", "sail"):
            _figure_action(state, seat, action, rng, events, None)
        else:
            raise IllegalAction(T("Draw two cards, move a figure, become captain or set sail."))
    elif phase == "draw":
        if verb != "draw":
            raise IllegalAction(T("Take your second card: `draw deck` or `draw row <n>`."))
        _draw(state, seat, action.args, rng, events)
    elif phase == "discard":
        _discard(state, seat, action, events)
    elif phase == "snail":
        if verb != "snail" or action.args not in (("reveal",), ("skip",)):
            raise IllegalAction(T("Say `snail reveal` or `snail skip`."))
        if action.args == ("reveal",):
            snail_reveal(state, state["snail"], rng, events)
        end_action(state, events)
    elif verb == "done":
        end_action(state, events)
    elif verb in ("move", "captain", "sail"):
        _figure_action(state, seat, action, rng, events, state["weasel"])
    else:
        raise IllegalAction(T("Take another action with the same weasel, or say `done`."))


def _draw(state: JSON, seat: int, args: tuple[str, ...], rng: StepRng, events: list[Event]) -> None:
    player = state["players"][seat]
    row = state["row"]
    if args == ("deck",):
        if not can_draw(state):
            raise IllegalAction(T("The deck and the discard pile are empty: take a card from the row."))
        card = draw_card(state, rng)
        log(state, events, T("{seat} drew a card from the deck.", seat=seat_ref(seat)))
        events.append(Event(T("You drew a {card}.", card=CARD_NOUN[card]), seat))
    elif len(args) == 2 and args[0] == "row":
        if not args[1].isdigit() or not 1 <= int(args[1]) <= len(row):  # counted as the board shows: 1–3
            raise IllegalAction(T("The row holds cards 1 to {last}.", last=len(row)) if row else T("The row is empty."))
        card = row.pop(int(args[1]) - 1)
        hidden.took_from_row(state, seat, card)
        log(state, events, T("{seat} took a {card} from the row.", seat=seat_ref(seat), card=CARD_NOUN[card]))
    else:
        raise IllegalAction(T("Draw from the deck or the row: `draw deck` or `draw row 1`."))
    player["hand"].append(card)
    if state["phase"] == "action" and (row or can_draw(state)):
        state["phase"] = "draw"
        return
    refill_row(state, rng)
    _discard_or_end(state, seat, events)


def _discard_or_end(state: JSON, seat: int, events: list[Event]) -> None:
    hand = state["players"][seat]["hand"]
    while len(hand) > HAND_LIMIT and len(set(hand)) == 1:
        _discard_one(state, seat, hand[0], events)
    if len(hand) > HAND_LIMIT:
        state["phase"] = "discard"
    else:
        end_action(state, events)


def _discard_one(state: JSON, seat: int, symbol: str, events: list[Event]) -> None:
    discard_from_hand(state, seat, symbol, 1, face_up=False)
    log(state, events, T("{seat} discarded a card.", seat=seat_ref(seat)))
    events.append(Event(T("You discarded a {card}.", card=CARD_NOUN[symbol]), seat))


def _discard(state: JSON, seat: int, action: Action, events: list[Event]) -> None:
    if action.verb != "discard" or len(action.args) != 1 or action.args[0] not in SHIP_INDEX:
        raise IllegalAction(
            T("Discard down to {limit} cards, one at a time: `discard cat`, `bird` or `fish`.", limit=HAND_LIMIT)
        )
    if action.args[0] not in state["players"][seat]["hand"]:
        raise IllegalAction(T("You hold no {card}.", card=CARD_NOUN[action.args[0]]))
    _discard_one(state, seat, action.args[0], events)
    _discard_or_end(state, seat, events)


def _figure_action(
    state: JSON, seat: int, action: Action, rng: StepRng, events: list[Event], weasel: str | None
) -> None:
    """Move, Become Captain or Set Sail; ``weasel`` is the figure a weasel's extra action must use."""
    if action.verb == "sail":
        s = captain_ship(state, seat)
        if len(action.args) != 1 or action.args[0] not in SHIP_INDEX:
            raise IllegalAction(T("Say which ship sets sail, e.g. `sail cat`."))
        if s != SHIP_INDEX[action.args[0]]:
            raise IllegalAction(T("You have no captain on the {ship}.", ship=SHIP_NOUN[action.args[0]]))
        if weasel is not None and state["ships"][s]["spaces"][CAPTAIN]["id"] != weasel:
            raise IllegalAction(T("The extra action must use the same weasel."))
        start_sail(state, s, events, weasel_may_act=weasel is None)
        return
    check = check_move if action.verb == "move" else check_captain
    plan = check(state, seat, action.args, weasel)
    carry_out(state, seat, plan, rng, events)
    # A snail's move always pays a card to the discard pile, so a card can always be revealed.
    if action.verb == "move" and has_ability(state, plan.fig, "snails"):
        state["snail"] = plan.fig["id"]
        state["phase"] = "snail"
    elif weasel is not None or not has_ability(state, plan.fig, "weasels") or not offer_weasel(state, plan.fig["id"]):
        end_action(state, events)
