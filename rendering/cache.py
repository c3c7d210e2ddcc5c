"""One cache, bounded in bytes, shared by every renderer function that returns images.

``functools.lru_cache`` bounds a cache by its number of entries, and ~80 of them each sized for the worst
case kept ~250 MB of pre-drawn layers, icons and text alive. :func:`image_cache` replaces it on every
function that returns images (or bytes): all of them share one budget (:func:`configure`, 96 MB by
default), counted in the bytes Pillow really holds.

What goes first is what costs least to draw again per byte it holds, weighed by how often it was used,
among what was used longest ago (GreedyDual-Size-Frequency: each value's priority is the cache's "clock"
when it was last used plus the seconds it took to draw per byte times its uses, up to :data:`USES_COUNTED`;
the clock moves up to the priority of each value evicted). Plain recency let a burst of boards of every
game push out hundreds of words and icons for each ~6 MB layer: ten bursts of 20 actions from 1,000 games
(the scale bench) spent ~2.9 s redrawing at 96 MB, ~0.8 s at 128 MB. Cost per byte alone (GreedyDual-Size)
spent ~1.5 s, and let one-off words (an event line drawn for two or three boards of one game) push out the
layers every board of a layout is laid on: counting uses, 54–108 ms of redrawing a burst against 72–195.

Values are shared between render threads and must be treated as read-only: paste them, or ``copy()``
before drawing on them. Two threads missing the same key at once both compute it (as with
``lru_cache``); the lock is held only to look up and store, never while drawing.
"""

from __future__ import annotations

import heapq
import itertools
import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from functools import partial, update_wrapper
from time import perf_counter
from typing import Any, Generic, NamedTuple, ParamSpec, TypeVar

from PIL import Image

DEFAULT_BUDGET = 96 * 2**20
"""Bytes of cached values by default (``TABLES_RENDER_CACHE_MB``). Measured on this machine: boards of
random positions of every game drawn in turn (what a busy bot draws) are as fast at 96 MB as at 128 MB
(p50 5.5 ms, p99 17 ms); at 64 MB text and icons are redrawn (p50 6.5 ms, p99 30 ms). Nothing cached is
per game: a layout's pre-drawn layer (~6 MB) is shared by every game of that layout, and a miss costs
~10 ms since panels are laid by their rim. (glibc keeps freed image blocks for reuse, so a process holds
more than the budget; making it hand them back, ``M_MMAP_THRESHOLD`` at 512 KB or 4 MB, saves memory but
slows renders 1.3–1.5×.)"""

USES_COUNTED = 16
"""Uses of a value counted in its priority: enough that a layer laid under every board of its layout
outlives words drawn once, few enough that a value used often long ago does not stay for ever (an entry's
priority only ever rises to the clock plus this many times its cost per byte)."""

OVERHEAD = 256
"""Bytes counted per cached value on top of its pixels: the Python objects around them (key, image)."""

P = ParamSpec("P")
R = TypeVar("R")


def size_of(value: object) -> int:
    """Bytes ``value`` holds: an image's pixels as Pillow stores them (:func:`pixel_bytes`) or a bytes
    object's length, summed over a tuple or list (an image with its offset), plus :data:`OVERHEAD`."""
    return _payload(value) + OVERHEAD


def pixel_bytes(image: Image.Image) -> int:
    """Bytes Pillow holds for ``image``'s pixels: one a pixel in modes ``1``, ``L`` and ``P``, two in the
    16-bit ones, four in every other (an RGB pixel is stored in four bytes, as RGBA's)."""
    mode = image.mode
    per_pixel = 1 if mode in ("1", "L", "P") else 2 if mode.startswith("I;16") else 4
    return image.width * image.height * per_pixel


def _payload(value: object) -> int:
    if isinstance(value, Image.Image):
        return pixel_bytes(value)
    if isinstance(value, bytes | bytearray):
        return len(value)
    if isinstance(value, tuple | list):
        return sum(_payload(item) for item in value)
    return 0


@dataclass(frozen=True, slots=True)
class Stats:
    """A snapshot of the shared cache."""

    entries: int
    bytes: int
    budget: int
    hits: int
    misses: int
    by_function: dict[str, int]
    """Bytes held per cached function (``module.name``), largest first: what to look at when memory grows."""


class CacheInfo(NamedTuple):
    """One function's share of the cache, named like ``functools.lru_cache``'s ``cache_info()``."""

    hits: int
    misses: int
    currsize: int
    bytes: int


class _Entry:
    __slots__ = ("priority", "size", "stamp", "uses", "value", "worth")

    def __init__(self, value: Any, size: int, worth: float) -> None:
        self.value, self.size, self.worth = value, size, worth
        self.uses = 1
        self.priority, self.stamp = 0.0, -1  # set when stored or used; its heap item may be older


