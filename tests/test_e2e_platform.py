"""The platform hosts every kind of game: proved end to end with a toy game registered only here (Odds and
Evens, tests/toy_game.py) — simultaneous secret choices, dice everyone sees, every public event posted,
several seats per player, teams, elimination, and an outcome with its reason."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cogs.app import TableBot, create_bot
from data.store import GameRecord
from games.registry import registered
from tables import menus
from tables.words import event_line, names_shown
from tests.conftest import World
from tests.support import png_text, raw_messages, said, texts
from tests.toy_game import TOY

GAME = TOY.game
CHOOSE = "Choose your number"


@pytest.fixture
def simcord_bot(database) -> Iterator[TableBot]:
    with registered(TOY):
        yield create_bot(database=database, ai_delay=0, seed="toy", warm_renderers=False)


async def start(world: World, host: str, invitees: list[str], ai: int = 0, **options) -> GameRecord:
    await world.table.challenge("oddsevens", host, invitees, ai=ai, **options)
    return await world.table.latest_game()


def public_texts(world: World, record: GameRecord) -> list[str]:
    """Everything the bot posted where everyone can read it: the thread, the channel, board buttons."""
    out = []
    for channel in (record.place_id, record.channel_id):
        for m in raw_messages(world.env, channel):
            if m.is_ephemeral:
                continue
            out.append(m.content)
            out += [c.get("label") or "" for row in m.components for c in row.get("components", [])]
            out += [a.get("description") or "" for a in m.attachments]
    return out


def board_views(world: World, record: GameRecord) -> list[dict]:
    """The view each board image of the game was drawn from."""
    views = []
    for m in raw_messages(world.env, record.place_id):
        for a in m.attachments:
            if a["filename"].endswith(".png"):  # not the final message's action log
                views.append(png_text(world.env.backend.cdn.get(a["url"]))["view"])
    return views


async def test_secret_choices_are_private_and_do_not_make_each_other_stale(world: World) -> None:
    table = world.table
    record = await start(world, "Anne", ["Ben"])
    anne, ben = table.members["Anne"], table.members["Ben"]
    board = table.board_message(record)
    labels = [c.label for row in board.components for c in row.children]
    assert labels == [f"{CHOOSE} …", "My hand", "Follow"]  # one public button for both choosers

    # Ben opens his own picker; then Anne chooses 2 in hers.
    button = table.board_button(record)
    bens_picker = (await ben.click(board, custom_id=button)).followups[-1]  # the board stays; the picker follows
    assert bens_picker.ephemeral and "Number 1" in str(bens_picker.components)
    annes = (await anne.click(board, custom_id=button)).followups[-1]
    assert annes.ephemeral
    two = next(c for c in GAME.choices(record.state, 0) if c.action.encode() == "pick 2")
    _first, path = menus.path_to(GAME.choices(record.state, 0), two)
    await anne.click(annes, custom_id=f"{button}:{path[0]}")
    after = await table.record(record.id)
    assert after.state["chosen"] == [2, None]

    # Nothing anyone else can see tells Anne's number: board, buttons, alt texts, images, autocomplete.
    public = "\n".join(public_texts(world, after))
    assert "Anne has chosen" in public and "Number 2" not in public and "chose 2" not in public
    assert all(view["mine"] is None and not view["shown"] for view in board_views(world, after))
    offered = await ben.autocomplete(table.place(after), "oddsevens move", "action", "")
    assert [o["value"] for o in offered] == ["pick 1", "pick 2", "pick 3"]
    assert all("Anne" not in o["name"] for o in offered)
    # Anne sees her own choice in her private message.
    hand = await anne.click(table.board_message(after), label="My hand")
    assert said(hand, "Your number this round: 2")

    # Ben's picker, opened before Anne chose, is not out of date: his own decision did not change.
    three = next(c for c in GAME.choices(after.state, 1) if c.action.encode() == "pick 3")
    _first, path = menus.path_to(GAME.choices(after.state, 1), three)
    result = await ben.click(bens_picker, custom_id=f"{button}:{path[0]}")
    assert not said(result, "out of date"), texts(result)
    done = await table.record(record.id)
    assert done.version == after.version + 1 and done.state["shown"] == [2, 3]

    # The reveal and the roll reach the thread as such, and the board shows the roll.
    thread = "\n".join(m.content for m in raw_messages(world.env, done.place_id))
    assert "🃏 Revealed: Anne: 2, Ben: 3." in thread
    roll = done.state["roll"]
    assert f"🎲 {'⚀⚁⚂⚃⚄⚅'[roll - 1]} · The die shows {roll}." in thread
    assert board_views(world, done)[-1]["roll"] == roll


async def test_a_second_click_of_the_same_secret_choice_is_stale(world: World) -> None:
    table = world.table
    record = await start(world, "Anne", ["Ben"])
    anne = table.members["Anne"]
    board = table.board_message(record)
    button = table.board_button(record)
    picker = (await anne.click(board, custom_id=button)).followups[-1]
    # Discord fails every update of the board (through her click, and the bot's own): Anne clicks the old
    # board's button again after choosing.
    world.env.inject_error("PATCH", "/webhooks/*", status=500, times=None)
    world.env.inject_error("PATCH", f"/channels/{record.place_id}/messages/{board.id}", status=500, times=None)
    await anne.click(picker, custom_id=f"{button}:0")
    again = await anne.click(board, custom_id=button)
    assert said(again, "out of date"), texts(again)
    assert (await table.record(record.id)).state["chosen"] == [1, None]


async def test_every_public_event_reaches_the_thread_in_order(world: World) -> None:
    table = world.table
    record = await start(world, "Anne", [], ai=3)
    record = await table.play_to_end(record.id)
    assert record.status == "finished"
    expected = []
    state = GAME.new_game(len(record.seats), record.options, record.seed)
    names = names_shown(TOY, record)
    for _seq, seat, action in await world.bot.tables.store.games.actions(record.id):
        step = GAME.apply(state, seat, action)
        state = step.state
        expected += [event_line(e, names) for e in step.events if e.seat is None]
    lines = [line for m in raw_messages(world.env, record.place_id) for line in m.content.splitlines()]
    found = iter(lines)
    missing = [e for e in expected if not any(line == e for line in found)]
    assert not missing, missing[:5]  # every public event, in order (the AI's batches included)
    assert any(line.startswith("🎲") for line in lines)


async def test_a_player_with_a_fleet_decides_for_each_of_their_seats(world: World) -> None:
    table = world.table
    record = await start(world, "Anne", ["Ben"], fleet="2")
    anne, ben = table.members["Anne"], table.members["Ben"]
    assert record.state["seats"] == 4 and [GAME.controller(record.state, s) for s in range(4)] == [0, 1, 0, 1]
    # Autocomplete offers Anne her moves once (both ships of hers take the same kind of action).
    offered = await anne.autocomplete(table.place(record), "oddsevens move", "action", "")
    assert [o["value"] for o in offered] == ["pick 1", "pick 2", "pick 3"]
    # The board's button acts for whichever of her seats must still decide.
    for _ in range(2):
        record = await table.record(record.id)
        button = table.board_button(record)
        picker = (await anne.click(table.board_message(record), custom_id=button)).followups[-1]
        await anne.click(picker, custom_id=f"{button}:0")
    record = await table.record(record.id)
    assert [record.state["chosen"][s] for s in (0, 2)] == [1, 1]
    refused = await anne.click(table.board_message(record), custom_id=table.board_button(record))
    assert said(refused, "not your turn")
    # `move` acts for her seats too, and `hand` shows all of them.
    await ben.slash(table.place(record), "oddsevens move", action="pick 2")
    hand = await ben.slash(table.place(record), "oddsevens hand")
    files = [a.filename for m in [hand.response, *hand.followups] if m is not None for a in m.attachments]
    assert files == [f"oddsevens-{record.id}-hand-1.png", f"oddsevens-{record.id}-hand-3.png"]
    alts = [a.description for m in [hand.response, *hand.followups] if m is not None for a in m.attachments]
    assert alts == ["Your number this round: 2.", "You have not chosen yet."]  # each image has its alt text
    assert said(hand, "Your number this round: 2") and said(hand, "You have not chosen yet.")
    # Resigning hands every seat of the player to the AI; the game goes on without them.
    await ben.slash(table.place(record), "oddsevens resign")
    record = await table.play_to_end(record.id)
    assert record.status == "finished" and not {1, 3} & set(record.result["winners"])


async def test_teams_win_together(world: World) -> None:
    table = world.table
    record = await start(world, "Anne", ["Ben", "Calico", "Dara"], teams=True)
    assert GAME.teams(record.state) == ((0, 2), (1, 3))
    record = await table.play_to_end(record.id)
    winners = set(record.result["winners"])
    final = raw_messages(world.env, record.place_id)[-1].content
    if record.result["reason"] == "last_standing" and winners:
        assert winners in ({0, 2}, {1, 3})  # the team of the last seats standing, both players
    if winners:
        names = [record.names[w] for w in sorted(winners)]
        assert "🏆 Winners: " + ", ".join(names) in final
    else:  # the last seats fell together: nobody wins
        assert "🏆" not in final


async def test_an_eliminated_player_is_shown_out_never_pinged_and_cannot_act(world: World) -> None:
    table = world.table
    record = await start(world, "Anne", ["Ben", "Calico"])
    members = {s: table.member_of(record, s) for s in range(3)}
    for _ in range(300):
        record = await table.record(record.id)
        if record.status != "active" or GAME.out(record.state):
            break
        seat = table.human_to_act(record)
        await table.click_through(record, seat, table.pick(record, seat))
    (out,) = GAME.out(record.state) if record.status == "active" else pytest.skip("the game ended at once")
    board = raw_messages(world.env, record.place_id)
    latest = next(m for m in reversed(board) if m.id == record.message_id)
    assert f"☠️ Out: {record.names[out]}" in latest.content
    refused = await members[out].click(table.board_message(record), custom_id=table.board_button(record))
    assert said(refused, "You are out of this game")
    since = record.message_id
    record = await table.play_to_end(record.id)
    later = [m for m in raw_messages(world.env, record.place_id) if m.id > since]
    assert later and all(members[out].id not in m.ping_user_ids for m in later)
    assert out not in record.result["winners"]


async def test_the_outcome_says_how_the_game_ended(world: World) -> None:
    table = world.table
    record = await start(world, "Anne", [], ai=1)
    record = await table.play_to_end(record.id)
    reason = record.result["reason"]
    assert reason in ("last_standing", "safety_limit")
    final = raw_messages(world.env, record.place_id)[-1].content
    assert ("last one standing" if reason == "last_standing" else "safety limit") in final


async def test_a_game_registered_alone_is_hosted_whole(world: World) -> None:
    """The toy game is an engine, a renderer and one registration, nothing else (docs/architecture.md, "Adding a game"):
    the bot builds its command group, the catalogs take its domain, and members play it to the end with
    buttons, pickers and typed moves."""
    from pathlib import Path

    from games.catalogs import domains

    commands = {c.name: c for c in world.bot.tree.get_commands()}
    group = commands["oddsevens"]
    assert {c.name for c in group.commands} == {"new", "open", "move", "hand", "board", "resign", "rules"}
    toy = Path(__file__).with_name("toy_game.py")
    assert domains()["oddsevens"] == (toy, toy)  # its engine and its renderer, as its registration names them
    record = await start(world, "Anne", ["Ben"], ai=1)
    ended = await world.table.play_to_end(record.id, via="mixed")
    assert ended.status == "finished" and ended.result is not None
    final = [m for m in raw_messages(world.env, ended.place_id) if "is over" in m.content]
    assert len(final) == 1
    doc = (Path(__file__).parent.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    adding = doc[doc.index("## Adding a game") :].split("\n## ")[0]
    assert "three places" in adding and "cogs/" not in adding
    for place in ("`games/<kind>/`", "`rendering/<kind>`", "`games/registry.py`"):
        assert place in adding
