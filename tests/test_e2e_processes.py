"""Two bot processes on one PostgreSQL: two ``create_bot()`` instances, each in its own SimCord world and
on its own event loop and thread (as two OS processes, sharing nothing but the database).

The worlds are built the same way, so the server, its channel and its members have the same ids in both,
as they would in the one Discord two shard processes share. The channel allows no threads: a game is
played in the channel itself, which each process can post to in its own world.

- one game played with actions alternating between the processes: none lost, none applied twice;
- a double click that reaches both processes at once is applied once;
- a process stopped in the middle of an AI turn (or dead without a word) and the other finishing it.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine, Iterator
from concurrent.futures import Future
from typing import Any, TypeVar

import discord
import pytest
import simcord

from cogs.app import TableBot, create_bot
from cogs.offline.driver import SimTable, play_buttons
from data.store import GameRecord
from games.registry import GAMES
from tests.support import raw_messages, texts

T = TypeVar("T")
LEASE = 6.0
"""Seconds of a lease in these tests (virtual: each world's clock moves only when the test advances it)."""
AI_DELAY = 30.0


class Process:
    """A bot in its own SimCord world, on an event loop in a thread of its own."""

    def __init__(self, url: str, name: str, *, ai_delay: float = 0.0) -> None:
        self.name = name
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name=name, daemon=True)
        self.thread.start()
        self.bot: TableBot
        self.env: simcord.Env
        self.table: SimTable
        self._stopping: asyncio.Event
        self._served: Future[None] | None = None
        self.call(self._open(url, ai_delay))

    def call(self, work: Coroutine[Any, Any, T], timeout: float = 120) -> T:
        return self.start(work).result(timeout)

    def start(self, work: Coroutine[Any, Any, T]) -> Future[T]:
        return asyncio.run_coroutine_threadsafe(work, self.loop)

    async def _open(self, url: str, ai_delay: float) -> None:
        self._stopping = asyncio.Event()
        ready = self.loop.create_future()
        self._served = asyncio.ensure_future(self._serve(url, ai_delay, ready))
        await ready

    async def _serve(self, url: str, ai_delay: float, ready: asyncio.Future[None]) -> None:
        bot = create_bot(
            database=url, ai_delay=ai_delay, seed=self.name, warm_renderers=False, process=self.name, lease=LEASE
        )
        try:
            async with simcord.run(bot) as env:
                await bot.tree.sync()
                self.bot, self.env = bot, env
                self.table = SimTable(env, bot)
                no_threads = discord.PermissionOverwrite(create_public_threads=False, create_private_threads=False)
                self.table.channel = self.table.guild.create_text_channel(
                    "deck", overwrites={self.table.guild.default_role: no_threads}
                )
                ready.set_result(None)
                await self._stopping.wait()
        except BaseException as exc:
            if not ready.done():
                ready.set_exception(exc)
            raise

    def stop(self, *, crash: bool = False) -> None:
        """Shut the bot down as ``python bot.py`` does on Ctrl-C (it lets its leases go), or end it as a crash
        would (``crash``: nothing more happens in it, its database connections drop), and end its thread."""

        async def stop() -> None:
            if crash:
                await self.bot.tables.close()
            else:
                await self.bot.close()
            self._stopping.set()
            assert self._served is not None
            await self._served

        self.call(stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)

    def catch_up(self, other: Process) -> None:
        """Bring this world's clock to the other's (each world's clock moves on its own; the processes of one
        bot share one time)."""
        behind = (other.env.now() - self.env.now()).total_seconds()
        if behind > 0:
            self.call(self.env.advance_time(behind))

    # ------------------------------------------------------------------ what the test reads

    def record(self, game_id: int) -> GameRecord:
        return self.call(self.bot.tables.cache.get(game_id))

    def boards(self) -> list[Any]:
        """The messages with an image this process posted in the channel of its world."""
        return [m for m in raw_messages(self.env, self.table.channel.id) if m.attachments]


@pytest.fixture
def processes(postgres_url: str) -> Iterator[list[Process]]:
    started = [Process(postgres_url, "first"), Process(postgres_url, "second")]
    yield started
    for process in started:
        if process.thread.is_alive():
            process.stop()


def check_the_log(record: GameRecord, log: list[tuple[int, int, str]]) -> None:
    """Every action once, in order, and the snapshot is what the log replays to."""
    assert [seq for seq, _, _ in log] == list(range(1, record.version + 1))
    game = GAMES[record.kind].game
    state = game.new_game(len(record.seats), record.options, record.seed)
    for _, seat, text in log:
        state = game.apply(state, seat, text, inplace=True).state
    assert state == record.state


def move(process: Process, game_id: int) -> tuple[GameRecord, Any]:
    """The member to act plays the AI's pick with ``/<game> move`` in this process's world."""
    record = process.record(game_id)
    seat = process.table.human_to_act(record)
    assert seat is not None
    choice = process.table.pick(record, seat)
    turn = process.call(process.table.move(record, seat, choice))
    return record, turn.results[-1]


