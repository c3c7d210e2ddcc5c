"""``python bot.py demo GAME``: one whole game through the real bot in SimCord, with its transcript.

Also where the SimCord driver is found by the tools that check what the bot sends against Discord's limits
(``from cogs.demo import SimTable, speaking``): it lives in :mod:`cogs.offline.driver`."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import simcord

from cogs.offline.driver import SimTable, speaking
from cogs.offline.transcript import record_edits, write_transcript

__all__ = ["SimTable", "run_demo", "speaking"]
from games.i18n import localize
from games.registry import GAMES


async def run_demo(
    kind: str, players: int, seed: str, out: Path, options: dict[str, Any], locale: str = "en-US"
) -> int:
    """``python bot.py demo <game>``: one whole game through the real bot in SimCord, no token needed.

    The arguments come checked by ``bot.py`` (players in range, valid options, ``out`` a folder). The bot
    and its store are closed however the run ends: the store's worker thread would otherwise keep the
    process alive after an error.
    """
    from cogs.app import create_bot

    spec = GAMES[kind]
    humans = 2 if players >= 3 else 1
    with tempfile.TemporaryDirectory() as tmp:
        bot = create_bot(database=Path(tmp) / "demo.db", ai_delay=0, seed=seed, warm_renderers=False)
        try:
            async with simcord.run(bot) as env:
                if options.get("ai_level") == "hard":
                    # A move is followed by the AI's searches, in real time (a second or so each): SimCord's
                    # 5 s for the bot to settle after an interaction is too short for a run of them.
                    env.settle_timeout = 600
                await bot.tree.sync()
                table = SimTable(env, bot, locale=locale)
                edits = record_edits(table)
                names = list(table.members)
                with speaking({member.id: locale for member in table.members.values()}):
                    await table.challenge(kind, names[0], names[1:humans], ai=players - humans, **options)
                    record = await table.latest_game()
                    record = await table.play_to_end(record.id, via="mixed")
                images = write_transcript(table, out, edits)
        finally:
            try:
                await bot.close()
            finally:
                if hasattr(bot, "tables"):  # in case closing the bot failed before its store
                    await bot.tables.close()
    result = record.result or {}
    # Winners are seats; a player commanding a fleet holds several, so name each player once.
    players = dict.fromkeys(spec.game.controller(record.state, w) for w in result.get("winners", []))
    winners = ", ".join(record.names[p] for p in players) or "nobody"
    print(f"{localize(spec.title)} #{record.id} finished after {record.version} actions; winner: {winners}.")
    print(f"Transcript: {out / 'transcript.md'} ({images} images in {out / 'images'})")
    return 0
