"""A calm thread (:mod:`tables.turns`): one live board per turn, updated in place while the same members
decide, a new one only when the decision passes to other members; the story of the game readable in the
thread, each line once; within Discord's budget of new messages."""

from __future__ import annotations

import itertools
from collections import Counter
from types import SimpleNamespace

import discord
import pytest

from bench.budget import passes_to_members, thread_windows
from cogs import courier
from games.core import Action
from games.i18n import localize
from games.registry import GAMES
from tables import notices, words
from tables.delivery import RETRY
from tables.turns import AI_BOARD_EVERY, BOARD_LIMIT, Step, Turn, plan
from tests.conftest import World
from tests.discord_rules import DiscordRules, posted_as

ANNE, BEN = 11, 22


def step(lines=("a line",), actor=None, deciders=(ANNE,), *, over=False, now=100.0, rnd=1, repost=False) -> Step:
    return Step(list(lines), actor, tuple(deciders), over, now, rnd, repost)


def live(*lines: str, deciders=(ANNE,), n: int = 3) -> Turn:
    return Turn(n=n, deciders=deciders, open=True, lines=lines, posted_at=90.0, round=1)


# ------------------------------------------------------------------ the plan of one change


def test_the_same_member_deciding_again_updates_their_board_in_place() -> None:
    done = plan(live("rolled 4"), step(["sailed north"], actor=ANNE))
    assert done.edit == ("rolled 4", "sailed north") and done.edit_live and done.post is None
    assert done.turn.n == 3 and done.turn.lines == ("rolled 4", "sailed north") and done.turn.open


def test_the_decision_passing_to_another_member_closes_the_board_and_posts_theirs() -> None:
    done = plan(live("rolled 4"), step(["ended the turn"], actor=ANNE, deciders=(BEN,)))
    assert done.edit == ("rolled 4", "ended the turn") and not done.edit_live  # its lines, no buttons
    assert done.post == () and not done.strip  # the closed board has no buttons left to take away
    assert done.turn == Turn(n=4, deciders=(BEN,), open=True, lines=(), posted_at=100.0, round=1)
    assert done.followers == ("ended the turn",)


def test_the_ais_moves_between_two_members_are_lines_of_the_next_board() -> None:
    closed = plan(live("rolled 4"), step(["ended"], actor=ANNE, deciders=())).turn
    assert not closed.open and closed.n == 3
    first = plan(closed, step(["AI sailed"], deciders=(), now=101.0, rnd=2))
    assert first.post is None and first.edit is None and first.turn.carried == ("AI sailed",)
    second = plan(first.turn, step(["AI fired"], deciders=(ANNE,), now=102.0, rnd=2))
    assert second.post == ("AI sailed", "AI fired") and second.turn.n == 4 and second.turn.deciders == (ANNE,)


def test_a_stretch_of_the_ai_alone_posts_at_most_a_board_a_round_and_every_ten_seconds() -> None:
    turn = Turn(n=1, open=True, posted_at=0.0, round=0)
    posted = []
    for i in range(1, 200):
        now, rnd = i * 0.5, i // 8  # a move every half second, eight to a round
        done = plan(turn, step([f"move {i}"], deciders=(), now=now, rnd=rnd))
        if done.post is not None:
            posted.append((now, rnd, done.post))
            assert done.strip  # the board before it has buttons (My hand, Follow)
        turn = done.turn
    times = [now for now, _, _ in posted]
    assert all(b - a >= AI_BOARD_EVERY for a, b in itertools.pairwise(times))
    assert len({rnd for _, rnd, _ in posted}) == len(posted)
    said = [line for *_, lines in posted for line in lines] + list(turn.carried)
    assert said == [f"move {i}" for i in range(1, 200)]  # every move told once, in order


def test_a_time_out_while_the_same_member_decides_updates_the_board() -> None:
    done = plan(live("rolled 4"), step(["⏰ time ran out"], actor=None))
    assert done.edit_live and done.edit == ("rolled 4", "⏰ time ran out")


