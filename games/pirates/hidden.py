"""What a seat of the Pirates Card Game cannot see, and the same position with all of it changed
(:meth:`Game.scramble`)."""

from __future__ import annotations

import random

from games.core import JSON, clone, redeal


def scramble(state: JSON, seat: int | None, rng: random.Random) -> JSON:
    """``state`` with everything ``seat`` (``None``: a spectator) cannot see dealt again: the deck order,
    the other players' hands and unfinished missions, the missions a Flag Galleon is choosing between
    and a duel card chosen but not yet revealed; and the seed. Every count the view shows stays and the
    cards are conserved. The discard pile, ships, cargo, towns and completed missions are face up."""
    other = clone(state)
    other["seed"] = f"scrambled-{rng.getrandbits(64):x}"
    piles: list[list[int]] = [other["deck"]]
    for s, player in enumerate(other["players"]):
        if s != seat:
            piles += [player["hand"], player["missions"]]
    pending = other["pending"]
    if pending is not None and pending["kind"] == "keep" and pending["seat"] != seat:
        piles.append(pending["cards"])
    duel = other["duel"]
    chosen: list[list[int]] = []
    if duel is not None:
        chosen = [
            [c] if c is not None and s != seat else [] for s, c in zip(duel["seats"], duel["chosen"], strict=True)
        ]
        piles += chosen
    redeal(piles, rng)
    if duel is not None:
        for i, (s, c) in enumerate(zip(duel["seats"], duel["chosen"], strict=True)):
            if c is not None and s != seat:
                duel["chosen"][i] = chosen[i][0]
    return other
