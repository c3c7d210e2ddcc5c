"""Missions: each kind is checked, and completed, at the one moment the rules name.

- Delivery (A–4): on docking at a town of the card's nation with (size + 2) tons of its good aboard;
  that cargo (largest cards first, until the tons are reached) is discarded.
- Hunt (5–8): on sinking a ship of the next nation.
- Raid (9–10): on winning Attack the Town against a town of the card's nation.
- Bounty (J–K): on winning a combat against another player; solo, on sinking a ship of size 10.
- Treasure Fleet (Joker): on sinking the treasure fleet. Sinking it always counts as a completed
  mission: a Treasure Fleet mission if the player has one, else their oldest unfinished mission, else
  the treasure galleon's card itself.

One event completes at most one mission of each kind.
"""

from __future__ import annotations

from games.core import JSON, Event
from games.i18n import T
from games.pirates.cards import A_MISSION, A_TOWN, NEXT_NATION, Mission, face, is_joker, size, suit
from games.pirates.table import MISSIONS_TO_WIN, discard, names, p


def _complete(state: JSON, seat: int, card: int, events: list[Event], why: str | None = None) -> None:
    """Mission ``card`` of ``seat`` is done; ``why`` says how, when it is not the card's own mission."""
    player = state["players"][seat]
    player["missions"].remove(card)
    player["done"].append(card)
    f = face(card)
    done = why or T(
        "{seat} completes {mission} ({card}: {text})",
        seat=p(seat),
        mission=A_MISSION[f.mission],
        card=f.label,
        text=f.mission_text,
    )
    events.append(
        Event(
            T("{done} — {count} of {total}.", done=done, count=len(player["done"]), total=MISSIONS_TO_WIN),
            data={"reveal": [f.name]},
        )
    )
    if len(player["done"]) >= MISSIONS_TO_WIN and state["winner"] is None:
        state["winner"] = seat
        events.append(Event(T("{seat} has completed three missions and frees the captain!", seat=p(seat))))


def _first(player: JSON, kind: Mission, test: object = None) -> int | None:
    for card in player["missions"]:
        if face(card).mission is kind and (test is None or test(card)):  # type: ignore[operator]
            return card
    return None


def delivery_need(card: int) -> int:
    """The tons of its good a delivery mission asks for: its size and 2."""
    return size(card) + 2


def needs(state: JSON, seat: int, card: int) -> str:
    """What an unfinished mission of ``seat`` still needs, as its player reads it (a marked message)."""
    f = face(card)
    if f.mission is Mission.DELIVERY:
        have = sum(size(c) for c in state["players"][seat]["holds"] if suit(c) == f.suit)
        need = delivery_need(card)
        return T(
            "{have}/{need} t {good} aboard; then dock at {town}",
            have=min(have, need),
            need=need,
            good=f.good_name,
            town=f.a_town,
        )
    if f.mission is Mission.RAID:
        return T("Attack {town}: win with 2 × its size + 1 cannons", town=A_TOWN[f.suit or "h"])
    if f.mission is Mission.BOUNTY:
        return T("Win a combat against another captain") if state["seats"] > 1 else T("Sink a size-10 ship")
    if f.mission is Mission.HUNT:
        return T("Look for ships at sea; sinking one takes its size + 1 cannons")
    return T("Look for ships at sea until a Joker shows the fleet; sink it and its escort")


def on_dock(state: JSON, seat: int, events: list[Event]) -> None:
    """Deliveries to the town just docked at."""
    player = state["players"][seat]
    town = player["town"]
    if town is None or is_joker(town):
        return
    for card in list(player["missions"]):
        f = face(card)
        if f.mission is not Mission.DELIVERY or f.suit != suit(town):
            continue
        goods = sorted((c for c in player["holds"] if suit(c) == f.suit), key=size, reverse=True)
        need, paid = delivery_need(card), []
        for c in goods:
            if sum(size(x) for x in paid) >= need:
                break
            paid.append(c)
        if sum(size(x) for x in paid) < need:
            continue
        for c in paid:
            player["holds"].remove(c)
        discard(state, paid)
        events.append(
            Event(T("{seat} delivers {cards} to {town}.", seat=p(seat), cards=names(paid), town=face(town).town))
        )
        _complete(state, seat, card, events)


def on_sink(state: JSON, seat: int, ship: int, events: list[Event]) -> None:
    """A ship from the deck sunk: a Hunt for its nation; solo, a Bounty for a size-10 ship."""
    player = state["players"][seat]
    prey = suit(ship)
    hunt = _first(player, Mission.HUNT, lambda c: prey is not None and NEXT_NATION[suit(c) or "h"] == prey)
    if hunt is not None:
        _complete(state, seat, hunt, events)
    if state["seats"] == 1 and size(ship) == 10:
        bounty = _first(player, Mission.BOUNTY)
        if bounty is not None:
            _complete(state, seat, bounty, events)


def on_town(state: JSON, seat: int, town: int, events: list[Event]) -> None:
    """A town taken: a Raid on its nation."""
    raid = _first(state["players"][seat], Mission.RAID, lambda c: suit(c) == suit(town) and not is_joker(town))
    if raid is not None:
        _complete(state, seat, raid, events)


def on_duel(state: JSON, seat: int, events: list[Event]) -> None:
    """A combat against another player won: a Bounty."""
    bounty = _first(state["players"][seat], Mission.BOUNTY)
    if bounty is not None:
        _complete(state, seat, bounty, events)


def on_fleet(state: JSON, seat: int, galleon: int, events: list[Event]) -> bool:
    """The treasure fleet sunk. Returns whether the galleon's own card became the completed mission."""
    player = state["players"][seat]
    mission = _first(player, Mission.TREASURE)
    why = None
    if mission is None and player["missions"]:
        mission = player["missions"][0]
        why = T(
            "{seat} sinks the treasure fleet: mission {card} counts as done", seat=p(seat), card=face(mission).label
        )
    if mission is None:
        player["missions"].append(galleon)
        mission = galleon
        why = T(
            "{seat} sinks the treasure fleet and keeps the galleon ({card}) as a mission done",
            seat=p(seat),
            card=face(galleon).label,
        )
    _complete(state, seat, mission, events, why)
    return mission == galleon
