"""Regressions from the review of the first two games, driven through the real bot in SimCord: games
sharing a channel, moves that were saved although Discord failed, passing DM failures, names that try
to ping, attention (pings and DMs), where results are posted, and the words of boards and openings."""

from __future__ import annotations

import itertools

from games.i18n import localize
from games.registry import GAMES
from tables.delivery import RETRY as RETRY_DELAYS
from tests.conftest import World
from tests.discord_rules import posted_as
from tests.support import raw_messages, said, texts

PIRATZ = GAMES["piratz"].game


async def duel(world: World, host: str = "Anne", guest: str = "Ben", **options) -> int:
    await world.table.challenge("piratz", host, [guest], **options)
    return (await world.table.latest_game()).id


async def test_commands_reach_the_callers_game_when_games_share_a_channel(world: World) -> None:
    table = world.table
    # No thread permission: both games are played in the channel itself.
    world.env.inject_error("POST", "/channels/*/threads", status=403, times=None)
    world.env.inject_error("POST", "/channels/*/messages/*/threads", status=403, times=None)
    first = await duel(world, "Anne", "Ben")
    second = await duel(world, "Calico", "Dara")
    a, b = await table.record(first), await table.record(second)
    assert a.thread_id is None and b.thread_id is None and a.place_id == b.place_id
    # The first game's players still reach their game (not the newest one) with every command.
    mover = table.member_of(a, PIRATZ.to_act(a.state)[0])
    result = await mover.slash(table.channel, "piratz move", action="reveal")
    assert said(result, "✅"), texts(result)
    assert (await table.record(first)).version == 1 and (await table.record(second)).version == 0
    hand = await table.members["Ben"].slash(table.channel, "piratz hand")
    assert said(hand, f"Piratz #{first}"), texts(hand)
    board = await table.members["Dara"].slash(table.channel, "piratz board")
    assert said(board, "Board posted")
    assert (await table.record(second)).message_id == raw_messages(world.env, table.channel.id)[-1].id
    # Boards in a shared channel say which game they belong to.
    assert f"Piratz #{second}" in raw_messages(world.env, table.channel.id)[-1].content
    # Someone in both games is asked which one, unless the move fits only one of them.
    third = await duel(world, "Anne", "Edda")
    ask = await table.members["Anne"].slash(table.channel, "piratz resign")
    assert said(ask, "You play several games here") and said(ask, f"#{first}") and said(ask, f"#{third}")
    resigned = await table.members["Anne"].slash(table.channel, "piratz resign", game=third)
    assert said(resigned, "You resigned")
    assert (await table.record(third)).status == "finished" and (await table.record(first)).status == "active"


async def test_a_saved_move_whose_confirmation_fails_says_it_was_saved(world: World) -> None:
    table = world.table
    game_id = await duel(world)
    record = await table.record(game_id)
    mover = table.member_of(record, PIRATZ.to_act(record.state)[0])
    # The ✅ answer of /piratz move fails: the move is saved and the player is told so.
    world.env.inject_error("POST", "/interactions/*/callback", status=500)
    result = await mover.slash(table.place(record), "piratz move", action="reveal")
    assert said(result, "Your move was saved") and not said(result, "try again"), texts(result)
    assert (await table.record(game_id)).version == record.version + 1


async def test_a_passing_dm_failure_is_retried_and_not_called_closed_dms(world: World) -> None:
    table = world.table
    anne = table.members["Anne"]
    await world.bot.tables.seats.set_notify(anne.id, True)
    world.env.inject_error("POST", f"/channels/{anne.user.dm_channel.id}/messages", status=503, times=1)
    game_id = await duel(world, "Ben", "Anne")
    record = await table.record(game_id)
    thread = "\n".join(m.content for m in raw_messages(world.env, record.place_id))
    assert "can't send you direct messages" not in thread
    dms = lambda: [m for m in raw_messages(world.env, anne.user.dm_channel.id) if "Your turn" in m.content]  # noqa: E731
    while record.seat_of(anne.id) not in PIRATZ.to_act(record.state):
        record = await table.play_moves(game_id, 1)
    for delay in RETRY_DELAYS:
        if dms():
            break
        await world.env.advance_time(delay)
    assert len(dms()) == 1  # delivered once the passing failure is over, and only once


async def test_a_display_name_never_pings_anyone(world: World) -> None:
    table = world.table
    mallory = table.guild.add_member(
        world.env.create_user("mallory", global_name=f"@everyone <@{table.members['Ben'].id}>")
    )
    table.members["Mallory"] = mallory
    game_id = await duel(world, "Anne", "Mallory")
    record = await table.play_to_end(game_id)
    assert record.status == "finished"
    ben = table.members["Ben"].id
    for channel in (record.place_id, record.channel_id):
        for m in raw_messages(world.env, channel):
            assert ben not in m.ping_user_ids and not m.mention_everyone, m.content
            assert "@everyone" not in m.content.replace("@\u200beveryone", ""), m.content


async def test_the_board_pings_only_a_new_decider(world: World) -> None:
    table = world.table
    game_id = await duel(world)
    record = await table.play_to_end(game_id)
    log = await world.bot.tables.store.games.actions(game_id)
    # A board per turn (no AI here): the opening one, then one each time the decision passes, which pings
    # the member whose turn has come, and nobody else (the board updated while they act pings nobody). Who a
    # post pinged is in its request (an edit of a message recomputes its mentions, and notifies nobody).
    path, backend = f"/channels/{record.place_id}/messages", world.env.backend
    posts = [  # the bot's own posts and interactions' follow-ups there
        r.json
        for r in backend.http_requests
        if r.method == "POST" and path in (r.path, posted_as(backend, r.method, r.path, r.json)) and r.json
    ]
    boards = [
        p
        for p in posts
        if any(str(a.get("filename", "")).split("-")[-1][:-4].isdigit() for a in p.get("attachments", []))
    ]
    actors = [seat for _seq, seat, _action in log]
    turns = [actors[0]] + [now for before, now in itertools.pairwise(actors) if now != before]
    assert len(boards) == len(turns)
    pinged = [sorted(int(u) for u in b.get("allowed_mentions", {}).get("users", [])) for b in boards]
    assert pinged[0] == []  # the opening message pinged the players
    assert pinged[1:] == [[record.seats[seat].user_id] for seat in turns[1:]]
    assert all(
        not r.json or not r.json.get("allowed_mentions", {}).get("users")
        for r in world.env.backend.http_requests
        if r.method == "PATCH"
    )


async def test_the_result_is_posted_where_the_game_began(world: World) -> None:
    table = world.table
    game_id = await duel(world)
    record = await table.play_to_end(game_id)
    line = raw_messages(world.env, table.channel.id)[-1].content
    assert line.startswith("🏁") and f"Piratz #{record.id}" in line
    assert f"/{record.thread_id}" in line and "won by" in line


async def test_board_messages_are_one_short_line_and_the_image_describes_the_position(world: World) -> None:
    table = world.table
    game_id = await duel(world, blind=False)
    record = await table.record(game_id)
    opening, board = raw_messages(world.env, record.place_id)[:2]
    assert "`blind`: off" in opening.content and "False" not in opening.content
    assert board.content.count("Piratz") == 0  # the thread's name says which game it is
    assert len(board.content.splitlines()) == 1
    (image,) = board.attachments
    assert localize(PIRATZ.summary(PIRATZ.view(record.state, None)))[:20].split("{")[0] in image["description"]
    record = await table.play_to_end(game_id)
    final = next(m for m in raw_messages(world.env, record.place_id) if "is over" in m.content)
    assert final.attachments[0].get("description")  # the final scoring has its alt text too
