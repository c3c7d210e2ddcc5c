"""The SQLite engine (aiosqlite): one connection to one file in WAL mode, the embedded default."""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from data.engine import Deferred, Transaction

log = logging.getLogger("data.sqlite")


def _run(conn: sqlite3.Connection, sql: str, args: Any, *, many: bool = False) -> tuple[int, int | None]:
    """On the connection's thread: run a statement, closing its cursor there. A cursor freed on the event
    loop's thread resets its statement from that thread while the connection's thread runs another, which
    corrupts the statement cache and fails a write at random with "bad parameter or other API misuse"
    (CPython gh-118172; seen here in a burst of 20 actions). Returns its row count and last row id."""
    cursor = conn.executemany(sql, args) if many else conn.execute(sql, args)
    try:
        return cursor.rowcount, cursor.lastrowid
    finally:
        cursor.close()


def _after(
    conn: sqlite3.Connection, deferred: Sequence[Deferred], then: Callable[..., Any], *args: Any, **kwargs: Any
) -> Any:
    """On the connection's thread: the deferred writes, then ``then(conn, *args, **kwargs)``."""
    for sql, params, many, later in deferred:
        if later is None:
            _run(conn, sql, params, many=many)
        else:
            later.fill(_rows(conn, sql, params))
    return then(conn, *args, **kwargs)


def _rows(conn: sqlite3.Connection, sql: str, args: Any) -> list[sqlite3.Row]:
    cursor = conn.execute(sql, args)
    try:
        return cursor.fetchall()
    finally:
        cursor.close()


def _commit(conn: sqlite3.Connection) -> None:
    conn.commit()


def _committed(conn: sqlite3.Connection, sql: str, args: Any, returning: bool) -> Any:
    """On the connection's thread: one write and its commit (rolled back if it fails); its row count, or
    with ``returning`` the rows it read back (``… RETURNING``)."""
    try:
        result = _rows(conn, sql, args) if returning else _run(conn, sql, args)[0]
        conn.commit()
    except BaseException:
        conn.rollback()
        raise
    return result


Queued = tuple[str, Sequence[Any], bool, "asyncio.Future[Any]"]
"""A write of its own waiting for the write lock: ``(sql, args, returning, what its caller awaits)``."""


def _each_committed(conn: sqlite3.Connection, writes: Sequence[tuple[str, Any, bool]]) -> list[Any]:
    """On the connection's thread: each write and its commit, in order, as :func:`_committed`: its row count
    or rows, or the error that rolled it back (alone: the writes before and after it stand)."""
    out: list[Any] = []
    for sql, args, returning in writes:
        try:
            out.append(_committed(conn, sql, args, returning))
        except Exception as exc:
            out.append(exc)
    return out


