"""The Sewer Pirats final scoring: for each category and player the tokens that took part (faded where they
scored nothing), the points and how they came about, the totals, the space sums when the best total is
tied, every player's place and the winners crowned. Every explanation is wrapped, never cut."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from PIL import Image

from games.i18n import localize_tree, ntr, tr
from games.sewerpirats.engine import SewerPirats
from rendering import theme as t
from rendering.sewerpirats.board import INNER, SMALL, M, W
from rendering.sewerpirats.hand import category_tokens
from rendering.sewerpirats.pieces import SHORT_NAMES, Catalog, View, catalog, tile_of, token_of

FINAL_NAMES_H = 110
FINAL_TILE = 40
LINE_H = 30
STRIP_H = 52
"""A category's strip across the table (its tokens, name and bonus), above the players' cells."""
FADED_INK: t.RGB = (170, 150, 120)


class _Sheet(NamedTuple):
    """What the rows of the final table draw from: the game's tokens, every seat's score (in seat order),
    each seat's scored line in each category with its detail wrapped to the column, and the columns: their
    left edges, their width, and the token tiles a line of a cell holds, each ``slot`` px wide."""

    cat: Catalog
    scores: list[View]
    cells: dict[tuple[int, str], tuple[View, tuple[str, ...]]]
    col_x: list[float]
    col_w: float
    slot: int
    per_line: int


def _sheet(view: View) -> _Sheet:
    """The :class:`_Sheet` of ``view["final"]`` (a localized view)."""
    cat = catalog(view)
    scores = sorted(view["final"]["scores"], key=lambda s: s["seat"])
    col_x, col_w = t.final_columns(M, W - M, 0, view["seats"])
    slot = tile_of(cat, "fries", 1, FINAL_TILE).width + 4  # booty with its value badge: the widest tile
    by_seat = [{line["category"]: line for line in s["breakdown"]} for s in scores]
    cells = {
        (s, category): (line, t.wrap(line["detail"], t.font(SMALL), col_w - 18))
        for s in range(view["seats"])
        for category, line in by_seat[s].items()
    }
    return _Sheet(cat, scores, cells, col_x, col_w, slot, max(1, int((col_w - 16) // slot)))


def render_final(view: View, names: Sequence[str], locale: str = "en") -> bytes:
    """The final scoring of ``view["final"]``, in ``locale``'s language: a column per player, a strip
    across the table naming each category above its cells, the totals and every player's place. Returns
    PNG bytes."""
    view = localize_tree(view, locale)
    final = view["final"]
    sheet = _sheet(view)
    players = t.seat_names(names, view["seats"], locale)
    winners = list(final["winners"])
    best = max((sheet.scores[s]["total"] for s in winners), default=max((s["total"] for s in sheet.scores), default=0))
    tied = final["tied"] if len(final["tied"]) > 1 else []
    labels = [_label_lines(sheet.cat, category, locale) for category in sheet.cat.categories]
    heights = [
        _strip_h(label) + _cells_h(sheet, category)
        for category, label in zip(sheet.cat.categories, labels, strict=True)
    ]
    tie_note = " " + tr(locale, "Tie broken by the spaces of their figures.") if tied else ""
    headline = t.final_headline_lines(players, winners, best, INNER, 30, lone_note=tie_note, locale=locale)
    top = 100 + len(headline[0]) * 40 + 16
    names_h = FINAL_NAMES_H + (t.final_name_lines(players, sheet.col_w - 8, 26, 42) - 1) * t.NAME_LINE_H
    tie_label = _tie_lines(locale) if tied else ()
    tie_h = _strip_h(tie_label) + 60 if tied else 0
    table_h = names_h + sum(heights) + tie_h + t.FINAL_TOTALS_H + STRIP_H
    img = t.new_canvas(W, top + table_h + M + 6)
    t.heading(
        img,
        t.icon("rat", 52),
        tr(locale, "{game} · FINAL SCORE", game=t.game_title(SewerPirats.title, locale)),
        (),
        x=M,
        width=INNER,
    )
    t.final_headline(img, (M, 84), headline)
    t.final_table(
        img,
        (M, top, W - M, top + table_h),
        sheet.col_x,
        sheet.col_w,
        players,
        winners,
        names_y=58,
        pill_h=42,
        name_size=26,
        name_margin=8,
        crown=46,
    )
    y = top + names_h
    for category, label, h in zip(sheet.cat.categories, labels, heights, strict=True):
        _category_row(img, sheet, category, label, (y, y + h), locale)
        y += h
    if tied:
        _tie_break_row(img, sheet, tied, tie_label, y)
        y += tie_h
    _strip(img, y, (), (tr(locale, "TOTAL"),))
    totals = [score["total"] for score in sheet.scores]
    t.final_totals(img, M, W - M, y + STRIP_H, sheet.col_x, sheet.col_w, totals, winners, locale, label=False)
    return t.to_png(img)


def _cells_h(sheet: _Sheet, category: str) -> int:
    """The height of a category's cells, under its strip: the points, the lines of tokens of the seat with
    the most, and the detail lines of the seat with the longest detail."""
    seats = range(len(sheet.col_x))
    most = max((len(category_tokens(sheet.cat, category, s["tokens"])) for s in sheet.scores), default=0)
    lines = max((len(sheet.cells[s, category][1]) for s in seats if (s, category) in sheet.cells), default=0)
    return 46 + max(1, -(-most // sheet.per_line)) * (FINAL_TILE + 12) + lines * LINE_H + 12


def _category_row(
    img: Image.Image, sheet: _Sheet, category: str, label: Sequence[str], span: tuple[int, int], locale: str
) -> None:
    """A category's row of the final table, from ``span[0]`` to ``span[1]``: its strip (its tokens and
    words), then each seat's cell, or a dash where the seat scored no line in it."""
    y, end = span
    kinds = sheet.cat.kinds[category]
    icons = (token_of(sheet.cat, kinds[0], 40), token_of(sheet.cat, kinds[-1], 32))
    cells = y + _strip(img, y, icons, label)
    for s, x in enumerate(sheet.col_x):
        if (s, category) not in sheet.cells:
            dash = (x + sheet.col_w / 2, (cells + end) / 2)
            t.text(img, dash, "—", t.font(28, bold=True), FADED_INK, anchor="mm")
            continue
        line, detail = sheet.cells[s, category]
        tokens = category_tokens(sheet.cat, category, sheet.scores[s]["tokens"])
        tiles = [tile_of(sheet.cat, kind, value, FINAL_TILE) for kind, value in tokens]
        _final_cell(img, line, tiles, detail, x + 10, cells, sheet.per_line, sheet.slot, locale)