def test_a_simultaneous_decision_stays_on_one_board_until_everyone_has_decided() -> None:
    both = live(deciders=(ANNE, BEN))
    done = plan(both, step(["Anne chose"], actor=ANNE, deciders=(BEN,)))
    assert done.edit_live and done.turn.deciders == (BEN,)


def test_lines_beyond_a_message_go_on_in_a_new_board() -> None:
    long = "x" * 590
    turn = live(long, long, long)
    done = plan(turn, step([long], actor=ANNE))
    assert not done.edit_live and done.edit == (long, long, long)
    assert done.post == (long,) and done.turn.n == 4
    assert sum(len(line) + 1 for line in turn.lines) <= BOARD_LIMIT


def test_the_last_move_by_the_member_closes_their_board_and_the_ais_goes_to_the_final() -> None:
    own = plan(live("rolled 4"), step(["won"], actor=ANNE, deciders=(), over=True))
    assert own.edit == ("rolled 4", "won") and own.final == () and not own.strip
    carried = Turn(n=3, open=True, carried=("AI sailed",))
    ai = plan(carried, step(["AI won"], deciders=(), over=True))
    assert ai.edit is None and ai.final == ("AI sailed", "AI won") and ai.strip


def test_a_board_asked_for_again_takes_the_buttons_and_the_untold_lines() -> None:
    turn = Turn(n=3, deciders=(ANNE,), open=True, lines=("old",), carried=("AI sailed",))
    done = plan(turn, step([], deciders=(ANNE,), repost=True))
    assert done.post == ("AI sailed",) and done.strip and done.turn.n == 4 and done.turn.carried == ()


def test_a_turn_survives_being_stored() -> None:
    turn = Turn(n=2, deciders=(ANNE, BEN), open=True, lines=("a", "b"), carried=("c",), posted_at=3.5, round=4)
    assert Turn.of(turn.stored()) == turn and Turn.of(None) == Turn()


# ------------------------------------------------------------------ whole games in SimCord


def public_lines(kind: str, record, actions) -> list[str]:
    """Every public event line of a game, replayed from its log."""
    spec = GAMES[kind]
    game = spec.game
    state = game.new_game(len(record.seats), record.options, record.seed)
    names = words.names_shown(spec, record)
    lines = []
    for _seq, seat, text in actions:
        applied = game.apply(state, seat, Action.decode(text), trusted=True)
        state = applied.state
        lines += [words.event_line(e, names) for e in applied.events if e.seat is None]
    return lines


@pytest.mark.parametrize(("kind", "players"), [("piratz", 3), ("sewerpirats", 3), ("pirates", 3), ("sewerrat", 2)])
async def test_a_whole_game_posts_a_board_per_pass_and_tells_each_line_once(
    world: World, kind: str, players: int
) -> None:
    table = world.table
    names = list(table.members)
    await table.challenge(kind, names[0], names[1:2], ai=players - 2)
    record = await table.play_to_end((await table.latest_game()).id, via="mixed")
    await world.env.settle()
    assert record.status == "finished"
    thread = table.place(record)
    history = [m for m in thread.history() if m.author.id == world.bot.user.id]
    boards = [m for m in history if any(a.filename.split("-")[-1][:-4].isdigit() for a in m.attachments)]
    actions = await world.bot.tables.store.games.actions(record.id)
    spec = GAMES[kind]
    start = spec.game.new_game(len(record.seats), record.options, record.seed)
    assert len(boards) <= passes_to_members(spec.game, record.seats, start, actions)
    assert all(not m.components for m in boards), "the game is over: no board keeps buttons"
    # The story: each public line in the thread as often as the game said it, in order.
    expected = [localize(line, "en") for line in public_lines(kind, record, actions)]
    shown = [line for m in history for line in m.content.split("\n") if line in set(expected)]
    assert Counter(shown) == Counter(expected)
    assert shown == expected
    requests = list(world.env.backend.http_requests)
    assert max(thread_windows(requests, thread.id, world.env.backend), default=0) <= 5


