"""The delivery loop: hands what the outbox holds to Discord, and marks a row done only once Discord
accepted it.

The loop takes the oldest pending row of each lane that is due (boards a member waits for first; private
views and followers' boards wait while posts to threads are in flight, so that they never slow the next
board), claims it for a while (so no other process delivers it too) and delivers it (:class:`Rows` knows
each kind) through a :class:`~tables.sending.Sender`, the cogs' Discord adapter, which raises
:class:`~tables.sending.Transient` or :class:`~tables.sending.Permanent` for what Discord refused. The rows
an action has just committed that head their lanes, its board among them, start at once
(:meth:`Delivery.begin`), without waiting for the loop to look.

* **Transient** failures (5xx, 429 with its retry-after, time-outs) are tried again after a growing pause
  (:data:`RETRY`), also across a restart; a restart, or a player asking for the board again, tries at
  once.
* **Permanent** ones are handled once and visibly: closed direct messages (50007) are said once in the
  game's thread, which points at **My hand**; a deleted thread moves the game to its channel, which says
  so; anything else is logged with the row, which is kept as ``failed``.
* Rows a later row of their lane says better are not delivered as they were: an older board overtaken
  by a newer one is posted as its lines only (nothing said is dropped), an older private view's notes go
  into the newer one, an older lobby edit is skipped.

What the interaction that caused a row may deliver as its answer (:meth:`Delivery.answer`) goes the same
way, through a sender that answers the interaction.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable, Sequence

from data.outbox import Entry
from data.store import Store
from tables import outbox
from tables.config import Config
from tables.pacer import Pacer
from tables.rows import Rows
from tables.sending import ClosedDms, Permanent, Sender, Transient

log = logging.getLogger("tables.delivery")

RETRY = (0.0, 10.0, 30.0, 60.0, 300.0)
"""Seconds before each new try of a row that failed for a passing reason (then every 5 minutes)."""
CLAIM = 60.0
"""Seconds a process holds a row it is delivering before another may take it (a process that died)."""
LANES_AT_ONCE = 8
"""Lanes the loop delivers at the same time."""
POSTS_AT_ONCE = 64
"""Lanes delivered at the same time counting those an action's commit began (:meth:`Delivery.begin`): the
posts members wait for do not wait for the loop's lanes (the render pool queues their drawing, boards
first), so in a burst every board is queued for drawing as soon as its action is committed."""
CLOSED_KEPT = 1024
"""Rows this process closed lately, remembered: one read as pending just before it closed is not delivered
again (on a database of its own)."""
BROKEN_AFTER = 8
"""Tries of a row whose delivery fails in an unexpected way (a bug) before it is given up as failed."""
KEEP_CLOSED = 86400.0
"""Seconds delivered and failed rows are kept (for the record) before they are purged."""


class Delivery:
    """Delivers the outbox of this process (one per service)."""

    def __init__(
        self, store: Store, rows: Rows, config: Config, now: Callable[[], float], tick: Callable[[], None]
    ) -> None:
        self.store = store
        self.outbox = store.outbox
        self.rows = rows
        self.config = config
        self.now = now
        self.tick = tick
        """A full garbage collection, if one is due (:class:`tables.collector.Collector`): between answers."""
        self.sender: Sender | None = None
        self._lanes: dict[str, asyncio.Task[None]] = {}
        self._held: dict[int, int] = {}
        """The rows this process is delivering now, with their priorities."""
        self._closed: deque[int] = deque(maxlen=CLOSED_KEPT)
        """The rows this process closed lately (on a database of its own, only it closes rows)."""
        self._pacer = Pacer(self._look, "delivery")
        self._purged = 0.0
        self.listeners: list[Callable[[], None]] = []
        """Called after each row is settled (delivered, dropped or failed): ``play`` publishes its page then."""

    def start(self) -> None:
        if self.sender is not None:
            self._pacer.wake()

    async def stop(self) -> None:
        await self._pacer.stop()
        lanes = list(self._lanes.values())
        for task in lanes:
            task.cancel()
        await asyncio.gather(*lanes, return_exceptions=True)

    def wake(self) -> None:
        """Something new is owed: look at the outbox now."""
        if self.sender is not None:
            self._pacer.wake()

    @property
    def posting(self) -> bool:
        """Whether a row members wait for (a post in a game's thread, the board among them) is being delivered."""
        return any(priority <= outbox.THREAD for priority in self._held.values())

    def begin(self, written: Sequence[Entry]) -> bool:
        """Start delivering the rows a change has just written and committed that members wait for (posts in
        its thread, the board among them) now, without waiting for the loop to look for them or for one of
        its :data:`LANES_AT_ONCE` lanes: those that head their lanes and are due (up to
        :data:`POSTS_AT_ONCE` lanes in all). Whether it began any: then the loop looks again once
        they are out (the rest waits for them anyway: boards first), else it must be woken (:meth:`wake`)."""
        if self.sender is None:
            return False
        began = False
        now = self.now()
        for entry in written:
            if len(self._lanes) >= POSTS_AT_ONCE:
                break
            if entry.head and entry.priority <= outbox.THREAD and entry.due_at <= now and entry.lane not in self._lanes:
                self._held[entry.id] = entry.priority  # boards first: the loop holds private rows back meanwhile
                self._lanes[entry.lane] = asyncio.get_running_loop().create_task(
                    self._deliver_claimed(entry, claim=self.store.shared), name=f"deliver-{entry.id}"
                )
                began = True
        return began

    # ------------------------------------------------------------------ the loop

    async def _look(self) -> float | None:
        """Start delivering every lane whose next row is due (up to :data:`LANES_AT_ONCE` lanes at once);
        the seconds until the next row falls due."""
        now = self.now()
        room = LANES_AT_ONCE - len(self._lanes)
        orphaned = now - 2 * self.config.lease  # rows a process that died wrote are taken over then
        posting = self.posting
        # The rows this process is delivering are still pending (on a database of its own they are claimed
        # in memory only): left out, so that they neither crowd out the rows no lane delivers yet nor are
        # read again for nothing.
        heads = await self.outbox.due(now=now, limit=room, orphaned=orphaned, besides=self._held) if room > 0 else []
        for entry in heads:
            if len(self._lanes) >= LANES_AT_ONCE:
                break
            if entry.priority > outbox.THREAD and posting:
                break  # boards first: private views and followers wait until the posts in flight are out
            posting = posting or entry.priority <= outbox.THREAD
            if entry.lane not in self._lanes and await self._claim(entry):
                self._lanes[entry.lane] = asyncio.get_running_loop().create_task(
                    self._deliver_claimed(entry), name=f"deliver-{entry.id}"
                )
        if now - self._purged > KEEP_CLOSED / 24:
            self._purged = now
            await self.outbox.purge(before=now - KEEP_CLOSED)
        self.tick()  # a full garbage collection, if one is due, between answers
        if self._lanes:
            return None  # a lane being delivered wakes the loop when it is done: it looks again then
        due = await self.outbox.next_due()
        # A row claimed by a process that died is taken over when its claim runs out, and rows it wrote at
        # the lease sweeps (tables.runner).
        return None if due is None else max(0.0, due - now) or None

    async def _claim(self, entry: Entry) -> bool:
        """Take a row for delivery by this process: in memory, and on a database other processes share, in
        the database too (so that no other process delivers it meanwhile)."""
        if entry.id in self._held:
            return False
        self._held[entry.id] = entry.priority
        if self.store.shared:
            taken = await self._claim_shared(entry)
        else:  # one process: a row it has not closed since reading it is its alone
            taken = entry.id not in self._closed
        if not taken:
            self._held.pop(entry.id, None)
        return taken

    async def _claim_shared(self, entry: Entry) -> bool:
        """Claim a row in the database other processes share, so that none of them delivers it meanwhile."""
        now = self.now()
        return await self.outbox.claim(entry.id, self.config.runner, until=now + CLAIM, now=now)

    async def _deliver_claimed(self, entry: Entry, *, claim: bool = False) -> None:
        """Deliver a row this process holds (``claim``: once claimed in the shared database), then free its
        lane and look again."""
        try:
            assert self.sender is not None
            if not claim or await self._claim_shared(entry):
                await self.deliver(entry, self.sender)
        finally:
            self._held.pop(entry.id, None)
            self._lanes.pop(entry.lane, None)
            self._pacer.wake()

    async def answer(self, entry_id: int, sender: Sender) -> bool:
        """Deliver row ``entry_id`` through ``sender`` (the interaction that caused it answering with it), if
        it is the next of its lane; whether it was delivered. If not, the loop delivers it, in its turn."""
        entry = await self.outbox.get(entry_id)
        if entry is None or entry.status != "pending":
            return False
        if not await self.outbox.first(entry) or not await self._claim(entry):
            await self.outbox.make_due(entry.id, now=self.now())
            self.wake()
            return False
        try:
            delivered = await self.deliver(entry, sender)
        finally:
            self._held.pop(entry.id, None)
        self.wake()
        return delivered

    async def deliver(self, entry: Entry, sender: Sender) -> bool:
        """Deliver one claimed row and record how it went; whether Discord accepted it."""
        try:
            if entry.game_id is not None:
                entry = await self.rows.here(entry)
            status, result = await getattr(self.rows, entry.kind)(entry, sender)
        except Transient as exc:
            await self._retry(entry, str(exc), exc.retry_after)
            return False
        except Permanent as exc:
            await self._permanent(entry, exc)
            return False
        except Exception as exc:
            log.exception("Outbox row %s (%s, game %s) could not be delivered", entry.id, entry.kind, entry.game_id)
            if entry.attempts + 1 >= BROKEN_AFTER:
                await self._settle(entry, "failed", f"{type(exc).__name__}: {exc}")
            else:
                await self._retry(entry, f"{type(exc).__name__}: {exc}", None)
            return False
        await self._settle(entry, status, result)
        return status == "done"

    async def _settle(self, entry: Entry, status: str, result: str | None) -> None:
        self._closed.append(entry.id)
        await self.outbox.settle(entry.id, status, result, now=self.now())
        for listener in self.listeners:
            listener()

    async def _retry(self, entry: Entry, reason: str, after: float | None) -> None:
        delay = max(RETRY[min(entry.attempts, len(RETRY) - 1)], after or 0.0)
        log.info(
            "Outbox row %s (%s, game %s): %s; trying again in %.0f s",
            entry.id,
            entry.kind,
            entry.game_id,
            reason,
            delay,
        )
        await self.outbox.retry(entry.id, due_at=self.now() + delay, error=reason[:300])

    # ------------------------------------------------------------------ failures

    async def _permanent(self, entry: Entry, exc: Permanent) -> None:
        await self._settle(entry, "failed", f"{type(exc).__name__} {exc.code}: {exc}"[:300])
        if isinstance(exc, ClosedDms) and entry.game_id is not None:
            if await self.rows.closed_dms(entry.game_id, entry.payload["user"]):
                self.wake()
            return
        log.warning("Outbox row %s (%s, game %s) cannot be delivered: %s", entry.id, entry.kind, entry.game_id, exc)
