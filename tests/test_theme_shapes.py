"""The shared shapes of the renderers (``rendering.theme``): rounded rectangles, their shadows and panels are
built from their corners and stretched edges, and must look as if drawn whole."""

from __future__ import annotations

import io
import random
import threading
import zlib

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageStat

from rendering import theme

SIZES = [(1056, 598, 18), (300, 40, 20), (73, 296, 27), (50, 50, 8), (12, 9, 4), (400, 90, 6)]


def drawn_whole(w: int, h: int, radius: int, fill, border, width: int) -> Image.Image:
    """The rounded rectangle drawn at its full size, supersampled (how ``rounded`` was drawn before)."""
    s = 3
    big = Image.new("RGBA", (w * s, h * s), (0, 0, 0, 0))
    ImageDraw.Draw(big).rounded_rectangle(
        (0, 0, w * s - 1, h * s - 1), radius * s, fill=fill, outline=border, width=width * s
    )
    return big.resize((w, h), Image.Resampling.BOX)


def shadow_whole(w: int, h: int, radius: int, blur: int) -> Image.Image:
    pad = 2 * blur
    mask = Image.new("L", (w + 2 * pad, h + 2 * pad), 0)
    ImageDraw.Draw(mask).rounded_rectangle((pad, pad, pad + w, pad + h), radius, fill=150)
    return mask.filter(ImageFilter.GaussianBlur(blur))


def largest_difference(a: Image.Image, b: Image.Image) -> int:
    assert a.size == b.size and a.mode == b.mode
    extrema = ImageChops.difference(a, b).getextrema()
    return max(high for _, high in (extrema if a.mode != "L" else [extrema]))


@pytest.mark.parametrize(("w", "h", "radius"), SIZES)
@pytest.mark.parametrize(
    ("fill", "border", "width"), [(theme.PARCHMENT, theme.GOLD_DEEP, 3), ((10, 20, 30, 128), None, 0)]
)
def test_a_rounded_rectangle_looks_drawn_whole(w, h, radius, fill, border, width) -> None:
    assert (
        largest_difference(
            theme.rounded(w, h, radius, fill, border, width), drawn_whole(w, h, radius, fill, border, width)
        )
        <= 5
    )


@pytest.mark.parametrize(("w", "h", "radius"), SIZES)
def test_a_shadow_looks_blurred_whole(w, h, radius) -> None:
    assert largest_difference(theme._shadow_mask(w, h, radius, 8), shadow_whole(w, h, radius, 8)) <= 5


def test_a_panel_laid_by_its_rim_is_the_panel_composited_whole() -> None:
    rng = random.Random("panels")
    canvas = theme.new_canvas(1100, 900)
    for _ in range(60):
        x0, y0 = rng.randint(-20, 700), rng.randint(-20, 600)
        box = (x0, y0, x0 + rng.randint(10, 600), y0 + rng.randint(10, 500))
        style = {
            "fill": rng.choice([theme.PARCHMENT, (14, 34, 48), (20, 44, 58, 255), (10, 10, 10, 128)]),
            "border": rng.choice([theme.GOLD_DEEP, None]),
            "radius": rng.choice([6, 12, 18]),
            "shadow": rng.random() < 0.7,
        }
        laid, whole = canvas.copy(), canvas.copy()
        theme.panel(laid, box, **style)
        w, h = box[2] - box[0], box[3] - box[1]
        if style["shadow"]:
            whole.paste((0, 0, 0), (box[0] - 13, box[1] - 11), theme._shadow_mask(w, h, style["radius"], 8))
        rim = theme.rounded(w, h, style["radius"], style["fill"], style["border"], 3 if style["border"] else 0)
        whole.paste(rim, box[:2], rim)
        assert ImageChops.difference(laid, whole).getbbox() is None, (box, style)
        again = canvas.copy()  # from the pieces cut for the first: the same, and they were not drawn on
        theme.panel(again, box, **style)
        assert ImageChops.difference(again, whole).getbbox() is None, (box, style)


