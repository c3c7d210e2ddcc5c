"""Sewer Rat: every rule of ``shared/rules/sewer-rat.md`` on constructed positions."""

from __future__ import annotations

import random
import time
from collections import Counter

import pytest

from games.core import Action, IllegalAction, Termination
from games.i18n import localize, with_names
from games.sewerrat import SewerRat, SewerRatAI, flow
from games.sewerrat.ai import SHORTLIST
from games.sewerrat.board import freedom
from games.sewerrat.components import (
    BLACK,
    OUTWARD,
    RED,
    SHAPE_OF,
    SQUARE_BY_TEXT,
    TILE_SET,
    E,
    N,
    S,
    W,
    openings_label,
    square_name,
    square_text,
    toilet_exit,
    toilet_name,
)
from games.sewerrat.plumbing import MIN_DOTS, lay, problem, supply_after
from games.sewerrat.tiles import in_some_order, supply_with_pending

GAME = SewerRat()
CROSS = 15


def sq(text: str) -> int:
    return SQUARE_BY_TEXT[text]


class Dice(random.Random):
    """A random source whose d8 rolls are given in advance (yellow first, then green)."""

    def __init__(self, *values: int) -> None:
        super().__init__(0)
        self.values = list(values)

    def randint(self, a: int, b: int) -> int:
        return self.values.pop(0)


def table(
    players: int = 2, teams: str = "ffa", rats: dict[int, str] | None = None, traps: dict[str, int] | None = None
):
    """A game in its move step, every square a cross (all pipes meet), rats and traps where given."""
    state = GAME.new_game(players, {"teams": teams}, "rules")
    state.update(board=[CROSS] * 64, phase="move", actor=0, mover=0, turn=1)
    state["rats"] = [None] * players
    for seat, where in (rats or {}).items():
        state["rats"][seat] = sq(where)
    for where, kind in (traps or {}).items():
        state["traps"][sq(where)] = kind
    return state


def roll(state, seat: int, *values: int):
    """Begin ``seat``'s turn with the given dice; returns the events."""
    events = []
    flow.begin_turn(state, seat, Dice(*values), events)
    return events


def texts(state, seat: int) -> list[str]:
    return [a.encode() for a in GAME.legal_actions(state, seat)]


def labels(state, seat: int, action) -> tuple[str, ...]:
    """The label path of ``action``, in English."""
    return tuple(localize(label) for label in GAME.describe(state, seat, action))


def refused(call, *args) -> str:
    """The refusal ``call(*args)`` raises, in English."""
    with pytest.raises(IllegalAction) as caught:
        call(*args)
    return localize(str(caught.value))


# ---------------------------------------------------------------------------------------------- the board


def test_the_house_tile_set_has_120_tiles_of_six_shapes():
    assert TILE_SET == {"straight": 32, "elbow": 32, "tee": 20, "cross": 17, "cap": 16, "blank": 3}
    assert sum(TILE_SET.values()) == 120
    # every one of the 16 opening masks is one shape in one rotation
    assert Counter(SHAPE_OF) == {"straight": 2, "elbow": 4, "tee": 4, "cross": 1, "cap": 4, "blank": 1}
    assert [m for m in range(16) if SHAPE_OF[m] == "straight"] == [N | S, E | W]


def test_32_numbered_toilets_yellow_at_row_ends_green_at_column_ends():
    toilets = [localize(toilet_name(q, d)) for q in range(64) for d in (N, E, S, W) if OUTWARD[q] & d]
    assert len(toilets) == 32
    assert Counter(toilets) == {f"{c}{i}": 2 for c in "YG" for i in range(1, 9)}
    assert localize(toilet_name(sq("r3c1"), W)) == localize(toilet_name(sq("r3c8"), E)) == "Y3"
    assert localize(toilet_name(sq("r1c5"), N)) == localize(toilet_name(sq("r8c5"), S)) == "G5"


def test_squares_toilets_and_openings_are_named_by_the_catalogs() -> None:
    """A German reads G as *gelb*: the toilets, squares, axes and compass letters are the catalog's, and
    the typed forms (``r3c4``, ``ne``) stay as they are in every language."""
    assert localize(toilet_name(sq("r3c1"), W), "de") == "Ge3" and localize(toilet_name(sq("r1c5"), N), "de") == "Gr5"
    assert localize(square_name(sq("r3c4"))) == "r3c4" and localize(square_name(sq("r3c4")), "de") == "R3S4"
    assert localize(openings_label(N | E | S | W), "de") == "Öffnungen N–O–S–W"
    assert localize(openings_label(N | E)) == "Openings N–E"
    assert square_text(sq("r3c4")) == "r3c4"
    assert OUTWARD[sq("r1c1")] == N | W and OUTWARD[sq("r4c4")] == 0
    # a toilet's exit: the first square at the opposite end of the same row or column
    assert toilet_exit(sq("r3c1"), W) == sq("r3c8") and toilet_exit(sq("r3c8"), E) == sq("r3c1")
    assert toilet_exit(sq("r1c5"), N) == sq("r8c5") and toilet_exit(sq("r8c5"), S) == sq("r1c5")


def test_a_plumbing_is_valid_only_if_every_opening_meets_an_opening_or_its_toilet():
    board = [CROSS] * 64
    assert problem(board) is None
    board[sq("r4c4")] = N | E | S  # its west neighbour still opens toward it
    assert "do not meet" in localize(problem(board))
    board = [CROSS] * 64
    board[sq("r1c4")] = E | S | W  # an edge square closed toward its toilet
    assert "toilet" in localize(problem(board))


def test_the_laid_plumbing_is_valid_from_the_house_set_with_enough_dots_and_fast():
    worst = 0.0
    for i in range(300):
        started = time.perf_counter()
        board = lay(random.Random(f"seed{i}/setup"))
        worst = max(worst, time.perf_counter() - started)
        assert problem(board) is None
        counts = Counter(SHAPE_OF[m] for m in board)
        assert all(counts[s] <= n for s, n in TILE_SET.items()), counts
        assert counts["cap"] >= MIN_DOTS
    assert worst < 0.05
    state = GAME.new_game(3, {"teams": "ffa"}, "x")
    assert state["supply"] == supply_after(state["board"])
    assert sum(state["supply"].values()) == 120 - 64
    assert GAME.new_game(3, {"teams": "ffa"}, "x") == state  # the same seed lays the same plumbing


# ---------------------------------------------------------------------------------------------- setup


