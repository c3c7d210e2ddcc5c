"""``python bot.py migrate-db``: a bot's database copied into a new one (SQLite to PostgreSQL, back, or to
another file) with every row of every table and every id; the target numbering new rows after them; a
target that holds rows refused, and a failed copy leaving nothing behind; the command line.

The tables compared are read from each database's own catalogue, not from the copier's reading of the
schema, so a table a later migration adds fails these tests until it is copied."""

from __future__ import annotations

import hashlib
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import data.copy as copy_module
from data.connect import open_database
from data.copy import CopyError, copy_database, describe, schema_tables, source_target
from data.engine import Database, database_target, is_postgres
from data.migrations import MIGRATIONS
from data.ratings import GLOBAL
from data.store import LobbyRecord, Store
from data.tournaments import TableRecord, TournamentRecord
from games.registry import GAMES
from tables.authority import Caller
from tables.compose import Tables
from tables.starting import Table
from tests.service_support import tables_on

ROOT = Path(__file__).resolve().parent.parent
KIND = "piratz"
GAME = GAMES[KIND].game
AI = GAMES[KIND].player
GUILD = 7
USERS = (101, 102, 103)
NAMES = ("Anne", "Bart", "Cleo")


# ---------------------------------------------------------------------- a bot's database, with real content


def lobby(**fields: Any) -> LobbyRecord:
    """A new lobby of the game, with these fields."""
    base = {"id": 0, "kind": KIND, "status": "open", "message_id": None, "options": {}, "names": {}, "ai": 0}
    return LobbyRecord(**(base | fields))


async def game(
    tables: Tables, users: tuple[int | None, ...], *, channel: int, guild: int | None, t: float, clock: int = 0
):
    """A game as a lobby starts one: ``users`` members (``None``: an AI seat, after the members)."""
    tables.now.t = t
    members = [(u, NAMES[USERS.index(u)]) for u in users if u is not None]
    async with tables.store.transaction() as db:
        table = Table(KIND, members, users.count(None), {}, clock)
        started = await tables.starter.create(db, table, guild_id=guild, channel_id=channel, host_id=members[0][0])
    return started.record


async def play(tables: Tables, game_id: int, actions: int | None, now: float) -> None:
    """Let the AI make ``actions`` decisions in a game (``None``: until it ends): its own seats' with its
    turns, the members' as if they clicked."""
    while actions is None or actions > 0:
        tables.now.t = now
        record = await tables.cache.get(game_id)
        if record.status != "active":
            return
        seat = GAME.to_act(record.state)[0]
        holder = record.seats[GAME.controller(record.state, seat)]
        if holder.is_ai:
            await tables.play.ai_turn(game_id, 1)
        else:
            action = AI.choose(GAME, record.state, seat, GAME.rng(record.state))
            await tables.play.act(Caller(holder.user_id, holder.name, record.guild_id), game_id, action.encode())
        now += 1.5
        actions = None if actions is None else actions - 1


