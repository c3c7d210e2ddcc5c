"""Sea Rats! rules (``shared/rules/sea-rats.md``): every rule on constructed positions, with scripted dice."""

from __future__ import annotations

import random

import pytest

from games.core import Action, Event, IllegalAction, Lapse
from games.i18n import localize
from games.searats import SeaRats
from games.searats.board import in_range
from games.searats.components import ROUNDS, SHIPS
from games.searats.flow import fresh_turn
from games.searats.geometry import PORTS, X, distance, name, parse


class Scripted(random.Random):
    """Dice that roll the values a test lists, in order."""

    def __init__(self, queue: list[int]) -> None:
        super().__init__(0)
        self.queue = queue

    def randint(self, a: int, b: int) -> int:
        assert self.queue, "the test ran out of scripted dice"
        return self.queue.pop(0)


class Rigged(SeaRats):
    def __init__(self) -> None:
        self.queue: list[int] = []

    def rng(self, state):  # type: ignore[override]
        return Scripted(self.queue)


G = Rigged()
BLACK, RED, BLUE, GREEN, PURPLE, YELLOW = range(6)


COLOURS = ("black", "red", "blue", "green", "purple", "yellow")
PARKING = ("k4", "k5", "k9", "k10", "d11")
"""Where ships a test does not place wait: out of range of the dots the tests use."""


def game(players: int = 2, **ships: str) -> dict:
    """A new game with the named ships placed (``black="f6"``, or ``"sunk"``), the others parked out of range;
    Black drawn to begin."""
    state = G.new_game(players, seed="rules")
    state.update(fresh_turn(BLACK), first=BLACK)
    parked = [c for c in COLOURS[: state["seats"]] if c not in ships]
    ships = {**dict(zip(parked, PARKING, strict=False)), **ships}
    for colour, where in ships.items():
        seat = COLOURS.index(colour)
        if where == "sunk":
            state["ships"][seat].update(sunk=True, balls=0, supplies=0)
        else:
            state["ships"][seat]["at"] = parse(where)
    return state


def sail_phase(state: dict, seat: int, *roll: int) -> dict:
    state.update(turn=seat, phase="sail", roll=list(roll), fought=[], traded=[], trading=False)
    return state


def act_phase(state: dict, seat: int) -> dict:
    state.update(turn=seat, phase="act", roll=[1], fought=[], traded=[], trading=False)
    return state


def play(state: dict, seat: int, text: str, *dice: int) -> tuple[dict, list[Event]]:
    """Apply ``text`` as a player would (checked against the legal actions), with the given dice."""
    G.queue[:] = list(dice)
    step = G.apply(state, seat, text)
    assert not G.queue, f"dice left unrolled: {G.queue}"
    assert not G.check_invariants(step.state), G.check_invariants(step.state)
    return step.state, step.events


def legal(state: dict, seat: int) -> list[str]:
    return [a.encode() for a in G.legal_actions(state, seat)]


def said(events: list[Event]) -> str:
    """The events' texts as an English reader reads them."""
    return " ".join(localize(e.text) for e in events)


def refusal(state: dict, seat: int, text: str) -> str:
    """What the engine says, in English, when ``seat`` tries ``text``."""
    with pytest.raises(IllegalAction) as refused:
        G.apply(state, seat, text)
    return localize(str(refused.value))


def rolled(events: list[Event]) -> list[int]:
    return [d["value"] for e in events if e.data for d in e.data["dice"]]


def ship(state: dict, seat: int) -> dict:
    return state["ships"][seat]


# ---------------------------------------------------------------------------------------------- the map


def test_map_ports_x_and_distances() -> None:
    assert [name(PORTS[n]) for n in range(1, 7)] == ["C1", "I1", "K6", "I11", "C11", "A6"]
    assert name(X) == "F6"
    assert distance(parse("a1"), parse("k11")) == 10  # diagonal
    assert distance(parse("c3"), parse("c8")) == 5  # column
    assert distance(parse("b2"), parse("h2")) == 6  # row
    assert distance(parse("f6"), parse("h7")) is None  # not in a straight line


@pytest.mark.parametrize(
    ("players", "fleets"),
    [
        (2, [0, 1, 0, 1, 0, 1]),
        (3, [0, 1, 2, 0, 1, 2]),
        (4, [0, 1, 2, 3]),
        (5, [0, 1, 2, 3, 4]),
        (6, [0, 1, 2, 3, 4, 5]),
    ],
)
def test_fleets_alternate_and_only_the_ships_in_play_sail(players: int, fleets: list[int]) -> None:
    state = G.new_game(players, seed="x")
    assert state["seats"] == len(fleets)
    assert [G.controller(state, s) for s in range(state["seats"])] == fleets
    teams = G.teams(state)
    assert sorted(s for t in teams for s in t) == list(range(len(fleets))) and len(teams) == players


def test_setup_ships_on_their_ports_with_six_and_six_and_the_treasure_on_the_x() -> None:
    state = G.new_game(6, seed="x")
    for s in range(6):
        assert ship(state, s)["at"] == PORTS[s + 1]
        assert (ship(state, s)["balls"], ship(state, s)["supplies"]) == (6, 6)
    assert state["treasure"] is None
    first = state["first"]
    assert G.to_act(state) == (first,) and legal(state, first) == ["roll"]


def test_the_first_ship_is_drawn_from_the_seed_and_rounds_count_from_it() -> None:
    firsts = {G.new_game(2, seed=f"first-{n}")["first"] for n in range(60)}
    assert firsts == set(range(6))  # every ship begins in some game: the host (Black) has no advantage
    assert G.new_game(2, seed="first-7")["first"] == G.new_game(2, seed="first-7")["first"]
    state = G.new_game(2, seed="rules")
    state.update(first=RED, turn=YELLOW, phase="act", roll=[1], fought=[], traded=[], trading=False)
    for seat, where in enumerate(("a1", "a3", "a5", "a7", "a9", "a11")):
        state["ships"][seat]["at"] = parse(where)
    state, _ = play(state, YELLOW, "end", 2)
    assert state["turn"] == BLACK and state["round"] == 1  # Black still plays round 1 after Yellow
    state.update(phase="act", roll=[1], fought=[], traded=[], trading=False)
    state, _ = play(state, BLACK, "end", 2)
    assert state["turn"] == RED and state["round"] == 2  # back at the first ship: round 2


