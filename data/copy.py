"""Copying a whole database into a new one, on either engine: ``python bot.py migrate-db``.

An admin whose bot outgrew one process moves its SQLite file to PostgreSQL (or back, or to another file).
The tables, their columns, keys and references are read from the migration scripts, so a table a later
migration adds is copied without anyone listing it here; a statement this reader does not understand
stops the copy rather than copying part of the schema.

The copy keeps every id. It runs in one transaction on the target, which must hold no rows: a failure
leaves it as empty as it was. The source is only read (after the migrations it has not run yet, if any).
"""

from __future__ import annotations

import os
import re
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from data.connect import open_database
from data.engine import Database, Transaction, database_target, is_postgres
from data.migrations import MIGRATIONS

BATCH_ROWS = 500
"""Rows read and written per statement: a few megabytes of game states at most."""

_DATABASE_ERRORS = (OSError, sqlite3.Error, asyncpg.PostgresError, asyncpg.InterfaceError)
"""What a database that cannot be reached, read or written raises (a refused or timed-out connection is
an ``OSError``)."""

_CONSTRAINTS = ("PRIMARY", "FOREIGN", "UNIQUE", "CHECK", "CONSTRAINT")
_CREATE_TABLE = re.compile(r"CREATE TABLE (\w+) \((.*)\)", re.DOTALL)
_ADD_COLUMN = re.compile(r"ALTER TABLE (\w+) ADD COLUMN (\w+)(.*)", re.DOTALL)
_CREATE_INDEX = re.compile(r"CREATE (UNIQUE )?INDEX ")
_ROWS_ONLY = re.compile(r"(UPDATE|DELETE FROM|INSERT INTO) ")
"""Statements that change rows, not the schema: nothing for the copy to follow."""
_REFERENCES = re.compile(r"\bREFERENCES (\w+)")


class CopyError(Exception):
    """Why a copy could not be made, in one line."""


@dataclass(frozen=True, slots=True)
class Table:
    """A table of the schema, as the copy needs it."""

    name: str
    columns: tuple[str, ...]
    key: tuple[str, ...]
    """The primary key's columns: the order rows are read in, a batch at a time."""
    generated: str | None
    """The column the engine numbers new rows by (an ``INTEGER PRIMARY KEY``), if any."""
    parents: frozenset[str]
    """The other tables its columns reference: copied before it."""


@dataclass(slots=True)
class _Draft:
    columns: list[str] = field(default_factory=list)
    key: tuple[str, ...] = ()
    generated: str | None = None
    parents: set[str] = field(default_factory=set)


def _definitions(body: str) -> list[str]:
    """A ``CREATE TABLE`` body split at its top-level commas (not those inside ``CHECK (… IN ('a', 'b'))``)."""
    parts, depth, start = [], 0, 0
    for i, char in enumerate(body):
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(body[start:i])
            start = i + 1
    parts.append(body[start:])
    return [" ".join(p.split()) for p in parts if p.strip()]


def _create(name: str, body: str) -> _Draft:
    draft = _Draft(parents=set(_REFERENCES.findall(body)) - {name})
    for definition in _definitions(body):
        first = definition.split()[0].upper()
        if first == "PRIMARY":
            inside = definition[definition.index("(") + 1 : definition.index(")")]
            draft.key = tuple(c.strip() for c in inside.split(","))
        elif first not in _CONSTRAINTS:
            column = definition.split()[0]
            draft.columns.append(column)
            if "PRIMARY KEY" in definition.upper():
                draft.key = (column,)
                if re.match(r"\w+ INTEGER PRIMARY KEY\b", definition, re.IGNORECASE):
                    draft.generated = column
    return draft


def schema_tables(scripts: Sequence[str]) -> list[Table]:
    """The tables the migration ``scripts`` create, each after the tables it references (otherwise in the
    order they were created). Raises ``ValueError`` for a statement that could change the schema in a way
    this reader does not follow (a dropped or renamed table or column), or a table without a primary key."""
    drafts: dict[str, _Draft] = {}
    for script in scripts:
        for statement in (" ".join(s.split()) for s in script.split(";")):
            if not statement or _CREATE_INDEX.match(statement) or _ROWS_ONLY.match(statement):
                continue
            if created := _CREATE_TABLE.fullmatch(statement):
                drafts[created[1]] = _create(created[1], created[2])
            elif added := _ADD_COLUMN.fullmatch(statement):
                draft = drafts[added[1]]
                draft.columns.append(added[2])
                draft.parents |= set(_REFERENCES.findall(added[3])) - {added[1]}
            else:
                raise ValueError(f"the database copy does not know this schema statement: {statement[:80]}")
    for name, draft in drafts.items():
        if not draft.key:
            raise ValueError(f"table {name} has no primary key: the database copy cannot read it in batches")
    ordered: list[Table] = []
    waiting = dict(drafts)
    while waiting:
        done = {t.name for t in ordered}
        name = next((n for n, d in waiting.items() if not d.parents - done), None)
        if name is None:
            raise ValueError(f"tables that reference each other: {', '.join(waiting)}")
        draft = waiting.pop(name)
        ordered.append(Table(name, tuple(draft.columns), draft.key, draft.generated, frozenset(draft.parents)))
    return ordered