async def fill(store: Store) -> dict[str, int]:
    """What a bot that ran for a while holds: games in play, played to the end, won by resignation and
    abandoned (so ratings and their changes), a clock and an away member, a rematch lobby and an open one,
    followers, the messages it owes and what it told each player, a member's settings, and a server the bot
    left. Returns the ids
    of note."""
    tables = tables_on(store, seed="migrate")
    playing = await game(tables, USERS, channel=20, guild=GUILD, t=100.0, clock=60)
    await tables.cache.set_place(playing.id, thread_id=21, message_id=22)
    await play(tables, playing.id, 7, 101.0)
    await store.seats.set_presence(playing.id, 2, timeouts=2, away=True)
    ended = await game(tables, (USERS[0], None), channel=20, guild=GUILD, t=200.0)
    await play(tables, ended.id, None, 201.0)
    resigned = await game(tables, USERS[:2], channel=30, guild=None, t=300.0)
    await play(tables, resigned.id, 3, 301.0)
    tables.now.t = 310.0
    await tables.play.resign(Caller(USERS[0], NAMES[0], None), resigned.id)
    abandoned = await game(tables, USERS[1:], channel=20, guild=GUILD, t=400.0)
    await tables.play.abandon(Caller(USERS[1], NAMES[1], GUILD), abandoned.id)
    rematch = await store.lobbies.create(
        lobby(mode="challenge", guild_id=None, channel_id=30, host_id=USERS[1], invitees=[USERS[0]],
              accepted=[USERS[1]], names={str(USERS[1]): NAMES[1]}, expires_at=900.0, clock=120,
              rematch_of=resigned.id)
    )  # fmt: skip
    assert rematch is not None
    await store.lobbies.set_message(rematch, 31)
    await store.lobbies.create(
        lobby(mode="open", guild_id=GUILD, channel_id=20, host_id=USERS[2], invitees=[], accepted=[USERS[2]], ai=1,
              expires_at=950.0)
    )  # fmt: skip
    await store.seats.follow(playing.id, 555, True)
    await store.seats.follow(playing.id, 556, True)
    await store.outbox.set_marker(playing.id, 0, "hand", "digest-0")
    await store.outbox.set_marker(playing.id, 1, "closed", "1")
    await store.settings.set_notify(USERS[0], True)
    await store.settings.set_notify(USERS[1], False)
    await store.settings.set_locale(USERS[1], "de")
    await store.settings.set_guild_language(GUILD, language="de", preferred="en")
    await store.privacy.depart(GUILD + 1, now=500.0, erase_at=500.0 + 30 * 86400)  # a server the bot left
    await store.settings.set_tournaments_open(GUILD, True)
    await tournament(store, ended.id)
    await tables.stop()
    assert await store.outbox.pending(), "the messages owed are copied too"
    return {"playing": playing.id, "ended": ended.id, "resigned": resigned.id, "rematch": rematch}


async def tournament(store: Store, game_id: int) -> int:
    """A tournament in its first round: two entrants at the table of game ``game_id``, one with a bye."""
    draft = TournamentRecord(
        0, GUILD, 20, USERS[0], "piratz", "swiss", 2, 2, {"blind": False}, 600, 500.0, "open", "seed", 450.0
    )
    tournament_id = await store.tournaments.create(draft)
    await store.tournaments.set_message(tournament_id, 41)
    for i, user in enumerate(USERS):
        await store.tournaments.join(tournament_id, user, NAMES[i], now=460.0 + i)
    await store.tournaments.set_status(tournament_id, "running", was="open")
    assert await store.tournaments.advance(tournament_id, drawn=1, now=500.0)
    await store.tournaments.add_tables(
        [TableRecord(tournament_id, 1, 1, [USERS[0]], game_id), TableRecord(tournament_id, 1, 2, [USERS[2]])]
    )
    await store.tournaments.score(game_id, {str(USERS[0]): "1"})
    return tournament_id


