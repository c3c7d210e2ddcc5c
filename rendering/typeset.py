"""Text in any script, for :mod:`rendering.theme`'s text functions (the only ones that call this module).

A string is cut into clusters (a character with its combining marks, an emoji sequence), each cluster
takes the first font of a fallback chain that has all its characters (DejaVu, then Noto fonts for other
scripts, CJK and colour emoji, all bundled in ``data/assets/fonts``), and the clusters are ordered for
display by a small version of the Unicode bidirectional algorithm. The result is a line of runs, each
in one font and one direction, which Pillow draws and measures one by one.

Shaping (Arabic joining, Indic conjuncts, emoji ZWJ sequences, right-to-left runs) needs Pillow's raqm
layout, which Pillow's wheels ship but which loads the system's FriBiDi library at run time
(``libfribidi0`` on Debian and Ubuntu). Without it every name still draws in its fonts and in the right
order, but Arabic letters stand unjoined, Indic vowel signs are not reordered and an emoji sequence
shows as its parts.
"""

from __future__ import annotations

import struct
import unicodedata
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

from PIL import Image, ImageDraw, ImageFont, features

from rendering.cache import image_cache

FONT_DIR = Path(__file__).resolve().parent.parent / "data" / "assets" / "fonts"

RAQM: bool = features.check("raqm")
"""Whether Pillow can shape text (see the module's docstring)."""

EMOJI = "NotoColorEmoji-64ppem.ttf"
EMOJI_PPEM = 64
"""Colour emoji are bitmaps of one size: drawn at this size, then scaled."""
EMOJI_SCALE = 0.9
"""An emoji's size relative to the text around it (its bitmap is a little taller than capitals)."""
SCRIPTS = (
    "Arabic",
    "Hebrew",
    "Devanagari",
    "Bengali",
    "Gurmukhi",
    "Gujarati",
    "Tamil",
    "Telugu",
    "Kannada",
    "Malayalam",
    "Sinhala",
    "Thai",
    "Lao",
    "Khmer",
    "Myanmar",
    "Ethiopic",
)
"""The Noto Sans fonts for scripts DejaVu lacks or draws less well, after DejaVu in the chain."""


def chain(primary: str) -> tuple[str, ...]:
    """The font files tried in turn for a character, ``primary`` (a bundled DejaVu face) first."""
    weight = "Regular" if primary == "DejaVuSans.ttf" else "Bold"
    return (primary, *(f"NotoSans{s}-{weight}.ttf" for s in SCRIPTS), f"NotoSansCJKjp-{weight}-subset.otf", EMOJI)


# ---------------------------------------------------------------------- fonts
@lru_cache(maxsize=256)
def face(file: str, size: int, raqm: bool = RAQM) -> ImageFont.FreeTypeFont:
    """The bundled font ``file`` at ``size`` px (colour emoji: at their only size, see :data:`EMOJI_PPEM`)."""
    layout = ImageFont.Layout.RAQM if raqm else ImageFont.Layout.BASIC
    return ImageFont.truetype(str(FONT_DIR / file), EMOJI_PPEM if file == EMOJI else size, layout_engine=layout)


@lru_cache(maxsize=32)
def coverage(file: str) -> frozenset[int]:
    """The code points ``file`` has a glyph for, from its cmap table (formats 4 and 12)."""
    data = (FONT_DIR / file).read_bytes()
    (tables,) = struct.unpack_from(">H", data, 4)
    cmap = next(
        struct.unpack_from(">I", data, 12 + 16 * i + 8)[0]
        for i in range(tables)
        if data[12 + 16 * i : 16 + 16 * i] == b"cmap"
    )
    (subtables,) = struct.unpack_from(">H", data, cmap + 2)
    found: set[int] = set()
    for i in range(subtables):
        platform, encoding, offset = struct.unpack_from(">HHI", data, cmap + 4 + 8 * i)
        if (platform, encoding) in ((3, 1), (3, 10), (0, 3), (0, 4)):
            found |= _cmap_subtable(data, cmap + offset)
    return frozenset(found)


