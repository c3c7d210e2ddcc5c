"""The shared bookkeeping of a Pirates Card Game table: drawing (with the reshuffle and the hurricane),
limits, weights, who is at sea, and the end of a turn.

A player's record in ``state["players"]``: ``ship`` (card), ``hand``, ``holds`` (cargo), ``missions``
(unfinished, private), ``done`` (completed, face up), ``place`` (``"port"``: the neutral port, ``"town"``:
docked at the card ``town``, ``"sea"``), ``taken`` (the town was won by Attack the Town) and ``out``;
``state["afloat"]`` counts the players not out.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from games.core import JSON, Event
from games.i18n import N, T, joined, seat_ref
from games.pirates import hidden
from games.pirates.cards import CODES, face, is_joker, label, name, size, suit

MISSIONS_TO_WIN = 3


def p(seat: int) -> str:
    """A seat's placeholder in engine text (a value of a marked message, never inside a message id)."""
    return seat_ref(seat)


class LazyRandom:
    """A step's random source, seeded on first use: most steps (firing a card, docking) draw nothing at
    random, and seeding costs more than the whole step."""

    __slots__ = ("_factory", "_rng")

    def __init__(self, factory: Callable[[], random.Random]) -> None:
        self._factory = factory
        self._rng: random.Random | None = None

    def __getattr__(self, name: str) -> Any:
        if self._rng is None:
            self._rng = self._factory()
        return getattr(self._rng, name)


def names(cards: list[int]) -> str:
    """Cards listed for a reader: ``"7♥, Joker"`` (marked where a word is), or "nothing"."""
    return ", ".join(label(c) for c in cards) or T("nothing")


def ships(cards: list[int]) -> str:
    """Ships met at sea by their names, each with its card: "an English Frigate (9♥) and a Spanish Brig (5♦)"
    (the reader's list pattern), never a card's code alone."""
    return joined([T("the {ship} ({card})", ship=face(c).nation_ship, card=label(c)) for c in cards])


def limit(player: JSON) -> int:
    """The crew number of a player's ship: the most cards in hand and the most cargo cards in the holds."""
    return face(player["ship"]).crew


def allegiance(player: JSON) -> str | None:
    return suit(player["ship"])


def ship_type(player: JSON) -> str:
    return face(player["ship"]).ship


def friendly_town(player: JSON, town: int) -> bool:
    """A town of the player's allegiance, any town for a Joker ship, and Pirate Cove for everyone."""
    return allegiance(player) is None or is_joker(town) or suit(town) == allegiance(player)


def weight(player: JSON) -> int:
    """Ship size plus the tons of cargo carried; the Fast Galleon counts 1 ton less when fleeing."""
    ship = face(player["ship"])
    bonus = 1 if ship.ship == "Fast Galleon" else 0
    return ship.size + sum(map(size, player["holds"])) - bonus


def enemy_weight(cards: list[int]) -> int:
    """A ship or town from the deck weighs its size plus the tons its card shows."""
    return sum(2 * size(c) for c in cards)


def at_sea(state: JSON, seat: int) -> bool:
    player = state["players"][seat]
    return player["place"] == "sea" and not player["out"]


def rivals_at_sea(state: JSON, seat: int, nation: str | None = None, *, any_nation: bool = False) -> list[int]:
    """Other players at sea (of ``nation``'s allegiance unless ``any_nation``)."""
    return [
        s
        for s in range(state["seats"])
        if s != seat and at_sea(state, s) and (any_nation or allegiance(state["players"][s]) == nation)
    ]


def discard(state: JSON, cards: list[int]) -> None:
    state["discard"].extend(cards)
    # At once, not only when the step ends (``Pirates.play``): a card discarded and shuffled back into the
    # deck may be drawn by its holder again within the same step, unseen.
    hidden.forget(state, cards)


def codes(cards: list[int]) -> list[str]:
    """Distinct face codes in their first order (two decks repeat faces): what a player picks among."""
    return list(dict.fromkeys(CODES[c] for c in cards))


def take(cards: list[int], code_: str) -> int:
    """Remove and return the first card of ``cards`` with face code ``code_``."""
    for i, card in enumerate(cards):
        if CODES[card] == code_:
            return cards.pop(i)
    raise ValueError(code_)


def draw(state: JSON, rng: random.Random, events: list[Event]) -> int | None:
    """The top card of the deck. An empty deck is refilled from the shuffled discard pile; with the
    discard pile empty too, a hurricane first. ``None`` when no card is left anywhere to draw."""
    if not state["deck"]:
        if not state["discard"]:
            hurricane(state, rng, events)
        if state["discard"]:
            state["deck"] = state["discard"]
            state["discard"] = []
            rng.shuffle(state["deck"])
            events.append(
                Event(
                    N(
                        "The discard pile is shuffled into a new deck of {n} card.",
                        "The discard pile is shuffled into a new deck of {n} cards.",
                        len(state["deck"]),
                    )
                )
            )
    return state["deck"].pop() if state["deck"] else None


