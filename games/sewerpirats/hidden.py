"""What a seat of Sewer Pirats cannot see, what every seat has seen go into a hand, and the same position
with all it cannot know changed (:meth:`Game.scramble`).

A hand is secret, but a card taken from the row went into it face up. ``state["seen"]`` counts, per seat,
the cards of each kind everyone knows it holds: one more for a card taken from the row; when cards leave,
as many fewer of their kind when they are played face up (a move's cost), and as many fewer of every kind
when nobody else sees which (a hand-limit discard or an auction payment, face down; a card a raccoon
steals at random). Scrambling keeps those cards in their hands.
"""

from __future__ import annotations

import random

from games.core import JSON, clone, redeal
from games.sewerpirats.components import BOOTY


def took_from_row(state: JSON, seat: int, card: str) -> None:
    """``seat`` took ``card`` from the row into its hand, in everyone's sight."""
    seen = state.setdefault("seen", [{} for _ in state["players"]])[seat]
    seen[card] = seen.get(card, 0) + 1


def lost(state: JSON, seat: int, count: int, card: str | None = None) -> None:
    """``count`` cards left ``seat``'s hand: all of kind ``card`` when they were seen, else unseen ones."""
    seen = state.get("seen")
    if not seen or not seen[seat]:
        return
    mine = seen[seat]
    for kind in [card] if card is not None else list(mine):
        if kind in mine:
            left = mine.pop(kind) - count
            if left > 0:
                mine[kind] = left


def seen_cards(state: JSON, seat: int) -> list[str]:
    """The cards of ``seat``'s hand every player has seen go into it (in a fixed order)."""
    seen = state.get("seen")
    return [kind for kind, n in sorted(seen[seat].items()) for _ in range(n)] if seen else []


def scramble(state: JSON, seat: int | None, rng: random.Random) -> JSON:
    """``state`` with everything ``seat`` (``None``: a spectator) cannot see dealt again: the Talisman cards
    of the deck, the discard pile (hand-limit discards and auction payments are face down), the other
    players' hands but for the cards seen going into them (see the module's docstring) and the cards under
    the bar's stools; until the final scoring also the face-down booty and bonus pools, the box and the
    other players' tokens (booty with booty, bonus with bonus); and the seed. Every count the view shows
    stays, and the cards and tokens are conserved."""
    other = clone(state)
    other["seed"] = f"scrambled-{rng.getrandbits(64):x}"
    players = other["players"]
    others = [s for s in range(len(players)) if s != seat]
    seen = {s: seen_cards(other, s) for s in others}
    unseen = {s: list(players[s]["hand"]) for s in others}
    for s in others:
        for card in seen[s]:
            unseen[s].remove(card)
    cards = [other["deck"], other["discard"], *unseen.values()]
    if other["auction"] is not None:
        cards += [stool["under"] for stool in other["auction"]["bar"]]
    redeal(cards, rng)
    for s in others:
        players[s]["hand"] = unseen[s] + seen[s]
    if other["result"] is not None:
        return other  # the final scoring shows every player's tokens
    booty = [other["booty_pool"], other["box"]]
    bonus = [other["bonus_pool"]]
    for s in others:
        booty.append([t for t in players[s]["tokens"] if t["type"] in BOOTY])
        bonus.append([t for t in players[s]["tokens"] if t["type"] not in BOOTY])
    redeal(booty, rng)
    redeal(bonus, rng)
    for s, mine, extra in zip(others, booty[2:], bonus[1:], strict=True):
        players[s]["tokens"] = mine + extra
    return other
