"""Piratz images: the table during play (:func:`render_board`) and the final scoring (:func:`render_final`).

Both draw only what the view holds; in blind mode the piles are ``None`` and only their size is shown.
The parts that depend only on the layout and the language (background, panels, titles, the score track's
icons) are drawn once per layout into a cached layer, so a render is mostly pasting cached cards, icons and
text. Every word is written out in the reader's language (``locale``); a short label that a language makes
too long for its place (a word on a card) shrinks a little, then takes the words' own case, then two lines
where there is room for them, and is left out only where the picture says it already (the icons).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from games.core import format_seats
from games.i18n import L, T, localize, localize_tree, ntr, tr
from games.piratz.cards import SYMBOL_TOTALS, TYPES
from games.piratz.engine import Piratz
from rendering import theme as t
from rendering.cache import image_cache

View = dict[str, Any]
Font = ImageFont.FreeTypeFont

_ICON = {
    "rings": "ring",
    "coins": "coin",
    "pearls": "pearl",
    "crowns": "crown",
    "goblets": "goblet",
    "shells": "shell",
}
_NAME = {
    "rings": T("Rings"),
    "coins": T("Coins"),
    "pearls": T("Pearls"),
    "crowns": T("Crowns"),
    "goblets": T("Goblets"),
    "shells": T("Shells"),
}
"""The treasure types by name (the score track, the final table)."""
_WORD = {
    "rings": T("ring"),
    "coins": T("coin"),
    "pearls": T("pearl"),
    "crowns": T("crown"),
    "goblets": T("goblet"),
    "shells": T("shell"),
}
"""One treasure of each type, as a card's slot names it."""
_ACTING = {
    "turn": T("to reveal or pass"),
    "decide": T("to pass or end the turn"),
    "rat_alert": T("may take a rat"),
    "bury": T("to bury a card"),
}
"""What a seat in ``to_act`` is doing, by phase (the tag on its panel)."""

W = 1100
M = 22  # outer margin
CARD_W, CARD_H, CARD_GAP, PER_ROW = 116, 164, 12, 8
TRACK_Y, TRACK_H, TRACK_W, TRACK_COL = t.TOP, 184, 760, 122
MIDDLE_Y = TRACK_Y + TRACK_H + 18
MIDDLE_HEAD = 60
PLAYER_W, PLAYER_H, PLAYER_GAP = (W - 2 * M - 20) // 2, 148, 36
NAME_X, NAME_Y, NAME_H = 72, 16, 46
"""Where a player's name pill starts in its panel, and its height on one line."""
NAME_LINES = 3
"""A long name takes up to three lines (each :data:`rendering.theme.NAME_LINE_H` px more), never cut (the
third where a language's pile size leaves it less room)."""
LINE_H = 26
"""The spacing of the lines of a small label that takes two (its letters are 23–27 px high)."""
EVENT_LINES = 3
"""Recent events shown (each may take two lines)."""
SMALL = t.MIN_TEXT
"""The size of the smallest labels."""
WHITE: t.RGB = (255, 255, 255)
SAND: t.RGB = (204, 170, 118)
"""Covers buried cards."""
RAT_BAND = 44
"""The red band at the foot of a rat card."""
BURIED_TAG_H = 32
PILE_LABEL_W = (136, 120)
"""The widths the labels under the draw and the discard pile may take (the discard pile's nearer the
panel's edge)."""
PILE_BACK_H = (118, 96)
"""The height of the piles' cards, with labels of one line and of two."""
TAG_INK: t.RGB = (6, 30, 42)
"""Text on the highlight colour."""


def _colour(kind: str) -> t.RGB:
    return t.ICON_COLOURS[_ICON[kind]]


def _ink(kind: str) -> t.RGB:
    """The type's colour darkened enough to be read as text on parchment."""
    return t.mix(_colour(kind), t.OUTLINE, 0.5)


def _doing(view: View) -> str:
    """The phase the seat(s) in ``to_act`` are acting in (the last spade's holder keeps revealing)."""
    if view["phase"] == "decide" and view["last_spade"] in view["to_act"]:
        return "turn"
    return view["phase"]


def _acting(view: View, locale: str) -> str:
    """What the seat(s) in ``to_act`` are doing now."""
    marked = _ACTING.get(_doing(view))
    return localize(marked, locale) if marked else tr(locale, "to act")


STATUS = {
    "turn": L("{names} to reveal or pass"),
    "decide": L("{names} to pass or end the turn"),
    "rat_alert": L("{names} may take a rat"),
    "bury": L("{names} to bury a card"),
}
"""The header's line for what the players to act are doing."""
ACTING = L("{names} to act")


def _status(view: View, who: str, locale: str) -> str:
    """The header's line: who is acting, doing what (``who``: their names)."""
    return tr(locale, STATUS.get(_doing(view), ACTING), names=who)


