"""The game service: creating games, checked actions, resignation, abandonment and replay from the log."""

from __future__ import annotations

import asyncio
import hashlib
import random

import pytest

from data.store import SeatRecord, Store
from games.core import Action, IllegalAction, Outcome, Termination, clone
from games.piratz import Piratz
from tables.service import (
    Applied,
    GameError,
    NotSeated,
    NotYourTurn,
    StaleBoard,
    Tables,
    result_of,
    seed_digest,
)

GAME = Piratz()
NAMES = ("Anne", "Bart", "Cleo", "Dirk")
USERS = (101, 102, 103, 104)


@pytest.fixture
async def store(store_target):
    s = await Store.open(store_target)
    yield s
    await s.close()


@pytest.fixture
def tables(store):
    return Tables(store, seed="test")


@pytest.fixture
async def two_processes(store_target):
    """Two stores on one database, as two bot processes have, each with its Tables (runners "first" and
    "second"): the first seeded "p". Yields ``(store1, store2, tables1, tables2)``."""
    store1, store2 = await Store.open(store_target), await Store.open(store_target)
    yield store1, store2, Tables(store1, seed="p", runner="first"), Tables(store2, runner="second")
    await store1.close()
    await store2.close()


def seats_for(n: int, ai: tuple[int, ...] = ()) -> list[SeatRecord]:
    return [SeatRecord(i, NAMES[i], None if i in ai else USERS[i]) for i in range(n)]


async def new_game(tables: Tables, n: int = 2, *, ai: tuple[int, ...] = (), **kw):
    args = {"options": {}, "guild_id": 1, "channel_id": 2, "host_id": USERS[0], "now": 10.0}
    args.update(kw)
    return await tables.create("piratz", seats=seats_for(n, ai), **args)


def to_act(record) -> int:
    (seat,) = GAME.to_act(record.state)
    return seat


def some_legal(record) -> str:
    return GAME.legal_actions(record.state, to_act(record))[0].encode()


async def snapshot(store: Store, game_id: int):
    record = await store.load_game(game_id)
    return record.version, record.status, record.state, await store.actions(game_id)


# ---------------------------------------------------------------------------------------------- create


@pytest.mark.parametrize("n", [2, 3, 4])
async def test_create_game(tables, store, n):
    record = await new_game(tables, n, channel_id=77)
    assert record.kind == "piratz"
    assert record.status == "active"
    assert record.version == 0
    assert record.channel_id == 77
    assert record.names == list(NAMES[:n])
    assert [s.user_id for s in record.seats] == list(USERS[:n])
    assert record.state == GAME.new_game(n, {}, record.seed)
    assert record.options == {"blind": False}  # resolved options are stored
    assert await store.load_game(record.id) == record
    assert await store.game_ids() == [record.id]


async def test_create_with_ai_seat_and_options(tables, store):
    record = await new_game(tables, 3, ai=(1,), options={"blind": True})
    assert [s.is_ai for s in record.seats] == [False, True, False]
    assert record.options == {"blind": True}
    assert record.state["options"] == {"blind": True}
    assert (await store.load_game(record.id)).seats[1].user_id is None


@pytest.mark.parametrize(("n", "options"), [(1, {}), (5, {}), (2, {"bogus": 1})])
async def test_create_refuses_bad_tables(tables, store, n, options):
    with pytest.raises(GameError) as info:
        await tables.create(
            "piratz",
            seats=[SeatRecord(i, f"P{i}", 200 + i) for i in range(n)],
            options=options,
            guild_id=1,
            channel_id=2,
            host_id=USERS[0],
            now=1.0,
        )
    assert type(info.value) is GameError
    with pytest.raises(IllegalAction) as engine:
        GAME.new_game(n, options, "x")
    assert str(info.value) == str(engine.value)
    assert await store.game_ids() == []


async def test_seeds_follow_the_configured_seed(store):
    tables = Tables(store, seed="x")
    first = await new_game(tables)
    second = await new_game(tables, 3)
    explicit = await new_game(tables, seed="mine")
    third = await new_game(tables)
    assert [first.seed, second.seed, explicit.seed, third.seed] == ["x", "x-2", "mine", "x-3"]
    assert first.state == GAME.new_game(2, {}, "x")
    assert second.state == GAME.new_game(3, {}, "x-2")
    assert (await store.load_game(second.id)).seed == "x-2"


