"""Driving the real bot in SimCord and timing its answers: what the per-game ``action_ms`` and the ``scale``
section share."""

from __future__ import annotations

import asyncio
import random
import statistics
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from games.registry import GAMES
from tables.authority import Caller

if TYPE_CHECKING:
    from cogs.offline.driver import SimTable


def players(kind: str) -> int:
    spec = GAMES[kind]
    return spec.bench_players or spec.game.min_players


class TimedRequests(list):
    """SimCord's REST log, with the ``perf_counter`` time at which the bot issued each request."""

    def __init__(self) -> None:
        super().__init__()
        self.times: list[float] = []
        self._arrived: asyncio.Event | None = None

    def append(self, entry: Any) -> None:
        self.times.append(time.perf_counter())
        super().append(entry)
        if self._arrived is not None:
            self._arrived.set()

    async def until(self, done: Callable[[TimedRequests], bool]) -> None:
        """Wait until ``done(self)`` holds, looking again after each request the bot makes. (Polling on a
        timer woke the event loop ~180 times in a burst of 20 actions: the bench's own work, taking turns
        with the bot it measures.)"""
        while not done(self):
            self._arrived = asyncio.Event()
            try:
                await self._arrived.wait()
            finally:
                self._arrived = None

    def clear(self) -> None:
        self.times.clear()
        super().clear()


def percentiles(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    cut = statistics.quantiles(ordered, n=100, method="inclusive")
    return {"p50": round(cut[49], 2), "p99": round(cut[98], 2), "n": len(ordered)}


async def timed_actions(table: SimTable, kind: str, actions: int) -> list[float]:
    """Play human-only games of ``kind`` at ``table``; time each action from the interaction that applies
    it to the end of the bot's answer: the last of the new board's post, the edit stripping the old
    board's buttons, and the interaction's response (a picker edited to ✅, the ``/move`` follow-up).

    The bot answers only once the action is committed. What it sends after answering is not counted:
    private hands by DM, and the final scoring image once a game ends. SimCord's actors return only
    once the bot is idle, so these times are read from the timestamped request log instead.
    """
    bot = table.bot
    log = table.env.backend.http_requests = TimedRequests()
    names = list(table.members)[: players(kind)]
    samples: list[float] = []
    while len(samples) < actions:
        await table.challenge(kind, names[0], names[1:])
        record = await table.latest_game()
        turn = 0
        order = random.Random(f"bench-{record.id}")  # simultaneous deciders in a seeded order
        while record.status == "active" and len(samples) < actions:
            seat = table.human_to_act(record, order)
            assert seat is not None
            # Alternate board buttons (with pickers) and the move command.
            play = table.click_through if turn % 2 == 0 else table.move
            log.clear()  # the bench's own record must not grow the heap the bot's GC walks
            started, _ = (await play(record, seat, table.pick(record, seat))).spans[-1]
            samples.append((answer_time(log, started, record.place_id) - started) * 1000)
            turn += 1
            record = await table.record(record.id)
        if record.status == "active":
            host = Caller(record.host_id, "bench", record.guild_id)
            await bot.tables.play.abandon(host, record.id)
    return samples


def board_request(entry: Any, backend: Any = None) -> tuple[str, str] | None:
    """The channel a request makes a message in or edits one of, and how (``POST``, ``PATCH``): by the bot's own
    request, or through an interaction's token (a board may be posted as a follow-up: its channel is the
    interaction's, read from SimCord's ``backend``); ``None`` for anything else (an ephemeral follow-up is
    nobody's board)."""
    parts = entry.path.strip("/").split("/")
    if entry.method not in ("POST", "PATCH"):
        return None
    if parts[0] == "channels" and parts[2:3] == ["messages"]:
        return parts[1], entry.method
    body = getattr(entry, "json", None)
    if parts[0] != "webhooks" or backend is None or (isinstance(body, dict) and body.get("flags", 0) & 64):
        return None
    if parts[2] not in backend.interaction_tokens:
        return None
    return str(backend.interaction_by_token(parts[2]).channel_id), entry.method


def answer_time(
    log: TimedRequests,
    started: float,
    board_channel: int | None,
    token: str | None = None,
    backend: Any = None,
) -> float:
    """When the bot finished answering, after ``started``: the last of its interaction responses (the board
    updated in place as a click's answer, among them), the new board's post in ``board_channel`` when the
    decision passed, and the edits of boards there. Later posts (the final scoring) and requests elsewhere
    (DMs) are not part of the answer. With ``token``, only the responses to that interaction count (several
    interactions answered at once), and boards made through another's (with SimCord's ``backend``, see
    :func:`board_request`)."""
    board = None
    answered: list[float] = []
    for t, entry in zip(log.times, log, strict=True):
        if t < started:
            continue
        parts = entry.path.strip("/").split("/")
        if parts[0] in ("interactions", "webhooks") and (token is None or token in parts):
            answered.append(t)
            continue
        made = board_request(entry, backend)
        if made is None or made[0] != str(board_channel):
            continue
        if made[1] == "PATCH":
            answered.append(t)
        elif board is None:
            board = t
            answered.append(t)
    assert answered, "the action was not answered: no response, no board posted or updated"
    return max(answered)
