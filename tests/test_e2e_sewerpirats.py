"""End to end for Sewer Pirats: the real bot in SimCord, driven as members would — challenges, board
buttons and pickers, ``/sewerpirats move``, private hands by DM, closed DMs, restarts — with Discord's
component limits and the secrecy of hands checked along the way."""

from __future__ import annotations

import asyncio
import copy
import io
import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import pytest
from PIL import Image

from data.store import GameRecord
from games.core import Event, format_seats
from games.i18n import localize
from games.registry import GAMES
from tables import menus
from tables.seating import seed_digest
from tests import support
from tests.conftest import World
from tests.support import PNG_MAGIC, opened, png, png_text, said, texts

SEWER = GAMES["sewerpirats"].game
THINK = 181
"""Seconds a player "thinks" between decisions. discord.py answers each click on a persistent button
through a throwaway View with a 180 s timeout; letting that time pass ends their timer tasks, which
would otherwise pile up and slow SimCord's settling down over a whole game."""


# ---------------------------------------------------------------------- images


@dataclass
class Drawn:
    """What the stand-in renderers were asked to draw, and any view that showed too much."""

    problems: list[str] = field(default_factory=list)
    boards: int = 0
    hands: int = 0
    finals: int = 0


@pytest.fixture
def quick_images(monkeypatch: pytest.MonkeyPatch) -> Drawn:
    """Stand-in renderers: tiny PNGs that carry the viewer and hand they were drawn from, so a test can
    tell whose hand an image in a DM shows. They also check that the views they get hide what they
    must (the real renderers are exercised by one whole game and by the rendering tests)."""
    drawn = Drawn()

    def board(view: dict, names, locale: str = "en") -> bytes:
        drawn.boards += 1
        if view["viewer"] is not None or view["hand"] is not None:
            drawn.problems.append(f"board drawn from seat {view['viewer']}'s view")
        if view["final"] is None and any(p["tokens"] is not None for p in view["players"]):
            drawn.problems.append("board view shows tokens before the end")
        return png(viewer=None)

    def hand(view: dict, names, locale: str = "en") -> bytes:
        drawn.hands += 1
        seat = view["viewer"]
        if seat is None or view["hand"] is None:
            drawn.problems.append("hand drawn from a spectator's view")
        elif any(p is not None for s, p in enumerate(view["players"]) if s != seat):
            drawn.problems.append(f"seat {seat}'s hand image was given another seat's entry")
        return png(viewer=seat, hand=sorted(view["hand"] or []))

    def final(view: dict, names, locale: str = "en") -> bytes:
        drawn.finals += 1
        if view["final"] is None:
            drawn.problems.append("final image drawn before the end")
        return png(final=True)

    for name, fake in (("render_board", board), ("render_hand", hand), ("render_final", final)):
        monkeypatch.setattr(f"rendering.sewerpirats.{name}", fake)
    return drawn


# ---------------------------------------------------------------------- Discord's limits


def limit_problems(components: list[dict], where: str) -> list[str]:
    """Where raw message components break Discord's limits (5 rows of 5 buttons or 1 select of 25
    options; labels of 80 characters and custom ids of 100 at most)."""
    out = []
    if len(components) > 5:
        out.append(f"{where}: {len(components)} action rows")
    for r, row in enumerate(components):
        children = row.get("components") or []
        if row.get("type") != 1:
            out.append(f"{where}: row {r} is not an action row")
        selects = [c for c in children if c.get("type") in (3, 5, 6, 7, 8)]
        buttons = [c for c in children if c.get("type") == 2]
        if len(buttons) > 5:
            out.append(f"{where}: row {r} holds {len(buttons)} buttons")
        if selects and len(children) != 1:
            out.append(f"{where}: row {r} holds a select and {len(children) - 1} more components")
        if not children:
            out.append(f"{where}: row {r} is empty")
        for c in children:
            custom_id = c.get("custom_id") or ""
            if not custom_id or len(custom_id) > 100:
                out.append(f"{where}: custom id {custom_id!r} ({len(custom_id)} chars)")
            if len(c.get("label") or "") > menus.MAX_LABEL:
                out.append(f"{where}: label {c['label']!r} is {len(c['label'])} chars")
            if c in selects:
                options = c.get("options") or []
                if not 1 <= len(options) <= 25:
                    out.append(f"{where}: select {custom_id} has {len(options)} options")
                for o in options:
                    if len(o.get("label") or "") > menus.MAX_LABEL or len(str(o.get("value"))) > 100:
                        out.append(f"{where}: select option {o!r} too long")
    return out


