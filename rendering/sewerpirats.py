"""Sewer Pirats images: the public table (:func:`render_board`), one player's private hand
(:func:`render_hand`) and the final scoring (:func:`render_final`).

The board draws only public fields of the view (never ``hand``, ``tokens`` or ``score``), so a seat's
view and the spectator view of the same state give the same image. Everything that depends only on
the layout (background, panels, hulls with their emblems and space labels, titles, the legend) is
drawn once per layout into a cached layer; figures, tokens, flotsam groups, cards and player panels are
cached images too, so a render is mostly pasting.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from games.core import format_seats
from games.sewerpirats.components import BOOTY, SHIPS, TRIBE_SINGULAR, TRIBES
from games.sewerpirats.scoring import FOOD, breakdown, total
from rendering import theme as t

View = dict[str, Any]
Unit = Callable[..., list[float]]

WHITE: t.RGB = (255, 255, 255)
TAG_INK: t.RGB = (6, 30, 42)
"""Text on the highlight colour."""
WOOD_DARK: t.RGB = (78, 48, 28)
WOOD: t.RGB = (122, 80, 46)
DECK: t.RGB = (184, 138, 88)
DECK_LINE: t.RGB = (164, 116, 70)
HATCH: t.RGB = (206, 166, 112)
CAPTAIN_GOLD: t.RGB = (236, 196, 92)
NIGHT: t.RGB = (14, 34, 48)
"""Fill of the dark panels (events, empty slots)."""
FADED_INK: t.RGB = (170, 150, 120)

SHIP_COLOURS: dict[str, t.RGB] = {"cat": (238, 144, 50), "bird": (66, 146, 226), "fish": (40, 176, 148)}
"""The colour of each ship's symbol: its emblem, its Talisman cards."""

TRIBE_LETTERS: dict[str, str] = {
    "rats": "R",
    "raccoons": "Rc",
    "cockroaches": "Co",
    "weasels": "W",
    "snails": "S",
    "toads": "T",
}
"""The letter on each figure (Co, not C, which is the captain's space)."""

TOKEN_GROUP: dict[str, t.RGB] = {
    "fries": (214, 52, 44),
    "noodles": (236, 186, 40),
    "burger": (150, 96, 52),
    "teddy": (146, 78, 196),
    "doll": (146, 78, 196),
    "tincan": (140, 148, 160),
    "ketchup": (214, 52, 44),
    "chili": (236, 186, 40),
    "milkshake": (150, 96, 52),
    "parrot": (146, 78, 196),
    "opener": (140, 148, 160),
}
"""The colour group of each token (a bonus token has the colour of the booty it combines with)."""

SHORT_NAMES: dict[str, str] = {
    "fries": "Fries",
    "noodles": "Noodles",
    "burger": "Burger",
    "teddy": "Teddy",
    "doll": "Doll",
    "tincan": "Tin can",
    "ketchup": "Ketchup",
    "chili": "Chili",
    "milkshake": "Shake",
    "parrot": "Parrot",
    "opener": "Opener",
}
BONUS_EFFECT: dict[str, str] = {
    "ketchup": "+5/fries",
    "chili": "+4/noodle",
    "milkshake": "+3/burger",
    "parrot": "toys, +1",
    "opener": "opens can",
}
"""What each bonus token does, short enough to sit under its name."""
STAR_TYPES = frozenset({"teddy", "doll", "tincan"})
"""Booty that counts only with its bonus: its value is printed in a star, the others' in a circle."""

CATEGORY_TYPES: dict[str, tuple[str, ...]] = {
    **{name: (booty, bonus) for booty, bonus, _, name in FOOD},
    "Toys": ("teddy", "doll", "parrot"),
    "Tin cans": ("tincan", "opener"),
}
"""The tokens behind each category of :func:`games.sewerpirats.scoring.breakdown`, in scoring order."""
CATEGORY_LABELS: dict[str, str] = {
    "French fries": "Fries",
    "Chinese noodles": "Noodles",
    "Hamburgers": "Burgers",
    "Toys": "Toys",
    "Tin cans": "Tin cans",
}
TOKEN_ORDER = {kind: i for i, kind in enumerate(k for kinds in CATEGORY_TYPES.values() for k in kinds)}

VARIANT_LABELS = {"standard": "STANDARD", "landlubber": "LANDLUBBER", "auction": "CREW AUCTION"}
_TAGS = {
    "crew": "CHOOSES A TRIBE",
    "auction": "AUCTION",
    "action": "TAKES AN ACTION",
    "draw": "SECOND CARD",
    "discard": "DISCARDS",
    "snail": "SNAIL REVEAL?",
    "weasel": "WEASEL AGAIN?",
    "seize": "SEIZES A TOKEN",
    "final": "SEIZES A TOKEN",
    "toad": "TOAD: SEIZE OR STAY",
}
"""The tag on the panel of the player to act, by phase."""
_SAILING = re.compile(r"from the (\w+) ship|Toad on (\w+) ")


# ====================================================================== icons
def _dark(c: t.RGB, k: float = 0.35) -> t.RGB:
    return t.mix(c, t.OUTLINE, k)


def _light(c: t.RGB, k: float = 0.5) -> t.RGB:
    return t.mix(c, WHITE, k)


def _paint_cat(d: ImageDraw.ImageDraw, p: Unit, k: float, c: t.RGB) -> None:
    pink = (246, 160, 176)
    d.polygon(p(10, 46, 16, 2, 48, 26), fill=c)
    d.polygon(p(90, 46, 84, 2, 52, 26), fill=c)
    d.polygon(p(18, 36, 20, 14, 38, 28), fill=pink)
    d.polygon(p(82, 36, 80, 14, 62, 28), fill=pink)
    d.ellipse(p(8, 18, 92, 94), fill=c)
    for x in (42, 50, 58):  # tabby stripes
        d.line(p(x, 20, x + (x - 50) * 0.2, 34), fill=_dark(c, 0.45), width=round(4 * k))
    for ex in (32, 68):
        d.ellipse(p(ex - 10, 44, ex + 10, 62), fill=(206, 226, 70))
        d.ellipse(p(ex - 3, 45, ex + 3, 61), fill=(20, 20, 20))
    d.polygon(p(44, 66, 56, 66, 50, 73), fill=pink)
    d.line(p(50, 73, 43, 80), fill=t.OUTLINE, width=round(2.5 * k))
    d.line(p(50, 73, 57, 80), fill=t.OUTLINE, width=round(2.5 * k))
    for y1, y2 in ((70, 64), (75, 76)):
        d.line(p(36, y1, 0, y2), fill=(250, 250, 250), width=round(2.5 * k))
        d.line(p(64, y1, 100, y2), fill=(250, 250, 250), width=round(2.5 * k))


def _paint_bird(d: ImageDraw.ImageDraw, p: Unit, k: float, c: t.RGB) -> None:
    d.polygon(p(26, 56, 0, 40, 2, 74, 30, 74), fill=_dark(c, 0.3))  # tail
    d.line(p(46, 84, 42, 98), fill=(240, 150, 40), width=round(4 * k))
    d.line(p(58, 84, 60, 98), fill=(240, 150, 40), width=round(4 * k))
    d.ellipse(p(16, 36, 80, 88), fill=c)
    d.ellipse(p(30, 58, 72, 86), fill=_light(c, 0.55))  # breast
    d.ellipse(p(50, 10, 90, 50), fill=c)
    d.polygon(p(86, 24, 100, 33, 86, 40), fill=(246, 176, 40))
    d.ellipse(p(68, 20, 80, 32), fill=WHITE)
    d.ellipse(p(72, 23, 78, 30), fill=(20, 20, 20))
    d.chord(p(18, 34, 66, 76), 150, 330, fill=_dark(c, 0.28))  # wing


def _paint_fish(d: ImageDraw.ImageDraw, p: Unit, k: float, c: t.RGB) -> None:
    d.polygon(p(0, 18, 30, 50, 0, 82, 10, 50), fill=_dark(c, 0.25))  # tail
    d.polygon(p(36, 30, 54, 8, 72, 30), fill=_dark(c, 0.25))  # dorsal fin
    d.ellipse(p(16, 22, 98, 80), fill=c)
    d.chord(p(16, 22, 98, 80), 20, 160, fill=_light(c, 0.45))  # pale belly
    d.arc(p(50, 30, 72, 72), -70, 70, fill=_dark(c, 0.45), width=round(3.5 * k))  # gill
    for x in (30, 40):
        d.arc(p(x, 38, x + 14, 58), -60, 60, fill=_dark(c, 0.3), width=round(3 * k))
    d.ellipse(p(74, 36, 88, 50), fill=WHITE)
    d.ellipse(p(79, 39, 86, 47), fill=(20, 20, 20))
    d.line(p(88, 62, 97, 60), fill=_dark(c, 0.5), width=round(3 * k))


