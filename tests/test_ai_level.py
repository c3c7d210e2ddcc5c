"""The AI level of a table: ``ai_level`` on ``new`` and ``open`` is stored with the lobby and the game,
kept by a rematch, and decides who searches: the AI seats of a ``hard`` game think in the hard AI's pool
(off the event loop), while away, resigned and timed-out members' seats are always played at ``normal``."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import signal
import threading
import time
from collections.abc import Callable

import pytest

from cogs.app import create_bot
from games.i18n import localize
from rendering import pool as render_pool
from tables import thinking
from tables.authority import GameError
from tables.config import Config
from tables.starting import Table
from tables.thinking import Thinker
from tests.conftest import World
from tests.service_support import NAMES, USERS, member, new_game, owed, tables_on
from tests.support import said


@pytest.fixture
def searches(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int, int, bool]]:
    """Stand in for the search (its own tests are in test_search.py): record each call — kind, seat, think
    time, and whether it ran off the event loop's thread — and play the first legal action."""
    from games.registry import GAMES

    calls: list[tuple[str, int, int, bool]] = []
    loop_thread = threading.get_ident()

    def decide(kind: str, state: dict, seat: int, think_ms: int, seed: str, pause: Callable[[], None]) -> str:
        pause()  # waits only while the bot answers a member
        calls.append((kind, seat, think_ms, threading.get_ident() != loop_thread))
        return GAMES[kind].game.legal_actions(state, seat)[0].encode()

    monkeypatch.setattr("tables.thinking.decide", decide)
    return calls


async def hard_game(store, n: int = 2, ai: int = 1, kind: str = "piratz"):
    tables = tables_on(store, ai_processes=0, ai_think_ms=250)
    async with store.transaction() as db:
        table = Table(kind, [(USERS[i], NAMES[i]) for i in range(n - ai)], ai, {}, ai_level="hard")
        started = await tables.starter.create(db, table, guild_id=1, channel_id=2, host_id=USERS[0])
    return tables, started.record


async def test_a_hard_tables_ai_seats_search_off_the_event_loop_one_decision_a_board(store, searches):
    tables, record = await hard_game(store, 2, ai=2)
    assert (await store.games.load(record.id)).ai_level == "hard"
    try:
        for version in (1, 2, 3):
            applied = await tables.play.ai_turn(record.id, 12)
            # A decision with a real choice is searched and committed on its own, so its board comes at once.
            assert applied is not None and applied.record.version == version
            assert len(searches) == version
        assert all(kind == "piratz" and ms == 250 and off for kind, _seat, ms, off in searches)
        assert await tables.reads.replay(record.id) == applied.record.state
    finally:
        await tables.stop()


async def test_normal_tables_and_members_seats_never_search(store, searches):
    tables = tables_on(store, ai_processes=0)
    try:
        record = await new_game(tables, 2, ai=2)
        assert record.ai_level == "normal"
        applied = await tables.play.ai_turn(record.id, 12)
        assert applied is not None and applied.record.version == 12 and searches == []
    finally:
        await tables.stop()
    tables, record = await hard_game(store, 2, ai=1)
    try:
        state = record.state
        away = dataclasses.replace(record, seats=[dataclasses.replace(record.seats[0], away=True), record.seats[1]])
        resigned = dataclasses.replace(
            record, seats=[dataclasses.replace(record.seats[0], resigned=True), record.seats[1]]
        )
        for played_for in (away, resigned):
            assert played_for.seats[0].is_ai and not tables.play.searches(played_for, state, 0)
        assert tables.play.searches(record, state, 1)  # the AI seat itself: searched
        assert not tables.play.searches(dataclasses.replace(record, ai_level="normal"), state, 1)
    finally:
        await tables.stop()


