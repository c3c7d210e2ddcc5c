"""End to end for Sewer Rat: the real bot in SimCord — a 3-player game by buttons, a 2-vs-2 game by
``/sewerrat move``, a displaced rat moved by its owner while another rat has the turn, a tile change
refused then cancelled through the pickers, dice in the thread and the hand command."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cogs.app import TableBot, create_bot
from data.store import GameRecord
from games.core import Choice
from games.i18n import localize
from games.registry import GAMES
from tests.conftest import World
from tests.support import raw_messages, said, texts

RAT = GAMES["sewerrat"].game
SEED = "rat-3"
"""The bot's seed for its first game: with AI choices for every seat, a 2-vs-2 game on this seed has a
rat displaced (with a choice of direction) while another rat has the turn, at step 12."""


@pytest.fixture
def simcord_bot(database) -> Iterator[TableBot]:
    yield create_bot(database=database, ai_delay=0, seed=SEED, warm_renderers=False)


async def start(world: World, invitees: list[str], ai: int = 0, **options) -> GameRecord:
    await world.table.challenge("sewerrat", "Anne", invitees, ai=ai, **options)
    return await world.table.latest_game()


def thread_lines(world: World, record: GameRecord) -> list[str]:
    return [line for m in raw_messages(world.env, record.place_id) for line in m.content.splitlines()]


def choice(record: GameRecord, seat: int, text: str) -> Choice:
    return next(c for c in RAT.choices(record.state, seat) if c.action.encode() == text)


async def play_until(world: World, record: GameRecord, done) -> GameRecord:
    """Play the AI's choices for the members, by buttons, until ``done(state)``."""
    table = world.table
    for _ in range(200):
        if done(record.state):
            return record
        seat = RAT.to_act(record.state)[0]
        await table.click_through(record, seat, table.pick(record, seat))
        record = await table.record(record.id)
    raise AssertionError("the position never came")


async def test_three_players_play_to_the_end_with_buttons(world: World) -> None:
    record = await start(world, ["Ben", "Calico"])
    assert record.state["seats"] == 3 and RAT.teams(record.state) == ((0,), (1,), (2,))
    record = await world.table.play_to_end(record.id, via="buttons")
    assert record.status == "finished" and record.result["winners"]
    lines = thread_lines(world, record)
    assert any(line.startswith("🎲") and "rolls yellow" in line for line in lines)
    final = raw_messages(world.env, record.place_id)[-1]
    assert final.attachments and final.attachments[0]["filename"].endswith("final.png")
    assert await world.bot.tables.reads.replay(record.id) == record.state


async def test_two_against_two_by_the_move_command(world: World) -> None:
    record = await start(world, ["Ben", "Calico", "Dara"], teams="2")
    assert RAT.teams(record.state) == ((0, 2), (1, 3))
    record = await world.table.play_to_end(record.id, via="move")
    assert record.status == "finished"
    winners = tuple(record.result["winners"])
    assert winners in ((0, 2), (1, 3))  # a team wins together, the rat that fell first included
    assert await world.bot.tables.reads.replay(record.id) == record.state


async def test_a_displaced_rats_owner_chooses_where_it_flees(world: World) -> None:
    table = world.table
    record = await start(world, ["Ben", "Calico", "Dara"], teams="2")
    record = await play_until(
        world, record, lambda s: s["phase"] == "displace" and s["actor"] != s["mover"] and s["step"] >= 12
    )
    owner, mover = record.state["actor"], record.state["mover"]
    names = [seat.name for seat in record.seats]
    assert f"a trap falls on {names[owner]}'s rat: where does it flee?" in "\n".join(thread_lines(world, record))
    labels = [c.label for row in table.board_message(record).components for c in row.children]
    assert any(label.startswith("Flee the trap") for label in labels)
    # the rat whose turn it is cannot answer for the displaced one
    result = await table.member_of(record, mover).click(
        table.board_message(record), custom_id=table.board_button(record)
    )
    assert said(result, "it flees first, then your turn goes on"), texts(result)  # why, not "not your turn"
    before = record.state["rats"][owner]
    flee = RAT.choices(record.state, owner)[-1]
    await table.click_through(record, owner, flee)
    after = await table.record(record.id)
    assert after.state["rats"][owner] != before and after.version == record.version + 1
    assert any("flees the trap" in line for line in thread_lines(world, after))


async def test_a_tile_change_is_chosen_step_by_step_refused_then_cancelled(world: World) -> None:
    table = world.table
    record = await start(world, ["Ben"])
    record = await play_until(world, record, lambda s: s["phase"] == "after")
    seat = record.state["actor"]
    square = next(c.action.args[0] for c in RAT.choices(record.state, seat) if c.action.verb == "tile")
    await table.click_through(record, seat, choice(record, seat, f"tile {square}"))
    record = await table.record(record.id)
    assert record.state["phase"] == "tile"
    old = record.state["board"][record.state["picking"]]
    lay = next(
        c
        for c in RAT.choices(record.state, seat)
        if c.action.verb == "lay" and localize(c.path[-1]) != "Keep the tile there"
    )
    assert localize(lay.path[0]) == f"New tile for {square}" and len(lay.path) == 3  # shape, then rotation
    await table.click_through(record, seat, lay)
    record = await table.record(record.id)
    labels = [c.label for row in table.board_message(record).components for c in row.children]
    assert "Confirm changes" in labels and "Cancel" in labels
    await table.click_through(record, seat, choice(record, seat, "confirm"))  # one tile alone never fits
    record = await table.record(record.id)
    assert record.state["refused"] and record.state["board"][record.state["pending"][0][0]] == old
    assert any("The tile change is refused" in line for line in thread_lines(world, record))
    await table.click_through(record, seat, choice(record, seat, "cancel"))
    record = await table.record(record.id)
    assert record.state["pending"] == [] and record.state["mover"] != seat


async def test_hand_shows_the_players_rat_team_and_moves(world: World) -> None:
    table = world.table
    record = await start(world, ["Ben", "Calico", "Dara"], teams="2")
    record = await play_until(world, record, lambda s: s["phase"] == "move")
    seat = record.state["actor"]
    member = table.member_of(record, seat)
    result = await member.slash(table.place(record), "sewerrat hand")
    assert said(result, "Your rat is on r") and said(result, "Your team:") and said(result, "`move "), texts(result)
