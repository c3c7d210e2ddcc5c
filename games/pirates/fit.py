"""The fit of the Pirates Card Game's strength weights (:data:`games.pirates.strength.STRENGTH`)::

    python -m games.pirates.fit --games 450

plays seeded games of the normal AI against itself, fits the weights of :func:`~games.pirates.strength.terms`
by maximum likelihood to who won, and prints them with the log-loss of each guess on the positions held
out from the fit (a quarter): the fitted weights, the weights in use, even shares.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Sequence

from games.core import clone
from games.pirates.strength import STRENGTH, shares, terms

Sample = tuple[list[tuple[float, ...] | None], int]
"""A position: each seat's :func:`terms` (``None``: out of the game), and the seat that won."""


def positions(games: int, seed: str = "fit", every: int = 25) -> list[Sample]:
    """About ``every`` positions from each of ``games`` seeded games of the normal AI against itself, at
    2, 3 and 4 players in turn, each with the seat that won (games nobody or several won are left out)."""
    from games.registry import spec
    from games.simulate import self_play

    pirates = spec("pirates")
    samples: list[Sample] = []
    for number in range(games):
        seats = 2 + number % 3
        states = [clone(s) for s in self_play(pirates.game, pirates.player, seats, f"{seed}-{number}")]
        outcome = pirates.game.outcome(states[-1])
        if outcome is None or len(outcome.winners) != 1:
            continue
        for state in states[:: max(1, len(states) // every)][:-1]:
            if not pirates.game.is_over(state):
                terms_of = [None if p["out"] else terms(p) for p in state["players"]]
                samples.append((terms_of, outcome.winners[0]))
    return samples


def log_loss(samples: Sequence[Sample], weights: Sequence[float]) -> float:
    """The mean of ``-log`` of the chance ``weights`` gave the seat that won."""
    return sum(-math.log(max(1e-9, shares(seats, weights)[won])) for seats, won in samples) / len(samples)


def fit(samples: Sequence[Sample], iterations: int = 600, rate: float = 0.05) -> list[float]:
    """The weights of the largest likelihood of ``samples`` (gradient ascent from zero)."""
    count = len(next(t for seats, _ in samples for t in seats if t is not None))
    weights = [0.0] * count
    for _ in range(iterations):
        gradient = [0.0] * count
        for seats, won in samples:
            chances = shares(seats, weights)
            for seat, values in enumerate(seats):
                if values is not None:
                    residual = (seat == won) - chances[seat]
                    for k, value in enumerate(values):
                        gradient[k] += residual * value
        weights = [w + rate * g / len(samples) for w, g in zip(weights, gradient, strict=True)]
    return weights


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.pirates.fit", description=__doc__.split("::")[0])
    parser.add_argument("--games", type=int, default=450, help="seeded games of the normal AI against itself")
    parser.add_argument("--iterations", type=int, default=600)
    args = parser.parse_args(argv)
    samples = positions(args.games)
    held_out, fitted_on = samples[::4], [s for i, s in enumerate(samples) if i % 4]
    weights = fit(fitted_on, args.iterations)
    report = {
        "positions": len(samples),
        "weights": [round(w, 3) for w in weights],
        "held_out_log_loss": {
            "fitted": round(log_loss(held_out, weights), 4),
            "STRENGTH": round(log_loss(held_out, STRENGTH), 4),
            "even": round(log_loss(held_out, [0.0] * len(weights)), 4),
        },
    }
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
