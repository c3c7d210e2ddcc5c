"""Combat between two players: both choose a hand card in secret, and the cards are revealed together.

The chosen card leaves the hand into ``duel["chosen"]``, seen only by its owner, until both have chosen.
A card's value is its cannons, +1 of the player's allegiance, +1 for a Ship of the Line, and for a Joker
the cannons of a ship drawn from the deck. A tie discards both cards and the combat starts again (a player
who has no hand card left then loses; if neither has, the combat ends without a winner). The higher
card wins: the winner discards it, takes the loser's card into hand, completes a Bounty, and chooses the
plunder: a random crew card, a random unfinished mission, or one cargo card. Instead of choosing, a
player lighter than the other may dump cargo and flee, which ends the combat.
"""

from __future__ import annotations

import random

from games.core import JSON, Action, Event
from games.i18n import T
from games.pirates import hidden, missions
from games.pirates.cards import face, is_joker, label, name
from games.pirates.combat import card_value
from games.pirates.table import codes, discard, draw, end_action, limit, names, p, ship_type, take, weight


def start(state: JSON, attacker: int, defender: int, events: list[Event]) -> None:
    state["duel"] = {"seats": [attacker, defender], "chosen": [None, None], "round": 1}
    state["shown"] = None
    state["pending"] = None
    events.append(
        Event(
            T(
                "{attacker} attacks {defender}! Both captains choose a combat card in secret.",
                attacker=p(attacker),
                defender=p(defender),
            )
        )
    )


def deciders(state: JSON) -> tuple[int, ...]:
    duel = state["duel"]
    return tuple(s for s, c in zip(duel["seats"], duel["chosen"], strict=True) if c is None)


def take_back(state: JSON, seat: int) -> dict[int, list[Action]]:
    """The combat cards chosen by ``seat``'s opponent and not yet revealed, put back into its hand (see
    :meth:`Game.take_back <games.core.Game.take_back>`): that seat may choose any of its cards again, and
    the recent events say so again when it does."""
    duel = state["duel"]
    if duel is None:
        return {}
    back = {}
    for i, (other, card) in enumerate(zip(duel["seats"], duel["chosen"], strict=True)):
        if other != seat and card is not None:
            hand = state["players"][other]["hand"]
            hand.append(card)
            duel["chosen"][i] = None
            back[other] = _plays(hand)
            log = state.get("log", [])
            if _chosen(other) in log:
                del log[len(log) - 1 - log[::-1].index(_chosen(other))]
    return back


def _chosen(seat: int) -> str:
    """The public event of ``seat`` choosing its combat card."""
    return T("{seat} has chosen a combat card.", seat=p(seat))


def _plays(hand: list[int]) -> list[Action]:
    """Choosing one of the ``hand``'s cards for the combat."""
    return [Action("play", (c,)) for c in codes(hand)]


def _other(duel: JSON, seat: int) -> int:
    a, b = duel["seats"]
    return b if seat == a else a


def actions(state: JSON, seat: int) -> list[Action]:
    duel = state["duel"]
    player = state["players"][seat]
    acts = _plays(player["hand"])
    acts += [Action("dump", (c,)) for c in codes(player["holds"])]
    if weight(player) < weight(state["players"][_other(duel, seat)]):
        acts.append(Action("flee"))
    return acts


def play(state: JSON, seat: int, action: Action, rng: random.Random, events: list[Event]) -> None:
    duel = state["duel"]
    player = state["players"][seat]
    if action.verb == "dump":
        card = take(player["holds"], action.args[0])
        discard(state, [card])
        events.append(Event(T("{seat} dumps {card} overboard.", seat=p(seat), card=label(card))))
        return
    if action.verb == "flee":
        other = _other(duel, seat)
        index = duel["seats"].index(other)
        if duel["chosen"][index] is not None:
            state["players"][other]["hand"].append(duel["chosen"][index])
        events.append(Event(T("{seat} flees from {other}.", seat=p(seat), other=p(other))))
        _finish(state, events)
        return
    card = take(player["hand"], action.args[0])
    duel["chosen"][duel["seats"].index(seat)] = card
    events.append(Event(T("You choose {card} for the combat.", card=label(card)), seat))
    events.append(Event(_chosen(seat)))
    if None not in duel["chosen"]:
        _reveal(state, rng, events)


def value(state: JSON, seat: int, card: int, rng: random.Random, events: list[Event], allies: list[int]) -> int:
    player = state["players"][seat]
    total = card_value(player, card) + (1 if ship_type(player) == "Ship of the Line" else 0)
    if is_joker(card):
        ally = draw(state, rng, events)
        if ally is not None:
            allies.append(ally)
            total += face(ally).cannons
    return total