@pytest.mark.parametrize(("w", "h"), [(1100, 1338), (128, 40), (129, 7), (300, 250), (5, 900)])
def test_a_background_is_its_gradient_across_the_width_under_the_grid(w: int, h: int) -> None:
    canvas = theme.new_canvas(w, h)
    column = theme._gradient(h)
    assert canvas.size == (w, h) and canvas.mode == "RGB"
    for x in range(w):
        line = canvas.crop((x, 0, x + 1, h))
        if x % 120 == 0:
            assert line.tobytes() == bytes(theme.CHART_LINE) * h
        else:
            expected = column.copy()
            ImageDraw.Draw(expected).point([(0, y) for y in range(0, h, 120)], fill=theme.CHART_LINE)
            assert line.tobytes() == expected.tobytes(), x


@pytest.mark.parametrize(("w", "h", "mode"), [(1, 1, "RGB"), (5, 3, "RGB"), (333, 77, "RGBA"), (1100, 640, "RGB")])
def test_to_png_writes_the_images_pixels_in_a_png_any_decoder_reads(w: int, h: int, mode: str) -> None:
    rng = random.Random(f"{w}x{h}")
    image = Image.new(mode, (w, h), (20, 40, 60, 255))
    image.putdata([tuple(rng.randrange(256) for _ in mode) for _ in range(min(w * h, 5000))])  # noise, then flat
    png = theme.to_png(image)
    decoded = Image.open(io.BytesIO(png))
    decoded.verify()  # the chunks' CRCs and structure
    decoded = Image.open(io.BytesIO(png))
    assert (decoded.mode, decoded.size) == ("RGB", (w, h))
    assert decoded.tobytes() == image.convert("RGB").tobytes()
    assert zlib.decompress(png[png.index(b"IDAT") + 4 : png.index(b"IEND") - 8])[:: 3 * w + 1] == bytes(h)  # filter 0


