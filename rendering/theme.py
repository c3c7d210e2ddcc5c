"""The shared look of every game: a sea-chart table, parchment panels, gold accents.

Everything returned by a cached function here (fonts, icons, shapes, layers) is shared between threads
and must be treated as read-only: paste it, never draw on it. :func:`new_canvas` returns a fresh copy.
"""

from __future__ import annotations

import math
import struct
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

from isal import isal_zlib
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from games.i18n import localize, ntr, tr
from rendering import typeset
from rendering.cache import image_cache

RGB = tuple[int, int, int]
RGBA = tuple[int, int, int, int]
Box = tuple[int, int, int, int]

# ------------------------------------------------------------------ palette
SEA: RGB = (17, 46, 62)
"""Top of the table background: deep teal felt."""
SEA_DEEP: RGB = (9, 26, 40)
"""Bottom of the table background."""
CHART_LINE: RGB = (27, 61, 78)
"""Faint sea-chart grid lines on the background."""
PARCHMENT: RGB = (242, 229, 199)
PARCHMENT_SHADE: RGB = (226, 208, 168)
INK: RGB = (52, 35, 20)
"""Main text colour on parchment."""
INK_SOFT: RGB = (112, 88, 60)
"""Secondary text on parchment."""
GOLD: RGB = (232, 186, 80)
GOLD_DEEP: RGB = (146, 104, 40)
"""Panel borders."""
FOAM: RGB = (226, 236, 240)
"""Main text colour on the dark background."""
MIST: RGB = (150, 176, 188)
"""Secondary text on the dark background."""
DANGER: RGB = (214, 40, 40)
"""Warnings: last round, rat alert."""
HIGHLIGHT: RGB = (64, 226, 255)
"""Marks whoever must act now (glow, tag, status line) and nothing else, so it is easy to find in tests."""
OUTLINE: RGB = (30, 20, 12)
"""Default outline of icons."""


class PlayerColour(NamedTuple):
    """A seat's colour: ``fill`` for tokens, ``text`` readable on ``fill``, ``edge`` to outline tokens."""

    name: str
    fill: RGB
    text: RGB
    edge: RGB


PLAYER_COLOURS: tuple[PlayerColour, ...] = (
    PlayerColour("red", (214, 52, 52), (255, 255, 255), OUTLINE),
    PlayerColour("green", (44, 156, 74), (255, 255, 255), OUTLINE),
    PlayerColour("yellow", (244, 204, 44), (40, 30, 8), OUTLINE),
    PlayerColour("blue", (46, 108, 222), (255, 255, 255), OUTLINE),
    # Charcoal rather than pure black, with a light edge so its tokens show on the dark table.
    PlayerColour("black", (38, 38, 44), (255, 255, 255), (214, 214, 222)),
    PlayerColour("purple", (142, 70, 194), (255, 255, 255), OUTLINE),
    # Seats 7 and 8 (the Pirates Card Game with two decks): eight colours, none repeated.
    PlayerColour("orange", (238, 132, 30), (40, 24, 4), OUTLINE),
    PlayerColour("pink", (222, 92, 166), (255, 255, 255), OUTLINE),
)

ICON_COLOURS: dict[str, RGB] = {
    "ring": (158, 92, 222),
    "coin": (246, 198, 46),
    "pearl": (222, 228, 246),
    "crown": (246, 146, 40),
    "goblet": (52, 176, 96),
    "shell": (246, 128, 160),
    "rat": (150, 146, 156),
    "spade": (170, 176, 186),
    "skull": (240, 234, 218),
}
"""Natural main colour of each icon; also the colour that identifies a treasure type."""

CUBE_COLOURS: dict[int, RGB] = {3: (240, 194, 56), 2: (196, 204, 216), 1: (204, 120, 64)}
"""Score cubes by value: gold 3, silver 2, copper 1."""


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """The colour ``t`` of the way from ``a`` to ``b`` (0 gives ``a``, 1 gives ``b``)."""
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


# ------------------------------------------------------------------ fonts and text
PHONE_WIDTH = 400
"""How wide a phone in portrait shows an image, in px."""
PHONE_TEXT = 9
"""The least text size, in px, that stays readable on that phone."""


def readable(size: int, width: int) -> bool:
    """Whether text of ``size`` px on an image ``width`` px wide is still :data:`PHONE_TEXT` px on a phone
    that shows the image :data:`PHONE_WIDTH` px wide."""
    return size * PHONE_WIDTH >= PHONE_TEXT * width


MAX_WIDTH = 1140
"""The widest image a game draws: every board, hand and final sheet is 1,100–1,140 px wide (portrait)."""
MIN_TEXT = math.ceil(PHONE_TEXT * MAX_WIDTH / PHONE_WIDTH)
"""The smallest text on any image, in px (26): readable (:func:`readable`) on the widest of them."""


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False, condensed: bool = False) -> ImageFont.FreeTypeFont:
    """The bundled DejaVu face at ``size`` px. ``condensed`` selects the condensed bold face.

    Pass it to the functions below, never to Pillow directly: they draw what DejaVu lacks (other
    scripts, emoji) with the fallback fonts of :mod:`rendering.typeset`."""
    name = "DejaVuSansCondensed-Bold.ttf" if condensed else "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return typeset.face(name, size)


def _runs(s: str, fnt: ImageFont.FreeTypeFont) -> tuple[typeset.Run, ...] | None:
    """``s`` as runs of fonts and directions, or ``None`` when DejaVu alone draws it left to right
    (every ASCII string, and most others: the common cases skip the analysis)."""
    if s.isascii():
        return None
    primary = Path(fnt.path).name
    if typeset.plain(s, primary):
        return None
    runs = typeset.line(s, primary)
    return None if typeset.is_simple(runs, primary) else runs


def text(
    canvas: Image.Image,
    xy: tuple[float, float],
    s: str,
    fnt: ImageFont.FreeTypeFont,
    fill: RGB,
    *,
    anchor: str = "la",
    outline: RGB | None = None,
    shadow: RGB | None = None,
) -> None:
    """Draw ``s`` at ``xy`` (a Pillow text ``anchor``: l/m/r then a/m/s/d), with an optional 2 px outline
    and/or a drop shadow. Any script and emoji (see :mod:`rendering.typeset`).

    Short strings (names, numbers, labels) repeat on every render, so they are rasterised once and cached.
    """
    if shadow is not None:
        _stamp(canvas, (xy[0] + 2, xy[1] + 2), s, fnt, shadow, anchor, None)
    _stamp(canvas, xy, s, fnt, fill, anchor, outline)


def _stamp(
    canvas: Image.Image,
    xy: tuple[float, float],
    s: str,
    fnt: ImageFont.FreeTypeFont,
    fill: RGB,
    anchor: str,
    outline: RGB | None,
) -> None:
    if len(s) <= 40 or "\n" in s or _runs(s, fnt) is not None:
        img, (dx, dy) = (_text_image if len(s) <= 40 else _draw_text)(s, fnt, fill, anchor, outline)
        _over(canvas, img, round(xy[0]) + dx, round(xy[1]) + dy)
        return
    # A long line of plain text, a word at a time. The long lines (events, prompts) change with every move,
    # but their words hardly ever: each word is rasterised once and cached, where drawing the line whole
    # rasterised every glyph of it again (~1 ms a line against ~0.3). Each word starts where it would in the
    # whole line, to the pixel (the vertical anchors are the font's, the same for every word).
    x = xy[0]
    if anchor[0] != "l":
        x -= _measure(s, fnt) / (2 if anchor[0] == "m" else 1)
    space = text_width(" ", fnt)
    for word in s.split(" "):
        if word:
            img, (dx, dy) = _text_image(word, fnt, fill, "l" + anchor[1], outline)
            _over(canvas, img, round(x) + dx, round(xy[1]) + dy)
            x += text_width(word, fnt)
        x += space


