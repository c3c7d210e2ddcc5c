"""Sewer Pirats: the rule readings fixed after review (``shared/rules/sewer-pirats.md``, clarified)."""

from __future__ import annotations

from games.core import Action
from games.i18n import localize
from tests.test_sewerpirats_rules import (
    JSON,
    G,
    area_ids,
    at,
    auction_table,
    crew,
    describe,
    do,
    finish,
    flotsam,
    give,
    group,
    illegal,
    legal,
    pending,
    put,
    snail_table,
    table,
    tokens,
    toks,
)

# ---------------------------------------------------------------------------- weasels


def test_weasel_that_sailed_acts_again_beside_a_lower_numbered_weasel() -> None:
    """Auction: 0we2 comes home next to 0we1; the extra action still belongs to 0we2."""
    state = table()
    state["variant"] = "auction"
    crew(state, 0, "weasels")  # 0we1 waits in the play area
    put(state, "cat", "C", 0, "weasels", 2)
    flotsam(
        state,
        "cat",
        group(("fries", 1), ("fries", 1), ("fries", 1)),
        group(("fries", 2), ("fries", 2), ("fries", 2)),
    )
    give(state, 0, "fish")
    state = do(state, 0, "sail cat")
    assert area_ids(state, 0) == ["0we1", "0we2"]
    assert state["phase"] == "weasel" and G.to_act(state) == (0,)
    assert legal(state) == ["move 0we2 fish 1", "done"]
    assert describe(state, 0, Action("move", ("0we2", "fish", "1")))[1] == "Weasel (play area)"
    illegal(state, 0, "move 0we1 fish 1", "same weasel")
    state = do(state, 0, "move 0we2 fish 1")
    assert at(state, "fish", 1) == "0we2" and area_ids(state, 0) == ["0we1"] and G.to_act(state) == (1,)


# ---------------------------------------------------------------------------- rats


def rat_table(captain: str = "toads") -> JSON:
    state = table()
    put(state, "cat", "C", 0, captain)
    put(state, "cat", 3, 1, "rats")
    put(state, "cat", 2, 2, "snails")
    flotsam(
        state,
        "cat",
        group(("fries", 1), ("noodles", 2), ("burger", 3)),
        group(("fries", 2), ("fries", 2), ("fries", 2)),
    )
    return state


def test_rat_may_stop_after_its_first_token() -> None:
    state = do(rat_table(), 0, "sail cat", "seize 1")
    assert legal(state) == ["seize 1", "seize 2"]  # the first token is not optional
    illegal(state, 1, "stop", "Only a rat's second token may be left")
    state = do(state, 1, "seize 2")
    assert G.to_act(state) == (1,) and legal(state) == ["seize 1", "stop"]
    assert describe(state, 1, Action("stop")) == ("Seize", "No second token")
    assert pending(state, 1) == "{p1} may seize a second token from the cat ship for their Rat on space 3, or stop"
    state = do(state, 1, "stop")
    # The token the rat left goes to the next figure in seizing order.
    assert tokens(state, 1) == [("burger", 3)] and tokens(state, 2) == [("noodles", 2)]
    assert area_ids(state, 1) == ["1ra1"] and G.to_act(state) == (1,) and state["phase"] == "action"


def test_view_names_the_ship_sailing_and_the_figure_seizing() -> None:
    state = rat_table()
    assert G.view(state, None)["sailing"] is None
    state = do(state, 0, "sail cat")
    assert G.view(state, None)["sailing"] == {"ship": "cat", "space": 3}  # the captain seizes first
    assert pending(state, None) == "{p0} seizes a token from the cat ship for their captain"
    state = do(state, 0, "seize 1")
    assert G.view(state, 2)["sailing"] == {"ship": "cat", "space": 2}
    assert pending(state, 2) == "{p1} seizes a token from the cat ship for their Rat on space 3 (a rat: up to 2)"
    state = do(state, 1, "seize 1", "stop")
    assert G.view(state, None)["sailing"] is None