def _cmap_subtable(data: bytes, at: int) -> set[int]:
    (fmt,) = struct.unpack_from(">H", data, at)
    found: set[int] = set()
    if fmt == 12:
        (groups,) = struct.unpack_from(">I", data, at + 12)
        for g in range(groups):
            start, end, glyph = struct.unpack_from(">III", data, at + 16 + 12 * g)
            found.update(range(start + (glyph == 0), end + 1))
    elif fmt == 4:
        segs = struct.unpack_from(">H", data, at + 6)[0] // 2
        ends = struct.unpack_from(f">{segs}H", data, at + 14)
        starts = struct.unpack_from(f">{segs}H", data, at + 16 + 2 * segs)
        deltas = struct.unpack_from(f">{segs}h", data, at + 16 + 4 * segs)
        range_at = at + 16 + 6 * segs
        offsets = struct.unpack_from(f">{segs}H", data, range_at)
        for k, (start, end, delta, offset) in enumerate(zip(starts, ends, deltas, offsets, strict=True)):
            for c in range(start, min(end, 0xFFFE) + 1):
                if offset:
                    (glyph,) = struct.unpack_from(">H", data, range_at + 2 * k + offset + 2 * (c - start))
                    glyph = glyph and (glyph + delta) & 0xFFFF
                else:
                    glyph = (c + delta) & 0xFFFF
                if glyph:
                    found.add(c)
    return found


# ---------------------------------------------------------------------- clusters
ZWJ = "\u200d"
_IGNORABLE = frozenset("\u200c\u200d\ufe0e\ufe0f") | {chr(c) for c in range(0xE0020, 0xE0080)}
"""Joiners, variation selectors and tag characters: shaped with their cluster, needing no glyph."""


def _extends(prev: str, ch: str) -> bool:
    """Whether ``ch`` belongs to the cluster that ends with ``prev``."""
    cp = ord(ch)
    return (
        unicodedata.category(ch) in ("Mn", "Mc", "Me")
        or ch in _IGNORABLE
        or prev == ZWJ
        or 0x1F3FB <= cp <= 0x1F3FF  # skin tones
        or 0xFE00 <= cp <= 0xFE0F
    )


@lru_cache(maxsize=2048)
def clusters(s: str) -> tuple[str, ...]:
    """``s`` cut into clusters that are never split: a character with its marks, an emoji sequence, a flag."""
    out: list[str] = []
    for ch in s:
        if out and (_extends(out[-1][-1], ch) or _flag_half(out[-1], ch)):
            out[-1] += ch
        else:
            out.append(ch)
    return tuple(out)


def _flag_half(cluster: str, ch: str) -> bool:
    def regional(c: str) -> bool:
        return 0x1F1E6 <= ord(c) <= 0x1F1FF

    return len(cluster) == 1 and regional(cluster) and regional(ch)


def _is_emoji(cluster: str) -> bool:
    """Emoji presentation: pictographs outside the BMP, or any sequence that asks for it."""
    return ord(cluster[0]) >= 0x1F000 or "\ufe0f" in cluster or ZWJ in cluster or "\u20e3" in cluster


def _face_for(cluster: str, files: tuple[str, ...]) -> str:
    needed = [ord(c) for c in cluster if c not in _IGNORABLE]
    order = (EMOJI, *files) if _is_emoji(cluster) else files
    for file in order:
        cover = coverage(file)
        if all(c in cover for c in needed):
            return file
    return files[0]  # nobody has it: the primary font's missing-glyph box


# ---------------------------------------------------------------------- bidi
def _bidi_class(cluster: str) -> str:
    cls = unicodedata.bidirectional(cluster[0])
    if cls in ("L", "R", "AL", "EN", "ES", "ET", "AN", "CS", "WS", "S", "B"):
        return cls
    return "ON"  # marks standing alone, explicit embeddings and isolates (not supported) count as neutral