class _Shared:
    """The entries of every cached function, their byte total, and a heap of their priorities as they were
    stored (a use restamps the entry alone; :meth:`_shrink` sets its heap item right when it meets it)."""

    def __init__(self, budget: int) -> None:
        self.lock = threading.Lock()
        self.budget = budget
        self.entries: dict[tuple[str, Hashable], _Entry] = {}
        self.heap: list[tuple[float, int, tuple[str, Hashable]]] = []
        self.order = itertools.count()  # ties go to the value used longest ago
        self.clock = 0.0
        self.bytes = 0
        self.hits: dict[str, int] = {}
        self.misses: dict[str, int] = {}

    def get(self, key: tuple[str, Hashable]) -> tuple[bool, Any]:
        with self.lock:
            hit = self.entries.get(key)
            counts = self.misses if hit is None else self.hits
            counts[key[0]] = counts.get(key[0], 0) + 1
            if hit is None:
                return False, None
            hit.uses = min(hit.uses + 1, USES_COUNTED)
            hit.priority, hit.stamp = self.clock + hit.uses * hit.worth, next(self.order)  # its heap item: see _shrink
            return True, hit.value

    def put(self, key: tuple[str, Hashable], value: Any, seconds: float) -> None:
        """Keep ``value``, which took ``seconds`` to draw."""
        size = size_of(value)
        with self.lock:
            if size > self.budget:
                return
            old = self.entries.pop(key, None)
            if old is not None:  # another thread drew the same value meanwhile
                self.bytes -= old.size
            entry = _Entry(value, size, seconds / size)
            entry.priority, entry.stamp = self.clock + entry.worth, next(self.order)
            self.entries[key] = entry
            self.bytes += size
            heapq.heappush(self.heap, (entry.priority, entry.stamp, key))
            if len(self.heap) > 2 * len(self.entries) + 64:  # left by dropped values: rebuild it
                self.heap = [(e.priority, e.stamp, k) for k, e in self.entries.items()]
                heapq.heapify(self.heap)
            self._shrink()

    def _shrink(self) -> None:
        # Each entry has one heap item, pushed when it was stored; a use only raises the entry's priority
        # (the clock never goes down), so its item is at most as high: an item popped whose entry was used
        # since goes back with the entry's priority, and the first one popped that is current is the least.
        while self.bytes > self.budget:
            priority, stamp, key = heapq.heappop(self.heap)
            entry = self.entries.get(key)
            if entry is None:  # evicted or dropped already
                continue
            if entry.stamp != stamp:  # used (or drawn again) since its item was pushed
                heapq.heappush(self.heap, (entry.priority, entry.stamp, key))
                continue
            del self.entries[key]
            self.bytes -= entry.size
            self.clock = priority

    def resize(self, budget: int) -> None:
        with self.lock:
            self.budget = budget
            self._shrink()

    def drop(self, name: str | None) -> None:
        with self.lock:
            if name is None:
                self.entries.clear()
                self.heap.clear()
                self.clock = 0.0
                self.bytes = 0
                self.hits.clear()
                self.misses.clear()
                return
            for key in [key for key in self.entries if key[0] == name]:
                self.bytes -= self.entries.pop(key).size
            self.hits.pop(name, None)
            self.misses.pop(name, None)

    def stats(self) -> Stats:
        with self.lock:
            by_function: dict[str, int] = {}
            for (name, _), entry in self.entries.items():
                by_function[name] = by_function.get(name, 0) + entry.size
            return Stats(
                entries=len(self.entries),
                bytes=self.bytes,
                budget=self.budget,
                hits=sum(self.hits.values()),
                misses=sum(self.misses.values()),
                by_function=dict(sorted(by_function.items(), key=lambda item: -item[1])),
            )

    def info(self, name: str) -> CacheInfo:
        with self.lock:
            held = [entry.size for (owner, _), entry in self.entries.items() if owner == name]
            return CacheInfo(self.hits.get(name, 0), self.misses.get(name, 0), len(held), sum(held))


_SHARED = _Shared(DEFAULT_BUDGET)


class CachedFunction(Generic[P, R]):
    """A function whose results live in the shared byte-bounded cache (see :func:`image_cache`)."""

    cache_info: Callable[[], CacheInfo]
    """This function's hits, misses, entries and bytes in the shared cache."""
    cache_clear: Callable[[], None]
    """Forget this function's cached values (tests use it to draw everything afresh)."""

    def __init__(self, fn: Callable[P, R]) -> None:
        self._fn = fn
        self._name = f"{fn.__module__}.{fn.__qualname__}"
        update_wrapper(self, fn)
        # Per instance, not methods: code that clears every ``cache_clear`` it finds must not meet this class.
        self.cache_info = partial(_SHARED.info, self._name)
        self.cache_clear = partial(_SHARED.drop, self._name)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        key = (self._name, (args, tuple(sorted(kwargs.items()))) if kwargs else args)
        found, value = _SHARED.get(key)
        if found:
            return value  # type: ignore[no-any-return]
        started = perf_counter()
        value = self._fn(*args, **kwargs)
        _SHARED.put(key, value, perf_counter() - started)
        return value


def image_cache(fn: Callable[P, R]) -> CachedFunction[P, R]:
    """Decorator: cache ``fn``'s results (images, tuples holding images, bytes) in the shared cache, keyed
    by its arguments, which must be hashable. Callers must not draw on a returned image: ``copy()`` it."""
    return CachedFunction(fn)


def configure(budget_bytes: int) -> None:
    """Set the shared budget in bytes; a smaller budget evicts the least recently used values at once."""
    if budget_bytes < 0:
        raise ValueError("the render cache budget cannot be negative")
    _SHARED.resize(budget_bytes)


def stats() -> Stats:
    """Entries, bytes, budget, hits and misses of the shared cache, and the bytes each function holds."""
    return _SHARED.stats()


def clear() -> None:
    """Empty the shared cache and reset its counters."""
    _SHARED.drop(None)
