"""Sewer Pirats icons: ship symbols, tribes, tokens and the captain's hat, registered with the theme.

Each painter draws in 0–100 units (see :func:`rendering.theme.register_icon`); :func:`icon` returns one
at any size, outlined and cached like the theme's own icons.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from PIL import Image, ImageDraw

from rendering import theme as t

Unit = Callable[..., list[float]]
WHITE: t.RGB = (255, 255, 255)
SHIP_COLOURS: dict[str, t.RGB] = {"cat": (238, 144, 50), "bird": (66, 146, 226), "fish": (40, 176, 148)}
"""The colour of each ship's symbol: its emblem, its Talisman cards."""


def _paint_cat(d: ImageDraw.ImageDraw, p: Unit, k: float, c: t.RGB) -> None:
    pink = (246, 160, 176)
    d.polygon(p(10, 46, 16, 2, 48, 26), fill=c)
    d.polygon(p(90, 46, 84, 2, 52, 26), fill=c)
    d.polygon(p(18, 36, 20, 14, 38, 28), fill=pink)
    d.polygon(p(82, 36, 80, 14, 62, 28), fill=pink)
    d.ellipse(p(8, 18, 92, 94), fill=c)
    for x in (42, 50, 58):  # tabby stripes
        d.line(p(x, 20, x + (x - 50) * 0.2, 34), fill=t.dark(c, 0.45), width=round(4 * k))
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
    d.polygon(p(26, 56, 0, 40, 2, 74, 30, 74), fill=t.dark(c, 0.3))  # tail
    d.line(p(46, 84, 42, 98), fill=(240, 150, 40), width=round(4 * k))
    d.line(p(58, 84, 60, 98), fill=(240, 150, 40), width=round(4 * k))
    d.ellipse(p(16, 36, 80, 88), fill=c)
    d.ellipse(p(30, 58, 72, 86), fill=t.light(c, 0.55))  # breast
    d.ellipse(p(50, 10, 90, 50), fill=c)
    d.polygon(p(86, 24, 100, 33, 86, 40), fill=(246, 176, 40))
    d.ellipse(p(68, 20, 80, 32), fill=WHITE)
    d.ellipse(p(72, 23, 78, 30), fill=(20, 20, 20))
    d.chord(p(18, 34, 66, 76), 150, 330, fill=t.dark(c, 0.28))  # wing


def _paint_fish(d: ImageDraw.ImageDraw, p: Unit, k: float, c: t.RGB) -> None:
    d.polygon(p(0, 18, 30, 50, 0, 82, 10, 50), fill=t.dark(c, 0.25))  # tail
    d.polygon(p(36, 30, 54, 8, 72, 30), fill=t.dark(c, 0.25))  # dorsal fin
    d.ellipse(p(16, 22, 98, 80), fill=c)
    d.chord(p(16, 22, 98, 80), 20, 160, fill=t.light(c, 0.45))  # pale belly
    d.arc(p(50, 30, 72, 72), -70, 70, fill=t.dark(c, 0.45), width=round(3.5 * k))  # gill
    for x in (30, 40):
        d.arc(p(x, 38, x + 14, 58), -60, 60, fill=t.dark(c, 0.3), width=round(3 * k))
    d.ellipse(p(74, 36, 88, 50), fill=WHITE)
    d.ellipse(p(79, 39, 86, 47), fill=(20, 20, 20))
    d.line(p(88, 62, 97, 60), fill=t.dark(c, 0.5), width=round(3 * k))


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
    leg, w = t.dark(c, 0.55), round(4.5 * k)
    for side in (1, -1):

        def x(v: float, side: int = side) -> float:
            return 50 + side * v

        d.line(p(x(14), 46, x(34), 34, x(42), 22), fill=leg, width=w, joint="curve")
        d.line(p(x(14), 60, x(38), 60, x(48), 72), fill=leg, width=w, joint="curve")
        d.line(p(x(14), 74, x(32), 88, x(38), 100), fill=leg, width=w, joint="curve")
        d.line(p(x(4), 14, x(18), 4, x(40), 0), fill=leg, width=round(3 * k), joint="curve")
    d.ellipse(p(28, 30, 72, 98), fill=c)
    d.ellipse(p(29, 14, 71, 44), fill=t.light(c, 0.18))  # shield
    d.ellipse(p(40, 6, 60, 22), fill=t.dark(c, 0.4))  # head
    d.line(p(50, 44, 50, 96), fill=t.dark(c, 0.5), width=round(3 * k))
    d.arc(p(34, 46, 60, 92), 160, 220, fill=t.light(c, 0.5), width=round(3 * k))