# ---------------------------------------------------------------------- the record of a game


def raw_messages(world: World, channel_id: int) -> list[Any]:
    return support.raw_messages(world.env, channel_id)


def bot_dms(world: World, member, game_id: int | None = None) -> list[Any]:
    """The bot's DMs to a member (about one game if given), oldest first."""
    out = [m for m in raw_messages(world, member.user.dm_channel.id) if m.author_id == world.bot.user.id]
    if game_id is not None:
        out = [m for m in out if f"Sewer Pirats #{game_id} (" in m.content]
    return out


def attachment_bytes(world: World, attachment: dict) -> bytes:
    data = world.env.backend.cdn.get(attachment["url"])
    assert data is not None, f"attachment {attachment.get('filename')} has no data"
    return data


def thread_link(record: GameRecord) -> str:
    return f"https://discord.com/channels/{record.guild_id}/{record.thread_id}"


def private_summary(record: GameRecord, seat: int, state: dict | None = None) -> str:
    """What the engine says a seat privately sees, with names for seats, in English."""
    view = SEWER.view(record.state if state is None else state, seat)
    return localize(format_seats(SEWER.seat_summary(view), record.names))


def split_dm(content: str) -> tuple[list[str], str, str]:
    """A DM as (note lines, header line, the seat summary); header and summary are empty in a DM of
    notes only."""
    start = content.find("**Your private view in ")
    if start < 0:
        return [line for line in content.splitlines() if line], "", ""
    notes = [line for line in content[:start].splitlines() if line]
    header, _, summary = content[start:].partition("\n")
    return notes, header, summary


@dataclass
class Secrets:
    """Everything each seat privately saw over a whole game, rebuilt from the seed and the action log."""

    summaries: dict[int, set[str]]
    lines: dict[int, set[str]]
    """The hand and token lines of the summaries."""
    events: dict[int, set[str]]

    def others(self, seat: int) -> set[str]:
        """Private lines of other seats that this seat never had itself."""
        theirs = set().union(*(v for s, v in self.lines.items() if s != seat))
        return theirs - self.lines[seat]


async def secrets_of(world: World, record: GameRecord) -> Secrets:
    state = SEWER.new_game(len(record.seats), record.options, record.seed)
    seats = range(len(record.seats))
    history: list[tuple[dict, list[Event]]] = [(state, [])]
    for _seq, seat, action in await world.bot.tables.store.games.actions(record.id):
        step = SEWER.apply(state, seat, action)
        state = step.state
        history.append((state, step.events))
    summaries: dict[int, set[str]] = {s: set() for s in seats}
    lines: dict[int, set[str]] = {s: set() for s in seats}
    events: dict[int, set[str]] = {s: set() for s in seats}
    for state, step_events in history:
        for s in seats:
            summary = private_summary(record, s, state)
            summaries[s].add(summary)
            lines[s].update(line for line in summary.splitlines() if line.startswith(("**Your hand**", "**Your tok")))
        for e in step_events:
            if e.seat is not None:
                events[e.seat].add(localize(format_seats(e.text, record.names)))
    return Secrets(summaries, lines, events)


# ---------------------------------------------------------------------- playing and watching


