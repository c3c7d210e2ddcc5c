"""The Sewer Pirats table: ships with their crews and flotsam, the Talisman row and piles, the pools, the
auction bar or the tribe picks while they last, every player's public panel and the recent events.

The board draws only public fields of the view (never ``hand``, ``tokens``, ``score`` or ``breakdown``),
so a seat's view and the spectator view of the same state give the same image. Everything that depends
only on the layout (background, panels, hulls with their emblems and space labels, titles, the legend)
is drawn once per layout into a cached layer; figures, flotsam groups, cards and player panels are cached
images too, so a render is mostly pasting. No text is smaller than :data:`rendering.theme.MIN_TEXT`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from games.core import format_seats
from games.i18n import N, T, language, localize, localize_tree, ntr, tr, trp
from games.sewerpirats.components import SHIPS, TRIBES
from games.sewerpirats.engine import SewerPirats
from games.sewerpirats.words import SYMBOL, TRIBE, cards
from rendering import theme as t
from rendering.cache import image_cache
from rendering.sewerpirats.icons import SHIP_COLOURS, WHITE, icon
from rendering.sewerpirats.pieces import (
    CARD_H,
    CARD_W,
    SHORT_NAMES,
    TRIBE_LETTERS,
    Catalog,
    View,
    badge,
    badge_size,
    catalog,
    figure,
    talisman,
    tile_of,
    token_of,
)

TAG_INK: t.RGB = (6, 30, 42)
"""Text on the highlight colour."""
WOOD_DARK: t.RGB = (78, 48, 28)
WOOD: t.RGB = (122, 80, 46)
DECK: t.RGB = (184, 138, 88)
DECK_LINE: t.RGB = (164, 116, 70)
HATCH: t.RGB = (206, 166, 112)
CAPTAIN_GOLD: t.RGB = (236, 196, 92)
CAPTAIN_RED: t.RGB = (176, 36, 36)

VARIANT_LABELS = {"standard": T("STANDARD"), "landlubber": T("LANDLUBBER"), "auction": T("CREW AUCTION")}
_TAGS = {
    "crew": T("CHOOSES A TRIBE"),
    "auction": T("AUCTION"),
    "action": T("TAKES AN ACTION"),
    "draw": T("SECOND CARD"),
    "discard": T("DISCARDS"),
    "snail": T("SNAIL REVEAL?"),
    "weasel": T("WEASEL AGAIN?"),
    "seize": T("SEIZES A TOKEN"),
    "final": T("SEIZES A TOKEN"),
    "toad": T("TOAD: SEIZE OR STAY"),
}
"""The tag on the panel of the player to act, by phase."""

# ====================================================================== layout
W = 1140
M = 20
INNER = W - 2 * M
TOP_Y = t.TOP
ROW_H, ROW_GAP = 170, 12
HULL_W = 500
SLOT_X0, SLOT_STEP, SLOT_W = 106, 88, 80
FIG = 76
GROUP_X0 = M + HULL_W + 14
GROUP_W = (W - M - GROUP_X0 - 12) // 2
GROUP_H = ROW_H - 14
INSET = 8
"""Cached contents are opaque and pasted this far inside their rounded panel, to skip alpha blending."""
GROUP_TOKEN = 46
STRIP_H = 168
ROW_PANEL_W = 650
PLAYER_GAP = 10
COUNT_ROW_H = 36
NAME_LINES = 3
"""A long name takes up to three lines (five panels side by side), each
:data:`rendering.theme.NAME_LINE_H` px more, never cut."""
EVENT_LINES = 3
"""Recent events shown."""
BAR_CELL_H = 124
PICKS_H = 172
SMALL = t.MIN_TEXT
"""The size of the smallest labels."""


def _top_height(view: View, locale: str = "en", names: Sequence[str] = ()) -> tuple[str, int]:
    """The optional panel between the banner and the ships: the auction bar or the landlubber picks (a line
    taller where ``locale``'s words take another line, and at the bar where the players' ``names`` do)."""
    if view.get("auction") is not None:
        rows = _bar_rows(len(view["auction"]["bar"])) * BAR_CELL_H
        name_rows = len(_name_rows(tuple(names), _bar_suffixes(view["auction"], len(names)))[1])
        return "bar", 62 + rows + 52 + _bar_hint_h(locale) + (name_rows - 1) * NAME_ROW_H
    if view["phase"] == "crew":
        return "picks", PICKS_H + _picks_extra(locale)
    return "", 0


NAME_ROW_H = 44
"""Another row of the bar's name pills."""
HEAD_LINE_H = 30
"""A second line of a panel's heading."""
INFO_ROOM = 380
"""The least room beside the bar's title and hint for the auction's state; with less the hint goes under them."""


def _bar_hint(locale: str) -> str:
    return tr(locale, "front → rear · ≥ least bid · ✓ still bidding")


@lru_cache(maxsize=8)
def _bar_hint_h(locale: str) -> int:
    """0 where the bar's hint fits beside its title, else the height of the line it takes below it."""
    used = t.text_width(tr(locale, "THE BAR"), t.font(26, bold=True)) + t.text_width(_bar_hint(locale), t.font(SMALL))
    return 0 if 20 + used + 16 + 24 + INFO_ROOM + 20 <= INNER else HEAD_LINE_H