# ---------------------------------------------------------------------------------------------- the turn


def test_the_roll_is_a_die_everyone_sees() -> None:
    state = G.new_game(2, seed="x")
    state.update(fresh_turn(BLACK), first=BLACK)
    state, events = play(state, BLACK, "roll", 4)
    assert state["phase"] == "sail" and state["roll"] == [4]
    (event,) = [e for e in events if e.data]
    assert event.seat is None and event.data == {"dice": [{"die": "d6", "sides": 6, "value": 4}]}


def test_charting_the_rolled_port_and_never_the_last_port() -> None:
    state = sail_phase(game(black="f3"), BLACK, 2)
    assert "sail e 1 chart 2" in legal(state, BLACK)
    ship(state, BLACK)["last"] = 2
    assert not any("chart" in a for a in legal(state, BLACK))
    assert "last port" in refusal(state, BLACK, "sail e 1 chart 2")


def test_a_course_is_kept_until_another_is_charted() -> None:
    state = sail_phase(game(black="f3"), BLACK, 2)
    state, _ = play(state, BLACK, "anchor chart 2", 4)  # no battle nor trade: Red rolls
    assert ship(state, BLACK)["chart"] == 2
    # Red's turn began with its roll; later Black rolls a 5 and sails without charting: the course stays.
    state = sail_phase(state, BLACK, 5)
    assert "sail n 1" in legal(state, BLACK) and "sail n 1 chart 5" in legal(state, BLACK)
    state, _ = play(state, BLACK, "sail n 1", 3)
    assert ship(state, BLACK)["chart"] == 2


def test_charting_the_course_already_held_is_no_choice() -> None:
    state = sail_phase(game(black="f3"), BLACK, 2)
    ship(state, BLACK)["chart"] = 2
    assert not any("chart" in a for a in legal(state, BLACK))


def test_sailing_in_eight_directions_up_to_the_roll() -> None:
    state = sail_phase(game(black="f6"), BLACK, 2)
    ship(state, BLACK)["chart"] = 1  # nothing to chart with a 2 then? port 2 still: keep it simple
    moves = [a for a in legal(state, BLACK) if "chart" not in a]
    assert moves == ["anchor"] + [f"sail {d} {n}" for d in ("n", "ne", "e", "se", "s", "sw", "w", "nw") for n in (1, 2)]


def test_no_sailing_onto_or_over_a_ship_nor_off_the_map() -> None:
    state = sail_phase(game(black="b2", red="b4"), BLACK, 5)
    moves = legal(state, BLACK)
    assert "sail s 1" in moves and "sail s 2" not in moves and "sail s 3" not in moves  # Red on B4
    assert "sail n 1" in moves and "sail n 2" not in moves  # B1 is the edge
    assert "over another ship" in refusal(state, BLACK, "sail s 3")
    with pytest.raises(IllegalAction):
        G.apply(state, BLACK, "sail n 2")


def test_making_port_divides_a_die_between_cannonballs_and_supplies() -> None:
    state = sail_phase(game(black="c2"), BLACK, 1)
    ship(state, BLACK).update(balls=2, supplies=3)
    state, events = play(state, BLACK, "sail n 1 chart 1", 5)
    assert rolled(events) == [5] and state["phase"] == "port"
    assert legal(state, BLACK) == [f"stock {b}" for b in range(6)]
    state, _ = play(state, BLACK, "stock 4", 2)  # then Red's turn begins
    assert (ship(state, BLACK)["balls"], ship(state, BLACK)["supplies"]) == (6, 4)
    assert ship(state, BLACK)["last"] == 1


def test_making_port_within_the_twelve_item_hold() -> None:
    state = sail_phase(game(black="c2"), BLACK, 1)
    ship(state, BLACK).update(balls=5, supplies=5)
    state, _ = play(state, BLACK, "sail n 1 chart 1", 6)
    assert legal(state, BLACK) == ["stock 0", "stock 1", "stock 2"]


def test_a_full_hold_makes_port_without_a_question() -> None:
    state = sail_phase(game(black="c2"), BLACK, 1)
    ship(state, BLACK).update(balls=6, supplies=6)
    state, events = play(state, BLACK, "sail n 1 chart 1", 4, 3)  # port die, then Red's turn die
    assert ship(state, BLACK)["last"] == 1 and cargo_of(state, BLACK) == 12
    assert state["turn"] == RED and rolled(events) == [4, 3]


def cargo_of(state: dict, seat: int) -> int:
    return ship(state, seat)["balls"] + ship(state, seat)["supplies"]


def test_no_port_on_the_charted_port_when_it_is_the_last_port() -> None:
    state = sail_phase(game(black="c1"), BLACK, 3)
    ship(state, BLACK).update(chart=1, last=1, balls=1, supplies=1)
    state, _ = play(state, BLACK, "anchor", 5)  # only Red's die rolls
    assert state["turn"] == RED and cargo_of(state, BLACK) == 2


def test_a_port_not_charted_is_no_port() -> None:
    state = sail_phase(game(black="c3"), BLACK, 2)
    ship(state, BLACK).update(chart=3, balls=1, supplies=1)
    state, _ = play(state, BLACK, "sail n 2", 6)  # onto port 1, charted 3: Red's turn
    assert state["turn"] == RED and cargo_of(state, BLACK) == 2


# ---------------------------------------------------------------------------------------------- battles


def test_targets_are_ships_in_a_straight_line_within_five() -> None:
    # Six players: every ship is another commander's.
    state = act_phase(game(6, black="a1", red="f6", blue="a7", green="b3", purple="k11", yellow="k1"), BLACK)
    aims = [a for a in legal(state, BLACK) if a.startswith("aim")]
    assert aims == ["aim red"]  # F6 is 5 away on the diagonal; A7 is 6 away; B3 and K1 not in range
    state = act_phase(game(6, black="a1", red="f6", blue="a6", green="k2"), BLACK)
    assert [a for a in legal(state, BLACK) if a.startswith("aim")] == ["aim red", "aim blue"]