async def test_unseeded_tables_use_fresh_random_seeds(store):
    tables = Tables(store)
    seeds = {(await new_game(tables)).seed for _ in range(3)}
    assert len(seeds) == 3
    assert all(len(s) == 32 and int(s, 16) >= 0 for s in seeds)


def test_seed_digest_is_sha256_hex():
    assert seed_digest("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    assert seed_digest("x-2") == hashlib.sha256(b"x-2").hexdigest()
    assert seed_digest("a") != seed_digest("b")


# ---------------------------------------------------------------------------------------------- act


async def test_act_as_the_right_user(tables, store):
    record = await new_game(tables, 3)
    seat = to_act(record)
    before = clone(record.state)
    text = some_legal(record)
    applied = await tables.act(record.id, text.upper(), now=20.0, user_id=USERS[seat], version=0)
    assert isinstance(applied, Applied)
    assert applied.seat == seat
    assert applied.action == Action.decode(text)
    assert GAME.to_act(before) == (seat,)
    assert applied.record.version == 1
    assert applied.record.status == "active"
    assert applied.events  # the engine's events are passed on
    expected = GAME.apply(before, seat, text).state
    assert applied.record.state == expected
    stored = await store.load_game(record.id)
    assert (stored.version, stored.state) == (1, expected)
    assert await store.actions(record.id) == [(1, seat, text)]  # the normalised action text


async def test_act_by_seat_for_an_ai(tables, store):
    record = await new_game(tables, 2, ai=(0, 1))
    seat = to_act(record)
    applied = await tables.act(record.id, some_legal(record), now=20.0, seat=seat)
    assert applied.seat == seat
    assert (await store.load_game(record.id)).version == 1


async def test_act_by_a_user_not_seated(tables, store):
    record = await new_game(tables, 2)
    before = await snapshot(store, record.id)
    with pytest.raises(NotSeated, match="not playing in Piratz #"):
        await tables.act(record.id, some_legal(record), now=20.0, user_id=999)
    assert await snapshot(store, record.id) == before


async def test_act_on_a_missing_game(tables):
    with pytest.raises(GameError, match="no game #404"):
        await tables.act(404, "reveal", now=1.0, user_id=USERS[0])


@pytest.mark.parametrize("n", [2, 4])
async def test_act_out_of_turn_names_who_is_awaited(tables, store, n):
    record = await new_game(tables, n)
    seat = to_act(record)
    other = (seat + 1) % n
    before = await snapshot(store, record.id)
    for kwargs in ({"user_id": USERS[other]}, {"seat": other}):
        with pytest.raises(NotYourTurn) as info:
            await tables.act(record.id, some_legal(record), now=20.0, **kwargs)
        assert NAMES[seat] in str(info.value)
        assert NAMES[other] not in str(info.value)
    assert await snapshot(store, record.id) == before


async def test_act_on_a_stale_board(tables, store):
    record = await new_game(tables, 2)
    seat = to_act(record)
    await tables.act(record.id, some_legal(record), now=20.0, user_id=USERS[seat], version=0)
    record = await tables.get(record.id)
    before = await snapshot(store, record.id)
    cached = clone(record.state)
    for version in (0, 2, 7):
        with pytest.raises(StaleBoard):
            await tables.act(record.id, some_legal(record), now=21.0, user_id=USERS[to_act(record)], version=version)
    assert await snapshot(store, record.id) == before
    assert (await tables.get(record.id)).state == cached
    # the current version works
    await tables.act(record.id, some_legal(record), now=22.0, user_id=USERS[to_act(record)], version=1)
    assert (await store.load_game(record.id)).version == 2


@pytest.mark.parametrize("text", ["dig", "end", "take 3", "bury 1", "pass gold", "", "reveal " + "x" * 60])
async def test_illegal_action_reports_the_engine_message(tables, store, text):
    record = await new_game(tables, 3)
    seat = to_act(record)
    with pytest.raises(IllegalAction) as engine:
        GAME.apply(clone(record.state), seat, text)
    before = await snapshot(store, record.id)
    cached = clone(record.state)
    with pytest.raises(GameError) as info:
        await tables.act(record.id, text, now=20.0, user_id=USERS[seat], version=0)
    assert type(info.value) is GameError
    assert str(info.value) == str(engine.value)
    assert str(info.value)
    assert await snapshot(store, record.id) == before
    assert (await tables.get(record.id)).state == cached
    assert (await tables.get(record.id)).version == 0


async def test_concurrent_acts_on_the_same_version_apply_once(tables, store):
    record = await new_game(tables, 2)
    seat = to_act(record)
    text = some_legal(record)
    results = await asyncio.gather(
        *(tables.act(record.id, text, now=20.0, user_id=USERS[seat], version=0) for _ in range(3)),
        return_exceptions=True,
    )
    applied = [r for r in results if isinstance(r, Applied)]
    stale = [r for r in results if isinstance(r, StaleBoard)]
    assert len(applied) == 1 and len(stale) == 2
    version, _, state, log = await snapshot(store, record.id)
    assert version == 1
    assert log == [(1, seat, text)]
    assert state == GAME.apply(GAME.new_game(2, {}, record.seed), seat, text).state


async def test_a_second_process_moving_the_game_makes_the_cache_stale(two_processes):
    store1, store2, tables1, tables2 = two_processes
    record = await new_game(tables1, 2)
    seat = to_act(record)
    text = some_legal(record)
    await tables2.act(record.id, text, now=20.0, user_id=USERS[seat])  # the other process acts first
    # The same click reaching the first process: on a shared store it sees the newer revision and calls
    # the board out of date; otherwise the store's version check refuses the commit.
    with pytest.raises(StaleBoard, match="out of date" if store1.shared else "moved on"):
        await tables1.act(record.id, text, now=21.0, user_id=USERS[seat], version=0)
    assert await store1.actions(record.id) == [(1, seat, text)]
    # the cache was dropped: the next attempt sees the real board
    fresh = await tables1.get(record.id)
    assert fresh.version == 1
    next_seat = to_act(fresh)
    await tables1.act(record.id, some_legal(fresh), now=22.0, user_id=USERS[next_seat], version=1)
    assert (await store2.load_game(record.id)).version == 2


async def test_a_refused_commit_does_not_lose_another_games_action(two_processes):
    store1, _, tables1, tables2 = two_processes
    a = await new_game(tables1, 2)
    b = await new_game(tables1, 2)
    await tables2.act(a.id, some_legal(a), now=20.0, user_id=USERS[to_act(a)])  # A's cache in tables1 is stale
    b_text, b_seat = some_legal(b), to_act(b)
    stale, applied = await asyncio.gather(
        tables1.act(a.id, some_legal(a), now=21.0, user_id=USERS[to_act(a)], version=0),
        tables1.act(b.id, b_text, now=21.0, seat=b_seat, version=0),
        return_exceptions=True,
    )
    assert isinstance(stale, StaleBoard)
    assert isinstance(applied, Applied)
    stored = await store1.load_game(b.id)
    assert stored.version == 1
    assert stored.state == applied.record.state
    assert await store1.actions(b.id) == [(1, b_seat, b_text)]


async def test_a_process_reads_what_another_process_wrote(two_processes):
    store1, _, tables1, tables2 = two_processes
    if not store1.shared:
        pytest.skip("one process owns an SQLite file: its cache is the truth")
    record = await new_game(tables1, 2)
    await tables2.act(record.id, some_legal(record), now=20.0, user_id=USERS[to_act(record)])
    assert (await tables1.get(record.id)).version == 1  # no failed commit needed to notice
    await tables2.substitute(record.id, 1, user_id=999, name="Zed")
    assert (await tables1.get(record.id)).seats[1].name == "Zed"
    await tables2.set_place(record.id, message_id=77)
    assert (await tables1.get(record.id)).message_id == 77
    cached = await tables1.get(record.id)
    assert await tables1.get(record.id) is cached  # unchanged: the cached copy serves


async def test_the_process_that_creates_a_game_runs_it(two_processes):
    _, _, tables1, tables2 = two_processes
    record = await new_game(tables1, 2, ai=(0, 1))
    assert record.runner == "first" and record.runner_until == 10.0 + tables1.lease
    assert tables1.runs(record, 11.0) and not tables2.runs(record, 11.0)
    # The other process can neither move for an AI seat nor time a decision out meanwhile.
    with pytest.raises(StaleBoard):
        await tables2.act(record.id, some_legal(record), now=11.0, seat=to_act(record))
    assert await tables2.time_out(record.id, to_act(record), version=0, now=11.0) is None
    assert (await tables2.get(record.id)).version == 0
    # Once the lease ran out (its process died), it can.
    applied = await tables2.act(record.id, some_legal(record), now=10.0 + tables1.lease + 1, seat=to_act(record))
    assert applied.record.runner == "second"


async def test_a_members_action_hands_the_game_to_the_process_that_applied_it(two_processes):
    store1, _, tables1, tables2 = two_processes
    record = await new_game(tables1, 2)
    applied = await tables2.act(record.id, some_legal(record), now=20.0, user_id=USERS[to_act(record)])
    assert (applied.record.runner, applied.record.runner_until) == ("second", 20.0 + tables2.lease)
    stored = await store1.load_game(record.id)
    assert (stored.runner, stored.runner_until) == ("second", 20.0 + tables2.lease)
    assert not tables1.runs(stored, 21.0)


async def test_leases_are_renewed_claimed_once_run_out_and_released(two_processes):
    store1, store2, tables1, _ = two_processes
    first = await new_game(tables1, 2)
    second = await new_game(tables1, 2)
    assert await store1.renew_leases("first", until=100.0) == [first.id, second.id]
    assert not await store2.claim_game(first.id, "second", until=150.0, now=99.0)  # still held
    assert await store2.unleased_games(now=99.0) == []
    assert await store2.unleased_games(now=101.0) == [(first.id, 1, 100.0), (second.id, 1, 100.0)]
    assert await store2.claim_game(first.id, "second", until=150.0, now=101.0)  # ran out: taken over
    assert await store1.renew_leases("first", until=200.0) == [second.id]  # the first runs only the other now
    assert await store1.release_leases("first") == 1
    assert await store2.unleased_games(now=0.5) == [(second.id, 1, 0.0)]
    assert await tables1.abandon(second.id, by="test", now=1.0)
    assert await store2.unleased_games(now=1000.0) == [(first.id, 1, 150.0)]  # only active games


async def play_to_end(tables: Tables, game_id: int, rng: random.Random, *, now: float = 100.0) -> int:
    record = await tables.get(game_id)
    moves = 0
    while record.status == "active":
        seat = to_act(record)
        action = rng.choice(GAME.legal_actions(record.state, seat))
        applied = await tables.act(game_id, action.encode(), now=now + moves, seat=seat, version=record.version)
        record = applied.record
        moves += 1
    return moves


async def test_acting_on_a_finished_game(tables, store):
    record = await new_game(tables, 2)
    await play_to_end(tables, record.id, random.Random(3))
    record = await store.load_game(record.id)
    assert record.status == "finished"
    with pytest.raises(GameError, match="is over"):
        await tables.act(record.id, "reveal", now=1.0, user_id=USERS[0])
    assert await store.load_game(record.id) == record


async def test_replay_matches_the_snapshot_after_random_games(store):
    tables = Tables(store, seed="replay")
    rng = random.Random(2024)
    ids = []
    for i in range(50):
        n = 2 + i % 3
        ai = (n - 1,) if i % 4 == 0 else ()
        record = await new_game(tables, n, ai=ai, options={"blind": i % 5 == 0})
        moves = await play_to_end(tables, record.id, rng)
        assert moves > 0
        ids.append(record.id)
    fresh = Tables(store)  # no cache: reads everything from the database
    for game_id in ids:
        record = await store.load_game(game_id)
        assert record.status == "finished"
        log = await store.actions(game_id)
        assert [seq for seq, _, _ in log] == list(range(1, record.version + 1))
        replayed = await tables.replay(game_id)
        assert record.state == replayed
        assert await fresh.replay(game_id) == replayed
        assert record.result == result_of(GAME, record.state, GAME.outcome(record.state), record.seats)
        assert record.result["winners"]


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
    assert result["winners"] == [2, 3]
    assert result["scores"] == [5, 9, 7, 7]
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
    tables = Tables(store, seed="resign-play")
    rng = random.Random(7)
    would_have_won = 0
    for _ in range(8):
        record = await new_game(tables, 3)
        await tables.resign(record.id, USERS[0], now=11.0)
        await play_to_end(tables, record.id, rng)  # the AI plays seat 0 on (here: random moves)
        done = await store.load_game(record.id)
        assert done.status == "finished"
        assert 0 not in done.result["winners"]
        assert done.result["winners"]
        assert done.result == result_of(GAME, done.state, GAME.outcome(done.state), done.seats)
        assert done.state == await tables.replay(record.id)
        would_have_won += 0 in GAME.outcome(done.state).winners
    assert would_have_won, "the rule was exercised: seat 0 topped the scores in some game"


# ------------------------------------------------------------------------------------- resign / abandon


async def test_resign_one_of_three(tables, store):
    record = await new_game(tables, 3)
    version = record.version
    after, ended = await tables.resign(record.id, USERS[1], now=30.0)
    assert ended is False
    assert after.status == "active"
    stored = await store.load_game(record.id)
    assert stored.status == "active"
    assert [s.resigned for s in stored.seats] == [False, True, False]
    assert stored.seats[1].is_ai
    assert stored.version == version
    with pytest.raises(GameError, match="already resigned"):
        await tables.resign(record.id, USERS[1], now=31.0)
    with pytest.raises(NotSeated):
        await tables.resign(record.id, 999, now=31.0)
    # the resigned user may no longer act (the AI plays the seat now)
    with pytest.raises(NotSeated, match="resigned"):
        await tables.act(record.id, some_legal(stored), now=32.0, user_id=USERS[1])


async def test_resign_in_a_two_player_game_ends_it(tables, store):
    record = await new_game(tables, 2)
    after, ended = await tables.resign(record.id, USERS[0], now=30.0)
    assert ended is True
    assert after.status == "finished"
    assert after.result["winners"] == [1]
    assert "Anne resigned" in after.result["summary"]
    stored = await store.load_game(record.id)
    assert stored.status == "finished"
    assert stored.result["winners"] == [1]
    assert stored.seats[0].resigned
    assert await store.game_ids() == []
    with pytest.raises(GameError, match="is over"):
        await tables.act(record.id, some_legal(stored), now=31.0, user_id=USERS[1])
    with pytest.raises(GameError, match="already over"):
        await tables.resign(record.id, USERS[1], now=31.0)


async def test_resign_leaving_only_ai_seats_abandons(tables, store):
    record = await new_game(tables, 4, ai=(2, 3))
    _, ended = await tables.resign(record.id, USERS[0], now=30.0)
    assert ended is False  # one human is still in
    after, ended = await tables.resign(record.id, USERS[1], now=31.0)
    assert ended is True
    assert after.status == "abandoned"
    assert after.result["winners"] == []
    assert (await store.load_game(record.id)).status == "abandoned"


async def test_last_seat_standing_wins_even_if_ai(tables, store):
    record = await new_game(tables, 3, ai=(2,))
    await tables.resign(record.id, USERS[0], now=30.0)
    after, ended = await tables.resign(record.id, USERS[1], now=31.0)
    assert ended is True
    assert after.status == "finished"
    assert after.result["winners"] == [2]


async def test_abandon(tables, store):
    record = await new_game(tables, 3)
    seat = to_act(record)
    text = some_legal(record)
    await tables.act(record.id, text, now=20.0, seat=seat)
    after = await tables.abandon(record.id, by="Anne", now=40.0)
    assert after.status == "abandoned"
    assert after.result == {"winners": [], "scores": [], "summary": "Abandoned by Anne.", "reason": "abandoned"}
    stored = await store.load_game(record.id)
    assert stored.status == "abandoned"
    assert stored.version == 2
    assert await store.game_ids(status="abandoned") == [record.id]
    assert await store.games_in_place(2) == []
    with pytest.raises(GameError, match="already over"):
        await tables.abandon(record.id, by="Bart", now=41.0)
    with pytest.raises(GameError, match="is over"):
        await tables.act(record.id, "reveal", now=42.0, seat=0)
    assert await store.actions(record.id) == [(1, seat, text)]


async def test_only_the_most_recently_used_games_stay_in_memory(store):
    tables = Tables(store, seed="lru", cached=3)
    records = [await new_game(tables, 2) for _ in range(5)]
    assert len(tables._cache) == 3 and len(tables.locks) == 0  # no lock is kept for an idle game
    first = records[0]
    again = await tables.get(first.id)  # read from the store again, the same game
    assert again.id == first.id and again.state == first.state and again is not first
    seat = to_act(again)
    await tables.act(first.id, some_legal(again), now=20.0, seat=seat)
    assert list(tables._cache)[-1] == first.id and len(tables._cache) == 3
