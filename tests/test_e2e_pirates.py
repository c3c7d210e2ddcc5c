"""The Pirates Card Game end to end through SimCord: a solo game started by a member alone, a game of three
played to the end by buttons and by ``/pirates move``, and a duel whose secret choices stay secret in
messages, buttons, autocomplete and images until both are made."""

from __future__ import annotations

import random

import pytest

from cogs.offline.driver import _components
from data.store import GameRecord
from games.core import Action
from games.i18n import localize
from games.pirates.cards import BY_CODE
from games.registry import GAMES
from rendering.pirates import render_board, render_hand
from tables import menus
from tests.conftest import World
from tests.support import opened, pixels, raw_messages, said

GAME = GAMES["pirates"].game
NAMES = ["Anne", "Ben"]


def public_texts(world: World, record: GameRecord) -> str:
    """Everything posted where everyone reads it: thread and channel messages, buttons, image alt texts."""
    out = []
    for channel in (record.place_id, record.channel_id):
        for m in raw_messages(world.env, channel):
            if m.is_ephemeral:
                continue
            out.append(m.content)
            out += [c.get("label") or "" for row in m.components for c in row.get("components", [])]
            out += [a.get("description") or "" for a in m.attachments]
    return "\n".join(out)


async def test_a_member_alone_starts_a_solo_game_and_plays_it_to_the_end(world: World) -> None:
    table = world.table
    started = await table.challenge("pirates", "Anne", [])
    assert "Starting **Pirates Card Game** solo" in started.response.content
    record = await table.latest_game()
    assert record.kind == "pirates" and len(record.seats) == 1 and record.state["seats"] == 1
    record = await table.play_to_end(record.id, via="buttons")
    assert record.status != "active"
    assert GAME.outcome(record.state) is not None


async def test_three_players_play_to_the_end_by_buttons_and_move(world: World) -> None:
    table = world.table
    await table.challenge("pirates", "Anne", ["Ben"], ai=1)
    record = await table.latest_game()
    assert len(record.seats) == 3 and record.seats[2].is_ai
    record = await table.play_to_end(record.id, via="mixed")
    assert record.status != "active" and GAME.outcome(record.state) is not None


@pytest.mark.slow
async def test_three_members_play_to_the_end_by_buttons(world: World) -> None:
    table = world.table
    await table.challenge("pirates", "Anne", ["Ben", "Calico"])
    record = await table.latest_game()
    record = await table.play_to_end(record.id, via="buttons")
    assert record.status != "active" and GAME.outcome(record.state) is not None


def _steer(state: dict, seat: int) -> Action | None:
    """Head for a duel: sail, look for ships, and fight a captain whenever one is offered."""
    legal = GAME.legal_actions(state, seat)
    for action in legal:
        if action.verb == "fight" and action.args:
            return action
    for wanted in (Action("ship"), Action("disembark")):
        if wanted in legal:
            return wanted
    return None


async def _reach_a_duel(world: World) -> GameRecord:
    """Start two-player games and steer them (by ``/pirates move``) until a duel begins."""
    table = world.table
    for _attempt in range(6):
        await table.challenge("pirates", "Anne", ["Ben"])
        record = await table.latest_game()
        while record.status == "active":
            if record.state["duel"] is not None:
                return record
            seat = table.human_to_act(record)
            assert seat is not None
            action = _steer(record.state, seat)
            choices = GAME.choices(record.state, seat)
            choice = next(c for c in choices if c.action == action) if action else table.pick(record, seat)
            await table.move(record, seat, choice)
            record = await table.record(record.id)
    raise AssertionError("no duel arose in six games")


async def test_a_duel_choice_stays_secret_until_both_have_chosen(world: World) -> None:
    table = world.table
    record = await _reach_a_duel(world)
    first, second = record.state["duel"]["seats"]
    chooser, other = table.member_of(record, first), table.member_of(record, second)
    board = table.board_message(record)
    labels = [c.label for row in board.components for c in row.children]
    assert "Choose your combat card …" in labels

    # The chooser picks a card in an ephemeral picker opened from the public button.
    choices = GAME.choices(record.state, first)
    play = next(c for c in choices if c.action.verb == "play")
    assert play.secret and localize(play.path[0]) == "Choose your combat card"
    _tag, path = menus.path_to(choices, play)
    button = table.board_button(record, labels.index("Choose your combat card …"))
    picker = await chooser.click(board, custom_id=button)
    assert opened(picker).ephemeral
    for index in path:
        picker = await chooser.click(opened(picker), custom_id=f"{button}:{index}")
    after = await table.record(record.id)
    code = play.action.args[0]
    assert after.state["duel"]["chosen"][0] is not None and GAME.to_act(after.state) == (second,)

    # Nobody else can learn it: messages, buttons, alt texts, views for images, autocomplete.
    card_name = BY_CODE[code].name
    public = public_texts(world, after)
    assert "has chosen a combat card" in public
    assert f"choose {card_name}" not in public and localize(play.path[1]) not in public
    for viewer in (second, None):
        view = GAME.view(after.state, viewer)
        assert code not in str(view["duel"]) and view.get("chosen") is None
    offered = await other.autocomplete(table.place(after), "pirates move", "action", "")
    own = {c.action.encode() for c in GAME.choices(after.state, second)}
    assert offered and {o["value"] for o in offered} <= own
    # The images drawn for everyone but the chooser are the same whatever the chosen card is.
    rng = random.Random(7)
    chosen = set()
    for _ in range(5):
        other_world = GAME.scramble(after.state, second, rng)
        chosen.add(other_world["duel"]["chosen"][0] % 54)
        for viewer in (second, None):
            assert pixels(render_board(GAME.view(other_world, viewer), NAMES)) == pixels(
                render_board(GAME.view(after.state, viewer), NAMES)
            )
        assert pixels(render_hand(GAME.view(other_world, second), NAMES)) == pixels(
            render_hand(GAME.view(after.state, second), NAMES)
        )
    assert len(chosen) > 1  # the scrambles did put other cards in the chooser's place
    mine = await chooser.click(table.board_message(after), label="My hand")
    assert said(mine, f"Your combat card: {card_name}")

    # The other chooses; then both cards are revealed together.
    reply = next(c for c in GAME.choices(after.state, second) if c.action.verb == "play")
    await table.move(after, second, reply)
    done = await table.record(record.id)
    thread = "\n".join(m.content for m in raw_messages(world.env, done.place_id))
    assert "Revealed:" in thread and card_name in thread.split("Revealed:")[-1]
    assert any(_components(table.board_message(done))) or done.status != "active"
