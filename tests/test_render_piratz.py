"""Piratz renderer: hand-built views in every phase render to sensible PNGs and draw nothing secret."""

from __future__ import annotations

import io
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from PIL import Image

from games.i18n import localize
from games.piratz.cards import CARDS, TYPES
from games.piratz.engine import score
from rendering import piratz, theme
from tests.support import differing
from tests.test_render_phone import text_sizes

NAMES = ["Anne Bonny", "Calico Jack", "Mary Read", "Blackbeard"]
LONG_NAMES = ["Ｃａｐｔａｉｎ 🦜 Bartholomew Roberts the Third of the Seven Seas", "x" * 80, "Ω" * 40, "Z"]


def card(cid: int, *symbols: str, rat: bool = False, skull: bool = False, buried_by: int | None = None) -> dict:
    return {"id": cid, "symbols": list(symbols), "rat": rat, "skull": skull, "buried_by": buried_by}


def make_view(
    seats: int = 4,
    *,
    blind: bool = False,
    last_round: bool = False,
    phase: str = "turn",
    to_act: tuple[int, ...] = (1,),
    middle: list[dict] | None = None,
    spades_in_middle: tuple[int, ...] = (),
) -> dict[str, Any]:
    """A busy mid-game view: rats, a buried card and a spade in the middle unless told otherwise."""
    if middle is None:
        middle = [
            card(1, "coins"),
            card(2, "pearls", rat=True),
            card(3, "crowns", "goblets"),
            card(4, "shells", buried_by=0),
            card(5, "rings", "coins", skull=True),
            card(6, "goblets", rat=True, buried_by=2 % seats),
            card(7, "shells"),
        ]
    cubes_each = 1 if seats == 2 else 2
    values = [3, 3, 2, 1, 2, 1, 3, 2, 1, 3, 2, 1]
    cubes = {kind: sorted(values[2 * i : 2 * i + cubes_each], reverse=True) for i, kind in enumerate(TYPES)}
    cubes["pearls"] = cubes["pearls"][:1]  # one cube already gone
    players = []
    for seat in range(seats):
        pile = [card(100 + seat * 10 + k, TYPES[(seat + k) % 6], rat=k == 2) for k in range(seat + 3)]
        players.append(
            {
                "seat": seat,
                "spade": "placed" if seat == 0 or seat in spades_in_middle else "held",
                "pile_count": len(pile),
                "pile": None if blind else pile,
                "symbols": None if blind else {kind: sum(kind in c["symbols"] for c in pile) for kind in TYPES},
                "rats": None if blind else sum(c["rat"] for c in pile),
            }
        )
    rats = [c["id"] for c in middle if c["rat"] and c["buried_by"] is None]
    held = [p["seat"] for p in players if p["spade"] == "held"]
    return {
        "game": "piratz",
        "viewer": None,
        "seats": seats,
        "blind": blind,
        "round": 4,
        "last_round": last_round,
        "draw_count": 0 if last_round else 23,
        "discard_count": 5,
        "middle": middle,
        "spades_in_middle": list(spades_in_middle),
        "cubes": cubes,
        "players": players,
        "phase": phase,
        "to_act": list(to_act),
        "revealed_this_turn": 2,
        "cubes_per_type": cubes_each,
        "rats_in_middle": len(rats),
        "rat_alert_at": 2,
        "alert": rats if phase == "rat_alert" else [],
        "last_spade": held[0] if len(held) == 1 else None,
        "events": [
            "{p0} passed and took 3 Coins cards.",
            "{p0} buried a Shells card.",
            "{p1} revealed a Pearls card with a rat.",
        ],
        "scoring": None,
    }


