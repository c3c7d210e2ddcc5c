"""The outbox in the store, on both engines: rows of a lane go in order, lower priorities first, a row
waits for the row it follows; claims keep two processes from delivering one row; the writer delivers its
rows and another process takes over a dead one's; a change and what it owes commit or roll back
together."""

from __future__ import annotations

import pytest

from data.outbox import MarkerCache, Owed
from data.store import SeatRecord, Store


@pytest.fixture
async def store(store_target):
    s = await Store.open(store_target, owner="me")
    yield s
    await s.close()


def row(lane: str, n: int, **kw) -> Owed:
    return Owed(lane, "post", {"n": n}, **kw)


async def ids(rows) -> list[int]:
    return [r.payload["n"] for r in rows]


async def test_only_the_oldest_row_of_a_lane_is_due_lowest_priority_first(store):
    await store.outbox.add([row("a", 1), row("a", 2), row("b", 3, priority=0), row("c", 4, priority=2)], now=1.0)
    assert await ids(await store.outbox.due(now=1.0, limit=10)) == [3, 1, 4]
    assert await ids(await store.outbox.due(now=1.0, limit=1)) == [3]
    first = (await store.outbox.due(now=1.0, limit=10))[1]
    assert await store.outbox.settle(first.id, "done", "99", now=2.0)
    assert not await store.outbox.settle(first.id, "done", "99", now=2.0)  # once
    assert await store.outbox.result(first.id) == "99"
    assert await ids(await store.outbox.due(now=2.0, limit=10)) == [3, 2, 4]
    # The rows being delivered already are left out, and the limit counts only the others.
    delivering = [e.id for e in await store.outbox.due(now=2.0, limit=2)]
    assert await ids(await store.outbox.due(now=2.0, limit=1, besides=delivering)) == [4]
    everything = [e.id for e in await store.outbox.due(now=2.0, limit=10)]
    assert await store.outbox.due(now=2.0, limit=10, besides=everything) == []


async def test_a_row_waits_for_the_row_it_follows_and_for_its_time(store):
    (thread,) = await store.outbox.add([row("game", 1)], now=1.0)
    await store.outbox.add([row("dm", 2, after=thread), row("later", 3, due_at=50.0)], now=1.0)
    assert await ids(await store.outbox.due(now=1.0, limit=10)) == [1]
    assert await store.outbox.next_due() == 1.0
    await store.outbox.settle(thread, "failed", "no permission", now=2.0)  # given up counts as settled
    assert await ids(await store.outbox.due(now=2.0, limit=10)) == [2]
    assert await ids(await store.outbox.due(now=50.0, limit=10)) == [2, 3]


async def test_claims_keep_a_row_to_one_process_until_they_run_out(store):
    (one,) = await store.outbox.add([row("a", 1)], now=1.0)
    assert await store.outbox.claim(one, "me", until=61.0, now=1.0)
    assert not await store.outbox.claim(one, "other", until=70.0, now=10.0)
    assert await store.outbox.due(now=10.0, limit=10) == []
    assert await store.outbox.next_due() == 61.0
    assert await store.outbox.claim(one, "other", until=130.0, now=70.0)  # the first process died
    assert await store.outbox.release("other") == 1
    assert await ids(await store.outbox.due(now=70.0, limit=10)) == [1]


async def test_retries_wait_and_a_rush_makes_them_due_again(store):
    first, _ = await store.outbox.add([row("a", 1), row("b", 2)], now=1.0)
    await store.outbox.retry(first, due_at=100.0, error="503")
    assert (await store.outbox.get(first)).attempts == 1
    assert await ids(await store.outbox.due(now=2.0, limit=10)) == [2]
    assert await store.outbox.rush(now=3.0) == 1  # only what failed: the other was due anyway
    assert await ids(await store.outbox.due(now=3.0, limit=10)) == [1, 2]


async def test_the_writer_delivers_its_rows_and_another_takes_over_a_dead_ones(store_target):
    mine, theirs = await Store.open(store_target, owner="me"), await Store.open(store_target, owner="them")
    try:
        await mine.outbox.add([row("a", 1)], now=1.0)
        assert await theirs.outbox.due(now=2.0, limit=10) == []
        assert await theirs.outbox.next_due() is None
        assert await ids(await theirs.outbox.due(now=200.0, limit=10, orphaned=100.0)) == [1]
    finally:
        await mine.close()
        await theirs.close()


