"""Pirates Card Game images: every phase renders at the expected size, and nothing a seat may not know
changes an image drawn for it (other hands, unfinished missions, a duel card not yet revealed)."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from games.core import JSON, clone
from games.pirates import Pirates, PiratesAI
from games.pirates.engine import TURN_LIMIT
from rendering.pirates import render_board, render_final, render_hand
from rendering.pirates.table import ROW_H, ROWS_Y, M, W
from tests.support import pixels
from tests.test_pirates_rules import do, stack, table

G = Pirates()
AI = PiratesAI()


def positions(players: int, seed: str) -> list[JSON]:
    """Every 7th position of a seeded AI game, and its end."""
    state = G.new_game(players, seed=seed)
    rng = random.Random(seed)
    out = []
    while not G.is_over(state):
        seat = rng.choice(G.to_act(state))
        G.apply(state, seat, AI.choose(G, state, seat, rng), inplace=True, trusted=True)
        if state["step"] % 7 == 0 or state["duel"] is not None:
            out.append(clone(state))
    return [*out, state]


def size(png: bytes) -> tuple[int, int]:
    return Image.open(io.BytesIO(png)).size


@pytest.mark.parametrize("players", [1, 3, 8])
def test_every_phase_renders_at_the_table_size(players: int) -> None:
    names = [f"Captain {i}" for i in range(players)]
    kinds = set()
    for state in positions(players, f"render-{players}"):
        pending = state["pending"]
        kinds.add(pending["kind"] if pending else "duel" if state["duel"] else "main")
        width, height = size(render_board(G.view(state, None), names))
        assert width == W and height > ROWS_Y + ROW_H * players + M  # the rows, then the events and the legend
        for seat in G.to_act(state):
            assert size(render_hand(G.view(state, seat), names))[0] == W
    assert size(render_final(G.view(state, None), names))[0] == W
    assert {"main", "combat"} <= kinds


def test_no_image_shows_what_its_viewer_may_not_know() -> None:
    names = ["Anne", "Ben", "Calico"]
    rng = random.Random(3)
    checked = 0
    for state in positions(3, "secrets")[::3]:
        for viewer in (0, 1, 2, None):
            other = G.scramble(state, viewer, rng)
            assert pixels(render_board(G.view(other, viewer), names)) == pixels(
                render_board(G.view(state, viewer), names)
            )
            if viewer is not None:
                assert pixels(render_hand(G.view(other, viewer), names)) == pixels(
                    render_hand(G.view(state, viewer), names)
                )
            checked += 1
    assert checked > 20


def test_a_hand_image_differs_with_the_hand() -> None:
    state = G.new_game(2, seed="hand")
    other = clone(state)
    mine, theirs = other["players"][0], other["players"][1]
    mine["hand"], theirs["hand"] = theirs["hand"], mine["hand"]
    names = ["Anne", "Ben"]
    assert pixels(render_hand(G.view(state, 0), names)) != pixels(render_hand(G.view(other, 0), names))


def test_eight_players_wear_eight_distinct_colours() -> None:
    from rendering import theme

    fills = [theme.PLAYER_COLOURS[seat].fill for seat in range(8)]
    assert len(set(fills)) == 8
    names = {theme.PLAYER_COLOURS[seat].name for seat in range(8)}
    assert len(names) == 8


@pytest.mark.parametrize("players", [1, 3, 8])
def test_the_final_sheet_ranks_every_player_winner_first(players: int) -> None:
    from rendering import theme
    from rendering.pirates.table import FINAL_ROW

    state = positions(players, f"final-{players}")[-1]
    view = G.view(state, None)
    png = render_final(view, [f"Captain {i}" for i in range(players)])
    img = Image.open(io.BytesIO(png)).convert("RGB")
    width, height = img.size
    assert width == W and height < ROWS_Y + ROW_H * players + M  # a sheet of its own, not the table
    top = height - M - FINAL_ROW * players
    winners = view["over"]["winners"]
    first = img.getpixel((W - M - 40, top + 20))
    washed = theme.mix(theme.GOLD, theme.PARCHMENT, 0.55)
    assert (max(abs(a - b) for a, b in zip(first, washed, strict=True)) < 12) == bool(winners)


def ending(kind: str) -> JSON:
    """A game that has just ended one of the ways the engine ends it, played there from a constructed table:
    ``freed`` (Anne sinks the ship of her third mission), ``last`` (Anne is out at sea: Ben is the last
    captain), ``lost`` (solo, Anne out), ``limit`` (the safety limit, Anne ahead), ``tie`` (the limit,
    Anne and Ben level) and ``nobody`` (solo at the limit)."""
    if kind == "freed":
        state = table(2, s0={"ship": "5h", "hand": ["10c", "9c"], "missions": ["6h"], "done": ["9s", "kd"]})
        state["players"][0]["place"] = "sea"
        stack(state, "3d")  # Spanish follows English: the Hunt
        do(state, 0, "ship")
        do(state, 0, "fire 10c")
    elif kind in ("last", "lost"):
        state = table(2 if kind == "last" else 1, s0={"ship": "kh", "hand": ["2c"], "holds": ["9s"], "place": "sea"})
        stack(state, "8d")
        do(state, 0, "ship")
        do(state, 0, "yield")  # boarded: the last crew card lost at sea
    else:
        players = 1 if kind == "nobody" else 2
        state = table(players, s0={"done": ["9s"]}, s1={"done": ["kd"] if kind == "tie" else []})
        state["turns"] = TURN_LIMIT * players
    assert G.is_over(state)
    return state


def final_text(state: JSON, locale: str = "en") -> str:
    """The texts the final sheet of ``state`` draws for Anne and Ben, in ``locale``, in order and joined by
    spaces (a text drawn with its shadow once, a wrapped line joined again)."""
    from tests.test_render_phone import text_sizes

    with text_sizes() as drawn:
        render_final(G.view(state, None), ["Anne", "Ben"][: state["seats"]], locale)
    return " ".join(dict.fromkeys(s for _, s in drawn))


@pytest.mark.parametrize(
    ("kind", "headline", "under"),
    [
        ("freed", "Anne frees the captain!", "Anne completed 3 missions and freed the captain."),
        ("last", "Ben is the last captain at sea!", "Anne has no crew left at sea."),
        ("lost", "Every crew is lost at sea.", "Anne has no crew left at sea."),
        ("limit", "Anne wins with 1 mission done!", "The seas ran out of time."),
        ("tie", "Anne & Ben share the victory with 1 mission done!", "The seas ran out of time."),
        ("nobody", "No captain was freed.", "The seas ran out of time."),
    ],
)
def test_the_final_headline_says_how_the_game_was_won(kind: str, headline: str, under: str) -> None:
    text = final_text(ending(kind))
    assert f"PIRATES CARD GAME · THE END {headline} {under} 1. " in text  # under the title, before the players' rows
    if kind != "freed":
        assert "free" not in text.replace(headline, "")  # nobody freed a captain there


def test_the_hand_reads_on_a_phone_and_cuts_no_word() -> None:
    from rendering import theme
    from tests.test_render_phone import text_sizes

    state = positions(3, "phone-hand")[len(positions(3, "phone-hand")) // 2]
    seat = max(range(3), key=lambda s: len(state["players"][s]["hand"]))
    with text_sizes() as drawn:
        render_hand(G.view(state, seat), ["Anne", "Ben", "Calico"])
    assert drawn and min(size for size, _ in drawn) >= theme.MIN_TEXT
    assert not any(text.endswith("…") for _, text in drawn)


def test_the_board_says_who_decides_what_and_shows_the_turns_public_events() -> None:
    """The top band says whose decision it is and what (the engine's prompt, names written out), and the
    events panel the last public events, which the view carries from the engine's log: never a seat's
    private ones."""
    from games.core import LOG_SIZE, format_seats
    from games.i18n import localize
    from games.pirates.view import prompt_text
    from tests.test_render_phone import text_sizes

    names = ["Anne", "Ben", "Calico"]
    state = G.new_game(3, seed="events")
    rng = random.Random("events")
    public: list[str] = []
    shown = 0
    while not G.is_over(state) and shown < 12:
        seat = rng.choice(G.to_act(state))
        step = G.apply(state, seat, AI.choose(G, state, seat, rng), trusted=True)
        state = step.state
        public += [e.text for e in step.events if e.seat is None]
        view = G.view(state, None)
        assert view["events"] == public[-LOG_SIZE:]
        if G.is_over(state) or state["step"] % 5:
            continue
        with text_sizes() as drawn:
            render_board(view, names)
        words = " ".join(dict.fromkeys(s for _, s in drawn))
        assert " ".join(format_seats(localize(prompt_text(view)), names).split()) in words
        assert " ".join(format_seats(localize(view["events"][-1]), names).split()) in words
        shown += 1
    assert shown == 12
