"""Images of the records: a game's leaderboard, a member's stats, a tournament's standings, and a replay (an
animated WebP of the public boards a game went through)."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from games.i18n import localize, tr
from rendering import theme

WIDTH = 1100
ROW_H = 56
TOP = 120

REPLAY_WIDTH = 800
"""Replay frames are scaled to this width: Discord shows an attachment at most about this wide, and the
file stays well under its 8 MB upload limit."""
FRAME_MS = 100
FINAL_MS = 2000
"""How long each position is shown, and the final image at the end."""
MAX_FRAMES = 40
"""Positions shown at most (sampled evenly, the last as the final image): under six seconds for any game."""


@dataclass(frozen=True, slots=True)
class LeaderRow:
    rank: int
    name: str
    rating: float
    """The conservative rating μ − 3σ."""
    games: int
    wins: int


@dataclass(frozen=True, slots=True)
class StatsRow:
    title: str
    played: int
    won: int
    rating: float | None
    """The conservative rating in this scope, ``None`` if never rated."""
    trend: tuple[float, ...]
    """The rating before the last few rated games and after each, oldest first."""
    favourites: tuple[str, ...]


def _heading(canvas: Image.Image, title: str, subtitle: str) -> None:
    text, fnt = theme.fit_text(title, WIDTH - 80, 44)
    theme.text(canvas, (40, 30), text, fnt, theme.GOLD, shadow=theme.OUTLINE)
    theme.text(canvas, (40, 84), theme.ellipsize(subtitle, theme.font(26), WIDTH - 80), theme.font(26), theme.MIST)


def _cell(
    canvas: Image.Image, x: float, y: float, s: str, width: float, *, bold: bool = False, anchor: str = "lm"
) -> None:
    text, fnt = theme.fit_text(s, width, 28, bold=bold)
    theme.text(canvas, (x, y), text, fnt, theme.INK, anchor=anchor)


def _label(canvas: Image.Image, x: float, label: str, width: float, size: int, anchor: str, min_size: int) -> None:
    """A column's heading, shrunk (down to ``min_size`` px) to fit ``width``."""
    text, fnt = theme.fit_text(label, width, size, min_size=min_size)
    theme.text(canvas, (x, TOP + 32), text, fnt, theme.INK_SOFT, anchor=anchor)


Column = tuple[str, int, int, str]
"""A table's column: its heading, its x, its width and the anchor of its cells."""


def _table(
    title: str, subtitle: str, columns: Sequence[Column], count: int, empty: str, *, label: tuple[int, int]
) -> tuple[Image.Image, list[float]]:
    """A ranked table of ``count`` rows (``empty`` said when there is none) under a heading, its columns headed
    at ``label`` (size, smallest size) px, every other row shaded; the canvas and each row's middle."""
    height = TOP + 60 + ROW_H * max(1, count) + 40
    canvas = theme.new_canvas(WIDTH, height)
    _heading(canvas, title, subtitle)
    theme.panel(canvas, (24, TOP, WIDTH - 24, height - 24))
    for heading, x, width, anchor in columns:
        _label(canvas, x, heading, width, label[0], anchor, label[1])
    if not count:
        _cell(canvas, 100, TOP + 60 + ROW_H / 2, empty, 900)
    middles = []
    for i in range(count):
        y = TOP + 60 + ROW_H * i + ROW_H / 2
        if i % 2:
            theme.paste(
                canvas, theme.rounded(WIDTH - 80, ROW_H - 6, 10, theme.PARCHMENT_SHADE), (40, y - ROW_H / 2 + 3)
            )
        middles.append(y)
    return canvas, middles


