"""Opening the database engine that ``TABLES_DATABASE`` names.

Its own module, above both engines: they extend :class:`data.engine.Transaction`, so the interface
cannot also be where one of them is chosen without the three importing each other.
"""

from __future__ import annotations

import os

from data.engine import Database, is_postgres
from data.sqlite import SqliteDatabase


async def open_database(target: str | os.PathLike[str]) -> Database:
    """Connect to ``postgresql://…`` through a pool, or open the SQLite file at ``target`` (or ``:memory:``)."""
    if is_postgres(target):
        # Imported here: an SQLite bot never loads asyncpg.
        from data.postgres import PostgresDatabase

        return await PostgresDatabase.open(str(target))
    return await SqliteDatabase.open(target)
