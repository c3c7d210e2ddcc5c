"""End to end: the real bot in SimCord, driven as members would — slash commands, buttons, DMs,
restarts, time and Discord faults."""

from __future__ import annotations

import gc

import pytest
import simcord

from bench.budget import passes_to_members
from bot import create_bot
from games.registry import GAMES
from tables import menus
from tables.seating import seed_digest
from tests.conftest import World
from tests.support import said, texts

PIRATZ = GAMES["piratz"].game


def duel_roles(table, record):
    """The members of a duel: the one who must act now, and the one waiting."""
    mover = PIRATZ.to_act(record.state)[0]
    return table.member_of(record, mover), table.member_of(record, 1 - mover)


async def start_duel(world: World, **options) -> int:
    """Anne challenges Ben; Ben accepts. Returns the game id."""
    await world.table.challenge("piratz", "Anne", ["Ben"], **options)
    return (await world.table.latest_game()).id


async def test_challenge_and_whole_game_with_buttons(world: World) -> None:
    table = world.table
    await table.challenge("piratz", "Anne", ["Ben"], ai=1)
    record = await table.latest_game()
    thread = table.place(record)
    assert thread.is_thread and "Piratz" in thread.name and "Anne" in thread.name
    opening = thread.history()[0].content
    assert seed_digest(record.seed) in opening and record.seed not in opening

    record = await table.play_to_end(record.id, via="buttons")

    assert record.status == "finished"
    history = thread.history()
    final = history[-1]
    assert "is over" in final.content and f"Seed: `{record.seed}`" in final.content
    assert final.attachments and final.attachments[0].filename.endswith("final.png")
    boards = [m for m in history if m.attachments and "-final" not in m.attachments[0].filename]
    log = await world.bot.tables.store.games.actions(record.id)
    assert len(log) == record.version
    start = PIRATZ.new_game(len(record.seats), record.options, record.seed)
    assert len(boards) <= passes_to_members(PIRATZ, record.seats, start, log)  # a board a turn, not a move
    assert all(not m.components for m in boards)  # the game is over: no board keeps buttons
    assert record.result is not None and record.result["winners"]
    assert await world.bot.tables.reads.replay(record.id) == record.state


async def test_whole_game_by_move_command(world: World) -> None:
    game_id = await start_duel(world)
    record = await world.table.play_to_end(game_id, via="move")
    assert record.status == "finished"
    assert len(await world.bot.tables.store.games.actions(game_id)) == record.version


async def test_decline_cancels(world: World) -> None:
    table = world.table
    await table.members["Anne"].slash(table.channel, "piratz new", player2=table.members["Ben"])
    invitation = table.channel.last_message
    await table.members["Ben"].click(invitation, label="Decline")
    message = table.channel.last_message
    assert "declined" in message.content and not message.components
    assert await world.bot.tables.cache.game_ids() == []


async def test_invitation_expires(world: World) -> None:
    table = world.table
    await table.members["Anne"].slash(table.channel, "piratz new", player2=table.members["Ben"])
    invitation = table.channel.last_message
    await world.env.advance_time(world.bot.config.invite_ttl + 1)
    message = table.channel.last_message
    assert message.id == invitation.id and "expired" in message.content and not message.components
    assert await world.bot.tables.cache.game_ids() == []


async def test_invitation_survives_restart_then_expires(world: World) -> None:
    table = world.table
    await table.members["Anne"].slash(table.channel, "piratz new", player2=table.members["Ben"])
    await world.restart()
    await world.env.advance_time(world.bot.config.invite_ttl + 1)
    assert "expired" in table.channel.last_message.content


async def test_only_invitees_accept(world: World) -> None:
    table = world.table
    await table.members["Anne"].slash(table.channel, "piratz new", player2=table.members["Ben"])
    result = await table.members["Calico"].click(table.channel.last_message, label="Accept")
    assert result.ephemeral and said(result, "not addressed to you")


