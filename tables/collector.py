"""Full garbage collections between answers, never in one.

CPython's cycle collector walks every tracked object of the process in a full collection. With a thousand
games in memory that is 50-80 ms on a small machine, and CPython starts one wherever an allocation crosses
its threshold: in whichever member's answer it lands in, or in the middle of a burst of them (traced in
the scale bench, every burst slower than 300 ms was one a full collection landed in).

While a :class:`Collector` runs, CPython still makes its young collections (a millisecond or so), but
never a full one of its own. The service asks for one where the process may pause (:meth:`Collector.tick`,
after each look of the delivery loop), and makes it when one is due and no answer is under way (``busy``:
an action being applied and committed, a board being drawn or posted).

A full collection is due by a rule like CPython's own: after as many young-generation collections as its
third threshold, once the heap has grown by a quarter since the last full one. (CPython waits until the
objects that survived into its oldest generation since are a quarter of those it holds; here, until the
blocks Python's allocator holds have grown by a quarter, which costs nothing to read.) After
:data:`OVERDUE` times the threshold it is due whatever the heap, for garbage in cycles may hold memory the
allocator does not count (a large buffer). A due collection waits for the first quiet moment; if none
comes by :data:`LATE` times the threshold, it runs anyway. Objects without cycles are freed at once by
reference counting, as always.
"""

from __future__ import annotations

import gc
import logging
import sys
from collections.abc import Callable

log = logging.getLogger(__name__)

NEVER = 2**31 - 1
"""The third threshold while a collector runs: CPython never starts a full collection by itself."""
GROWTH = 1.25
"""How much the heap grows after a full collection before the next is due."""
OVERDUE = 10
"""After this many times the threshold, a full collection is due whatever the heap."""
LATE = 20
"""After this many times the threshold, a due full collection runs even during an answer."""

_running = 0
"""Collectors running in this process (tests run several services in one): the thresholds are the
process's, set by the first to start and given back by the last to stop."""
_threshold: tuple[int, int, int] = gc.get_threshold()


class Collector:
    """Full garbage collections when ``busy()`` says no answer is under way (see the module)."""

    def __init__(self, busy: Callable[[], bool]) -> None:
        self.busy = busy
        self.due = 0
        """Young-generation collections after which a full one is due (CPython's third threshold)."""
        self.growth = GROWTH
        self.collections = 0
        self.late = 0
        """Of :attr:`collections`, those that ran during an answer, as no quiet moment came in time."""
        self._started = False
        self._after = 0
        """The blocks Python's allocator held after the last full collection."""

    def start(self) -> None:
        global _running, _threshold
        if self._started:
            return
        self._started = True
        if not _running:
            _threshold = gc.get_threshold()
            gc.set_threshold(_threshold[0], _threshold[1], NEVER)
        _running += 1
        self.due = max(1, _threshold[2])
        self._after = sys.getallocatedblocks()

    def stop(self) -> None:
        global _running
        if not self._started:
            return
        self._started = False
        _running -= 1
        if not _running:
            gc.set_threshold(*_threshold)

    def tick(self) -> bool:
        """Make the full collection that is due, unless an answer is under way and it is not yet late;
        whether it did."""
        waiting = gc.get_count()[2]
        if not self._started or not gc.isenabled() or waiting < self.due:
            return False
        busy = self.busy()
        if busy and waiting < self.due * LATE:
            return False  # not now, whatever the heap (counting its blocks walks the allocator's arenas)
        if waiting < self.due * OVERDUE and sys.getallocatedblocks() < self._after * self.growth:
            return False
        if busy:
            self.late += 1
            log.debug("A full garbage collection ran during an answer: no quiet moment in %d young ones", waiting)
        gc.collect()
        self._after = sys.getallocatedblocks()
        self.collections += 1
        return True