def make_final(seats: int = 3) -> dict[str, Any]:
    """A finished game: the most symbols of a type wins 3, the second (with 3+ players) 1."""
    view = make_view(seats, phase="over", to_act=())
    types, totals = [], [0] * seats
    for i, kind in enumerate(TYPES):
        counts = [(i + s * 2) % 5 for s in range(seats)]
        ranked = sorted((s for s in range(seats) if counts[s]), key=lambda s: -counts[s])
        awards = [{"seat": s, "value": v} for s, v in zip(ranked, (3, 1) if seats > 2 else (3,), strict=False)]
        for award in awards:
            totals[award["seat"]] += award["value"]
        note = "{p0} and {p1} tie; {p0} has more rats." if i == 1 else ""
        types.append({"type": kind, "counts": counts, "awards": awards, "note": note})
    best = max(totals)
    view["scoring"] = {
        "types": types,
        "totals": totals,
        "winners": [s for s in range(seats) if totals[s] == best],
    }
    return view


def open_png(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(data))
    img.load()
    assert img.mode == "RGB"
    assert 1000 <= img.width <= 1200 and 600 <= img.height <= 2000
    return img


def count_colour(img: Image.Image, box: tuple[int, int, int, int], colour: theme.RGB, tol: int = 12) -> int:
    region = img.crop(box)
    colours = region.getcolors(maxcolors=region.width * region.height) or []
    return sum(n for n, c in colours if all(abs(a - b) <= tol for a, b in zip(c, colour, strict=True)))


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("blind", [False, True])
def test_board_renders_for_each_table_size(seats: int, blind: bool) -> None:
    open_png(piratz.render_board(make_view(seats, blind=blind, to_act=(seats - 1,)), NAMES[:seats]))


@pytest.mark.parametrize("phase", ["turn", "decide", "rat_alert", "bury", "over"])
def test_board_renders_every_phase(phase: str) -> None:
    to_act = () if phase == "over" else (1,)
    open_png(piratz.render_board(make_view(3, phase=phase, to_act=to_act, spades_in_middle=(0,)), NAMES))


def test_highlight_glows_around_the_player_to_act_only() -> None:
    for acting in (0, 3):
        img = open_png(piratz.render_board(make_view(4, to_act=(acting,)), NAMES))
        rows = piratz._middle_rows(make_view(4))
        for seat in range(4):
            x0, y0, x1, _ = piratz._player_box(4, rows, seat)
            ring = count_colour(img, (x0 - 6, y0 - 6, x1 + 6, y0 + 6), theme.HIGHLIGHT)
            assert (ring > 200) == (seat == acting), (acting, seat, ring)


def test_last_round_is_red_only_in_the_last_round() -> None:
    header = (0, 0, piratz.W, piratz.TRACK_Y - 4)
    piles = (piratz.M + piratz.TRACK_W, piratz.TRACK_Y, piratz.W, piratz.TRACK_Y + piratz.TRACK_H)
    last = open_png(piratz.render_board(make_view(3, last_round=True), NAMES))
    normal = open_png(piratz.render_board(make_view(3), NAMES))
    assert count_colour(last, header, theme.DANGER) > 500
    assert count_colour(last, piles, theme.DANGER) > 300
    assert count_colour(normal, header, theme.DANGER) == 0
    assert count_colour(normal, piles, theme.DANGER) == 0


def test_long_names_and_a_crowded_middle_do_not_crash() -> None:
    middle = [card(i, TYPES[i % 6], rat=i % 7 == 0, buried_by=i % 4 if i % 5 == 0 else None) for i in range(20)]
    view = make_view(4, middle=middle, spades_in_middle=(1, 3), to_act=(0, 2))
    view["events"].append("{p0} has a very long event text " + "that goes on and on " * 10)
    img = open_png(piratz.render_board(view, LONG_NAMES))
    assert img.height > open_png(piratz.render_board(make_view(4), NAMES)).height


def test_empty_middle_and_missing_names() -> None:
    open_png(piratz.render_board(make_view(2, middle=[]), []))