def test_players_place_their_rats_on_empty_white_dots_in_seat_order():
    state = GAME.new_game(3, {"teams": "ffa"}, "setup")
    dots = [q for q in range(64) if SHAPE_OF[state["board"][q]] == "cap"]
    assert GAME.to_act(state) == (0,)
    assert sorted(sq(a.args[0]) for a in GAME.legal_actions(state, 0)) == dots
    first = GAME.legal_actions(state, 0)[0]
    state = GAME.apply(state, 0, first).state
    assert GAME.to_act(state) == (1,)
    assert first not in GAME.legal_actions(state, 1)  # the square is taken
    with pytest.raises(IllegalAction):
        GAME.apply(state, 2, GAME.legal_actions(state, 1)[0])
    state = GAME.apply(state, 1, GAME.legal_actions(state, 1)[0]).state
    step = GAME.apply(state, 2, GAME.legal_actions(state, 2)[0])
    # the last rat placed, seat 0's first turn begins with its roll
    assert step.state["turn"] == 1 and step.state["mover"] == 0 and step.events[-1].text
    assert any(e.data and "dice" in e.data for e in step.events)


# ---------------------------------------------------------------------------------------------- the roll


def test_every_roll_is_an_event_with_both_dice():
    state = table(rats={0: "r1c1", 1: "r8c8"})
    events = roll(state, 0, 5, 2)
    dice = [e for e in events if e.data]
    assert len(dice) == 1 and dice[0].seat is None
    assert dice[0].data == {
        "dice": [{"die": "yellow d8", "sides": 8, "value": 5}, {"die": "green d8", "sides": 8, "value": 2}]
    }


def test_two_black_traps_fall_at_row_y_column_g_and_row_g_column_y():
    state = table(rats={0: "r1c1", 1: "r8c8"})
    roll(state, 0, 5, 2)
    assert state["traps"][sq("r5c2")] == BLACK and state["traps"][sq("r2c5")] == BLACK
    assert sum(1 for t in state["traps"] if t) == 2
    assert state["roll"] == {"y": 5, "g": 2, "at": [sq("r5c2"), sq("r2c5")]}
    assert state["phase"] == "move" and GAME.to_act(state) == (0,)


def test_doubles_put_a_single_red_trap():
    state = table(rats={0: "r1c1", 1: "r8c8"})
    roll(state, 0, 3, 3)
    assert state["traps"][sq("r3c3")] == RED and sum(1 for t in state["traps"] if t) == 1


def test_a_black_trap_on_a_black_trap_makes_a_red_trap():
    state = table(rats={0: "r1c1", 1: "r8c8"}, traps={"r5c2": BLACK})
    roll(state, 0, 5, 2)
    assert state["traps"][sq("r5c2")] == RED and state["traps"][sq("r2c5")] == BLACK


def test_a_black_trap_on_a_red_trap_is_placed_by_the_roller_anywhere_without_red_or_rat():
    state = table(rats={0: "r1c1", 1: "r8c8"}, traps={"r5c2": RED, "r7c7": RED})
    roll(state, 0, 5, 2)
    assert state["phase"] == "put" and GAME.to_act(state) == (0,)
    legal = texts(state, 0)
    assert "black r1c1" not in legal and "black r8c8" not in legal  # rats
    assert "black r7c7" not in legal and "black r5c2" not in legal  # red traps
    assert "black r2c5" in legal and len(legal) == 64 - 4
    GAME.apply(state, 0, "black r4c4", inplace=True)
    assert state["traps"][sq("r4c4")] == BLACK and state["traps"][sq("r2c5")] == BLACK
    assert state["phase"] == "move"


def test_the_roller_may_put_its_black_trap_on_a_black_trap_which_makes_it_red():
    state = table(rats={0: "r1c1", 1: "r8c8"}, traps={"r5c2": RED, "r4c4": BLACK})
    roll(state, 0, 5, 2)
    GAME.apply(state, 0, "black r4c4", inplace=True)
    assert state["traps"][sq("r4c4")] == RED


def test_doubles_on_a_black_trap_make_it_red_and_the_roller_places_an_extra_black_trap():
    state = table(rats={0: "r1c1", 1: "r8c8"}, traps={"r4c4": BLACK})
    roll(state, 0, 4, 4)
    assert state["traps"][sq("r4c4")] == RED
    assert state["phase"] == "put" and texts(state, 0)[0].startswith("black ")
    GAME.apply(state, 0, "black r6c6", inplace=True)
    assert state["traps"][sq("r6c6")] == BLACK and state["phase"] == "move"


def test_doubles_on_a_red_trap_let_the_roller_place_one_red_trap():
    state = table(rats={0: "r1c1", 1: "r8c8"}, traps={"r4c4": RED})
    roll(state, 0, 4, 4)
    assert state["phase"] == "extra" and texts(state, 0) == ["extra red", "extra black"]
    GAME.apply(state, 0, "extra red", inplace=True)
    assert "red r1c1" not in texts(state, 0) and "red r4c4" not in texts(state, 0)
    GAME.apply(state, 0, "red r2c6", inplace=True)
    assert state["traps"][sq("r2c6")] == RED and state["phase"] == "move"


def test_doubles_on_a_red_trap_let_the_roller_place_two_black_traps():
    state = table(rats={0: "r1c1", 1: "r8c8"}, traps={"r4c4": RED})
    roll(state, 0, 4, 4)
    GAME.apply(state, 0, "extra black", inplace=True)
    GAME.apply(state, 0, "black r2c6", inplace=True)
    assert state["phase"] == "put"
    GAME.apply(state, 0, "black r2c6", inplace=True)  # the second on the first: red
    assert state["traps"][sq("r2c6")] == RED and state["phase"] == "move"


# ---------------------------------------------------------------------------------------------- a trap on a rat


def test_a_trap_on_a_rat_lets_its_owner_choose_where_it_flees_then_the_trap_falls():
    # seat 1's rat on r5c2 (the roll's first trap); it can flee north, south, east or west
    state = table(rats={0: "r8c8", 1: "r5c2"}, traps={"r3c2": BLACK})
    roll(state, 0, 5, 2)
    assert state["phase"] == "displace" and GAME.to_act(state) == (1,)  # the owner decides, not the mover
    assert texts(state, 1) == ["flee n", "flee e", "flee s", "flee w"]
    assert GAME.legal_actions(state, 0) == []
    GAME.apply(state, 1, "flee n", inplace=True)
    # the nearest square it can stop on: r4c2 (r3c2 holds a trap)
    assert state["rats"][1] == sq("r4c2")
    assert state["traps"][sq("r5c2")] == BLACK and state["traps"][sq("r2c5")] == BLACK
    assert state["phase"] == "move" and GAME.to_act(state) == (0,)