def _labels(words: tuple[str, ...], width: float | tuple[float, ...]) -> tuple[tuple[str, ...], Font] | None:
    """``words`` as a set of short condensed labels on one line each, at most ``width`` px wide (each its
    own width, given several): in capitals, else as the language writes them; ``None`` when even that is
    too wide. The whole set takes one style, so that the labels of a kind look alike."""
    widths = width if isinstance(width, tuple) else (width,) * len(words)
    fnt = t.font(SMALL, condensed=True)
    for style in (str.upper, str):
        shown = tuple(style(w) for w in words)
        if all(t.text_width(w, fnt) <= room for w, room in zip(shown, widths, strict=True)):
            return shown, fnt
    return None


def _two_lines(s: str, width: float) -> tuple[tuple[str, ...], Font] | None:
    """``s`` in capitals over at most two condensed lines of ``width`` px, never cut (``None``: it needs more)."""
    fnt = t.font(SMALL, condensed=True)
    lines = t.wrap(s.upper(), fnt, width)
    if len(lines) <= 2:
        return lines, fnt
    return None


# ====================================================================== cards
@lru_cache(maxsize=8)
def _card_words(locale: str) -> dict[str, tuple[str, Font]] | None:
    """The word under each treasure's icon on a card, by type, with its font; ``None`` where a language's
    words do not all fit a card (its cards then show the icons alone, a little larger)."""
    fitted = _labels(tuple(localize(_WORD[k], locale) for k in TYPES), CARD_W - 20)
    if fitted is None:
        return None
    words, fnt = fitted
    return {k: (w, fnt) for k, w in zip(TYPES, words, strict=True)}


@image_cache
def _card_face(symbols: tuple[str, ...], rat: bool, skull: bool, locale: str = "en") -> Image.Image:
    """A face-up treasure card: a tinted slot per symbol (icon and word), a red rat band on rat cards."""
    face = t.card(CARD_W, CARD_H, t.PARCHMENT, t.DANGER if rat else t.GOLD_DEEP, 5 if rat else 3).copy()
    band = RAT_BAND if rat else 0
    words = _card_words(locale)
    for kind, (y, slot_h) in zip(symbols, _slots(len(symbols), rat), strict=True):
        tint = t.rounded(CARD_W - 20, round(slot_h) - 4, 10, t.mix(_colour(kind), t.PARCHMENT, 0.62))
        face.alpha_composite(tint, (10, round(y) + 2))
        if words is None:
            size = min(76, round(slot_h) - 14)
            t.paste(face, t.icon(_ICON[kind], size), (CARD_W / 2, y + slot_h / 2), "mm")
            continue
        size = min(68, round(slot_h) - 30)
        t.paste(face, t.icon(_ICON[kind], size), (CARD_W / 2, y + 4 + (slot_h - 26) / 2), "mm")
        word, fnt = words[kind]
        t.text(face, (CARD_W / 2, y + slot_h - 14), word, fnt, _ink(kind), anchor="mm")
    if rat:
        strip = t.rounded(CARD_W - 14, band - 4, 9, t.DANGER)
        face.alpha_composite(strip, (7, CARD_H - band - 4))
        _rat_band(face, CARD_H - band - 4, band - 4, locale)
    if skull:
        t.paste(face, t.icon("skull", 28), (8, 8))
    return face


def _rat_band(face: Image.Image, y: int, h: int, locale: str) -> None:
    """The rat icon and the word "RAT" on a rat card's band (``y``, ``h``): the word alone where it does not
    fit beside the icon, the icon alone where it does not fit at all."""
    word = tr(locale, "rat").upper()
    mid = y + h / 2
    for condensed in (False, True):
        fnt = t.font(SMALL, bold=True, condensed=condensed)
        if t.text_width(word, fnt) <= CARD_W - 64:
            t.paste(face, t.icon("rat", 36), (14, y + 2))
            t.text(face, (56, mid), word, fnt, WHITE, anchor="lm")
            return
    fnt = t.font(SMALL, bold=True, condensed=True)
    if t.text_width(word, fnt) <= CARD_W - 14 - 16:
        t.text(face, (CARD_W / 2, mid), word, fnt, WHITE, anchor="mm")
        return
    t.paste(face, t.icon("rat", 36), (CARD_W / 2, mid), "mm")


def _slots(symbols: int, rat: bool) -> list[tuple[float, float]]:
    """Where a card face's symbol slots lie: the top and height of each (a rat card's band below them)."""
    slot_h = (CARD_H - 20 - (RAT_BAND if rat else 0)) / max(1, symbols)
    return [(10 + i * slot_h, slot_h) for i in range(symbols)]