class Watcher:
    """Plays a game for its members like ``SimTable.play_to_end`` and checks, at every click, Discord's
    component limits and, after every decision, that each member's one private DM of the game is kept up
    to date with their current private view (with its hand image)."""

    def __init__(self, world: World, game_id: int) -> None:
        self.world = world
        self.game_id = game_id
        self.problems: list[str] = []
        self.components = 0
        self.pickers = 0
        self.decisions = 0
        self._requests = 0  # everything the bot sent so far, the invitation included

    def check_components(self, components: list[dict], where: str) -> None:
        self.components += sum(len(row.get("components") or []) for row in components)
        self.problems += limit_problems(components, where)

    def check_requests(self, where: str) -> None:
        """Check the components of every message the bot posted or edited since the last check."""
        requests = self.world.env.http_requests
        for entry in requests[self._requests :]:
            payload = entry.json if isinstance(entry.json, dict) else {}
            if "/callback" in entry.path:
                kind, payload = payload.get("type"), payload.get("data") or {}
                ids = [c.get("custom_id") or "" for row in payload.get("components") or () for c in row["components"]]
                if any(i.startswith(("t:", "ts:")) for i in ids):  # a picker (not an invitation's buttons)
                    self.pickers += 1
                    if kind == 4 and not payload.get("flags", 0) & 64:
                        self.problems.append(f"{where}: a picker was posted for everyone")
            self.check_components(payload.get("components") or [], f"{entry.method} {entry.path} after {where}")
        self._requests = len(requests)

    async def play(self, *, via: str = "buttons", until=None, limit: int = 1500) -> GameRecord:
        """Play every human decision until the game ends (or ``until(record)`` holds)."""
        table = self.world.table
        record = await table.record(self.game_id)
        self.check_private(record)
        for _ in range(limit):
            if record.status != "active" or (until is not None and until(record)):
                return record
            seat = table.human_to_act(record)
            if seat is None:
                await self.world.env.settle()
                record = await table.record(self.game_id)
                assert record.status != "active" or table.human_to_act(record) is not None, "nobody can move"
                continue
            await self.decide(record, seat, table.pick(record, seat), via=via)
            record = await table.record(self.game_id)
        raise AssertionError(f"game {self.game_id} did not end within {limit} decisions")

    async def decide(self, record: GameRecord, seat: int, choice, *, via: str = "buttons") -> GameRecord:
        """Play one choice with the buttons (checking every message's components) or the command."""
        table = self.world.table
        where = f"v{record.version} {record.seats[seat].name}: {choice.label}"
        if via == "buttons":
            board = self.world.env.backend.get_message(record.place_id, record.message_id)
            self.check_components(board.components, f"board {where}")
            turn = await table.click_through(record, seat, choice)
            for i, result in enumerate(turn.results):
                for message in [result.response, *result.followups]:
                    if message is not None:
                        self.check_components(message.components, f"click {i + 1} of {where}")
            # A picker is one ephemeral message edited at each step, so look at every payload the bot sent.
            self.check_requests(where)
        else:
            turn = await table.move(record, seat, choice)
            assert turn.results[0].ephemeral and said(turn.results[0], "✅"), texts(turn.results[0])
        after = await table.record(self.game_id)
        assert after.version > record.version, f"{where} did not apply: {[texts(r) for r in turn.results]}"
        self.decisions += 1
        await self.world.env.advance_time(THINK)
        self.check_private(after)
        return after

    def check_private(self, record: GameRecord) -> None:
        """Each seated member's latest DM about this game is their current private view."""
        if record.status != "active":
            return
        for seat in record.seats:
            if seat.user_id is None or seat.resigned:
                continue
            member = self.world.table.member_of(record, seat.seat)
            dms = bot_dms(self.world, member, record.id)
            expected = private_summary(record, seat.seat)
            name = f"{seat.name} at v{record.version}"
            if not dms:
                self.problems.append(f"{name}: no private view by DM")
                continue
            _notes, header, summary = split_dm(dms[-1].content)
            if summary != expected:
                self.problems.append(f"{name}: the latest DM says {summary!r}, the engine {expected!r}")
            if header != f"**Your private view in Sewer Pirats #{record.id} ({thread_link(record)})**":
                self.problems.append(f"{name}: DM header {header!r}")
            hands = [a for a in dms[-1].attachments if a["filename"] == f"sewerpirats-{record.id}-hand.png"]
            if len(hands) != 1:
                self.problems.append(f"{name}: the DM has no hand image")
            if len(dms) != 1:  # nobody here asked for reminders: one message, edited as the view changes
                self.problems.append(f"{name}: {len(dms)} DMs about one game")


