"""What a seat of Sewer Pirats cannot see, and the same position with all of it changed (:meth:`Game.scramble`)."""

from __future__ import annotations

import random

from games.core import JSON, clone, redeal
from games.sewerpirats.components import BOOTY


def scramble(state: JSON, seat: int | None, rng: random.Random) -> JSON:
    """``state`` with everything ``seat`` (``None``: a spectator) cannot see dealt again: the Talisman cards
    of the deck, the discard pile (hand-limit discards and auction payments are face down), the other
    players' hands and the cards under the bar's stools; until the final scoring also the face-down booty
    and bonus pools, the box and the other players' tokens (booty with booty, bonus with bonus); and the
    seed. Every count the view shows stays, and the cards and tokens are conserved."""
    other = clone(state)
    other["seed"] = f"scrambled-{rng.getrandbits(64):x}"
    others = [p for s, p in enumerate(other["players"]) if s != seat]
    cards = [other["deck"], other["discard"], *(p["hand"] for p in others)]
    if other["auction"] is not None:
        cards += [stool["under"] for stool in other["auction"]["bar"]]
    redeal(cards, rng)
    if other["result"] is not None:
        return other  # the final scoring shows every player's tokens
    booty = [other["booty_pool"], other["box"]]
    bonus = [other["bonus_pool"]]
    for p in others:
        booty.append([t for t in p["tokens"] if t["type"] in BOOTY])
        bonus.append([t for t in p["tokens"] if t["type"] not in BOOTY])
    redeal(booty, rng)
    redeal(bonus, rng)
    for p, mine, extra in zip(others, booty[2:], bonus[1:], strict=True):
        p["tokens"] = mine + extra
    return other
