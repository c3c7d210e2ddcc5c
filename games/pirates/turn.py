"""A turn's one action, docked or sailing, and the small decisions that follow it (keeping a mission,
selling and buying goods, docking, Pirate Cove, discarding down to the limits).

A Joker in hand may be played instead of drawing the card that an action reveals — the magistrate's
mission, the Disembark card, the ship found, the town found — and then counts as that card (``jk`` after
the verb). Gather Crew has no such form: a Joker played into one's own hand would change nothing.
"""

from __future__ import annotations

import random

from games.core import JSON, Action, Event
from games.i18n import T
from games.pirates import combat, duel, missions
from games.pirates.cards import A_TOWN, JOKER_CARDS, at_town, face, is_joker, label, name, size, suit
from games.pirates.table import (
    allegiance,
    codes,
    discard,
    draw,
    draw_to_hand,
    draw_to_holds,
    end_action,
    friendly_town,
    leave_town,
    limit,
    names,
    p,
    rivals_at_sea,
    take,
)


def _new_mission(card: int) -> str:
    return T("Your new mission: {card} — {mission}.", card=label(card), mission=face(card).mission_text)


def has_joker(cards: list[int]) -> bool:
    return not JOKER_CARDS.isdisjoint(cards)


# ---------------------------------------------------------------------------------------------- main actions


def main_actions(state: JSON, seat: int) -> list[Action]:
    player = state["players"][seat]
    joker = has_joker(player["hand"])
    acts: list[Action] = []
    if player["place"] == "sea":
        for verb in ("ship", "town"):
            acts.append(Action(verb))
            if joker:
                acts.append(Action(verb, ("jk",)))
        return acts
    if len(player["hand"]) < limit(player):
        acts.append(Action("crew"))
    if not player["missions"]:
        acts.append(Action("magistrate"))
        if joker:
            acts.append(Action("magistrate", ("jk",)))
    if player["hand"] or player["holds"]:
        acts.append(Action("trade"))
    if joker and len(player["holds"]) < limit(player) and any(not is_joker(c) for c in state["discard"]):
        acts.append(Action("trade", ("jk",)))
    if player["place"] == "town" and not player["taken"] and not is_joker(player["town"]):
        acts.append(Action("attack"))  # Pirate Cove is a haven: it can never be attacked
    acts.append(Action("disembark"))
    if joker:
        acts.append(Action("disembark", ("jk",)))
    return acts


def main_refusal(state: JSON, seat: int, action: Action) -> str | None:
    """Why ``seat`` may not take the main action ``action`` now, where the rules give a reason."""
    player = state["players"][seat]
    if action != Action("attack"):
        return None
    if player["place"] == "sea":
        return T("You are at sea: Attack the Town is for a town you are docked at.")
    if player["place"] != "town":
        return T("The neutral port belongs to no nation: it cannot be attacked.")
    if is_joker(player["town"]):
        return T("Pirate Cove is a haven: it can never be attacked.")
    if player["taken"]:
        return T("You have taken this town already: it is friendly until you disembark.")
    return None


def _reveal(state: JSON, seat: int, action: Action, rng: random.Random, events: list[Event]) -> int | None:
    """The card an action turns over: drawn from the deck, or the seat's Joker played instead."""
    if action.args == ("jk",):
        card = take(state["players"][seat]["hand"], "jk")
        events.append(Event(T("{seat} plays a Joker instead of drawing.", seat=p(seat)), data={"reveal": ["Joker"]}))
        return card
    return draw(state, rng, events)