def test_rat_second_token_is_offered_even_when_the_tokens_left_are_alike() -> None:
    state = rat_table()
    flotsam(state, "cat", group(("fries", 1), ("fries", 1), ("fries", 1)), group(("fries", 2), ("fries", 2)))
    state = do(state, 0, "sail cat")
    # Seat 0 and the rat's first token are taken without a question; the second one is a choice.
    assert tokens(state, 0) == [("fries", 1), ("ketchup", 0)] and tokens(state, 1) == [("fries", 1)]
    assert G.to_act(state) == (1,) and legal(state) == ["seize 1", "stop"]
    state = do(state, 1, "seize 1")
    assert tokens(state, 1) == [("fries", 1), ("fries", 1)] and tokens(state, 2) == []


def test_rat_captain_may_stop_after_the_bonus_and_one_token() -> None:
    state = do(rat_table("rats"), 0, "sail cat", "seize 3")
    assert legal(state) == ["seize 1", "seize 2", "stop"]
    state = do(state, 0, "stop")
    assert tokens(state, 0) == [("burger", 3), ("ketchup", 0)]
    assert G.to_act(state) == (1,) and state["phase"] == "seize"  # seat 1's rat is next


# ---------------------------------------------------------------------------- toads


def toad_table() -> JSON:
    state = table()
    put(state, "cat", "C", 0, "rats")
    flotsam(
        state,
        "cat",
        group(("fries", 1), ("noodles", 2), ("burger", 3), ("tincan", 9)),
        group(("tincan", 9), ("doll", 7), ("teddy", 5)),
    )
    return state


def sail_to_toad(state: JSON) -> JSON:
    """Seat 0's rat captain sails and takes the bonus and two tokens; one or two tokens are left."""
    return do(state, 0, "sail cat", "seize 1", "seize 1")


def test_toad_that_can_reach_the_captain_space_may_not_stay_put() -> None:
    state = toad_table()
    put(state, "cat", 3, 1, "toads")
    state = sail_to_toad(state)
    assert legal(state) == ["seize 1", "seize 2", "stay"]
    assert describe(state, 1, Action("stay")) == ("Stay aboard", "Become captain")
    illegal(state, 1, "stay captain", "Say `stay`")
    state = do(state, 1, "stay")
    assert at(state, "cat", "C") == "1to1" and at(state, "cat", 3) is None


def test_advancing_toad_moves_to_the_next_free_space_and_never_stays_put() -> None:
    state = toad_table()
    put(state, "cat", 2, 1, "toads")
    state = sail_to_toad(state)
    assert legal(state) == ["seize 1", "seize 2", "stay"]
    assert describe(state, 1, Action("stay")) == ("Stay aboard", "Move to space 3")
    state = do(state, 1, "stay")
    assert at(state, "cat", 3) == "1to1" and at(state, "cat", 2) is None


def test_advancing_toad_passes_over_every_occupied_crew_space_up_to_the_captain() -> None:
    state = toad_table()
    put(state, "cat", 3, 2, "toads")
    put(state, "cat", 2, 2, "toads", 2)
    put(state, "cat", 1, 1, "toads")
    put(state, "bird", "C", 2, "rats")  # seat 2's toads cannot advance: a second captain is not allowed
    state = sail_to_toad(state)
    assert G.to_act(state) == (2,) and describe(state, 2, Action("stay"))[1] == "Stay on space 3"
    state = do(state, 2, "stay")
    assert G.to_act(state) == (2,) and describe(state, 2, Action("stay"))[1] == "Stay on space 2"
    state = do(state, 2, "stay")
    assert at(state, "cat", 3) == "2to1" and at(state, "cat", 2) == "2to2"
    assert G.to_act(state) == (1,) and describe(state, 1, Action("stay"))[1] == "Become captain"
    state = do(state, 1, "stay")
    assert at(state, "cat", "C") == "1to1" and at(state, "cat", 1) is None


def test_toad_with_nothing_left_to_seize_advances_without_a_question() -> None:
    state = table()
    put(state, "cat", "C", 0, "rats")
    put(state, "cat", 3, 2, "toads")
    put(state, "cat", 2, 1, "toads")
    flotsam(state, "cat", group(("fries", 1), ("noodles", 2)), group(("fries", 2), ("fries", 2), ("fries", 2)))
    state = do(state, 0, "sail cat", "seize 1", "seize 1")
    # Seat 2's toad on 3 becomes captain; seat 1's toad on 2 then advances to the free space 3.
    assert at(state, "cat", "C") == "2to1" and at(state, "cat", 3) == "1to1" and at(state, "cat", 2) is None
    assert G.to_act(state) == (1,) and state["phase"] == "action"


