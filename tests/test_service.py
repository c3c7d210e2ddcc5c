"""The table service: creating games, checked actions, several processes, results, resignation,
abandonment and replay from the log — on both store engines, without Discord."""

from __future__ import annotations

import asyncio
import hashlib
import random

import pytest

from data.store import SeatRecord, Store
from games.core import Action, IllegalAction, Outcome, Termination, clone
from games.i18n import localize, localize_tree
from games.piratz import Piratz
from games.registry import GAMES
from tables.authority import GameError, NotSeated, NotYourTurn, StaleBoard
from tables.compose import Tables
from tables.languages import Languages
from tables.play import Applied, Play
from tables.results import result_of
from tables.seating import seed_digest
from tables.turns import Turn
from tests.service_support import (
    NAMES,
    USERS,
    Clock,
    game_of,
    idle,
    member,
    mover,
    new_game,
    refused,
    some_legal,
    tables_on,
    to_act,
)
from tests.support import sqlite_trips

GAME = Piratz()


@pytest.fixture
async def two_processes(store_target):
    """Two stores on one database, as two bot processes have, each with its service (processes "first" and
    "second"). Yields ``(store1, store2, tables1, tables2)``; both clocks start at 10."""
    store1, store2 = await Store.open(store_target, owner="first"), await Store.open(store_target, owner="second")
    tables1, tables2 = tables_on(store1, seed="p", runner="first"), tables_on(store2, seed="q", runner="second")
    yield store1, store2, tables1, tables2
    for t in (tables1, tables2):
        await t.stop()
    await store1.close()
    await store2.close()


def seats_for(n: int) -> list[SeatRecord]:
    return [SeatRecord(i, NAMES[i], USERS[i]) for i in range(n)]


async def snapshot(store: Store, game_id: int):
    record = await store.games.load(game_id)
    return record.version, record.status, record.state, await store.games.actions(game_id)


# ---------------------------------------------------------------------------------------------- create


@pytest.mark.parametrize("n", [2, 3, 4])
async def test_create_game(tables, store, n):
    record = await new_game(tables, n, channel=77)
    assert (record.kind, record.status, record.version, record.channel_id) == ("piratz", "active", 0, 77)
    assert record.names == list(NAMES[:n])
    assert [s.user_id for s in record.seats] == list(USERS[:n])
    assert record.state == GAME.new_game(n, {}, record.seed)
    assert record.options == {"blind": False}  # resolved options are stored
    assert await store.games.load(record.id) == record
    assert await store.games.ids() == [record.id]


async def test_create_with_ai_seats_and_options(tables, store):
    record = await new_game(tables, 3, ai=1, options={"blind": True})
    assert [s.is_ai for s in record.seats] == [False, False, True]
    assert record.seats[2].name.startswith("🤖")
    assert record.options == record.state["options"] == {"blind": True}


@pytest.mark.parametrize(("n", "options"), [(1, {}), (5, {}), (2, {"bogus": 1})])
async def test_create_refuses_bad_tables_and_writes_nothing(tables, store, n, options):
    with pytest.raises(GameError) as info:
        await new_game(tables, n, options=options)
    assert type(info.value) is GameError
    with pytest.raises(IllegalAction) as engine:
        GAME.new_game(n, options, "x")
    assert str(info.value) == str(engine.value)
    assert await store.games.ids() == [] and await store.outbox.pending() == []


async def test_seeds_follow_the_configured_seed(store):
    tables = tables_on(store, seed="x")
    seeds = [(await new_game(tables, n)).seed for n in (2, 3, 2)]
    assert seeds == ["x", "x-2", "x-3"]
    assert (await store.games.load(2)).state == GAME.new_game(3, {}, "x-2")


async def test_unseeded_tables_use_fresh_random_seeds(store):
    tables = tables_on(store, seed=None)
    seeds = {(await new_game(tables)).seed for _ in range(3)}
    assert len(seeds) == 3 and all(len(s) == 32 and int(s, 16) >= 0 for s in seeds)