def play_main(state: JSON, seat: int, action: Action, rng: random.Random, events: list[Event]) -> None:
    player = state["players"][seat]
    verb = action.verb
    if verb == "crew":
        draw_to_hand(state, seat, 1, rng, events, "gather")
        end_action(state, events)
    elif verb == "magistrate":
        _magistrate(state, seat, action, rng, events)
    elif verb == "trade" and action.args == ("jk",):
        discard(state, [take(player["hand"], "jk")])
        events.append(Event(T("{seat} plays a Joker to fill the holds from the discard pile.", seat=p(seat))))
        state["pending"] = {"kind": "salvage", "seat": seat}
    elif verb == "trade":
        state["pending"] = {"kind": "trade", "seat": seat, "tons": 0, "sold": 0}
    elif verb == "attack":
        town = player["town"]
        events.append(Event(T("{seat} attacks {town} ({card}).", seat=p(seat), town=face(town).town, card=label(town))))
        combat.start(state, seat, "town", [town], events)
    elif verb == "disembark":
        _disembark(state, seat, action, rng, events)
    elif verb == "ship":
        card = _reveal(state, seat, action, rng, events)
        if card is None:
            events.append(Event(T("No card is left to draw: the sea is empty.")))
            end_action(state, events)
        else:
            _found_ship(state, seat, card, rng, events)
    else:
        card = _reveal(state, seat, action, rng, events)
        if card is None:
            events.append(Event(T("No card is left to draw: no town in sight.")))
            end_action(state, events)
        else:
            _found_town(state, seat, card, events)


def _magistrate(state: JSON, seat: int, action: Action, rng: random.Random, events: list[Event]) -> None:
    player = state["players"][seat]
    card = _reveal(state, seat, action, rng, events)
    if card is None:
        events.append(Event(T("No card is left for the magistrate to give.")))
        end_action(state, events)
        return
    if action.args != ("jk",) and face(player["ship"]).ship == "Flag Galleon":
        second = draw(state, rng, events)
        if second is not None:
            events.append(Event(T("{seat}'s Flag Galleon draws two missions to keep one.", seat=p(seat))))
            events.append(
                Event(
                    T("The magistrate offers you {first} and {second}.", first=label(card), second=label(second)), seat
                )
            )
            state["pending"] = {"kind": "keep", "seat": seat, "cards": [card, second]}
            return
    player["missions"].append(card)
    events.append(Event(T("{seat} visits the magistrate and takes a new mission.", seat=p(seat))))
    events.append(Event(_new_mission(card), seat))
    end_action(state, events)


def _disembark(state: JSON, seat: int, action: Action, rng: random.Random, events: list[Event]) -> None:
    player = state["players"][seat]
    card = _reveal(state, seat, action, rng, events)
    leave_town(state, seat)
    if card is None:
        events.append(Event(T("{seat} sets sail; no card is left to test the crew's loyalty.", seat=p(seat))))
        end_action(state, events)
        return
    if is_joker(card):
        discard(state, [card])
        events.append(Event(T("{seat} disembarks with a Joker: a full crew sets sail at once!", seat=p(seat))))
        draw_to_hand(state, seat, limit(player), rng, events, "fill")
        state["again"] = True
        end_action(state, events)
        return
    discard(state, [card])
    if allegiance(player) is not None and suit(card) == allegiance(player):
        events.append(
            Event(
                T("{seat} disembarks: {card}, the crew is loyal.", seat=p(seat), card=label(card)),
                data={"reveal": [name(card)]},
            )
        )
        end_action(state, events)
        return
    cap = face(card).crew
    events.append(
        Event(
            T("{seat} disembarks: {card}, only {cap} crew cards may sail.", seat=p(seat), card=label(card), cap=cap),
            data={"reveal": [name(card)]},
        )
    )
    end_action(state, events, hand_limit=cap)