def render_leaderboard(title: str, scope: str, rows: Sequence[LeaderRow], locale: str = "en") -> bytes:
    """A leaderboard: rank, name, rating (μ − 3σ), games played and win rate, best first; in ``locale``
    (``title`` and ``scope`` may be marked messages)."""
    scope = localize(scope, locale)
    columns = (
        ("#", 50, 60, "mm"),
        (tr(locale, "Player"), 100, 470, "lm"),
        (tr(locale, "Rating"), 640, 140, "mm"),
        (tr(locale, "Games"), 800, 140, "mm"),
        (tr(locale, "Won"), 950, 140, "mm"),
    )
    subtitle = tr(locale, "{scope} · rating = μ − 3σ, which rises as you play", scope=scope)
    empty = tr(locale, "Nobody is rated yet: finish a game with two members.")
    canvas, middles = _table(localize(title, locale), subtitle, columns, len(rows), empty, label=(26, 18))
    for row, y in zip(rows, middles, strict=True):
        _cell(canvas, 50, y, str(row.rank), 60, bold=True, anchor="mm")
        _cell(canvas, 100, y, theme.clean_name(row.name), 470, bold=row.rank == 1)
        _cell(canvas, 640, y, f"{row.rating:.1f}", 140, bold=True, anchor="mm")
        _cell(canvas, 800, y, str(row.games), 120, anchor="mm")
        _cell(canvas, 950, y, f"{round(100 * row.wins / row.games) if row.games else 0}%", 120, anchor="mm")
    return theme.to_png(canvas)


def render_standings(view: dict[str, Any], names: Sequence[str], locale: str = "en") -> bytes:
    """A tournament's standings: place, player, points, tie-break (Buchholz) and games, best first; in
    ``locale`` (``view``'s ``title`` and ``subtitle`` may be marked messages; each row is ``[place, player
    (an index of names), points, Buchholz, games]``). Every text is at least :data:`theme.MIN_TEXT` px, so it
    reads on a phone (about 400 px wide)."""
    rows = view["rows"]
    columns = (
        ("#", 50, 60, "mm"),
        (tr(locale, "Player"), 100, 450, "lm"),
        (tr(locale, "Points"), 650, 150, "mm"),
        (tr(locale, "Buchholz"), 820, 170, "mm"),
        (tr(locale, "Games"), 975, 130, "mm"),
    )
    title, subtitle = localize(view["title"], locale), localize(view["subtitle"], locale)
    empty = tr(locale, "No game of this tournament has ended yet.")
    canvas, middles = _table(title, subtitle, columns, len(rows), empty, label=(28, theme.MIN_TEXT))
    for (place, player, points, buchholz, games), y in zip(rows, middles, strict=True):
        first = place == 1
        _cell(canvas, 50, y, "🏆" if first and view.get("final") else str(place), 60, bold=True, anchor="mm")
        _cell(canvas, 100, y, theme.clean_name(names[player]), 450, bold=first)
        _cell(canvas, 650, y, str(points), 150, bold=True, anchor="mm")
        _cell(canvas, 820, y, str(buchholz), 170, anchor="mm")
        _cell(canvas, 975, y, str(games), 130, anchor="mm")
    return theme.to_png(canvas)


def _sparkline(canvas: Image.Image, box: tuple[int, int, int, int], values: Sequence[float]) -> None:
    x0, y0, x1, y1 = box
    if len(values) < 2:
        return
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    points = [(x0 + (x1 - x0) * i / (len(values) - 1), y1 - (y1 - y0) * (v - low) / span) for i, v in enumerate(values)]
    colour = (44, 156, 74) if values[-1] >= values[0] else theme.DANGER
    ImageDraw.Draw(canvas).line(points, fill=colour, width=4, joint="curve")