async def check_secrets(world: World, record: GameRecord, *, stub_images: bool) -> None:
    """Over the whole game: DMs carry only their recipient's private views, events and hand images;
    the channel, the thread and other members' ephemeral messages carry none of them."""
    secrets = await secrets_of(world, record)
    private_events = set().union(*secrets.events.values())
    # What hands hold, without the "Your hand" prefix, when it is distinctive ("2 cat, 1 fish").
    holdings = {
        line.partition("): ")[2] for lines in secrets.lines.values() for line in lines if line.startswith("**Your hand")
    }
    holdings = {h for h in holdings if ", " in h}
    place = world.table.place(record)
    public = [m for cid in (world.table.channel.id, place.id) for m in raw_messages(world, cid)]
    assert len(public) > 20
    for m in public:
        seen = "\n".join([m.content, *(a.get("description") or "" for a in m.attachments)])
        if not m.is_ephemeral:
            assert "Your hand" not in seen and "Your tokens" not in seen, seen
            assert not [e for e in private_events if e in seen], seen
            assert not [h for h in holdings if h in seen], seen
        else:
            viewer = record.seat_of(int((m.interaction_metadata or {}).get("user", {}).get("id", 0)))
            assert viewer is not None, f"ephemeral message to someone not seated: {seen}"
            assert not set(seen.splitlines()) & secrets.others(viewer), seen
    for seat in record.seats:
        if seat.user_id is None:
            continue
        member = world.table.member_of(record, seat.seat)
        dms = bot_dms(world, member)
        assert dms, f"{seat.name} got no DM"
        theirs = secrets.others(seat.seat)
        for dm in dms:
            notes, header, summary = split_dm(dm.content)
            assert {n.removeprefix("• ") for n in notes} <= secrets.events[seat.seat], notes
            assert not set(dm.content.splitlines()) & theirs, dm.content
            if not header:
                continue
            assert f"Sewer Pirats #{record.id} ({thread_link(record)})" in header
            assert summary in secrets.summaries[seat.seat], f"{seat.name} was sent {summary!r}"
            (hand,) = [a for a in dm.attachments if a["filename"].endswith("-hand.png")]
            data = attachment_bytes(world, hand)
            assert data.startswith(PNG_MAGIC)
            if stub_images:
                drawn = png_text(data)
                assert drawn["viewer"] == seat.seat, f"{seat.name} was sent seat {drawn['viewer']}'s hand image"
                assert summary.startswith(f"**Your hand** ({len(drawn['hand'])})")


async def check_finished(world: World, record: GameRecord, *, stub_images: bool = False) -> None:
    """The game ended properly: final message with scores, seed and final image; no buttons left to
    play; the action log replays to the stored state."""
    assert record.status == "finished"
    assert SEWER.is_over(record.state)
    place = world.table.place(record)
    messages = raw_messages(world, place.id)
    (final,) = [m for m in messages if f"Sewer Pirats #{record.id} is over." in m.content]
    assert f"Seed: `{record.seed}`" in final.content and seed_digest(record.seed) in final.content
    assert seed_digest(record.seed) in messages[0].content  # committed to at the start
    winners = [record.names[w] for w in record.result["winners"]]
    assert "🏆" in final.content and all(w in final.content for w in winners)
    for seat, score in zip(record.seats, record.result["scores"], strict=True):
        assert f"{seat.name} {score}" in final.content
    image, log = final.attachments  # the final image, then the verifiable action log
    assert image["filename"] == f"sewerpirats-{record.id}-final.png"
    assert log["filename"] == f"sewerpirats-{record.id}-log.txt"
    data = attachment_bytes(world, image)
    assert data.startswith(PNG_MAGIC)
    if not stub_images:
        assert Image.open(io.BytesIO(data)).size[0] >= 400  # the real final scoreboard
    board = world.env.backend.get_message(place.id, record.message_id)
    assert board.components == []  # the last board keeps its story and loses its buttons
    ids = [c.get("custom_id", "") for row in final.components for c in row.get("components", [])]
    assert f"hand:{record.id}" in ids  # the final message has My hand (and Rematch)
    assert await world.bot.tables.reads.replay(record.id) == record.state


async def start(world: World, invitees: Iterable[str], *, ai: int = 0, variant: str = "standard") -> GameRecord:
    """Anne challenges the invitees (who accept), with ``ai`` AI seats."""
    await world.table.challenge("sewerpirats", "Anne", list(invitees), ai=ai, variant=variant)
    record = await world.table.latest_game()
    assert record.kind == "sewerpirats" and record.options["variant"] == variant
    assert record.thread_id is not None and world.table.place(record).is_thread
    return record


# ---------------------------------------------------------------------- whole games


@pytest.mark.parametrize(
    ("variant", "invitees", "ai", "real_images"),
    [
        ("standard", ["Ben", "Calico"], 0, False),
        ("landlubber", ["Ben"], 1, False),
        ("auction", ["Ben"], 1, True),
    ],
)
async def test_whole_game_with_buttons(
    world: World, request: pytest.FixtureRequest, variant: str, invitees: list[str], ai: int, real_images: bool
) -> None:
    drawn = None if real_images else request.getfixturevalue("quick_images")
    record = await start(world, invitees, ai=ai, variant=variant)
    thread = world.table.place(record)
    assert "Sewer Pirats" in thread.name and "Anne" in thread.name
    assert f"`variant`: {variant}" in thread.history()[0].content
    watcher = Watcher(world, record.id)
    record = await watcher.play(via="buttons")
    assert not watcher.problems, "\n".join(watcher.problems[:20])
    assert watcher.decisions > 40 and watcher.pickers > 10 and watcher.components > 100
    await check_finished(world, record, stub_images=drawn is not None)
    await check_secrets(world, record, stub_images=drawn is not None)
    if drawn is not None:
        assert not drawn.problems, drawn.problems[:10]
        assert drawn.finals == 1 and drawn.hands > 10
    else:
        # The real images: a board and a hand image of a plausible size.
        board = world.env.backend.get_message(thread.id, record.message_id)
        assert Image.open(io.BytesIO(attachment_bytes(world, board.attachments[0]))).size[0] >= 400
        dm = bot_dms(world, world.table.members["Ben"], record.id)[-1]
        assert Image.open(io.BytesIO(attachment_bytes(world, dm.attachments[0]))).size[0] >= 100


