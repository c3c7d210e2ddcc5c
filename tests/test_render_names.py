"""Names in every script are drawn as they are: CJK, Cyrillic, Greek, Arabic and Hebrew (right to left),
Devanagari, emoji; with Pillow's shaping (raqm) and without it."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image, ImageChops

from rendering import piratz, theme, typeset
from rendering import sewerpirats as sp
from tests.test_render_phone import text_sizes

NAMES = ["李小龍", "Ёжик", "Σωκράτης", "محمد", "שלום", "देवनागरी", "🦜🏴\u200d☠\ufe0f", "Zoë 🐀"]
ROW = 64
TOFU = "\U000f0000"
"""A private-use character no bundled font has: drawn as the missing-glyph box."""


def sheet(names: list[str], bold: bool = False) -> Image.Image:
    """Each name on its own row of a plain white image, left-aligned at x = 10."""
    img = Image.new("RGB", (520, ROW * len(names)), (255, 255, 255))
    for i, name in enumerate(names):
        theme.text(img, (10, i * ROW + ROW / 2), name, theme.font(32, bold=bold), (0, 0, 0), anchor="lm")
    return img


def ink(img: Image.Image, box: tuple[int, int, int, int]) -> int:
    """Pixels in ``box`` that are not the white background."""
    region = img.crop(box).convert("L")
    return sum(n for n, v in region.getcolors(region.width * region.height) or [] if v < 200)


def colourful(img: Image.Image, box: tuple[int, int, int, int]) -> int:
    """Pixels in ``box`` with a clear hue (colour emoji; black text on white has none)."""
    r, g, b = (img.crop(box).getchannel(c).tobytes() for c in "RGB")
    return sum(max(p) - min(p) > 60 for p in zip(r, g, b, strict=True))


def test_a_sheet_of_names_in_every_script(tmp_path: Path) -> None:
    img = sheet(NAMES)
    img.save(tmp_path / "names.png")  # for a person to look at
    for i, name in enumerate(NAMES):
        box = (0, i * ROW, img.width, (i + 1) * ROW)
        assert ink(img, box) > 150, name
        width = theme.text_width(name, theme.font(32))
        assert ink(img, (10 + round(width) + 4, i * ROW, img.width, (i + 1) * ROW)) == 0, name  # measured right
    emoji_row = NAMES.index("🦜🏴\u200d☠\ufe0f")
    assert colourful(img, (0, emoji_row * ROW, img.width, (emoji_row + 1) * ROW)) > 300
    assert colourful(img, (0, 0, img.width, ROW * 6)) == 0


@pytest.mark.parametrize("name", ["李小龍", "देवनागरी", "محمد"])
def test_names_are_not_drawn_as_missing_glyph_boxes(name: str) -> None:
    drawn, tofu = sheet([name]), sheet([TOFU * len(name)])
    assert ImageChops.difference(drawn, tofu).getbbox() is not None
    assert ink(drawn, (0, 0, drawn.width, ROW)) != ink(tofu, (0, 0, tofu.width, ROW))


def test_each_script_takes_its_font_and_direction() -> None:
    def runs(name: str) -> list[tuple[str, str, bool]]:
        return [(r.text, r.file, r.rtl) for r in typeset.line(name, "DejaVuSans.ttf")]

    assert runs("李小龍") == [("李小龍", "NotoSansCJKjp-Regular-subset.otf", False)]
    assert runs("देवनागरी") == [("देवनागरी", "NotoSansDevanagari-Regular.ttf", False)]
    assert runs("🦜🏴\u200d☠\ufe0f") == [("🦜🏴\u200d☠\ufe0f", typeset.EMOJI, False)]  # the skull stays in the flag
    assert runs("Zoë 🐀") == [("Zoë ", "DejaVuSans.ttf", False), ("🐀", typeset.EMOJI, False)]
    # Right to left: the first word of an Arabic name at the right, the parrot between the words.
    assert runs("محمد 🦜 علي") == [
        (" علي", "DejaVuSans.ttf", True),
        ("🦜", typeset.EMOJI, True),
        ("محمد ", "DejaVuSans.ttf", True),
    ]
    # A Hebrew word inside a Latin name keeps the Latin order around it; so does a sentence about a name.
    assert [text for text, *_ in runs("Zoë שלום abc")] == ["Zoë ", "שלום", " abc"]
    assert [text for text, *_ in runs("محمد to reveal or pass.")] == ["محمد", " to reveal or pass."]


def test_bidi_levels_follow_the_unicode_algorithm() -> None:
    assert typeset.levels(["L", "WS", "R", "WS", "EN"]) == [0, 0, 1, 1, 2]  # the number joins the Hebrew
    assert typeset.levels(["R", "WS", "EN", "WS", "ON"]) == [1, 1, 2, 1, 1]
    assert typeset.levels(["R", "WS", "EN", "WS", "L"]) == [1, 1, 2, 0, 0]  # English words: left to right
    assert typeset.levels(["AL", "EN"]) == [1, 2]  # Arabic then a number: an Arabic number
    assert typeset.levels(["ON", "WS"]) == [0, 0]


def test_without_raqm_every_name_still_draws_in_order() -> None:
    """Pillow without FriBiDi cannot shape: names still draw, right-to-left words reversed by hand."""
    for name in NAMES:
        runs = typeset.line(name, "DejaVuSans.ttf")
        img, _, _, advance = typeset.draw_line(runs, 32, (0, 0, 0), None, raqm=False)
        assert advance > 0 and img.getchannel("A").getbbox() is not None, name
    (run,) = typeset.line("שלום", "DejaVuSans.ttf")
    assert typeset._shaped(run, raqm=False)[0] == "םולש"


def test_clean_name_keeps_every_script_and_drops_what_cannot_be_shown() -> None:
    assert theme.clean_name("Ｃａｐｔａｉｎ  🦜\nJörg") == "Ｃａｐｔａｉｎ 🦜 Jörg"
    assert theme.clean_name("李小龍") == "李小龍"
    assert theme.clean_name("evil\u202ename\u0007") == "evilname"  # a bidi override, a bell
    assert theme.clean_name("q" + "\u0301" * 20) == "q" + "\u0301" * theme.MAX_MARKS  # no tower of accents
    assert theme.clean_name("🏴\u200d☠\ufe0f") == "🏴\u200d☠\ufe0f"
    assert theme.seat_names(["李小龍", "  ", "🦜"], 4) == ["李小龍", "Seat 2", "🦜", "Seat 4"]


def test_boards_draw_the_names_themselves() -> None:
    from tests.test_render_piratz import make_view
    from tests.test_render_sewerpirats import GAME, aboard, play

    view = make_view(4)
    with text_sizes() as drawn:
        piratz.render_board(view, NAMES[:4])
    texts = {s for _, s in drawn}
    assert {"李小龍", "Ёжик", "Σωκράτης", "محمد"} <= texts and not any(s.startswith("Seat") for s in texts)
    state = max(play("auction", 5, "seed1"), key=aboard)
    with text_sizes() as drawn:
        sp.render_board(GAME.view(state, None), NAMES[3:])
        sp.render_final(GAME.view(play("auction", 5, "seed1")[-1], None), NAMES[3:])
    texts = {s for _, s in drawn}
    assert set(NAMES[3:]) <= texts


def test_latin_text_takes_the_plain_pillow_path() -> None:
    """The common case stays as fast as before: no analysis for ASCII, one run in DejaVu for Latin."""
    assert theme._runs("Anne Bonny", theme.font(24)) is None
    assert theme._runs("Zoë Þór", theme.font(24)) is None
    assert theme._runs("Zoë 🐀", theme.font(24)) is not None


@pytest.mark.parametrize("name", ["Anne Bonny", "Christopher", "Bartholomew Roberts the Great", "Mary Read", "李小龍"])
@pytest.mark.parametrize("width", [120, 150, 178, 240])
def test_a_name_pill_keeps_to_the_width_it_is_given(name: str, width: int) -> None:
    # A name that fits one line only without a pill's round ends is drawn on a box with narrower ends,
    # never on a pill wider than its column (five seats' final scores put pills side by side).
    canvas = Image.new("RGB", (400, 200), (255, 255, 255))
    left, _, right, _ = theme.name_pill(canvas, (200, 10), name, 0, width, 26, 42, lines=3)
    assert right - left <= width