def test_a_displaced_rat_stops_on_the_nearest_square_without_a_rat():
    state = table(3, rats={0: "r8c8", 1: "r5c2", 2: "r5c3"}, traps={"r4c2": BLACK, "r6c2": BLACK})
    state["board"][sq("r5c1")] = N | E | S  # west: r5c1 open to the east
    roll(state, 0, 5, 2)
    assert texts(state, 1) == ["flee e", "flee w"]
    GAME.apply(state, 1, "flee e", inplace=True)
    assert state["rats"][1] == sq("r5c4")  # passes the rat on r5c3


def test_a_displaced_rat_with_one_way_out_takes_it():
    state = table(rats={0: "r8c8", 1: "r5c2"}, traps={"r4c2": BLACK, "r6c2": BLACK, "r5c3": RED})
    events = roll(state, 0, 5, 2)
    assert state["rats"][1] == sq("r5c1") and state["phase"] == "move"
    assert any("flees the trap west to r5c1" in localize(e.text) for e in events)


def test_a_displaced_rat_that_cannot_move_is_eliminated():
    state = table(3, rats={0: "r8c8", 1: "r5c2", 2: "r1c8"}, traps={"r4c2": BLACK, "r6c2": BLACK, "r5c3": RED})
    state["traps"][sq("r5c1")] = RED
    events = roll(state, 0, 5, 2)
    assert state["rats"][1] is None and GAME.out(state) == {1}
    assert state["traps"][sq("r5c2")] == BLACK  # then the trap is placed
    assert any("is out" in localize(e.text) for e in events) and state["phase"] == "move"


def test_a_displaced_rat_does_not_flee_through_a_toilet():
    # r5c1: its only ways are the Y5 toilet (open) and the grid, closed by red traps
    state = table(3, rats={0: "r8c8", 1: "r5c1", 2: "r1c8"}, traps={"r4c1": RED, "r6c1": RED, "r5c2": RED})
    assert "toilet w" in texts(dict(state, actor=1, mover=1), 1)
    roll(state, 0, 5, 1)
    assert state["rats"][1] is None and GAME.out(state) == {1}


def test_a_roller_whose_rat_falls_during_its_own_roll_places_no_further_trap():
    # the first trap eliminates the roller; the second falls on a red trap, which the roller would place
    state = table(3, rats={0: "r5c2", 1: "r8c8", 2: "r1c8"}, traps={"r4c2": RED, "r6c2": RED, "r5c3": RED})
    state["traps"][sq("r5c1")] = RED
    state["traps"][sq("r2c5")] = RED
    roll(state, 0, 5, 2, 7, 7)  # then seat 1's turn and roll
    assert state["rats"][0] is None and state["fallen"] == [[0, 2, "roll"]]
    assert state["queue"] == [] and state["traps"][sq("r7c7")] == RED
    assert state["phase"] == "move" and state["mover"] == 1


# ---------------------------------------------------------------------------------------------- the move


def test_a_move_is_a_straight_line_along_pipes_passing_rats_never_stopping_on_one_nor_crossing_a_trap():
    state = table(3, rats={0: "r4c4", 1: "r4c6", 2: "r8c8"}, traps={"r2c4": BLACK})
    state["board"][sq("r4c3")] = E | W | N | S
    state["board"][sq("r5c4")] = N | E | W  # the pipe does not run straight through south of r5c4
    legal = texts(state, 0)
    assert "move n 1" in legal and "move n 2" not in legal  # the trap on r2c4 blocks
    # east: r4c5, then past the rat on r4c6 to r4c7 and r4c8
    assert [a for a in legal if a.startswith("move e")] == ["move e 1", "move e 2", "move e 3"]
    GAME.apply(state, 0, "move e 2", inplace=True)
    assert state["rats"][0] == sq("r4c7")
    state = table(3, rats={0: "r4c4", 1: "r4c6", 2: "r8c8"}, traps={"r2c4": BLACK})
    state["board"][sq("r5c4")] = N | E | W
    assert [a for a in texts(state, 0) if a.startswith("move s")] == ["move s 1"]
    state["board"][sq("r4c4")] = N | E | W  # no opening to the south: no move south at all
    assert not [a for a in texts(state, 0) if a.startswith("move s")]


def test_a_move_is_mandatory():
    state = table(rats={0: "r4c4", 1: "r8c8"})
    assert all(a.split()[0] in ("move", "toilet") for a in texts(state, 0))
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, "pass")


def test_a_rat_on_an_edge_square_may_travel_through_its_toilet_to_the_opposite_end():
    state = table(rats={0: "r3c1", 1: "r8c8"})
    assert "toilet w" in texts(state, 0)
    GAME.apply(state, 0, "toilet w", inplace=True)
    assert state["rats"][0] == sq("r3c8") and state["phase"] == "after"
    state = table(rats={0: "r1c1", 1: "r8c8"})  # a corner: a yellow and a green toilet
    assert {"toilet n", "toilet w"} <= set(texts(state, 0))
    GAME.apply(state, 0, "toilet n", inplace=True)
    assert state["rats"][0] == sq("r8c1")


def test_a_toilet_is_closed_by_a_trap_or_a_rat_on_the_exit():
    state = table(rats={0: "r3c1", 1: "r8c8"}, traps={"r3c8": BLACK})
    assert "toilet w" not in texts(state, 0)
    state = table(rats={0: "r3c1", 1: "r3c8"})
    assert "toilet w" not in texts(state, 0)


def test_a_rat_with_no_legal_move_when_its_move_step_begins_is_eliminated():
    state = table(3, rats={0: "r8c8", 1: "r4c4", 2: "r1c8"}, traps={"r3c4": RED, "r5c4": RED, "r4c3": RED})
    state["board"][sq("r4c5")] = N | S | E  # not open toward r4c4: r4c4 cannot go east either
    state["board"][sq("r4c4")] = N | S | W
    roll(state, 1, 7, 1, 6, 6)
    assert state["rats"][1] is None and state["fallen"] == [[1, 2, "move"]]
    assert state["mover"] == 2 and state["turn"] == 3  # the next rat's turn began