def levels(classes: list[str]) -> list[int]:
    """Embedding levels of a single line without explicit embeddings (UAX #9, rules W1–W7, N1–N2, I1–I2
    and L1): 0, 2 left to right, 1 right to left.

    The line is right to left only when it has right-to-left letters and no left-to-right ones (rather
    than rule P2's first strong letter): the images' own words are English, so a sentence that starts
    with an Arabic name still reads left to right, while a name all in Arabic or Hebrew reads right to left."""
    base = "L" not in classes and ("R" in classes or "AL" in classes)
    types = list(classes)
    strong = "R" if base else "L"
    for i, cls in enumerate(types):  # W2, W3
        if cls in ("L", "R", "AL"):
            strong = cls
        elif cls == "EN" and strong == "AL":
            types[i] = "AN"
    types = ["R" if cls == "AL" else cls for cls in types]
    for i in range(1, len(types) - 1):  # W4
        if types[i] in ("ES", "CS") and types[i - 1] == types[i + 1] == "EN":
            types[i] = "EN"
        elif types[i] == "CS" and types[i - 1] == types[i + 1] == "AN":
            types[i] = "AN"
    for i, cls in enumerate(types):  # W5: terminators next to European numbers
        if cls == "ET":
            j = i
            while j < len(types) and types[j] == "ET":
                j += 1
            if (i and types[i - 1] == "EN") or (j < len(types) and types[j] == "EN"):
                types[i:j] = ["EN"] * (j - i)
    types = ["ON" if cls in ("ES", "ET", "CS") else cls for cls in types]  # W6
    strong = "R" if base else "L"
    for i, cls in enumerate(types):  # W7
        if cls in ("L", "R"):
            strong = cls
        elif cls == "EN" and strong == "L":
            types[i] = "L"
    i = 0
    while i < len(types):  # N1, N2: neutrals take their surroundings' direction, or the base one
        if types[i] not in ("ON", "WS", "S", "B"):
            i += 1
            continue
        j = i
        while j < len(types) and types[j] in ("ON", "WS", "S", "B"):
            j += 1
        before = _strength(types[i - 1]) if i else ("R" if base else "L")
        after = _strength(types[j]) if j < len(types) else ("R" if base else "L")
        types[i:j] = [before if before == after else ("R" if base else "L")] * (j - i)
        i = j
    out = []
    for cls in types:  # I1, I2
        if base:
            out.append(2 if cls in ("L", "EN", "AN") else 1)
        else:
            out.append(1 if cls == "R" else 2 if cls in ("AN", "EN") else 0)
    k = len(classes)
    while k and classes[k - 1] in ("WS", "S", "B"):  # L1: trailing white space
        k -= 1
    return out[:k] + [int(base)] * (len(out) - k)


def _strength(cls: str) -> str:
    return "L" if cls == "L" else "R"  # numbers count as right to left for neutrals (N1)


# ---------------------------------------------------------------------- lines
class Run(NamedTuple):
    """A piece of a line in one font and one direction; ``text`` is in logical order."""

    text: str
    file: str
    rtl: bool


@lru_cache(maxsize=4096)
def line(s: str, primary: str) -> tuple[Run, ...]:
    """``s`` as runs in display order, left to right, for the font chain of ``primary``."""
    parts = clusters(s)
    files = chain(primary)
    chosen = [_face_for(c, files) for c in parts]
    _same_face_per_word(parts, chosen, files)
    lv = levels([_bidi_class(c) for c in parts])
    runs: list[tuple[int, list[str], str]] = []
    for cluster, file, level in zip(parts, chosen, lv, strict=True):
        if runs and runs[-1][0] == level and runs[-1][2] == file:
            runs[-1][1].append(cluster)
        else:
            runs.append((level, [cluster], file))
    for level in range(max(lv, default=0), 0, -1):  # L2: reverse every sequence at this level or higher
        i = 0
        while i < len(runs):
            if runs[i][0] < level:
                i += 1
                continue
            j = i
            while j < len(runs) and runs[j][0] >= level:
                j += 1
            runs[i:j] = runs[i:j][::-1]
            i = j
    return tuple(Run("".join(cs), file, level % 2 == 1) for level, cs, file in runs)


def _same_face_per_word(parts: tuple[str, ...], chosen: list[str], files: tuple[str, ...]) -> None:
    """Keep a word in one font when one font has all of it, so that its letters join and shape."""
    i = 0
    while i < len(parts):
        j = i
        while j < len(parts) and unicodedata.category(parts[j][0])[0] in "LM" and not _is_emoji(parts[j]):
            j += 1
        if len(set(chosen[i:j])) > 1:
            needed = {ord(c) for part in parts[i:j] for c in part if c not in _IGNORABLE}
            whole = next((f for f in files if needed <= coverage(f)), None)
            if whole is not None:
                chosen[i:j] = [whole] * (j - i)
        i = max(j, i + 1)


_NOT_LEFT_TO_RIGHT = frozenset({"R", "AL", "AN", "LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"})
"""Bidirectional classes that make a line more than one left-to-right run: right-to-left letters, Arabic
numbers, explicit embeddings and isolates."""