def test_blind_view_needs_no_pile_contents() -> None:
    view = make_view(4, blind=True)
    for p in view["players"]:
        assert p["pile"] is None and p["symbols"] is None and p["rats"] is None
    blind = open_png(piratz.render_board(view, NAMES))
    # A face-down stack shows, and no treasure counts are drawn: the rat counts' red is absent.
    rows = piratz._middle_rows(view)
    for seat in range(4):
        x0, y0, x1, y1 = piratz._player_box(4, rows, seat)
        assert count_colour(blind, (x0, y0 + 70, x1, y1), theme.DANGER, tol=6) == 0


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_final_scoring(seats: int) -> None:
    img = open_png(piratz.render_final(make_final(seats), LONG_NAMES[:seats]))
    assert count_colour(img, (0, 0, img.width, 170), theme.GOLD, tol=20) > 500


def test_final_scoring_in_blind_mode_without_tie_breaks() -> None:
    view = make_final(4)
    for p in view["players"]:
        p["pile"] = p["symbols"] = p["rats"] = None
    open_png(piratz.render_final(view, NAMES))


def test_rat_alert_lights_up_the_rat_cards() -> None:
    middle_box = (piratz.M, piratz.MIDDLE_Y, piratz.W - piratz.M, piratz.MIDDLE_Y + piratz._middle_height(1))
    alert = open_png(piratz.render_board(make_view(3, phase="rat_alert"), NAMES))
    turn = open_png(piratz.render_board(make_view(3, phase="turn"), NAMES))
    assert count_colour(alert, middle_box, theme.HIGHLIGHT) > 200
    assert count_colour(turn, middle_box, theme.HIGHLIGHT) == 0


def test_concurrent_renders_match_a_serial_one() -> None:
    """Renderers run in worker threads and share only read-only caches."""
    views = [make_view(seats, blind=seats == 3, to_act=(seats - 1,)) for seats in (2, 3, 4)] * 4
    expected = [piratz.render_board(v, NAMES) for v in views]
    with ThreadPoolExecutor(max_workers=4) as pool:
        drawn = list(pool.map(piratz.render_board, views, [NAMES] * len(views)))
    assert differing(drawn, expected) == []


def test_tie_break_caption_says_what_decided_each_placing() -> None:
    """Counts 2/2/2, rats 1/0/1, cards 3/2/4: seat 0 beats seat 2 on fewer cards but seat 1 on more rats,
    then seat 2 beats seat 1 on more rats; the caption says so (it used to say "fewer cards" for both)."""
    coins = [c.id for c in CARDS if c.symbols.count("coins") == 1 and not c.rat]
    rats = [c.id for c in CARDS if "coins" not in c.symbols and c.rat]
    plain = [c.id for c in CARDS if "coins" not in c.symbols and not c.rat]
    piles = [[coins[0], coins[1], rats[0]], [coins[2], coins[3]], [coins[4], coins[5], rats[1], plain[0]]]
    scoring = score(piles, [[3, 1]] * len(TYPES))
    row = next(r for r in scoring["types"] if r["type"] == "coins")
    assert row["counts"] == [2, 2, 2]
    assert row["awards"] == [
        {"seat": 0, "value": 3, "beat": [{"seat": 2, "on": "cards"}, {"seat": 1, "on": "rats"}]},
        {"seat": 2, "value": 1, "beat": [{"seat": 1, "on": "rats"}]},
    ]
    assert localize(row["note"]) == (
        "{p0} wins the tie with {p1} on more rats and with {p2} on fewer cards."
        " {p2} wins the tie with {p1} on more rats."
    )
    view = make_final(3)
    view["scoring"] = scoring
    with text_sizes() as drawn:
        open_png(piratz.render_final(view, ["Ann", "Bob", "Cat"]))
    shown = " ".join(s for _, s in drawn)
    assert "Ann wins the tie with Bob on more rats and with Cat on fewer cards." in shown
    assert "Cat wins the tie with Bob on more rats." in shown


def test_long_notes_wrap_instead_of_being_cut() -> None:
    view = make_final(3)
    note = "{p0}, {p1} and {p2} are still tied: 2 cubes not given."
    view["scoring"]["types"][0]["note"] = note
    names = ["Ben", "Barnacle Bill the Boldest", "Captain Christopher"]  # names on two lines, not cut
    with text_sizes() as drawn:
        open_png(piratz.render_final(view, names))
    texts = [s for _, s in drawn]
    assert not any("…" in s for s in texts)
    expected = "Ben, Barnacle Bill the Boldest and Captain Christopher are still tied: 2 cubes not given."
    lines = piratz._note_lines(note, tuple(names))
    assert len(lines) > 1 and " ".join(lines) == expected and all(line in texts for line in lines)


