"""Pirate Tables — a Discord bot for pirate- and rat-themed board games.

python bot.py                      connect to Discord (needs DISCORD_TOKEN)
python bot.py --shard-count 4 --shard-ids 0,1   connect shards 0 and 1 of 4 (other processes run the rest)
python bot.py sync [--guild ID]    publish the slash commands
python bot.py demo piratz          play a whole game offline in a simulated Discord
python bot.py play piratz          play it yourself, offline, on a Discord-like page in your browser
python bot.py simulate piratz      AI-versus-AI games at engine level, JSON out
python bot.py arena piratz --a hard --b normal --games 20   two AI levels against each other, JSON out
python bot.py verify LOG_FILE      check a finished game's log: seed, every action, the result
python bot.py migrate-db --from sqlite:bot.db --to postgresql://…   copy the database into a new one
python bot.py backup FILE          copy the SQLite database while the bot runs
python bot.py restore FILE         write a backup into the database, no program having it open
python bot.py invite-url           the link that adds the bot to a server, with the permissions it needs

A bad command line is one line on stderr and exit status 2, before anything starts. Without a token the
bot explains how to get one (status 2); a rejected token (status 2) or a Discord that cannot be reached
(status 1) is one line, and so is a database the bot cannot use, found before Discord is asked (status 2).
Ctrl-C is one line too: status 130, or 0 for the bot and ``play``, which run until it.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import difflib
import json
import logging
import os
import sys
import textwrap
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, NoReturn

import aiohttp
import discord
from dotenv import load_dotenv

from cogs.app import TableBot, create_bot, invite_url
from games.core import IllegalAction
from games.i18n import LANGUAGES, localize, spoken
from games.options import game_options, option_form
from games.registry import GAMES, LEVELS
from games.search import THINK_MS
from tables.config import Config, ConfigError, shard_ids

INTERRUPTED = 130
"""The exit status of a command stopped by Ctrl-C: 128 + SIGINT, what a shell reports for it."""

DEFAULT_HUMANS = ("You",)
"""The member a person plays in ``play`` unless ``--humans`` names others."""

__all__ = ["create_bot", "main"]


NO_TOKEN = """\
No Discord token: set DISCORD_TOKEN in the environment or in a .env file next to bot.py (.env.example
lists every setting).

  1. Create an application at https://discord.com/developers/applications
  2. Under "Bot", press "Reset Token" and copy it.
  3. Put  DISCORD_TOKEN=<your token>  in .env, then run  python bot.py sync  once and  python bot.py

To watch the bot play without a token or network, try:  python bot.py demo piratz
"""

BAD_TOKEN = (
    "Discord rejected the token in DISCORD_TOKEN: copy a new one (Developer Portal → your application → Bot → "
    "Reset Token) into .env."
)


class Fatal(Exception):
    """A problem the user can fix, told in one line; ``status`` is the exit status."""

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.status = status


# ---------------------------------------------------------------------- the command line


class _Parser(argparse.ArgumentParser):
    """argparse, but a bad command line is one line on stderr (and exit status 2), not the usage text."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _whole(low: int) -> Callable[[str], int]:
    """An argparse ``type``: a whole number no smaller than ``low``."""

    def parse(text: str) -> int:
        try:
            number = int(text)
        except ValueError:
            number = low - 1
        if number < low:
            raise argparse.ArgumentTypeError(f"must be a whole number from {low} up, not {text!r}")
        return number

    return parse


def _options_epilog() -> str:
    width = max(len(kind) for kind in GAMES) + 4
    lines = ["game options (--option NAME=VALUE, repeatable):"]
    for kind, spec in GAMES.items():
        for option in spec.game.options:
            default = ("on" if option.default else "off") if isinstance(option.default, bool) else option.default
            lines.append(f"  {kind:<{width - 2}}{option_form(option)} (default: {default})")
            lines += textwrap.wrap(option.description, 79, initial_indent=" " * width, subsequent_indent=" " * width)
    return "\n".join(lines)