async def test_open_table(world: World) -> None:
    table = world.table
    anne, ben, calico = (table.members[n] for n in ("Anne", "Ben", "Calico"))
    await anne.slash(table.channel, "piratz open")
    lobby = table.channel.last_message
    result = await anne.click(lobby, label="Start")
    assert said(result, "needs at least 2 players")
    await ben.click(lobby, label="Join")
    await calico.click(lobby, label="Join")
    assert "Calico" in table.channel.last_message.content or "<@" in table.channel.last_message.content
    await calico.click(table.channel.last_message, label="Leave")
    result = await ben.click(table.channel.last_message, label="Start")
    assert said(result, "Only the host")
    await anne.click(table.channel.last_message, label="Start")
    record = await table.latest_game()
    assert [s.name for s in record.seats] == ["Anne", "Ben"]
    assert (await table.play_to_end(record.id)).status == "finished"


async def test_open_table_cancel(world: World) -> None:
    table = world.table
    await table.members["Anne"].slash(table.channel, "piratz open", ai=1)
    lobby = table.channel.last_message
    result = await table.members["Ben"].click(lobby, label="Cancel")
    assert said(result, "Only the host")
    await table.members["Anne"].click(lobby, label="Cancel")
    assert "closed" in table.channel.last_message.content


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"player2": "Anne"}, "already at the table"),
        ({}, "takes 2–4 players"),
        ({"player2": "Ben", "ai": 3}, "takes 2–4 players"),
    ],
)
async def test_challenge_refusals(world: World, kwargs: dict, fragment: str) -> None:
    table = world.table
    args = {k: table.members[v] if isinstance(v, str) else v for k, v in kwargs.items()}
    result = await table.members["Anne"].slash(table.channel, "piratz new", **args)
    assert result.ephemeral and said(result, fragment)
    assert await world.bot.tables.store.lobbies.open() == []


async def test_challenge_to_a_bot_account_is_refused(world: World) -> None:
    table = world.table
    robot = table.guild.add_member(world.env.create_user("robot", bot=True))
    result = await table.members["Anne"].slash(table.channel, "piratz new", player2=robot)
    assert said(result, "is a bot account")


async def test_invitation_spam_limit(world: World) -> None:
    table = world.table
    anne = table.members["Anne"]
    for _ in range(world.bot.config.max_open_invitations):
        result = await anne.slash(table.channel, "piratz new", player2=table.members["Ben"])
        assert not result.ephemeral
    result = await anne.slash(table.channel, "piratz new", player2=table.members["Ben"])
    assert result.ephemeral and said(result, "the limit is")


async def test_out_of_turn_and_unseated_clicks_change_nothing(world: World) -> None:
    table = world.table
    game_id = await start_duel(world)
    record = await table.record(game_id)
    board = table.board_message(record)
    _mover, other = duel_roles(table, record)
    version = record.version
    button = table.board_button(record)
    result = await other.click(board, custom_id=button)
    assert result.ephemeral and said(result, "not your turn")
    result = await table.members["Calico"].click(board, custom_id=button)
    assert result.ephemeral and said(result, "not playing")
    record = await table.record(game_id)
    assert record.version == version
    assert await world.bot.tables.store.games.actions(game_id) == []


async def test_a_turns_board_is_updated_in_place_then_left_behind_with_its_story(world: World) -> None:
    """While the same member decides (with the board's buttons or typed with ``/move``), their board is updated
    in place; once the decision passes, it keeps its image and its lines, each move's among them, and loses
    its buttons, and the next member's board has the live ones."""
    table = world.table
    record = await table.record(await start_duel(world))
    for how in ("button", "move"):
        board = table.board_message(record)
        seat = PIRATZ.to_act(record.state)[0]
        for _ in range(50):
            image = [a["filename"] for a in world.env.backend.get_message(record.place_id, board.id).attachments]
            choice = table.pick(record, seat)
            if how == "button":
                await table.click_through(record, seat, choice)
            else:
                await table.move(record, seat, choice)
            await world.env.settle()
            after = await table.record(record.id)
            if after.status != "active" or PIRATZ.to_act(after.state)[0] != seat:
                break
            live = world.env.backend.get_message(record.place_id, board.id)
            assert after.message_id == board.id, how  # the same turn: the same board
            assert any(f":{after.version}:" in b for b in play_ids(live)), how  # with the new position's buttons
            record = after
        old = world.env.backend.get_message(record.place_id, board.id)
        assert old.components == [], how
        assert [a["filename"] for a in old.attachments] == image, how  # the image of its last position
        assert old.content.count("▸") >= 1 and "➡️" not in old.content, how  # its story, no stale status
        assert after.message_id != board.id and table.board_button(after), how
        record = after


