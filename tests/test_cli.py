"""The command line (``python bot.py …``): one registry of games drives ``demo`` and ``simulate``; every bad
command line is one line on stderr with status 2, and nothing hangs.

In-process through ``main([...])`` where possible; in a subprocess with a timeout where the point is that
the process ends (the store's worker thread) or where discord.py must fail to connect.
"""

from __future__ import annotations

import base64
import json
import logging
import os
import re
import shlex
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import discord
import pytest
from PIL import Image

import bot
import games.simulate
from bot import main
from cogs import app
from cogs.offline.driver import SimTable
from games.i18n import T, gettext, localize
from games.options import game_options
from games.registry import GAMES
from tables.config import Config

ROOT = Path(__file__).resolve().parent.parent
PIRATZ = GAMES["piratz"].game
SEWER = GAMES["sewerpirats"].game


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run ``main(argv)`` in this process: exit status, stdout, stderr."""
    try:
        status = main(list(argv))
    except SystemExit as exc:
        status = int(exc.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


def run_python(code: str, *, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``python -c code`` from the project root; a hang fails the test after 60 s instead of blocking it."""
    environment = {**os.environ, "TABLES_LOG_LEVEL": "WARNING", **(env or {})}
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=environment, capture_output=True, text=True, timeout=60
    )


@pytest.fixture
def discord_log_level() -> Iterator[None]:
    """The demo quiets discord.py's logger for the rest of the program; give it back to the other tests."""
    logger = logging.getLogger("discord")
    level = logger.level
    yield
    logger.setLevel(level)


# ---------------------------------------------------------------------- --option NAME=VALUE


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        *((f"blind={word}", True) for word in ("on", "ON", "true", "Yes", "1")),
        *((f"blind={word}", False) for word in ("off", "False", "no", "0")),
    ],
)
def test_boolean_options_read_on_off_words(text: str, expected: bool) -> None:
    assert game_options(PIRATZ, [text]) == {"blind": expected}


def test_whole_number_options_are_read_as_numbers() -> None:
    searats = GAMES["searats"].game
    assert game_options(searats, ["lapse=10"]) == {"lapse": 10}
    assert game_options(searats, ["lapse= 1440"]) == {"lapse": 1440}
    for text in ("lapse=0", "lapse=1441", "lapse=1.5", "lapse=١٠"):
        with pytest.raises(ValueError, match="--option lapse="):
            game_options(searats, [text])


def test_choices_and_names_ignore_case() -> None:
    assert game_options(SEWER, ["variant=Auction"]) == {"variant": "auction"}
    assert game_options(SEWER, ["VARIANT=landlubber"]) == {"variant": "landlubber"}
    assert game_options(SEWER, ["variant=standard", "variant=auction"]) == {"variant": "auction"}
    assert game_options(SEWER, []) == {}


@pytest.mark.parametrize(
    ("game", "text", "named"),
    [
        (SEWER, "variant=foo", "standard, landlubber, auction"),
        (SEWER, "blind=on", "variant=standard|landlubber|auction"),
        (PIRATZ, "blind=maybe", "on or off"),
        (PIRATZ, "blind", "blind=on|off"),
        (PIRATZ, "=on", "blind=on|off"),
    ],
)
def test_a_bad_option_names_the_valid_names_or_values(game: Any, text: str, named: str) -> None:
    with pytest.raises(ValueError, match=re.escape(named)):
        game_options(game, [text])