def _game(text: str) -> str:
    """An argparse ``type``: a registered game, in any case; a near miss is told what it may have meant."""
    kind = text.lower()
    if kind in GAMES:
        return kind
    near = difflib.get_close_matches(kind, GAMES, n=1)
    meant = f" (did you mean {near[0]}?)" if near else ""
    raise argparse.ArgumentTypeError(f"there is no game {text!r}{meant}; the games are {', '.join(GAMES)}")


DISCORD_LOCALES = {locale.value.lower(): locale.value for locale in discord.Locale}
"""Discord's locales (``en-US``, ``de``…) by their code in lower case."""


def _locale(text: str) -> str:
    """An argparse ``type``: a Discord locale in a language the bot speaks (``de``, ``en-US``, ``en-GB``…, in
    any case), spelt as Discord spells it."""
    if spoken(text) in LANGUAGES:
        return DISCORD_LOCALES.get(text.lower(), text)
    named = [
        f"{name} ({', '.join(v for v in DISCORD_LOCALES.values() if spoken(v) == code)})"
        for code, name in LANGUAGES.items()
    ]
    offered = ", ".join(named[:-1]) + " and " + named[-1]
    raise argparse.ArgumentTypeError(f"the bot speaks {offered}, not {text!r}")


def _add_game_arguments(command: argparse.ArgumentParser) -> None:
    command.add_argument("game", type=_game, metavar="GAME", help=f"which game: {', '.join(GAMES)}")
    command.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a table option of the game (see below); repeat it for several",
    )


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="python bot.py",
        description="Pirate Tables: board games in Discord. Without a command, connect with DISCORD_TOKEN.",
        epilog="Settings come from the environment or .env: DISCORD_TOKEN, TABLES_DATABASE, TABLES_AI_DELAY, "
        "TABLES_INVITE_TTL, TABLES_LOG_LEVEL (each explained in .env.example and the README).",
    )
    parser.add_argument(
        "--shard-count",
        type=_whole(1),
        metavar="N",
        help="Discord shards of the whole bot (default: TABLES_SHARD_COUNT, or no sharding)",
    )
    parser.add_argument(
        "--shard-ids",
        type=_shard_ids,
        metavar="IDS",
        help="the shards this process connects, such as 0,1 (default: TABLES_SHARD_IDS, or all); "
        "processes that share the shards need TABLES_DATABASE on PostgreSQL",
    )
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("run", help="connect to Discord (the default)")
    sync = sub.add_parser("sync", help="publish the slash commands to Discord")
    sync.add_argument("--guild", type=int, help="publish to one server only (instant; for testing)")
    for add in (_add_demo, _add_play, _add_simulate, _add_arena, _add_records, _add_database):
        add(sub)
    return parser


def _game_command(sub: Any, name: str, help: str) -> argparse.ArgumentParser:
    """A command that plays a game: its name, ``--option``, and every game's options in its help."""
    shown = {"epilog": _options_epilog(), "formatter_class": argparse.RawDescriptionHelpFormatter}
    command = sub.add_parser(name, help=help, **shown)
    _add_game_arguments(command)
    command.set_defaults(command_parser=command)
    return command


def _add_table_arguments(command: argparse.ArgumentParser, players: int) -> None:
    """What the demo and ``play`` share: the players, the AI's level, the language."""
    command.add_argument(
        "--players", type=_whole(1), default=players, metavar="N", help="number of players (default: %(default)s)"
    )
    command.add_argument(
        "--ai-level", choices=LEVELS, default="normal", help="how the AI seats play (default: %(default)s)"
    )
    command.add_argument(
        "--locale",
        type=_locale,
        default="en-US",
        metavar="L",
        help="the Discord locale of the server and its members, e.g. de (default: %(default)s)",
    )