# ---------------------------------------------------------------------------------------------- after the move


def after(state, seat: int = 0):
    state.update(phase="after", actor=seat, mover=seat)
    return state


def test_after_moving_a_player_may_push_one_black_trap_one_square():
    state = after(table(rats={0: "r1c1", 1: "r4c6"}, traps={"r4c4": BLACK, "r4c3": BLACK, "r5c4": RED}))
    legal = texts(state, 0)
    assert "push r4c4 n" in legal and "push r4c4 w" in legal  # onto a black trap: red
    assert "push r4c4 s" not in legal  # onto a red trap
    state2 = after(table(rats={0: "r1c1", 1: "r4c5"}, traps={"r4c4": BLACK}))
    assert "push r4c4 e" not in texts(state2, 0)  # onto a rat
    state3 = after(table(rats={0: "r4c4", 1: "r8c8"}, traps={"r1c4": BLACK}))
    assert "push r1c4 n" not in texts(state3, 0)  # never through a toilet
    GAME.apply(state, 0, "push r4c4 w", inplace=True)
    assert state["traps"][sq("r4c4")] == 0 and state["traps"][sq("r4c3")] == RED
    assert state["mover"] == 1  # the turn is over


def test_red_traps_never_move():
    state = after(table(rats={0: "r1c1", 1: "r8c8"}, traps={"r4c4": RED}))
    assert not [a for a in texts(state, 0) if a.startswith("push")]


def change(state, where: str, tile: str, seat: int = 0) -> None:
    """Pick a square for the tile change, then its new tile."""
    GAME.apply(state, seat, f"tile {where}", inplace=True)
    assert state["phase"] == "tile" and state["picking"] == sq(where)
    GAME.apply(state, seat, f"lay {tile}", inplace=True)


def test_a_tile_change_that_breaks_the_plumbing_is_refused_and_can_be_fixed_or_cancelled():
    state = after(table(rats={0: "r1c1", 1: "r8c8"}))
    state["supply"] = {"straight": 5, "elbow": 5, "tee": 5, "cross": 0, "cap": 5, "blank": 3}
    change(state, "r4c4", "esw")  # closes r4c4's north side alone: invalid
    assert state["phase"] == "tiles" and state["pending"] == [[sq("r4c4"), E | S | W]]
    assert state["board"][sq("r4c4")] == CROSS  # nothing is laid before the confirmation
    assert "confirm" in texts(state, 0) and "cancel" in texts(state, 0)
    GAME.apply(state, 0, "confirm", inplace=True)
    assert state["refused"] and state["board"][sq("r4c4")] == CROSS and state["phase"] == "tiles"
    assert "confirm" not in texts(state, 0)  # not again unchanged
    # completing the change (r3c4 closes its south side too) makes it valid as a whole
    change(state, "r3c4", "new")
    GAME.apply(state, 0, "confirm", inplace=True)
    assert state["board"][sq("r4c4")] == E | S | W and state["board"][sq("r3c4")] == N | E | W
    assert state["supply"]["tee"] == 3 and state["mover"] == 1
    assert problem(state["board"]) is None


def test_cancelling_a_tile_change_changes_nothing_and_ends_the_turn():
    state = after(table(rats={0: "r1c1", 1: "r8c8"}))
    state["supply"] = {"straight": 5, "elbow": 5, "tee": 5, "cross": 0, "cap": 5, "blank": 3}
    change(state, "r4c4", "esw")
    GAME.apply(state, 0, "cancel", inplace=True)
    assert state["board"] == [CROSS] * 64 and state["pending"] == [] and state["mover"] == 1


def test_tiles_with_a_rat_or_trap_cannot_change_and_at_most_four_change():
    state = after(table(rats={0: "r1c1", 1: "r8c8"}, traps={"r5c5": BLACK}))
    state["supply"] = {"straight": 5, "elbow": 5, "tee": 5, "cross": 0, "cap": 5, "blank": 3}
    legal = texts(state, 0)
    assert "tile r4c4" in legal and not {"tile r1c1", "tile r8c8", "tile r5c5"} & set(legal)
    for where in ("r4c4", "r4c5", "r4c6", "r4c7"):
        assert f"tile {where}" in texts(state, 0)
        change(state, where, "esw")
    assert "tile r4c4" not in texts(state, 0)  # each square once
    assert not [a for a in texts(state, 0) if a.startswith("tile")]  # at most 4
    assert texts(state, 0) == ["confirm", "cancel"]


def test_a_picked_square_may_keep_its_tile():
    state = after(table(rats={0: "r1c1", 1: "r8c8"}))
    GAME.apply(state, 0, "tile r4c4", inplace=True)
    assert texts(state, 0)[-1] == "lay nesw" and labels(state, 0, GAME.legal_actions(state, 0)[-1]) == (
        "New tile for r4c4",
        "Keep the tile there",
    )
    GAME.apply(state, 0, "lay nesw", inplace=True)
    GAME.apply(state, 0, "confirm", inplace=True)
    assert state["board"] == [CROSS] * 64 and state["mover"] == 1


def test_a_new_shape_must_be_in_the_supply_and_the_old_tile_returns_to_it():
    state = after(table(rats={0: "r1c1", 1: "r8c8"}))
    state["supply"] = {"straight": 0, "elbow": 0, "tee": 1, "cross": 0, "cap": 0, "blank": 0}
    change(state, "r4c4", "esw")
    GAME.apply(state, 0, "tile r3c4", inplace=True)
    assert texts(state, 0) == ["lay nesw"]  # the only tee is taken: only its own cross is left
    state = after(table(rats={0: "r1c1", 1: "r8c8"}))
    state["board"][sq("r4c4")] = N | E | W  # a tee: rotations need no supply
    state["supply"] = {"straight": 0, "elbow": 0, "tee": 0, "cross": 1, "cap": 0, "blank": 0}
    GAME.apply(state, 0, "tile r4c4", inplace=True)
    assert texts(state, 0) == ["lay nes", "lay new", "lay nsw", "lay esw", "lay nesw"]
    lay_cross = after(table(rats={0: "r1c1", 1: "r8c8"}))
    lay_cross["board"][sq("r4c4")] = N | E | W
    lay_cross["supply"] = {"straight": 0, "elbow": 0, "tee": 0, "cross": 1, "cap": 0, "blank": 0}
    change(lay_cross, "r4c4", "nesw")  # a cross from the supply: the tee goes back to it
    assert lay_cross["pending"] == [[sq("r4c4"), CROSS]]
    assert supply_with_pending(lay_cross) == {"straight": 0, "elbow": 0, "tee": 1, "cross": 0, "cap": 0, "blank": 0}


