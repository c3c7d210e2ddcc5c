"""``python bot.py backup FILE`` and ``restore FILE`` on SQLite: a backup taken while the bot plays restores to a
database a restarted bot plays every game on from; a restore refuses a database a program has open, and a
file that is not a backup of this bot's database. (PostgreSQL: tests/test_backup_postgres.py.)"""

from __future__ import annotations

import asyncio
import hashlib
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from bot import main
from data.backup import backup, check_backup
from data.migrations import MIGRATIONS
from data.store import Store
from tests.conftest import World

ROOT = Path(__file__).resolve().parent.parent


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _versions(path: Path) -> dict[int, tuple[str, int]]:
    """Each game's status and version in the SQLite file at ``path`` (read as it is, without its WAL's files
    if it has none beside it)."""
    with sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True) as conn:
        return {row[0]: (row[1], row[2]) for row in conn.execute("SELECT id, status, version FROM games")}


async def test_a_backup_taken_during_play_restores_to_a_database_where_every_game_plays_on(
    world: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    table = world.table
    await table.challenge("piratz", "Anne", ["Ben"], ai=1)
    piratz = await table.latest_game()
    await table.play_moves(piratz.id, 3)
    await table.challenge("sewerpirats", "Calico", ["Dara"])
    sewer = await table.latest_game()
    await table.play_moves(sewer.id, 2)
    playing = {g: ((await table.record(g)).status, (await table.record(g)).version) for g in (piratz.id, sewer.id)}

    # While the bot runs (its three connections open), through the command line.
    saved = tmp_path / "backups" / "tables.db"
    monkeypatch.setenv("TABLES_DATABASE", str(world.database))
    status, out, err = cli(capsys, "backup", str(saved))
    assert (status, err) == (0, "")
    assert out == f"Backed up {world.database} into {saved}: 2 games (2 being played).\n"
    assert _versions(saved) == playing
    assert [p.name for p in saved.parent.iterdir()] == ["tables.db"]  # one file: no WAL, nothing partial

    # The database is open in the bot: restoring over it is refused, in another process as an admin would.
    done = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "bot.py", "restore", str(saved)],
        cwd=ROOT,
        env={**os.environ, "TABLES_DATABASE": str(world.database)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        f"python bot.py restore: {world.database} is in use: a bot (or another program) has it open; stop it, "
        "then restore\n"
    )

    # Restored into a new database, a bot started on it plays both games on to their end.
    restored = tmp_path / "restored" / "tables.db"
    monkeypatch.setenv("TABLES_DATABASE", str(restored))
    status, out, err = cli(capsys, "restore", str(saved))
    assert (status, err) == (0, "")
    assert out == f"Restored {saved} into {restored}: 2 games (2 being played) (it was empty before).\n"
    world.database = restored
    await world.restart()
    await world.env.settle()  # what the bot owed when the backup was taken: delivered now
    for game_id in (piratz.id, sewer.id):
        assert (await table.play_to_end(game_id)).status == "finished"

    # A backup of the finished games, restored over the first database (no bot has it open any more).
    monkeypatch.setenv("TABLES_DATABASE", str(restored))
    assert cli(capsys, "backup", str(saved))[0] == 0
    original = tmp_path / "tables.db"
    monkeypatch.setenv("TABLES_DATABASE", str(original))
    status, out, err = cli(capsys, "restore", str(saved))
    assert (status, err) == (0, "")
    assert out.endswith("2 games (0 being played) (it held 2 games (2 being played) before).\n")
    assert {status for status, _ in _versions(original).values()} == {"finished"}


async def test_a_backup_holds_what_is_still_in_the_write_ahead_log(tmp_path: Path) -> None:
    """The bot copies its WAL back into the database file only every 64 writes (data.sqlite): a copy of the
    file alone misses the latest ones, a backup has them."""
    database = tmp_path / "tables.db"
    store = await Store.open(database)
    try:
        await store.settings.set_locale(101, "de")
        bare = tmp_path / "copied.db"
        shutil.copy(database, bare)
        held = backup(str(database), tmp_path / "backup.db")
    finally:
        await store.close()
    assert held.version == len(MIGRATIONS)
    with sqlite3.connect(tmp_path / "backup.db") as conn:
        assert conn.execute("SELECT locale FROM users WHERE user_id = 101").fetchone() == ("de",)
    with sqlite3.connect(bare) as conn:
        assert conn.execute("PRAGMA user_version").fetchone() == (0,)  # the migrations too are in the WAL yet


