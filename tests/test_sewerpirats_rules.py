"""Sewer Pirats: every rule of the specification, tested on constructed states."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from games.core import Action, Event, IllegalAction, clone
from games.i18n import localize, with_names
from games.sewerpirats import SewerPirats
from games.sewerpirats.auction import fill_bar
from games.sewerpirats.components import (
    BONUS,
    BOOTY,
    COLORS,
    FIGURES_PER_TRIBE,
    SHIPS,
    TRIBE_CODES,
    TRIBES,
    bonus_tokens,
    booty_tokens,
    talisman_deck,
)
from games.sewerpirats.moves import check_captain
from games.sewerpirats.sailing import end_action
from games.sewerpirats.scoring import breakdown, total
from tests.support import worlds

G = SewerPirats()
JSON = dict[str, Any]


# ---------------------------------------------------------------------------- helpers


def table(seats: int = 3, *, abilities: bool = True, seed: str = "rules") -> JSON:
    """A standard game at seat 0's action, with empty hands, play areas and ships."""
    state = G.new_game(seats, {}, seed)
    for p in state["players"]:
        state["deck"] += p["hand"]
        p["hand"] = []
        p["area"] = []
    state["abilities"] = abilities
    state["turn"] = state["actor"] = 0
    return state


def fig(seat: int, tribe: str, n: int = 1) -> JSON:
    return {"id": f"{seat}{TRIBE_CODES[tribe]}{n}", "owner": seat, "tribe": tribe}


def crew(state: JSON, seat: int, *tribes: str) -> list[str]:
    """Put figures in a play area (numbered per tribe); their ids."""
    area = state["players"][seat]["area"]
    for tribe in tribes:
        area.append(fig(seat, tribe, 1 + sum(f["tribe"] == tribe for f in area)))
    return [f["id"] for f in area]


def put(state: JSON, ship: str, space: int | str, seat: int, tribe: str, n: int = 1) -> str:
    """Place a new figure aboard (space 1-3 or "C"); its id."""
    index = 3 if space == "C" else int(space) - 1
    figure = fig(seat, tribe, n)
    state["ships"][SHIPS.index(ship)]["spaces"][index] = figure
    return figure["id"]


def at(state: JSON, ship: str, space: int | str) -> str | None:
    figure = state["ships"][SHIPS.index(ship)]["spaces"][3 if space == "C" else int(space) - 1]
    return None if figure is None else figure["id"]


def give(state: JSON, seat: int, *cards: str) -> None:
    """Move cards from the deck to a hand (keeps the 54 cards conserved)."""
    for card in cards:
        state["deck"].remove(card)
        state["players"][seat]["hand"].append(card)


def group(*booty: tuple[str, int], bonus: str = "ketchup") -> JSON:
    return {"booty": [{"type": t, "value": v} for t, v in booty], "bonus": {"type": bonus, "value": 0}}


def flotsam(state: JSON, ship: str, first: JSON | None, second: JSON | None = None) -> None:
    state["ships"][SHIPS.index(ship)]["flotsam"] = [first, second]


def do(state: JSON, seat: int, *texts: str) -> JSON:
    for text in texts:
        state = G.apply(state, seat, text).state
    return state


def do_events(state: JSON, seat: int, text: str) -> tuple[JSON, list[Event]]:
    """The new state and the events, their texts written out in English."""
    step = G.apply(state, seat, text)
    return step.state, [Event(localize(e.text), e.seat, e.data) for e in step.events]


def illegal(state: JSON, seat: int, text: str, message: str) -> None:
    """The action raises IllegalAction naming ``message`` and leaves the state unchanged."""
    copy = clone(state)
    with pytest.raises(IllegalAction) as refused:
        G.apply(copy, seat, text, inplace=True)
    assert re.search(re.escape(message), localize(str(refused.value))), localize(str(refused.value))
    assert copy == state


def describe(state: JSON, seat: int, action: Action) -> tuple[str, ...]:
    """The label path of ``action``, written out in English."""
    return tuple(localize(label) for label in G.describe(state, seat, action))


def pending(state: JSON, seat: int | None = None) -> str:
    """The view's pending decision, written out in English."""
    return localize(G.view(state, seat)["pending"])


def log(state: JSON) -> list[str]:
    """The state's public log, written out in English."""
    return [localize(entry) for entry in state["log"]]


def legal(state: JSON, seat: int | None = None) -> list[str]:
    seat = state["actor"] if seat is None else seat
    return [a.encode() for a in G.legal_actions(state, seat)]


def tokens(state: JSON, seat: int) -> list[tuple[str, int]]:
    return sorted((t["type"], t["value"]) for t in state["players"][seat]["tokens"])


def area_ids(state: JSON, seat: int) -> list[str]:
    return sorted(f["id"] for f in state["players"][seat]["area"])


# ---------------------------------------------------------------------------- components and setup


@pytest.mark.parametrize("variant", ["standard", "landlubber", "auction"])
def test_five_players_never_need_more_figures_of_a_tribe_than_the_box_holds(variant: str) -> None:
    for seed in range(20):
        state = G.new_game(5, {"variant": variant}, f"box-{seed}")
        while state["phase"] == "crew":  # landlubber: every player picks a tribe first
            seat = G.to_act(state)[0]
            state = G.apply(state, seat, G.legal_actions(state, seat)[0]).state
        figures = [f["tribe"] for p in state["players"] for f in p["area"]]
        if state["auction"] is not None:
            figures += [stool["tribe"] for stool in state["auction"]["bar"]]
        assert len(figures) == 5 * 4
        assert max(figures.count(t) for t in set(figures)) <= FIGURES_PER_TRIBE


