"""Sewer Pirats renderer: views from real seeded games in every variant and phase render to sensible
PNGs, highlight whoever must act, draw captains on C, and never draw anything secret on the board."""

from __future__ import annotations

import copy
import io
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from typing import Any

import pytest
from PIL import Image

from games.core import JSON, act
from games.sewerpirats import SewerPirats, SewerPiratsAI
from games.sewerpirats.scoring import breakdown, total
from rendering import sewerpirats as sp
from rendering import theme
from rendering.sewerpirats import board, icons, pieces
from tests.support import differing, pixels
from tests.test_render_phone import text_sizes

GAME = SewerPirats()
NAMES = ["Anne Bonny", "Calico Jack", "Mary Read", "Blackbeard", "Grace O'Malley"]
LONG_NAMES = [
    "Ｃａｐｔａｉｎ 🦜 Bartholomew Roberts the Third of the Seven Seas",
    "x" * 80,
    "Ω" * 40,
    "中文",
    "🦜🦜",
]
GAMES = [
    ("standard", 4, "seed1"),
    ("auction", 5, "seed1"),
    ("landlubber", 3, "seed2"),
    ("standard", 2, "seed3"),
]


@cache
def play(variant: str, seats: int, seed: str) -> tuple[JSON, ...]:
    """Every state of a game played by the AI to the end (shared by the tests: do not mutate)."""
    state = GAME.new_game(seats, {"variant": variant}, seed)
    ai = SewerPiratsAI()
    states = [copy.deepcopy(state)]
    while GAME.to_act(state):
        seat = GAME.to_act(state)[0]
        GAME.apply(state, seat, ai.choose(GAME, state, seat, GAME.rng(state)), inplace=True)
        states.append(copy.deepcopy(state))
    return tuple(states)


