"""The Sewer Pirats final scoring: for each category and player the tokens that took part (faded where they
scored nothing), the points and how they came about, the totals, the space sums when the best total is
tied, and the winners crowned. Every explanation is wrapped, never cut."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from rendering import theme as t
from rendering.sewerpirats.board import HEADER_Y, INNER, SMALL, M, W
from rendering.sewerpirats.hand import category_tokens
from rendering.sewerpirats.pieces import SHORT_NAMES, Catalog, View, catalog, tile_of, token_of

FINAL_LABEL_W = 200
FINAL_NAMES_H = 110
FINAL_TILE = 40
LINE_H = 28
FADED_INK: t.RGB = (170, 150, 120)


def render_final(view: View, names: Sequence[str]) -> bytes:
    """The final scoring of ``view["final"]``. Returns PNG bytes."""
    final = view["final"]
    seats = view["seats"]
    cat = catalog(view)
    players = t.seat_names(names, seats)
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
        heights.append(max(cells, 60 + len(_label_lines(category)) * LINE_H + LINE_H + 12))
    tie_note = " Tie broken by the spaces of their figures." if tied else ""
    headline = t.final_headline_lines(players, winners, best, INNER, 30, lone_note=tie_note)
    top = 100 + len(headline[0]) * 40 + 16
    names_h = FINAL_NAMES_H + (t.final_name_lines(players, col_w - 8, 26, 42) - 1) * t.NAME_LINE_H
    table_h = names_h + sum(heights) + 96 * bool(tied) + 100
    img = t.new_canvas(W, top + table_h + M + 6)
    t.title(img, (M - 2, HEADER_Y - 26), t.icon("rat", 50), "SEWER PIRATS · FINAL SCORE", 40)
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
        name_margin=8,  # five columns: "Christopher" keeps to one line
        crown=46,
    )
    y = top + names_h
    for r, category in enumerate(cat.categories):
        if r % 2 == 0:
            t.paste(img, t.rounded(INNER - 24, heights[r], 10, (*t.PARCHMENT_SHADE, 110)), (M + 12, y))
        _final_label(img, cat, category, y)
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
            _final_cell(img, line, tiles, details[s, category], col_x[s] + 10, y, per_line, slot)
        y += heights[r]
    if tied:
        t.text(img, (M + 26, y + 26), "tie-break", t.font(SMALL, bold=True), t.INK, anchor="lm")
        t.text(img, (M + 26, y + 54), "sum of spaces", t.font(SMALL), t.INK_SOFT, anchor="lm")
        t.text(img, (M + 26, y + 80), "(C counts 4)", t.font(SMALL), t.INK_SOFT, anchor="lm")
        for s in tied:
            cx = col_x[s] + col_w / 2
            t.text(img, (cx, y + 48), str(scores[s]["space_sum"]), t.font(34, bold=True), t.INK, anchor="mm")
        y += 96
    t.final_totals(img, M, W - M, y, col_x, col_w, [score["total"] for score in scores])
    return t.to_png(img)


def _label_lines(category: str) -> tuple[str, ...]:
    return t.wrap(category, t.font(SMALL, bold=True), FINAL_LABEL_W - 24)


def _final_label(img: Image.Image, cat: Catalog, category: str, y: int) -> None:
    """A category's name in the final table, under its booty and the bonus token it combines with."""
    kinds = cat.kinds[category]
    t.paste(img, token_of(cat, kinds[0], 44), (M + 22, y + 10))
    t.paste(img, token_of(cat, kinds[-1], 32), (M + 56, y + 28))
    lines = _label_lines(category)
    for n, part in enumerate(lines):
        t.text(img, (M + 22, y + 74 + n * LINE_H), part, t.font(SMALL, bold=True), t.INK, anchor="lm")
    bonus = f"+ {SHORT_NAMES[kinds[-1]].lower()}"
    t.text(img, (M + 22, y + 74 + len(lines) * LINE_H), bonus, t.font(SMALL), t.INK_SOFT, anchor="lm")


def _final_cell(
    img: Image.Image,
    line: View,
    tiles: list[Image.Image],
    detail: tuple[str, ...],
    x: float,
    y: int,
    per_line: int,
    slot: int,
) -> None:
    """One player's category in the final table: points, the tokens behind them and the whole detail."""
    points = line["points"]
    big = t.font(30, bold=True)
    t.text(img, (x, y + 24), str(points), big, t.INK if points else t.INK_SOFT, anchor="lm")
    t.text(img, (x + t.text_width(str(points), big) + 6, y + 28), "pts", t.font(SMALL), t.INK_SOFT, anchor="lm")
    for k, tl in enumerate(tiles):
        tx = x + (k % per_line) * slot
        ty = y + 48 + (k // per_line) * (FINAL_TILE + 12)
        t.paste(img, t.faded(tl, 45) if points == 0 else tl, (tx, ty))
    dy = y + 48 + max(1, -(-len(tiles) // per_line)) * (FINAL_TILE + 12) + LINE_H / 2
    for n, part in enumerate(detail):
        t.text(img, (x, dy + n * LINE_H), part, t.font(SMALL), t.INK_SOFT, anchor="lm")