def test_a_shape_is_offered_whenever_some_order_of_the_squares_balances_the_supply():
    """The supply has no Tee: a Tee for r4c5's cross is offered first all the same, because r4c3's Tee
    can still go back to the supply; the change is laid whichever square was picked first."""
    for first in ("r4c5", "r4c3"):
        state = after(table(rats={0: "r1c1", 1: "r8c8"}))
        state["board"][sq("r4c3")] = N | S | W  # a tee and a tee facing away from each other
        state["board"][sq("r4c4")] = N | E | S
        state["supply"] = {"straight": 0, "elbow": 0, "tee": 0, "cross": 1, "cap": 0, "blank": 0}
        GAME.apply(state, 0, f"tile {first}", inplace=True)
        assert "lay nes" in texts(state, 0) and "lay nesw" in texts(state, 0)
        GAME.apply(state, 0, "lay nes" if first == "r4c5" else "lay nesw", inplace=True)
        if first == "r4c5":  # taken from a supply without a Tee: refused until a Tee goes back
            events = GAME.apply(state, 0, "confirm", inplace=True).events
            assert state["refused"] and state["board"][sq("r4c5")] == CROSS
            assert "The tile change is refused: the supply is short of 1 tee" in localize(events[0].text)
            GAME.apply(state, 0, "tile r4c3 nesw", inplace=True)
        else:
            GAME.apply(state, 0, "tile r4c5 nes", inplace=True)
        GAME.apply(state, 0, "tile r4c4 nsw", inplace=True)  # the middle tee turned
        GAME.apply(state, 0, "confirm", inplace=True)
        assert [state["board"][sq(f"r4c{c}")] for c in (3, 4, 5)] == [CROSS, N | S | W, N | E | S]
        assert state["supply"] == {"straight": 0, "elbow": 0, "tee": 0, "cross": 1, "cap": 0, "blank": 0}
        assert state["mover"] == 1 and state["pending"] == []


def test_a_shape_no_order_can_balance_is_not_offered():
    state = after(table(rats={0: "r1c1", 1: "r8c8"}))
    state["supply"] = {"straight": 0, "elbow": 0, "tee": 0, "cross": 0, "cap": 0, "blank": 0}
    state["board"][sq("r4c3")] = N | S | W  # one tee on the board, but nothing it could become
    GAME.apply(state, 0, "tile r4c5", inplace=True)
    assert texts(state, 0) == ["lay nesw"]
    assert "nor can a square this change may still take give one back" in refusal(state, 0, "lay nes")
    # Two squares trading their shapes need a first tile from the supply: with none, no order works.
    assert not in_some_order(state["supply"], [("elbow", "tee"), ("tee", "elbow")])
    assert in_some_order(dict(state["supply"], elbow=1), [("elbow", "tee"), ("tee", "elbow")])


def test_a_player_may_simply_end_their_turn():
    state = after(table(rats={0: "r1c1", 1: "r8c8"}))
    assert texts(state, 0)[0] == "pass"
    GAME.apply(state, 0, "pass", inplace=True)
    assert state["mover"] == 1 and state["turn"] == 2


def test_a_rat_that_cannot_move_at_the_end_of_its_own_turn_is_eliminated():
    state = after(table(3, rats={0: "r4c4", 1: "r8c8", 2: "r1c8"}, traps={"r3c4": RED, "r5c4": RED, "r4c3": BLACK}))
    state["board"][sq("r4c4")] = N | S | W | E
    state["traps"][sq("r4c6")] = BLACK
    GAME.apply(state, 0, "push r4c6 w", inplace=True)  # closes its own last way out
    assert state["rats"][0] is None and state["fallen"] == [[0, 1, "end"]]
    assert state["mover"] == 1


# ---------------------------------------------------------------------------------------------- the end


def test_the_last_rat_standing_wins():
    state = table(rats={0: "r8c8", 1: "r5c2"}, traps={"r4c2": BLACK, "r6c2": BLACK, "r5c3": RED, "r5c1": RED})
    roll(state, 0, 5, 2)
    outcome = GAME.outcome(state)
    assert outcome.winners == (0,) and outcome.termination is Termination.LAST_STANDING
    assert localize(outcome.summary) == "{p0} wins: the last rat standing."
    assert GAME.to_act(state) == ()


def test_rats_eliminated_at_once_share_the_victory():
    # the roll's two traps fall on both rats, and neither can flee: they fall at once
    walls = {"r4c2": RED, "r6c2": RED, "r5c3": RED, "r5c1": RED, "r1c5": RED, "r3c5": RED, "r2c4": RED, "r2c6": RED}
    state = table(rats={0: "r2c5", 1: "r5c2"}, traps=walls)
    roll(state, 0, 5, 2)
    outcome = GAME.outcome(state)
    assert state["rats"] == [None, None] and outcome.winners == (0, 1)
    assert "share" in localize(outcome.summary)


def test_teams_alternate_seats_and_win_together():
    state = GAME.new_game(4, {"teams": "2"}, "teams")
    assert GAME.teams(state) == ((0, 2), (1, 3))
    assert GAME.teams(GAME.new_game(6, {"teams": "3"}, "t")) == ((0, 2, 4), (1, 3, 5))
    assert GAME.teams(GAME.new_game(6, {"teams": "2"}, "t")) == ((0, 3), (1, 4), (2, 5))
    assert GAME.teams(GAME.new_game(3, {"teams": "ffa"}, "t")) == ((0,), (1,), (2,))
    state = table(4, teams="2", rats={0: "r8c8", 1: "r5c2", 2: "r1c8", 3: "r1c1"})
    state["rats"][3] = None
    state["fallen"] = [[3, 1, "move"]]
    state["traps"] = [0] * 64
    for where in ("r4c2", "r6c2", "r5c3", "r5c1"):
        state["traps"][sq(where)] = RED
    roll(state, 0, 5, 2)  # seat 1, the last rat of team (1, 3), falls
    outcome = GAME.outcome(state)
    assert outcome.winners == (0, 2)  # seat 0 and its team-mate, whose rat is still in
    assert "their team has the last rat standing" in localize(outcome.summary)
    assert outcome.scores == (2, 2, 2, 1)  # the turns each rat lasted


