"""The base of the store's repositories: statements of one concern, bound to the database or to one
transaction."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

from data.engine import Database, Row, Transaction


class Repository:
    """Statements of one concern (games, lobbies, the outbox…), bound either to the database (each write
    commits by itself) or to a transaction (everything commits together: :meth:`data.store.Store.transaction`)."""

    __slots__ = ("_q",)

    def __init__(self, queries: Database | Transaction) -> None:
        self._q = queries

    async def _write(self, sql: str, args: Sequence[Any] = ()) -> int:
        """One write, in the transaction this repository is bound to or in one of its own (on SQLite the
        statement and its commit go in one trip to the connection's thread, with the writes of their own
        queued beside it: :meth:`SqliteDatabase.execute <data.sqlite.SqliteDatabase.execute>`); the rows
        it changed."""
        return await self._q.execute(sql, args)

    def _bound(self) -> Transaction | None:
        """The transaction this repository is bound to; ``None`` when it is bound to the database (each write
        in a transaction of its own)."""
        return None if hasattr(self._q, "transaction") else self._q  # type: ignore[return-value]

    def _transaction(self) -> Transaction:
        """The transaction this repository is bound to, for a write that goes with its commit."""
        tx = self._bound()
        if tx is None:
            raise RuntimeError("this write goes with a transaction's commit: use it inside Store.transaction()")
        return tx

    async def _write_unread(self, sql: str, args: Sequence[Any] = ()) -> None:
        """A write whose outcome nobody reads: in the transaction this repository is bound to, it goes with
        the transaction's next trip (:meth:`Transaction.defer`); unbound, it is a write of its own."""
        tx = self._bound()
        if tx is None:
            await self._write(sql, args)
        else:
            tx.defer(sql, args)

    async def _write_returning(self, sql: str, args: Sequence[Any] = ()) -> Row | None:
        """One write whose row is read back (``… RETURNING``), in the transaction this repository is bound
        to or in one of its own (on SQLite with the writes of their own queued beside it, in one trip); its
        first row."""
        bound = self._bound()
        if bound is not None:
            return await bound.fetchone(sql, args)
        rows = await self._q.write_returning(sql, args)  # type: ignore[union-attr]  # bound to the database
        return rows[0] if rows else None

    @asynccontextmanager
    async def _writing(self) -> AsyncIterator[Transaction]:
        """The transaction writes go in: the one this repository is bound to, or a new one of their own."""
        tx = self._bound()
        if tx is not None:
            yield tx
            return
        async with self._q.transaction() as tx:  # type: ignore[union-attr]  # bound to the database
            yield tx