@image_cache
def _buried_overlay(seat: int, symbols: int, rat: bool, locale: str = "en") -> Image.Image:
    """Laid over a buried card: a sand wash the card's words still read through, a BURIED tag in the
    burier's colour across the top (a plain band where the language's word does not fit it) and their spade
    stuck in the sand over the last symbol's picture (never over a word)."""
    colour = t.PLAYER_COLOURS[seat]
    overlay = t.rounded(CARD_W, CARD_H, CARD_W // 10, (*SAND, 120)).copy()
    ripples = Image.new("RGBA", (CARD_W, CARD_H), (0, 0, 0, 0))
    draw, ripple = ImageDraw.Draw(ripples), (*t.mix(SAND, t.INK, 0.25), 150)
    for y in range(22, CARD_H - 40, 22):  # dune ripples
        draw.arc((-10, y, CARD_W // 2 + 10, y + 16), 200, 340, fill=ripple, width=2)
        draw.arc((CARD_W // 2 - 10, y + 8, CARD_W + 10, y + 24), 200, 340, fill=ripple, width=2)
    overlay.alpha_composite(ripples)
    top, slot_h = _slots(symbols, rat)[-1]
    zone = (max(top, BURIED_TAG_H + 8), top + slot_h - 26)  # the last symbol's picture, below the tag
    size = min(84, round((zone[1] - zone[0]) / 1.2))
    spade = t.icon("spade", size, colour.fill, colour.edge).rotate(-35, Image.Resampling.BICUBIC, expand=True)
    t.paste(overlay, spade, (CARD_W / 2, (zone[0] + zone[1]) / 2), "mm")
    fitted = _labels((tr(locale, "buried"),), CARD_W - 16)
    if fitted is None:
        tag = t.rounded(CARD_W - 24, BURIED_TAG_H, BURIED_TAG_H // 2, colour.fill, colour.edge, 2)
        t.paste(overlay, tag, (12, 4))
        return overlay
    (word,), fnt = fitted
    t.pill(
        overlay,
        (CARD_W / 2, 4),
        word,
        fnt,
        colour.fill,
        colour.text,
        border=colour.edge,
        align="center",
        height=BURIED_TAG_H,
    )
    return overlay


@image_cache
def _middle_spade(seat: int, locale: str = "en") -> Image.Image:
    """A spade placed in the middle with no card under it, in a card-sized slot ("NO CARD" under it, on two
    lines where a language needs them; the spade alone where even they are too few)."""
    colour = t.PLAYER_COLOURS[seat]
    slot = t.rounded(CARD_W, CARD_H, CARD_W // 10, t.PARCHMENT_SHADE, t.INK_SOFT, 2).copy()
    fitted = _two_lines(tr(locale, "no card"), CARD_W - 4)
    lines, fnt = fitted if fitted is not None else ((), t.font(SMALL))
    spade = 84 - 14 * max(0, len(lines) - 1)
    mid = CARD_H / 2 - 14 * min(1, len(lines)) - 10 * max(0, len(lines) - 1)
    t.paste(slot, t.icon("spade", spade, colour.fill, colour.edge), (CARD_W / 2, mid), "mm")
    for n, line in enumerate(lines):
        y = CARD_H - 22 - (len(lines) - 1 - n) * 27
        t.text(slot, (CARD_W / 2, y), line, fnt, t.INK_SOFT, anchor="mm")
    return slot


def _faded(name: str, size: int) -> Image.Image:
    """An icon at 30% opacity, for treasure a player has none of and a spade already placed."""
    return t.faded(t.icon(name, size), 30)


# ====================================================================== board layout
def _middle_rows(view: View) -> int:
    items = len(view["middle"]) + len(view["spades_in_middle"])
    return max(1, -(-items // PER_ROW))


def _middle_height(rows: int) -> int:
    return MIDDLE_HEAD + rows * (CARD_H + CARD_GAP) + 10


def _players_y(rows: int) -> int:
    return MIDDLE_Y + _middle_height(rows) + 34  # room for a tag above the panels


def _player_h(name_lines: int) -> int:
    return PLAYER_H + (name_lines - 1) * t.NAME_LINE_H


def _player_box(seats: int, rows: int, i: int, name_lines: int = 1) -> t.Box:
    """The panel of the ``i``-th player (two to a row); names of ``name_lines`` lines make every panel taller."""
    y = _players_y(rows) + (i // 2) * (_player_h(name_lines) + PLAYER_GAP)
    odd_one_out = seats % 2 == 1 and i == seats - 1  # sits centred on its own row
    x = (W - PLAYER_W) // 2 if odd_one_out else M + (i % 2) * (PLAYER_W + 20)
    return x, y, x + PLAYER_W, y + _player_h(name_lines)


def _events_y(seats: int, rows: int, name_lines: int) -> int:
    return _players_y(rows) + -(-seats // 2) * (_player_h(name_lines) + PLAYER_GAP) - 8


def _name_label(name: str, you: bool, locale: str) -> str:
    return tr(locale, "{name} (you)", name=name) if you else name


def _pile_size(count: int, locale: str) -> str:
    return ntr(locale, "{n} card", "{n} cards", count)


@lru_cache(maxsize=8)
def _name_room(locale: str) -> float:
    """The width a name's pill may take in a player panel: up to the pile size ("88 cards" at most)."""
    return PLAYER_W - 18 - t.text_width(_pile_size(88, locale), t.font(SMALL, bold=True)) - 14 - NAME_X


def _name_lines(view: View, names: Sequence[str], locale: str) -> int:
    """Lines the longest name needs on the player panels: two or three where one would cut it."""
    labels = (_name_label(names[p["seat"]], view["viewer"] == p["seat"], locale) for p in view["players"])
    room = _name_room(locale)
    return max((len(t.name_lines(label, room, 28, NAME_H, NAME_LINES)[0]) for label in labels), default=1)


@lru_cache(maxsize=8)
def _legend(locale: str) -> t.Legend:
    """Every icon of the board, with what it means."""
    return [
        [
            (t.icon("rat", 32), tr(locale, "rat card")),
            (t.icon("skull", 30), tr(locale, "skull card: out of a 2-player game")),
            (t.icon("spade", 32), tr(locale, "buried: nobody may take it")),
        ],
        [
            (t.cube(3, 40), tr(locale, "gold 3")),
            (t.cube(2, 40), tr(locale, "silver 2")),
            (t.cube(1, 40), tr(locale, "copper 1")),
        ],
    ]


def _events_height(lines: int, locale: str) -> int:
    return t.events_height(lines, t.legend_height(_legend(locale), W - 2 * M))


@lru_cache(maxsize=8)
def _track_names(locale: str) -> tuple[tuple[tuple[str, ...], ...], Font]:
    """Each treasure type's name on the score track, as lines (one, or two where a language needs them)."""
    width = TRACK_COL - 10
    fitted = _labels(tuple(localize(_NAME[k], locale) for k in TYPES), width)
    if fitted is not None:
        names, fnt = fitted
        return tuple((n,) for n in names), fnt
    fnt = t.font(SMALL, condensed=True)
    return tuple(t.wrap(localize(_NAME[k], locale).upper(), fnt, width) for k in TYPES), fnt


@lru_cache(maxsize=8)
def _pile_labels(locale: str) -> tuple[tuple[tuple[str, ...], ...], Font]:
    """The labels under the draw and the discard pile, as lines (two where a language needs them)."""
    words = (tr(locale, "draw pile"), tr(locale, "discard"))
    fitted = _labels(words, PILE_LABEL_W)
    if fitted is not None:
        labels, fnt = fitted
        return tuple((label,) for label in labels), fnt
    fnt = t.font(SMALL, condensed=True)
    return tuple(t.wrap(w.upper(), fnt, room) for w, room in zip(words, PILE_LABEL_W, strict=True)), fnt


def _track_cx(i: int) -> float:
    """Centre of the score track's column for the ``i``-th treasure type."""
    return M + 14 + (i + 0.5) * TRACK_COL


def _cube_x(cx: float, slots: int, s: int) -> int:
    return round(cx - slots * 27 + s * 54 + 2)


@image_cache
def _board_layer(seats: int, slots: int, rows: int, lines: int, name_lines: int, locale: str = "en") -> Image.Image:
    """Everything on the board that depends only on the layout and the language. Shared and read-only: copy
    before use."""
    ey = _events_y(seats, rows, name_lines)
    img = t.new_canvas(W, ey + _events_height(lines, locale) + M)
    draw = ImageDraw.Draw(img)
    # Score track: per treasure type its icon, how many symbols exist, its name and the cube slots. A name
    # of two lines takes room from the icon above it.
    t.panel(img, (M, TRACK_Y, M + TRACK_W, TRACK_Y + TRACK_H))
    ghost = t.rounded(46, 46, 8, None, t.PARCHMENT_SHADE, 3)
    names, name_font = _track_names(locale)
    tall = max(len(n) for n in names) > 1
    icon, icon_y, name_y = (46, TRACK_Y + 32, TRACK_Y + 76) if tall else (62, TRACK_Y + 42, TRACK_Y + 98)
    for i, kind in enumerate(TYPES):
        cx = _track_cx(i)
        if i:
            x = cx - TRACK_COL / 2
            draw.line((x, TRACK_Y + 16, x, TRACK_Y + TRACK_H - 16), fill=t.PARCHMENT_SHADE, width=2)
        t.paste(img, t.icon(_ICON[kind], icon), (cx - 14, icon_y), "mm")
        t.pill(
            img,
            (cx + 4, TRACK_Y + (26 if tall else 50)),
            str(SYMBOL_TOTALS[kind]),
            t.font(SMALL, bold=True),
            t.INK,
            t.PARCHMENT,
            height=32,
        )
        for n, line in enumerate(names[i]):
            t.text(img, (cx, name_y + n * LINE_H), line, name_font, _ink(kind), anchor="mm")
        for s in range(slots):
            t.paste(img, ghost, (_cube_x(cx, slots, s) + 2, TRACK_Y + 124))
    # Draw and discard piles.
    px = M + TRACK_W + 16
    t.panel(img, (px, TRACK_Y, W - M, TRACK_Y + TRACK_H))
    labels, label_font = _pile_labels(locale)
    for cx, label in zip(_pile_xs(), labels, strict=True):
        bottom = TRACK_Y + TRACK_H - 22
        for n, line in enumerate(label):
            y = bottom - (len(label) - 1 - n) * LINE_H
            t.text(img, (cx, y), line, label_font, t.INK, anchor="mm")
    # The middle.
    t.panel(img, (M, MIDDLE_Y, W - M, MIDDLE_Y + _middle_height(rows)))
    t.text(img, (M + 22, MIDDLE_Y + 32), tr(locale, "THE MIDDLE"), t.font(28, bold=True), t.INK, anchor="lm")
    # Player panels.
    for i in range(seats):
        t.panel(img, _player_box(seats, rows, i, name_lines))
    t.events_panel(img, (M, ey), W - 2 * M, lines, _legend(locale))
    return img


def _pile_xs() -> tuple[int, int]:
    """The centres of the draw and the discard pile."""
    px = M + TRACK_W + 16
    return px + 70, px + 200


# ====================================================================== board drawing
def render_board(view: View, names: Sequence[str], locale: str = "en") -> bytes:
    """The Piratz table for ``view``: score track, piles, the middle, every player's panel, recent events.

    ``names[i]`` is seat ``i``'s display name; every word is written in ``locale``'s language. Returns PNG
    bytes.
    """
    view = localize_tree(view, locale)
    seats, rows = view["seats"], _middle_rows(view)
    seat_names = t.seat_names(names, seats, locale)
    events = t.event_lines(tuple(format_seats(e, seat_names) for e in view["events"][-EVENT_LINES:]), W - 2 * M)
    name_lines = _name_lines(view, seat_names, locale)
    # Room for four lines at least (most boards' three events take more than three lines), so that a game's
    # first boards share the later ones' layer; above it, two counts of lines share each layer.
    room = t.event_room(sum(map(len, events)), EVENT_LINES + 1)
    img = _board_layer(seats, view["cubes_per_type"], rows, room, name_lines, locale).copy()
    _draw_header(img, view, seat_names, locale)
    _draw_track(img, view)
    _draw_piles(img, view, locale)
    _draw_middle(img, view, locale)
    for i, player in enumerate(view["players"]):
        box = _player_box(seats, rows, i, name_lines)
        _draw_player(img, view, player, box, seat_names[player["seat"]], name_lines, locale)
    t.draw_events(img, (M, _events_y(seats, rows, name_lines)), W - 2 * M, events)
    return t.to_png(img)


def _draw_header(img: Image.Image, view: View, names: list[str], locale: str) -> None:
    """The top band: the title, the round (and the last round's warning), and who decides what."""
    tags = [t.Tag(tr(locale, "ROUND {n}", n=view["round"]))]
    if view["last_round"]:
        tags.append(t.Tag(tr(locale, "LAST ROUND"), warn=True))
    over = view["phase"] == "over"
    acting = () if over else tuple(view["to_act"])
    if over:
        status = tr(locale, "Game over")
    else:
        status = _status(view, " & ".join(names[s] for s in acting), locale) if acting else ""
    title = t.game_title(Piratz.title, locale)
    t.top_band(img, t.icon("skull", 52), title, tags, status, x=M, width=W - 2 * M, seats=acting, over=over)


def _draw_track(img: Image.Image, view: View) -> None:
    slots = view["cubes_per_type"]
    for i, kind in enumerate(TYPES):
        cx = _track_cx(i)
        for s, value in enumerate(view["cubes"][kind][:slots]):
            t.paste(img, t.cube(value, 50), (_cube_x(cx, slots, s), TRACK_Y + 122))


def _draw_piles(img: Image.Image, view: View, locale: str) -> None:
    """The draw and the discard pile with their sizes (lower cards where their labels take two lines)."""
    labels, _ = _pile_labels(locale)
    tall = max(len(label) for label in labels) > 1
    h = PILE_BACK_H[tall]
    back = t.card_back(84, h)
    draw, discard = _pile_xs()
    piles = ((draw, view["draw_count"], view["last_round"]), (discard, view["discard_count"], False))
    for cx, count, urgent in piles:
        x, y = round(cx - 42), TRACK_Y + (10 if tall else 16)
        if count == 0:
            ghost = t.rounded(84, h, 9, None, t.PARCHMENT_SHADE, 3)
            t.paste(img, ghost, (x, y))
        for layer in range(min(count, 3) - 1, -1, -1):  # a thicker stack for more cards
            t.paste(img, back, (x + 4 * layer, y - 3 * layer + 6))
        t.pill(
            img,
            (cx, y + 38 - (118 - h) // 2),
            str(count),
            t.font(30, bold=True),
            t.DANGER if urgent else t.INK,
            WHITE,
            border=WHITE if urgent else t.GOLD,
            align="center",
            height=46,
        )


def _draw_middle(img: Image.Image, view: View, locale: str) -> None:
    middle = view["middle"]
    rats = view["rats_in_middle"]
    box = t.pill(
        img,
        (W - M - 20, MIDDLE_Y + 12),
        tr(locale, "RATS {n}/{alert}", n=rats, alert=view["rat_alert_at"]),
        t.font(SMALL, bold=True),
        t.DANGER if rats else t.PARCHMENT_SHADE,
        WHITE if rats else t.INK_SOFT,
        icon_img=t.icon("rat", 30),
        align="right",
        height=40,
    )
    info = _pile_size(len(middle), locale)
    if view["revealed_this_turn"]:
        revealed = tr(locale, "{n} revealed this turn", n=view["revealed_this_turn"])
        info = tr(locale, "{cards} · {revealed}", cards=info, revealed=revealed)
    title = M + 22 + t.text_width(tr(locale, "THE MIDDLE"), t.font(28, bold=True)) + 16
    room = box[0] - 16 - title
    parts = t.wrap(info, t.font(SMALL), room, 2)  # two lines if need be
    for n, part in enumerate(parts):
        y = MIDDLE_Y + 32 + (n - (len(parts) - 1) / 2) * LINE_H
        t.text(img, (box[0] - 16, y), part, t.font(SMALL), t.INK_SOFT, anchor="rm")
    layers: list[tuple[Image.Image, ...]] = []
    for c in middle:
        face = _card_face(tuple(c["symbols"]), c["rat"], c["skull"], locale)
        buried = c["buried_by"]
        if buried is None:
            layers.append((face,))
        else:
            layers.append((face, _buried_overlay(buried, len(c["symbols"]), c["rat"], locale)))
    layers += [(_middle_spade(seat, locale),) for seat in view["spades_in_middle"]]
    if not layers:
        t.text(
            img,
            (W / 2, MIDDLE_Y + MIDDLE_HEAD + CARD_H / 2),
            tr(locale, "No cards in the middle"),
            t.font(26, bold=True),
            t.INK_SOFT,
            anchor="mm",
        )
    spots = [_card_spot(i) for i in range(len(layers))]
    alert = set(view["alert"])  # glow around the rat cards to choose from, before cards cover the edges
    for (x, y), c in zip(spots, middle, strict=False):
        if c["id"] in alert:
            t.glow(img, (x - 5, y - 5, x + CARD_W + 5, y + CARD_H + 5), radius=CARD_W // 10 + 5)
    for (x, y), stack in zip(spots, layers, strict=True):
        for layer in stack:
            t.paste(img, layer, (x, y))


def _card_spot(i: int) -> tuple[int, int]:
    """Top-left corner of the ``i``-th card in the middle."""
    return M + 22 + (i % PER_ROW) * (CARD_W + CARD_GAP), MIDDLE_Y + MIDDLE_HEAD + (i // PER_ROW) * (CARD_H + CARD_GAP)


def _draw_player(
    img: Image.Image, view: View, player: View, box: t.Box, name: str, name_lines: int, locale: str
) -> None:
    seat = player["seat"]
    x0, y0, x1, _ = box
    acting = seat in view["to_act"] and view["phase"] != "over"
    if player["spade"] != "held" and view["phase"] != "over" and not acting:
        # A tab standing on the panel's top edge, leaving the name its room.
        t.pill(
            img,
            (x1 - 18, y0 - 32),
            tr(locale, "PASSED"),
            t.font(SMALL, condensed=True),
            t.PARCHMENT_SHADE,
            t.INK_SOFT,
            border=t.GOLD_DEEP,
            align="right",
            height=30,
        )
    if acting:
        t.glow(img, box)
        t.pill(
            img,
            (x1 - 18, y0 - 24),  # on the top edge, clear of a name of two lines
            _acting(view, locale).upper(),
            t.font(SMALL, condensed=True),
            t.HIGHLIGHT,
            TAG_INK,
            border=TAG_INK,
            align="right",
            height=38,
        )
    symbols = player["symbols"]  # None in blind mode, with ``rats``
    counts = None if symbols is None else (*(symbols[k] for k in TYPES), player["rats"])
    you = view["viewer"] == seat
    extra = (name_lines - 1) * t.NAME_LINE_H
    t.paste(img, _player_head(seat, name, name_lines, player["spade"] == "held", you, locale), (x0, y0))
    mid = y0 + NAME_Y + (NAME_H + extra) / 2
    pile = _pile_size(player["pile_count"], locale)
    t.text(img, (x0 + PLAYER_W - 18, mid), pile, t.font(SMALL, bold=True), t.INK, anchor="rm")
    t.paste(img, _player_tally(player["pile_count"], counts, locale), (x0, y0 + TALLY_Y + extra))


TALLY_Y = 78
"""Where a player panel's second row (what they have collected) starts, below a one-line name."""


@image_cache
def _player_head(seat: int, name: str, name_lines: int, held: bool, you: bool, locale: str = "en") -> Image.Image:
    """A player panel's first row (transparent background): the spade (faded once placed) and the name, on up
    to ``name_lines`` lines. Cached apart from the pile size and the counts, which change more often."""
    colour = t.PLAYER_COLOURS[seat]
    extra = (name_lines - 1) * t.NAME_LINE_H
    img = Image.new("RGBA", (PLAYER_W, TALLY_Y + extra), (0, 0, 0, 0))
    mid = NAME_Y + (NAME_H + extra) / 2
    spade = t.icon("spade", 50, colour.fill, colour.edge) if held else _faded("spade", 50)
    t.paste(img, spade, (14 + 25, mid), "mm")
    label, room = _name_label(name, you, locale), _name_room(locale)
    lines = len(t.name_lines(label, room, 28, NAME_H, NAME_LINES)[0])
    y = NAME_Y + (name_lines - lines) * t.NAME_LINE_H / 2  # a shorter name centred beside the longest
    t.name_pill(img, (NAME_X, y), label, seat, room, 28, NAME_H, lines=NAME_LINES, align="left")
    return img


@image_cache
def _player_tally(pile_count: int, counts: tuple[int, ...] | None, locale: str = "en") -> Image.Image:
    """A player panel's second row (transparent background): the symbol and rat counts, or in blind mode
    (``counts`` None) a face-down stack of the pile. The same for every seat with the same counts."""
    img = Image.new("RGBA", (PLAYER_W, PLAYER_H - TALLY_Y), (0, 0, 0, 0))
    y = 80 - TALLY_Y
    if counts is None:
        back = t.card_back(40, 56)
        shown = min(pile_count, 3)
        for layer in range(shown):
            t.paste(img, back, (22 + 14 * layer, y - 2))
        note = tr(locale, "collected face down") if pile_count else tr(locale, "nothing collected yet")
        x = 22 + 14 * shown + 46 * bool(shown)
        note, fnt = t.fit_text(note, PLAYER_W - 16 - x, SMALL)
        t.text(img, (x, y + 26), note, fnt, t.INK_SOFT, anchor="lm")
    else:
        _draw_counts(img, 16, PLAYER_W - 16, y, counts)
    return img


def _draw_counts(img: Image.Image, x0: float, x1: float, y: int, counts: tuple[int, ...]) -> None:
    """One icon and number per treasure type, then rats, spread evenly across ``x0..x1``."""
    icons = [*(_ICON[k] for k in TYPES), "rat"]
    for icon_size, px in ((44, 30), (36, SMALL)):  # shrink if many counts have two digits
        fnt = t.font(px, bold=True)
        widths = [icon_size + 4 + t.text_width(str(n), fnt) for n in counts]
        gap = (x1 - x0 - sum(widths)) / (len(counts) - 1)
        if gap >= 8:
            break
    x = x0
    for name, n, width in zip(icons, counts, widths, strict=True):
        t.paste(img, t.icon(name, icon_size) if n else _faded(name, icon_size), (x, y + 24 - icon_size / 2))
        ink = (t.DANGER if name == "rat" else t.INK) if n else t.PARCHMENT_SHADE
        t.text(img, (x + icon_size + 4, y + 24), str(n), fnt, ink, anchor="lm")
        x += width + gap


# ====================================================================== final scoring
FINAL_TYPE_W = 236
FINAL_NAMES_H = 116
FINAL_ROW_H = 72
NOTE_LINE_H = 30
FINAL_EXTRA_H = 64


def render_final(view: View, names: Sequence[str], locale: str = "en") -> bytes:
    """The final scoring of ``view["scoring"]``: symbols per type and seat, the cubes each won, the note per
    type (how a tie was decided, wrapped, never cut), the tie-breaks (rats, cards) when known, the totals
    and the crowned winner(s), in ``locale``'s language. Returns PNG bytes."""
    view = localize_tree(view, locale)
    scoring = view["scoring"]
    seats = view["seats"]
    players = t.seat_names(names, seats, locale)
    show_extra = all(p["rats"] is not None for p in view["players"])
    notes = [_note_lines(row["note"], tuple(players)) for row in scoring["types"]]
    heights = [FINAL_ROW_H + 8 + len(lines) * NOTE_LINE_H for lines in notes]
    winners = scoring["winners"]
    best = max((scoring["totals"][s] for s in winners), default=max(scoring["totals"], default=0))
    headline = t.final_headline_lines(players, winners, best, W - 2 * M, 32, locale=locale)
    top = 106 + len(headline[0]) * 40 + 16
    col_x, col_w = t.final_columns(M, W - M, FINAL_TYPE_W, seats)
    names_h = FINAL_NAMES_H + (t.final_name_lines(players, col_w - 4, 26, 44) - 1) * t.NAME_LINE_H
    table_h = names_h + sum(heights) + FINAL_EXTRA_H * show_extra + t.FINAL_TOTALS_H
    img = t.new_canvas(W, top + table_h + M + 6)
    t.heading(
        img,
        t.icon("skull", 52),
        tr(locale, "{game} · FINAL SCORE", game=t.game_title(Piratz.title, locale)),
        (),
        x=M,
        width=W - 2 * M,
    )
    t.final_headline(img, (M, 90), headline)
    t.final_table(
        img,
        (M, top, W - M, top + table_h),
        col_x,
        col_w,
        players,
        winners,
        names_y=64,
        pill_h=44,
        name_size=26,
        name_margin=4,
        crown=50,
    )
    y = top + names_h
    for r, (row, lines) in enumerate(zip(scoring["types"], notes, strict=True)):
        _final_type_row(img, row, lines, y, heights[r], col_x, col_w, locale, stripe=r % 2 == 0)
        y += heights[r]
    if show_extra:
        _final_tie_breaks(img, view, y, col_x, col_w, locale)
        y += FINAL_EXTRA_H
    t.final_totals(img, M, W - M, y, col_x, col_w, scoring["totals"], winners, locale)
    return t.to_png(img)


def _final_tie_breaks(img: Image.Image, view: View, y: int, col_x: list[float], col_w: float, locale: str) -> None:
    """The row of what breaks ties: each seat's rats and cards. The cards' count reads "3 cards" where every
    seat's fits beside its rats, else a card beside the number."""
    mid = y + FINAL_EXTRA_H / 2
    label, fnt = t.fit_text(tr(locale, "tie-breaks"), col_x[0] - M - 30, SMALL)
    t.text(img, (M + 26, mid), label, fnt, t.INK_SOFT, anchor="lm")
    sizes = [_pile_size(p["pile_count"], locale) for p in view["players"]]
    small, bold = t.font(SMALL), t.font(SMALL, bold=True)
    # The cards' count ends 80 px right of the column's centre; the rats' count starts 52 px left of it.
    words = all(
        t.text_width(size, small) <= 80 + 52 - t.text_width(str(p["rats"]), bold) - 8
        for size, p in zip(sizes, view["players"], strict=True)
    )
    for s, p in enumerate(view["players"]):
        cx = col_x[s] + col_w / 2
        t.paste(img, t.icon("rat", 34), (cx - 74, mid), "mm")
        ink = t.DANGER if p["rats"] else t.INK_SOFT
        t.text(img, (cx - 52, mid), str(p["rats"]), bold, ink, anchor="lm")
        if words:
            t.text(img, (cx + 80, mid), sizes[s], small, t.INK_SOFT, anchor="rm")
        else:
            t.paste(img, t.card_back(24, 34), (cx + 20, mid), "mm")
            t.text(img, (cx + 40, mid), str(p["pile_count"]), bold, t.INK_SOFT, anchor="lm")


def _note_lines(note: str, players: tuple[str, ...]) -> tuple[str, ...]:
    """A type's note (nobody has it, who won a tie and on what) as lines of the table's width."""
    return t.wrap(" ".join(format_seats(note, list(players)).split()), t.font(SMALL), W - 2 * M - 110)


def _final_type_row(
    img: Image.Image,
    row: View,
    note: tuple[str, ...],
    y: int,
    h: int,
    col_x: list[float],
    col_w: float,
    locale: str,
    *,
    stripe: bool,
) -> None:
    """One treasure type of the final table: its name, each seat's count with the cubes won, its note."""
    kind = row["type"]
    if stripe:
        t.paste(img, t.rounded(W - 2 * M - 24, h, 10, (*t.PARCHMENT_SHADE, 110)), (M + 12, y))
    t.paste(img, t.icon(_ICON[kind], 48), (M + 22, y + 8))
    name, fnt = t.fit_text(localize(_NAME[kind], locale), col_x[0] - M - 90, 28)
    t.text(img, (M + 80, y + 32), name, fnt, _ink(kind), anchor="lm")
    won: dict[int, list[int]] = {}
    for award in row["awards"]:
        won.setdefault(award["seat"], []).append(award["value"])
    for s, n in enumerate(row["counts"]):
        cubes = sorted(won.get(s, []), reverse=True)
        x = col_x[s] + col_w / 2 - (24 + 48 * len(cubes)) / 2
        t.text(img, (x + 12, y + 32), str(n), t.font(34, bold=True), t.INK if n else t.INK_SOFT, anchor="mm")
        for i, value in enumerate(cubes):
            t.paste(img, t.cube(value, 42), (x + 34 + 48 * i, y + 10))
    for k, line in enumerate(note):
        t.text(img, (M + 80, y + FINAL_ROW_H + k * NOTE_LINE_H), line, t.font(SMALL), t.INK_SOFT, anchor="lm")