def _draw_text(
    s: str, fnt: ImageFont.FreeTypeFont, fill: RGB, anchor: str, outline: RGB | None
) -> tuple[Image.Image, tuple[int, int]]:
    """``s`` on a transparent image, and where the image's corner lies relative to the anchor point."""
    runs = _runs(s, fnt)
    if runs is not None:
        img, pen_x, baseline, advance = typeset.draw_line(runs, fnt.size, fill, outline)
        ax = {"l": 0.0, "m": advance / 2, "r": advance}[anchor[0]]
        return img, (round(-ax - pen_x), round(-_rise(fnt, anchor[1]) - baseline))
    if outline is None and "\n" not in s:
        # One line, no outline: FreeType lays the text out and rasterises it once, and the mask is the
        # image's alpha. Pillow's `ImageDraw.text` (below) measures the line, then lays it out again to draw
        # it, and blends the same fill over a transparent image: the same pixels, in ~1.6 times the time.
        mask, (left, top) = fnt.getmask2(s, "L", anchor=anchor)
        img = Image.new("RGBA", (max(1, mask.size[0]), max(1, mask.size[1])), (*fill, 0))
        if mask.size[0] and mask.size[1]:
            img.im.putband(mask, 3)
        return img, (left, top)
    stroke = 2 * bool(outline)
    left, top, right, bottom = (round(v) for v in fnt.getbbox(s, anchor=anchor, stroke_width=stroke))
    img = Image.new("RGBA", (max(1, right - left), max(1, bottom - top)), (*fill, 0))
    ImageDraw.Draw(img).text(
        (-left, -top), s, font=fnt, fill=fill, anchor=anchor, stroke_width=stroke, stroke_fill=outline
    )
    return img, (left, top)


_text_image = image_cache(_draw_text)


@lru_cache(maxsize=256)
def _rise(fnt: ImageFont.FreeTypeFont, vertical: str) -> int:
    """Where a vertical anchor (a, m, s, d) lies relative to the baseline in ``fnt`` (negative: above),
    so that text in fallback fonts sits on the line exactly as DejaVu text would."""
    return fnt.getbbox("x", anchor="ls")[1] - fnt.getbbox("x", anchor="l" + vertical)[1]


@lru_cache(maxsize=4096)
def text_width(s: str, fnt: ImageFont.FreeTypeFont) -> float:
    """Width of ``s`` in ``fnt`` in px (cached: the same names and numbers are measured on every render)."""
    return _measure(s, fnt)


def _measure(s: str, fnt: ImageFont.FreeTypeFont) -> float:
    runs = _runs(s, fnt)
    return fnt.getlength(s) if runs is None else sum(typeset.run_width(r, fnt.size) for r in runs)


@lru_cache(maxsize=512)
def ellipsize(s: str, fnt: ImageFont.FreeTypeFont, width: float) -> str:
    """``s`` cut with "…" so that it fits ``width`` px in ``fnt`` (never inside a character's cluster)."""
    if text_width(s, fnt) <= width:
        return s
    parts = typeset.clusters(s)
    lo, hi = 0, len(parts)
    while lo < hi:  # longest prefix that still fits with the ellipsis
        mid = (lo + hi + 1) // 2
        if _measure("".join(parts[:mid]).rstrip() + "…", fnt) <= width:
            lo = mid
        else:
            hi = mid - 1
    return "".join(parts[:lo]).rstrip() + "…"


@lru_cache(maxsize=512)
def fit_text(
    s: str, width: float, size: int, *, bold: bool = True, condensed: bool = False, min_size: int = MIN_TEXT
) -> tuple[str, ImageFont.FreeTypeFont]:
    """Shrink ``s`` from ``size`` down to ``min_size`` until it fits ``width`` (bold text tries the
    condensed bold face next); past that, ellipsize it."""
    faces = [(bold, condensed), (True, True)] if bold and not condensed else [(bold, condensed)]
    for b, c in faces:
        widest = text_width(s, font(size, b, c))
        for px in range(size, min_size - 1, -2):
            # A text's width grows with its size, within a few per cent (hinting): a size it is far too wide
            # at is not measured (a long status tried six sizes, each measured afresh: ~0.5 ms a board).
            if px < size and widest * px > width * size * 1.06:
                continue
            fnt = font(px, b, c)
            if text_width(s, fnt) <= width:
                return s, fnt
    fnt = font(min_size, *faces[-1])
    return ellipsize(s, fnt, width), fnt


@lru_cache(maxsize=512)
def fit_lines(
    s: str, width: float, size: int, lines: int = 2, min_size: int = MIN_TEXT
) -> tuple[tuple[str, ...], ImageFont.FreeTypeFont]:
    """Bold ``s`` on one line as :func:`fit_text` fits it (down to ``min_size`` px) without cutting it; else
    wrapped over up to ``lines`` lines in the condensed bold face at ``min_size`` px (only then cut with "…")."""
    fitted, fnt = fit_text(s, width, size, min_size=min_size)
    if fitted == s:
        return (s,), fnt
    fnt = font(min_size, True, True)
    return wrap(s, fnt, width, lines), fnt


@lru_cache(maxsize=256)
def wrap(s: str, fnt: ImageFont.FreeTypeFont, width: float, lines: int = 0) -> tuple[str, ...]:
    """``s`` broken at spaces into lines of at most ``width`` px (a word too long for a line is broken
    between characters). With ``lines``, at most that many: the last one then ends with "…"."""
    joined = " ".join(s.split())
    if _measure(joined, fnt) <= width:  # most texts fit on one line
        return (joined,) if joined else ()
    out: list[str] = []
    for word in s.split():
        trial = f"{out[-1]} {word}" if out else word
        if out and _measure(trial, fnt) <= width:
            out[-1] = trial
            continue
        # Break a word too long for a line (a name in a script without spaces) between its clusters.
        while len(parts := typeset.clusters(word)) > 1 and _measure(word, fnt) > width:
            k = len(parts) - 1
            while k > 1 and _measure("".join(parts[:k]), fnt) > width:
                k -= 1
            out.append("".join(parts[:k]))
            word = "".join(parts[k:])
        if word:
            out.append(word)
    if lines and len(out) > lines:
        out = [*out[: lines - 1], ellipsize(" ".join(out[lines - 1 :]), fnt, width)]
    return tuple(out)


_KEPT_FORMAT = frozenset("\u200c\u200d") | {chr(c) for c in range(0xE0020, 0xE0080)}
"""Invisible format characters that a name needs: joiners (emoji sequences, Indic) and flag tags."""
MAX_MARKS = 3
"""Combining marks kept on one character (more only stack into a tower: "Zalgo" text)."""


@lru_cache(maxsize=256)
def clean_name(name: str) -> str:
    """A display name ready to draw on one line, in whatever script it is: NFC-normalised, without
    control characters, bidirectional overrides or piles of combining marks, whitespace collapsed.
    May be empty."""
    kept: list[str] = []
    marks = 0
    for ch in unicodedata.normalize("NFC", name):
        category = unicodedata.category(ch)
        if category[0] == "M":
            marks += 1
            if marks > MAX_MARKS:
                continue
        else:
            marks = 0
        if category in ("Cc", "Cs", "Co", "Cn") and not ch.isspace():
            continue
        if category == "Cf" and ch not in _KEPT_FORMAT:
            continue
        kept.append(ch)
    return " ".join("".join(kept).split())


def event_room(lines: int, least: int) -> int:
    """The lines of room a board keeps for its recent events, which take ``lines``: ``least`` at least, and
    above it a step of two. A board's layer is drawn for each height of its events' panel, the first time
    a layout meets it (~8 ms, in that board's answer): steps of two halve the heights a game meets, for
    one blank line at most (Piratz's action p99 0.82–0.91 in four pairs of runs)."""
    return least + max(0, lines - least + 1) // 2 * 2


def seat_names(names: Sequence[str], seats: int, locale: str = "en") -> list[str]:
    """A drawable name for every seat: its cleaned display name, or "Seat N" (in ``locale``) where none is
    given."""
    return [(clean_name(names[s]) if s < len(names) else "") or tr(locale, "Seat {n}", n=s + 1) for s in range(seats)]


# ------------------------------------------------------------------ shapes
_SUPERSAMPLE = 3


@image_cache
def rounded(
    w: int, h: int, radius: int, fill: RGB | RGBA | None, border: RGB | None = None, border_width: int = 0
) -> Image.Image:
    """An anti-aliased rounded rectangle as an RGBA image (the base of panels, cards and pills).

    Only the corners need drawing supersampled: a small rectangle of the same corners is drawn so, and its
    corners, its edges stretched and its middle colour make the large one (a 1056×598 panel drawn whole at
    3× took ~50 ms, the first time a layout met it in an action; this way ~1 ms, and a corner pixel differs
    by 5 of 255 at most)."""
    c = max(radius, border_width) + 1  # how far from each side a corner reaches
    if w <= 2 * c + 1 or h <= 2 * c + 1:
        return _rounded_drawn(w, h, radius, fill, border, border_width)
    return _stretched(_rounded_drawn(2 * c + 1, 2 * c + 1, radius, fill, border, border_width), w, h)


