"""What a seat of the Pirates Card Game cannot see, what it has seen of other players' hidden cards, and the
same position with all it cannot know changed (:meth:`Game.scramble`).

Most of a player's hand and missions are hidden from the others, but not all: a card the winner of a
combat takes from the loser was revealed to every player, a sunk ship kept as crew or as a mission was
drawn face up, and the victim of a plunder knows which card or mission went. ``state["known"]`` keeps
these sightings, each ``{"card", "seat", "pile", "by"}``: ``card`` lies in ``seat``'s ``pile``
(``"hand"`` or ``"missions"``), seen by every player (``by`` None) or only by the seats in ``by``. A
sighting lasts while the card stays there: when it leaves (fired, traded, lost, taken, completed), it is
forgotten. A card in hand that its holder has chosen for a combat still counts as held (nobody else
knows whether it was the one chosen). Scrambling for a seat keeps every card it has seen where it lies.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from games.core import JSON, clone, redeal

PILES = ("hand", "missions")


def learn(state: JSON, card: int, seat: int, pile: str, by: list[int] | None = None) -> None:
    """Record that ``card`` now lies in ``seat``'s ``pile``, seen by every player or only by ``by``."""
    state.setdefault("known", []).append({"card": card, "seat": seat, "pile": pile, "by": by})


def forget(state: JSON, cards: Iterable[int] | None = None) -> None:
    """Forget the sightings of ``cards`` (cards gone to the discard pile), or with ``None`` of every card
    no longer where it was seen."""
    known = state.get("known")
    if not known:
        return
    if cards is None:
        players = state["players"]
        # Most steps move no card that was seen: keep the list as it is unless one has gone.
        if all(k["card"] in players[k["seat"]][k["pile"]] for k in known):
            return
        state["known"] = [k for k in known if lies(state, k)]
    else:
        gone = set(cards)
        state["known"] = [k for k in known if k["card"] not in gone]


def taken_at_random(state: JSON, loser: int, taker: int, pile: str, card: int) -> None:
    """``taker`` took ``card`` at random from ``loser``'s ``pile``: only the two of them know which. The
    others no longer know what is left of that pile (the taker still does); the loser knows where its card
    went."""
    known = []
    for k in state.get("known", []):
        if k["seat"] == loser and k["pile"] == pile and k["card"] != card:
            if k["by"] is None or taker in k["by"]:
                known.append({**k, "by": [taker]})
        else:
            known.append(k)
    state["known"] = known
    learn(state, card, taker, pile, by=[loser])


def seen_by(state: JSON, seat: int | None) -> list[JSON]:
    """The sightings ``seat`` (``None``: a spectator) has of other players' cards still where they were
    seen."""
    return [
        k
        for k in state.get("known", [])
        if k["seat"] != seat and (k["by"] is None or seat in k["by"]) and lies(state, k)
    ]


def lies(state: JSON, sighting: JSON) -> bool:
    """Whether the card of ``sighting`` still lies where it was seen."""
    return sighting["card"] in _held(state, sighting["seat"], sighting["pile"])


def _held(state: JSON, seat: int, pile: str) -> list[int]:
    """The cards of ``seat``'s ``pile``; a hand with the card its holder has chosen for a combat."""
    cards = state["players"][seat][pile]
    duel = state["duel"]
    if pile == "hand" and duel is not None and seat in duel["seats"]:
        chosen = duel["chosen"][duel["seats"].index(seat)]
        if chosen is not None:
            return [*cards, chosen]
    return cards


def scramble(state: JSON, seat: int | None, rng: random.Random) -> JSON:
    """``state`` with everything ``seat`` (``None``: a spectator) cannot see dealt again: the deck order,
    the other players' hands and unfinished missions but for the cards it has seen there (see the module's
    docstring), the missions a Flag Galleon is choosing between, a duel card chosen but not yet revealed,
    and the seed; what the others alone have seen is dropped. Every count the view shows stays and the
    cards are conserved. The discard pile, ships, cargo, towns and completed missions are face up."""
    other = clone(state)
    other["seed"] = f"scrambled-{rng.getrandbits(64):x}"
    seen = seen_by(other, seat)
    kept: dict[tuple[int, str], list[int]] = {}
    for k in seen:
        cards = kept.setdefault((k["seat"], k["pile"]), [])
        if k["card"] not in cards:
            cards.append(k["card"])
    if "known" in other:
        other["known"] = seen
    duel = other["duel"]
    chosen_by = {} if duel is None else dict(zip(duel["seats"], duel["chosen"], strict=True))
    piles: list[list[int]] = [other["deck"]]
    partly: list[tuple[int, str, list[int], list[int]]] = []  # a pile with seen cards: its unseen ones, seen
    for s, player in enumerate(other["players"]):
        if s == seat:
            continue
        for pile in PILES:
            known = kept.get((s, pile))
            if not known:
                piles.append(player[pile])
                continue
            unseen = _held(other, s, pile)[:]  # a hand's chosen card, if any, is dealt with it
            for card in known:
                unseen.remove(card)
            piles.append(unseen)
            partly.append((s, pile, unseen, known))
    pending = other["pending"]
    if pending is not None and pending["kind"] == "keep" and pending["seat"] != seat:
        piles.append(pending["cards"])
    chosen = {s: [c] for s, c in chosen_by.items() if c is not None and s != seat and not kept.get((s, "hand"))}
    piles += chosen.values()
    redeal(piles, rng)
    for s, (card,) in chosen.items():
        chosen_by[s] = card
    for s, pile, unseen, known in partly:
        cards = sorted(unseen + known)
        rng.shuffle(cards)  # which of a hand's cards is the one chosen for the combat
        if pile == "hand" and chosen_by.get(s) is not None:
            chosen_by[s], cards = cards[0], cards[1:]
        other["players"][s][pile][:] = cards
    if duel is not None:
        duel["chosen"] = [chosen_by[s] for s in duel["seats"]]
    return other
