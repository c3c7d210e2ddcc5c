"""The renderers' shared image cache holds its byte budget, and the render pool bounds its threads (or
hands its renders to processes beside the bot)."""

from __future__ import annotations

import asyncio
import itertools
import os
import signal
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from games.registry import GAMES, Renderer
from games.simulate import self_play
from rendering import cache, pool
from rendering.pool import RenderPool
from rendering.warmup import warm_renderers
from tests.support import pixels

NAMES = ["Anne Bonny", "Mary Read", "Calico Jack", "Edward Teach", "Grace O'Malley", "Zoë 🐀", "李小龍", "محمد"]


@pytest.fixture(autouse=True)
def fresh_cache() -> Iterator[None]:
    """Each test starts from an empty cache and leaves the default budget behind."""
    cache.clear()
    yield
    cache.configure(cache.DEFAULT_BUDGET)
    cache.clear()


def _image(side: int) -> Image.Image:
    return Image.new("RGB", (side, side))


def _renders(kind: str) -> list[tuple[Renderer, dict[str, Any]]]:
    """Boards, a hand and the final image from seeded AI games of ``kind`` at its smallest and largest
    player counts: each renderer with the view it draws."""
    spec = GAMES[kind]
    game = spec.game
    jobs: list[tuple[Renderer, dict[str, Any]]] = []
    for players in sorted({game.min_players, game.max_players}):
        state: dict[str, Any] = {}
        for step, state in enumerate(self_play(game, spec.player, players, f"cache-{players}")):
            if step in (1, 25):
                jobs.append((spec.render_board, game.view(state, None)))
                if spec.render_hand is not None:
                    jobs += [(spec.render_hand, game.view(state, seat)) for seat in game.to_act(state)[:1]]
        jobs.append((spec.render_final, game.view(state, None)))
    return jobs


def _draw(job: tuple[Renderer, dict[str, Any]]) -> bytes:
    render, view = job
    return render(view, NAMES)


def _shown(job: tuple[Renderer, dict[str, Any]]) -> tuple[tuple[int, int], str, bytes]:
    return pixels(_draw(job))


def test_the_size_of_an_image_is_its_pixels_as_pillow_holds_them_and_a_small_overhead() -> None:
    assert cache.size_of(Image.new("RGBA", (10, 20))) == 10 * 20 * 4 + cache.OVERHEAD
    assert cache.size_of(Image.new("L", (10, 20))) == 200 + cache.OVERHEAD
    assert cache.size_of((Image.new("RGB", (4, 4)), (1, 2))) == 64 + cache.OVERHEAD  # RGB: 4 bytes a pixel
    assert cache.size_of(b"x" * 1000) == 1000 + cache.OVERHEAD


def test_values_as_costly_to_draw_are_evicted_by_bytes_least_recently_used_first(monkeypatch) -> None:
    ticks = itertools.count()
    monkeypatch.setattr(cache, "perf_counter", lambda: next(ticks) * 0.001)  # every draw takes 1 ms
    one = cache.size_of(_image(100))
    cache.configure(3 * one)
    drawn: list[int] = []

    @cache.image_cache
    def square(n: int) -> Image.Image:
        drawn.append(n)
        return _image(100)

    for n in (1, 2, 3):
        square(n)
    square(1)  # 1 is now the most recently used, 2 the least
    square(4)
    assert cache.stats().bytes == 3 * one
    assert square.cache_info().currsize == 3
    drawn.clear()
    square(1), square(3), square(4)
    assert drawn == []
    square(2)
    assert drawn == [2]


