"""Pirates Card Game card faces: a poker corner index, the nation's flag and a picture of the ship. What a
card can be (town, ship, crew, cannons, cargo, mission) is written beside it, at a size a phone reads."""

from __future__ import annotations

from PIL import Image, ImageDraw

from games.pirates.cards import BY_CODE, Face
from rendering import theme as t
from rendering.cache import image_cache

RED_SUIT: t.RGB = (184, 30, 36)
BLACK_SUIT: t.RGB = (28, 26, 30)
FLAGS: dict[str | None, tuple[t.RGB, ...]] = {
    "h": ((206, 32, 40), (250, 250, 250), (206, 32, 40)),  # St George: red on white, drawn as a cross
    "d": ((198, 11, 30), (255, 196, 0), (198, 11, 30)),  # Spanish red-yellow-red
    "c": ((0, 85, 164), (250, 250, 250), (239, 65, 53)),  # French tricolour
    "s": ((174, 28, 40), (250, 250, 250), (33, 70, 139)),  # Dutch tricolour
    None: ((20, 20, 20), (20, 20, 20), (20, 20, 20)),  # the Jolly Roger
}
HULL: t.RGB = (120, 72, 36)
SAIL: t.RGB = (250, 244, 226)


def suit_colour(f: Face) -> t.RGB:
    return RED_SUIT if f.suit in ("h", "d") else BLACK_SUIT


def flag(w: int, h: int, suit: str | None) -> Image.Image:
    """A small flag: England's cross, Spain's bands, France's and the Netherlands' tricolours, the Jolly Roger."""
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    a, b, c = FLAGS[suit]
    if suit == "h":
        d.rectangle((0, 0, w - 1, h - 1), fill=b)
        d.rectangle((w * 0.4, 0, w * 0.6, h - 1), fill=a)
        d.rectangle((0, h * 0.38, w - 1, h * 0.62), fill=a)
    elif suit == "d":
        d.rectangle((0, 0, w - 1, h - 1), fill=a)
        d.rectangle((0, h * 0.25, w - 1, h * 0.75), fill=b)
    elif suit == "c":
        for i, col in enumerate((a, b, c)):
            d.rectangle((w * i / 3, 0, w * (i + 1) / 3, h - 1), fill=col)
    elif suit == "s":
        for i, col in enumerate((a, b, c)):
            d.rectangle((0, h * i / 3, w - 1, h * (i + 1) / 3), fill=col)
    else:
        d.rectangle((0, 0, w - 1, h - 1), fill=a)
        skull = t.icon("skull", int(h * 0.8))
        img.alpha_composite(skull, ((w - skull.width) // 2, (h - skull.height) // 2))
    d.rectangle((0, 0, w - 1, h - 1), outline=(40, 30, 20), width=1)
    return img


def ship_picture(w: int, h: int, f: Face) -> Image.Image:
    """A ship in profile: more masts and a longer hull for bigger ships, gold for the treasure galleon."""
    s = 3
    img = Image.new("RGBA", (w * s, h * s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    masts = 1 if f.size <= 2 else 2 if f.size <= 5 else 3
    length = (0.55 + 0.045 * f.size) * w * s
    x0 = (w * s - length) / 2
    deck_y = h * s * 0.72
    hull = (196, 150, 40) if f.joker else HULL
    d.polygon(
        [(x0, deck_y), (x0 + length, deck_y), (x0 + length * 0.88, h * s * 0.95), (x0 + length * 0.1, h * s * 0.95)],
        fill=hull,
        outline=(50, 30, 14),
    )
    for i in range(masts):
        mx = x0 + length * (i + 1) / (masts + 1)
        top = h * s * (0.1 if i == masts // 2 else 0.2)
        d.line((mx, deck_y, mx, top), fill=(60, 40, 20), width=2 * s)
        sail_w = length / (masts + 1) * 0.42
        d.polygon(
            [
                (mx - sail_w, top + h * s * 0.08),
                (mx + sail_w, top + h * s * 0.08),
                (mx + sail_w * 1.1, deck_y - 8 * s),
                (mx - sail_w * 1.1, deck_y - 8 * s),
            ],
            fill=(30, 30, 30) if f.joker else SAIL,
            outline=(120, 110, 90),
        )
    fl = flag(int(w * 0.16) * s, int(h * 0.1) * s, f.suit)
    main = x0 + length * ((masts // 2) + 1) / (masts + 1)
    img.alpha_composite(fl, (int(main), int(h * s * 0.1) - fl.height // 2))
    d.line((0, h * s * 0.93, w * s, h * s * 0.93), fill=(70, 130, 170), width=3 * s)
    return img.resize((w, h), Image.Resampling.LANCZOS)


CARD_W, CARD_H = 210, 300


@image_cache
def card_face(code: str, w: int = CARD_W, h: int = CARD_H) -> Image.Image:
    """A card's face as a picture: its corner index (never under :data:`theme.MIN_TEXT` px), flag and ship.
    The table writes what the card is beside it, in words large enough for a phone."""
    f = BY_CODE[code]
    img = t.card(w, h).copy()
    ink = suit_colour(f)
    k = w / CARD_W
    corner = f.name if not f.joker else "JK"
    t.text(
        img,
        (10 * k, 8 * k),
        corner[:-1] if not f.joker else "★",
        t.font(max(t.MIN_TEXT, round(30 * k)), bold=True),
        ink,
    )
    if not f.joker:
        suit = t.font(max(t.MIN_TEXT, round(28 * k)), bold=True)
        t.text(img, (10 * k, 8 * k + t.MIN_TEXT + 6), corner[-1], suit, ink)
    fl = flag(round(46 * k), round(30 * k), f.suit)
    img.alpha_composite(fl, (round(w - fl.width - 12 * k), round(14 * k)))
    pic = ship_picture(round(170 * k), round(110 * k), f)
    img.alpha_composite(pic, (round((w - pic.width) / 2), round(h - pic.height - 40 * k)))
    return img


@image_cache
def back(w: int, h: int) -> Image.Image:
    return t.card_back(w, h)