def _add_demo(sub: Any) -> None:
    demo = _game_command(sub, "demo", "play one complete game offline in a simulated Discord")
    _add_table_arguments(demo, 3)
    demo.add_argument("--seed", default="demo", metavar="S", help="the game's seed (default: %(default)s)")
    demo.add_argument(
        "--out",
        type=Path,
        default=Path("demo-out"),
        metavar="DIR",
        help="where the transcript and images go (default: %(default)s)",
    )


def _add_play(sub: Any) -> None:
    play = _game_command(sub, "play", "play a game yourself offline: a Discord-like page in your browser (no token)")
    _add_table_arguments(play, 2)
    play.add_argument(
        "--humans",
        type=_names,
        default=DEFAULT_HUMANS,
        metavar="NAME,NAME…",
        help="the members you play (default: You); more than one make a hot-seat table, switched with "
        "“Viewing as” on the page; the other seats are the AI",
    )
    play.add_argument("--port", type=_port, default=0, metavar="PORT", help="the page's port (default: a free one)")
    play.add_argument(
        "--db",
        type=Path,
        metavar="FILE",
        help="keep the games in this SQLite file: a table survives a restart of play (default: a temporary one)",
    )
    play.add_argument("--seed", metavar="S", help="the games' seed (default: a new one each time)")
    play.add_argument(
        "--no-start", dest="start", action="store_false", help="open the tavern only: start a game with /GAME new"
    )


def _add_simulate(sub: Any) -> None:
    sim = _game_command(sub, "simulate", "AI-versus-AI games at engine level; prints JSON")
    sim.add_argument(
        "--games", type=_whole(1), default=100, metavar="N", help="how many games to play (default: %(default)s)"
    )
    sim.add_argument(
        "--seed",
        default="0",
        metavar="S",
        help="seed of the run: game i is played with seed S-i (default: %(default)s)",
    )
    sim.add_argument("--players", type=_whole(1), metavar="N", help="number of players (default: the game's minimum)")


def _add_arena(sub: Any) -> None:
    duel = _game_command(sub, "arena", "two AI levels play seeded games against each other; prints JSON")
    for flag, level in (("--a", "hard"), ("--b", "normal")):
        duel.add_argument(flag, choices=LEVELS, default=level, help="an AI level (default: %(default)s)")
    duel.add_argument(
        "--games", type=_whole(1), default=20, metavar="N", help="how many games to play (default: %(default)s)"
    )
    duel.add_argument(
        "--players", type=_whole(2), default=2, metavar="N", help="number of players (default: %(default)s)"
    )
    duel.add_argument(
        "--think-ms",
        type=_whole(1),
        default=THINK_MS,
        metavar="MS",
        help="the hard AI's time per decision in milliseconds (default: %(default)s)",
    )
    duel.add_argument(
        "--seed", default="arena", metavar="S", help="seed of the run: deal i has seed S-i (default: %(default)s)"
    )


def _add_records(sub: Any) -> None:
    """``verify`` and ``invite-url``."""
    verify = sub.add_parser(
        "verify",
        help="check a game log (attached to a finished game): the seed matches its posted SHA-256, every "
        "action was legal, and replaying them gives the posted result",
    )
    verify.add_argument("log_file", type=Path, metavar="LOG_FILE", help="the game's log file (.txt)")

    inviting = (
        "print the link that adds the bot to a server: its slash commands (scope applications.commands) and a bot "
        "user (scope bot) with the permissions it needs, and no others"
    )
    invite = sub.add_parser("invite-url", help=inviting, description=inviting[0].upper() + inviting[1:] + ".")
    invite.add_argument(
        "--client-id",
        type=_whole(1),
        metavar="ID",
        help="the application's id (Developer Portal → your application → General Information); default: "
        "DISCORD_CLIENT_ID, or else the id DISCORD_TOKEN begins with",
    )