def test_panels_say_what_the_view_says() -> None:
    """The last spade's holder may keep revealing; counts are singular for one; the skull card is in the legend."""
    view = make_view(3, phase="decide", to_act=(1,))
    for p in view["players"]:
        p["spade"] = "held" if p["seat"] == 1 else "placed"
    view["last_spade"] = 1
    view["players"][2]["pile_count"] = 1
    with text_sizes() as drawn:
        open_png(piratz.render_board(view, NAMES[:3]))
    texts = [s for _, s in drawn]
    assert "TO REVEAL OR PASS" in texts and "TO PASS OR END THE TURN" not in texts
    assert "1 card" in texts and "1 cards" not in texts
    assert any(s.startswith("skull card") for s in texts)
    view["last_spade"] = None
    with text_sizes() as drawn:
        open_png(piratz.render_board(view, NAMES[:3]))
    assert "TO PASS OR END THE TURN" in [s for _, s in drawn]


def test_a_games_first_boards_are_as_tall_as_the_rest_and_share_their_layer() -> None:
    """Boards with 0, 1 or 2 one-line events leave room for three, as the later boards do: one layer
    serves them all, where each used to draw one of its own (~6 ms, ~6 MB) in every game."""
    view = make_view(2)
    piratz._board_layer.cache_clear()
    heights = set()
    for shown in range(4):
        view["events"] = [f"{{p{n % 2}}} buried a Shells card." for n in range(shown)]
        heights.add(open_png(piratz.render_board(view, NAMES[:2])).height)
    assert len(heights) == 1
    assert piratz._board_layer.cache_info().misses == 1


def test_two_counts_of_event_lines_share_a_board_height_and_its_layer(monkeypatch) -> None:
    """The events' panel keeps room for four lines at least and above it a step of two: events on three or four
    lines make one height of board (and one layer to draw), on five or six the next, two lines taller. A
    board meets half as many layouts for the first time, with one blank line at most."""
    lines_of: list[int] = []
    room = theme.event_room
    monkeypatch.setattr(theme, "event_room", lambda lines, least: lines_of.append(lines) or room(lines, least))
    view = make_view(2)
    heights: dict[int, set[int]] = {}
    example: dict[int, list[str]] = {}
    for words in range(0, 40, 2):
        long = "{p0} buried a Shells card" + " and then another one" * words + "."
        for events in ([long, "{p1} passed.", "{p0} passed."], [long, long, "{p1} passed."], [long] * 3):
            view["events"] = events
            height = open_png(piratz.render_board(view, NAMES[:2])).height
            heights.setdefault(lines_of[-1], set()).add(height)
            example.setdefault(lines_of[-1], events)
    assert set(heights) == {3, 4, 5, 6, 7, 9}  # an event takes three lines at most
    assert all(len(h) == 1 for h in heights.values())
    height = {lines: h.pop() for lines, h in heights.items()}
    assert height[3] == height[4] < height[5] == height[6] < height[7] < height[9]
    assert height[5] - height[4] == height[7] - height[6] == height[9] - height[7] == 2 * theme.EVENT_LINE_H
    piratz._board_layer.cache_clear()
    for lines in (3, 4):
        view["events"] = example[lines]
        piratz.render_board(view, NAMES[:2])
    assert piratz._board_layer.cache_info().misses == 1


def test_event_room_is_the_least_and_above_it_steps_of_two() -> None:
    assert [theme.event_room(n, 4) for n in range(10)] == [4, 4, 4, 4, 4, 6, 6, 8, 8, 10]
    assert [theme.event_room(n, 3) for n in range(9)] == [3, 3, 3, 3, 5, 5, 7, 7, 9]