def _paint_raccoon(d: ImageDraw.ImageDraw, p: Unit, k: float, c: t.RGB) -> None:
    mask, white = (36, 32, 36), (246, 244, 240)
    for ex in (22, 78):
        d.ellipse(p(ex - 16, 4, ex + 16, 38), fill=c)
        d.ellipse(p(ex - 8, 12, ex + 8, 30), fill=mask)
    d.polygon(p(0, 62, 14, 30, 50, 16, 86, 30, 100, 62, 50, 98), fill=c)
    d.ellipse(p(16, 22, 84, 80), fill=c)
    d.polygon(p(20, 34, 50, 44, 80, 34, 74, 44, 50, 50, 26, 44), fill=white)  # brows
    d.polygon(p(6, 58, 22, 44, 50, 54, 78, 44, 94, 58, 74, 70, 50, 62, 26, 70), fill=mask)
    for ex in (32, 68):
        d.ellipse(p(ex - 6, 50, ex + 6, 62), fill=(250, 250, 250))
        d.ellipse(p(ex - 3, 53, ex + 3, 60), fill=(10, 10, 10))
    d.polygon(p(34, 66, 66, 66, 58, 90, 42, 90), fill=white)  # muzzle
    d.ellipse(p(42, 80, 58, 92), fill=mask)


def _paint_cockroach(d: ImageDraw.ImageDraw, p: Unit, k: float, c: t.RGB) -> None:
    leg, w = _dark(c, 0.55), round(4.5 * k)
    for side in (1, -1):

        def x(v: float, side: int = side) -> float:
            return 50 + side * v

        d.line(p(x(14), 46, x(34), 34, x(42), 22), fill=leg, width=w, joint="curve")
        d.line(p(x(14), 60, x(38), 60, x(48), 72), fill=leg, width=w, joint="curve")
        d.line(p(x(14), 74, x(32), 88, x(38), 100), fill=leg, width=w, joint="curve")
        d.line(p(x(4), 14, x(18), 4, x(40), 0), fill=leg, width=round(3 * k), joint="curve")
    d.ellipse(p(28, 30, 72, 98), fill=c)
    d.ellipse(p(29, 14, 71, 44), fill=_light(c, 0.18))  # shield
    d.ellipse(p(40, 6, 60, 22), fill=_dark(c, 0.4))  # head
    d.line(p(50, 44, 50, 96), fill=_dark(c, 0.5), width=round(3 * k))
    d.arc(p(34, 46, 60, 92), 160, 220, fill=_light(c, 0.5), width=round(3 * k))


def _paint_weasel(d: ImageDraw.ImageDraw, p: Unit, k: float, c: t.RGB) -> None:
    cream = (246, 232, 204)
    d.line(p(14, 52, 6, 40, 2, 24), fill=_dark(c, 0.3), width=round(8 * k), joint="curve")  # long tail
    d.ellipse(p(-2, 16, 8, 30), fill=_dark(c, 0.5))
    for x0 in (14, 24, 60, 70):
        d.rounded_rectangle(p(x0, 60, x0 + 8, 76), radius=3 * k, fill=_dark(c, 0.2))
    d.rounded_rectangle(p(8, 46, 82, 66), radius=10 * k, fill=c)  # a long, low body
    d.chord(p(20, 54, 76, 70), 0, 180, fill=cream)
    d.ellipse(p(70, 34, 96, 58), fill=c)
    d.polygon(p(88, 42, 100, 50, 88, 56), fill=c)  # snout
    d.chord(p(74, 46, 98, 62), 0, 180, fill=cream)
    d.ellipse(p(96, 46, 101, 51), fill=(20, 20, 20))
    d.ellipse(p(70, 30, 80, 40), fill=c)
    d.ellipse(p(73, 33, 78, 38), fill=(236, 150, 160))
    d.ellipse(p(84, 40, 89, 45), fill=(20, 20, 20))


def _paint_snail(d: ImageDraw.ImageDraw, p: Unit, k: float, c: t.RGB) -> None:
    body = (176, 184, 132)
    d.line(p(80, 54, 74, 24), fill=_dark(body, 0.2), width=round(4 * k))
    d.line(p(88, 54, 96, 26), fill=_dark(body, 0.2), width=round(4 * k))
    d.ellipse(p(69, 18, 79, 28), fill=(30, 30, 30))
    d.ellipse(p(91, 20, 100, 30), fill=(30, 30, 30))
    d.rounded_rectangle(p(4, 72, 98, 90), radius=9 * k, fill=body)
    d.ellipse(p(70, 46, 98, 84), fill=body)
    d.ellipse(p(10, 18, 76, 84), fill=c)
    pts: list[float] = []
    for i in range(60):  # the shell's spiral
        a = i / 59 * 3.2 * math.pi
        r = 2 + 27 * i / 59
        pts += [44 + r * math.cos(a), 51 + r * math.sin(a)]
    d.line(p(*pts), fill=_dark(c, 0.45), width=round(4 * k), joint="curve")


def _paint_toad(d: ImageDraw.ImageDraw, p: Unit, k: float, c: t.RGB) -> None:
    for x0 in (2, 70):
        d.ellipse(p(x0, 78, x0 + 28, 98), fill=_dark(c, 0.15))
    d.ellipse(p(4, 32, 96, 94), fill=c)
    d.ellipse(p(26, 62, 74, 94), fill=(206, 224, 150))
    for ex in (28, 72):
        d.ellipse(p(ex - 17, 12, ex + 17, 46), fill=c)
        d.ellipse(p(ex - 11, 18, ex + 11, 40), fill=(236, 204, 60))
        d.ellipse(p(ex - 8, 25, ex + 8, 33), fill=(16, 16, 16))
    d.arc(p(16, 36, 84, 70), 25, 155, fill=_dark(c, 0.55), width=round(3.5 * k))
    for x, y in ((16, 58), (84, 56), (22, 74), (78, 74), (50, 40)):
        d.ellipse(p(x - 3.5, y - 3.5, x + 3.5, y + 3.5), fill=_dark(c, 0.25))


def _paint_fries(d: ImageDraw.ImageDraw, p: Unit, k: float, c: t.RGB) -> None:
    gold, edge = (252, 208, 72), (196, 140, 30)
    for x0, x1, top in ((30, 22, 12), (40, 36, 4), (50, 52, 10), (60, 66, 2), (70, 80, 14), (46, 44, 0)):
        d.line(p(x0, 60, x1, top), fill=edge, width=round(11 * k))
        d.line(p(x0, 60, x1, top + 1.5), fill=gold, width=round(7 * k))
    d.polygon(p(14, 38, 86, 38, 76, 98, 24, 98), fill=c)
    d.chord(p(30, 30, 70, 58), 0, 180, fill=_light(c, 0.15))
    d.polygon(p(38, 62, 50, 84, 62, 62, 56, 62, 50, 74, 44, 62), fill=(252, 208, 72))


def _paint_noodles(d: ImageDraw.ImageDraw, p: Unit, k: float, c: t.RGB) -> None:
    bowl = (204, 62, 48)
    d.line(p(58, 2, 40, 58), fill=(120, 76, 36), width=round(5 * k))
    d.line(p(76, 6, 50, 58), fill=(120, 76, 36), width=round(5 * k))
    d.chord(p(12, 22, 88, 72), 180, 360, fill=c)
    for i in range(4):  # noodle waves
        y = 34 + i * 6
        pts = [v for x in range(16 + i * 3, 85 - i * 3, 4) for v in (x, y + 3 * math.sin(x / 3.5))]
        d.line(p(*pts), fill=_dark(c, 0.3), width=round(2.5 * k))
    d.chord(p(4, 6, 96, 98), 0, 180, fill=bowl)
    d.rectangle(p(4, 50, 96, 56), fill=_light(bowl, 0.55))
    d.rectangle(p(36, 90, 64, 98), fill=_dark(bowl, 0.2))