def _found_ship(state: JSON, seat: int, card: int, rng: random.Random, events: list[Event]) -> None:
    player = state["players"][seat]
    f = face(card)
    if f.joker:
        escort = draw(state, rng, events)
        cards = [card] if escort is None else [card, escort]
        events.append(
            Event(
                T("{seat} finds the treasure fleet, escorted by {cards}!", seat=p(seat), cards=names(cards[1:])),
                data={"reveal": [name(c) for c in cards]},
            )
        )
        combat.start(state, seat, "fleet", cards, events)
        return
    shown = {"reveal": [f.name]}
    if f.rank == 1:
        rivals = rivals_at_sea(state, seat, any_nation=True)
        events.append(Event(T("{seat} finds an Ace: the {ship}.", seat=p(seat), ship=f.nation_ship), data=shown))
        if rivals:
            state["encounter"] = {"kind": "ace", "cards": [card]}
            state["pending"] = {"kind": "encounter", "seat": seat, "rivals": rivals, "ship": False}
        else:
            combat.start(state, seat, "ship", [card], events)
        return
    if f.suit == allegiance(player):
        events.append(
            Event(
                T("{seat} meets a friendly ship: the {ship} ({card}).", seat=p(seat), ship=f.nation_ship, card=f.label),
                data=shown,
            )
        )
        state["encounter"] = {"kind": "friend", "cards": [card]}
        state["pending"] = {"kind": "friend", "seat": seat}
        return
    events.append(
        Event(
            T("{seat} meets an enemy: the {ship} ({card}).", seat=p(seat), ship=f.nation_ship, card=f.label), data=shown
        )
    )
    rivals = rivals_at_sea(state, seat, f.suit)
    if rivals:
        state["encounter"] = {"kind": "enemy", "cards": [card]}
        state["pending"] = {"kind": "encounter", "seat": seat, "rivals": rivals, "ship": True}
    else:
        combat.start(state, seat, "ship", [card], events)


def _found_town(state: JSON, seat: int, card: int, events: list[Event]) -> None:
    f = face(card)
    state["encounter"] = {"kind": "town", "cards": [card]}
    if f.joker:
        events.append(Event(T("{seat} finds Pirate Cove!", seat=p(seat)), data={"reveal": ["Joker"]}))
        state["pending"] = {"kind": "cove", "seat": seat}
        return
    friendly = friendly_town(state["players"][seat], card)
    values = {"seat": p(seat), "town": f.town, "a_town": A_TOWN[f.suit or "h"], "card": f.label}
    if friendly:
        sighted = T("{seat} sights {town} ({card}), {a_town}: a friendly port.", **values)
    else:
        sighted = T("{seat} sights {town} ({card}), {a_town}: a foreign port.", **values)
    events.append(Event(sighted, data={"reveal": [f.name]}))
    state["pending"] = {"kind": "dock", "seat": seat, "friendly": friendly}


# ---------------------------------------------------------------------------------------------- follow-ups


def pending_actions(state: JSON, seat: int) -> list[Action]:
    """The actions of a follow-up decision (``state["pending"]``)."""
    pending = state["pending"]
    player = state["players"][seat]
    kind = pending["kind"]
    if kind == "keep":
        return [Action("keep", (c,)) for c in codes(pending["cards"])]
    if kind == "trade":
        acts = [Action("sell", (c,)) for c in codes(player["hand"])]
        acts += [Action("sell", (c, "hold")) for c in codes(player["holds"])]
        if pending["sold"]:
            acts.append(Action("buy"))
        return acts
    if kind == "salvage":
        acts = []
        if len(player["holds"]) < limit(player):
            acts = [Action("take", (c,)) for c in codes([c for c in state["discard"] if not is_joker(c)])]
        return [*acts, Action("done")]
    if kind == "dock":
        if pending["friendly"]:
            return [Action("dock"), Action("stay")]
        return [*(Action("dock", (c,)) for c in codes(player["hand"])), Action("stay")]
    if kind == "cove":
        return [Action("cove", ("crew",)), Action("cove", ("ship",)), Action("cove", ("mission",))]
    if kind == "swap":
        return [Action("swap", (c,)) for c in codes(pending["cards"])]
    if kind == "trim":
        if len(player["hand"]) > pending["hand"]:
            return [Action("drop", (c,)) for c in codes(player["hand"])]
        return [Action("dump", (c,)) for c in codes(player["holds"])]
    if kind == "friend":
        acts = [Action("hail")] if len(player["hand"]) < limit(player) else []
        return [*acts, Action("sail")]
    if kind == "encounter":
        acts = [Action("fight")] if pending["ship"] else []
        return [*acts, *(Action("fight", (str(s),)) for s in pending["rivals"])]
    return combat.pending_actions(state, seat)