def test_a_team_plays_on_while_one_of_its_rats_is_in():
    state = table(4, teams="2", rats={0: "r8c8", 1: "r5c2", 2: "r1c8", 3: "r1c1"})
    for where in ("r4c2", "r6c2", "r5c3", "r5c1"):
        state["traps"][sq(where)] = RED
    roll(state, 0, 5, 2)
    assert GAME.out(state) == {1} and GAME.outcome(state) is None


def test_the_safety_limit_of_300_turns_shares_the_victory():
    state = after(table(3, rats={0: "r8c8", 1: "r5c5", 2: "r1c1"}))
    state["turn"] = flow.TURN_LIMIT
    GAME.apply(state, 0, "pass", inplace=True)
    outcome = GAME.outcome(state)
    assert outcome.winners == (0, 1, 2) and outcome.termination is Termination.SAFETY_LIMIT
    assert localize(outcome.summary).endswith("{p0}, {p1}, and {p2} share the victory.")  # a list, not "and … and"
    assert localize(outcome.summary, "de").endswith("{p0}, {p1} und {p2} teilen sich den Sieg.")


# ---------------------------------------------------------------------------------------------- texts, AI


def test_labels_split_squares_moves_and_tiles_into_small_levels():
    state = after(table(rats={0: "r1c1", 1: "r8c8"}, traps={"r4c4": BLACK}))
    state["supply"] = {"straight": 5, "elbow": 5, "tee": 5, "cross": 0, "cap": 5, "blank": 3}
    paths = {a.encode(): labels(state, 0, a) for a in GAME.legal_actions(state, 0)}
    assert paths["pass"] == ("End turn",)
    assert paths["push r4c4 e"] == ("Push a black trap", "Row 4", "Column 4", "East → r4c5")
    assert paths["tile r2c3"] == ("Change tiles", "Row 2", "Column 3")
    GAME.apply(state, 0, "tile r2c3", inplace=True)
    paths = {a.encode(): labels(state, 0, a) for a in GAME.legal_actions(state, 0)}
    assert paths["lay ne"] == ("New tile for r2c3", "Elbow", "Openings N–E")
    state = table(rats={0: "r3c1", 1: "r8c8"})
    paths = {a.encode(): labels(state, 0, a) for a in GAME.legal_actions(state, 0)}
    assert paths["move e 2"] == ("Move", "East", "2 squares → r3c3")
    assert paths["toilet w"] == ("Move", "Toilet Y3 → r3c8")


def test_the_view_marks_the_legal_destinations_and_the_roll():
    state = table(rats={0: "r3c1", 1: "r8c8"}, traps={"r3c4": BLACK})
    view = GAME.view(state, None)
    assert sorted(view["options"]["stops"]) == sorted(
        [sq("r3c2"), sq("r3c3"), sq("r2c1"), sq("r1c1")] + [sq(f"r{r}c1") for r in range(4, 9)]
    )
    assert [{**t, "name": localize(t["name"])} for t in view["options"]["toilets"]] == [
        {"side": "w", "name": "Y3", "exit": sq("r3c8")}
    ]
    assert "seed" not in str(view)


def test_the_ai_plays_every_decision():
    ai = SewerRatAI()
    rng = random.Random(1)
    state = table(rats={0: "r8c8", 1: "r5c2"})
    roll(state, 0, 5, 2)
    assert GAME.to_act(state) == (1,) and ai.choose(GAME, state, 1, rng).verb == "flee"
    state = table(rats={0: "r1c1", 1: "r8c8"}, traps={"r4c4": RED})
    roll(state, 0, 4, 4)
    assert ai.choose(GAME, state, 0, rng).verb == "extra"
    GAME.apply(state, 0, "extra black", inplace=True)
    assert ai.choose(GAME, state, 0, rng).verb == "black"
    state = table(rats={0: "r1c1", 1: "r8c8"})
    assert ai.choose(GAME, state, 0, rng).verb in ("move", "toilet")
    # the foe has one way out (east, three stops): the AI shortens it with a two-tile change, picking
    # the first tile, then the second, then confirming
    walls = {"r3c4": RED, "r5c4": RED, "r4c3": RED, "r4c8": RED}
    state = after(table(rats={0: "r1c1", 1: "r4c4"}, traps=walls))
    state["supply"] = {"straight": 5, "elbow": 5, "tee": 5, "cross": 0, "cap": 5, "blank": 3}
    actions = []
    for _ in range(5):
        actions.append(ai.choose(GAME, state, 0, rng))
        GAME.apply(state, 0, actions[-1], inplace=True)
    assert [a.verb for a in actions] == ["tile", "lay", "tile", "lay", "confirm"]
    assert state["mover"] == 1 and problem(state["board"]) is None


def test_the_ai_shortlists_its_best_few_traps_pushes_and_tile_changes_for_the_search():
    ai = SewerRatAI()
    walls = {"r3c4": RED, "r5c4": RED, "r4c3": RED, "r4c8": RED, "r1c5": BLACK, "r6c6": BLACK}
    state = after(table(rats={0: "r1c1", 1: "r4c4"}, traps=walls))
    state["supply"] = {"straight": 5, "elbow": 5, "tee": 5, "cross": 0, "cap": 5, "blank": 3}
    legal = GAME.legal_actions(state, 0)
    short = ai.shortlist(GAME, state, 0)
    assert len(legal) > SHORTLIST and len(short) == SHORTLIST == len(set(short)) and set(short) <= set(legal)
    scored = {a: v for v, a in ai._follow_ups(state, 0)}
    assert "tile" in {a.verb for a in short}
    assert min(scored[a] for a in short) >= max(scored.get(a, -99) for a in legal if a not in short)
    # the picks and tiles of a change follow the plan its first pick was chosen for
    for _ in range(4):
        GAME.apply(state, 0, ai.choose(GAME, state, 0, random.Random(0)), inplace=True)
        assert state["phase"] in ("tile", "tiles")
        assert ai.shortlist(GAME, state, 0) == [ai.choose(GAME, state, 0, random.Random(0))]
    # a move keeps every choice
    state = table(rats={0: "r1c1", 1: "r8c8"})
    assert ai.shortlist(GAME, state, 0) == GAME.legal_actions(state, 0)