# ---------------------------------------------------------------------- bad command lines


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        ("demo sewerpirats --option variant=foo", "`variant` must be one of: standard, landlubber, auction"),
        ("demo sewerpirats --option blind=on", "Sewer Pirats has no option 'blind'"),
        ("demo piratz --option blind=maybe", "say on or off"),
        ("demo sewerpirats --variant Auction", "unrecognized arguments: --variant"),
        ("demo piratz --blind", "unrecognized arguments: --blind"),
        (f"demo piratz --out {ROOT / 'README.md'}", "README.md is a file; give a folder"),
        ("demo piratz --players 5", "Piratz takes 2–4 players, not 5"),
        ("demo sewerpirats --players 1", "Sewer Pirats takes 2–5 players, not 1"),
        ("demo piratz --players -2", "--players: must be a whole number from 1 up"),
        ("demo chess", "GAME: there is no game 'chess'; the games are piratz, sewerpirats, pirates, sewerrat, searats"),
        ("demo pirats", "GAME: there is no game 'pirats' (did you mean pirates?); the games are piratz,"),
        ("simulate Sewer-Rat", "GAME: there is no game 'Sewer-Rat' (did you mean sewerrat?)"),
        ("demo piratz --locale it", "--locale: the bot speaks English (en-US, en-GB), Deutsch (de), Français (fr),"),
        ("play piratz --locale pt-PT", "Español (es-419, es-ES) and Português (Brasil) (pt-BR), not 'pt-PT'"),
        ("simulate piratz --games -5", "--games: must be a whole number from 1 up, not '-5'"),
        ("simulate piratz --games 0", "--games: must be a whole number from 1 up"),
        ("simulate piratz --games many", "--games: must be a whole number from 1 up"),
        ("simulate sewerpirats --option variant=nope", "must be one of: standard, landlubber, auction"),
        ("simulate piratz --option colour=red", "Piratz has no option 'colour'; its options: blind=on|off"),
        ("simulate sewerpirats --players 6", "Sewer Pirats takes 2–5 players, not 6"),
        ("simulate searats --option lapse=-1", "`lapse` must be between 1 and 1440"),
        ("demo searats --option lapse=soon", "`lapse` must be a whole number, not 'soon'"),
        ("simulate sewerrat --players 3 --option teams=3", "Teams of 3 need 6 players, not 3"),
        ("play piratz --humans Anne,anne", "--humans: each name once"),
        ("play piratz --humans Anne,,Ben --players 4", "--humans: names must not be empty"),
        ("play piratz --humans Anne,Ben,Cleo", "--humans: 3 members for 2 seats: add --players 3"),
        ("play piratz --players 5", "Piratz takes 2–4 players, not 5"),
        ("play piratz --port 70000", "--port: a port is a whole number from 0 to 65535, not '70000'"),
        (f"play piratz --db {ROOT / 'tests'}", "--db: "),
        ("play piratz --ai-level genius", "--ai-level: invalid choice: 'genius'"),
        ("play chess", "GAME: there is no game 'chess'"),
        ("sync --guild here", "--guild: invalid int value"),
        ("--shard-ids 0,x", "--shard-ids: shard ids are whole numbers separated by commas"),
        ("--shard-ids 1,1", "--shard-ids: shard ids must differ"),
        ("--shard-count 0", "--shard-count: must be a whole number from 1 up"),
    ],
)
def test_a_bad_command_line_is_one_line_and_status_2(capsys: pytest.CaptureFixture[str], argv: str, said: str) -> None:
    status, out, err = cli(capsys, *shlex.split(argv))
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1, err
    assert said in err
    assert "--help" in err
    assert "Traceback" not in err


def test_game_names_and_locales_are_read_in_any_case() -> None:
    """``demo PIRATZ`` is Piratz; a locale is spelt as Discord spells it, whatever the case it was typed in."""
    parse = bot._parser().parse_args
    assert parse(["demo", "PIRATZ"]).game == "piratz"
    assert parse(["arena", "SeaRats"]).game == "searats"
    assert parse(["demo", "piratz", "--locale", "EN-gb"]).locale == "en-GB"
    assert parse(["play", "Pirates", "--locale", "DE"]).locale == "de"
    assert parse(["demo", "piratz"]).locale == "en-US"