def play_pending(state: JSON, seat: int, action: Action, rng: random.Random, events: list[Event]) -> None:
    """Play ``seat``'s answer to the decision pending after its action (or a combat's next step)."""
    kind = state["pending"]["kind"]
    if kind == "keep":
        _keep(state, seat, action.args[0], events)
    elif kind == "trade":
        _trade(state, seat, action, rng, events)
    elif kind == "salvage":
        _salvage(state, seat, action, events)
    elif kind == "dock":
        _dock(state, seat, action, events)
    elif kind == "cove":
        _cove(state, seat, action.args[0], rng, events)
    elif kind == "swap":
        _swap(state, seat, action.args[0], events)
    elif kind == "trim":
        _trim(state, seat, action, events)
    elif kind == "friend":
        _friend(state, seat, action, rng, events)
    elif kind == "encounter":
        _encounter(state, seat, action, events)
    else:
        combat.play(state, seat, action, rng, events)


def _keep(state: JSON, seat: int, code: str, events: list[Event]) -> None:
    """The magistrate's missions: ``seat`` keeps one and discards the others."""
    pending = state["pending"]
    kept = take(pending["cards"], code)
    state["players"][seat]["missions"].append(kept)
    discard(state, pending["cards"])
    events.append(
        Event(
            T("{seat} keeps one mission and discards {cards}.", seat=p(seat), cards=names(pending["cards"])),
            data={"reveal": [name(c) for c in pending["cards"]]},
        )
    )
    events.append(Event(_new_mission(kept), seat))
    end_action(state, events)


def _salvage(state: JSON, seat: int, action: Action, events: list[Event]) -> None:
    """Cargo taken from the discard pile into the holds, one card at a time, until ``done`` or full."""
    if action.verb == "done":
        events.append(Event(T("{seat} is done taking cargo from the discard pile.", seat=p(seat))))
        end_action(state, events)
        return
    player = state["players"][seat]
    card = take(state["discard"], action.args[0])
    player["holds"].append(card)
    events.append(Event(T("{seat} takes {card} from the discard pile into the holds.", seat=p(seat), card=label(card))))
    if len(player["holds"]) >= limit(player):
        end_action(state, events)


def _trim(state: JSON, seat: int, action: Action, events: list[Event]) -> None:
    """A crew card (``drop``) or a cargo card (``dump``) discarded down to the limits."""
    player = state["players"][seat]
    pile = player["hand"] if action.verb == "drop" else player["holds"]
    card = take(pile, action.args[0])
    discard(state, [card])
    if action.verb == "drop":
        trimmed = T("{seat} discards {card} (crew card) down to the limit.", seat=p(seat), card=label(card))
    else:
        trimmed = T("{seat} discards {card} (cargo) down to the limit.", seat=p(seat), card=label(card))
    events.append(Event(trimmed))
    end_action(state, events, hand_limit=state["pending"]["hand"])


def _friend(state: JSON, seat: int, action: Action, rng: random.Random, events: list[Event]) -> None:
    """A friendly ship met at sea: ``hail`` it for a card, or sail on."""
    if action.verb == "hail":
        draw_to_hand(state, seat, 1, rng, events, "hail")
    else:
        events.append(Event(T("{seat} sails on.", seat=p(seat))))
    discard(state, state["encounter"]["cards"])
    end_action(state, events)


def _encounter(state: JSON, seat: int, action: Action, events: list[Event]) -> None:
    """A ship met at sea: fight it, or (``fight <seat>``) duel a rival met there instead."""
    cards = state["encounter"]["cards"]
    if action.args:
        discard(state, cards)
        state["encounter"] = None
        duel.start(state, seat, int(action.args[0]), events)
    else:
        combat.start(state, seat, "ship", cards, events)