def play_ids(message) -> list[str]:
    """The custom ids of a raw message's components."""
    return [c["custom_id"] for row in message.components for c in row.get("components", []) if "custom_id" in c]


async def test_a_board_whose_click_could_not_be_answered_is_updated_all_the_same(world: World) -> None:
    """Discord fails the answer to a board's click (the update of the board): the click is acknowledged, the
    move is made once, and the board is updated by the bot's own request."""
    table = world.table
    record = await table.record(await start_duel(world))
    mover, _ = duel_roles(table, record)
    board = table.board_message(record)
    world.env.inject_error("POST", "/interactions/*/callback", status=500)
    result = await mover.click(board, label="Reveal")
    await world.env.settle()
    assert result.acknowledged
    after = await table.record(record.id)
    assert after.version == record.version + 1
    updated = world.env.backend.get_message(record.place_id, board.id)
    assert "revealed" in updated.content
    assert not updated.components or any(f":{after.version}:" in b for b in play_ids(updated))


async def test_stale_picker_and_double_click_apply_once(world: World) -> None:
    table = world.table
    game_id = await start_duel(world)
    # Play on until the player to act has a button that opens a picker (a group of several moves).
    for _ in range(200):
        record = await table.record(game_id)
        seat = table.human_to_act(record)
        choices = PIRATZ.choices(record.state, seat)
        top = menus.top_labels([choices])
        groups = [i for i, label in enumerate(top) if sum(c.path[0] == label for c in choices) > 1]
        if groups:
            break
        await table.click_through(record, seat, table.pick(record, seat))
    else:
        pytest.fail("no picker came up")
    member = table.member_of(record, seat)
    button = f"t:{game_id}:{record.version}:{menus.tag(top[groups[0]])}"
    opened = await member.click(table.board_message(record), custom_id=button)
    picker = opened.followups[-1]  # the board is left as it is; the picker follows, for the clicker only
    assert picker.ephemeral and picker.components
    # Meanwhile the same player moves with the command: the open picker is now out of date.
    other = next(c for c in choices if c.path[0] != top[groups[0]]) if len(top) > 1 else choices[0]
    await member.slash(table.place(record), "piratz move", action=other.action.encode())
    version = (await table.record(game_id)).version
    assert version == record.version + 1
    result = await member.click(picker, custom_id=f"{button}:0")
    assert said(result, "out of date")
    assert (await table.record(game_id)).version == version

    # A double click: the board keeps its old buttons when Discord fails the click's answer, the update through
    # the token of the board's earlier click (or of the interaction it was posted as a follow-up of) and the
    # bot's own update of it; the second click of the same button finds the
    # game moved on and changes nothing.
    record = await table.record(game_id)
    mover = table.member_of(record, PIRATZ.to_act(record.state)[0])
    board = table.board_message(record)
    world.env.inject_error("POST", "/interactions/*/callback", status=500)
    world.env.inject_error("PATCH", "/webhooks/*/messages/*", status=500, times=None)
    world.env.inject_error("PATCH", f"/channels/{record.place_id}/messages/{board.id}", status=500, times=None)
    await mover.click(board, label="Reveal")
    once = (await table.record(game_id)).version
    assert once == record.version + 1
    result = await mover.click(board, label="Reveal")
    assert said(result, "out of date")
    assert (await table.record(game_id)).version == once


