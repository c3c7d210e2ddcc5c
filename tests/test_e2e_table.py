"""Around the table, end to end: substitutes taking a seat with a hidden hand, rematches, followers who
never see a secret, and threads closed when a game is abandoned or long finished."""

from __future__ import annotations

import discord

from data.store import GameRecord
from games.core import format_seats
from games.i18n import localize
from games.registry import GAMES
from tests.conftest import World
from tests.support import raw_messages, said, texts

SEWER = GAMES["sewerpirats"].game


async def start(world: World, kind: str, host: str, invitees: list[str], **options) -> GameRecord:
    await world.table.challenge(kind, host, invitees, **options)
    return await world.table.latest_game()


def dms(world: World, member) -> list:
    return [m for m in raw_messages(world.env, member.user.dm_channel.id) if m.author_id == world.bot.user.id]


def hand_lines(record: GameRecord, seat: int) -> list[str]:
    summary = localize(format_seats(SEWER.seat_summary(SEWER.view(record.state, seat)), record.names))
    return [line for line in summary.splitlines() if line.startswith(("**Your hand**", "**Your tok"))]


async def test_a_substitute_takes_a_seat_with_its_hidden_hand(world: World) -> None:
    table = world.table
    record = await start(world, "sewerpirats", "Anne", ["Ben"], variant="standard")
    ben, dara = table.members["Ben"], table.members["Dara"]
    seat = record.seat_of(ben.id)
    thread = table.place(record)
    # Someone who is neither the seat's player, the host nor a moderator cannot hand it over.
    refused = await table.members["Calico"].slash(thread, "games substitute", seat="Ben", member=dara)
    assert said(refused, "Only the seat's player"), texts(refused)
    # A member already playing cannot take a second seat.
    refused = await ben.slash(thread, "games substitute", seat="Ben", member=table.members["Anne"])
    assert said(refused, "already plays in this game"), texts(refused)
    offered = await ben.slash(thread, "games substitute", seat="Ben", member=dara)
    assert said(offered, "Offer posted")
    offer = [m for m in raw_messages(world.env, record.place_id) if not m.is_ephemeral][-1]
    assert offer.ping_user_ids == [dara.id]
    # Only Dara can answer it.
    wrong = await table.members["Calico"].click(thread.last_message, label="Accept")
    assert said(wrong, "This offer is for someone else")
    taken = await dara.click(thread.last_message, label="Accept")
    record = await table.record(record.id)
    assert record.seats[seat].user_id == dara.id and record.seats[seat].name == "Dara"
    # Dara sees the seat's private view at once; Ben can no longer act or see it.
    assert any(line in "\n".join(texts(taken)) for line in hand_lines(record, seat)), texts(taken)
    hand = await ben.slash(thread, "sewerpirats hand")
    assert said(hand, "You are not playing"), texts(hand)
    assert all(not any(line in m.content for line in hand_lines(record, seat)) for m in dms(world, ben)[-1:])
    assert dms(world, dara), "the newcomer gets the seat's private message"
    record = await table.play_to_end(record.id)
    assert record.status == "finished"


async def test_rematch_starts_in_a_new_thread_once_every_member_clicked(world: World) -> None:
    table = world.table
    first = await start(world, "piratz", "Anne", ["Ben"], ai=1, blind=True)
    first = await table.play_to_end(first.id)
    final = next(m for m in table.place(first).history() if "is over" in m.content)
    anne, ben = table.members["Anne"], table.members["Ben"]
    outsider = await table.members["Calico"].click(final, label="Rematch")
    assert said(outsider, "Only the players")
    proposed = await anne.click(final, label="Rematch")
    assert said(proposed, "Rematch proposed"), texts(proposed)
    assert len(await world.bot.tables.cache.game_ids()) == 0  # not before Ben agrees
    await ben.click(final, label="Rematch")
    second = await table.latest_game()
    assert second.id != first.id and second.seed != first.seed
    assert second.options == first.options and second.clock == first.clock
    assert sorted(s.user_id or 0 for s in second.seats) == sorted(s.user_id or 0 for s in first.seats)
    assert second.thread_id not in (None, first.thread_id)
    again = await ben.click(final, label="Rematch")
    assert said(again, "has started already")


async def test_a_follower_gets_every_turn_and_never_a_secret(world: World) -> None:
    table = world.table
    record = await start(world, "sewerpirats", "Anne", ["Ben"], variant="standard")
    edda = table.members["Edda"]
    player = await table.members["Anne"].click(table.board_message(record), label="Follow")
    assert said(player, "You play in")
    followed = await edda.click(table.board_message(record), label="Follow")
    assert followed.ephemeral and said(followed, "You follow")
    secrets: set[str] = set()
    for _ in range(12):
        record = await table.play_moves(record.id, 1)
        for seat in range(len(record.seats)):
            secrets.update(hand_lines(record, seat))
    updates = dms(world, edda)
    boards = [m for m in raw_messages(world.env, record.place_id) if m.attachments]
    assert len(updates) == len(boards) - 1 >= 4  # turn by turn: each board posted since they followed
    assert all(m.attachments for m in updates)
    assert not any(line in m.content for m in updates for line in secrets)
    stop = await edda.slash(table.place(record), "games follow")
    assert said(stop, "no longer follow")
    before = len(dms(world, edda))
    await table.play_moves(record.id, 2)
    assert len(dms(world, edda)) == before


async def test_abandon_closes_the_thread_and_finished_threads_are_archived_later(world: World) -> None:
    table = world.table
    record = await start(world, "piratz", "Anne", ["Ben"])
    await table.members["Anne"].slash(table.place(record), "games abandon")
    closed = world.env.backend.channels[record.thread_id].thread_metadata
    assert closed.archived and closed.locked

    finished = await table.play_to_end((await start(world, "piratz", "Calico", ["Dara"])).id)
    assert not world.env.backend.channels[finished.thread_id].thread_metadata.archived
    await world.restart()  # the archive timer survives a restart
    await world.env.advance_time(world.bot.config.archive_after + 1)
    assert world.env.backend.channels[finished.thread_id].thread_metadata.archived


async def test_a_moderator_may_hand_over_a_seat(world: World) -> None:
    table = world.table
    mods = table.guild.create_role("mods", permissions=discord.Permissions(manage_threads=True))
    mod = table.guild.add_member(world.env.create_user("mod", global_name="Mod"), roles=[mods])
    record = await start(world, "piratz", "Anne", ["Ben"])
    offered = await mod.slash(table.place(record), "games substitute", seat="2", member=table.members["Edda"])
    assert said(offered, "Offer posted"), texts(offered)
