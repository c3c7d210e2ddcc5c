"""Turn clocks end to end: half-time reminders, time-outs decided by the AI without showing a secret,
players marked away and coming back, out-of-turn decisions, and restarts in every clock state."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cogs.app import TableBot, create_bot
from data.store import GameRecord
from games.core import format_seats
from games.registry import GAMES, registered
from tests.conftest import World
from tests.support import opened, raw_messages, said, texts
from tests.toy_game import TOY

SEWER = GAMES["sewerpirats"].game
TWO_MINUTES = 120


@pytest.fixture
def simcord_bot(database) -> Iterator[TableBot]:
    with registered(TOY):
        yield create_bot(database=database, ai_delay=0, seed="clocks", warm_renderers=False)


async def start(world: World, kind: str, host: str, invitees: list[str], **options) -> GameRecord:
    await world.table.challenge(kind, host, invitees, clock="2m", **options)
    record = await world.table.latest_game()
    assert record.clock == TWO_MINUTES
    return record


def thread_text(world: World, record: GameRecord) -> str:
    return "\n".join(m.content for m in raw_messages(world.env, record.place_id) if not m.is_ephemeral)


def hand_lines(record: GameRecord, seat: int) -> list[str]:
    """The private lines of a seat's Sewer Pirats view (its hand and tokens)."""
    summary = format_seats(SEWER.seat_summary(SEWER.view(record.state, seat)), record.names)
    return [line for line in summary.splitlines() if line.startswith(("**Your hand**", "**Your tok"))]


async def test_the_board_shows_the_deadline_and_half_time_reminds_the_player(world: World) -> None:
    table = world.table
    record = await start(world, "sewerpirats", "Anne", ["Ben"], variant="standard")
    (seat,) = SEWER.to_act(record.state)
    member = table.member_of(record, seat)
    board = next(m for m in raw_messages(world.env, record.place_id) if m.id == record.message_id)
    deadline = int(record.created_at) + TWO_MINUTES
    assert f"<@{member.id}> (⏰ <t:{deadline}:R>)" in board.content
    await world.env.advance_time(TWO_MINUTES / 2 + 1)
    reminder = raw_messages(world.env, record.place_id)[-1]
    assert "half your time" in reminder.content and reminder.ping_user_ids == [member.id]
    assert (await table.record(record.id)).version == record.version  # only a reminder so far


async def test_a_time_out_plays_for_an_absent_player_without_showing_their_hand(world: World) -> None:
    table = world.table
    record = await start(world, "sewerpirats", "Anne", ["Ben"], variant="standard")
    (seat,) = SEWER.to_act(record.state)
    absent = record.seats[seat]
    secrets = hand_lines(record, seat)
    await world.env.advance_time(TWO_MINUTES + 1)
    after = await table.record(record.id)
    assert after.version > record.version
    assert (await world.bot.tables.store.games.actions(record.id))[0][1] == seat  # the AI decided for the absent seat
    text = thread_text(world, after)
    assert f"{absent.name}'s time ran out: the AI decided for them." in text
    for line in secrets + hand_lines(after, seat):
        assert line not in text  # never the absent player's hand
    assert not any(line in m.content for m in raw_messages(world.env, after.channel_id) for line in secrets)
    assert after.seats[seat].timeouts == 1 and not after.seats[seat].away


async def test_two_time_outs_make_a_player_away_until_they_use_the_game_again(world: World) -> None:
    table = world.table
    record = await start(world, "piratz", "Anne", ["Ben"])
    ben = table.members["Ben"]
    bens = record.seat_of(ben.id)
    for _ in range(60):  # Anne plays her turns at once; Ben never answers
        record = await table.record(record.id)
        if record.seats[bens].away or record.status != "active":
            break
        if table.human_to_act(record) == record.seat_of(table.members["Anne"].id):
            await table.play_moves(record.id, 1)
        else:
            await world.env.advance_time(TWO_MINUTES + 1)
    assert record.seats[bens].away, "Ben should be away after two time-outs in a row"
    assert f"{record.seats[bens].name} is away now" in thread_text(world, record)
    # While away, the AI plays Ben's turns at once, without waiting for the clock.
    played = len([a for a in await world.bot.tables.store.games.actions(record.id) if a[1] == bens])
    for _ in range(40):
        if (
            record.status != "active"
            or len([a for a in await world.bot.tables.store.games.actions(record.id) if a[1] == bens]) > played
        ):
            break
        await table.play_moves(record.id, 1)
        record = await table.record(record.id)
    assert len([a for a in await world.bot.tables.store.games.actions(record.id) if a[1] == bens]) > played
    assert record.seats[bens].away
    # Any button brings him back: "My hand" here.
    result = await ben.click(table.board_message(record), label="My hand")
    assert result.ephemeral, texts(result)
    record = await table.record(record.id)
    assert not record.seats[bens].away and record.seats[bens].timeouts == 0