async def test_the_level_is_checked_and_kept_by_the_lobby(store, searches):
    tables = tables_on(store, ai_processes=0)
    try:
        with pytest.raises(GameError) as refused:
            await tables.lobbies.open_table(member(0), "piratz", 1, {}, ai_level="brutal")
        assert localize(str(refused.value)).startswith("The AI level is one of: normal, hard")
        await tables.lobbies.challenge(member(0), "piratz", [member(1)], 1, {}, ai_level="hard")
        (lobby,) = await store.lobbies.open()
        *_, (_lane, _kind, message, _payload) = await owed(tables)
        assert lobby.ai_level == "hard" and "1 AI seat (hard)" in message.content
    finally:
        await tables.stop()


@pytest.fixture
def simcord_bot(database):
    """The bot with the real search in its pool of one process, thinking briefly."""
    config = dataclasses.replace(Config(), ai_think_ms=20, ai_processes=1)
    return create_bot(database=database, ai_delay=0, seed="e2e", warm_renderers=False, config=config)


async def test_slash_new_with_ai_level_hard_plays_the_ai_by_search(world: World) -> None:
    table = world.table
    result = await table.challenge("piratz", "Anne", [], ai=1, ai_level="hard")
    assert result is not None
    record = await table.latest_game()
    assert record.ai_level == "hard" and "AI: hard" in table.place(record).history()[0].content
    record = await table.play_to_end(record.id)
    assert record.status == "finished"
    final = next(m for m in table.place(record).history() if "is over" in m.content)
    rematch = await table.members["Anne"].click(final, label="Rematch")
    assert said(rematch, "begins") or said(rematch, "Rematch")
    again = await table.latest_game()
    assert again.id != record.id and again.ai_level == "hard"


@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="SCHED_IDLE is Linux's")
def test_the_search_processes_take_only_the_cpu_time_the_bot_leaves() -> None:
    thinker = Thinker(1, 20)
    try:
        assert thinker._executor().submit(os.sched_getscheduler, 0).result(timeout=60) == os.SCHED_IDLE
    finally:
        thinker.close()


def test_the_search_processes_see_the_answers_the_bot_is_giving() -> None:
    thinker = Thinker(1, 20)
    try:
        seen = thinker._executor().submit(thinking.answers_seen).result(timeout=60)
        with thinker.answering(), thinker.answering():
            during = thinker._executor().submit(thinking.answers_seen).result(timeout=60)
        after = thinker._executor().submit(thinking.answers_seen).result(timeout=60)
        assert (seen, during, after) == (0, 2, 0)
    finally:
        thinker.close()


def test_a_search_waits_between_playouts_while_the_bot_answers_but_never_long() -> None:
    thinker = Thinker(0, 20)
    started = time.perf_counter()
    thinking.wait_for_answers(thinker._answering)
    idle = time.perf_counter() - started
    with thinker.answering():
        started = time.perf_counter()
        thinking.wait_for_answers(thinker._answering)
        held = time.perf_counter() - started
    assert idle < 0.001 and thinking.PAUSE_S <= held < 10 * thinking.PAUSE_S


async def test_an_action_and_a_boards_render_hold_the_searches(store, monkeypatch) -> None:
    tables = tables_on(store, ai_processes=0)
    record = await new_game(tables, 2)
    held: list[int] = []
    commit = tables.play.commit

    async def counting(*args, **kwargs):
        held.append(tables.thinker._answering.value)
        return await commit(*args, **kwargs)

    monkeypatch.setattr(tables.play, "commit", counting)
    try:
        (seat,) = tables.cache.spec(record).game.to_act(record.state)
        action = tables.cache.spec(record).game.legal_actions(record.state, seat)[0]
        await tables.play.act(member(USERS.index(record.seats[seat].user_id)), record.id, action.encode())
        assert held == [1] and tables.thinker._answering.value == 0
        boards = render_pool.RenderPool(1, tables.thinker.answering)
        try:
            assert await boards.run(lambda: tables.thinker._answering.value) == 1
            assert await boards.run_later(lambda: tables.thinker._answering.value) == 0
        finally:
            boards.shutdown()
    finally:
        await tables.stop()


