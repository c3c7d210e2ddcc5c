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


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``x`` with ``matrix @ x == vector`` (Gaussian elimination with partial pivoting; a few unknowns)."""
    n = len(vector)
    rows = [[*row, value] for row, value in zip(matrix, vector, strict=True)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(col + 1, n):
            factor = rows[r][col] / rows[col][col]
            rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col], strict=True)]
    x = [0.0] * n
    for r in reversed(range(n)):
        x[r] = (rows[r][n] - sum(rows[r][c] * x[c] for c in range(r + 1, n))) / rows[r][r]
    return x


def fit(samples: Sequence[Sample], iterations: int = 12, ridge: float = 1e-3) -> list[float]:
    """The weights of the largest likelihood of ``samples``, by Newton's method from zero (the conditional
    logit's log-likelihood is concave; a ``ridge`` penalty keeps the steps defined)."""
    count = len(next(t for seats, _ in samples for t in seats if t is not None))
    weights = [0.0] * count
    for _ in range(iterations):
        gradient = [-ridge * len(samples) * w for w in weights]
        hessian = [[ridge * len(samples) * (i == j) for j in range(count)] for i in range(count)]
        for seats, won in samples:
            chances = shares(seats, weights)
            present = [(c, t) for c, t in zip(chances, seats, strict=True) if t is not None]
            mean = [sum(c * t[k] for c, t in present) for k in range(count)]
            for k in range(count):
                gradient[k] += seats[won][k] - mean[k]  # type: ignore[index]
            for c, t in present:
                d = [t[k] - mean[k] for k in range(count)]
                for i in range(count):
                    ci = c * d[i]
                    row = hessian[i]
                    for j in range(count):
                        row[j] += ci * d[j]
        step = _solve(hessian, gradient)
        weights = [w + s for w, s in zip(weights, step, strict=True)]
        if max(abs(s) for s in step) < 1e-6:
            break
    return weights


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.pirates.fit", description=__doc__.split("::")[0])
    parser.add_argument("--games", type=int, default=450, help="seeded games of the normal AI against itself")
    parser.add_argument("--iterations", type=int, default=12, help="Newton steps at most")
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
