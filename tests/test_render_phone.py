"""Images stay readable on a phone: a phone in portrait shows an image about 400 px wide, where no letter may
be under 9 px (``theme.readable``: 25 px on a 1,100 px board, 26 on the widest, 1,140 px). Every registered
game's board, hand and final sheet is checked at every phase seeded play reaches, in English and in German,
with names in several scripts. What is drawn is recorded from the theme's one text-drawing helper, at the
size it lands on the image."""

from __future__ import annotations

import io
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from PIL import Image

from games.registry import GAMES
from rendering import theme

WORLD = ["李小龍", "محمد", "Zoë 🐀", "Captain Christopher Columbus", "देवनागरी", "Anne Bonny", "Mary Read", "Ben"]
"""Display names in several scripts, one per seat of the largest table."""


def _clear_caches() -> None:
    """Forget every cached image and text, so that a render draws all of its text again."""
    for name, module in list(sys.modules.items()):
        if name == "rendering" or name.startswith("rendering."):
            for value in vars(module).values():
                if callable(getattr(value, "cache_clear", None)):
                    value.cache_clear()


@contextmanager
def text_sizes() -> Iterator[list[tuple[int, str]]]:
    """Record ``(font size, text)`` for every text the renderers draw inside the block."""
    drawn: list[tuple[int, str]] = []
    stamp = theme._stamp

    def spy(canvas, xy, s, fnt, *args, **kwargs):  # type: ignore[no-untyped-def]
        drawn.append((fnt.size, s))
        return stamp(canvas, xy, s, fnt, *args, **kwargs)

    _clear_caches()
    theme._stamp = spy
    try:
        yield drawn
    finally:
        theme._stamp = stamp
        _clear_caches()


def smallest(render: Callable[..., bytes], *args: object) -> tuple[int, str, int]:
    """The smallest text ``render(*args)`` draws (size and text) and the image's width."""
    with text_sizes() as drawn:
        width = Image.open(io.BytesIO(render(*args))).width
    size, s = min(drawn)
    return size, s, width


Image_ = tuple[str, Callable[..., bytes], Any, list[str]]


def images(kind: str, players: int) -> Iterator[Image_]:
    """``(what, renderer, view, names)`` for every image of ``kind`` a seeded game at ``players`` players
    shows: at each phase it reaches (:func:`tests.test_render_fit.positions`) the public board, the hand of
    each seat deciding (of seat 0 where nobody does), and at its end the final sheet."""
    from tests.test_render_fit import positions  # it imports this module: here, not in a cycle

    spec = GAMES[kind]
    game = spec.game
    for phase, state in positions(spec, players, {}).items():
        names = WORLD[: state["players"] if spec.names_by_player else state["seats"]]
        public = game.view(state, None)
        yield f"{phase} board", spec.render_board, public, names
        if game.is_over(state):
            yield f"{phase} final", spec.render_final, public, names
        if spec.render_hand is not None:
            for seat in sorted(set(game.to_act(state)) or {0}):
                yield f"{phase} hand {seat}", spec.render_hand, game.view(state, seat), names


def too_small(kind: str, players: int, locale: str) -> tuple[set[str], list[str]]:
    """The kinds of image (board, hand, final) :func:`images` drew, and every text on them too small to
    read on a phone."""
    kinds: set[str] = set()
    found: list[str] = []
    for what, render, view, names in images(kind, players):
        with text_sizes() as drawn:
            width = Image.open(io.BytesIO(render(view, names, locale))).width
        assert drawn, what
        kinds.add(what.split()[1])
        found += [
            f"{what}: {s!r} at {size} px, {width} px wide" for size, s in drawn if not theme.readable(size, width)
        ]
    return kinds, found


def tables() -> Iterator[Any]:
    """Every game in English and German at four players (or the most it takes, or the least), and at its
    largest table (``slow``)."""
    for kind, spec in GAMES.items():
        game = spec.game
        usual = min(max(4, game.min_players), game.max_players)
        for players in sorted({usual, game.max_players}):
            for locale in ("en", "de"):
                marks = [] if players == usual else [pytest.mark.slow]
                yield pytest.param(kind, players, locale, id=f"{kind}-{players}-{locale}", marks=marks)


@pytest.mark.parametrize(("kind", "players", "locale"), list(tables()))
def test_every_board_hand_and_final_sheet_is_readable_on_a_phone(kind: str, players: int, locale: str) -> None:
    kinds, found = too_small(kind, players, locale)
    assert kinds == ({"board", "final", "hand"} if GAMES[kind].render_hand else {"board", "final"})
    assert not found, "\n".join(found[:20])


def test_the_floor_is_nine_pixels_at_a_phones_width() -> None:
    assert theme.readable(25, 1100) and not theme.readable(24, 1100)
    assert theme.MIN_TEXT == 26 and theme.readable(theme.MIN_TEXT, theme.MAX_WIDTH)
    assert not theme.readable(theme.MIN_TEXT, 1220)  # the floor holds only for images as narrow as the widest


def test_the_record_finds_text_drawn_too_small_and_a_cubes_value_at_its_size() -> None:
    canvas = Image.new("RGB", (1100, 200))
    with text_sizes() as drawn:
        theme.text(canvas, (10, 10), "tiny words", theme.font(20), theme.INK)
        theme.cube(3, 40)
    assert (20, "tiny words") in drawn and not theme.readable(20, canvas.width)
    assert (theme.MIN_TEXT, "3") in drawn  # drawn on the cube at the size it shows, not supersampled