def test_a_folder_that_holds_other_things_is_never_the_demos_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The demo replaces its folder whole, so a folder with anything but a demo's output is refused."""
    (tmp_path / "notes.txt").write_text("mine")
    status, out, err = cli(capsys, "demo", "piratz", "--out", str(tmp_path))
    assert (status, out) == (2, "")
    assert err == (
        f"python bot.py demo: error: argument --out: {tmp_path} holds more than a demo's transcript and images "
        "(notes.txt); give a new folder (see python bot.py demo --help)\n"
    )
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


def test_a_bad_out_folder_is_refused_before_anything_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    status, _, err = cli(capsys, "demo", "piratz", "--out", str(blocker / "out" / "demo"))
    assert status == 2
    assert f"cannot create the folder {blocker / 'out' / 'demo'}: {blocker} is a file" in err
    assert err.count("\n") == 1
    assert blocker.read_text() == "not a folder"


def test_verify_on_a_file_that_is_not_text_says_so_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 59: a PNG given to ``verify`` answered with Python's "'utf-8' codec can't decode byte 0x89"."""
    image = tmp_path / "pirates-1-final.png"
    Image.new("RGB", (8, 8)).save(image)
    status, out, err = cli(capsys, "verify", str(image))
    assert (status, out) == (2, "")
    assert err == f"python bot.py verify: {image} is not a game log (a binary file)\n"
    latin = tmp_path / "log.txt"
    latin.write_bytes("kind: pirates\nnames: Zoë\n".encode("latin-1"))  # text, but not the UTF-8 a log is
    status, out, err = cli(capsys, "verify", str(latin))
    assert (status, out, err) == (2, "", f"python bot.py verify: {latin} is not a game log (not UTF-8 text)\n")


def test_the_old_demo_command_exits_at_once() -> None:
    """Issue 18: ``demo sewerpirats --variant foo`` printed a traceback and never ended."""
    done = run_python("import sys, bot; sys.exit(bot.main(['demo', 'sewerpirats', '--variant', 'foo']))")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1, done.stderr
    assert "unrecognized arguments: --variant foo" in done.stderr


def test_an_error_inside_the_simulated_discord_still_ends_the_process(tmp_path: Path) -> None:
    """An exception inside the SimCord run must not leave the store's worker thread (non-daemon) alive."""
    code = f"""
import sys, bot, cogs.offline.driver

async def broken(*args, **kwargs):
    raise RuntimeError("injected failure")

cogs.offline.driver.SimTable.challenge = broken
sys.exit(bot.main(["demo", "piratz", "--players", "2", "--out", {str(tmp_path / "out")!r}]))
"""
    done = run_python(code)
    assert done.returncode == 1
    assert "RuntimeError: injected failure" in done.stderr


# ---------------------------------------------------------------------- runs that work