def test_what_is_cheapest_to_draw_again_per_byte_goes_first(monkeypatch) -> None:
    # A layer-sized image that took as long to draw as a word goes before the word, though used later;
    # the word goes in its turn once it is no longer used while others are.
    costs = {"word": 0.002, "layer": 0.002, "icon": 0.002}
    clock = [0.0]

    def perf_counter() -> float:
        return clock[0]

    monkeypatch.setattr(cache, "perf_counter", perf_counter)

    @cache.image_cache
    def drawn(kind: str, n: int) -> Image.Image:
        clock[0] += costs[kind]
        return _image(100 if kind == "layer" else 10)

    word, layer = cache.size_of(_image(10)), cache.size_of(_image(100))
    cache.configure(layer + 2 * word)
    drawn("word", 1)
    drawn("layer", 1)
    drawn("icon", 1)  # all three fit
    drawn("layer", 1)  # the layer is the most recently used
    drawn("word", 2)  # no room: the layer, the cheapest per byte, goes
    assert drawn.cache_info().bytes == 3 * word
    hits = cache.stats().hits
    drawn("word", 1), drawn("icon", 1), drawn("word", 2)
    assert cache.stats().hits == hits + 3


def test_a_layer_laid_under_every_board_outlives_words_drawn_once(monkeypatch) -> None:
    """Uses count (GreedyDual-Size-Frequency): a layer used by board after board stays while words, each
    drawn for one board and three times dearer per byte, come and go. Used once, it goes first."""
    costs = {"word": 0.002, "layer": 0.04}
    clock = [0.0]
    monkeypatch.setattr(cache, "perf_counter", lambda: clock[0])

    @cache.image_cache
    def drawn(kind: str, n: int) -> Image.Image:
        clock[0] += costs[kind]
        return _image(100 if kind == "layer" else 10)

    word, layer = cache.size_of(_image(10)), cache.size_of(_image(100))
    assert costs["layer"] / layer * 3 < costs["word"] / word  # per byte the layer is the cheaper
    cache.configure(layer + 4 * word)
    drawn("layer", 1)
    for board in range(40):  # each board: the layer, and two words of its own
        drawn("layer", 1)
        drawn("word", 2 * board), drawn("word", 2 * board + 1)
    assert drawn.cache_info().misses == 1 + 80  # the layer was drawn once
    cache.clear()
    cache.configure(layer + 3 * word)
    drawn("layer", 1)
    drawn("word", 0)
    drawn("word", 1)
    drawn("word", 2)
    drawn("word", 3)  # no room: used once, the layer goes, as under GreedyDual-Size
    assert drawn.cache_info().misses == 5 and drawn.cache_info().bytes == 4 * word


def test_a_hit_returns_the_same_image_and_is_counted() -> None:
    @cache.image_cache
    def blank(side: int, *, mode: str = "RGB") -> Image.Image:
        return Image.new(mode, (side, side))

    first = blank(8, mode="L")
    assert blank(8, mode="L") is first
    assert blank(8) is not first
    now = cache.stats()
    assert (now.hits, now.misses, now.entries) == (1, 2, 2)
    assert blank.cache_info().hits == 1


def test_a_value_larger_than_the_budget_is_returned_uncached() -> None:
    cache.configure(cache.size_of(_image(50)))

    @cache.image_cache
    def big(side: int) -> Image.Image:
        return _image(side)

    small = big(10)
    huge = big(60)
    assert huge.size == (60, 60)
    assert big(60) is not huge
    assert big(10) is small
    assert cache.stats().entries == 1


def test_shrinking_the_budget_evicts_at_once() -> None:
    @cache.image_cache
    def square(n: int) -> Image.Image:
        return _image(100)

    for n in range(10):
        square(n)
    one = cache.size_of(_image(100))
    assert cache.stats().bytes == 10 * one
    cache.configure(4 * one)
    now = cache.stats()
    assert (now.bytes, now.entries, now.budget) == (4 * one, 4, 4 * one)
    assert now.by_function == {f"{__name__}.{square.__qualname__}": 4 * one}


def test_describe_says_how_full_the_cache_is_and_how_many_threads_render() -> None:
    cache.configure(64 * 2**20)

    @cache.image_cache
    def square(n: int) -> Image.Image:
        return _image(1024)

    square(1)
    assert pool.describe(threads=2) == "render cache: 4.0 MB of 64 MB in 1 images; 2 render threads"