async def test_the_latest_board_carries_the_members_decision_and_older_buttons_are_refused(world: World) -> None:
    table = world.table
    await table.challenge("searats", "Anne", [], ai=1)
    record = await table.latest_game()
    thread = table.place(record)
    for _ in range(12):
        record = await table.record(record.id)
        seat = table.human_to_act(record)
        if record.status != "active" or seat is None:
            break
        latest = table.board_message(record)
        assert latest is not None and latest.components, "the member's decision has its buttons on the latest board"
        ours = [m for m in thread.history() if m.author.id == world.bot.user.id and m.attachments]
        assert ours[-1].id == latest.id
        assert all(not m.components for m in ours[:-1])
        await table.click_through(record, seat, table.pick(record, seat))


# ------------------------------------------------------------------ what the board's updates cost


async def clicked_then_deciding(world: World):
    """Anne's Sea Rats! game against the AI, played with the board's buttons until a click leaves her deciding
    on the same board: the record then, and that board."""
    table = world.table
    await table.challenge("searats", "Anne", [], ai=1)
    record = await table.latest_game()
    for _ in range(60):
        record = await table.record(record.id)
        seat = table.human_to_act(record)
        assert record.status == "active" and seat is not None
        board = table.board_message(record).id
        await table.click_through(record, seat, table.pick(record, seat))
        await world.env.settle()
        record = await table.record(record.id)
        if table.human_to_act(record) == seat and table.board_message(record).id == board:
            return record, seat, board
    raise AssertionError("Anne never decided twice on one board")


def board_edits(world: World, since: int, thread: int, board: int) -> tuple[int, int]:
    """Edits of ``board`` since request ``since``: by the bot's own request, and through an interaction."""
    requests = list(world.env.backend.http_requests)[since:]
    own = sum(r.method == "PATCH" and r.path == f"/channels/{thread}/messages/{board}" for r in requests)
    through = sum(r.method == "PATCH" and r.path.startswith("/webhooks/") for r in requests)
    return own, through


async def test_a_typed_move_updates_the_board_through_the_latest_click_on_it(world: World) -> None:
    """Within the click's 15 minutes its token edits the board it answered: a typed move's update costs nothing
    of Discord's global limit."""
    table = world.table
    record, seat, board = await clicked_then_deciding(world)
    before = table.board_message(record).content
    since = len(world.env.backend.http_requests)
    await table.move(record, seat, table.pick(record, seat))
    await world.env.settle()
    thread = table.place(record).id
    assert board_edits(world, since, thread, board) == (0, 1)
    assert world.env.backend.get_message(thread, board).content != before


async def test_once_the_clicks_token_has_run_out_the_bot_edits_the_board_itself(
    world: World, discord_rules: DiscordRules
) -> None:
    table = world.table
    record, seat, board = await clicked_then_deciding(world)
    before = table.board_message(record).content
    discord_rules.expire_follow_ups()  # the click was more than 15 minutes ago (emulated)
    since = len(world.env.backend.http_requests)
    await table.move(record, seat, table.pick(record, seat))
    await world.env.settle()
    thread = table.place(record).id
    own, _through = board_edits(world, since, thread, board)
    assert own == 1
    assert world.env.backend.get_message(thread, board).content != before