def attack(state: dict, attacker: int, defender: int) -> dict:
    state = act_phase(state, attacker)
    state, _ = play(state, attacker, f"aim {('black', 'red', 'blue', 'green', 'purple', 'yellow')[defender]}")
    if state["phase"] == "bribe":
        state, _ = play(state, defender, "brace")
    return state


def test_rulebook_example_two_dots_three_balls_each_way() -> None:
    state = attack(game(black="e5", red="e7"), BLACK, RED)
    state, events = play(state, BLACK, "fire 3", 5, 4, 2)
    assert rolled(events) == [5, 4, 2]
    assert ship(state, BLACK)["balls"] == 3 and ship(state, RED)["supplies"] == 4  # 2 hits
    assert state["phase"] == "counter" and legal(state, RED) == ["fire 1", "fire 2", "fire 3", "hold"]
    state, events = play(state, RED, "fire 3", 4, 2, 1)
    assert ship(state, RED)["balls"] == 3 and ship(state, BLACK)["supplies"] == 5  # 1 hit


def test_a_die_equal_to_the_distance_misses() -> None:
    state = attack(game(black="e3", red="e6"), BLACK, RED)
    state, _ = play(state, BLACK, "fire 3", 3, 3, 4)
    assert ship(state, RED)["supplies"] == 5


def test_counter_fire_is_limited_to_the_balls_fired() -> None:
    state = attack(game(black="e3", red="e6"), BLACK, RED)
    state, _ = play(state, BLACK, "fire 2", 1, 1)
    assert legal(state, RED) == ["fire 1", "fire 2", "hold"]
    with pytest.raises(IllegalAction):
        G.apply(state, RED, "fire 3")


def test_one_battle_per_target_per_turn_each_finished_first() -> None:
    state = attack(game(6, black="e3", red="e6", blue="e1"), BLACK, RED)
    assert G.to_act(state) == (BLACK,) and "aim blue" not in legal(state, BLACK)  # the battle is on
    state, _ = play(state, BLACK, "fire 1", 1)
    state, _ = play(state, RED, "hold")
    aims = [a for a in legal(state, BLACK) if a.startswith("aim")]
    assert aims == ["aim blue"]


def test_a_ship_hit_beyond_repair_sinks_when_its_attacker_cannot_pay() -> None:
    state = game(black="e3", red="e4")
    ship(state, RED).update(supplies=0)
    ship(state, BLACK).update(supplies=1)
    state["treasure"] = RED
    state = attack(state, BLACK, RED)
    state, events = play(state, BLACK, "fire 3", 6, 6, 6, 2)  # 3 missing, Black has 1 supply: sinks; Red's die
    assert ship(state, RED)["sunk"] and cargo_of(state, RED) == 0
    assert state["treasure"] is None  # back to the X
    assert RED in G.out(state) and state["fates"][-1]["how"] == "sunk"
    assert rolled(events) == [6, 6, 6, 2] and "fires back" not in said(events)  # no counter-fire


def test_capture_or_sink_is_the_attackers_choice_and_the_captor_divides_the_cargo() -> None:
    state = game(3, black="e3", red="e4")
    ship(state, RED).update(balls=4, supplies=1)
    ship(state, BLACK).update(balls=6, supplies=5)
    state = attack(state, BLACK, RED)
    state, _ = play(state, BLACK, "fire 3", 6, 6, 1)  # 2 hits on 1 supply: 1 missing
    assert G.to_act(state) == (BLACK,) and legal(state, BLACK)[0] == "sink"
    assert "capture 7 4" in legal(state, BLACK) and "capture 0 0" in legal(state, BLACK)  # Red takes 11
    state, events = play(state, BLACK, "capture 4 3")
    assert "Black keeps 4 cannonballs and 3 supplies, Red gets 3 cannonballs and 1 supply." in localize(events[-1].text)
    # Black paid 1 supply (5 -> 4); both ships' 3 + 4 cannonballs and 4 supplies divided.
    assert (ship(state, BLACK)["balls"], ship(state, BLACK)["supplies"]) == (4, 3)
    assert (ship(state, RED)["balls"], ship(state, RED)["supplies"]) == (3, 1)
    assert not ship(state, RED)["sunk"] and G.controller(state, RED) == G.controller(state, BLACK) == 0
    assert RED not in G.out(state) and state["fates"][-1] == {
        "ship": RED,
        "by": BLACK,
        "how": "captured",
        "from": 1,
        "round": 1,
        "captor": 0,
    }


def test_a_capture_never_leaves_a_ship_with_more_than_twelve_of_a_kind() -> None:
    state = game(3, black="e3", red="e4")
    ship(state, RED).update(balls=10, supplies=1)
    ship(state, BLACK).update(balls=9, supplies=3)
    state = attack(state, BLACK, RED)
    state, _ = play(state, BLACK, "fire 3", 6, 6, 1)  # 16 cannonballs and 2 supplies to divide
    moves = legal(state, BLACK)
    assert "capture 16 0" not in moves and "capture 13 0" not in moves and "capture 12 0" in moves
    assert "capture 3 0" not in moves  # Red would keep 13 cannonballs
    assert "12 of a kind" in refusal(state, BLACK, "capture 16 0")


def test_the_captor_divides_the_treasure_between_the_two_ships() -> None:
    for chest, keeper in (("", BLACK), (" chest", RED)):
        state = game(3, black="e3", red="e4")
        state["treasure"] = RED
        ship(state, RED).update(balls=4, supplies=1)
        ship(state, BLACK).update(balls=6, supplies=5)
        state = attack(state, BLACK, RED)
        state, _ = play(state, BLACK, "fire 3", 6, 6, 1)
        assert "capture 4 3 chest" in legal(state, BLACK)
        state, events = play(state, BLACK, f"capture 4 3{chest}")
        assert state["treasure"] == keeper  # as the captor says, not by the theft rule
        assert f"The Treasure stays aboard {('Black', 'Red')[keeper]}." in said(events)


