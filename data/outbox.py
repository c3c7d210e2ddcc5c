"""The outbox: every message the bot owes, as a row written in the transaction of the change that causes
it (the transactional outbox pattern), delivered later and marked done only once Discord accepted it.

Rows of one *lane* (a game's thread, one member's private messages of a game, a lobby's message…) are
delivered in order: only the oldest pending row of a lane is ever due. Between lanes, a lower
``priority`` goes first. The process that wrote a row delivers it; another process takes it over once it
has waited too long (its writer died). A delivering process *claims* a row for a while, so two processes
never deliver the same row at once, and a row whose process died is claimed again once the claim ran out.

Beside it, ``deliveries`` keeps small per-seat markers of what a player was last told (the digest of
their private view, the message that shows it, a reminder already sent), so a restart neither repeats
nor loses them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from cachetools import LRUCache

from data.engine import Database, Later, Row, Transaction
from data.repository import Repository
from data.rows import JSON, Rows, column, derived, dumps


@dataclass(frozen=True, slots=True)
class Owed:
    """A message to write into the outbox (see :class:`Entry` for the fields)."""

    lane: str
    kind: str
    payload: dict[str, Any]
    priority: int = 1
    game_id: int | None = None
    due_at: float | None = None
    """Not before this time (``None``: as soon as possible)."""
    after: int | None = None
    """Not before row ``after`` (of another lane) is delivered or given up."""


@dataclass(frozen=True, slots=True)
class Entry:
    """A row of the outbox."""

    id: int
    lane: str
    """Rows of one lane are delivered in order."""
    kind: str
    """What to do: the table service's vocabulary (post, edit, direct message…)."""
    payload: dict[str, Any] = column(JSON)
    priority: int
    """Lower goes first between lanes."""
    game_id: int | None
    attempts: int
    """Failed deliveries so far."""
    due_at: float
    created_at: float
    status: str = "pending"
    """``pending``, ``done`` (Discord accepted it), ``failed`` (it could not be delivered) or ``dropped``."""
    followed: bool = derived(default=True)
    """Whether a pending row of the same kind may wait behind it in its lane (as read by
    :meth:`OutboxRepo.due` or written by :meth:`OutboxRepo.write`; ``True`` where nobody looked:
    :meth:`OutboxRepo.later` tells)."""
    head: bool | None = derived(default=None)
    """Whether it is the next to deliver in its lane: the oldest pending row, waiting for no other (as read
    by :meth:`OutboxRepo.due` or written by :meth:`OutboxRepo.write`; ``None``: nobody looked)."""


_ENTRIES = Rows(Entry)


def _head(row: str) -> str:
    """SQL: ``row`` (a name of the outbox table) is the oldest pending row of its lane, and the row it waits
    for (if any) is settled."""
    return (
        f"NOT EXISTS (SELECT 1 FROM outbox p WHERE p.lane = {row}.lane AND p.status = 'pending' AND p.id < {row}.id)"
        f" AND ({row}.after_id IS NULL"
        f" OR NOT EXISTS (SELECT 1 FROM outbox a WHERE a.id = {row}.after_id AND a.status = 'pending'))"
    )


_HEAD = _head("o")
"""A row is the oldest pending one of its lane, and the row it waits for (if any) is settled."""


Key = tuple[int, int, str]

_SETTLE = "UPDATE outbox SET status = ?, result = ?, done_at = ?, claimed_until = 0 WHERE id = ? AND status = 'pending'"
"""Close a pending row (:meth:`OutboxRepo.settle`)."""

ADD_AT_ONCE = 100
"""Rows one ``INSERT`` of :meth:`OutboxRepo.add` writes (nine values each, far below either engine's
limit on a statement's parameters)."""


class MarkerCache:
    """The markers this process read or wrote lately, for a database no other process writes: most are
    read after every action (is this private view new?), and each read is a trip to the database.

    Only committed values enter it: a transaction's own writes wait in its ``pending`` dict until it
    commits (:meth:`data.store.Store.transaction`); a value read inside a transaction is committed (the
    transaction's own writes are looked up first)."""

    SIZE = 4096

    def __init__(self) -> None:
        self._values: LRUCache[Key, str | None] = LRUCache(self.SIZE)

    def get(self, key: Key) -> tuple[bool, str | None]:
        """Whether the marker is known here, and its value (``None`` is a value: no marker)."""
        if key in self._values:
            return True, self._values[key]
        return False, None

    def put(self, key: Key, value: str | None) -> None:
        self._values[key] = value

    def commit(self, pending: dict[Key, str | None]) -> None:
        for key, value in pending.items():
            if key[2] == "*":  # a seat forgotten: every kind
                for known in [k for k in self._values if k[:2] == key[:2]]:
                    del self._values[known]
            else:
                self.put(key, value)


