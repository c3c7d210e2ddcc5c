"""Sewer Rat renderer: every phase renders to a sensible PNG that shows what the view says."""

from __future__ import annotations

import io
import time

import pytest
from PIL import Image

from games.i18n import localize
from games.sewerrat import SewerRat, SewerRatAI
from games.sewerrat.components import SQUARE_BY_TEXT
from games.simulate import self_play
from rendering import sewerrat, theme
from tests.support import pixels
from tests.test_render_phone import text_sizes

GAME = SewerRat()
NAMES = ["Anne Bonny", "Calico Jack", "Mary Read", "Blackbeard", "Ｃａｐｔａｉｎ 🦜 Bartholomew Roberts", "x" * 60]


def image(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    assert img.format == "PNG" and img.width == sewerrat.WIDTH
    return img.convert("RGB")


def centre(square: str) -> tuple[int, int]:
    x, y = sewerrat._centre(SQUARE_BY_TEXT[square])
    return round(x), round(y)


def positions(players: int, teams: str) -> dict[str, dict]:
    """The first view of each phase met in a seeded AI game, and the final one."""
    seen: dict[str, dict] = {}
    for i in range(6):
        for state in self_play(GAME, SewerRatAI(), players, f"render{i}", {"teams": teams}):
            seen.setdefault(state["phase"], GAME.view(state, None))
    return seen


@pytest.mark.parametrize(("players", "teams"), [(2, "ffa"), (4, "2"), (6, "3"), (5, "ffa")])
def test_every_phase_renders(players: int, teams: str) -> None:
    for phase, view in positions(players, teams).items():
        img = image(sewerrat.render_board(view, NAMES[:players]))
        assert img.height > 1200, phase
        if phase == "over":
            final = image(sewerrat.render_final(view, NAMES[:players]))
            assert final.height > 1200


def board_view(**changes) -> dict:
    state = GAME.new_game(3, {"teams": "ffa"}, "pixels")
    state.update(board=[15] * 64, phase="move", actor=1, mover=1, turn=4)
    state["supply"] = {"straight": 5, "elbow": 5, "tee": 5, "cross": 0, "cap": 5, "blank": 3}
    state["rats"] = [SQUARE_BY_TEXT["r1c1"], SQUARE_BY_TEXT["r4c4"], SQUARE_BY_TEXT["r8c8"]]
    state["traps"][SQUARE_BY_TEXT["r4c6"]] = 2
    state["traps"][SQUARE_BY_TEXT["r6c4"]] = 1
    state["roll"] = {"y": 6, "g": 4, "at": [SQUARE_BY_TEXT["r6c4"]]}
    state.update(changes)
    return GAME.view(state, None)


def near(pixel: tuple[int, int, int], colour: tuple[int, int, int], tolerance: int = 40) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour, strict=True))


def test_rats_traps_and_destinations_are_drawn_where_the_view_says() -> None:
    img = image(sewerrat.render_board(board_view(), NAMES[:3]))
    x, y = centre("r4c4")
    assert near(img.getpixel((x, y - 25)), theme.PLAYER_COLOURS[1].fill)  # B's rat
    assert near(img.getpixel((x, y - 45)), theme.HIGHLIGHT, 60)  # ringed: it must move
    x, y = centre("r4c5")  # a legal stop east of it
    assert near(img.getpixel((x + 16, y)), theme.HIGHLIGHT, 60)
    x, y = centre("r4c6")  # the red trap
    assert near(img.getpixel((x, y - 20)), sewerrat.RED_TRAP, 60)
    x, y = centre("r6c4")  # a black trap, where the last roll put it (a gold frame)
    assert near(img.getpixel((x, y)), sewerrat.BLACK_TRAP, 40)
    cx, cy = sewerrat._cell(SQUARE_BY_TEXT["r6c4"])
    assert near(img.getpixel((cx + 6, cy + 40)), theme.GOLD, 60)


def test_a_pending_tile_change_is_drawn_framed() -> None:
    square = SQUARE_BY_TEXT["r5c5"]
    view = board_view(phase="tiles", actor=1, pending=[[square, 0]])
    assert view["change"] == [[square, 0]] and localize(view["pending"]) == "{p1} is changing 1 of up to 4 tiles"
    img = image(sewerrat.render_board(view, NAMES[:3]))
    x, y = sewerrat._cell(square)
    assert near(img.getpixel((x + 3, y + 50)), sewerrat.PENDING, 60)
    assert near(img.getpixel((x + 50, y + 50)), sewerrat.TILE_BG, 20)  # the blank tile it will hold
    refused = image(sewerrat.render_board(dict(view, refused=True), NAMES[:3]))
    assert near(refused.getpixel((x + 3, y + 50)), theme.DANGER, 60)
    picked = SQUARE_BY_TEXT["r2c2"]  # the square whose tile is being chosen is framed too
    x, y = sewerrat._cell(picked)
    before = image(sewerrat.render_board(view, NAMES[:3])).getpixel((x + 3, y + 50))
    choosing = image(sewerrat.render_board(board_view(phase="tile", actor=1, picking=picked), NAMES[:3]))
    assert near(choosing.getpixel((x + 3, y + 50)), sewerrat.PENDING, 60) and not near(before, sewerrat.PENDING, 60)


