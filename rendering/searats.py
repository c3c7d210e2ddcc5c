"""Sea Rats! images: the ocean during play (:func:`render_board`) and the end of the game (:func:`render_final`).

The map is an 11×11 grid of dots in a frame of land, the six numbered ports on its edge and the X in the
middle. Ships are round flags in their colours with their commander's initial; the Treasure chest sits on
the X or on the ship that carries it. Beside each port, small discs in the ships' colours show the ports
they chart (a filled compass marker) and where they last stocked up (a ring). The ship to act glows, with
the dots it can reach, its firing range and its targets; a battle draws its line of fire. The side panel
is every ship's log (cannonballs and supplies, 0–12) grouped by commander; the foot shows the last dice and
any offer waiting for an answer. Everything drawn comes from the view: the renderer never looks at rules.

The parts that never change (land, ocean, grid, ports, labels) are drawn once into a cached layer at
twice the size and scaled down, so a render is a copy, a few cached sprites pasted, and text.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from games.i18n import L, localize_tree, ntr, tr
from rendering import theme as t
from rendering.cache import image_cache

View = dict[str, Any]

W = 1220
M = 20
HEAD_H = 118
MAP = 800
MAP_X, MAP_Y = M, HEAD_H
GAP = 60
"""Pixels between neighbouring dots."""
EDGE = 100
"""From the map's border to the first dot: the land (with coordinates, port badges and markers), then water."""
COAST = 64
GRID_X, GRID_Y = MAP_X + EDGE, MAP_Y + EDGE
PANEL_X = MAP_X + MAP + 20
PANEL_W = W - PANEL_X - M
FOOT_Y = MAP_Y + MAP + 18
FOOT_H = 124
"""The foot: the last dice, then a line (or an offer's two lines)."""
H = FOOT_Y + FOOT_H + M
SMALL = 26
"""The smallest text: a phone shows the 1,220 px board about 400 px wide, so no text is under 1/48 of it."""
WHITE: t.RGB = (255, 255, 255)
SAND: t.RGB = (214, 188, 136)
SAND_DARK: t.RGB = (164, 132, 84)
GRASS: t.RGB = (112, 142, 78)
WATER: t.RGB = (30, 86, 112)
WATER_EDGE: t.RGB = (56, 120, 146)
GRID_LINE: t.RGB = (52, 110, 136)
DOT: t.RGB = (196, 222, 230)
FIRE: t.RGB = (236, 72, 52)

SHIP_COLOURS: dict[str, tuple[t.RGB, t.RGB, t.RGB]] = {
    "black": ((38, 38, 44), WHITE, (214, 214, 222)),
    "red": ((214, 52, 52), WHITE, t.OUTLINE),
    "blue": ((46, 108, 222), WHITE, t.OUTLINE),
    "green": ((44, 156, 74), WHITE, t.OUTLINE),
    "purple": ((142, 70, 194), WHITE, t.OUTLINE),
    "yellow": ((244, 204, 44), (40, 30, 8), t.OUTLINE),
}
"""Each ship's flag colour, the text drawn on it and its edge."""

BADGE = 58
"""From a port's dot to its numbered badge on the land."""
PORT_SIDE = {1: (0, -1), 2: (0, -1), 3: (1, 0), 4: (0, 1), 5: (0, 1), 6: (-1, 0)}
"""Which way each port's badge sits from its dot, onto the land."""


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
    fill, ink, edge = SHIP_COLOURS[colour]
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
            t.font(max(SMALL, round(size * 0.54)), bold=True),
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


# ---------------------------------------------------------------------------------------------- the map