def test_component_counts_and_totals() -> None:
    assert len(booty_tokens()) == 42 and len(bonus_tokens()) == 14
    assert sum(len(v) for v in BOOTY.values()) == 42 and sum(BONUS.values()) == 14
    assert min(len(booty_tokens()) // 3, len(bonus_tokens())) == 14  # exactly 14 flotsam groups
    assert BOOTY["fries"] == (1, 1, 1, 2, 2, 2, 3, 3, 3) and BOOTY["tincan"] == (8, 9, 10, 11, 12, 13)
    assert BONUS == {"ketchup": 2, "chili": 2, "milkshake": 3, "parrot": 3, "opener": 4}
    deck = talisman_deck()
    assert len(deck) == 54 and all(deck.count(s) == 18 for s in SHIPS)
    assert SHIPS == ("cat", "bird", "fish") and len(TRIBES) == 6 and len(COLORS) == 5


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_standard_setup(seats: int) -> None:
    state = G.new_game(seats, {}, f"setup{seats}")
    assert state["abilities"] and len(state["tribes"]) == 4 and len(set(state["tribes"])) == 4
    for seat, p in enumerate(state["players"]):
        assert sorted(f["tribe"] for f in p["area"]) == sorted(state["tribes"])
        assert all(f["owner"] == seat and len(f["id"]) <= 5 for f in p["area"])
        assert p["color"] == COLORS[seat]
    for ship in state["ships"]:
        assert ship["spaces"] == [None] * 4
        assert all(len(g["booty"]) == 3 and g["bonus"] is not None for g in ship["flotsam"])
    assert len(state["booty_pool"]) == 42 - 18 and len(state["bonus_pool"]) == 14 - 6
    assert len(state["row"]) == 4
    first = state["first"]
    sizes = [len(state["players"][(first + k) % seats]["hand"]) for k in range(seats)]
    assert sizes == [3, 3, 4, 4, 4][:seats]
    assert len(state["deck"]) == 54 - 4 - sum(sizes)
    assert G.to_act(state) == (first,) and state["phase"] == "action"
    assert G.check_invariants(state) == []


def test_standard_tribes_and_first_player_are_random() -> None:
    games = [G.new_game(3, {}, f"rand{i}") for i in range(30)]
    assert len({tuple(g["tribes"]) for g in games}) > 1
    assert len({g["first"] for g in games}) == 3


def test_landlubber_each_player_chooses_a_different_tribe() -> None:
    state = G.new_game(3, {"variant": "landlubber"}, "land")
    assert state["first"] == 0  # the seed's first player chooses first (see the review tests for another)
    assert state["phase"] == "crew" and not state["abilities"] and G.to_act(state) == (0,)
    assert legal(state) == [f"tribe {t}" for t in TRIBES]
    state = do(state, 0, "tribe toads")
    assert G.to_act(state) == (1,) and "tribe toads" not in legal(state)
    illegal(state, 1, "tribe toads", "Another player already chose the toads")
    illegal(state, 1, "tribe pirates", "Choose a tribe")
    state = do(state, 1, "tribe rats")
    state = do(state, 2, "tribe snails")
    assert state["phase"] == "action" and G.to_act(state) == (state["first"],)
    for seat, tribe in enumerate(("toads", "rats", "snails")):
        assert [f["tribe"] for f in state["players"][seat]["area"]] == [tribe] * 4
    assert area_ids(state, 0) == ["0to1", "0to2", "0to3", "0to4"]
    assert G.view(state, None)["tribes"] == ["toads", "rats", "snails"]
    assert G.check_invariants(state) == []


def test_auction_setup() -> None:
    state = G.new_game(4, {"variant": "auction"}, "auc")
    bar = state["auction"]["bar"]
    assert state["phase"] == "auction" and state["abilities"] and len(bar) == 16
    for block in range(4):  # each player's reveal: 4 different tribes
        assert len({s["tribe"] for s in bar[4 * block : 4 * block + 4]}) == 4
    assert all(len(p["hand"]) == 8 and not p["area"] for p in state["players"])
    assert len(state["deck"]) == 54 - 4 - 32 and len(state["row"]) == 4
    view = G.view(state, 0)
    assert view["auction"]["bar"][0] == {"tribe": bar[0]["tribe"], "cards_under": 0, "min_bid": 0}
    assert view["auction"]["crew_counts"] == [0, 0, 0, 0]
    assert set(view["tribes"]) == {s["tribe"] for s in bar}


def test_auction_bar_fills_rearmost_stool_first() -> None:
    placed = random.Random(5).sample(TRIBES, 4)  # seat 0 reveals first
    bar = fill_bar(2, random.Random(5))
    assert [s["tribe"] for s in bar[-4:]] == list(reversed(placed))  # seat 0's reveal sits at the rear


# ---------------------------------------------------------------------------- B) move


def test_move_from_play_area_costs_one_card_per_space() -> None:
    state = table()
    crew(state, 0, "toads")
    give(state, 0, "fish", "fish", "cat")
    discards = len(state["discard"])
    state = do(state, 0, "move 0to1 fish 2")
    assert at(state, "fish", 2) == "0to1" and state["players"][0]["hand"] == ["cat"]
    assert len(state["discard"]) == discards + 2 and not state["players"][0]["area"]
    assert G.to_act(state) == (1,)


def test_rulebook_move_examples_pass_occupied_spaces_for_free() -> None:
    state = table(4)
    put(state, "cat", 2, 0, "cockroaches")
    put(state, "cat", 1, 3, "rats")
    crew(state, 2, "toads")
    give(state, 3, "cat")
    give(state, 2, "cat")
    state["turn"] = state["actor"] = 3
    assert "move 3ra1 cat 3" in legal(state)
    blue = do(state, 3, "move 3ra1 cat 3")
    assert at(blue, "cat", 3) == "3ra1" and at(blue, "cat", 1) is None and not blue["players"][3]["hand"]
    state["turn"] = state["actor"] = 2
    yellow = do(state, 2, "move 2to1 cat 3")
    assert at(yellow, "cat", 3) == "2to1" and not yellow["players"][2]["hand"]


def test_move_must_end_on_an_empty_crew_space() -> None:
    state = table()
    crew(state, 0, "toads")
    put(state, "cat", 2, 1, "toads")
    give(state, 0, "cat", "cat", "cat")
    illegal(state, 0, "move 0to1 cat 2", "Space 2 is occupied")
    assert "move 0to1 cat 2" not in legal(state) and "move 0to1 cat 3" in legal(state)


def test_move_never_passes_space_3_nor_reaches_the_captain() -> None:
    state = table()
    crew(state, 0, "toads")
    give(state, 0, *["cat"] * 4)
    illegal(state, 0, "move 0to1 cat 4", "Space 3 is the last crew space")
    illegal(state, 0, "move 0to1 cat c", "Space 3 is the last crew space")
    assert [a for a in legal(state) if a.startswith("move 0to1 cat")] == [f"move 0to1 cat {n}" for n in (1, 2, 3)]


def test_move_needs_enough_cards_of_the_ship() -> None:
    state = table()
    crew(state, 0, "toads")
    give(state, 0, "fish", "cat", "cat")
    illegal(state, 0, "move 0to1 fish 2", "You need 2 fish cards for that")
    assert "move 0to1 fish 1" in legal(state) and "move 0to1 fish 2" not in legal(state)


def test_move_along_a_ship_only_toward_the_bow_and_never_to_another_ship() -> None:
    state = table()
    put(state, "cat", 2, 0, "toads")
    give(state, 0, "cat", "fish", "fish")
    illegal(state, 0, "move 0to1 cat 1", "Figures move only toward the bow")
    illegal(state, 0, "move 0to1 fish 3", "figures leave a ship only when it sets sail")
    assert [a for a in legal(state) if a.startswith("move")] == ["move 0to1 cat 3"]


def test_several_figures_of_a_player_on_one_ship() -> None:
    state = table()
    put(state, "cat", 1, 0, "toads")
    crew(state, 0, "rats")
    give(state, 0, "cat")
    state = do(state, 0, "move 0ra1 cat 2")
    assert at(state, "cat", 1) == "0to1" and at(state, "cat", 2) == "0ra1"


def test_alike_figures_in_the_play_area_are_offered_once() -> None:
    state = table(abilities=False)
    crew(state, 0, "rats", "rats", "rats")
    give(state, 0, "cat")
    assert [a for a in legal(state) if a.startswith("move")] == ["move 0ra1 cat 1"]
    illegal(state, 0, "move 0ra2 cat 1", "alike: use 0ra1")
    illegal(state, 0, "move 1ra1 cat 1", "You have no figure 1ra1")


# ---------------------------------------------------------------------------- C) become captain


def test_captain_from_play_area_needs_spaces_1_to_3_occupied_and_3_cards() -> None:
    state = table()
    crew(state, 0, "toads")
    put(state, "cat", 1, 1, "toads")
    put(state, "cat", 2, 2, "toads")
    give(state, 0, "cat", "cat", "cat")
    illegal(state, 0, "captain 0to1 cat", "Every crew space between the figure and the captain's space")
    put(state, "cat", 3, 1, "rats")
    assert "captain 0to1 cat" in legal(state)
    after = do(state, 0, "captain 0to1 cat")
    assert at(after, "cat", "C") == "0to1" and not after["players"][0]["hand"]
    state["players"][0]["hand"].pop()
    illegal(state, 0, "captain 0to1 cat", "You need 3 cat cards for that")


def test_captain_from_a_crew_space_costs_one_card() -> None:
    state = table()
    put(state, "bird", 1, 0, "toads")
    put(state, "bird", 3, 1, "toads")
    give(state, 0, "bird")
    illegal(state, 0, "captain 0to1 bird", "Every crew space between")
    put(state, "bird", 2, 2, "toads")
    after = do(state, 0, "captain 0to1 bird")
    assert at(after, "bird", "C") == "0to1" and at(after, "bird", 1) is None and not after["players"][0]["hand"]


def test_captain_space_must_be_empty_and_one_captain_per_player() -> None:
    state = table()
    put(state, "fish", 3, 0, "toads")
    put(state, "fish", "C", 1, "toads")
    give(state, 0, "fish")
    illegal(state, 0, "captain 0to1 fish", "The fish ship already has a captain")
    state = table()
    put(state, "cat", 3, 0, "rats")
    put(state, "bird", "C", 0, "toads")
    give(state, 0, "cat")
    with pytest.raises(IllegalAction, match="one captain at most"):
        check_captain(state, 0, ("0ra1", "cat"))


def test_a_player_with_a_captain_must_set_sail() -> None:
    state = table()
    put(state, "bird", "C", 0, "toads")
    crew(state, 0, "rats")
    give(state, 0, "cat", "cat")
    assert legal(state) == ["sail bird"]
    illegal(state, 0, "draw deck", "you must set sail")
    illegal(state, 0, "sail cat", "You have no captain on the cat ship")
    assert pending(state, 0) == "{p0} must set sail with the bird ship"


# ---------------------------------------------------------------------------- A) draw two cards


def test_draw_two_cards_one_at_a_time_row_refilled_after_both() -> None:
    state = table()
    state["row"] = ["cat", "bird", "fish", "fish"]
    top = state["deck"][-1]
    state = do(state, 0, "draw row 1")
    assert state["phase"] == "draw" and G.to_act(state) == (0,) and state["row"] == ["bird", "fish", "fish"]
    assert legal(state) == ["draw deck", "draw row 1", "draw row 2", "draw row 3"]
    illegal(state, 0, "move 0to1 cat 1", "Take your second card")
    state = do(state, 0, "draw deck")
    assert sorted(state["players"][0]["hand"]) == sorted(["cat", top])
    assert len(state["row"]) == 4 and G.to_act(state) == (1,)


def test_hand_limit_discard_one_at_a_time() -> None:
    state = table()
    give(state, 0, "cat", "cat", "bird", "bird", "fish", "fish")
    state["row"] = ["cat", "cat", "cat", "cat"]
    state = do(state, 0, "draw row 1", "draw row 1")
    assert state["phase"] == "discard" and legal(state) == ["discard cat", "discard bird", "discard fish"]
    illegal(state, 0, "discard boat", "Discard down to 6")
    state, events = do_events(state, 0, "discard cat")
    assert state["phase"] == "discard" and len(state["players"][0]["hand"]) == 7
    assert [e.text for e in events if e.seat is None] == ["{p0} discarded a card."]
    assert Event("You discarded a cat card.", 0) in events
    state = do(state, 0, "discard bird")
    assert len(state["players"][0]["hand"]) == 6 and G.to_act(state) == (1,)


def test_hand_limit_discard_is_automatic_when_cards_are_alike() -> None:
    state = table()
    give(state, 0, *["fish"] * 6)
    state["row"] = ["fish"] * 4
    state = do(state, 0, "draw row 1", "draw row 2")
    assert state["players"][0]["hand"] == ["fish"] * 6 and G.to_act(state) == (1,)


def test_deck_reshuffled_from_discard_when_it_runs_out() -> None:
    state = table()
    state["discard"] += state["deck"]
    state["deck"] = []
    assert "draw deck" in legal(state)
    state = do(state, 0, "draw deck", "draw deck")
    assert len(state["players"][0]["hand"]) == 2 and not state["discard"]
    assert len(state["deck"]) + len(state["row"]) + 2 == 54 and len(state["row"]) == 4


def test_draw_ends_early_when_no_card_is_left() -> None:
    state = table()
    state["players"][1]["hand"] = state["deck"] + state["discard"] + state["row"][1:]
    state["deck"], state["discard"], state["row"] = [], [], state["row"][:1]
    assert legal(state) == ["draw row 1"]
    state = do(state, 0, "draw row 1")
    assert len(state["players"][0]["hand"]) == 1 and G.to_act(state) == (1,) and state["row"] == []


def test_a_card_taken_from_the_row_stays_in_the_hand_in_every_world() -> None:
    """Everyone saw the fish go into seat 0's hand: the hard AI's worlds keep it there (the rest of the
    hand, drawn face down, is dealt again)."""
    state = table()
    give(state, 0, "bird")
    state["row"] = ["fish", "cat", "cat", "cat"]
    state = do(state, 0, "draw row 1", "draw deck")
    assert state["seen"][0] == {"fish": 1}
    for viewer in (1, 2, None):
        hands = [w["players"][0]["hand"] for w in worlds(G, state, viewer)]
        assert all("fish" in hand and len(hand) == 3 for hand in hands), viewer
        assert len({tuple(sorted(hand)) for hand in hands}) > 1, viewer
    assert not any("known to hold" in problem for w in worlds(G, state, 1) for problem in G.check_invariants(w))


def test_seen_cards_count_down_as_cards_leave_the_hand() -> None:
    state = table()
    crew(state, 0, "toads")
    give(state, 0, "bird", "bird", "bird", "cat")
    state["row"] = ["fish", "fish", "cat", "cat"]
    state = do(state, 0, "draw row 1", "draw row 1")
    assert state["seen"][0] == {"fish": 2}
    state = do(do(state, 1, "draw deck", "draw deck"), 2, "draw deck", "draw deck")
    state = do(state, 0, "move 0to1 fish 1")  # one fish played face up
    assert state["seen"][0] == {"fish": 1}
    # a hand-limit discard is face down: one fewer of every kind is certain
    state = table()
    give(state, 0, "fish", "cat", "cat", "bird", "bird")
    state["row"] = ["fish", "cat", "bird", "bird"]
    state = do(state, 0, "draw row 1", "draw row 1")
    assert state["seen"][0] == {"fish": 1, "cat": 1} and state["phase"] == "discard"
    state = do(state, 0, "discard bird")
    assert state["seen"][0] == {}


def test_a_raccoon_steal_leaves_less_of_a_hand_known() -> None:
    state = table(3)
    crew(state, 0, "raccoons")
    put(state, "cat", 1, 1, "toads")
    give(state, 0, "cat", "cat")
    give(state, 1, "fish")
    state["seen"][1] = {"fish": 1}
    state = do(state, 0, "move 0rc1 cat 2")
    assert state["players"][1]["hand"] == [] and state["seen"][1] == {}


# ---------------------------------------------------------------------------- D) set sail


def sailing_table() -> JSON:
    state = table(abilities=False)
    put(state, "cat", "C", 0, "toads")
    put(state, "cat", 3, 1, "toads")
    put(state, "cat", 2, 2, "toads")
    put(state, "cat", 1, 1, "rats")
    flotsam(
        state,
        "cat",
        group(("fries", 3), ("noodles", 2), ("burger", 5)),
        group(("doll", 5), ("fries", 1), ("fries", 1)),
    )
    return state


def test_set_sail_seizing_order_and_choices() -> None:
    state = sailing_table()
    pools = len(state["booty_pool"]), len(state["bonus_pool"])
    state = do(state, 0, "sail cat")
    assert tokens(state, 0) == [("ketchup", 0)]
    assert state["phase"] == "seize" and G.to_act(state) == (0,) and legal(state) == ["seize 1", "seize 2", "seize 3"]
    assert describe(state, 0, Action("seize", ("3",))) == ("Seize", "Burger 5")
    illegal(state, 1, "seize 1", "It is not your turn")
    state = do(state, 0, "seize 3")
    assert G.to_act(state) == (1,) and legal(state) == ["seize 1", "seize 2"]
    state = do(state, 1, "seize 1")
    # Seat 2 takes the last token without a decision; seat 1's rat gets nothing and steps on.
    assert tokens(state, 0) == [("burger", 5), ("ketchup", 0)]
    assert tokens(state, 1) == [("fries", 3)] and tokens(state, 2) == [("noodles", 2)]
    assert area_ids(state, 0) == ["0to1"] and area_ids(state, 1) == ["1to1"] and area_ids(state, 2) == ["2to1"]
    ship = state["ships"][0]
    assert [f and f["id"] for f in ship["spaces"]] == [None, "1ra1", None, None]
    assert ship["flotsam"][0]["booty"][0] == {"type": "doll", "value": 5} and ship["flotsam"][1] is not None
    assert (len(state["booty_pool"]), len(state["bonus_pool"])) == (pools[0] - 3, pools[1] - 1)
    assert G.to_act(state) == (1,) and state["phase"] == "action"


def test_booty_nobody_takes_goes_back_to_the_box() -> None:
    state = table()
    put(state, "fish", "C", 0, "toads")
    flotsam(
        state,
        "fish",
        group(("tincan", 8), ("fries", 1), ("burger", 3)),
        group(("fries", 2), ("fries", 2), ("fries", 2)),
    )
    state = do(state, 0, "sail fish", "seize 1")
    assert tokens(state, 0) == [("ketchup", 0), ("tincan", 8)]
    assert sorted((t["type"], t["value"]) for t in state["box"]) == [("burger", 3), ("fries", 1)]
    assert any("back to the box" in e for e in log(state))


def test_figures_that_took_nothing_never_step_onto_an_occupied_space_or_the_captain() -> None:
    state = table(abilities=False)
    put(state, "cat", "C", 0, "toads")
    put(state, "cat", 3, 1, "toads")
    put(state, "cat", 2, 2, "toads")
    put(state, "cat", 1, 1, "rats")
    flotsam(state, "cat", {"booty": [{"type": "fries", "value": 1}], "bonus": {"type": "chili", "value": 0}})
    state = do(state, 0, "sail cat")
    ship = state["ships"][0]
    assert [f and f["id"] for f in ship["spaces"]] == ["1ra1", "2to1", "1to1", None]


def test_figures_that_took_nothing_step_on_bow_most_first() -> None:
    state = table(abilities=False)
    put(state, "cat", "C", 0, "toads")
    put(state, "cat", 2, 1, "toads")
    put(state, "cat", 1, 2, "toads")
    flotsam(state, "cat", {"booty": [{"type": "fries", "value": 1}], "bonus": {"type": "chili", "value": 0}})
    state = do(state, 0, "sail cat")
    assert [f and f["id"] for f in state["ships"][0]["spaces"]] == [None, "2to1", "1to1", None]


def test_flotsam_moves_up_and_is_refilled_while_the_pools_last() -> None:
    state = table()
    state["box"] += state["booty_pool"][3:] + state["bonus_pool"][1:]
    state["booty_pool"], state["bonus_pool"] = state["booty_pool"][:3], state["bonus_pool"][:1]
    for ship in ("cat", "bird"):
        put(state, ship, "C", 0 if ship == "cat" else 1, "toads")
    second = state["ships"][0]["flotsam"][1]
    state = do(state, 0, "sail cat")
    while state["phase"] == "seize":
        state = do(state, state["actor"], legal(state)[0])
    assert state["ships"][0]["flotsam"][0] == second and state["ships"][0]["flotsam"][1] is not None
    assert state["booty_pool"] == [] and state["bonus_pool"] == [] and G.view(state, None)["groups_left"] == 0
    state = do(state, 1, "sail bird")
    while state["phase"] == "seize":
        state = do(state, state["actor"], legal(state)[0])
    assert state["ships"][1]["flotsam"][1] is None and state["ships"][1]["flotsam"][0] is not None
    assert state["result"] is None


# ---------------------------------------------------------------------------- end of the game


def end_table() -> JSON:
    """Pools empty; the bird ship has its last group; cat and fish have captains."""
    state = table()
    state["box"] += state["booty_pool"] + state["bonus_pool"]
    state["booty_pool"], state["bonus_pool"] = [], []
    same = ("fries", 1)
    flotsam(state, "bird", group(same, same, same, bonus="chili"))
    flotsam(state, "cat", group(same, same, same, bonus="milkshake"), group(same, same, same))
    flotsam(state, "fish", group(same, same, same, bonus="opener"))
    put(state, "bird", "C", 1, "toads")
    put(state, "cat", "C", 2, "toads")
    put(state, "fish", "C", 0, "toads")
    state["turn"] = state["actor"] = 1
    return state


def test_game_ends_with_final_sailings_in_ship_order() -> None:
    state, events = do_events(end_table(), 1, "sail bird")
    assert state["phase"] == "over" and G.to_act(state) == ()
    sails = [e.text for e in events if "sets sail" in e.text]
    assert sails == [
        "{p1} sets sail with the bird ship.",
        "{p2} sets sail with the cat ship for the last time.",
        "{p0} sets sail with the fish ship for the last time.",
    ]
    assert tokens(state, 2) == [("fries", 1), ("milkshake", 0)] and tokens(state, 0) == [
        ("fries", 1),
        ("opener", 0),
    ]
    outcome = G.outcome(state)
    assert outcome is not None and outcome.scores == (1, 1, 1)
    view = G.view(state, None)
    assert view["final"]["winners"] == list(outcome.winners) and view["players"][1]["tokens"] is not None
    illegal(state, 0, "draw deck", "This game is over")


def test_ships_without_captain_do_not_sail_at_the_end() -> None:
    state = end_table()
    state["ships"][0]["spaces"][3] = None
    state = do(state, 1, "sail bird")
    assert state["phase"] == "over" and tokens(state, 2) == []
    assert [e for e in log(state) if "last time" in e] == ["{p0} sets sail with the fish ship for the last time."]


def test_final_sailings_wait_for_seizing_choices() -> None:
    state = end_table()
    flotsam(state, "cat", group(("fries", 1), ("burger", 6), ("tincan", 9), bonus="parrot"))
    state = do(state, 1, "sail bird")
    assert state["phase"] == "seize" and G.to_act(state) == (2,) and G.view(state, 2)["phase"] == "final"
    state = do(state, 2, "seize 2")
    assert state["phase"] == "over" and tokens(state, 2) == [("burger", 6), ("parrot", 0)]


# ---------------------------------------------------------------------------- abilities


def test_rat_seizes_two_tokens_and_a_rat_captain_the_bonus_and_two() -> None:
    state = table()
    put(state, "cat", "C", 0, "rats")
    put(state, "cat", 3, 1, "rats")
    flotsam(state, "cat", group(("fries", 1), ("noodles", 2), ("burger", 3)))
    state = do(state, 0, "sail cat", "seize 3")
    assert state["phase"] == "seize" and G.to_act(state) == (0,) and "2 to take" not in pending(state, 0)
    state = do(state, 0, "seize 1")
    assert tokens(state, 0) == [("burger", 3), ("fries", 1), ("ketchup", 0)]
    assert tokens(state, 1) == [("noodles", 2)]  # only one token was left for the second rat


def test_rat_crew_seizes_two() -> None:
    state = table()
    put(state, "cat", "C", 0, "toads")
    put(state, "cat", 3, 1, "rats")
    flotsam(
        state,
        "cat",
        group(("fries", 1), ("noodles", 2), ("burger", 3)),
        group(("fries", 2), ("fries", 2), ("fries", 2)),
    )
    state = do(state, 0, "sail cat", "seize 1")
    assert G.to_act(state) == (1,) and legal(state) == ["seize 1", "seize 2"]
    state = do(state, 1, "seize 2")
    assert G.to_act(state) == (1,) and legal(state) == ["seize 1", "stop"]  # the second token is optional
    state = do(state, 1, "seize 1")
    assert tokens(state, 1) == [("burger", 3), ("noodles", 2)] and G.to_act(state) == (1,)


def test_cockroach_pays_one_card_less_and_a_one_card_move_is_free() -> None:
    state = table()
    crew(state, 0, "cockroaches")
    give(state, 0, "fish")
    assert "move 0co1 fish 2" in legal(state)
    after = do(state, 0, "move 0co1 fish 2")
    assert at(after, "fish", 2) == "0co1" and not after["players"][0]["hand"]
    state["players"][0]["hand"] = []
    state["deck"].append("fish")
    assert "move 0co1 fish 1" in legal(state) and "move 0co1 fish 2" not in legal(state)
    assert describe(state, 0, Action("move", ("0co1", "fish", "1"))) == (
        "Move",
        "Cockroach (play area)",
        "Fish ship",
        "Space 1 — free",
    )


def test_cockroach_captain_discount() -> None:
    state = table()
    crew(state, 0, "cockroaches", "cockroaches")
    for space in (1, 2, 3):
        put(state, "cat", space, 1, "toads", space)
    give(state, 0, "cat", "cat")
    after = do(state, 0, "captain 0co1 cat")
    assert at(after, "cat", "C") == "0co1" and not after["players"][0]["hand"]
    state = table()
    put(state, "bird", 3, 0, "cockroaches")
    after = do(state, 0, "captain 0co1 bird")
    assert at(after, "bird", "C") == "0co1"


def toad_table() -> JSON:
    state = table()
    put(state, "cat", "C", 0, "rats")
    flotsam(
        state,
        "cat",
        group(("fries", 1), ("noodles", 2), ("burger", 3)),
        group(("tincan", 9), ("doll", 7), ("teddy", 5)),
    )
    return state


def test_toad_may_stay_aboard_and_step_on() -> None:
    state = toad_table()
    put(state, "cat", 1, 1, "toads")
    state = do(state, 0, "sail cat", "seize 1", "seize 1")
    assert state["phase"] == "toad" and G.to_act(state) == (1,) and legal(state) == ["seize 1", "stay"]
    assert describe(state, 1, Action("stay")) == ("Stay aboard", "Move to space 2")
    state = do(state, 1, "stay")
    assert at(state, "cat", 2) == "1to1" and tokens(state, 1) == [] and len(state["box"]) == 1


def test_toad_may_seize_instead() -> None:
    state = toad_table()
    put(state, "cat", 1, 1, "toads")
    state = do(
        state,
        0,
        "sail cat",
        "seize 1",
        "seize 1",
    )
    state = do(state, 1, "seize 1")
    assert tokens(state, 1) == [("burger", 3)] and area_ids(state, 1) == ["1to1"]


def test_toad_may_become_captain_by_staying_aboard() -> None:
    state = toad_table()
    put(state, "cat", 3, 1, "toads")
    state = do(state, 0, "sail cat", "seize 1", "seize 1")
    assert legal(state) == ["seize 1", "stay"]
    assert describe(state, 1, Action("stay")) == ("Stay aboard", "Become captain")
    state = do(state, 1, "stay")
    assert at(state, "cat", "C") == "1to1" and G.to_act(state) == (1,) and legal(state) == ["sail cat"]


def test_toad_that_cannot_advance_stays_where_it_is() -> None:
    state = toad_table()
    put(state, "cat", 3, 1, "toads")
    put(state, "bird", "C", 1, "rats")
    state = do(state, 0, "sail cat", "seize 1", "seize 1")
    assert legal(state) == ["seize 1", "stay"]
    state = do(state, 1, "stay")
    assert at(state, "cat", 3) == "1to1" and at(state, "cat", "C") is None


def test_toad_captain_cannot_stay_aboard() -> None:
    state = table()
    put(state, "cat", "C", 0, "toads")
    flotsam(
        state,
        "cat",
        group(("fries", 1), ("fries", 1), ("fries", 1)),
        group(("fries", 2), ("fries", 2), ("fries", 2)),
    )
    state = do(state, 0, "sail cat")
    assert at(state, "cat", "C") is None and area_ids(state, 0) == ["0to1"] and G.to_act(state) == (1,)


def test_rulebook_toad_example() -> None:
    """Green's snail captains the bird ship; blue's weasel captain sets sail with the cat ship. Green's
    toad on space 3 cannot become captain and stays; red's toad on space 2 becomes captain."""
    red, green, blue = 0, 1, 3
    state = table(4)
    put(state, "bird", "C", green, "snails")
    put(state, "cat", "C", blue, "weasels")
    put(state, "cat", 3, green, "toads")
    put(state, "cat", 2, red, "toads")
    flotsam(
        state,
        "cat",
        group(("fries", 1), ("noodles", 2), ("burger", 3)),
        group(("fries", 2), ("fries", 2), ("fries", 2)),
    )
    state["turn"] = state["actor"] = blue
    state = do(state, blue, "sail cat", "seize 3")
    assert G.to_act(state) == (green,) and legal(state) == ["seize 1", "seize 2", "stay"]
    assert describe(state, green, Action("stay")) == ("Stay aboard", "Stay on space 3")
    state = do(state, green, "stay")
    assert G.to_act(state) == (red,) and legal(state) == ["seize 1", "seize 2", "stay"]
    assert describe(state, red, Action("stay")) == ("Stay aboard", "Become captain")
    state = do(state, red, "stay")
    assert at(state, "cat", "C") == "0to1" and at(state, "cat", 3) == "1to1" and at(state, "cat", 2) is None
    assert tokens(state, blue) == [("burger", 3), ("ketchup", 0)] and len(state["box"]) == 2


def snail_table(top: str) -> JSON:
    state = table()
    crew(state, 0, "snails")
    give(state, 0, "cat", "cat", "cat")
    state["deck"].remove(top)
    state["deck"].append(top)
    return state


def test_snail_reveal_match_moves_one_more_space() -> None:
    state = do(snail_table("cat"), 0, "move 0sn1 cat 1")
    assert state["phase"] == "snail" and legal(state) == ["snail reveal", "snail skip"]
    discards = len(state["discard"])
    state = do(state, 0, "snail reveal")
    assert at(state, "cat", 2) == "0sn1" and len(state["discard"]) == discards + 1 and G.to_act(state) == (1,)


def test_snail_reveal_mismatch_stays_and_skip_does_nothing() -> None:
    state = do(snail_table("fish"), 0, "move 0sn1 cat 1")
    deck = len(state["deck"])
    revealed = do(state, 0, "snail reveal")
    assert at(revealed, "cat", 1) == "0sn1" and revealed["discard"][-1] == "fish" and len(revealed["deck"]) == deck - 1
    skipped = do(state, 0, "snail skip")
    assert at(skipped, "cat", 1) == "0sn1" and len(skipped["deck"]) == deck


def test_snail_swaps_with_the_figure_ahead_without_triggering_a_raccoon() -> None:
    state = snail_table("cat")
    put(state, "cat", 2, 1, "raccoons")
    give(state, 1, "fish")
    state = do(state, 0, "move 0sn1 cat 1", "snail reveal")
    assert at(state, "cat", 2) == "0sn1" and at(state, "cat", 1) == "1rc1"
    assert state["players"][1]["hand"] == ["fish"] and len(state["players"][0]["hand"]) == 2


def test_snail_becomes_captain_and_may_swap_with_a_captain() -> None:
    state = snail_table("cat")
    put(state, "cat", 1, 1, "toads")
    put(state, "cat", 2, 2, "toads")
    state = do(state, 0, "move 0sn1 cat 3", "snail reveal")
    assert at(state, "cat", "C") == "0sn1" and at(state, "cat", 3) is None
    state = snail_table("cat")
    put(state, "cat", "C", 1, "rats")
    state = do(state, 0, "move 0sn1 cat 3", "snail reveal")
    assert at(state, "cat", "C") == "0sn1" and at(state, "cat", 3) == "1ra1"


def test_snail_ability_only_after_a_move() -> None:
    state = table()
    put(state, "cat", 3, 0, "snails")
    give(state, 0, "cat")
    state = do(state, 0, "captain 0sn1 cat")
    assert at(state, "cat", "C") == "0sn1" and G.to_act(state) == (1,)


def test_weasel_moves_twice_but_not_three_times() -> None:
    state = table()
    crew(state, 0, "weasels", "toads")
    give(state, 0, "cat", "cat", "cat", "fish")
    state = do(state, 0, "move 0we1 cat 1")
    assert state["phase"] == "weasel" and G.to_act(state) == (0,)
    assert legal(state) == ["move 0we1 cat 2", "move 0we1 cat 3", "done"]
    illegal(state, 0, "move 0to1 fish 1", "same weasel")
    state = do(state, 0, "move 0we1 cat 2")
    assert at(state, "cat", 2) == "0we1" and G.to_act(state) == (1,) and state["phase"] == "action"


def test_weasel_extra_action_is_offered_only_when_possible() -> None:
    state = table()
    crew(state, 0, "weasels")
    give(state, 0, "cat", "cat", "cat")
    state = do(state, 0, "move 0we1 cat 3")
    assert state["phase"] == "action" and G.to_act(state) == (1,)


def test_weasel_extra_action_can_be_declined() -> None:
    state = table()
    crew(state, 0, "weasels")
    give(state, 0, "cat", "cat")
    state = do(state, 0, "move 0we1 cat 1", "done")
    assert G.to_act(state) == (1,) and state["players"][0]["hand"] == ["cat"]


def test_weasel_becomes_captain_then_sets_sail() -> None:
    state = table()
    put(state, "cat", 3, 0, "weasels")
    flotsam(
        state,
        "cat",
        group(("fries", 1), ("fries", 1), ("fries", 1)),
        group(("fries", 2), ("fries", 2), ("fries", 2)),
    )
    give(state, 0, "cat", "fish")
    state = do(state, 0, "captain 0we1 cat")
    assert state["phase"] == "weasel" and legal(state) == ["sail cat", "done"]
    state = do(state, 0, "sail cat")
    assert tokens(state, 0) == [("fries", 1), ("ketchup", 0)] and G.to_act(state) == (1,)


def test_weasel_captain_sets_sail_then_boards_another_ship() -> None:
    state = table()
    put(state, "cat", "C", 0, "weasels")
    flotsam(
        state,
        "cat",
        group(("fries", 1), ("fries", 1), ("fries", 1)),
        group(("fries", 2), ("fries", 2), ("fries", 2)),
    )
    give(state, 0, "fish")
    state = do(state, 0, "sail cat")
    assert state["phase"] == "weasel" and legal(state) == ["move 0we1 fish 1", "done"]
    state = do(state, 0, "move 0we1 fish 1")
    assert at(state, "fish", 1) == "0we1" and G.to_act(state) == (1,)


def test_weasel_captain_landing_as_the_fourth_figure_of_its_area_keeps_its_extra_action() -> None:
    """The audit's position: a rat, a snail and a toad in seat 0's area; its weasel captain of the cat ship
    sets sail and lands 4th in the area (index 3, the captain's number): its extra action stays."""
    state = table()
    crew(state, 0, "rats", "snails", "toads")
    put(state, "cat", "C", 0, "weasels")
    flotsam(
        state,
        "cat",
        group(("fries", 1), ("fries", 1), ("fries", 1)),
        group(("fries", 2), ("fries", 2), ("fries", 2)),
    )
    give(state, 0, "fish")
    state = do(state, 0, "sail cat")
    assert [f["id"] for f in state["players"][0]["area"]] == ["0ra1", "0sn1", "0to1", "0we1"]
    assert state["phase"] == "weasel" and G.to_act(state) == (0,)
    assert legal(state) == ["move 0we1 fish 1", "done"]
    state = do(state, 0, "move 0we1 fish 1")
    assert at(state, "fish", 1) == "0we1" and G.to_act(state) == (1,)


def test_weasel_landing_fourth_in_its_area_acts_during_the_final_sailings() -> None:
    state = end_table()
    crew(state, 2, "rats", "snails", "toads")
    state["ships"][0]["spaces"][3] = fig(2, "weasels")
    give(state, 2, "fish")
    state = do(state, 1, "sail bird")
    assert [f["id"] for f in state["players"][2]["area"]][-1] == "2we1"
    assert G.to_act(state) == (2,) and "move 2we1 fish 1" in legal(state)


def test_weasel_may_act_during_the_final_sailings() -> None:
    state = end_table()
    state["ships"][0]["spaces"][3] = fig(2, "weasels")
    give(state, 2, "fish")
    state = do(state, 1, "sail bird")
    assert G.to_act(state) == (2,) and G.view(state, 2)["phase"] == "final" and "move 2we1 fish 1" in legal(state)
    state = do(state, 2, "move 2we1 fish 1")
    # The fish ship sails after the cat ship: the weasel that just boarded it seizes a token there too.
    assert state["phase"] == "over" and tokens(state, 2) == [("fries", 1), ("fries", 1), ("milkshake", 0)]
    assert G.outcome(state).winners == (2,)


def test_raccoon_steals_one_card_from_each_other_player_passed_over() -> None:
    state = table(4)
    crew(state, 0, "raccoons")
    put(state, "cat", 1, 1, "toads")
    put(state, "cat", 2, 1, "rats")
    put(state, "bird", 1, 2, "toads")
    put(state, "cat", 3, 0, "toads")
    give(state, 0, "bird")
    give(state, 1, "fish", "fish")
    state, events = do_events(state, 0, "move 0rc1 bird 2")
    assert state["players"][0]["hand"] == [] and state["players"][2]["hand"] == []  # seat 2's hand was empty
    state = table(4)
    crew(state, 0, "raccoons")
    put(state, "cat", 1, 1, "toads")
    put(state, "cat", 2, 1, "rats")
    put(state, "cat", 3, 3, "rats")
    give(state, 0, "cat", "cat", "cat")
    give(state, 1, "fish", "fish")
    give(state, 3, "bird")
    state["players"][2]["hand"] = []
    state, events = do_events(state, 0, "captain 0rc1 cat")
    assert sorted(state["players"][0]["hand"]) == ["bird", "fish"]
    assert state["players"][1]["hand"] == ["fish"] and state["players"][3]["hand"] == []
    public = [e.text for e in events if e.seat is None]
    assert "{p0}'s raccoon stole a card from {p1}." in public and not any("fish" in t or "bird" in t for t in public)
    assert Event("{p0}'s raccoon stole your bird card.", 3) in events


def test_stolen_cards_do_not_trigger_the_hand_limit() -> None:
    state = table()
    crew(state, 0, "raccoons")
    put(state, "cat", 1, 1, "toads")
    give(state, 0, *["cat"] * 7)
    give(state, 1, "fish")
    state = do(state, 0, "move 0rc1 cat 2")
    assert len(state["players"][0]["hand"]) == 7 and G.to_act(state) == (1,)


def test_raccoon_does_not_steal_from_its_owner_and_needs_to_pass_over() -> None:
    state = table()
    crew(state, 0, "raccoons")
    put(state, "cat", 1, 0, "toads")
    put(state, "cat", 3, 1, "toads")
    give(state, 0, "cat")
    give(state, 1, "fish")
    state = do(state, 0, "move 0rc1 cat 2")
    assert state["players"][0]["hand"] == [] and state["players"][1]["hand"] == ["fish"]


def test_landlubber_figures_have_no_abilities() -> None:
    state = table(abilities=False)
    put(state, "cat", "C", 0, "rats")
    put(state, "cat", 3, 1, "toads")
    flotsam(state, "cat", group(("fries", 1), ("noodles", 2), ("burger", 3)))
    state = do(state, 0, "sail cat", "seize 3")
    assert tokens(state, 0) == [("burger", 3), ("ketchup", 0)] and state["phase"] == "seize"  # no toad choice
    state = table(abilities=False)
    crew(state, 0, "cockroaches", "snails", "weasels", "raccoons")
    put(state, "fish", 1, 1, "toads")
    give(state, 0, "fish")
    give(state, 1, "cat")
    assert "move 0co1 fish 2" in legal(state) and "move 0co1 fish 3" not in legal(state)
    for fid in ("0sn1", "0we1", "0rc1"):
        after = do(state, 0, f"move {fid} fish 2")
        assert after["phase"] == "action" and G.to_act(after) == (1,) and after["players"][1]["hand"] == ["cat"]


# ---------------------------------------------------------------------------- auction


def auction_table(seats: int, bar: list[str], hands: list[int], opener: int = 0) -> JSON:
    state = G.new_game(seats, {"variant": "auction"}, "auction")
    for p, size in zip(state["players"], hands, strict=True):
        state["deck"] += p["hand"]
        p["hand"] = [state["deck"].pop(state["deck"].index(c)) for c in (["cat", "bird", "fish"] * 9)[:size]]
    state["auction"]["bar"] = [{"tribe": t, "under": []} for t in bar]
    state["auction"]["kind"] = "hire"
    state["turn"] = state["actor"] = opener
    return state


def test_auction_minimum_bids_follow_the_bar_position() -> None:
    state = auction_table(2, ["rats", "toads", "snails", "weasels", "rats", "toads", "snails", "weasels"], [2, 8])
    assert legal(state) == ["hire 1", "hire 2", "hire 3"]
    illegal(state, 0, "hire 4", "minimum bid is 3 cards and you hold only 2")
    state = do(state, 0, "hire 3")
    assert legal(state) == ["bid 2"]
    illegal(state, 0, "bid 1", "Bid at least 2 cards")


def test_auction_card_goes_under_the_front_figure_unless_it_is_hired() -> None:
    state = auction_table(2, ["rats", "toads", "snails", "weasels"] * 2, [8, 8])
    deck = len(state["deck"])
    front = do(state, 0, "hire 1")
    assert front["auction"]["bar"][0]["under"] == [] and len(front["deck"]) == deck
    other = do(state, 0, "hire 2")
    assert len(other["auction"]["bar"][0]["under"]) == 1 and len(other["deck"]) == deck - 1
    assert G.view(other, 1)["auction"]["bar"][0]["cards_under"] == 1
    assert describe(other, 0, Action("bid", ("1",))) == ("Bid", "1 card")


def test_auction_raises_passes_payment_and_next_opener() -> None:
    state = auction_table(3, ["rats", "toads", "snails", "weasels"] * 3, [8, 8, 8])
    state = do(state, 0, "hire 2", "bid 1")
    assert G.to_act(state) == (1,) and legal(state)[0] == "bid 2" and legal(state)[-1] == "pass"
    illegal(state, 1, "bid 1", "Bid at least 2 cards, or pass")
    illegal(state, 1, "bid 9", "You cannot bid more cards than you hold (8)")
    state = do(state, 1, "bid 2")
    state = do(state, 2, "pass")
    assert G.to_act(state) == (0,) and state["auction"]["active"] == [0, 1]
    state = do(state, 0, "bid 3")
    assert G.to_act(state) == (1,)
    state = do(state, 1, "pass")
    assert (
        state["auction"]["kind"] == "pay"
        and G.to_act(state) == (0,)
        and legal(state)
        == [
            "discard cat",
            "discard bird",
            "discard fish",
        ]
    )
    assert describe(state, 0, Action("discard", ("fish",))) == ("Pay", "Fish card")
    state = do(state, 0, "discard fish", "discard fish", "discard cat")
    assert area_ids(state, 0) == ["0to1"] and sorted(state["players"][0]["hand"]) == ["bird"] * 3 + ["cat"] * 2
    assert state["auction"]["kind"] == "hire" and G.to_act(state) == (1,)  # the winner's left opens


def test_auction_hirer_takes_the_cards_under_the_figure() -> None:
    state = auction_table(2, ["rats", "toads", "snails", "weasels"] * 2, [8, 8])
    state["auction"]["bar"][0]["under"] = ["fish", "fish"]
    state["deck"].remove("fish")
    state["deck"].remove("fish")
    state = do(state, 0, "hire 1", "bid 0")
    state = do(state, 1, "pass")
    assert area_ids(state, 0) == ["0ra1"] and len(state["players"][0]["hand"]) == 10


def test_auction_forced_pass_when_a_player_cannot_raise() -> None:
    state = auction_table(3, ["rats", "toads", "snails", "weasels"] * 3, [8, 2, 8])
    state = do(state, 0, "hire 1", "bid 2")
    assert G.to_act(state) == (2,) and 1 not in state["auction"]["active"]
    assert "{p1} cannot raise and passes." in log(state)


def test_auction_full_crews_leave_and_the_last_player_takes_the_rest_for_free() -> None:
    state = auction_table(3, ["rats", "toads", "snails"], [8, 8, 8])
    for seat, tribes in (
        (0, ["toads"] * 3),
        (1, ["rats", "rats", "toads", "toads"]),
        (2, ["snails", "snails"]),
    ):
        crew(state, seat, *tribes)
    state = do(state, 0, "hire 1", "bid 0")
    assert G.to_act(state) == (2,)  # seat 1 has four figures and stays out
    state = do(state, 2, "pass")
    # Seat 0 now has four figures: seat 2 takes the two figures left for free and starts the game.
    assert area_ids(state, 2) == ["2sn1", "2sn2", "2sn3", "2to1"] and len(state["players"][2]["hand"]) == 8
    assert state["auction"] is None and state["phase"] == "action" and G.to_act(state) == (2,)
    assert state["first"] == 2


def test_auction_last_figure_taker_is_first_player_and_keeps_unspent_cards() -> None:
    state = auction_table(2, ["rats", "toads"], [9, 3])
    crew(state, 0, "toads", "toads", "toads")
    crew(state, 1, "snails", "snails", "snails")
    state = do(state, 0, "hire 2", "bid 1")
    state = do(state, 1, "pass")
    state = do(state, 0, "discard cat")
    # Seat 1 takes the front figure (and the card drawn under it) for free and is first player.
    assert state["phase"] == "action" and state["first"] == 1 and G.to_act(state) == (1,)
    assert len(state["players"][1]["hand"]) == 4 and len(state["players"][0]["hand"]) == 8
    state = do(state, 1, "draw deck", "draw deck")
    state = do(state, 0, "draw deck", "draw deck")
    assert state["phase"] == "discard" and len(state["players"][0]["hand"]) == 10


def test_auction_opener_is_random() -> None:
    assert len({G.new_game(3, {"variant": "auction"}, f"o{i}")["actor"] for i in range(30)}) == 3


# ---------------------------------------------------------------------------- scoring


def toks(*items: tuple[str, int] | str) -> list[JSON]:
    return [{"type": i, "value": 0} if isinstance(i, str) else {"type": i[0], "value": i[1]} for i in items]


def test_scoring_rulebook_fries_example() -> None:
    assert total(toks(("fries", 2), ("fries", 3), "ketchup")) == 15


def test_scoring_two_ketchups_add_ten_per_fries() -> None:
    assert total(toks(("fries", 2), ("fries", 3), "ketchup", "ketchup")) == 25


def test_scoring_noodles_and_chili() -> None:
    assert total(toks(("noodles", 4), ("noodles", 2))) == 6
    assert total(toks(("noodles", 4), ("noodles", 2), "chili", "chili")) == 6 + 16


def test_scoring_burgers_and_milkshakes() -> None:
    assert total(toks(("burger", 6), "milkshake")) == 9
    assert total(toks(("burger", 6), ("burger", 3), "milkshake", "milkshake", "milkshake")) == 9 + 18


def test_scoring_toys_need_parrots() -> None:
    assert total(toks(("teddy", 9), ("doll", 8))) == 0
    assert total(toks(("teddy", 9), ("doll", 8), ("doll", 5), "parrot")) == 13 + 1
    assert total(toks(("teddy", 9), ("doll", 8), "parrot", "parrot")) == 17 + 2
    assert total(toks("parrot")) == 1


def test_scoring_tin_cans_need_one_opener_each_highest_first() -> None:
    assert total(toks(("tincan", 13), ("tincan", 8))) == 0
    assert total(toks(("tincan", 13), ("tincan", 8), ("tincan", 11), "opener")) == 13
    assert total(toks(("tincan", 13), ("tincan", 8), "opener", "opener", "opener")) == 21


def test_scoring_lone_bonus_tokens_are_worth_nothing() -> None:
    assert total(toks("ketchup", "chili", "milkshake", "opener")) == 0


def test_scoring_breakdown_per_category() -> None:
    lines = breakdown(toks(("fries", 2), ("fries", 3), "ketchup", ("tincan", 9), "parrot", ("doll", 6)))
    assert [(localize(line.category), line.points) for line in lines] == [
        ("French fries", 15),
        ("Toys", 7),
        ("Tin cans", 0),
    ]
    assert sum(line.points for line in lines) == total(
        toks(("fries", 2), ("fries", 3), "ketchup", ("tincan", 9), "parrot", ("doll", 6))
    )


def finish(state: JSON) -> JSON:
    """End the game now (as after the last final sailing) and return the scored state."""
    state["final"] = {"trigger": 0, "cursor": 2}
    end_action(state, [])
    return state


def test_tie_break_adds_space_numbers_captain_counts_4() -> None:
    state = table()
    for seat in (0, 1, 2):
        state["players"][seat]["tokens"] = toks(("fries", 3))
    put(state, "cat", "C", 0, "toads")  # 4
    put(state, "bird", 3, 1, "toads")  # 3
    put(state, "fish", 1, 1, "rats")  # +1 = 4
    state = finish(state)
    assert state["result"]["space_sums"] == [4, 4, 0] and G.outcome(state).winners == (0, 1)
    assert localize(G.outcome(state).summary) == "{p0} and {p1} share the victory with 3 points."
    state = table()
    state["players"][0]["tokens"] = toks(("fries", 3))
    state["players"][2]["tokens"] = toks(("noodles", 3))
    put(state, "cat", "C", 0, "toads")
    put(state, "bird", "C", 2, "toads")
    put(state, "fish", 1, 2, "toads")
    state = finish(state)
    assert G.outcome(state).winners == (2,)
    view = G.view(state, 1)
    assert view["final"]["scores"][2]["space_sum"] == 5 and view["final"]["winners"] == [2]


def test_highest_total_wins() -> None:
    state = table()
    state["players"][1]["tokens"] = toks(("burger", 6))
    state["players"][0]["tokens"] = toks(("burger", 5))
    put(state, "cat", "C", 0, "toads")
    assert G.outcome(finish(state)).winners == (1,)


# ---------------------------------------------------------------------------- views and texts


def test_view_shows_only_the_viewers_secrets() -> None:
    state = table()
    give(state, 0, "cat", "fish")
    give(state, 1, "bird")
    state["players"][1]["tokens"] = toks(("tincan", 13), "opener")
    view = G.view(state, 0)
    assert view["hand"] == ["cat", "fish"] and view["players"][1]["tokens"] is None
    assert view["players"][1]["hand_count"] == 1 and view["players"][1]["token_count"] == 2
    assert view["players"][1]["score"] is None and view["players"][0]["score"] == 0
    own = G.view(state, 1)
    assert own["players"][1]["score"] == 13 and own["players"][1]["tokens"][0] == {
        "type": "tincan",
        "value": 13,
    }
    spectator = G.view(state, None)
    assert spectator["hand"] is None and all(p["tokens"] is None for p in spectator["players"])
    text = repr(spectator)
    assert "seed" not in text and "deck" not in text.replace("deck_count", "")
    assert set(view) == {
        "game", "variant", "abilities", "viewer", "seats", "tribes", "ships", "row", "deck_count",
        "discard_count", "booty_pool", "bonus_pool", "groups_left", "players", "hand", "phase", "to_act",
        "turn", "pending", "sailing", "must_sail", "token_kinds", "auction", "events", "final",
    }  # fmt: skip


def test_seat_summary_shows_hand_tokens_and_live_score() -> None:
    state = table()
    give(state, 0, "cat", "cat", "fish")
    state["players"][0]["tokens"] = toks(("fries", 2), ("fries", 3), "ketchup")
    text = localize(G.seat_summary(G.view(state, 0)))
    assert "2 cat, 1 fish" in text and "15" in text and "French fries" in text
    assert "secret" in localize(G.seat_summary(G.view(state, None)))


def test_texts_and_labels() -> None:
    rules = localize(G.rules_text())
    assert len(rules) < 3800 and "Raccoons" in rules and "Weasels" in rules
    state = G.new_game(3, {}, "labels")
    seat = state["actor"]
    labels = [tuple(map(localize, c.path)) for c in G.choices(state, seat)]
    assert ("Draw", "From the deck") in labels and all(len(" → ".join(p)) <= 80 for p in labels)
    assert any(p[0] == "Move" and p[1].endswith("(play area)") for p in labels)
    assert "{p" in localize(G.summary(G.view(state, None))) and G.outcome(state) is None
    assert describe(state, seat, Action("draw", ("row", "2")))[1].startswith("Row 2: ")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_typed_rows_stools_and_tokens_count_as_the_board_shows_them(lang: str) -> None:
    """The board and the buttons number the row's cards, the bar's stools and a group's tokens from 1: so do
    typed moves, in every language, and the refusals name the same range (``draw row 1`` is the first card)."""
    state = G.new_game(3, {}, "rows")
    seat = state["actor"]
    first = state["row"][0]
    after = G.apply(state, seat, "draw row 1").state
    assert after["players"][seat]["hand"][-1] == first
    for typed in ("draw row 0", f"draw row {len(state['row']) + 1}"):
        with pytest.raises(IllegalAction) as refused:
            G.apply(state, seat, typed)
        shown = localize(str(refused.value), lang)
        assert shown == ("The row holds cards 1 to 4." if lang == "en" else "Die Reihe hat die Karten 1 bis 4.")
    assert [c.action.encode() for c in G.choices(state, seat) if c.action.verb == "draw"][1:] == [
        "draw row 1",
        "draw row 2",
        "draw row 3",
        "draw row 4",
    ]
    labels = {c.action.encode(): localize(c.path[-1], lang) for c in G.choices(state, seat)}
    assert labels["draw row 1"].startswith("Row 1: " if lang == "en" else "Reihe 1: ")


# ---------------------------------------------------------------------------- languages


def test_typed_english_moves_play_in_any_language_and_the_events_read_in_german() -> None:
    state = table()
    crew(state, 0, "toads")
    give(state, 0, "fish", "fish", "cat")
    step = G.apply(state, 0, "move 0to1 fish 2")  # typed in English, whatever the player's language
    (event,) = [e for e in step.events if e.seat is None]
    names = ["Anne", "Ben", "Cleo"]
    assert localize(with_names(event.text, names)) == "Anne moved a Toad to space 2 of the fish ship (2 fish cards)."
    assert (
        localize(with_names(event.text, names), "de")
        == "Anne zieht eine Figur (Kröte) auf Feld 2 des Fischschiffs (2 Fischkarten)."
    )
    assert localize(with_names(G.view(step.state, None)["pending"], names), "de") == "Ben wählt eine Aktion"


def test_german_labels_and_refusals_count_in_the_right_form() -> None:
    state = table()
    crew(state, 0, "toads")
    give(state, 0, "fish")
    labels = [tuple(localize(label, "de") for label in c.path) for c in G.choices(state, 0)]
    assert ("Ziehen", "Kröte (Spielbereich)", "Fischschiff", "Feld 1 — 1 Fischkarte") in labels
    assert ("Karten ziehen", "Vom Stapel") in labels
    with pytest.raises(IllegalAction) as refused:
        G.apply(clone(state), 0, "move 0to1 fish 2", inplace=True)
    assert localize(str(refused.value), "de") == "Dafür brauchst du 2 Fischkarten."
    assert localize(str(refused.value)) == "You need 2 fish cards for that."
    with pytest.raises(IllegalAction) as refused:
        G.apply(clone(state), 0, "move 0to1 boat 1", inplace=True)
    assert localize(str(refused.value), "de") == "Es gibt kein Schiff „boat“: Wähle `cat`, `bird` oder `fish`."


def test_the_outcome_and_the_private_summary_in_german() -> None:
    state = table(2)
    state["players"][0]["tokens"] = toks(("fries", 2))
    state["players"][1]["tokens"] = toks(("fries", 1), ("noodles", 1))
    state = finish(state)
    assert localize(with_names(G.outcome(state).summary, ["Anne", "Ben"]), "de") == (
        "Anne und Ben teilen sich den Sieg mit 2 Punkten."
    )
    state["players"][0]["tokens"] = toks(("tincan", 9), "opener")
    text = localize(G.seat_summary(G.view(state, 0)), "de")
    assert "**Deine Plättchen:** Blechdose 9, Dosenöffner" in text
    assert "- Blechdosen: 9 (1 Dosenöffner für 1 Dose: 9)" in text