def test_no_trade_takes_a_ship_past_twelve_of_a_kind() -> None:
    state = act_phase(game(black="e3", red="e7"), BLACK)
    ship(state, BLACK).update(balls=12, supplies=12)  # More Booty took it to 24
    ship(state, RED).update(balls=0, supplies=0)
    state, _ = play(state, BLACK, "trade red")
    assert "give 0 12" in legal(state, BLACK)
    state, _ = play(state, BLACK, "give 0 12")
    asks = legal(state, BLACK)
    assert "ask 0 0" in asks and not any(a.startswith("ask") and a != "ask 0 0" for a in asks)
    state = act_phase(game(black="e3", red="e7"), BLACK)
    ship(state, BLACK).update(balls=12, supplies=12)
    ship(state, RED).update(balls=12, supplies=0)
    # Its 12 supplies for Red's 12 cannonballs would leave Black with 24 cannonballs: not offered.
    state, _ = play(state, BLACK, "trade red")
    assert not any(a.startswith("give 0") for a in legal(state, BLACK))
    state = act_phase(game(black="e3", red="e7"), BLACK)
    ship(state, BLACK).update(balls=12, supplies=12)
    ship(state, RED).update(balls=6, supplies=0)
    state, _ = play(state, BLACK, "trade red")
    state, _ = play(state, BLACK, "give 0 6")
    assert "ask 6 0" not in legal(state, BLACK) and "ask 0 0" in legal(state, BLACK)
    assert "12 of a kind" in refusal(state, BLACK, "ask 6 0")


def test_invariants_refuse_more_than_twelve_of_a_kind() -> None:
    state = game()
    ship(state, BLACK).update(balls=24, supplies=0)
    assert G.check_invariants(state)
    ship(state, BLACK).update(balls=12, supplies=12)
    assert not G.check_invariants(state)


def test_bribes_and_blackmail_respect_twelve_of_a_kind() -> None:
    state = act_phase(game(black="e3", red="e6"), BLACK)
    ship(state, BLACK).update(balls=11, supplies=0)
    ship(state, RED).update(balls=6, supplies=6)
    state, _ = play(state, BLACK, "aim red")
    offers = [a for a in legal(state, RED) if a.startswith("offer")]
    assert "offer 1 0" in offers and "offer 2 0" not in offers and "offer 0 1" in offers


def test_the_opener_may_abandon_a_trade_while_building_it() -> None:
    state = act_phase(game(black="e3", red="e7"), BLACK)
    state, _ = play(state, BLACK, "trade red")
    assert "abandon" in legal(state, BLACK)
    state, _ = play(state, BLACK, "give 1 0")
    state, events = play(state, BLACK, "abandon", 4)
    assert "abandons the trade" in said(events) and state["offer"] is None
    assert (ship(state, BLACK)["balls"], ship(state, RED)["balls"]) == (6, 6)


def test_a_captured_ship_keeps_its_turn_under_its_new_commander() -> None:
    state = game(3, black="e3", red="e4", blue="k11", green="a11", purple="a10", yellow="k10")
    ship(state, RED).update(supplies=0)
    state = attack(state, BLACK, RED)
    state, _ = play(state, BLACK, "fire 1", 6)
    state, _ = play(state, BLACK, "capture 6 5")
    state, _ = play(state, BLACK, "end", 2)
    assert state["turn"] == RED and G.to_act(state) == (RED,)
    assert G.controller(state, RED) == 0  # Black's commander now decides for Red, in Red's place


def test_counter_fire_may_capture_the_attacker_and_ends_its_turn() -> None:
    state = game(black="e3", red="e4")
    ship(state, BLACK).update(supplies=0, balls=3)
    state = attack(state, BLACK, RED)
    state, _ = play(state, BLACK, "fire 1", 1)
    state, _ = play(state, RED, "fire 1", 6)
    assert G.to_act(state) == (RED,) and state["prize"]["captor"] == RED
    state, _ = play(state, RED, "capture 5 5", 4)  # then Red's own turn begins (its die)
    assert G.controller(state, BLACK) == 1 and state["turn"] == RED


# ---------------------------------------------------------------------------- a fleet never fights itself


def aims(state: dict, seat: int) -> list[str]:
    return [a for a in legal(state, seat) if a.startswith("aim")]


def test_a_fleet_never_fights_itself_with_two_players() -> None:
    # Black, Blue and Purple are one commander's; Red, Green and Yellow the other's. All but Yellow are in range.
    state = act_phase(game(black="e3", blue="e5", purple="c5", red="e7", green="g5"), BLACK)
    assert aims(state, BLACK) == ["aim red", "aim green"]
    assert refusal(state, BLACK, "aim blue") == "Blue is one of your own ships."
    assert refusal(state, BLACK, "aim purple") == "Purple is one of your own ships."
    assert {"trade blue", "trade purple", "trade red", "trade green"} <= set(legal(state, BLACK))


def test_a_fleet_still_moves_cargo_between_its_own_ships() -> None:
    state = act_phase(game(black="e3", blue="e5", red="e7"), BLACK)
    ship(state, BLUE).update(balls=0, supplies=4)
    state, _ = play(state, BLACK, "trade blue")
    state, _ = play(state, BLACK, "give 2 0")
    state, _ = play(state, BLACK, "ask 0 0")
    assert G.to_act(state) == (BLUE,) and G.controller(state, BLUE) == G.controller(state, BLACK)
    state, events = play(state, BLUE, "accept")
    assert "accepts the trade" in said(events)
    assert (ship(state, BLACK)["balls"], ship(state, BLUE)["balls"]) == (4, 2)
    assert state["phase"] == "act" and "trade red" in legal(state, BLACK)  # Black's turn goes on


def test_a_fleet_never_fights_itself_with_three_players() -> None:
    # Red and Purple are one commander's; Black and Green another's, Blue and Yellow the third's.
    state = act_phase(game(3, red="e3", purple="e5", black="c3", blue="g5", green="e7", yellow="g3"), RED)
    assert aims(state, RED) == ["aim black", "aim blue", "aim green", "aim yellow"]
    assert refusal(state, RED, "aim purple") == "Purple is one of your own ships."
    assert "trade purple" in legal(state, RED)