@image_cache
def _map_layer(ports: tuple[tuple[int, int, int], ...], x: tuple[int, int]) -> Image.Image:
    """Land, ocean, grid lines, dots, coordinates, ports and the X, drawn at twice the size and scaled down."""
    s = 2
    img = Image.new("RGBA", (MAP * s, MAP * s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, MAP * s - 1, MAP * s - 1), radius=36 * s, fill=SAND, outline=SAND_DARK, width=4 * s)
    d.rounded_rectangle((14 * s, 14 * s, (MAP - 14) * s, (MAP - 14) * s), radius=30 * s, outline=GRASS, width=6 * s)
    o = COAST * s
    d.rounded_rectangle((o, o, MAP * s - o, MAP * s - o), radius=26 * s, fill=WATER, outline=WATER_EDGE, width=5 * s)

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
    arm = 20 * s
    for sign in (1, -1):
        d.line((cx - arm, cy - sign * arm, cx + arm, cy + sign * arm), fill=(180, 40, 36), width=9 * s)
    r = 5 * s
    for col in range(11):
        for row in range(11):
            px, py = at(col, row)
            d.ellipse((px - r, py - r, px + r, py + r), fill=DOT)
    for _number, col, row in ports:
        px, py = at(col, row)
        d.ellipse((px - 22 * s, py - 22 * s, px + 22 * s, py + 22 * s), outline=t.GOLD, width=4 * s)
    layer = img.resize((MAP, MAP), Image.Resampling.LANCZOS)
    fnt = t.font(SMALL, bold=True)
    for i in range(11):
        letter = "ABCDEFGHIJK"[i]
        t.text(layer, (EDGE + i * GAP, 16), letter, fnt, t.INK, anchor="mm")
        t.text(layer, (EDGE + i * GAP, MAP - 14), letter, fnt, t.INK, anchor="mm")
        t.text(layer, (22, EDGE + i * GAP), str(i + 1), fnt, t.INK, anchor="mm")  # "11" is 36 px wide
        t.text(layer, (MAP - 22, EDGE + i * GAP), str(i + 1), fnt, t.INK, anchor="mm")
    for number, col, row in ports:
        bx, by = _port_badge(number, col, row)
        t.paste(layer, _disc(t.GOLD, 36), (bx - MAP_X, by - MAP_Y), "mm")
        t.text(layer, (bx - MAP_X, by - MAP_Y), str(number), t.font(SMALL, bold=True), t.INK, anchor="mm")
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
            fill = SHIP_COLOURS[colour][0]
            if dy:  # a row of markers along the top or bottom edge, right of the badge
                mx, my = x + 32 + i * 22, y + dy * BADGE
            else:  # a column along the left or right edge, below the badge
                mx, my = x + dx * (BADGE - 4), y + 32 + i * 22
            t.paste(canvas, _disc(fill, 20, SHIP_COLOURS[colour][2]) if charted else _ring(fill, 20, 4), (mx, my), "mm")


def _ports(view: View) -> tuple[tuple[int, int, int], ...]:
    return tuple((p["number"], p["at"][0], p["at"][1]) for p in view["ports"])


def _draw_map(canvas: Image.Image, view: View, names: Sequence[str]) -> None:
    """The ships, markers and highlights on a canvas that already holds :func:`_map_layer` at the map's place."""
    _markers(canvas, view)
    draw = ImageDraw.Draw(canvas)
    for col, row in view["range"]:
        x, y = _dot_xy(col, row)
        draw.ellipse((x - 7, y - 7, x + 7, y + 7), outline=FIRE, width=2)
    for col, row in view["reach"]:
        t.paste(canvas, _ring(t.HIGHLIGHT, 26, 4), _dot_xy(col, row), "mm")
    battle = view["battle"]
    ships = view["ships"]
    if battle is not None:
        a = _dot_xy(*ships[battle["att"]]["at"])
        b = _dot_xy(*ships[battle["def"]]["at"])
        draw.line((*a, *b), fill=FIRE, width=6)
    if view["treasure"] is None:
        t.paste(canvas, t.icon("sr-chest", 40), _dot_xy(*view["x"]), "mm")
    acting = set(view["to_act"])
    targets = {target["ship"] for target in view["targets"]}
    for s, ship in enumerate(ships):
        if ship["sunk"]:
            continue
        x, y = _dot_xy(*ship["at"])
        if s in acting:
            t.glow(canvas, (x - 26, y - 26, x + 26, y + 26), radius=26)
        if s in targets:
            t.paste(canvas, _ring(FIRE, 64, 5), (x, y), "mm")
        t.paste(canvas, _flag(ship["colour"], _initial(names, s), 50), (x, y), "mm")
        if ship["treasure"]:
            t.paste(canvas, t.icon("sr-chest", 30), (x + 20, y + 18), "mm")


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


@image_cache
def _crate(size: int) -> Image.Image:
    """A crate of supplies."""
    img = t.rounded(size, size, 4, (170, 112, 56), t.OUTLINE, 2).copy()
    d = ImageDraw.Draw(img)
    d.line((4, 4, size - 5, size - 5), fill=(110, 70, 30), width=2)
    d.line((4, size - 5, size - 5, 4), fill=(110, 70, 30), width=2)
    return img