def plain(s: str, primary: str) -> bool:
    """Whether :func:`line` would find ``s`` one left-to-right run in ``primary`` (:func:`is_simple`), told
    without its analysis: every character is ``primary``'s, none is right to left or asks for an emoji.
    Names in Latin letters, German words, dashes and card suits are; analysing them cost ~0.5 ms a long
    line, for every status and event a board drew afresh."""
    cover = coverage(primary)
    return all(
        ord(c) in cover
        and ord(c) < 0x1F000
        and c not in "\ufe0f\u200d\u20e3"
        and unicodedata.bidirectional(c) not in _NOT_LEFT_TO_RIGHT
        for c in s
    )


def is_simple(runs: tuple[Run, ...], primary: str) -> bool:
    """One left-to-right run in the primary font: Pillow draws it as it is, anchors and all."""
    return len(runs) == 1 and runs[0].file == primary and not runs[0].rtl


def _shaped(run: Run, raqm: bool) -> tuple[str, dict[str, str]]:
    """The text and keyword arguments to draw ``run`` with Pillow."""
    if raqm:
        return run.text, {"direction": "rtl" if run.rtl else "ltr"}
    text = "".join(c for c in run.text if c not in _IGNORABLE)
    return (_reverse_clusters(text) if run.rtl else text), {}


def _reverse_clusters(s: str) -> str:
    return "".join(reversed(clusters(s)))


def run_width(run: Run, size: int, raqm: bool = RAQM) -> float:
    """The advance of ``run`` at ``size`` px."""
    text, kwargs = _shaped(run, raqm)
    if run.file == EMOJI:
        return face(EMOJI, size, raqm).getlength(text, **kwargs) * _emoji_k(size)
    return face(run.file, size, raqm).getlength(text, **kwargs)


def _emoji_k(size: int) -> float:
    return size * EMOJI_SCALE / EMOJI_PPEM


def draw_line(
    runs: tuple[Run, ...], size: int, fill: tuple[int, ...], outline: tuple[int, ...] | None, raqm: bool = RAQM
) -> tuple[Image.Image, int, int, float]:
    """``runs`` drawn on a transparent image: the image, the pen's start (x, baseline y) in it, and the
    line's advance. ``outline`` adds a 2 px stroke around the letters (not around colour emoji)."""
    stroke = 2 * bool(outline)
    pieces = []
    x = 0.0
    for run in runs:
        text, kwargs = _shaped(run, raqm)
        if run.file == EMOJI:
            img = _emoji(text, size, run.rtl, raqm)
            k = _emoji_k(size)
            top = round(-face(EMOJI, size, raqm).getmetrics()[0] * k)
            pieces.append((x, (0, top, img.width, top + img.height), run, img, kwargs, text))
        else:
            bbox = face(run.file, size, raqm).getbbox(text, anchor="ls", stroke_width=stroke, **kwargs)
            pieces.append((x, bbox, run, None, kwargs, text))
        x += run_width(run, size, raqm)
    left = min((round(px + b[0]) for px, b, *_ in pieces), default=0)
    top = min((b[1] for _, b, *_ in pieces), default=0)
    right = max((round(px + b[2]) for px, b, *_ in pieces), default=1)
    bottom = max((b[3] for _, b, *_ in pieces), default=1)
    img = Image.new("RGBA", (max(1, right - left), max(1, bottom - top)), (*fill[:3], 0))
    draw = ImageDraw.Draw(img)
    for px, box, run, emoji, kwargs, text in pieces:
        if emoji is not None:
            img.alpha_composite(emoji, (round(px) - left, box[1] - top))
        else:
            draw.text(
                (px - left, -top),
                text,
                font=face(run.file, size, raqm),
                fill=fill,
                anchor="ls",
                stroke_width=stroke,
                stroke_fill=outline,
                **kwargs,
            )
    return img, -left, -top, x


@image_cache
def _emoji(text: str, size: int, rtl: bool, raqm: bool) -> Image.Image:
    """Colour emoji drawn at their bitmap size, then scaled to ``size`` px text."""
    fnt = face(EMOJI, size, raqm)
    ascent, descent = fnt.getmetrics()
    kwargs = {"direction": "rtl" if rtl else "ltr"} if raqm else {}
    w = max(1, round(fnt.getlength(text, **kwargs)))
    big = Image.new("RGBA", (w, ascent + descent), (0, 0, 0, 0))
    ImageDraw.Draw(big).text((0, ascent), text, font=fnt, anchor="ls", embedded_color=True, **kwargs)
    k = _emoji_k(size)
    return big.resize((max(1, round(w * k)), max(1, round((ascent + descent) * k))), Image.Resampling.LANCZOS)
