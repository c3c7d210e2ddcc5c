"""Smoke test of the bench's ``scale`` section: each measurement, run tiny, returns sane numbers.

Not a timing test: it proves the measurements run and measure something, not how fast the bot is.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import sqlite3
from pathlib import Path

import pytest

from bench.__main__ import main as bench
from bench.driving import TimedRequests
from bench.scale import Sizes, _Unanswered, actions_per_s, build_seed, process, pss_mb, rss_mb


def test_help_reads_as_plain_text(capsys: pytest.CaptureFixture[str]) -> None:
    """``python -m bench --help`` is the module's docstring without its reStructuredText markup."""
    with pytest.raises(SystemExit) as ended:
        bench(["--help"])
    assert ended.value.code == 0
    shown = capsys.readouterr().out
    assert "\npython -m bench: performance figures as one JSON object" in shown
    assert "- action_ms: end-to-end latency" in shown and "see\nbench.scale;" in shown
    assert not re.search(r"``|:\w+:`", shown)


def test_rss_is_this_process_resident_memory() -> None:
    assert 10 < rss_mb() < 100_000


def test_pss_shares_out_what_processes_share_so_it_is_at_most_the_rss() -> None:
    assert 5 < pss_mb() <= rss_mb() + 1


class _Request:
    """A logged request that counts how often its path is read."""

    def __init__(self, method: str, path: str) -> None:
        self.method, self._path, self.reads = method, path, 0

    @property
    def path(self) -> str:
        self.reads += 1
        return self._path


def test_a_burst_waits_for_every_answer_and_board_reading_each_request_once() -> None:
    log = TimedRequests()
    waiting = _Unanswered({"tok1", "tok2"}, {"71", "72"})
    assert not waiting(log)
    log.append(_Request("POST", "/interactions/9/tok1/callback"))
    log.append(_Request("PATCH", "/channels/71/messages/5"))  # the board updated in place
    log.append(_Request("POST", "/channels/99/messages"))  # a post elsewhere (a DM) is no board of theirs
    assert not waiting(log)
    assert (waiting.tokens, waiting.places) == ({"tok2"}, {"72"})
    read = [r.reads for r in log]
    log.append(_Request("GET", "/channels/72/messages"))  # a read is neither
    log.append(_Request("POST", "/webhooks/9/tok2"))
    assert not waiting(log)
    assert [r.reads for r in log[:3]] == read  # what was read before is not read again
    log.append(_Request("POST", "/channels/72/messages"))
    assert waiting(log)


def test_a_throwaway_postgresql_server_starts_and_stops_without_a_word_on_stdout(capfd) -> None:
    """``python -m bench`` prints one JSON object on stdout: the server the throughput runs share must not
    write its progress there (``pg_ctl stop`` did, ahead of the JSON)."""
    from tests.postgres import PostgresUnavailable, throwaway_server

    try:
        with throwaway_server() as server:
            assert server.url().startswith("postgresql://")
    except PostgresUnavailable as exc:
        pytest.skip(str(exc))
    assert capfd.readouterr().out == ""


def test_seed_holds_real_finished_and_active_games(tmp_path: Path) -> None:
    seed = tmp_path / "seed.db"
    build_seed(seed, finished=7, active=4, distinct=1)
    with sqlite3.connect(seed) as conn:
        rows = conn.execute("SELECT status, COUNT(*) FROM games GROUP BY status ORDER BY status").fetchall()
        finished = conn.execute("SELECT state, result FROM games WHERE status = 'finished' LIMIT 1").fetchone()
        seats = conn.execute("SELECT COUNT(*) FROM seats").fetchone()[0]
    assert rows == [("active", 4), ("finished", 7)]
    assert json.loads(finished[1])["winners"] is not None
    assert json.loads(finished[0])["seats"] >= 1
    assert seats >= 11


def test_process_figures_tiny(tmp_path: Path) -> None:
    seed = tmp_path / "seed.db"
    build_seed(seed, finished=6, active=5, distinct=1)
    sizes = Sizes(finished=6, active=5, actions=3, bursts=1, burst=3)
    out = asyncio.run(process(sizes, seed))
    assert 10 < out["rss_start_mb"] <= out["rss_loaded_mb"] + 50
    assert 5 < out["pss_start_mb"] <= out["rss_start_mb"] + 1 and 5 < out["pss_loaded_mb"] <= out["rss_loaded_mb"] + 1
    assert out["active_games"] >= 5
    for figure in ("action_ms_1", "action_ms_1000"):
        assert out[figure]["n"] == 3 and 0 < out[figure]["p50"] <= out[figure]["p99"]
    assert out["burst_ms"]["n"] == 3 and 0 < out["burst_ms"]["p50"] <= out["burst_ms"]["p99"]
    assert 0 < out["startup_s"] < 60


def test_actions_per_s_tiny() -> None:
    out = actions_per_s(seconds=1.0, games=2)
    if "skipped" in out:
        pytest.skip(out["skipped"])
    assert "error" not in out, out.get("error")
    assert out["one_process"] > 0 and out["two_processes"] > 0
    assert out["ratio"] == pytest.approx(out["two_processes"] / out["one_process"], rel=0.01)
    # The cores each side kept busy: the bot processes' own, within what the whole machine was busy with.
    cores = out["cores"]
    assert cores["machine"] == os.cpu_count()
    assert cores["two_processes"] == pytest.approx(sum(r["cores"] for r in out["runs"]["two"]), abs=0.02)
    for own, busy in ((cores["one_process"], cores["busy_one"]), (cores["two_processes"], cores["busy_two"])):
        assert 0 < own <= cores["machine"]
        assert busy is None or 0 < busy <= cores["machine"] + 0.1
    assert cores["busy_one"] is None or cores["busy_one"] >= cores["one_process"] - 0.2  # its own among them


def test_thinking_figures_tiny() -> None:
    """The thinking section's load runs through the bot's own search processes while actions are timed."""
    from bench.__main__ import action_latency

    samples = asyncio.run(action_latency("piratz", 4, thinking=2))
    assert len(samples) >= 4 and all(0 < s < 60_000 for s in samples)