def test_the_hard_ais_estimate_is_each_rats_share_of_the_squared_freedom():
    state = table(players=3, rats={0: "r4c4", 1: "r5c6", 2: "r2c7"})
    shares = [GAME.estimate(state, p) for p in range(3)]
    assert sum(shares) == pytest.approx(1)
    state["traps"][sq("r3c4")] = RED  # rat 0 loses its way north
    hemmed = GAME.estimate(state, 0)
    assert hemmed < shares[0] and GAME.estimate(state, 1) > shares[1]
    for where in ("r4c3", "r4c5", "r5c4"):  # and every other way: it cannot move, it is worth nothing
        state["traps"][sq(where)] = RED
    assert GAME.estimate(state, 0) == 0
    state["rats"][2] = None
    state["fallen"].append([2, 1, "trap"])
    assert GAME.estimate(state, 2) == 0 and GAME.estimate(state, 1) == pytest.approx(1)


def test_in_teams_the_estimate_is_the_teams_share_split_among_its_seats():
    state = table(players=4, teams="2", rats={0: "r4c4", 1: "r5c6", 2: "r2c7", 3: "r7c2"})
    shares = [GAME.estimate(state, p) for p in range(4)]
    assert shares[0] == shares[2] and shares[1] == shares[3] and sum(shares) == pytest.approx(1)
    state["rats"][1] = None  # team 1's first rat not placed yet: it counts as the mean of those placed
    placed = {q for q in state["rats"] if q is not None}
    strength = {s: freedom(state["board"], state["traps"], placed, state["rats"][s]) ** 2 for s in (0, 2, 3)}
    strength[1] = sum(strength.values()) / 3
    team_1 = (strength[1] + strength[3]) / sum(strength.values())
    assert GAME.estimate(state, 1) == GAME.estimate(state, 3) == pytest.approx(team_1 / 2)


def ai_wins(games: int, players: int, teams: str) -> float:
    """The AI's share of wins against random players (in free-for-all one AI seat, rotating; in teams the
    AI plays one team, alternating which)."""
    from games.core import RandomPlayer
    from games.simulate import play_game

    ai, rnd = SewerRatAI(), RandomPlayer()
    won = 0
    for i in range(games):
        if teams == "ffa":
            table = [ai if s == i % players else rnd for s in range(players)]
        else:
            table = [ai if (s + i) % 2 == 0 else rnd for s in range(players)]
        mine = {s for s, p in enumerate(table) if p is ai}
        winners = set(play_game(GAME, table, f"ai-vs-random-{i}", {"teams": teams}).winners)
        won += bool(winners) and winners <= mine
    return won / games


def test_the_ai_beats_a_random_player():
    assert ai_wins(100, 2, "ffa") >= 0.85


@pytest.mark.slow
def test_the_ai_beats_a_random_player_in_nine_games_of_ten():
    assert ai_wins(1000, 2, "ffa") >= 0.90


def test_a_refused_action_says_why_and_changes_nothing():
    state = table(rats={0: "r4c4", 1: "r8c8"}, traps={"r3c4": BLACK})
    before = repr(state)
    assert "cannot move north" in refused(GAME.apply, state, 0, "move n 1")
    assert "1 to 4 stops" in refused(lambda: GAME.apply(state, 0, "move e 9", inplace=True))
    assert repr(state) == before
    state = after(table(rats={0: "r4c4", 1: "r8c8"}, traps={"r5c5": RED}))
    assert "no black trap on r1c1" in refused(GAME.apply, state, 0, "push r1c1 e")
    assert "rat or a trap" in refused(GAME.apply, state, 0, "tile r5c5")
    assert "not your turn" in refused(GAME.apply, state, 1, "pass")


def test_team_sizes_fit_only_the_counts_the_rules_give():
    for teams, fits in (("2", (4, 6)), ("3", (6,))):
        for players in range(2, 7):
            if players in fits:
                GAME.check_players(players, {"teams": teams})
            else:
                assert f"Teams of {teams} need" in refused(GAME.new_game, players, {"teams": teams}, "t")
    assert "Teams of 3 need 6 players, not 3" in refused(GAME.check_players, 3, {"teams": "3"})
    assert "Teams of 2 need 4 or 6 players, not 5" in refused(GAME.check_players, 5, {"teams": "2"})
    GAME.check_players(3, {"teams": "ffa"})


def test_the_view_gives_each_rat_its_team():
    state = GAME.new_game(4, {"teams": "2"}, "teams")
    view = GAME.view(state, None)
    assert view["team_of"] == [0, 1, 0, 1] and view["teams"] == 2


def test_a_tile_change_in_one_line_and_openings_in_any_order():
    state = after(table(rats={0: "r1c1", 1: "r8c8"}))
    GAME.apply(state, 0, "tile r4c4 ne", inplace=True)
    assert state["pending"] == [[sq("r4c4"), N | E]] and state["phase"] == "tiles"
    GAME.apply(state, 0, "tile r4c5 ws", inplace=True)  # west and south, named in any order
    assert state["pending"][-1] == [sq("r4c5"), S | W]
    GAME.apply(state, 0, "cancel", inplace=True)
    state = after(table(rats={0: "r1c1", 1: "r8c8"}))
    GAME.apply(state, 0, "tile r4c4", inplace=True)
    GAME.apply(state, 0, "lay en", inplace=True)  # the two-step form still works
    assert state["pending"] == [[sq("r4c4"), N | E]]


def refusal(state, seat: int, text: str) -> str:
    before = repr(state)
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(state, seat, text)
    assert repr(state) == before
    message = localize(str(caught.value))
    assert "is not one of your moves" not in message, message
    return message


def test_refusals_say_which_rule_an_action_breaks():
    state = table(rats={0: "r3c1", 1: "r3c8"})
    assert "A rat is on r3c8, the exit of toilet Y3" in refusal(state, 0, "toilet w")
    assert "no toilet on the east side" in refusal(state, 0, "toilet e")
    state = table(rats={0: "r8c8", 1: "r5c2"}, traps={"r3c2": BLACK, "r5c3": RED})
    roll(state, 0, 5, 2)
    assert state["phase"] == "displace"
    assert "a red trap is on r5c3" in refusal(state, 1, "flee e")
    state = after(table(rats={0: "r1c2", 1: "r4c5"}, traps={"r1c1": BLACK, "r4c4": BLACK}))
    assert "off the board" in refusal(state, 0, "push r1c1 n")
    assert "A rat is on r4c5" in refusal(state, 0, "push r4c4 e")
    state = table(rats={0: "r8c8", 1: "r1c1"}, traps={"r2c2": RED, "r5c2": RED})
    roll(state, 0, 5, 2)  # the black trap falls on the red trap on r5c2: the roller places it
    assert state["phase"] == "put"
    assert "r2c2 already has a red trap" in refusal(state, 0, "black r2c2")
    assert "next trap of your roll is black" in refusal(state, 0, "red r3c3")
    state = after(table(rats={0: "r1c1", 1: "r8c8"}))
    state["supply"] = {"straight": 0, "elbow": 0, "tee": 0, "cross": 0, "cap": 0, "blank": 0}
    GAME.apply(state, 0, "tile r4c4", inplace=True)
    assert "No dead end (white dot) tile is left" in refusal(state, 0, "lay n")
    state = GAME.new_game(2, {}, "place")
    plain = next(q for q in range(64) if SHAPE_OF[state["board"][q]] != "cap")
    assert "not a white dot" in refusal(state, 0, f"place {square_text(plain)}")


