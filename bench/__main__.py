"""``python -m bench``: performance figures as one JSON object, keyed by game, plus ``scale``.

``python -m bench`` runs every section; ``--section games``, ``scale`` or ``thinking`` runs one
(``python -m bench --section scale``: the figures of one bot process under many games, see
:mod:`bench.scale`; ``--scale-actions`` and ``--scale-seconds`` size it; ``--section thinking``: a
member's action latency in one game, alone and while ``--thinking`` other games' hard AI searches
keep the search processes busy, and the ratio of the two). ``--against REV`` runs the same
on git revision REV too, ``--runs`` times each in turn, and gives the ratio of each figure
(:mod:`bench.against`).

For each game:
- ``action_ms``: end-to-end latency of one in-game action through the real bot in SimCord — the
  interaction arrives, the action is validated and committed, the board is rendered and posted, the
  response is sent — as p50 and p99 over at least ``--actions`` actions (alternating board buttons
  and ``/<game> move``; only the interaction that applies the action is timed);
- ``overhead_ms``: the same latency with the game's first board drawn once and posted for every board
  after it: everything an action costs but drawing (store, engine, dispatch, messages), what the target
  "action p50 ≤ render p50 + 4 ms" bounds, without the drawing's noise;
- ``render_ms``: board render time (p50, p99) over views from seeded games, caches warm;
- ``games_per_s``: full AI-versus-AI games per second at engine level.

Timings use ``time.perf_counter`` (real time; SimCord's virtual clock only affects Discord's clock).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import re
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import simcord

from bench.driving import percentiles, players, timed_actions
from bench.scale import Sizes, scale
from games.registry import GAMES
from games.simulate import self_play, simulate


async def action_latency(kind: str, actions: int, *, thinking: int = 0) -> list[float]:
    """Play human-only games through the real bot in a fresh SimCord world: :func:`timed_actions`; with
    ``thinking``, while that many other games' hard AI searches run all the time (one each in flight, as
    games whose AI seats play one another at ``hard`` keep them)."""
    from cogs.app import create_bot
    from cogs.offline.driver import SimTable

    with tempfile.TemporaryDirectory() as tmp:
        bot = create_bot(database=Path(tmp) / "bench.db", ai_delay=0, seed=f"bench-{kind}", warm_renderers=False)
        try:
            async with simcord.run(bot) as env:
                await bot.tree.sync()
                # Measure a bot in its steady state, as players meet it after start-up: the production warm-up
                # (renderers, then the heap frozen), run here rather than at start-up, where SimCord gives a
                # bot only 5 s to settle.
                await bot.warm_up()
                load = [asyncio.create_task(think_forever(bot, kind, i)) for i in range(thinking)]
                try:
                    return await timed_actions(SimTable(env, bot), kind, actions)
                finally:
                    for task in load:
                        task.cancel()
                    await asyncio.gather(*load, return_exceptions=True)
        finally:
            await bot.tables.close()  # also on failure: its worker thread would keep the process alive


@contextlib.contextmanager
def drawn_once() -> Iterator[None]:
    """Boards drawn once per renderer and posted again for every later board (``overhead_ms``)."""
    from rendering import pool

    run = pool.run
    drawn: dict[Callable[..., Any], Any] = {}

    async def first(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        if fn not in drawn:
            drawn[fn] = await run(fn, *args, **kwargs)
        return drawn[fn]

    with mock.patch.object(pool, "run", first):
        yield


async def think_forever(bot: Any, kind: str, game: int) -> None:
    """One hard-AI game's searches, back to back, through the bot's own search processes: its positions
    come from a seeded game of ``kind`` played on by the searches' own decisions."""
    spec = GAMES[kind]
    thinker = bot.tables.thinker
    while True:
        state = spec.game.new_game(players(kind), None, f"think-{game}")
        while not spec.game.is_over(state):
            seat = spec.game.to_act(state)[0]
            action = await thinker.decide(kind, state, seat, game_id=-1 - game)
            state = spec.game.apply(state, seat, action, trusted=True).state


