"""One Sewer Pirats player's private image, from their own view: Talisman cards by symbol, their figures and
where they are, their tokens by scoring category with the points each scores now, and their live score."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from games.core import format_seats
from games.i18n import localize, localize_tree, tr
from games.sewerpirats.board import CAPTAIN
from games.sewerpirats.components import SHIPS
from games.sewerpirats.engine import SewerPirats
from games.sewerpirats.words import SHIP_NOUN, TRIBE
from rendering import theme as t
from rendering.sewerpirats.board import CAPTAIN_GOLD, CAPTAIN_RED, INNER, SMALL, M, W
from rendering.sewerpirats.icons import WHITE, icon
from rendering.sewerpirats.pieces import Catalog, View, catalog, figure, talisman, tile_of, token_of

HAND_TOP = t.TOP
HAND_CARDS_H = 244
HAND_TILE = 46
DETAIL_LINE_H = 28


def _figures_of(view: View, seat: int, locale: str) -> list[tuple[str, str, bool]]:
    """``(tribe, where, captain)`` for each of ``seat``'s figures: play area first, then aboard."""
    out = [(f["tribe"], tr(locale, "play area"), False) for f in view["players"][seat]["play_area"]]
    for ship in view["ships"]:
        for space, fig in enumerate(ship["spaces"]):
            if fig is not None and fig["owner"] == seat:
                noun = SHIP_NOUN[ship["ship"]]
                if space == CAPTAIN:
                    out.append((fig["tribe"], tr(locale, "captain of the {ship}", ship=noun), True))
                else:
                    out.append((fig["tribe"], tr(locale, "{ship}, space {space}", ship=noun, space=space + 1), False))
    return out


def category_tokens(cat: Catalog, category: str, tokens: Sequence[View]) -> list[tuple[str, int]]:
    """The tokens behind a scoring category: booty by value (highest first), then the bonus tokens."""
    kinds = cat.kinds.get(category, ())
    picked = [(tk["type"], tk["value"]) for tk in tokens if tk["type"] in kinds]
    return sorted(picked, key=lambda kv: (kinds.index(kv[0]), -kv[1]))


HAND_FIELDS = ("play_area", "tokens", "breakdown", "score")
"""What the hand image draws of its own player's entry."""


def hand_view(view: View) -> View:
    """What the hand image draws of a seat's view (:func:`render_hand` is given nothing else): the viewer's
    cards, tokens, score and crew with the spaces aboard their own figures hold, and what they must decide
    while it is their decision. Another player's move changes none of it unless it moves the viewer's
    figures or tokens or passes the decision to them, so their direct message is not drawn and sent again
    for it."""
    seat = view["viewer"]
    if seat is None or view["hand"] is None:
        return {"viewer": None, "seats": view["seats"], "hand": None}
    me = view["players"][seat]
    return {
        "viewer": seat,
        "seats": view["seats"],
        "deciding": _deciding(view, seat),
        "token_kinds": view["token_kinds"],
        "hand": view["hand"],
        "players": [{k: me[k] for k in HAND_FIELDS} if s == seat else None for s in range(len(view["players"]))],
        "ships": [
            {
                "ship": ship["ship"],
                "spaces": [f if f is not None and f["owner"] == seat else None for f in ship["spaces"]],
            }
            for ship in view["ships"]
        ],
    }


def _deciding(view: View, seat: int) -> str | None:
    """What ``seat`` must decide now, or ``None`` while another player decides (a hand view keeps it)."""
    if "deciding" in view:
        return view["deciding"]  # type: ignore[no-any-return]
    return view["pending"] if seat in view["to_act"] else None