def _add_database(sub: Any) -> None:
    """``backup``, ``restore`` and ``migrate-db``."""
    saving = sub.add_parser(
        "backup",
        help="copy the database into an SQLite file while the bot runs (PostgreSQL: pg_dump, see the README)",
    )
    saving.add_argument("file", type=Path, metavar="FILE", help="the backup's file (replaced if it exists)")
    restoring = sub.add_parser(
        "restore",
        help="write a backup into the database, unless a program (a running bot) has it open",
    )
    restoring.add_argument("file", type=Path, metavar="FILE", help="a file python bot.py backup wrote")

    copying = (
        "copy every game, lobby, rating and setting into a new, empty database (an SQLite file to PostgreSQL, "
        "or back), keeping their ids, in one transaction; the source is only read, after the migrations it has "
        "not run yet if its schema is older than this bot's"
    )
    migrate = sub.add_parser("migrate-db", help=copying, description=copying[0].upper() + copying[1:] + ".")
    where = "sqlite:PATH, PATH (an SQLite file) or postgresql://USER:PASSWORD@HOST/DATABASE"
    migrate.add_argument("--from", dest="source", required=True, type=_database(True), metavar="DB", help=where)
    migrate.add_argument("--to", dest="target", required=True, type=_database(False), metavar="DB", help=where)


def _names(text: str) -> tuple[str, ...]:
    """An argparse ``type``: names separated by commas."""
    return tuple(name.strip() for name in text.split(","))


def _port(text: str) -> int:
    """An argparse ``type``: a TCP port, or 0 for a free one."""
    if not text.isdigit() or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"a port is a whole number from 0 to 65535, not {text!r}")
    return int(text)