@lru_cache(maxsize=8)
def _picks_hint(locale: str) -> tuple[str, ...]:
    """The landlubber picks' hint beside their title, on as many lines as it needs."""
    hint = tr(locale, "each player takes 4 figures of a tribe nobody else chose")
    room = INNER - 36 - t.text_width(tr(locale, "TRIBE PICKS"), t.font(SMALL, bold=True)) - 20
    return t.wrap(hint, t.font(SMALL), room)


@lru_cache(maxsize=8)
def _tribe_labels(locale: str) -> tuple[tuple[tuple[str, ...], ImageFont.FreeTypeFont], ...]:
    """Each tribe's name under its figure in the picks, on one line or two (every tribe alike)."""
    cell = (INNER - 24) // len(TRIBES)
    return tuple(t.fit_lines(localize(TRIBE[tribe], locale), cell - 10, SMALL, 2) for tribe in TRIBES)


def _label_extra(locale: str) -> int:
    """The room the tribes' names take in the picks beyond one line."""
    return (max(len(lines) for lines, _ in _tribe_labels(locale)) - 1) * 28


def _picks_extra(locale: str) -> int:
    return (len(_picks_hint(locale)) - 1) * 28 + _label_extra(locale)


def _bar_rows(stools: int) -> int:
    return 1 if stools <= 12 else 2


def _row_y(top: int, i: int) -> int:
    """Top of ship ``i``'s row (``top``: the height of the bar / picks panel, or 0)."""
    return TOP_Y + (top + 24 if top else 0) + i * (ROW_H + ROW_GAP)


def _strip_y(top: int) -> int:
    return _row_y(top, 3) + 6


def _players_y(top: int) -> int:
    return _strip_y(top) + STRIP_H + 40  # room for the tag above the panel of the player to act


def _panel_w(seats: int) -> int:
    return (INNER - (seats - 1) * PLAYER_GAP) // seats


def _count_words(locale: str, n: int) -> tuple[str, str]:
    """The words after a hand size and a token count of ``n``: "cards", "tokens"."""
    return ntr(locale, "card", "cards", n), ntr(locale, "token", "tokens", n)


def _count_rows(seats: int, locale: str = "en") -> int:
    """Hand size and tokens with their words share one row where the panel is wide enough."""
    words = max(
        t.text_width(card, t.font(SMALL)) + t.text_width(token, t.font(SMALL))
        for card, token in (_count_words(locale, 1), _count_words(locale, 2))
    )
    counts = 2 * t.text_width("88", t.font(SMALL, bold=True)) + _mini_back().width + _pool_icon(0, 34).width
    return 1 if _panel_w(seats) - 2 * INSET - 12 >= words + counts + 4 * 8 + 24 else 2


def _name_room(seats: int) -> int:
    return _panel_w(seats) - 2 * INSET


def _name_lines(seats: int, names: Sequence[str]) -> int:
    """Lines the longest name needs on a panel: more than one where one would cut it."""
    return max(len(t.name_lines(name, _name_room(seats), 26, 42, NAME_LINES)[0]) for name in names)


def _player_h(seats: int, name_lines: int, locale: str = "en") -> int:
    return 124 + _count_rows(seats, locale) * COUNT_ROW_H + (name_lines - 1) * t.NAME_LINE_H


def player_box(seats: int, top: int, i: int, name_lines: int = 1, locale: str = "en") -> t.Box:
    """The panel of seat ``i`` on the board: all players side by side in one row (names of
    ``name_lines`` lines make every panel taller)."""
    w = _panel_w(seats)
    x = M + i * (w + PLAYER_GAP)
    y = _players_y(top)
    return x, y, x + w, y + _player_h(seats, name_lines, locale)


def _events_y(seats: int, top: int, name_lines: int, locale: str = "en") -> int:
    return _players_y(top) + _player_h(seats, name_lines, locale) + 22


def slot_box(top: int, ship: int, space: int) -> t.Box:
    """The deck space ``space`` (0–2 crew spaces 1–3, 3 the captain's C) of ship ``ship``."""
    y = _row_y(top, ship)
    x = M + SLOT_X0 + space * SLOT_STEP
    return x, y + 16, x + SLOT_W, y + ROW_H - 10


def _slot_centre(box: t.Box) -> tuple[float, float]:
    """Where a figure stands in a deck space: below the space's number tab."""
    x0, y0, x1, y1 = box
    return (x0 + x1) / 2, y0 + 30 + (y1 - y0 - 30) / 2


def group_box(top: int, ship: int, which: int) -> t.Box:
    """Flotsam group ``which`` (0 right at the bow, 1 beyond it) of ship ``ship``."""
    y = _row_y(top, ship)
    x = GROUP_X0 + which * (GROUP_W + 12)
    return x, y + 14, x + GROUP_W, y + 14 + GROUP_H


def _pile_cx(k: int) -> int:
    return M + 22 + 4 * (CARD_W + 12) + 10 + CARD_W // 2 + k * (CARD_W + 40)


def _pile_labels(deck: str, discard: str, start: float) -> list[tuple[float, str, ImageFont.FreeTypeFont]]:
    """``(centre x, label, font)`` of the deck's and the discard pile's labels: centred over their piles where
    they fit, else moved apart (in the condensed face if need be), never past the panel's right edge nor
    back over the row's title ending at ``start``."""
    right = M + ROW_PANEL_W - 8
    for fnt in (t.font(SMALL, bold=True), t.font(SMALL, True, True)):
        w0, w1 = t.text_width(deck, fnt), t.text_width(discard, fnt)
        c1 = min(_pile_cx(1), right - w1 / 2)
        c0 = min(_pile_cx(0), c1 - w1 / 2 - 12 - w0 / 2)
        if c0 - w0 / 2 >= start:
            break
    return [(c0, deck, fnt), (c1, discard, fnt)]


