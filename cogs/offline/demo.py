"""``python bot.py demo GAME``: one whole game through the real bot in SimCord, with its transcript (the
SimCord driver it plays with is :mod:`cogs.offline.driver`; :mod:`cogs.demo` names both for the tools that
check what the bot sends against Discord's limits)."""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import simcord

from cogs.offline.driver import SimTable, speaking
from cogs.offline.transcript import IMAGES, TRANSCRIPT, record_edits, write_transcript
from games.i18n import localize
from games.registry import GAMES

if TYPE_CHECKING:
    from tables.cache import GameRecord

__all__ = ["SimTable", "output_problem", "run_demo", "speaking"]

PROGRESS_EVERY = 10
"""Actions between two lines of a hard-AI demo's progress."""


def output_problem(out: Path) -> str | None:
    """Why the demo cannot write its transcript and images into the folder ``out`` (a file is in the way, it
    holds other things, it cannot be created), or ``None``. Creates nothing: a refused run leaves no trace."""
    if out.exists() and not out.is_dir():
        return f"{out} is a file; give a folder"
    if out.is_dir():
        others = sorted(p.name for p in out.iterdir() if p.name not in (TRANSCRIPT, IMAGES))
        if others:
            # The folder is replaced whole: never one that holds anything a demo did not write.
            return f"{out} holds more than a demo's transcript and images ({others[0]}); give a new folder"
    place = out.absolute().parent
    while not place.exists():
        place = place.parent
    if not place.is_dir():
        return f"cannot create the folder {out}: {place} is a file"
    if not os.access(place, os.W_OK | os.X_OK):
        return f"cannot create the folder {out}: {place} is not writable"
    return None


@contextmanager
def replacing(out: Path) -> Iterator[Path]:
    """A new, empty folder beside ``out`` to write into; when the block ends it takes the place of ``out``
    whole (the previous one is deleted), and if the block fails it is deleted and ``out`` stays as it was.
    A demo stopped at any point therefore leaves its folder as the last complete run wrote it (or none)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    new = out.with_name(f".{out.name}-{secrets.token_hex(6)}")
    new.mkdir()  # as ``out`` would have been made (tempfile.mkdtemp's would be readable by its owner only)
    try:
        yield new
        previous = new.with_name(new.name + "-previous")
        # Two renames and a removal, a few milliseconds: a Ctrl-C between the renames would leave the
        # previous output aside, so it is not heard meanwhile (the first Ctrl-C of a demo only cancels its
        # task, which this synchronous code does not notice: this is about a second one).
        heard = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            if out.exists():
                out.rename(previous)
            new.rename(out)
            shutil.rmtree(previous, ignore_errors=True)
        finally:
            signal.signal(signal.SIGINT, heard)
    finally:
        shutil.rmtree(new, ignore_errors=True)  # written only in part, or (moved in place) gone already


def progress_lines(title: str, stream: TextIO) -> Callable[[GameRecord], None]:
    """Shows a game's progress on ``stream``: a line every :data:`PROGRESS_EVERY` actions, with the time
    since the first."""
    started = time.monotonic()
    shown = 0

    def show(record: GameRecord) -> None:
        nonlocal shown
        if record.version // PROGRESS_EVERY > shown // PROGRESS_EVERY:
            shown = record.version
            elapsed = round(time.monotonic() - started)
            print(f"{title} #{record.id}: {record.version} actions, {elapsed} s", file=stream, flush=True)

    return show


async def run_demo(
    kind: str, players: int, seed: str, out: Path, options: dict[str, Any], locale: str = "en-US"
) -> int:
    """``python bot.py demo <game>``: one whole game through the real bot in SimCord, no token needed.

    The arguments come checked by ``bot.py`` (players in range, valid options, ``out`` a folder the demo may
    replace: :func:`output_problem`); the transcript and images replace ``out`` whole once written
    (:func:`replacing`). A hard AI thinks for about a second a move, so then a line every
    :data:`PROGRESS_EVERY` actions tells how far the game is, on a terminal's stderr. The bot and its store
    are closed however the run ends: the store's worker thread would otherwise keep the process alive after
    an error.
    """
    from cogs.app import create_bot

    spec = GAMES[kind]
    humans = 2 if players >= 3 else 1
    hard = options.get("ai_level") == "hard"
    progress = progress_lines(localize(spec.title), sys.stderr) if hard and sys.stderr.isatty() else None
    with tempfile.TemporaryDirectory() as tmp:
        bot = create_bot(database=Path(tmp) / "demo.db", ai_delay=0, seed=seed, warm_renderers=False)
        try:
            async with simcord.run(bot) as env:
                if hard:
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
                    record = await table.play_to_end(record.id, via="mixed", progress=progress)
                with replacing(out) as folder:
                    images = write_transcript(table, folder, edits)
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
    print(f"Transcript: {out / TRANSCRIPT} ({images} images in {out / IMAGES})")
    return 0