async def test_restart_mid_game_old_buttons_still_work(world: World) -> None:
    table = world.table
    game_id = await start_duel(world)
    record = await table.play_moves(game_id, 5)
    board = table.board_message(record)
    await world.restart()
    seat = table.human_to_act(record)
    choice = table.pick(record, seat)
    await table.click_through(record, seat, choice)  # the pre-restart board's buttons
    after = await table.record(game_id)
    assert after.version > record.version
    assert table.board_message(after).id != board.id
    assert (await table.play_to_end(game_id)).status == "finished"


async def test_ai_turns_resume_after_restart(world: World) -> None:
    table = world.table
    await world.restart(ai_delay=30)  # the AI is "thinking" when the bot stops
    await table.members["Anne"].slash(table.channel, "piratz new", ai=1)
    record = await table.latest_game()
    while table.human_to_act(record) is not None:
        seat = table.human_to_act(record)
        await table.click_through(record, seat, table.pick(record, seat))
        record = await table.record(record.id)
    await world.env.settle()
    assert (await table.record(record.id)).version == record.version  # still waiting out the delay
    await world.restart()
    after = await table.record(record.id)
    assert after.version > record.version  # the restarted bot let the AI seat move on its own
    assert (await table.play_to_end(record.id)).status == "finished"


async def test_closed_dms_fall_back_to_thread_note_and_hand_button(world: World) -> None:
    table = world.table
    anne = table.members["Anne"]
    await anne.slash(table.channel, "games notify", setting="on")
    dm = anne.user.dm_channel
    world.env.inject_error(
        "POST",
        f"/channels/{dm.id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages",
        times=None,
    )
    game_id = await start_duel(world)
    record = await table.record(game_id)
    await table.play_to_end(game_id)
    thread = table.place(record)
    notes = [m.content for m in thread.history() if "can't send you direct messages" in m.content]
    assert len(notes) == 1 and str(anne.id) in notes[0]
    final = thread.history()[-1]  # the boards have no buttons left: the final message has My hand
    result = await anne.click(final, label="My hand")
    assert result.ephemeral and said(result, "Your private view")


async def test_turn_reminders_by_dm(world: World) -> None:
    table = world.table
    ben = table.members["Ben"]
    await ben.slash(table.channel, "games notify", setting="on")
    game_id = await start_duel(world)
    record = await table.record(game_id)
    await table.play_to_end(game_id)
    reminders = [m.content for m in ben.user.dm_channel.history() if "Your turn" in m.content]
    assert reminders and f"Piratz #{game_id}" in reminders[0] and str(record.place_id) in reminders[0]


async def test_turn_reminder_is_sent_once_per_turn_even_across_a_restart(world: World) -> None:
    table = world.table
    for name in ("Anne", "Ben"):
        await table.members[name].slash(table.channel, "games notify", setting="on")
    game_id = await start_duel(world)
    record = await table.record(game_id)

    def reminders(member) -> int:
        dms = member.user.dm_channel
        return sum("Your turn" in m.content for m in dms.history()) if dms is not None else 0

    mover, waiting = duel_roles(table, record)
    assert reminders(mover) == 1 and reminders(waiting) == 0
    await world.restart()
    result = await mover.slash(table.place(record), "piratz board")  # a new board: reminders are checked again
    assert said(result, "Board posted")
    assert reminders(mover) == 1  # still the same turn: not reminded twice
    # Once the turn has passed to the other player and back, each new turn gets its own reminder.
    first = PIRATZ.to_act(record.state)[0]
    while PIRATZ.to_act(record.state)[0] == first:
        record = await table.play_moves(game_id, 1)
    assert reminders(waiting) == 1
    while PIRATZ.to_act(record.state)[0] != first:
        record = await table.play_moves(game_id, 1)
    assert record.status == "active" and reminders(mover) == 2