def _pool_cx(k: int) -> int:
    return M + ROW_PANEL_W + 16 + 80 + k * 138


SHIP_NAME_W = 104
"""The room for a ship's name on its stern, before its first deck space."""


def _ship_name(name: str) -> tuple[str, ImageFont.FreeTypeFont]:
    """A ship's name as its stern shows it: in capitals, condensed if it must be; a name too long for that
    (French POISSON) in its own case, which is narrower, rather than cut."""
    for shown in (name.upper(), name):
        fitted, fnt = t.fit_text(shown, SHIP_NAME_W, SMALL)
        if fitted == shown:
            return shown, fnt
    return fitted, fnt


@image_cache
def _hull() -> Image.Image:
    """A ship seen from above, stern left and bow right, with a planked deck (no emblem, no hatches)."""
    s = 3
    w, h = HULL_W, ROW_H - 4
    big = Image.new("RGBA", (w * s, h * s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)

    def outline(inset: float) -> list[tuple[float, float]]:
        top, bottom, mid = inset, h - inset, h / 2
        bow_start = w - 110
        pts = []
        for i in range(21):  # the bow's two curves meet in a point
            u = i / 20
            pts.append((bow_start + (w - inset - bow_start) * u, top + (mid - top) * u**2.2))
        for i in range(20, -1, -1):
            u = i / 20
            pts.append((bow_start + (w - inset - bow_start) * u, bottom - (bottom - mid) * u**2.2))
        for i in range(17):  # the rounded stern
            a = math.pi / 2 + i / 16 * math.pi
            pts.append((inset + 30 + (30 - inset * 0.3) * math.cos(a), mid + (bottom - mid) * math.sin(a)))
        return [(x * s, y * s) for x, y in pts]

    draw.polygon(outline(0), fill=WOOD_DARK)
    draw.polygon(outline(6), fill=WOOD)
    draw.polygon(outline(13), fill=DECK)
    for y in range(26, h - 20, 16):  # planks
        draw.line((26 * s, y * s, (w - 120) * s, y * s), fill=DECK_LINE, width=s)
    return big.resize((w, h), Image.Resampling.BOX)


@image_cache
def _medallion(ship: str) -> Image.Image:
    """The ship's emblem: its symbol on a disc of its colour with a gold rim."""
    d, s = 76, 3
    big = Image.new("RGBA", (d * s, d * s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    draw.ellipse((0, 0, d * s - 1, d * s - 1), fill=t.GOLD_DEEP)
    draw.ellipse((4 * s, 4 * s, (d - 4) * s, (d - 4) * s), fill=t.GOLD)
    draw.ellipse((7 * s, 7 * s, (d - 7) * s, (d - 7) * s), fill=t.mix(SHIP_COLOURS[ship], t.PARCHMENT, 0.7))
    img = big.resize((d, d), Image.Resampling.BOX)
    t.paste(img, icon(ship, 54), (d / 2, d / 2 + 2), "mm")
    return img


@image_cache
def _hatch(captain: bool) -> Image.Image:
    """An empty deck space: a hatch, or the gold captain's space C with a faint captain's hat."""
    h = ROW_H - 26
    fill = t.mix(CAPTAIN_GOLD, DECK, 0.35) if captain else HATCH
    border = t.GOLD_DEEP if captain else DECK_LINE
    img = t.rounded(SLOT_W, h, 12, fill, t.mix(border, t.OUTLINE, 0.3), 3).copy()
    if captain:
        t.paste(img, t.faded(icon("hat", 52), 35), (SLOT_W / 2, 30 + (h - 30) / 2), "mm")
    return img


@image_cache
def _space_tab(space: int, lang: str) -> Image.Image:
    """The label of a deck space: 1, 2, 3 on parchment, the captain's letter (C; German K) white on red."""
    label = trp(lang, "captain's space", "C") if space == 3 else str(space + 1)
    fill, ink = (CAPTAIN_RED, WHITE) if space == 3 else (t.PARCHMENT, t.INK)
    fnt = t.font(SMALL, bold=True)
    w = max(46, round(t.text_width(label, fnt)) + 24)  # a longer letter (or word) widens the tab
    img = Image.new("RGBA", (w, 32), (0, 0, 0, 0))
    t.pill(img, (w // 2, 1), label, fnt, fill, ink, border=t.OUTLINE, align="center", height=30)
    return img


LEGEND_TRIBES = {
    "rats": T("rat"),
    "raccoons": T("raccoon"),
    "cockroaches": T("cockroach"),
    "weasels": T("weasel"),
    "snails": T("snail"),
    "toads": T("toad"),
}
"""A tribe in the legend, after its letter: "R rat"."""


def _legend(cat: Catalog, locale: str) -> list[list[tuple[Image.Image, str]]]:
    """The legend's entries: the tribes by letter, then how tokens read."""
    booty, bonus = cat.kinds[cat.categories[0]]
    return [
        [
            (icon(tribe, 32), tr(locale, "{letter} {tribe}", letter=TRIBE_LETTERS[tribe], tribe=LEGEND_TRIBES[tribe]))
            for tribe in TRIBES
        ],
        [
            (token_of(cat, booty, 30), tr(locale, "booty (square)")),
            (token_of(cat, bonus, 30), tr(locale, "bonus (circle)")),
            (badge(3, False, 36), tr(locale, "value")),
            (badge(9, True, 40), tr(locale, "needs its bonus")),
            (icon("hat", 34), tr(locale, "captain")),
        ],
    ]


@lru_cache(maxsize=8)
def _legend_rows(cat: Catalog, locale: str) -> int:
    return t.legend_height(_legend(cat, locale), INNER)


@image_cache
def _board_layer(seats: int, top: int, name_lines: int, lines: int, cat: Catalog, locale: str = "en") -> Image.Image:
    """Everything on the board that depends only on the layout. Shared and read-only: copy before use."""
    ey = _events_y(seats, top, name_lines, locale)
    legend_rows = _legend_rows(cat, locale)
    img = t.new_canvas(W, ey + t.events_height(lines, legend_rows) + M)
    # Ships: hull, emblem and name, deck spaces with their labels; the flotsam groups' frames.
    for i, ship in enumerate(SHIPS):
        y = _row_y(top, i)
        t.paste(img, _hull(), (M, y + 2))
        t.paste(img, _medallion(ship), (M + 54, y + ROW_H / 2 - 14), "mm")
        name, name_font = _ship_name(localize(SYMBOL[ship], locale))
        t.text(img, (M + 54, y + ROW_H - 30), name, name_font, t.PARCHMENT, anchor="mm", outline=WOOD_DARK)
        for space in range(4):
            x0, y0, x1, _ = slot_box(top, i, space)
            t.paste(img, _hatch(space == 3), (x0, y0))
            t.paste(img, _space_tab(space, language(locale)), ((x0 + x1) / 2, y0 + 16), "mm")
        for which in range(2):
            t.panel(img, group_box(top, i, which), radius=14)
    # Talisman row, piles and pools.
    sy = _strip_y(top)
    head = t.font(SMALL, bold=True)
    t.panel(img, (M, sy, M + ROW_PANEL_W, sy + STRIP_H))
    row_title = tr(locale, "TALISMAN ROW")
    t.text(img, (M + 20, sy + 22), row_title, head, t.INK, anchor="lm")
    start = M + 20 + t.text_width(row_title, head) + 16
    for x, label, fnt in _pile_labels(tr(locale, "DECK"), tr(locale, "DISCARD"), start):
        t.text(img, (x, sy + 22), label, fnt, t.INK, anchor="mm")
    t.panel(img, (M + ROW_PANEL_W + 16, sy, W - M, sy + STRIP_H))
    t.text(img, (M + ROW_PANEL_W + 36, sy + 22), tr(locale, "LEFT IN THE POOLS"), head, t.INK, anchor="lm")
    for k, label in enumerate((tr(locale, "booty"), tr(locale, "bonus"), tr(locale, "groups"))):
        t.paste(img, _pool_icon(k), (_pool_cx(k) - 30, sy + 84), "mm")
        t.text(img, (_pool_cx(k), sy + STRIP_H - 24), label, t.font(SMALL), t.INK_SOFT, anchor="mm")
    # Player panels.
    for i in range(seats):
        t.panel(img, player_box(seats, top, i, name_lines, locale))
    t.events_panel(img, (M, ey), INNER, lines, _legend(cat, locale))
    return img


# ====================================================================== drawing
def render_board(view: View, names: Sequence[str], locale: str = "en") -> bytes:
    """The Sewer Pirats table for ``view``. Reads only public fields, so every seat's view gives the same
    image. ``names[i]`` is seat ``i``'s display name; ``locale`` the language to draw it in. Returns PNG
    bytes."""
    view = localize_tree(view, locale)
    seats = view["seats"]
    seat_names = t.seat_names(names, seats, locale)
    cat = catalog(view)
    top_kind, top = _top_height(view, locale, seat_names)
    lines = t.event_lines(tuple(format_seats(e, seat_names) for e in view["events"][-EVENT_LINES:]), INNER)
    name_lines = _name_lines(seats, seat_names)
    # Room for EVENT_LINES lines at least: a game's first boards, with fewer events, are as tall as the rest
    # and are laid on the same layer, where each used to need one of its own (~8 ms to draw, ~6 MB held);
    # above it, two counts of lines share each layer.
    room = t.event_room(sum(map(len, lines)), EVENT_LINES)
    img = _board_layer(seats, top, name_lines, room, cat, locale).copy()
    _draw_header(img, view, seat_names, locale)
    if top_kind == "bar":
        _draw_bar(img, view, seat_names, locale)
    elif top_kind == "picks":
        _draw_picks(img, view, seat_names, locale)
    sailing = view["sailing"]["ship"] if view["sailing"] else None
    for i, ship in enumerate(view["ships"]):
        for space, fig in enumerate(ship["spaces"]):
            if fig is not None:
                cx, cy = _slot_centre(slot_box(top, i, space))
                t.paste(img, figure(fig["tribe"], fig["owner"], FIG, locale), (cx, cy), "mm")
                if space == 3:  # the captain wears the hat
                    t.paste(img, icon("hat", 46), (cx, cy - FIG / 2 + 2), "mm")
        for which, group in enumerate(ship["flotsam"]):
            x0, y0, _, _ = box = group_box(top, i, which)
            if group is None:
                t.paste(img, _no_group(locale), (x0, y0))
                continue
            img.paste(_group_image(_group_key(group), cat, locale), (x0 + INSET, y0 + INSET))
            if which == 0 and ship["ship"] == sailing:
                t.glow(img, box, radius=14)
            # Which group is seized first, on a tab over the frame's top edge (after the glow, over it).
            label = tr(locale, "AT THE BOW") if which == 0 else tr(locale, "NEXT")
            t.pill(img, (x0 + 14, y0 - 18), label, t.font(SMALL, condensed=True), t.GOLD_DEEP, WHITE, height=32)
    _draw_strip(img, view, top, locale)
    for i, player in enumerate(view["players"]):
        box = player_box(seats, top, i, name_lines, locale)
        _draw_player(img, view, player, box, seat_names[player["seat"]], name_lines, locale)
    t.draw_events(img, (M, _events_y(seats, top, name_lines, locale)), INNER, lines)
    return t.to_png(img)


def _draw_header(img: Image.Image, view: View, names: list[str], locale: str) -> None:
    """The top band: the title with the variant (no abilities; the final sailings), and who decides what,
    or once the game is over who won."""
    tags = [t.Tag(localize(VARIANT_LABELS.get(view["variant"], str(view["variant"]).upper()), locale))]
    if not view["abilities"]:
        tags.append(t.Tag(tr(locale, "NO ABILITIES")))
    if view["phase"] == "final":  # the game has ended: the ships with a captain sail one last time
        tags.append(t.Tag(tr(locale, "FINAL SAILINGS"), warn=True))
    final = view.get("final")
    over = view["phase"] == "over"
    status = ""
    if over and final:
        best = max((s["total"] for s in final["scores"]), default=0)
        who = " & ".join(names[w] for w in final["winners"])
        if len(final["winners"]) > 1:
            result = N(
                "Game over: {winners} share the victory with {n} point",
                "Game over: {winners} share the victory with {n} points",
                best,
                winners=who,
            )
        else:
            result = N(
                "Game over: {winner} wins with {n} point", "Game over: {winner} wins with {n} points", best, winner=who
            )
        status = localize(result, locale)
    elif view["pending"]:
        status = " ".join(format_seats(view["pending"], names).split())
    acting = () if over else tuple(view["to_act"])
    title = t.game_title(SewerPirats.title, locale)
    t.top_band(img, t.icon("rat", 52), title, tags, status, x=M, width=INNER, seats=acting, over=over)


GroupKey = tuple[tuple[tuple[str, int], ...], str | None]


def _group_key(group: View) -> GroupKey:
    booty = tuple((b["type"], b["value"]) for b in group["booty"])
    return booty, (group["bonus"]["type"] if group["bonus"] else None)


@image_cache
def _group_image(key: GroupKey, cat: Catalog, locale: str) -> Image.Image:
    """A flotsam group's contents on parchment (opaque, for the inside of its frame): its three booty
    tokens with their values and its bonus token in a row, and under them what the bonus does (on two lines
    where one does not hold it). A token already seized leaves a faint outline."""
    w, h = GROUP_W - 2 * INSET, GROUP_H - 2 * INSET
    img = Image.new("RGB", (w, h), t.PARCHMENT)
    booty, bonus = key
    x, y = 2, 10
    step = GROUP_TOKEN + badge_size(True, GROUP_TOKEN) // 2 + 4
    for i in range(3):
        if i < len(booty):
            t.paste(img, tile_of(cat, *booty[i], GROUP_TOKEN), (x, y))
        else:
            t.paste(img, _empty_cell(True), (x, y))
        x += step
    t.paste(img, token_of(cat, bonus, GROUP_TOKEN) if bonus else _empty_cell(False), (w - GROUP_TOKEN - 4, y))
    if bonus:
        effect = tr(locale, "{bonus}: {effect}", bonus=SHORT_NAMES[bonus], effect=cat.effect[bonus])
        lines = t.wrap(effect, t.font(SMALL), w - 8)
        if len(lines) > 2:  # the token is beside it: its effect alone
            lines = t.wrap(cat.effect[bonus], t.font(SMALL), w - 8, 2)
        for n, line in enumerate(lines):
            t.text(img, (4, h - 20 - (len(lines) - 1 - n) * 28), line, t.font(SMALL), t.INK, anchor="lm")
    return img


@image_cache
def _no_group(locale: str) -> Image.Image:
    """Laid over a flotsam frame with no group left: the pools are empty."""
    img = t.rounded(GROUP_W, GROUP_H, 14, t.NIGHT, (64, 100, 116), 2).copy()
    head = tr(locale, "no group")
    lines = t.wrap(tr(locale, "the pools are empty"), t.font(SMALL), GROUP_W - 24)
    y = GROUP_H / 2 - 16 - 14 * (len(lines) - 1)
    t.text(img, (GROUP_W / 2, y), head, t.font(SMALL + 2, bold=True), t.MIST, anchor="mm")
    for n, line in enumerate(lines):
        t.text(img, (GROUP_W / 2, y + 34 + n * 28), line, t.font(SMALL), t.MIST, anchor="mm")
    return img


@image_cache
def _empty_cell(square: bool) -> Image.Image:
    """Where a token lay before it was seized: a faint outline."""
    d = GROUP_TOKEN
    img = Image.new("RGBA", (d, d), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    if square:
        draw.rounded_rectangle((2, 2, d - 3, d - 3), 7, outline=t.PARCHMENT_SHADE, width=3)
    else:
        draw.ellipse((2, 2, d - 3, d - 3), outline=t.PARCHMENT_SHADE, width=3)
    return img


def _draw_strip(img: Image.Image, view: View, top: int, locale: str) -> None:
    sy = _strip_y(top)
    for k in range(4):
        x = M + 22 + k * (CARD_W + 12)
        card = talisman(view["row"][k], locale=locale) if k < len(view["row"]) else _ghost_card()
        t.paste(img, card, (x, sy + 38))
    back = t.card_back(CARD_W, CARD_H)
    for k, count in enumerate((view["deck_count"], view["discard_count"])):
        cx = _pile_cx(k)
        x, y = cx - CARD_W // 2, sy + 38
        if count == 0:
            t.paste(img, _ghost_card(), (x, y))
        for layer in range(min(count, 3) - 1, -1, -1):  # a thicker stack for more cards
            t.paste(img, back, (x + 3 * layer, y - 2 * layer + 4))
        t.pill(
            img,
            (cx, y + CARD_H / 2 - 20),
            str(count),
            t.font(28, bold=True),
            t.INK,
            WHITE,
            border=t.GOLD,
            align="center",
            height=42,
        )
    for k, count in enumerate((view["booty_pool"], view["bonus_pool"], view["groups_left"])):
        ink = t.INK if count else t.DANGER
        t.text(img, (_pool_cx(k) + 6, sy + 84), str(count), t.font(40, bold=True), ink, anchor="lm")


@image_cache
def _ghost_card() -> Image.Image:
    return t.rounded(CARD_W, CARD_H, 9, None, t.PARCHMENT_SHADE, 3)


def _draw_player(
    img: Image.Image, view: View, player: View, box: t.Box, name: str, name_lines: int, locale: str
) -> None:
    seat = player["seat"]
    x0, y0, x1, _ = box
    area = tuple(f["tribe"] for f in player["play_area"])
    notes = {"crew": T("no tribe yet"), "auction": T("no crew yet")}
    note = localize(notes.get(view["phase"], T("all aboard")), locale)
    rows = _count_rows(view["seats"], locale)
    content = _player_content(seat, name, x1 - x0, name_lines, area, player["captain"], note, locale)
    img.paste(content, (x0 + INSET, y0 + INSET))
    counts = _player_counts(x1 - x0, rows, player["hand_count"], player["token_count"], locale)
    img.paste(counts, (x0 + INSET, y0 + INSET + content.height))
    if seat in view["to_act"] and view["phase"] != "over":
        t.glow(img, box)
        tag = localize(T("MUST SET SAIL") if view["must_sail"] else _TAGS.get(view["phase"], T("TO ACT")), locale)
        # The tag may stand out over the gaps and the panels beside it: nothing else is drawn above the
        # panels. It stays on the image.
        fitted, fnt = t.fit_text(tag, INNER - 36, SMALL, condensed=True)
        half = t.text_width(fitted, fnt) / 2 + 18
        cx = min(max((x0 + x1) / 2, M + half), W - M - half)
        t.pill(img, (cx, y0 - 21), fitted, fnt, t.HIGHLIGHT, TAG_INK, border=TAG_INK, align="center", height=36)


@image_cache
def _player_content(
    seat: int, name: str, w: int, name_lines: int, area: tuple[str, ...], captain: str | None, note: str, locale: str
) -> Image.Image:
    """A player panel's contents on parchment (opaque, for inside the frame) but its counts: the name in
    the seat's colour; the figures in the play area (or ``note``) and the captain's marker. Cached: most
    renders repeat them (the counts, which change more often, are :func:`_player_counts`)."""
    cw, extra = w - 2 * INSET, (name_lines - 1) * t.NAME_LINE_H
    img = Image.new("RGB", (cw, 106 + extra), t.PARCHMENT)
    lines = len(t.name_lines(name, cw - 4, 26, 42, NAME_LINES)[0])  # as _name_room measures it
    y = 2 + (name_lines - lines) * t.NAME_LINE_H / 2  # a shorter name centred beside the longest
    t.name_pill(img, (2, y), name, seat, cw - 4, 26, 42, lines=NAME_LINES, align="left")
    # Figures in the play area, and the captain's marker (hat and ship) at the right.
    y = 50 + extra
    marker = 0
    if captain:
        word, word_font = tr(locale, "CAPTAIN"), t.font(SMALL, condensed=True)
        marker = max(196, 82 + round(t.text_width(word, word_font)) + 10)  # with the word where it fits
        marker = marker if cw >= 3 * 46 + marker else 80
        mx = cw - 2 - marker
        t.paste(img, t.rounded(marker, 44, 22, CAPTAIN_RED, t.OUTLINE, 2), (mx, y + 4))
        t.paste(img, icon("hat", 38), (mx + 24, y + 25), "mm")
        t.paste(img, icon(captain, 32), (mx + 58, y + 27), "mm")
        if marker > 80:
            t.text(img, (mx + 82, y + 26), word, word_font, WHITE, anchor="lm")
    slots = max(1, len(area)) if captain else 4  # a whole crew of 4 fits; a captain's crew is aboard
    size = min(54, (cw - 8 - marker - 8 - 3 * (slots - 1)) // slots)
    x = 4
    for tribe in area:
        t.paste(img, figure(tribe, seat, size, locale), (x, y + (54 - size) // 2))
        x += size + 3
    if not area:  # ``note`` says why, on two lines where it must (beside the captain's marker)
        parts = t.wrap(note, t.font(SMALL, bold=True), cw - 2 - marker - 8 - x, 2)
        for n, part in enumerate(parts):
            cy = y + 27 + (n - (len(parts) - 1) / 2) * 26
            t.text(img, (x, cy), part, t.font(SMALL, bold=True), t.INK_SOFT, anchor="lm")
    return img


@image_cache
def _player_counts(w: int, rows: int, hand_count: int, token_count: int, locale: str) -> Image.Image:
    """Under a player panel's figures, on parchment: hand size and tokens held, in words, side by side or
    one under the other (``rows``). The same for every seat with the same counts."""
    cw = w - 2 * INSET
    img = Image.new("RGB", (cw, rows * COUNT_ROW_H + 2), t.PARCHMENT)
    x, cy = 4, COUNT_ROW_H / 2
    counts = ((_mini_back(), hand_count, 0), (_pool_icon(0, 34), token_count, 1))
    for pic, n, which in counts:
        x = _count(img, x, cy, pic, n, _count_words(locale, n)[which], cw) + 18
        if rows == 2:
            x, cy = 4, cy + COUNT_ROW_H
    return img


def _count(img: Image.Image, x: float, cy: float, pic: Image.Image, n: int, noun: str, width: float) -> float:
    """``pic`` then "3 cards" (the number in bold, then ``noun``) centred on ``cy`` from ``x``, the picture
    left out where it would push the word past ``width``; returns where it ends."""
    bold = t.font(SMALL, bold=True)
    if x + pic.width + 12 + t.text_width(f"{n}", bold) + t.text_width(noun, t.font(SMALL)) <= width - 4:
        t.paste(img, pic, (x, cy - pic.height / 2))  # where the word leaves room for it
        x += pic.width + 6
    t.text(img, (x, cy), str(n), bold, t.INK, anchor="lm")
    x += t.text_width(str(n), bold) + 6
    t.text(img, (x, cy + 1), noun, t.font(SMALL), t.INK_SOFT, anchor="lm")
    return x + t.text_width(noun, t.font(SMALL))


@image_cache
def _mini_back() -> Image.Image:
    return t.card_back(26, 36)


# ---------------------------------------------------------------------- auction bar and tribe picks
def _draw_bar(img: Image.Image, view: View, names: list[str], locale: str) -> None:
    """The Crew Member Auction's bar: stools front to rear, each figure with its minimum bid and the
    cards under it, the lot highlighted, the bid and bidder, and who is still in with their crews."""
    a = view["auction"]
    _, top = _top_height(view, locale, names)
    y0 = TOP_Y
    t.panel(img, (M, y0, W - M, y0 + top))
    heading = tr(locale, "THE BAR")
    x = t.text_width(heading, t.font(26, bold=True)) + M + 20
    t.text(img, (M + 20, y0 + 28), heading, t.font(26, bold=True), t.INK, anchor="lm")
    hint = _bar_hint(locale)
    below = _bar_hint_h(locale)
    if below:  # on a line of its own under the title
        t.text(img, (M + 20, y0 + 29 + below), hint, t.font(SMALL), t.INK_SOFT, anchor="lm")
        room = W - M - 20 - (x + 24)
    else:
        t.text(img, (x + 16, y0 + 29), hint, t.font(SMALL), t.INK_SOFT, anchor="lm")
        room = W - M - 20 - (x + 16 + t.text_width(hint, t.font(SMALL)) + 24)
    lot, bid, bidder = a["lot"], a["bid"], a["bidder"]
    if lot is None:
        info = tr(locale, "choosing a figure to auction")
    elif bid is None or bidder is None:
        info = tr(locale, "lot: {figure} · no bid yet", figure=TRIBE[a["bar"][lot]["tribe"]])
    else:
        info = tr(locale, "bid {cards} by {name}", cards=cards(bid), name=names[bidder])
    fitted, fnt = t.fit_text(info, room, 26)
    t.text(img, (W - M - 20, y0 + 28), fitted, fnt, t.INK, anchor="rm")
    stools = a["bar"]
    per_row = max(1, -(-len(stools) // _bar_rows(len(stools))))
    cell = min(110, (INNER - 24) // per_row)
    x0 = M + 12 + (INNER - 24 - per_row * cell) // 2
    for i, stool in enumerate(stools):
        r, c = divmod(i, per_row)
        box = (
            x0 + c * cell + 4,
            y0 + 54 + below + r * BAR_CELL_H,
            x0 + (c + 1) * cell - 4,
            y0 + 48 + below + (r + 1) * BAR_CELL_H,
        )
        if i == lot:
            t.glow(img, box, radius=12)
        t.paste(img, _stool(stool["tribe"], stool["min_bid"], stool["cards_under"], cell - 8, i == lot), box[:2])
    # Everybody's crew so far, and who is still in this auction: whole names, on more rows where one has no
    # room for them all.
    suffixes = _bar_suffixes(a, len(names))
    fnt, rows = _name_rows(tuple(names), suffixes)
    y = y0 + top - 48 - (len(rows) - 1) * NAME_ROW_H
    for row in rows:
        x = M + 20
        for seat, name in row:
            suffix = suffixes[seat]
            colour = t.PLAYER_COLOURS[seat]
            fill = colour.fill if seat in a["active"] or lot is None else t.mix(colour.fill, t.PARCHMENT, 0.6)
            box = t.pill(img, (x, y), name + suffix, fnt, fill, colour.text, border=colour.edge, height=36)
            x = box[2] + 8
        y += NAME_ROW_H


def _bar_suffixes(a: View, seats: int) -> tuple[str, ...]:
    """What follows each name at the bar: the crew hired so far, and ✓ while still bidding."""
    return tuple(f" {a['crew_counts'][s]}/4" + (" ✓" if s in a["active"] else "") for s in range(seats))


@lru_cache(maxsize=64)
def _name_rows(
    names: tuple[str, ...], suffixes: tuple[str, ...]
) -> tuple[ImageFont.FreeTypeFont, tuple[tuple[tuple[int, str], ...], ...]]:
    """The font and rows of ``(seat, name)`` of the bar's name pills: one row in the bold face, else the
    condensed one, else as many rows as the names need (a name too long even for a row of its own is cut)."""
    room = W - M - 20 - (M + 20)
    for fnt in (t.font(SMALL, bold=True), t.font(SMALL, True, True)):
        if sum(t.text_width(n + s, fnt) + 36 + 8 for n, s in zip(names, suffixes, strict=True)) - 8 <= room:
            return fnt, (tuple(enumerate(names)),)
    rows: list[list[tuple[int, str]]] = [[]]
    x = 0.0
    for seat, name in enumerate(names):
        suffix = suffixes[seat]
        if t.text_width(name + suffix, fnt) + 36 > room:
            name = t.ellipsize(name, fnt, room - 36 - t.text_width(suffix, fnt))
        w = t.text_width(name + suffix, fnt) + 36
        if rows[-1] and x + w > room:
            rows.append([])
            x = 0.0
        rows[-1].append((seat, name))
        x += w + 8
    return fnt, tuple(map(tuple, rows))


@image_cache
def _stool(tribe: str, min_bid: int, under: int, w: int, lot: bool) -> Image.Image:
    """One stool at the bar: the figure (nobody's yet), its minimum bid and the cards under it."""
    h = BAR_CELL_H - 10
    fill = t.mix(CAPTAIN_GOLD, t.PARCHMENT, 0.4) if lot else t.PARCHMENT_SHADE
    img = t.rounded(w, h, 12, fill, t.GOLD_DEEP if lot else t.mix(t.PARCHMENT_SHADE, t.INK, 0.3), 2).copy()
    size = min(64, w - 14)
    t.paste(img, figure(tribe, None, size), (w / 2, 8 + size / 2), "mm")
    t.text(img, (w / 2, h - 20), f"≥ {min_bid}", t.font(SMALL, bold=True), t.INK, anchor="mm")
    if under:
        t.paste(img, t.card_back(24, 34), (w - 30, 4))
        t.pill(img, (w - 22, 22), f"+{under}", t.font(SMALL, bold=True), t.DANGER, WHITE, align="center", height=30)
    return img


def _draw_picks(img: Image.Image, view: View, names: list[str], locale: str) -> None:
    """Landlubber: the six tribes, each with the player who chose it or "available"."""
    extra = _picks_extra(locale)
    t.panel(img, (M, TOP_Y, W - M, TOP_Y + PICKS_H + extra))
    title = t.font(SMALL, bold=True)
    heading = tr(locale, "TRIBE PICKS")
    t.text(img, (M + 20, TOP_Y + 26), heading, title, t.INK, anchor="lm")
    for n, line in enumerate(_picks_hint(locale)):
        xy = (M + 36 + t.text_width(heading, title), TOP_Y + 27 + n * 28)
        t.text(img, xy, line, t.font(SMALL), t.INK_SOFT, anchor="lm")
    below = _label_extra(locale)
    y0 = TOP_Y + extra - below  # the tribes below the hint
    chooser = {tribe: seat for seat, tribe in enumerate(view["tribes"])}
    cell = (INNER - 24) // len(TRIBES)
    for k, (tribe, (label, fnt)) in enumerate(zip(TRIBES, _tribe_labels(locale), strict=True)):
        cx = M + 12 + k * cell + cell / 2
        seat = chooser.get(tribe)
        t.paste(img, figure(tribe, seat, 58, locale), (cx, y0 + 80), "mm")
        for n, line in enumerate(label):
            t.text(img, (cx, y0 + 124 + n * 28), line, fnt, t.INK, anchor="mm")
        if seat is None:
            t.text(img, (cx, y0 + below + 152), tr(locale, "available"), t.font(SMALL), t.INK_SOFT, anchor="mm")
        else:  # one line: cut if it must
            t.name_pill(img, (cx, y0 + below + 136), names[seat], seat, cell - 16, SMALL, 32)


@image_cache
def _pool_icon(k: int, size: int = 64) -> Image.Image:
    """A small face-down stack: booty squares (0), bonus discs (1) or a whole group (2)."""
    s = 3
    big = Image.new("RGBA", (64 * s, 64 * s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    back, disc, edge = (118, 86, 56), (150, 60, 70), t.OUTLINE

    def piece(x: float, y: float, d: float, round_: bool) -> None:
        box = (x * s, y * s, (x + d) * s, (y + d) * s)
        if round_:
            draw.ellipse(box, fill=disc, outline=edge, width=2 * s)
        else:
            draw.rounded_rectangle(box, 6 * s, fill=back, outline=edge, width=2 * s)

    if k < 2:
        for n in range(3):
            piece(4 + 7 * n, 18 - 7 * n, 40, k == 1)
    else:
        for n, (x, y) in enumerate(((4, 6), (33, 6), (4, 35), (33, 35))):
            piece(x, y, 26, n == 3)
    return big.resize((size, size), Image.Resampling.BOX)