def test_seed_digest_is_sha256_hex():
    assert seed_digest("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    assert seed_digest("x-2") == hashlib.sha256(b"x-2").hexdigest()


# ---------------------------------------------------------------------------------------------- act


async def test_act_as_the_right_member(tables, store):
    record = await new_game(tables, 3)
    seat, before, text = to_act(record), clone(record.state), some_legal(record)
    applied = await tables.play.act(member(seat), record.id, text.upper(), version=0)
    assert isinstance(applied, Applied)
    assert (applied.seat, applied.action, applied.record.version) == (seat, Action.decode(text), 1)
    assert applied.events  # the engine's events are passed on
    expected = GAME.apply(before, seat, text).state
    stored = await store.games.load(record.id)
    assert (stored.version, stored.state, stored.last_member) == (1, expected, USERS[seat])
    assert stored.seats[seat].acted_at == tables.now()
    assert await store.games.actions(record.id) == [(1, seat, text)]  # the normalised action text


async def test_the_ai_moves_its_seats_in_one_commit(tables, store):
    record = await new_game(tables, 2, ai=2)
    applied = await tables.play.ai_turn(record.id, 5)
    assert applied is not None and applied.record.version == 5
    log = await store.games.actions(record.id)
    assert [seq for seq, _, _ in log] == [1, 2, 3, 4, 5]
    assert (await tables.reads.replay(record.id)) == applied.record.state
    # No member decides: the run's lines wait for the next board (a board a round and every 10 s at most).
    boards = [r for r in await store.outbox.pending(game_id=record.id) if r.payload.get("board") == 5]
    assert boards == [] and len(applied.events) >= 5
    carried = Turn.of(applied.record.turn).carried
    assert len(carried) == sum(1 for e in applied.events if e.seat is None) > 0


async def test_an_ai_turn_that_fails_unexpectedly_is_tried_again(store, monkeypatch):
    """One failure (a database hiccup, a bug in a rare position) never leaves a table of AI seats waiting."""
    monkeypatch.setattr("tables.ai.RETRIES", (0.0, 0.0, 0.0))
    tables = tables_on(store, ai_delay=0.0)  # the AI moves at once, as the bot's does
    real, failures = tables.play.ai_turn, []

    async def flaky(game_id, most):
        if len(failures) < 2:
            failures.append(game_id)
            raise RuntimeError("the disk hiccupped")
        return await real(game_id, most)

    monkeypatch.setattr(tables.play, "ai_turn", flaky)
    record = await new_game(tables, 2, ai=2)  # started: its AI seats move by themselves
    for _ in range(200):
        await asyncio.sleep(0.01)
        if (await store.games.load(record.id)).version > 0:
            break
    assert failures == [record.id, record.id] and (await store.games.load(record.id)).version > 0
    await tables.stop()


async def test_act_by_a_member_not_seated(tables, store):
    record = await new_game(tables, 2)
    before = await snapshot(store, record.id)
    with refused(NotSeated, match="not playing in Piratz #"):
        await tables.play.act(member(4), record.id, some_legal(record))
    assert await snapshot(store, record.id) == before


async def test_act_on_a_missing_game(tables):
    with refused(GameError, match="no game #404"):
        await tables.play.act(member(0), 404, "reveal")


@pytest.mark.parametrize("n", [2, 4])
async def test_act_out_of_turn_names_who_is_awaited(tables, store, n):
    record = await new_game(tables, n)
    seat = to_act(record)
    other = (seat + 1) % n
    before = await snapshot(store, record.id)
    with pytest.raises(NotYourTurn) as info:
        await tables.play.act(member(other), record.id, some_legal(record))
    assert NAMES[seat] in str(info.value) and NAMES[other] not in str(info.value)
    assert await snapshot(store, record.id) == before


async def test_act_on_a_stale_board(tables, store):
    record = await new_game(tables, 2)
    await tables.play.act(mover(record), record.id, some_legal(record), version=0)
    record = await tables.cache.get(record.id)
    before, cached = await snapshot(store, record.id), clone(record.state)
    for version in (0, 2, 7):
        with pytest.raises(StaleBoard):
            await tables.play.act(mover(record), record.id, some_legal(record), version=version)
    assert await snapshot(store, record.id) == before
    assert (await tables.cache.get(record.id)).state == cached
    await tables.play.act(mover(record), record.id, some_legal(record), version=1)
    assert (await store.games.load(record.id)).version == 2


@pytest.mark.parametrize("text", ["dig", "end", "take 3", "bury 1", "pass gold", "", "reveal " + "x" * 60])
async def test_illegal_action_reports_the_engine_message_and_changes_nothing(tables, store, text):
    record = await new_game(tables, 3)
    seat = to_act(record)
    with pytest.raises(IllegalAction) as engine:
        GAME.apply(clone(record.state), seat, text)
    before = await snapshot(store, record.id)
    pending = await store.outbox.pending()
    with pytest.raises(GameError) as info:
        await tables.play.act(member(seat), record.id, text, version=0)
    assert type(info.value) is GameError and str(info.value) == str(engine.value) and str(info.value)
    assert await snapshot(store, record.id) == before
    assert await store.outbox.pending() == pending  # nothing owed either
    assert (await tables.cache.get(record.id)).version == 0


async def test_concurrent_acts_on_the_same_version_apply_once(tables, store):
    record = await new_game(tables, 2)
    seat, text = to_act(record), some_legal(record)
    results = await asyncio.gather(
        *(tables.play.act(member(seat), record.id, text, version=0) for _ in range(3)), return_exceptions=True
    )
    assert sum(isinstance(r, Applied) for r in results) == 1
    assert sum(isinstance(r, StaleBoard) for r in results) == 2
    version, _, state, log = await snapshot(store, record.id)
    assert (version, log) == (1, [(1, seat, text)])
    assert state == GAME.apply(GAME.new_game(2, {}, record.seed), seat, text).state


async def test_an_action_and_what_it_owes_commit_together(tables, store, monkeypatch):
    """If the messages an action owes cannot be written, the action is not committed either: the rows are
    written with the commit (on SQLite in its trip), and a failure there rolls the whole step back."""
    from data.outbox import OutboxRepo

    record = await new_game(tables, 2)
    before = await snapshot(store, record.id)

    def broken(self, owed, now):
        return [("INSERT INTO no_such_table (id) VALUES (?) RETURNING id", [1])]

    monkeypatch.setattr(OutboxRepo, "_inserts", broken)
    with pytest.raises(Exception, match="no_such_table"):
        await tables.play.act(mover(record), record.id, some_legal(record))
    monkeypatch.undo()
    tables.cache.forget(record.id)
    assert await snapshot(store, record.id) == before
    applied = await tables.play.act(mover(record), record.id, some_legal(record))
    assert applied.record.version == 1


async def test_an_actions_commit_holds_the_write_lock_one_trip_and_still_tells_its_followers(tmp_path, monkeypatch):
    """On SQLite an action's transaction makes one trip to the writing connection's thread, holding the one
    write lock: the game's row written over the version the move was applied to, the seat's and the log's
    writes, the outbox rows and the commit. The followers are read before it, on the reading connection,
    and still get the board."""
    from tables.outbox import FOLLOWERS, dm_lane

    store = await Store.open(tmp_path / "bot.db")
    tables = tables_on(store)
    try:
        record = await new_game(tables, 2)
        assert await store.seats.follow(record.id, 777, True)
        trips: list[str] = []
        committing = Play.commit

        async def commit(self, *args, **kwargs):
            with sqlite_trips(store._db._conn) as calls:
                try:
                    return await committing(self, *args, **kwargs)
                finally:
                    trips.extend(calls)

        monkeypatch.setattr(Play, "commit", commit)
        applied = await tables.play.act(mover(record), record.id, some_legal(record))
        while Turn.of(applied.record.turn).n == 1:  # the member decides on (their board, updated in place)
            record = applied.record
            applied = await tables.play.act(mover(record), record.id, some_legal(record))
        # Each commit in a trip of its own (the followers are the reader's).
        assert trips == ["_after"] * applied.record.version, trips
        pending = await store.outbox.pending(game_id=record.id)
        dm = [r for r in pending if r.priority == FOLLOWERS]
        assert [r.lane for r in dm] == [dm_lane(record.id, 777)]  # the follower gets the turn, once
    finally:
        await tables.stop()
        await store.close()


async def test_more_actions_at_once_than_the_pool_has_connections_all_commit(tables, store, monkeypatch):
    """Each action's transaction holds one of PostgreSQL's pooled connections: it must never wait for
    another from the same pool (with as many actions at once as connections, none would get one)."""
    from data.postgres import POOL_MAX_SIZE
    from data.seats import SeatsRepo

    records = [await new_game(tables, 2) for _ in range(POOL_MAX_SIZE + 2)]
    for record in records:
        assert await store.seats.follow(record.id, 777, True)
    followers = SeatsRepo.followers

    async def slow(self, game_id):  # a read of its own, slow enough that every transaction has begun
        if hasattr(self._q, "transaction"):
            await asyncio.sleep(0.2)
        return await followers(self, game_id)

    monkeypatch.setattr(SeatsRepo, "followers", slow)
    moves = [tables.play.act(mover(r), r.id, some_legal(r)) for r in records]
    applied = await asyncio.wait_for(asyncio.gather(*moves), timeout=30)
    assert [a.record.version for a in applied] == [1] * len(records)


# ---------------------------------------------------------------------------------------------- processes


async def test_a_second_process_moving_the_game_makes_the_cache_stale(two_processes):
    store1, store2, tables1, tables2 = two_processes
    record = await new_game(tables1, 2)
    seat, text = to_act(record), some_legal(record)
    await tables2.play.act(member(seat), record.id, text)  # the other process acts first
    # The same click reaching the first process: on a shared store it sees the newer revision and calls
    # the board out of date; otherwise the store's version check refuses the commit.
    with refused(StaleBoard, match="out of date" if store1.shared else "moved on"):
        await tables1.play.act(member(seat), record.id, text, version=0)
    assert await store1.games.actions(record.id) == [(1, seat, text)]
    fresh = await tables1.cache.get(record.id)  # the cache was dropped: the next attempt sees the real board
    await tables1.play.act(mover(fresh), record.id, some_legal(fresh), version=1)
    assert (await store2.games.load(record.id)).version == 2


async def test_a_process_reads_what_another_process_wrote(two_processes):
    store1, _, tables1, tables2 = two_processes
    if not store1.shared:
        pytest.skip("one process owns an SQLite file: its cache is the truth")
    record = await new_game(tables1, 2)
    await tables2.play.act(mover(record), record.id, some_legal(record))
    assert (await tables1.cache.get(record.id)).version == 1  # no failed commit needed to notice
    await tables2.cache.set_place(record.id, message_id=77)
    assert (await tables1.cache.get(record.id)).message_id == 77
    cached = await tables1.cache.get(record.id)
    assert await tables1.cache.get(record.id) is cached  # unchanged: the cached copy serves


async def test_the_process_that_creates_a_game_runs_it(two_processes):
    _, _, tables1, tables2 = two_processes
    record = await new_game(tables1, 2, ai=2)
    assert record.runner == "first" and record.runner_until == 10.0 + tables1.config.lease
    assert tables1.cache.runs(record) and not tables2.cache.runs(record)
    # The other process can neither move for an AI seat nor time a decision out meanwhile.
    assert await tables2.play.ai_turn(record.id, 1) is None
    assert await tables2.play.time_out(record.id, to_act(record), version=0) is None
    assert (await tables2.cache.get(record.id)).version == 0
    tables2.now.t = 10.0 + tables1.config.lease + 1  # the lease ran out (its process died): now it can
    applied = await tables2.play.ai_turn(record.id, 1)
    assert applied is not None and applied.record.runner == "second"


async def test_a_members_action_hands_the_game_to_the_process_that_applied_it(two_processes):
    store1, _, tables1, tables2 = two_processes
    record = await new_game(tables1, 2)
    tables2.now.t = 20.0
    applied = await tables2.play.act(mover(record), record.id, some_legal(record))
    assert (applied.record.runner, applied.record.runner_until) == ("second", 20.0 + tables2.config.lease)
    stored = await store1.games.load(record.id)
    assert (stored.runner, stored.runner_until) == ("second", 20.0 + tables2.config.lease)
    assert not tables1.cache.runs(stored)


async def test_a_process_delivers_what_it_wrote_and_takes_over_what_a_dead_one_left(two_processes):
    store1, store2, tables1, _ = two_processes
    record = await new_game(tables1, 2)
    mine = await store1.outbox.pending(game_id=record.id)
    assert mine and await store1.outbox.due(now=10.0, limit=50)
    assert await store2.outbox.due(now=10.0, limit=50) == []  # the writer delivers them
    orphaned = await store2.outbox.due(now=100.0, limit=50, orphaned=50.0)  # its writer died
    assert {e.lane for e in orphaned} <= {e.lane for e in mine} and orphaned


# ---------------------------------------------------------------------------------------------- replay


async def play_to_end(tables: Tables, game_id: int, rng: random.Random) -> int:
    """Random legal moves for every member and the AI's own for AI seats, until the game ends."""
    record = await tables.cache.get(game_id)
    moves = 0
    while record.status == "active":
        if record.seats[GAME.controller(record.state, to_act(record))].is_ai:
            applied = await tables.play.ai_turn(game_id, 1)
        else:
            action = rng.choice(GAME.legal_actions(record.state, to_act(record)))
            applied = await tables.play.act(mover(record), game_id, action.encode(), version=record.version)
        assert applied is not None
        record = applied.record
        moves += 1
    return moves


async def test_replay_matches_the_snapshot_after_random_games(store):
    tables = tables_on(store, seed="replay")
    rng = random.Random(2024)
    ids = []
    for i in range(20):
        n = 2 + i % 3
        record = await new_game(tables, n, ai=1 if i % 4 == 0 else 0, options={"blind": i % 5 == 0})
        assert await play_to_end(tables, record.id, rng) > 0
        ids.append(record.id)
    fresh = tables_on(store)  # no cache: reads everything from the database
    for game_id in ids:
        record = await store.games.load(game_id)
        assert record.status == "finished"
        log = await store.games.actions(game_id)
        assert [seq for seq, _, _ in log] == list(range(1, record.version + 1))
        replayed = await tables.reads.replay(game_id)
        assert record.state == replayed == await fresh.reads.replay(game_id)
        assert record.result == result_of(GAME, record.state, GAME.outcome(record.state), record.seats)
        assert record.result["winners"]
    await tables.stop()


# ---------------------------------------------------------------------------------------------- results


def test_result_of_keeps_engine_winners():
    outcome = Outcome((1,), (4, 9, 2), "{p1} wins with 9 points.")
    assert result_of(GAME, {"seats": 3}, outcome, seats_for(3)) == {
        "winners": [1],
        "scores": [4, 9, 2],
        "summary": "{p1} wins with 9 points.",
        "reason": "rules",
    }


def test_result_of_excludes_resigned_winners():
    seats = seats_for(4)
    seats[1].resigned = True
    # one of two tied winners resigned: the other still wins
    assert result_of(GAME, {"seats": 4}, Outcome((1, 3), (1, 9, 2, 9), "s"), seats)["winners"] == [3]
    # the only winner resigned: the best-scoring seats still in win, ties shared
    result = result_of(GAME, {"seats": 4}, Outcome((1,), (5, 9, 7, 7), "s"), seats)
    assert result["winners"] == [2, 3] and result["scores"] == [5, 9, 7, 7]
    seats[2].resigned = True
    assert result_of(GAME, {"seats": 4}, Outcome((1,), (5, 9, 7, 7), "s"), seats)["winners"] == [3]


class Pairs(Piratz):
    """Piratz as a team game, for the service's per-team results: seats 0+2 against 1+3."""

    def teams(self, state):
        return ((0, 2), (1, 3))


def test_result_of_names_the_whole_winning_team():
    outcome = Outcome((2,), (1, 5, 9, 2), "s", Termination.LAST_STANDING)
    result = result_of(Pairs(), {"seats": 4}, outcome, seats_for(4))
    assert result["winners"] == [0, 2] and result["reason"] == "last_standing"


def test_result_of_a_team_with_a_resigned_member_still_wins_without_them():
    seats = seats_for(4)
    seats[0].resigned = True
    assert result_of(Pairs(), {"seats": 4}, Outcome((2,), (1, 5, 9, 2), "s"), seats)["winners"] == [2]
    # a team whose members all resigned cannot win: the best team still standing does
    seats[2].resigned = True
    assert result_of(Pairs(), {"seats": 4}, Outcome((0, 2), (1, 5, 9, 2), "s"), seats)["winners"] == [1, 3]


def test_result_of_everyone_resigned():
    seats = seats_for(2)
    for s in seats:
        s.resigned = True
    assert result_of(GAME, {"seats": 2}, Outcome((0,), (3, 1), "s"), seats)["winners"] == []


async def test_resigned_seat_cannot_win_a_played_out_game(store):
    tables = tables_on(store, seed="resign-play")
    rng = random.Random(7)
    would_have_won = 0
    for _ in range(8):
        record = await new_game(tables, 3)
        await tables.play.resign(member(0), record.id)
        await play_to_end(tables, record.id, rng)  # the AI plays seat 0 on
        done = await store.games.load(record.id)
        assert done.status == "finished" and 0 not in done.result["winners"] and done.result["winners"]
        assert done.result == result_of(GAME, done.state, GAME.outcome(done.state), done.seats)
        assert done.state == await tables.reads.replay(record.id)
        would_have_won += 0 in GAME.outcome(done.state).winners
    assert would_have_won, "the rule was exercised: seat 0 topped the scores in some game"
    await tables.stop()


# ------------------------------------------------------------------------------------- resign / abandon


async def test_resign_one_of_three(tables, store):
    record = await new_game(tables, 3)
    after, ended = await tables.play.resign(member(1), record.id)
    assert ended is False and after.status == "active"
    stored = await store.games.load(record.id)
    assert [s.resigned for s in stored.seats] == [False, True, False] and stored.seats[1].is_ai
    assert stored.version == record.version
    with refused(GameError, match="already resigned"):
        await tables.play.resign(member(1), record.id)
    with pytest.raises(NotSeated):
        await tables.play.resign(member(4), record.id)
    # the resigned member may no longer act (the AI plays the seat now)
    with refused(NotSeated, match="resigned"):
        await tables.play.act(member(1), record.id, some_legal(stored))


async def test_resign_in_a_two_player_game_ends_it(tables, store):
    record = await new_game(tables, 2)
    after, ended = await tables.play.resign(member(0), record.id)
    assert ended is True and after.status == "finished"
    assert after.result["winners"] == [1] and after.result["reason"] == "resignation"
    # The summary names the player by seat, so that their name is shown escaped wherever it is read.
    assert localize(after.result["summary"]) == "{p0} resigned."
    stored = await store.games.load(record.id)
    assert stored.seats[0].resigned and stored.result == after.result
    assert await store.games.ids() == []
    with refused(GameError, match="is over"):
        await tables.play.act(member(1), record.id, some_legal(stored))
    with refused(GameError, match="already over"):
        await tables.play.resign(member(1), record.id)


async def test_resign_leaving_only_ai_seats_abandons(tables, store):
    record = await new_game(tables, 4, ai=2)
    assert (await tables.play.resign(member(0), record.id))[1] is False  # one member is still in
    after, ended = await tables.play.resign(member(1), record.id)
    assert ended is True and after.status == "abandoned" and after.result["winners"] == []


async def test_last_seat_standing_wins_even_if_ai(tables, store):
    record = await new_game(tables, 3, ai=1)
    await tables.play.resign(member(0), record.id)
    after, ended = await tables.play.resign(member(1), record.id)
    assert ended is True and after.status == "finished" and after.result["winners"] == [2]


async def test_abandon(tables, store):
    record = await new_game(tables, 3)
    seat, text = to_act(record), some_legal(record)
    await tables.play.act(member(seat), record.id, text)
    with refused(GameError, match="Only the game's host"):
        await tables.play.abandon(member(1), record.id)
    after = await tables.play.abandon(member(0), record.id)
    assert after.status == "abandoned"
    assert localize_tree(after.result) == {
        "winners": [],
        "scores": [],
        "summary": "Abandoned by Anne.",
        "reason": "abandoned",
    }
    stored = await store.games.load(record.id)
    assert stored.version == 2 and await store.games.ids(status="abandoned") == [record.id]
    assert await store.games.in_place(2) == []
    with refused(GameError, match="already over"):
        await tables.play.abandon(member(0), record.id)
    assert await store.games.actions(record.id) == [(1, seat, text)]
    moderator = member(3, moderator=True)  # a member with Manage Threads may abandon another game
    assert (await tables.play.abandon(moderator, (await new_game(tables, 2)).id)).status == "abandoned"


async def test_only_the_most_recently_used_games_stay_in_memory(store):
    tables = tables_on(store, seed="lru", cached_games=3)
    records = [await new_game(tables, 2) for _ in range(5)]
    await idle(tables)  # their AI looks read them all again: the order is settled once they are done
    assert len(tables.cache._records) == 3 and len(tables.play.locks) == 0  # no lock is kept for an idle game
    first = records[0]
    assert tables.cache.cached(first.id) is None
    again = await tables.cache.get(first.id)  # read from the store again, the same game
    assert again.id == first.id and again.state == first.state and again is not first
    await tables.play.act(mover(again), first.id, some_legal(again))
    await idle(tables)
    await new_game(tables, 2)  # one more: the least recently used goes, not the one just played
    await idle(tables)
    assert tables.cache.cached(first.id) is not None and len(tables.cache._records) == 3
    await tables.stop()


async def test_only_the_most_recently_seen_members_languages_stay_in_memory(store, monkeypatch):
    monkeypatch.setattr("tables.languages.LOCALES_KEPT", 2)
    languages = Languages(store, Clock())
    for i, locale in enumerate(("de", "en-US", "de")):
        await languages.seen(member(i, locale=locale))
    assert dict(languages._locales) == {USERS[1]: "en", USERS[2]: "de"}
    assert await languages.member(USERS[0]) == "de"  # forgotten here, read from the store again
    assert set(languages._locales) == {USERS[2], USERS[0]}
    assert await languages.member(USERS[3]) == "en"  # never seen: English


async def test_an_end_of_game_listener_is_called_once_for_each_way_a_game_ends(store):
    """Every ending goes through the one commit, which calls the end-of-game listeners in its transaction: the
    last move, a time-out that ends the game, a resignation that leaves one player, an abandon."""
    tables = tables_on(store)
    heard: list[tuple[int, str, str]] = []

    async def listener(db, ended):
        assert await db.games.load(ended.record.id) is not None  # inside the ending's transaction
        heard.append((ended.record.id, ended.record.status, ended.record.result["reason"]))
        return []

    tables.play.listeners.append(listener)

    async def play_until_the_end(record, *, time_out: bool):
        while record.status == "active":
            game, seat = game_of(record), to_act(record)
            chosen = GAMES[record.kind].player.choose(game, record.state, seat, game.rng(record.state))
            ends = game.is_over(game.apply(record.state, seat, chosen).state)
            if time_out and ends:  # the clock decides the move that ends the game
                return (await tables.play.time_out(record.id, seat, version=record.version)).record
            record = (await tables.play.act(mover(record), record.id, chosen.encode())).record
        return record

    try:
        last_move = await play_until_the_end(await new_game(tables, 2), time_out=False)
        timed_out = await play_until_the_end(await new_game(tables, 2, clock=120), time_out=True)
        resigned, over = await tables.play.resign(member(1), (await new_game(tables, 2)).id)
        abandoned = await tables.play.abandon(member(0), (await new_game(tables, 2)).id)
        assert over
        assert heard == [
            (last_move.id, "finished", "rules"),
            (timed_out.id, "finished", "rules"),
            (resigned.id, "finished", "resignation"),
            (abandoned.id, "abandoned", "abandoned"),
        ]
    finally:
        await tables.stop()