async def test_discord_error_loses_nothing(world: World) -> None:
    table = world.table
    game_id = await start_duel(world)
    record = await table.record(game_id)
    member = table.member_of(record, PIRATZ.to_act(record.state)[0])
    world.env.inject_error("POST", f"/channels/{record.place_id}/messages", status=500)
    await member.click(table.board_message(record), label="Reveal")
    after = await table.record(game_id)
    assert after.version == record.version + 1
    assert await world.bot.tables.reads.replay(game_id) == after.state
    # The board the error refused is delivered again, once, with its buttons and the line of what happened.
    revealed = [m for m in table.place(record).history() if m.content.startswith("▸") and "revealed" in m.content]
    assert len(revealed) == 1 and table.board_message(after).id == revealed[0].id
    assert table.board_message(after).components
    assert (await table.play_to_end(game_id)).status == "finished"


async def test_an_unexpected_error_in_delivering_loses_nothing(world: World, monkeypatch, caplog) -> None:
    table = world.table
    game_id = await start_duel(world)
    record = await table.record(game_id)
    member = table.member_of(record, PIRATZ.to_act(record.state)[0])

    def broken(view, names, locale="en"):
        raise RuntimeError("renderer exploded")

    render = GAMES["piratz"].render_board
    monkeypatch.setattr("rendering.piratz.render_board", broken)
    result = await member.click(table.board_message(record), label="Reveal")
    # The move was committed and the player is never invited to "try again" (and play it twice).
    assert not said(result, "try again") and "renderer exploded" not in "".join(texts(result))
    assert f"game {game_id}" in caplog.text.lower() and "renderer exploded" in caplog.text
    assert (await table.record(game_id)).version == record.version + 1
    # Once the renderer is mended, the board it owes is posted.
    monkeypatch.setattr("rendering.piratz.render_board", render)
    await world.env.advance_time(60)
    assert [m for m in table.place(record).history() if m.content.startswith("▸") and "revealed" in m.content]


async def test_move_autocomplete_offers_only_own_legal_moves(world: World) -> None:
    table = world.table
    game_id = await start_duel(world)
    record = await table.record(game_id)
    thread = table.place(record)
    mover, waiting = duel_roles(table, record)
    choices = await mover.autocomplete(thread, "piratz move", "action", "")
    assert {c["value"] for c in choices} == {"reveal"} | {
        a.encode() for a in PIRATZ.legal_actions(record.state, PIRATZ.to_act(record.state)[0])
    }
    assert await waiting.autocomplete(thread, "piratz move", "action", "") == []
    assert await table.members["Calico"].autocomplete(thread, "piratz move", "action", "") == []


async def test_move_errors_are_specific_and_change_nothing(world: World) -> None:
    table = world.table
    game_id = await start_duel(world)
    record = await table.record(game_id)
    thread = table.place(record)
    mover, waiting = duel_roles(table, record)
    result = await waiting.slash(thread, "piratz move", action="reveal")
    assert said(result, "not your turn")
    result = await mover.slash(thread, "piratz move", action="bury 99")
    assert result.ephemeral and texts(result)
    result = await mover.slash(table.channel, "piratz move", action="reveal")
    assert said(result, "no game in progress here")
    assert (await table.record(game_id)).version == record.version


async def test_blind_hand_shows_only_a_count(world: World) -> None:
    table = world.table
    game_id = await start_duel(world, blind=True)
    record = await table.play_moves(game_id, 8)
    for name in ("Anne", "Ben"):
        result = await table.members[name].slash(table.place(record), "piratz hand")
        assert result.ephemeral and said(result, "face down")


async def test_rules_board_and_games_list(world: World) -> None:
    table = world.table
    game_id = await start_duel(world)
    record = await table.record(game_id)
    anne = table.members["Anne"]
    result = await anne.slash(table.channel, "piratz rules")
    assert result.ephemeral and result.response.embeds and "Piratz" in result.response.embeds[0].title
    result = await anne.slash(table.channel, "games list")
    assert result.ephemeral and f"Piratz #{game_id}" in result.response.content
    old = record.message_id
    await anne.slash(table.place(record), "piratz board")
    assert (await table.record(game_id)).message_id != old