def test_a_game_played_through_two_processes_in_turn_loses_and_repeats_nothing(processes: list[Process]) -> None:
    first, second = processes
    first.call(first.table.challenge("piratz", "Anne", ["Ben"]))
    game_id = first.call(first.table.latest_game()).id
    for i in range(12):
        process = processes[i % 2]
        # Each process has this game cached from its last turn: it must notice the other's moves.
        before, result = move(process, game_id)
        after = process.record(game_id)
        assert after.version == before.version + 1, texts(result)
        assert after.runner == process.name  # the process that applied the move runs what follows
        # (What each world shows is not compared: each process has a Discord of its own here, whose message
        # ids are the other's too, so an update of the turn's board lands on whatever message has its id.)
    record = second.record(game_id)
    assert record.version == 12
    check_the_log(record, second.call(second.bot.tables.store.games.actions(game_id)))


def test_a_double_click_reaching_both_processes_is_applied_once(processes: list[Process]) -> None:
    first, second = processes
    first.call(first.table.challenge("piratz", "Anne", ["Ben"]))
    game_id = first.call(first.table.latest_game()).id
    move(first, game_id)
    record = first.record(game_id)
    seat = first.table.human_to_act(record)
    assert seat is not None
    actor = first.table.member_of(record, seat)
    member = next(name for name, m in first.table.members.items() if m.id == actor.id)
    # The second process shows the same board in its world (``/piratz board``), so the same button is
    # on screen in both.
    second.call(second.table.members[member].slash(second.table.channel, "piratz board"))
    assert second.record(game_id).version == record.version
    boards = {p.name: p.table.last_board(p.record(game_id)) for p in processes}
    (button,) = {play_buttons(board)[0] for board in boards.values()}  # the same first button in both

    def click(process: Process) -> Future[Any]:
        return process.start(process.table.members[member].click(boards[process.name], custom_id=button))

    clicks = [click(first), click(second)]
    results = [c.result(60) for c in clicks]
    after = first.record(game_id)
    assert after.version == record.version + 1
    log = first.call(first.bot.tables.store.games.actions(game_id))
    check_the_log(after, log)
    answers = [" ".join(texts(r)) for r in results]
    refused = [a for a in answers if "out of date" in a or "moved on" in a]
    assert len(refused) == 1, answers  # the other click was told, and changed nothing


def start_against_the_ai(process: Process) -> GameRecord:
    """Anne against an AI seat, up to a moment the AI must move: its runner waits out the AI delay."""
    process.call(process.table.challenge("piratz", "Anne", [], ai=1))
    record = process.call(process.table.latest_game())
    while process.table.human_to_act(record) is not None:
        move(process, record.id)
        record = process.record(record.id)
    process.call(process.env.settle())
    assert process.record(record.id).version == record.version and record.status == "active"
    return record


@pytest.mark.parametrize("how", ["stopped", "dead"])
def test_a_process_stopped_in_the_middle_of_an_ai_turn_is_finished_by_the_other(postgres_url: str, how: str) -> None:
    first = Process(postgres_url, "first", ai_delay=AI_DELAY)
    second = Process(postgres_url, "second", ai_delay=AI_DELAY)
    try:
        record = start_against_the_ai(first)
        assert record.runner == "first"  # its AI runner waits out the AI delay now
        first.stop(crash=how == "dead")  # a crash says nothing: its leases stay until they run out
        second.catch_up(first)
        moved = second.record(record.id)
        assert moved.version == record.version  # the stopped process made no AI move
        # The second process's sweeps (every LEASE / 3) take the game over: at once when the lease was
        # let go, once it ran out when the process died without a word.
        waited = 0.0
        while second.record(record.id).runner != "second":
            second.call(second.env.advance_time(LEASE / 3))
            waited += LEASE / 3
            assert waited <= 2 * LEASE + LEASE / 3, "the game was never taken over"
        assert waited <= (LEASE / 3 if how == "stopped" else 2 * LEASE + LEASE / 3)
        second.call(second.env.advance_time(AI_DELAY + 0.5))
        finished = second.record(record.id)
        assert finished.version > record.version  # the AI seats moved, in the second process
        assert second.table.human_to_act(finished) is not None or finished.status != "active"
        assert second.boards(), "the second process posted the board after the AI's moves"
        check_the_log(finished, second.call(second.bot.tables.store.games.actions(record.id)))
    finally:
        for process in (first, second):
            if process.thread.is_alive():
                process.stop()


async def test_an_auto_sharded_bot_plays_a_game(tmp_path) -> None:
    """``--shard-count 2``: every shard in one process, an auto-sharded bot, plays like the plain one."""
    bot = create_bot(database=tmp_path / "bot.db", ai_delay=0, seed="sharded", warm_renderers=False, shard_count=2)
    assert isinstance(bot, discord.AutoShardedClient)
    try:
        async with simcord.run(bot) as env:
            await bot.tree.sync()
            table = SimTable(env, bot)
            await table.challenge("piratz", "Anne", ["Ben"])
            record = await table.latest_game()
            played = await table.play_moves(record.id, 3)
            assert played.version >= 3 and played.runner == "main"
            check_the_log(played, await bot.tables.store.games.actions(record.id))
    finally:
        await bot.close()
