"""The ``scale`` section of ``python -m bench``: one bot process under many games (issue 14's figures).

Each bot runs in a fresh subprocess (``python -m bench.scale <role>``, printing one JSON object), so the
bench's own imports and earlier sections never count in its memory:

- ``process``: on SQLite, a bot started and warmed up (``rss_start_mb``); ``action_ms_1`` with one active
  game; then 10,000 finished and 1,000 active games stored (real engine states from seeded AI play,
  copied in by SQLite from a prepared file) and each active one acted on through the bot
  (``rss_loaded_mb``, at rest: once its render pool, idle, has handed its free pages back);
  ``action_ms_1000``; ``burst_ms`` (20 ``/move`` commands from 20 games dispatched at once, answer times
  per action); a restart on that database (``startup_s``: until SimCord is ready, ``setup_hook`` has run
  and ``Host.resume`` has finished).
- ``throughput``: on PostgreSQL, a bot that plays its own games in bursts for a fixed time
  (``actions_per_s``); run once alone and twice side by side on the same server.

Resident memory is ``VmRSS`` of ``/proc/PID/status``, summed over the bot's process and every process it
started (render processes, with ``TABLES_RENDER_PROCESSES``, and their forkserver); it includes SimCord's
in-memory Discord (every message the bot posted), but not the images: SimCord's stand-in for Discord's
CDN is emptied as they come. Pages the processes share count once per process in that sum, so
``pss_start_mb`` and ``pss_loaded_mb`` give their ``Pss`` summed too (a shared page counts once in all).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import simcord

from bench.driving import TimedRequests, answer_time, board_request, percentiles, players, timed_actions
from games.registry import GAMES
from games.simulate import self_play

if TYPE_CHECKING:
    from cogs.app import TableBot
    from cogs.offline.driver import SimTable
    from data.store import GameRecord


STARTUP_LIMIT = 120.0
"""Seconds the restart may take before ``startup_s`` reports it did not finish."""


@dataclass(frozen=True)
class Sizes:
    """How much the section does (the smoke test runs it tiny)."""

    finished: int = 10_000
    active: int = 1_000
    actions: int = 100
    """Actions timed for ``action_ms_1`` and for ``action_ms_1000``."""
    bursts: int = 10
    burst: int = 20
    seconds: float = 15.0
    """How long each throughput run plays."""
    kind: str = "piratz"
    """The game timed for ``action_ms_*`` (the stored games are of every kind)."""


def _kb(pid: int, file: str, field: str) -> int:
    """The ``field`` line of ``/proc/PID/<file>``, in kB (0 once the process has ended)."""
    try:
        text = Path(f"/proc/{pid}/{file}").read_text()
    except OSError:
        return 0
    return next((int(line.split()[1]) for line in text.splitlines() if line.startswith(f"{field}:")), 0)


def _family(pid: int) -> list[int]:
    """``pid`` and every process it started, and theirs (render and search processes, their forkserver)."""
    found = [pid]
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        try:
            children = task.read_text().split()
        except OSError:
            continue
        for child in children:
            found += _family(int(child))
    return found


def _family_mb(file: str, field: str) -> float:
    """``field`` of :func:`_kb` summed over this process and every process it started, in MB."""
    return round(sum(_kb(pid, file, field) for pid in _family(os.getpid())) / 1024, 1)


def rss_mb() -> float:
    """Resident memory in MB of this process and every process it started (the sum of their ``VmRSS``:
    pages they share count once per process, so it is an upper bound)."""
    return _family_mb("status", "VmRSS")


def pss_mb() -> float:
    """The memory this process and every process it started hold between them, in MB: the sum of their
    ``Pss`` (``smaps_rollup``: a page shared by n processes counts 1/n in each), where pages they share (a
    render process's, forked from its forkserver) count once in all, and so do shared libraries' pages
    also mapped by processes outside (the bench's own among them)."""
    return _family_mb("smaps_rollup", "Pss")


def busy_cpu_s() -> float | None:
    """CPU seconds every core of this machine has spent busy since it started (``/proc/stat``: all but
    idle and waiting on input and output), or ``None`` where there is no ``/proc/stat``."""
    try:
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    except OSError:
        return None
    ticks = [int(f) for f in fields]
    return (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")


# ---------------------------------------------------------------------------------------------- stored games


def build_seed(path: Path, *, finished: int, active: int, distinct: int = 12) -> None:
    """An SQLite file with the store's schema holding ``finished`` finished and ``active`` active games of
    every kind: real states of ``distinct`` seeded AI games per kind (final states, and states part-way
    through), reused round-robin. Seats name players 0–4 in ``user_id``; :func:`load_seed` maps them to
    members."""
    from data.store import SeatRecord, Store
    from tables.results import result_of

    asyncio.run(_create_schema(path, Store))
    ended: list[tuple[str, int, str, dict[str, Any], str, int]] = []
    ongoing: list[tuple[str, int, str, dict[str, Any], int]] = []
    for kind, spec in GAMES.items():
        game = spec.game
        for n in range(distinct):
            seats = players(kind)
            seed = f"scale-{kind}-{n}"
            states = [json.dumps(s) for s in self_play(game, spec.player, seats, seed)]
            final = json.loads(states[-1])
            ended.append((kind, seats, seed, final, states[-1], len(states) - 1))
            for cut in (len(states) // 4, len(states) // 2, 3 * len(states) // 4):
                ongoing.append((kind, seats, seed, json.loads(states[cut]), cut))
    names = ("Anne", "Ben", "Calico", "Dara", "Edda")
    games, seat_rows = [], []
    for i in range(finished + active):
        if i < finished:
            kind, seats, seed, state, text, version = ended[i % len(ended)]
            game = GAMES[kind].game
            outcome = game.outcome(state)
            records = [SeatRecord(s, names[s], s) for s in range(seats)]
            result = json.dumps(result_of(game, state, outcome, records)) if outcome else None
            status, ended_at = "finished", 1_700_000_000.0 + i
        else:
            kind, seats, seed, state, version = ongoing[i % len(ongoing)]
            text, result, status, ended_at = json.dumps(state), None, "active", None
        options = json.dumps(state.get("options", {}))
        # No turn clock: a clock is a sleeping task per game, and SimCord's settle inspects every sleeping
        # task each time any task wakes (~0.3 ms each), which at 1,000 games costs more than the bot.
        games.append((i + 1, kind, 1, 1, 1, status, version, seed, options, text, result, 1.7e9, 1.7e9, 0, ended_at))
        seat_rows += [(i + 1, s, s, names[s]) for s in range(seats)]
    with sqlite3.connect(path) as conn:
        conn.executemany(
            "INSERT INTO games (id, kind, guild_id, channel_id, host_id, status, version, seed, options, state,"
            " result, created_at, updated_at, clock, ended_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            games,
        )
        conn.executemany("INSERT INTO seats (game_id, seat, user_id, name) VALUES (?, ?, ?, ?)", seat_rows)
    with sqlite3.connect(path) as conn:
        conn.execute("VACUUM")


async def _create_schema(path: Path, store_class: Any) -> None:
    store = await store_class.open(path)
    await store.close()


def load_seed(database: Path, seed: Path, guild_id: int, channel_id: int, members: Sequence[int]) -> tuple[int, int]:
    """Copy the prepared games into the bot's database (SQLite's own work: nothing passes through Python),
    in ``channel_id`` with ``members`` as players; returns the range of new game ids."""
    with sqlite3.connect(database) as conn:
        conn.execute("ATTACH DATABASE ? AS seed", (str(seed),))
        (offset,) = conn.execute("SELECT COALESCE(MAX(id), 0) FROM games").fetchone()
        columns = [row[1] for row in conn.execute("PRAGMA table_info(games)") if row[1] != "id"]
        listed = ", ".join(columns)
        picked = ", ".join({"guild_id": "?", "channel_id": "?", "host_id": "?"}.get(c, c) for c in columns)
        conn.execute(
            f"INSERT INTO games (id, {listed}) SELECT id + ?, {picked} FROM seed.games",
            (offset, guild_id, channel_id, members[0]),
        )
        conn.execute("CREATE TEMP TABLE players (number INTEGER PRIMARY KEY, user_id INTEGER)")
        conn.executemany("INSERT INTO players VALUES (?, ?)", list(enumerate(members)))
        conn.execute(
            "INSERT INTO seats (game_id, seat, user_id, name) SELECT s.game_id + ?, s.seat, p.user_id, s.name"
            " FROM seed.seats s JOIN players p ON p.number = s.user_id",
            (offset,),
        )
        (last,) = conn.execute("SELECT MAX(id) FROM games").fetchone()
    return offset + 1, last


# ---------------------------------------------------------------------------------------------- bursts


async def burst(table: SimTable, records: Sequence[GameRecord]) -> list[float]:
    """``/<game> move`` in each game's thread by the member to act, all arriving together; each action's
    answer time in ms (its interaction's responses and its new board, from the common start)."""
    from simcord.actors import _slash  # the public actors wait for the bot to settle after each

    threads = {thread.id: thread for thread in table.channel.threads}
    moves = []
    for record in records:
        seat = table.human_to_act(record)
        assert seat is not None, f"game {record.id}: no member to act"
        action = table.pick(record, seat).action.encode()
        place = threads.get(record.place_id, table.channel)
        moves.append((table.member_of(record, seat), place, record, action))
    env = table.env
    log = env.backend.http_requests = TimedRequests()
    # SimCord's settle (which every actor call awaits) rescans every pending task of the bot each time a
    # task wakes: with a clock task per game, that costs the loop more than the bot's own work. So the
    # interactions are only emitted here; the bot's answers are awaited in the request log, and the
    # settle runs once they are all in.
    settle = env._settle_internal
    env._settle_internal = _emitted  # type: ignore[method-assign]
    started = time.perf_counter()
    try:
        results = [await _slash(m, place, f"{r.kind} move", {"action": a, "game": r.id}) for m, place, r, a in moves]
    finally:
        del env._settle_internal
    tokens = {result._interaction.token for result in results}
    places = {str(r.place_id) for _, _, r, _ in moves}
    # An answer is the ✅ follow-up (once the action is committed) and the board, updated or posted anew by the
    # delivery loop, both requests the log sees as the bot makes them.
    await log.until(_Unanswered(tokens, places, env.backend))
    await settle()
    return [
        (answer_time(log, started, r.place_id, result._interaction.token, env.backend) - started) * 1000
        for (_, _, r, _), result in zip(moves, results, strict=True)
    ]


class _Unanswered:
    """What a burst still waits for, read from the request log as it grows: the interaction tokens not yet
    answered (a response or a follow-up) and the channels no board has been posted or updated in. Called after each
    request, it looks at each request once: reading the whole log again every time was the bench's own
    work, ~1.4% of the event loop's GIL samples inside the window it measures."""

    def __init__(self, tokens: set[str], places: set[str], backend: Any = None) -> None:
        self.tokens, self.places = set(tokens), set(places)
        self.backend = backend  # SimCord's: the channel of a board posted as an interaction's follow-up
        self._seen = 0

    def __call__(self, log: TimedRequests) -> bool:
        for entry in log[self._seen :]:
            if entry.path.startswith(("/webhooks/", "/interactions/")):
                self.tokens.discard(entry.path.strip("/").split("/")[2])
            if (made := board_request(entry, self.backend)) is not None:
                self.places.discard(made[0])
        self._seen = len(log)
        return not self.tokens and not self.places


async def _emitted(**_: Any) -> None:
    """Stands in for SimCord's settle while a burst's interactions are emitted."""


async def playable(table: SimTable, ids: Sequence[int]) -> list[GameRecord]:
    """The games of ``ids`` still active with a member to act."""
    records = [await table.record(i) for i in ids]
    return [r for r in records if r.status == "active" and table.human_to_act(r) is not None]


# ---------------------------------------------------------------------------------------------- one process


async def process(sizes: Sizes, seed_db: Path) -> dict[str, Any]:
    """The ``process`` role (see the module docstring)."""
    from cogs.app import create_bot
    from cogs.offline.driver import SimTable

    out: dict[str, Any] = {}
    phase = _phases()
    with tempfile.TemporaryDirectory() as tmp:
        database = Path(tmp) / "scale.db"
        bot = create_bot(database=database, ai_delay=0, seed="scale", warm_renderers=False)
        try:
            async with simcord.run(bot, settle_timeout=60.0) as env:
                await bot.tree.sync()
                await bot.warm_up()
                out["rss_start_mb"], out["pss_start_mb"] = rss_mb(), pss_mb()
                table = SimTable(env, bot)
                out["action_ms_1"] = percentiles(await timed_actions(table, sizes.kind, sizes.actions))
                phase("timed with 1 game")
                loaded = await _stored_and_acted_on(table, database, seed_db, sizes.burst, phase)
                await _at_rest()
                out["rss_loaded_mb"], out["pss_loaded_mb"] = rss_mb(), pss_mb()
                out["active_games"] = len(await bot.tables.cache.game_ids())
                out["action_ms_1000"] = percentiles(await timed_actions(table, sizes.kind, sizes.actions))
                ratio = out["action_ms_1000"]["p99"] / out["action_ms_1"]["p99"]
                out["action_p99_ratio"] = round(ratio, 2)
                phase("timed with every game")
                out["burst_ms"] = percentiles(await _random_bursts(table, loaded, sizes))
                phase("bursts")
                out["startup_s"] = await _startup_s(env, database)
        finally:
            await bot.tables.close()
    return out


def _phases() -> Callable[[str], None]:
    """A reporter of the section's phases on stderr: each with the seconds since this call and the memory."""
    began = time.perf_counter()

    def phase(name: str) -> None:
        print(f"scale: {name} at {time.perf_counter() - began:.1f} s, {rss_mb()} MB", file=sys.stderr, flush=True)

    return phase


async def _stored_and_acted_on(
    table: SimTable, database: Path, seed_db: Path, burst_size: int, phase: Callable[[str], None]
) -> list[int]:
    """The prepared games copied into the bot's database, each given a thread and acted on once through the
    bot, so that it is in every cache an action fills; their ids."""
    bot = table.bot
    first, last = load_seed(database, seed_db, table.guild.id, table.channel.id, [m.id for m in table.members.values()])
    active = await bot.tables.cache.game_ids()
    loaded = [g for g in active if first <= g <= last]
    await _give_threads(bot, table, loaded)
    phase("games stored, threads made")
    # The bench reads the records of one burst's games at a time: the bot's memory is measured next, and
    # its own copies of 1,000 games' records (~17 MB) would stay in the process's heap.
    for start in range(0, len(loaded), burst_size):
        await burst(table, await playable(table, loaded[start : start + burst_size]))
        # Every image the bot posts stays in SimCord's stand-in for Discord's CDN: Discord's memory, not
        # the bot's (~360 MB after 1,000 boards), so it is let go as it comes.
        table.env.backend.cdn._blobs.clear()
    phase("each active game acted on")
    return loaded


async def _at_rest() -> None:
    """Waits until the bot is at rest with its games: its heap collected, and the free pages its render
    pool hands back once idle a while given back (real seconds: the pool's threads sleep them)."""
    from rendering import pool as render_pool

    gc.collect()
    await asyncio.to_thread(time.sleep, render_pool.TRIM_IDLE + 0.5)


async def _random_bursts(table: SimTable, loaded: Sequence[int], sizes: Sizes) -> list[float]:
    """The answer times of ``sizes.bursts`` bursts, each of ``sizes.burst`` games picked at random among
    those with a member to act."""
    samples: list[float] = []
    rng = random.Random("bursts")
    for _ in range(sizes.bursts):
        ready = await playable(table, rng.sample(loaded, min(len(loaded), sizes.burst * 2)))
        samples += await burst(table, ready[: sizes.burst])
    return samples


async def _startup_s(env: simcord.Env, database: Path) -> float | dict[str, str]:
    """The seconds a restart on ``database`` takes (:func:`_restart`), or why it did not finish in time."""
    try:
        return await asyncio.wait_for(_restart(env, database), STARTUP_LIMIT)
    except TimeoutError:
        return {"error": f"not ready and resumed within {STARTUP_LIMIT:.0f} s"}


async def _give_threads(bot: TableBot, table: SimTable, game_ids: Sequence[int]) -> None:
    """A thread per game, made by the bot as ``Host.start`` does, recorded as the game's place."""
    import discord

    channel = bot.get_channel(table.channel.id)
    assert isinstance(channel, discord.TextChannel)
    for game_id in game_ids:
        thread = await channel.create_thread(name=f"game {game_id}", type=discord.ChannelType.public_thread)
        await bot.tables.cache.set_place(game_id, thread_id=thread.id)
        bot.tables.cache.forget(game_id)


async def _restart(env: simcord.Env, database: Path) -> float:
    """Seconds from starting a new bot on ``database`` until it is ready and has resumed its games.

    SimCord allows a bot 5 s to settle when it attaches, and a resume may take longer: the table service's
    start is held back while the bot attaches, then run here (with the AI turns it starts, until settled).
    """
    from cogs.app import TableBot, create_bot

    original = TableBot._start

    async def held(self: TableBot) -> None:
        return None

    TableBot._start = held  # type: ignore[method-assign]
    old = env.bot
    try:
        started = time.perf_counter()
        bot = create_bot(database=database, ai_delay=0, seed="scale-restarted", warm_renderers=False)
        await env.restart_bot(bot)
    finally:
        TableBot._start = original  # type: ignore[method-assign]
        await old.tables.close()
    try:
        await bot.tables.start()
        await env.settle(timeout=600)
        return round(time.perf_counter() - started, 2)
    finally:
        await bot.tables.close()


# ---------------------------------------------------------------------------------------------- throughput


async def throughput(url: str, seed: str, seconds: float, games: int, ready: bool) -> dict[str, Any]:
    """The ``throughput`` role: a bot on ``url`` plays ``games`` games of its own in bursts (one action per
    game each) for ``seconds``; with ``ready``, it prints ``ready`` and waits for a line on stdin first,
    so that two processes start together."""
    from cogs.app import create_bot
    from cogs.offline.driver import SimTable

    # Its own process name: the workers share the database, as the processes of one bot do.
    bot = create_bot(database=url, ai_delay=0, seed=seed, warm_renderers=False, process=seed)
    try:
        async with simcord.run(bot, settle_timeout=60.0) as env:
            await bot.tree.sync()
            await bot.warm_up()
            table = SimTable(env, bot)
            kind = "piratz"
            names = list(table.members)
            ids = []
            for n in range(games):
                await table.challenge(kind, names[n % 5], [names[(n + 1) % 5]])
                ids.append(await _own_latest(bot, seed))
            if ready:
                print("ready", flush=True)
                await asyncio.to_thread(sys.stdin.readline)
            done = 0
            started, cpu, busy = time.perf_counter(), time.process_time(), busy_cpu_s()
            while time.perf_counter() - started < seconds:
                records = await playable(table, ids)
                for _ in range(games - len(records)):  # finished games are replaced by new ones
                    n = len(ids)
                    await table.challenge(kind, names[n % 5], [names[(n + 1) % 5]])
                    ids.append(await _own_latest(bot, seed))
                done += len(await burst(table, records))
            elapsed = time.perf_counter() - started
            cpu, busy_now = time.process_time() - cpu, busy_cpu_s()
    finally:
        await bot.tables.close()
    return {
        "actions": done,
        "seconds": round(elapsed, 2),
        "actions_per_s": round(done / elapsed, 1),
        "cores": round(cpu / elapsed, 2),
        "machine_cores_busy": None if busy is None or busy_now is None else round((busy_now - busy) / elapsed, 2),
    }


async def _own_latest(bot: Any, seed: str) -> int:
    """The newest active game this worker started (the others' games are in the same database, and their
    seeds start with their own worker's)."""
    for game_id in reversed(await bot.tables.cache.game_ids()):
        record = await bot.tables.cache.get(game_id)
        if record.seed == seed or record.seed.startswith(f"{seed}-"):
            return game_id
    raise LookupError(f"worker {seed} has no game")


def actions_per_s(seconds: float, games: int = 20) -> dict[str, Any]:
    """Actions per second of one bot process and of two side by side, each on the same throwaway
    PostgreSQL server, with the cores each side kept busy (``cores``: the bot processes' own CPU time, and
    the whole machine's, the server's included, over the timed window); ``{"skipped": why}`` when there is
    no server to start here."""
    from tests.postgres import PostgresUnavailable, throwaway_server

    try:
        with throwaway_server() as server:
            url = server.url()
            one = _throughput_runs(url, ["one"], seconds, games)[0]
            two = _throughput_runs(url, ["two-a", "two-b"], seconds, games)
    except PostgresUnavailable as exc:
        return {"skipped": str(exc)}
    except RuntimeError as exc:  # a worker failed (its traceback is on stderr): the other figures still count
        return {"error": str(exc)}
    both = round(sum(r["actions_per_s"] for r in two), 1)
    return {
        "one_process": one["actions_per_s"],
        "two_processes": both,
        "ratio": round(both / one["actions_per_s"], 2),
        # How much of the machine each side kept busy: where two processes leave no core idle, they cannot
        # make more than (cores) / (what one kept busy) times one, however well they share the database.
        "cores": {
            "machine": os.cpu_count(),
            "one_process": one["cores"],
            "two_processes": round(sum(r["cores"] for r in two), 2),
            "busy_one": one["machine_cores_busy"],
            "busy_two": _mean([r["machine_cores_busy"] for r in two]),
        },
        "runs": {"one": one, "two": two},
    }


def _mean(values: Sequence[float | None]) -> float | None:
    """The mean of the workers' figures over the same window (``None`` if one has none)."""
    known = [v for v in values if v is not None]
    return round(sum(known) / len(known), 2) if known and len(known) == len(values) else None


def _throughput_runs(url: str, seeds: Sequence[str], seconds: float, games: int) -> list[dict[str, Any]]:
    """Run one ``throughput`` subprocess per seed, released together once all are ready."""
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "bench.scale", "throughput", url, s, str(seconds), str(games)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for s in seeds
    ]
    for p in procs:
        assert p.stdout is not None
        line = p.stdout.readline()
        if line.strip() != "ready":
            raise RuntimeError(f"throughput worker failed to start: {line!r}")
    for p in procs:
        assert p.stdin is not None
        p.stdin.write("go\n")
        p.stdin.flush()
    results = []
    for p in procs:
        out, _ = p.communicate()
        if p.returncode != 0:
            raise RuntimeError(f"throughput worker failed ({p.returncode})")
        results.append(json.loads(out.strip().splitlines()[-1]))
    return results


# ---------------------------------------------------------------------------------------------- the section


def scale(sizes: Sizes) -> dict[str, Any]:
    """The whole section: the ``process`` figures, then ``actions_per_s``."""
    with tempfile.TemporaryDirectory() as tmp:
        seed_db = Path(tmp) / "seed.db"
        build_seed(seed_db, finished=sizes.finished, active=sizes.active)
        done = subprocess.run(
            [sys.executable, "-m", "bench.scale", "process", str(seed_db), json.dumps(sizes.__dict__)],
            stdout=subprocess.PIPE,
            text=True,
            check=False,
        )
    if done.returncode != 0:
        raise RuntimeError(f"the scale process failed ({done.returncode}): see its output above")
    report = json.loads(done.stdout.strip().splitlines()[-1])
    report["actions_per_s"] = actions_per_s(sizes.seconds, sizes.burst)
    return report


def main(argv: list[str] | None = None) -> int:
    """The subprocess roles: ``process SEED_DB SIZES_JSON`` and ``throughput URL SEED SECONDS GAMES``."""
    parser = argparse.ArgumentParser(prog="python -m bench.scale")
    parser.add_argument("role", choices=("process", "throughput"))
    parser.add_argument("args", nargs="*")
    args = parser.parse_args(argv)
    if args.role == "process":
        seed_db, sizes = args.args
        result = asyncio.run(process(Sizes(**json.loads(sizes)), Path(seed_db)))
    else:
        url, seed, seconds, games = args.args
        result = asyncio.run(throughput(url, seed, float(seconds), int(games), ready=True))
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