def hurricane(state: JSON, rng: random.Random, events: list[Event]) -> None:
    """Deck and discard pile empty: every player discards all cargo and half their hand (rounded down,
    chosen at random)."""
    events.append(Event(T("A hurricane! Every crew throws its cargo overboard and loses half its hands.")))
    for seat, player in enumerate(state["players"]):
        if player["out"]:
            continue
        lost = player["holds"] + rng.sample(player["hand"], len(player["hand"]) // 2)
        for card in lost[len(player["holds"]) :]:
            player["hand"].remove(card)
        player["holds"] = []
        discard(state, lost)
        if lost:
            events.append(
                Event(
                    T("{seat} loses {cards}.", seat=p(seat), cards=names(lost)),
                    data={"reveal": [name(c) for c in lost]},
                )
            )


def _drew(why: str, seat: int, n: int) -> str:
    """The public line of a draw into a hand, by why the cards were drawn."""
    if why == "gather":
        return N(
            "{seat} gathers crew: {n} card into the hand.",
            "{seat} gathers crew: {n} cards into the hand.",
            n,
            seat=p(seat),
        )
    if why == "fill":
        return N(
            "{seat} fills the crew: {n} card into the hand.",
            "{seat} fills the crew: {n} cards into the hand.",
            n,
            seat=p(seat),
        )
    if why == "hail":
        return N(
            "{seat} hails the friendly ship: {n} card into the hand.",
            "{seat} hails the friendly ship: {n} cards into the hand.",
            n,
            seat=p(seat),
        )
    return N(
        "{seat} fills the crew at Pirate Cove: {n} card into the hand.",
        "{seat} fills the crew at Pirate Cove: {n} cards into the hand.",
        n,
        seat=p(seat),
    )


def draw_to_hand(state: JSON, seat: int, count: int, rng: random.Random, events: list[Event], why: str) -> int:
    """Draw up to ``count`` cards into a hand, never past its limit; returns how many were drawn. ``why``:
    ``"gather"`` (Gather Crew), ``"fill"`` (a Joker's full crew), ``"hail"`` (a friendly ship) or ``"cove"``."""
    player = state["players"][seat]
    got: list[int] = []
    while len(got) < count and len(player["hand"]) < limit(player):
        card = draw(state, rng, events)
        if card is None:
            break
        player["hand"].append(card)
        got.append(card)
    if got:
        events.append(Event(_drew(why, seat, len(got))))
        events.append(Event(T("You draw {cards}.", cards=names(got)), seat))
    return len(got)


def draw_to_holds(state: JSON, seat: int, tons: int | None, rng: random.Random, events: list[Event]) -> None:
    """Draw cargo cards into the holds until ``tons`` are reached or exceeded (``None``: until full),
    never past the holds' limit. Cargo lies face up."""
    player = state["players"][seat]
    got: list[int] = []
    while len(player["holds"]) < limit(player) and (tons is None or sum(size(c) for c in got) < tons):
        card = draw(state, rng, events)
        if card is None:
            break
        player["holds"].append(card)
        got.append(card)
    if got:
        events.append(
            Event(T("{seat} loads {cards}.", seat=p(seat), cards=names(got)), data={"reveal": [name(c) for c in got]})
        )


def leave_town(state: JSON, seat: int) -> None:
    """Cast off: the town card is discarded and the player is at sea."""
    player = state["players"][seat]
    if player["town"] is not None:
        discard(state, [player["town"]])
    player.update(place="sea", town=None, taken=False)


def check_out(state: JSON, events: list[Event]) -> None:
    """A player whose hand is empty while sailing is out of the game; their cards are discarded."""
    for seat, player in enumerate(state["players"]):
        if player["out"] or player["place"] != "sea" or player["hand"]:
            continue
        player["out"] = True
        state["afloat"] -= 1
        discard(state, player["holds"] + player["missions"])
        player["holds"], player["missions"] = [], []
        events.append(Event(T("{seat} has no crew left at sea and is out of the game.", seat=p(seat))))


def live_seats(state: JSON) -> list[int]:
    return [s for s, player in enumerate(state["players"]) if not player["out"]]


def over_limit(player: JSON, hand_limit: int | None = None) -> bool:
    cap = limit(player) if hand_limit is None else hand_limit
    return len(player["hand"]) > cap or len(player["holds"]) > limit(player)


def end_action(state: JSON, events: list[Event], *, hand_limit: int | None = None) -> None:
    """The turn player's action is resolved: discard down to the limits if needed, then the next
    player's turn (unless the game is over)."""
    seat = state["turn"]
    player = state["players"][seat]
    if not player["out"] and over_limit(player, hand_limit):
        cap = limit(player) if hand_limit is None else min(hand_limit, limit(player))
        state["pending"] = {"kind": "trim", "seat": seat, "hand": cap}
        return
    state["pending"] = None
    state["encounter"] = None
    check_out(state, events)
    live = live_seats(state)
    if state["winner"] is not None or not live:
        return
    if state["again"] and not player["out"]:
        state["again"] = False
        return
    state["again"] = False
    if state["seats"] > 1 and len(live) == 1:
        return
    nxt = (seat + 1) % state["seats"]
    while state["players"][nxt]["out"]:
        nxt = (nxt + 1) % state["seats"]
    state["turn"] = nxt
    state["turns"] += 1
    state["shown"] = None
