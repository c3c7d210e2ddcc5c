"""The menu-level builder shared by board messages and pickers stays within Discord's limits; the
game commands' table options are the engines' own."""

from __future__ import annotations

import discord
import pytest

from cogs.host import add_choices
from cogs.piratz import PiratzCog
from cogs.sewerpirats import SewerPiratsCog
from data.store import GameRecord
from games.piratz.engine import Piratz
from games.sewerpirats.engine import SewerPirats


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


@pytest.mark.parametrize(
    ("commands", "option"),
    [
        ((PiratzCog.new, PiratzCog.open), Piratz.option("blind")),
        ((SewerPiratsCog.new, SewerPiratsCog.open), SewerPirats.option("variant")),
    ],
)
def test_table_options_of_the_commands_are_the_engines(commands: tuple, option) -> None:
    for command in commands:
        parameter = command.get_parameter(option.name)
        assert parameter.description == option.description and parameter.default == option.default
        assert [c.value for c in parameter.choices] == list(option.choices)
