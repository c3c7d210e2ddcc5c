"""Every text drawn fits or wraps: over every renderer of every registered game, at every phase seeded play
reaches, with 1, 2, 6 and 8 players where the game allows (and its largest table), no text is cut with "…",
none runs off its image or out of the panel it starts in, none overlaps another text, none is hidden under
something pasted over it, and none is too small to read on a phone (``theme.readable``: 9 px once a phone
shows the image 400 px wide).

Each game's largest table with its first options runs by default; the other tables and options are
``slow`` (``python -m pytest -m slow``): a case renders every phase's board, hand and final cold.

The record comes from the theme's one text-drawing helper (``theme._stamp``), the one cutting helper
(``theme.ellipsize``), panels (``theme.panel``) and pastes (``theme._over``), spied on while a board renders.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest
from PIL import Image

from games.core import JSON, clone
from games.i18n import LANGUAGES
from games.registry import GAMES, GameSpec
from games.simulate import self_play
from rendering import theme
from tests.i18n_checks import unmarked
from tests.test_render_phone import _clear_caches

Box = tuple[int, int, int, int]

NAMES = [
    "Captain Christopher Columbus",
    "Anne Bonny",
    "Bartholomew Roberts",
    "李小龍",
    "Calico Jack Rackham",
    "Zoë 🐀",
    "Mary Read",
    "Blackbeard",
]
"""Display names as long as Discord allows them to be in practice, in several scripts."""

SIZES = (1, 2, 6, 8)
OPTIONS: dict[str, list[dict[str, Any]]] = {
    "sewerpirats": [{"variant": "standard"}, {"variant": "auction"}, {"variant": "landlubber"}],
    "sewerrat": [{"teams": "ffa"}, {"teams": "2"}, {"teams": "3"}],
    "piratz": [{"blind": False}, {"blind": True}],
}


@dataclass(frozen=True)
class Text:
    s: str
    size: int
    box: Box
    at: tuple[int, int]


@dataclass
class Sheet:
    """What was drawn on one image: its texts and panels, and the texts hidden by later pastes."""

    texts: list[Text] = field(default_factory=list)
    panels: list[Box] = field(default_factory=list)
    hidden: list[Text] = field(default_factory=list)


@dataclass
class Record:
    sheets: dict[int, Sheet] = field(default_factory=dict)
    cuts: dict[str, str] = field(default_factory=dict)
    """Every text ``ellipsize`` cut, by what it made of it (a wrapper may cut a text, then wrap it instead)."""
    cut: list[str] = field(default_factory=list)
    """The texts drawn cut."""
    keep: list[Image.Image] = field(default_factory=list)
    """Every image recorded, kept alive so that no ``id`` is reused while recording."""

    def sheet(self, img: Image.Image) -> Sheet:
        if id(img) not in self.sheets:
            self.keep.append(img)
            self.sheets[id(img)] = Sheet()
        return self.sheets[id(img)]


def _overlap(a: Box, b: Box) -> tuple[int, int]:
    return min(a[2], b[2]) - max(a[0], b[0]), min(a[3], b[3]) - max(a[1], b[1])


def _inside(box: Box, outer: Box, slack: int = 1) -> bool:
    return (
        box[0] >= outer[0] - slack
        and box[1] >= outer[1] - slack
        and box[2] <= outer[2] + slack
        and box[3] <= outer[3] + slack
    )


@contextmanager
def recording() -> Iterator[Record]:
    """Record every text drawn, cut, panel and paste inside the block (caches cleared before and after)."""
    record = Record()
    stamp, ellipsize, panel, over, copy = theme._stamp, theme.ellipsize, theme.panel, theme._over, Image.Image.copy
    stamping = [False]

    def spy_stamp(canvas, xy, s, fnt, fill, anchor, outline):  # type: ignore[no-untyped-def]
        img, (dx, dy) = theme._draw_text(s, fnt, fill, anchor, outline)
        x, y = round(xy[0]) + dx, round(xy[1]) + dy
        # A shadow is the same text 2 px down and right: one record per text.
        if s in record.cuts:
            record.cut.append(record.cuts[s])
        sheet = record.sheet(canvas)
        text = Text(s, fnt.size, (x, y, x + img.width, y + img.height), (round(xy[0]), round(xy[1])))
        if not any(
            old.s == s and abs(old.at[0] - text.at[0]) <= 2 and abs(old.at[1] - text.at[1]) <= 2
            for old in sheet.texts[-1:]
        ):
            sheet.texts.append(text)
        stamping[0] = True
        try:
            stamp(canvas, xy, s, fnt, fill, anchor, outline)
        finally:
            stamping[0] = False

    def spy_ellipsize(s, fnt, width):  # type: ignore[no-untyped-def]
        out = ellipsize(s, fnt, width)
        if out != s:
            record.cuts[out] = s
        return out

    def spy_panel(canvas, box, **kwargs):  # type: ignore[no-untyped-def]
        record.sheet(canvas).panels.append(tuple(box))
        panel(canvas, box, **kwargs)

    def spy_over(canvas, img, x, y):  # type: ignore[no-untyped-def]
        if not stamping[0]:
            sheet = record.sheet(canvas)
            alpha = img.getchannel("A") if img.mode == "RGBA" else None
            for text in sheet.texts:
                w, h = _overlap(text.box, (x, y, x + img.width, y + img.height))
                if w <= 0 or h <= 0:
                    continue
                box = (max(text.box[0], x) - x, max(text.box[1], y) - y)
                region = alpha.crop((*box, box[0] + w, box[1] + h)) if alpha is not None else None
                opaque = w * h if region is None else sum(region.histogram()[200:])
                area = (text.box[2] - text.box[0]) * (text.box[3] - text.box[1])
                if opaque > 0.08 * area:
                    sheet.hidden.append(text)
            if id(img) in record.sheets:  # a piece with words of its own (a card) pasted: its words come along
                for text in record.sheets[id(img)].texts:
                    moved = (text.box[0] + x, text.box[1] + y, text.box[2] + x, text.box[3] + y)
                    sheet.texts.append(Text(text.s, text.size, moved, (text.at[0] + x, text.at[1] + y)))
        over(canvas, img, x, y)

    def spy_copy(img):  # type: ignore[no-untyped-def]
        out = copy(img)
        if id(img) in record.sheets:
            old = record.sheets[id(img)]
            new = record.sheet(out)
            new.texts, new.panels = list(old.texts), list(old.panels)
        return out

    _clear_caches()
    theme._stamp, theme.ellipsize, theme.panel, theme._over = spy_stamp, spy_ellipsize, spy_panel, spy_over
    Image.Image.copy = spy_copy  # type: ignore[method-assign]
    try:
        yield record
    finally:
        theme._stamp, theme.ellipsize, theme.panel, theme._over = stamp, ellipsize, panel, over
        Image.Image.copy = copy  # type: ignore[method-assign]
        _clear_caches()


def problems(render: Callable[..., bytes], view: JSON, names: list[str], locale: str = "en") -> list[str]:
    """Every way the texts of ``render(view, names, locale)`` fail to fit, in words (empty when all fit); in
    the ``pseudo`` language also every word no catalog wrote (a sheet's texts read in the order drawn, so a
    message wrapped over several lines is read whole)."""
    with recording() as record:
        png = render(view, names, locale)
        final = Image.open(io.BytesIO(png))
        out = [f"cut: {s!r}" for s in record.cut]
        for sheet_id, sheet in record.sheets.items():
            img = next(i for i in record.keep if id(i) == sheet_id)
            bounds = (0, 0, img.width, img.height)
            for n, text in enumerate(sheet.texts):
                if not theme.readable(text.size, final.width):
                    out.append(f"small: {text.s!r} at {text.size} px on a {final.width} px image")
                if not _inside(text.box, bounds):
                    out.append(f"off the image: {text.s!r} at {text.box} on {bounds}")
                home = [p for p in sheet.panels if p[0] <= text.at[0] <= p[2] and p[1] <= text.at[1] <= p[3]]
                if home and not _inside(text.box, min(home, key=lambda p: (p[2] - p[0]) * (p[3] - p[1]))):
                    out.append(f"out of its panel: {text.s!r} at {text.box}")
                for other in sheet.texts[:n]:
                    w, h = _overlap(text.box, other.box)
                    if w > 2 and h > 2 and other.s != text.s:
                        out.append(f"overlaps: {text.s!r} {text.box} and {other.s!r} {other.box}")
            out += [f"hidden: {text.s!r} at {text.box}" for text in sheet.hidden]
            if locale == "pseudo" and (words := unmarked(" ".join(t.s for t in sheet.texts), names)):
                out.append(f"not from a catalog: {' '.join(words)!r}")
    return sorted(set(out))


def _phase(kind: str, state: JSON) -> str:
    if kind == "pirates":
        pending = state["pending"]
        return pending["kind"] if pending else "duel" if state["duel"] else "main"
    return str(state.get("phase"))


def positions(spec: GameSpec, players: int, options: Mapping[str, Any]) -> dict[str, JSON]:
    """The first state of each phase in two seeded AI games (the second one reaches phases the first does
    not), and the last state of the first one unless it is one of those already (a game over)."""
    seen: dict[str, JSON] = {}
    for seed in ("fit-a", "fit-b"):
        last: JSON = {}
        for state in self_play(spec.game, spec.ai(), players, f"{seed}-{players}", dict(options)):
            seen.setdefault(_phase(spec.kind, state), clone(state))
            last = state
        if seed == "fit-a" and last not in seen.values():
            seen["end"] = clone(last)
    return seen


def cases() -> Iterator[Any]:
    """Every game at 1, 2, 6 and 8 players where it allows them and at its largest table, with each of its
    options, in every language of :data:`LANGUAGES` and in the ``pseudo`` language (every word 40% longer);
    all but the largest table with the first options are ``slow``."""
    for kind, spec in GAMES.items():
        most = spec.game.max_players
        sizes = sorted({n for n in SIZES if spec.game.min_players <= n <= most} | {most})
        for n, options in enumerate(OPTIONS.get(kind, [{}])):
            for players in sizes:
                try:
                    spec.game.new_game(players, options, "fit")
                except ValueError:
                    continue  # a team size this table does not take
                for locale in (*LANGUAGES, "pseudo"):  # every language the bot speaks, and 40% longer
                    label = "-".join([kind, str(players), *(str(v) for v in options.values()), locale])
                    marks = [] if n == 0 and players == most else [pytest.mark.slow]
                    yield pytest.param(kind, players, options, locale, id=label, marks=marks)


@pytest.mark.parametrize(("kind", "players", "options", "locale"), list(cases()))
def test_every_text_fits_or_wraps(kind: str, players: int, options: dict[str, Any], locale: str) -> None:
    spec = GAMES[kind]
    found: list[str] = []
    for phase, state in positions(spec, players, options).items():
        game = spec.game
        names = NAMES[: state["players"] if spec.names_by_player else state["seats"]]
        public = game.view(state, None)
        render = spec.render_final if game.is_over(state) else spec.render_board
        found += [f"{phase} {render.__name__}: {p}" for p in problems(render, public, names, locale)]
        if game.is_over(state):
            found += [f"{phase} render_board: {p}" for p in problems(spec.render_board, public, names, locale)]
        hand = spec.render_hand
        if hand is not None:
            for seat in sorted(set(game.to_act(state)) or {0}):
                private = game.view(state, seat)
                found += [f"{phase} hand {seat}: {p}" for p in problems(hand, private, names, locale)]
    assert not found, "\n".join(dict.fromkeys(found))


_ALONE = r"(?<![^\W\d_])(?:{})(?![^\W\d_])"
IDENTIFIERS = {
    "searats": re.compile(_ALONE.format(r"[A-K]|[A-K](?:1[01]|[1-9])")),
    "sewerrat": re.compile(_ALONE.format(r"[A-F]")),
    "pirates": re.compile(_ALONE.format(r"[AJQK]|[AJQK][♥♦♣♠]")),
}
"""What a game's images may draw that no catalog writes: a Sea Rats! chart's columns (A–K) and dots (F6), a
Sewer Rat rat's mark (A–F), a card's rank or corner index (Q, J♥). Nothing else, and nothing in another game."""
_INNER = re.compile(r"⟦[^⟦⟧]*⟧")


def letters_no_catalog_wrote(text: str, names: list[str], kind: str) -> list[str]:
    """The letters of ``text`` (drawn in the ``pseudo`` language) outside every ``⟦…⟧`` once the players'
    names and :data:`IDENTIFIERS` are taken out, word by word: every letter counts, not only words of two."""
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    while (inner := _INNER.sub(" ", text)) != text:
        text = inner
    initials = {name[0] for name in names} if kind == "searats" else set()  # a ship marked with its captain's
    return [
        w
        for w in re.findall(r"\S*[^\W\d_]\S*", IDENTIFIERS[kind].sub(" ", text) if kind in IDENTIFIERS else text)
        if w not in initials
    ]


@pytest.mark.parametrize("kind", list(GAMES))
def test_no_image_draws_a_string_the_catalogs_did_not_write(kind: str) -> None:
    """Every letter drawn, in the ``pseudo`` language, is a catalog's (inside ``⟦…⟧``) or a player's name: not
    only words of two letters (what the fit test reads) but a "C" on a captain's space, an "r3" on an axis, a
    "Y5" on a toilet. Every image of the game's largest table at each phase seeded play reaches; a sheet's
    texts are read in the order drawn, so a message wrapped over several lines is read whole."""
    spec = GAMES[kind]
    found: set[str] = set()
    for state in positions(spec, spec.game.max_players, OPTIONS.get(kind, [{}])[0]).values():
        game = spec.game
        names = NAMES[: state["players"] if spec.names_by_player else state["seats"]]
        renders = [(spec.render_final if game.is_over(state) else spec.render_board, game.view(state, None))]
        if spec.render_hand is not None:
            renders += [(spec.render_hand, game.view(state, seat)) for seat in sorted(set(game.to_act(state)) or {0})]
        for render, view in renders:
            with recording() as record:
                render(view, names, "pseudo")
            for sheet in record.sheets.values():
                found.update(letters_no_catalog_wrote(" ".join(t.s for t in sheet.texts), names, kind))
    assert not found, sorted(found)
