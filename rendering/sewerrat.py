"""Sewer Rat images: the plumbing board during play (:func:`render_board`) and the end (:func:`render_final`).

The board is the 8×8 grid of pipe tiles with the 32 toilets around it (yellow Y1–Y8 at the ends of the
rows, green G1–G8 at the ends of the columns) and the coordinates of the actions' text (``r3c4``) on the
edges. Everything drawn comes from the view: the rats, the traps, the last roll and where its traps fell,
the legal destinations of the rat that must act, a pending tile change. Tiles, traps, tokens and the
frame are drawn once and cached, so a render is mostly pasting.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from games.core import format_seats
from games.i18n import T, localize, localize_tree, ntr, tr
from games.sewerrat.components import DIRECTIONS, SIZE, E, N, S, W, square_text
from rendering import theme as t
from rendering.cache import image_cache

View = dict[str, Any]

WIDTH = 1100
CELL = 100
TOILET = 44
"""How deep the toilets are, beside the grid."""
GX = (WIDTH - SIZE * CELL) // 2
GY = 256
"""Below the header: the title, the dice and who rolled them, then the status in one or two lines."""
GRID = SIZE * CELL
PANEL_Y = GY + GRID + TOILET + 62
PANEL_W, PANEL_H, PANEL_GAP = 340, 160, 16
TEXT_X = 92
"""Where a player panel's words begin, right of the rat's disc."""
SS = 3
"""Supersampling of the cached tile, trap and token images."""

TILE_BG: t.RGB = (44, 52, 56)
TILE_LINE: t.RGB = (28, 34, 38)
PIPE: t.RGB = (150, 170, 172)
PIPE_EDGE: t.RGB = (22, 28, 30)
PIPE_SHINE: t.RGB = (196, 212, 212)
YELLOW: t.RGB = (244, 204, 44)
GREEN: t.RGB = (58, 170, 90)
BLACK_TRAP: t.RGB = (20, 20, 22)
RED_TRAP: t.RGB = (206, 32, 32)
WHITE: t.RGB = (255, 255, 255)
PENDING: t.RGB = (236, 112, 212)
"""A planned tile change: a colour of its own (gold marks the last roll's traps)."""
TAG_INK: t.RGB = (6, 30, 42)

_SIDE = {N: (0.5, 0.0), E: (1.0, 0.5), S: (0.5, 1.0), W: (0.0, 0.5)}

TEAM_NAME = {
    "red": T("Red team"),
    "green": T("Green team"),
    "yellow": T("Yellow team"),
    "blue": T("Blue team"),
    "black": T("Black team"),
    "purple": T("Purple team"),
    "orange": T("Orange team"),
    "pink": T("Pink team"),
}
"""A team by its colour (the theme's colour names), as its panels name it."""


def _cell(q: int) -> tuple[int, int]:
    """The top-left corner of square ``q`` on the canvas."""
    return GX + (q % SIZE) * CELL, GY + (q // SIZE) * CELL


def _centre(q: int) -> tuple[float, float]:
    x, y = _cell(q)
    return x + CELL / 2, y + CELL / 2


# ====================================================================== cached pieces
@image_cache
def _tile(mask: int) -> Image.Image:
    """A tile: its pipes from the centre to each opening (outlined, with a shine), a white dot on a dead end."""
    size = CELL * SS
    img = Image.new("RGB", (size, size), TILE_BG)
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, size - 1, size - 1), outline=TILE_LINE, width=2 * SS)
    c = size / 2
    for width, colour in ((38, PIPE_EDGE), (28, PIPE), (8, PIPE_SHINE)):
        for d in DIRECTIONS:
            if mask & d:
                fx, fy = _SIDE[d]
                draw.line((c, c, fx * size, fy * size), fill=colour, width=width * SS)
        if mask and bin(mask).count("1") != 1:
            r = width * SS / 2
            draw.ellipse((c - r, c - r, c + r, c + r), fill=colour)
    if bin(mask).count("1") == 1:  # the circle cap with its white dot
        r = 24 * SS
        draw.ellipse((c - r, c - r, c + r, c + r), fill=PIPE, outline=PIPE_EDGE, width=5 * SS)
        r = 13 * SS
        draw.ellipse((c - r, c - r, c + r, c + r), fill=WHITE, outline=PIPE_EDGE, width=2 * SS)
    return img.resize((CELL, CELL), Image.Resampling.LANCZOS)


