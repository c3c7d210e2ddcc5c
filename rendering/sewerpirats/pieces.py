"""Sewer Pirats pieces: figures, tokens with their value badges, Talisman cards, and the token catalogue
(what the view's ``token_kinds`` say about each token type, ready for drawing)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from games.i18n import T, localize
from games.sewerpirats.words import SYMBOL
from rendering import theme as t
from rendering.cache import image_cache
from rendering.sewerpirats.icons import SHIP_COLOURS, WHITE, icon

View = dict[str, Any]
WOOD: t.RGB = (122, 80, 46)

TRIBE_LETTERS: dict[str, str] = {
    "rats": T("R"),
    "raccoons": T("Rc"),
    "cockroaches": T("Co"),
    "weasels": T("W"),
    "snails": T("S"),
    "toads": T("T"),
}
"""The letter on each figure (Co, not C, which is the captain's space), marked: each language has its own."""
LETTERED = 72
"""Figures at least this large carry their tribe's letter; on smaller ones it could not be read."""

CATEGORY_COLOURS: tuple[t.RGB, ...] = (
    (214, 52, 44),
    (236, 186, 40),
    (150, 96, 52),
    (146, 78, 196),
    (140, 148, 160),
)
"""The tint of each scoring category's tokens, in scoring order: a bonus looks like the booty it scores."""
SHORT_NAMES: dict[str, str] = {
    "fries": T("Fries"),
    "noodles": T("Noodles"),
    "burger": T("Burger"),
    "teddy": T("Teddy"),
    "doll": T("Doll"),
    "tincan": T("Tin can"),
    "ketchup": T("Ketchup"),
    "chili": T("Chili"),
    "milkshake": T("Shake"),
    "parrot": T("Parrot"),
    "opener": T("Opener"),
}
"""Each token type's name where room is short (marked)."""


@dataclass(frozen=True, eq=False)
class Catalog:
    """The view's ``token_kinds`` ready for drawing: one per distinct content (see :func:`catalog`), so it
    can key caches by identity."""

    categories: tuple[str, ...]
    """The scoring categories, in scoring order."""
    kinds: dict[str, tuple[str, ...]]
    """Each category's token types, booty first."""
    category: dict[str, str]
    bonus: frozenset[str]
    needs_bonus: frozenset[str]
    """Booty that scores nothing without its bonus: its value is printed in a star."""
    effect: dict[str, str]
    """What each bonus token does."""

    def colour(self, kind: str) -> t.RGB:
        return CATEGORY_COLOURS[self.categories.index(self.category[kind]) % len(CATEGORY_COLOURS)]


def catalog(view: View) -> Catalog:
    """The :class:`Catalog` of ``view["token_kinds"]``."""
    kinds = view["token_kinds"]
    return _catalog(tuple((k, v["category"], v["bonus"], v["needs_bonus"], v["effect"]) for k, v in kinds.items()))


@lru_cache(maxsize=4)
def _catalog(items: tuple[tuple[str, str, bool, bool, str | None], ...]) -> Catalog:
    categories = tuple(dict.fromkeys(category for _, category, *_ in items))
    ordered = sorted(items, key=lambda item: item[2])  # booty before bonus, otherwise in the view's order
    return Catalog(
        categories,
        {c: tuple(kind for kind, category, *_ in ordered if category == c) for c in categories},
        {kind: category for kind, category, *_ in items},
        frozenset(kind for kind, _, bonus, *_ in items if bonus),
        frozenset(kind for kind, _, _, needs, _ in items if needs),
        {kind: effect for kind, *_, effect in items if effect},
    )


@image_cache
def figure(tribe: str, owner: int | None, size: int, locale: str = "en") -> Image.Image:
    """A figure token: a disc with its owner's colour as a thick ring (wood at the bar), the tribe's
    drawn icon on parchment inside and, from :data:`LETTERED` px, the tribe's letter on a tab."""
    colour = t.PLAYER_COLOURS[owner] if owner is not None else t.PlayerColour("bar", WOOD, WHITE, t.OUTLINE)
    s = 3
    big = Image.new("RGBA", (size * s, size * s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    ring = max(4, size // 9)
    draw.ellipse((0, 0, size * s - 1, size * s - 1), fill=colour.edge)
    draw.ellipse((2 * s, 2 * s, (size - 2) * s, (size - 2) * s), fill=colour.fill)
    draw.ellipse(((ring + 2) * s, (ring + 2) * s, (size - ring - 2) * s, (size - ring - 2) * s), fill=t.PARCHMENT)
    img = big.resize((size, size), Image.Resampling.BOX)
    inner = size - 2 * ring - 4
    lettered = size >= LETTERED
    t.paste(img, icon(tribe, round(inner * 0.86)), (size / 2, size / 2 - inner * 0.08 * lettered), "mm")
    if lettered:
        letter = localize(TRIBE_LETTERS[tribe], locale)
        fnt = t.font(max(t.MIN_TEXT, round(size * 0.33)), condensed=True)
        h = round(size * 0.36)
        w = round(t.text_width(letter, fnt)) + h // 2 + 4
        x, y = (size - w) // 2, size - h
        img.alpha_composite(t.rounded(w, h, h // 2, colour.fill, colour.edge, 2), (x, y))
        t.text(img, (size / 2, y + h / 2), letter, fnt, colour.text, anchor="mm")
    return img


@image_cache
def badge(value: int, star: bool, d: int) -> Image.Image:
    """A token's value: in a white circle, or in a gold starburst for booty that needs its bonus."""
    s = 4
    big = Image.new("RGBA", (d * s, d * s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    c = d * s / 2
    if star:
        pts = []
        for i in range(24):
            r = c - 1 if i % 2 == 0 else c * 0.8
            a = -math.pi / 2 + i * math.pi / 12
            pts.append((c + r * math.cos(a), c + r * math.sin(a)))
        draw.polygon(pts, fill=t.OUTLINE)
        inner = [(c + (x - c) * 0.86, c + (y - c) * 0.86) for x, y in pts]
        draw.polygon(inner, fill=(250, 206, 60))
    else:
        draw.ellipse((0, 0, d * s - 1, d * s - 1), fill=t.OUTLINE)
        draw.ellipse((2.2 * s, 2.2 * s, (d - 2.2) * s, (d - 2.2) * s), fill=(255, 252, 244))
    img = big.resize((d, d), Image.Resampling.BOX)
    label = str(value)
    px = max(t.MIN_TEXT, round(d * 0.6))
    t.text(img, (d / 2, d / 2 + 0.5), label, t.font(px, bold=True, condensed=len(label) > 1), t.INK, anchor="mm")
    return img


def badge_size(star: bool, size: int) -> int:
    """The diameter of a value badge beside a token of ``size`` px: a star needs more room for its digits."""
    return round(size * (0.92 if star else 0.84))


@image_cache
def token(kind: str, bonus: bool, group: t.RGB, size: int) -> Image.Image:
    """A token without its value: booty a rounded square, bonus a disc, tinted with its category's colour."""
    fill, edge = t.mix(group, WHITE, 0.62), t.mix(group, t.OUTLINE, 0.35)
    if not bonus:
        img = t.rounded(size, size, max(6, size // 7), fill, edge, 3).copy()
    else:
        s = 3
        big = Image.new("RGBA", (size * s, size * s), (0, 0, 0, 0))
        draw = ImageDraw.Draw(big)
        draw.ellipse((0, 0, size * s - 1, size * s - 1), fill=edge)
        draw.ellipse((3 * s, 3 * s, (size - 3) * s, (size - 3) * s), fill=fill)
        img = big.resize((size, size), Image.Resampling.BOX)
    t.paste(img, icon(kind, round(size * (0.7 if bonus else 0.76))), (size / 2, size / 2), "mm")
    return img


def token_of(cat: Catalog, kind: str, size: int) -> Image.Image:
    """:func:`token` for ``kind`` as the catalogue describes it."""
    return token(kind, kind in cat.bonus, cat.colour(kind), size)


@image_cache
def tile(kind: str, value: int, bonus: bool, star: bool, group: t.RGB, size: int) -> Image.Image:
    """A compact token with its value badge over the bottom-right corner (booty; a bonus has no value)."""
    d = badge_size(star, size)
    over = d // 2
    img = Image.new("RGBA", (size + over * (not bonus), size + over // 2), (0, 0, 0, 0))
    img.alpha_composite(token(kind, bonus, group, size), (0, 0))
    if not bonus:
        img.alpha_composite(badge(value, star, d), (size + over - d, size + over // 2 - d))
    return img


def tile_of(cat: Catalog, kind: str, value: int, size: int) -> Image.Image:
    """:func:`tile` for ``kind`` as the catalogue describes it."""
    return tile(kind, value, kind in cat.bonus, kind in cat.needs_bonus, cat.colour(kind), size)


CARD_W, CARD_H = 84, 116


@image_cache
def talisman(symbol: str, w: int = CARD_W, h: int = CARD_H, locale: str = "en") -> Image.Image:
    """A face-up Talisman card: the ship's symbol on a tint of its colour, its name underneath."""
    colour = SHIP_COLOURS[symbol]
    face = t.card(w, h, t.mix(colour, t.PARCHMENT, 0.72), t.mix(colour, t.OUTLINE, 0.4), 3).copy()
    t.paste(face, icon(symbol, round(w * 0.7)), (w / 2, h * 0.4), "mm")
    label_font = t.font(max(t.MIN_TEXT, round(w * 0.26)), condensed=True)
    lines = _card_label(symbol, locale, label_font, w - 8)
    for n, line in enumerate(lines):  # upward from the bottom: a long word takes two lines over the icon's foot
        y = h - h * 0.14 - (len(lines) - 1 - n) * (label_font.size + 2)
        t.text(face, (w / 2, y), line, label_font, t.mix(colour, t.OUTLINE, 0.6), anchor="mm")
    return face


@lru_cache(maxsize=32)
def _card_label(symbol: str, locale: str, fnt: ImageFont.FreeTypeFont, width: float) -> tuple[str, ...]:
    """A card's symbol name in capitals where every symbol's name fits so, else capitalised (the three cards
    alike), or else over two lines."""
    words = {s: localize(SYMBOL[s], locale) for s in SYMBOL}
    if all(t.text_width(word.upper(), fnt) <= width for word in words.values()):
        return (words[symbol].upper(),)
    capitalised = words[symbol][:1].upper() + words[symbol][1:]
    return t.wrap(capitalised, fnt, width)