# ---------------------------------------------------------------------------- snails


def test_snail_swaps_onto_c_with_another_players_captain() -> None:
    state = snail_table("cat")
    put(state, "cat", "C", 1, "rats")
    state = do(state, 0, "move 0sn1 cat 3", "snail reveal")
    assert at(state, "cat", "C") == "0sn1" and at(state, "cat", 3) == "1ra1"
    # Seat 1 is no longer captain and acts freely; seat 0 must set sail on its next turn.
    assert G.to_act(state) == (1,) and "sail cat" not in legal(state) and "draw deck" in legal(state)
    assert G.view(state, None)["players"][1]["captain"] is None
    assert G.view(state, None)["players"][0]["captain"] == "cat"
    state = do(state, 1, "draw deck", "draw deck")
    state = do(state, 2, "draw deck", "draw deck")
    assert legal(state) == ["sail cat"]


# ---------------------------------------------------------------------------- landlubber


def test_landlubber_tribes_are_chosen_in_turn_order_from_the_first_player() -> None:
    state = next(s for i in range(30) if (s := G.new_game(3, {"variant": "landlubber"}, f"land{i}"))["first"] == 1)
    assert state["phase"] == "crew" and G.to_act(state) == (1,)
    illegal(state, 0, "tribe rats", "It is not your turn")
    state = do(state, 1, "tribe toads")
    assert G.to_act(state) == (2,)
    state = do(state, 2, "tribe rats")
    assert G.to_act(state) == (0,)
    state = do(state, 0, "tribe snails")
    assert state["phase"] == "action" and G.to_act(state) == (1,) and state["turn"] == 1
    assert [state["players"][s]["area"][0]["tribe"] for s in range(3)] == ["snails", "toads", "rats"]
    assert G.check_invariants(state) == []


# ---------------------------------------------------------------------------- texts


def test_payment_text_is_right_for_the_first_and_later_cards() -> None:
    state = auction_table(3, ["rats", "toads", "snails", "weasels"] * 3, [8, 8, 8])
    state = do(state, 0, "hire 2", "bid 2")
    state = do(state, 1, "pass")
    state = do(state, 2, "pass")
    assert state["auction"]["kind"] == "pay"
    assert pending(state, 0) == "{p0} chooses 2 cards to pay"
    state = do(state, 0, "discard cat")
    assert pending(state, 0) == "{p0} chooses 1 more card to pay"
    state = auction_table(3, ["rats", "toads", "snails", "weasels"] * 3, [8, 8, 8])
    state = do(state, 0, "hire 2", "bid 1")
    state = do(state, 1, "pass")
    state = do(state, 2, "pass")
    assert pending(state, 0) == "{p0} chooses 1 card to pay"


def test_discard_text_is_right_for_the_first_and_later_cards() -> None:
    state = table()
    give(state, 0, "cat", "cat", "bird", "bird", "fish", "fish")
    state["row"] = ["cat", "cat", "cat", "cat"]
    state = do(state, 0, "draw row 1", "draw row 1")
    assert pending(state, 0) == "{p0} discards down to 6 cards (2 cards too many)"
    state = do(state, 0, "discard cat")
    assert pending(state, 0) == "{p0} discards down to 6 cards (1 card too many)"


def test_seat_summary_after_the_game_gives_the_final_score() -> None:
    state = table()
    state["players"][0]["tokens"] = toks(("fries", 2), ("fries", 3), "ketchup")
    put(state, "cat", "C", 1, "toads")
    live = localize(G.seat_summary(G.view(state, 0)))
    assert "Score if the game ended now: 15" in live
    state = finish(state)
    text = localize(G.seat_summary(G.view(state, 0)))
    assert "if the game ended now" not in text and "**Final score: 15**" in text
    assert "French fries: 15" in text
    assert "**Your tokens:** none." in localize(G.seat_summary(G.view(state, 2)))  # not "none yet"