def test_simulate_reads_the_options_of_the_game(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    seen: list[Any] = []
    real = games.simulate.simulate

    def recording(game: Any, players: Any, count: int, seed: str, options: Any) -> dict[str, Any]:
        seen.append((game.kind, len(players), count, seed, options))
        return real(game, players, count, seed, options)

    monkeypatch.setattr(games.simulate, "simulate", recording)
    status, out, err = cli(capsys, "simulate", "sewerpirats", "--games", "2", "--option", "variant=Auction")
    assert status == 0, err
    assert seen == [("sewerpirats", 2, 2, "0", {"variant": "auction"})]
    summary = json.loads(out)
    assert summary["games"] == 2
    assert summary["violations"] == 0


def test_demo_plays_a_whole_game_with_an_option(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys, discord_log_level: None
) -> None:
    """The one real demo run here (a whole game through the bot): options reach ``/<game> new``."""
    challenged: list[dict[str, Any]] = []
    real = SimTable.challenge

    async def recording(self: SimTable, kind: str, host: str, invitees: Any, ai: int = 0, **options: Any) -> Any:
        challenged.append({"kind": kind, "ai": ai, **options})
        return await real(self, kind, host, invitees, ai, **options)

    monkeypatch.setattr(SimTable, "challenge", recording)
    out = tmp_path / "new" / "demo"
    (out / "images").mkdir(parents=True)
    (out / "images" / "1-sewerpirats-1-0.png").write_bytes(b"a board of an earlier demo")
    status, stdout, err = cli(capsys, "demo", "piratz", "--players", "2", "--option", "blind=on", "--out", str(out))
    assert status == 0, err
    assert challenged == [{"kind": "piratz", "ai": 1, "blind": True}]
    assert "Piratz #1 finished" in stdout
    transcript = (out / "transcript.md").read_text(encoding="utf-8")
    assert transcript.startswith("# Transcript")
    files = [p.name for p in (out / "images").iterdir()]
    assert files and all("piratz" in name for name in files)  # an earlier demo's images are gone
    # The game's log is a file to download: linked, where an image is shown.
    links = re.findall(r"^📎 \[The action log of Piratz #1.*\]\((images/[^)]+)\)$", transcript, re.MULTILINE)
    assert len(links) == 1 and links[0].endswith("-log.txt") and (out / links[0]).is_file()
    shown = re.findall(r"^!\[.*\]\((images/[^)]+)\)$", transcript, re.MULTILINE)
    assert shown and all(link.endswith(".png") for link in shown)
    assert f"({len(shown)} images in {out / 'images'})" in stdout
    assert [p.name for p in out.parent.iterdir()] == ["demo"]  # written beside it, then moved in place


def test_a_hard_demo_shows_its_progress_on_a_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys, discord_log_level: None
) -> None:
    """The hard AI thinks in real time (a second a move by default): on a terminal the demo tells how far the
    game is, a line every ten actions. (Not on a pipe: the Ctrl-C test of a hard demo sees one line only.)"""
    monkeypatch.setenv("TABLES_AI_THINK_MS", "10")
    monkeypatch.setenv("TABLES_AI_PROCESSES", "0")  # a thread: no search process to start for a short test
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    out = tmp_path / "demo"
    status, stdout, err = cli(capsys, "demo", "piratz", "--players", "2", "--ai-level", "hard", "--out", str(out))
    assert status == 0, err
    actions = int(re.search(r"finished after (\d+) actions", stdout).group(1))
    lines = err.splitlines()
    assert lines and all(re.fullmatch(r"Piratz #1: \d+ actions, \d+ s", line) for line in lines), err
    counts = [int(line.split()[2]) for line in lines]
    assert counts == sorted(counts) and counts[-1] <= actions
    # One line in each ten actions the game went through (the AI may play several between two looks).
    assert [n // 10 for n in counts] == sorted(set(n // 10 for n in counts)) and len(lines) >= actions // 30


def test_a_demo_in_german_writes_a_german_transcript(tmp_path: Path, capsys, discord_log_level: None) -> None:
    """``--locale de``: a German server and German members, so the transcript reads German throughout."""
    out = tmp_path / "demo"
    status, _stdout, err = cli(capsys, "demo", "piratz", "--players", "2", "--locale", "de", "--out", str(out))
    assert status == 0, err
    transcript = (out / "transcript.md").read_text(encoding="utf-8")
    game = "Piratz #1"
    assert transcript.startswith(f"# {gettext('Transcript', 'de')}")
    assert localize(T("**{game} is over.** {summary}", game=game, summary=""), "de").strip() in transcript
    assert "Anne" in transcript and "\x02" not in transcript and not re.search(r"\{p\d+\}", transcript)


def test_a_demo_with_a_whole_number_option_narrates_with_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys, discord_log_level: None
) -> None:
    """``--option lapse=10`` reaches ``/searats new`` as a number, and the narration's labels name the
    players (a label's ``{pN}`` filled in, as on the buttons)."""
    challenged: list[dict[str, Any]] = []
    real = SimTable.challenge

    async def recording(self: SimTable, kind: str, host: str, invitees: Any, ai: int = 0, **options: Any) -> Any:
        challenged.append(options)
        return await real(self, kind, host, invitees, ai, **options)

    monkeypatch.setattr(SimTable, "challenge", recording)
    out = tmp_path / "demo"
    status, _stdout, err = cli(capsys, "demo", "searats", "--players", "2", "--option", "lapse=10", "--out", str(out))
    assert status == 0, err
    assert challenged == [{"lapse": 10}]
    transcript = (out / "transcript.md").read_text(encoding="utf-8")
    assert "plays “" in transcript and not re.search(r"\{p\d+\}", transcript)