async def test_the_kept_private_message_is_not_edited_only_because_the_decision_came(world: World) -> None:
    """The DM is titled with whose hand it is (the board and **My hand** say what to decide): the decision
    coming to its member, with nothing they hold changed, edits nothing; what they hold changing does."""
    table = world.table
    await table.challenge("sewerpirats", "Anne", ["Ben"], clock="off", variant="standard")
    record = await table.latest_game()
    spec = GAMES["sewerpirats"]
    dms = {}
    for _ in range(12):
        record = await table.record(record.id)
        seat = table.human_to_act(record)
        if record.status != "active" or seat is None:
            break
        kept = {s.seat: notices._digest(notices.private_message(spec, record, s.seat, kept=True)) for s in record.seats}
        since = len(world.env.backend.http_requests)
        await table.click_through(record, seat, table.pick(record, seat))
        await world.env.settle()
        after = await table.record(record.id)
        for s in after.seats:
            dm = table.members[s.name].user.dm_channel
            if dm is None:
                continue
            dms[s.seat] = dm.id
            requests = list(world.env.backend.http_requests)[since:]
            edits = [r for r in requests if r.method == "PATCH" and r.path.startswith(f"/channels/{dm.id}/")]
            now = notices.private_message(spec, after, s.seat, kept=True)
            assert now.images[0].view["deciding"] is None
            if notices._digest(now) == kept[s.seat]:
                assert not edits, f"{s.name}'s DM was edited though nothing they hold changed"
    assert len(dms) == 2
    mine = notices.private_message(spec, record, table.human_to_act(record))
    assert mine.images[0].view["deciding"], "My hand says what its member must decide"


# ------------------------------------------------------------------ new boards as interactions' follow-ups


def thread_posts(world: World, since: int, thread: int) -> tuple[int, int]:
    """New messages made in ``thread`` since request ``since``: by the bot's own request, and as an
    interaction's follow-up there (not an ephemeral one)."""
    backend = world.env.backend
    own = through = 0
    for r in list(backend.http_requests)[since:]:
        if r.method == "POST" and r.path == f"/channels/{thread}/messages":
            own += 1
        elif posted_as(backend, r.method, r.path, r.json) == f"/channels/{thread}/messages":
            through += 1
    return own, through


async def until_the_decision_passes(world: World, record, *, typed: bool = False):
    """Play Anne and Ben's game until a decision passes it to the other member (a new board): the record
    then, and the requests made before that decision."""
    table = world.table
    for _ in range(60):
        seat = table.human_to_act(record)
        assert record.status == "active" and seat is not None
        since = len(world.env.backend.http_requests)
        if typed:
            await table.move(record, seat, table.pick(record, seat))
        else:
            await table.click_through(record, seat, table.pick(record, seat))
        await world.env.settle()
        after = await table.record(record.id)
        if after.message_id != record.message_id and table.human_to_act(after) not in (None, seat):
            return after, since
        record = after
    raise AssertionError("the decision never passed between the members")


def each_once(world: World, record) -> None:
    """Every image the bot posted in the game's thread is there once, and the latest board carries the
    decision of the member to act."""
    thread = world.table.place(record).history()
    images = Counter(a.filename for m in thread for a in m.attachments if m.author.id == world.bot.user.id)
    assert images and max(images.values()) == 1, images.most_common(3)
    assert world.table.board_message(record).components


async def anne_and_ben(world: World):
    table = world.table
    await table.challenge("sewerpirats", "Anne", ["Ben"], clock="off", variant="standard")
    return await table.latest_game()


async def after_a_first_move(world: World, *, typed: bool = False):
    """Anne and Ben's game after its first decision (a click, or a typed move): the thread has an interaction
    a board may follow up. The record then, and the thread's id."""
    table = world.table
    record = await anne_and_ben(world)
    seat = table.human_to_act(record)
    await (table.move if typed else table.click_through)(record, seat, table.pick(record, seat))
    record = await table.record(record.id)
    return record, table.place(record).id


