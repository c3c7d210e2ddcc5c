"""The menu-level builder shared by board messages and pickers stays within Discord's limits; the
game commands' table options are the engines' own."""

from __future__ import annotations

import importlib

import discord
import pytest
from cogs.clocks import CLOCKS, DEFAULT_CLOCK
from cogs.host import add_choices

from cogs.base import GameCog
from data.store import GameRecord
from games.registry import GAMES


def record() -> GameRecord:
    return GameRecord(
        id=7, kind="piratz", status="active", version=3, seed="s", options={}, state={}, seats=[],
        guild_id=1, channel_id=2, thread_id=None, message_id=None, host_id=1, created_at=0.0,
    )  # fmt: skip


def test_few_options_become_buttons_that_extend_the_path() -> None:
    view = discord.ui.View(timeout=None)
    add_choices(view, record(), "a1b2c3", (1,), [f"Option {i}" for i in range(7)], max_buttons=15, rows=5)
    buttons = [c.item for c in view.children if isinstance(c.item, discord.ui.Button)]
    assert [b.custom_id for b in buttons] == [f"t:7:3:a1b2c3:1.{i}" for i in range(7)]
    assert [b.label for b in buttons] == [f"Option {i}" for i in range(7)]


@pytest.mark.parametrize(("count", "rows", "selects"), [(21, 4, 1), (60, 4, 3), (130, 5, 5), (130, 4, 4)])
def test_many_options_become_selects_of_25(count: int, rows: int, selects: int) -> None:
    view = discord.ui.View(timeout=None)
    add_choices(view, record(), "a1b2c3", (), [f"Option {i}" for i in range(count)], max_buttons=20, rows=rows)
    menus = [c.item for c in view.children if isinstance(c.item, discord.ui.Select)]
    assert len(menus) == selects and len(view.children) == selects
    assert all(len(m.options) <= 25 for m in menus)
    assert [m.custom_id for m in menus] == [f"ts:7:3:a1b2c3::{25 * i}" for i in range(selects)]
    values = [int(o.value) for m in menus for o in m.options]
    assert values == list(range(min(count, 25 * rows)))


def cog_of(kind: str) -> type[GameCog]:
    module = importlib.import_module(GAMES[kind].cog)
    (cog,) = [c for c in vars(module).values() if isinstance(c, type) and issubclass(c, GameCog) and c is not GameCog]
    return cog


@pytest.mark.parametrize("kind", list(GAMES))
def test_new_and_open_offer_the_engines_options_and_the_turn_clock(kind: str) -> None:
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
    members = [p.name for p in cog.new.parameters if p.name.startswith("player")]
    assert members == [f"player{i}" for i in range(2, len(members) + 2)]
    assert len(members) + 1 <= game.max_players