def _stretched(small: Image.Image, w: int, h: int) -> Image.Image:
    """``small``, a square of side ``2c + 1`` whose middle row and column repeat along its edges (a rounded
    shape), grown to ``w`` × ``h``: its ``c``-pixel corners kept, its edges stretched, its middle pixel
    filling the rest."""
    c = small.width // 2
    out = Image.new(small.mode, (w, h), small.getpixel((c, c)))
    for piece, xy in _rim_pieces(small, w, h):
        out.paste(piece, xy)
    return out


def _rim_pieces(small: Image.Image, w: int, h: int) -> Iterator[tuple[Image.Image, tuple[int, int]]]:
    """The corners and stretched edges of ``small`` grown to ``w`` × ``h`` (:func:`_stretched`), with their
    places: everything but its middle."""
    c = small.width // 2
    right, bottom = w - c, h - c
    for sx, sy, x, y in ((0, 0, 0, 0), (c + 1, 0, right, 0), (0, c + 1, 0, bottom), (c + 1, c + 1, right, bottom)):
        yield small.crop((sx, sy, sx + c, sy + c)), (x, y)
    across, down = w - 2 * c, h - 2 * c
    nearest = Image.Resampling.NEAREST
    yield small.crop((c, 0, c + 1, c)).resize((across, c), nearest), (c, 0)
    yield small.crop((c, c + 1, c + 1, 2 * c + 1)).resize((across, c), nearest), (c, bottom)
    yield small.crop((0, c, c, c + 1)).resize((c, down), nearest), (0, c)
    yield small.crop((c + 1, c, 2 * c + 1, c + 1)).resize((c, down), nearest), (right, c)


@image_cache
def _rounded_drawn(
    w: int, h: int, radius: int, fill: RGB | RGBA | None, border: RGB | None, border_width: int
) -> Image.Image:
    s = _SUPERSAMPLE
    big = Image.new("RGBA", (w * s, h * s), (0, 0, 0, 0))
    ImageDraw.Draw(big).rounded_rectangle(
        (0, 0, w * s - 1, h * s - 1), radius * s, fill=fill, outline=border, width=border_width * s
    )
    return big.resize((w, h), Image.Resampling.BOX)


@image_cache
def _shadow_mask(w: int, h: int, radius: int, blur: int) -> Image.Image:
    """A panel's soft shadow: its rounded shape blurred, ``2 * blur`` larger on every side. Blurred small and
    stretched (:func:`_stretched`): blurring a large panel's whole mask took 3–4 ms."""
    c = 4 * blur + radius + 2  # how far from each side a blurred corner reaches
    if w + 4 * blur <= 2 * c + 1 or h + 4 * blur <= 2 * c + 1:
        return _shadow_drawn(w, h, radius, blur)
    side = 2 * c + 1 - 4 * blur
    return _stretched(_shadow_drawn(side, side, radius, blur), w + 4 * blur, h + 4 * blur)


@image_cache
def _shadow_drawn(w: int, h: int, radius: int, blur: int) -> Image.Image:
    pad = blur * 2
    mask = Image.new("L", (w + 2 * pad, h + 2 * pad), 0)
    ImageDraw.Draw(mask).rounded_rectangle((pad, pad, pad + w, pad + h), radius, fill=150)
    return mask.filter(ImageFilter.GaussianBlur(blur))


