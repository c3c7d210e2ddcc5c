"""Combat against the deck: a ship, a town (Attack the Town) or the treasure fleet with its escort.

The attacker fires hand cards one at a time (each is discarded and adds its cannons, +1 when it is of
the attacker's allegiance; a Joker also brings another ship: a card drawn from the deck adds its
cannons). A fired Joker goes to the discard pile only after the combat, with the ships it brought, so a
reshuffle during the combat can never bring it back as its own ship.
The Ship of the Line adds 1 once per combat. The combat is won the moment the total reaches what is
needed: a ship's size + 1, twice a town's size + 1, and for the treasure fleet both ships' (size + 1).
Before that the attacker may dump cargo, flee when lighter than the enemy, or — when fleeing is not
possible — strike their colours and be boarded (one random hand card and the heaviest cargo card lost).
"""

from __future__ import annotations

import random

from games.core import JSON, Action, Event
from games.i18n import N, T
from games.pirates import hidden, missions
from games.pirates.cards import face, is_joker, label, name, size, suit
from games.pirates.table import (
    allegiance,
    codes,
    discard,
    draw,
    draw_to_holds,
    end_action,
    enemy_weight,
    limit,
    names,
    p,
    ship_type,
    ships,
    take,
    weight,
)


def need(target: str, cards: list[int]) -> int:
    """Cannons needed to win against ``cards``."""
    if target == "town":
        return 2 * size(cards[0]) + 1
    return sum(size(c) + 1 for c in cards)


def card_value(player: JSON, card: int) -> int:
    """A fired or revealed card's cannon value with its allegiance bonus (a Joker's drawn ship not included)."""
    bonus = 1 if allegiance(player) is not None and suit(card) == allegiance(player) else 0
    return face(card).cannons + bonus


def start(state: JSON, seat: int, target: str, cards: list[int], events: list[Event]) -> None:
    player = state["players"][seat]
    line = 1 if ship_type(player) == "Ship of the Line" else 0
    needed = need(target, cards)
    state["encounter"] = {"kind": target, "cards": cards, "allies": []}
    state["pending"] = {"kind": "combat", "seat": seat, "target": target, "need": needed, "total": line}
    if line:
        needs = N(
            "{seat} needs {n} cannon to win (+1 for the Ship of the Line).",
            "{seat} needs {n} cannons to win (+1 for the Ship of the Line).",
            needed,
            seat=p(seat),
        )
    else:
        needs = N("{seat} needs {n} cannon to win.", "{seat} needs {n} cannons to win.", needed, seat=p(seat))
    events.append(Event(needs))


def can_flee(state: JSON, seat: int) -> bool:
    return weight(state["players"][seat]) < enemy_weight(state["encounter"]["cards"])


def pending_actions(state: JSON, seat: int) -> list[Action]:
    pending = state["pending"]
    player = state["players"][seat]
    if pending["kind"] == "plunder":
        acts = [Action("plunder", ("crew",))] if len(player["hand"]) < limit(player) else []
        if len(player["holds"]) < limit(player):
            acts.append(Action("plunder", ("cargo",)))
        return [*acts, Action("plunder", ("mission",)), Action("plunder", ("none",))]
    acts = [Action("fire", (c,)) for c in codes(player["hand"])]
    acts += [Action("dump", (c,)) for c in codes(player["holds"])]
    acts.append(Action("flee") if can_flee(state, seat) else Action("yield"))
    return acts


def play(state: JSON, seat: int, action: Action, rng: random.Random, events: list[Event]) -> None:
    pending = state["pending"]
    player = state["players"][seat]
    if pending["kind"] == "plunder":
        _plunder(state, seat, action.args[0], events)
        return
    if action.verb == "dump":
        card = take(player["holds"], action.args[0])
        discard(state, [card])
        events.append(Event(T("{seat} dumps {card} overboard.", seat=p(seat), card=label(card))))
    elif action.verb == "fire":
        _fire(state, seat, action.args[0], rng, events)
    elif action.verb == "flee":
        events.append(Event(T("{seat} flees from {ships}.", seat=p(seat), ships=ships(state["encounter"]["cards"]))))
        _close(state)
        end_action(state, events)
    else:
        board(state, seat, rng, events)
        _close(state)
        end_action(state, events)