def test_a_captured_ship_is_its_captors_for_targeting_from_then_on() -> None:
    state = game(3, black="e3", red="e4", green="g4", purple="e6", blue="c6", yellow="k11")
    assert aims(act_phase(state, GREEN), GREEN) == ["aim red", "aim purple"]  # before: Red is an enemy of Green
    ship(state, RED).update(supplies=0)
    state = attack(state, BLACK, RED)
    state, _ = play(state, BLACK, "fire 1", 6)
    state, _ = play(state, BLACK, "capture 6 5")
    assert G.controller(state, RED) == G.controller(state, GREEN) == 0
    # After: Red is one of Green's own ships, and Red's own fleet is Black and Green now, not Purple.
    state = act_phase(state, GREEN)
    assert aims(state, GREEN) == ["aim purple"]
    assert refusal(state, GREEN, "aim red") == "Red is one of your own ships."
    state = act_phase(state, RED)
    assert aims(state, RED) == ["aim blue", "aim purple"]
    assert refusal(state, RED, "aim green") == "Green is one of your own ships."
    assert "trade black" in legal(state, RED)


def test_a_ship_captured_by_counter_fire_is_its_captors_too() -> None:
    state = game(black="e3", red="e4", blue="e6", green="c4")
    ship(state, BLACK).update(supplies=0, balls=3)
    state = attack(state, BLACK, RED)
    state, _ = play(state, BLACK, "fire 1", 1)
    state, _ = play(state, RED, "fire 1", 6)
    state, _ = play(state, RED, "capture 5 5", 4)
    state = act_phase(state, RED)
    assert aims(state, RED) == ["aim blue"]  # Black and Green are both Red's commander's now
    assert refusal(state, RED, "aim black") == "Black is one of your own ships."
    assert "trade black" in legal(state, RED)