def _paint_weasel(d: ImageDraw.ImageDraw, p: Unit, k: float, c: t.RGB) -> None:
    cream = (246, 232, 204)
    d.line(p(14, 52, 6, 40, 2, 24), fill=t.dark(c, 0.3), width=round(8 * k), joint="curve")  # long tail
    d.ellipse(p(-2, 16, 8, 30), fill=t.dark(c, 0.5))
    for x0 in (14, 24, 60, 70):
        d.rounded_rectangle(p(x0, 60, x0 + 8, 76), radius=3 * k, fill=t.dark(c, 0.2))
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
    d.line(p(80, 54, 74, 24), fill=t.dark(body, 0.2), width=round(4 * k))
    d.line(p(88, 54, 96, 26), fill=t.dark(body, 0.2), width=round(4 * k))
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
    d.line(p(*pts), fill=t.dark(c, 0.45), width=round(4 * k), joint="curve")


def _paint_toad(d: ImageDraw.ImageDraw, p: Unit, k: float, c: t.RGB) -> None:
    for x0 in (2, 70):
        d.ellipse(p(x0, 78, x0 + 28, 98), fill=t.dark(c, 0.15))
    d.ellipse(p(4, 32, 96, 94), fill=c)
    d.ellipse(p(26, 62, 74, 94), fill=(206, 224, 150))
    for ex in (28, 72):
        d.ellipse(p(ex - 17, 12, ex + 17, 46), fill=c)
        d.ellipse(p(ex - 11, 18, ex + 11, 40), fill=(236, 204, 60))
        d.ellipse(p(ex - 8, 25, ex + 8, 33), fill=(16, 16, 16))
    d.arc(p(16, 36, 84, 70), 25, 155, fill=t.dark(c, 0.55), width=round(3.5 * k))
    for x, y in ((16, 58), (84, 56), (22, 74), (78, 74), (50, 40)):
        d.ellipse(p(x - 3.5, y - 3.5, x + 3.5, y + 3.5), fill=t.dark(c, 0.25))


def _paint_fries(d: ImageDraw.ImageDraw, p: Unit, k: float, c: t.RGB) -> None:
    gold, edge = (252, 208, 72), (196, 140, 30)
    for x0, x1, top in ((30, 22, 12), (40, 36, 4), (50, 52, 10), (60, 66, 2), (70, 80, 14), (46, 44, 0)):
        d.line(p(x0, 60, x1, top), fill=edge, width=round(11 * k))
        d.line(p(x0, 60, x1, top + 1.5), fill=gold, width=round(7 * k))
    d.polygon(p(14, 38, 86, 38, 76, 98, 24, 98), fill=c)
    d.chord(p(30, 30, 70, 58), 0, 180, fill=t.light(c, 0.15))
    d.polygon(p(38, 62, 50, 84, 62, 62, 56, 62, 50, 74, 44, 62), fill=(252, 208, 72))


def _paint_noodles(d: ImageDraw.ImageDraw, p: Unit, k: float, c: t.RGB) -> None:
    bowl = (204, 62, 48)
    d.line(p(58, 2, 40, 58), fill=(120, 76, 36), width=round(5 * k))
    d.line(p(76, 6, 50, 58), fill=(120, 76, 36), width=round(5 * k))
    d.chord(p(12, 22, 88, 72), 180, 360, fill=c)
    for i in range(4):  # noodle waves
        y = 34 + i * 6
        pts = [v for x in range(16 + i * 3, 85 - i * 3, 4) for v in (x, y + 3 * math.sin(x / 3.5))]
        d.line(p(*pts), fill=t.dark(c, 0.3), width=round(2.5 * k))
    d.chord(p(4, 6, 96, 98), 0, 180, fill=bowl)
    d.rectangle(p(4, 50, 96, 56), fill=t.light(bowl, 0.55))
    d.rectangle(p(36, 90, 64, 98), fill=t.dark(bowl, 0.2))


