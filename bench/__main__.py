"""``python -m bench``: performance figures as one JSON object, keyed by game.

For each game:
- ``action_ms``: end-to-end latency of one in-game action through the real bot in SimCord — the
  interaction arrives, the action is validated and committed, the board is rendered and posted, the
  response is sent — as p50 and p99 over at least ``--actions`` actions (alternating board buttons
  and ``/<game> move``; only the interaction that applies the action is timed);
- ``render_ms``: board render time (p50, p99) over views from seeded games, caches warm;
- ``games_per_s``: full AI-versus-AI games per second at engine level.

Timings use ``time.perf_counter`` (real time; SimCord's virtual clock only affects Discord's clock).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import simcord

from games.registry import GAMES
from games.simulate import self_play, simulate


def players(kind: str) -> int:
    spec = GAMES[kind]
    return spec.bench_players or spec.game.min_players


class TimedRequests(list):
    """SimCord's REST log, with the ``perf_counter`` time at which the bot issued each request."""

    def __init__(self) -> None:
        super().__init__()
        self.times: list[float] = []

    def append(self, entry: Any) -> None:
        self.times.append(time.perf_counter())
        super().append(entry)

    def clear(self) -> None:
        self.times.clear()
        super().clear()


def percentiles(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    cut = statistics.quantiles(ordered, n=100, method="inclusive")
    return {"p50": round(cut[49], 2), "p99": round(cut[98], 2), "n": len(ordered)}


async def action_latency(kind: str, actions: int) -> list[float]:
    """Play human-only games through the real bot; time each action from the interaction that applies it
    to the end of the bot's answer: the last of the new board's post, the edit stripping the old
    board's buttons, and the interaction's response (a picker edited to ✅, the ``/move`` follow-up).

    The bot answers only once the action is committed. What it sends after answering is not counted:
    private hands by DM, and the final scoring image once a game ends. SimCord's actors return only
    once the bot is idle, so these times are read from the timestamped request log instead.
    """
    from cogs.app import create_bot
    from cogs.demo import SimTable

    samples: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        bot = create_bot(database=Path(tmp) / "bench.db", ai_delay=0, seed=f"bench-{kind}", warm_renderers=False)
        async with simcord.run(bot) as env:
            await bot.tree.sync()
            # Measure a bot in its steady state, as players meet it after start-up: the production warm-up
            # (renderers, then the heap frozen), run here rather than at start-up, where SimCord gives a
            # bot only 5 s to settle.
            await bot.warm_up()
            log = env.backend.http_requests = TimedRequests()
            table = SimTable(env, bot)
            names = list(table.members)[: players(kind)]
            try:
                while len(samples) < actions:
                    await table.challenge(kind, names[0], names[1:])
                    record = await table.latest_game()
                    turn = 0
                    order = random.Random(f"bench-{record.id}")  # simultaneous deciders in a seeded order
                    while record.status == "active" and len(samples) < actions:
                        seat = table.human_to_act(record, order)
                        assert seat is not None
                        # Alternate board buttons (with pickers) and the move command.
                        play = table.click_through if turn % 2 == 0 else table.move
                        log.clear()  # the bench's own record must not grow the heap the bot's GC walks
                        started, _ = (await play(record, seat, table.pick(record, seat))).spans[-1]
                        samples.append((_answer_time(log, started, record.place_id) - started) * 1000)
                        turn += 1
                        record = await table.record(record.id)
                    if record.status == "active":
                        await bot.tables.abandon(record.id, by="bench", now=0.0)
            finally:
                await bot.store.close()  # also on failure: its worker thread would keep the process alive
    return samples


def _answer_time(log: TimedRequests, started: float, board_channel: int | None) -> float:
    """When the bot finished answering, after ``started``: the last of its interaction responses, the
    new board's post in ``board_channel`` and the edit that strips the old board's buttons. Later posts
    (the final scoring) and requests elsewhere (DMs) are not part of the answer."""
    board = None
    answered: list[float] = []
    for t, entry in zip(log.times, log, strict=True):
        parts = entry.path.strip("/").split("/")
        if t < started:
            continue
        if parts[0] in ("interactions", "webhooks"):
            answered.append(t)
        elif parts[:3] == ["channels", str(board_channel), "messages"]:
            if entry.method == "PATCH":
                answered.append(t)
            elif board is None:
                board = t
                answered.append(t)
    assert board is not None, "the action posted no board"
    return max(answered)


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", default=list(GAMES), choices=list(GAMES))
    parser.add_argument("--actions", type=int, default=300, help="end-to-end actions timed per game")
    parser.add_argument("--renders", type=int, default=200, help="board renders timed per game")
    parser.add_argument("--engine-games", type=int, default=500, help="engine-level games per game")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    report: dict[str, Any] = {}
    for kind in args.games:
        report[kind] = {
            "action_ms": percentiles(asyncio.run(action_latency(kind, args.actions))),
            "render_ms": percentiles(render_times(kind, args.renders)),
            "games_per_s": engine_speed(kind, args.engine_games),
        }
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