@image_cache
def _trap(red: bool) -> Image.Image:
    """A trap: a toothed ring, black or red (red traps are bigger and brighter: they never move)."""
    size = CELL * SS
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    c = size / 2
    outer = (40 if red else 36) * SS
    fill = RED_TRAP if red else BLACK_TRAP
    teeth = (255, 228, 228) if red else (150, 150, 158)
    draw.ellipse((c - outer, c - outer, c + outer, c + outer), fill=fill, outline=WHITE if red else teeth, width=3 * SS)
    inner = outer * 0.55
    for k in range(12):
        a0, a1 = 2 * math.pi * k / 12, 2 * math.pi * (k + 0.5) / 12
        am = (a0 + a1) / 2
        draw.polygon(
            [
                (c + outer * 0.88 * math.cos(a0), c + outer * 0.88 * math.sin(a0)),
                (c + outer * 0.88 * math.cos(a1), c + outer * 0.88 * math.sin(a1)),
                (c + inner * math.cos(am), c + inner * math.sin(am)),
            ],
            fill=teeth,
        )
    r = outer * 0.3
    draw.ellipse((c - r, c - r, c + r, c + r), fill=fill, outline=teeth, width=2 * SS)
    return img.resize((CELL, CELL), Image.Resampling.LANCZOS)


@image_cache
def _token(seat: int, acting: bool, hue: int) -> Image.Image:
    """A rat: a disc in colour ``hue`` (its player's, or its team's) with the seat's letter; ringed in the
    highlight when it acts."""
    colour = t.PLAYER_COLOURS[hue]
    size = CELL * SS
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    c = size / 2
    if acting:
        r = 46 * SS
        draw.ellipse((c - r, c - r, c + r, c + r), outline=t.HIGHLIGHT, width=7 * SS)
    r = 35 * SS
    draw.ellipse((c - r, c - r, c + r, c + r), fill=colour.fill, outline=colour.edge, width=4 * SS)
    img = img.resize((CELL, CELL), Image.Resampling.LANCZOS)
    t.text(img, (CELL / 2, CELL / 2 + 1), _letter(seat), t.font(40, bold=True), colour.text, anchor="mm")
    return img


def _hue(view: View, seat: int) -> int:
    """The colour of a seat's rat: its team's in a team game (team-mates tell apart by letter)."""
    return seat if view["mode"] == "ffa" else view["team_of"][seat]


def _letter(seat: int) -> str:
    return "ABCDEF"[seat]


@image_cache
def _frame() -> Image.Image:
    """The board without tiles: the toilets with their colours and numbers, and the coordinates."""
    img = Image.new("RGBA", (WIDTH, GRID + 2 * TOILET + 90), (0, 0, 0, 0))
    oy = GY - TOILET - 45  # the frame image's top on the canvas
    small, label = t.font(t.MIN_TEXT, bold=True), t.font(t.MIN_TEXT, bold=True)
    pad = 8
    back = t.rounded(GRID + 2 * TOILET + 2 * pad, GRID + 2 * TOILET + 2 * pad, 18, (20, 26, 30), t.GOLD_DEEP, 3)
    img.alpha_composite(back, (GX - TOILET - pad, GY - TOILET - pad - oy))
    for i in range(SIZE):
        n = str(i + 1)
        for x in (GX - TOILET, GX + GRID):  # yellow toilets at both ends of row i
            y = GY + i * CELL - oy
            img.alpha_composite(t.rounded(TOILET - 6, CELL - 12, 10, YELLOW, t.OUTLINE, 2), (x + 3, y + 6))
            t.text(img, (x + TOILET / 2, y + CELL / 2), f"Y{n}", small, (40, 30, 8), anchor="mm")
        for y in (GY - TOILET - oy, GY + GRID - oy):  # green toilets at both ends of column i
            x = GX + i * CELL
            img.alpha_composite(t.rounded(CELL - 12, TOILET - 6, 10, GREEN, t.OUTLINE, 2), (x + 6, y + 3))
            t.text(img, (x + CELL / 2, y + TOILET / 2), f"G{n}", small, WHITE, anchor="mm")
        # coordinates as the actions write them: r1–r8 on the left and right, c1–c8 above and below
        y = GY + i * CELL + CELL / 2 - oy
        t.text(img, (GX - TOILET - pad - 26, y), f"r{n}", label, t.MIST, anchor="mm")
        t.text(img, (GX + GRID + TOILET + pad + 26, y), f"r{n}", label, t.MIST, anchor="mm")
        x = GX + i * CELL + CELL / 2
        t.text(img, (x, GY - TOILET - pad - 20 - oy), f"c{n}", label, t.MIST, anchor="mm")
        t.text(img, (x, GY + GRID + TOILET + pad + 22 - oy), f"c{n}", label, t.MIST, anchor="mm")
    return img