def _tie_break_row(img: Image.Image, sheet: _Sheet, tied: Sequence[int], label: Sequence[str], y: int) -> None:
    """The tie-break row from ``y``: its strip, then the space sum of each tied seat."""
    cells = y + _strip(img, y, (), label)
    for s in tied:
        cx = sheet.col_x[s] + sheet.col_w / 2
        t.text(img, (cx, cells + 26), str(sheet.scores[s]["space_sum"]), t.font(34, bold=True), t.INK, anchor="mm")


LABEL_X = M + 24
"""Where a strip's words start when it has no icons."""
ICONS_W = 84
"""The room a category's two tokens take at the start of its strip."""


def _label_lines(cat: Catalog, category: str, locale: str) -> tuple[str, ...]:
    """A category's strip words, its name and the bonus token it combines with ("French fries + Ketchup"),
    on as many lines as they need beside its tokens."""
    bonus = SHORT_NAMES[cat.kinds[category][-1]]
    label = tr(locale, "{category} + {bonus}", category=category, bonus=bonus)
    return t.wrap(label, t.font(SMALL + 2, bold=True), INNER - 48 - ICONS_W)


def _tie_lines(locale: str) -> tuple[str, ...]:
    """The tie-break strip's words: what breaks the tie."""
    words = tr(locale, "tie-break: sum of spaces (C counts 4)")
    return t.wrap(words, t.font(SMALL + 2, bold=True), INNER - 48)


def _strip_h(lines: Sequence[str]) -> int:
    return STRIP_H + (len(lines) - 1) * LINE_H


def _strip(img: Image.Image, y: int, icons: tuple[Image.Image, ...], lines: Sequence[str]) -> int:
    """A strip across the final table from ``y``: a category's tokens and words, or words alone (the
    tie-break, the totals). Returns its height."""
    h = _strip_h(lines)
    t.paste(img, t.rounded(INNER - 24, h - 8, 10, (*t.PARCHMENT_SHADE, 160)), (M + 12, y + 4))
    x = LABEL_X
    if icons:
        t.paste(img, icons[0], (M + 24, y + (h - icons[0].height) / 2))
        t.paste(img, icons[1], (M + 56, y + h / 2 - 2))
        x += ICONS_W
    for n, line in enumerate(lines):
        cy = y + h / 2 + (n - (len(lines) - 1) / 2) * LINE_H
        t.text(img, (x, cy), line, t.font(SMALL + 2, bold=True), t.INK, anchor="lm")
    return h


def _final_cell(
    img: Image.Image,
    line: View,
    tiles: list[Image.Image],
    detail: tuple[str, ...],
    x: float,
    y: int,
    per_line: int,
    slot: int,
    locale: str,
) -> None:
    """One player's category in the final table: points, the tokens behind them and the whole detail."""
    points = line["points"]
    big = t.font(30, bold=True)
    t.text(img, (x, y + 24), str(points), big, t.INK if points else t.INK_SOFT, anchor="lm")
    unit = ntr(locale, "pt", "pts", points)
    t.text(img, (x + t.text_width(str(points), big) + 6, y + 28), unit, t.font(SMALL), t.INK_SOFT, anchor="lm")
    for k, tl in enumerate(tiles):
        tx = x + (k % per_line) * slot
        ty = y + 48 + (k // per_line) * (FINAL_TILE + 12)
        t.paste(img, t.faded(tl, 45) if points == 0 else tl, (tx, ty))
    dy = y + 48 + max(1, -(-len(tiles) // per_line)) * (FINAL_TILE + 12) + LINE_H / 2
    for n, part in enumerate(detail):
        t.text(img, (x, dy + n * LINE_H), part, t.font(SMALL), t.INK_SOFT, anchor="lm")