def test_the_budget_holds_after_boards_hands_and_finals_of_every_game() -> None:
    budget = 8 * 2**20
    cache.configure(budget)
    for kind in GAMES:
        for job in _renders(kind):
            assert _draw(job).startswith(b"\x89PNG")
            assert cache.stats().bytes <= budget
    now = cache.stats()
    assert now.entries > 0 and now.misses > 0
    assert sum(now.by_function.values()) == now.bytes


def test_no_renderer_draws_on_a_cached_image() -> None:
    """Every cached value is shared by all renders: rendering boards, hands and finals of every game
    leaves each cached image that is still in the cache byte for byte as it was first drawn."""
    cache.configure(2**40)  # nothing evicted, so every value drawn is checked
    drawn: dict[tuple[str, Any], bytes] = {}
    put = cache._SHARED.put

    def remember(key: tuple[str, Any], value: Any, seconds: float) -> None:
        if isinstance(value, Image.Image):
            drawn[key] = value.tobytes()
        put(key, value, seconds)

    cache._SHARED.put = remember  # type: ignore[method-assign]
    try:
        for kind in GAMES:
            for job in _renders(kind):
                _draw(job)
    finally:
        del cache._SHARED.put
    assert drawn
    changed = [key[0] for key, pixels in drawn.items() if cache._SHARED.entries[key].value.tobytes() != pixels]
    assert changed == []


@pytest.mark.parametrize(
    "per_game", [pytest.param(3, id="three-of-each-game"), pytest.param(None, id="all", marks=pytest.mark.slow)]
)
def test_concurrent_renders_give_the_same_png_as_serial_ones(per_game: int | None) -> None:
    cache.configure(4 * 2**20)  # small, so threads evict each other's values while they draw
    jobs = [job for kind in GAMES for job in _renders(kind)[:per_game]]
    serial = [_shown(job) for job in jobs]
    cache.clear()
    with ThreadPoolExecutor(max_workers=6) as executor:
        parallel = list(executor.map(_shown, jobs * 2))
    assert parallel == serial * 2


def test_the_pool_never_runs_more_renders_at_once_than_its_threads() -> None:
    running = 0
    most = 0
    lock = threading.Lock()

    def render(n: int) -> int:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
        time.sleep(0.02)
        with lock:
            running -= 1
        return n * n

    async def burst() -> list[int]:
        render_pool = pool.RenderPool(3)
        try:
            return await asyncio.gather(*(render_pool.run(render, n) for n in range(20)))
        finally:
            render_pool.shutdown()

    assert asyncio.run(burst()) == [n * n for n in range(20)]
    assert most == 3


def test_configure_replaces_the_default_pool() -> None:
    before = pool.default_threads()
    try:
        assert pool.configure(1).threads == 1
        assert pool.default_threads() == 1
        assert asyncio.run(pool.run(sum, [1, 2, 3])) == 6
        with pytest.raises(ValueError):
            pool.RenderPool(-1)
    finally:
        pool.configure(before)


async def test_hands_never_take_the_last_free_thread_from_the_next_board() -> None:
    two = RenderPool(2)
    gate = threading.Event()
    drawing: list[str] = []
    lock = threading.Lock()

    def hand(name: str) -> str:
        with lock:
            drawing.append(name)
        gate.wait(5)
        return name

    try:
        hands = [asyncio.ensure_future(two.run_later(hand, f"hand {n}")) for n in range(3)]
        await asyncio.sleep(0.05)
        assert drawing == ["hand 0"]  # one thread draws hands; the other stays free
        assert await asyncio.wait_for(two.run(str.upper, "board"), 2) == "BOARD"  # at once, hands or not
        gate.set()
        assert [await h for h in hands] == ["hand 0", "hand 1", "hand 2"]
        assert await two.run_later(str.upper, "final") == "FINAL"  # and then every thread again
    finally:
        gate.set()
        two.shutdown()