async def _on_thread(conn: aiosqlite.Connection, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``fn(sqlite3_connection, *args, **kwargs)`` in one call on ``conn``'s thread."""
    # aiosqlite has no public call for a function of the connection: its own helpers use this one.
    return await conn._execute(fn, conn._conn, *args, **kwargs)


CHECKPOINT_EVERY = 64
"""Write transactions after which the WAL is copied back into the database file, beside the writer
(:meth:`SqliteDatabase.transaction`)."""


class SqliteTransaction(Transaction):
    """Statements on the connection (writes only while its write lock is held)."""

    __slots__ = ("_conn",)

    def __init__(self, conn: aiosqlite.Connection) -> None:
        super().__init__()
        self._conn = conn

    # Each statement is one call on the connection's thread (a read is :func:`_rows`, a write is :func:`_run`,
    # not a cursor's execute, fetch and close), with the writes deferred before it: every hop to that thread
    # and back waits for the event loop, and no cursor may outlive its call there (:func:`_run`).

    async def _hop(self, then: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        return await _on_thread(self._conn, _after, self._take_deferred(), then, *args, **kwargs)

    async def fetchone(self, sql: str, args: Sequence[Any] = ()) -> aiosqlite.Row | None:
        return next(iter(await self._hop(_rows, sql, args)), None)

    async def fetchall(self, sql: str, args: Sequence[Any] = ()) -> list[aiosqlite.Row]:
        return list(await self._hop(_rows, sql, args))

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        count, _ = await self._call(sql, args)
        return count

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await self._call(sql, rows, many=True)

    async def insert(self, sql: str, args: Sequence[Any]) -> int:
        _, row_id = await self._call(sql, args)
        assert row_id is not None
        return row_id

    async def commit(self) -> None:
        """The deferred writes and the commit, in one trip."""
        await self._hop(_commit)

    async def _call(self, sql: str, args: Any, *, many: bool = False) -> tuple[int, int | None]:
        return await self._hop(_run, sql, args, many=many)  # type: ignore[no-any-return]

    async def after_bulk_copy(self, generated: Sequence[tuple[str, str]]) -> None:
        """Nothing to do: SQLite numbers a new row after the largest id in its table."""


async def _connect(path: str | os.PathLike[str], *pragmas: str) -> aiosqlite.Connection:
    conn = await aiosqlite.connect(path)
    conn.row_factory = aiosqlite.Row
    for pragma in pragmas:
        # Close each cursor: a pragma that returns a row would otherwise keep a statement open.
        await (await conn.execute(f"PRAGMA {pragma}")).close()
    return conn


def check_writable(path: str | os.PathLike[str]) -> None:
    """Open the SQLite file at ``path`` as :meth:`SqliteDatabase.open` will (creating it and its folders if
    missing, in WAL mode) and begin a write transaction there, then let go: a database the bot cannot use is
    found before it logs in to Discord. ``ValueError`` gives the reason in one line (a folder in the way, a
    read-only file or folder, a file that is not a database)."""
    try:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(path, isolation_level=None)
        try:
            # Changing to WAL writes the file, and WAL's own files go beside it: the folder must be writable.
            conn.execute("PRAGMA journal_mode=WAL").close()
            conn.execute("BEGIN IMMEDIATE").close()
            conn.execute("ROLLBACK").close()
        finally:
            conn.close()
    except (FileExistsError, NotADirectoryError):  # from mkdir
        raise ValueError(
            f"the SQLite file {path} cannot be used: a file stands where a folder of its path should be"
        ) from None
    except (OSError, sqlite3.Error) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise ValueError(f"the SQLite file {path} cannot be used: {reason}") from None


class SqliteDatabase:
    """One aiosqlite connection. Use :meth:`open`."""

    shared = False
    """One process owns the file: nothing else writes to it."""

    def __init__(
        self,
        conn: aiosqlite.Connection,
        reader: aiosqlite.Connection | None = None,
        checkpointer: aiosqlite.Connection | None = None,
    ) -> None:
        self._conn = conn
        # Reads outside a transaction go through a second connection (WAL lets it read while the first
        # writes): they no longer queue behind other games' writes on the one connection's thread.
        self._reader = reader
        self._reads = SqliteTransaction(reader if reader is not None else conn)
        # One connection means one transaction: every write holds this lock from its first statement to
        # its commit or rollback, so one game's rollback can never undo another game's pending write.
        self._write = asyncio.Lock()
        # SQLite copies the WAL back into the database file in the commit that grows it past 1,000 pages:
        # 5-7 ms (its writes and syncs) in one member's answer in fifty. The writer never does (its
        # ``wal_autocheckpoint`` is off): a connection of its own does, on its own thread, every
        # :data:`CHECKPOINT_EVERY` write transactions, while the writer goes on (a passive checkpoint
        # waits for no one and holds up no one).
        self._checkpointer = checkpointer
        self._checkpoint: asyncio.Task[None] | None = None
        self._writes = 0
        # Writes of their own waiting for the lock, and the task that takes them in one trip (:meth:`execute`).
        self._queued: list[Queued] = []
        self._flushing: asyncio.Task[None] | None = None

    @classmethod
    async def open(cls, path: str | os.PathLike[str]) -> SqliteDatabase:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        pragmas = ("journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON")
        if str(path) == ":memory:":  # it exists only on its one connection: no reader, no checkpoints
            return cls(await _connect(path, *pragmas))
        conn = await _connect(path, *pragmas, "wal_autocheckpoint=0")
        return cls(conn, await _connect(path, "query_only=ON"), await _connect(path))

    async def close(self) -> None:
        """Wait for the queued writes and a checkpoint under way, then close every connection. Those tasks
        may have been cancelled (a Ctrl-C cancels the bot's tasks): their end is awaited, not their result,
        or the connections' threads would outlive the program."""
        running = [task for task in (self._flushing, self._checkpoint) if task is not None]
        if running:
            await asyncio.wait(running)
        for conn in (self._checkpointer, self._reader):
            if conn is not None:
                await conn.close()
        await self._conn.close()  # the last connection to close checkpoints what is left

    async def _copy_back(self) -> None:
        """A passive checkpoint on the checkpointer's connection: the WAL's frames no reader still needs,
        copied into the database file."""
        assert self._checkpointer is not None
        try:
            await (await self._checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)")).close()
        except sqlite3.Error as exc:  # the next one tries again: the WAL only grows meanwhile
            log.warning("SQLite checkpoint failed: %s", exc)
        finally:
            self._checkpoint = None

    async def fetchone(self, sql: str, args: Sequence[Any] = ()) -> aiosqlite.Row | None:
        return await self._reads.fetchone(sql, args)

    async def fetchall(self, sql: str, args: Sequence[Any] = ()) -> list[aiosqlite.Row]:
        return await self._reads.fetchall(sql, args)

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        """One write in a transaction of its own, committed (or rolled back) on its own; its row count.

        Writes of their own go together (group commit): those that come while the write lock is held or
        waited for queue up, and once the lock is free they all go in one trip to the connection's thread,
        each with its commit. A trip holds the lock until the event loop takes its answer (in a burst, ~1 ms
        of other work), so the lock is held for one trip however many writes queued."""
        count: int = await self._queue(sql, args, returning=False)
        return count

    async def write_returning(self, sql: str, args: Sequence[Any] = ()) -> list[aiosqlite.Row]:
        """One write whose rows are read back (``… RETURNING``), in a transaction of its own: as
        :meth:`execute`, with the writes queued beside it."""
        rows: list[aiosqlite.Row] = await self._queue(sql, args, returning=True)
        return rows

    async def _queue(self, sql: str, args: Sequence[Any], *, returning: bool) -> Any:
        done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queued.append((sql, args, returning, done))
        if self._flushing is None:
            self._flushing = asyncio.get_running_loop().create_task(self._flush(), name="sqlite-writes")
        return await done

    async def _flush(self) -> None:
        """Take the queued writes, as many as came meanwhile, in one trip at a time."""
        batch: list[Queued] = []
        try:
            while self._queued:
                async with self._write:
                    batch, self._queued = self._queued, []
                    writes = [(sql, args, returning) for sql, args, returning, _ in batch]
                    try:
                        results = await _on_thread(self._conn, _each_committed, writes)
                    except Exception as exc:  # the trip itself failed (a closed connection): every write did
                        results = [exc] * len(batch)
                for (*_, done), result in zip(batch, results, strict=True):
                    if done.cancelled():
                        continue
                    if isinstance(result, Exception):
                        done.set_exception(result)
                    else:
                        done.set_result(result)
                self._wrote(len(batch))
        except BaseException:  # cancelled (shut down): whoever waits is told, done or not
            for *_, done in [*batch, *self._queued]:
                done.cancel()
            self._queued = []
            raise
        finally:
            self._flushing = None

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[SqliteTransaction]:
        async with self._write:
            statements = SqliteTransaction(self._conn)
            try:
                yield statements
                await statements.commit()
            except BaseException:
                await self._conn.rollback()
                raise
        self._wrote()

    def _wrote(self, transactions: int = 1) -> None:
        """Write transactions committed: every :data:`CHECKPOINT_EVERY`, the WAL is copied back beside them."""
        self._writes += transactions
        if self._writes >= CHECKPOINT_EVERY and self._checkpointer is not None and self._checkpoint is None:
            self._writes = 0
            self._checkpoint = asyncio.get_running_loop().create_task(self._copy_back(), name="sqlite-checkpoint")

    async def migrate(self, scripts: Sequence[str]) -> None:
        current = await self.schema_version()
        for version, script in enumerate(scripts[current:], start=current + 1):
            script = f"BEGIN;\n{script}\nPRAGMA user_version = {version};\nCOMMIT;"
            async with self._conn.executescript(script):  # its cursor is closed on the connection's thread
                pass

    async def schema_version(self) -> int:
        row = await self.fetchone("PRAGMA user_version")
        assert row is not None
        return int(row[0])
