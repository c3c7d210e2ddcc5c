"""The oracle: what the hard AI's candidate moves are worth, measured once at length, so that a search
configuration is scored in minutes instead of an arena's hours::

    python -m games.oracle build pirates --players 4 --seed oracle4 --out pirates4.json
    python -m games.oracle score pirates4.json --think-ms 1000

``build`` plays seeded games of the normal AI against itself and keeps a share of its decisions that
have a choice (the positions). At each one, every move the search would compare there
(:func:`games.search.candidates`: the normal AI's choice and its shortlist) is played in the same
``--playouts`` worlds, and the game is played out **to its end** by the normal AI, with no horizon and
no estimate. A move's value is its mean share of the victory there. ``--option NAME=VALUE`` (repeatable)
sets the tables' options as for ``python bot.py arena`` (:mod:`games.options`).

The worlds are the true state with a new seed for the chance to come (``--worlds true``, the default):
the other seats' real cards, which are not dealt at random given what the seat saw (a captain who picks
a fight tends to hold the cards for it). ``--worlds sampled`` samples them as the search does
(:func:`~games.search.determinize`), and so shares the search's assumption. Either way a move is valued
one step away from the normal AI, which plays on. Where every other seat is the normal AI, that is exact
in the sum: what a hard seat gains over a game is what its moves gain by such values, added up over the
positions it reached (the performance difference lemma; ``games/AI.md`` has a check of it). But the
positions here are those of normal-AI games, not those a hard AI reaches, and in an arena of two hard
seats the others are not all the normal AI: screen with the oracle, decide with an arena.

``score`` runs the search, as the code configures it, at every position and adds up what its move gains
over the normal AI's choice by those values: the wins it adds over the positions, with every switch
by kind (the first word of each action, ``fire→flee``). Two scores of the same code differ by the
search's own randomness (``--seed``); a change is judged by several of each. An arena of 40 four-player
games tells a win rate to about ±13 points; the oracle separates configurations the arena cannot, and
shows which switches lose.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from games.core import JSON, Action, Game, clone
from games.i18n import unread
from games.options import game_options
from games.registry import GAMES
from games.search import THINK_MS, candidates, decide, determinize, playout
from games.simulate import self_play

PLAYOUTS = 150
"""Worlds each candidate of a position is played to the end in (the same for every candidate). With the
default 8 games, a 4-player Pirates Card Game oracle is about 250 positions: 12 minutes on 2 cores."""


def positions(
    kind: str, players: int, games: int, seed: str, share: float, options: dict[str, Any] | None = None
) -> Iterator[tuple[JSON, int]]:
    """About ``share`` of the decisions with more than one candidate in ``games`` seeded games of the normal
    AI against itself (seeds ``seed-0`` …), each as a copy of the state and the seat to decide."""
    spec = GAMES[kind]
    pick = random.Random(f"{seed}/positions")
    for number in range(games):
        for state in self_play(spec.game, spec.player, players, f"{seed}-{number}", options):
            if spec.game.is_over(state):
                break
            for seat in spec.game.to_act(state):
                if len(spec.game.legal_actions(state, seat)) > 1 and pick.random() < share:
                    known = determinize(spec.game, state, seat, random.Random(pick.getrandbits(64)))
                    if len(candidates(spec.game, known, seat, spec.player, random.Random(0))) > 1:
                        yield clone(state), seat


def world(game: Game, state: JSON, seat: int, rng: random.Random, worlds: str) -> JSON:
    """A world the oracle plays on from: the true state with a new seed for the chance to come
    (``worlds="true"``), or one sampled from what ``seat`` may know, as the search samples them
    (``"sampled"``)."""
    if worlds == "sampled":
        return determinize(game, state, seat, rng, GAMES[game.kind].player)
    played = clone(state)
    played["seed"] = f"oracle-{rng.getrandbits(64):x}"
    return played


@unread()  # the playouts' events are never read
def values(kind: str, state: JSON, seat: int, playouts: int, seed: str, worlds: str = "true") -> dict[str, Any]:
    """One position of the oracle: each candidate's mean share of the victory over ``playouts`` worlds
    (:func:`world`) played to the end (the same worlds and the same luck for every candidate)."""
    spec = GAMES[kind]
    game, policy = spec.game, spec.player
    rng = random.Random(seed)
    moves = candidates(game, determinize(game, state, seat, rng), seat, policy, rng)
    player = game.controller(state, seat)
    totals = [0.0] * len(moves)
    for _ in range(playouts):
        start = world(game, state, seat, rng, worlds)
        luck = rng.getrandbits(64)
        for i, move in enumerate(moves):
            after = clone(start)
            game.advance(after, seat, move)
            totals[i] += playout(game, after, policy, random.Random(luck), player, to_end=True)
    return {
        "seat": seat,
        "state": state,
        "default": moves[0].encode(),
        "values": {m.encode(): t / playouts for m, t in zip(moves, totals, strict=True)},
    }


def _values(job: tuple[str, JSON, int, int, str, str]) -> dict[str, Any]:
    return values(*job)


def build(
    kind: str,
    players: int,
    games: int,
    *,
    seed: str = "oracle",
    share: float = 0.15,
    playouts: int = PLAYOUTS,
    worlds: str = "true",
    options: dict[str, Any] | None = None,
    jobs: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """The oracle of ``kind`` at ``players``: its :func:`positions`, each with its candidates' :func:`values`
    (computed by ``jobs`` processes; ``progress``, if given, is told how many are measured, of how many)."""
    found = list(positions(kind, players, games, seed, share, options))
    work = [(kind, state, seat, playouts, f"{seed}/values-{i}", worlds) for i, (state, seat) in enumerate(found)]
    measured = []
    with ProcessPoolExecutor(jobs or os.cpu_count()) as pool:
        for position in pool.map(_values, work):
            measured.append(position)
            if progress is not None:
                progress(len(measured), len(work))
    return {
        "kind": kind,
        "players": players,
        "games": games,
        "seed": seed,
        "share": share,
        "playouts": playouts,
        "worlds": worlds,
        "options": GAMES[kind].game.resolve_options(options or {}),
        "positions": measured,
    }


def _decide(job: tuple[str, JSON, int, int, int | None, str]) -> tuple[str, float]:
    """The hard AI's action text at one position (:func:`games.search.decide`) and its time in ms."""
    kind, state, seat, think_ms, iterations, seed = job
    started = time.perf_counter()
    action = decide(kind, state, seat, think_ms, seed, iterations)
    return action, (time.perf_counter() - started) * 1000


