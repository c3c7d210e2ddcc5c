"""A tournament's standings image: every row drawn, readable on a phone (no letter under the theme's minimum at
400 px wide), long names and many scripts cut to fit, in English and in German."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from rendering import theme
from rendering.records import render_standings
from tests.test_render_phone import WORLD, smallest

VIEW = {
    "title": "Piratz tournament #3",
    "subtitle": "Final standings",
    "final": True,
    "rows": [[1, 0, "3", "4½", 3], [2, 1, "2", "5", 3], [2, 2, "2", "5", 3], [4, 3, "1½", "3", 3],
             [5, 4, "1", "4", 2], [6, 5, "1", "2", 3], [7, 6, "½", "3", 3], [8, 7, "0", "4", 3]],
}  # fmt: skip


@pytest.mark.parametrize("locale", ["en", "de"])
def test_standings_read_on_a_phone(locale: str) -> None:
    size, text, width = smallest(render_standings, VIEW, WORLD, locale)
    assert theme.readable(size, width), (size, text, width)


def test_every_row_is_drawn_and_the_image_grows_with_them() -> None:
    eight = Image.open(io.BytesIO(render_standings(VIEW, WORLD)))
    two = Image.open(io.BytesIO(render_standings({**VIEW, "rows": VIEW["rows"][:2]}, WORLD)))
    assert eight.width == two.width and eight.height > two.height
    empty = Image.open(io.BytesIO(render_standings({**VIEW, "rows": []}, [])))
    assert empty.height < two.height