class Written:
    """Rows :meth:`OutboxRepo.write_later` writes with a transaction's commit: :attr:`entries` once it has."""

    __slots__ = ("_later", "_now", "_owed")

    def __init__(self, owed: Sequence[Owed], now: float, later: list[Later]) -> None:
        self._owed, self._now, self._later = owed, now, later

    @property
    def entries(self) -> list[Entry]:
        """The rows written, as :meth:`OutboxRepo.write` gives them."""
        return OutboxRepo._entries(self._owed, [row for written in self._later for row in written.rows], self._now)


class OutboxRepo(Repository):
    """The ``outbox`` and ``deliveries`` tables, as process ``owner`` writes and delivers them."""

    __slots__ = ("_cache", "_pending", "owner")

    def __init__(
        self,
        queries: Database | Transaction,
        owner: str | None = None,
        cache: MarkerCache | None = None,
        pending: dict[Key, str | None] | None = None,
    ) -> None:
        super().__init__(queries)
        self.owner = owner
        self._cache = cache
        self._pending = pending
        """This transaction's marker writes (``None``: not in a transaction; each write commits)."""

    async def add(self, owed: Sequence[Owed], *, now: float) -> list[int]:
        """Write messages owed, to be delivered by this repository's process; their ids, in order."""
        return [entry.id for entry in await self.write(owed, now=now)]

    async def write(self, owed: Sequence[Owed], *, now: float) -> list[Entry]:
        """Write messages owed, to be delivered by this repository's process; the rows written, in order,
        each saying whether it is the next to deliver in its lane (:attr:`Entry.head`) and whether a row of
        its kind follows it (:attr:`Entry.followed`). One statement writes them all (:data:`ADD_AT_ONCE` at
        most)."""
        returned: list[Row] = []
        async with self._writing() as tx:
            for sql, args in self._inserts(owed, now):
                returned += await tx.fetchall(sql, args)
        return self._entries(owed, returned, now)

    def write_later(self, owed: Sequence[Owed], *, now: float) -> Written:
        """:meth:`write` as the last statement of the transaction this repository is bound to: the rows go
        with its commit (on SQLite, in the same trip to the connection's thread, so the transaction holds
        the write lock one trip less), and their entries are there once it has committed."""
        tx = self._transaction()
        return Written(owed, now, [tx.later(sql, args) for sql, args in self._inserts(owed, now)])

    def _inserts(self, owed: Sequence[Owed], now: float) -> list[tuple[str, list[Any]]]:
        """The ``INSERT … RETURNING`` statements that write ``owed``, :data:`ADD_AT_ONCE` rows each."""
        statements = []
        for start in range(0, len(owed), ADD_AT_ONCE):
            rows = owed[start : start + ADD_AT_ONCE]
            values = ", ".join(["(?, ?, ?, ?, ?, 'pending', 0, ?, 0, ?, ?, ?)"] * len(rows))
            sql = (
                "INSERT INTO outbox (lane, priority, kind, payload, game_id, status, attempts, due_at,"
                f" claimed_until, created_at, after_id, owner) VALUES {values}"
                f" RETURNING id, {_head('outbox')} AS head"
            )
            statements.append((sql, [value for o in rows for value in self._columns(o, now)]))
        return statements

    @staticmethod
    def _entries(owed: Sequence[Owed], returned: Sequence[Row], now: float) -> list[Entry]:
        """The rows written for ``owed``, from what their statements returned."""
        # Ids are given in the order of the rows; RETURNING may list them in any order.
        written = sorted((r["id"], bool(r["head"])) for r in returned)
        # Whether a row heads its lane is the database's answer for the rows written before this call
        # (PostgreSQL's subquery sees none of its statement's rows, SQLite's those before each row): behind
        # one of this call's rows, it does not.
        lanes: set[str] = set()
        left = Counter((o.lane, o.kind) for o in owed)
        entries = []
        for o, (row_id, head) in zip(owed, written, strict=True):
            left[o.lane, o.kind] -= 1
            followed, head = left[o.lane, o.kind] > 0, head and o.lane not in lanes
            entries.append(
                Entry(
                    row_id,
                    o.lane,
                    o.kind,
                    o.payload,
                    o.priority,
                    o.game_id,
                    0,
                    o.due_at or now,
                    now,
                    "pending",
                    followed,
                    head,
                )
            )
            lanes.add(o.lane)
        return entries

    def _columns(self, o: Owed, now: float) -> tuple[Any, ...]:
        """A row's values for :meth:`add`, in its column order."""
        return (o.lane, o.priority, o.kind, dumps(o.payload), o.game_id, o.due_at or now, now, o.after, self.owner)

    async def due(self, *, now: float, limit: int, orphaned: float = 0.0, besides: Collection[int] = ()) -> list[Entry]:
        """The rows this process delivers now: the oldest pending row of each lane, due and not claimed by a
        living process, written by this process (or by any process before ``orphaned``: its writer died),
        lowest priority first; none of ``besides`` (the rows it is delivering already, which on a database
        of its own are claimed in memory only)."""
        skipped = f" AND o.id NOT IN ({', '.join('?' * len(besides))})" if besides else ""
        return [
            _ENTRIES.read(r, followed=bool(r["followed"]), head=True)
            for r in await self._q.fetchall(
                "SELECT o.*, EXISTS (SELECT 1 FROM outbox l WHERE l.lane = o.lane AND l.status = 'pending'"
                " AND l.id > o.id AND l.kind = o.kind) AS followed"
                " FROM outbox o WHERE o.status = 'pending' AND o.due_at <= ? AND o.claimed_until < ?"
                f" AND (o.owner IS NULL OR o.owner = ? OR o.created_at < ?){skipped} AND {_HEAD}"
                " ORDER BY o.priority, o.id LIMIT ?",
                (now, now, self.owner, orphaned, *besides, limit),
            )
        ]

    async def next_due(self) -> float | None:
        """When the next row this process wrote falls due, as the oldest pending row of its lane, or its
        claim runs out (``None``: nothing is pending)."""
        row = await self._q.fetchone(
            "SELECT MIN(CASE WHEN o.claimed_until > o.due_at THEN o.claimed_until ELSE o.due_at END) AS at"
            f" FROM outbox o WHERE o.status = 'pending' AND (o.owner IS NULL OR o.owner = ?) AND {_HEAD}",
            (self.owner,),
        )
        return None if row is None or row["at"] is None else float(row["at"])

    async def get(self, entry_id: int) -> Entry | None:
        row = await self._q.fetchone("SELECT * FROM outbox WHERE id = ?", (entry_id,))
        return None if row is None else _ENTRIES.read(row)

    async def first(self, entry: Entry) -> bool:
        """Whether a row is the next to deliver in its lane (the oldest pending one, not waiting for another)."""
        row = await self._q.fetchone(f"SELECT 1 FROM outbox o WHERE o.id = ? AND {_HEAD}", (entry.id,))
        return row is not None

    async def claim(self, entry_id: int, by: str, *, until: float, now: float) -> bool:
        """Take a pending row for delivery by process ``by`` until ``until``; False if another has it."""
        return (
            await self._write(
                "UPDATE outbox SET claimed_by = ?, claimed_until = ? WHERE id = ? AND status = 'pending'"
                " AND claimed_until < ?",
                (by, until, entry_id, now),
            )
            == 1
        )

    async def settle(self, entry_id: int, status: str, result: str | None, *, now: float) -> bool:
        """Close a row: ``done`` (Discord accepted it; ``result`` is what it answered, a message id),
        ``failed`` (it cannot be delivered: ``result`` says why) or ``dropped`` (a later row says it all).
        False if it was closed already."""
        return await self._write(_SETTLE, (status, result, now, entry_id)) == 1

    def settle_later(self, entry_id: int, status: str, result: str | None, *, now: float) -> None:
        """:meth:`settle` as a write of the transaction this repository is bound to whose outcome nobody
        reads: the row closes with the commit (on SQLite in its trip), or not at all."""
        self._transaction().defer(_SETTLE, (status, result, now, entry_id))

    async def retry(self, entry_id: int, *, due_at: float, error: str) -> None:
        """A delivery failed for a passing reason: try again at ``due_at``."""
        await self._write(
            "UPDATE outbox SET attempts = attempts + 1, due_at = ?, result = ?, claimed_until = 0"
            " WHERE id = ? AND status = 'pending'",
            (due_at, error, entry_id),
        )

    async def rush(self, *, now: float, game_id: int | None = None, waiting: bool = False) -> int:
        """Make the pending rows of a game (of every game: ``None``) that failed for a passing reason due now:
        a player asking for the board means try again at once. ``waiting``: also the rows waiting for an
        answer that is not coming (a restart). How many."""
        where, args = ("AND game_id = ?", (game_id,)) if game_id is not None else ("", ())
        held = "(attempts > 0 OR payload LIKE '%\"answer\":true%')" if waiting else "attempts > 0"
        return await self._write(
            f"UPDATE outbox SET due_at = ? WHERE status = 'pending' AND due_at > ? AND {held} {where}",
            (now, now, *args),
        )

    async def make_due(self, entry_id: int, *, now: float) -> None:
        """Make a pending row due now (one an interaction meant to deliver as its answer, but could not)."""
        await self._write(
            "UPDATE outbox SET due_at = ? WHERE id = ? AND status = 'pending' AND due_at > ?", (now, entry_id, now)
        )

    async def release(self, by: str) -> int:
        """Let go of the claims of process ``by`` (restarted: it delivers them again at once); how many."""
        return await self._write(
            "UPDATE outbox SET claimed_until = 0 WHERE claimed_by = ? AND status = 'pending'", (by,)
        )

    async def later(self, entry: Entry, kind: str) -> list[Entry]:
        """The pending rows of ``kind`` queued behind ``entry`` in its lane, oldest first (none without a trip
        to the database when ``entry`` was read with none of its own kind behind it: :attr:`Entry.followed`)."""
        if kind == entry.kind and not entry.followed:
            return []
        return [
            _ENTRIES.read(r)
            for r in await self._q.fetchall(
                "SELECT * FROM outbox WHERE lane = ? AND kind = ? AND status = 'pending' AND id > ? ORDER BY id",
                (entry.lane, kind, entry.id),
            )
        ]

    async def replace_payload(self, entry_id: int, payload: dict[str, Any]) -> None:
        await self._write("UPDATE outbox SET payload = ? WHERE id = ?", (dumps(payload), entry_id))

    async def result(self, entry_id: int) -> str | None:
        """What Discord answered to a delivered row (a message id), if it was delivered."""
        row = await self._q.fetchone("SELECT result FROM outbox WHERE id = ? AND status = 'done'", (entry_id,))
        return None if row is None else row["result"]

    async def pending(self, *, game_id: int | None = None, lane: str | None = None) -> list[Entry]:
        """Every row not yet delivered (of one game, or one lane), oldest first."""
        where, args = ("", ())
        if game_id is not None:
            where, args = "AND game_id = ?", (game_id,)
        elif lane is not None:
            where, args = "AND lane = ?", (lane,)
        return [
            _ENTRIES.read(r)
            for r in await self._q.fetchall(f"SELECT * FROM outbox WHERE status = 'pending' {where} ORDER BY id", args)
        ]

    async def closed(self, *, status: str, game_id: int | None = None) -> list[tuple[Entry, str | None]]:
        """Rows closed with ``status`` (of one game) and their results, oldest first."""
        where, args = ("AND game_id = ?", (game_id,)) if game_id is not None else ("", ())
        return [
            (_ENTRIES.read(r), r["result"])
            for r in await self._q.fetchall(
                f"SELECT * FROM outbox WHERE status = ? {where} ORDER BY id", (status, *args)
            )
        ]

    async def purge(self, *, before: float) -> int:
        """Forget rows closed before ``before`` (delivered, failed or dropped); how many."""
        return await self._write("DELETE FROM outbox WHERE status != 'pending' AND done_at < ?", (before,))

    # ------------------------------------------------------------------ markers

    async def marker(self, game_id: int, seat: int, kind: str) -> str | None:
        """What a seat was last told of ``kind`` (a private view's digest, its message, a reminder…)."""
        key = (game_id, seat, kind)
        if self._pending is not None and (key in self._pending or (game_id, seat, "*") in self._pending):
            if key in self._pending:
                return self._pending[key]
        elif self._cache is not None:
            hit, value = self._cache.get(key)
            if hit:
                return value
        row = await self._q.fetchone(
            "SELECT value FROM deliveries WHERE game_id = ? AND seat = ? AND kind = ?", (game_id, seat, kind)
        )
        value = row["value"] if row else None
        if self._cache is not None and (self._pending is None or (game_id, seat, "*") not in self._pending):
            self._cache.put(key, value)
        return value

    async def markers(self, game_id: int, kind: str) -> dict[int, str]:
        """Every seat's marker of ``kind`` in a game."""
        return {
            r["seat"]: r["value"]
            for r in await self._q.fetchall(
                "SELECT seat, value FROM deliveries WHERE game_id = ? AND kind = ?", (game_id, kind)
            )
        }

    async def set_marker(self, game_id: int, seat: int, kind: str, value: str) -> None:
        """Record what a seat was last told of ``kind``; in a transaction, written with its next trip (its
        own reads of the marker see it at once)."""
        await self._write_unread(
            "INSERT INTO deliveries (game_id, seat, kind, value) VALUES (?, ?, ?, ?)"
            " ON CONFLICT(game_id, seat, kind) DO UPDATE SET value = excluded.value",
            (game_id, seat, kind, value),
        )
        self._wrote((game_id, seat, kind), value)

    def _wrote(self, key: Key, value: str | None) -> None:
        if self._pending is not None:
            self._pending[key] = value
        elif self._cache is not None:
            self._cache.commit({key: value})

    async def forget_markers(self, game_id: int, seat: int) -> None:
        """Forget what was told to a place at the table (it has a new player)."""
        await self._write("DELETE FROM deliveries WHERE game_id = ? AND seat = ?", (game_id, seat))
        if self._pending is not None:
            for key in [k for k in self._pending if k[:2] == (game_id, seat)]:
                del self._pending[key]
        self._wrote((game_id, seat, "*"), None)