def _paint_burger(d: ImageDraw.ImageDraw, p: Unit, k: float, c: t.RGB) -> None:
    d.rounded_rectangle(p(10, 70, 90, 92), radius=8 * k, fill=c)
    d.rounded_rectangle(p(8, 56, 92, 72), radius=7 * k, fill=(96, 52, 28))  # patty
    d.polygon(p(10, 56, 90, 56, 80, 66, 64, 58, 50, 68, 36, 58, 20, 66), fill=(250, 200, 40))  # cheese
    wave = [v for x in range(94, 5, -8) for v in (x, 52 + 5 * (x // 8 % 2))]
    d.polygon(p(6, 44, 94, 44, *wave), fill=(92, 180, 60))  # lettuce
    d.chord(p(8, 6, 92, 88), 180, 360, fill=_light(c, 0.12))
    for x, y in ((30, 22), (50, 16), (68, 24), (40, 34), (60, 36)):
        d.ellipse(p(x - 3.5, y - 2, x + 3.5, y + 2), fill=(252, 244, 220))


def _paint_teddy(d: ImageDraw.ImageDraw, p: Unit, k: float, c: t.RGB) -> None:
    light = _light(c, 0.45)
    for ex in (22, 78):
        d.ellipse(p(ex - 12, 2, ex + 12, 26), fill=c)
        d.ellipse(p(ex - 6, 8, ex + 6, 20), fill=light)
    d.ellipse(p(6, 54, 30, 78), fill=c)
    d.ellipse(p(70, 54, 94, 78), fill=c)
    d.ellipse(p(22, 48, 78, 98), fill=c)
    d.ellipse(p(34, 60, 66, 92), fill=light)
    d.ellipse(p(18, 6, 82, 60), fill=c)
    d.ellipse(p(36, 32, 64, 56), fill=light)
    d.ellipse(p(44, 34, 56, 42), fill=(40, 24, 16))
    for ex in (36, 64):
        d.ellipse(p(ex - 4, 22, ex + 4, 30), fill=(30, 20, 14))
    d.polygon(p(38, 58, 50, 63, 62, 58, 62, 68, 50, 63, 38, 68), fill=(214, 52, 60))  # bow tie


def _paint_doll(d: ImageDraw.ImageDraw, p: Unit, k: float, c: t.RGB) -> None:
    skin, hair = (252, 216, 184), (238, 150, 48)
    d.rectangle(p(38, 84, 46, 100), fill=skin)
    d.rectangle(p(54, 84, 62, 100), fill=skin)
    d.line(p(34, 52, 14, 70), fill=skin, width=round(7 * k))
    d.line(p(66, 52, 86, 70), fill=skin, width=round(7 * k))
    d.polygon(p(50, 40, 86, 90, 14, 90), fill=c)
    d.polygon(p(38, 44, 62, 44, 50, 56), fill=WHITE)  # collar
    d.ellipse(p(12, 12, 34, 36), fill=hair)  # pigtails
    d.ellipse(p(66, 12, 88, 36), fill=hair)
    d.ellipse(p(26, 0, 74, 46), fill=hair)
    d.ellipse(p(31, 8, 69, 46), fill=skin)
    d.chord(p(28, 2, 72, 30), 180, 360, fill=hair)  # fringe
    for ex in (42, 58):
        d.ellipse(p(ex - 3, 24, ex + 3, 30), fill=(30, 30, 30))
        d.ellipse(p(ex - 8 + (ex > 50) * 8, 31, ex + (ex > 50) * 8, 37), fill=(248, 150, 160))
    d.arc(p(43, 30, 57, 40), 20, 160, fill=(190, 40, 60), width=round(2.5 * k))


def _paint_tincan(d: ImageDraw.ImageDraw, p: Unit, k: float, c: t.RGB) -> None:
    label = (206, 62, 50)
    d.ellipse(p(16, 80, 84, 98), fill=_dark(c, 0.2))
    d.rectangle(p(16, 14, 84, 89), fill=c)
    d.rectangle(p(16, 36, 84, 72), fill=label)
    d.chord(p(16, 62, 84, 82), 0, 180, fill=label)
    d.ellipse(p(36, 42, 64, 64), fill=(252, 228, 160))
    d.rectangle(p(22, 18, 28, 86), fill=_light(c, 0.45))  # shine
    d.ellipse(p(16, 4, 84, 24), fill=_light(c, 0.3))
    d.ellipse(p(22, 7, 78, 21), fill=_dark(c, 0.1))


def _paint_ketchup(d: ImageDraw.ImageDraw, p: Unit, k: float, c: t.RGB) -> None:
    d.polygon(p(44, 10, 50, 0, 56, 10), fill=(250, 250, 250))
    d.rectangle(p(38, 8, 62, 22), fill=(250, 250, 250))
    d.polygon(p(30, 30, 38, 20, 62, 20, 70, 30), fill=c)
    d.rounded_rectangle(p(24, 26, 76, 98), radius=12 * k, fill=c)
    d.rounded_rectangle(p(30, 46, 70, 80), radius=6 * k, fill=(252, 244, 226))
    d.ellipse(p(40, 52, 60, 74), fill=c)
    d.polygon(p(46, 52, 50, 46, 54, 52, 50, 56), fill=(70, 160, 60))
    d.rectangle(p(30, 30, 35, 90), fill=_light(c, 0.35))


def _paint_chili(d: ImageDraw.ImageDraw, p: Unit, k: float, c: t.RGB) -> None:
    green = (70, 150, 50)
    d.line(p(66, 20, 72, 10, 86, 4), fill=green, width=round(6 * k), joint="curve")
    for i in range(30):  # a tapering pepper along a curve
        u = i / 29
        x = (1 - u) ** 2 * 64 + 2 * (1 - u) * u * 72 + u * u * 10
        y = (1 - u) ** 2 * 28 + 2 * (1 - u) * u * 84 + u * u * 92
        r = 15 * (1 - u) + 3
        d.ellipse(p(x - r, y - r, x + r, y + r), fill=c)
    d.polygon(p(50, 20, 66, 14, 82, 22, 72, 32, 58, 32), fill=green)
    d.arc(p(38, 30, 80, 88), 100, 150, fill=_light(c, 0.55), width=round(4 * k))


def _paint_milkshake(d: ImageDraw.ImageDraw, p: Unit, k: float, c: t.RGB) -> None:
    d.line(p(58, 26, 74, 0), fill=(220, 50, 60), width=round(6 * k))
    d.polygon(p(20, 34, 80, 34, 68, 92, 32, 92), fill=c)
    for y in (50, 66):
        d.line(p(24 + (y - 34) * 0.2, y, 76 - (y - 34) * 0.2, y), fill=_light(c, 0.5), width=round(4 * k))
    d.rectangle(p(34, 90, 66, 98), fill=_dark(c, 0.2))
    for x0, y0 in ((16, 20), (36, 12), (54, 20)):
        d.ellipse(p(x0, y0, x0 + 30, y0 + 22), fill=(252, 248, 240))
    d.ellipse(p(42, 2, 56, 16), fill=(214, 30, 50))


def _paint_parrot(d: ImageDraw.ImageDraw, p: Unit, k: float, c: t.RGB) -> None:
    red, blue = (226, 48, 40), (50, 110, 220)
    d.polygon(p(40, 70, 60, 70, 66, 100, 36, 100), fill=blue)  # tail
    d.ellipse(p(26, 30, 74, 84), fill=c)
    d.chord(p(38, 38, 80, 84), 270, 90, fill=_dark(c, 0.25))  # wing
    d.chord(p(44, 62, 78, 86), 270, 90, fill=red)
    d.ellipse(p(22, 4, 66, 48), fill=red)
    d.polygon(p(26, 16, 6, 24, 10, 40, 24, 36), fill=(250, 220, 80))  # beak
    d.polygon(p(12, 30, 10, 40, 22, 36), fill=(40, 40, 40))
    d.ellipse(p(32, 14, 48, 30), fill=WHITE)
    d.ellipse(p(37, 18, 45, 26), fill=(20, 20, 20))
    d.line(p(10, 88, 90, 88), fill=(130, 84, 40), width=round(6 * k))


def _paint_opener(d: ImageDraw.ImageDraw, p: Unit, k: float, c: t.RGB) -> None:
    grip = (196, 50, 44)
    d.rounded_rectangle(p(40, 42, 60, 100), radius=8 * k, fill=grip)
    d.rectangle(p(42, 40, 58, 50), fill=_dark(c, 0.2))
    teeth = []
    for i in range(16):
        a = i / 16 * 2 * math.pi
        r = 22 if i % 2 == 0 else 17
        teeth += [50 + r * math.cos(a), 22 + r * math.sin(a)]
    d.polygon(p(*teeth), fill=c)
    d.ellipse(p(40, 12, 60, 32), fill=_dark(c, 0.3))
    d.ellipse(p(45, 17, 55, 27), fill=_light(c, 0.4))
    d.polygon(p(68, 30, 96, 18, 74, 42), fill=_light(c, 0.25))  # blade
    d.line(p(44, 60, 44, 94), fill=_light(grip, 0.35), width=round(3 * k))


def _paint_hat(d: ImageDraw.ImageDraw, p: Unit, k: float, c: t.RGB) -> None:
    gold, bone = (240, 196, 70), (240, 236, 226)
    d.chord(p(18, 6, 82, 96), 180, 360, fill=c)  # crown
    brim = (0, 30, 16, 52, 50, 58, 84, 52, 100, 30, 96, 62, 50, 80, 4, 62)
    d.polygon(p(*brim), fill=c)
    d.line(p(0, 30, 16, 52, 50, 58, 84, 52, 100, 30), fill=gold, width=round(5 * k), joint="curve")
    d.ellipse(p(41, 18, 59, 36), fill=bone)  # skull and bones
    d.rectangle(p(45, 32, 55, 40), fill=bone)
    for ex in (46.5, 53.5):
        d.ellipse(p(ex - 3, 23, ex + 3, 29), fill=c)
    d.line(p(34, 36, 66, 46), fill=bone, width=round(3.5 * k))
    d.line(p(34, 46, 66, 36), fill=bone, width=round(3.5 * k))


_ICONS: dict[str, tuple[t.Painter, t.RGB]] = {
    "cat": (_paint_cat, SHIP_COLOURS["cat"]),
    "bird": (_paint_bird, SHIP_COLOURS["bird"]),
    "fish": (_paint_fish, SHIP_COLOURS["fish"]),
    "raccoons": (_paint_raccoon, (150, 144, 140)),
    "cockroaches": (_paint_cockroach, (136, 70, 30)),
    "weasels": (_paint_weasel, (200, 120, 50)),
    "snails": (_paint_snail, (232, 160, 52)),
    "toads": (_paint_toad, (96, 164, 62)),
    "fries": (_paint_fries, (214, 44, 40)),
    "noodles": (_paint_noodles, (246, 210, 80)),
    "burger": (_paint_burger, (210, 140, 66)),
    "teddy": (_paint_teddy, (176, 114, 60)),
    "doll": (_paint_doll, (164, 84, 206)),
    "tincan": (_paint_tincan, (186, 192, 202)),
    "ketchup": (_paint_ketchup, (214, 36, 36)),
    "chili": (_paint_chili, (224, 40, 30)),
    "milkshake": (_paint_milkshake, (246, 160, 196)),
    "parrot": (_paint_parrot, (52, 172, 72)),
    "opener": (_paint_opener, (178, 186, 198)),
    "hat": (_paint_hat, (44, 36, 44)),
}
"""Each icon's painter and natural colour; registered with the theme as ``"sp-<name>"``."""
for _name, (_painter, _colour) in _ICONS.items():
    t.register_icon(f"sp-{_name}", _painter, _colour)


def icon(name: str, size: int) -> Image.Image:
    """A Sewer Pirats icon: a ship symbol, a tribe (rats use the shared rat), a token type or "hat"."""
    return t.icon("rat" if name == "rats" else f"sp-{name}", size)


_FADED: dict[tuple[int, int], tuple[Image.Image, Image.Image]] = {}


def _faded(img: Image.Image, percent: int) -> Image.Image:
    """A cached image (an icon, a card, a tile) at ``percent`` opacity, itself cached. The entry keeps
    the original alive, so its ``id`` cannot be reused while the entry exists."""
    hit = _FADED.get((id(img), percent))
    if hit is not None and hit[0] is img:
        return hit[1]
    out = img.copy()
    out.putalpha(out.getchannel("A").point(lambda a: a * percent // 100))
    if len(_FADED) > 256:
        _FADED.clear()
    _FADED[(id(img), percent)] = (img, out)
    return out


# ====================================================================== figures, tokens, cards
def _names(names: Sequence[str], seats: int) -> list[str]:
    """Drawable names for every seat, "Seat N" where a name is missing or has nothing drawable."""
    return [(t.clean_name(names[s]) if s < len(names) else "") or f"Seat {s + 1}" for s in range(seats)]


@lru_cache(maxsize=128)
def figure(tribe: str, owner: int | None, size: int) -> Image.Image:
    """A figure token: a disc with its owner's colour as a thick ring (wood at the bar), the tribe's
    drawn icon on parchment inside and the tribe's letter on a tab at the bottom."""
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
    t.paste(img, icon(tribe, round(inner * 0.86)), (size / 2, size / 2 - inner * 0.08), "mm")
    letter = TRIBE_LETTERS[tribe]
    fnt = t.font(max(12, round(size * 0.27)), condensed=True)
    h = round(size * 0.34)
    w = round(t.text_width(letter, fnt)) + h // 2 + 4
    tab = t.rounded(w, h, h // 2, colour.fill, colour.edge, 2)
    x, y = (size - w) // 2, size - h
    img.alpha_composite(tab, (x, y))
    t.text(img, (size / 2, y + h / 2), letter, fnt, colour.text, anchor="mm")
    return img


@lru_cache(maxsize=64)
def _badge(value: int, star: bool, d: int) -> Image.Image:
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
    px = round(d * (0.5 if len(label) > 1 else 0.6) * (0.9 if star else 1))
    t.text(img, (d / 2, d / 2 + 0.5), label, t.font(px, bold=True, condensed=len(label) > 1), t.INK, anchor="mm")
    return img


@lru_cache(maxsize=128)
def token(kind: str, size: int) -> Image.Image:
    """A token without its value: booty a rounded square, bonus a disc, tinted with its colour group."""
    group = TOKEN_GROUP[kind]
    fill, edge = t.mix(group, WHITE, 0.62), t.mix(group, t.OUTLINE, 0.35)
    if kind in BOOTY:
        img = t.rounded(size, size, max(6, size // 7), fill, edge, 3).copy()
    else:
        s = 3
        big = Image.new("RGBA", (size * s, size * s), (0, 0, 0, 0))
        draw = ImageDraw.Draw(big)
        draw.ellipse((0, 0, size * s - 1, size * s - 1), fill=edge)
        draw.ellipse((3 * s, 3 * s, (size - 3) * s, (size - 3) * s), fill=fill)
        img = big.resize((size, size), Image.Resampling.BOX)
    t.paste(img, icon(kind, round(size * (0.76 if kind in BOOTY else 0.7))), (size / 2, size / 2), "mm")
    return img


@lru_cache(maxsize=256)
def tile(kind: str, value: int, size: int) -> Image.Image:
    """A compact token with its value badge over the bottom-right corner (hand and final images)."""
    d = round(size * 0.58)
    over = d // 2
    img = Image.new("RGBA", (size + over * (kind in BOOTY), size + over // 2), (0, 0, 0, 0))
    img.alpha_composite(token(kind, size), (0, 0))
    if kind in BOOTY:
        img.alpha_composite(_badge(value, kind in STAR_TYPES, d), (size + over - d, size + over // 2 - d))
    return img


CARD_W, CARD_H = 84, 116


@lru_cache(maxsize=16)
def talisman(symbol: str, w: int = CARD_W, h: int = CARD_H) -> Image.Image:
    """A face-up Talisman card: the ship's symbol on a tint of its colour, its name underneath."""
    colour = SHIP_COLOURS[symbol]
    face = t.card(w, h, t.mix(colour, t.PARCHMENT, 0.72), t.mix(colour, t.OUTLINE, 0.4), 3).copy()
    t.paste(face, icon(symbol, round(w * 0.74)), (w / 2, h * 0.42), "mm")
    label_font = t.font(max(14, round(w * 0.22)), condensed=True)
    t.text(face, (w / 2, h - h * 0.15), symbol.upper(), label_font, t.mix(colour, t.OUTLINE, 0.6), anchor="mm")
    return face


# ====================================================================== board layout
W = 1140
M = 20
INNER = W - 2 * M
HEADER_Y = 36
BANNER_Y, BANNER_H = 66, 44
TOP_Y = BANNER_Y + BANNER_H + 18
ROW_H, ROW_GAP = 170, 12
HULL_W = 500
SLOT_X0, SLOT_STEP, SLOT_W = 106, 88, 80
FIG = 76
GROUP_X0 = M + HULL_W + 14
GROUP_W = (W - M - GROUP_X0 - 12) // 2
GROUP_H = ROW_H - 14
INSET = 8
"""Cached contents are opaque and pasted this far inside their rounded panel, to skip alpha blending."""
CELL_W = (GROUP_W - 2 * INSET - 4 - 8) // 2
STRIP_H = 168
ROW_PANEL_W = 650
PLAYER_H, PLAYER_GAP = 160, 14
EVENT_LINES = 3
BAR_CELL_H = 124
PICKS_H = 172


def _top_height(view: View) -> tuple[str, int]:
    """The optional panel between the banner and the ships: the auction bar or the landlubber picks."""
    if view.get("auction") is not None:
        return "bar", 62 + _bar_rows(len(view["auction"]["bar"])) * BAR_CELL_H + 52
    if view["phase"] == "crew":
        return "picks", PICKS_H
    return "", 0


def _bar_rows(stools: int) -> int:
    return 1 if stools <= 12 else 2


def _row_y(top: int, i: int) -> int:
    """Top of ship ``i``'s row (``top``: the height of the bar / picks panel, or 0)."""
    return TOP_Y + (top + 24 if top else 0) + i * (ROW_H + ROW_GAP)


def _strip_y(top: int) -> int:
    return _row_y(top, 3) + 6


def _players_y(top: int) -> int:
    return _strip_y(top) + STRIP_H + 38  # room for the tag above the panel of the player to act


def player_box(seats: int, top: int, i: int) -> t.Box:
    """The panel of seat ``i`` on the board: all players side by side in one row."""
    w = (INNER - (seats - 1) * PLAYER_GAP) // seats
    x = M + i * (w + PLAYER_GAP)
    y = _players_y(top)
    return x, y, x + w, y + PLAYER_H


def _events_y(top: int) -> int:
    return _players_y(top) + PLAYER_H + 22


def _events_height(lines: int) -> int:
    return 20 + lines * 34 + 96


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


def _pool_cx(k: int) -> int:
    return M + ROW_PANEL_W + 16 + 80 + k * 138


@lru_cache(maxsize=2)
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


@lru_cache(maxsize=4)
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


@lru_cache(maxsize=2)
def _hatch(captain: bool) -> Image.Image:
    """An empty deck space: a hatch, or the gold captain's space C with a faint captain's hat."""
    h = ROW_H - 26
    fill = t.mix(CAPTAIN_GOLD, DECK, 0.35) if captain else HATCH
    border = t.GOLD_DEEP if captain else DECK_LINE
    img = t.rounded(SLOT_W, h, 12, fill, t.mix(border, t.OUTLINE, 0.3), 3).copy()
    if captain:
        t.paste(img, _faded(icon("hat", 52), 35), (SLOT_W / 2, 30 + (h - 30) / 2), "mm")
    return img


@lru_cache(maxsize=4)
def _space_tab(space: int) -> Image.Image:
    """The label of a deck space: 1, 2, 3 on parchment, C white on red."""
    label = "C" if space == 3 else str(space + 1)
    fill, ink = ((176, 36, 36), WHITE) if space == 3 else (t.PARCHMENT, t.INK)
    img = Image.new("RGBA", (44, 30), (0, 0, 0, 0))
    t.pill(img, (22, 1), label, t.font(22, bold=True), fill, ink, border=t.OUTLINE, align="center", height=28)
    return img


@lru_cache(maxsize=16)
def _board_layer(seats: int, top: int, lines: int) -> Image.Image:
    """Everything on the board that depends only on the layout. Shared and read-only: copy before use."""
    ey = _events_y(top)
    img = t.new_canvas(W, ey + _events_height(lines) + M)
    # Title.
    t.paste(img, t.icon("rat", 50), (M - 2, HEADER_Y - 26))
    t.text(img, (M + 56, HEADER_Y), "SEWER PIRATS", t.font(40, bold=True), t.GOLD, anchor="lm", shadow=(0, 0, 0))
    # Ships: hull, emblem and name, deck spaces with their labels; the flotsam groups' frames.
    for i, ship in enumerate(SHIPS):
        y = _row_y(top, i)
        t.paste(img, _hull(), (M, y + 2))
        t.paste(img, _medallion(ship), (M + 54, y + ROW_H / 2 - 14), "mm")
        name_font = t.font(22, bold=True)
        t.text(
            img,
            (M + 54, y + ROW_H - 30),
            ship.upper(),
            name_font,
            t.PARCHMENT,
            anchor="mm",
            outline=WOOD_DARK,
        )
        for space in range(4):
            x0, y0, x1, _ = slot_box(top, i, space)
            t.paste(img, _hatch(space == 3), (x0, y0))
            t.paste(img, _space_tab(space), ((x0 + x1) / 2, y0 + 16), "mm")
        for which in range(2):
            t.panel(img, group_box(top, i, which), radius=14)
    # Talisman row, piles and pools.
    sy = _strip_y(top)
    head = t.font(22, bold=True)
    t.panel(img, (M, sy, M + ROW_PANEL_W, sy + STRIP_H))
    t.text(img, (M + 20, sy + 22), "TALISMAN ROW", head, t.INK, anchor="lm")
    for k, label in enumerate(("DECK", "DISCARD")):
        t.text(img, (_pile_cx(k), sy + 22), label, head, t.INK, anchor="mm")
    t.panel(img, (M + ROW_PANEL_W + 16, sy, W - M, sy + STRIP_H))
    t.text(img, (M + ROW_PANEL_W + 36, sy + 22), "LEFT IN THE POOLS", head, t.INK, anchor="lm")
    for k, label in enumerate(("booty", "bonus", "groups")):
        t.paste(img, _pool_icon(k), (_pool_cx(k) - 30, sy + 84), "mm")
        t.text(img, (_pool_cx(k), sy + STRIP_H - 24), label, t.font(22, condensed=True), t.INK_SOFT, anchor="mm")
    # Player panels.
    for i in range(seats):
        t.panel(img, player_box(seats, top, i))
    # Recent events and the legend.
    t.panel(img, (M, ey, W - M, ey + _events_height(lines)), fill=NIGHT)
    ly = ey + _events_height(lines) - 76
    ImageDraw.Draw(img).line((M + 20, ly - 14, W - M - 20, ly - 14), fill=(40, 70, 86), width=2)
    tribes = [(icon(tr, 32), f"{TRIBE_LETTERS[tr]} {TRIBE_SINGULAR[tr].lower()}") for tr in TRIBES]
    t.legend(img, (M + 22, ly + 6), tribes, t.font(20), t.MIST, gap=20)
    kinds = [
        (token("fries", 30), "booty (square)"),
        (token("ketchup", 30), "bonus (circle)"),
        (_badge(3, False, 28), "value"),
        (_badge(9, True, 30), "counts only with its bonus"),
        (icon("hat", 34), "captain"),
    ]
    t.legend(img, (M + 22, ly + 44), kinds, t.font(20), t.MIST, gap=22)
    return img


# ====================================================================== board drawing
def render_board(view: View, names: Sequence[str]) -> bytes:
    """The Sewer Pirats table for ``view``: the ships with their crews and flotsam, the Talisman row and
    piles, the pools, the auction bar or the tribe picks while they last, every player's public panel
    and the recent events. Reads only public fields, so every seat's view gives the same image.
    ``names[i]`` is seat ``i``'s display name. Returns PNG bytes."""
    seats = view["seats"]
    seat_names = _names(names, seats)
    top_kind, top = _top_height(view)
    events = [" ".join(format_seats(e, seat_names).split()) for e in view["events"][-EVENT_LINES:]]
    img = _board_layer(seats, top, len(events)).copy()
    _draw_header(img, view, seat_names)
    if top_kind == "bar":
        _draw_bar(img, view, seat_names)
    elif top_kind == "picks":
        _draw_picks(img, view, seat_names)
    sailing = _sailing_ship(view)
    for i, ship in enumerate(view["ships"]):
        for space, fig in enumerate(ship["spaces"]):
            if fig is not None:
                cx, cy = _slot_centre(slot_box(top, i, space))
                t.paste(img, figure(fig["tribe"], fig["owner"], FIG), (cx, cy), "mm")
                if space == 3:  # the captain wears the hat
                    t.paste(img, icon("hat", 46), (cx, cy - FIG / 2 + 2), "mm")
        for which, group in enumerate(ship["flotsam"]):
            x0, y0, _, _ = box = group_box(top, i, which)
            if group is None:
                t.paste(img, _no_group(), (x0, y0))
                continue
            img.paste(_group_image(_group_key(group), which), (x0 + INSET, y0 + INSET))
            if which == 0 and sailing == i:
                t.glow(img, box, radius=14)
    _draw_strip(img, view, top)
    for i, player in enumerate(view["players"]):
        _draw_player(img, view, player, player_box(seats, top, i), seat_names[player["seat"]])
    ey = _events_y(top)
    for n, line in enumerate(events):
        t.paste(img, _event_line(line), (M + 20, ey + 13 + n * 34))
    return t.to_png(img)


def _sailing_ship(view: View) -> int | None:
    """The ship whose bow group is being seized from, read from the pending decision."""
    if view["phase"] not in ("seize", "toad", "final") or not view["pending"]:
        return None
    match = _SAILING.search(view["pending"])
    name = match and (match.group(1) or match.group(2))
    return SHIPS.index(name) if name in SHIPS else None


def _draw_header(img: Image.Image, view: View, names: list[str]) -> None:
    x = M + 56 + t.text_width("SEWER PIRATS", t.font(40, bold=True)) + 20
    variant = VARIANT_LABELS.get(view["variant"], str(view["variant"]).upper())
    box = t.pill(
        img,
        (x, HEADER_Y - 20),
        variant,
        t.font(22, bold=True),
        (24, 64, 84),
        t.FOAM,
        border=t.GOLD,
        height=40,
    )
    if not view["abilities"]:
        box = t.pill(
            img,
            (box[2] + 10, HEADER_Y - 20),
            "NO ABILITIES",
            t.font(20, condensed=True),
            t.PARCHMENT_SHADE,
            t.INK_SOFT,
            height=40,
        )
    if view["phase"] == "final":  # the game has ended: the ships with a captain sail one last time
        t.pill(
            img,
            (box[2] + 10, HEADER_Y - 20),
            "FINAL SAILINGS",
            t.font(22, bold=True),
            t.DANGER,
            WHITE,
            icon_img=t.icon("skull", 28),
            height=40,
        )
    final = view.get("final")
    if view["phase"] == "over" and final:
        best = max((s["total"] for s in final["scores"]), default=0)
        who = " & ".join(names[w] for w in final["winners"])
        verb = "share the victory" if len(final["winners"]) > 1 else "wins"
        t.paste(img, _banner(f"Game over: {who} {verb} with {best} points", t.GOLD), (M, BANNER_Y))
    elif view["pending"]:
        t.paste(img, _banner(" ".join(format_seats(view["pending"], names).split()), t.HIGHLIGHT), (M, BANNER_Y))


@lru_cache(maxsize=64)
def _banner(status: str, colour: t.RGB) -> Image.Image:
    """The line under the title: what the player to act must decide (or the result), on a dark pill."""
    img = t.rounded(INNER, BANNER_H, BANNER_H // 2, (8, 24, 34), (40, 84, 100), 2).copy()
    fitted, fnt = t.fit_text(status, INNER - 70, 26)
    draw = ImageDraw.Draw(img)
    draw.text((22, BANNER_H / 2), "▶", font=t.font(24, bold=True), fill=colour, anchor="lm")
    draw.text((52, BANNER_H / 2), fitted, font=fnt, fill=colour, anchor="lm")
    return img


@lru_cache(maxsize=64)
def _event_line(line: str) -> Image.Image:
    """One recent event, ellipsized to the panel (the same lines come back on the next renders)."""
    img = Image.new("RGBA", (INNER - 40, 34), (*t.FOAM, 0))
    draw = ImageDraw.Draw(img)
    draw.text((4, 17), "›", font=t.font(24, bold=True), fill=t.GOLD, anchor="lm")
    fnt = t.font(22)
    draw.text((26, 17), t.ellipsize(line, fnt, INNER - 80), font=fnt, fill=t.FOAM, anchor="lm")
    return img


GroupKey = tuple[tuple[tuple[str, int], ...], str | None]


def _group_key(group: View) -> GroupKey:
    booty = tuple((b["type"], b["value"]) for b in group["booty"])
    return booty, (group["bonus"]["type"] if group["bonus"] else None)


@lru_cache(maxsize=256)
def _group_image(key: GroupKey, which: int) -> Image.Image:
    """A flotsam group's contents on parchment (opaque, for the inside of its frame): 3 booty and the
    bonus in a 2×2 grid, each token with its value (booty) or effect (bonus) and short name. A token
    already seized leaves a faint outline."""
    w, h = GROUP_W - 2 * INSET, GROUP_H - 2 * INSET
    img = Image.new("RGB", (w, h), t.PARCHMENT)
    t.pill(
        img,
        (4, 1),
        "AT THE BOW" if which == 0 else "NEXT",
        t.font(18, condensed=True),
        t.GOLD_DEEP,
        WHITE,
        height=24,
    )
    booty, bonus = key
    for i in range(4):
        x = 2 + (i % 2) * (CELL_W + 8)
        y = 32 + (i // 2) * 56
        kind = booty[i][0] if i < len(booty) else bonus if i == 3 else None
        if kind is None:
            t.paste(img, _empty_cell(i < 3), (x, y))
            continue
        t.paste(img, token(kind, 48), (x, y))
        tx, room = x + 54, CELL_W - 54
        name, fnt = t.fit_text(SHORT_NAMES[kind], room, 20, condensed=True, min_size=16)
        if i < 3:
            badge = _badge(booty[i][1], kind in STAR_TYPES, 36 if kind in STAR_TYPES else 34)
            t.paste(img, badge, (tx - 4, y - 6 - (kind in STAR_TYPES)))
            t.text(img, (tx, y + 40), name, fnt, t.INK, anchor="lm")
        else:
            t.text(img, (tx, y + 12), name, fnt, t.INK, anchor="lm")
            effect, efnt = t.fit_text(BONUS_EFFECT[kind], room, 18, bold=False, min_size=14)
            t.text(img, (tx, y + 37), effect, efnt, t.INK_SOFT, anchor="lm")
    return img


@lru_cache(maxsize=2)
def _no_group() -> Image.Image:
    """Laid over a flotsam frame with no group left: the pools are empty."""
    img = t.rounded(GROUP_W, GROUP_H, 14, NIGHT, (64, 100, 116), 2).copy()
    t.text(img, (GROUP_W / 2, GROUP_H / 2 - 14), "no group", t.font(24, bold=True), t.MIST, anchor="mm")
    t.text(img, (GROUP_W / 2, GROUP_H / 2 + 16), "the pools are empty", t.font(20), t.MIST, anchor="mm")
    return img


@lru_cache(maxsize=2)
def _empty_cell(square: bool) -> Image.Image:
    """Where a token lay before it was seized: a faint outline."""
    img = Image.new("RGBA", (48, 48), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    if square:
        draw.rounded_rectangle((2, 2, 45, 45), 7, outline=t.PARCHMENT_SHADE, width=3)
    else:
        draw.ellipse((2, 2, 45, 45), outline=t.PARCHMENT_SHADE, width=3)
    return img


def _draw_strip(img: Image.Image, view: View, top: int) -> None:
    sy = _strip_y(top)
    for k in range(4):
        x = M + 22 + k * (CARD_W + 12)
        t.paste(img, talisman(view["row"][k]) if k < len(view["row"]) else _ghost_card(), (x, sy + 38))
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


@lru_cache(maxsize=2)
def _ghost_card() -> Image.Image:
    return t.rounded(CARD_W, CARD_H, 9, None, t.PARCHMENT_SHADE, 3)


@lru_cache(maxsize=8)
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


def _draw_player(img: Image.Image, view: View, player: View, box: t.Box, name: str) -> None:
    seat = player["seat"]
    x0, y0, x1, _ = box
    crew = view["auction"]["crew_counts"][seat] if view.get("auction") is not None else None
    area = tuple(f["tribe"] for f in player["play_area"])
    note = {"crew": "no tribe yet", "auction": "no crew yet"}.get(view["phase"], "all aboard")
    content = _player_content(
        seat, name, x1 - x0, area, player["hand_count"], player["token_count"], player["captain"], crew, note
    )
    img.paste(content, (x0 + INSET, y0 + INSET))
    if seat in view["to_act"] and view["phase"] != "over":
        t.glow(img, box)
        tag = "MUST SET SAIL" if view["phase"] == "action" and player["captain"] else _TAGS.get(view["phase"], "TO ACT")
        fitted, fnt = t.fit_text(tag, x1 - x0 - 40, 20, condensed=True, min_size=16)
        t.pill(
            img,
            ((x0 + x1) / 2, y0 - 20),
            fitted,
            fnt,
            t.HIGHLIGHT,
            TAG_INK,
            border=TAG_INK,
            align="center",
            height=36,
        )


@lru_cache(maxsize=64)
def _player_content(
    seat: int,
    name: str,
    w: int,
    area: tuple[str, ...],
    hand_count: int,
    token_count: int,
    captain: str | None,
    crew: int | None,
    note: str,
) -> Image.Image:
    """A player panel's contents on parchment (opaque, for inside the frame): the name in the seat's
    colour, the figures in the play area, hand size and tokens held, and the captain's marker (hat and
    ship symbol) or the crew hired so far; ``note`` replaces an empty play area. Cached: most renders
    repeat them."""
    colour = t.PLAYER_COLOURS[seat]
    cw, ch = w - 2 * INSET, PLAYER_H - 2 * INSET
    img = Image.new("RGB", (cw, ch), t.PARCHMENT)
    fitted, fnt = t.fit_text(name, cw - 12 - 40, 26, min_size=18)
    t.pill(img, (4, 2), fitted, fnt, colour.fill, colour.text, border=colour.edge, height=42)
    # Figures in the play area.
    size = min(54, (cw - 8 - 3 * 3) // 4)  # a whole crew of 4 fits
    x, y = 6, 52 + (54 - size) // 2
    for tribe in area:
        t.paste(img, figure(tribe, seat, size), (x, y))
        x += size + 3
    if not area:  # ``note`` says why
        t.text(img, (x, y + size / 2), note, t.font(20, bold=True), t.INK_SOFT, anchor="lm")
    # Bottom row: hand size and tokens held, then the captain's marker or the crew hired so far.
    cy = ch - 22
    count_font = t.font(24, bold=True)
    counts = ((_mini_back(), hand_count, "cards"), (_pool_icon(0, 34), token_count, "tokens"))
    bare = sum(pic.width + 4 + t.text_width(str(n), count_font) + 14 for pic, n, _ in counts)
    room = cw - 8 - bare
    marker = 0
    if captain:  # as wide as the room allows: hat, ship and word; hat and ship; or the two overlapping
        marker = 196 if room - 120 >= 196 else 80 if room >= 80 else max(56, room)
    elif crew is not None and room >= t.text_width(f"crew {crew}/4", t.font(20, bold=True)) + 8:
        marker = round(t.text_width(f"crew {crew}/4", t.font(20, bold=True))) + 8
    words = room - marker - 8 >= t.text_width("cards tokens", t.font(20)) + 16
    x = 6
    for pic, n, word in counts:
        t.paste(img, pic, (x, cy - pic.height / 2))
        x += pic.width + 4
        t.text(img, (x, cy), str(n), count_font, t.INK, anchor="lm")
        x += t.text_width(str(n), count_font) + 6
        if words:
            t.text(img, (x, cy + 1), word, t.font(20), t.INK_SOFT, anchor="lm")
            x += t.text_width(word, t.font(20)) + 4
        x += 8
    if captain:
        mx = cw - 4 - marker
        t.paste(img, t.rounded(marker, 40, 20, (176, 36, 36), t.OUTLINE, 2), (mx, cy - 20))
        t.paste(img, icon("hat", 36 if marker >= 80 else 32), (mx + (24 if marker >= 80 else 20), cy - 1), "mm")
        t.paste(
            img,
            icon(captain, 32 if marker >= 80 else 26),
            (mx + (58 if marker >= 80 else marker - 16), cy + 2),
            "mm",
        )
        if marker > 80:
            t.text(img, (mx + 84, cy), "CAPTAIN", t.font(20, condensed=True), WHITE, anchor="lm")
    elif marker:
        t.text(img, (cw - 6, cy), f"crew {crew}/4", t.font(20, bold=True), t.INK_SOFT, anchor="rm")
    return img


@lru_cache(maxsize=2)
def _mini_back() -> Image.Image:
    return t.card_back(26, 36)


# ---------------------------------------------------------------------- auction bar and tribe picks
def _draw_bar(img: Image.Image, view: View, names: list[str]) -> None:
    """The Crew Member Auction's bar: stools front to rear, each figure with its minimum bid and the
    cards under it, the lot highlighted, the bid and bidder, and who is still in with their crews."""
    a = view["auction"]
    _, top = _top_height(view)
    y0 = TOP_Y
    t.panel(img, (M, y0, W - M, y0 + top))
    title = t.font(26, bold=True)
    t.text(img, (M + 20, y0 + 28), "THE BAR", title, t.INK, anchor="lm")
    x = M + 20 + t.text_width("THE BAR", title) + 16
    t.text(
        img,
        (x, y0 + 29),
        "front → rear · below: crews hired, ✓ still bidding",
        t.font(20),
        t.INK_SOFT,
        anchor="lm",
    )
    lot, bid, bidder = a["lot"], a["bid"], a["bidder"]
    if lot is None:
        info = "choosing a figure to auction"
    elif bid is None or bidder is None:
        info = f"lot: {TRIBE_SINGULAR[a['bar'][lot]['tribe']]} · no bid yet"
    else:
        info = f"bid {t.plural(bid, 'card')} by {names[bidder]}"
    fitted, fnt = t.fit_text(info, 420, 24, min_size=18)
    t.text(img, (W - M - 20, y0 + 28), fitted, fnt, t.INK, anchor="rm")
    stools = a["bar"]
    per_row = max(1, -(-len(stools) // _bar_rows(len(stools))))
    cell = min(110, (INNER - 24) // per_row)
    x0 = M + 12 + (INNER - 24 - per_row * cell) // 2
    for i, stool in enumerate(stools):
        r, c = divmod(i, per_row)
        box = (
            x0 + c * cell + 4,
            y0 + 54 + r * BAR_CELL_H,
            x0 + (c + 1) * cell - 4,
            y0 + 48 + (r + 1) * BAR_CELL_H,
        )
        if i == lot:
            t.glow(img, box, radius=12)
        t.paste(img, _stool(stool["tribe"], i, stool["cards_under"], cell - 8, i == lot), box[:2])
    # Everybody's crew so far, and who is still in this auction.
    y = y0 + top - 30
    x = M + 20
    chip_w = (W - M - 20 - x) / view["seats"] - 8
    fnt = t.font(20 if view["seats"] < 5 else 18, bold=True)
    for seat in range(view["seats"]):
        colour = t.PLAYER_COLOURS[seat]
        active = seat in a["active"]
        suffix = f" {a['crew_counts'][seat]}/4" + (" ✓" if active else "")
        label = t.ellipsize(names[seat], fnt, chip_w - 30 - t.text_width(suffix, fnt)) + suffix
        fill = colour.fill if active or lot is None else t.mix(colour.fill, t.PARCHMENT, 0.6)
        box = t.pill(img, (x, y - 17), label, fnt, fill, colour.text, border=colour.edge, height=34)
        x = box[2] + 8


@lru_cache(maxsize=256)
def _stool(tribe: str, index: int, under: int, w: int, lot: bool) -> Image.Image:
    """One stool at the bar: the figure (nobody's yet), its minimum bid and the cards under it."""
    h = BAR_CELL_H - 10
    fill = t.mix(CAPTAIN_GOLD, t.PARCHMENT, 0.4) if lot else t.PARCHMENT_SHADE
    img = t.rounded(w, h, 12, fill, t.GOLD_DEEP if lot else t.mix(t.PARCHMENT_SHADE, t.INK, 0.3), 2).copy()
    size = min(64, w - 14)
    t.paste(img, figure(tribe, None, size), (w / 2, 8 + size / 2), "mm")
    t.text(img, (w / 2, h - 20), f"min {index}", t.font(20, bold=True), t.INK, anchor="mm")
    if under:
        t.paste(img, t.card_back(24, 34), (w - 30, 4))
        t.pill(img, (w - 18, 26), f"+{under}", t.font(18, bold=True), t.DANGER, WHITE, align="center", height=24)
    return img


def _draw_picks(img: Image.Image, view: View, names: list[str]) -> None:
    """Landlubber: the six tribes, each with the player who chose it or "free"."""
    y0 = TOP_Y
    t.panel(img, (M, y0, W - M, y0 + PICKS_H))
    title = t.font(24, bold=True)
    t.text(img, (M + 20, y0 + 26), "TRIBE PICKS", title, t.INK, anchor="lm")
    t.text(
        img,
        (M + 36 + t.text_width("TRIBE PICKS", title), y0 + 27),
        "each player takes 4 figures of a tribe nobody else chose",
        t.font(20),
        t.INK_SOFT,
        anchor="lm",
    )
    chooser = {tribe: seat for seat, tribe in enumerate(view["tribes"])}
    cell = (INNER - 24) // len(TRIBES)
    for k, tribe in enumerate(TRIBES):
        cx = M + 12 + k * cell + cell / 2
        seat = chooser.get(tribe)
        t.paste(img, figure(tribe, seat, 58), (cx, y0 + 80), "mm")
        t.text(img, (cx, y0 + 124), TRIBE_SINGULAR[tribe], t.font(20, bold=True), t.INK, anchor="mm")
        if seat is None:
            t.text(img, (cx, y0 + 150), "free", t.font(20), t.INK_SOFT, anchor="mm")
        else:
            t.name_pill(img, (cx, y0 + 136), names[seat], seat, cell - 30, 20, 30, min_size=16)


# ====================================================================== hand
HAND_TOP = 92
HAND_CARDS_H = 244
HAND_ROW_H = 96


def _figures_of(view: View, seat: int) -> list[tuple[str, str, bool]]:
    """``(tribe, where, captain)`` for each of ``seat``'s figures: play area first, then aboard."""
    out = [(f["tribe"], "play area", False) for f in view["players"][seat]["play_area"]]
    for ship in view["ships"]:
        for space, fig in enumerate(ship["spaces"]):
            if fig is not None and fig["owner"] == seat:
                if space == 3:
                    out.append((fig["tribe"], f"CAPTAIN of the {ship['ship']} ship", True))
                else:
                    out.append((fig["tribe"], f"{ship['ship']} ship, space {space + 1}", False))
    return out


def render_hand(view: View, names: Sequence[str]) -> bytes:
    """One player's private image, from their own view: their Talisman cards by symbol, their figures
    and where they are, their tokens grouped by scoring category with values, and the score they
    would have if the game ended now with its breakdown. Returns PNG bytes."""
    seat = view["viewer"]
    if seat is None or view["hand"] is None:
        img = t.new_canvas(W, 160)
        t.text(
            img,
            (W / 2, 80),
            "Spectators have no hand: hands and tokens are secret.",
            t.font(28, bold=True),
            t.FOAM,
            anchor="mm",
        )
        return t.to_png(img)
    seat_names = _names(names, view["seats"])
    me = view["players"][seat]
    tokens = me["tokens"] or []
    lines = breakdown(tokens)
    score = me["score"] if me["score"] is not None else total(tokens)
    tokens_y = HAND_TOP + HAND_CARDS_H + 20
    h = tokens_y + 62 + max(1, len(lines)) * HAND_ROW_H + 14 + M
    img = t.new_canvas(W, h)
    colour = t.PLAYER_COLOURS[seat]
    title = t.font(40, bold=True)
    t.paste(img, t.icon("rat", 50), (M - 2, HEADER_Y - 26))
    t.text(img, (M + 56, HEADER_Y), "YOUR HAND", title, t.GOLD, anchor="lm", shadow=(0, 0, 0))
    x = M + 56 + t.text_width("YOUR HAND", title) + 20
    fitted, fnt = t.fit_text(seat_names[seat], W - M - x - 20, 28)
    t.pill(img, (x, HEADER_Y - 23), fitted, fnt, colour.fill, colour.text, border=colour.edge, height=46)
    _hand_cards(img, view["hand"])
    _hand_crew(img, _figures_of(view, seat), seat)
    # Tokens by scoring category, with the live score.
    t.panel(img, (M, tokens_y, W - M, h - M))
    t.text(
        img,
        (M + 20, tokens_y + 30),
        f"YOUR TOKENS ({len(tokens)})",
        t.font(24, bold=True),
        t.INK,
        anchor="lm",
    )
    t.text(
        img,
        (W - M - 20, tokens_y + 30),
        f"score if the game ended now: {score}",
        t.font(28, bold=True),
        (176, 36, 36),
        anchor="rm",
    )
    if not lines:
        t.text(
            img,
            (W / 2, tokens_y + 62 + HAND_ROW_H / 2),
            "No tokens yet: set sail to seize some!",
            t.font(24, bold=True),
            t.INK_SOFT,
            anchor="mm",
        )
    for k, line in enumerate(lines):
        _category_row(img, line, tokens, tokens_y + 58 + k * HAND_ROW_H, stripe=k % 2 == 0)
    return t.to_png(img)


def _hand_cards(img: Image.Image, hand: Sequence[str]) -> None:
    y = HAND_TOP
    t.panel(img, (M, y, M + 470, y + HAND_CARDS_H))
    t.text(img, (M + 20, y + 24), f"TALISMAN CARDS ({len(hand)})", t.font(22, bold=True), t.INK, anchor="lm")
    for k, symbol in enumerate(SHIPS):
        n = hand.count(symbol)
        cx = M + 85 + k * 150
        face = talisman(symbol, 96, 132)
        t.paste(img, face if n else _faded(face, 30), (cx - 48, y + 46))
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
    t.text(img, (x0 + 20, y + 24), "YOUR CREW", t.font(22, bold=True), t.INK, anchor="lm")
    if not figs:
        t.text(img, (x0 + 20, y + 120), "no figures yet", t.font(24, bold=True), t.INK_SOFT, anchor="lm")
    for k, (tribe, where, captain) in enumerate(figs):
        fy = y + 48 + k * 48
        if captain:
            t.paste(img, t.rounded(W - M - x0 - 24, 46, 23, (*CAPTAIN_GOLD, 150)), (x0 + 12, fy - 2))
        t.paste(img, figure(tribe, seat, 44), (x0 + 18, fy))
        ink = (176, 36, 36) if captain else t.INK
        t.text(img, (x0 + 72, fy + 22), TRIBE_SINGULAR[tribe], t.font(22, bold=True), ink, anchor="lm")
        t.text(img, (x0 + 220, fy + 22), where, t.font(22, bold=captain), ink, anchor="lm")
        if captain:
            t.paste(img, icon("hat", 40), (W - M - 40, fy + 22), "mm")


def _category_tokens(category: str, tokens: Sequence[View]) -> list[tuple[str, int]]:
    """The tokens behind a scoring category: booty by value (highest first), then the bonus tokens."""
    kinds = CATEGORY_TYPES.get(category, ())
    picked = [(tk["type"], tk["value"]) for tk in tokens if tk["type"] in kinds]
    return sorted(picked, key=lambda kv: (TOKEN_ORDER.get(kv[0], 99), -kv[1]))


def _category_row(img: Image.Image, line: Any, tokens: Sequence[View], y: int, *, stripe: bool) -> None:
    """One scoring category in the hand image: name, its tokens with values, how it scores, points.
    Tokens of a category that scores nothing are faded."""
    x0, x1 = M + 12, W - M - 12
    if stripe:
        t.paste(img, t.rounded(x1 - x0, HAND_ROW_H - 4, 10, (*t.PARCHMENT_SHADE, 110)), (x0, y))
    kinds = CATEGORY_TYPES.get(line.category, ())
    if kinds:
        t.paste(img, icon(kinds[0], 40), (x0 + 10, y + 8))
    t.text(
        img,
        (x0 + 58, y + 28),
        CATEGORY_LABELS.get(line.category, line.category),
        t.font(26, bold=True),
        t.INK,
        anchor="lm",
    )
    detail_font = t.font(20)
    t.text(
        img,
        (x0 + 12, y + 72),
        t.ellipsize(line.detail, detail_font, 640),
        detail_font,
        t.INK_SOFT,
        anchor="lm",
    )
    x = x0 + 240
    for kind, value in _category_tokens(line.category, tokens):
        tl = tile(kind, value, 46)
        if x + tl.width > x1 - 110:
            t.text(img, (x, y + 30), "…", t.font(26, bold=True), t.INK_SOFT, anchor="lm")
            break
        t.paste(img, _faded(tl, 45) if line.points == 0 else tl, (x, y + 6))
        x += tl.width + 4
    ink = t.INK if line.points else t.INK_SOFT
    t.text(img, (x1 - 16, y + HAND_ROW_H / 2 - 2), str(line.points), t.font(40, bold=True), ink, anchor="rm")


# ====================================================================== final scoring
FINAL_TOP = 166
FINAL_LABEL_W = 200
FINAL_NAMES_H = 110
FINAL_TILE = 38
CATEGORY_BONUS = {
    "French fries": "+ ketchup",
    "Chinese noodles": "+ chili",
    "Hamburgers": "+ milkshake",
    "Toys": "+ parrot",
    "Tin cans": "+ opener",
}
"""What each category combines with, under its name in the final table."""


def render_final(view: View, names: Sequence[str]) -> bytes:
    """The final scoring of ``view["final"]``: for each category and player the tokens that took part
    (faded where they scored nothing), the points and how they came about; the totals, the space sums
    when the best total is tied, and the winners crowned. Returns PNG bytes."""
    final = view["final"]
    seats = view["seats"]
    players = _names(names, seats)
    scores = sorted(final["scores"], key=lambda s: s["seat"])
    winners = list(final["winners"])
    best = max((s["total"] for s in scores), default=0)
    tied = [s["seat"] for s in scores if s["total"] == best]
    show_tie = len(tied) > 1
    col_x, col_w = t.final_columns(M, W - M, FINAL_LABEL_W, seats)
    tile_w = tile("fries", 1, FINAL_TILE).width + 4
    per_line = max(1, int((col_w - 16) // tile_w))
    by_seat = [{line["category"]: line for line in s["breakdown"]} for s in scores]
    heights = []
    for category in CATEGORY_TYPES:
        most = max((len(_category_tokens(category, s["tokens"])) for s in scores), default=0)
        heights.append(46 + max(1, -(-most // per_line)) * (FINAL_TILE + 10) + 50)
    table_h = FINAL_NAMES_H + sum(heights) + 70 * show_tie + 100
    img = t.new_canvas(W, FINAL_TOP + table_h + M + 6)
    t.paste(img, t.icon("rat", 50), (M - 2, HEADER_Y - 26))
    t.text(
        img,
        (M + 56, HEADER_Y),
        "SEWER PIRATS · FINAL SCORE",
        t.font(40, bold=True),
        t.GOLD,
        anchor="lm",
        shadow=(0, 0, 0),
    )
    tie_note = " Tie broken by the spaces of their figures." if show_tie else ""
    t.final_headline(img, (M, 84), INNER, 30, players, winners, best, lone_note=tie_note)

    top = FINAL_TOP
    t.final_table(
        img,
        (M, top, W - M, top + table_h),
        col_x,
        col_w,
        players,
        winners,
        names_y=58,
        pill_h=42,
        name_size=24,
        name_margin=60,
        crown=46,
        min_name_size=16,
    )
    y = top + FINAL_NAMES_H
    for r, category in enumerate(CATEGORY_TYPES):
        if r % 2 == 0:
            t.paste(img, t.rounded(INNER - 24, heights[r], 10, (*t.PARCHMENT_SHADE, 110)), (M + 12, y))
        _final_label(img, category, y)
        for s in range(seats):
            line = by_seat[s].get(category)
            if line is None:
                t.text(
                    img,
                    (col_x[s] + col_w / 2, y + heights[r] / 2),
                    "—",
                    t.font(28, bold=True),
                    FADED_INK,
                    anchor="mm",
                )
            else:
                _final_cell(img, line, scores[s]["tokens"], col_x[s] + 10, y, col_w - 18, heights[r], per_line)
        y += heights[r]
    if show_tie:
        mid = y + 35
        t.text(img, (M + 26, mid - 12), "tie-break", t.font(22, bold=True), t.INK, anchor="lm")
        t.text(img, (M + 26, mid + 14), "sum of spaces (C = 4)", t.font(18), t.INK_SOFT, anchor="lm")
        for s in tied:
            cx = col_x[s] + col_w / 2
            t.text(img, (cx, mid), str(scores[s]["space_sum"]), t.font(34, bold=True), t.INK, anchor="mm")
        y += 70
    t.final_totals(img, M, W - M, y, col_x, col_w, [score["total"] for score in scores])
    return t.to_png(img)


def _final_label(img: Image.Image, category: str, y: int) -> None:
    """A category's name in the final table, with its booty and the bonus token it combines with."""
    kinds = CATEGORY_TYPES[category]
    t.paste(img, token(kinds[0], 44), (M + 22, y + 14))
    t.paste(img, token(kinds[-1], 30), (M + 54, y + 42))
    t.text(img, (M + 96, y + 34), CATEGORY_LABELS[category], t.font(24, bold=True), t.INK, anchor="lm")
    t.text(img, (M + 96, y + 62), CATEGORY_BONUS[category], t.font(18), t.INK_SOFT, anchor="lm")


def _final_cell(
    img: Image.Image, line: View, tokens: Sequence[View], x: float, y: int, w: float, h: int, per_line: int
) -> None:
    """One player's category in the final table: points, the tokens behind them and the detail."""
    points = line["points"]
    big = t.font(30, bold=True)
    t.text(img, (x, y + 24), str(points), big, t.INK if points else t.INK_SOFT, anchor="lm")
    t.text(img, (x + t.text_width(str(points), big) + 6, y + 28), "pts", t.font(18), t.INK_SOFT, anchor="lm")
    slot = tile("fries", 1, FINAL_TILE).width + 4  # booty with its value badge: the widest tile
    for k, (kind, value) in enumerate(_category_tokens(line["category"], tokens)):
        tl = tile(kind, value, FINAL_TILE)
        tx = x + (k % per_line) * slot
        ty = y + 48 + (k // per_line) * (FINAL_TILE + 10)
        t.paste(img, _faded(tl, 45) if points == 0 else tl, (tx, ty))
    detail_font = t.font(18)
    for n, part in enumerate(_wrap(line["detail"], detail_font, w, 2)):
        t.text(img, (x, y + h - 38 + n * 21), part, detail_font, t.INK_SOFT, anchor="lm")


def _wrap(s: str, fnt: Any, width: float, lines: int) -> list[str]:
    """``s`` broken at spaces into at most ``lines`` lines of ``width`` px, the last one ellipsized."""
    out: list[str] = []
    cur = ""
    for word in s.split():
        trial = f"{cur} {word}".strip()
        if t.text_width(trial, fnt) <= width or not cur:
            cur = trial
        else:
            out.append(cur)
            cur = word
    if cur:
        out.append(cur)
    if len(out) > lines:
        out = [*out[: lines - 1], " ".join(out[lines - 1 :])]
    return [t.ellipsize(line, fnt, width) for line in out]