def _verb(text: str) -> str:
    return Action.decode(text).verb


def score(
    oracle: JSON,
    *,
    think_ms: int = THINK_MS,
    iterations: int | None = None,
    seed: str = "score",
    jobs: int | None = None,
) -> dict[str, Any]:
    """The search's gain over the normal AI's choices at the positions of ``oracle`` (a :func:`build`), by
    the oracle's values: in all, and by kind of switch. The search thinks ``think_ms``, or plays about
    ``iterations`` playouts (reproducible). A move the oracle did not value is counted apart and gains
    nothing."""
    kind = oracle["kind"]
    work = [
        (kind, p["state"], p["seat"], think_ms, iterations, f"{seed}-{i}") for i, p in enumerate(oracle["positions"])
    ]
    with ProcessPoolExecutor(jobs or os.cpu_count()) as pool:
        decided = list(pool.map(_decide, work))
    gain, unvalued = 0.0, 0
    switches: dict[str, list[float]] = defaultdict(list)
    for position, (action, _) in zip(oracle["positions"], decided, strict=True):
        if action == position["default"]:
            continue
        if action not in position["values"]:
            unvalued += 1
            continue
        delta = position["values"][action] - position["values"][position["default"]]
        gain += delta
        switches[f"{_verb(position['default'])}→{_verb(action)}"].append(delta)
    times = [ms for _, ms in decided]
    return {
        "kind": kind,
        "players": oracle["players"],
        "positions": len(decided),
        "think_ms": None if iterations else think_ms,
        "iterations": iterations,
        "seed": seed,
        "switches": sum(len(d) for d in switches.values()),
        "gain": round(gain, 3),
        "unvalued": unvalued,
        "by_switch": {
            k: {"count": len(d), "gain": round(sum(d), 3)}
            for k, d in sorted(switches.items(), key=lambda item: sum(item[1]))
        },
        "decision_p50_ms": round(statistics.median(times), 1) if times else None,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.oracle", description=__doc__.split("::")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    made = commands.add_parser("build", help="measure the candidates' values at positions of normal-AI games")
    made.add_argument("kind", help="the game (games.registry)")
    made.add_argument("--players", type=int, default=2)
    made.add_argument("--games", type=int, default=8, help="seeded normal-AI games the positions come from")
    made.add_argument("--share", type=float, default=0.15, help="the part of their decisions kept")
    made.add_argument("--playouts", type=int, default=PLAYOUTS, help="worlds per position, played to the end")
    made.add_argument(
        "--worlds",
        choices=("true", "sampled"),
        default="true",
        help="play on from the true state (new chance), or from worlds sampled as the search samples them",
    )
    made.add_argument("--seed", default="oracle")
    made.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help="a table option (as python bot.py arena)"
    )
    made.add_argument("--out", required=True, help="the JSON file written")
    scored = commands.add_parser("score", help="the search's gain over the normal AI by an oracle's values")
    scored.add_argument("oracle", help="a file written by build")
    scored.add_argument("--think-ms", type=int, default=THINK_MS, help="the search's time per decision")
    scored.add_argument("--iterations", type=int, default=None, help="playouts per decision instead of a time")
    scored.add_argument("--seed", default="score")
    for command in (made, scored):
        command.add_argument("--jobs", type=int, default=None, help="processes (default: one per core)")
    args = parser.parse_args(argv)
    if args.command == "build":
        try:
            options = game_options(GAMES[args.kind].game, args.option)
        except ValueError as exc:
            parser.error(str(exc))

        def told(done: int, total: int) -> None:
            if done % 25 == 0 or done == total:
                print(f"oracle: {done}/{total} positions measured", file=sys.stderr, flush=True)

        oracle = build(
            args.kind,
            args.players,
            args.games,
            seed=args.seed,
            share=args.share,
            playouts=args.playouts,
            worlds=args.worlds,
            options=options,
            jobs=args.jobs,
            progress=told,
        )
        with open(args.out, "w", encoding="utf-8") as out:
            json.dump(oracle, out)
        print(json.dumps({"positions": len(oracle["positions"]), "out": args.out}))
    else:
        with open(args.oracle, encoding="utf-8") as source:
            oracle = json.load(source)
        report = score(oracle, think_ms=args.think_ms, iterations=args.iterations, seed=args.seed, jobs=args.jobs)
        print(json.dumps(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