async def test_one_thread_draws_hands_too_and_a_stopped_pool_finishes_what_was_queued() -> None:
    one = RenderPool(1)
    queued = [asyncio.ensure_future(one.run_later(str.upper, f"hand {n}")) for n in range(3)]
    await asyncio.sleep(0)
    one.shutdown()
    assert [await h for h in queued] == ["HAND 0", "HAND 1", "HAND 2"]
    for worker in one._workers:
        await asyncio.to_thread(worker.join, 5)
        assert not worker.is_alive()


async def test_a_board_an_answer_waits_for_goes_before_hands_queued_earlier() -> None:
    one = RenderPool(1)
    started, release = threading.Event(), threading.Event()
    done: list[str] = []

    def blocker() -> None:
        started.set()
        release.wait(5)

    def draw(name: str) -> str:
        done.append(name)
        return name

    try:
        busy = asyncio.ensure_future(one.run(blocker))
        await asyncio.to_thread(started.wait, 5)  # the one thread is drawing: the others queue
        hands = [asyncio.ensure_future(one.run_later(draw, f"hand {n}")) for n in range(3)]
        board = asyncio.ensure_future(one.run(draw, "board"))
        await asyncio.sleep(0.05)
        release.set()
        assert await board == "board" and [await h for h in hands] == ["hand 0", "hand 1", "hand 2"]
        await busy
        assert done == ["board", "hand 0", "hand 1", "hand 2"]
    finally:
        one.shutdown()


async def test_an_error_in_a_render_reaches_the_caller() -> None:
    one = RenderPool(1)
    try:
        with pytest.raises(ZeroDivisionError):
            await one.run_later(lambda: 1 / 0)
    finally:
        one.shutdown()


async def test_the_free_heap_pages_go_back_to_the_system_when_the_pool_falls_idle(monkeypatch) -> None:
    trims: list[int] = []
    monkeypatch.setattr(pool, "trim_memory", lambda: trims.append(1))
    monkeypatch.setattr(pool, "TRIM_IDLE", 60.0)  # this test counts the trims of bursts only

    async def trimmed(count: int) -> None:
        # A worker looks at the queue just after it has handed a render back: wait for that look.
        for _ in range(400):
            if len(trims) >= count:
                break
            await asyncio.sleep(0.005)
        await asyncio.sleep(0.02)
        assert len(trims) == count

    one = RenderPool(1)
    try:
        # A burst: every render but the last finds another waiting, so nothing is trimmed until it ends.
        gate = threading.Event()
        burst = [asyncio.ensure_future(one.run(gate.wait))]
        await asyncio.sleep(0.01)  # the worker holds the first render, the rest queue behind it
        burst += [asyncio.ensure_future(one.run(int, n)) for n in range(3 * pool.TRIM_AFTER)]
        await asyncio.sleep(0.01)
        gate.set()
        await asyncio.gather(*burst)
        await trimmed(1)
        # Renders one at a time: the pool falls idle after each, and trims once TRIM_AFTER have gone by.
        for n in range(pool.TRIM_AFTER + 5):
            await one.run(int, n)
            await asyncio.sleep(0.001)
        await trimmed(2)
    finally:
        one.shutdown()
    pool.trim_memory()  # the real one, on this machine's C library: it must not fail


async def test_a_pool_idle_for_a_while_hands_back_the_pages_of_its_last_few_renders(monkeypatch) -> None:
    trims: list[float] = []
    monkeypatch.setattr(pool, "trim_memory", lambda: trims.append(time.monotonic()))
    monkeypatch.setattr(pool, "TRIM_IDLE", 0.5)
    two = RenderPool(2)
    try:
        await asyncio.sleep(0.3)
        assert trims == []  # nothing drawn yet: nothing to hand back
        for n in range(3):  # fewer than TRIM_AFTER: no trim as they go
            drawn = time.monotonic()  # the last render ends after this, and the pool is idle only from then
            await two.run(int, n)
        assert trims == []
        await asyncio.sleep(1.0)
        assert len(trims) == 1 and trims[0] >= drawn + 0.5  # once, by one of the two threads, when idle
        await two.run(int, 4)
        await asyncio.sleep(0.05)
        assert len(trims) == 1  # not while renders come
        await asyncio.sleep(1.0)
        assert len(trims) == 2
    finally:
        two.shutdown()


