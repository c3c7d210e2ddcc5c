"""The store, on SQLite and on PostgreSQL (``store_target``, tests/postgres.py): schema migrations, pragmas,
games with their seats and action log, lobbies, users."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from typing import Any

import pytest

import data.store as store_module
from data.engine import Conflict, is_postgres
from data.games import Commit
from data.migrations import MIGRATIONS
from data.outbox import Owed
from data.postgres import placeholders, schema_script
from data.rows import dumps, loads
from data.store import LobbyRecord, SeatRecord, Store
from tests.support import sqlite_trips

TABLES = {"games", "seats", "actions", "lobbies", "users"}


async def new_game(store: Store, *, channel_id: int = 10, users=(1, 2), seed: str = "seed", **kw) -> int:
    seats = [SeatRecord(i, f"P{i}", uid) for i, uid in enumerate(users)]
    args = {
        "kind": "piratz",
        "guild_id": 5,
        "channel_id": channel_id,
        "host_id": users[0] or 1,
        "seats": seats,
        "seed": seed,
        "options": {"blind": False},
        "state": {"step": 0, "board": [1, 2, 3]},
        "now": 100.0,
    }
    args.update(kw)
    return await store.games.create(**args)


async def new_lobby(store: Store, **kw) -> int:
    args = {
        "kind": "piratz",
        "mode": "challenge",
        "guild_id": 5,
        "channel_id": 10,
        "host_id": 1,
        "invitees": [2, 3],
        "accepted": [1],
        "ai": 1,
        "options": {"blind": True},
        "names": {"1": "Anne", "2": "Bart"},
        "expires_at": 1234.5,
        "status": "open",
        "message_id": None,
    }
    args.update(kw)
    lobby_id = await store.lobbies.create(LobbyRecord(id=0, **args))
    assert lobby_id is not None
    return lobby_id


async def commit(store: Store, game_id: int, expected: int, **kw) -> int | None:
    """One action committed over version ``expected`` (``seat``, ``action``, ``state``, ``status``, ``result``,
    ``presence``, ``member`` for the step; ``now``, ``runner``, ``lease_until``, ``take_over`` for the write)."""
    step = {"actions": [(kw.pop("seat", 0), kw.pop("action", "reveal"))], "state": {"step": expected + 1}}
    step |= {k: kw.pop(k) for k in ("state", "status", "result", "presence", "member") if k in kw}
    try:
        async with store.transaction() as db:
            stored = db.games.commit(
                game_id, expected_version=expected, step=Commit(**step), now=kw.pop("now", 200.0 + expected), **kw
            )
    except Conflict:
        return None
    return stored.rows[0]["revision"]


async def table_names(store: Store, target: str) -> set[str]:
    if is_postgres(target):
        sql = "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
    else:
        sql = "SELECT name FROM sqlite_master WHERE type = 'table'"
    return {r[0] for r in await store._db.fetchall(sql)}


# ---------------------------------------------------------------------------------------------- schema


async def test_schema_version_is_the_number_of_migrations(store_target):
    store = await Store.open(store_target)
    try:
        assert await store.schema_version() == len(MIGRATIONS) >= 1
        assert await table_names(store, store_target) >= TABLES
    finally:
        await store.close()


async def test_missing_folders_of_the_database_file_are_created(tmp_path):
    path = tmp_path / "sub" / "dir" / "bot.db"
    store = await Store.open(path)
    await store.close()
    with sqlite3.connect(path) as db:
        assert {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")} >= TABLES


async def test_sqlite_statements_leave_no_cursor_to_the_event_loops_thread(tmp_path):
    # A cursor freed on the event loop's thread resets its statement there while the connection's thread
    # runs another: SQLite then fails writes at random ("bad parameter or other API misuse", CPython
    # gh-118172; it cost a Sewer Pirats action in a bench burst). Many writes interleaved on one connection
    # must all succeed; leaking cursors, about one in 300 of these failed.
    import aiosqlite

    from data.sqlite import SqliteTransaction

    conn = await aiosqlite.connect(tmp_path / "cursors.db")
    try:
        await conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, x INTEGER)")
        tx = SqliteTransaction(conn)
        await tx.executemany("INSERT INTO t VALUES (?, ?)", [(i, 0) for i in range(8)])

        async def writes(row: int) -> int:
            for n in range(1500):
                assert await tx.execute("UPDATE t SET x = ? WHERE id = ?", (n, row)) == 1
                await tx.executemany("UPDATE t SET x = x + 1 WHERE id = ?", [(row,), ((row + 1) % 8,)])
            return row

        assert await asyncio.gather(*(writes(row) for row in range(8))) == list(range(8))
        assert await tx.insert("INSERT INTO t (x) VALUES (?)", (1,)) == 8
    finally:
        await conn.close()


async def test_reopening_applies_no_migration_twice(store_target):
    path = store_target
    store = await Store.open(path)
    game_id = await new_game(store)
    await store.close()
    # Re-running the first script would fail with "table games already exists" (or wipe data).
    for _ in range(2):
        store = await Store.open(path)
        assert await store.schema_version() == len(MIGRATIONS)
        assert (await store.games.load(game_id)) is not None
        await store.close()


async def test_only_new_migrations_run_on_an_existing_database(store_target, monkeypatch):
    store = await Store.open(store_target)
    game_id = await new_game(store)
    await store.close()

    extra = "CREATE TABLE extra (x INTEGER); INSERT INTO extra (x) VALUES (7);"
    monkeypatch.setattr(store_module, "MIGRATIONS", (*MIGRATIONS, extra))
    for _ in range(2):
        store = await Store.open(store_target)
        assert await store.schema_version() == len(MIGRATIONS) + 1
        await store.close()
    store = await Store.open(store_target)
    try:
        # Ran exactly once: a second run would fail on CREATE or insert a second row.
        assert [tuple(r) for r in await store._db.fetchall("SELECT x FROM extra")] == [(7,)]
        assert [tuple(r) for r in await store._db.fetchall("SELECT id FROM games")] == [(game_id,)]
    finally:
        await store.close()


async def test_processes_starting_together_on_postgresql_migrate_once(postgres_url):
    # Shard processes start at the same moment on a new database: an advisory lock makes them take turns,
    # so one runs the migrations and the others find them done.
    stores = await asyncio.gather(*(Store.open(postgres_url) for _ in range(3)))
    try:
        assert [await s.schema_version() for s in stores] == [len(MIGRATIONS)] * 3
        game_id = await new_game(stores[0])
        assert (await stores[1].games.load(game_id)).id == game_id
    finally:
        for s in stores:
            await s.close()


async def test_a_postgresql_connection_goes_back_to_the_pool_without_a_reset_unless_inside_a_transaction(
    postgres_url,
):
    """asyncpg's reset (advisory locks, cursors, listeners, settings: four statements, one round trip) ran
    after every pooled statement; the store leaves none of those behind, so a connection goes back as it
    is. One given back inside a transaction is still reset: rolled back, and nothing it wrote stays."""
    store = await Store.open(postgres_url)
    pool = store._db._pool
    try:
        game = await new_game(store)
        async with pool.acquire() as conn:
            seen: list[str] = []
            conn.add_query_logger(lambda record: seen.append(record.query))
            await conn.fetchval("SELECT 1")
        assert seen == ["SELECT 1"]
        async with pool.acquire() as conn:
            await conn.execute("BEGIN")
            await conn.execute("UPDATE games SET host_id = 9 WHERE id = $1", game)
            conn.add_query_logger(lambda record: seen.append(record.query))
        assert any("ROLLBACK" in query for query in seen[1:])
        assert (await store.games.load(game)).host_id != 9
        async with pool.acquire() as conn:
            assert not conn.is_in_transaction()
    finally:
        await store.close()


async def test_a_postgresql_pool_keeps_its_connections_and_statements_without_a_timer_for_each(
    postgres_url, monkeypatch
):
    """asyncpg by default closes a pooled connection idle for five minutes and forgets a prepared statement
    five minutes after preparing it, each by a timer on the event loop (one per connection given back, one
    per statement per connection: ~250 in a busy bot). The pool keeps both: after a lull, the next actions
    neither connect nor prepare again, and no query leaves a timer behind."""
    store = await Store.open(postgres_url)
    loop = asyncio.get_running_loop()
    timers: list[str] = []
    call_later = loop.call_later

    def recording(delay: float, callback: Any, *args: Any, **kwargs: Any) -> asyncio.TimerHandle:
        timers.append(getattr(callback, "__qualname__", repr(callback)))
        return call_later(delay, callback, *args, **kwargs)

    monkeypatch.setattr(loop, "call_later", recording)
    try:
        game = await new_game(store)
        for _ in range(3):
            assert (await store.games.load(game)).id == game
        async with store._db.transaction() as writer:
            await writer.execute("UPDATE games SET host_id = host_id WHERE id = ?", (game,))
        assert store._db._pool.get_size() >= 1
        assert [name for name in timers if "_StatementCache" in name or "inactive" in name] == []
    finally:
        monkeypatch.undo()
        await store.close()


async def test_pragmas_wal_synchronous_normal_foreign_keys(tmp_path):
    store = await Store.open(tmp_path / "bot.db")
    try:
        async with store._db.transaction() as writer:  # the pragmas of the connection that writes
            assert (await writer.fetchone("PRAGMA journal_mode"))[0].lower() == "wal"
            assert (await writer.fetchone("PRAGMA synchronous"))[0] == 1  # NORMAL
            assert (await writer.fetchone("PRAGMA foreign_keys"))[0] == 1
        # Reads outside a transaction have a connection of their own, which cannot write.
        assert (await store._db.fetchone("PRAGMA query_only"))[0] == 1
    finally:
        await store.close()
    # WAL is a property of the file: another connection sees it too.
    with sqlite3.connect(tmp_path / "bot.db") as other:
        assert other.execute("PRAGMA journal_mode").fetchone()[0].lower() == "wal"


async def test_the_wal_is_copied_back_beside_the_writer_every_few_transactions(tmp_path, monkeypatch):
    import data.sqlite as sqlite_module

    monkeypatch.setattr(sqlite_module, "CHECKPOINT_EVERY", 4)
    path = tmp_path / "bot.db"
    store = await Store.open(path)
    db = store._db
    try:
        async with db.transaction() as writer:  # the writer never checkpoints in a commit of its own
            assert (await writer.fetchone("PRAGMA wal_autocheckpoint"))[0] == 0
        await asyncio.sleep(0)
        size = path.stat().st_size
        big = {"cards": "x" * 2_000_000}  # 2 MB each: past the 1,000 pages at which SQLite would copy back
        for n in range(2):
            await new_game(store, state=big, seed=f"big-{n}")
        assert db._checkpoint is None
        assert path.stat().st_size == size  # the games are in the WAL only
        await new_game(store, state=big, seed="big-2")  # the fourth write transaction since opening
        assert db._checkpoint is not None
        await db._checkpoint
        assert path.stat().st_size > 6_000_000  # the three games are in the database file now
        assert [(await store.games.load(n)).state == big for n in (1, 2, 3)] == [True] * 3
    finally:
        await store.close()


async def test_a_write_of_its_own_is_one_trip_with_its_commit(tmp_path):
    """On SQLite a write outside a transaction (a delivered row settled, a lobby's message recorded) runs
    with its commit in one call on the connection's thread, so it holds the write lock for that call only;
    one that fails leaves no transaction open behind it."""
    store = await Store.open(tmp_path / "bot.db")
    try:
        game = await new_game(store)
        (entry,) = await store.outbox.add([Owed(f"game:{game}", "post", {"n": 1})], now=1.0)
        conn = store._db._conn
        with sqlite_trips(conn) as calls:
            assert await store.outbox.settle(entry, "done", "99", now=2.0)
        assert calls == ["_each_committed"]
        assert await store.outbox.result(entry) == "99"
        with pytest.raises(sqlite3.IntegrityError):
            await store._db.execute(
                "INSERT INTO seats (game_id, seat, name, user_id) VALUES (?, 0, 'again', 1)", (game,)
            )
        assert not conn.in_transaction
        assert not await store.outbox.settle(entry, "done", "99", now=3.0)  # the connection goes on writing
        assert await store.seats.follow(game, 7, True)
        assert await store.seats.followers(game) == [7]
    finally:
        await store.close()


async def test_writes_of_their_own_that_wait_for_the_lock_go_in_one_trip_each_committed_alone(tmp_path):
    """Group commit: writes of their own that come while a transaction holds the write lock go together
    in one trip once it is free, each with its own commit and row count (or rows read back); one that
    fails fails alone, and its caller alone hears of it."""
    store = await Store.open(tmp_path / "bot.db")
    try:
        game = await new_game(store)
        rows = await store.outbox.add([Owed(f"game:{game}", "post", {"n": n}) for n in range(6)], now=1.0)
        conn, db = store._db._conn, store._db
        failing = "INSERT INTO seats (game_id, seat, name, user_id) VALUES (?, 0, 'again', 1)"
        with sqlite_trips(conn) as calls:
            async with db.transaction() as writer:
                waiting = [asyncio.create_task(store.outbox.settle(row, "done", str(row), now=2.0)) for row in rows[:3]]
                waiting.append(asyncio.create_task(db.execute(failing, (game,))))
                waiting += [
                    asyncio.create_task(store.outbox.settle(row, "done", str(row), now=2.0)) for row in rows[3:]
                ]
                waiting.append(asyncio.create_task(store.outbox.settle(rows[0], "failed", "twice", now=2.0)))
                waiting.append(asyncio.create_task(store.games.set_place(game, message_id=77)))  # read back
                await asyncio.sleep(0.01)
                assert not any(task.done() for task in waiting)  # they wait for the lock
                await writer.execute("UPDATE games SET host_id = 5 WHERE id = ?", (game,))
            settled = await asyncio.gather(*waiting, return_exceptions=True)
        assert calls.count("_each_committed") == 1  # one trip for the eight writes
        assert settled[:3] == [True] * 3 and settled[4:7] == [True] * 3
        assert isinstance(settled[3], sqlite3.IntegrityError)
        assert settled[7] is False  # the row was settled already, by a write before it in the same trip
        assert [await store.outbox.result(row) for row in rows] == [str(row) for row in rows]
        assert not conn.in_transaction
        loaded = await store.games.load(game)
        assert (loaded.host_id, loaded.message_id, loaded.revision) == (5, 77, settled[8])
    finally:
        await store.close()


async def test_a_commit_whose_check_fails_leaves_no_transaction_open_for_the_one_behind_it(tmp_path):
    """On SQLite's one writing connection, a transaction whose commit's trip fails at its check (the game
    moved on) is rolled back before the transaction waiting behind it runs: that one commits alone, and
    nothing of the failed one stands, not even its writes before the check."""
    store = await Store.open(tmp_path / "bot.db")
    try:
        game = await new_game(store)
        conn = store._db._conn

        async def stale() -> None:
            async with store.transaction() as db:
                db.seats._q.defer("UPDATE seats SET acted_at = 6.0 WHERE game_id = ?", (game,))
                db.games.commit(game, expected_version=4, step=Commit([(0, "reveal")], {"stale": True}), now=9.0)

        async def host() -> None:
            async with store.transaction() as db:
                db.games._q.defer("UPDATE games SET host_id = 9 WHERE id = ?", (game,))

        failed, done = await asyncio.gather(stale(), host(), return_exceptions=True)
        assert isinstance(failed, Conflict) and done is None
        loaded = await store.games.load(game)
        assert loaded.host_id == 9 and loaded.state == {"step": 0, "board": [1, 2, 3]}
        assert {seat.acted_at for seat in loaded.seats} == {None}
        assert not conn.in_transaction
    finally:
        await store.close()


async def test_a_transaction_holds_the_write_lock_until_it_ends_and_its_rollback_undoes_only_its_own(tmp_path):
    """A transaction that has begun writing on SQLite's one connection holds the write lock until it ends:
    another that comes meanwhile waits rather than joining its open transaction, and the first one's
    rollback leaves the second's write standing."""
    store = await Store.open(tmp_path / "bot.db")
    try:
        game = await new_game(store)

        async def host() -> None:
            async with store.transaction() as db:
                db.games._q.defer("UPDATE games SET host_id = 9 WHERE id = ?", (game,))

        waiting = None
        with pytest.raises(RuntimeError, match="changed its mind"):
            async with store.transaction() as db:
                await db.games._q.execute("UPDATE seats SET acted_at = 6.0 WHERE game_id = ?", (game,))
                waiting = asyncio.create_task(host())
                await asyncio.sleep(0.05)
                assert not waiting.done()  # it waits for the lock
                raise RuntimeError("changed its mind")
        await waiting
        loaded = await store.games.load(game)
        assert loaded.host_id == 9 and {seat.acted_at for seat in loaded.seats} == {None}
        assert not store._db._conn.in_transaction
    finally:
        await store.close()


async def test_a_write_read_back_after_the_commit_goes_with_it(store):
    """``Transaction.later``: the write runs with the transaction's next trip, here its commit, and its rows
    are there once the block has ended; before, they are not."""
    game = await new_game(store)
    async with store.transaction() as db:
        written = db.games._q.later("UPDATE games SET revision = revision + 1 WHERE id = ? RETURNING revision", (game,))
        with pytest.raises(RuntimeError, match="has not run"):
            written.rows  # noqa: B018
    (row,) = written.rows
    loaded = await store.games.load(game)
    assert loaded is not None and row["revision"] == loaded.revision


async def test_a_failing_write_read_back_later_rolls_its_transaction_back(store):
    game = await new_game(store)
    with pytest.raises(Exception, match=r"(?i)unique|duplicate"):
        async with store.transaction() as db:
            await db.games._q.execute("UPDATE seats SET acted_at = ? WHERE game_id = ?", (6.0, game))
            db.games._q.later(
                "INSERT INTO seats (game_id, seat, name, user_id) VALUES (?, 0, 'again', 1) RETURNING seat", (game,)
            )
    loaded = await store.games.load(game)
    assert loaded is not None and {s.acted_at for s in loaded.seats} == {None}


async def test_a_required_write_that_finds_no_row_rolls_back_everything_its_transaction_wrote(store):
    """``Transaction.later(required=True)``: a check and its writes in one trip. Where the check finds no row
    (a game committed over a version it no longer has), the transaction raises ``Conflict`` from the trip
    it ran in, and nothing it wrote stands: writes before it, deferred ones after it, outbox rows."""
    game = await new_game(store)
    assert await commit(store, game, 0, state={"step": 1})
    before = await store.games.load(game)
    with pytest.raises(Conflict):
        async with store.transaction() as db:
            await db.games._q.execute("UPDATE seats SET acted_at = ? WHERE game_id = ?", (6.0, game))
            db.games.commit(game, expected_version=0, step=Commit([(1, "end")], {"stale": True}), now=9.0)
            db.outbox.write_later([Owed(f"game:{game}", "post", {"n": 1})], now=9.0)
    after = await store.games.load(game)
    assert after is not None and (after.version, after.state, after.revision) == (1, {"step": 1}, before.revision)
    assert {seat.acted_at for seat in after.seats} == {None}
    assert await store.games.actions(game) == [(1, 0, "reveal")]
    assert await store.outbox.pending(game_id=game) == []


async def test_a_read_after_a_required_write_takes_the_check_with_it(store):
    """A read inside the transaction runs the writes given before it first, the check among them: a read of
    a game committed over a stale version raises ``Conflict`` there; over its version, it sees the write."""
    game = await new_game(store)
    with pytest.raises(Conflict):
        async with store.transaction() as db:
            db.games.commit(game, expected_version=3, step=Commit([(0, "reveal")], {"stale": True}), now=9.0)
            await db.games.load(game)
            pytest.fail("the read ran past a failed check")
    async with store.transaction() as db:
        stored = db.games.commit(game, expected_version=0, step=Commit([(0, "reveal")], {"step": 1}), now=9.0)
        seen = await db.games.load(game)
        assert seen is not None and (seen.version, seen.state) == (1, {"step": 1})
    assert stored.rows[0]["revision"] == (await store.games.load(game)).revision


async def test_trips_to_sqlites_thread_for_a_write_read_back(tmp_path):
    """On SQLite a write read back after the commit rides with the commit: a transaction of one statement
    and one such write is two trips to the connection's thread, and ``games.set_place`` of its own (the
    board's message id, after every post) is one."""
    store = await Store.open(tmp_path / "bot.db")
    try:
        game = await new_game(store)
        with sqlite_trips(store._db._conn) as calls:
            async with store.transaction() as db:
                await db.games._q.execute("UPDATE seats SET acted_at = 1 WHERE game_id = ?", (game,))
                sql = "UPDATE games SET revision = revision + 1 WHERE id = ? RETURNING id"
                written = db.games._q.later(sql, (game,))
        assert len(calls) == 2 and [r["id"] for r in written.rows] == [game]
        with sqlite_trips(store._db._conn) as calls:
            revision = await store.games.set_place(game, message_id=600)
        assert len(calls) == 1
        loaded = await store.games.load(game)
        assert loaded is not None and (loaded.message_id, loaded.revision) == (600, revision)
        assert await store.games.set_place(game + 1000, message_id=1) is None  # no such game
    finally:
        await store.close()


async def test_in_memory_database_opens():
    store = await Store.open(":memory:")
    assert await store.schema_version() == len(MIGRATIONS)
    assert await store.games.load(1) is None
    await store.close()


# ---------------------------------------------------------------------------------------------- games


async def test_create_and_load_game_round_trip(store):
    state = {"step": 0, "nested": {"cards": [3, 1, 2], "flag": True, "none": None}, "text": "ünïcode ☠"}
    game_id = await new_game(store, users=(11, None, 33), state=state, seed="abc123", channel_id=77)
    record = await store.games.load(game_id)
    assert record is not None
    assert record.id == game_id
    assert record.kind == "piratz"
    assert record.status == "active"
    assert record.version == 0
    assert record.seed == "abc123"
    assert record.options == {"blind": False}
    assert record.state == state
    assert record.guild_id == 5
    assert record.channel_id == 77
    assert record.thread_id is None and record.message_id is None
    assert record.place_id == 77
    assert record.host_id == 11
    assert record.created_at == 100.0
    assert record.result is None
    assert record.seats == [
        SeatRecord(0, "P0", 11, False),
        SeatRecord(1, "P1", None, False),
        SeatRecord(2, "P2", 33, False),
    ]
    assert record.names == ["P0", "P1", "P2"]
    assert [s.is_ai for s in record.seats] == [False, True, False]
    assert record.seat_of(33) == 2
    assert record.seat_of(11) == 0
    assert record.seat_of(999) is None
    assert await store.games.actions(game_id) == []


def test_json_as_the_store_writes_and_reads_it():
    value = {"step": 3, "names": ["Anne", "Zoë ☠"], "nested": {"flag": True, "none": None, "x": 0.5}, "big": 2**63 - 1}
    text = dumps(value)
    assert text == json.dumps(value, separators=(",", ":"), ensure_ascii=False)  # compact, UTF-8 as it is
    assert loads(text) == loads(text.encode()) == value
    assert loads(dumps({1: "a"})) == {"1": "a"}  # keys as json writes them
    # What orjson refuses, the standard library writes and reads, as the store did before orjson.
    assert loads(dumps({"huge": 2**80})) == {"huge": 2**80}
    assert loads(json.dumps({"seed": 2**70, "n": float("nan")}))["seed"] == 2**70
    assert loads('{"a":[1,2,{"b":"\\u00e9"}]}') == {"a": [1, 2, {"b": "é"}]}


async def test_a_state_with_every_kind_of_json_value_round_trips(store):
    state = {"step": 0, "text": "ünïcode ☠ \n \u2028 \x00", "big": 2**64, "keys": {"1": [True, None, 1.25]}}
    game_id = await new_game(store, users=(11, None, 33), state=state, seed="s", channel_id=77)
    record = await store.games.load(game_id)
    assert record is not None and record.state == state


async def test_load_missing_game_is_none(store):
    assert await store.games.load(12345) is None


async def test_game_ids_are_distinct(store):
    a = await new_game(store)
    b = await new_game(store)
    assert a != b
    assert (await store.games.load(a)).id == a
    assert (await store.games.load(b)).id == b


async def test_commit_action_bumps_version_and_appends_to_log(store):
    game_id = await new_game(store)
    assert await commit(store, game_id, 0, seat=1, action="pass coins", state={"step": 1, "x": "a"})
    record = await store.games.load(game_id)
    assert record.version == 1
    assert record.state == {"step": 1, "x": "a"}
    assert record.status == "active"
    assert await store.games.actions(game_id) == [(1, 1, "pass coins")]

    assert await commit(store, game_id, 1, seat=0, action="reveal", state={"step": 2})
    assert await commit(store, game_id, 2, seat=1, action="end", state={"step": 3})
    record = await store.games.load(game_id)
    assert record.version == 3
    assert record.state == {"step": 3}
    assert await store.games.actions(game_id) == [(1, 1, "pass coins"), (2, 0, "reveal"), (3, 1, "end")]
    # seq always equals the version the action produced
    assert [seq for seq, _, _ in await store.games.actions(game_id)] == [1, 2, 3]


@pytest.mark.parametrize("expected", [0, 2, 5, -1])
async def test_commit_action_with_stale_version_writes_nothing(store, expected):
    game_id = await new_game(store)
    assert await commit(store, game_id, 0, state={"step": 1, "good": True})
    before = await store.games.load(game_id)  # version 1: 0 is stale, the others never existed
    assert not await commit(store, game_id, expected, seat=1, action="end", state={"bad": True})
    after = await store.games.load(game_id)
    assert after.version == before.version == 1
    assert after.state == before.state == {"step": 1, "good": True}
    assert after.status == "active"
    assert await store.games.actions(game_id) == [(1, 0, "reveal")]
    # the connection is left usable: the right version still commits
    assert await commit(store, game_id, 1, state={"step": 2})
    assert (await store.games.load(game_id)).version == 2


async def test_commit_action_on_missing_game_is_false(store):
    assert not await commit(store, 999, 0)
    assert await store.games.actions(999) == []


async def test_commit_action_stores_the_finish(store):
    game_id = await new_game(store)
    result = {"winners": [1], "scores": [3, 9], "summary": "{p1} wins with 9 points."}
    assert await commit(store, game_id, 0, state={"over": True}, status="finished", result=result)
    record = await store.games.load(game_id)
    assert record.status == "finished"
    assert record.result == result
    assert record.version == 1
    assert await store.games.ids(status="active") == []
    assert await store.games.ids(status="finished") == [game_id]


async def test_finished_game_refuses_commits(store):
    game_id = await new_game(store)
    assert await commit(store, game_id, 0, status="finished", result={"winners": [0]}, state={"end": 1})
    assert not await commit(store, game_id, 1, state={"after": True})
    record = await store.games.load(game_id)
    assert record.version == 1
    assert record.state == {"end": 1}
    assert record.status == "finished"
    assert await store.games.actions(game_id) == [(1, 0, "reveal")]


async def test_finish_game_then_commits_are_refused(store):
    game_id = await new_game(store)
    assert await commit(store, game_id, 0)
    result = {"winners": [], "scores": [], "summary": "Abandoned by Anne."}
    assert await store.games.finish(game_id, status="abandoned", result=result, now=300.0)
    record = await store.games.load(game_id)
    assert record.status == "abandoned"
    assert record.result == result
    assert record.version == 2  # finishing counts as a change of the board
    # already over: neither a second finish nor an action is accepted
    assert not await store.games.finish(game_id, status="finished", result=None, now=301.0)
    assert not await commit(store, game_id, 2)
    assert (await store.games.load(game_id)).status == "abandoned"
    assert await store.games.actions(game_id) == [(1, 0, "reveal")]


async def test_finish_missing_game_is_false(store):
    assert not await store.games.finish(42, status="abandoned", result=None, now=1.0)


async def test_resign_seat(store):
    game_id = await new_game(store, users=(1, 2, 3))
    assert await store.seats.resign(game_id, 1, user_id=2)
    assert not await store.seats.resign(game_id, 1, user_id=2)  # once
    seats = (await store.games.load(game_id)).seats
    assert [s.resigned for s in seats] == [False, True, False]
    assert [s.is_ai for s in seats] == [False, True, False]
    assert (await store.games.load(game_id)).version == 0


async def test_a_deferred_write_runs_before_the_next_statement_and_commits_with_the_transaction(store):
    game = await new_game(store)
    async with store.transaction() as db:
        db.games._q.defer("UPDATE seats SET acted_at = ? WHERE game_id = ? AND seat = ?", (7.0, game, 0))
        db.games._q.defer(
            "UPDATE seats SET acted_at = COALESCE(acted_at, 0) + ? WHERE game_id = ?", [(1.0, game)], many=True
        )
        seen = await db.games._q.fetchall("SELECT acted_at FROM seats WHERE game_id = ? ORDER BY seat", (game,))
        assert [r["acted_at"] for r in seen] == [8.0, 1.0]  # both ran, in order, before the read
        db.games._q.defer("UPDATE seats SET acted_at = ? WHERE game_id = ? AND seat = ?", (20.0, game, 1))
    loaded = await store.games.load(game)  # the last one went with the commit
    assert loaded is not None and [s.acted_at for s in loaded.seats] == [8.0, 20.0]


async def test_a_deferred_write_rolls_back_with_its_transaction_and_a_failing_one_rolls_it_back(store):
    game = await new_game(store)
    with pytest.raises(RuntimeError):
        async with store.transaction() as db:
            db.games._q.defer("UPDATE seats SET acted_at = ? WHERE game_id = ?", (5.0, game))
            raise RuntimeError("the change failed")
    with pytest.raises(Exception, match=r"(?i)unique|duplicate"):
        async with store.transaction() as db:
            await db.games._q.execute("UPDATE seats SET acted_at = ? WHERE game_id = ?", (6.0, game))
            db.games._q.defer("INSERT INTO seats (game_id, seat, name, user_id) VALUES (?, 0, 'again', 1)", (game,))
    loaded = await store.games.load(game)  # the failure at the commit undid the write before it
    assert loaded is not None and {s.acted_at for s in loaded.seats} == {None}


async def test_outbox_rows_added_together_get_their_ids_in_order(store):
    from tables.outbox import Message, to_place

    game = await new_game(store)
    owed = [to_place(game, Message(f"line {n}")) for n in range(7)]
    async with store.transaction() as db:
        first = await db.outbox.add(owed[:2], now=1.0)
        rest = await db.outbox.add(owed[2:], now=1.0)
    assert first + rest == sorted(first + rest) and len(set(first + rest)) == 7
    rows = await store.outbox.pending(game_id=game)
    assert [r.id for r in rows] == first + rest
    assert [r.payload["message"]["content"] for r in rows] == [f"line {n}" for n in range(7)]
    assert await store.outbox.add([], now=1.0) == []


async def test_set_place(store):
    game_id = await new_game(store, channel_id=10)
    await store.games.set_place(game_id, thread_id=500)
    record = await store.games.load(game_id)
    assert (record.thread_id, record.message_id, record.place_id) == (500, None, 500)
    await store.games.set_place(game_id, message_id=600)
    record = await store.games.load(game_id)
    assert (record.thread_id, record.message_id) == (500, 600)
    await store.games.set_place(game_id, message_id=601)
    await store.games.set_place(game_id)  # nothing given: nothing changes
    record = await store.games.load(game_id)
    assert (record.thread_id, record.message_id, record.channel_id) == (500, 601, 10)


async def test_game_ids_by_status_and_user(store):
    a = await new_game(store, users=(1, 2))
    b = await new_game(store, users=(2, None))
    c = await new_game(store, users=(3, 1, 3))  # user 3 holds two seats
    d = await new_game(store, users=(1, 4))
    assert await commit(store, d, 0, status="finished", result={"winners": [0]})
    e = await new_game(store, users=(2, 5))
    assert await store.games.finish(e, status="abandoned", result=None, now=1.0)

    assert await store.games.ids() == [a, b, c]
    assert await store.games.ids(status="active") == [a, b, c]
    assert await store.games.ids(status="finished") == [d]
    assert await store.games.ids(status="abandoned") == [e]
    assert await store.games.ids(user_id=1) == [a, c]
    assert await store.games.ids(user_id=2) == [a, b]
    assert await store.games.ids(user_id=3) == [c]  # once, not once per seat
    assert await store.games.ids(user_id=4) == []
    assert await store.games.ids(status="finished", user_id=1) == [d]
    assert await store.games.ids(status="abandoned", user_id=2) == [e]
    assert await store.games.ids(user_id=999) == []


async def test_games_in_place(store):
    in_thread = await new_game(store, channel_id=10)
    await store.games.set_place(in_thread, thread_id=1000)
    no_thread = await new_game(store, channel_id=20)

    assert await store.games.in_place(1000) == [in_thread]  # by thread
    assert await store.games.in_place(20) == [no_thread]  # by channel when there is no thread
    assert await store.games.in_place(10) == []  # its channel is not its place once it has a thread
    assert await store.games.in_place(30) == []

    # several active games may share a channel (no thread permission): newest first; finished ones drop out
    newer = await new_game(store, channel_id=20)
    assert await store.games.in_place(20) == [newer, no_thread]
    assert await store.games.finish(newer, status="abandoned", result=None, now=1.0)
    assert await store.games.in_place(20) == [no_thread]
    assert await commit(store, no_thread, 0, status="finished", result={"winners": [0]})
    assert await store.games.in_place(20) == []
    assert await store.games.finish(in_thread, status="abandoned", result=None, now=1.0)
    assert await store.games.in_place(1000) == []


async def test_deleting_a_game_cascades_to_seats_and_actions(store):
    # foreign_keys=ON makes the schema's ON DELETE CASCADE effective
    game_id = await new_game(store)
    assert await commit(store, game_id, 0)
    assert await store._db.execute("DELETE FROM games WHERE id = ?", (game_id,)) == 1
    assert (await store._db.fetchone("SELECT COUNT(*) FROM seats WHERE game_id = ?", (game_id,)))[0] == 0
    assert await store.games.actions(game_id) == []


async def test_refused_commit_does_not_undo_a_concurrent_commit(store):
    a = await new_game(store)
    b = await new_game(store)
    refused, accepted = await asyncio.gather(
        commit(store, a, 5, state={"a": "stale"}),
        commit(store, b, 0, action="reveal", state={"b": "new"}),
    )
    assert refused is None
    assert accepted == 1  # the game's first write after its creation
    record = await store.games.load(b)
    log = await store.games.actions(b)
    # a successful commit means snapshot, version and log all moved together
    assert (record.version, record.state, log) == (1, {"b": "new"}, [(1, 0, "reveal")])


async def test_a_write_that_fails_midway_leaves_nothing_behind(store):
    game_id = await new_game(store)
    # An action row already where this commit's log entry goes: its INSERT fails after the snapshot UPDATE.
    await store._db.execute(
        "INSERT INTO actions (game_id, seq, seat, action, at) VALUES (?, 1, 0, 'x', 1.0)", (game_id,)
    )
    with pytest.raises(Exception, match=r"(?i)unique|duplicate"):
        await commit(store, game_id, 0, state={"half": True})
    assert await store.seats.resign(game_id, 1, user_id=2)  # a later write commits only itself
    record = await store.games.load(game_id)
    assert (record.version, record.state["step"], record.seats[1].resigned) == (0, 0, True)


async def test_two_processes_committing_the_same_version_apply_it_once(store_target):
    first, second = await Store.open(store_target), await Store.open(store_target)
    try:
        game_id = await new_game(first)
        for version in range(5):
            results = await asyncio.gather(
                commit(first, game_id, version, seat=0, state={"by": "first"}),
                commit(second, game_id, version, seat=1, state={"by": "second"}),
            )
            assert sorted(r is not None for r in results) == [False, True]
        record = await second.games.load(game_id)
        log = await first.games.actions(game_id)
        assert record.version == 5 and [seq for seq, _, _ in log] == [1, 2, 3, 4, 5]
        assert record.state == {"by": ("first", "second")[log[-1][1]]}  # the snapshot is the last logged action's
    finally:
        await first.close()
        await second.close()


async def test_discord_ids_and_times_keep_every_digit(store):
    big = 1_234_567_890_123_456_789  # Discord ids need 64 bits
    now = 1_763_900_000.123456  # and times more digits than a 4-byte float holds
    game_id = await new_game(store, users=(big, None), channel_id=big + 1, guild_id=big + 2, now=now)
    await store.games.set_place(game_id, thread_id=big + 3, message_id=big + 4)
    assert await commit(store, game_id, 0, now=now + 1)
    record = await store.games.load(game_id)
    assert (record.seats[0].user_id, record.channel_id, record.guild_id) == (big, big + 1, big + 2)
    assert (record.thread_id, record.message_id, record.created_at) == (big + 3, big + 4, now)
    assert await store.games.action_time(game_id, 1) == now + 1
    assert await store.games.ids(user_id=big) == [game_id]
    await store.settings.set_notify(big, True)
    assert await store.settings.notify_enabled(big)


# ---------------------------------------------------------------------------------------------- engines


def test_placeholders_are_numbered_for_postgresql():
    assert placeholders("UPDATE t SET a = ?, b = ? WHERE id = ? AND v = ?") == (
        "UPDATE t SET a = $1, b = $2 WHERE id = $3 AND v = $4"
    )
    assert placeholders("SELECT 1") == "SELECT 1"


def test_schema_scripts_get_postgresql_types():
    script = "CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER NOT NULL, at REAL, s TEXT, big_n BIGINT);"
    assert schema_script(script) == (
        "CREATE TABLE t (id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, n BIGINT NOT NULL,"
        " at DOUBLE PRECISION, s TEXT, big_n BIGINT);"
    )


def test_the_setting_names_the_engine():
    assert is_postgres("postgresql://bot@db.example/tables") and is_postgres("postgres://localhost/t")
    assert not is_postgres("data/tables.db") and not is_postgres(":memory:")
    assert not is_postgres("postgresql.db")


# ---------------------------------------------------------------------------------------------- lobbies


async def test_create_and_load_lobby(store):
    lobby_id = await new_lobby(store)
    lobby = await store.lobbies.load(lobby_id)
    assert lobby == LobbyRecord(
        id=lobby_id,
        kind="piratz",
        mode="challenge",
        status="open",
        guild_id=5,
        channel_id=10,
        message_id=None,
        host_id=1,
        invitees=[2, 3],
        accepted=[1],
        ai=1,
        options={"blind": True},
        expires_at=1234.5,
        names={"1": "Anne", "2": "Bart"},
        game_id=None,
        version=0,
        closed_by=None,
    )
    assert await store.lobbies.load(lobby_id + 100) is None


async def test_update_lobby_writes_only_over_the_version_it_read(store):
    lobby_id = await new_lobby(store, mode="open", invitees=[])
    game_id = await new_game(store)
    lobby = await store.lobbies.load(lobby_id)
    lobby.accepted.append(7)
    lobby.names["7"] = "Gus"
    assert await store.lobbies.update(lobby)
    assert lobby.version == 1  # advanced with the write, so the same record can be written again
    loaded = await store.lobbies.load(lobby_id)
    assert (loaded.accepted, loaded.names, loaded.status, loaded.version) == (
        [1, 7],
        {"1": "Anne", "2": "Bart", "7": "Gus"},
        "open",
        1,
    )

    # two members join from the same read: the second write is refused and writes nothing ...
    first = await store.lobbies.load(lobby_id)
    second = await store.lobbies.load(lobby_id)
    first.accepted.append(8)
    second.accepted.append(9)
    assert await store.lobbies.update(first)
    assert not await store.lobbies.update(second)
    assert second.version == 1
    assert (await store.lobbies.load(lobby_id)).accepted == [1, 7, 8]
    # ... until it is read again and re-applied: nobody's seat is lost
    second = await store.lobbies.load(lobby_id)
    second.accepted.append(9)
    assert await store.lobbies.update(second)
    assert (await store.lobbies.load(lobby_id)).accepted == [1, 7, 8, 9]

    # closing it and recording its game: each write from the version the last one left
    second.status, second.closed_by = "started", 1
    assert await store.lobbies.update(second)
    second.game_id = game_id
    assert await store.lobbies.update(second)
    loaded = await store.lobbies.load(lobby_id)
    assert (loaded.status, loaded.closed_by, loaded.game_id, loaded.version) == ("started", 1, game_id, 5)


async def test_lobby_writes_at_the_same_moment_one_wins(store):
    lobby_id = await new_lobby(store)
    a, b = await store.lobbies.load(lobby_id), await store.lobbies.load(lobby_id)
    a.accepted.append(2)
    b.status, b.closed_by = "declined", 3
    results = await asyncio.gather(store.lobbies.update(a), store.lobbies.update(b))
    assert sorted(results) == [False, True]
    loaded = await store.lobbies.load(lobby_id)
    winner = a if results[0] else b
    assert (loaded.accepted, loaded.status, loaded.version) == (winner.accepted, winner.status, 1)


async def test_lobby_message_id_is_kept_by_a_change_read_before_it(store):
    lobby_id = await new_lobby(store)
    read_early = await store.lobbies.load(lobby_id)
    await store.lobbies.set_message(lobby_id, 888)
    read_early.accepted.append(2)
    assert await store.lobbies.update(read_early)  # message ids do not bump the version
    loaded = await store.lobbies.load(lobby_id)
    assert (loaded.message_id, loaded.accepted) == (888, [1, 2])


async def test_lobbies_of_a_version_2_database_get_a_version(store_target, monkeypatch):
    monkeypatch.setattr(store_module, "MIGRATIONS", MIGRATIONS[:2])
    store = await Store.open(store_target)
    # A lobby as the code of schema version 2 wrote it.
    await store._db.execute(
        "INSERT INTO lobbies (kind, mode, status, guild_id, channel_id, host_id, invitees, accepted, ai, options,"
        " names, expires_at) VALUES ('piratz', 'challenge', 'open', 1, 2, 1, '[2]', '[1]', 0, '{}', '{}', 100.0)"
    )
    await store.close()
    monkeypatch.setattr(store_module, "MIGRATIONS", MIGRATIONS)
    store = await Store.open(store_target)
    try:
        lobby = await store.lobbies.load(1)
        assert (lobby.version, lobby.closed_by, lobby.accepted) == (0, None, [1])
        lobby.status = "expired"
        assert await store.lobbies.update(lobby)
        assert (await store.lobbies.load(1)).version == 1
    finally:
        await store.close()


async def test_update_missing_lobby_is_false(store):
    lobby = await store.lobbies.load(await new_lobby(store))
    lobby.id = 999
    assert not await store.lobbies.update(lobby)


async def test_open_lobbies(store):
    a = await new_lobby(store, host_id=1)
    b = await new_lobby(store, host_id=2)
    c = await new_lobby(store, host_id=1, mode="open")
    d = await new_lobby(store, host_id=1)
    closed = await store.lobbies.load(d)
    closed.status = "expired"
    assert await store.lobbies.update(closed)

    assert [lobby.id for lobby in await store.lobbies.open()] == [a, b, c]
    mine = await store.lobbies.open(host_id=1)
    assert [lobby.id for lobby in mine] == [a, c]
    assert all(isinstance(lobby, LobbyRecord) and lobby.status == "open" for lobby in mine)
    assert mine[1].mode == "open"
    assert [lobby.id for lobby in await store.lobbies.open(host_id=2)] == [b]
    assert await store.lobbies.open(host_id=3) == []


# ---------------------------------------------------------------------------------------------- users


async def test_notify_setting(store):
    assert await store.settings.notify_enabled(1) is False  # default off
    await store.settings.set_notify(1, True)
    assert await store.settings.notify_enabled(1) is True
    assert await store.settings.notify_enabled(2) is False
    await store.settings.set_notify(1, True)  # idempotent upsert
    assert await store.settings.notify_enabled(1) is True
    await store.settings.set_notify(1, False)
    assert await store.settings.notify_enabled(1) is False
    await store.settings.set_notify(2, True)
    assert await store.settings.notify_enabled(2) is True
    assert await store.settings.notify_enabled(1) is False


# ---------------------------------------------------------------------------------------------- durability


async def test_data_survives_close_and_reopen(store_target):
    path = store_target
    store = await Store.open(path)
    game_id = await new_game(store, users=(1, None))
    assert await commit(store, game_id, 0, seat=1, action="pass coins", state={"step": 1})
    assert await store.seats.resign(game_id, 0, user_id=1)
    await store.games.set_place(game_id, thread_id=55, message_id=66)
    done = await new_game(store)
    assert await commit(store, done, 0, status="finished", result={"winners": [1]}, state={"over": 1})
    lobby_id = await new_lobby(store)
    await store.settings.set_notify(9, True)
    before_game = await store.games.load(game_id)
    before_done = await store.games.load(done)
    before_lobby = await store.lobbies.load(lobby_id)
    await store.close()

    store = await Store.open(path)
    try:
        assert await store.games.load(game_id) == before_game
        assert await store.games.load(done) == before_done
        assert before_game.version == 1 and before_game.state == {"step": 1}
        assert before_game.seats[0].resigned and before_game.place_id == 55
        assert await store.games.actions(game_id) == [(1, 1, "pass coins")]
        assert await store.lobbies.load(lobby_id) == before_lobby
        assert await store.settings.notify_enabled(9) is True
        assert await store.games.ids() == [game_id]
        assert await store.games.in_place(55) == [game_id]
        # and it keeps working after the reopen
        assert await commit(store, game_id, 1, state={"step": 2})
        assert (await store.games.load(game_id)).version == 2
    finally:
        await store.close()
