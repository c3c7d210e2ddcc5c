"""Sewer Rat images: the plumbing board during play (:func:`render_board`) and the end (:func:`render_final`).

Under the top band (the turn, who decides what) the last roll, then the 8×8 grid of pipe tiles with the 32
toilets around it (yellow 1–8 at the ends of the rows, green 1–8 at the ends of the columns, numbered only) and the
coordinates of the actions' text (``r3c4``) on the edges, a compact panel per rat, and the recent events
over the legend. Everything drawn comes from the view: the rats, the traps, the last roll and where its
traps fell, the legal destinations of the rat that must act, a pending tile change. Tiles, traps, tokens
and the frame are drawn once and cached, so a render is mostly pasting.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, NamedTuple

from PIL import Image, ImageDraw, ImageFont

from games.core import format_seats
from games.i18n import T, language, localize, localize_tree, tr
from games.sewerrat.components import DIRECTIONS, SIZE, E, N, S, W, square_name
from games.sewerrat.engine import SewerRat
from rendering import theme as t
from rendering.cache import image_cache

View = dict[str, Any]

WIDTH = 1100
CELL = 100
TOILET = 44
"""How deep the toilets are, beside the grid."""
ROLL_Y = t.TOP
ROLL_H = 64
"""Under the top band: the last roll's dice, who rolled them and where their traps fell."""
GX = (WIDTH - SIZE * CELL) // 2
GY = ROLL_Y + ROLL_H + TOILET + 54
GRID = SIZE * CELL
PANEL_Y = GY + GRID + TOILET + 62
PANEL_GAP = 16
PANEL_MIN_H = 96
"""A rat's panel: as tall as its lines (name, team, where it is) need, and its disc."""
LINE_H = 30
TEXT_X = 92
"""Where a player panel's words begin, right of the rat's disc."""
EVENT_LINES = 3
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
def _frame(lang: str) -> Image.Image:
    """The board without tiles: the toilets with their colours and numbers, and the coordinates, in ``lang``."""
    img = Image.new("RGBA", (WIDTH, GRID + 2 * TOILET + 90), (0, 0, 0, 0))
    oy = GY - TOILET - 45  # the frame image's top on the canvas
    small, label = t.font(t.MIN_TEXT, bold=True), t.font(t.MIN_TEXT, bold=True)
    pad = 8
    back = t.rounded(GRID + 2 * TOILET + 2 * pad, GRID + 2 * TOILET + 2 * pad, 18, (20, 26, 30), t.GOLD_DEEP, 3)
    img.alpha_composite(back, (GX - TOILET - pad, GY - TOILET - pad - oy))
    for i in range(SIZE):
        for x in (GX - TOILET, GX + GRID):  # yellow toilets at both ends of row i
            y = GY + i * CELL - oy
            img.alpha_composite(t.rounded(TOILET - 6, CELL - 12, 10, YELLOW, t.OUTLINE, 2), (x + 3, y + 6))
            # the number only: the colour says which (a letter would be a language's: Y, German Ge)
            t.text(img, (x + TOILET / 2, y + CELL / 2), str(i + 1), small, (40, 30, 8), anchor="mm")
        for y in (GY - TOILET - oy, GY + GRID - oy):  # green toilets at both ends of column i
            x = GX + i * CELL
            img.alpha_composite(t.rounded(CELL - 12, TOILET - 6, 10, GREEN, t.OUTLINE, 2), (x + 6, y + 3))
            t.text(img, (x + CELL / 2, y + TOILET / 2), str(i + 1), small, WHITE, anchor="mm")
        # coordinates as the texts name squares: r1–r8 on the left and right, c1–c8 above and below (German Z, S)
        y = GY + i * CELL + CELL / 2 - oy
        row, column = tr(lang, "r{row}", row=i + 1), tr(lang, "c{column}", column=i + 1)
        margin = (GX - TOILET - pad) / 2  # the middle of the margin beside the frame: room for a longer word
        t.text(img, (margin, y), row, label, t.MIST, anchor="mm")
        t.text(img, (WIDTH - margin, y), row, label, t.MIST, anchor="mm")
        x = GX + i * CELL + CELL / 2
        t.text(img, (x, GY - TOILET - pad - 20 - oy), column, label, t.MIST, anchor="mm")
        t.text(img, (x, GY + GRID + TOILET + pad + 22 - oy), column, label, t.MIST, anchor="mm")
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
    """What is happening now, in a line (the view's ``pending`` is written out already), or who won."""
    if view["result"] is not None:
        return _headline(view, names, locale)
    status = format_seats(view["pending"], list(names))
    return status[:1].upper() + status[1:]