def render_times(kind: str, renders: int) -> list[float]:
    """Board render times over spectator views of seeded AI games (after one warm-up render each)."""
    spec = GAMES[kind]
    game = spec.game
    views: list[dict[str, Any]] = []
    seed = 0
    while len(views) < renders:
        seats = min(players(kind) + seed % 2, game.max_players)
        for step, state in enumerate(self_play(game, spec.player, seats, f"render-{seed}")):
            if step % 7 == 0 and step:
                views.append(game.view(state, None))
        seed += 1
    names = ["Anne Bonny", "Mary Read", "Calico Jack", "Edward Teach", "Grace O'Malley"]
    spec.render_board(views[0], names)  # first render of a layout fills the caches
    samples = []
    for view in views[:renders]:
        started = time.perf_counter()
        spec.render_board(view, names)
        samples.append((time.perf_counter() - started) * 1000)
    return samples


def engine_speed(kind: str, games: int) -> float:
    spec = GAMES[kind]
    result = simulate(spec.game, [spec.ai() for _ in range(players(kind))], games, f"bench-{kind}", check=False)
    return float(result["games_per_s"])


def plain(text: str) -> str:
    """Docstring text as a person reads it in ``--help``: ``code`` and :role:`target` without their markup."""
    return re.sub(r":\w+:`~?([^`]+)`", r"\1", text).replace("``", "")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench", description=plain(__doc__), formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", nargs="*", default=list(GAMES), choices=list(GAMES))
    parser.add_argument("--actions", type=int, default=300, help="end-to-end actions timed per game")
    parser.add_argument("--renders", type=int, default=200, help="board renders timed per game")
    parser.add_argument("--engine-games", type=int, default=500, help="engine-level games per game")
    parser.add_argument(
        "--section", choices=("games", "scale", "thinking"), action="append", help="run only these sections"
    )
    parser.add_argument("--thinking", type=int, default=10, help="hard-AI games searching at once (thinking)")
    parser.add_argument("--scale-actions", type=int, default=Sizes.actions, help="actions timed per scale figure")
    parser.add_argument("--scale-seconds", type=float, default=Sizes.seconds, help="seconds per throughput run")
    parser.add_argument("--against", metavar="REV", help="also run the bench on git revision REV, side by side")
    parser.add_argument("--runs", type=int, default=3, help="alternating runs of each with --against (default: 3)")
    args = parser.parse_args(argv)
    if args.against:
        from bench.against import against

        own = [a for a in (argv if argv is not None else sys.argv[1:]) if a != args.against and a != "--against"]
        own = [a for i, a in enumerate(own) if a != "--runs" and (i == 0 or own[i - 1] != "--runs")]
        print(json.dumps(against(args.against, args.runs, own)))
        return 0
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    sections = args.section or ["games", "scale", "thinking"]
    report: dict[str, Any] = {}
    for kind in args.games if "games" in sections else []:
        with drawn_once():
            overhead = percentiles(asyncio.run(action_latency(kind, args.actions)))
        report[kind] = {
            "action_ms": percentiles(asyncio.run(action_latency(kind, args.actions))),
            "overhead_ms": overhead,
            "render_ms": percentiles(render_times(kind, args.renders)),
            "games_per_s": engine_speed(kind, args.engine_games),
        }
    if "scale" in sections:
        report["scale"] = scale(Sizes(actions=args.scale_actions, seconds=args.scale_seconds))
    if "thinking" in sections:
        kind = args.games[0]
        asyncio.run(action_latency(kind, args.actions))  # a first run fills the render caches both runs share
        quiet = percentiles(asyncio.run(action_latency(kind, args.actions)))
        busy = percentiles(asyncio.run(action_latency(kind, args.actions, thinking=args.thinking)))
        report["thinking"] = {
            "game": kind,
            "games_thinking": args.thinking,
            "action_ms_alone": quiet,
            "action_ms_thinking": busy,
            "p99_ratio": round(busy["p99"] / quiet["p99"], 2),
        }
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