def one_per_phase(states: tuple[JSON, ...]) -> list[JSON]:
    """The middle state of each phase the game went through (including the final sailings and over)."""
    by_phase: dict[str, list[JSON]] = {}
    for state in states:
        by_phase.setdefault(GAME.view(state, None)["phase"], []).append(state)
    return [found[len(found) // 2] for found in by_phase.values()]


def aboard(state: JSON) -> int:
    return sum(fig is not None for ship in state["ships"] for fig in ship["spaces"])


def open_png(data: bytes, width: int = board.W) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(data))
    img.load()
    assert img.mode == "RGB"
    assert img.width == width and 150 <= img.height <= 2200, img.size
    return img


def count_colour(img: Image.Image, box: tuple[float, ...], colour: theme.RGB, tol: int = 12) -> int:
    region = img.crop(tuple(round(v) for v in box))
    colours = region.getcolors(maxcolors=region.width * region.height) or []
    return sum(n for n, c in colours if all(abs(a - b) <= tol for a, b in zip(c, colour, strict=True)))


TOAD_GAME = ("auction", 4, "s26")
"""A game with a toad's choice and final sailings."""
PHASES = {"crew", "auction", "action", "draw", "discard", "snail", "weasel", "seize", "toad", "final", "over"}


@pytest.mark.parametrize(("variant", "seats", "seed"), [*GAMES, TOAD_GAME])
def test_every_phase_renders(variant: str, seats: int, seed: str) -> None:
    for state in one_per_phase(play(variant, seats, seed)):
        img = open_png(sp.render_board(GAME.view(state, None), NAMES[:seats]))
        assert img.height >= 1200


def test_a_games_first_boards_are_as_tall_as_the_rest_and_share_their_layer() -> None:
    """The first boards, with 0, 1 and 2 events, leave room for three, as later boards of one-line events
    do: one layer serves them all, where each used to draw one of its own (~8 ms, ~6 MB) in every game."""
    states = play("standard", 3, "seed2")
    events = [len(GAME.view(s, None)["events"]) for s in states[:4]]
    assert events[:3] == [0, 1, 2] and events[3] >= 3
    board._board_layer.cache_clear()
    heights = {open_png(sp.render_board(GAME.view(s, None), ["Anne", "Ben", "Cat"])).height for s in states[:4]}
    assert len(heights) == 1
    assert board._board_layer.cache_info().misses == 1


def test_two_counts_of_event_lines_share_each_layer_through_a_game(monkeypatch) -> None:
    """The events' panel keeps room for three lines at least and above it a step of two
    (``theme.event_room``): over a whole game whose long names wrap some events, boards whose events take
    four or five lines are laid on one height of that panel, never more than one line taller than they
    need, and boards of one-line events keep the three lines they always had."""
    needed: list[tuple[int, int]] = []
    room = theme.event_room

    def spy(lines: int, least: int) -> int:
        needed.append((lines, room(lines, least)))
        return needed[-1][1]

    monkeypatch.setattr(theme, "event_room", spy)
    names = ["Anne Bonny of the Seven Seas", "Benjamin Hornigold the Elder", "Calico Jack Rackham"]
    for state in play("standard", 3, "seed2"):
        sp.render_board(GAME.view(state, None), names)
    kept = dict(needed)
    assert {0, 1, 3, 4, 5} <= set(kept)
    assert kept[0] == kept[1] == kept[3] == board.EVENT_LINES
    assert kept[4] == kept[5] == 5
    assert all(room - lines <= 1 for lines, room in kept.items() if lines >= board.EVENT_LINES)


def test_the_games_cover_every_phase() -> None:
    phases = {GAME.view(s, None)["phase"] for game in [*GAMES, TOAD_GAME] for s in play(*game)}
    assert phases == PHASES


@pytest.mark.parametrize(("variant", "seats", "seed"), GAMES)
def test_final_scoring_and_hands(variant: str, seats: int, seed: str) -> None:
    states = play(variant, seats, seed)
    end = GAME.view(states[-1], None)
    assert end["final"] is not None
    final = open_png(sp.render_final(end, NAMES[:seats]))
    # Winners are crowned (the crown's orange) under the gold title.
    assert theme.ICON_COLOURS["crown"] in [c for _, c in final.crop((0, 0, board.W, 240)).getcolors(1 << 20)]
    busy = max(states[: len(states) * 2 // 3], key=aboard)
    for seat in range(seats):
        open_png(sp.render_hand(GAME.view(busy, seat), NAMES[:seats]))
        open_png(sp.render_hand(GAME.view(states[-1], seat), NAMES[:seats]))


def test_final_scoring_shows_the_tie_break_only_when_the_best_total_is_tied() -> None:
    view = copy.deepcopy(GAME.view(play("standard", 4, "seed1")[-1], None))
    plain = open_png(sp.render_final(view, NAMES))
    scores = view["final"]["scores"]
    best = max(s["total"] for s in scores)
    for s in scores:
        s["total"] = best if s["seat"] in (0, 2) else min(s["total"], best - 1)
    scores[0]["space_sum"], scores[2]["space_sum"] = 7, 3
    view["final"]["winners"], view["final"]["tied"] = [0], [0, 2]
    tied = open_png(sp.render_final(view, NAMES))
    assert tied.height - plain.height in (112, 112 + 40)  # the tie-break strip and row (and the headline's note)
    view["final"]["winners"] = [0, 2]  # still tied after the space sums: both crowned
    open_png(sp.render_final(view, LONG_NAMES[:4]))


def test_highlight_glows_around_the_player_to_act_only() -> None:
    states = play("standard", 4, "seed1")
    checked = set()
    for state in states:
        view = GAME.view(state, None)
        if view["phase"] != "action" or view["to_act"][0] in checked:
            continue
        acting = view["to_act"][0]
        checked.add(acting)
        img = open_png(sp.render_board(view, NAMES))
        top = board._top_height(view)[1]
        for seat in range(4):
            x0, y0, _, y1 = board.player_box(4, top, seat)
            left_edge = count_colour(img, (x0 - 8, y0 + 20, x0 + 6, y1 - 20), theme.HIGHLIGHT)
            assert (left_edge > 150) == (seat == acting), (acting, seat, left_edge)
    assert len(checked) == 4


def test_the_bow_group_being_seized_from_is_highlighted() -> None:
    state = next(s for s in play("standard", 4, "seed1") if s["phase"] == "seize")
    view = GAME.view(state, None)
    sailing = state["sail"]["ship"]
    img = open_png(sp.render_board(view, NAMES))
    for ship in range(3):
        x0, y0, x1, _ = board.group_box(0, ship, 0)
        ring = count_colour(img, (x0 - 8, y0 - 8, x1 + 8, y0 + 4), theme.HIGHLIGHT)
        assert (ring > 200) == (ship == sailing), (ship, ring)


def test_a_captain_is_drawn_on_c_in_its_owners_colour() -> None:
    state = next(s for s in play("standard", 4, "seed1") if any(ship["spaces"][3] for ship in s["ships"]))
    view = GAME.view(state, None)
    img = open_png(sp.render_board(view, NAMES))
    for i, ship in enumerate(view["ships"]):
        box = board.slot_box(0, i, 3)
        captain = ship["spaces"][3]
        for seat in range(4):
            pixels = count_colour(img, box, theme.PLAYER_COLOURS[seat].fill, tol=6)
            expected = captain is not None and captain["owner"] == seat
            assert (pixels > 150) == expected, (ship["ship"], seat, pixels)
        if captain is not None:
            hat = theme.ICON_COLOURS["sp-hat"]
            assert count_colour(img, (box[0], box[1] - 10, box[2], box[1] + 60), hat, tol=8) > 30


def test_a_full_crew_and_captain_show_every_figure() -> None:
    states = play("standard", 4, "seed1")
    full = max(states, key=aboard)
    view = GAME.view(full, None)
    img = open_png(sp.render_board(view, NAMES))
    for i, ship in enumerate(view["ships"]):
        for space, fig in enumerate(ship["spaces"]):
            x0, y0, x1, y1 = board.slot_box(0, i, space)
            pixels = count_colour(img, (x0, y0 + 34, x1, y1), theme.PARCHMENT, tol=4)  # below the label
            assert (pixels > 300) == (fig is not None), (i, space)  # a figure's parchment centre


@pytest.mark.parametrize(("variant", "seats", "seed"), GAMES)
def test_the_board_never_shows_secrets(variant: str, seats: int, seed: str) -> None:
    states = play(variant, seats, seed)
    for state in [*one_per_phase(states)[:3], max(states, key=aboard)]:
        public = pixels(sp.render_board(GAME.view(state, None), NAMES))
        for seat in range(seats):
            assert pixels(sp.render_board(GAME.view(state, seat), NAMES)) == public
        changed = copy.deepcopy(GAME.view(state, seats - 1))
        changed["hand"] = ["fish"] * 9
        for p in changed["players"]:
            p["tokens"] = [{"type": "tincan", "value": 13}] * 5
            p["score"] = 999
        assert pixels(sp.render_board(changed, NAMES)) == public


def test_render_hand_shows_the_hand_and_the_tokens() -> None:
    states = play("standard", 4, "seed1")
    late = GAME.view(states[len(states) * 3 // 4], 1)
    base = sp.render_hand(late, NAMES)
    other_hand = copy.deepcopy(late)
    other_hand["hand"] = ["cat", "cat", "bird"] if late["hand"] != ["cat", "cat", "bird"] else ["fish"]
    assert pixels(sp.render_hand(other_hand, NAMES)) != pixels(base)
    richer = copy.deepcopy(late)
    tokens = [{"type": "fries", "value": 3}, {"type": "ketchup", "value": 0}, {"type": "opener", "value": 0}]
    richer["players"][1]["tokens"] = (late["players"][1]["tokens"] or []) + tokens
    richer["players"][1]["score"] = total(richer["players"][1]["tokens"])
    richer["players"][1]["breakdown"] = [line.as_json() for line in breakdown(richer["players"][1]["tokens"])]
    taller = open_png(sp.render_hand(richer, NAMES))
    assert pixels(sp.render_hand(richer, NAMES)) != pixels(base)
    assert taller.height >= open_png(base).height
    # The score shows in red; no tokens at all still renders.
    empty = copy.deepcopy(late)
    empty["players"][1]["tokens"] = []
    empty["players"][1]["score"] = 0
    empty["players"][1]["breakdown"] = []
    open_png(sp.render_hand(empty, NAMES))
    # A spectator has no hand.
    open_png(sp.render_hand(GAME.view(states[10], None), NAMES))


def test_a_hand_with_many_tokens_and_a_captain() -> None:
    states = play("standard", 4, "seed1")
    state = next(s for s in states if any(ship["spaces"][3] for ship in s["ships"]))
    seat = next(ship["spaces"][3]["owner"] for ship in state["ships"] if ship["spaces"][3])
    view = GAME.view(state, seat)
    view["players"][seat]["tokens"] = (
        [{"type": "fries", "value": 1}] * 9
        + [{"type": kind, "value": 0} for kind in ("ketchup", "chili", "milkshake", "parrot", "opener")] * 2
        + [{"type": "doll", "value": 7}, {"type": "teddy", "value": 5}, {"type": "tincan", "value": 12}]
    )
    view["players"][seat]["score"] = total(view["players"][seat]["tokens"])
    view["players"][seat]["breakdown"] = [line.as_json() for line in breakdown(view["players"][seat]["tokens"])]
    img = open_png(sp.render_hand(view, LONG_NAMES))
    assert img.height > 900


def test_auction_bar_highlights_the_lot() -> None:
    state = GAME.new_game(5, {"variant": "auction"}, "bar")
    view = GAME.view(state, None)
    assert view["auction"]["lot"] is None
    top = board._top_height(view)[1]
    bar = (board.M, board.TOP_Y, board.W - board.M, board.TOP_Y + top)
    assert count_colour(open_png(sp.render_board(view, NAMES)), bar, theme.HIGHLIGHT) == 0
    seat = GAME.to_act(state)[0]
    GAME.apply(state, seat, act("hire", 4), inplace=True)  # not the front figure: a card goes under it
    view = GAME.view(state, None)
    assert view["auction"]["bar"][0]["cards_under"] == 1
    img = open_png(sp.render_board(view, LONG_NAMES))
    assert count_colour(img, bar, theme.HIGHLIGHT) > 300


def test_landlubber_picks_show_who_chose_which_tribe() -> None:
    states = play("landlubber", 3, "seed2")
    state = next(s for s in states if s["phase"] == "crew" and len(s["tribes"]) == 2)
    view = GAME.view(state, None)
    img = open_png(sp.render_board(view, NAMES))
    picks = (board.M, board.TOP_Y, board.W - board.M, board.TOP_Y + board.PICKS_H)
    for seat in range(2):
        assert count_colour(img, picks, theme.PLAYER_COLOURS[seat].fill, tol=4) > 300
    assert count_colour(img, picks, theme.PLAYER_COLOURS[2].fill, tol=4) == 0


@pytest.mark.parametrize(("variant", "seats", "seed"), GAMES)
def test_long_and_missing_names(variant: str, seats: int, seed: str) -> None:
    states = play(variant, seats, seed)
    busy = max(states, key=aboard)
    open_png(sp.render_board(GAME.view(busy, None), LONG_NAMES[:seats]))
    open_png(sp.render_board(GAME.view(states[1], None), []))
    open_png(sp.render_hand(GAME.view(busy, seats - 1), LONG_NAMES))
    open_png(sp.render_final(GAME.view(states[-1], None), LONG_NAMES[:seats]))
    assert theme.seat_names(LONG_NAMES, 7)[3:] == ["中文", "🦜🦜", "Seat 6", "Seat 7"]


def test_icons_are_registered_with_the_theme() -> None:
    for name in (*pieces.TRIBE_LETTERS, *icons.SHIP_COLOURS, *pieces.SHORT_NAMES, "hat"):
        img = icons.icon(name, 40)
        assert img.size == (40, 40) and img.getbbox() is not None
    painter, colour = icons._ICONS["hat"]
    theme.register_icon("sp-hat", painter, colour)  # the same icon again is harmless
    for other in ((icons._ICONS["cat"][0], colour), (painter, (1, 2, 3))):
        with pytest.raises(ValueError):
            theme.register_icon("sp-hat", *other)
    with pytest.raises(ValueError):
        theme.register_icon("rat", painter, colour)  # the theme's own icons are taken too


def test_concurrent_renders_match_a_serial_one() -> None:
    """Renderers run in worker threads and share only read-only caches."""
    views: list[dict[str, Any]] = []
    for variant, seats, seed in GAMES:
        states = play(variant, seats, seed)
        views += [GAME.view(s, None) for s in states[:: max(1, len(states) // 6)]]
    expected = [sp.render_board(v, NAMES) for v in views]
    with ThreadPoolExecutor(max_workers=4) as pool:
        drawn = list(pool.map(sp.render_board, views, [NAMES] * len(views)))
    assert differing(drawn, expected) == []


def drawn_texts(render, *args) -> list[str]:  # type: ignore[no-untyped-def]
    with text_sizes() as drawn:
        open_png(render(*args))
    return [s for _, s in drawn]


def test_five_players_names_and_counts_are_not_cut() -> None:
    """With five players a long name takes two lines instead of "Captain Ch…"; a captain's badge leaves the
    "cards" and "tokens" words in place, and one card or token is singular."""
    states = play("auction", 5, "seed1")
    state = next(s for s in states if any(ship["spaces"][3] for ship in s["ships"]))
    view = copy.deepcopy(GAME.view(state, None))
    captain = next(p["seat"] for p in view["players"] if p["captain"])
    for n, player in enumerate(view["players"]):  # counts of their own: a count row's image is shared
        player["hand_count"], player["token_count"] = (1, 1) if player["seat"] == captain else (n + 2, n + 2)
    names = ["Anne Bonny", "Captain Christopher", "Mary Read", "Blackbeard", "Grace O'Malley"]
    texts = drawn_texts(sp.render_board, view, names)
    assert not any("…" in s for s in texts)
    assert {"Captain", "Christopher"} <= set(texts) or "Captain Christopher" in texts
    assert texts.count("card") == 1 and texts.count("token") == 1
    assert texts.count("cards") == texts.count("tokens") == 4


def test_a_captain_to_act_must_set_sail() -> None:
    state = next(s for s in play("standard", 4, "seed1") if s["phase"] == "action" and GAME.view(s, None)["must_sail"])
    view = GAME.view(state, None)
    assert "MUST SET SAIL" in drawn_texts(sp.render_board, view, NAMES)
    view["must_sail"] = None
    assert "TAKES AN ACTION" in drawn_texts(sp.render_board, view, NAMES)


def test_final_scoring_details_are_wrapped_not_cut() -> None:
    view = copy.deepcopy(GAME.view(play("standard", 4, "seed1")[-1], None))
    detail = "teddies 12, dolls 7; 1 parrot: the better of teddies and dolls, +1"
    view["final"]["scores"][0]["breakdown"].append({"category": "Toys", "points": 13, "detail": detail})
    texts = drawn_texts(sp.render_final, view, NAMES)
    assert not any("…" in s for s in texts)
    spans = [texts[i:j] for i in range(len(texts)) for j in range(i + 2, min(i + 8, len(texts)) + 1)]
    assert any(" ".join(span) == detail for span in spans)  # on two lines or more, whole