@pytest.fixture(scope="module")
def source_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An SQLite database with content, made once (playing a game out takes a moment); tests only read it."""
    import asyncio

    path = tmp_path_factory.mktemp("source") / "bot.db"

    async def make() -> None:
        store = await Store.open(path)
        try:
            await fill(store)
        finally:
            await store.close()

    asyncio.run(make())
    return path


@pytest.fixture
def source(source_file: Path, tmp_path: Path) -> str:
    """A fresh copy of the filled SQLite file for one test."""
    path = tmp_path / "source.db"
    path.write_bytes(source_file.read_bytes())
    return str(path)


# ---------------------------------------------------------------------- what a database holds


async def catalogue(db: Database, target: str) -> set[str]:
    """The tables a database holds, from its own catalogue (PostgreSQL's migration bookkeeping aside)."""
    if is_postgres(target):
        rows = await db.fetchall(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
            " AND table_name <> 'schema_version'"
        )
    else:
        rows = await db.fetchall("SELECT name FROM sqlite_master WHERE type = 'table'")
    return {r[0] for r in rows}


async def contents(target: str) -> dict[str, list[dict[str, Any]]]:
    """Every row of every table of a database, as column → value, in a fixed order."""
    db = await open_database(target)
    try:
        return {
            table: sorted(({**row} for row in await db.fetchall(f"SELECT * FROM {table}")), key=repr)
            for table in sorted(await catalogue(db, target))
        }
    finally:
        await db.close()


async def answers(store: Store, held: dict[str, list[dict[str, Any]]]) -> list[Any]:
    """What the store's read methods say about each game, lobby and member of the filled database."""
    said: list[Any] = []
    for game_id in sorted(g["id"] for g in held["games"]):
        said += [
            await store.games.load(game_id),
            await store.games.actions(game_id),
            await store.ratings.changes(game_id),
        ]
        said += [await store.seats.followers(game_id), await store.outbox.marker(game_id, 0, "hand")]
        said += [await store.lobbies.rematch_of(game_id)]
    for lobby_id in sorted(g["id"] for g in held["lobbies"]):
        said += [await store.lobbies.load(lobby_id)]
    for scope in (GUILD, GLOBAL):
        said += [await store.ratings.leaderboard(KIND, scope), await store.ratings.trend(USERS[0], scope, KIND)]
        said += [await store.ratings.standings_of(USERS[0], scope)]
    for user in USERS:
        said += [await store.games.ids(user_id=user), await store.games.ended(user, limit=10)]
        said += [await store.settings.notify_enabled(user)]
    said += [await store.settings.locales(list(USERS)), await store.settings.guild_language(GUILD)]
    said += [await store.lobbies.open(), await store.games.ids(status="finished"), await store.outbox.pending()]
    said += [await store.privacy.departures()]
    return said


def digest(path: str) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


# ---------------------------------------------------------------------- the copy


async def test_the_filled_source_has_a_row_in_every_table(source):
    """The fixture exercises every table (otherwise the copy tests below would prove less)."""
    held = await contents(source)
    assert set(held) == {t.name for t in schema_tables(MIGRATIONS)}
    assert all(held.values()), [table for table, rows in held.items() if not rows]


async def test_copy_keeps_every_row_of_every_table(source, store_target):
    before = digest(source)
    told: list[tuple[str, int]] = []
    counts = await copy_database(source, store_target, progress=lambda table, rows: told.append((table, rows)))
    copied = await contents(store_target)
    assert copied == await contents(source)
    assert counts == {table: len(rows) for table, rows in copied.items()}
    assert told == list(counts.items())
    assert list(counts).index("games") < list(counts).index("seats") < list(counts).index("rating_changes")
    assert digest(source) == before, "the source file was changed"


async def test_the_store_reads_the_same_from_the_copy(source, store_target):
    held = await contents(source)
    await copy_database(source, store_target)
    original, copy = await Store.open(source), await Store.open(store_target)
    try:
        assert await answers(copy, held) == await answers(original, held)
        assert (await copy.ratings.leaderboard(KIND, GLOBAL))[0].games >= 1
    finally:
        await original.close()
        await copy.close()


async def test_new_games_and_lobbies_are_numbered_after_the_copied_ones(source, store_target):
    await copy_database(source, store_target)
    last_game = max(r["id"] for r in (await contents(source))["games"])
    last_lobby = max(r["id"] for r in (await contents(source))["lobbies"])
    store = await Store.open(store_target)
    try:
        tables = tables_on(store, seed="after")
        record = await game(tables, USERS[:2], channel=40, guild=GUILD, t=1000.0)
        assert record.id == last_game + 1
        await play(tables, record.id, 2, 1001.0)
        lobby_id = await store.lobbies.create(
            lobby(mode="open", guild_id=GUILD, channel_id=40, host_id=USERS[0], invitees=[], accepted=[USERS[0]],
                  expires_at=2000.0)
        )  # fmt: skip
        assert lobby_id == last_lobby + 1
        assert len(await store.games.actions(record.id)) == 2
        await tables.stop()
    finally:
        await store.close()


async def test_postgresql_back_to_sqlite(source, postgres_url, tmp_path):
    """PostgreSQL → SQLite gives back the same rows as the SQLite file they came from."""
    await copy_database(source, postgres_url)
    back = str(tmp_path / "back.db")
    await copy_database(postgres_url, back)
    assert await contents(back) == await contents(source)


async def test_a_target_that_holds_rows_is_refused_and_left_as_it_was(source, store_target):
    store = await Store.open(store_target)
    try:
        await store.settings.set_notify(999, True)
    finally:
        await store.close()
    before = await contents(store_target)
    with pytest.raises(CopyError, match="target is not empty"):
        await copy_database(source, store_target)
    assert await contents(store_target) == before


async def test_a_copy_that_fails_midway_leaves_the_target_empty(source, store_target):
    """A source row the target rejects (a follower of a game that does not exist, which SQLite let in with
    its foreign keys off) fails the copy at that table; the games copied before it are rolled back."""
    with sqlite3.connect(source) as conn:
        conn.execute("INSERT INTO followers (game_id, user_id) VALUES (9999, 1)")
    with pytest.raises(CopyError, match=r"nothing was copied: .*while copying followers"):
        await copy_database(source, store_target)
    assert not any((await contents(store_target)).values())


async def test_a_table_a_later_migration_adds_is_copied(source, store_target, monkeypatch):
    """Here an older table (games) comes to reference the new one: the new one must be copied first."""
    trophies = """
    CREATE TABLE trophies (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL
    );
    ALTER TABLE games ADD COLUMN trophy INTEGER REFERENCES trophies (id);
    """
    later = (*MIGRATIONS, trophies)
    db = await open_database(source)
    try:
        await db.migrate(later)
        await db.execute("INSERT INTO trophies (id, name) VALUES (5, 'Golden hook')")
        await db.execute("UPDATE games SET trophy = 5 WHERE id = 2")
    finally:
        await db.close()
    monkeypatch.setattr(copy_module, "MIGRATIONS", later)
    counts = await copy_database(source, store_target)
    assert counts["trophies"] == 1
    copied = await contents(store_target)
    assert copied == await contents(source)
    assert [g["trophy"] for g in copied["games"] if g["id"] == 2] == [5]


async def test_a_source_newer_than_the_bot_is_refused(source, store_target):
    db = await open_database(source)
    try:
        await db.migrate((*MIGRATIONS, "CREATE TABLE later (id INTEGER PRIMARY KEY);"))
    finally:
        await db.close()
    with pytest.raises(CopyError, match=rf"source's schema \(version {len(MIGRATIONS) + 1}\) is newer"):
        await copy_database(source, store_target)


async def test_a_missing_source_file_is_not_created(tmp_path):
    missing = tmp_path / "none.db"
    with pytest.raises(CopyError, match="no SQLite database"):
        await copy_database(str(missing), str(tmp_path / "to.db"))
    assert not missing.exists()


async def test_large_tables_are_copied_in_batches(source, store_target, monkeypatch):
    """Several batches per table (keyed on a one-column and a several-column primary key)."""
    monkeypatch.setattr(copy_module, "BATCH_ROWS", 3)
    counts = await copy_database(source, store_target)
    assert counts["actions"] > 3 * 3 and counts["seats"] > 3 * 2 and counts["games"] > 3
    assert await contents(store_target) == await contents(source)


# ---------------------------------------------------------------------- reading the schema and the arguments


def test_tables_come_after_the_tables_they_reference():
    scripts = (
        "CREATE TABLE a (id INTEGER PRIMARY KEY, note TEXT CHECK (note IN ('x', 'y')));",
        "CREATE TABLE b (a_id INTEGER REFERENCES a (id), n INTEGER, PRIMARY KEY (a_id, n)); CREATE INDEX b_n ON b (n);",
        "CREATE TABLE c (key TEXT PRIMARY KEY); ALTER TABLE a ADD COLUMN c_key TEXT REFERENCES c (key);",
    )
    tables = schema_tables(scripts)
    assert [t.name for t in tables] == ["c", "a", "b"]
    c, a, b = tables
    assert a.columns == ("id", "note", "c_key") and a.key == ("id",) and a.generated == "id"
    assert b.key == ("a_id", "n") and b.generated is None and b.parents == {"a"}
    assert c.key == ("key",) and c.generated is None


@pytest.mark.parametrize(
    "statement",
    [
        "DROP TABLE a",
        "ALTER TABLE a RENAME TO z",
        "ALTER TABLE a DROP COLUMN note",
        "CREATE TABLE n (x TEXT)",  # no primary key to read it in batches by
        # tables that reference each other: neither can be copied first
        "CREATE TABLE b (id INTEGER PRIMARY KEY, a_id INTEGER REFERENCES a (id));"
        " ALTER TABLE a ADD COLUMN b_id INTEGER REFERENCES b (id)",
    ],
)
def test_a_schema_change_the_copier_cannot_follow_stops_it(statement):
    with pytest.raises(ValueError):
        schema_tables(("CREATE TABLE a (id INTEGER PRIMARY KEY, note TEXT);", statement))


def test_database_arguments(tmp_path):
    assert database_target("sqlite:/srv/bot.db") == database_target("/srv/bot.db") == "/srv/bot.db"
    assert database_target("postgresql://bot@db/tables") == "postgresql://bot@db/tables"
    for bad in ("mysql://db/tables", "sqlite:", ""):
        with pytest.raises(ValueError):
            database_target(bad)
    with pytest.raises(ValueError, match="no SQLite database"):
        source_target(str(tmp_path / "none.db"))
    assert describe("postgresql://bot:hunter2@db:5432/tables") == "postgresql://bot:***@db:5432/tables"


# ---------------------------------------------------------------------- the command line


def migrate_db(*argv: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "TABLES_LOG_LEVEL": "WARNING"}
    return subprocess.run(
        [sys.executable, "bot.py", "migrate-db", *argv],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
    )


async def test_cli_copies_and_prints_a_line_per_table(source, store_target):
    done = migrate_db("--from", f"sqlite:{source}", "--to", store_target)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    held = await contents(source)
    lines = done.stdout.splitlines()
    expected = [
        f"{t.name}: {len(held[t.name])} row{'' if len(held[t.name]) == 1 else 's'}" for t in schema_tables(MIGRATIONS)
    ]
    assert lines[:-1] == expected
    assert lines[-1].startswith(f"Copied {sum(map(len, held.values()))} rows in {len(held)} tables")
    assert await contents(store_target) == held


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--from", "SOURCE"], "required: --to"),
        (["--to", "y.db"], "required: --from"),
        (["--from", "/nowhere/none.db", "--to", "y.db"], "no SQLite database at /nowhere/none.db"),
        (["--from", "SOURCE", "--to", "mysql://db/x"], "neither an SQLite file"),
        (["--from", "SOURCE", "--to", "postgresql://u:secret@[::1/x"], "'postgresql://u:***@[::1/x' is not a"),
        (["--from", "SOURCE", "--to", "postgresql://u:secret@db:99999/x"], "not a PostgreSQL URL"),
    ],
)
def test_cli_bad_arguments_are_one_line_and_status_2(source, argv, message):
    done = migrate_db(*(source if a == "SOURCE" else a for a in argv))
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.splitlines()) == 1 and message in done.stderr and "secret" not in done.stderr


def test_cli_an_unreachable_target_is_one_line_and_status_1(source, tmp_path):
    """Nothing listens on port 1: the connection is refused at once."""
    done = migrate_db("--from", source, "--to", "postgresql://bot:hunter2@127.0.0.1:1/tables")
    assert done.returncode == 1
    assert done.stdout == ""
    (line,) = done.stderr.splitlines()
    assert line.startswith("python bot.py migrate-db: cannot open the target, postgresql://bot:***@127.0.0.1:1/")
    assert "hunter2" not in line