async def test_later_rows_of_a_kind_can_take_an_older_rows_payload(store):
    first, second, _ = await store.outbox.add([row("a", 1), row("a", 2), Owed("a", "edit", {"n": 3})], now=1.0)
    older = await store.outbox.get(first)
    assert await ids(await store.outbox.later(older, "post")) == [2]
    await store.outbox.replace_payload(second, {"n": 22})
    assert (await store.outbox.get(second)).payload == {"n": 22}
    assert await store.outbox.first(older) and not await store.outbox.first(await store.outbox.get(second))


async def test_a_due_row_says_whether_a_row_of_its_kind_waits_behind_it(store, monkeypatch):
    await store.outbox.add([row("a", 1), Owed("a", "edit", {"n": 2}), row("b", 3), row("b", 4)], now=1.0)
    a, b = await store.outbox.due(now=1.0, limit=10)
    assert (a.payload["n"], a.followed, b.payload["n"], b.followed) == (1, False, 3, True)  # an edit is no post
    assert await ids(await store.outbox.later(b, "post")) == [4]

    def no_trip(*_):
        raise AssertionError("a row with nothing of its kind behind it needs no trip to the database")

    monkeypatch.setattr(store.outbox._q, "fetchall", no_trip)
    assert await store.outbox.later(a, "post") == []


async def test_rows_written_say_whether_they_head_their_lanes(store):
    """What :meth:`OutboxRepo.write` says of each row it wrote: the next of its lane to deliver (``head``:
    no older pending row in the lane, none it waits for) and whether a row of its kind follows it."""
    (old,) = await store.outbox.add([row("busy", 0)], now=1.0)
    (done,) = await store.outbox.add([row("settled", 0)], now=1.0)
    await store.outbox.settle(done, "done", None, now=1.0)
    written = await store.outbox.write(
        [
            row("busy", 1),  # behind an older pending row
            row("free", 2),
            row("free", 3),  # behind a row of this same write
            Owed("free", "edit", {"n": 4}),
            row("settled", 5),  # the older row of its lane is settled
            row("waits", 6, after=old),  # waits for a pending row of another lane
            row("after-done", 7, after=done),
        ],
        now=2.0,
    )
    assert [(e.payload["n"], e.head, e.followed) for e in written] == [
        (1, False, False),
        (2, True, True),
        (3, False, False),
        (4, False, False),
        (5, True, False),
        (6, False, False),
        (7, True, False),
    ]
    assert [e.id for e in written] == sorted(e.id for e in written)
    assert {(e.status, e.attempts, e.due_at, e.created_at) for e in written} == {("pending", 0, 2.0, 2.0)}
    # As the loop reads them: the heads, and only they, are due.
    assert sorted(e.payload["n"] for e in await store.outbox.due(now=2.0, limit=10)) == [0, 2, 5, 7]


async def test_a_board_goes_out_without_the_loop_looking_for_it(store, monkeypatch):
    """The rows an action writes that head their lanes, its board among them, are delivered at once: no
    look at the outbox stands between the commit and the board's post. What follows the board (the private
    views) the loop delivers once it is out."""
    import asyncio

    from data.outbox import OutboxRepo
    from tests.service_support import deliver_all, member, new_game, some_legal, tables_on, to_act

    tables = tables_on(store)
    record = await new_game(tables, 2)
    await deliver_all(tables)  # the game's thread and first board
    await tables.cache.set_place(record.id, message_id=5000, board_turn=1)  # as its post would have
    sent: list[str] = []
    looked: list[int] = []

    class Sender:
        async def post(self, channel_id, guild_id, message, *, nonce, made_since=None) -> int:
            sent.append("board" if message.components else "post")
            return 7000 + len(sent)

        async def strip(self, channel_id, message_id) -> None:
            sent.append("strip")

        async def edit(self, channel_id, message_id, message, *, keep_images=False) -> None:
            sent.append("edit")

        async def direct(self, user_id, message, *, nonce) -> int:
            sent.append("dm")
            return 8000 + len(sent)

        async def edit_direct(self, user_id, message_id, message) -> None:
            sent.append("dm")

    due = OutboxRepo.due

    async def counted(self, **kw):
        looked.append(len(sent))
        return await due(self, **kw)

    monkeypatch.setattr(OutboxRepo, "due", counted)
    tables.delivery.sender = Sender()  # type: ignore[assignment]
    try:
        await tables.play.act(member(to_act(record)), record.id, some_legal(record))
        for _ in range(200):
            await asyncio.sleep(0.005)
            if not await store.outbox.pending(game_id=record.id):
                break
    finally:
        await tables.delivery.stop()
    # The board the member clicked, updated (its turn goes on, or ends and the next member's board follows).
    assert sent[0] == "edit"
    assert looked and looked[0] >= 1  # the loop's first look came after it
    assert await store.outbox.pending(game_id=record.id) == []


