"""Sea Rats! images: the ocean during play (:func:`render_board`) and the end of the game (:func:`render_final`).

Portrait, as every board: the top band (the round, which ship decides what, in its colour), the last dice
and any offer waiting for an answer, the map across the whole width, every ship's log grouped by
commander, and the recent events over a legend of every mark the map uses.

The map is an 11×11 grid of dots in a frame of land, the six numbered ports on its edge and the X in the
middle. Ships are round flags in their colours with their commander's initial; the Treasure chest sits on
the X or on the ship that carries it. Beside each port, small discs in the ships' colours show the ports
they chart (a filled disc) and where they last stocked up (a ring). The ship to act glows, with the dots
it can reach, its firing range and its targets; a battle draws its line of fire. Each ship's log says
where it is, its cannonballs and supplies (0–12, as bars and numbers), its course and its last port.
Everything drawn comes from the view: the renderer never looks at rules.

The parts that never change (land, ocean, grid, ports, labels) are drawn once into a cached layer at
twice the size and scaled down, so a render is a copy, a few cached sprites pasted, and text.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from games.core import format_seats
from games.i18n import L, localize_tree, ntr, tr
from games.searats.engine import SeaRats
from rendering import theme as t
from rendering.cache import image_cache

View = dict[str, Any]

W = 1100
M = 24
INNER = W - 2 * M
SMALL = t.MIN_TEXT
STRIP_Y = t.TOP
STRIP_H = 104
"""Under the top band: the last dice (and what they were for), then an offer waiting for an answer or
where the Treasure is."""
MAP = INNER
MAP_X, MAP_Y = M, STRIP_Y + STRIP_H + 10
GAP = 82
"""Pixels between neighbouring dots."""
EDGE = (MAP - 10 * GAP) // 2
"""From the map's border to the first dot: the land (with coordinates, port badges and markers), then water."""
COAST = 84
GRID_X, GRID_Y = MAP_X + EDGE, MAP_Y + EDGE
FLEETS_Y = MAP_Y + MAP + 18
SHIP_ROW = 60
HEAD_ROW = 48
"""A fleet's heading (its commander's name) and each of its ships' rows in the logs."""
EVENT_LINES = 3
WHITE: t.RGB = (255, 255, 255)
SAND: t.RGB = (214, 188, 136)
SAND_DARK: t.RGB = (164, 132, 84)
GRASS: t.RGB = (112, 142, 78)
WATER: t.RGB = (30, 86, 112)
WATER_EDGE: t.RGB = (56, 120, 146)
GRID_LINE: t.RGB = (52, 110, 136)
DOT: t.RGB = (196, 222, 230)
FIRE: t.RGB = (236, 72, 52)
BALL: t.RGB = (56, 56, 64)
CRATE: t.RGB = (170, 112, 56)
FLAG = 66
"""A ship's flag on the map."""

BADGE = 64
"""From a port's dot to its numbered badge on the land."""
PORT_SIDE = {1: (0, -1), 2: (0, -1), 3: (1, 0), 4: (0, 1), 5: (0, 1), 6: (-1, 0)}
"""Which way each port's badge sits from its dot, onto the land."""


def _colour(name: str) -> t.PlayerColour:
    """A ship's colour (the theme's seat colour of that name): its flag, the text on it and its edge."""
    return next(c for c in t.PLAYER_COLOURS if c.name == name)


def _hue(name: str) -> int:
    """The theme's seat colour a ship wears, by index (the top band's colour for that ship)."""
    return next(i for i, c in enumerate(t.PLAYER_COLOURS) if c.name == name)


def _dot_xy(col: int, row: int) -> tuple[int, int]:
    return GRID_X + col * GAP, GRID_Y + row * GAP


# ---------------------------------------------------------------------------------------------- sprites


def _paint_chest(d: ImageDraw.ImageDraw, p: Any, k: float, c: t.RGB) -> None:
    d.rounded_rectangle(p(8, 30, 92, 56), radius=round(14 * k), fill=t.dark(c, 0.15))
    d.rectangle(p(8, 46, 92, 90), fill=c)
    d.rectangle(p(8, 50, 92, 58), fill=t.GOLD)
    d.rectangle(p(44, 44, 56, 66), fill=t.GOLD)
    for x in (22, 78):
        d.rectangle(p(x - 4, 30, x + 4, 90), fill=t.GOLD_DEEP)


t.register_icon("sr-chest", _paint_chest, (150, 92, 44))


