"""Backing up the bot's SQLite database while the bot runs, and restoring a backup: ``python bot.py backup``
and ``restore``.

A backup is an SQLite file of its own (no write-ahead log beside it). SQLite's online backup API copies the
database through a connection of its own in one step, under one read transaction: what the bot had
committed then, in the database file or still in its write-ahead log, and nothing it commits later. The
bot goes on meanwhile (WAL lets it write while another connection reads). The file is written beside its
name and renamed into place once whole, so an interrupted backup leaves no half-written file.

A restore writes a backup into the configured database, which no program may have open. That is SQLite's
own test, not a lock file or a lease of ours: every connection to a database in WAL mode (the bot keeps
three open while it runs, ``play --db`` too) holds a shared lock on it, until it closes or its process
ends however it ends, so a connection in exclusive locking mode gets its exclusive lock only when no
other has the database open. The restore takes that lock at once (or refuses), holds it while the backup
is copied in, and lets it go when done: a bot started meanwhile cannot open the database half-restored.

A file is a backup when it is an SQLite database whose schema is this bot's at some version: every table
and column the migrations up to that version made (a backup from an older bot is migrated when the bot
next starts). PostgreSQL has its own tools: ``pg_dump`` and ``pg_restore`` (see the README).
"""

from __future__ import annotations

import os
import secrets
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path

from data.copy import schema_tables
from data.migrations import MIGRATIONS


class BackupError(Exception):
    """Why a backup or a restore was not made, in one line."""


class NotABackup(BackupError):
    """The file given to restore is not a backup of this bot's database."""


class InUse(BackupError):
    """The database to restore into is open in another program (a running bot)."""


@dataclass(frozen=True, slots=True)
class Contents:
    """What a database holds, for the command's last line."""

    version: int
    """Its schema version: the migrations it has run."""
    games: int
    active: int
    """Games still being played (they resume when a bot starts on the database)."""

    def __str__(self) -> str:
        return f"{self.games} game{'' if self.games == 1 else 's'} ({self.active} being played)"


def _contents(conn: sqlite3.Connection) -> Contents:
    """What the database of ``conn`` holds, if it is this bot's (at this bot's schema version or an older one);
    :class:`BackupError` saying why not otherwise (raised with no file named: the caller names it)."""
    if conn.execute("PRAGMA quick_check").fetchone()[0] != "ok":
        raise BackupError("it is damaged (SQLite's quick_check fails)")
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > len(MIGRATIONS):
        raise BackupError(f"its schema is version {version}, newer than this bot's {len(MIGRATIONS)}")
    if version < 1:
        raise BackupError("it has no schema version")
    for table in schema_tables(MIGRATIONS[:version]):
        present = {row[1] for row in conn.execute(f"PRAGMA table_info({table.name})")}
        missing = [column for column in table.columns if column not in present]
        if missing:
            raise BackupError(f"it has no {f'column {table.name}.{missing[0]}' if present else f'table {table.name}'}")
    games, active = conn.execute("SELECT COUNT(*), COUNT(*) FILTER (WHERE status = 'active') FROM games").fetchone()
    return Contents(version, games, active)


def _read_only(file: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"{file.absolute().as_uri()}?mode=ro", uri=True)


def check_backup(file: Path) -> Contents:
    """What the backup ``file`` holds; :class:`BackupError` if it is not a readable backup of this bot's
    database (:class:`NotABackup`: another file, another program's database, a damaged one, one from a newer
    bot)."""
    if not file.is_file():
        raise NotABackup(f"there is no file {file}")
    try:
        with closing(_read_only(file)) as conn:
            return _contents(conn)
    except (BackupError, sqlite3.DatabaseError) as exc:
        raise NotABackup(f"{file} is not a backup of this bot's database: {exc}") from None


def _same_file(a: Path, b: Path) -> bool:
    return a.exists() and b.exists() and a.samefile(b)


@contextmanager
def _written_whole(file: Path) -> Iterator[Path]:
    """A new file beside ``file`` to write; renamed to ``file`` once the block ends, deleted if it fails."""
    partial = file.with_name(f".{file.name}.{secrets.token_hex(4)}.partial")
    try:
        yield partial
        with open(partial, "rb") as written:
            os.fsync(written.fileno())
        partial.replace(file)
    finally:
        partial.unlink(missing_ok=True)


def backup(database: str, file: Path) -> Contents:
    """Copy the SQLite ``database`` (the bot may be running on it) into the new SQLite file ``file`` (replaced
    if it exists), as one consistent snapshot; what it holds. :class:`BackupError` says why not."""
    source = Path(database)
    if not source.is_file():
        raise BackupError(f"there is no SQLite database at {database}")
    if file.is_dir():
        raise BackupError(f"{file} is a folder: give the backup's file name")
    if any(_same_file(source.with_name(source.name + suffix), file) for suffix in ("", "-wal", "-shm")):
        raise BackupError(f"{file} is the database itself: give the backup another file")
    try:
        with closing(sqlite3.connect(source)) as reading:
            try:
                _contents(reading)  # a copy of anything but the bot's database would restore nothing
            except (BackupError, sqlite3.DatabaseError) as exc:
                raise BackupError(f"{database} is not this bot's database: {exc}") from None
            file.parent.mkdir(parents=True, exist_ok=True)
            with _written_whole(file) as partial, closing(sqlite3.connect(partial)) as writing:
                reading.backup(writing)  # in one step, so under one read transaction: a consistent snapshot
                writing.execute("PRAGMA journal_mode=DELETE")  # one file, not a WAL database's three
                return _contents(writing)
    except OSError as exc:
        raise BackupError(f"the backup could not be written: {exc.strerror}") from None
    except sqlite3.Error as exc:
        raise BackupError(f"the backup failed: {exc}") from None


def restore(file: Path, database: str) -> tuple[Contents, Contents | None]:
    """Write the backup ``file`` into the SQLite ``database`` (made if missing), unless a program has it
    open (:class:`InUse`); what the backup held, and what the database held before (``None``: nothing).
    :class:`NotABackup` for a file that is not a backup of this bot's database, :class:`BackupError` for a
    database that is another program's or cannot be written."""
    target = Path(database)
    if _same_file(target, file):
        raise NotABackup(f"{file} is the database itself")
    contents = check_backup(file)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with closing(sqlite3.connect(target, timeout=0, isolation_level=None)) as writing:
            writing.execute("PRAGMA locking_mode=EXCLUSIVE")
            try:
                writing.execute("BEGIN EXCLUSIVE")  # the test and the lock at once (see the module's docstring)
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc):
                    raise
                raise InUse(
                    f"{database} is in use: a bot (or another program) has it open; stop it, then restore"
                ) from None
            held = _held(writing, database)
            writing.execute("COMMIT")  # the lock stays: in exclusive locking mode, until the connection closes
            with closing(_read_only(file)) as reading:
                reading.backup(writing)
            writing.execute("PRAGMA journal_mode=WAL")  # as the bot keeps it
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{database} cannot be restored into ({exc}): nothing was changed") from None
    except OSError as exc:
        raise BackupError(f"{database} cannot be restored into: {exc.strerror}") from None
    return contents, held


def _held(conn: sqlite3.Connection, database: str) -> Contents | None:
    """What the database to restore into holds: ``None`` when new or empty; :class:`BackupError` when it is
    another program's (a restore would destroy it)."""
    if conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0] == 0:
        return None
    try:
        return _contents(conn)
    except BackupError as exc:
        raise BackupError(f"{database} is not this bot's database ({exc}): it is left as it is") from None