async def test_out_of_turn_secret_choices_have_clocks_too(world: World) -> None:
    table = world.table
    record = await start(world, "oddsevens", "Anne", ["Ben"])
    anne = table.members["Anne"]
    button = table.board_button(record)
    picker = await anne.click(table.board_message(record), custom_id=button)
    await anne.click(opened(picker), custom_id=f"{button}:0")
    await world.env.advance_time(TWO_MINUTES + 1)
    record = await table.record(record.id)
    assert record.state["round"] == 2  # Ben's number was chosen for him and the round resolved
    assert "Ben's time ran out" in thread_text(world, record)
    assert record.seats[1].timeouts == 1 and record.seats[0].timeouts == 0


async def test_a_restart_neither_loses_nor_repeats_a_reminder_or_a_time_out(world: World) -> None:
    table = world.table
    record = await start(world, "sewerpirats", "Anne", ["Ben"], variant="standard")

    def count(fragment: str) -> int:
        return sum(fragment in m.content for m in raw_messages(world.env, record.place_id))

    await world.env.advance_time(TWO_MINUTES / 2 + 1)
    assert count("half your time") == 1
    await world.restart()
    await world.env.advance_time(10)
    assert count("half your time") == 1  # not repeated after the restart
    await world.env.advance_time(TWO_MINUTES / 2)
    after = await table.record(record.id)
    assert count("time ran out") == 1 and after.version == record.version + 1  # not lost either
    await world.restart()
    await world.env.advance_time(1)
    assert count("time ran out") == 1 and (await table.record(record.id)).version == record.version + 1


async def test_clock_off_never_decides_for_anyone(world: World) -> None:
    table = world.table
    await table.challenge("piratz", "Anne", ["Ben"], clock="off")
    record = await table.latest_game()
    assert record.clock == 0
    await world.env.advance_time(7 * 24 * 3600)
    assert (await table.record(record.id)).version == record.version
    assert "⏰" not in table.board_message(record).content


async def test_the_clock_is_offered_with_its_choices(world: World) -> None:
    result = await world.table.members["Anne"].slash(
        world.table.channel, "piratz new", player2=world.table.members["Ben"], clock="10m"
    )
    assert not result.ephemeral and said(result, "turn clock: 10 minutes"), texts(result)


async def test_a_member_who_takes_over_a_seat_gets_the_whole_time_for_its_decision(world: World) -> None:
    """Issue 52, case 4: Dara takes Ben's seat 3 s before its deadline; the clock of that decision starts when
    she sits down, so she is reminded at half time and the AI decides only at her own deadline."""
    table = world.table
    record = await start(world, "piratz", "Anne", ["Ben"])
    (seat,) = GAMES["piratz"].game.to_act(record.state)
    holder = record.seats[GAMES["piratz"].game.controller(record.state, seat)].name
    thread = table.place(record)
    await world.env.advance_time(TWO_MINUTES - 3)
    offered = await table.members[holder].slash(thread, "games substitute", seat=holder, member=table.members["Dara"])
    assert said(offered, "Offer posted")
    offer = next(m for m in reversed(thread.history()) if "offers you" in m.content)
    await table.members["Dara"].click(offer, label="Accept")
    await world.env.advance_time(10)
    after = await table.record(record.id)
    assert after.version == record.version, "the newcomer inherited the old player's clock"
    assert "time ran out" not in thread_text(world, after)
    await world.env.advance_time(TWO_MINUTES / 2 - 10 + 1)
    reminder = raw_messages(world.env, record.place_id)[-1]
    assert "half your time" in reminder.content and reminder.ping_user_ids == [table.members["Dara"].id]
    await world.env.advance_time(TWO_MINUTES / 2)
    timed_out = await table.record(record.id)
    assert timed_out.version > record.version
    assert "Dara's time ran out" in thread_text(world, timed_out)