def _trade(state: JSON, seat: int, action: Action, rng: random.Random, events: list[Event]) -> None:
    pending = state["pending"]
    player = state["players"][seat]
    if action.verb == "sell":
        pile = player["holds"] if action.args[1:] == ("hold",) else player["hand"]
        card = take(pile, action.args[0])
        discard(state, [card])
        pending["tons"] += size(card)
        pending["sold"] += 1
        events.append(
            Event(
                T("{seat} trades away {card}: {tons} t to buy.", seat=p(seat), card=label(card), tons=pending["tons"]),
                data={"reveal": [name(card)]},
            )
        )
        if not player["hand"] and not player["holds"]:
            _buy(state, seat, rng, events)
        return
    _buy(state, seat, rng, events)


def _buy(state: JSON, seat: int, rng: random.Random, events: list[Event]) -> None:
    tons = state["pending"]["tons"]
    events.append(Event(T("{seat} buys {tons} t of goods.", seat=p(seat), tons=tons)))
    draw_to_holds(state, seat, tons, rng, events)
    end_action(state, events)


def _dock_at(state: JSON, seat: int, town: int, events: list[Event]) -> None:
    player = state["players"][seat]
    player.update(place="town", town=town, taken=False)
    events.append(Event(T("{seat} docks {at_town}.", seat=p(seat), at_town=at_town(face(town)))))
    missions.on_dock(state, seat, events)
    state["encounter"] = None
    end_action(state, events)


def _dock(state: JSON, seat: int, action: Action, events: list[Event]) -> None:
    town = state["encounter"]["cards"][0]
    if action.verb == "stay":
        discard(state, [town])
        events.append(Event(T("{seat} stays at sea.", seat=p(seat))))
        end_action(state, events)
        return
    if action.args:
        card = take(state["players"][seat]["hand"], action.args[0])
        discard(state, [card])
        events.append(
            Event(T("{card} deserts {seat}'s crew.", card=label(card), seat=p(seat)), data={"reveal": [name(card)]})
        )
    _dock_at(state, seat, town, events)


def _cove(state: JSON, seat: int, choice: str, rng: random.Random, events: list[Event]) -> None:
    player = state["players"][seat]
    town = state["encounter"]["cards"][0]
    if choice == "crew":
        draw_to_hand(state, seat, limit(player), rng, events, "cove")
    elif choice == "mission":
        card = draw(state, rng, events)
        if card is not None:
            player["missions"].append(card)
            events.append(Event(T("{seat} takes a mission at Pirate Cove.", seat=p(seat))))
            events.append(Event(_new_mission(card), seat))
        draw_to_holds(state, seat, 1, rng, events)
    else:
        ships = [c for c in (draw(state, rng, events), draw(state, rng, events)) if c is not None]
        if ships:
            events.append(
                Event(
                    T("{seat} is offered {cards} at Pirate Cove.", seat=p(seat), cards=names(ships)),
                    data={"reveal": [name(c) for c in ships]},
                )
            )
            state["pending"] = {"kind": "swap", "seat": seat, "cards": ships}
            return
    _dock_at(state, seat, town, events)


def _swap(state: JSON, seat: int, code_: str, events: list[Event]) -> None:
    player = state["players"][seat]
    cards = state["pending"]["cards"]
    new = take(cards, code_)
    old = [player["ship"], *player["holds"]]
    discard(state, old + cards)
    player["ship"], player["holds"] = new, []
    events.append(
        Event(
            T(
                "{seat} trades {cards} for the {ship} ({card}).",
                seat=p(seat),
                cards=names(old),
                ship=face(new).ship_name,
                card=label(new),
            )
        )
    )
    _dock_at(state, seat, state["encounter"]["cards"][0], events)
