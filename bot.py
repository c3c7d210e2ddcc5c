"""Pirate Tables — a Discord bot for pirate- and rat-themed board games.

python bot.py                      connect to Discord (needs DISCORD_TOKEN)
python bot.py sync [--guild ID]    publish the slash commands
python bot.py demo piratz          play a whole game offline in a simulated Discord
python bot.py simulate piratz      AI-versus-AI games at engine level, JSON out
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import sys
from pathlib import Path
from typing import Any

import discord
from dotenv import load_dotenv

from cogs.app import Config, create_bot
from games.registry import GAMES

__all__ = ["create_bot", "main"]


NO_TOKEN = """\
No Discord token: set DISCORD_TOKEN in the environment or in a .env file next to bot.py.

  1. Create an application at https://discord.com/developers/applications
  2. Under "Bot", press "Reset Token" and copy it.
  3. Put  DISCORD_TOKEN=<your token>  in .env, then run  python bot.py sync  once and  python bot.py

To watch the bot play without a token or network, try:  python bot.py demo piratz
"""


def _parse_options(args: argparse.Namespace) -> dict[str, Any]:
    options: dict[str, Any] = {}
    if getattr(args, "blind", False):
        options["blind"] = True
    if getattr(args, "variant", None):
        options["variant"] = args.variant
    return options


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python bot.py",
        description="Pirate Tables: board games in Discord. Without a command, connect with DISCORD_TOKEN.",
        epilog="Configuration comes from the environment or .env: DISCORD_TOKEN, TABLES_DATABASE, "
        "TABLES_AI_DELAY, TABLES_INVITE_TTL, TABLES_LOG_LEVEL (see README).",
    )
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("run", help="connect to Discord (the default)")
    sync = sub.add_parser("sync", help="publish the slash commands to Discord")
    sync.add_argument("--guild", type=int, help="publish to one server only (instant; for testing)")

    demo = sub.add_parser("demo", help="play one complete game offline in a simulated Discord")
    demo.add_argument("game", choices=list(GAMES))
    demo.add_argument("--players", type=int, default=3, help="number of seats (default 3)")
    demo.add_argument("--seed", default="demo", help="the game's seed (default 'demo')")
    demo.add_argument("--out", default="demo-out", help="folder for the transcript and images")
    demo.add_argument("--variant", help="Sewer Pirats: standard, landlubber or auction")
    demo.add_argument("--blind", action="store_true", help="Piratz: play in blind mode")

    sim = sub.add_parser("simulate", help="AI-versus-AI games at engine level; prints JSON")
    sim.add_argument("game", choices=list(GAMES))
    sim.add_argument("--games", type=int, default=100)
    sim.add_argument("--seed", default="0")
    sim.add_argument("--players", type=int, default=None, help="number of seats (default: the game's minimum)")
    sim.add_argument("--variant", help="Sewer Pirats: standard, landlubber or auction")
    sim.add_argument("--blind", action="store_true", help="Piratz: blind mode")
    return parser


def _run(config: Config) -> int:
    token = os.environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    bot = create_bot(config=config)
    bot.run(token, log_handler=None)
    return 0


async def _sync(config: Config, guild_id: int | None) -> int:
    token = os.environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    bot = create_bot(config=config)
    async with bot:
        await bot.login(token)
        if guild_id is not None:
            guild = discord.Object(id=guild_id)
            bot.tree.copy_global_to(guild=guild)
            synced = await bot.tree.sync(guild=guild)
        else:
            synced = await bot.tree.sync()
    where = f"server {guild_id}" if guild_id else "every server (may take up to an hour to appear)"
    print(f"Published {len(synced)} commands to {where}: {', '.join('/' + c.name for c in synced)}")
    return 0


def _simulate(args: argparse.Namespace) -> int:
    from games.simulate import simulate

    spec = GAMES[args.game]
    game, ai = spec.game, spec.ai
    seats = args.players or game.min_players
    if not game.min_players <= seats <= game.max_players:
        print(f"{game.title} takes {game.min_players}–{game.max_players} players.", file=sys.stderr)
        return 2
    result = simulate(game, [ai() for _ in range(seats)], args.games, args.seed, _parse_options(args))
    print(json.dumps(result))
    return 1 if result["violations"] else 0


def main(argv: list[str] | None = None) -> int:
    load_dotenv()
    args = _parser().parse_args(argv)
    config = Config.from_env()
    discord.utils.setup_logging(level=getattr(logging, config.log_level, logging.INFO), root=True)
    if args.command in (None, "run"):
        return _run(config)
    if args.command == "sync":
        return asyncio.run(_sync(config, args.guild))
    if args.command == "simulate":
        return _simulate(args)
    # The demo's Discord is SimCord, in memory: discord.py's notes about the gateway and intents (some
    # about SimCord's own probe client) say nothing about the bot there. Errors still show.
    logging.getLogger("discord").setLevel(logging.ERROR)
    try:
        from cogs.demo import run_demo
    except ModuleNotFoundError as exc:
        if exc.name != "simcord":
            raise
        print('The demo runs the bot in SimCord, part of the dev extra: pip install -e ".[dev]"', file=sys.stderr)
        return 2

    return asyncio.run(run_demo(args.game, args.players, args.seed, Path(args.out), _parse_options(args)))


if __name__ == "__main__":
    sys.exit(main())