def _paint_burger(d: ImageDraw.ImageDraw, p: Unit, k: float, c: t.RGB) -> None:
    d.rounded_rectangle(p(10, 70, 90, 92), radius=8 * k, fill=c)
    d.rounded_rectangle(p(8, 56, 92, 72), radius=7 * k, fill=(96, 52, 28))  # patty
    d.polygon(p(10, 56, 90, 56, 80, 66, 64, 58, 50, 68, 36, 58, 20, 66), fill=(250, 200, 40))  # cheese
    wave = [v for x in range(94, 5, -8) for v in (x, 52 + 5 * (x // 8 % 2))]
    d.polygon(p(6, 44, 94, 44, *wave), fill=(92, 180, 60))  # lettuce
    d.chord(p(8, 6, 92, 88), 180, 360, fill=t.light(c, 0.12))
    for x, y in ((30, 22), (50, 16), (68, 24), (40, 34), (60, 36)):
        d.ellipse(p(x - 3.5, y - 2, x + 3.5, y + 2), fill=(252, 244, 220))


def _paint_teddy(d: ImageDraw.ImageDraw, p: Unit, k: float, c: t.RGB) -> None:
    light = t.light(c, 0.45)
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
    d.ellipse(p(16, 80, 84, 98), fill=t.dark(c, 0.2))
    d.rectangle(p(16, 14, 84, 89), fill=c)
    d.rectangle(p(16, 36, 84, 72), fill=label)
    d.chord(p(16, 62, 84, 82), 0, 180, fill=label)
    d.ellipse(p(36, 42, 64, 64), fill=(252, 228, 160))
    d.rectangle(p(22, 18, 28, 86), fill=t.light(c, 0.45))  # shine
    d.ellipse(p(16, 4, 84, 24), fill=t.light(c, 0.3))
    d.ellipse(p(22, 7, 78, 21), fill=t.dark(c, 0.1))


def _paint_ketchup(d: ImageDraw.ImageDraw, p: Unit, k: float, c: t.RGB) -> None:
    d.polygon(p(44, 10, 50, 0, 56, 10), fill=(250, 250, 250))
    d.rectangle(p(38, 8, 62, 22), fill=(250, 250, 250))
    d.polygon(p(30, 30, 38, 20, 62, 20, 70, 30), fill=c)
    d.rounded_rectangle(p(24, 26, 76, 98), radius=12 * k, fill=c)
    d.rounded_rectangle(p(30, 46, 70, 80), radius=6 * k, fill=(252, 244, 226))
    d.ellipse(p(40, 52, 60, 74), fill=c)
    d.polygon(p(46, 52, 50, 46, 54, 52, 50, 56), fill=(70, 160, 60))
    d.rectangle(p(30, 30, 35, 90), fill=t.light(c, 0.35))


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
    d.arc(p(38, 30, 80, 88), 100, 150, fill=t.light(c, 0.55), width=round(4 * k))


def _paint_milkshake(d: ImageDraw.ImageDraw, p: Unit, k: float, c: t.RGB) -> None:
    d.line(p(58, 26, 74, 0), fill=(220, 50, 60), width=round(6 * k))
    d.polygon(p(20, 34, 80, 34, 68, 92, 32, 92), fill=c)
    for y in (50, 66):
        d.line(p(24 + (y - 34) * 0.2, y, 76 - (y - 34) * 0.2, y), fill=t.light(c, 0.5), width=round(4 * k))
    d.rectangle(p(34, 90, 66, 98), fill=t.dark(c, 0.2))
    for x0, y0 in ((16, 20), (36, 12), (54, 20)):
        d.ellipse(p(x0, y0, x0 + 30, y0 + 22), fill=(252, 248, 240))
    d.ellipse(p(42, 2, 56, 16), fill=(214, 30, 50))


def _paint_parrot(d: ImageDraw.ImageDraw, p: Unit, k: float, c: t.RGB) -> None:
    red, blue = (226, 48, 40), (50, 110, 220)
    d.polygon(p(40, 70, 60, 70, 66, 100, 36, 100), fill=blue)  # tail
    d.ellipse(p(26, 30, 74, 84), fill=c)
    d.chord(p(38, 38, 80, 84), 270, 90, fill=t.dark(c, 0.25))  # wing
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
    d.rectangle(p(42, 40, 58, 50), fill=t.dark(c, 0.2))
    teeth = []
    for i in range(16):
        a = i / 16 * 2 * math.pi
        r = 22 if i % 2 == 0 else 17
        teeth += [50 + r * math.cos(a), 22 + r * math.sin(a)]
    d.polygon(p(*teeth), fill=c)
    d.ellipse(p(40, 12, 60, 32), fill=t.dark(c, 0.3))
    d.ellipse(p(45, 17, 55, 27), fill=t.light(c, 0.4))
    d.polygon(p(68, 30, 96, 18, 74, 42), fill=t.light(c, 0.25))  # blade
    d.line(p(44, 60, 44, 94), fill=t.light(grip, 0.35), width=round(3 * k))


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
