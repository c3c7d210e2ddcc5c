"""Full garbage collections between answers (tables.collector): CPython starts none by itself while the
service runs; the service makes each one that is due (the heap grown by a quarter, or overdue) where no
answer is under way, or, late, anyway."""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterator

import pytest

from tables import collector
from tables.collector import LATE, NEVER, OVERDUE, Collector
from tests.conftest import World


@pytest.fixture
def thresholds() -> Iterator[tuple[int, int, int]]:
    """The process's thresholds, given back after the test whatever it did."""
    before = gc.get_threshold()
    yield before
    gc.set_threshold(*before)


def young_collections(n: int) -> None:
    """``n`` collections of the middle generation: each counts toward the next full one."""
    for _ in range(n):
        gc.collect(1)


def test_while_a_collector_runs_cpython_starts_no_full_collection(thresholds) -> None:
    first, second = Collector(lambda: False), Collector(lambda: False)
    first.start()
    second.start()
    assert gc.get_threshold() == (*thresholds[:2], NEVER)
    assert first.due == second.due == thresholds[2]
    first.stop()
    assert gc.get_threshold()[2] == NEVER, "another collector still runs"
    second.stop()
    second.stop()  # stopping twice does nothing
    assert gc.get_threshold() == thresholds


def test_a_full_collection_is_due_once_the_heap_has_grown_by_a_quarter(thresholds) -> None:
    c = Collector(lambda: False)
    c.start()
    try:
        gc.collect()
        young_collections(c.due)
        assert not c.tick(), "the heap has not grown"
        grown = [[] for _ in range(sys.getallocatedblocks() // 3)]
        young_collections(1)
        assert c.tick()
        assert gc.get_count()[2] == 0 and c.collections == 1
        young_collections(c.due)
        assert not c.tick(), "the heap has not grown since"
        young_collections(c.due * OVERDUE - c.due - 1)
        assert not c.tick()
        young_collections(1)
        assert c.tick(), "overdue whatever the heap"
        assert (c.collections, c.late) == (2, 0)
        del grown
    finally:
        c.stop()


def test_a_due_collection_waits_for_the_answers_under_way(thresholds) -> None:
    busy = [True]
    c = Collector(lambda: busy[0])
    c.growth = 0.0
    c.start()
    try:
        gc.collect()
        young_collections(c.due)
        assert not c.tick(), "an answer is under way"
        busy[0] = False
        assert c.tick()
        assert gc.get_count()[2] == 0 and (c.collections, c.late) == (1, 0)
        busy[0] = True
        young_collections(c.due * LATE - 1)
        assert not c.tick()
        young_collections(1)
        assert c.tick(), "late: it runs during the answer"
        assert gc.get_count()[2] == 0 and (c.collections, c.late) == (2, 1)
    finally:
        c.stop()


def test_a_stopped_collector_collects_nothing(thresholds) -> None:
    c = Collector(lambda: False)
    young_collections(thresholds[2] + 1)
    assert not c.tick()


async def test_the_bots_full_collections_never_land_in_an_answer(world: World, thresholds) -> None:
    """A bot whose full collections are due after every young one whatever its heap, as often as a test can
    make them, with its start-up heap frozen as after the warm-up: over a game's actions the collector
    makes them, each between two answers. Without it CPython makes them wherever an allocation crosses the
    threshold (3 of 8 inside an answer, when this test was written)."""
    tables = world.bot.tables
    tables.collector.stop()
    gc.set_threshold(thresholds[0], 1, 1)
    tables.collector.start()
    tables.collector.growth = 0.0
    assert collector._running == 1 and gc.get_threshold() == (thresholds[0], 1, NEVER)
    during: list[bool] = []

    def started(phase: str, info: dict) -> None:
        if phase == "start" and info["generation"] == 2:
            during.append(tables.collector.busy())

    made = tables.collector.collections
    gc.callbacks.append(started)
    gc.freeze()
    try:
        table = world.table
        await table.challenge("sewerpirats", "Anne", ["Ben", "Calico"])
        record = await table.latest_game()
        for _ in range(24):
            seat = table.human_to_act(record)
            assert seat is not None
            await table.move(record, seat, table.pick(record, seat))
            record = await table.record(record.id)
    finally:
        gc.unfreeze()
        gc.callbacks.remove(started)
    made = tables.collector.collections - made
    assert made >= 3, "a full collection was due after every few actions"
    assert len(during) == made and not any(during)
    await tables.close()
    assert collector._running == 0 and gc.get_threshold() == (thresholds[0], 1, 1)


async def test_a_service_that_delivers_nothing_leaves_the_collections_to_cpython(tables, thresholds) -> None:
    """Without a sender the delivery loop never looks, so nothing would make a full collection: CPython keeps
    making them as it does."""
    await tables.start()
    assert tables.delivery.sender is None
    assert gc.get_threshold() == thresholds and collector._running == 0
