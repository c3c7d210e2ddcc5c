"""How strong a captain's position is: the hard AI's estimate where its playouts stop
(:meth:`games.pirates.engine.Pirates.estimate`).

A captain's strength is a logit, a weighted sum of what foretells a win (:func:`terms`); a player's
chance is its share of ``exp`` of every captain's strength (:func:`shares`; a conditional logit, McFadden
1974). The weights were fitted by maximum likelihood to who won games the normal AI played against
itself (:mod:`games.pirates.fit`, ``python -m games.pirates.fit``); fit them again when the rules or the
normal AI change.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from games.core import JSON
from games.pirates.cards import face
from games.pirates.table import limit

STRENGTH = (1.14, 0.45, -0.08, 0.23, 0.06, 0.045)
"""Weights of :func:`terms`, fitted to 12,138 positions of 450 games of the normal AI against itself at 2,
3 and 4 players (seeds ``fit-0`` to ``fit-449``). On the quarter held out, the log-loss of who won is
0.832, against 0.914 for the share of progress the estimate used before and 1.025 for an even share."""


def terms(player: JSON) -> tuple[float, ...]:
    """What foretells a captain's win: missions completed, a second one (the next wins), cards in hand,
    the ship's crew limit, the hand's cannons, cargo aboard."""
    done = len(player["done"])
    hand = player["hand"]
    cannons = sum(face(c).cannons for c in hand)
    return (done, float(done >= 2), len(hand), limit(player), cannons, len(player["holds"]))


def shares(seats: Sequence[tuple[float, ...] | None], weights: Sequence[float]) -> list[float]:
    """Each seat's chance to win: its share of ``exp`` of the strengths, the seats' :func:`terms` weighted
    by ``weights`` (0 for a seat out, ``None``; at least one must be in)."""
    logits = [None if t is None else sum(w * x for w, x in zip(weights, t, strict=True)) for t in seats]
    top = max(x for x in logits if x is not None)
    scores = [0.0 if x is None else math.exp(x - top) for x in logits]
    total = sum(scores)
    return [s / total for s in scores]