def _fire(state: JSON, seat: int, code: str, rng: random.Random, events: list[Event]) -> None:
    pending = state["pending"]
    player = state["players"][seat]
    card = take(player["hand"], code)
    gained = card_value(player, card)
    values = {"seat": p(seat), "card": label(card), "value": gained}
    shown = [name(card)]
    joined: int | None = None
    if is_joker(card):
        state["encounter"].setdefault("jokers", []).append(card)  # discarded after the combat
        joined = draw(state, rng, events)
        if joined is not None:
            state["encounter"]["allies"].append(joined)
            gained += face(joined).cannons
            shown.append(name(joined))
    else:
        discard(state, [card])
    pending["total"] += gained
    values.update(total=pending["total"], need=pending["need"])
    if joined is None:
        fired = T("{seat} fires {card}: +{value} ({total} of {need}).", **values)
    else:
        fired = T(
            "{seat} fires {card}: +{value}, and the {ship} ({ally}) joins the fight: +{cannons} ({total} of {need}).",
            ship=face(joined).ship_name,
            ally=label(joined),
            cannons=face(joined).cannons,
            **values,
        )
    events.append(Event(fired, data={"reveal": shown}))
    if pending["total"] >= pending["need"]:
        _win(state, seat, rng, events)


def _win(state: JSON, seat: int, rng: random.Random, events: list[Event]) -> None:
    target = state["pending"]["target"]
    cards = state["encounter"]["cards"]
    player = state["players"][seat]
    if target == "town":
        town = cards[0]
        player["taken"] = True
        events.append(Event(T("{seat} takes {town}!", seat=p(seat), town=face(town).town)))
        _release(state)
        missions.on_town(state, seat, town, events)
        draw_to_holds(state, seat, None, rng, events)
        end_action(state, events)
        return
    if target == "fleet":
        galleon = cards[0]
        kept = missions.on_fleet(state, seat, galleon, events)
        discard(state, [c for c in cards if not (kept and c == galleon)])
        _release(state)
        state["encounter"] = None
        end_action(state, events)
        return
    ship = cards[0]
    events.append(
        Event(T("{seat} sinks the {ship} ({card})!", seat=p(seat), ship=face(ship).ship_name, card=label(ship)))
    )
    _release(state)
    missions.on_sink(state, seat, ship, events)
    if state["winner"] is not None:
        _close(state)
        end_action(state, events)
        return
    state["pending"] = {"kind": "plunder", "seat": seat}


def _plunder(state: JSON, seat: int, where: str, events: list[Event]) -> None:
    player = state["players"][seat]
    ship = state["encounter"]["cards"][0]
    if where == "none":
        discard(state, [ship])
        events.append(Event(T("{seat} lets the wreck of {card} sink.", seat=p(seat), card=label(ship))))
    else:
        pile = {"crew": "hand", "cargo": "holds", "mission": "missions"}[where]
        player[pile].append(ship)
        if pile != "holds":  # cargo lies face up anyway
            hidden.learn(state, ship, seat, pile)  # the ship was drawn face up
        kept = {
            "crew": T("{seat} keeps {card} as crew.", seat=p(seat), card=label(ship)),
            "cargo": T("{seat} keeps {card} as cargo.", seat=p(seat), card=label(ship)),
            "mission": T("{seat} keeps {card} as mission.", seat=p(seat), card=label(ship)),
        }[where]
        events.append(Event(kept))
    state["encounter"] = None
    end_action(state, events)


def _close(state: JSON) -> None:
    """The encounter's cards and allies go to the discard pile (a town being attacked stays docked at)."""
    encounter = state["encounter"]
    if encounter is None:
        return
    if encounter["kind"] != "town":
        discard(state, encounter["cards"])
    _release(state)
    state["encounter"] = None


def _release(state: JSON) -> None:
    """The combat is over: the ships Jokers brought, and the Jokers, go to the discard pile."""
    encounter = state["encounter"]
    discard(state, encounter.get("allies", []) + encounter.get("jokers", []))
    encounter["allies"], encounter["jokers"] = [], []


def board(state: JSON, seat: int, rng: random.Random, events: list[Event]) -> None:
    """Boarded: one random hand card and the heaviest cargo card are lost."""
    player = state["players"][seat]
    lost: list[int] = []
    if player["hand"]:
        card = rng.choice(player["hand"])
        player["hand"].remove(card)
        lost.append(card)
    if player["holds"]:
        heaviest = max(player["holds"], key=size)
        player["holds"].remove(heaviest)
        lost.append(heaviest)
    discard(state, lost)
    events.append(
        Event(
            T("{seat} is boarded and loses {cards}.", seat=p(seat), cards=names(lost)),
            data={"reveal": [name(c) for c in lost]},
        )
    )
