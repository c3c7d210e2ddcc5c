"""The pickers' components stay within Discord's limits and become Discord's items; the game commands'
table options are the engines' own."""

from __future__ import annotations

import discord
import pytest

from cogs.base import GameCog, cog_class
from cogs.components import view_of
from games.i18n import T, localize
from games.registry import GAMES
from tables.menus import Entry, Menu, board_components, clip, picker_components
from tables.words import CLOCKS, DEFAULT_CLOCK


def menu(path: tuple[int, ...], count: int) -> Menu:
    return Menu(("Pass",), "a1b2c3", path, tuple(Entry(f"Option {i}", i, None) for i in range(count)))


def test_few_options_become_buttons_that_extend_the_path() -> None:
    view = view_of(picker_components(7, 3, menu((1,), 7), [f"Option {i}" for i in range(7)]))
    buttons = [c.item for c in view.children if isinstance(c.item, discord.ui.Button)]
    assert [b.custom_id for b in buttons] == [f"t:7:3:a1b2c3:1.{i}" for i in range(7)]
    assert [b.label for b in buttons] == [f"Option {i}" for i in range(7)]


@pytest.mark.parametrize(("count", "selects"), [(21, 1), (60, 3), (130, 5), (200, 5)])
def test_many_options_become_selects_of_25(count: int, selects: int) -> None:
    view = view_of(picker_components(7, 3, menu((), count), [f"Option {i}" for i in range(count)]))
    menus = [c.item for c in view.children if isinstance(c.item, discord.ui.Select)]
    assert len(menus) == selects and len(view.children) == selects
    assert all(len(m.options) <= 25 for m in menus)
    assert [m.custom_id for m in menus] == [f"ts:7:3:a1b2c3::{25 * i}" for i in range(selects)]
    values = [int(o.value) for m in menus for o in m.options]
    assert values == list(range(min(count, 125)))


def test_a_board_with_more_first_labels_than_buttons_gets_selects_and_keeps_my_hand() -> None:
    from games.core import Choice, act

    choices = [Choice(act("x", i), (f"Label {i}",)) for i in range(30)]
    labels = [c.path[0] for c in choices]
    view = view_of(board_components(7, 3, choices, labels, active=True))
    items = [c.item for c in view.children]
    assert [type(i) for i in items].count(discord.ui.Select) == 2
    assert [i.custom_id for i in items if isinstance(i, discord.ui.Button)] == ["hand:7", "follow:7"]


def cog_of(kind: str) -> type[GameCog]:
    return cog_class(GAMES[kind])


@pytest.mark.parametrize("kind", list(GAMES))
def test_new_and_open_offer_the_engines_options_the_turn_clock_and_the_ai_level(kind: str) -> None:
    game, cog = GAMES[kind].game, cog_of(kind)
    for command in (cog.new, cog.open):
        for option in game.options:
            parameter = command.get_parameter(option.name)
            assert parameter is not None, f"/{kind} {command.name} lacks {option.name}"
            assert parameter.description == option.description and parameter.default == option.default
            assert [c.value for c in parameter.choices] == list(option.choices)
        clock = command.get_parameter("clock")
        assert clock.default == DEFAULT_CLOCK and [c.value for c in clock.choices] == list(CLOCKS)
        ai = command.get_parameter("ai")
        assert (ai.min_value, ai.max_value) == (0, game.max_players - 1)
        level = command.get_parameter("ai_level")
        assert level.default == "normal" and [c.value for c in level.choices] == ["normal", "hard"]
    members = [p.name for p in cog.new.parameters if p.name.startswith("player")]
    assert members == [f"player{i}" for i in range(2, len(members) + 2)]
    assert len(members) + 1 <= game.max_players


def test_labels_and_placeholders_are_written_in_the_readers_language_then_cut_to_discords_limits() -> None:
    long = T("Pass {what}", what="x" * 120)  # marked labels are never cut before they are written out
    labels = [T("Accept"), long]
    picker = picker_components(7, 3, menu((), 2), labels)
    board = board_components(7, 3, [], [], active=True)
    view = view_of([*picker, *board, {"type": "lobby", "lobby": 4, "op": "cancel"}], "de")
    buttons = [c.item for c in view.children if isinstance(c.item, discord.ui.Button)]
    assert [b.label for b in buttons][:2] == ["Annehmen", clip(localize(long, "de"))]
    assert len(buttons[1].label) == 80 and buttons[1].label.endswith("…")
    assert [b.label for b in buttons][2:] == ["Meine Hand", "Folgen", "Abbrechen"]
    many = view_of(picker_components(7, 3, menu((), 30), [long] * 30), "pseudo")
    select = next(c.item for c in many.children if isinstance(c.item, discord.ui.Select))
    assert select.placeholder.startswith("⟦") and all(len(o.label) == 100 for o in select.options)
    english = [c.item.label for c in view_of([*picker, *board]).children]
    assert english[:4] == ["Accept", clip(localize(long)), "My hand", "Follow"]