def test_rendering_is_fast_enough() -> None:
    views = [GAME.view(s, None) for s in self_play(GAME, SewerRatAI(), 4, "speed", {"teams": "2"})][:40]
    sewerrat.render_board(views[0], NAMES[:4])
    times = []
    for view in views:
        started = time.perf_counter()
        sewerrat.render_board(view, NAMES[:4])
        times.append(time.perf_counter() - started)
    times.sort()
    assert times[len(times) // 2] < 0.06  # the bench's target is 15 ms; this only catches a regression


def test_no_text_is_too_small_for_a_phone() -> None:
    views = positions(4, "2")
    with text_sizes() as drawn:
        for view in views.values():
            sewerrat.render_board(view, NAMES[:4])
        sewerrat.render_final(views["over"], NAMES[:4])
    small = {(size, s) for size, s in drawn if size < theme.MIN_TEXT}
    assert drawn and not small, sorted(small)[:5]


def test_a_planned_tile_has_its_own_frame_and_legend_entry() -> None:
    view = board_view(phase="tiles", pending=[[SQUARE_BY_TEXT["r2c2"], 5]])
    assert view["change"], "the view shows the planned change"
    img = image(sewerrat.render_board(view, NAMES[:3]))
    x, y = centre("r2c2")
    edge = round(sewerrat.CELL / 2) - 5
    assert near(img.getpixel((x, y - edge)), sewerrat.PENDING, 50)  # not the last roll's gold
    assert not near(sewerrat.PENDING, theme.GOLD, 60)
    sewerrat._base.cache_clear()
    plain = image(sewerrat.render_board(board_view(), NAMES[:3]))
    # "planned tile" wraps the legend to a second row, which every board has room for: they are as tall,
    # and laid on one layer.
    assert img.height == plain.height
    image(sewerrat.render_board(view, NAMES[:3]))
    assert sewerrat._base.cache_info().misses == 1


def test_teams_wear_their_colours() -> None:
    state = GAME.new_game(4, {"teams": "2"}, "teams")
    state.update(board=[15] * 64, phase="move", actor=0, mover=0, turn=1)
    state["rats"] = [SQUARE_BY_TEXT[q] for q in ("r1c1", "r1c3", "r1c5", "r1c7")]
    img = image(sewerrat.render_board(GAME.view(state, None), NAMES[:4]))
    for seat, square in enumerate(("r1c1", "r1c3", "r1c5", "r1c7")):
        x, y = centre(square)
        team = seat % 2  # seats alternate between the teams
        assert near(img.getpixel((x, y - 25)), theme.PLAYER_COLOURS[team].fill), (seat, square)


def test_the_board_speaks_german_and_english_from_separate_caches() -> None:
    state = GAME.new_game(4, {"teams": "2"}, "teams")
    state.update(board=[15] * 64, phase="move", actor=0, mover=0, turn=3)
    state["rats"] = [SQUARE_BY_TEXT[q] for q in ("r1c1", "r1c3", "r1c5", "r1c7")]
    view = GAME.view(state, None)
    english = sewerrat.render_board(view, NAMES[:4])
    with text_sizes() as drawn:
        german = sewerrat.render_board(view, NAMES[:4], "de")
    words = {s for _, s in drawn}
    assert {"KANALRATTE", "ZUG 3 / 300", "ZWEIERTEAMS", "Team Rot", "Team Grün", "schwarze Falle"} <= words
    assert (
        "Anne Bonny zieht die eigene Ratte" in words
        and "im Spiel · auf R1S1" in words
        and "R1" in words
        and "S1" in words
    )
    assert not words & {"Sewer Rat", "Red team", "black trap"}
    assert pixels(german) != pixels(english) and pixels(sewerrat.render_board(view, NAMES[:4])) == pixels(
        english
    )  # the legend's cache keys on it
    final = dict(view, result={"winners": [0, 2], "termination": "LAST_STANDING", "summary": ""}, phase="over")
    final["fallen"] = [[1, 2, "roll"]]
    with text_sizes() as drawn:
        sewerrat.render_final(final, NAMES[:4], "de")
    words = {s for _, s in drawn}
    assert "Sieger: Anne Bonny & Mary Read" in words and "Die Plätze aller Ratten:" in words
    assert "1. Anne Bonny (A) — am Ende noch in der Kanalisation" in words
    assert "4. Calico Jack (B) — Zug 2, von einer gewürfelten Falle erwischt" in words