def test_an_action_of_another_phase_says_what_the_phase_asks_for():
    state = table(rats={0: "r4c4", 1: "r8c8"})
    assert "Move your rat first" in refusal(state, 0, "pass")
    assert "Move your rat first" in refusal(state, 0, "tile r2c2 ne")
    state = after(state)
    assert "push a black trap" in refusal(state, 0, "move n 1")


def test_the_mover_waiting_for_a_fleeing_rat_is_told_why():
    state = table(rats={0: "r8c8", 1: "r5c2"}, traps={"r3c2": BLACK})
    roll(state, 0, 5, 2)
    assert state["phase"] == "displace" and GAME.to_act(state) == (1,)
    assert (
        localize(GAME.waiting(state, 0))
        == "A trap of your roll fell on {p1}'s rat: it flees first, then your turn goes on."
    )
    assert GAME.waiting(state, 1) is None


# ---------------------------------------------------------------------------------------------- languages


def german(text: str) -> str:
    return localize(with_names(text, ["Anne", "Ben", "Cleo"]), "de")


def test_events_are_written_out_in_german():
    state = table(rats={0: "r8c8", 1: "r5c2"}, traps={"r4c2": BLACK, "r6c2": BLACK, "r5c3": RED})
    events = [german(e.text) for e in roll(state, 0, 5, 2)]
    assert events[0] == "Anne würfelt Gelb 5, Grün 2."
    assert "Die Ratte von Ben flieht vor der Falle nach Westen auf R5S1." in events
    assert "Auf R5S2 liegt jetzt eine schwarze Falle." in events
    state = table(3, rats={0: "r8c8", 1: "r5c2", 2: "r1c8"}, traps={"r4c2": BLACK, "r6c2": BLACK, "r5c3": RED})
    state["traps"][sq("r5c1")] = RED
    assert "💀 Die Ratte von Ben kann der Falle nicht entkommen und ist raus." in [
        german(e.text) for e in roll(state, 0, 5, 2)
    ]


def test_labels_in_german_count_squares_in_the_right_plural():
    state = table(rats={0: "r3c1", 1: "r8c8"})
    paths = {a.encode(): tuple(german(x) for x in GAME.describe(state, 0, a)) for a in GAME.legal_actions(state, 0)}
    assert paths["move e 1"] == ("Ziehen", "Osten", "1 Feld → R3S2")
    assert paths["move e 2"] == ("Ziehen", "Osten", "2 Felder → R3S3")
    assert paths["toilet w"] == ("Ziehen", "Toilette Ge3 → R3S8")
    state = after(table(rats={0: "r1c1", 1: "r8c8"}, traps={"r4c4": BLACK}))
    assert tuple(map(german, GAME.describe(state, 0, Action.decode("push r4c4 e")))) == (
        "Schwarze Falle schieben",
        "Reihe 4",
        "Spalte 4",
        "Osten → R4S5",
    )


def test_refusals_are_written_out_in_german():
    state = table(rats={0: "r4c4", 1: "r8c8"}, traps={"r3c4": BLACK})
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(state, 0, "move n 1")
    assert german(str(caught.value)) == (
        "Deine Ratte kann nicht nach Norden ziehen: auf R3S4 liegt eine schwarze Falle."
    )
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(state, 0, "move e 9")
    assert "1 bis 4 Haltefelder" in german(str(caught.value))
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(state, 0, "move e")
    assert german(str(caught.value)) == "`move` braucht 2 Angaben."
    with pytest.raises(IllegalAction) as caught:
        GAME.check_players(5, {"teams": "2"})
    assert german(str(caught.value)) == "Teams aus 2 brauchen 4 oder 6 Spieler, nicht 5."


def test_a_short_supply_is_counted_in_german():
    state = after(table(rats={0: "r1c1", 1: "r8c8"}))
    state["supply"] = {"straight": 0, "elbow": 0, "tee": 0, "cross": 1, "cap": 0, "blank": 0}
    state["board"][sq("r4c3")] = N | S | W
    state["board"][sq("r4c4")] = N | E | S
    GAME.apply(state, 0, "tile r4c5 nes", inplace=True)  # typed in English, whatever the player's language
    assert german(GAME.view(state, None)["pending"]) == "Anne tauscht 1 von bis zu 4 Plättchen"
    events = GAME.apply(state, 0, "confirm", inplace=True).events
    assert german(events[0].text).startswith("Die Plättchenänderung wird abgelehnt: dem Vorrat fehlen 1 T-Stück ")
    assert GAME.score_text(1) != GAME.score_text(3)
    assert (german(GAME.score_text(1)), german(GAME.score_text(3))) == ("1 Zug", "3 Züge")


def test_typed_english_moves_work_and_the_summaries_speak_german():
    state = table(rats={0: "r3c1", 1: "r8c8"})
    GAME.apply(state, 0, "move e 2", inplace=True)
    assert state["rats"][0] == sq("r3c3") and state["phase"] == "after"
    GAME.apply(state, 0, "tile r4c5 ws", inplace=True)
    GAME.apply(state, 0, "cancel", inplace=True)
    assert state["mover"] == 1
    view = GAME.view(state, 0)
    assert german(GAME.seat_summary(view)).startswith("Deine Ratte sitzt auf R3S3. Von dort kann sie: `move n 1`, ")
    assert german(GAME.summary(view)).startswith("Kanalratte, Zug 2: Ben ist dran (gewürfelt: Gelb ")
    rules = localize(GAME.rules_text(), "de")
    assert rules.startswith("**Kanalratte**") and "`move n 3`" in rules and "`tile r3c4 ne`" in rules
