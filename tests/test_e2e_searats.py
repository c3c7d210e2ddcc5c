"""End to end for Sea Rats!: the real bot in SimCord, driven as members would — a 2-player game of fleets
(three ships each) played to the end with the buttons, one where no member is ever offered a ship of their own
fleet as a target (board, picker, autocomplete), 4-player games with ``/searats move`` and with the
buttons, a bribe offered and answered by the other commander with the buttons (a decision by a commander who
is not on turn), an offer that lapses by itself across a restart, an AI commander answering by itself, each
player's fleet in ``/searats hand``, and dice in the thread."""

from __future__ import annotations

from typing import Any

import pytest

from data.store import GameRecord
from games.core import Action, Choice
from games.i18n import localize
from games.registry import GAMES
from games.searats.board import in_range, same_fleet
from games.searats.components import SHIPS
from tables.menus import tag
from tests.conftest import World
from tests.support import PNG_MAGIC, opened, png, raw_messages, texts

GAME = GAMES["searats"].game


@pytest.fixture
def quick_images(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stand-in renderers: whole games stay fast (the real images are drawn by the slow game below and by
    the rendering tests)."""
    for name in ("render_board", "render_final"):
        monkeypatch.setattr(f"rendering.searats.{name}", lambda view, names, locale="en": png(over=view["over"]))


def thread_text(world: World, record: GameRecord) -> str:
    return "\n".join(m.content for m in raw_messages(world.env, record.place_id))


async def two_player_game_to_the_end(world: World) -> GameRecord:
    table = world.table
    await table.challenge("searats", "Anne", ["Ben"])
    record = await table.latest_game()
    assert record.state["seats"] == 6 and [GAME.controller(record.state, s) for s in range(6)] == [0, 1, 0, 1, 0, 1]
    record = await table.play_to_end(record.id, via="buttons")
    outcome = GAME.outcome(record.state)
    assert record.status == "finished" and outcome is not None
    assert await world.bot.tables.reads.replay(record.id) == record.state
    text = thread_text(world, record)
    assert "🎲" in text and "rolls" in text  # dice are posted as they are rolled
    assert record.result is not None and record.result["winners"] == list(outcome.winners)
    return record


@pytest.mark.usefixtures("quick_images")
async def test_two_players_command_fleets_of_three_to_the_end_with_buttons(world: World) -> None:
    await two_player_game_to_the_end(world)


@pytest.mark.slow
async def test_a_whole_game_with_the_real_images(world: World) -> None:
    record = await two_player_game_to_the_end(world)
    attachments = [a for m in raw_messages(world.env, record.place_id) for a in m.attachments]
    images = [a for a in attachments if a["filename"].endswith(".png")]
    blobs = [bytes(world.env.backend.cdn.get(a["url"]) or b"") for a in images]
    assert blobs and all(b.startswith(PNG_MAGIC) for b in blobs)


@pytest.mark.usefixtures("quick_images")
@pytest.mark.parametrize("via", ["move", "buttons"])
async def test_four_players_to_the_end(world: World, via: str) -> None:
    table = world.table
    await table.challenge("searats", "Anne", ["Ben", "Calico", "Dara"])
    record = await table.latest_game()
    assert record.state["seats"] == 4
    record = await table.play_to_end(record.id, via=via)
    assert record.status == "finished" and GAME.outcome(record.state) is not None
    assert await world.bot.tables.reads.replay(record.id) == record.state


def clickable(message: Any) -> list[str]:
    """The labels of a SimCord message's buttons and select options (its raw components)."""
    return [
        label
        for row in message.components
        for c in row.get("components", [])
        for label in (c.get("label"), *(o.get("label") for o in c.get("options", [])))
        if label
    ]


async def targets_offered(world: World, record: GameRecord, seat: int) -> tuple[list[str], list[str]]:
    """What the member deciding for ``seat`` is offered to attack: the target labels on the board and in its
    Attack picker (opened, nothing picked), and the ``aim`` texts of ``/searats move``'s autocomplete (with
    their labels, which name the target too)."""
    table = world.table
    member = table.member_of(record, seat)
    board = next(m for m in raw_messages(world.env, record.place_id) if m.id == record.message_id)
    labels = []
    for label in clickable(board):
        if label == "Attack …":  # several targets: the picker lists them
            picker = await member.click(
                table.board_message(record), custom_id=f"t:{record.id}:{record.version}:{tag(label[:-2])}"
            )
            labels += clickable(opened(picker))
        elif label.startswith("Attack"):
            labels.append(label)
    offered = await member.autocomplete(table.place(record), "searats move", "action", "aim")
    labels += [o["name"] for o in offered if o["value"].startswith("aim ")]
    return labels, [o["value"] for o in offered if o["value"].startswith("aim ")]


@pytest.mark.usefixtures("quick_images")
async def test_no_member_is_ever_offered_a_ship_of_their_own_fleet_as_a_target(world: World) -> None:
    """A whole two-player game with the buttons: at every member decision, every attack target on the board, in
    the Attack picker and in the autocomplete is a ship of the other commander, also after captures, though ships
    of the decider's own fleet often lay within range."""
    table = world.table
    await table.challenge("searats", "Anne", ["Ben"])
    record = await table.latest_game()
    seen = own_in_range = after_capture = 0
    for _ in range(5000):
        if record.status != "active":
            break
        seat = table.human_to_act(record)
        assert seat is not None
        state = record.state
        name = table.player_of(record, seat).name
        other = next(n for n in ("Anne", "Ben") if n != name)
        labels, aims = await targets_offered(world, record, seat)
        assert all(f"({other})" in label and f"({name})" not in label for label in labels), (name, labels)
        assert all(not same_fleet(state, seat, SHIPS.index(aim.split()[1])) for aim in aims), (SHIPS[seat], aims)
        seen += len(labels)
        if state["phase"] == "act" and state["ships"][seat]["balls"] and not state["trading"]:
            mates = {s for s, _ in in_range(state, seat, state["fought"]) if same_fleet(state, seat, s)}
            own_in_range += bool(mates)
            after_capture += any(f["how"] == "captured" and f["ship"] in mates | {seat} for f in state["fates"])
        await table.click_through(record, seat, table.pick(record, seat))
        record = await table.record(record.id)
    assert record.status == "finished" and GAME.outcome(record.state) is not None
    # Targets were offered, and ships of the decider's fleet lay in range, also ships it had captured (or had
    # been captured into): the rule was put to the test.
    assert seen and own_in_range and after_capture, (seen, own_in_range, after_capture)


def enemy_targets(record: GameRecord, seat: int) -> list[int]:
    """Ships (all of another commander) that ``seat`` may attack and that could bribe it (it has room, they cargo)."""
    state = record.state
    ships = state["ships"]
    if ships[seat]["balls"] + ships[seat]["supplies"] >= 12:
        return []
    aims = [SHIPS.index(a.args[0]) for a in GAME.legal_actions(state, seat) if a.verb == "aim"]
    return [t for t in aims if ships[t]["balls"] + ships[t]["supplies"]]


def choice_of(record: GameRecord, seat: int, action: Action) -> Choice:
    return next(c for c in GAME.choices(record.state, seat) if c.action == action)


async def reach_an_attack(world: World) -> GameRecord:
    """Play the AI's moves with the buttons until a member's ship may attack another commander's ship; then
    take aim."""
    table = world.table
    record = await table.latest_game()
    for _ in range(400):
        seat = table.human_to_act(record)
        assert seat is not None and record.status == "active"
        if record.state["phase"] == "act" and enemy_targets(record, seat):
            target = enemy_targets(record, seat)[0]
            await table.click_through(record, seat, choice_of(record, seat, Action("aim", (SHIPS[target],))))
            return await table.record(record.id)
        await table.click_through(record, seat, table.pick(record, seat))
        record = await table.record(record.id)
    raise AssertionError("no attack arose")


@pytest.mark.usefixtures("quick_images")
async def test_a_bribe_is_answered_by_the_other_commander_with_buttons(world: World) -> None:
    table = world.table
    await table.challenge("searats", "Anne", ["Ben"])
    record = await reach_an_attack(world)
    attacker, target = record.state["battle"]["att"], record.state["battle"]["def"]
    # The defender's commander decides although it is not their ship's turn.
    assert GAME.to_act(record.state) == (target,) and record.state["phase"] == "bribe"
    assert table.member_of(record, target) is not table.member_of(record, attacker)
    offer = next(c for c in GAME.choices(record.state, target) if c.action.verb == "offer")
    assert localize(offer.path[0]) == "Offer a bribe"
    await table.click_through(record, target, offer)
    record = await table.record(record.id)
    assert GAME.to_act(record.state) == (attacker,) and record.state["offer"]["kind"] == "bribe"
    board = table.board_message(record)
    labels = [c.label for row in board.components for c in row.children]
    assert "Accept" in labels and "Decline" in labels
    answerer = table.member_of(record, attacker)
    assert f"<@{answerer.id}>" in raw_messages(world.env, record.place_id)[-1].content  # pinged to answer
    before = record.state["ships"][attacker]["balls"] + record.state["ships"][attacker]["supplies"]
    await answerer.click(board, label="Accept")
    record = await table.record(record.id)
    ship = record.state["ships"][attacker]
    assert ship["balls"] + ship["supplies"] == before + int(offer.action.args[0]) + int(offer.action.args[1])
    assert record.state["phase"] == "flee" and GAME.to_act(record.state) == (target,)  # the defender flees
    assert "accepts the bribe" in thread_text(world, record)


@pytest.mark.usefixtures("quick_images")
async def test_an_unanswered_offer_lapses_by_itself_also_across_a_restart(world: World) -> None:
    table = world.table
    await table.challenge("searats", "Anne", ["Ben"], clock="off")
    record = await reach_an_attack(world)
    attacker, target = record.state["battle"]["att"], record.state["battle"]["def"]
    offer = next(c for c in GAME.choices(record.state, target) if c.action.verb == "offer")
    await table.click_through(record, target, offer)
    record = await table.record(record.id)
    assert record.state["phase"] == "answer" and GAME.to_act(record.state) == (attacker,)
    minutes = record.state["options"]["lapse"]
    await world.env.advance_time(minutes * 60 / 2)
    await world.restart()  # the lapse is timed from the stored log, not from memory
    assert (await table.record(record.id)).state["phase"] == "answer"
    await world.env.advance_time(minutes * 60 / 2 + 1)
    record = await table.record(record.id)
    assert record.state["phase"] != "answer" and record.state["offer"] is None
    assert "lapse unanswered" in thread_text(world, record)
    assert (await world.bot.tables.store.games.actions(record.id))[-1][2] == "lapse"
    assert await world.bot.tables.reads.replay(record.id) == record.state  # the log replays through the lapse


@pytest.mark.usefixtures("quick_images")
async def test_an_ai_commander_answers_by_itself(world: World) -> None:
    table = world.table
    await table.challenge("searats", "Anne", [], ai=1)
    record = await reach_an_attack(world)
    await world.env.settle()
    record = await table.record(record.id)
    # The AI's ship braced, offered a bribe or bought its way out with the Treasure, at once: the decision is
    # Anne's again (fire, or answer the bribe), or the defender flees.
    text = thread_text(world, record)
    phase = record.state["phase"]
    assert phase in ("fire", "answer", "flee")
    assert {"fire": "offers no bribe", "answer": "offers", "flee": "Most Powerful Bribe"}[phase] in text


@pytest.mark.usefixtures("quick_images")
async def test_the_demo_names_the_winning_commander_once(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    from cogs.offline.demo import run_demo

    assert await run_demo("searats", 2, "demo-fleets", tmp_path, {}) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if "finished after" in x)
    winner = line.split("winner: ")[1].rstrip(".")
    assert winner and "," not in winner  # the winning commander once, not once per ship of the fleet


@pytest.mark.usefixtures("quick_images")
async def test_hand_shows_the_logs_of_every_ship_of_the_fleet(world: World) -> None:
    table = world.table
    await table.challenge("searats", "Anne", ["Ben"])
    record = await table.latest_game()
    result = await table.members["Ben"].slash(table.place(record), "searats hand")
    shown = "\n".join(texts(result))
    for ship in ("Red at I1", "Green at I11", "Yellow at A6"):
        assert ship in shown and "6 cannonballs, 6 supplies" in shown
    assert "Black at" not in shown  # Anne's ships are on the board, not in Ben's hand
