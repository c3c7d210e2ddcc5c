"""Ctrl-C on the command line: a command that ends by itself (``demo``, ``simulate``, ``arena``) stops with one
line and status 130, the bot (which runs until Ctrl-C) with one line and status 0; never a traceback, no
worker process left behind, no half-written ``--out`` folder.

Each command runs in a session of its own, as a terminal runs it, and gets Ctrl-C as a terminal sends it:
SIGINT to every process of the command (the bot, its forkserver, its search processes). It is sent once the
command has started working: the code run says so on its stdout when it reaches its work.
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STOPPED = "Stopped (Ctrl-C).\n"

WORKING = """
import functools, sys, bot

def saying_so(fn):
    @functools.wraps(fn)
    def said(*args, **kwargs):
        if not said.told:
            said.told = print("working", flush=True) or True
        return fn(*args, **kwargs)
    said.told = False
    return said

"""
"""The start of the code a test runs: ``saying_so(fn)`` is ``fn`` that prints ``working`` when first called."""


def _processes() -> dict[int, tuple[int, str]]:
    """Every process of the machine: its parent and its state (``Z`` for one that ended, not yet reaped)."""
    found = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # ended meanwhile
            continue
        found[int(stat.parent.name)] = (int(fields[1]), fields[0])
    return found


def _descendants(pid: int) -> set[int]:
    processes = _processes()
    found: set[int] = set()
    parents = [pid]
    while parents:
        children = {child for child, (parent, _) in processes.items() if parent in parents} - found
        found |= children
        parents = list(children)
    return found


def _running(pids: set[int]) -> set[int]:
    processes = _processes()
    return {pid for pid in pids if pid in processes and processes[pid][1] != "Z"}


class Interrupted:
    """A command that got Ctrl-C: its exit status, output, and the processes it had started then."""

    def __init__(self, code: str, *, env: dict[str, str] | None = None, ready: threading.Event | None = None) -> None:
        """Run ``python -c code`` and send Ctrl-C once it prints ``working`` (or, with ``ready``, once that is
        set); wait for it to end (60 s at most)."""
        environment = {**os.environ, "TABLES_LOG_LEVEL": "WARNING", **(env or {})}
        process = subprocess.Popen(
            [sys.executable, "-c", code],
            cwd=ROOT,
            env=environment,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,  # a process group of its own, as a terminal's foreground command has
        )
        try:
            if ready is None:
                readable, _, _ = select.select([process.stdout], [], [], 60)
                assert readable, "the command never started working"
                assert process.stdout is not None and process.stdout.readline() == "working\n"
            else:
                assert ready.wait(60), "the command never started working"
            self.children = _descendants(process.pid)
            os.killpg(process.pid, signal.SIGINT)  # what Ctrl-C in a terminal does
            self.stdout, self.stderr = process.communicate(timeout=60)
        finally:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        self.status = process.returncode

    def left_behind(self) -> set[int]:
        """The processes it started that still run a few seconds after it ended."""
        deadline = time.monotonic() + 10
        while (running := _running(self.children)) and time.monotonic() < deadline:
            time.sleep(0.1)
        return running


def _earlier_demo(out: Path) -> dict[str, bytes]:
    """A complete earlier demo's output in ``out``: its files by path."""
    (out / "images").mkdir(parents=True)
    (out / "transcript.md").write_text("# Transcript\n\nan earlier game\n", encoding="utf-8")
    (out / "images" / "1-piratz-1-0.png").write_bytes(b"an earlier board")
    return _files(out)


def _files(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("earlier", [True, False], ids=["over-an-earlier-demo", "into-a-new-folder"])
def test_ctrl_c_in_a_demo_leaves_its_folder_as_it_was(tmp_path: Path, earlier: bool) -> None:
    out = tmp_path / "demo-out"
    before = _earlier_demo(out) if earlier else None
    code = WORKING + (
        "import cogs.offline.driver as driver\n"
        "driver.SimTable.move = saying_so(driver.SimTable.move)  # a member's /piratz move: the game is on\n"
        f"sys.exit(bot.main(['demo', 'piratz', '--players', '2', '--out', {str(out)!r}]))\n"
    )
    run = Interrupted(code)
    assert (run.status, run.stderr) == (130, STOPPED)
    assert "finished" not in run.stdout
    if before is None:
        assert not out.exists()
    else:
        assert _files(out) == before
    assert [p.name for p in tmp_path.iterdir()] == (["demo-out"] if earlier else [])  # nothing written beside it


def test_ctrl_c_while_the_hard_ai_searches_stops_its_processes_without_a_traceback(tmp_path: Path) -> None:
    """The search runs in a process pool (``TABLES_AI_PROCESSES=1``, the default) started from a forkserver:
    Ctrl-C reaches them too. Once a search broke the pool (BrokenProcessPool, logged with its traceback)."""
    code = WORKING + (
        "import tables.thinking as thinking\n"
        "real = thinking.Thinker.decide\n"
        "async def decide(self, *args, **kwargs):\n"
        "    print('working', flush=True)  # a search begins\n"
        "    return await real(self, *args, **kwargs)\n"
        "thinking.Thinker.decide = decide\n"
        f"args = ['demo', 'piratz', '--players', '2', '--ai-level', 'hard', '--out', {str(tmp_path / 'out')!r}]\n"
        "sys.exit(bot.main(args))\n"
    )
    run = Interrupted(code, env={"TABLES_AI_PROCESSES": "1"})
    assert (run.status, run.stderr) == (130, STOPPED)  # on a pipe, no progress lines either
    assert len(run.children) >= 2  # the forkserver and a search process at least
    assert not run.left_behind()
    assert not (tmp_path / "out").exists()


def test_ctrl_c_in_simulate_is_one_line() -> None:
    code = WORKING + (
        "import games.simulate\n"
        "games.simulate.play_game = saying_so(games.simulate.play_game)\n"
        "sys.exit(bot.main(['simulate', 'piratz', '--games', '100000']))\n"
    )
    run = Interrupted(code)
    assert (run.status, run.stdout, run.stderr) == (130, "", STOPPED)
    assert not run.left_behind()


def test_ctrl_c_in_arena_is_one_line() -> None:
    code = WORKING + (
        "import games.arena\n"
        "games.arena.play_game = saying_so(games.arena.play_game)\n"
        "sys.exit(bot.main(['arena', 'piratz', '--games', '50', '--think-ms', '200']))\n"
    )
    run = Interrupted(code)
    assert (run.status, run.stdout, run.stderr) == (130, "", STOPPED)
    assert not run.left_behind()


class _Hanging(BaseHTTPRequestHandler):
    """A Discord that takes every request and never answers: the bot is logging in when Ctrl-C comes."""

    reached = threading.Event()

    def do_GET(self) -> None:
        type(self).reached.set()
        time.sleep(30)

    def log_message(self, *args: object) -> None:
        pass


def test_ctrl_c_stops_the_bot_with_one_line_and_status_0(tmp_path: Path) -> None:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Hanging)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    _Hanging.reached.clear()
    code = (
        "import sys, discord.http, bot\n"
        f"discord.http.Route.BASE = 'http://127.0.0.1:{server.server_port}/api/v10'\n"
        "sys.exit(bot.main([]))\n"
    )
    try:
        env = {"DISCORD_TOKEN": "fake.token", "TABLES_DATABASE": str(tmp_path / "bot.db")}
        run = Interrupted(code, env=env, ready=_Hanging.reached)
    finally:
        server.shutdown()
        server.server_close()
    assert (run.status, run.stdout, run.stderr) == (0, "", "The bot has stopped.\n")
    assert not run.left_behind()