@pytest.fixture
async def bot_database(tmp_path: Path) -> Path:
    """A bot's database, no bot running on it."""
    path = tmp_path / "tables.db"
    store = await Store.open(path)
    await store.settings.set_locale(101, "de")
    await store.close()
    return path


def _sqlite(path: Path, *statements: str) -> Path:
    with sqlite3.connect(path) as conn:
        for statement in statements:
            conn.execute(statement)
    return path


@pytest.mark.parametrize(
    ("make", "said"),
    [
        (lambda d: d / "notes.txt", "is not a backup of this bot's database: file is not a database"),
        (lambda d: _sqlite(d / "other.db", "CREATE TABLE notes (x)"), "it has no schema version"),
        (lambda d: _sqlite(d / "empty.db", f"PRAGMA user_version = {len(MIGRATIONS)}"), "it has no table games"),
        (
            lambda d: _sqlite(d / "newer.db", f"PRAGMA user_version = {len(MIGRATIONS) + 1}"),
            f"its schema is version {len(MIGRATIONS) + 1}, newer than this bot's {len(MIGRATIONS)}",
        ),
        (lambda d: d / "missing.db", "there is no file"),
        (lambda d: d / "tables.db", "is the database itself"),
    ],
    ids=["text", "another-programs", "no-tables", "newer-bot", "missing", "itself"],
)
def test_restore_refuses_a_file_that_is_not_a_backup_and_changes_nothing(
    bot_database: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    make: Callable[[Path], Path],
    said: str,
) -> None:
    (bot_database.parent / "notes.txt").write_text("not a database")
    file = make(bot_database.parent)
    before = _digest(bot_database)
    monkeypatch.setenv("TABLES_DATABASE", str(bot_database))
    status, out, err = cli(capsys, "restore", str(file))
    assert (status, out) == (2, "")
    assert err.startswith("python bot.py restore: ") and said in err and err.count("\n") == 1, err
    assert _digest(bot_database) == before


def test_restore_leaves_another_programs_database_alone(
    bot_database: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    other = _sqlite(tmp_path / "accounts.db", "CREATE TABLE accounts (id INTEGER PRIMARY KEY)")
    before = _digest(other)
    monkeypatch.setenv("TABLES_DATABASE", str(other))
    status, out, err = cli(capsys, "restore", str(bot_database))
    assert (status, out) == (1, "")
    assert err == (
        f"python bot.py restore: {other} is not this bot's database (it has no schema version): it is left as it is\n"
    )
    assert _digest(other) == before


def test_backup_refuses_what_it_cannot_copy(
    bot_database: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("TABLES_DATABASE", str(bot_database))
    for file, said in (
        (bot_database, "is the database itself: give the backup another file"),
        (tmp_path, "is a folder: give the backup's file name"),
    ):
        status, out, err = cli(capsys, "backup", str(file))
        assert (status, out) == (1, "") and said in err and err.count("\n") == 1, err
    monkeypatch.setenv("TABLES_DATABASE", str(tmp_path / "none.db"))
    assert cli(capsys, "backup", str(tmp_path / "b.db")) == (
        1,
        "",
        f"python bot.py backup: there is no SQLite database at {tmp_path / 'none.db'}\n",
    )
    other = _sqlite(tmp_path / "accounts.db", "CREATE TABLE accounts (id INTEGER PRIMARY KEY)")
    monkeypatch.setenv("TABLES_DATABASE", str(other))
    status, _, err = cli(capsys, "backup", str(tmp_path / "b.db"))
    assert status == 1 and "is not this bot's database: it has no schema version" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["accounts.db", "tables.db"]  # no backup, nothing partial


def test_a_backup_replaces_an_earlier_one_whole(bot_database: Path, tmp_path: Path) -> None:
    file = tmp_path / "backup.db"
    file.write_bytes(b"an earlier backup")
    backup(str(bot_database), file)
    assert check_backup(file).version == len(MIGRATIONS)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["backup.db", "tables.db"]