async def test_a_dm_is_drawn_and_sent_again_only_when_what_it_shows_changes(world: World, quick_images: Drawn) -> None:
    """Each member's one DM of a game is written again when their hand image (what it draws of their view,
    ``hand_view``, titled with whose hand it is: the decision coming or going is not drawn there) or their
    summary changed, or with private notes; another player's move that changes neither writes nothing, and
    the DM still shows the member's current hand and summary."""
    table = world.table
    record = await start(world, ["Ben", "Calico"])
    spec = GAMES["sewerpirats"]
    members = {seat.seat: table.member_of(record, seat.seat) for seat in record.seats}

    def shown(record: GameRecord, seat: int) -> tuple[str, dict]:
        return private_summary(record, seat), {**spec.hand_view(SEWER.view(record.state, seat)), "deciding": None}

    before = {seat: shown(record, seat) for seat in members}
    views = {seat: SEWER.view(record.state, seat) for seat in members}
    skipped = written = 0
    order = random.Random("dm")
    for _ in range(60):
        seat_to_act = table.human_to_act(record, order)
        if seat_to_act is None:
            break
        sent = len(world.env.http_requests)
        await table.move(record, seat_to_act, table.pick(record, seat_to_act))
        record = await table.record(record.id)
        for seat, member in members.items():
            channel = f"/channels/{member.user.dm_channel.id}/messages"
            writes = [r for r in world.env.http_requests[sent:] if r.path.startswith(channel)]
            now, view = shown(record, seat), SEWER.view(record.state, seat)
            latest = bot_dms(world, member, record.id)[-1]
            notes, _header, summary = split_dm(latest.content)
            if now != before[seat]:
                assert writes, f"seat {seat}: what the DM shows changed, and it was not written"
                written += 1
            elif writes:
                assert notes, f"seat {seat}: written again with nothing new"
            elif view != views[seat]:
                skipped += 1  # the view changed (the board's public part), what the DM shows did not
            image = next(a for a in latest.attachments if a["filename"].endswith("-hand.png"))
            assert png_text(attachment_bytes(world, image))["hand"] == sorted(view["hand"])
            assert summary == now[0]
            before[seat], views[seat] = now, view
    assert written > 10 and skipped > 20, (written, skipped)
    assert not quick_images.problems, quick_images.problems[:5]


async def test_whole_game_with_the_move_command(world: World, quick_images: Drawn) -> None:
    record = await start(world, ["Ben"], ai=1, variant="standard")
    watcher = Watcher(world, record.id)
    record = await watcher.play(via="move")
    assert not watcher.problems, "\n".join(watcher.problems[:20])
    await check_finished(world, record, stub_images=True)
    await check_secrets(world, record, stub_images=True)
    assert not quick_images.problems
    # The private view kept by DM ends on the final score, not on what would score "if the game ended now".
    last = bot_dms(world, world.table.members["Ben"], record.id)[-1].content
    assert "**Final score:" in last and "if the game ended now" not in last


# ---------------------------------------------------------------------- closed DMs


