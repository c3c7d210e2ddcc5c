"""One Sewer Pirats player's private image, from their own view: Talisman cards by symbol, their figures and
where they are, their tokens by scoring category with the points each scores now, and their live score."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from games.sewerpirats.board import CAPTAIN
from games.sewerpirats.components import SHIPS, TRIBE_SINGULAR
from rendering import theme as t
from rendering.sewerpirats.board import CAPTAIN_GOLD, CAPTAIN_RED, HEADER_Y, INNER, SMALL, M, W
from rendering.sewerpirats.icons import WHITE, icon
from rendering.sewerpirats.pieces import Catalog, View, catalog, figure, talisman, tile_of, token_of

HAND_TOP = 92
HAND_CARDS_H = 244
HAND_TILE = 46
DETAIL_LINE_H = 28


def _figures_of(view: View, seat: int) -> list[tuple[str, str, bool]]:
    """``(tribe, where, captain)`` for each of ``seat``'s figures: play area first, then aboard."""
    out = [(f["tribe"], "play area", False) for f in view["players"][seat]["play_area"]]
    for ship in view["ships"]:
        for space, fig in enumerate(ship["spaces"]):
            if fig is not None and fig["owner"] == seat:
                if space == CAPTAIN:
                    out.append((fig["tribe"], f"captain of the {ship['ship']} ship", True))
                else:
                    out.append((fig["tribe"], f"{ship['ship']} ship, space {space + 1}", False))
    return out


def category_tokens(cat: Catalog, category: str, tokens: Sequence[View]) -> list[tuple[str, int]]:
    """The tokens behind a scoring category: booty by value (highest first), then the bonus tokens."""
    kinds = cat.kinds.get(category, ())
    picked = [(tk["type"], tk["value"]) for tk in tokens if tk["type"] in kinds]
    return sorted(picked, key=lambda kv: (kinds.index(kv[0]), -kv[1]))


def render_hand(view: View, names: Sequence[str]) -> bytes:
    """One player's private image from their own view (a spectator's view gives a short notice): their
    Talisman cards, their crew, their tokens by scoring category with the view's breakdown and the score
    they would have if the game ended now. Returns PNG bytes."""
    seat = view["viewer"]
    if seat is None or view["hand"] is None:
        img = t.new_canvas(W, 160)
        notice = "Spectators have no hand: hands and tokens are secret."
        t.text(img, (W / 2, 80), notice, t.font(28, bold=True), t.FOAM, anchor="mm")
        return t.to_png(img)
    cat = catalog(view)
    me = view["players"][seat]
    tokens = me["tokens"] or []
    lines = me["breakdown"] or []
    details = [t.wrap(line["detail"], t.font(SMALL), INNER - 150) for line in lines]
    heights = [84 + len(d) * DETAIL_LINE_H for d in details]
    tokens_y = HAND_TOP + HAND_CARDS_H + 20
    h = tokens_y + 62 + (sum(heights) if lines else 96) + 14 + M
    img = t.new_canvas(W, h)
    colour = t.PLAYER_COLOURS[seat]
    x = t.title(img, (M - 2, HEADER_Y - 26), t.icon("rat", 50), "YOUR HAND", 40) + 20
    fitted, fnt = t.fit_text(t.seat_names(names, view["seats"])[seat], W - M - x - 20, 28)
    t.pill(img, (x, HEADER_Y - 23), fitted, fnt, colour.fill, colour.text, border=colour.edge, height=46)
    _hand_cards(img, view["hand"])
    _hand_crew(img, _figures_of(view, seat), seat)
    # Tokens by scoring category, with the live score.
    t.panel(img, (M, tokens_y, W - M, h - M))
    title = f"YOUR TOKENS ({len(tokens)})"
    t.text(img, (M + 20, tokens_y + 30), title, t.font(SMALL, bold=True), t.INK, anchor="lm")
    score = f"score if the game ended now: {me['score']}"
    t.text(img, (W - M - 20, tokens_y + 30), score, t.font(28, bold=True), CAPTAIN_RED, anchor="rm")
    if not lines:
        notice = "No tokens yet: set sail to seize some!"
        t.text(img, (W / 2, tokens_y + 62 + 48), notice, t.font(SMALL, bold=True), t.INK_SOFT, anchor="mm")
    y = tokens_y + 58
    for k, (line, detail) in enumerate(zip(lines, details, strict=True)):
        _category_row(img, cat, line, detail, tokens, y, heights[k], stripe=k % 2 == 0)
        y += heights[k]
    return t.to_png(img)