def panel(
    canvas: Image.Image,
    box: Box,
    *,
    fill: RGB | RGBA = PARCHMENT,
    border: RGB | None = GOLD_DEEP,
    radius: int = 18,
    shadow: bool = True,
) -> None:
    """A rounded panel with a 3 px border and a soft drop shadow.

    An opaque panel on an opaque canvas is laid by its rim: its middle is a plain fill, and the shadow
    under that middle, which the panel hides, is not drawn (a large panel took ~3.5 ms, most of a board
    layout's first drawing)."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    width = 3 if border else 0
    c = max(radius, width) + 1  # the rim: beyond it the panel is its fill
    hides = canvas.mode == "RGB" and (len(fill) == 3 or fill[3] == 255) and min(w, h) > 2 * c + 16
    if shadow:
        blur = 8
        dx, dy = 3 - 2 * blur, 5 - 2 * blur  # falls down and right
        if hides:
            hole = (c - dx, c - dy, c - dx + w - 2 * c, c - dy + h - 2 * c)
            for band, (x, y) in _shadow_rim(w, h, radius, blur, hole):
                canvas.paste((0, 0, 0), (x0 + dx + x, y0 + dy + y), band)
        else:
            canvas.paste((0, 0, 0), (x0 + dx, y0 + dy), _shadow_mask(w, h, radius, blur))
    if hides:  # the rim over its own alpha, the middle a plain fill: no panel-sized image at all
        canvas.paste(fill[:3], (x0 + c, y0 + c, x1 - c, y1 - c))
        for piece, (x, y) in _panel_rim(w, h, radius, fill, border, width):
            _over(canvas, piece, x0 + x, y0 + y)
    else:
        _over(canvas, rounded(w, h, radius, fill, border, width), x0, y0)


@image_cache
def _panel_rim(
    w: int, h: int, radius: int, fill: RGB | RGBA, border: RGB | None, border_width: int
) -> tuple[tuple[Image.Image, tuple[int, int]], ...]:
    """A ``w`` × ``h`` panel but for its plain middle (:func:`rounded`'s corners and stretched edges), as
    pieces with their places. Cut and stretched once per size, as the shadow's bands are cut
    (:func:`_shadow_rim`): doing both again for every panel was a sixth of a Pirates Card Game hand's
    drawing (four or five panels a hand, of sizes its cards and missions set)."""
    c = max(radius, border_width) + 1
    return tuple(_rim_pieces(_rounded_drawn(2 * c + 1, 2 * c + 1, radius, fill, border, border_width), w, h))


@image_cache
def _shadow_rim(
    w: int, h: int, radius: int, blur: int, hole: tuple[int, int, int, int]
) -> tuple[tuple[Image.Image, tuple[int, int]], ...]:
    """A ``w`` × ``h`` panel's shadow (:func:`_shadow_mask`) but for the rectangle ``hole`` of it, which
    the panel hides: four bands with their places."""
    mask = _shadow_mask(w, h, radius, blur)
    left, top, right, bottom = hole
    bands = (
        (0, 0, mask.width, top),
        (0, bottom, mask.width, mask.height),
        (0, top, left, bottom),
        (right, top, mask.width, bottom),
    )
    return tuple((mask.crop(band), (band[0], band[1])) for band in bands)


def paste(canvas: Image.Image, img: Image.Image, xy: tuple[float, float], anchor: str = "lt") -> None:
    """Lay an RGBA image over ``canvas``; ``anchor`` "lt" (top-left) or "mm" (centre) places ``xy``."""
    x, y = xy
    if anchor == "mm":
        x, y = x - img.width / 2, y - img.height / 2
    _over(canvas, img, round(x), round(y))


def _over(canvas: Image.Image, img: Image.Image, x: int, y: int) -> None:
    if canvas.mode == "RGB" and img.mode == "RGBA":
        # What Image.paste(img, (x, y), img) does here, without its handling of every other kind of argument:
        # about 70 of a board's 90 pastes come this way, and the handling cost ~3.6 µs each (18.6 against
        # 15.0 µs for a word's image), all of it holding the GIL the event loop waits for. Both images are
        # drawn in memory (loaded; the canvas is a copy or a new image, so writable), and the core clips a
        # box that runs off the canvas as paste does.
        source = img.im
        canvas.im.paste(source, (x, y, x + img.width, y + img.height), source)
        return
    if canvas.mode != "RGBA":
        canvas.paste(img, (x, y), img)
        return
    # On an RGBA canvas (a cached card face) paste would blend the alpha too and leave see-through fringes.
    if x < 0 or y < 0:
        img = img.crop((max(0, -x), max(0, -y), img.width, img.height))
        x, y = max(0, x), max(0, y)
    canvas.alpha_composite(img, (x, y))


def pill(
    canvas: Image.Image,
    xy: tuple[float, float],
    s: str,
    fnt: ImageFont.FreeTypeFont,
    fill: RGB,
    text_fill: RGB,
    *,
    border: RGB | None = None,
    icon_img: Image.Image | None = None,
    align: str = "left",
    height: int | None = None,
) -> Box:
    """A badge: ``s`` (and an optional leading icon) on a rounded pill. ``xy`` is its top-left corner, or
    its top-centre / top-right with ``align`` "center" / "right". Returns the pill's box."""
    h = height or round(fnt.size * 1.55)
    pad = h // 2
    icon_w = icon_img.width + 6 if icon_img is not None else 0
    w = round(text_width(s, fnt)) + 2 * pad + icon_w
    x = round(xy[0] - (w / 2 if align == "center" else w if align == "right" else 0))
    y = round(xy[1])
    _over(canvas, rounded(w, h, h // 2, fill, border, 2 if border else 0), x, y)
    if icon_img is not None:
        paste(canvas, icon_img, (x + pad, y + (h - icon_img.height) / 2))
    text(canvas, (x + pad + icon_w, y + h / 2), s, fnt, text_fill, anchor="lm")
    return x, y, x + w, y + h


@image_cache
def card(w: int, h: int, face: RGB = PARCHMENT, border: RGB = GOLD_DEEP, border_width: int = 3) -> Image.Image:
    """A blank card (RGBA, rounded, bordered, with a thin inner line), for games to draw faces on."""
    img = rounded(w, h, max(8, w // 10), face, border, border_width).copy()
    inset = border_width + 4
    line = rounded(w - 2 * inset, h - 2 * inset, max(5, w // 14), None, mix(face, border, 0.45), 1)
    img.alpha_composite(line, (inset, inset))
    return img


@image_cache
def card_back(w: int, h: int) -> Image.Image:
    """The back of a face-down card: deep red with a gold frame, a lattice and a skull."""
    back = card(w, h, (120, 28, 38), GOLD, 3).copy()
    inset = 9
    lattice = Image.new("RGBA", (w - 2 * inset, h - 2 * inset), (0, 0, 0, 0))
    draw = ImageDraw.Draw(lattice)
    lw, lh = lattice.size
    for i in range(-lh, lw, 14):
        draw.line((i, 0, i + lh, lh), fill=(156, 56, 60), width=2)
        draw.line((i, lh, i + lh, 0), fill=(156, 56, 60), width=2)
    back.alpha_composite(lattice, (inset, inset))
    skull = icon("skull", min(w, h) // 2)
    back.alpha_composite(skull, ((w - skull.width) // 2, (h - skull.height) // 2))
    return back


_GLOW_PAD = 24


def glow(canvas: Image.Image, box: Box, colour: RGB = HIGHLIGHT, radius: int = 18) -> None:
    """Frame ``box`` (a panel of corner ``radius``) with a bright border and a soft outer glow."""
    x0, y0, x1, y1 = box
    _over(canvas, _glow_image(x1 - x0, y1 - y0, radius, colour), x0 - _GLOW_PAD, y0 - _GLOW_PAD)


@image_cache
def _glow_image(w: int, h: int, radius: int, colour: RGB) -> Image.Image:
    pad = _GLOW_PAD
    alpha = Image.new("L", (w + 2 * pad, h + 2 * pad), 0)
    draw = ImageDraw.Draw(alpha)
    draw.rounded_rectangle((pad - 8, pad - 8, pad + w + 7, pad + h + 7), radius + 8, fill=255)
    alpha = alpha.filter(ImageFilter.GaussianBlur(9))
    ImageDraw.Draw(alpha).rounded_rectangle((pad + 4, pad + 4, pad + w - 5, pad + h - 5), radius, fill=0)
    halo = Image.new("RGBA", alpha.size, (*colour, 0))
    halo.putalpha(alpha)
    halo.alpha_composite(rounded(w, h, radius, None, colour, 5), (pad, pad))
    return halo


def legend_rows(
    entries: Sequence[tuple[Image.Image, str]], fnt: ImageFont.FreeTypeFont, width: float, gap: int = 28
) -> list[list[tuple[Image.Image, str]]]:
    """``icon label`` entries laid out in rows of at most ``width`` px (a new row where one would overflow)."""
    rows: list[list[tuple[Image.Image, str]]] = [[]]
    x = 0.0
    for img, label in entries:
        w = img.width + 6 + text_width(label, fnt)
        if rows[-1] and x + w > width:
            rows.append([])
            x = 0.0
        rows[-1].append((img, label))
        x += w + gap
    return rows


def legend(
    canvas: Image.Image,
    xy: tuple[float, float],
    entries: Sequence[tuple[Image.Image, str]],
    fnt: ImageFont.FreeTypeFont,
    fill: RGB,
    *,
    width: float,
    gap: int = 28,
    row_h: int = 38,
) -> int:
    """Rows of ``icon label`` entries within ``width`` px, the first row vertically centred on ``xy[1]``
    (see :func:`legend_rows`). Returns the number of rows."""
    rows = legend_rows(entries, fnt, width, gap)
    for r, row in enumerate(rows):
        x, y = xy[0], xy[1] + r * row_h
        for img, label in row:
            paste(canvas, img, (x + img.width / 2, y), "mm")
            x += img.width + 6
            text(canvas, (x, y), label, fnt, fill, anchor="lm")
            x += text_width(label, fnt) + gap
    return len(rows)


def title(canvas: Image.Image, xy: tuple[int, int], icon_img: Image.Image, s: str, size: int) -> float:
    """An image's title: ``icon_img`` with its top-left at ``xy``, then ``s`` in gold, vertically centred
    on the icon. Returns the x where the title ends."""
    x, y = xy
    paste(canvas, icon_img, (x, y))
    fnt = font(size, bold=True)
    text(canvas, (x + icon_img.width + 6, y + icon_img.height / 2), s, fnt, GOLD, anchor="lm", shadow=(0, 0, 0))
    return x + icon_img.width + 6 + text_width(s, fnt)


# ------------------------------------------------------------------ the top band
TITLE_Y = 12
"""Where an image's title row starts (the top of its 52 px icon)."""
TITLE_SIZE = 44
BAND_Y = 76
"""Where the top band's status line starts, under the title row."""
BAND_H = 82
"""The status line's height: room for two lines, so that it is the same in every game and on every board of
one (one line sits in its middle)."""
BAND_LINE = 34
BAND_TEXT = 30
"""The status line's text size, shrunk down to :data:`MIN_TEXT` before it takes a second line."""
BAND_MARK = 64
"""The room left of the status for its marker (an arrow, the deciders' colours, a crown)."""
TOP = BAND_Y + BAND_H + 18
"""Where what follows the top band starts."""
NIGHT: RGB = (14, 34, 48)
"""Fill of the dark panels: recent events, the band of a decision shared by several players."""


class Tag(NamedTuple):
    """A pill after an image's title (the round, a variant); ``warn``: in red with a skull (the last round)."""

    text: str
    warn: bool = False


def game_title(title: str, locale: object) -> str:
    """A game's name (its engine's ``title``, a marked message) as a heading writes it: in capitals, in the
    reader's language. The one name a language gives the game, on every image as in every message."""
    return localize(title, locale).upper()


def heading(canvas: Image.Image, icon_img: Image.Image, game: str, tags: Sequence[Tag], *, x: int, width: int) -> None:
    """The first row of the top band, the same in every game: ``icon_img`` (52 px), the ``game``'s title in
    gold and its ``tags``, within ``width`` px from ``x``. Long words shrink the title, then condense the
    tags."""
    for size, condensed in ((TITLE_SIZE, False), (38, False), (38, True), (32, True)):
        tag_font = font(MIN_TEXT, bold=True, condensed=condensed)
        tags_w = sum(text_width(tag.text, tag_font) + 42 + 36 * tag.warn + 12 for tag in tags)
        if icon_img.width + 6 + text_width(game, font(size, bold=True)) + 20 + tags_w <= width:
            break
    end = title(canvas, (x, TITLE_Y), icon_img, game, size)
    tx = round(end) + 20
    for tag in tags:
        fill, ink = (DANGER, (255, 255, 255)) if tag.warn else ((24, 64, 84), FOAM)
        skull = icon("skull", 30) if tag.warn else None
        box = pill(
            canvas,
            (tx, TITLE_Y + 5),
            tag.text,
            tag_font,
            fill,
            ink,
            border=None if tag.warn else GOLD,
            icon_img=skull,
            height=42,
        )
        tx = box[2] + 12


@lru_cache(maxsize=256)
def band_lines(status: str, width: int) -> tuple[tuple[str, ...], ImageFont.FreeTypeFont]:
    """``status`` as a top band ``width`` px wide draws it: on one line (shrunk down to :data:`MIN_TEXT`),
    else on two, never cut."""
    return fit_lines(status, width - BAND_MARK - 20, BAND_TEXT, 2)


def band(
    canvas: Image.Image,
    xy: tuple[int, int],
    status: str,
    width: int,
    seats: tuple[int, ...] = (),
    *,
    over: bool = False,
    deciding: bool = True,
) -> None:
    """The top band's status line at ``xy``, the same in every game: whose decision it is and what
    (``status``, names written out), in the colour of the one seat in ``seats`` that decides, with an arrow,
    framed in the highlight; shared by several, on the night blue with a disc in each one's colour;
    ``over``: the game's result in gold, with a crown. Not ``deciding``: a hand's band in its owner's
    colour (``seats``), with a card.

    Drawn on the canvas as a panel (its rim pasted, its middle filled) rather than as an image of its own:
    its words change with nearly every move, and a band-sized image with alpha pasted over the board cost
    as much again as drawing it."""
    lines, fnt = band_lines(status, width)
    if len(seats) == 1:
        colour = PLAYER_COLOURS[seats[0] % len(PLAYER_COLOURS)]
        fill, ink = colour.fill, colour.text
    else:
        fill, ink = NIGHT, GOLD if over else HIGHLIGHT if seats else FOAM
    edge = HIGHLIGHT if seats and deciding and not over else GOLD_DEEP
    x, y = xy
    panel(canvas, (x, y, x + width, y + BAND_H), fill=fill, border=edge, radius=20, shadow=False)
    mid = y + BAND_H / 2
    if over:
        paste(canvas, icon("crown", 40), (x + BAND_MARK / 2 + 4, mid), "mm")
    elif len(seats) == 1 and deciding:
        text(canvas, (x + 24, mid), "▶", font(BAND_TEXT, bold=True), ink, anchor="lm")
    elif len(seats) == 1:  # a hand: a card
        paste(canvas, card_back(32, 44), (x + BAND_MARK / 2 + 2, mid), "mm")
    elif len(seats) > 1:
        step = min(18, (BAND_MARK - 46) // (len(seats) - 1))
        for n, seat in enumerate(seats):
            colour = PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]
            paste(canvas, rounded(26, 26, 13, colour.fill, colour.edge, 2), (x + 14 + n * step, mid - 13))
    for n, line in enumerate(lines):
        text(canvas, (x + BAND_MARK, mid + (n - (len(lines) - 1) / 2) * BAND_LINE), line, fnt, ink, anchor="lm")


def top_band(
    canvas: Image.Image,
    icon_img: Image.Image,
    game: str,
    tags: Sequence[Tag],
    status: str,
    *,
    x: int,
    width: int,
    seats: Sequence[int] = (),
    over: bool = False,
    deciding: bool = True,
) -> None:
    """The top band of a board or a hand, in the same place and style in every game: the :func:`heading`
    row, then the :func:`band` saying whose decision it is and what. What follows starts at :data:`TOP`."""
    heading(canvas, icon_img, game, tags, x=x, width=width)
    band(canvas, (x, BAND_Y), status, width, tuple(seats), over=over, deciding=deciding)


def hand_band(
    canvas: Image.Image,
    icon_img: Image.Image,
    game: str,
    seat: int,
    name: str,
    deciding: str | None,
    locale: str,
    *,
    x: int,
    width: int,
) -> None:
    """The top band of a player's hand: the ``game``'s title marked as their hand, and in the colour of
    ``seat`` what they must decide while it is their decision (``deciding``, names written out), else
    whose hand it is (``name``)."""
    status = deciding or tr(locale, "{name}'s hand", name=name)
    tags = [Tag(tr(locale, "YOUR HAND"))]
    top_band(canvas, icon_img, game, tags, status, x=x, width=width, seats=(seat,), deciding=bool(deciding))


# ------------------------------------------------------------------ recent events and the legend
EVENT_SIZE = MIN_TEXT + 2
EVENT_LINE_H = 36
LEGEND_ROW_H = 40
LEGEND_GAP = 22
"""Between two entries of a legend's row."""
EVENTS_PAD = 22
"""From the events panel's sides to its words."""


@lru_cache(maxsize=128)
def event_lines(events: tuple[str, ...], width: int, most: int = 3) -> tuple[tuple[str, ...], ...]:
    """Each of the recent ``events`` (names written out) as the lines :func:`draw_events` gives it in an
    events panel ``width`` px wide, up to ``most`` lines an event."""
    fnt = font(EVENT_SIZE)
    return tuple(wrap(" ".join(event.split()), fnt, width - 2 * EVENTS_PAD - 26, most) for event in events)


Legend = Sequence[Sequence[tuple[Image.Image, str]]]
"""A legend: groups of ``(icon, what it means)`` entries, each group starting a row of its own."""


def legend_height(groups: Legend, width: int) -> int:
    """The rows a legend takes in an events panel ``width`` px wide."""
    room = width - 2 * EVENTS_PAD
    return sum(len(legend_rows(entries, font(MIN_TEXT), room, LEGEND_GAP)) for entries in groups)


def events_height(lines: int, legend_rows: int) -> int:
    """The height of an events panel with room for ``lines`` lines of events and ``legend_rows`` of legend."""
    return 20 + lines * EVENT_LINE_H + (28 + legend_rows * LEGEND_ROW_H if legend_rows else 0)


def events_panel(canvas: Image.Image, xy: tuple[int, int], width: int, lines: int, groups: Legend) -> None:
    """The panel of the recent events (room for ``lines`` lines, drawn by :func:`draw_events`) and, under a
    rule, the legend of every icon the board uses: the same at the foot of every board."""
    x, y = xy
    rows = legend_height(groups, width)
    panel(canvas, (x, y, x + width, y + events_height(lines, rows)), fill=NIGHT)
    if not rows:
        return
    ly = y + 20 + lines * EVENT_LINE_H + 14
    ImageDraw.Draw(canvas).line((x + 20, ly, x + width - 20, ly), fill=(40, 70, 86), width=2)
    ly += 14 + LEGEND_ROW_H // 2
    for entries in groups:
        n = legend(
            canvas,
            (x + EVENTS_PAD, ly),
            entries,
            font(MIN_TEXT),
            FOAM,
            width=width - 2 * EVENTS_PAD,
            gap=LEGEND_GAP,
            row_h=LEGEND_ROW_H,
        )
        ly += n * LEGEND_ROW_H


def draw_events(canvas: Image.Image, xy: tuple[int, int], width: int, events: Sequence[tuple[str, ...]]) -> None:
    """The recent events (as :func:`event_lines` gives them for ``width`` px) in an events panel at ``xy``:
    each marked where it starts. Drawn a word at a time (:func:`text`): an image of each event, as wide as
    the panel, took longer to lay over the board than its words."""
    x, y = xy[0] + EVENTS_PAD, xy[1] + 20 + EVENT_LINE_H / 2
    for lines in events:
        text(canvas, (x, y), "›", font(EVENT_SIZE, bold=True), GOLD, anchor="lm")
        for line in lines:
            text(canvas, (x + 22, y), line, font(EVENT_SIZE), FOAM, anchor="lm")
            y += EVENT_LINE_H


@image_cache
def cube(value: int, size: int) -> Image.Image:
    """A score cube (gold 3, silver 2, copper 1) drawn in oblique view with its value on the front, never
    smaller than :data:`MIN_TEXT` (the cube is drawn supersampled, its value at its own size)."""
    s = _SUPERSAMPLE
    big_size = size * s
    depth = round(big_size * 0.22)
    base = CUBE_COLOURS[value]
    img = Image.new("RGBA", (big_size, big_size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    edge = mix(base, OUTLINE, 0.75)
    width = max(2, big_size // 28)
    front = (0, depth, big_size - depth - 1, big_size - 1)
    top = [(0, depth), (depth, 0), (big_size - 1, 0), (big_size - depth - 1, depth)]
    side = [
        (big_size - depth - 1, depth),
        (big_size - 1, 0),
        (big_size - 1, big_size - depth - 1),
        (big_size - depth - 1, big_size - 1),
    ]
    draw.polygon(top, fill=mix(base, (255, 255, 255), 0.45), outline=edge, width=width)
    draw.polygon(side, fill=mix(base, OUTLINE, 0.3), outline=edge, width=width)
    draw.rectangle(front, fill=base, outline=edge, width=width)
    img = img.resize((size, size), Image.Resampling.LANCZOS)
    face = (big_size - depth) / s
    digit = font(max(MIN_TEXT, round(face * 0.72)), bold=True)
    text(img, (face / 2, depth / s + face / 2), str(value), digit, mix(base, OUTLINE, 0.85), anchor="mm")
    return img


# ------------------------------------------------------------------ icons
_ICON_MASTER = 256
"""Icons are drawn once at this size, outlined, then resized; shapes use 0–100 units inside a margin."""


def icon(name: str, size: int, colour: RGB | None = None, edge: RGB = OUTLINE) -> Image.Image:
    """The icon ``name`` (see :data:`ICON_COLOURS`) as a ``size``-px RGBA square with a dark outline.

    ``colour`` replaces the icon's main colour (a spade in a player's colour); ``edge`` its outline.
    """
    return _icon(name, size, colour or ICON_COLOURS[name], edge)


@image_cache
def _icon(name: str, size: int, colour: RGB, edge: RGB) -> Image.Image:
    return _icon_master(name, colour, edge).resize((size, size), Image.Resampling.LANCZOS)


@image_cache
def _icon_master(name: str, colour: RGB, edge: RGB) -> Image.Image:
    margin = 10
    k = (_ICON_MASTER - 2 * margin) / 100

    def p(*v: float) -> list[float]:
        return [margin + c * k for c in v]

    body = Image.new("RGBA", (_ICON_MASTER, _ICON_MASTER), (0, 0, 0, 0))
    _ICON_PAINTERS[name](ImageDraw.Draw(body), p, k, colour)
    # The outline is the body's silhouette grown by a few pixels, so every icon gets the same edge.
    grown = body.getchannel("A").filter(ImageFilter.GaussianBlur(4)).point(lambda v: min(255, v * 6))
    out = Image.new("RGBA", body.size, (*edge, 0))
    out.putalpha(grown)
    out.alpha_composite(body)
    return out


Painter = Callable[[ImageDraw.ImageDraw, Callable[..., list[float]], float, RGB], None]
_CLEAR: RGBA = (0, 0, 0, 0)


def dark(c: RGB, t: float = 0.35) -> RGB:
    """``c`` shaded ``t`` of the way towards the outline colour."""
    return mix(c, OUTLINE, t)


def light(c: RGB, t: float = 0.5) -> RGB:
    """``c`` lightened ``t`` of the way towards white."""
    return mix(c, (255, 255, 255), t)


_FADED: dict[tuple[int, int], tuple[Image.Image, Image.Image]] = {}


def faded(img: Image.Image, percent: int) -> Image.Image:
    """A cached, read-only RGBA image (an icon, a card, a tile) at ``percent`` opacity, itself cached.

    The cache entry keeps the original alive, so its ``id`` cannot be reused while the entry exists."""
    hit = _FADED.get((id(img), percent))
    if hit is not None and hit[0] is img:
        return hit[1]
    out = img.copy()
    out.putalpha(out.getchannel("A").point(lambda a: a * percent // 100))
    if len(_FADED) > 256:
        _FADED.clear()
    _FADED[(id(img), percent)] = (img, out)
    return out


def _paint_ring(d: ImageDraw.ImageDraw, p: Callable[..., list[float]], k: float, c: RGB) -> None:
    band = ICON_COLOURS["coin"]
    d.ellipse(p(14, 34, 86, 98), fill=dark(band))
    d.ellipse(p(17, 37, 83, 95), fill=band)
    d.ellipse(p(28, 48, 72, 84), fill=dark(band))
    d.ellipse(p(31, 51, 69, 81), fill=_CLEAR)
    d.polygon(p(50, 2, 74, 22, 50, 46, 26, 22), fill=dark(c, 0.5))
    d.polygon(p(50, 6, 70, 22, 50, 42, 30, 22), fill=c)
    d.polygon(p(50, 6, 60, 22, 50, 42), fill=light(c, 0.35))
    d.polygon(p(40, 14, 46, 10, 44, 20), fill=(255, 255, 255))


def _paint_coin(d: ImageDraw.ImageDraw, p: Callable[..., list[float]], k: float, c: RGB) -> None:
    d.ellipse(p(4, 4, 96, 96), fill=dark(c, 0.3))
    d.ellipse(p(8, 6, 92, 90), fill=c)
    d.ellipse(p(20, 18, 80, 78), outline=dark(c, 0.3), width=round(4 * k))
    star = []
    for i in range(10):
        r = 18 if i % 2 == 0 else 7.5
        a = -math.pi / 2 + i * math.pi / 5
        star += [50 + r * math.cos(a), 48 + r * math.sin(a)]
    d.polygon(p(*star), fill=dark(c, 0.3))
    d.arc(p(14, 12, 86, 84), 195, 255, fill=light(c, 0.7), width=round(5 * k))


def _paint_pearl(d: ImageDraw.ImageDraw, p: Callable[..., list[float]], k: float, c: RGB) -> None:
    d.ellipse(p(8, 8, 92, 92), fill=dark(c, 0.28))
    d.ellipse(p(10, 9, 84, 83), fill=c)
    d.ellipse(p(14, 12, 70, 68), fill=light(c, 0.6))
    d.ellipse(p(26, 22, 46, 40), fill=(255, 255, 255))


def _paint_crown(d: ImageDraw.ImageDraw, p: Callable[..., list[float]], k: float, c: RGB) -> None:
    d.polygon(p(8, 86, 8, 30, 30, 58, 50, 18, 70, 58, 92, 30, 92, 86), fill=c)
    d.polygon(p(50, 18, 70, 58, 92, 30, 92, 70, 8, 70), fill=dark(c, 0.12))
    d.rectangle(p(8, 68, 92, 86), fill=dark(c, 0.3))
    for cx, cy in ((8, 26), (50, 13), (92, 26)):
        d.ellipse(p(cx - 8, cy - 8, cx + 8, cy + 8), fill=c)
    for cx, gem in ((27, (60, 150, 240)), (50, (220, 40, 60)), (73, (60, 150, 240))):
        d.ellipse(p(cx - 6, 71, cx + 6, 83), fill=gem)


def _paint_goblet(d: ImageDraw.ImageDraw, p: Callable[..., list[float]], k: float, c: RGB) -> None:
    d.chord(p(10, -18, 90, 68), 0, 180, fill=c)
    d.ellipse(p(10, 16, 90, 34), fill=light(c, 0.35))
    d.ellipse(p(16, 19, 84, 31), fill=dark(c, 0.45))
    d.rectangle(p(44, 64, 56, 86), fill=dark(c, 0.15))
    d.ellipse(p(37, 68, 63, 78), fill=c)
    d.polygon(p(40, 84, 60, 84, 82, 98, 18, 98), fill=c)
    d.arc(p(18, -8, 82, 60), 115, 150, fill=light(c, 0.7), width=round(4 * k))


def _paint_shell(d: ImageDraw.ImageDraw, p: Callable[..., list[float]], k: float, c: RGB) -> None:
    cx, cy, r = 50, 80, 46
    angles = [205 + i * 130 / 6 for i in range(7)]
    d.pieslice(p(cx - r, cy - r, cx + r, cy + r), 205, 335, fill=c)
    for a in angles:
        x, y = cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a))
        d.ellipse(p(x - 9, y - 9, x + 9, y + 9), fill=c)
    for a in angles[1:-1]:
        x, y = cx + (r - 4) * math.cos(math.radians(a)), cy + (r - 4) * math.sin(math.radians(a))
        d.line(p(cx, cy - 4, x, y), fill=dark(c, 0.4), width=round(3.5 * k))
    d.polygon(p(36, 78, 64, 78, 72, 96, 28, 96), fill=dark(c, 0.15))


def _paint_rat(d: ImageDraw.ImageDraw, p: Callable[..., list[float]], k: float, c: RGB) -> None:
    pink = (244, 160, 176)
    for ex in (22, 78):
        d.ellipse(p(ex - 18, 4, ex + 18, 40), fill=c)
        d.ellipse(p(ex - 10, 12, ex + 10, 32), fill=pink)
    d.ellipse(p(16, 22, 84, 78), fill=c)
    d.polygon(p(22, 56, 78, 56, 54, 94, 46, 94), fill=c)
    d.ellipse(p(42, 86, 58, 99), fill=pink)
    for ex in (36, 64):
        d.ellipse(p(ex - 7, 42, ex + 7, 56), fill=(150, 0, 0))
        d.ellipse(p(ex - 4, 44, ex, 48), fill=(255, 255, 255))
    whisker = dark(c, 0.7)
    for y1, y2 in ((80, 72), (84, 84), (88, 96)):
        d.line(p(40, y1, 0, y2), fill=whisker, width=round(2.5 * k))
        d.line(p(60, y1, 100, y2), fill=whisker, width=round(2.5 * k))


def _paint_spade(d: ImageDraw.ImageDraw, p: Callable[..., list[float]], k: float, c: RGB) -> None:
    wood = (150, 100, 54)
    d.rounded_rectangle(p(30, 0, 70, 16), radius=6 * k, fill=c)
    d.rectangle(p(40, 5, 60, 11), fill=_CLEAR)
    d.rectangle(p(44, 14, 56, 54), fill=wood)
    d.polygon(p(22, 50, 78, 50, 78, 74, 50, 100, 22, 74), fill=c)
    d.polygon(p(28, 56, 40, 56, 40, 80, 28, 72), fill=light(c, 0.3))


def _paint_skull(d: ImageDraw.ImageDraw, p: Callable[..., list[float]], k: float, c: RGB) -> None:
    hole = (40, 30, 26)
    d.ellipse(p(12, 4, 88, 72), fill=c)
    d.rounded_rectangle(p(28, 54, 72, 92), radius=8 * k, fill=c)
    d.ellipse(p(24, 34, 46, 56), fill=hole)
    d.ellipse(p(54, 34, 76, 56), fill=hole)
    d.polygon(p(50, 58, 44, 70, 56, 70), fill=hole)
    for x in (38, 46, 54, 62):
        d.line(p(x, 78, x, 92), fill=hole, width=round(3 * k))


_ICON_PAINTERS: dict[str, Painter] = {
    "ring": _paint_ring,
    "coin": _paint_coin,
    "pearl": _paint_pearl,
    "crown": _paint_crown,
    "goblet": _paint_goblet,
    "shell": _paint_shell,
    "rat": _paint_rat,
    "spade": _paint_spade,
    "skull": _paint_skull,
}


def register_icon(name: str, painter: Painter, colour: RGB) -> None:
    """Add a game's own icon to :func:`icon`, with the shared outline, sizes and caching.

    ``painter(draw, p, k, colour)`` draws the icon's body in 0–100 units: ``p(x0, y0, x1, y1, ...)``
    turns unit coordinates into master pixels, ``k`` is master pixels per unit (for line widths) and
    ``colour`` is the main colour (``colour`` here by default, or the one passed to :func:`icon`).
    Names are shared by all games, so prefix them with the game's (``"sp-fries"``). Registering the
    same icon again is harmless; another painter or colour under a taken name raises ``ValueError``.
    Call it at import time, before any thread draws.
    """
    if name in _ICON_PAINTERS and (_ICON_PAINTERS[name] is not painter or ICON_COLOURS.get(name) != colour):
        raise ValueError(f"icon {name!r} is already registered")
    _ICON_PAINTERS[name] = painter
    ICON_COLOURS[name] = colour


# ------------------------------------------------------------------ canvas and output
_STRIP = 128
"""Width of the gradient's strips a background is laid with (:func:`new_canvas`)."""


def new_canvas(w: int, h: int) -> Image.Image:
    """A fresh RGB canvas of the themed table background: a sea-blue gradient under a chart's grid.

    Only its gradient column is cached: a whole background, ~6 MB for a board, is laid in ~0.6 ms, and
    cached at every height a board or hand had, they held a quarter of the render cache. Every row is one
    colour, so a strip of the column, stretched once, is laid across the width (the column stretched to
    the whole width took twice as long, ~1.2 ms for 1100 × 2000)."""
    strip = _gradient(h).resize((min(w, _STRIP), h), Image.Resampling.NEAREST)
    img = Image.new("RGB", (w, h))
    for x in range(0, w, _STRIP):
        img.paste(strip if x + _STRIP <= w else strip.crop((0, 0, w - x, h)), (x, 0))
    draw = ImageDraw.Draw(img)
    for x in range(0, w, 120):
        draw.line((x, 0, x, h), fill=CHART_LINE, width=1)
    for y in range(0, h, 120):
        draw.line((0, y, w, y), fill=CHART_LINE, width=1)
    return img


@image_cache
def _gradient(h: int) -> Image.Image:
    # A vertical gradient keeps every row a single colour, which compresses to almost nothing.
    column = Image.linear_gradient("L").resize((1, h))
    return Image.merge(
        "RGB",
        [column.point(lambda v, i=i: round(SEA[i] + (SEA_DEEP[i] - SEA[i]) * v / 255)) for i in range(3)],
    )


def _png_chunk(kind: bytes, *data: bytes) -> list[bytes]:
    """A PNG chunk of ``data``'s parts in order, as pieces for one ``b"".join`` (the image data is copied
    once, into the PNG, not for each piece that wraps it)."""
    crc = isal_zlib.crc32(kind)
    for part in data:
        crc = isal_zlib.crc32(part, crc)
    return [struct.pack(">I", sum(map(len, data))), kind, *data, struct.pack(">I", crc)]


def _scanlines(rgb: Image.Image) -> bytes:
    """``rgb``'s rows, each followed by a zero byte, in one call of Pillow's raw encoder.

    ``Image.tobytes`` would give the same bytes, but it has the encoder write 64 KB at a time and joins
    the pieces: ~70 calls and a second copy of the whole 4–5 MB, half of its time (1.4 ms against 0.7 for
    a Sewer Pirats board). Asked for the whole image at once, the encoder writes it in one buffer. The
    price: each thread that encodes keeps about one board's rows at the top of its own glibc heap, which
    ``malloc_trim`` cannot shrink (start-up memory 126 MB against 109 with ``tobytes``). One heap for every
    thread (``M_ARENA_MAX`` 1) gave that back but slowed a burst of boards (p50 1.25, p99 1.11).
    """
    w, h = rgb.size
    stride = 3 * w + 1
    rgb.load()
    encoder = Image._getencoder("RGB", "raw", ("RGB", stride))
    try:
        encoder.setimage(rgb.im, (0, 0, w, h))
        _, status, rows = encoder.encode(stride * h)
    finally:
        encoder.cleanup()
    if status != 1 or len(rows) != stride * h:  # not all of it in one go: Pillow's raw encoder has changed
        return rgb.tobytes("raw", "RGB", stride)
    return rows


SHARED_DEFLATE = 1 << 20
"""Bytes of rows from which a PNG's deflate is shared with :data:`_HELPER` (a board's are 4–5 MB)."""
_HELPER = ThreadPoolExecutor(1, thread_name_prefix="deflate")
"""One thread that deflates the second half of a large image's rows while the render's own thread does the
first. ISA-L lets go of the GIL while it deflates, so the halves run on two cores at once."""


def _deflate(rows: memoryview) -> tuple[bytes, ...]:
    """The zlib stream of a zero byte (the first row's filter) and then ``rows``, in pieces.

    A large image's rows are deflated in two halves, the second on :data:`_HELPER`: two raw deflate
    streams, the first ending on a byte boundary (a sync flush) and neither reaching into the other, make
    one stream (as pigz does). A board is deflated in ~0.65 of the time where a core is free. Where the
    helper is still busy with another image, this thread deflates both halves itself, never waiting.
    """
    if len(rows) < SHARED_DEFLATE:
        deflate = isal_zlib.compressobj(1)
        return deflate.compress(b"\x00"), deflate.compress(rows), deflate.flush()
    cut = len(rows) // 2
    tail = _HELPER.submit(_raw_deflate, isal_zlib.Z_FINISH, rows[cut:])
    first = _raw_deflate(isal_zlib.Z_SYNC_FLUSH, b"\x00", rows[:cut])
    checksum = isal_zlib.adler32(rows, isal_zlib.adler32(b"\x00"))
    second = _raw_deflate(isal_zlib.Z_FINISH, rows[cut:]) if tail.cancel() else tail.result()
    return b"\x78\x01", first, second, checksum.to_bytes(4, "big")  # zlib: deflate, 32 KB window, fastest


def _raw_deflate(end: int, *parts: bytes | memoryview) -> bytes:
    """``parts`` as one raw deflate stream (the zlib header and checksum are the caller's), ending with
    ``end``: a sync flush (on a byte boundary, more to follow) or the stream's end."""
    deflate = isal_zlib.compressobj(1, isal_zlib.DEFLATED, -15)
    return b"".join([*map(deflate.compress, parts), deflate.flush(end)])


def to_png(image: Image.Image) -> bytes:
    """Encode ``image`` as PNG bytes, fast.

    Pillow's encoder tries five row filters on every row, which alone takes ~20 ms on a 1100×1300 board.
    Our images are mostly flat colour, so unfiltered rows deflated at level 1 come out about as small.
    The deflate is ISA-L's (``isal``), about five times faster than zlib's level 1 for a few per cent
    more bytes. Its deflate may pick other matches for the same rows from one call to the next (seen with
    renders on several threads), so the same image always decodes to the same pixels but need not give
    the same bytes: compare images by their pixels.

    The rows come from Pillow's raw encoder with a stride one byte longer than a row, which it pads with
    a zero: each row's pad is the next row's filter byte (0, none), so with one zero before the first row
    the buffer is the image's scanlines as they are deflated, streamed without another copy (see
    :func:`_scanlines`). Building the scanlines in Python (slices joined with zeros) took more than twice
    as long: ~5.9 ms against ~2.5 ms for a Piratz board, mostly in writing two more fresh 4 MB buffers.
    """
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    w, h = rgb.size
    padded = memoryview(_scanlines(rgb))
    idat = _deflate(padded[:-1])
    header = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)  # 8-bit truecolour, no interlace
    return b"".join(
        [b"\x89PNG\r\n\x1a\n", *_png_chunk(b"IHDR", header), *_png_chunk(b"IDAT", *idat), *_png_chunk(b"IEND")]
    )


# ------------------------------------------------------------------ final scoring
def name_pill(
    canvas: Image.Image,
    xy: tuple[float, float],
    name: str,
    seat: int,
    width: float,
    size: int,
    height: int,
    *,
    lines: int = 1,
    align: str = "center",
) -> Box:
    """``name`` on a pill in ``seat``'s colour (see :func:`pill` for ``xy`` and ``align``) at most ``width``
    px wide, the bold face shrunk from ``size`` px to fit; with ``lines`` 2 or 3, a name that would still
    not fit takes that many lines on a rounded box :data:`NAME_LINE_H` px taller a line; only then is it
    cut."""
    colour = PLAYER_COLOURS[seat]
    parts, fnt = name_lines(name, width, size, height, lines)
    if len(parts) == 1 and text_width(parts[0], fnt) + height <= width:  # the pill's round ends take its height
        return pill(canvas, xy, parts[0], fnt, colour.fill, colour.text, border=colour.edge, align=align, height=height)
    # A name too long for a pill, on one line or several of a rounded box (narrower ends).
    h = height + (len(parts) - 1) * NAME_LINE_H
    w = round(max(text_width(part, fnt) for part in parts)) + 2 * NAME_PAD
    x, y = round(xy[0] - (w / 2 if align == "center" else w if align == "right" else 0)), round(xy[1])
    _over(canvas, rounded(w, h, 18, colour.fill, colour.edge, 2), x, y)
    for n, part in enumerate(parts):
        text(
            canvas,
            (x + w / 2, y + h / 2 + (n - (len(parts) - 1) / 2) * NAME_LINE_H),
            part,
            fnt,
            colour.text,
            anchor="mm",
        )
    return x, y, x + w, y + h


NAME_LINE_H = 26
"""The height a name's second line adds to its pill."""
NAME_PAD = 8
"""The room left and right of a name of several lines on its rounded box."""


@lru_cache(maxsize=512)
def name_lines(
    name: str, width: float, size: int, height: int, lines: int = 2
) -> tuple[tuple[str, ...], ImageFont.FreeTypeFont]:
    """``name`` as :func:`name_pill` draws it on a pill ``height`` px high and at most ``width`` px wide: on
    one line (the pill's round ends take its height), else over up to ``lines`` lines of the rounded box."""
    parts, fnt = fit_lines(name, width - height, size, 1)
    if parts == (name,) or lines == 1:
        return parts, fnt
    return fit_lines(name, width - 2 * NAME_PAD, size, lines)


def final_name_lines(names: Sequence[str], width: float, size: int, height: int, lines: int = 3) -> int:
    """Lines the longest of ``names`` needs on :func:`name_pill` pills of up to ``lines`` lines."""
    return max((len(name_lines(name, width, size, height, lines)[0]) for name in names), default=1)


def final_headline_lines(
    names: Sequence[str],
    winners: Sequence[int],
    best: int,
    width: int,
    size: int,
    *,
    lone_note: str = "",
    locale: str = "en",
) -> tuple[tuple[str, ...], ImageFont.FreeTypeFont]:
    """The line under a final score's title, saying who won with ``best`` points, wrapped to fit beside a
    crown in ``width`` px: its lines and font, for :func:`final_headline`, in ``locale``. ``lone_note``
    follows a single winner's line (how a tie was broken, already written out in ``locale``)."""
    if len(winners) == 1:
        name = names[winners[0]]
        headline = ntr(locale, "{name} wins with {n} point!", "{name} wins with {n} points!", best, name=name)
        headline += lone_note
    elif winners:
        shared = " & ".join(names[s] for s in winners)
        headline = ntr(
            locale,
            "{names} share the victory with {n} point!",
            "{names} share the victory with {n} points!",
            best,
            names=shared,
        )
    else:
        headline = tr(locale, "Nobody wins.")
    fnt = font(size, bold=True)
    return wrap(headline, fnt, width - 68), fnt


def final_headline(
    canvas: Image.Image, xy: tuple[int, int], lines: tuple[tuple[str, ...], ImageFont.FreeTypeFont]
) -> None:
    """Draw :func:`final_headline_lines` with a crown at ``xy`` (top-left), 40 px a line."""
    x, y = xy
    paste(canvas, icon("crown", 52), (x, y))
    parts, fnt = lines
    for n, part in enumerate(parts):
        text(canvas, (x + 64, y + 28 + n * 40), part, fnt, FOAM, anchor="lm", shadow=(0, 0, 0))


def final_columns(x0: int, x1: int, label_w: int, seats: int) -> tuple[list[float], float]:
    """The seat columns of a final-scoring table spanning ``x0..x1``: their left edges and their width.
    A 12 px inset on each side and the ``label_w`` px column of row labels come first."""
    col_w = (x1 - x0 - 24 - label_w) / seats
    return [x0 + 12 + label_w + i * col_w for i in range(seats)], col_w


def final_table(
    canvas: Image.Image,
    box: Box,
    col_x: Sequence[float],
    col_w: float,
    names: Sequence[str],
    winners: Sequence[int],
    *,
    names_y: int,
    pill_h: int,
    name_size: int,
    name_margin: int,
    crown: int,
) -> None:
    """The frame of a final-scoring table in ``box``, with the seat columns of :func:`final_columns`:
    a parchment panel, a gold wash down each winner's column, and at the head of each column its
    player's name on a :func:`name_pill` (``pill_h`` px high, ``names_y`` px below the top, fitted to
    the column less ``name_margin`` px), winners with a ``crown`` px crown centred 26 px above it."""
    top, bottom = box[1], box[3]
    panel(canvas, box)
    for s in winners:
        wash = rounded(round(col_w) - 8, bottom - top - 24, 14, mix(GOLD, PARCHMENT, 0.55))
        paste(canvas, wash, (round(col_x[s]) + 4, top + 12))
    for s, name in enumerate(names):
        cx = col_x[s] + col_w / 2
        if s in winners:
            paste(canvas, icon("crown", crown), (cx, top + names_y - 26), "mm")
        name_pill(canvas, (cx, top + names_y), name, s, col_w - name_margin, name_size, pill_h, lines=3)


FINAL_TOTALS_H = 150
"""The height of a final-scoring table's last rows: the totals and every player's place."""


def places(totals: Sequence[int], winners: Sequence[int]) -> list[int]:
    """Every seat's place by its total, the winners first (a tie the rules broke is broken), seats with the
    same total and fate sharing one: ``[1, 2, 2, 4]``."""
    keys = [(s not in winners, -total) for s, total in enumerate(totals)]
    return [1 + sum(other < key for other in keys) for key in keys]


def final_totals(
    canvas: Image.Image,
    x0: int,
    x1: int,
    y: int,
    col_x: Sequence[float],
    col_w: float,
    totals: Sequence[int],
    winners: Sequence[int],
    locale: str = "en",
    *,
    label: bool = True,
) -> None:
    """The last rows of a final-scoring table spanning ``x0..x1`` from ``y`` (:data:`FINAL_TOTALS_H`): a gold
    rule, each seat's total under its column and under it its place, gold for the winners; with ``label``,
    "TOTAL" (in ``locale``, shrunk to fit) left of the first column."""
    ImageDraw.Draw(canvas).line((x0 + 20, y + 4, x1 - 20, y + 4), fill=GOLD_DEEP, width=3)
    if label:
        words, fnt = fit_text(tr(locale, "TOTAL"), col_x[0] - x0 - 32, 32, bold=True)
        text(canvas, (x0 + 26, y + 50), words, fnt, INK, anchor="lm")
    place_font = font(MIN_TEXT + 2, bold=True)
    for s, (total, place) in enumerate(zip(totals, places(totals, winners), strict=True)):
        cx = col_x[s] + col_w / 2
        text(canvas, (cx, y + 50), str(total), font(48, bold=True), INK, anchor="mm")
        words, fnt = fit_text(tr(locale, "place {n}", n=place), col_w - 40, place_font.size)
        fill, ink = (GOLD, INK) if place == 1 else (PARCHMENT_SHADE, INK_SOFT)
        pill(canvas, (cx, y + 88), words, fnt, fill, ink, border=GOLD_DEEP, align="center", height=40)
