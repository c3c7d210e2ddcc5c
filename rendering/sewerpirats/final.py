"""The Sewer Pirats final scoring: for each category and player the tokens that took part (faded where they
scored nothing), the points and how they came about, the totals, the space sums when the best total is
tied, and the winners crowned. Every explanation is wrapped, never cut."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageFont

from games.i18n import localize_tree, ntr, tr
from rendering import theme as t
from rendering.sewerpirats.board import HEADER_Y, INNER, SMALL, M, W
from rendering.sewerpirats.hand import category_tokens
from rendering.sewerpirats.pieces import SHORT_NAMES, Catalog, View, catalog, tile_of, token_of

FINAL_LABEL_W = 176
"""The row labels' column: five seat columns beside it keep "Bartholomew" whole on a name pill."""
LABEL_TEXT_W = FINAL_LABEL_W - 14
"""The row labels' text, from 10 px inside their column to 4 px before the first seat's."""
FINAL_NAMES_H = 110
FINAL_TILE = 40
LINE_H = 28
FADED_INK: t.RGB = (170, 150, 120)


def render_final(view: View, names: Sequence[str], locale: str = "en") -> bytes:
    """The final scoring of ``view["final"]``, in ``locale``'s language. Returns PNG bytes."""
    view = localize_tree(view, locale)
    final = view["final"]
    seats = view["seats"]
    cat = catalog(view)
    players = t.seat_names(names, seats, locale)
    scores = sorted(final["scores"], key=lambda s: s["seat"])
    winners = list(final["winners"])
    best = max((s["total"] for s in scores), default=0)
    tied = final["tied"] if len(final["tied"]) > 1 else []
    col_x, col_w = t.final_columns(M, W - M, FINAL_LABEL_W, seats)
    slot = tile_of(cat, "fries", 1, FINAL_TILE).width + 4  # booty with its value badge: the widest tile
    per_line = max(1, int((col_w - 16) // slot))
    by_seat = [{line["category"]: line for line in s["breakdown"]} for s in scores]
    details = {
        (s, category): t.wrap(line["detail"], t.font(SMALL), col_w - 18)
        for s in range(seats)
        for category, line in by_seat[s].items()
    }
    heights = []
    for category in cat.categories:
        most = max((len(category_tokens(cat, category, s["tokens"])) for s in scores), default=0)
        lines = max((len(details.get((s, category), ())) for s in range(seats)), default=0)
        cells = 46 + max(1, -(-most // per_line)) * (FINAL_TILE + 12) + lines * LINE_H + 12
        bonus = _bonus_lines(cat, category, locale)
        heights.append(max(cells, 60 + (len(_label_lines(category)) + len(bonus)) * LINE_H + 12))
    tie_note = " " + tr(locale, "Tie broken by the spaces of their figures.") if tied else ""
    headline = t.final_headline_lines(players, winners, best, INNER, 30, lone_note=tie_note, locale=locale)
    top = 100 + len(headline[0]) * 40 + 16
    names_h = FINAL_NAMES_H + (t.final_name_lines(players, col_w - 8, 26, 42) - 1) * t.NAME_LINE_H
    tie_lines = _tie_lines(locale, col_x[0] + col_w / 2 - 32 - (M + 26)) if tied else ()
    tie_h = max(96, 12 + len(tie_lines) * LINE_H) if tied else 0
    table_h = names_h + sum(heights) + tie_h + 100
    img = t.new_canvas(W, top + table_h + M + 6)
    title = tr(locale, "SEWER PIRATS · FINAL SCORE")
    size = next((px for px in range(40, 24, -2) if t.text_width(title, t.font(px, bold=True)) <= INNER - 60), 24)
    t.title(img, (M - 2, HEADER_Y - 26), t.icon("rat", 50), title, size)
    t.final_headline(img, (M, 84), headline)
    t.final_table(
        img,
        (M, top, W - M, top + table_h),
        col_x,
        col_w,
        players,
        winners,
        names_y=58,
        pill_h=42,
        name_size=26,
        name_margin=2,  # five columns: "Christopher" and "Bartholomew" keep to one line
        crown=46,
    )
    y = top + names_h
    for r, category in enumerate(cat.categories):
        if r % 2 == 0:
            t.paste(img, t.rounded(INNER - 24, heights[r], 10, (*t.PARCHMENT_SHADE, 110)), (M + 12, y))
        _final_label(img, cat, category, y, locale)
        for s in range(seats):
            line = by_seat[s].get(category)
            if line is None:
                dash = (col_x[s] + col_w / 2, y + heights[r] / 2)
                t.text(img, dash, "—", t.font(28, bold=True), FADED_INK, anchor="mm")
                continue
            tiles = [
                tile_of(cat, kind, value, FINAL_TILE)
                for kind, value in category_tokens(cat, category, scores[s]["tokens"])
            ]
            _final_cell(img, line, tiles, details[s, category], col_x[s] + 10, y, per_line, slot, locale)
        y += heights[r]
    if tied:
        for n, (part, bold) in enumerate(tie_lines):
            fnt, ink = (t.font(SMALL, bold=True), t.INK) if bold else (t.font(SMALL), t.INK_SOFT)
            t.text(img, (M + 26, y + 26 + n * LINE_H), part, fnt, ink, anchor="lm")
        for s in tied:
            cx = col_x[s] + col_w / 2
            t.text(img, (cx, y + tie_h / 2), str(scores[s]["space_sum"]), t.font(34, bold=True), t.INK, anchor="mm")
        y += tie_h
    t.final_totals(img, M, W - M, y, col_x, col_w, [score["total"] for score in scores], locale=locale)
    return t.to_png(img)


def _tie_lines(locale: str, width: float) -> tuple[tuple[str, bool], ...]:
    """The tie-break row's label, wrapped to ``width`` (up to the first column's space sum): ``(line, bold)``."""
    head = t.wrap(tr(locale, "tie-break"), _label_font(tr(locale, "tie-break")), width)
    rest = [tr(locale, "sum of spaces"), tr(locale, "(C counts 4)")]
    tail = [part for s in rest for part in t.wrap(s, t.font(SMALL), width)]
    return (*((part, True) for part in head), *((part, False) for part in tail))


def _label_font(label: str) -> ImageFont.FreeTypeFont:
    """Bold, or condensed bold where a word of ``label`` is too wide for the labels' column."""
    bold = t.font(SMALL, bold=True)
    if all(t.text_width(word, bold) <= LABEL_TEXT_W for word in label.split()):
        return bold
    return t.font(SMALL, True, True)


def _label_lines(category: str) -> tuple[str, ...]:
    return t.wrap(category, _label_font(category), LABEL_TEXT_W)


def _bonus_lines(cat: Catalog, category: str, locale: str) -> tuple[str, ...]:
    """The bonus token a category's booty combines with, under its name: "+ Ketchup"."""
    bonus = tr(locale, "+ {bonus}", bonus=SHORT_NAMES[cat.kinds[category][-1]])
    return t.wrap(bonus, t.font(SMALL), LABEL_TEXT_W)


def _final_label(img: Image.Image, cat: Catalog, category: str, y: int, locale: str) -> None:
    """A category's name in the final table, under its booty and the bonus token it combines with."""
    kinds = cat.kinds[category]
    t.paste(img, token_of(cat, kinds[0], 44), (M + 22, y + 10))
    t.paste(img, token_of(cat, kinds[-1], 32), (M + 56, y + 28))
    lines = _label_lines(category)
    for n, part in enumerate(lines):
        t.text(img, (M + 22, y + 74 + n * LINE_H), part, _label_font(category), t.INK, anchor="lm")
    for n, part in enumerate(_bonus_lines(cat, category, locale), len(lines)):
        t.text(img, (M + 22, y + 74 + n * LINE_H), part, t.font(SMALL), t.INK_SOFT, anchor="lm")


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