async def test_a_new_board_is_the_follow_up_of_the_click_that_passed_the_decision(world: World) -> None:
    """The board the decision passes to is posted as a follow-up of the latest public interaction in the thread
    (outside Discord's global limit), with the next member's buttons and notification; that member's typed
    move then edits it through the same token: the bot's own requests make neither."""
    table = world.table
    record, since = await until_the_decision_passes(world, await anne_and_ben(world))
    thread = table.place(record).id
    assert thread_posts(world, since, thread) == (0, 1)
    board = table.board_message(record)
    seat = table.human_to_act(record)
    assert board.components and f"<@{table.member_of(record, seat).user.id}>" in board.content
    since = len(world.env.backend.http_requests)
    await table.move(record, seat, table.pick(record, seat))
    await world.env.settle()
    own, through = board_edits(world, since, thread, board.id)
    assert own == 0 and through >= 1


async def test_a_new_boards_follow_up_whose_answer_was_lost_is_found_not_posted_again(
    world: World, discord_rules: DiscordRules
) -> None:
    """A follow-up has no nonce: Discord made it but its answer was lost (a 500), so the next try looks for it in
    the thread and takes it; nothing is posted twice, nothing by the bot's own request."""
    table = world.table
    record, thread = await after_a_first_move(world)
    discord_rules.lose_answer("POST", f"/channels/{thread}/messages")
    record, since = await until_the_decision_passes(world, record)
    assert not discord_rules.losses, "a post was made and its answer lost"
    await world.env.advance_time(RETRY[1])
    await world.env.settle()
    record = await table.record(record.id)
    own, through = thread_posts(world, since, thread)
    assert own == 0 and through == 1
    looked = [r.path for r in world.env.backend.http_requests[since:] if r.method == "GET"]
    assert f"/channels/{thread}/messages" in looked, "the next try looked for the message first"
    each_once(world, record)


async def test_a_new_board_made_as_the_process_died_is_found_after_the_restart(
    world: World, discord_rules: DiscordRules
) -> None:
    table = world.table
    record, thread = await after_a_first_move(world)
    discord_rules.lose_answer("POST", f"/channels/{thread}/messages", status=None)
    for _ in range(60):
        seat = table.human_to_act(record)
        await table.click_through(record, seat, table.pick(record, seat))
        if discord_rules.dead:
            break
        await world.env.settle()
        record = await table.record(record.id)
    assert discord_rules.dead, "the process died right after a board's follow-up"
    discord_rules.revive()
    since = len(world.env.backend.http_requests)
    await world.restart()
    await world.env.settle()
    record = await table.record(record.id)
    assert thread_posts(world, since, thread)[0] == 0, "the board made before the death is not posted again"
    each_once(world, record)


async def test_once_the_tokens_have_run_out_the_bot_posts_the_new_board_itself(
    world: World, discord_rules: DiscordRules
) -> None:
    table = world.table
    record, _thread = await after_a_first_move(world, typed=True)
    discord_rules.expire_follow_ups()  # every interaction was more than 15 minutes ago (emulated)
    record, since = await until_the_decision_passes(world, record, typed=True)
    thread = table.place(record).id
    assert thread_posts(world, since, thread)[0] == 1
    each_once(world, record)


def answered_command(name: str, channel_id: int) -> SimpleNamespace:
    """A stand-in for a slash command's interaction, answered with a message (what :func:`remember` reads)."""
    response = SimpleNamespace(is_done=lambda: True, type=discord.InteractionResponseType.channel_message)
    command = SimpleNamespace(qualified_name=name)
    return SimpleNamespace(
        response=response, client=object(), message=None, command=command, guild_id=1, channel_id=channel_id
    )


def test_a_board_follows_up_a_move_never_another_command(monkeypatch: pytest.MonkeyPatch) -> None:
    """A board posted as a follow-up is shown under its interaction's header ("Ben used /sewerpirats"): so only
    a game's own commands are kept for it, never another used in the thread meanwhile (``/games notify``)."""
    monkeypatch.setattr(courier, "PLACES", {})  # the bot's own are left as they are
    move, notify = answered_command("sewerpirats move", 71), answered_command("games notify", 71)
    courier.remember(move)
    courier.remember(notify)
    assert courier.PLACES[71] is move
    courier.remember(answered_command("games help", 72))
    assert 72 not in courier.PLACES
