"""Sea Rats! images: every phase renders, at the board's size; what the view highlights is drawn (the dots
the ship to act can reach, a battle's line of fire, a pending offer); sunk ships leave the map; the final
image lists the fates."""

from __future__ import annotations

import io

from PIL import Image

from games.core import clone
from games.searats import SeaRats, SeaRatsAI
from games.searats.geometry import parse
from games.simulate import self_play
from rendering import searats as r
from rendering import theme
from tests.test_render_phone import text_sizes

G = SeaRats()
NAMES = ["Anne Bonny", "Barnacle Bill"] * 3


def image(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def states_by_phase() -> dict[str, dict]:
    found: dict[str, dict] = {}
    for seed in ("render-a", "render-b", "render-c"):
        for state in self_play(G, SeaRatsAI(), 2, seed):
            found.setdefault(state["phase"], clone(state))
    return found


def pixel_at_dot(img: Image.Image, name: str, dx: int = 0, dy: int = 0) -> tuple[int, int, int]:
    at = parse(name)
    x, y = r._dot_xy(at % 11, at // 11)
    return img.getpixel((x + dx, y + dy))


def near(colour: tuple[int, int, int], target: tuple[int, int, int], tolerance: int = 60) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(colour, target, strict=True))


def test_every_phase_renders_at_the_board_size() -> None:
    phases = states_by_phase()
    assert {"sail", "act", "bribe", "fire", "counter", "port", "over"} <= set(phases)
    for phase, state in phases.items():
        view = G.view(state, None)
        draw = r.render_final if phase == "over" else r.render_board
        img = image(draw(view, NAMES))
        assert img.width == r.W and img.height > r.MAP_Y + r.MAP, phase  # portrait: the map, then the logs


def test_the_reachable_dots_and_the_ship_to_act_are_highlighted() -> None:
    state = G.new_game(2, seed="hl")
    state.update(phase="sail", roll=[2])
    view = G.view(state, None)
    assert [3, 0] in view["reach"] and [4, 0] in view["reach"]  # D1, E1 from C1
    img = image(r.render_board(view, NAMES))
    assert near(pixel_at_dot(img, "d1", 14, -3), (64, 226, 255))  # the cyan ring around D1
    assert not near(pixel_at_dot(img, "f1", 14, -3), (64, 226, 255))  # F1 is 3 dots away


def test_a_battle_draws_its_line_of_fire_and_a_sunk_ship_leaves_the_map() -> None:
    state = G.new_game(2, seed="fire")
    ships = state["ships"]
    ships[0]["at"], ships[1]["at"] = parse("c3"), parse("c7")
    ships[2].update(sunk=True, balls=0, supplies=0)
    state.update(
        phase="fire",
        battle={"att": 0, "def": 1, "dist": 4, "fired": 0, "hits": [0, 0], "offers": [0, 0], "closed": False},
    )
    img = image(r.render_board(G.view(state, None), NAMES))
    assert near(pixel_at_dot(img, "c5", 0, 12), r.FIRE)  # the line between C3 and C7
    assert near(pixel_at_dot(img, "k6"), r.DOT, 30)  # Blue's port dot shows no flag


def offer_view() -> dict:
    """The spectator's view of a battle in which Red offers Black a bribe of 2 cannonballs and 1 supply."""
    state = G.new_game(2, seed="offer")
    state.update(
        phase="answer",
        battle={"att": 0, "def": 1, "dist": 2, "fired": 0, "hits": [0, 0], "offers": [0, 0], "closed": False},
        offer={"kind": "bribe", "from": 1, "to": 0, "give": [2, 1, False], "get": [0, 0, False]},
    )
    return G.view(state, None)


def test_a_pending_offer_is_written_under_the_top_band() -> None:
    view = offer_view()
    assert r._offer_text(view, NAMES) == "Bribe: Red offers 2 cannonballs + 1 supply. Black (Anne Bonny) must answer."
    quiet = dict(view, offer=None)
    foot = (r.M, r.STRIP_Y + 55, r.W - r.M, r.STRIP_Y + 95)
    with_offer = image(r.render_board(view, NAMES)).crop(foot)
    without = image(r.render_board(quiet, NAMES)).crop(foot)
    assert with_offer.tobytes() != without.tobytes()


def test_the_final_image_ranks_every_player_and_lists_every_capture_and_sinking() -> None:
    """Ben's last ship is captured: he commands no ship at the end and is still named and ranked; every
    capture and sinking is listed (not the last ten), with both ships' commanders at the time."""
    state = G.new_game(2, seed="end")
    players = ["Anne Bonny", "Ben Gunn"]
    state["fates"] = [
        {"ship": 1, "by": 0, "how": "sunk", "round": 3, "from": 1, "captor": 0},
        *({"ship": 3, "by": 0, "how": "captured", "from": 1, "captor": 0, "round": r} for r in range(4, 16)),
    ]
    state["ships"][1].update(sunk=True, balls=0, supplies=0)
    state["ctrl"] = [0] * 6
    state["phase"] = "over"
    view = G.view(state, None)
    assert r._fate_line(view["fates"][0], view, players) == "Round 3: Red (Ben Gunn) sunk by Black (Anne Bonny)"
    assert [p for p, *_ in r._standings(view)] == [0, 1]  # the winner, then Ben (his last ship lost in round 15)
    assert r._standings(view)[1][3] == 15
    with text_sizes() as drawn:
        img = image(r.render_final(view, players))
    texts = [text for _, text in drawn]
    assert "Ben Gunn" in texts and sum("captured by" in text for text in texts) == 12
    assert img.height > r.MAP + 13 * r.FINAL_ROW


def test_no_text_is_too_small_for_a_phone() -> None:
    from tests.test_render_phone import WORLD, smallest

    names = [*WORLD, "Anne"]
    for phase, state in states_by_phase().items():
        draw = r.render_final if phase == "over" else r.render_board
        size, text, width = smallest(draw, G.view(state, None), names)
        assert theme.readable(size, width), f"{phase}: {text!r} drawn at {size} px on a {width} px image"


def test_a_long_trade_offer_is_never_cut() -> None:
    state = G.new_game(2, seed="offer")
    state.update(
        phase="answer",
        offer={"kind": "trade", "from": 4, "to": 5, "give": [12, 6, True], "get": [6, 12, False]},
    )
    names = ["Captain Christopher Columbus the Younger", "Bartholomew Roberts of the Royal Fortune"]
    with text_sizes() as drawn:
        r.render_board(G.view(state, None), names)
    offer = [text for _, text in drawn if "Trade:" in text or "must answer" in text]
    assert offer and not any("…" in text for text in offer)
    said = " ".join(text for _, text in drawn)
    assert "12 cannonballs + 6 supplies + the Treasure" in said and "Bartholomew Roberts of the Royal Fortune" in said