def _hand_cards(img: Image.Image, hand: Sequence[str]) -> None:
    y = HAND_TOP
    t.panel(img, (M, y, M + 470, y + HAND_CARDS_H))
    t.text(img, (M + 20, y + 24), f"TALISMAN CARDS ({len(hand)})", t.font(SMALL, bold=True), t.INK, anchor="lm")
    for k, symbol in enumerate(SHIPS):
        n = hand.count(symbol)
        cx = M + 85 + k * 150
        face = talisman(symbol, 96, 132)
        t.paste(img, face if n else t.faded(face, 30), (cx - 48, y + 46))
        t.pill(
            img,
            (cx, y + 188),
            f"×{n}",
            t.font(28, bold=True),
            t.INK if n else t.PARCHMENT_SHADE,
            WHITE,
            border=t.GOLD if n else None,
            align="center",
            height=42,
        )


def _hand_crew(img: Image.Image, figs: list[tuple[str, str, bool]], seat: int) -> None:
    x0, y = M + 486, HAND_TOP
    t.panel(img, (x0, y, W - M, y + HAND_CARDS_H))
    t.text(img, (x0 + 20, y + 24), "YOUR CREW", t.font(SMALL, bold=True), t.INK, anchor="lm")
    if not figs:
        t.text(img, (x0 + 20, y + 120), "no figures yet", t.font(SMALL, bold=True), t.INK_SOFT, anchor="lm")
    for k, (tribe, where, captain) in enumerate(figs):
        fy = y + 48 + k * 48
        if captain:
            t.paste(img, t.rounded(W - M - x0 - 24, 46, 23, (*CAPTAIN_GOLD, 150)), (x0 + 12, fy - 2))
        t.paste(img, figure(tribe, seat, 44), (x0 + 18, fy))
        ink = CAPTAIN_RED if captain else t.INK
        t.text(img, (x0 + 72, fy + 22), TRIBE_SINGULAR[tribe], t.font(SMALL, bold=True), ink, anchor="lm")
        t.text(img, (x0 + 236, fy + 22), where, t.font(SMALL), ink, anchor="lm")
        if captain:
            t.paste(img, icon("hat", 40), (W - M - 34, fy + 22), "mm")


def _category_row(
    img: Image.Image,
    cat: Catalog,
    line: View,
    detail: tuple[str, ...],
    tokens: Sequence[View],
    y: int,
    h: int,
    *,
    stripe: bool,
) -> None:
    """One scoring category in the hand image: name, its tokens with values, how it scores, points.
    Tokens of a category that scores nothing are faded."""
    x0, x1 = M + 12, W - M - 12
    if stripe:
        t.paste(img, t.rounded(x1 - x0, h - 4, 10, (*t.PARCHMENT_SHADE, 110)), (x0, y))
    category = line["category"]
    kinds = cat.kinds.get(category, ())
    if kinds:
        t.paste(img, token_of(cat, kinds[0], 40), (x0 + 10, y + 8))
    t.text(img, (x0 + 58, y + 28), category, t.font(26, bold=True), t.INK, anchor="lm")
    for n, part in enumerate(detail):
        t.text(
            img, (x0 + 12, y + 84 + n * DETAIL_LINE_H - DETAIL_LINE_H / 2), part, t.font(SMALL), t.INK_SOFT, anchor="lm"
        )
    x = x0 + 320
    for kind, value in category_tokens(cat, category, tokens):
        tl = tile_of(cat, kind, value, HAND_TILE)
        if x + tl.width > x1 - 110:
            t.text(img, (x, y + 30), "…", t.font(26, bold=True), t.INK_SOFT, anchor="lm")
            break
        t.paste(img, t.faded(tl, 45) if line["points"] == 0 else tl, (x, y + 6))
        x += tl.width + 4
    ink = t.INK if line["points"] else t.INK_SOFT
    t.text(img, (x1 - 16, y + h / 2 - 2), str(line["points"]), t.font(40, bold=True), ink, anchor="rm")