def render_stats(name: str, scope: str, rows: Sequence[StatsRow], locale: str = "en") -> bytes:
    """A member's stats, one row per game: played, won, rating with its trend, favourite opponents; in
    ``locale`` (``scope`` and the games' titles may be marked messages)."""
    row_h = 84
    height = TOP + 60 + row_h * max(1, len(rows)) + 40
    canvas = theme.new_canvas(WIDTH, height)
    heading = tr(locale, "{name} — stats", name=theme.clean_name(name))
    _heading(canvas, heading, tr(locale, "{scope} · rating = μ − 3σ", scope=localize(scope, locale)))
    theme.panel(canvas, (24, TOP, WIDTH - 24, height - 24))
    columns = (
        (tr(locale, "Game"), 48, 240, "lm"),
        (tr(locale, "Played"), 345, 100, "mm"),
        (tr(locale, "Won"), 455, 100, "mm"),
        (tr(locale, "Rating"), 570, 110, "mm"),
        (tr(locale, "Trend"), 700, 110, "mm"),
    )
    for label, x, width, anchor in columns:
        _label(canvas, x, label, width, 24, anchor, 18)
    _label(canvas, 790, tr(locale, "Favourite opponents"), WIDTH - 50 - 790, 24, "lm", 18)
    if not rows:
        _cell(canvas, 48, TOP + 60 + row_h / 2, tr(locale, "No finished games yet."), 900)
    for i, row in enumerate(rows):
        y = TOP + 60 + row_h * i + row_h / 2
        if i % 2:
            theme.paste(
                canvas, theme.rounded(WIDTH - 80, row_h - 6, 10, theme.PARCHMENT_SHADE), (40, y - row_h / 2 + 3)
            )
        _cell(canvas, 48, y, localize(row.title, locale), 240, bold=True)
        _cell(canvas, 345, y, str(row.played), 90, anchor="mm")
        won = f"{row.won} ({round(100 * row.won / row.played)}%)" if row.played else "0"
        _cell(canvas, 455, y, won, 130, anchor="mm")
        _cell(canvas, 570, y, "—" if row.rating is None else f"{row.rating:.1f}", 100, bold=True, anchor="mm")
        _sparkline(canvas, (645, round(y - 22), 755, round(y + 22)), row.trend)
        favourites = ", ".join(theme.clean_name(n) for n in row.favourites) or "—"
        lines, fnt = theme.fit_lines(favourites, WIDTH - 50 - 790, 26)
        for k, line in enumerate(lines):
            theme.text(canvas, (790, y + (k - (len(lines) - 1) / 2) * 28), line, fnt, theme.INK, anchor="lm")
    return theme.to_png(canvas)


# ---------------------------------------------------------------------------------------------- replays


def replay_frame(png: bytes, width: int = REPLAY_WIDTH) -> Image.Image:
    """A board image as a replay frame: RGB, scaled to ``width`` (never enlarged)."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    if image.width > width:
        image = image.resize((width, round(image.height * width / image.width)), Image.Resampling.LANCZOS)
    return image


def draw_replay(
    board: Callable[[dict[str, Any], Sequence[str], str], bytes],
    final: Callable[[dict[str, Any], Sequence[str], str], bytes],
    frames: Sequence[tuple[dict[str, Any], Sequence[str]]],
    over: bool,
    locale: str,
) -> bytes:
    """The replay of a game's public ``frames`` (views and seat names, in order) drawn with its ``board``
    renderer, the last one with its ``final`` renderer when the game is ``over`` (:func:`render_replay`)."""
    shown = frames[:-1] if over else frames
    boards = [board(view, names, locale) for view, names in shown]
    last = final(*frames[-1], locale) if over else None
    return render_replay(boards, last)


def render_replay(boards: Sequence[bytes], final: bytes | None = None) -> bytes:
    """An animated WebP of ``boards`` (PNG images, in order), ending on ``final`` (or the last
    board) shown longer. Frames of different heights are laid top-left on a canvas of the tallest one."""
    frames = [replay_frame(b) for b in boards]
    if final is not None:
        frames.append(replay_frame(final))
    width = max(f.width for f in frames)
    height = max(f.height for f in frames)
    canvas = [_padded(f, width, height) for f in frames]
    durations = [FRAME_MS] * (len(canvas) - 1) + [FINAL_MS]
    out = io.BytesIO()
    canvas[0].save(
        out,
        "WEBP",
        save_all=True,
        append_images=canvas[1:],
        duration=durations,
        loop=0,
        # Lossy at 75, effort 2: a 48-frame Sewer Pirats replay is ~1.9 MB (lossless: 12 MB) and encodes in
        # ~1.5 s (effort 4: 2.0 MB in ~3 s).
        quality=75,
        method=2,
    )
    return out.getvalue()


def _padded(frame: Image.Image, width: int, height: int) -> Image.Image:
    if frame.size == (width, height):
        return frame
    canvas = Image.new("RGB", (width, height), theme.SEA_DEEP)
    canvas.paste(frame, (0, 0))
    return canvas