def render_hand(view: View, names: Sequence[str], locale: str = "en") -> bytes:
    """One player's private image from their own view (a spectator's view gives a short notice): their
    Talisman cards, their crew, their tokens by scoring category with the view's breakdown and the score
    they would have if the game ended now, in ``locale``'s language. Returns PNG bytes."""
    view = localize_tree(view, locale)
    seat = view["viewer"]
    if seat is None or view["hand"] is None:
        img = t.new_canvas(W, 160)
        notice = tr(locale, "Spectators have no hand: hands and tokens are secret.")
        parts, fnt = t.fit_lines(notice, INNER - 40, 28, 2)
        for n, part in enumerate(parts):
            t.text(img, (W / 2, 80 + (n - (len(parts) - 1) / 2) * 34), part, fnt, t.FOAM, anchor="mm")
        return t.to_png(img)
    cat = catalog(view)
    me = view["players"][seat]
    tokens = me["tokens"] or []
    lines = me["breakdown"] or []
    details = [t.wrap(line["detail"], t.font(SMALL), INNER - 150) for line in lines]
    heights = [84 + len(d) * DETAIL_LINE_H for d in details]
    crew = _crew_rows(_figures_of(view, seat, locale), locale)
    cards_h = max(HAND_CARDS_H, 48 + sum(_crew_row_h(where) for _, where, _ in crew) + 4)
    tokens_y = HAND_TOP + cards_h + 20
    h = tokens_y + 62 + (sum(heights) if lines else 96) + 14 + M
    img = t.new_canvas(W, h)
    drawn = t.seat_names(names, view["seats"], locale)
    deciding = _deciding(view, seat)
    deciding = " ".join(format_seats(deciding, drawn).split()) if deciding else None
    title = t.game_title(SewerPirats.title, locale)
    t.hand_band(img, t.icon("rat", 52), title, seat, drawn[seat], deciding, locale, x=M, width=INNER)
    _hand_cards(img, view["hand"], cards_h, locale)
    _hand_crew(img, crew, seat, cards_h, locale)
    # Tokens by scoring category, with the live score.
    t.panel(img, (M, tokens_y, W - M, h - M))
    title = tr(locale, "YOUR TOKENS ({n})", n=len(tokens))
    title_font = t.font(SMALL, bold=True)
    t.text(img, (M + 20, tokens_y + 30), title, title_font, t.INK, anchor="lm")
    score = tr(locale, "score if the game ended now: {score}", score=me["score"])
    score, fnt = t.fit_text(score, INNER - 70 - t.text_width(title, title_font), 28)
    t.text(img, (W - M - 20, tokens_y + 30), score, fnt, CAPTAIN_RED, anchor="rm")
    if not lines:
        notice = tr(locale, "No tokens yet: set sail to seize some!")
        t.text(img, (W / 2, tokens_y + 62 + 48), notice, t.font(SMALL, bold=True), t.INK_SOFT, anchor="mm")
    y = tokens_y + 58
    for k, (line, detail) in enumerate(zip(lines, details, strict=True)):
        _category_row(img, cat, line, detail, tokens, y, heights[k], stripe=k % 2 == 0)
        y += heights[k]
    return t.to_png(img)


def _hand_cards(img: Image.Image, hand: Sequence[str], h: int, locale: str) -> None:
    y = HAND_TOP
    t.panel(img, (M, y, M + 470, y + h))
    title = tr(locale, "TALISMAN CARDS ({n})", n=len(hand))
    t.text(img, (M + 20, y + 24), title, t.font(SMALL, bold=True), t.INK, anchor="lm")
    top = y + (h - HAND_CARDS_H) // 2  # the cards centred in a panel made taller by the crew beside it
    for k, symbol in enumerate(SHIPS):
        n = hand.count(symbol)
        cx = M + 85 + k * 150
        face = talisman(symbol, 96, 132, locale)
        t.paste(img, face if n else t.faded(face, 30), (cx - 48, top + 46))
        t.pill(
            img,
            (cx, top + 188),
            f"×{n}",
            t.font(28, bold=True),
            t.INK if n else t.PARCHMENT_SHADE,
            WHITE,
            border=t.GOLD if n else None,
            align="center",
            height=42,
        )


CREW_X = 486
"""Where the crew panel starts, from the left margin."""
CREW_NAME_X = 72
"""Where the figures' tribe names start in the crew panel, from its left edge."""
CREW_LINE_H = 28
CREW_ROW_H = 48