async def test_a_steps_private_views_hold_the_write_lock_for_their_reads_and_the_commit(tmp_path):
    """On SQLite the private views a step owes are written with the commit that closes their row, the
    seats' markers with them: the write lock is held for one trip, and a read of a setting if one is due."""
    from data.store import Store
    from tests.service_support import deliver_all, member, new_game, some_legal, tables_on, to_act
    from tests.support import sqlite_trips

    store = await Store.open(tmp_path / "bot.db")
    tables = tables_on(store)
    try:
        record = await new_game(tables, 2, kind="sewerpirats")
        await deliver_all(tables)
        await tables.play.act(member(to_act(record)), record.id, some_legal(record))
        (row,) = [r for r in await store.outbox.pending(game_id=record.id) if r.kind == "privates"]
        with sqlite_trips(store._db._conn) as trips:
            status, written = await tables.delivery.rows.privates(row, None)  # type: ignore[arg-type]
        assert trips in (["_after"], ["_after", "_after"]), trips
        pending = await store.outbox.pending(game_id=record.id)
        assert status == "done" and row.id not in [r.id for r in pending]
        hands = [r for r in pending if r.kind == "hand"]
        assert written == f"{len(hands)} rows" and hands
        for hand in hands:  # each view's digest was recorded with it
            assert await store.outbox.marker(record.id, hand.payload["player"], "hand")
    finally:
        await tables.stop()
        await store.close()


async def test_delivered_rows_are_purged_after_a_while_and_pending_ones_never(store):
    first, _ = await store.outbox.add([row("a", 1), row("b", 2)], now=1.0)
    await store.outbox.settle(first, "done", "1", now=5.0)
    assert await store.outbox.purge(before=4.0) == 0
    assert await store.outbox.purge(before=6.0) == 1
    assert await ids(await store.outbox.pending()) == [2]


async def test_markers_say_what_a_seat_was_last_told(store):
    game = await store.games.create(
        kind="piratz", guild_id=1, channel_id=2, host_id=1, seats=[SeatRecord(0, "A", 1)], seed="s",
        options={}, state={}, now=1.0,
    )  # fmt: skip
    await store.outbox.set_marker(game, 0, "hand", "x")
    await store.outbox.set_marker(game, 0, "hand", "y")
    await store.outbox.set_marker(game, 0, "turn", "1")
    assert await store.outbox.marker(game, 0, "hand") == "y" and await store.outbox.markers(game, "turn") == {0: "1"}
    await store.outbox.forget_markers(game, 0)
    assert await store.outbox.marker(game, 0, "hand") is None


async def test_markers_read_in_a_transaction_that_rolls_back_are_never_remembered(store):
    """On SQLite markers are cached: only committed values may be read back, whatever was read before."""
    game = await store.games.create(
        kind="piratz", guild_id=1, channel_id=2, host_id=1, seats=[SeatRecord(0, "A", 1)], seed="s",
        options={}, state={}, now=1.0,
    )  # fmt: skip
    await store.outbox.set_marker(game, 0, "hand", "old")
    assert await store.outbox.marker(game, 0, "hand") == "old"
    with pytest.raises(RuntimeError):
        async with store.transaction() as db:
            await db.outbox.set_marker(game, 0, "hand", "new")
            assert await db.outbox.marker(game, 0, "hand") == "new"  # its own write
            await db.outbox.set_marker(game, 0, "turn", "9")
            raise RuntimeError("rolled back")
    assert await store.outbox.marker(game, 0, "hand") == "old" and await store.outbox.marker(game, 0, "turn") is None
    async with store.transaction() as db:
        await db.outbox.set_marker(game, 0, "hand", "newer")
    assert await store.outbox.marker(game, 0, "hand") == "newer"
    async with store.transaction() as db:
        await db.outbox.forget_markers(game, 0)
        assert await db.outbox.marker(game, 0, "hand") is None
        await db.outbox.set_marker(game, 0, "turn", "2")
    assert await store.outbox.marker(game, 0, "hand") is None and await store.outbox.marker(game, 0, "turn") == "2"


def test_the_marker_cache_keeps_the_markers_used_most_recently(monkeypatch):
    monkeypatch.setattr(MarkerCache, "SIZE", 3)
    cache = MarkerCache()
    for seat in range(3):
        cache.put((1, seat, "hand"), f"v{seat}")
    assert cache.get((1, 0, "hand")) == (True, "v0")  # used: now the most recent
    cache.put((1, 3, "hand"), None)  # a marker known to be missing is kept too
    assert [cache.get((1, seat, "hand")) for seat in range(4)] == [
        (True, "v0"),
        (False, None),
        (True, "v2"),
        (True, None),
    ]
    cache.commit({(1, 0, "*"): None})  # a seat forgotten: every kind of it
    assert cache.get((1, 0, "hand")) == (False, None) and cache.get((1, 2, "hand")) == (True, "v2")


