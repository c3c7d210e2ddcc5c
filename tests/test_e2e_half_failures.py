"""When Discord half-fails, or does what a quiet bot would not notice: a game's thread deleted under it, a
6-player Sea Rats! table, private views older than an hour, interactions older than 15 minutes (issue 52).

Discord's rules SimCord does not model (the hour-old edit limit, expired interaction tokens) are emulated by
:mod:`tests.discord_rules`."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogs.app import TableBot, create_bot
from cogs.offline.driver import play_buttons
from games.i18n import localize
from games.registry import GAMES
from tables import notices
from tests.conftest import World
from tests.discord_rules import DiscordRules
from tests.support import raw_messages


@pytest.fixture
def simcord_bot(database: Path) -> TableBot:
    """The demo's seed: its 6-player Sea Rats! table has the AI move first, while the thread opens."""
    return create_bot(database=database, ai_delay=0, seed="demo", warm_renderers=False)


async def test_a_deleted_thread_moves_the_game_to_its_channel_at_once(world: World) -> None:
    """Case 5: the thread is deleted while Ben is to move: Discord's event moves the game to the channel at
    once, which says so once and shows the board with its buttons, pinging Ben; he plays on there, by button
    and by a typed move whose autocomplete finds the game."""
    table = world.table
    await table.challenge("piratz", "Anne", ["Ben"])
    record = await table.latest_game()
    thread_id = record.thread_id
    assert thread_id is not None
    world.env.backend.delete_channel(thread_id)
    await world.env.settle()
    moved = await table.record(record.id)
    assert moved.thread_id is None and moved.place_id == record.channel_id
    channel = raw_messages(world.env, record.channel_id)
    notes = [m for m in channel if "is gone: the game goes on here" in m.content]
    assert len(notes) == 1
    boards = [m for m in channel if m.id > notes[0].id and play_buttons(m)]
    assert len(boards) == 1
    (seat,) = [s for s in table.humans_to_act(moved)]
    member = table.member_of(moved, seat)
    assert boards[0].ping_user_ids == [member.id]
    offered = await member.autocomplete(table.channel, f"{record.kind} move", "action", "")
    assert offered, "autocomplete in the channel finds no game"
    after = await table.play_moves(record.id, 2)
    assert after.version >= moved.version + 2
    assert not any("is gone" in m.content for m in raw_messages(world.env, record.channel_id) if m.id > notes[0].id)


async def test_a_six_player_sea_rats_table_is_played_in_its_thread(world: World) -> None:
    """Case 6: the four AI seats moved while the thread opened, and the commit's copy of the game (made before
    the thread was known) replaced it: the game went on in the channel, where every typed move was refused.
    Now it is played in its thread, by typed moves and buttons."""
    table = world.table
    await table.challenge("searats", "Anne", ["Ben"], ai=4)
    record = await table.latest_game()
    assert record.thread_id is not None and record.place_id == record.thread_id
    assert (await world.bot.tables.store.games.load(record.id)).thread_id == record.thread_id
    for i in range(6):
        record = await table.record(record.id)
        seat = table.human_to_act(record)
        assert seat is not None
        turn = await (table.move if i % 2 else table.click_through)(record, seat, table.pick(record, seat))
        assert not any("no game in progress" in (r.response.content if r.response else "") for r in turn.results)
    assert (await table.record(record.id)).version > record.version
    assert not [m for m in raw_messages(world.env, record.channel_id) if m.content.startswith("🎲")]


async def test_a_game_in_a_channel_where_threads_cannot_be_made_is_played_there(world: World) -> None:
    """Without the permission to open threads, the game is played in its channel: by buttons and by typed
    moves, to its end."""
    import discord

    table = world.table
    table.channel = table.guild.create_text_channel(
        "no-threads", overwrites={world.bot.user: discord.PermissionOverwrite(create_public_threads=False)}
    )
    await table.challenge("piratz", "Anne", ["Ben"])
    record = await table.latest_game()
    assert record.thread_id is None and record.place_id == table.channel.id
    ended = await table.play_to_end(record.id, via="mixed")
    assert ended.status == "finished"
    finals = [m for m in raw_messages(world.env, table.channel.id) if "is over" in m.content]
    assert len(finals) == 1


def private_views(world: World, who: str) -> list:
    dm = world.table.members[who].user.dm_channel
    return [m for m in raw_messages(world.env, dm.id) if "Your private view" in m.content] if dm else []


async def test_a_private_view_older_than_an_hour_whose_edits_are_used_up_is_sent_anew(
    world: World, discord_rules: DiscordRules
) -> None:
    """Case 8: Discord allows only so many edits of a message older than an hour (30046, emulated). The private
    view, one DM edited in place, is then sent as a new DM, which later views edit; nothing is retried for ever."""
    table = world.table
    discord_rules.limit_old_edits()
    await table.challenge("sewerpirats", "Anne", ["Ben"], clock="off", variant="standard")
    record = await table.latest_game()
    record = await table.play_moves(record.id, 2)
    first = {who: private_views(world, who) for who in ("Anne", "Ben")}
    assert all(len(views) == 1 for views in first.values())
    await world.env.advance_time(3700)
    record = await table.play_moves(record.id, 4)
    await world.env.settle()
    for who in ("Anne", "Ben"):
        views = private_views(world, who)
        assert len(views) == 2, who  # the old one, left as it was, and a new one
        seat = next(s.seat for s in record.seats if s.name == who)
        current = notices.private_message(GAMES["sewerpirats"], record, seat)
        assert views[-1].content.endswith(localize(current.content).split("\n", 1)[1]), who
    pending = await world.bot.tables.store.outbox.pending()
    assert not [e for e in pending if e.attempts], "a row is being retried"


async def test_answers_whose_interaction_expired_go_by_dm_or_the_channel(
    world: World, discord_rules: DiscordRules
) -> None:
    """Case 9: an interaction's token lives 15 minutes; a follow-up sent after that (emulated) fails with
    Unknown Webhook. A private answer then goes by DM to its member, a public one in the channel."""
    table = world.table
    await table.challenge("piratz", "Anne", ["Ben"])
    record = await table.latest_game()
    discord_rules.expire_follow_ups()
    anne = table.members["Anne"]
    await anne.slash(table.place(record), "piratz hand")
    dm = anne.user.dm_channel
    assert dm is not None and any("Your private view" in m.content for m in raw_messages(world.env, dm.id))
    before = len(raw_messages(world.env, table.place(record).id))
    await anne.slash(table.place(record), "games stats")
    posted = raw_messages(world.env, table.place(record).id)[before:]
    assert any(m.attachments and m.attachments[0]["filename"].startswith("stats-") for m in posted)
