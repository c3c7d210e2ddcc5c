"""Backups on PostgreSQL are PostgreSQL's own: ``python bot.py backup`` and ``restore`` say to use ``pg_dump`` and
``pg_restore`` (one line, status 2), and the README's commands are run here as written there: a dump taken
while the bot plays, restored after the database lost its games, and a restarted bot plays the game on to its
end."""

from __future__ import annotations

import itertools
import subprocess
from pathlib import Path

import asyncpg
import pytest
import simcord

from bot import main
from cogs.app import create_bot
from cogs.offline.driver import SimTable
from tests.postgres import PostgresServer

_names = itertools.count(1)


@pytest.mark.parametrize("command", ["backup", "restore"])
def test_backup_and_restore_point_to_pg_dump_and_pg_restore(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str
) -> None:
    monkeypatch.setenv("TABLES_DATABASE", "postgresql://tables:secret@localhost/tables")
    status = main([command, str(tmp_path / "tables.dump")])
    out, err = capsys.readouterr()
    assert (status, out) == (2, "")
    assert err == (
        f"python bot.py {command}: TABLES_DATABASE is a PostgreSQL database: back it up with pg_dump (while the "
        "bot runs) and restore it with pg_restore (the bot stopped); see the README, Backups\n"
    )
    assert not (tmp_path / "tables.dump").exists()


def _run(*command: str) -> None:
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


async def test_a_dump_taken_during_play_restores_a_database_the_bot_plays_on_from(
    postgres_server: PostgresServer, tmp_path: Path
) -> None:
    name = f"tables_backup_{next(_names)}"
    admin = await asyncpg.connect(postgres_server.url())
    try:
        await admin.execute(f"CREATE DATABASE {name}")
    finally:
        await admin.close()
    url = postgres_server.database_url(name)
    bot = create_bot(database=url, ai_delay=0, seed="pg-backup", warm_renderers=False)
    async with simcord.run(bot) as env:
        await bot.tree.sync()
        table = SimTable(env, bot)
        await table.challenge("piratz", "Anne", ["Ben"], ai=1)
        game = await table.latest_game()
        # Typed moves (/piratz move) in the game's place: on PostgreSQL a game's first boards may still go to
        # its channel after its thread was made, where the driver's buttons would not find them.
        for _ in range(3):
            record = await table.record(game.id)
            seat = table.human_to_act(record)
            assert seat is not None
            await table.move(record, seat, table.pick(record, seat))
        played = (await table.record(game.id)).version

        # README, Backups: while the bot runs.
        dump = tmp_path / "tables.dump"
        _run(postgres_server.tool("pg_dump"), "--format=custom", f"--file={dump}", url)

        # The bot stopped and its games lost; then the README's restore, and the bot started again.
        await bot.tables.close()
        lost = await asyncpg.connect(url)
        try:
            await lost.execute("TRUNCATE games CASCADE")
        finally:
            await lost.close()
        _run(postgres_server.tool("pg_restore"), "--clean", "--if-exists", "--no-owner", f"--dbname={url}", str(dump))
        restarted = create_bot(database=url, ai_delay=0, seed="pg-restored", warm_renderers=False)
        await env.restart_bot(restarted)
        table.bot = restarted
        try:
            await env.settle()  # what the bot owed when the dump was taken: delivered now
            assert (await table.record(game.id)).version == played
            assert (await table.play_to_end(game.id, via="move")).status == "finished"
        finally:
            await restarted.tables.close()
