"""Nothing the bot owes is ever lost: the same seeded game, played once without a fault and again with a
Discord error injected at one point (a board, a direct message, an old board's buttons, an answer, the
final message, the result line; 500s and 429s; once, twice, or until a restart), then a restart. Every
member finally sees exactly what the fault-free run showed: every event line once, the final message
with its image, log and Rematch button, the result line, each private view and reminder, the follower's
boards."""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import simcord

from cogs.app import create_bot
from cogs.offline.driver import SimTable
from data.store import GameRecord
from games.registry import GAMES
from tables import menus
from tables.delivery import RETRY
from tests.conftest import World
from tests.discord_rules import DiscordRules, installed
from tests.support import png, raw_messages, said

KIND = "sewerpirats"
GAME = GAMES[KIND].game
LAST = -1
"""The last decision of the game (the one that ends it)."""


@pytest.fixture
def quick_images(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stand-in renderers: a tiny PNG per view, the same for the same view in every run."""

    def draw(view: dict, names, locale: str = "en") -> bytes:
        return png(view=hashlib.sha256(json.dumps(view, sort_keys=True).encode()).hexdigest())

    for name in ("render_board", "render_final", "render_hand"):
        monkeypatch.setattr(f"rendering.sewerpirats.{name}", draw)


@dataclass(frozen=True)
class Fault:
    """Discord fails the next ``times`` requests (``None``: until the restart) of ``method`` to ``where`` —
    ``thread``, ``channel``, a member's DMs (``anne-dm``…) or an API path — from decision ``at`` on
    (:data:`START`: before the challenge).

    ``lost``: Discord carries the request out, and its answer is lost — ``status`` 500 (a 5xx after the
    write), 0 (a time-out) or ``None`` (the process dies right after sending; the game goes on after a
    restart) — emulated by :mod:`tests.discord_rules`, as SimCord fails a request only before making it."""

    at: int
    method: str
    where: str
    status: int | None = 500
    times: int | None = 1
    click: bool = False
    """It fails the answer of a click on the board itself (decision ``at`` is one: its answer is one call)."""
    lost: bool = False

    def inject(self, world: World, record: GameRecord | None, rules: DiscordRules) -> None:
        members = world.table.members
        places = {f"{name.lower()}-dm": members[name].user.dm_channel for name in ("Anne", "Ben", "Calico")}
        channel = {
            "thread": record.place_id if record else None,
            "channel": world.table.channel.id,
            **{where: dm.id for where, dm in places.items() if dm is not None},
        }.get(self.where)
        path = self.where if channel is None else f"/channels/{channel}/messages*"
        if self.lost:
            rules.lose_answer(self.method, path, self.status, self.times or 1)
        else:
            world.env.inject_error(self.method, path, status=self.status, times=self.times)

    @property
    def answer(self) -> bool:
        """It fails the answer of a typed move."""
        return self.where.startswith("/interactions/") and not self.click


ANSWER = "/interactions/*/callback"
START = -2
"""Before the challenge: the game's thread and first posts."""
FAULTS: dict[str, Fault] = {
    "the game's thread is made, its answer lost (500)": Fault(START, "POST", "/channels/*/threads", lost=True),
    "the opening is made, its answer lost (a time-out)": Fault(START, "POST", "/channels/*/messages", 0, lost=True),
    "a board is made, its answer lost (500)": Fault(4, "POST", "thread", lost=True),
    "a board is made, its answer lost (a time-out)": Fault(7, "POST", "thread", 0, lost=True),
    "a private view is made, its answer lost (500)": Fault(13, "POST", "anne-dm", lost=True),
    "a follower's board is made, its answer lost (a time-out)": Fault(14, "POST", "calico-dm", 0, lost=True),
    "a move's answer is made, its answer lost (500)": Fault(18, "POST", ANSWER, lost=True),
    "the final message is made, its answer lost (500)": Fault(LAST, "POST", "thread", lost=True),
    "the result line is made, its answer lost (a time-out)": Fault(LAST, "POST", "channel", 0, lost=True),
    "the process dies right after posting a board": Fault(16, "POST", "thread", None, lost=True),
    "the process dies right after sending a private view": Fault(19, "POST", "ben-dm", None, lost=True),
    "a board post fails once (500)": Fault(3, "POST", "thread"),
    "a board post fails twice (500)": Fault(8, "POST", "thread", times=2),
    "a board post is rate limited (429)": Fault(12, "POST", "thread", 429),
    "an old board keeps its buttons for a while (500 on the edit)": Fault(15, "PATCH", "thread"),
    "a private view fails (500)": Fault(5, "*", "anne-dm"),
    "private views are rate limited twice (429)": Fault(9, "*", "ben-dm", 429, times=2),
    "a member's direct messages fail twice (500)": Fault(12, "*", "anne-dm", times=2),
    "a follower's board fails (500)": Fault(6, "POST", "calico-dm"),
    "a move's answer fails (500)": Fault(10, "POST", ANSWER),
    "a click's answer on the board fails (500)": Fault(11, "POST", ANSWER, click=True),
    "the last action's answer fails (500)": Fault(LAST, "POST", ANSWER),
    "the final message fails until a restart": Fault(LAST, "POST", "thread", times=None),
    "the result line fails until a restart": Fault(LAST, "POST", "channel", times=None),
    "Anne's direct messages fail until a restart": Fault(20, "*", "anne-dm", 503, times=None),
}


async def play(world: World, faults: Sequence[Fault] = ()) -> dict[str, Any]:
    """Play the seeded game (Anne and Ben, reminders on, Calico following) with each of ``faults`` injected
    before its decision; take away those that last; restart; return what each member finally sees."""
    with installed(world.env) as rules:
        return await _play(world, rules, faults)


async def _play(world: World, rules: DiscordRules, faults: Sequence[Fault]) -> dict[str, Any]:
    table = world.table
    for name in ("Anne", "Ben"):
        await table.members[name].slash(table.channel, "games notify", setting="on")
    for fault in faults:
        if fault.at == START:
            fault.inject(world, None, rules)
    await table.challenge(KIND, "Anne", ["Ben"], variant="standard")
    await world.env.advance_time(RETRY[1])  # a thread or opening whose answer was lost is tried again
    record = await table.latest_game()
    await table.members["Calico"].click(table.board_message(record), label="Follow")
    decision = 0
    while record.status == "active":
        seat = table.human_to_act(record)
        assert seat is not None
        choice = table.pick(record, seat)
        ends = GAME.is_over(GAME.apply(record.state, seat, choice.action).state)
        now = [f for f in faults if decision == f.at or (f.at == LAST and ends)]
        for fault in now:
            fault.inject(world, record, rules)
        # Buttons and typed moves in turn; a typed move where an answer is to fail (its answer is one call).
        if any(f.click for f in now):
            assert decision % 2 and not menus.path_to(GAME.choices(record.state, seat), choice)[1], "not a click"
        if decision % 2 and not any(f.answer for f in now):
            await table.click_through(record, seat, choice)
        else:
            await table.move(record, seat, choice)
        if any(f.times is not None and f.times > 1 for f in now) or any(f.lost for f in now):
            await world.env.advance_time(RETRY[1])  # the second try waits a while: let it come
        if rules.dead:  # the process died right after a send: a new one takes over the game at once
            rules.revive()
            await world.restart()
            await world.env.settle()
        decision += 1
        record = await table.record(record.id)
    if any(f.times is None for f in faults):
        world.env.backend.faults.clear()
    await world.restart()
    await world.env.settle()
    return await seen(world, await table.record(record.id))


async def seen(world: World, record: GameRecord) -> dict[str, Any]:
    """What each member finally sees, message by message (edits included), without ids and times."""
    env, table = world.env, world.table

    def shown(channel: int) -> list[Any]:
        out = []
        for m in raw_messages(env, channel):
            if m.author_id != world.bot.user.id or m.is_ephemeral:
                continue
            files = [a["filename"].split("-", 2)[-1] for a in m.attachments]
            labels = [c.get("label") for row in m.components for c in row.get("components", [])]
            # The thread's id depends on how many ids Discord gave out before it (a retry takes some): its
            # links are compared as links to the game's thread.
            out.append((m.content.replace(str(record.place_id), "THREAD"), files, labels))
        return out

    thread = shown(record.place_id)
    return {
        "event lines": [line for content, _f, _l in thread for line in content.splitlines() if line[:1] in "▸🎲🃏"],
        "final message": [m for m in thread if "is over" in m[0]],
        "result line": [m for m in shown(record.channel_id) if m[0].startswith("🏁")],
        **{
            f"{who}'s direct messages": shown(table.members[who].user.dm_channel.id)
            for who in ("Anne", "Ben", "Calico")
        },
    }


def private_view(messages: list[Any]) -> tuple[str, list[str]]:
    """The last private view among a member's direct messages, without its notes and reminder lines."""
    content, files, _labels = next(m for m in reversed(messages) if "Your private view" in m[0])
    return content[content.index("**Your private view") :], files


FAULT_FREE: dict[str, Any] = {}


async def fault_free(tmp: Path) -> dict[str, Any]:
    """What members see after the game without a fault (played once, in a world of its own: SimCord runs
    one world per event loop, so on a loop of its own, in a thread)."""

    async def run() -> dict[str, Any]:
        bot = create_bot(database=tmp / "fault-free.db", ai_delay=0, seed="e2e", warm_renderers=False)
        async with simcord.run(bot) as env:
            await bot.tree.sync()
            world = World(env, bot, SimTable(env, bot), tmp / "fault-free.db")
            try:
                return await play(world)
            finally:
                await world.bot.tables.close()

    if not FAULT_FREE:
        FAULT_FREE.update(await asyncio.to_thread(asyncio.run, run()))
    return FAULT_FREE


def check(faulty: dict[str, Any], expected: dict[str, Any], names: Sequence[str]) -> None:
    """What members see after faults ``names`` is what they see after none."""
    assert faulty["event lines"] == expected["event lines"]
    assert len(faulty["final message"]) == 1 and faulty["final message"] == expected["final message"]
    assert faulty["final message"][0][2] == ["Rematch", "My hand"]
    assert faulty["result line"] == expected["result line"] and len(faulty["result line"]) == 1
    for who in ("Anne", "Ben", "Calico"):
        key = f"{who}'s direct messages"
        if any(FAULTS[name].times is None and who in name for name in names):
            # Reminders that could not be sent while the DMs failed are not sent late; the view is current.
            assert private_view(faulty[key]) == private_view(expected[key])
        else:
            assert faulty[key] == expected[key], key


ONE_OFF = [name for name, fault in FAULTS.items() if fault.times is not None]
LASTING = [name for name, fault in FAULTS.items() if fault.times is None]


@pytest.mark.parametrize("names", [ONE_OFF, *([name] for name in LASTING)], ids=["one-off faults", *LASTING])
async def test_faults_at_a_dozen_points_lose_nothing_and_repeat_nothing(
    world: World, quick_images: None, tmp_path: Path, names: list[str]
) -> None:
    """The passing faults in one game, each at its decision; those that last until a restart, one a game."""
    expected = await fault_free(tmp_path)
    check(await play(world, [FAULTS[name] for name in names]), expected, names)


@pytest.mark.slow
@pytest.mark.parametrize("name", ONE_OFF)
async def test_each_passing_fault_alone_loses_nothing(
    world: World, quick_images: None, tmp_path: Path, name: str
) -> None:
    check(await play(world, [FAULTS[name]]), await fault_free(tmp_path), [name])


async def test_a_resignation_whose_posts_fail_still_ends_the_game_in_the_thread(world: World) -> None:
    """Issue 18, case 1: a Discord error on the posts a resignation owes loses none of them."""
    table = world.table
    await table.challenge("piratz", "Anne", ["Ben"])
    record = await table.latest_game()
    world.env.inject_error("POST", f"/channels/{record.place_id}/messages", status=500, times=2)
    world.env.inject_error("POST", f"/channels/{record.channel_id}/messages", status=503, times=1)
    answer = await table.members["Ben"].slash(table.place(record), "piratz resign")
    assert said(answer, "You resigned")
    await world.env.advance_time(RETRY[1] + RETRY[2])
    await world.restart()
    await world.env.settle()
    thread = [m for m in table.place(record).history() if m.author.id == world.bot.user.id]
    finals = [m for m in thread if "is over" in m.content]
    assert len(finals) == 1 and "Ben resigned" in finals[0].content
    assert [a.filename for a in finals[0].attachments] == ["piratz-1-log.txt"]
    assert [c.label for row in finals[0].components for c in row.children] == ["Rematch", "My hand"]
    assert sum(m.content.startswith("🏳️") for m in thread) == 1
    results = [m for m in table.channel.history() if m.content.startswith("🏁")]
    assert len(results) == 1 and "won by Anne" in results[0].content


async def test_a_rematch_whose_opening_fails_opens_in_its_own_thread(world: World) -> None:
    """Issue 18, case 3: the rematch's thread gets its opening and board after the errors, and
    **Rematch** clicked again links to that thread."""
    table = world.table
    await table.challenge("piratz", "Anne", ["Ben"])
    first = await table.latest_game()
    await table.members["Ben"].slash(table.place(first), "piratz resign")
    await world.env.settle()
    final = next(m for m in table.place(first).history() if "is over" in m.content)
    await table.members["Anne"].click(final, label="Rematch")
    world.env.inject_error("POST", "/channels/*/threads", status=500, times=1)
    world.env.inject_error("POST", "/channels/*/messages", status=500, times=2)
    started = await table.members["Ben"].click(final, label="Rematch")
    assert said(started, "the rematch begins")
    await world.env.advance_time(RETRY[1] + RETRY[2])
    await world.env.settle()
    second = await table.latest_game()
    assert second.id != first.id and second.thread_id not in (None, first.thread_id)
    posts = [m.content for m in table.place(second).history() if m.author.id == world.bot.user.id]
    assert sum("begins!" in p for p in posts) == 1 and sum(p.startswith("➡️") for p in posts) == 1
    again = await table.members["Ben"].click(final, label="Rematch")
    assert said(again, f"<#{second.thread_id}>")


async def test_a_rematch_whose_thread_and_opening_were_made_but_their_answers_lost_opens_once(
    world: World, discord_rules: DiscordRules
) -> None:
    """The rematch's thread and its opening went through, but the bot heard a 500 and a time-out: it finds the
    thread it made instead of opening another, and the opening it made before posting it again (a post may have
    been an interaction's follow-up, which has no nonce)."""
    table = world.table
    await table.challenge("piratz", "Anne", ["Ben"])
    first = await table.latest_game()
    await table.members["Ben"].slash(table.place(first), "piratz resign")
    await world.env.settle()
    final = next(m for m in table.place(first).history() if "is over" in m.content)
    await table.members["Anne"].click(final, label="Rematch")
    discord_rules.lose_answer("POST", "/channels/*/threads")
    discord_rules.lose_answer("POST", "/channels/*/messages", status=0, times=2)
    started = await table.members["Ben"].click(final, label="Rematch")
    assert said(started, "the rematch begins")
    await world.env.advance_time(RETRY[1] + RETRY[2])
    await world.env.settle()
    second = await table.latest_game()
    assert second.id != first.id and second.thread_id not in (None, first.thread_id)
    named = [t for t in table.channel.threads if t.name.startswith(f"Piratz #{second.id}")]
    assert [t.id for t in named] == [second.thread_id]
    posts = [m.content for m in table.place(second).history() if m.author.id == world.bot.user.id]
    assert sum("begins!" in p for p in posts) == 1 and sum(p.startswith("➡️") for p in posts) == 1
    looked = f"/channels/{second.place_id}/messages"
    assert any(r.method == "GET" and r.path == looked for r in world.env.backend.http_requests)


DM_FAULT_POINTS = [("anne-dm", 12), ("ben-dm", 21)]
"""Where the default run fails a member's direct messages (the slow run tries every third decision)."""


async def dms_fail_twice_then_a_restart(
    world: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str, at: int
) -> None:
    """Issue 52, case 2: a 500 on a member's DMs twice at decision ``at``, then a restart right after it, the
    members taking 15 s a decision: every member ends with exactly the private messages of the fault-free run
    (none more: no notes in a DM of their own; none fewer)."""
    expected = await fault_free(tmp_path)
    decided = 0
    originals = {name: getattr(SimTable, name) for name in ("move", "click_through")}

    def paced(name: str) -> Any:
        async def decide(self: SimTable, *args: Any, **kwargs: Any) -> Any:
            nonlocal decided
            turn = await originals[name](self, *args, **kwargs)
            decided += 1
            if decided == at + 1:
                await world.restart()
                await world.env.settle()
            await world.env.advance_time(15)
            return turn

        return decide

    for name in originals:
        monkeypatch.setattr(SimTable, name, paced(name))
    faulty = await play(world, [Fault(at, "*", where, times=2)])
    for who in ("Anne", "Ben", "Calico"):
        assert faulty[f"{who}'s direct messages"] == expected[f"{who}'s direct messages"], who


@pytest.mark.parametrize(("where", "at"), DM_FAULT_POINTS)
async def test_direct_messages_failing_twice_then_a_restart_end_as_without_a_fault(
    world: World, quick_images: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str, at: int
) -> None:
    await dms_fail_twice_then_a_restart(world, tmp_path, monkeypatch, where, at)


@pytest.mark.slow
@pytest.mark.parametrize("where", ["anne-dm", "ben-dm"])
@pytest.mark.parametrize("at", range(0, 40, 3))
async def test_direct_messages_failing_twice_anywhere_then_a_restart_end_as_without_a_fault(
    world: World, quick_images: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str, at: int
) -> None:
    await dms_fail_twice_then_a_restart(world, tmp_path, monkeypatch, where, at)