def test_the_invariants_catch_a_fleet_fighting_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    state = act_phase(game(black="e3", blue="e5", red="e7"), BLACK)
    assert not G.check_invariants(state)
    monkeypatch.setattr("games.searats.engine.aim_targets", lambda state: in_range(state, state["turn"], []))
    assert G.check_invariants(state) == ["black may aim at blue of its own fleet"]
    state["battle"] = {"att": BLACK, "def": BLUE, "dist": 2, "fired": 0, "hits": [0, 0], "offers": [0, 0]}
    state["phase"] = "fire"
    assert G.check_invariants(state) == ["black fights blue of its own fleet"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_never_offer_a_ship_of_the_actors_fleet_as_a_target(players: int) -> None:
    """Seeded random play: wherever a ship of the fleet of the ship on turn lies within its range (before the
    rule, it was offered as a target), also after a capture made it one, no ``aim`` at it is offered."""
    engine = SeaRats()
    drive = random.Random(f"own-fleet-{players}")
    mates_in_range = after_capture = 0
    for i in range(8):
        state = engine.new_game(players, seed=f"own-fleet-{players}-{i}")
        while not engine.is_over(state):
            seat = engine.to_act(state)[0]
            actions = engine.legal_actions(state, seat)
            if state["phase"] == "act" and state["ships"][seat]["balls"] and not state["trading"]:
                mates = {
                    s for s, _ in in_range(state, seat, state["fought"]) if state["ctrl"][s] == state["ctrl"][seat]
                }
                targets = {SHIPS.index(a.args[0]) for a in actions if a.verb == "aim"}
                assert not targets & mates, (
                    f"seed {state['seed']} step {state['step']}: {SHIPS[seat]} may aim at {mates}"
                )
                mates_in_range += bool(mates)
                after_capture += any(f["how"] == "captured" and f["ship"] in mates | {seat} for f in state["fates"])
            state = engine.apply(state, seat, drive.choice(actions), inplace=True).state
    assert mates_in_range > 0 and after_capture > 0  # the rule was put to the test, also after captures


# ---------------------------------------------------------------------------------------------- deals


def test_a_bribe_accepted_moves_cargo_cancels_the_battle_and_the_defender_flees() -> None:
    state = act_phase(game(black="e3", red="e6"), BLACK)
    ship(state, BLACK)["balls"] = 3  # room for 3 items
    state, _ = play(state, BLACK, "aim red")
    assert G.to_act(state) == (RED,) and "offer 2 1" in legal(state, RED) and "brace" in legal(state, RED)
    state, events = play(state, RED, "offer 2 1")
    assert G.to_act(state) == (BLACK,) and legal(state, BLACK) == ["accept", "decline"]
    state, events = play(state, BLACK, "accept", 3)
    assert rolled(events) == [3] and G.to_act(state) == (RED,) and state["phase"] == "flee"
    assert (ship(state, BLACK)["balls"], ship(state, BLACK)["supplies"]) == (5, 7)
    assert (ship(state, RED)["balls"], ship(state, RED)["supplies"]) == (4, 5)
    assert "sail s 3" in legal(state, RED) and "sail s 4" not in legal(state, RED)
    state, _ = play(state, RED, "sail s 1")
    assert state["turn"] == BLACK and ship(state, RED)["at"] == parse("e7")
    assert "aim red" not in legal(state, BLACK)  # that battle was this turn's one with Red


def test_the_flight_makes_no_port() -> None:
    state = act_phase(game(black="c6", red="c9"), BLACK)
    ship(state, BLACK)["balls"] = 3
    ship(state, RED).update(chart=5, supplies=1)
    state, _ = play(state, BLACK, "aim red")
    state, _ = play(state, RED, "offer 1 0")
    state, _ = play(state, BLACK, "accept", 2)
    state, _ = play(state, RED, "sail s 2")  # onto port 5, its charted port: no port
    assert ship(state, RED)["at"] == PORTS[5] and ship(state, RED)["last"] is None
    assert state["phase"] == "act" and G.to_act(state) == (BLACK,)


def test_a_declined_bribe_then_blackmail_then_fire() -> None:
    state = act_phase(game(black="e3", red="e6"), BLACK)
    ship(state, BLACK).update(balls=3, supplies=5)
    state, _ = play(state, BLACK, "aim red")
    state, _ = play(state, RED, "offer 1 0")
    state, _ = play(state, BLACK, "decline")
    assert "fire 3" in legal(state, BLACK) and "demand 2 2" in legal(state, BLACK)
    state, _ = play(state, BLACK, "demand 2 2")
    assert G.to_act(state) == (RED,) and legal(state, RED) == ["accept", "decline"]
    state, _ = play(state, RED, "decline")
    assert G.to_act(state) == (RED,) and "offer 1 1" in legal(state, RED) and "brace" in legal(state, RED)
    state, events = play(state, RED, "brace")  # Red gives up bargaining: only firing is left
    assert "gives up bargaining" in said(events)
    assert legal(state, BLACK) == ["fire 1", "fire 2", "fire 3"]


def test_bribes_and_blackmail_go_back_and_forth_until_one_is_accepted() -> None:
    state = act_phase(game(black="e3", red="e6"), BLACK)
    ship(state, BLACK).update(balls=3, supplies=5)
    state, _ = play(state, BLACK, "aim red")
    state, _ = play(state, RED, "offer 1 0")
    state, _ = play(state, BLACK, "decline")
    assert "demand 3 3" not in legal(state, BLACK)  # 6 cannonballs and 8 supplies: more than 12 items
    state, _ = play(state, BLACK, "demand 2 2")
    state, _ = play(state, RED, "decline")
    state, _ = play(state, RED, "offer 2 0")  # a counter-offer
    state, _ = play(state, BLACK, "decline")
    state, _ = play(state, BLACK, "demand 2 1")
    state, _ = play(state, RED, "accept", 4)
    assert (ship(state, BLACK)["balls"], ship(state, BLACK)["supplies"]) == (5, 6)
    assert state["phase"] == "flee" and state["battle"] is None


def test_each_side_makes_at_most_three_offers_per_battle() -> None:
    state = act_phase(game(black="e3", red="e6"), BLACK)
    ship(state, BLACK).update(balls=3, supplies=5)
    state, _ = play(state, BLACK, "aim red")
    for _ in range(3):
        state, _ = play(state, RED, "offer 1 0")
        state, _ = play(state, BLACK, "decline")
        state, _ = play(state, BLACK, "demand 2 2")
        state, _ = play(state, RED, "decline")
    # Red made three bribes and Black three demands: the bargaining is over, Black fires.
    assert G.to_act(state) == (BLACK,) and legal(state, BLACK) == ["fire 1", "fire 2", "fire 3"]
    assert "No more demands" in refusal(state, BLACK, "demand 1 1")


def test_blackmail_accepted() -> None:
    state = act_phase(game(black="e3", red="e6"), BLACK)
    ship(state, BLACK)["balls"] = 3
    state, _ = play(state, BLACK, "aim red")
    state, _ = play(state, RED, "brace")
    state, _ = play(state, BLACK, "demand 0 3")
    state, events = play(state, RED, "accept", 1)
    assert (ship(state, BLACK)["supplies"], ship(state, RED)["supplies"]) == (9, 3)
    assert state["phase"] == "flee" and rolled(events) == [1]


def test_the_treasure_as_a_bribe_must_be_accepted() -> None:
    state = act_phase(game(black="e3", red="e6"), BLACK)
    state["treasure"] = RED
    state, _ = play(state, BLACK, "aim red")
    assert "offer chest" in legal(state, RED)
    state, events = play(state, RED, "offer chest", 2)
    # Accepted at once, and the Treasure passes to the attacker (not back to the X).
    assert state["treasure"] == BLACK and state["phase"] == "flee" and G.to_act(state) == (RED,)
    assert "must be accepted" in said(events)
    state, _ = play(state, RED, "sail s 2")  # the flight: the Treasure stays with Black
    assert state["treasure"] == BLACK


def test_a_bribe_with_cargo_and_the_treasure_and_blackmail_demanding_it() -> None:
    state = act_phase(game(black="e3", red="e6"), BLACK)
    state["treasure"] = RED
    ship(state, BLACK).update(balls=3, supplies=5)
    state, _ = play(state, BLACK, "aim red")
    assert "offer 1 0 chest" in legal(state, RED)
    state, _ = play(state, RED, "offer 1 0 chest", 2)
    assert state["treasure"] == BLACK and ship(state, BLACK)["balls"] == 4 and state["phase"] == "flee"

    state = act_phase(game(black="e3", red="e6"), BLACK)
    state["treasure"] = RED
    ship(state, BLACK).update(balls=3, supplies=5)
    state, _ = play(state, BLACK, "aim red")
    state, _ = play(state, RED, "brace")
    assert {"demand chest", "demand 0 1 chest"} <= set(legal(state, BLACK))
    state, events = play(state, BLACK, "demand chest")
    assert "demands the Treasure from Red" in said(events)
    state, _ = play(state, RED, "accept", 3)
    assert state["treasure"] == BLACK and state["phase"] == "flee"


def test_deals_respect_the_receivers_hold() -> None:
    state = act_phase(game(black="e3", red="e6"), BLACK)
    ship(state, BLACK).update(balls=6, supplies=5)
    state, _ = play(state, BLACK, "aim red")
    offers = [a for a in legal(state, RED) if a.startswith("offer")]
    assert "offer 1 0" in offers and "offer 0 1" in offers and "offer 1 1" not in offers


def test_an_offer_lapses_only_through_the_platform() -> None:
    state = act_phase(game(black="e3", red="e6"), BLACK)
    ship(state, BLACK)["balls"] = 3
    state, _ = play(state, BLACK, "aim red")
    state, _ = play(state, RED, "offer 1 1")
    assert G.lapse(state) == Lapse(BLACK, state["options"]["lapse"] * 60, Action("lapse"))
    assert "lapse" not in legal(state, BLACK)
    with pytest.raises(IllegalAction):
        G.apply(state, BLACK, "lapse")
    step = G.apply(state, BLACK, "lapse", trusted=True)
    assert step.state["phase"] == "fire" and step.state["offer"] is None
    assert "lapse unanswered" in localize(step.events[0].text)
    assert G.lapse(step.state) is None


def test_the_lapse_option_is_minutes() -> None:
    assert G.new_game(2, {"lapse": "5"}, seed="x")["options"]["lapse"] == 5
    assert G.new_game(2, seed="x")["options"]["lapse"] == 10
    with pytest.raises(IllegalAction):
        G.new_game(2, {"lapse": "soon"}, seed="x")


# ---------------------------------------------------------------------------------------------- trades


def test_a_trade_within_five_dots_when_both_agree() -> None:
    state = act_phase(game(black="e3", red="e7", blue="j9"), BLACK)
    state["treasure"] = BLACK
    assert "trade red" in legal(state, BLACK) and "trade blue" not in legal(state, BLACK)
    state, _ = play(state, BLACK, "trade red")
    state, _ = play(state, BLACK, "give 2 0 chest")
    assert legal(state, BLACK) == ["ask 0 2", "ask 1 1", "ask 2 0", "abandon"]  # both holds are full: 2 for 2
    state, _ = play(state, BLACK, "ask 0 2")
    assert G.to_act(state) == (RED,)
    state, _ = play(state, RED, "accept")
    assert state["treasure"] == RED
    assert (ship(state, BLACK)["balls"], ship(state, BLACK)["supplies"]) == (4, 8)
    assert (ship(state, RED)["balls"], ship(state, RED)["supplies"]) == (8, 4)
    # After a trade no more attacks; Red is not asked twice.
    assert not any(a.startswith(("aim", "trade red")) for a in legal(state, BLACK))


def test_a_declined_trade_changes_nothing() -> None:
    state = act_phase(game(black="e3", red="e7"), BLACK)
    state, _ = play(state, BLACK, "trade red")
    state, _ = play(state, BLACK, "give 1 0")
    state, _ = play(state, BLACK, "ask 0 1")
    state, _ = play(state, RED, "decline", 2)
    assert cargo_of(state, BLACK) == cargo_of(state, RED) == 12 and state["turn"] == RED


def test_an_empty_exchange_is_no_trade() -> None:
    state = act_phase(game(black="e3", red="e7"), BLACK)
    ship(state, BLACK)["balls"] = 4
    state, _ = play(state, BLACK, "trade red")
    state, _ = play(state, BLACK, "give 0 0")
    assert "ask 0 0" not in legal(state, BLACK) and "ask 1 0" in legal(state, BLACK)
    assert "ask 2 1" not in legal(state, BLACK)  # beyond Black's 12-item hold


# ---------------------------------------------------------------------------------------------- the Treasure


def test_the_treasure_is_taken_by_ending_a_sail_on_the_x() -> None:
    state = sail_phase(game(black="f3"), BLACK, 4)
    state, events = play(state, BLACK, "sail s 3", 2)
    assert state["treasure"] == BLACK
    assert "digs up the Treasure" in said(events)


def test_passing_over_the_x_or_standing_on_it_is_not_enough() -> None:
    state = sail_phase(game(black="f3"), BLACK, 4)
    state, _ = play(state, BLACK, "sail s 4", 2)
    assert state["treasure"] is None and ship(state, BLACK)["at"] == parse("f7")
    state = sail_phase(game(black="f6"), BLACK, 4)
    state, _ = play(state, BLACK, "anchor", 2)
    assert state["treasure"] is None


def test_safe_haven_makes_port_at_an_uncharted_port() -> None:
    state = sail_phase(game(black="c3"), BLACK, 2)
    state["treasure"] = BLACK
    ship(state, BLACK).update(chart=4, balls=1, supplies=1)
    state, _ = play(state, BLACK, "sail n 2")  # onto port 1, charted 4
    assert state["phase"] == "haven" and legal(state, BLACK) == ["haven", "skip"]
    state, _ = play(state, BLACK, "haven", 3)
    assert state["phase"] == "port" and "booty" in legal(state, BLACK)
    state, _ = play(state, BLACK, "stock 1", 2)
    assert ship(state, BLACK)["last"] == 1 and state["treasure"] == BLACK


def test_more_booty_an_extra_die_up_to_twelve_and_twelve() -> None:
    state = sail_phase(game(black="c2"), BLACK, 1)
    state["treasure"] = BLACK
    ship(state, BLACK).update(balls=10, supplies=1)
    state, _ = play(state, BLACK, "sail n 1 chart 1", 1)
    assert legal(state, BLACK) == ["stock 0", "stock 1", "booty"]
    state, events = play(state, BLACK, "booty", 6)
    assert state["treasure"] is None and rolled(events) == [6]
    # 7 items; at most 2 more cannonballs (12), at most 11 more supplies.
    assert legal(state, BLACK) == ["stock 0", "stock 1", "stock 2"]
    state, _ = play(state, BLACK, "stock 2", 2)
    assert (ship(state, BLACK)["balls"], ship(state, BLACK)["supplies"]) == (12, 6)


def test_stronger_wind_two_dice_charting_by_either() -> None:
    state = game(black="f3")
    state["treasure"] = BLACK
    assert legal(state, BLACK) == ["roll", "wind"]
    state, events = play(state, BLACK, "wind", 2, 5)
    assert state["treasure"] is None and state["roll"] == [2, 5] and rolled(events) == [2, 5]
    moves = legal(state, BLACK)
    assert "sail s 7" in moves and "sail s 8" not in moves
    assert "anchor chart 2" in moves and "anchor chart 5" in moves


def test_the_treasure_goes_to_the_ship_with_more_hits() -> None:
    state = game(black="e3", red="e4")
    state["treasure"] = RED
    state = attack(state, BLACK, RED)
    state, _ = play(state, BLACK, "fire 2", 6, 6)
    state, _ = play(state, RED, "fire 2", 6, 1)
    assert state["treasure"] == BLACK


def test_the_treasure_on_a_tie_goes_to_the_ship_not_carrying_it() -> None:
    state = game(black="e3", red="e4")
    state["treasure"] = BLACK
    state = attack(state, BLACK, RED)
    state, _ = play(state, BLACK, "fire 1", 6)
    state, events = play(state, RED, "fire 1", 6)
    assert state["treasure"] == RED and "steals the Treasure" in said(events)


def test_the_carrier_keeps_the_treasure_with_more_hits() -> None:
    state = game(black="e3", red="e4")
    state["treasure"] = RED
    state = attack(state, BLACK, RED)
    state, _ = play(state, BLACK, "fire 1", 1)
    state, _ = play(state, RED, "fire 1", 6)
    assert state["treasure"] == RED


# ---------------------------------------------------------------------------------------------- the end


def test_a_player_is_out_when_the_last_ship_sinks_and_the_last_afloat_wins() -> None:
    state = game(4, black="e3", red="e4", blue="sunk", green="sunk")
    ship(state, RED).update(supplies=0)
    ship(state, BLACK).update(supplies=0)
    state = attack(state, BLACK, RED)
    state, _ = play(state, BLACK, "fire 1", 6)
    assert G.to_act(state) == () and G.out(state) == {RED, BLUE, GREEN}
    outcome = G.outcome(state)
    assert outcome is not None and outcome.winners == (BLACK,) and outcome.termination.name == "LAST_STANDING"


def test_capturing_the_last_enemy_ship_wins() -> None:
    state = game(2, black="e3", red="e4", blue="sunk", green="sunk", purple="sunk", yellow="sunk")
    ship(state, RED).update(supplies=0)
    state = attack(state, BLACK, RED)
    state, _ = play(state, BLACK, "fire 1", 6)
    state, _ = play(state, BLACK, "capture 6 5")
    outcome = G.outcome(state)
    assert outcome is not None and set(outcome.winners) == {BLACK, RED, BLUE, PURPLE}


def test_the_round_limit_most_ships_then_most_cargo() -> None:
    state = game(3, blue="sunk")  # player 2 has Blue sunk: 1 ship
    ship(state, YELLOW).update(balls=0)  # player 2 also weaker
    state.update(round=ROUNDS, turn=YELLOW, phase="act", roll=[1])
    ship(state, BLACK).update(balls=7)  # player 0: 2 ships, 25 items; player 1: 2 ships, 24
    state, events = play(state, YELLOW, "end")
    outcome = G.outcome(state)
    assert outcome is not None and outcome.termination.name == "SAFETY_LIMIT"
    assert outcome.winners == (BLACK, GREEN) and "200 rounds" in said(events)


def test_the_round_limit_shares_a_tie() -> None:
    state = game(2)
    state.update(round=ROUNDS, turn=YELLOW, phase="act", roll=[1])
    state, _ = play(state, YELLOW, "end")
    assert G.outcome(state).winners == (0, 1, 2, 3, 4, 5)


def test_rounds_count_whole_turns_of_every_ship() -> None:
    state = game(2)
    state.update(turn=PURPLE, phase="act", roll=[1])
    state, _ = play(state, PURPLE, "end", 3)
    assert state["round"] == 1 and state["turn"] == YELLOW
    state, _ = play(state, YELLOW, "anchor", 2)
    assert state["round"] == 2 and state["turn"] == BLACK


def test_sunk_ships_are_skipped_in_the_turn_order() -> None:
    state = game(6, red="sunk")
    state.update(turn=BLACK, phase="act", roll=[1])
    state, _ = play(state, BLACK, "end", 4)
    assert state["turn"] == BLUE


def test_safe_haven_makes_port_at_the_last_port_too() -> None:
    state = sail_phase(game(black="c3"), BLACK, 2)
    state["treasure"] = BLACK
    ship(state, BLACK).update(chart=4, last=1, balls=2, supplies=2)
    state, _ = play(state, BLACK, "sail n 2")  # port 1 is its last port, uncharted: Safe Haven still
    assert state["phase"] == "haven" and legal(state, BLACK) == ["haven", "skip"]
    state, _ = play(state, BLACK, "haven", 3)
    assert state["phase"] == "port" and state["port"]["number"] == 1


def test_safe_haven_on_the_charted_last_port_and_not_without_the_treasure() -> None:
    state = sail_phase(game(black="c3"), BLACK, 2)
    state["treasure"] = BLACK
    ship(state, BLACK).update(chart=1, last=1)
    state, _ = play(state, BLACK, "sail n 2")
    assert state["phase"] == "haven"
    state = sail_phase(game(black="c3"), BLACK, 2)
    ship(state, BLACK).update(chart=1, last=1)
    state, _ = play(state, BLACK, "sail n 2", 5)  # no Treasure: not twice in a row; the turn passes
    assert state["turn"] == RED and state["port"] is None


def test_anchoring_on_a_port_makes_port_only_if_charted_and_not_the_last() -> None:
    state = sail_phase(game(black="c1"), BLACK, 3)
    ship(state, BLACK).update(chart=1, last=None, balls=2, supplies=2)
    state, _ = play(state, BLACK, "anchor", 4)
    assert state["port"]["number"] == 1 or ship(state, BLACK)["last"] == 1
    state = sail_phase(game(black="c1"), BLACK, 3)
    ship(state, BLACK).update(chart=1, last=1)
    state, _ = play(state, BLACK, "anchor", 5)  # its last port: nothing; the turn passes
    assert state["turn"] == RED
    state = sail_phase(game(black="c1"), BLACK, 3)
    state["treasure"] = BLACK
    ship(state, BLACK).update(chart=2, last=None)
    state, _ = play(state, BLACK, "anchor", 5)  # uncharted: no Safe Haven for a sail of 0 dots
    assert state["phase"] != "haven" and state["port"] is None


def test_an_attacker_sunk_by_counter_fire_ends_its_turn() -> None:
    state = game(black="e3", red="e4")
    ship(state, BLACK).update(supplies=0, balls=2)
    ship(state, RED).update(supplies=0)  # Red cannot pay to capture: Black sinks
    state = attack(state, BLACK, RED)
    state, _ = play(state, BLACK, "fire 1", 1)
    state, events = play(state, RED, "fire 1", 6, 3)
    assert ship(state, BLACK)["sunk"] and state["turn"] == RED and rolled(events) == [6, 3]
    assert state["fates"] == [{"ship": BLACK, "by": RED, "how": "sunk", "round": 1, "from": 0, "captor": 1}]


def test_a_battle_stored_before_offers_were_counted_goes_on() -> None:
    """A game saved mid-battle by the previous version (no offer counts in its battle) plays on."""
    state = act_phase(game(black="e3", red="e6"), BLACK)
    ship(state, BLACK).update(balls=3, supplies=5)
    state, _ = play(state, BLACK, "aim red")
    del state["battle"]["offers"], state["battle"]["closed"]
    assert "brace" in legal(state, RED)
    state, _ = play(state, RED, "offer 1 0")
    assert state["battle"]["offers"] == [1, 0]