def _bar(canvas: Image.Image, x: int, y: int, width: int, value: int, colour: t.RGB, mark: Image.Image) -> None:
    """A log scale 0–12: ``value`` notches filled (More Booty may go beyond: the number says so)."""
    fnt = t.font(SMALL, bold=True)
    t.paste(canvas, mark, (x + 10, y), "mm")
    bx = x + 30
    notch = (width - 30 - 44) / 12
    draw = ImageDraw.Draw(canvas)
    for i in range(12):
        x0 = bx + i * notch
        filled = i < value
        draw.rectangle((x0, y - 8, x0 + notch - 3, y + 8), fill=colour if filled else t.PARCHMENT_SHADE)
    t.text(canvas, (x + width, y), str(value), fnt, t.INK, anchor="rm")


def _logs(canvas: Image.Image, view: View, names: Sequence[str], locale: str) -> None:
    fleets = _fleets(view)
    rows = sum(len(ships) for _, ships in fleets)
    heads = []
    gone = tr(locale, "out")
    for commander, seats in fleets:
        name = t.clean_name(names[seats[0]]) or tr(locale, "Player {number}", number=commander + 1)
        out = all(view["ships"][s]["sunk"] for s in seats)
        # The fleet's ships are listed below it, so only a fleet with none afloat says so (beside its name).
        # A long name takes two lines rather than being cut.
        room = PANEL_W - 80 - (round(t.text_width(gone, t.font(SMALL))) + 12 if out else 0)
        lines, fnt = t.fit_lines(name, room, SMALL, 2, min_size=SMALL)
        heads.append((lines, fnt, out))
    head_h = [44 + (len(lines) - 1) * 30 for lines, _, _ in heads]
    row_h = min(112, (MAP - 24 - sum(head_h)) // max(rows, 1))
    y = MAP_Y + 14
    acting = set(view["to_act"])
    for (_, seats), (lines, fnt, out), h in zip(fleets, heads, head_h, strict=True):
        width = round(max(t.text_width(line, fnt) for line in lines)) + 36
        t.paste(canvas, t.rounded(width, h - 6, 18, t.INK), (PANEL_X + 14, y + 4))
        for n, line in enumerate(lines):
            t.text(canvas, (PANEL_X + 32, y + 4 + 19 + n * 30), line, fnt, t.PARCHMENT, anchor="lm")
        if out:
            t.text(canvas, (PANEL_X + PANEL_W - 16, y + 22), gone, t.font(SMALL), t.INK_SOFT, anchor="rm")
        y += h
        for s in seats:
            _log_row(canvas, view, s, y, row_h, s in acting, locale)
            y += row_h


def _log_row(canvas: Image.Image, view: View, seat: int, y: int, row_h: int, acting: bool, locale: str) -> None:
    ship = view["ships"][seat]
    x = PANEL_X + 16
    right = PANEL_X + PANEL_W - 16
    if acting:
        t.paste(canvas, t.rounded(PANEL_W - 20, row_h - 6, 12, (*t.HIGHLIGHT, 70)), (PANEL_X + 10, y - 2))
    t.paste(canvas, _flag(ship["colour"], "", 34), (x + 17, y + 18), "mm")
    small = t.font(SMALL)
    if ship["sunk"]:
        sunk = tr(locale, "sunk")
        tail = round(t.text_width(sunk, small)) + 40  # the skull, then the word
        name, fnt = t.fit_text(ship["name"], right - tail - 10 - (x + 42), SMALL + 2, min_size=SMALL)
        t.text(canvas, (x + 42, y + 18), name, fnt, t.INK, anchor="lm")
        t.paste(canvas, t.icon("skull", 30), (right - tail + 16, y + 18), "mm")
        t.text(canvas, (right, y + 18), sunk, small, t.INK_SOFT, anchor="rm")
        return
    # Where the ship is, its course and its last port; a long name (another language's) gets the room it
    # needs from the spaces between them first, then from the dot (the map shows where the ship is).
    chart, last = ship["chart"] or "–", ship["last"] or "–"
    for where in (f"{ship['dot']}  🧭{chart}  ⚓{last}", f"{ship['dot']} 🧭{chart} ⚓{last}", f"🧭{chart} ⚓{last}"):
        room = right - round(t.text_width(where, small)) - 10 - (x + 42)
        name, fnt = t.fit_text(ship["name"], room, SMALL + 2, min_size=SMALL)
        if name == ship["name"]:
            break
    t.text(canvas, (x + 42, y + 18), name, fnt, t.INK, anchor="lm")
    t.text(canvas, (right, y + 18), where, small, t.INK, anchor="rm")
    if ship["treasure"]:  # on the flag, as on the map
        t.paste(canvas, t.icon("sr-chest", 24), (x + 28, y + 30), "mm")
    if row_h >= 90:
        _bar(canvas, x, y + 50, PANEL_W - 32, ship["balls"], (60, 60, 70), _disc((56, 56, 64), 20))
        _bar(canvas, x, y + 78, PANEL_W - 32, ship["supplies"], (170, 112, 56), _crate(20))
    else:
        # A short row: the logs as numbers beside their marks (a cannonball, a crate), as the bars show them.
        fnt = t.font(SMALL, bold=True)
        for n, (mark, value) in enumerate(((_disc((56, 56, 64), 20), ship["balls"]), (_crate(20), ship["supplies"]))):
            t.paste(canvas, mark, (x + 52 + n * 110, y + 50), "mm")
            t.text(canvas, (x + 70 + n * 110, y + 50), str(value), fnt, t.INK, anchor="lm")


# ---------------------------------------------------------------------------------------------- head and foot


def _status(view: View, names: Sequence[str], locale: str, *, commanders: bool = True) -> str:
    """``"▶ Black (Anne) to roll"``; without the ``commanders``' names: ``"▶ Black to roll"``."""
    if view["over"]:
        return tr(locale, "The game is over.")
    ships = view["ships"]
    who = ", ".join(
        tr(
            locale,
            "{ship} ({commander})",
            ship=ships[s]["name"],
            commander=t.clean_name(names[s]) if s < len(names) else "?",
        )
        if commanders
        else ships[s]["name"]
        for s in view["to_act"]
    )
    return f"▶ {who} {view['waiting']}"


def _head(canvas: Image.Image, view: View, names: Sequence[str], locale: str) -> None:
    rounds = tr(locale, "ROUND {round} / {rounds}", round=view["round"], rounds=view["rounds"])
    x = _title_end(locale) + 20
    t.pill(canvas, (x, 18), rounds, t.font(SMALL, bold=True), t.SEA_DEEP, t.GOLD, border=t.GOLD)
    # A long name in a long language: the commander's name gives way (the logs name every fleet's commander).
    for commanders in (True, False):
        status = _status(view, names, locale, commanders=commanders)
        line, fnt = t.fit_text(status, W - 2 * M - 40, SMALL + 2, min_size=SMALL)
        if line == status:
            break
    t.text(canvas, (M + 20, 90), line, fnt, t.HIGHLIGHT, anchor="lm")


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


def _foot(canvas: Image.Image, view: View, names: Sequence[str], locale: str) -> None:
    fnt = t.font(SMALL)
    dice = view["dice"]
    x = M + 20
    if dice:
        said = _dice_text(dice, view["ships"][dice["seat"]]["name"], locale)
        t.text(canvas, (x, FOOT_Y + 32), said, fnt, t.FOAM, anchor="lm")
        dx = x + t.text_width(said, fnt) + 14
        for value in dice["values"]:
            t.paste(canvas, _die(value, 40), (dx, FOOT_Y + 12))
            dx += 48
        battle = view["battle"]
        if battle is not None:
            note = ntr(
                locale,
                "Battle at {n} dot: a die above {n} hits.",
                "Battle at {n} dots: a die above {n} hits.",
                battle["dist"],
            )
            t.text(canvas, (dx + 16, FOOT_Y + 32), note, fnt, t.GOLD, anchor="lm")
    offer = _offer_text(view, names, locale)
    if view["treasure"] is None:
        chest = tr(locale, "The Treasure is on the X.")
    else:
        chest = tr(locale, "The Treasure is aboard {ship}.", ship=view["ships"][view["treasure"]]["name"])
    line = offer or chest
    colour = t.GOLD if offer else t.MIST
    # An offer is never cut: in the bold face if it fits, else over two lines.
    lines, fnt = t.fit_lines(line, W - 2 * M - 40, SMALL, 2, min_size=SMALL)
    for n, part in enumerate(lines):
        t.text(canvas, (x, FOOT_Y + 88 + n * 30 - 15 * (len(lines) - 1)), part, fnt, colour, anchor="lm")


# ---------------------------------------------------------------------------------------------- images


def _title(locale: str) -> str:
    return tr(locale, "SEA RATS!")


def _title_end(locale: str) -> int:
    """Where the board's title ends (the round's pill follows it)."""
    return M + 48 + 6 + round(t.text_width(_title(locale), t.font(40, bold=True)))


@image_cache
def _base(ports: tuple[tuple[int, int, int], ...], x: tuple[int, int], locale: str) -> Image.Image:
    """Everything of a board that never changes: background, title, panels and the map without ships."""
    canvas = t.new_canvas(W, H)
    t.title(canvas, (M, 12), t.icon("skull", 48), _title(locale), 40)
    t.panel(canvas, (M, 70, W - M, 110), fill=t.SEA_DEEP, border=t.MIST, radius=14, shadow=False)
    t.paste(canvas, _map_layer(ports, x), (MAP_X, MAP_Y))
    t.panel(canvas, (PANEL_X, MAP_Y, PANEL_X + PANEL_W, MAP_Y + MAP))
    t.panel(canvas, (M, FOOT_Y, W - M, FOOT_Y + FOOT_H), fill=t.SEA_DEEP, border=t.MIST, radius=16, shadow=False)
    return canvas


def _names(view: View, players: Sequence[str]) -> tuple[list[str], list[str]]:
    """The names of the players (one per player, as the platform passes them: ships change hands) and of
    each ship's commander now."""
    drawn = t.seat_names(players, view["players"])
    return drawn, [drawn[ship["commander"]] for ship in view["ships"]]


def render_board(view: View, names: Sequence[str], locale: str = "en") -> bytes:
    """The ocean, the logs, the last dice and any pending offer. ``names``: one per player."""
    view = localize_tree(view, locale)
    _, names = _names(view, names)
    canvas = _base(_ports(view), tuple(view["x"]), locale).copy()
    _head(canvas, view, names, locale)
    _draw_map(canvas, view, names)
    _logs(canvas, view, names, locale)
    _foot(canvas, view, names, locale)
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
    headline = t.wrap(f"{won} {view['result'] or ''}", head_font, W - 2 * M - 70)
    fnt, bold = t.font(SMALL), t.font(SMALL, bold=True)
    fates = [_fate_line(f, view, players, locale) for f in view["fates"]] or [
        tr(locale, "No ship was sunk or captured.")
    ]
    fate_lines = [line for f in fates for line in t.wrap(f, fnt, W - 2 * M - 80)]
    head_h = 90 + 40 * len(headline) + 10
    statuses = [t.wrap(_standing(row, ships, locale), fnt, W - 2 * M - 90, 3) for row in standings]
    rank_h = 30 + FINAL_ROW * sum(1 + len(lines) for lines in statuses)
    fates_h = 70 + FINAL_ROW * len(fate_lines)
    top_h = head_h + rank_h + 20 + fates_h + 20
    canvas = t.new_canvas(W, top_h + MAP + M)
    t.title(canvas, (M, 12), t.icon("skull", 48), tr(locale, "SEA RATS! — THE END"), 40)
    t.final_headline(canvas, (M, 76), (headline, head_font))
    y = head_h
    t.panel(canvas, (M, y, W - M, y + rank_h))
    y += 18
    for rank, ((p, *_), lines) in enumerate(zip(standings, statuses, strict=True)):
        cy = y + FINAL_ROW / 2
        t.text(canvas, (M + 24, cy), f"{rank + 1}.", bold, t.INK, anchor="lm")
        t.text(canvas, (M + 70, cy), t.ellipsize(players[p], bold, W - 2 * M - 180), bold, t.INK, anchor="lm")
        if p in winners:
            t.paste(canvas, t.icon("crown", 34), (W - M - 40, cy), "mm")
        for n, line in enumerate(lines):
            t.text(canvas, (M + 70, cy + (n + 1) * FINAL_ROW), line, fnt, t.INK_SOFT, anchor="lm")
        y += (1 + len(lines)) * FINAL_ROW
    y = head_h + rank_h + 20
    t.panel(canvas, (M, y, W - M, y + fates_h))
    t.text(canvas, (M + 24, y + 34), tr(locale, "Captures and sinkings"), bold, t.INK, anchor="lm")
    y += 70
    for line in fate_lines:
        t.text(canvas, (M + 40, y + FINAL_ROW / 2), line, fnt, t.INK_SOFT, anchor="lm")
        y += FINAL_ROW
    shifted = dict(view, to_act=[], reach=[], range=[], targets=[], battle=None)
    ocean = _base(_ports(view), tuple(view["x"]), locale).copy()
    _draw_map(ocean, shifted, seat_names)
    canvas.paste(ocean.crop((MAP_X, MAP_Y, MAP_X + MAP, MAP_Y + MAP)), ((W - MAP) // 2, top_h))
    return t.to_png(canvas)