def _headline(view: View, names: Sequence[str], locale: str) -> str:
    winners = view["result"]["winners"] if view["result"] else []
    together = " & ".join(names[s] for s in winners)
    if len(winners) > 1:
        return tr(locale, "Winners: {names}", names=together)
    if winners:
        return tr(locale, "Winner: {name}", name=together)
    return tr(locale, "Winner: nobody")


def _header(img: Image.Image, view: View, names: Sequence[str], locale: str) -> None:
    """The top band (the turn and the teams, who decides what), and under it the last roll."""
    if view["turn"]:
        turn = tr(locale, "TURN {turn} / {limit}", turn=view["turn"], limit=view["turn_limit"])
    else:
        turn = tr(locale, "SETUP")
    if view["mode"] == "ffa":
        mode = tr(locale, "FREE-FOR-ALL")
    else:
        mode = tr(locale, "TEAMS OF 2") if view["mode"] == "2" else tr(locale, "TEAMS OF 3")
    over = view["result"] is not None
    actor = () if over or view["actor"] is None else (_hue(view, view["actor"]),)
    title = t.game_title(SewerRat.title, locale)
    tags = [t.Tag(turn), t.Tag(mode)]
    status = _status(view, names, locale)
    t.top_band(img, t.icon("rat", 52), title, tags, status, x=28, width=WIDTH - 56, seats=actor, over=over)
    roll = view["roll"]
    if roll is None:
        return
    size = 56
    for n, (colour, value) in enumerate(((YELLOW, roll["y"]), (GREEN, roll["g"]))):
        die = _die(colour, value, size)
        img.paste(die, (28 + n * (size + 10), ROLL_Y + 4), die)
    fell = " ".join(localize(square_name(q), locale) for q in dict.fromkeys(roll["at"]))
    name = names[view["mover"]]
    if fell:
        rolled = tr(locale, "{name} rolled · traps {squares}", name=name, squares=fell)
    else:
        rolled = tr(locale, "{name} rolled · no trap yet", name=name)
    x = 28 + 2 * (size + 10) + 8
    lines = t.wrap(rolled, t.font(t.MIN_TEXT), WIDTH - 28 - x, 2)
    for n, line in enumerate(lines):
        y = ROLL_Y + 32 + (n - (len(lines) - 1) / 2) * LINE_H
        t.text(img, (x, y), line, t.font(t.MIN_TEXT), t.FOAM, anchor="lm")


@image_cache
def _base(seats: int, panel_h: int, lines: int, below: int, locale: str) -> Image.Image:
    """The table background with the board's frame, toilets and coordinates, the players' panels
    ``panel_h`` px high and, with ``lines`` of room for recent events, the events panel over the legend; a
    final sheet (``lines`` 0) has instead ``below`` px of room under the panels."""
    foot = _panels_y_end(seats, panel_h) + 22
    below = t.events_height(lines, t.legend_height(_legend(locale), WIDTH - 56)) if lines else below
    img = t.new_canvas(WIDTH, foot + below + 24)
    frame = _frame(language(locale))
    img.paste(frame, (0, GY - TOILET - 45), frame)
    for s in range(seats):
        t.panel(img, _panel_box(s, seats, panel_h))
    if lines:
        t.events_panel(img, (28, foot), WIDTH - 56, lines, _legend(locale))
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
def _columns(seats: int) -> int:
    return 3 if seats > 4 else 2 if seats > 1 else 1