async def test_a_change_and_what_it_owes_commit_or_roll_back_together(store):
    with pytest.raises(RuntimeError):
        async with store.transaction() as db:
            await db.settings.set_notify(5, True)
            await db.outbox.add([row("a", 1)], now=1.0)
            raise RuntimeError("the process stopped")
    assert not await store.settings.notify_enabled(5) and await store.outbox.pending() == []
    async with store.transaction() as db:
        await db.settings.set_notify(5, True)
        await db.outbox.add([row("a", 1)], now=1.0)
    assert await store.settings.notify_enabled(5) and await ids(await store.outbox.pending()) == [1]
    assert (await store.outbox.pending())[0].lane == "a"


async def test_lanes_in_flight_never_crowd_out_the_next_lanes_due(store, monkeypatch):
    """Rows being delivered stay pending until they are settled: they come back first when the loop looks
    again, and must not use up the rows it asks for (a burst's boards once waited on the lanes in flight)."""
    import asyncio

    from tables import delivery
    from tables.outbox import Message, to_channel
    from tests.service_support import tables_on

    monkeypatch.setattr(delivery, "LANES_AT_ONCE", 3)
    tables = tables_on(store)
    posted: list[int] = []
    release = {lane: asyncio.Event() for lane in range(5)}

    class Held:
        """A sender whose post to channel ``n`` waits until the test lets it through."""

        async def post(self, channel_id: int, guild_id: int | None, message: Message, **_: object) -> int:
            posted.append(channel_id)
            await release[channel_id].wait()
            return 1000 + channel_id

    async def posts(count: int) -> None:
        for _ in range(200):
            if len(posted) >= count:
                return
            await asyncio.sleep(0.005)
        raise AssertionError(f"only {posted} were posted")

    await store.outbox.add([to_channel(f"lane-{n}", n, None, Message(f"row {n}")) for n in range(5)], now=1.0)
    tables.delivery.sender = Held()  # type: ignore[assignment]
    tables.delivery.start()
    try:
        await posts(3)
        assert posted == [0, 1, 2]  # three lanes at once
        release[0].set()  # one lane is done: the next goes, though rows 1 and 2 are still pending
        await posts(4)
        assert posted == [0, 1, 2, 3]
        release[1].set()
        await posts(5)
        for event in release.values():
            event.set()
    finally:
        await tables.delivery.stop()
    assert posted == [0, 1, 2, 3, 4]


async def test_posts_an_action_committed_begin_at_once_whatever_lanes_the_loop_has(store, monkeypatch):
    """A burst of actions in many games: each commit begins its own post at once, so every board is being
    drawn and posted while the loop's lanes are all in flight (in a burst, boards once waited for a lane)."""
    import asyncio

    from tables import delivery
    from tables.outbox import Message, to_channel
    from tests.service_support import tables_on

    monkeypatch.setattr(delivery, "LANES_AT_ONCE", 3)
    monkeypatch.setattr(delivery, "POSTS_AT_ONCE", 6)
    tables = tables_on(store)
    posted: list[int] = []
    release = asyncio.Event()

    class Held:
        """A sender whose posts wait until the test lets them through."""

        async def post(self, channel_id: int, guild_id: int | None, message: Message, **_: object) -> int:
            posted.append(channel_id)
            await release.wait()
            return 1000 + channel_id

    # No look of the loop's is started: each row is taken by its commit alone (the loop looks again once a
    # lane is done).
    tables.delivery.sender = Held()  # type: ignore[assignment]
    try:
        begun = []
        for n in range(8):  # eight actions' commits, one after the other
            written = await store.outbox.write([to_channel(f"lane-{n}", n, None, Message(f"row {n}"))], now=1.0)
            begun.append(tables.delivery.begin(written))
        await asyncio.sleep(0.05)
        # Six began with their commits, past the loop's three lanes; the last two wait for a lane to free.
        assert begun == [True] * 6 + [False] * 2
        assert sorted(posted) == [0, 1, 2, 3, 4, 5]
        release.set()
        for _ in range(200):
            if len(posted) == 8:
                break
            await asyncio.sleep(0.005)
    finally:
        release.set()
        await tables.delivery.stop()
    assert sorted(posted) == list(range(8))
