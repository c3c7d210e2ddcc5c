"""Rebuild the bundled Noto fonts from Debian's packages (a maintainer's tool, never run by the bot).

    apt-get download fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji
    for f in fonts-noto-*.deb; do dpkg-deb -x "$f" noto; done
    pip install fonttools pillow
    python data/assets/fonts/build_noto.py noto/usr/share/fonts

Script fonts are copied as they are. Noto Sans CJK (the JP face of the collection) is cut down to the
ideographs of the four national character sets (GB 2312, Big5 level 1, JIS X 0208, KS X 1001), their
hangul and kana, and CJK punctuation and fullwidth forms: ~5 MB a weight instead of ~19. Noto Color Emoji
keeps every emoji but its bitmaps shrink from 109 to 64 ppem with a 64-colour palette, ~6 MB instead of
~11: the renderers draw emoji at most ~50 px high, where the two look the same.
"""

from __future__ import annotations

import io
import shutil
import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the project: one list of scripts, the renderer's
from rendering.typeset import SCRIPTS

OUT = Path(__file__).resolve().parent
CJK_BLOCKS = ((0x3000, 0x30FF), (0x3100, 0x318F), (0x31F0, 0x31FF), (0xFF00, 0xFFEF))
"""CJK punctuation, kana, bopomofo, hangul compatibility jamo, fullwidth forms: kept whole."""
EMOJI_PPEM = 64


def national_sets() -> set[int]:
    """Every character of GB 2312, Big5 level 1, JIS X 0208 and KS X 1001 (two-byte EUC/Big5 codes)."""
    found: set[int] = set()
    trails = [*range(0x40, 0x7F), *range(0xA1, 0xFF)]
    for codec, leads in (("gb2312", range(0xA1, 0xF8)), ("big5", range(0xA4, 0xC7)), ("euc_jp", range(0xA1, 0xF5))):
        found |= _decode_pairs(codec, leads, trails)
    return found | _decode_pairs("euc_kr", range(0xA1, 0xFE), trails)


def _decode_pairs(codec: str, leads: range, trails: list[int]) -> set[int]:
    out = set()
    for lead in leads:
        for trail in trails:
            try:
                s = bytes((lead, trail)).decode(codec)
            except UnicodeDecodeError:
                continue
            if len(s) == 1:
                out.add(ord(s))
    return out


def subset_cjk(src: Path, dest: Path) -> None:
    unicodes = national_sets()
    for lo, hi in CJK_BLOCKS:
        unicodes.update(range(lo, hi + 1))
    options = subset.Options()
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.notdef_outline = True
    options.hinting = False
    font = TTFont(src, fontNumber=0)  # Noto Sans CJK JP
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=unicodes)
    subsetter.subset(font)
    font.save(dest)


def shrink_emoji(src: Path, dest: Path) -> None:
    font = TTFont(src)
    sizes = font["CBLC"].strikes[0].bitmapSizeTable
    k = EMOJI_PPEM / sizes.ppemY

    def scaled(v: int) -> int:
        return round(v * k)

    for glyph in font["CBDT"].strikeData[0].values():
        glyph.ensureDecompiled()
        m = glyph.metrics
        w, h = max(1, scaled(m.width)), max(1, scaled(m.height))
        img = Image.open(io.BytesIO(glyph.imageData)).convert("RGBA").resize((w, h), Image.Resampling.LANCZOS)
        img = img.quantize(64, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
        buf = io.BytesIO()
        img.save(buf, "PNG", optimize=True)
        glyph.imageData = buf.getvalue()
        m.width, m.height = w, h
        m.BearingX, m.BearingY, m.Advance = scaled(m.BearingX), scaled(m.BearingY), scaled(m.Advance)
    sizes.ppemX = sizes.ppemY = EMOJI_PPEM
    for line in (sizes.hori, sizes.vert):
        for field in ("ascender", "descender", "widthMax", "minOriginSB", "minAdvanceSB", "maxBeforeBL", "minAfterBL"):
            setattr(line, field, scaled(getattr(line, field)))
    font.save(dest)


def main(fonts: Path) -> None:
    noto = fonts / "truetype" / "noto"
    for script in SCRIPTS:
        for weight in ("Regular", "Bold"):
            shutil.copyfile(noto / f"NotoSans{script}-{weight}.ttf", OUT / f"NotoSans{script}-{weight}.ttf")
    for weight in ("Regular", "Bold"):
        subset_cjk(
            fonts / "opentype" / "noto" / f"NotoSansCJK-{weight}.ttc", OUT / f"NotoSansCJKjp-{weight}-subset.otf"
        )
    shrink_emoji(noto / "NotoColorEmoji.ttf", OUT / "NotoColorEmoji-64ppem.ttf")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