def _crew_rows(figs: list[tuple[str, str, bool]], locale: str) -> list[tuple[str, tuple[str, ...], bool]]:
    """``(tribe, where in lines, captain)`` for the crew panel: where a figure is, after the widest tribe
    name, on one line or wrapped where a language needs more room."""
    names = [localize(TRIBE[tribe], locale) for tribe, _, _ in figs]
    regular = t.font(SMALL)
    at = _crew_where_x(names)
    room = W - M - (M + CREW_X) - at - 58  # the captain's hat at the right
    return [(tribe, t.wrap(where, regular, room), captain) for tribe, where, captain in figs]


def _crew_where_x(names: list[str]) -> float:
    """Where the figures' places start in the crew panel: after the widest tribe name (236 px at least)."""
    widest = max((t.text_width(name, t.font(SMALL, bold=True)) for name in names), default=0)
    return max(236, CREW_NAME_X + widest + 16)


def _crew_row_h(where: tuple[str, ...]) -> int:
    return max(CREW_ROW_H, len(where) * CREW_LINE_H + 8)


def _hand_crew(img: Image.Image, crew: list[tuple[str, tuple[str, ...], bool]], seat: int, h: int, locale: str) -> None:
    x0, y = M + CREW_X, HAND_TOP
    t.panel(img, (x0, y, W - M, y + h))
    t.text(img, (x0 + 20, y + 24), tr(locale, "YOUR CREW"), t.font(SMALL, bold=True), t.INK, anchor="lm")
    if not crew:
        t.text(img, (x0 + 20, y + 120), tr(locale, "no figures yet"), t.font(SMALL, bold=True), t.INK_SOFT, anchor="lm")
    bold, regular = t.font(SMALL, bold=True), t.font(SMALL)
    names = [localize(TRIBE[tribe], locale) for tribe, _, _ in crew]
    at = x0 + _crew_where_x(names)
    fy = y + 48
    for (tribe, where, captain), name in zip(crew, names, strict=True):
        row_h = _crew_row_h(where)
        if captain:
            t.paste(img, t.rounded(W - M - x0 - 24, row_h - 2, 23, (*CAPTAIN_GOLD, 150)), (x0 + 12, fy - 2))
        t.paste(img, figure(tribe, seat, 44, locale), (x0 + 18, fy + (row_h - 48) // 2))
        ink = CAPTAIN_RED if captain else t.INK
        mid = fy + row_h / 2 - 2
        t.text(img, (x0 + CREW_NAME_X, mid), name, bold, ink, anchor="lm")
        for n, part in enumerate(where):
            t.text(img, (at, mid + (n - (len(where) - 1) / 2) * CREW_LINE_H), part, regular, ink, anchor="lm")
        if captain:
            t.paste(img, icon("hat", 40), (W - M - 34, mid), "mm")
        fy += row_h


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
    name_font = t.font(26, bold=True)
    t.text(img, (x0 + 58, y + 28), category, name_font, t.INK, anchor="lm")
    for n, part in enumerate(detail):
        t.text(
            img, (x0 + 12, y + 84 + n * DETAIL_LINE_H - DETAIL_LINE_H / 2), part, t.font(SMALL), t.INK_SOFT, anchor="lm"
        )
    x = max(x0 + 320, x0 + 58 + t.text_width(category, name_font) + 20)  # the tokens after a long name
    for kind, value in category_tokens(cat, category, tokens):
        tl = tile_of(cat, kind, value, HAND_TILE)
        if x + tl.width > x1 - 110:
            t.text(img, (x, y + 30), "…", t.font(26, bold=True), t.INK_SOFT, anchor="lm")
            break
        t.paste(img, t.faded(tl, 45) if line["points"] == 0 else tl, (x, y + 6))
        x += tl.width + 4
    ink = t.INK if line["points"] else t.INK_SOFT
    t.text(img, (x1 - 16, y + h / 2 - 2), str(line["points"]), t.font(40, bold=True), ink, anchor="rm")