async def test_abandon_by_host_or_moderator_only(world: World) -> None:
    table = world.table
    game_id = await start_duel(world)
    record = await table.record(game_id)
    thread = table.place(record)
    result = await table.members["Ben"].slash(thread, "games abandon")
    assert said(result, "Only the game's host")
    await table.members["Anne"].slash(thread, "games abandon")
    record = await table.record(game_id)
    assert record.status == "abandoned"
    assert "abandoned" in "\n".join(m.content for m in thread.history()[-3:])
    assert not table.board_message(record).components


async def test_resign_hands_the_seat_to_the_ai(world: World) -> None:
    table = world.table
    await table.challenge("piratz", "Anne", ["Ben", "Calico"])
    record = await table.latest_game()
    await table.members["Ben"].slash(table.place(record), "piratz resign")
    record = await table.record(record.id)
    assert record.status == "active" and record.seats[1].resigned
    record = await table.play_to_end(record.id)
    assert record.status == "finished" and 1 not in record.result["winners"]


async def test_resign_in_a_duel_ends_it(world: World) -> None:
    table = world.table
    game_id = await start_duel(world)
    record = await table.record(game_id)
    await table.members["Anne"].slash(table.place(record), "piratz resign")
    record = await table.record(game_id)
    assert record.status == "finished" and record.result["winners"] == [1]


def test_the_warm_up_draws_every_game_and_fills_the_layout_caches() -> None:
    from rendering import cache, piratz
    from rendering.warmup import WARM_SHARE, warm_renderers

    cache.clear()
    drawn = warm_renderers(tuple(GAMES.values()))
    assert drawn >= 3  # a table at least: two boards (and a hand) and its final image
    # It stops before a table that would take the cache past its share (by the largest table's growth so
    # far): what it drew first is still there, and the rest is left for the games played.
    assert cache.stats().bytes <= WARM_SHARE * cache.stats().budget
    assert piratz._board_layer.cache_info().currsize > 0  # the smallest tables come first, by game name


async def test_start_up_warms_the_renderers_then_freezes_its_heap(tmp_path, monkeypatch) -> None:
    """Production start-up: the renderers are warmed in the background, then everything allocated so far
    is frozen out of the garbage collector's full collections (they would otherwise stall players)."""
    calls = []

    def warm(games: tuple) -> int:  # the real warm-up is tested above; here only what start-up does with it
        calls.append("warmed")
        assert [spec.kind for spec in games] == list(GAMES)
        return 7

    monkeypatch.setattr("rendering.warmup.warm_renderers", warm)
    bot = create_bot(database=tmp_path / "warm.db", ai_delay=0, seed="warm")
    try:
        async with simcord.run(bot):
            assert bot.warmed is not None
            assert await bot.warmed == 7 and calls == ["warmed"]
            assert gc.get_freeze_count() > 10_000
    finally:
        await bot.tables.close()
        gc.unfreeze()  # leave the other tests' process as it was


async def test_a_bot_with_render_processes_plays_a_whole_game(tmp_path) -> None:
    """TABLES_RENDER_PROCESSES: every board, hand and final image is drawn in a process beside the bot."""
    from cogs.offline.driver import SimTable
    from rendering import cache, pool
    from tables.config import Config

    cache.clear()  # what earlier tests drew in this process
    bot = create_bot(
        database=tmp_path / "processes.db", ai_delay=0, seed="processes", config=Config(render_processes=1)
    )
    try:
        async with simcord.run(bot) as env:
            await bot.tree.sync()
            assert pool.default_pool().processes == 1
            assert bot.warmed is not None and await bot.warmed > 0  # warmed at start, in the render process
            assert cache.stats().bytes == 0
            table = SimTable(env, bot)
            await table.challenge("piratz", "Anne", ["Ben"])
            record = await table.play_to_end((await table.latest_game()).id, via="buttons")
            assert record.status == "finished"
            images = [
                a.filename for m in table.place(record).history() for a in m.attachments if a.filename.endswith(".png")
            ]
            assert images[-1].endswith("final.png") and len(images) > 10
            assert cache.stats().bytes == 0  # the bot's process drew none of them
    finally:
        await bot.tables.close()
        pool.configure()  # the other tests draw on threads again
        gc.unfreeze()