def _reveal(state: JSON, rng: random.Random, events: list[Event]) -> None:
    duel = state["duel"]
    seats, cards = duel["seats"], duel["chosen"]
    allies: list[int] = []
    values = [value(state, s, c, rng, events, allies) for s, c in zip(seats, cards, strict=True)]
    state["shown"] = {"seats": list(seats), "cards": list(cards), "values": values, "allies": list(allies)}
    both = {
        "first": p(seats[0]),
        "card": label(cards[0]),
        "value": values[0],
        "second": p(seats[1]),
        "other": label(cards[1]),
        "other_value": values[1],
    }
    if allies:
        revealed = T(
            "Revealed: {first} {card} ({value}) against {second} {other} ({other_value}); allies drawn: {allies}.",
            allies=names(allies),
            **both,
        )
    else:
        revealed = T("Revealed: {first} {card} ({value}) against {second} {other} ({other_value}).", **both)
    events.append(Event(revealed, data={"reveal": [name(c) for c in cards + allies]}))
    discard(state, allies)
    duel["chosen"] = [None, None]
    if values[0] == values[1]:
        discard(state, cards)
        empty = [s for s in seats if not state["players"][s]["hand"]]
        if len(empty) == 2:
            events.append(Event(T("A tie, and neither crew has a card left: the combat ends.")))
            _finish(state, events)
        elif empty:
            events.append(Event(T("A tie, and {seat} has no card left to fight on.", seat=p(empty[0]))))
            _won(state, _other(duel, empty[0]), None, None, events)
        else:
            duel["round"] += 1
            events.append(Event(T("A tie! Both cards are discarded and the combat starts again.")))
        return
    win = 0 if values[0] > values[1] else 1
    _won(state, seats[win], cards[win], cards[1 - win], events)


def _won(state: JSON, winner: int, own: int | None, taken: int | None, events: list[Event]) -> None:
    duel = state["duel"]
    loser = _other(duel, winner)
    if own is not None and taken is not None:
        discard(state, [own])
        state["players"][winner]["hand"].append(taken)
        hidden.learn(state, taken, winner, "hand")  # revealed to all
        events.append(
            Event(
                T(
                    "{winner} wins the combat and takes {card} from {loser}.",
                    winner=p(winner),
                    card=label(taken),
                    loser=p(loser),
                )
            )
        )
    else:
        events.append(Event(T("{winner} wins the combat against {loser}.", winner=p(winner), loser=p(loser))))
    missions.on_duel(state, winner, events)
    if state["winner"] is not None:
        _finish(state, events)
        return
    state["pending"] = {"kind": "spoils", "seat": winner, "loser": loser}


def spoils_actions(state: JSON, seat: int) -> list[Action]:
    player = state["players"][seat]
    loser = state["players"][state["pending"]["loser"]]
    acts = []
    if loser["hand"] and len(player["hand"]) < limit(player):
        acts.append(Action("spoils", ("crew",)))
    if loser["missions"]:
        acts.append(Action("spoils", ("mission",)))
    if len(player["holds"]) < limit(player):
        acts += [Action("spoils", (c,)) for c in codes(loser["holds"])]
    return [*acts, Action("spoils", ("none",))]


def play_spoils(state: JSON, seat: int, action: Action, rng: random.Random, events: list[Event]) -> None:
    loser_seat = state["pending"]["loser"]
    player, loser = state["players"][seat], state["players"][loser_seat]
    what = action.args[0]
    if what == "crew":
        card = rng.choice(loser["hand"])
        loser["hand"].remove(card)
        player["hand"].append(card)
        hidden.taken_at_random(state, loser_seat, seat, "hand", card)
        events.append(Event(T("{seat} takes a random crew card from {loser}.", seat=p(seat), loser=p(loser_seat))))
        events.append(Event(T("You take {card}.", card=label(card)), seat))
        events.append(Event(T("{seat} takes your {card}.", seat=p(seat), card=label(card)), loser_seat))
    elif what == "mission":
        card = rng.choice(loser["missions"])
        loser["missions"].remove(card)
        player["missions"].append(card)
        hidden.taken_at_random(state, loser_seat, seat, "missions", card)
        events.append(
            Event(T("{seat} takes a random unfinished mission from {loser}.", seat=p(seat), loser=p(loser_seat)))
        )
        events.append(
            Event(
                T("You take the mission {card} — {mission}.", card=label(card), mission=face(card).mission_text), seat
            )
        )
        events.append(Event(T("{seat} takes your mission {card}.", seat=p(seat), card=label(card)), loser_seat))
    elif what == "none":
        events.append(Event(T("{seat} takes no plunder.", seat=p(seat))))
    else:
        card = take(loser["holds"], what)
        player["holds"].append(card)
        events.append(
            Event(T("{seat} takes {card} from {loser}'s holds.", seat=p(seat), card=label(card), loser=p(loser_seat)))
        )
    _finish(state, events)


def _finish(state: JSON, events: list[Event]) -> None:
    state["duel"] = None
    state["pending"] = None
    end_action(state, events)