def source_target(text: str) -> str:
    """:func:`database_target` for a source, which must exist (opening a missing SQLite file would create it)."""
    target = database_target(text)
    if _absent(target):
        raise ValueError(f"there is no SQLite database at {target}")
    return target


def _absent(target: str) -> bool:
    return not is_postgres(target) and not os.path.isfile(target)


def describe(target: str) -> str:
    """A database for a message: an SQLite file's path, or a URL without its password."""
    if not is_postgres(target):
        return f"SQLite file {target}"
    parts = urlsplit(target)
    if parts.password is None:
        return target
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


def _reason(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


async def _open(role: str, target: str) -> Database:
    """Open and migrate a database, refusing one whose schema is newer than this bot's."""
    try:
        db = await open_database(target)
    except _DATABASE_ERRORS as exc:
        raise CopyError(f"cannot open the {role}, {describe(target)}: {_reason(exc)}") from exc
    try:
        await db.migrate(MIGRATIONS)  # nothing to run on a database as new as this bot's, or newer
        version = await db.schema_version()
        if version > len(MIGRATIONS):
            raise CopyError(
                f"the {role}'s schema (version {version}) is newer than this bot's ({len(MIGRATIONS)}): "
                "copy it with the version of the bot that wrote it"
            )
    except BaseException as exc:
        await db.close()
        if isinstance(exc, _DATABASE_ERRORS):
            raise CopyError(f"cannot migrate the {role}, {describe(target)}: {_reason(exc)}") from exc
        raise
    return db


async def _refuse_rows(tx: Transaction, tables: Sequence[Table]) -> None:
    for table in tables:
        if await tx.fetchone(f"SELECT 1 FROM {table.name} LIMIT 1") is not None:
            raise CopyError(f"the target is not empty (table {table.name} holds rows): copy into a new database")


async def _copy_table(source: Database, tx: Transaction, table: Table) -> int:
    """Copy one table's rows in batches, in primary-key order (each batch after the last key read)."""
    columns, key = ", ".join(table.columns), ", ".join(table.key)
    width = len(table.columns)
    first = f"SELECT {columns} FROM {table.name} ORDER BY {key} LIMIT ?"
    marks = ", ".join("?" * len(table.key))
    after = f"SELECT {columns} FROM {table.name} WHERE ({key}) > ({marks}) ORDER BY {key} LIMIT ?"
    insert = f"INSERT INTO {table.name} ({columns}) VALUES ({', '.join('?' * width)})"
    key_at = [table.columns.index(k) for k in table.key]
    rows = await source.fetchall(first, (BATCH_ROWS,))
    copied = 0
    while rows:
        await tx.executemany(insert, [tuple(row[i] for i in range(width)) for row in rows])
        copied += len(rows)
        if len(rows) < BATCH_ROWS:
            break
        last = rows[-1]
        rows = await source.fetchall(after, (*(last[i] for i in key_at), BATCH_ROWS))
    return copied


async def copy_database(
    source: str, target: str, *, progress: Callable[[str, int], None] | None = None
) -> dict[str, int]:
    """Copy every row of every table of the schema from ``source`` into ``target`` (each a ``postgresql://``
    URL or an SQLite file's path), keeping ids; the rows copied per table, in the order copied.

    Both are migrated to the latest schema first (the source only if it is older). The target must hold no
    rows; the copy is one transaction on it, so a failure leaves it empty. Afterwards the target numbers new
    games and lobbies after the copied ids. ``progress(table, rows)`` is called as each table is copied
    (before the commit). Raises :class:`CopyError` with a one-line reason.
    """
    tables = schema_tables(MIGRATIONS)
    if _absent(source):
        raise CopyError(f"there is no SQLite database at {source}")
    counts: dict[str, int] = {}
    reading = await _open("source", source)
    try:
        writing = await _open("target", target)
        try:
            step = "checking that the target is empty"
            try:
                async with writing.transaction() as tx:
                    await _refuse_rows(tx, tables)
                    for table in tables:
                        step = f"copying {table.name}"
                        counts[table.name] = await _copy_table(reading, tx, table)
                        if progress is not None:
                            progress(table.name, counts[table.name])
                    step = "numbering new rows after the copied ids"
                    await tx.after_bulk_copy([(t.name, t.generated) for t in tables if t.generated])
            except _DATABASE_ERRORS as exc:
                raise CopyError(f"nothing was copied: {_reason(exc)} (while {step})") from exc
        finally:
            await writing.close()
    finally:
        await reading.close()
    return counts