async def test_closed_dms_one_note_and_my_hand(world: World, quick_images: Drawn) -> None:
    table = world.table
    anne, ben = table.members["Anne"], table.members["Ben"]
    world.env.inject_error(
        "POST",
        f"/channels/{anne.user.dm_channel.id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )
    record = await start(world, ["Ben"], ai=1, variant="standard")
    anne_seat = record.seat_of(anne.id)
    views = {private_summary(record, anne_seat)}
    watcher = Watcher(world, record.id)
    for _ in range(30):
        seat = table.human_to_act(record)
        record = await watcher.decide(record, seat, table.pick(record, seat))
        views.add(private_summary(record, anne_seat))
        if len(views) >= 4 and table.human_to_act(record) is not None:
            break
    assert len(views) >= 4, "Anne's hand should have changed several times (so several DMs failed)"
    thread = table.place(record)
    notes = [m.content for m in thread.history() if "can't send you direct messages" in m.content]
    assert len(notes) == 1, notes
    assert f"<@{anne.id}>" in notes[0] and "**My hand**" in notes[0]
    assert bot_dms(world, anne) == []

    # Ben's one private message still arrives and is kept up to date with his current view.
    ben_dms = bot_dms(world, ben, record.id)
    assert len(ben_dms) == 1
    assert split_dm(ben_dms[-1].content)[2] == private_summary(record, record.seat_of(ben.id))

    # My hand shows Anne her private view, with her hand image, to her only.
    result = await anne.click(table.board_message(record), label="My hand")
    assert result.ephemeral
    (shown,) = [m for m in [result.response, *result.followups] if m is not None and "private view" in m.content]
    assert shown.ephemeral
    _notes, header, summary = split_dm(shown.content)
    assert f"Sewer Pirats #{record.id} ({thread_link(record)})" in header
    assert summary == private_summary(record, anne_seat)
    (image,) = shown.attachments
    assert png_text(world.env.backend.cdn.get(image.url))["viewer"] == anne_seat
    assert not [m for m in thread.history(viewer=ben) if m.id == shown.id]

    result = await anne.slash(thread, "sewerpirats hand")
    (shown,) = [m for m in [result.response, *result.followups] if m is not None and "private view" in m.content]
    assert shown.ephemeral and split_dm(shown.content)[2] == private_summary(record, anne_seat)

    result = await table.members["Dara"].click(table.board_message(record), label="My hand")
    assert result.ephemeral and said(result, f"You are not playing in Sewer Pirats #{record.id}")
    assert not quick_images.problems


# ---------------------------------------------------------------------- who may act


async def test_out_of_turn_unseated_stale_and_autocomplete(world: World, quick_images: Drawn) -> None:
    table = world.table
    record = await start(world, ["Ben"], variant="standard")
    thread = table.place(record)
    (actor,) = SEWER.to_act(record.state)
    mover, waiting = table.member_of(record, actor), table.member_of(record, 1 - actor)
    dara = table.members["Dara"]
    board = table.board_message(record)
    before = len(thread.history())
    state = copy.deepcopy(record.state)
    button = table.board_button(record)

    result = await waiting.click(board, custom_id=button)
    assert result.ephemeral and said(result, f"It is not your turn: waiting for {record.names[actor]}.")
    result = await dara.click(board, custom_id=button)
    assert result.ephemeral and said(result, f"You are not playing in Sewer Pirats #{record.id}.")
    result = await waiting.slash(thread, "sewerpirats move", action="draw deck")
    assert result.ephemeral and said(result, "It is not your turn")
    result = await dara.slash(thread, "sewerpirats move", action="draw deck")
    assert result.ephemeral and said(result, "You are not playing")

    # Autocomplete offers the player to act their legal moves (by label), and nobody else anything.
    choices = SEWER.choices(record.state, actor)
    offered = await mover.autocomplete(thread, "sewerpirats move", "action", "")
    expected = [(menus.clip(localize(format_seats(c.label, record.names)), 100), c.action.encode()) for c in choices]
    assert [(c["name"], c["value"]) for c in offered] == expected[:25]
    draws = await mover.autocomplete(thread, "sewerpirats move", "action", "draw")
    assert draws and all(c["value"].startswith("draw ") for c in draws)
    assert {c["value"] for c in draws} == {c.action.encode() for c in choices if c.action.verb == "draw"}
    assert await waiting.autocomplete(thread, "sewerpirats move", "action", "") == []
    assert await dara.autocomplete(thread, "sewerpirats move", "action", "") == []

    after = await table.record(record.id)
    assert after.version == record.version and after.state == state
    assert await world.bot.tables.store.games.actions(record.id) == []
    assert len(thread.history()) == before  # nothing public was posted

    # A picker opened before the player moved by command is out of date afterwards.
    drawing = next(c for c in choices if c.action.verb == "draw").path[0]  # the marked "Draw" its button shows
    assert localize(drawing) == "Draw"
    draw = f"t:{record.id}:{record.version}:{menus.tag(drawing)}"
    picker = await mover.click(board, custom_id=draw)
    assert opened(picker).ephemeral and opened(picker).components and "Draw" in opened(picker).content
    # Its items are DynamicItems: no 15-minute view timer task is left running per picker shown.
    assert not [t for t in asyncio.all_tasks() if "timeout_task" in t.get_coro().__qualname__]
    row0 = next(c for c in choices if c.action.encode() == "draw row 1")
    label = localize(row0.label)
    result = await mover.slash(thread, "sewerpirats move", action=label.upper())  # the label works too
    assert said(result, f"✅ {label}")
    moved = await table.record(record.id)
    assert moved.version == record.version + 1
    result = await mover.click(opened(picker), custom_id=f"{draw}:0")
    assert said(result, "out of date")
    assert (await table.record(record.id)).version == moved.version
    assert not quick_images.problems


@pytest.mark.parametrize(("variant", "phases"), [("standard", ("seize", "toad")), ("auction", ("auction",))])
async def test_the_seizing_or_bidding_player_is_not_the_turn_player(
    world: World, quick_images: Drawn, variant: str, phases: tuple[str, ...]
) -> None:
    table = world.table
    record = await start(world, ["Ben"], variant=variant)
    watcher = Watcher(world, record.id)

    def elsewhere(r: GameRecord) -> bool:
        view = SEWER.view(r.state, None)
        return view["phase"] in phases and view["to_act"] != [view["turn"]]

    record = await watcher.play(until=elsewhere, limit=400)
    assert record.status == "active" and elsewhere(record), "no decision away from the turn player came up"
    assert not watcher.problems, watcher.problems[:10]
    view = SEWER.view(record.state, None)
    (actor,) = view["to_act"]
    turn = view["turn"]
    acting, turn_member = table.member_of(record, actor), table.member_of(record, turn)

    board = table.board_message(record)
    waiting_line = board.content.splitlines()[-1]
    assert waiting_line.startswith("➡️") and f"<@{acting.id}>" in waiting_line
    assert f"<@{turn_member.id}>" not in waiting_line
    assert localize(format_seats(view["pending"], record.names)) in waiting_line
    assert record.names[actor] in waiting_line and record.names[turn] not in waiting_line

    result = await turn_member.click(board, custom_id=table.board_button(record))
    assert result.ephemeral and said(result, f"It is not your turn: waiting for {record.names[actor]}.")
    assert await turn_member.autocomplete(table.place(record), "sewerpirats move", "action", "") == []
    assert (await table.record(record.id)).version == record.version

    after = await watcher.decide(record, actor, table.pick(record, actor))
    assert after.version > record.version
    assert not watcher.problems, watcher.problems[:10]


# ---------------------------------------------------------------------- restarts


async def test_restart_mid_auction_old_board_still_works(world: World, quick_images: Drawn) -> None:
    table = world.table
    record = await start(world, ["Ben"], ai=1, variant="auction")
    watcher = Watcher(world, record.id)

    async def bids() -> int:
        return sum(a.startswith("bid ") for _seq, _seat, a in await world.bot.tables.store.games.actions(record.id))

    for _ in range(100):
        record = await table.record(record.id)
        if record.state["phase"] == "auction" and await bids() >= 3 and table.human_to_act(record) is not None:
            break
        seat = table.human_to_act(record)
        await watcher.decide(record, seat, table.pick(record, seat))
    else:
        pytest.fail("the auction did not get going")
    board = table.board_message(record)
    assert board.components

    await world.restart()
    seat = table.human_to_act(record)
    choice = table.pick(record, seat)
    turn = await table.click_through(record, seat, choice)  # the pre-restart board's buttons
    after = await table.record(record.id)
    assert after.version > record.version, [texts(r) for r in turn.results]
    assert table.board_message(after).id != board.id
    assert not world.env.backend.get_message(board.channel.id, board.id).components  # old buttons stripped

    record = await watcher.play(via="buttons")
    assert not watcher.problems, watcher.problems[:10]
    await check_finished(world, record, stub_images=True)
    assert record.state["auction"] is None and all(len(p["area"]) <= 4 for p in record.state["players"])


async def test_closed_dm_note_is_not_repeated_after_a_restart(world: World, quick_images: Drawn) -> None:
    table = world.table
    anne = table.members["Anne"]
    world.env.inject_error("POST", f"/channels/{anne.user.dm_channel.id}/messages", status=403, code=50007, times=None)
    record = await start(world, ["Ben"], ai=1, variant="standard")
    thread = table.place(record)

    def notes() -> list[str]:
        return [m.content for m in thread.history() if "can't send you direct messages" in m.content]

    assert len(notes()) == 1  # her first private view could not be sent
    await world.restart()
    await anne.slash(thread, "sewerpirats board")  # any new board tries her DMs again
    assert len(notes()) == 1, notes()


async def test_unchanged_private_views_are_not_resent_after_a_restart(world: World, quick_images: Drawn) -> None:
    table = world.table
    record = await start(world, ["Ben"], ai=1, variant="standard")
    thread = table.place(record)
    members = [table.members["Anne"], table.members["Ben"]]

    def counts() -> list[int]:
        return [len(bot_dms(world, m, record.id)) for m in members]

    sent = counts()
    assert sent == [1, 1]
    await members[0].slash(thread, "sewerpirats board")
    assert counts() == sent  # a new board with the same hands sends no DM
    await world.restart()
    await members[0].slash(thread, "sewerpirats board")
    assert (await table.record(record.id)).version == record.version
    assert counts() == sent, "the same private views were sent again"


# ---------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("invitees", "ai", "fragment"),
    [
        ([], 0, "Sewer Pirats takes 2–5 players, not 1."),
        (["Ben"], 4, "Sewer Pirats takes 2–5 players, not 6."),
        (["Anne"], 1, "already at the table"),
    ],
)
async def test_challenge_refusals(world: World, invitees: list[str], ai: int, fragment: str) -> None:
    table = world.table
    args = {f"player{i + 2}": table.members[n] for i, n in enumerate(invitees)}
    result = await table.members["Anne"].slash(table.channel, "sewerpirats new", ai=ai, **args)
    assert result.ephemeral and said(result, fragment), texts(result)
    assert await world.bot.tables.store.lobbies.open() == [] and await world.bot.tables.cache.game_ids() == []