async def test_the_bot_holds_the_searches_while_it_draws_a_board(world: World) -> None:
    assert render_pool._default.during_boards == world.bot.tables.thinker.answering


def _dying(*args: object) -> str:
    """A search that kills its own process, every time (in the search process: picklable by name)."""
    os.kill(os.getpid(), signal.SIGKILL)
    raise AssertionError("unreachable")


def _kill_search_processes(thinker: Thinker) -> None:
    """Kill the pool's processes as the kernel's out-of-memory killer would."""
    pool = thinker._executor()
    pool.submit(os.getpid).result(timeout=60)  # started
    for process in list(pool._processes.values()):
        os.kill(process.pid, signal.SIGKILL)
        process.join(timeout=30)


async def test_a_search_process_that_dies_is_started_again(monkeypatch) -> None:
    """Issue 52, case 3: the broken pool is replaced and the search tried again, in every game of the
    process; when the processes keep dying, the caller hears :class:`SearchFailed`."""
    thinker = Thinker(1, 20)
    from games.registry import GAMES

    state = GAMES["piratz"].game.new_game(2, {}, "dies")
    seat = GAMES["piratz"].game.to_act(state)[0]
    try:
        _kill_search_processes(thinker)
        action = await thinker.decide("piratz", state, seat, game_id=1)
        assert action in GAMES["piratz"].game.legal_actions(state, seat)
        assert await thinker.decide("piratz", state, seat, game_id=2) in GAMES["piratz"].game.legal_actions(state, seat)
        monkeypatch.setattr(thinking, "think", _dying)
        with pytest.raises(thinking.SearchFailed):
            await thinker.decide("piratz", state, seat, game_id=3)
    finally:
        thinker.close()


async def test_a_decision_that_cannot_be_searched_is_taken_by_the_normal_ai(store, monkeypatch) -> None:
    """An AI turn always happens: when the search fails, the normal AI decides, and the game goes on."""
    tables, record = await hard_game(store, 2, ai=2)

    async def failing(*args, **kwargs):
        raise thinking.SearchFailed("the search processes died twice")

    monkeypatch.setattr(tables.thinker, "decide", failing)
    try:
        applied = await tables.play.ai_turn(record.id, 12)
        assert applied is not None and applied.record.version == record.version + 1
        assert await tables.reads.replay(record.id) == applied.record.state
    finally:
        await tables.stop()


async def test_a_member_resigns_while_the_hard_ai_searches_and_its_result_is_not_applied(store, monkeypatch) -> None:
    """Issue 52, case 7: the search does not hold the game: a resignation goes through at once, and the
    search's result, made on the game before it, is not applied."""
    tables, record = await hard_game(store, 2, ai=1)
    game = tables.cache.spec(record).game
    started, release = asyncio.Event(), asyncio.Event()
    searched: list[int] = []

    async def slow(kind, state, seat, *, game_id):
        searched.append(state["step"])
        started.set()
        await release.wait()
        return game.legal_actions(state, seat)[0]

    monkeypatch.setattr(tables.thinker, "decide", slow)
    try:
        # Bring the game to the AI seat's decision, as members would.
        while not tables.play.searches(record, record.state, game.to_act(record.state)[0]):
            seat = game.to_act(record.state)[0]
            user = record.seats[game.controller(record.state, seat)].user_id
            action = tables.cache.spec(record).player.choose(game, record.state, seat, game.rng(record.state))
            record = (await tables.play.act(member(USERS.index(user)), record.id, action.encode())).record
        turn = asyncio.get_running_loop().create_task(tables.play.ai_turn(record.id, 12))
        await asyncio.wait_for(started.wait(), 30)
        ended, over = await asyncio.wait_for(tables.play.resign(member(0), record.id), 5)
        assert over and ended.status != "active"
        release.set()
        assert await turn is None  # the game moved on: the search's move is not applied
        assert (await tables.cache.get(record.id)).version == ended.version
    finally:
        await tables.stop()