@image_cache
def _flag(colour: str, initial: str, size: int) -> Image.Image:
    """A ship: a round flag piece in its colour, a pennant, and its commander's initial."""
    fill, ink, edge = _colour(colour)[1:]
    s = 3
    big = Image.new("RGBA", (size * s, size * s), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    r = size * s / 2
    d.ellipse((2 * s, 2 * s, size * s - 2 * s, size * s - 2 * s), fill=fill, outline=edge, width=3 * s)
    # A pennant on a mast across the top of the disc.
    mast_x = r + size * s * 0.22
    d.line((mast_x, size * s * 0.16, mast_x, size * s * 0.5), fill=edge, width=2 * s)
    d.polygon(
        [(mast_x, size * s * 0.16), (mast_x + size * s * 0.2, size * s * 0.24), (mast_x, size * s * 0.32)],
        fill=t.light(fill, 0.35) if colour != "yellow" else t.dark(fill, 0.2),
    )
    img = big.resize((size, size), Image.Resampling.LANCZOS)
    if initial:
        t.text(
            img,
            (size * 0.44, size * 0.56),
            initial,
            t.font(max(SMALL, round(size * 0.5)), bold=True),
            ink,
            anchor="mm",
        )
    return img


@image_cache
def _ring(colour: t.RGB, size: int, width: int) -> Image.Image:
    s = 3
    big = Image.new("RGBA", (size * s, size * s), (0, 0, 0, 0))
    ImageDraw.Draw(big).ellipse(
        (width * s // 2, width * s // 2, size * s - width * s // 2, size * s - width * s // 2),
        outline=colour,
        width=width * s,
    )
    return big.resize((size, size), Image.Resampling.LANCZOS)


@image_cache
def _disc(colour: t.RGB, size: int, edge: t.RGB = t.OUTLINE) -> Image.Image:
    s = 3
    big = Image.new("RGBA", (size * s, size * s), (0, 0, 0, 0))
    ImageDraw.Draw(big).ellipse((s, s, size * s - s, size * s - s), fill=colour, outline=edge, width=2 * s)
    return big.resize((size, size), Image.Resampling.LANCZOS)


@image_cache
def _die(value: int, size: int) -> Image.Image:
    """A white die showing ``value`` pips."""
    img = t.rounded(size, size, size // 5, WHITE, t.OUTLINE, 2).copy()
    d = ImageDraw.Draw(img)
    pips = {
        1: [(1, 1)],
        2: [(0, 0), (2, 2)],
        3: [(0, 0), (1, 1), (2, 2)],
        4: [(0, 0), (2, 0), (0, 2), (2, 2)],
        5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
        6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)],
    }[value]
    r = size * 0.09
    for cx, cy in pips:
        x = size * (0.26 + 0.24 * cx)
        y = size * (0.26 + 0.24 * cy)
        d.ellipse((x - r, y - r, x + r, y + r), fill=t.OUTLINE)
    return img


@image_cache
def _crate(size: int) -> Image.Image:
    """A crate of supplies."""
    img = t.rounded(size, size, 4, CRATE, t.OUTLINE, 2).copy()
    d = ImageDraw.Draw(img)
    d.line((4, 4, size - 5, size - 5), fill=(110, 70, 30), width=2)
    d.line((4, size - 5, size - 5, 4), fill=(110, 70, 30), width=2)
    return img


@image_cache
def _glyph(s: str, size: int, ink: t.RGB = t.INK) -> Image.Image:
    """A symbol (the compass, the anchor) as an icon ``size`` px high, where it is not in colour in ``ink``."""
    img = Image.new("RGBA", (size + 8, size + 8), (0, 0, 0, 0))
    t.text(img, ((size + 8) / 2, (size + 8) / 2), s, t.font(size), ink, anchor="mm")
    return img.crop(img.getbbox() or (0, 0, 1, 1))


@image_cache
def _range_dot() -> Image.Image:
    """A dot within the firing ship's range, as the map rings it."""
    img = _disc(DOT, 16, DOT).copy()
    img.alpha_composite(_ring(FIRE, 22, 3).crop((3, 3, 19, 19)))
    return img


# ---------------------------------------------------------------------------------------------- the map


@image_cache
def _map_layer(ports: tuple[tuple[int, int, int], ...], x: tuple[int, int]) -> Image.Image:
    """Land, ocean, grid lines, dots, coordinates, ports and the X, drawn at twice the size and scaled down."""
    s = 2
    img = Image.new("RGBA", (MAP * s, MAP * s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, MAP * s - 1, MAP * s - 1), radius=44 * s, fill=SAND, outline=SAND_DARK, width=4 * s)
    d.rounded_rectangle((18 * s, 18 * s, (MAP - 18) * s, (MAP - 18) * s), radius=38 * s, outline=GRASS, width=7 * s)
    o = COAST * s
    d.rounded_rectangle((o, o, MAP * s - o, MAP * s - o), radius=32 * s, fill=WATER, outline=WATER_EDGE, width=5 * s)

    def at(col: int, row: int) -> tuple[float, float]:
        return (EDGE + col * GAP) * s, (EDGE + row * GAP) * s

    for i in range(11):
        d.line((*at(i, 0), *at(i, 10)), fill=GRID_LINE, width=2 * s)
        d.line((*at(0, i), *at(10, i)), fill=GRID_LINE, width=2 * s)
    faint = t.mix(WATER, GRID_LINE, 0.6)
    for k in range(-10, 11):
        ends = [(c, c - k) for c in range(11) if 0 <= c - k <= 10]
        d.line((*at(*ends[0]), *at(*ends[-1])), fill=faint, width=s)
        ends = [(c, k + 10 - c) for c in range(11) if 0 <= k + 10 - c <= 10]
        if len(ends) > 1:
            d.line((*at(*ends[0]), *at(*ends[-1])), fill=faint, width=s)
    cx, cy = at(*x)
    arm = 26 * s
    for sign in (1, -1):
        d.line((cx - arm, cy - sign * arm, cx + arm, cy + sign * arm), fill=(180, 40, 36), width=11 * s)
    r = 6 * s
    for col in range(11):
        for row in range(11):
            px, py = at(col, row)
            d.ellipse((px - r, py - r, px + r, py + r), fill=DOT)
    for _number, col, row in ports:
        px, py = at(col, row)
        d.ellipse((px - 28 * s, py - 28 * s, px + 28 * s, py + 28 * s), outline=t.GOLD, width=5 * s)
    layer = img.resize((MAP, MAP), Image.Resampling.LANCZOS)
    fnt = t.font(SMALL + 2, bold=True)
    for i in range(11):
        letter = "ABCDEFGHIJK"[i]
        t.text(layer, (EDGE + i * GAP, 18), letter, fnt, t.INK, anchor="mm")
        t.text(layer, (EDGE + i * GAP, MAP - 18), letter, fnt, t.INK, anchor="mm")
        t.text(layer, (24, EDGE + i * GAP), str(i + 1), fnt, t.INK, anchor="mm")  # "11" is 40 px wide
        t.text(layer, (MAP - 24, EDGE + i * GAP), str(i + 1), fnt, t.INK, anchor="mm")
    for number, col, row in ports:
        bx, by = _port_badge(number, col, row)
        t.paste(layer, _disc(t.GOLD, 44), (bx - MAP_X, by - MAP_Y), "mm")
        t.text(layer, (bx - MAP_X, by - MAP_Y), str(number), t.font(SMALL + 2, bold=True), t.INK, anchor="mm")
    return layer


def _port_badge(number: int, col: int, row: int) -> tuple[int, int]:
    """Where a port's numbered badge sits, on the land beside its dot (canvas pixels)."""
    x, y = _dot_xy(col, row)
    dx, dy = PORT_SIDE[number]
    return x + dx * (BADGE - 4), y + dy * BADGE


def _markers(canvas: Image.Image, view: View) -> None:
    """Beside each port: a filled disc for every ship charting it, a ring for every ship that last stocked there."""
    spots: dict[int, list[tuple[str, bool]]] = {}
    for ship in view["ships"]:
        if ship["sunk"]:
            continue
        if ship["chart"]:
            spots.setdefault(ship["chart"], []).append((ship["colour"], True))
        if ship["last"]:
            spots.setdefault(ship["last"], []).append((ship["colour"], False))
    ports = {p["number"]: p["at"] for p in view["ports"]}
    for number, marks in spots.items():
        col, row = ports[number]
        x, y = _dot_xy(col, row)
        dx, dy = PORT_SIDE[number]
        for i, (colour, charted) in enumerate(marks):
            if dy:  # a row of markers along the top or bottom edge, right of the badge
                mx, my = x + 42 + i * 30, y + dy * BADGE
            else:  # a column along the left or right edge, below the badge
                mx, my = x + dx * (BADGE - 4), y + 42 + i * 30
            t.paste(canvas, _marker(colour, charted), (mx, my), "mm")


def _marker(colour: str, charted: bool) -> Image.Image:
    """A ship's marker beside a port: a filled disc where it charts its course to, a ring where it stocked."""
    c = _colour(colour)
    return _disc(c.fill, 26, c.edge) if charted else _ring(c.fill, 26, 5)


def _ports(view: View) -> tuple[tuple[int, int, int], ...]:
    return tuple((p["number"], p["at"][0], p["at"][1]) for p in view["ports"])


def _draw_map(canvas: Image.Image, view: View, names: Sequence[str]) -> None:
    """The ships, markers and highlights on a canvas that already holds :func:`_map_layer` at the map's place."""
    _markers(canvas, view)
    draw = ImageDraw.Draw(canvas)
    for col, row in view["range"]:
        x, y = _dot_xy(col, row)
        draw.ellipse((x - 9, y - 9, x + 9, y + 9), outline=FIRE, width=3)
    for col, row in view["reach"]:
        t.paste(canvas, _ring(t.HIGHLIGHT, 34, 5), _dot_xy(col, row), "mm")
    battle = view["battle"]
    ships = view["ships"]
    if battle is not None:
        a = _dot_xy(*ships[battle["att"]]["at"])
        b = _dot_xy(*ships[battle["def"]]["at"])
        draw.line((*a, *b), fill=FIRE, width=7)
    if view["treasure"] is None:
        t.paste(canvas, t.icon("sr-chest", 54), _dot_xy(*view["x"]), "mm")
    acting = set(view["to_act"])
    targets = {target["ship"] for target in view["targets"]}
    half = FLAG // 2 + 2
    for s, ship in enumerate(ships):
        if ship["sunk"]:
            continue
        x, y = _dot_xy(*ship["at"])
        if s in acting:
            t.glow(canvas, (x - half, y - half, x + half, y + half), radius=half)
        if s in targets:
            t.paste(canvas, _ring(FIRE, FLAG + 18, 6), (x, y), "mm")
        t.paste(canvas, _flag(ship["colour"], _initial(names, s), FLAG), (x, y), "mm")
        if ship["treasure"]:
            t.paste(canvas, t.icon("sr-chest", 38), (x + 26, y + 24), "mm")


def _initial(names: Sequence[str], seat: int) -> str:
    name = t.clean_name(names[seat]) if seat < len(names) else ""
    return name[:1].upper() if name else str(seat + 1)


# ---------------------------------------------------------------------------------------------- the logs


def _fleets(view: View) -> list[tuple[int, list[int]]]:
    """Ships grouped by commander, in the order their first ship sails."""
    groups: dict[int, list[int]] = {}
    for s, ship in enumerate(view["ships"]):
        groups.setdefault(ship["commander"], []).append(s)
    return list(groups.items())


def _fleet_heads(view: View, names: Sequence[str], locale: str) -> list[tuple[tuple[str, ...], bool]]:
    """Each fleet's heading: its commander's name (on two lines where it needs them), and whether none of
    its ships is afloat."""
    heads = []
    gone = tr(locale, "out")
    for commander, seats in _fleets(view):
        name = t.clean_name(names[seats[0]]) or tr(locale, "Player {number}", number=commander + 1)
        out = all(view["ships"][s]["sunk"] for s in seats)
        room = INNER - 60 - (round(t.text_width(gone, t.font(SMALL))) + 20 if out else 0)
        heads.append((t.wrap(name, t.font(SMALL + 2, bold=True), room, 2), out))
    return heads


def _logs_height(view: View, names: Sequence[str], locale: str) -> int:
    heads = _fleet_heads(view, names, locale)
    return 16 + sum(HEAD_ROW + (len(lines) - 1) * 30 for lines, _ in heads) + SHIP_ROW * len(view["ships"]) + 12


def _logs(canvas: Image.Image, view: View, names: Sequence[str], locale: str) -> None:
    """Every ship's log, grouped by commander: the commander's name on a dark tab, then a row per ship."""
    y = FLEETS_Y + 16
    acting = set(view["to_act"])
    bold = t.font(SMALL + 2, bold=True)
    for (_, seats), (lines, out) in zip(_fleets(view), _fleet_heads(view, names, locale), strict=True):
        h = HEAD_ROW + (len(lines) - 1) * 30
        width = round(max(t.text_width(line, bold) for line in lines)) + 40
        t.paste(canvas, t.rounded(width, h - 8, 18, t.INK), (M + 14, y + 2))
        for n, line in enumerate(lines):
            t.text(canvas, (M + 34, y + 2 + 20 + n * 30), line, bold, t.PARCHMENT, anchor="lm")
        if out:
            t.text(canvas, (W - M - 20, y + 22), tr(locale, "out"), t.font(SMALL), t.INK_SOFT, anchor="rm")
        y += h
        for s in seats:
            _log_row(canvas, view["ships"][s], y, s in acting, locale)
            y += SHIP_ROW


LOG_X = (M + 64, M + 262, M + 352, M + 612, M + 872, M + 966)
"""Where a ship's row puts its name, its dot, its cannonballs, its supplies, its course and its last port."""
BAR_W = 240
"""A log's bar of 12 notches, its mark and its number."""


def _log_row(canvas: Image.Image, ship: View, y: int, acting: bool, locale: str) -> None:
    mid = y + SHIP_ROW / 2
    if acting:
        t.paste(canvas, t.rounded(INNER - 20, SHIP_ROW - 6, 12, (*t.HIGHLIGHT, 70)), (M + 10, y + 3))
    t.paste(canvas, _flag(ship["colour"], "", 44), (M + 38, mid), "mm")
    if ship["treasure"]:  # on the flag, as on the map
        t.paste(canvas, t.icon("sr-chest", 28), (M + 50, mid + 12), "mm")
    name, fnt = t.fit_text(ship["name"], LOG_X[1] - LOG_X[0] - 14, SMALL + 4)
    t.text(canvas, (LOG_X[0], mid), name, fnt, t.INK, anchor="lm")
    if ship["sunk"]:
        t.paste(canvas, t.icon("skull", 36), (LOG_X[1] + 18, mid), "mm")
        sunk, fnt = t.fit_text(tr(locale, "sunk"), W - M - LOG_X[1] - 60, SMALL, bold=False)
        t.text(canvas, (LOG_X[1] + 46, mid), sunk, fnt, t.INK_SOFT, anchor="lm")
        return
    t.text(canvas, (LOG_X[1], mid), ship["dot"], t.font(SMALL + 4, bold=True), t.INK, anchor="lm")
    _bar(canvas, LOG_X[2], mid, ship["balls"], BALL, _disc(BALL, 26))
    _bar(canvas, LOG_X[3], mid, ship["supplies"], CRATE, _crate(26))
    for x, glyph, port in ((LOG_X[4], "🧭", ship["chart"]), (LOG_X[5], "⚓", ship["last"])):
        t.paste(canvas, _glyph(glyph, 30), (x + 16, mid), "mm")
        t.text(canvas, (x + 38, mid), str(port or "–"), t.font(SMALL + 4, bold=True), t.INK, anchor="lm")


def _bar(canvas: Image.Image, x: int, mid: float, value: int, colour: t.RGB, mark: Image.Image) -> None:
    """A log scale 0–12: its mark, ``value`` notches filled, the number (More Booty may go beyond: the
    number says so)."""
    t.paste(canvas, mark, (x + 13, mid), "mm")
    t.paste(canvas, _notches(min(value, 12), colour), (x + 34, mid - 10))
    t.text(canvas, (x + BAR_W, mid), str(value), t.font(SMALL + 4, bold=True), t.INK, anchor="rm")


@image_cache
def _notches(value: int, colour: t.RGB) -> Image.Image:
    """A log's 12 notches, ``value`` of them filled (drawn once per value: a board has twelve bars)."""
    notch = (BAR_W - 34 - 48) / 12
    img = Image.new("RGBA", (round(12 * notch), 21), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    for i in range(12):
        x0 = i * notch
        draw.rectangle((x0, 0, x0 + notch - 3, 20), fill=colour if i < value else t.PARCHMENT_SHADE)
    return img


# ---------------------------------------------------------------------------------------------- head and foot


def _status(view: View, names: Sequence[str], locale: str) -> str:
    """``"Black (Anne) to roll"``, or how the game ended."""
    if view["over"]:
        return " ".join(format_seats(view["result"] or tr(locale, "The game is over."), list(names)).split())
    ships = view["ships"]
    who = ", ".join(
        tr(
            locale,
            "{ship} ({commander})",
            ship=ships[s]["name"],
            commander=t.clean_name(names[s]) if s < len(names) else "?",
        )
        for s in view["to_act"]
    )
    return f"{who} {view['waiting']}"


def _band(canvas: Image.Image, view: View, names: Sequence[str], locale: str) -> None:
    """The top band: the round, and which ship decides what, in its colour."""
    rounds = tr(locale, "ROUND {round} / {rounds}", round=view["round"], rounds=view["rounds"])
    over = view["over"]
    seats = () if over else tuple(_hue(view["ships"][s]["colour"]) for s in view["to_act"])
    status = _status(view, names, locale)
    t.top_band(
        canvas, t.icon("skull", 52), _title(locale), [t.Tag(rounds)], status, x=M, width=INNER, seats=seats, over=over
    )


def _goods(items: list[int], locale: str) -> str:
    """``"2 cannonballs + 1 supply + the Treasure"``, in ``locale``."""
    parts = []
    if items[0]:
        parts.append(ntr(locale, "{n} cannonball", "{n} cannonballs", items[0]))
    if items[1]:
        parts.append(ntr(locale, "{n} supply", "{n} supplies", items[1]))
    if len(items) > 2 and items[2]:
        parts.append(tr(locale, "the Treasure"))
    return " + ".join(parts) or tr(locale, "nothing")


def _offer_text(view: View, names: Sequence[str], locale: str = "en") -> str:
    offer = view["offer"]
    if not offer or offer.get("get") is None:
        return ""
    ships = view["ships"]
    values = {
        "giver": ships[offer["from"]]["name"],
        "taker": ships[offer["to"]]["name"],
        "commander": t.clean_name(names[offer["to"]]) if offer["to"] < len(names) else "?",
    }
    give, get = _goods(offer["give"], locale), _goods(offer["get"], locale)
    if offer["kind"] == "bribe":
        return tr(locale, "Bribe: {giver} offers {goods}. {taker} ({commander}) must answer.", goods=give, **values)
    if offer["kind"] == "demand":
        return tr(locale, "Blackmail: {giver} demands {goods}. {taker} ({commander}) must answer.", goods=get, **values)
    return tr(
        locale,
        "Trade: {giver} gives {give} for {get}. {taker} ({commander}) must answer.",
        give=give,
        get=get,
        **values,
    )


DICE_FOR = {
    "sail": L("{ship} sails:"),
    "port": L("{ship} stocks up:"),
    "fire": L("{ship} fires:"),
    "counter": L("{ship} fires back:"),
    "flee": L("{ship} flees:"),
}
"""What the last dice were rolled for, by the view's ``dice["what"]``."""


def _dice_text(dice: View, ship: str, locale: str) -> str:
    """What the last dice were rolled for: ``"Black fires:"``."""
    what = DICE_FOR.get(dice["what"])
    return tr(locale, what, ship=ship) if what else f"{ship}:"


def _strip(canvas: Image.Image, view: View, names: Sequence[str], locale: str) -> None:
    """Under the top band: the last dice with what they were for (and a battle's odds), then an offer
    waiting for an answer, or where the Treasure is."""
    fnt = t.font(SMALL)
    dice = view["dice"]
    x, top = M + 4, STRIP_Y
    if dice:
        said = _dice_text(dice, view["ships"][dice["seat"]]["name"], locale)
        t.text(canvas, (x, top + 24), said, fnt, t.FOAM, anchor="lm")
        dx = x + t.text_width(said, fnt) + 14
        for value in dice["values"]:
            t.paste(canvas, _die(value, 44), (dx, top + 2))
            dx += 52
        battle = view["battle"]
        if battle is not None:
            note = ntr(
                locale,
                "Battle at {n} dot: a die above {n} hits.",
                "Battle at {n} dots: a die above {n} hits.",
                battle["dist"],
            )
            lines = t.wrap(note, fnt, W - M - dx - 16, 2)  # beside the dice, on two lines where it must
            for n, line in enumerate(lines):
                y = top + 24 + (n - (len(lines) - 1) / 2) * 28
                t.text(canvas, (dx + 12, y), line, fnt, t.GOLD, anchor="lm")
    offer = _offer_text(view, names, locale)
    if view["treasure"] is None:
        chest = tr(locale, "The Treasure is on the X.")
    else:
        chest = tr(locale, "The Treasure is aboard {ship}.", ship=view["ships"][view["treasure"]]["name"])
    # An offer is never cut: in the bold face if it fits, else over two lines.
    lines, fnt = t.fit_lines(offer or chest, INNER - 8, SMALL, 2)
    for n, part in enumerate(lines):
        y = top + 74 + n * 30 - 15 * (len(lines) - 1)
        t.text(canvas, (x, y), part, fnt, t.GOLD if offer else t.MIST, anchor="lm")


@image_cache
def _legend(locale: str) -> t.Legend:
    """Every mark of the map and the logs, with what it means."""
    return [
        [
            (_flag("black", "A", 36), tr(locale, "a ship, with its commander's initial")),
            (t.icon("sr-chest", 34), tr(locale, "Treasure")),
        ],
        [
            (_ring(t.HIGHLIGHT, 32, 5), tr(locale, "can sail to")),
            (_range_dot(), tr(locale, "in firing range")),
            (_ring(FIRE, 34, 5), tr(locale, "target")),
        ],
        [
            (_disc(BALL, 26), tr(locale, "cannonballs")),
            (_crate(26), tr(locale, "supplies")),
            (_glyph("🧭", 28, t.FOAM), tr(locale, "course to port")),
            (_glyph("⚓", 28, t.FOAM), tr(locale, "last port stocked at")),
        ],
        [
            (_marker("red", True), tr(locale, "beside a port: a ship charting it")),
            (_marker("red", False), tr(locale, "a ship that last stocked there")),
        ],
    ]


# ---------------------------------------------------------------------------------------------- images


def _title(locale: str) -> str:
    return t.game_title(SeaRats.title, locale)


@image_cache
def _base(
    ports: tuple[tuple[int, int, int], ...], x: tuple[int, int], logs_h: int, lines: int, locale: str
) -> Image.Image:
    """Everything of a board that changes only with its layout: background, panels, the map without ships,
    the logs' panel ``logs_h`` px high and the events panel with ``lines`` lines of room over the legend."""
    events_y = FLEETS_Y + logs_h + 18
    legend = _legend(locale)
    canvas = t.new_canvas(W, events_y + t.events_height(lines, t.legend_height(legend, INNER)) + M)
    t.paste(canvas, _map_layer(ports, x), (MAP_X, MAP_Y))
    t.panel(canvas, (M, FLEETS_Y, W - M, FLEETS_Y + logs_h))
    t.events_panel(canvas, (M, events_y), INNER, lines, legend)
    return canvas


def _names(view: View, players: Sequence[str]) -> tuple[list[str], list[str]]:
    """The names of the players (one per player, as the platform passes them: ships change hands) and of
    each ship's commander now."""
    drawn = t.seat_names(players, view["players"])
    return drawn, [drawn[ship["commander"]] for ship in view["ships"]]


def render_board(view: View, names: Sequence[str], locale: str = "en") -> bytes:
    """The top band, the last dice and any pending offer, the ocean, the logs and the recent events.
    ``names``: one per player."""
    view = localize_tree(view, locale)
    _, names = _names(view, names)
    logs_h = _logs_height(view, names, locale)
    recent = view.get("events", [])[-EVENT_LINES:]
    events = t.event_lines(tuple(format_seats(e, names) for e in recent), INNER, 4)  # a capture says much
    room = t.event_room(sum(map(len, events)), EVENT_LINES + 1)
    canvas = _base(_ports(view), tuple(view["x"]), logs_h, room, locale).copy()
    _band(canvas, view, names, locale)
    _strip(canvas, view, names, locale)
    _draw_map(canvas, view, names)
    _logs(canvas, view, names, locale)
    t.draw_events(canvas, (M, FLEETS_Y + logs_h + 18), INNER, events)
    return t.to_png(canvas)


def _fate_line(fate: View, view: View, players: Sequence[str], locale: str = "en") -> str:
    """``"Round 3: Red (Ben) captured by Black (Anne)"``: each ship with its commander at that moment."""
    ships = view["ships"]
    owner = fate.get("from", ships[fate["ship"]]["commander"])
    captor = fate.get("captor", ships[fate["by"]]["commander"])
    values = {
        "round": fate["round"],
        "ship": ships[fate["ship"]]["name"],
        "owner": players[owner],
        "by": ships[fate["by"]]["name"],
        "captor": players[captor],
    }
    if fate["how"] == "sunk":
        return tr(locale, "Round {round}: {ship} ({owner}) sunk by {by} ({captor})", **values)
    return tr(locale, "Round {round}: {ship} ({owner}) captured by {by} ({captor})", **values)


FINAL_ROW = 44
"""A line of the final sheet."""


def _standings(view: View) -> list[tuple[int, list[int], int, int]]:
    """Every player, ranked: the winners, then by ships afloat, cargo aboard, and the round they lost
    their last ship (later is better): ``(player, ships afloat, cargo, round lost)``."""
    ships = view["ships"]
    winners = {ships[s]["commander"] for s in view["winners"]}
    lost: dict[int, int] = {}
    for fate in view["fates"]:
        owner = fate.get("from", ships[fate["ship"]]["commander"])
        lost[owner] = max(lost.get(owner, 0), fate["round"])
    rows = []
    for p in range(view["players"]):
        afloat = [s for s, ship in enumerate(ships) if not ship["sunk"] and ship["commander"] == p]
        cargo = sum(ships[s]["balls"] + ships[s]["supplies"] for s in afloat)
        rows.append((p, afloat, cargo, 0 if afloat else lost.get(p, 0)))
    return sorted(rows, key=lambda r: (r[0] not in winners, -len(r[1]), -r[2], -r[3], r[0]))


def _standing(row: tuple[int, list[int], int, int], ships: list[View], locale: str) -> str:
    """A player's line under their name: ``"2 ships afloat: Black, Blue · 17 items aboard"``."""
    _, afloat, cargo, lost = row
    if afloat:
        fleet = ntr(
            locale,
            "{n} ship afloat: {ships}",
            "{n} ships afloat: {ships}",
            len(afloat),
            ships=", ".join(ships[s]["name"] for s in afloat),
        )
        aboard = ntr(locale, "{n} item aboard", "{n} items aboard", cargo)
        return f"{fleet} · {aboard}"
    if lost:
        return tr(locale, "no ship afloat since round {round}", round=lost)
    return tr(locale, "no ship afloat")


def render_final(view: View, names: Sequence[str], locale: str = "en") -> bytes:
    """The end: every player ranked with their ships afloat (or when they lost their last), every capture
    and sinking with the commanders of both ships at the time, above the final ocean. ``names``: one per
    player."""
    view = localize_tree(view, locale)
    players, seat_names = _names(view, names)
    ships = view["ships"]
    standings = _standings(view)
    winners = [p for p, *_ in standings if p in {ships[s]["commander"] for s in view["winners"]}]
    if winners:
        won = ntr(locale, "{names} wins!", "{names} win!", len(winners), names=" & ".join(players[p] for p in winners))
    else:
        won = tr(locale, "Nobody wins!")
    head_font = t.font(32, bold=True)
    headline = t.wrap(f"{won} {view['result'] or ''}", head_font, INNER - 70)
    fnt, bold = t.font(SMALL), t.font(SMALL + 2, bold=True)
    fates = [_fate_line(f, view, players, locale) for f in view["fates"]] or [
        tr(locale, "No ship was sunk or captured.")
    ]
    fate_lines = [line for f in fates for line in t.wrap(f, fnt, INNER - 80)]
    head_h = 90 + 40 * len(headline) + 10
    names_w = INNER - 180
    heads = [t.wrap(players[p], bold, names_w, 2) for p, *_ in standings]
    statuses = [t.wrap(_standing(row, ships, locale), fnt, INNER - 90, 3) for row in standings]
    rank_h = 30 + FINAL_ROW * sum(len(h) + len(s) for h, s in zip(heads, statuses, strict=True))
    fates_h = 70 + FINAL_ROW * len(fate_lines)
    top_h = head_h + rank_h + 20 + fates_h + 20
    canvas = t.new_canvas(W, top_h + MAP + M)
    t.heading(
        canvas,
        t.icon("skull", 52),
        tr(locale, "{game} · THE END", game=t.game_title(SeaRats.title, locale)),
        (),
        x=M,
        width=INNER,
    )
    t.final_headline(canvas, (M, 76), (headline, head_font))
    y = head_h
    t.panel(canvas, (M, y, W - M, y + rank_h))
    y += 18
    for rank, ((p, *_), head, lines) in enumerate(zip(standings, heads, statuses, strict=True)):
        cy = y + FINAL_ROW / 2
        t.text(canvas, (M + 24, cy), f"{rank + 1}.", bold, t.INK, anchor="lm")
        for n, part in enumerate(head):
            t.text(canvas, (M + 70, cy + n * FINAL_ROW), part, bold, t.INK, anchor="lm")
        if p in winners:
            t.paste(canvas, t.icon("crown", 38), (W - M - 40, cy), "mm")
        for n, line in enumerate(lines, len(head)):
            t.text(canvas, (M + 70, cy + n * FINAL_ROW), line, fnt, t.INK_SOFT, anchor="lm")
        y += (len(head) + len(lines)) * FINAL_ROW
    _final_fates(canvas, head_h + rank_h + 20, fates_h, fate_lines, locale)
    _final_ocean(canvas, view, seat_names, top_h)
    return t.to_png(canvas)


def _final_fates(canvas: Image.Image, y: int, height: int, lines: Sequence[str], locale: str) -> None:
    """The final sheet's panel of captures and sinkings, from ``y``."""
    fnt, bold = t.font(SMALL), t.font(SMALL + 2, bold=True)
    t.panel(canvas, (M, y, W - M, y + height))
    t.text(canvas, (M + 24, y + 34), tr(locale, "Captures and sinkings"), bold, t.INK, anchor="lm")
    y += 70
    for line in lines:
        t.text(canvas, (M + 40, y + FINAL_ROW / 2), line, fnt, t.INK_SOFT, anchor="lm")
        y += FINAL_ROW


def _final_ocean(canvas: Image.Image, view: View, seat_names: Sequence[str], top: int) -> None:
    """The final ocean, every ship where it ended, below the final sheet's panels (from ``top``)."""
    shifted = dict(view, to_act=[], reach=[], range=[], targets=[], battle=None)
    ocean = t.new_canvas(W, MAP_Y + MAP)
    t.paste(ocean, _map_layer(_ports(view), tuple(view["x"])), (MAP_X, MAP_Y))
    _draw_map(ocean, shifted, seat_names)
    canvas.paste(ocean.crop((MAP_X, MAP_Y, MAP_X + MAP, MAP_Y + MAP)), (MAP_X, top))