def _panel_box(i: int, seats: int, panel_h: int) -> t.Box:
    cols = _columns(seats)
    w = (WIDTH - 56 - (cols - 1) * PANEL_GAP) // cols
    x = 28 + (i % cols) * (w + PANEL_GAP)
    y = PANEL_Y + (i // cols) * (panel_h + PANEL_GAP)
    return x, y, x + w, y + panel_h


def _panels_y_end(seats: int, panel_h: int) -> int:
    rows = -(-seats // _columns(seats))
    return PANEL_Y + rows * (panel_h + PANEL_GAP) - PANEL_GAP


def _where(view: View, seat: int, locale: str) -> tuple[str, t.RGB]:
    """Where a rat is, in words, and the colour they are drawn in."""
    q = view["rats"][seat]
    if seat in view["out"]:
        turn = next(f[1] for f in view["fallen"] if f[0] == seat)
        return tr(locale, "OUT (turn {turn})", turn=turn), t.DANGER
    if q is None:
        return tr(locale, "not placed yet"), t.INK_SOFT
    return tr(locale, "in · on {square}", square=square_name(q)), (30, 110, 50)


class PanelWords(NamedTuple):
    """A rat's panel's words, each on the lines it takes in the room right of the disc."""

    name: tuple[str, ...]
    font: ImageFont.FreeTypeFont
    team: tuple[str, ...]
    where: tuple[str, ...]

    @property
    def rows(self) -> int:
        return len(self.name) + len(self.team) + len(self.where)


def _panel_words(view: View, seat: int, name: str, locale: str) -> PanelWords:
    """Its player's name (on up to three lines), its team in a team game and where it is (two lines at
    most where a language needs them)."""
    room = _panel_box(0, view["seats"], PANEL_MIN_H)[2] - 28 - TEXT_X - 12
    lines, fnt = t.fit_lines(name, room, 30, 3)
    team: tuple[str, ...] = ()
    if view["mode"] != "ffa":
        words = localize(TEAM_NAME[t.PLAYER_COLOURS[_hue(view, seat)].name], locale)
        team = t.wrap(words, t.font(t.MIN_TEXT), room - 28, 2)
    where = t.wrap(_where(view, seat, locale)[0], t.font(t.MIN_TEXT), room, 2)
    return PanelWords(lines, fnt, team, where)


def _panel_h(view: View, names: Sequence[str], locale: str) -> int:
    """One height for every rat's panel: its disc's, or its longest words'."""
    rows = max(_panel_words(view, s, names[s], locale).rows for s in range(view["seats"]))
    return max(PANEL_MIN_H, 22 + rows * LINE_H)


def _player(img: Image.Image, view: View, seat: int, name: str, box: t.Box, locale: str) -> None:
    x0, y0, _, y1 = box
    if seat == view["actor"]:
        t.glow(img, box)
    out = seat in view["out"]
    token = _token(seat, False, _hue(view, seat))
    top = (y0 + y1 - CELL) // 2  # the rat's disc, centred in the panel's height
    img.paste(token, (x0 - 4, top), token)
    if out:
        t.paste(img, t.icon("skull", 40), (x0 + 46, top + CELL // 2), "mm")
    x = x0 + TEXT_X
    words = _panel_words(view, seat, name, locale)
    y = (y0 + y1) / 2 - (words.rows - 1) / 2 * LINE_H
    for line in words.name:
        t.text(img, (x, y), line, words.font, t.INK_SOFT if out else t.INK, anchor="lm")
        y += LINE_H
    if words.team:
        colour = t.PLAYER_COLOURS[_hue(view, seat)]
        ImageDraw.Draw(img).ellipse((x, y - 10, x + 20, y + 10), fill=colour.fill, outline=t.OUTLINE)
    for line in words.team:
        t.text(img, (x + 28, y), line, t.font(t.MIN_TEXT), t.INK, anchor="lm")
        y += LINE_H
    ink = _where(view, seat, locale)[1]
    for line in words.where:
        t.text(img, (x, y), line, t.font(t.MIN_TEXT), ink, anchor="lm")
        y += LINE_H


@image_cache
def _legend(locale: str) -> t.Legend:
    """Every mark the board may show, with what it means."""

    def small(img: Image.Image) -> Image.Image:
        return img.convert("RGBA").resize((40, 40), Image.Resampling.LANCZOS)

    return [
        [
            (small(_trap(False)), tr(locale, "black trap")),
            (small(_trap(True)), tr(locale, "red trap")),
            (small(_tile(S)), tr(locale, "white dot")),
        ],
        [
            (small(_mark("target")), tr(locale, "can go")),
            (small(_mark("fell")), tr(locale, "last roll")),
            (small(_mark("refused")), tr(locale, "trap falling")),
            (small(_mark("pending")), tr(locale, "planned tile")),
        ],
    ]


def _draw(view: View, names: Sequence[str], lines: int, below: int, locale: str) -> tuple[Image.Image, list[str], int]:
    """The board with its rats' panels and, with ``lines``, the events panel's frame (else ``below`` px of
    room): the image, the names drawn and where what follows the panels starts."""
    seats = view["seats"]
    shown = t.seat_names(names, seats, locale)
    panel_h = _panel_h(view, shown, locale)
    img = _base(seats, panel_h, lines, below, locale).copy()
    _header(img, view, shown, locale)
    _board(img, view)
    for s in range(seats):
        _player(img, view, s, shown[s], _panel_box(s, seats, panel_h), locale)
    return img, shown, _panels_y_end(seats, panel_h) + 22


def render_board(view: View, names: Sequence[str], locale: str = "en") -> bytes:
    """The table: the top band, the last roll, the board, each player's rat, team and status, and the
    recent events over the legend."""
    view = localize_tree(view, locale)
    shown = t.seat_names(names, view["seats"], locale)
    recent = view.get("events", [])[-EVENT_LINES:]
    events = t.event_lines(tuple(format_seats(e, shown) for e in recent), WIDTH - 56)
    img, _, foot = _draw(view, names, t.event_room(sum(map(len, events)), EVENT_LINES + 1), 0, locale)
    t.draw_events(img, (28, foot), WIDTH - 56, events)
    return t.to_png(img)


def _fate(locale: str, place: int, name: str, seat: int, fell: tuple[int, str] | None) -> str:
    """One line of the final places: who, and in which turn and how their rat fell (or that it stood)."""
    values = {"rank": place, "name": name, "letter": _letter(seat)}
    if fell is None:
        return tr(locale, "{rank}. {name} ({letter}) — still in the sewer at the end", **values)
    turn, when = fell
    if when == "roll":
        return tr(locale, "{rank}. {name} ({letter}) — turn {turn}, caught by a roll's trap", turn=turn, **values)
    if when == "move":
        return tr(
            locale, "{rank}. {name} ({letter}) — turn {turn}, no move at the start of its move", turn=turn, **values
        )
    return tr(locale, "{rank}. {name} ({letter}) — turn {turn}, no move at the end of its turn", turn=turn, **values)


def _places(view: View) -> list[tuple[int, int, tuple[int, str] | None]]:
    """Every rat ranked: the winners first, then the later a rat fell the better; ``(place, seat, (turn it
    fell, how) or None)``, rats level sharing a place."""
    winners = view["result"]["winners"] if view["result"] else []
    fell = {seat: (turn, when) for seat, turn, when in view["fallen"]}
    keys = {s: (s not in winners, -fell[s][0] if s in fell else -(10**6)) for s in range(view["seats"])}
    order = sorted(keys, key=lambda s: (keys[s], s))
    return [(1 + sum(k < keys[s] for k in keys.values()), s, fell.get(s)) for s in order]


def render_final(view: View, names: Sequence[str], locale: str = "en") -> bytes:
    """The end: the top band with who won, the final board and every rat ranked, the winners first, then by
    how long it lasted (long lines wrap)."""
    view = localize_tree(view, locale)
    seats = view["seats"]
    shown = t.seat_names(names, seats, locale)
    fnt = t.font(t.MIN_TEXT)
    places = [t.wrap(_fate(locale, place, shown[s], s, fell), fnt, WIDTH - 140) for place, s, fell in _places(view)]
    panel_h = 84 + sum(len(lines) for lines in places) * 40
    img, shown, y = _draw(view, names, 0, panel_h, locale)
    t.panel(img, (28, y, WIDTH - 28, y + panel_h))
    t.paste(img, t.icon("crown", 40), (64, y + 36), "mm")
    heading, bold = t.fit_text(tr(locale, "Every rat's place:"), WIDTH - 160, 30)
    t.text(img, (96, y + 36), heading, bold, t.INK, anchor="lm")
    y += 84
    for lines in places:
        for n, line in enumerate(lines):
            t.text(img, (60 + 36 * (n > 0), y), line, fnt, t.INK, anchor="lm")
            y += 40
    return t.to_png(img)
