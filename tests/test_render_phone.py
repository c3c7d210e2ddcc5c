"""Images stay readable on a phone: a phone in portrait shows a ~1,100 px wide image about 400 px wide, so no
text may be drawn smaller than 1/48 of the image's width (24 px: 8.5 px high on the phone)."""

from __future__ import annotations

import io
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from PIL import Image

from rendering import piratz, theme
from rendering import sewerpirats as sp

WORLD = ["李小龍", "محمد", "Zoë 🐀", "Captain Christopher Columbus", "देवनागरी"]


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


def boards() -> Iterator[tuple[str, Callable[..., bytes], tuple[object, ...]]]:
    from tests import test_render_piratz as tp  # they use text_sizes: imported here, not in a cycle
    from tests import test_render_sewerpirats as ts

    for phase in ("turn", "decide", "rat_alert", "bury", "over"):
        view = tp.make_view(3, phase=phase, to_act=() if phase == "over" else (1,), spades_in_middle=(0,))
        yield f"piratz {phase}", piratz.render_board, (view, WORLD)
    yield "piratz blind", piratz.render_board, (tp.make_view(4, blind=True), WORLD)
    for variant, seats, seed in [*ts.GAMES, ts.TOAD_GAME]:
        for state in ts.one_per_phase(ts.play(variant, seats, seed)):
            view = ts.GAME.view(state, None)
            yield f"sewerpirats {variant} {view['phase']}", sp.render_board, (view, WORLD[:seats])


@pytest.mark.slow  # tests/test_render_fit.py checks the same floor for every game's largest table by default
def test_no_board_text_is_too_small_for_a_phone() -> None:
    for label, render, args in boards():
        size, s, width = smallest(render, *args)
        assert size >= width / 48, (label, size, s)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_piratz_final_scoring_is_readable_on_a_phone(seats: int) -> None:
    from tests import test_render_piratz as tp

    size, s, width = smallest(piratz.render_final, tp.make_final(seats), WORLD[:seats])
    assert size >= width / 48, (size, s)


@pytest.mark.parametrize(
    ("variant", "seats", "seed"), [("standard", 4, "seed1"), ("auction", 5, "seed1"), ("landlubber", 3, "seed2")]
)
def test_sewerpirats_final_scoring_and_hands_are_readable_on_a_phone(variant: str, seats: int, seed: str) -> None:
    from tests import test_render_sewerpirats as ts

    states = ts.play(variant, seats, seed)
    size, s, width = smallest(sp.render_final, ts.GAME.view(states[-1], None), WORLD[:seats])
    assert size >= width / 48, (size, s)
    busy = max(states[: len(states) * 2 // 3], key=ts.aboard)
    size, s, width = smallest(sp.render_hand, ts.GAME.view(busy, 0), WORLD[:seats])
    assert size >= width / 48, (size, s)