def _shard_ids(text: str) -> tuple[int, ...]:
    try:
        return shard_ids(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _database(source: bool) -> Callable[[str], str]:
    """An argparse ``type``: a database as :func:`data.engine.database_target` reads it; a source must exist."""

    def parse(text: str) -> str:
        from data.copy import source_target
        from data.engine import database_target

        try:
            return source_target(text) if source else database_target(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    return parse


def _checked_game_arguments(args: argparse.Namespace) -> dict[str, Any]:
    """Check ``--players`` against the game and read its ``--option``s (a bad one ends the program, status 2)."""
    command: argparse.ArgumentParser = args.command_parser
    game = GAMES[args.game].game
    if args.players is None:
        args.players = game.min_players
    try:
        options = game_options(game, args.option)
    except ValueError as exc:
        command.error(str(exc))
    try:
        game.check_players(args.players, game.resolve_options(options))
    except IllegalAction as exc:
        command.error(f"argument --players: {localize(str(exc))}")
    if args.command == "play":
        from cogs.offline.play import check_humans

        wrong = check_humans(args.game, args.players, args.humans)
        if wrong is not None:
            command.error(f"argument --humans: {wrong}")
        if args.db is not None and args.db.is_dir():
            command.error(f"argument --db: {args.db} is a folder; give a file")
    if args.command == "arena" and args.a == args.b:
        command.error(f"arguments --a and --b: choose two different levels, not {args.a} twice")
    return options


# ---------------------------------------------------------------------- the commands


async def _login(bot: TableBot, token: str) -> None:
    """Log in (which also sets the bot up), turning a rejected token or an unreachable Discord into :class:`Fatal`."""
    try:
        await bot.login(token)
    except discord.LoginFailure:
        raise Fatal(BAD_TOKEN, 2) from None
    except (aiohttp.ClientConnectionError, TimeoutError) as exc:
        raise Fatal(
            f"Discord cannot be reached ({str(exc) or type(exc).__name__}): check the network, then try again."
        ) from None


def _token() -> str:
    token = os.environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise Fatal(NO_TOKEN.rstrip(), 2)
    return token


async def _serve(config: Config, token: str) -> None:
    async with create_bot(config=config) as bot:
        await _login(bot, token)
        await bot.connect()  # reconnects by itself after network trouble once logged in


def _run(config: Config) -> int:
    token = _token()
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C is how the bot is stopped by hand
        asyncio.run(_serve(config, token))
    print("The bot has stopped.", file=sys.stderr)
    return 0


async def _sync(config: Config, guild_id: int | None) -> int:
    token = _token()
    async with create_bot(config=config) as bot:
        await _login(bot, token)
        if guild_id is not None:
            guild = discord.Object(id=guild_id)
            bot.tree.copy_global_to(guild=guild)
            synced = await bot.tree.sync(guild=guild)
        else:
            synced = await bot.tree.sync()
    where = f"server {guild_id}" if guild_id else "every server (may take up to an hour to appear)"
    print(f"Published {len(synced)} commands to {where}: {', '.join('/' + c.name for c in synced)}")
    return 0


def _simulate(args: argparse.Namespace, options: dict[str, Any]) -> int:
    from games.simulate import simulate

    spec = GAMES[args.game]
    result = simulate(spec.game, [spec.ai() for _ in range(args.players)], args.games, args.seed, options)
    print(json.dumps(result))
    return 1 if result["violations"] else 0


def _arena(args: argparse.Namespace, options: dict[str, Any]) -> int:
    from games.arena import arena

    def progress(played: int, wins: dict[str, float]) -> None:
        tally = ", ".join(f"{level} {won:g}" for level, won in wins.items())
        print(f"arena: {played}/{args.games} games, wins: {tally}", file=sys.stderr, flush=True)

    result = arena(
        GAMES[args.game],
        (args.a, args.b),
        args.games,
        args.players,
        options,
        think_ms=args.think_ms,
        seed=args.seed,
        progress=progress,
    )
    print(json.dumps(result))
    return 0


def _demo(args: argparse.Namespace, options: dict[str, Any]) -> int:
    # The demo's Discord is SimCord, in memory: discord.py's notes about the gateway and intents (some
    # about SimCord's own probe client) say nothing about the bot there. Errors still show.
    logging.getLogger("discord").setLevel(logging.ERROR)
    try:
        from cogs.offline.demo import output_problem, run_demo
    except ModuleNotFoundError as exc:
        if exc.name != "simcord":
            raise
        raise Fatal('The demo runs the bot in SimCord, part of the dev extra: pip install -e ".[dev]"', 2) from None
    problem = output_problem(args.out)
    if problem is not None:
        args.command_parser.error(f"argument --out: {problem}")
    if args.ai_level != "normal":
        options["ai_level"] = args.ai_level  # a table setting of /<game> new, beside the engine's options
    return asyncio.run(run_demo(args.game, args.players, args.seed, args.out, options, args.locale))


def _play(args: argparse.Namespace, options: dict[str, Any]) -> int:
    """``python bot.py play``: the page's address on the first line, then the table until Ctrl-C (or the page's
    "End preview session"), which closes it with one line and status 0."""
    logging.getLogger("discord").setLevel(logging.ERROR)  # SimCord's Discord: as for the demo
    try:
        from cogs.offline.play import run_play
    except ModuleNotFoundError as exc:
        if exc.name not in ("simcord", "aiohttp", "markdown_it", "linkify_it", "regex"):
            raise
        raise Fatal(
            'play serves the bot in SimCord\'s Preview, part of the dev extra: pip install -e ".[dev]"', 2
        ) from None
    if args.ai_level != "normal":
        options["ai_level"] = args.ai_level

    def ready(url: str) -> None:
        print(f"Open {url}", flush=True)
        print("Ctrl-C closes the table.", file=sys.stderr, flush=True)

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(
            run_play(
                args.game,
                args.players,
                args.humans,
                options,
                locale=args.locale,
                port=args.port or None,
                database=args.db,
                start=args.start,
                seed=args.seed,
                ready=ready,
            )
        )
    print("The table is closed.", flush=True)
    return 0


def _client_id(given: int | None) -> int:
    """The application id for ``invite-url``: ``--client-id``, ``DISCORD_CLIENT_ID``, or the one ``DISCORD_TOKEN``
    begins with: a token's first part is its bot user's id in base64, and a bot user has its application's id
    (for applications made since 2016: an older one may differ, and then needs its id given)."""
    if given is not None:
        return given
    named = os.environ.get("DISCORD_CLIENT_ID", "").strip()
    if named:
        if not named.isdigit():
            raise Fatal(f"python bot.py invite-url: DISCORD_CLIENT_ID is an application id (digits), not {named!r}", 2)
        return int(named)
    token = os.environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise Fatal(
            "python bot.py invite-url: give the application id (--client-id ID, or DISCORD_CLIENT_ID), or set "
            "DISCORD_TOKEN: the id is in the Developer Portal, your application, General Information.",
            2,
        )
    first = token.split(".")[0]
    try:
        decoded = base64.b64decode(first + "=" * (-len(first) % 4), validate=True).decode("ascii")
    except (ValueError, UnicodeDecodeError):  # binascii.Error is a ValueError
        decoded = ""
    if not decoded.isdigit():
        raise Fatal(
            "python bot.py invite-url: DISCORD_TOKEN does not begin with an application id: give it with "
            "--client-id ID (Developer Portal, your application, General Information).",
            2,
        )
    return int(decoded)


POSTGRES_BACKUPS = (
    "TABLES_DATABASE is a PostgreSQL database: back it up with pg_dump (while the bot runs) and restore it with "
    "pg_restore (the bot stopped); see the README, Backups"
)


def _backup(database: str, file: Path) -> int:
    """``python bot.py backup FILE``: a consistent copy of the SQLite database, made while the bot runs."""
    from data.backup import BackupError, backup
    from data.engine import is_postgres

    if is_postgres(database):
        raise Fatal(f"python bot.py backup: {POSTGRES_BACKUPS}", 2)
    try:
        contents = backup(database, file)
    except BackupError as exc:
        raise Fatal(f"python bot.py backup: {exc}") from None
    print(f"Backed up {database} into {file}: {contents}.")
    return 0


def _restore(database: str, file: Path) -> int:
    """``python bot.py restore FILE``: the backup written into the database, which no program may have open
    (status 1 if one has: stop the bot first; 2 for a file that is not a backup)."""
    from data.backup import BackupError, NotABackup, restore
    from data.engine import is_postgres
    from data.migrations import MIGRATIONS

    if is_postgres(database):
        raise Fatal(f"python bot.py restore: {POSTGRES_BACKUPS}", 2)
    try:
        contents, held = restore(file, database)
    except NotABackup as exc:
        raise Fatal(f"python bot.py restore: {exc}", 2) from None
    except BackupError as exc:
        raise Fatal(f"python bot.py restore: {exc}") from None
    before = f"it held {held} before" if held else "it was empty before"
    older = "; the bot brings its schema up to date when it starts" if contents.version < len(MIGRATIONS) else ""
    print(f"Restored {file} into {database}: {contents} ({before}){older}.")
    return 0


def _verify(log_file: Path) -> int:
    """``python bot.py verify LOG_FILE``: each check on a line; status 0 if the log holds, 1 if not, 2 if the
    file cannot be read as a game log."""
    from tables.records import BadLog, verify_log

    try:
        data = log_file.read_bytes()
    except OSError as exc:
        raise Fatal(f"python bot.py verify: cannot read {log_file}: {exc.strerror or exc}", 2) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        # A log is UTF-8 text: a person gave the wrong file (an image, an archive), not a broken log.
        kind = "a binary file" if b"\0" in data else "not UTF-8 text"
        raise Fatal(f"python bot.py verify: {log_file} is not a game log ({kind})", 2) from None
    try:
        verdict = verify_log(text)
    except BadLog as exc:
        raise Fatal(f"python bot.py verify: {log_file}: {exc}", 2) from None
    print("\n".join(verdict.lines))
    print("VERIFIED: no shuffle, die or move was changed." if verdict.ok else "NOT VERIFIED.")
    return 0 if verdict.ok else 1


def _migrate_db(source: str, target: str) -> int:
    """``python bot.py migrate-db``: a line per table as it is copied, then one for the committed copy."""
    from data.copy import CopyError, copy_database, describe

    def copied(table: str, rows: int) -> None:
        print(f"{table}: {rows} row{'' if rows == 1 else 's'}", flush=True)

    try:
        counts = asyncio.run(copy_database(source, target, progress=copied))
    except CopyError as exc:
        raise Fatal(f"python bot.py migrate-db: {exc}") from None
    print(f"Copied {sum(counts.values())} rows in {len(counts)} tables from {describe(source)} to {describe(target)}.")
    return 0


def _setup_logging(level_name: str) -> None:
    # As logging.basicConfig does: a program that already set up logging (pytest, a caller of main) keeps it.
    if not logging.getLogger().handlers:
        discord.utils.setup_logging(level=getattr(logging, level_name, logging.INFO), root=True)


def _config(args: argparse.Namespace) -> Config:
    """The settings of the environment, with the shards the command line names (a bad combination is
    one line, status 2)."""
    try:
        config = Config.from_env()
        if args.shard_count is not None or args.shard_ids is not None:
            count = args.shard_count if args.shard_count is not None else config.shard_count
            config = replace(config, shard_count=count, shard_ids=args.shard_ids or config.shard_ids).checked()
    except ConfigError as exc:
        raise Fatal(f"python bot.py: {exc}", 2) from None
    return config


def _check_database(database: str) -> None:
    """Refuse (one line, status 2) an SQLite file the bot could not write, before anything connects to
    Discord (the setting itself, such as an unknown ``mysql://``, was read by :meth:`Config.from_env`)."""
    from data.engine import is_postgres
    from data.sqlite import check_writable

    if not is_postgres(database):
        try:
            check_writable(database)
        except ValueError as exc:
            raise Fatal(f"python bot.py: TABLES_DATABASE: {exc}", 2) from None


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status: 2 for a bad command line, 130 for a command stopped by
    Ctrl-C (the bot and ``play``, which run until Ctrl-C, end with 0)."""
    load_dotenv()
    try:
        return _command(argv)
    except KeyboardInterrupt:
        # What the command started is closed by then: asyncio.run cancels its task (the bot and its store
        # close in their ``finally``), and the worker processes ignore Ctrl-C and end with their pool.
        print("Stopped (Ctrl-C).", file=sys.stderr)
        return INTERRUPTED


def _command(argv: list[str] | None) -> int:
    """The command ``argv`` names, run; its exit status (:class:`Fatal` told in one line)."""
    args = _parser().parse_args(argv)
    options = _checked_game_arguments(args) if args.command in ("demo", "play", "simulate", "arena") else {}
    try:
        if args.command == "simulate":
            return _simulate(args, options)
        if args.command == "arena":
            return _arena(args, options)
        if args.command == "verify":
            return _verify(args.log_file)
        if args.command == "migrate-db":
            return _migrate_db(args.source, args.target)
        if args.command == "invite-url":
            print(invite_url(_client_id(args.client_id)))
            return 0
        config = _config(args)
        if args.command == "backup":
            return _backup(config.database, args.file)
        if args.command == "restore":
            return _restore(config.database, args.file)
        if args.command in (None, "run", "sync"):
            _check_database(config.database)
        _setup_logging(config.log_level)
        if args.command == "demo":
            return _demo(args, options)
        if args.command == "play":
            return _play(args, options)
        if args.command == "sync":
            return asyncio.run(_sync(config, args.guild))
        return _run(config)
    except Fatal as exc:
        print(exc, file=sys.stderr)
        return exc.status


if __name__ == "__main__":
    sys.exit(main())
