"""What :class:`data.store.Store` needs of a database engine: the transaction both engines' transactions
extend, the database each engine is, and which engine the setting names (:mod:`data.connect` opens it).

The store's SQL is written once, in the subset both engines accept: ``?`` placeholders, ``ON CONFLICT``
upserts (never ``INSERT OR ...``), no ``rowid``. Migration scripts use SQLite's types (``INTEGER``,
``REAL``, ``TEXT``, ``INTEGER PRIMARY KEY`` for a generated id); the PostgreSQL engine translates both.
"""

from __future__ import annotations

import os
import re
from abc import ABC, abstractmethod
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol
from urllib.parse import urlsplit

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
SQLITE_SCHEME = "sqlite:"


class Row(Protocol):
    """A result row, read by column name or position (``aiosqlite.Row``, ``asyncpg.Record``)."""

    def __getitem__(self, key: str | int, /) -> Any: ...


class Conflict(Exception):
    """A write its transaction required found no row to change (:meth:`Transaction.later` with
    ``required``): the transaction was rolled back, and nothing it wrote stands."""


class Later:
    """The rows of a statement a transaction runs with its next trip, at the latest with its commit
    (:meth:`Transaction.later`): read them once the ``async with`` block has ended."""

    __slots__ = ("_rows", "required")

    def __init__(self, *, required: bool = False) -> None:
        self._rows: list[Row] | None = None
        self.required = required

    def fill(self, rows: Sequence[Row]) -> None:
        """The engine ran the statement: these are its rows. A required write with none raises
        :class:`Conflict` where it ran, so that its transaction rolls back from there."""
        if self.required and not rows:
            raise Conflict("a write its transaction required changed no row")
        self._rows = list(rows)

    @property
    def rows(self) -> list[Row]:
        if self._rows is None:
            raise RuntimeError("the statement has not run yet: read its rows once its transaction has committed")
        return self._rows


Deferred = tuple[str, Any, bool, Later | None]
"""A write waiting for its transaction's next trip: ``(sql, args, many, later)``, where ``later`` takes the
rows of a write read back after the commit (``None``: nobody reads its outcome)."""


class Transaction(ABC):
    """Writes that commit together when the ``async with`` block ends (and roll back if it raises), and
    reads that see them before they commit.

    The base of both engines' transactions: the writes they hold back for the next statement
    (:meth:`defer`, :meth:`later`) are kept here, and each engine runs them its own way before that
    statement (on SQLite in the same trip to the connection's thread)."""

    __slots__ = ("_deferred",)

    def __init__(self) -> None:
        self._deferred: list[Deferred] = []

    def _take_deferred(self) -> list[Deferred]:
        """The writes waiting for this trip, in order; none wait after it."""
        deferred, self._deferred = self._deferred, []
        return deferred

    def defer(self, sql: str, args: Sequence[Any], *, many: bool = False) -> None:
        """A write whose outcome nobody reads (with ``many``: once per row of ``args``), run before the
        transaction's next statement, or before it commits: on SQLite in the same trip to the connection's
        thread. It fails where it runs, and the transaction rolls back then as for any statement."""
        self._deferred.append((sql, args, many, None))

    def later(self, sql: str, args: Sequence[Any], *, required: bool = False) -> Later:
        """A write whose rows (``… RETURNING``) are read only once the transaction has committed. It runs
        where a write given to :meth:`defer` would, so on SQLite the last one goes with the commit, in the
        same trip to the connection's thread; its rows are in the returned :class:`Later` afterwards. A
        ``required`` write that returns no row (a conditional ``UPDATE … WHERE version = ?`` that found the
        row changed) raises :class:`Conflict` where it runs, and the transaction rolls back: a check and
        its writes in one trip."""
        written = Later(required=required)
        self._deferred.append((sql, args, False, written))
        return written

    @abstractmethod
    async def fetchone(self, sql: str, args: Sequence[Any] = ()) -> Row | None:
        """The first row of a query, or ``None``."""

    @abstractmethod
    async def fetchall(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        """Every row of a query."""

    @abstractmethod
    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        """Run one statement; the number of rows it changed."""

    @abstractmethod
    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """Run one statement once per row of arguments."""

    @abstractmethod
    async def insert(self, sql: str, args: Sequence[Any]) -> int:
        """Run one ``INSERT`` into a table with an ``id INTEGER PRIMARY KEY``; the new row's id."""

    @abstractmethod
    async def after_bulk_copy(self, generated: Sequence[tuple[str, str]]) -> None:
        """After rows were inserted with their ids given (``(table, column)`` per generated id column):
        make the engine number new rows after the largest id there."""


class Database(Protocol):
    """One engine: reads, single writes, transactions, and the schema's migrations."""

    shared: bool
    """Whether other processes may write to this database too (then a cached game must be checked)."""

    async def fetchone(self, sql: str, args: Sequence[Any] = ()) -> Row | None:
        """The first row of a query, or ``None``."""
        ...

    async def fetchall(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        """Every row of a query."""
        ...

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        """Run one write in a transaction of its own; the number of rows it changed."""
        ...

    async def write_returning(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        """Run one write in a transaction of its own; the rows it read back (``… RETURNING``)."""
        ...

    def transaction(self) -> AbstractAsyncContextManager[Transaction]:
        """A transaction for several writes (see :class:`Transaction`)."""
        ...

    async def migrate(self, scripts: Sequence[str]) -> None:
        """Run the scripts this database has not run yet, in order, each once."""
        ...

    async def schema_version(self) -> int:
        """How many migration scripts this database has run."""
        ...

    async def close(self) -> None: ...


def is_postgres(target: str | os.PathLike[str]) -> bool:
    """Whether ``TABLES_DATABASE`` names a PostgreSQL server (a URL) rather than an SQLite file."""
    return str(target).startswith(POSTGRES_SCHEMES)


def checked_url(url: str) -> str:
    """A ``postgresql://`` URL, if it can be read; ``ValueError`` saying why not (its password hidden)."""
    try:
        urlsplit(url).port  # noqa: B018  (reading the port checks the whole address)
    except ValueError as exc:
        masked = re.sub(r"^(\w+://[^:/@]*:)[^@]*@", r"\1***@", url)
        raise ValueError(f"{masked!r} is not a PostgreSQL URL that can be read: {exc}") from None
    return url


def database_target(text: str) -> str:
    """What :func:`open_database` takes for a database named in a setting or on the command line: a
    ``postgresql://`` URL as it is, ``sqlite:PATH`` or a bare ``PATH`` as the SQLite file's path. Raises
    ``ValueError`` for another scheme (``mysql://…``) or an empty path."""
    if is_postgres(text):
        return checked_url(text)
    path = text.removeprefix(SQLITE_SCHEME)
    if "://" in text and not text.startswith(SQLITE_SCHEME):
        raise ValueError(f"{text!r} is neither an SQLite file (sqlite:PATH or PATH) nor a postgresql:// URL")
    if not path:
        raise ValueError(f"{text!r} names no SQLite file")
    return path