@image_cache
def _mark(kind: str) -> Image.Image:
    """Overlays on a square: a legal destination, where the last roll's traps fell, a pending tile."""
    img = Image.new("RGBA", (CELL * SS, CELL * SS), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    c = CELL * SS / 2
    if kind == "target":
        r = 17 * SS
        draw.ellipse((c - r, c - r, c + r, c + r), fill=(*t.HIGHLIGHT, 90), outline=t.HIGHLIGHT, width=5 * SS)
    elif kind == "fell":
        draw.rectangle((4 * SS, 4 * SS, (CELL - 4) * SS, (CELL - 4) * SS), outline=t.GOLD, width=4 * SS)
    else:  # pending / refused
        colour = PENDING if kind == "pending" else t.DANGER
        draw.rectangle((2 * SS, 2 * SS, (CELL - 2) * SS, (CELL - 2) * SS), outline=colour, width=6 * SS)
    return img.resize((CELL, CELL), Image.Resampling.LANCZOS)


@image_cache
def _die(colour: t.RGB, value: int, size: int) -> Image.Image:
    """A d8 result: a rounded die in its colour with the number."""
    img = t.rounded(size, size, 14, colour, t.OUTLINE, 3).copy()
    ink = (40, 30, 8) if colour == YELLOW else WHITE
    t.text(img, (size / 2, size / 2 + 1), str(value), t.font(40, bold=True), ink, anchor="mm")
    return img


# ====================================================================== board
def _status(view: View, names: Sequence[str], locale: str) -> str:
    """What is happening now, in a line (the view's ``pending`` is written out already)."""
    if view["result"] is not None:
        return ntr(locale, "Game over after {n} turn", "Game over after {n} turns", view["turn"])
    status = format_seats(view["pending"], list(names))
    return status[:1].upper() + status[1:]


def _header(img: Image.Image, view: View, names: Sequence[str], locale: str) -> None:
    title, big = t.fit_text(tr(locale, "Sewer Rat"), 250, 44)
    t.text(img, (28, 40), title, big, t.GOLD, anchor="lm", shadow=(0, 0, 0))
    if view["turn"]:
        turn = tr(locale, "Turn {turn} of {limit}", turn=view["turn"], limit=view["turn_limit"])
    else:
        turn = tr(locale, "Setup")
    if view["mode"] == "ffa":
        mode = tr(locale, "free-for-all")
    elif view["mode"] == "2":
        mode = tr(locale, "teams of 2")
    else:
        mode = tr(locale, "teams of 3")
    line, small = t.fit_text(f"{turn} · {mode}", WIDTH - 290 - 2 * 62 - 80, 26, bold=False)
    t.text(img, (290, 44), line, small, t.MIST, anchor="lm")
    # The status has the whole width, in two lines if it needs them: never cut.
    ink = t.HIGHLIGHT if view["result"] is None else t.GOLD
    lines, fnt = t.fit_lines(_status(view, names, locale), WIDTH - 56, 28, 2)
    for n, line in enumerate(lines):
        t.text(img, (28, 120 + n * 30), line, fnt, ink, anchor="lm")
    roll = view["roll"]
    if roll is not None:
        size = 62
        img.paste(_die(YELLOW, roll["y"], size), (WIDTH - 2 * size - 40, 8), _die(YELLOW, roll["y"], size))
        img.paste(_die(GREEN, roll["g"], size), (WIDTH - size - 28, 8), _die(GREEN, roll["g"], size))
        fell = " ".join(square_text(q) for q in dict.fromkeys(roll["at"]))
        name = names[view["mover"]]
        if fell:
            rolled = tr(locale, "{name} rolled · traps {squares}", name=name, squares=fell)
        else:
            rolled = tr(locale, "{name} rolled · no trap yet", name=name)
        # Under the dice, on a line of its own: who rolled them and where their traps fell.
        who, small = t.fit_text(rolled, WIDTH - 56, t.MIN_TEXT, bold=False)
        t.text(img, (WIDTH - 28, 84), who, small, t.FOAM, anchor="rm")


@image_cache
def _base(height: int, seats: int) -> Image.Image:
    """The table background with the board's frame, toilets and coordinates, and the players' panels."""
    img = t.new_canvas(WIDTH, height)
    frame = _frame()
    img.paste(frame, (0, GY - TOILET - 45), frame)
    for s in range(seats):
        t.panel(img, _panel_box(s, seats))
    return img


def _board(img: Image.Image, view: View) -> None:
    pending = {q: m for q, m in view["change"]}
    # Tile by tile (~0.5 ms): a grid cached whole per layout of tiles, 2.5 MB each, filled the render cache
    # with one entry per game in play, crowding out every other game's layers.
    for q, mask in enumerate(view["board"]):
        img.paste(_tile(pending.get(q, mask)), _cell(q))
    mark = _mark("refused" if view["refused"] else "pending")
    for q in [*pending, *([] if view["picking"] is None else [view["picking"]])]:
        img.paste(mark, _cell(q), mark)
    fell = _mark("fell")
    for q in set(view["roll"]["at"] if view["roll"] else ()):
        img.paste(fell, _cell(q), fell)
    for q, kind in enumerate(view["traps"]):
        if kind:
            trap = _trap(kind == 2)
            img.paste(trap, _cell(q), trap)
    target = _mark("target")
    options = view["options"]
    for q in options["stops"]:
        img.paste(target, _cell(q), target)
    draw = ImageDraw.Draw(img)
    for toilet in options["toilets"]:
        img.paste(target, _cell(toilet["exit"]), target)
        _ring_toilet(draw, view["rats"][view["actor"]], toilet["side"])
    if view["phase"] == "displace":
        x, y = _cell(view["queue"][0][1])
        draw.rectangle((x + 3, y + 3, x + CELL - 4, y + CELL - 4), outline=t.DANGER, width=6)
    for s, q in enumerate(view["rats"]):
        if q is not None:
            token = _token(s, s == view["actor"], _hue(view, s))
            img.paste(token, _cell(q), token)


def _ring_toilet(draw: ImageDraw.ImageDraw, q: int, side: str) -> None:
    """Frame the toilet beside ``q`` on ``side`` that the rat to act may dive into."""
    x, y = _cell(q)
    box = {
        "n": (x + 3, y - TOILET, x + CELL - 3, y - 2),
        "s": (x + 3, y + CELL + 2, x + CELL - 3, y + CELL + TOILET),
        "w": (x - TOILET, y + 3, x - 2, y + CELL - 3),
        "e": (x + CELL + 2, y + 3, x + CELL + TOILET, y + CELL - 3),
    }[side]
    draw.rounded_rectangle(box, 10, outline=t.HIGHLIGHT, width=5)


# ====================================================================== players
def _panel_box(i: int, seats: int) -> t.Box:
    cols = 3 if seats > 4 else 2 if seats > 1 else 1
    w = PANEL_W if cols == 3 else (WIDTH - 56 - PANEL_GAP) // 2
    x = 28 + (i % cols) * (w + PANEL_GAP)
    y = PANEL_Y + (i // cols) * (PANEL_H + PANEL_GAP)
    return x, y, x + w, y + PANEL_H


def _panels_height(seats: int) -> int:
    cols = 3 if seats > 4 else 2
    rows = -(-seats // cols)
    return rows * (PANEL_H + PANEL_GAP)


def _player(img: Image.Image, view: View, seat: int, name: str, box: t.Box, locale: str) -> None:
    x0, y0, x1, _ = box
    if seat == view["actor"]:
        t.glow(img, box)
    out = seat in view["out"]
    token = _token(seat, False, _hue(view, seat))
    top = y0 + (PANEL_H - CELL) // 2  # the rat's disc, centred in the panel's height
    img.paste(token, (x0 - 4, top), token)
    x = x0 + TEXT_X
    teams = view["mode"] != "ffa"
    q = view["rats"][seat]
    if out:
        turn = next(f[1] for f in view["fallen"] if f[0] == seat)
        status, ink = tr(locale, "OUT (turn {turn})", turn=turn), t.DANGER
    elif q is None:
        status, ink = tr(locale, "not placed yet"), t.INK_SOFT
    else:
        status, ink = tr(locale, "in · on {square}", square=square_text(q)), (30, 110, 50)
    # A long name takes two or three lines (three columns of panels with six players), the status a second
    # line where a language needs it: six rows at most, nothing cut.
    said, small = t.fit_lines(status, x1 - x - 8, t.MIN_TEXT, 2)
    lines, fnt = t.fit_lines(name, x1 - x - 12, 30, min(3, 6 - len(said) - teams))
    rows = [*lines, *(["team"] if teams else []), *said]
    ys = [y0 + round((n + 0.5) * (PANEL_H - 8) / len(rows)) + 4 for n in range(len(rows))]
    for line, y in zip(lines, ys, strict=False):
        t.text(img, (x, y), line, fnt, t.INK_SOFT if out else t.INK, anchor="lm")
    if teams:
        y = ys[len(lines)]
        colour = t.PLAYER_COLOURS[_hue(view, seat)]
        ImageDraw.Draw(img).ellipse((x, y - 10, x + 20, y + 10), fill=colour.fill, outline=t.OUTLINE)
        team, fits = t.fit_text(localize(TEAM_NAME[colour.name], locale), x1 - x - 36, t.MIN_TEXT)
        t.text(img, (x + 28, y), team, fits, t.INK, anchor="lm")
    for line, y in zip(said, ys[-len(said) :], strict=True):
        t.text(img, (x, y), line, small, ink, anchor="lm")
    if out:
        t.paste(img, t.icon("skull", 40), (x0 + 46, top + CELL // 2), "mm")


LEGEND_ROW = 38


def _legend(img: Image.Image, y: int, view: View, locale: str) -> None:
    entries = _legend_of(view, locale)
    t.legend(img, (28, y), entries, t.font(t.MIN_TEXT), t.FOAM, width=WIDTH - 56, gap=30, row_h=LEGEND_ROW)


def _legend_of(view: View, locale: str) -> list[tuple[Image.Image, str]]:
    planning = bool(view["change"]) or view["picking"] is not None
    return _legend_entries(planning, view["phase"] == "displace", locale)


def _legend_height(locale: str) -> int:
    """Room below the panels for the legend's rows (it wraps when it has more entries than one row takes):
    as many as its fullest (a tile change planned, a trap falling) needs, so every board of a table is as
    tall as the others and is laid on one layer, where a second one (~7 MB, 7–17 ms to draw) came and went
    with those entries."""
    rows = t.legend_rows(_legend_entries(True, True, locale), t.font(t.MIN_TEXT), WIDTH - 56, 30)
    return 70 + LEGEND_ROW * (len(rows) - 1)


@image_cache
def _legend_entries(planning: bool, falling: bool, locale: str) -> list[tuple[Image.Image, str]]:
    def small(img: Image.Image) -> Image.Image:
        return img.convert("RGBA").resize((40, 40), Image.Resampling.LANCZOS)

    entries = [
        (small(_trap(False)), tr(locale, "black trap")),
        (small(_trap(True)), tr(locale, "red trap")),
        (small(_tile(S)), tr(locale, "white dot")),
        (small(_mark("target")), tr(locale, "can go")),
        (small(_mark("fell")), tr(locale, "last roll")),
    ]
    if falling:
        entries.append((small(_mark("refused")), tr(locale, "trap falling")))
    if planning:
        entries.append((small(_mark("pending")), tr(locale, "planned tile")))
    return entries


def _canvas(view: View, names: Sequence[str], extra: int, locale: str) -> tuple[Image.Image, list[str]]:
    seats = view["seats"]
    shown = t.seat_names(names, seats, locale)
    height = PANEL_Y + _panels_height(seats) + extra
    img = _base(height, seats).copy()
    _header(img, view, shown, locale)
    _board(img, view)
    return img, shown


def render_board(view: View, names: Sequence[str], locale: str = "en") -> bytes:
    """The table: the board, the last roll, and each player's rat, team and status."""
    view = localize_tree(view, locale)
    img, shown = _canvas(view, names, _legend_height(locale), locale)
    for s in range(view["seats"]):
        _player(img, view, s, shown[s], _panel_box(s, view["seats"]), locale)
    _legend(img, PANEL_Y + _panels_height(view["seats"]) + 22, view, locale)
    return t.to_png(img)


def _fall(locale: str, rank: int, name: str, seat: int, turn: int, when: str) -> str:
    """One line of the order in which the rats fell: who, in which turn, and how."""
    values = {"rank": rank, "name": name, "letter": _letter(seat), "turn": turn}
    if when == "roll":
        return tr(locale, "{rank}. {name} ({letter}) — turn {turn}, caught by a roll's trap", **values)
    if when == "move":
        return tr(locale, "{rank}. {name} ({letter}) — turn {turn}, no move at the start of its move", **values)
    return tr(locale, "{rank}. {name} ({letter}) — turn {turn}, no move at the end of its turn", **values)


def render_final(view: View, names: Sequence[str], locale: str = "en") -> bytes:
    """The end: the final board, who survived, and the order in which the rats fell (long lines wrap)."""
    view = localize_tree(view, locale)
    seats = view["seats"]
    shown = t.seat_names(names, seats, locale)
    winners = view["result"]["winners"] if view["result"] else []
    together = " & ".join(shown[s] for s in winners)
    if len(winners) > 1:
        headline = tr(locale, "Winners: {names}", names=together)
    elif winners:
        headline = tr(locale, "Winner: {name}", name=together)
    else:
        headline = tr(locale, "Winner: nobody")
    bold, fnt = t.font(30, bold=True), t.font(t.MIN_TEXT)
    heads = t.wrap(headline, bold, WIDTH - 180)
    fell = [
        t.wrap(_fall(locale, n + 1, shown[seat], seat, turn, when), fnt, WIDTH - 140)
        for n, (seat, turn, when) in enumerate(view["fallen"])
    ] or [(tr(locale, "No rat fell."),)]
    rows = len(heads) + 1 + sum(len(lines) for lines in fell)
    img, shown = _canvas(view, names, rows * 40 + 70, locale)
    for s in range(seats):
        _player(img, view, s, shown[s], _panel_box(s, seats), locale)
    y = PANEL_Y + _panels_height(seats) + 10
    t.panel(img, (28, y, WIDTH - 28, y + rows * 40 + 44))
    t.paste(img, t.icon("crown", 44), (70, y + 36), "mm")
    for n, line in enumerate(heads):
        t.text(img, (104, y + 36 + n * 40), line, bold, t.INK, anchor="lm")
    y += 40 * len(heads)
    order, small = t.fit_text(tr(locale, "Order in which the rats fell:"), WIDTH - 120, t.MIN_TEXT)
    t.text(img, (60, y + 44), order, small, t.INK_SOFT, anchor="lm")
    y += 84
    for lines in fell:
        for n, line in enumerate(lines):
            t.text(img, (60 + 36 * (n > 0), y), line, fnt, t.INK, anchor="lm")
            y += 40
    return t.to_png(img)