async def test_bad_moves_by_command_are_refused_specifically(world: World, quick_images: Drawn) -> None:
    table = world.table
    record = await start(world, ["Ben"], variant="standard")
    thread = table.place(record)
    (seat,) = SEWER.to_act(record.state)
    member = table.member_of(record, seat)
    player = record.state["players"][seat]
    hand = player["hand"]
    figure = next(f for f in player["area"] if f["tribe"] != "cockroaches")  # cockroaches pay one card less
    ship = min(("cat", "bird", "fish"), key=hand.count)
    assert hand.count(ship) < 3
    other = next(f for f in record.state["players"][1 - seat]["area"])
    state = copy.deepcopy(record.state)
    posted = len(thread.history())

    cases = [
        ("fly away", "Draw two cards, move a figure, become captain or set sail."),
        (f"move {figure['id']} {ship} 3", f"You need 3 {ship} cards for that."),
        (f"move {figure['id']} boat 1", "There is no boat ship: choose cat, bird or fish."),
        (f"move {other['id']} {ship} 1", f"You have no figure {other['id']}."),
        (f"move {figure['id']} {ship} 4", "Space 3 is the last crew space"),
        (
            f"captain {figure['id']} {ship}",
            "Every crew space between the figure and the captain's space must be occupied.",
        ),
        ("draw row 10", "The row holds cards 1 to 4."),
        ("draw row 0", "The row holds cards 1 to 4."),
        ("bid " + "9" * 70, "too long"),
    ]
    for text, answer in cases:
        result = await member.slash(thread, "sewerpirats move", action=text)
        assert result.ephemeral and said(result, answer), (text, texts(result))
        assert not said(result, "Sorry"), text
    after = await table.record(record.id)
    assert after.version == record.version and after.state == state
    assert await world.bot.tables.store.games.actions(record.id) == []
    assert len(thread.history()) == posted

    # In the auction: bidding more cards than one holds.
    auction = await start(world, ["Ben"], variant="auction")
    place = table.place(auction)
    (opener,) = SEWER.to_act(auction.state)
    member = table.member_of(auction, opener)
    held = len(auction.state["players"][opener]["hand"])
    result = await member.slash(place, "sewerpirats move", action="bid 2")
    assert said(result, "Pick a figure at the bar by its stool number")
    stools = len(auction.state["auction"]["bar"])
    result = await member.slash(place, "sewerpirats move", action=f"hire {stools + 1}")
    assert said(result, f"The bar has stools 1 to {stools}.")
    result = await member.slash(place, "sewerpirats move", action="hire 1")
    assert said(result, "✅")
    auction = await table.record(auction.id)
    result = await member.slash(place, "sewerpirats move", action=f"bid {held + 1}")
    assert result.ephemeral and said(result, f"You cannot bid more cards than you hold ({held}).")
    assert (await table.record(auction.id)).version == auction.version
    assert not quick_images.problems