@pytest.mark.parametrize(("w", "h"), [(1, 1), (7, 3), (1140, 1338)])
def test_scanlines_are_the_rows_each_followed_by_a_zero_in_one_encoder_call(
    w: int, h: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(f"rows {w}x{h}")
    image = Image.new("RGB", (w, h), (9, 26, 40))
    image.putdata([tuple(rng.randrange(256) for _ in "RGB") for _ in range(min(w * h, 5000))])
    expected = b"".join(image.tobytes()[3 * w * y : 3 * w * (y + 1)] + b"\0" for y in range(h))
    asked: list[int] = []
    getencoder = Image._getencoder

    class Partial:
        """Pillow's raw encoder as if it would write no more than 64 KB a call."""

        def __init__(self, *args: object) -> None:
            self.inner = getencoder(*args)

        def setimage(self, *args: object) -> None:
            self.inner.setimage(*args)

        def encode(self, size: int) -> tuple[int, int, bytes]:
            asked.append(size)
            return self.inner.encode(min(size, 65536))

        def cleanup(self) -> None:
            self.inner.cleanup()

    assert theme._scanlines(image) == expected
    monkeypatch.setattr(Image, "_getencoder", Partial)
    assert theme._scanlines(image) == expected  # an encoder that stops short: Pillow's own loop, the same bytes
    assert asked[0] == len(expected)  # the whole image was asked for at once


def test_a_large_images_deflate_is_shared_with_the_helper_or_done_alone_while_it_is_busy() -> None:
    rng = random.Random("halves")
    image = Image.new("RGB", (1140, 1338), (17, 46, 62))
    image.putdata([tuple(rng.randrange(256) for _ in "RGB") for _ in range(40_000)])  # noise over both halves
    assert 3 * image.width * image.height >= theme.SHARED_DEFLATE
    shared = theme.to_png(image)
    busy, release = threading.Event(), threading.Event()
    blocker = theme._HELPER.submit(lambda: (busy.set(), release.wait(10)))
    try:
        assert busy.wait(10)
        alone = theme.to_png(image)  # the helper is busy: this thread deflates both halves, without waiting
        assert not blocker.done()
    finally:
        release.set()
    for png in (shared, alone):
        decoded = Image.open(io.BytesIO(png))
        assert decoded.tobytes() == image.tobytes()
        zlib.decompress(png[png.index(b"IDAT") + 4 : png.index(b"IEND") - 8])  # one zlib stream, its checksum right


@pytest.mark.parametrize("anchor", ["lm", "mm", "rs", "la"])
def test_a_long_line_is_drawn_from_its_cached_words_where_the_whole_line_would_be(anchor: str) -> None:
    line = "Calico Jack revealed a bird card for the snail: no match, and  Anne Bonny sets sail."
    fnt = theme.font(26)
    whole, worded = (Image.new("RGB", (1140, 80), (9, 26, 40)) for _ in range(2))
    ImageDraw.Draw(whole).text((570, 40), line, font=fnt, fill=(240, 240, 230), anchor=anchor)
    theme._text_image.cache_clear()
    theme.text(worded, (570, 40), line, fnt, (240, 240, 230), anchor=anchor)
    assert theme._text_image.cache_info().misses == len(set(line.split()))  # each word rasterised once
    ink = ImageChops.difference(whole, Image.new("RGB", whole.size, (9, 26, 40))).getbbox()
    assert ink is not None
    drawn = ImageChops.difference(worded, Image.new("RGB", whole.size, (9, 26, 40))).getbbox()
    assert drawn is not None and all(abs(a - b) <= 1 for a, b in zip(drawn, ink, strict=True))
    # A word may sit a pixel from where the whole line put it, no more: the images blurred by a pixel agree.
    blur = ImageFilter.BoxBlur(1)
    difference = ImageChops.difference(whole.filter(blur), worded.filter(blur)).convert("L")
    assert ImageStat.Stat(difference).mean[0] < 1.5


def test_laying_an_image_over_a_board_draws_what_pillows_paste_draws() -> None:
    """``_over`` calls Pillow's core for an RGBA image over an RGB canvas: the same pixels as
    ``Image.paste(img, (x, y), img)``, wherever the box lies, off any edge of the canvas or wholly outside."""
    rng = random.Random("over")
    for _ in range(300):
        canvas = Image.effect_noise((rng.randint(5, 60), rng.randint(5, 60)), 60).convert("RGB")
        img = Image.frombytes("RGBA", (w := rng.randint(1, 40), h := rng.randint(1, 40)), rng.randbytes(4 * w * h))
        x, y = rng.randint(-45, canvas.width + 5), rng.randint(-45, canvas.height + 5)
        pasted, laid = canvas.copy(), canvas.copy()
        pasted.paste(img, (x, y), img)
        theme._over(laid, img, x, y)
        assert laid.tobytes() == pasted.tobytes(), (canvas.size, img.size, x, y)


def test_a_word_is_rasterised_as_pillows_text_draws_it() -> None:
    """A line without an outline is rasterised once (FreeType's mask as the image's alpha): the same image
    and corner as Pillow's ``ImageDraw.text`` draws over a transparent image measured by ``getbbox``, for
    every anchor, face and size, blank and one-character strings and the game's own symbols included."""
    rng = random.Random("words")
    alphabet = "abcxyzABQWgjpqy 0123456789.,:;!?'()-+×·→⚓"
    strings = ["", " ", "   ", "a", ".", "Wg", "Anne Bonny", "12 × 3", "→ 5"]
    strings += ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 24))) for _ in range(150)]
    fonts = [theme.font(size, bold) for size in (11, 16, 23, 40) for bold in (False, True)]
    for s in strings:
        fnt, anchor = rng.choice(fonts), rng.choice(["la", "lt", "lm", "ls", "ld", "mm", "ma", "ms", "rs", "rd"])
        fill = (rng.randrange(256), rng.randrange(256), rng.randrange(256))
        if theme._runs(s, fnt) is not None:  # a fallback face's glyphs: typeset, not this path
            continue
        left, top, right, bottom = (round(v) for v in fnt.getbbox(s, anchor=anchor))
        whole = Image.new("RGBA", (max(1, right - left), max(1, bottom - top)), (*fill, 0))
        ImageDraw.Draw(whole).text((-left, -top), s, font=fnt, fill=fill, anchor=anchor)
        img, corner = theme._draw_text(s, fnt, fill, anchor, None)
        assert (corner, img.size, img.tobytes()) == ((left, top), whole.size, whole.tobytes()), (s, anchor)