def _nap(seconds: float) -> int:
    """A render process's stand-in for a long render: its process id, after ``seconds``."""
    time.sleep(seconds)
    return os.getpid()


async def test_render_processes_draw_the_same_board_beside_the_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = GAMES["piratz"]
    state = list(itertools.islice(self_play(spec.game, spec.player, 2, "process"), 6))[-1]
    view = spec.game.view(state, None)
    processes = RenderPool(4, processes=1)
    try:
        assert processes.threads == 1  # one thread hands the one process its renders, one at a time
        cache.configure(64 * 2**20)
        monkeypatch.setattr(pool, "_default", processes)
        assert pool.describe() == "1 render process, each with a render cache of 64 MB"
        drawn = await processes.run(spec.render_board, view, NAMES[:2], "en")
        assert pixels(drawn) == pixels(spec.render_board(view, NAMES[:2], "en"))
        assert await processes.run(os.getpid) != os.getpid()
    finally:
        processes.shutdown()


async def test_in_render_processes_a_board_still_goes_before_hands_queued_earlier() -> None:
    processes = RenderPool(processes=1)
    finished: list[str] = []

    async def draw(name: str, later: bool) -> None:
        await (processes.run_later if later else processes.run)(_nap, 0.01)
        finished.append(name)

    try:
        await processes.run(os.getpid)  # the process is up
        busy = asyncio.ensure_future(processes.run(_nap, 0.3))
        await asyncio.sleep(0.05)  # the process is drawing: the rest queue behind it
        hands = [asyncio.ensure_future(draw(f"hand {n}", True)) for n in range(3)]
        await asyncio.sleep(0.01)
        board = asyncio.ensure_future(draw("board", False))
        await asyncio.gather(busy, board, *hands)
        assert finished == ["board", "hand 0", "hand 1", "hand 2"]
    finally:
        processes.shutdown()


async def test_each_render_process_warms_up_once_and_a_render_must_be_picklable() -> None:
    processes = RenderPool(processes=1)
    try:
        warm = partial(warm_renderers, tuple(GAMES.values()), 0.02)
        assert await processes.warm(warm) > 0  # drawn in the process, into its own cache
        assert await processes.warm(warm) == 0
        assert cache.stats().bytes == 0  # none of it in the bot's process
        with pytest.raises(Exception, match="pickle"):
            await processes.run(lambda: 1)
        assert await processes.run(sum, [1, 2]) == 3  # the pool goes on after a refused render
    finally:
        processes.shutdown()


async def test_a_render_process_that_dies_is_replaced_and_the_render_drawn(caplog: pytest.LogCaptureFixture) -> None:
    processes = RenderPool(processes=1)
    try:
        first = await processes.run(os.getpid)
        os.kill(first, signal.SIGKILL)  # as the system's out-of-memory killer would
        assert await processes.run_later(sum, [2, 3]) == 5
        assert await processes.run(os.getpid) not in (first, os.getpid())
        assert "A render process stopped unexpectedly" in caplog.text
    finally:
        processes.shutdown()


def test_render_processes_stop_with_their_pool() -> None:
    processes = RenderPool(processes=1)
    pid = asyncio.run(processes.run(os.getpid))
    processes.shutdown()
    for _ in range(200):
        if not Path(f"/proc/{pid}").exists():
            break
        time.sleep(0.025)
    assert not Path(f"/proc/{pid}").exists()
    with pytest.raises(ValueError):
        RenderPool(processes=-1)