def test_help_gives_the_defaults(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COLUMNS", "200")  # no line breaks inside the texts looked for
    status, demo, _ = cli(capsys, "demo", "--help")
    assert status == 0
    for text in ("--players N", "(default: 3)", "(default: demo)", "(default: demo-out)", "blind=on|off"):
        assert text in demo
    status, simulate, _ = cli(capsys, "simulate", "--help")
    assert status == 0
    for text in ("--games N", "(default: 100)", "(default: 0)", "the game's minimum", "variant=standard|"):
        assert text in simulate


# ---------------------------------------------------------------------- connecting to Discord


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.parametrize("command", [[], ["sync"]])
def test_no_network_is_one_line(tmp_path: Path, command: list[str]) -> None:
    """Issue 19: with a token but no way to Discord, one line and status 1 (not 80 lines of traceback).
    discord.py is pointed at a closed local port, so the connection fails at once without any network."""
    code = f"""
import sys, discord.http, bot
discord.http.Route.BASE = "http://127.0.0.1:{_closed_port()}/api/v10"
sys.exit(bot.main({command!r}))
"""
    done = run_python(code, env={"DISCORD_TOKEN": "fake.token", "TABLES_DATABASE": str(tmp_path / "t.db")})
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("Discord cannot be reached (Cannot connect to host 127.0.0.1")


class _Unauthorized(BaseHTTPRequestHandler):
    asked: ClassVar[list[str]] = []
    """The paths the bot asked for, in order."""

    def do_GET(self) -> None:
        self.asked.append(self.path)
        body = b'{"message": "401: Unauthorized", "code": 0}'
        self.send_response(401)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def rejecting_discord(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """discord.py talks to a local server that turns every token down."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Unauthorized)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{server.server_port}/api/v10")
    _Unauthorized.asked.clear()
    try:
        yield
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("command", [[], ["sync"]])
def test_a_rejected_token_is_one_line(
    rejecting_discord: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys, command: list[str]
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "not.a.token")
    monkeypatch.setenv("TABLES_DATABASE", str(tmp_path / "t.db"))
    status, out, err = cli(capsys, *command)
    assert (status, out) == (2, "")
    assert err == bot.BAD_TOKEN + "\n"
    assert _Unauthorized.asked == ["/api/v10/users/@me"]


@pytest.mark.parametrize("command", [[], ["sync"]])
@pytest.mark.parametrize(
    ("database", "said"),
    [
        ("mysql://bot@db/tables", "'mysql://bot@db/tables' is neither an SQLite file (sqlite:PATH or PATH) nor a"),
        ("{tmp}", "the SQLite file {tmp} cannot be used: unable to open database file"),
        ("{tmp}/notes.txt", "the SQLite file {tmp}/notes.txt cannot be used: file is not a database"),
        ("{tmp}/notes.txt/bot.db", "cannot be used: a file stands where a folder of its path should be"),
    ],
    ids=["unknown-scheme", "a-folder", "not-a-database", "under-a-file"],
)
def test_a_database_the_bot_cannot_use_is_one_line_before_discord_is_asked(
    rejecting_discord: None,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys,
    command: list[str],
    database: str,
    said: str,
) -> None:
    """Issue 57: TABLES_DATABASE=mysql://… or an SQLite file the bot cannot write was found only once logged in."""
    (tmp_path / "notes.txt").write_text("not a database")
    monkeypatch.setenv("DISCORD_TOKEN", "not.a.token")
    monkeypatch.setenv("TABLES_DATABASE", database.format(tmp=tmp_path))
    status, out, err = cli(capsys, *command)
    assert (status, out) == (2, "")
    assert err.startswith("python bot.py: TABLES_DATABASE: ") and err.count("\n") == 1, err
    assert said.format(tmp=tmp_path) in err
    assert _Unauthorized.asked == []
    assert (tmp_path / "notes.txt").read_text() == "not a database"


def test_no_token_explains_how_to_get_one(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "")
    status, _, err = cli(capsys)
    assert status == 2
    assert "set DISCORD_TOKEN" in err
    assert "python bot.py demo piratz" in err


# ---------------------------------------------------------------------- invite-url

INVITE = "https://discord.com/oauth2/authorize?client_id={id}&scope=bot+applications.commands&permissions=335007566848"


def test_the_invite_link_asks_for_the_permissions_the_bot_uses_and_no_others() -> None:
    """What each is for is beside it in cogs.app.PERMISSIONS (and the README's "Invite it to your server")."""
    granted = {name for name, value in app.PERMISSIONS if value}
    assert granted == {
        "read_messages",  # discord.py's name of View Channel
        "send_messages",
        "create_public_threads",
        "read_message_history",
        "send_messages_in_threads",
        "manage_threads",
        "embed_links",
        "attach_files",
        "manage_events",  # a tournament's start as a Discord scheduled event
    }
    assert app.PERMISSIONS.value == 335007566848
    assert app.invite_url(1456074443980800002) == INVITE.format(id=1456074443980800002)


def _token_of(application_id: str) -> str:
    """A token as Discord makes one: the bot's id in base64 (no padding), a time stamp, a secret."""
    return base64.b64encode(application_id.encode()).decode().rstrip("=") + ".GkQ3xZ.not-a-real-secret"


@pytest.mark.parametrize(
    ("argv", "env", "application_id"),
    [
        (["--client-id", "1234567890123456789"], {"DISCORD_CLIENT_ID": "42"}, "1234567890123456789"),
        ([], {"DISCORD_CLIENT_ID": " 987654321098765432 ", "DISCORD_TOKEN": _token_of("1")}, "987654321098765432"),
        ([], {"DISCORD_TOKEN": _token_of("1456074443980800002")}, "1456074443980800002"),
    ],
    ids=["--client-id", "DISCORD_CLIENT_ID", "from-the-token"],
)
def test_invite_url_prints_the_link_of_the_application(
    monkeypatch: pytest.MonkeyPatch, capsys, argv: list[str], env: dict[str, str], application_id: str
) -> None:
    monkeypatch.delenv("DISCORD_CLIENT_ID", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert cli(capsys, "invite-url", *argv) == (0, INVITE.format(id=application_id) + "\n", "")


@pytest.mark.parametrize(
    ("env", "said"),
    [
        ({"DISCORD_TOKEN": ""}, "give the application id (--client-id ID, or DISCORD_CLIENT_ID), or set DISCORD_TOKEN"),
        ({"DISCORD_TOKEN": "not-base64!.x.y"}, "DISCORD_TOKEN does not begin with an application id"),
        ({"DISCORD_TOKEN": _token_of("Anne")}, "DISCORD_TOKEN does not begin with an application id"),
        ({"DISCORD_CLIENT_ID": "my-bot"}, "DISCORD_CLIENT_ID is an application id (digits), not 'my-bot'"),
    ],
)
def test_invite_url_without_an_application_id_says_where_to_find_it(
    monkeypatch: pytest.MonkeyPatch, capsys, env: dict[str, str], said: str
) -> None:
    monkeypatch.delenv("DISCORD_CLIENT_ID", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    status, out, err = cli(capsys, "invite-url")
    assert (status, out) == (2, "")
    assert err.startswith("python bot.py invite-url: ") and said in err and err.count("\n") == 1, err


# ---------------------------------------------------------------------- .env.example and the README


class _RecordingEnviron(dict[str, str]):
    """``os.environ`` that remembers which settings were read."""

    def __init__(self, values: dict[str, str]) -> None:
        super().__init__(values)
        self.read: set[str] = set()

    def get(self, key: str, default: Any = None) -> Any:  # type: ignore[override]
        self.read.add(key)
        return super().get(key, default)

    def __getitem__(self, key: str) -> str:
        self.read.add(key)
        return super().__getitem__(key)


def test_env_example_lists_every_setting_with_a_comment_and_its_default(monkeypatch: pytest.MonkeyPatch) -> None:
    environ = _RecordingEnviron({})
    with monkeypatch.context() as m:
        m.setattr(os, "environ", environ)
        Config.from_env()
        with pytest.raises(bot.Fatal):
            bot._token()  # the settings bot.py reads itself
        with pytest.raises(bot.Fatal):
            bot._client_id(None)
    assert {"DISCORD_TOKEN", "DISCORD_CLIENT_ID"} <= environ.read

    lines = (ROOT / ".env.example").read_text(encoding="utf-8").splitlines()
    listed: dict[str, str] = {}
    for i, line in enumerate(lines):
        if match := re.fullmatch(r"#? ?([A-Z][A-Z0-9_]*)=(.*)", line):
            assert i > 0 and lines[i - 1].startswith("# ") and "=" not in lines[i - 1], f"{line}: no comment"
            listed[match.group(1)] = match.group(2)
    assert set(listed) == environ.read

    # The values shown are the defaults (the database relative to the project, where the bot keeps it).
    shown = {k: str(ROOT / v) if k == "TABLES_DATABASE" else v for k, v in listed.items() if v}
    with monkeypatch.context() as m:
        m.setattr(os, "environ", _RecordingEnviron(shown))
        assert Config.from_env() == Config()


def test_readme_commands_use_only_real_flags(capsys: pytest.CaptureFixture[str]) -> None:
    """The commands the README and docs/ show take the flags they are shown with."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    commands = [c for page in pages for c in re.findall(r"`(python bot\.py[^`]*)`", page.read_text(encoding="utf-8"))]
    assert any(c.startswith("python bot.py demo") for c in commands)
    assert any(c.startswith("python bot.py arena") for c in commands)  # the command line's reference, in docs/
    helps: dict[str, str] = {}
    for command in commands:
        words = command.replace("|", " ").replace("[", " ").replace("]", " ").split()[2:]
        sub = words[0] if words and not words[0].startswith("-") else ""
        if sub not in helps:
            status, helps[sub], _ = cli(capsys, *([sub] if sub else []), "--help")
            assert status == 0, command
        for word in words:
            if word.startswith("--"):
                assert word in helps[sub], f"README: `{command}` has {word}, which `{sub}` does not take"
        if sub in ("demo", "simulate") and words[1] in GAMES:
            for i, word in enumerate(words[:-1]):
                if word == "--option":
                    game_options(GAMES[words[1]].game, [words[i + 1]])


@pytest.mark.parametrize(
    ("argv", "env", "said"),
    [
        ("--shard-count 2 --shard-ids 2", {}, "shard 2 does not exist: the ids go from 0 to 1"),
        ("--shard-ids 0", {}, "shard ids need the shard count too"),
        ("--shard-count 4 --shard-ids 0,1", {}, "set TABLES_DATABASE to a postgresql:// URL"),
        ("", {"TABLES_SHARD_COUNT": "2", "TABLES_SHARD_IDS": "1"}, "set TABLES_DATABASE to a postgresql:// URL"),
        ("", {"TABLES_SHARD_IDS": "one"}, "TABLES_SHARD_IDS: shard ids are whole numbers"),
        ("", {"TABLES_SHARD_COUNT": "-1"}, "TABLES_SHARD_COUNT must be a whole number from 1 up"),
        ("", {"TABLES_LEASE": "1"}, "TABLES_LEASE must be at least 3 seconds"),
        ("", {"TABLES_LOG_LEVEL": "LOUD"}, "TABLES_LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL"),
        ("", {"TABLES_INVITE_TTL": "-1"}, "TABLES_INVITE_TTL must be a number of seconds from 1 up"),
        ("", {"TABLES_ARCHIVE_AFTER": "soon"}, "TABLES_ARCHIVE_AFTER must be a number of seconds"),
        ("", {"TABLES_DATABASE": "postgresql://u:secret@[::1/x"}, "TABLES_DATABASE: 'postgresql://u:***@[::1/x'"),
        ("", {"TABLES_AI_THINK_MS": "5"}, "TABLES_AI_THINK_MS must be a whole number from 10 up"),
        ("", {"TABLES_AI_PROCESSES": "-1"}, "TABLES_AI_PROCESSES must be a whole number from 0 up"),
    ],
)
def test_settings_that_cannot_be_used_are_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, argv: str, env: dict[str, str], said: str
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("DISCORD_TOKEN", "")  # nothing may connect: the settings are refused first
    status, out, err = cli(capsys, *shlex.split(argv))
    assert (status, out) == (2, "")
    assert err.count("\n") == 1 and said in err, err


def test_the_shard_settings_make_an_auto_sharded_bot_named_after_its_shards(tmp_path: Path) -> None:
    url = "postgresql://tables@localhost/tables"  # not connected: only the bot's configuration is built
    sharded = app.create_bot(database=url, shard_count=4, shard_ids=(0, 1))
    assert isinstance(sharded, discord.AutoShardedClient)
    assert (sharded.shard_count, sharded.shard_ids) == (4, [0, 1])
    assert sharded.config.runner == "shards 0,1 of 4"
    every = app.create_bot(database=tmp_path / "bot.db", shard_count=2)  # every shard: SQLite will do
    assert isinstance(every, discord.AutoShardedClient) and every.config.runner == "main"
    plain = app.create_bot(database=tmp_path / "bot.db")
    assert not isinstance(plain, discord.AutoShardedClient) and plain.config.runner == "main"
    named = app.create_bot(database=url, shard_count=4, shard_ids=(3,), process="east")
    assert named.config.runner == "east"


def test_a_servers_games_are_run_by_the_process_holding_its_shard() -> None:
    from tables.runner import shard_of

    guild = 1456074443980800002
    assert shard_of(guild, 4) == (guild >> 22) % 4  # Discord's formula
    assert shard_of(None, 4) == 0  # direct messages come to shard 0
    assert {shard_of(guild + (n << 22), 3) for n in range(3)} == {0, 1, 2}


def test_play_serves_its_page_until_ctrl_c_which_ends_it_in_one_line() -> None:
    """``python bot.py play``: the page's address on the first line, the page served, and Ctrl-C (SIGINT) ends it
    with one line and status 0, no traceback. (The browser tests play on the page.)"""
    import signal
    import urllib.request

    process = subprocess.Popen(
        [sys.executable, "bot.py", "play", "piratz"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        first = process.stdout.readline() if process.stdout else ""
        match = re.fullmatch(r"Open (http://127\.0\.0\.1:(\d+)/)#\S+\n", first)
        assert match, first
        with urllib.request.urlopen(match.group(1), timeout=30) as page:
            assert page.status == 200 and b"SimCord Preview" in page.read()
    finally:
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    assert process.returncode == 0
    assert out == "The table is closed.\n"
    assert "Traceback" not in err and err.count("\n") == 1, err
