"""Rule-by-rule tests of the Piratz engine (``shared/rules/piratz.md``) on constructed states."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

import pytest

from games.core import Action, IllegalAction, clone
from games.i18n import localize
from games.piratz import CARDS, Piratz, PiratzAI
from games.piratz.cards import CUBES, SKULL_IDS, SYMBOL_TOTALS, TYPES
from games.piratz.engine import score

GAME = Piratz()


# ---------------------------------------------------------------------- helpers


def cards_of(face: str, *, rat: bool = False) -> list[int]:
    """Ids of the skull-free cards showing exactly ``face`` ("coins", "coins+pearls"), rat or not."""
    symbols = tuple(face.split("+"))
    return [c.id for c in CARDS if c.symbols == symbols and c.rat == rat and not c.skull]


def card(face: str, k: int = 0, *, rat: bool = False) -> int:
    return cards_of(face, rat=rat)[k]


def scenario(
    seats: int = 2,
    *,
    top: Iterable[int] = (),
    middle: Iterable[int] = (),
    buried: dict[int, int] | None = None,
    spades_in_middle: Iterable[int] = (),
    piles: dict[int, list[int]] | None = None,
    discard: Iterable[int] = (),
    rest: str | int = "draw",
    current: int = 0,
    phase: str = "turn",
    revealed: int = 0,
    blind: bool = False,
    cubes: list[list[int]] | None = None,
    last_round: bool = False,
) -> dict:
    """A valid state with the given cards placed; every other card in play goes to ``rest``
    ("draw", "discard" or a seat's pile). ``top[0]`` is the next card revealed."""
    state = GAME.new_game(seats, {"blind": blind}, seed="scenario")
    top, middle, discard = list(top), list(middle), list(discard)
    piles = {s: list(p) for s, p in (piles or {}).items()}
    buried = buried or {}
    placed = [*top, *middle, *discard, *(c for p in piles.values() for c in p)]
    assert len(placed) == len(set(placed)), "a card placed twice"
    assert not set(placed) & set(state["removed"]), "a skull card in a 2-player scenario"
    others = [c for c in range(len(CARDS)) if c not in placed and c not in state["removed"]]
    draw = list(reversed(top))
    if rest == "draw":
        draw = others + draw
    elif rest == "discard":
        discard += others
    else:
        piles.setdefault(int(rest), []).extend(others)
    placed_spades = [*buried.values(), *spades_in_middle]
    state.update(
        draw=draw,
        discard=discard,
        middle=middle,
        buried=[buried.get(c) for c in middle],
        spades_in_middle=list(spades_in_middle),
        spades=[s not in placed_spades for s in range(seats)],
        piles=[piles.get(s, []) for s in range(seats)],
        current=current,
        phase=phase,
        revealed=revealed,
        last_round=last_round,
        alert=[c for c in middle if CARDS[c].rat and c not in buried] if phase == "rat_alert" else [],
    )
    if cubes is not None:
        state["cubes"] = cubes
        box = Counter(CUBES) - Counter(v for vals in cubes for v in vals)
        state["box"] = sorted(box.elements(), reverse=True)
    assert GAME.check_invariants(state) == []
    return state


def play(state: dict, seat: int, text: str) -> list[str]:
    """Apply ``text`` in place; return the event texts (in English)."""
    step = GAME.apply(state, seat, text, inplace=True)
    assert GAME.check_invariants(state) == []
    return [localize(e.text) for e in step.events]


@contextmanager
def refused(match: str) -> Iterator[None]:
    """``pytest.raises(IllegalAction, match=match)``, matched against the refusal written out in English."""
    with pytest.raises(IllegalAction) as info:
        yield
    assert re.search(match, localize(str(info.value))), localize(str(info.value))


def legal(state: dict, seat: int | None = None) -> list[str]:
    seat = state["current"] if seat is None else seat
    return [a.encode() for a in GAME.legal_actions(state, seat)]


def labels(state: dict) -> dict[str, tuple[str, ...]]:
    return {c.action.encode(): tuple(map(localize, c.path)) for c in GAME.choices(state, state["current"])}


COINS, PEARLS, RINGS, SHELLS, CROWNS, GOBLETS = (
    card(t) for t in ("coins", "pearls", "rings", "shells", "crowns", "goblets")
)
COINS_PEARLS = card("coins+pearls")
RINGS_COINS = card("rings+coins")
PEARLS_CROWNS = card("pearls+crowns")
RINGS_RAT = card("rings", rat=True)
COINS_RAT = card("coins", rat=True)
PEARLS_RAT = card("pearls", rat=True)
SHELLS_RAT = card("shells", rat=True)


# ---------------------------------------------------------------------- components


def test_card_list_matches_the_house_table() -> None:
    assert len(CARDS) == 50
    assert [c.id for c in CARDS] == list(range(50))
    assert SYMBOL_TOTALS == {"rings": 8, "coins": 9, "pearls": 10, "crowns": 11, "goblets": 12, "shells": 12}
    assert sum(len(c.symbols) for c in CARDS) == 62
    rats = [c for c in CARDS if c.rat]
    assert len(rats) == 10
    assert all(len(c.symbols) == 1 and not c.skull for c in rats)
    assert Counter(c.symbols[0] for c in rats) == {
        "rings": 1,
        "coins": 1,
        "pearls": 2,
        "crowns": 2,
        "goblets": 2,
        "shells": 2,
    }
    plain = [c for c in CARDS if not c.rat and len(c.symbols) == 1]
    assert Counter(c.symbols[0] for c in plain) == {
        "rings": 4,
        "coins": 4,
        "pearls": 4,
        "crowns": 5,
        "goblets": 5,
        "shells": 6,
    }
    pairs = [c.symbols for c in CARDS if len(c.symbols) == 2]
    assert len(pairs) == 12
    assert all(a != b and TYPES.index(a) < TYPES.index(b) for a, b in pairs)
    assert Counter(pairs)[("goblets", "shells")] == 2
    # Ids follow the table: rat cards, then plain cards, then pairs.
    assert all(c.rat for c in CARDS[:10]) and all(len(c.symbols) == 2 for c in CARDS[38:])


def test_skull_cards_are_one_plain_card_of_each_type() -> None:
    skulls = [c for c in CARDS if c.skull]
    assert len(skulls) == 6 and tuple(c.id for c in skulls) == SKULL_IDS
    assert sorted(c.symbols[0] for c in skulls) == sorted(TYPES)
    assert all(len(c.symbols) == 1 and not c.rat for c in skulls)


def test_cubes_are_four_gold_four_silver_four_copper() -> None:
    assert Counter(CUBES) == {3: 4, 2: 4, 1: 4}


# ---------------------------------------------------------------------- setup


def test_setup_two_players_removes_skulls_and_places_one_cube_per_type() -> None:
    state = GAME.new_game(2, seed="s")
    assert len(state["draw"]) == 44
    assert sorted(state["removed"]) == sorted(SKULL_IDS)
    assert not set(state["draw"]) & set(SKULL_IDS)
    assert [len(v) for v in state["cubes"]] == [1] * 6
    assert len(state["box"]) == 6
    assert sorted([v for vals in state["cubes"] for v in vals] + state["box"]) == sorted(CUBES)
    assert state["phase"] == "turn" and state["spades"] == [True, True]
    assert state["piles"] == [[], []] and state["middle"] == [] and state["round"] == 1
    assert GAME.check_invariants(state) == []


@pytest.mark.parametrize("seats", [3, 4])
def test_setup_three_and_four_players_use_all_cards_and_two_cubes_per_type(seats: int) -> None:
    state = GAME.new_game(seats, seed="s")
    assert sorted(state["draw"]) == list(range(50)) and state["removed"] == []
    assert all(len(v) == 2 and v[0] >= v[1] for v in state["cubes"])
    assert sorted(v for vals in state["cubes"] for v in vals) == sorted(CUBES) and state["box"] == []
    assert GAME.check_invariants(state) == []


def test_setup_is_random_but_deterministic_from_the_seed() -> None:
    assert GAME.new_game(3, seed="x") == GAME.new_game(3, seed="x")
    states = [GAME.new_game(2, seed=str(i)) for i in range(40)]
    assert {s["current"] for s in states} == {0, 1}, "a random player begins"
    assert len({tuple(s["draw"]) for s in states}) == 40, "the draw pile is shuffled"
    assert len({tuple(map(tuple, s["cubes"])) for s in states}) > 10, "the cubes are placed at random"


def test_options_and_seat_limits() -> None:
    assert GAME.new_game(2)["options"] == {"blind": False}
    assert GAME.new_game(2, {"blind": True})["options"] == {"blind": True}
    with refused("no option"):
        GAME.new_game(2, {"colour": "red"})
    for seats in (1, 5):
        with refused("2–4 players"):
            GAME.new_game(seats)


# ---------------------------------------------------------------------- a turn


def test_reveal_places_the_top_card_face_up_and_offers_pass_or_end() -> None:
    state = scenario(top=[COINS_PEARLS, RINGS])
    draw_before = len(state["draw"])
    events = play(state, 0, "reveal")
    assert state["middle"] == [COINS_PEARLS] and state["buried"] == [None]
    assert len(state["draw"]) == draw_before - 1
    assert state["phase"] == "decide" and state["current"] == 0 and state["revealed"] == 1
    assert events == ["{p0} revealed a Coins + Pearls card."]
    assert legal(state) == ["end", "pass coins", "pass pearls"]


def test_reveal_event_marks_a_rat() -> None:
    state = scenario(top=[RINGS_RAT])
    assert play(state, 0, "reveal") == ["{p0} revealed a Rings card (rat)."]


def test_a_player_reveals_only_once_per_turn() -> None:
    state = scenario(top=[COINS, RINGS], phase="turn")
    play(state, 0, "reveal")
    assert "reveal" not in legal(state)
    with refused("already revealed a card this turn"):
        GAME.apply(state, 0, "reveal", inplace=True)


def test_end_turn_passes_to_the_next_seat_holding_a_spade() -> None:
    state = scenario(3, top=[COINS], middle=[RINGS], buried={RINGS: 1})
    play(state, 0, "reveal")
    assert play(state, 0, "end") == ["{p0} ended the turn."]
    assert state["current"] == 2, "seat 1 has placed its spade and is skipped"
    assert state["phase"] == "turn" and state["revealed"] == 0


def test_end_is_only_possible_after_revealing() -> None:
    state = scenario(middle=[COINS])
    assert legal(state) == ["reveal", "pass coins"]
    with refused("only after revealing"):
        GAME.apply(state, 0, "end", inplace=True)


def test_pass_without_revealing_is_allowed() -> None:
    state = scenario(middle=[COINS, RINGS])
    play(state, 0, "pass coins")
    assert state["piles"][0] == [COINS] and state["phase"] == "bury"


def test_pass_takes_every_face_up_unburied_card_with_the_type() -> None:
    middle = [COINS, COINS_PEARLS, COINS_RAT, RINGS_COINS, PEARLS, card("coins", 1)]
    state = scenario(3, middle=middle, buried={card("coins", 1): 2}, phase="decide", revealed=1)
    assert labels(state)["pass coins"] == ("Pass for the round", "Coins — take 4 cards")
    events = play(state, 0, "pass coins")
    assert state["piles"][0] == [COINS, COINS_PEARLS, COINS_RAT, RINGS_COINS]
    assert state["middle"] == [PEARLS, card("coins", 1)], "buried cards are never taken"
    assert events == ["{p0} passed on Coins and took 4 cards."]
    assert state["phase"] == "bury" and state["current"] == 0


def test_pass_may_only_name_a_type_on_a_face_up_unburied_card() -> None:
    state = scenario(middle=[COINS, PEARLS], buried={PEARLS: 1})
    assert legal(state) == ["reveal", "pass coins"]
    with refused("No face-up unburied card shows Pearls"):
        GAME.apply(state, 0, "pass pearls", inplace=True)
    with refused("`gold` is not a treasure type"):
        GAME.apply(state, 0, "pass gold", inplace=True)


def test_pass_with_nothing_to_take_puts_the_spade_in_the_middle() -> None:
    state = scenario(3, middle=[COINS], buried={COINS: 1})
    assert legal(state) == ["reveal", "pass"]
    assert labels(state)["pass"] == ("Pass for the round", "Take nothing")
    events = play(state, 0, "pass")
    assert state["piles"][0] == []
    assert state["spades_in_middle"] == [0] and state["spades"] == [False, False, True]
    assert events == [
        "{p0} passed and took nothing.",
        "{p0} has no card to bury: the spade goes to the middle.",
        "{p2} holds the last spade and reveals until passing.",
    ]
    assert state["current"] == 2 and state["phase"] == "turn"


def test_pass_without_a_type_is_illegal_while_a_type_is_available() -> None:
    state = scenario(middle=[COINS])
    with refused("Name a treasure type to pass on, one of: coins"):
        GAME.apply(state, 0, "pass", inplace=True)


# ---------------------------------------------------------------------- rat alert


def test_a_second_rat_triggers_the_rat_alert() -> None:
    state = scenario(middle=[COINS_RAT, PEARLS], top=[RINGS_RAT])
    events = play(state, 0, "reveal")
    assert state["phase"] == "rat_alert" and state["alert"] == [COINS_RAT, RINGS_RAT]
    assert events[-1] == "Rat alert! {p0} must pass and may take one of the two rat cards."
    assert legal(state) == [f"take {COINS_RAT}", f"take {RINGS_RAT}", "take none"]
    assert labels(state)[f"take {RINGS_RAT}"] == ("Take rat card", "Rings + rat")
    for text, message in (("pass pearls", "cannot pass now"), ("end", "cannot end your turn now")):
        with refused(message):
            GAME.apply(state, 0, text, inplace=True)


def test_a_first_rat_does_not_trigger_the_alert() -> None:
    state = scenario(middle=[PEARLS], top=[RINGS_RAT])
    play(state, 0, "reveal")
    assert state["phase"] == "decide"


def test_a_rat_left_over_from_an_earlier_round_counts() -> None:
    state = scenario(middle=[SHELLS_RAT, COINS, CROWNS, GOBLETS], top=[PEARLS, RINGS_RAT])
    play(state, 0, "pass coins")
    play(state, 0, f"bury {CROWNS}")
    play(state, 1, "reveal")
    play(state, 1, "pass pearls")
    play(state, 1, f"bury {GOBLETS}")
    assert state["round"] == 2 and state["middle"] == [SHELLS_RAT], "the rat is left over"
    play(state, 0, "reveal")
    assert state["phase"] == "rat_alert" and state["alert"] == [SHELLS_RAT, RINGS_RAT]


def test_a_buried_rat_does_not_count_for_the_alert() -> None:
    state = scenario(3, middle=[SHELLS_RAT, PEARLS], buried={SHELLS_RAT: 2}, top=[RINGS_RAT])
    play(state, 0, "reveal")
    assert state["phase"] == "decide"
    assert legal(state) == ["end", "pass rings", "pass pearls"]


def test_rat_alert_takes_one_rat_card_and_leaves_the_other_face_up() -> None:
    state = scenario(middle=[COINS_RAT, PEARLS], top=[RINGS_RAT])
    play(state, 0, "reveal")
    events = play(state, 0, f"take {RINGS_RAT}")
    assert state["piles"][0] == [RINGS_RAT]
    assert state["middle"] == [COINS_RAT, PEARLS] and state["buried"] == [None, None]
    assert events == ["{p0} took the Rings + rat card."]
    assert state["phase"] == "bury" and legal(state) == [f"bury {COINS_RAT}", f"bury {PEARLS}"]


def test_rat_alert_only_the_two_rat_cards_can_be_taken() -> None:
    state = scenario(middle=[COINS_RAT, PEARLS], top=[RINGS_RAT])
    play(state, 0, "reveal")
    with refused(f"Card {PEARLS} is not one of the two rat cards"):
        GAME.apply(state, 0, f"take {PEARLS}", inplace=True)


def test_rules_example_willi_rat_alert_picks_the_rings_rat() -> None:
    """Willi uncovers a second rat: rat alert! From the two rat cards he chooses the one with the rings."""
    willi = 1
    state = scenario(middle=[SHELLS_RAT, COINS], top=[RINGS_RAT], current=willi)
    play(state, willi, "reveal")
    assert state["phase"] == "rat_alert"
    play(state, willi, f"take {RINGS_RAT}")
    assert state["piles"][willi] == [RINGS_RAT]
    assert SHELLS_RAT in state["middle"], "the other rat card stays face up"
    # Willi puts his spade on a face-up card; nobody may take it, and a buried rat raises no alarm.
    play(state, willi, f"bury {SHELLS_RAT}")
    assert state["buried"][state["middle"].index(SHELLS_RAT)] == willi
    assert state["current"] == 0 and GAME.last_spade(state)


def test_rules_example_anna_passes_on_coins() -> None:
    """Anna reveals a treasure card. She then chooses all the treasure cards with coins and passes."""
    anna = 0
    state = scenario(middle=[COINS, PEARLS, RINGS_COINS], top=[COINS_PEARLS])
    play(state, anna, "reveal")
    play(state, anna, "pass coins")
    assert state["piles"][anna] == [COINS, RINGS_COINS, COINS_PEARLS]
    assert state["middle"] == [PEARLS]


def test_rat_alert_taking_a_rat_card_is_optional() -> None:
    """The seed says "you *may* take one of the two rat cards": declining is legal."""
    state = scenario(middle=[COINS_RAT, PEARLS], top=[RINGS_RAT])
    play(state, 0, "reveal")
    assert legal(state)[-1] == "take none"
    assert labels(state)["take none"] == ("Take no rat card",)
    events = play(state, 0, "take none")
    assert events == ["{p0} took no rat card."]
    assert state["piles"][0] == [] and state["alert"] == []
    assert state["middle"] == [COINS_RAT, PEARLS, RINGS_RAT] and state["buried"] == [None] * 3
    assert state["phase"] == "bury" and legal(state) == [f"bury {COINS_RAT}", f"bury {PEARLS}", f"bury {RINGS_RAT}"]
    with refused("There is no rat alert"):
        GAME.apply(state, 0, "take none", inplace=True)


def test_declined_rats_stay_face_up_and_a_further_rat_raises_the_alert_again() -> None:
    state = scenario(middle=[COINS_RAT, PEARLS], top=[RINGS_RAT, CROWNS, SHELLS_RAT])
    play(state, 0, "reveal")
    play(state, 0, "take none")
    play(state, 0, f"bury {PEARLS}")  # both rat cards stay face up and unburied
    play(state, 1, "reveal")  # a plain card: no alert
    assert state["phase"] == "decide" and state["current"] == 1
    play(state, 1, "reveal")  # the last spade holder reveals a third rat
    assert state["phase"] == "rat_alert" and state["alert"] == [COINS_RAT, RINGS_RAT, SHELLS_RAT]
    assert legal(state) == [f"take {COINS_RAT}", f"take {RINGS_RAT}", f"take {SHELLS_RAT}", "take none"]
    play(state, 1, f"take {SHELLS_RAT}")
    assert state["piles"][1] == [SHELLS_RAT] and state["phase"] == "bury"


def test_the_ai_takes_a_rat_card_rather_than_none() -> None:
    state = scenario(middle=[COINS_RAT, PEARLS], top=[RINGS_RAT])
    play(state, 0, "reveal")
    choice = PiratzAI().choose(GAME, state, 0, random.Random(1))
    assert choice.verb == "take" and choice.args != ("none",)


# ---------------------------------------------------------------------- bury


def test_bury_places_the_spade_on_a_card_nobody_can_take() -> None:
    state = scenario(3, middle=[COINS, PEARLS_CROWNS, CROWNS])
    play(state, 0, "pass coins")
    assert labels(state)[f"bury {PEARLS_CROWNS}"] == ("Bury", "Pearls + Crowns")
    events = play(state, 0, f"bury {PEARLS_CROWNS}")
    assert events == ["{p0} buried the Pearls + Crowns card with their spade."]
    assert state["buried"] == [0, None] and state["spades"] == [False, True, True]
    assert state["current"] == 1 and state["phase"] == "turn"
    assert legal(state, 1) == ["reveal", "pass crowns"], "pearls only show on the buried card"
    play(state, 1, "pass crowns")
    assert state["piles"][1] == [CROWNS] and PEARLS_CROWNS in state["middle"]


def test_bury_must_name_a_face_up_unburied_card() -> None:
    state = scenario(3, middle=[COINS, PEARLS, CROWNS], buried={CROWNS: 2})
    play(state, 0, "pass coins")
    for bad in (CROWNS, COINS, RINGS, 99):
        with refused(f"Card {bad} is not a face-up unburied card"):
            GAME.apply(state, 0, f"bury {bad}", inplace=True)


def test_identical_cards_are_offered_once() -> None:
    shells_2 = card("shells", 1)
    state = scenario(middle=[COINS, SHELLS, shells_2], phase="bury")
    assert labels(state) == {f"bury {COINS}": ("Bury", "Coins"), f"bury {SHELLS}": ("Bury", "Shells")}
    before = clone(state)
    with refused(f"Card {shells_2} is identical to card {SHELLS}"):
        GAME.apply(state, 0, f"bury {shells_2}", inplace=True)
    assert state == before


def test_identical_rat_cards_in_an_alert_are_offered_once() -> None:
    pearls_rat_2 = card("pearls", 1, rat=True)
    state = scenario(middle=[PEARLS_RAT], top=[pearls_rat_2])
    play(state, 0, "reveal")
    assert state["alert"] == [PEARLS_RAT, pearls_rat_2]
    assert legal(state) == [f"take {PEARLS_RAT}", "take none"]
    play(state, 0, f"take {PEARLS_RAT}")
    assert state["middle"] == [pearls_rat_2]


def test_a_bury_choice_never_exceeds_25_options() -> None:
    every_face = [c.id for c in CARDS if not c.rat and not c.skull] + [PEARLS_RAT]
    state = scenario(3, middle=every_face, phase="bury")
    assert len(legal(state)) == 18 <= 25


def test_spade_goes_to_the_middle_when_no_face_up_card_is_left() -> None:
    state = scenario(middle=[COINS, COINS_PEARLS])
    events = play(state, 0, "pass coins")
    assert "{p0} has no card to bury: the spade goes to the middle." in events
    assert state["spades_in_middle"] == [0] and state["spades"] == [False, True]
    assert state["current"] == 1 and state["phase"] == "turn"


# ---------------------------------------------------------------------- the last spade


def test_the_last_spade_holder_keeps_revealing_until_passing() -> None:
    state = scenario(middle=[PEARLS], top=[COINS, RINGS, SHELLS])
    events = play(state, 0, "pass pearls")
    assert events[-1] == "{p1} holds the last spade and reveals until passing."
    assert state["current"] == 1 and legal(state) == ["reveal", "pass"]
    for expected in (COINS, RINGS, SHELLS):
        play(state, 1, "reveal")
        assert state["middle"][-1] == expected and state["phase"] == "decide" and state["current"] == 1
        assert "end" not in legal(state) and legal(state)[0] == "reveal"
    assert state["revealed"] == 3
    with refused("You hold the last spade: keep revealing or pass"):
        GAME.apply(state, 1, "end", inplace=True)
    play(state, 1, "pass rings")
    assert state["piles"][1] == [RINGS]


def test_the_last_spade_holder_may_pass_at_the_start_of_the_turn() -> None:
    state = scenario(middle=[PEARLS, COINS, CROWNS], buried={CROWNS: 0}, current=1)
    assert "pass coins" in legal(state)
    play(state, 1, "pass coins")
    assert state["piles"][1] == [COINS]


def test_the_last_spade_holder_stops_at_a_rat_alert() -> None:
    state = scenario(middle=[PEARLS_RAT, CROWNS], buried={CROWNS: 0}, current=1, top=[COINS, SHELLS_RAT])
    play(state, 1, "reveal")
    play(state, 1, "reveal")
    assert state["phase"] == "rat_alert"
    assert legal(state) == [f"take {PEARLS_RAT}", f"take {SHELLS_RAT}", "take none"]


# ---------------------------------------------------------------------- end of a round


def test_round_end_discards_buried_cards_and_starts_left_of_the_last_mover() -> None:
    state = scenario(
        3,
        middle=[COINS, PEARLS, CROWNS, RINGS, SHELLS],
        buried={COINS: 0, PEARLS: 2},
        current=1,
    )
    discard_before = len(state["discard"])
    play(state, 1, "pass crowns")
    events = play(state, 1, f"bury {RINGS}")
    assert events[-1] == "Round 2 begins with {p2}."
    assert state["round"] == 2 and state["current"] == 2 and state["phase"] == "turn"
    assert sorted(state["discard"][discard_before:]) == sorted([COINS, PEARLS, RINGS])
    assert state["middle"] == [SHELLS] and state["buried"] == [None], "unburied cards stay face up"
    assert state["spades"] == [True, True, True] and state["spades_in_middle"] == []


def test_round_end_next_player_wraps_around_and_spades_in_the_middle_return() -> None:
    state = scenario(3, middle=[COINS], spades_in_middle=[0, 1], current=2)
    play(state, 2, "pass coins")
    assert state["round"] == 2 and state["current"] == 0
    assert state["spades"] == [True, True, True] and state["spades_in_middle"] == []


# ---------------------------------------------------------------------- end of the game


def test_game_ends_when_a_round_ends_with_the_draw_pile_empty() -> None:
    state = scenario(middle=[COINS, PEARLS], buried={PEARLS: 1}, rest="discard", current=0)
    assert state["draw"] == [] and state["discard"]
    events = play(state, 0, "pass coins")
    assert state["phase"] == "over" and GAME.to_act(state) == ()
    assert events[-1].startswith("Game over! ")
    assert GAME.outcome(state) is not None and state["scoring"] is not None
    assert GAME.legal_actions(state, 0) == []
    with refused("This game is over"):
        GAME.apply(state, 0, "reveal")


def test_emptying_the_draw_pile_mid_round_does_not_end_the_round() -> None:
    state = scenario(middle=[PEARLS], buried={PEARLS: 1}, top=[COINS], rest=0)
    play(state, 0, "reveal")
    assert state["draw"] == [] and state["phase"] == "decide" and not state["last_round"]
    play(state, 0, "pass coins")
    assert state["phase"] == "over"


def test_empty_draw_pile_reshuffles_the_discard_pile_for_the_last_round() -> None:
    discard = [COINS, PEARLS, RINGS, SHELLS, CROWNS]
    state = scenario(middle=[GOBLETS], discard=discard, rest=1)
    events = play(state, 0, "reveal")
    assert state["last_round"] and state["discard"] == []
    assert sorted(state["draw"] + state["middle"][1:]) == sorted(discard)
    assert state["middle"][1] in discard and len(state["draw"]) == 4
    assert events[0] == (
        "The draw pile ran out: 5 discarded cards shuffled into a new draw pile. This is the last round!"
    )
    assert GAME.view(state, 0)["last_round"] is True
    # The round goes on; when it ends, the game is over although the draw pile is not empty.
    play(state, 0, "end")
    assert state["phase"] == "turn" and state["current"] == 1
    play(state, 1, "reveal")
    play(state, 1, "pass goblets")
    if state["phase"] == "bury":
        play(state, 1, f"bury {state['middle'][0]}")
    assert state["phase"] == "turn" and state["current"] == 0
    while state["phase"] != "over":
        seat = state["current"]
        play(state, seat, legal(state)[-1])
    assert state["draw"], "cards were left in the new draw pile"


def test_reshuffle_is_deterministic_from_the_seed() -> None:
    discard = [COINS, PEARLS, RINGS, SHELLS, CROWNS, GOBLETS]
    a = scenario(discard=discard, rest=1)
    b = clone(a)
    play(a, 0, "reveal")
    play(b, 0, "reveal")
    assert a == b
    orders = set()
    for seed in range(12):
        c = scenario(discard=discard, rest=1)
        c["seed"] = str(seed)
        play(c, 0, "reveal")
        orders.add(tuple(c["draw"] + c["middle"]))
    assert len(orders) > 1, "the discard pile is really shuffled"


def test_reveal_is_illegal_when_both_piles_are_empty() -> None:
    state = scenario(middle=[COINS], rest=1)
    assert state["draw"] == [] and state["discard"] == []
    assert legal(state) == ["pass coins"]
    with refused("draw pile and the discard pile are both empty"):
        GAME.apply(state, 0, "reveal", inplace=True)
    # With nothing face up either, a player can only pass and take nothing.
    state = scenario(rest=1)
    assert legal(state) == ["pass"]
    play(state, 0, "pass")
    assert legal(state) == ["pass"] and state["current"] == 1
    play(state, 1, "pass")
    assert state["phase"] == "over"


# ---------------------------------------------------------------------- scoring


def pile(*faces: str, rats: int = 0) -> list[int]:
    """A pile with one card per face ("coins", "rings+coins", ...) plus ``rats`` goblets rat cards."""
    used: Counter[str] = Counter()
    out = []
    for face in faces:
        out.append(card(face, used[face]))
        used[face] += 1
    return out + cards_of("goblets", rat=True)[:rats]


def cubes_with(**values: list[int]) -> list[list[int]]:
    return [values.get(t, [1]) for t in TYPES]


def awards(result: dict, t: str) -> list[tuple[int, int]]:
    entry = result["types"][TYPES.index(t)]
    return [(a["seat"], a["value"]) for a in entry["awards"]]


def test_scoring_most_symbols_takes_the_highest_cube_and_second_takes_the_other() -> None:
    piles = [pile("coins", "coins", "rings+coins"), pile("coins", "coins"), pile("coins")]
    result = score(piles, cubes_with(coins=[3, 1]))
    assert result["types"][1]["counts"] == [3, 2, 1]
    assert awards(result, "coins") == [(0, 3), (1, 1)]


def test_scoring_two_players_single_cube() -> None:
    piles = [pile("coins", "coins"), pile("coins", "pearls")]
    result = score(piles, cubes_with(coins=[2], pearls=[3]))
    assert awards(result, "coins") == [(0, 2)]
    assert awards(result, "pearls") == [(1, 3)]
    assert result["totals"] == [2, 3]


def test_scoring_zero_symbols_win_nothing() -> None:
    piles = [pile("rings"), pile("coins"), pile("coins")]
    result = score(piles, cubes_with(rings=[3, 2]))
    assert awards(result, "rings") == [(0, 3)], "nobody else has rings: the second cube stays"
    assert awards(result, "crowns") == [] and localize(result["types"][3]["note"]) == "Nobody has Crowns."


def test_scoring_tie_goes_to_more_rats_counting_all_rat_cards() -> None:
    # Seat 1's rats are on goblets cards, not on coins: they still break the coins tie.
    piles = [pile("coins", "coins"), pile("coins", "coins", rats=1)]
    result = score(piles, cubes_with(coins=[3]))
    assert awards(result, "coins") == [(1, 3)]
    assert localize(result["types"][1]["note"]) == "{p1} wins the tie with {p0} on more rats."


def test_scoring_then_fewer_treasure_cards_wins_the_tie() -> None:
    piles = [pile("coins", "coins", "pearls"), pile("coins", "rings+coins")]
    result = score(piles, cubes_with(coins=[3]))
    assert awards(result, "coins") == [(1, 3)]
    assert localize(result["types"][1]["note"]) == "{p1} wins the tie with {p0} on fewer cards."


def test_scoring_rats_beat_fewer_cards() -> None:
    piles = [pile("coins", "coins", "pearls", rats=1), pile("coins", "coins")]
    result = score(piles, cubes_with(coins=[3]))
    assert awards(result, "coins") == [(0, 3)]


def test_scoring_unbroken_tie_for_first_gives_no_cube_of_that_type() -> None:
    piles = [pile("coins", "coins"), pile("coins", "coins"), pile("coins")]
    result = score(piles, cubes_with(coins=[3, 2]))
    assert awards(result, "coins") == [], "seat 2 does not get the second cube either"
    assert localize(result["types"][1]["note"]) == "{p0} and {p1} are still tied: 2 cubes not given."


def test_scoring_unbroken_tie_for_second_gives_only_the_first_cube() -> None:
    piles = [pile("coins", "coins", "coins"), pile("coins"), pile("coins")]
    result = score(piles, cubes_with(coins=[3, 2]))
    assert awards(result, "coins") == [(0, 3)]
    assert localize(result["types"][1]["note"]) == "{p1} and {p2} are still tied: 1 cube not given."


def test_scoring_tie_break_decides_second_place() -> None:
    piles = [pile("coins", "coins", "coins"), pile("coins", "pearls"), pile("coins")]
    result = score(piles, cubes_with(coins=[2, 1]))
    assert awards(result, "coins") == [(0, 2), (2, 1)]


def test_scoring_totals_and_shared_victory() -> None:
    piles = [pile("coins"), pile("pearls")]
    result = score(piles, cubes_with(coins=[2], pearls=[2]))
    assert result["totals"] == [2, 2] and result["winners"] == [0, 1]


def test_game_end_scores_removes_awarded_cubes_and_reports_the_outcome() -> None:
    cubes = [[3, 1], [2, 1], [3, 2], [3, 1], [2, 2], [3, 1]]
    piles = {0: [card("rings", 0), card("rings", 1)], 1: [card("rings", 2), COINS], 2: [PEARLS]}
    state = scenario(3, piles=piles, middle=[SHELLS], spades_in_middle=[1, 2], rest="discard", cubes=cubes)
    play(state, 0, "pass shells")
    assert state["phase"] == "over"
    scoring = state["scoring"]
    assert awards(scoring, "rings") == [(0, 3), (1, 1)]
    assert awards(scoring, "coins") == [(1, 2)]
    assert awards(scoring, "pearls") == [(2, 3)]
    assert awards(scoring, "shells") == [(0, 3)]
    assert scoring["totals"] == [6, 3, 3] and scoring["winners"] == [0]
    assert state["cubes"] == [[], [1], [2], [3, 1], [2, 2], [1]]
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.winners == (0,) and outcome.scores == (6, 3, 3)
    assert localize(outcome.summary) == "{p0} wins with 6 points."
    view = GAME.view(state, None)
    assert view["scoring"] == scoring and view["cubes"]["rings"] == []
    assert localize(GAME.summary(view)) == "Round 1 · 0 cards in the draw pile · Game over: {p0} wins with 6 points."


def test_tied_top_scores_share_the_victory() -> None:
    cubes = [[3], [3], [1], [1], [1], [1]]
    state = scenario(piles={0: pile("rings"), 1: pile("coins")}, middle=[], rest="discard", cubes=cubes)
    play(state, 0, "pass")
    play(state, 1, "pass")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (0, 1) and outcome.scores == (3, 3)
    assert localize(outcome.summary) == "{p0} and {p1} share the victory with 3 points."


# ---------------------------------------------------------------------- views and texts


VIEW_KEYS = {
    "game",
    "viewer",
    "seats",
    "blind",
    "round",
    "last_round",
    "draw_count",
    "discard_count",
    "middle",
    "spades_in_middle",
    "cubes",
    "players",
    "phase",
    "to_act",
    "revealed_this_turn",
    "cubes_per_type",
    "rats_in_middle",
    "rat_alert_at",
    "alert",
    "last_spade",
    "events",
    "scoring",
}
"""The keys of every Piratz view, a seat's or a spectator's (the random-play suite checks them too)."""


def test_view_schema_and_public_information() -> None:
    state = scenario(3, middle=[COINS, PEARLS], buried={PEARLS: 2}, piles={1: [RINGS_RAT, CROWNS]})
    view = GAME.view(state, 1)
    assert set(view) == VIEW_KEYS
    assert (view["cubes_per_type"], view["rats_in_middle"], view["rat_alert_at"], view["alert"]) == (2, 0, 2, [])
    assert view["middle"] == [
        {"id": COINS, "symbols": ["coins"], "rat": False, "skull": False, "buried_by": None},
        {"id": PEARLS, "symbols": ["pearls"], "rat": False, "skull": False, "buried_by": 2},
    ]
    assert list(view["cubes"]) == list(TYPES)
    assert view["players"][2]["spade"] == "placed" and view["players"][0]["spade"] == "held"
    assert view["players"][1]["pile"] == [
        {"id": RINGS_RAT, "symbols": ["rings"], "rat": True, "skull": False},
        {"id": CROWNS, "symbols": ["crowns"], "rat": False, "skull": False},
    ]
    assert view["players"][1]["symbols"] == {
        "rings": 1,
        "coins": 0,
        "pearls": 0,
        "crowns": 1,
        "goblets": 0,
        "shells": 0,
    }
    assert view["players"][1]["rats"] == 1 and view["players"][1]["pile_count"] == 2
    assert view["draw_count"] == len(state["draw"]) and "draw" not in view and "seed" not in view
    assert view["to_act"] == [0] and view["phase"] == "turn" and view["scoring"] is None
    text = json.dumps(GAME.view(state, None))
    assert "scenario" not in text, "the seed never appears"
    assert localize(GAME.seat_summary(view)) == "Your pile: 2 cards, 1 rat — Rings 1, Crowns 1."
    assert localize(GAME.seat_summary(GAME.view(state, None))) == "You are watching this game."


def test_view_is_a_copy() -> None:
    state = scenario(middle=[COINS], piles={0: [PEARLS]})
    before = clone(state)
    view = GAME.view(state, 0)
    view["middle"][0]["symbols"].append("x")
    view["players"][0]["pile"].clear()
    view["events"].clear()
    assert state == before


def test_blind_view_hides_every_pile_until_the_scoring() -> None:
    state = scenario(blind=True, middle=[COINS, COINS_PEARLS], piles={0: [RINGS], 1: [PEARLS]}, rest="discard")
    for viewer in (0, 1, None):
        view = GAME.view(state, viewer)
        for p in view["players"]:
            assert p["pile"] is None and p["symbols"] is None and p["rats"] is None
        assert [p["pile_count"] for p in view["players"]] == [1, 1]
        ids = {c["id"] for c in view["middle"]}
        assert RINGS not in ids and PEARLS not in ids
    assert localize(GAME.seat_summary(GAME.view(state, 0))) == "You hold 1 card, face down."
    events = play(state, 0, "pass coins")
    assert events[:2] == [
        "{p0} passed and took 2 cards.",
        "{p0} has no card to bury: the spade goes to the middle.",
    ]
    assert "Coins" not in localize(" ".join(GAME.view(state, 1)["events"]))
    play(state, 1, "pass")
    view = GAME.view(state, 1)
    assert view["phase"] == "over" and view["scoring"] is not None
    assert [len(p["pile"]) for p in view["players"]] == [3, 1], "piles are shown at the final scoring"


def test_blind_rat_alert_does_not_say_which_rat_was_taken() -> None:
    state = scenario(blind=True, middle=[COINS_RAT], top=[RINGS_RAT])
    play(state, 0, "reveal")
    assert play(state, 0, f"take {RINGS_RAT}") == ["{p0} took one of the two rat cards."]


def test_events_keep_the_last_six() -> None:
    state = scenario(3, top=[COINS, PEARLS, RINGS, CROWNS, SHELLS])
    for seat in (0, 1, 2, 0):
        play(state, seat, "reveal")
        play(state, seat, "end")
    view = GAME.view(state, None)
    assert len(view["events"]) == 6
    assert localize(view["events"][-1]) == "{p0} ended the turn."


def test_labels_summary_and_rules_text() -> None:
    state = scenario(middle=[COINS, COINS_PEARLS, PEARLS], top=[RINGS])
    assert labels(state) == {
        "reveal": ("Reveal",),
        "pass coins": ("Pass for the round", "Coins — take 2 cards"),
        "pass pearls": ("Pass for the round", "Pearls — take 2 cards"),
    }
    play(state, 0, "reveal")
    assert labels(state)["end"] == ("End turn",)
    assert labels(state)["pass rings"] == ("Pass for the round", "Rings — take 1 card")
    assert localize(GAME.summary(GAME.view(state, 1))) == (
        f"Round 1 · {len(state['draw'])} cards in the draw pile · {{p0}} to act (pass or end the turn)"
    )
    with refused("not a legal move"):
        GAME.describe(state, 0, Action("reveal"))
    rules = localize(GAME.rules_text())
    assert len(rules) < 3500 and "Rat alert" in rules and "last round" in rules


def test_summary_names_the_phase() -> None:
    state = scenario(middle=[PEARLS, CROWNS], top=[COINS], last_round=True)
    view = GAME.view(state, None)
    assert localize(GAME.summary(view)).startswith("Round 1 · last round · ")
    play(state, 0, "pass pearls")
    assert localize(GAME.summary(GAME.view(state, None))).endswith("{p0} to act (bury a card)")
    play(state, 0, f"bury {CROWNS}")
    assert localize(GAME.summary(GAME.view(state, None))).endswith("{p1} to act (reveal or pass)")


# ---------------------------------------------------------------------- illegal actions


ILLEGAL = [
    # (scenario kwargs, seat, action, message)
    ({}, 1, "reveal", "It is not your turn."),
    (
        {},
        0,
        "dance",
        "`dance` is not a Piratz move. Moves: `reveal`, `end`, `pass <type>`, `take <card|none>`, `bury <card>`.",
    ),
    ({}, 0, "reveal now", "`reveal` takes no arguments."),
    ({"phase": "decide", "revealed": 1}, 0, "end now", "`end` takes no arguments."),
    ({}, 0, "pass coins pearls", "`pass` takes one treasure type, for example `pass coins`."),
    ({}, 0, "pass 3", "`3` is not a treasure type."),
    ({}, 0, "take 3", "There is no rat alert: you cannot take a single card. Reveal a card or pass."),
    ({}, 0, "bury 3", "You cannot bury a card now. Reveal a card or pass."),
    ({"phase": "bury"}, 0, "bury", "`bury` needs one card number, for example `bury 12`."),
    ({"phase": "bury"}, 0, "bury coins", "`bury` needs one card number, for example `bury 12`."),
    ({"phase": "bury"}, 0, "bury 1 2", "`bury` needs one card number, for example `bury 12`."),
    ({"phase": "bury"}, 0, "bury -1", "`bury` needs one card number, for example `bury 12`."),
    ({"phase": "bury"}, 0, "bury 123456", "Card 123456 is not a face-up unburied card in the middle."),
    ({"phase": "bury"}, 0, "reveal", "You cannot reveal now. Bury a face-up card with your spade first"),
    ({"phase": "bury"}, 0, "pass coins", "You cannot pass now. Bury a face-up card"),
    ({"phase": "bury"}, 0, "end", "You cannot end your turn now. Bury a face-up card"),
]


@pytest.mark.parametrize(("kwargs", "seat", "text", "message"), ILLEGAL)
def test_illegal_actions_raise_a_specific_message_and_change_nothing(
    kwargs: dict, seat: int, text: str, message: str
) -> None:
    state = scenario(middle=[COINS_RAT, PEARLS], **kwargs)
    before = clone(state)
    with pytest.raises(IllegalAction) as info:
        GAME.apply(state, seat, text, inplace=True)
    assert localize(str(info.value)).startswith(message)
    assert state == before


def test_illegal_take_during_rat_alert_changes_nothing() -> None:
    state = scenario(middle=[COINS_RAT, PEARLS], top=[RINGS_RAT])
    play(state, 0, "reveal")
    before = clone(state)
    for text, message in (
        ("take", "`take` needs one card number"),
        (f"take {PEARLS}", "is not one of the two rat cards"),
        ("reveal", "You cannot reveal now. Rat alert"),
        (f"bury {PEARLS}", "You cannot bury a card now. Rat alert"),
    ):
        with refused(message):
            GAME.apply(state, 0, text, inplace=True)
        assert state == before


def test_every_legal_action_round_trips_through_its_text() -> None:
    states = [
        scenario(middle=[COINS, COINS_PEARLS, RINGS_COINS]),
        scenario(middle=[COINS], top=[RINGS], phase="turn"),
        scenario(middle=[COINS, PEARLS], phase="bury"),
        scenario(middle=[COINS], phase="decide", revealed=1),
        scenario(rest=1),
    ]
    alert = scenario(middle=[COINS_RAT], top=[RINGS_RAT])
    play(alert, 0, "reveal")
    states.append(alert)
    seen = set()
    for state in states:
        for action in GAME.legal_actions(state, state["current"]):
            text = action.encode()
            assert Action.decode(text) == action and len(text) <= 60
            seen.add(action.verb)
            path = GAME.describe(state, state["current"], action)
            assert path and all(len(localize(label, lang)) <= 80 for label in path for lang in ("en", "de"))
            assert GAME.apply(state, state["current"], text).state["step"] == state["step"] + 1
    assert seen == {"reveal", "end", "pass", "take", "bury"}


def test_check_invariants_catches_broken_states() -> None:
    state = scenario(middle=[COINS])
    broken = clone(state)
    broken["draw"].append(COINS)
    assert "cards are not all accounted for exactly once" in GAME.check_invariants(broken)
    broken = clone(state)
    broken["cubes"][0] = [3, 3]
    assert "cube values are not conserved" in GAME.check_invariants(broken)
    broken = clone(state)
    broken["spades"][1] = False
    assert "spade of seat 1 is inconsistent" in GAME.check_invariants(broken)
    broken = clone(state)
    broken["phase"] = "decide"
    assert "revealed count does not match the phase" in GAME.check_invariants(broken)


# ---------------------------------------------------------------------- languages


def test_events_labels_and_refusals_are_written_out_in_german() -> None:
    """Every text is a marked message: written out in German with the German terms (aussteigen, verbuddeln,
    Durchgang) and the right plural, while the moves players type stay English."""
    state = scenario(3, middle=[COINS, COINS_PEARLS, PEARLS], top=[RINGS])
    choices = {c.action.encode(): c.path for c in GAME.choices(state, 0)}
    assert [localize(label, "de") for label in choices["pass coins"]] == ["Aussteigen", "Münzen — 2 Karten nehmen"]
    assert localize(choices["reveal"][0], "de") == "Aufdecken"
    events = GAME.apply(state, 0, "reveal", inplace=True).events
    assert localize(events[0].text, "de") == "{p0} deckt eine Schatzkarte auf: Ringe."
    assert [localize(label, "de") for label in GAME.describe(state, 0, Action("pass", ("rings",)))] == [
        "Aussteigen",
        "Ringe — 1 Karte nehmen",
    ]
    events = GAME.apply(state, 0, "pass coins", inplace=True).events
    assert localize(events[0].text, "de") == "{p0} steigt mit Münzen aus und nimmt 2 Karten."
    with pytest.raises(IllegalAction) as refused_reveal:
        GAME.apply(state, 0, "reveal")
    assert localize(str(refused_reveal.value), "de") == (
        "Du kannst jetzt nicht aufdecken. Verbuddle zuerst eine offene Karte mit deinem Spaten (`bury <Karte>`)."
    )
    events = GAME.apply(state, 0, f"bury {PEARLS}", inplace=True).events
    assert localize(events[0].text, "de") == "{p0} verbuddelt die Karte Perlen mit dem Spaten."
    assert localize(GAME.summary(GAME.view(state, None)), "de") == (
        f"Durchgang 1 · {len(state['draw'])} Karten im Nachziehstapel · {{p1}} ist am Zug (aufdecken oder aussteigen)"
    )
    assert (
        localize(GAME.seat_summary(GAME.view(state, 0)), "de")
        == "Dein Stapel: 2 Karten, 0 Ratten — Münzen 2, Perlen 1."
    )


def test_german_rat_alert_and_scoring_use_the_singular_and_the_plural() -> None:
    state = scenario(blind=True, middle=[COINS_RAT, PEARLS], top=[RINGS_RAT])
    events = [localize(e.text, "de") for e in GAME.apply(state, 0, "reveal", inplace=True).events]
    assert events[-1] == "Rattenalarm! {p0} muss aussteigen und darf eine der beiden Rattenkarten nehmen."
    assert localize(GAME.choices(state, 0)[-1].path[0], "de") == "Keine Rattenkarte nehmen"
    assert localize(GAME.seat_summary(GAME.view(state, 0)), "de") == "Du hast 0 verdeckte Karten."
    GAME.apply(state, 0, f"take {RINGS_RAT}", inplace=True)
    assert localize(GAME.seat_summary(GAME.view(state, 0)), "de") == "Du hast 1 verdeckte Karte."
    piles = [pile("coins", "coins"), pile("coins", "coins"), pile("coins")]
    result = score(piles, cubes_with(coins=[3, 2]))
    assert (
        localize(result["types"][1]["note"], "de")
        == "{p0} und {p1} bleiben gleichauf: 2 Wertklötzchen werden nicht vergeben."
    )
    result = score([pile("coins", "coins", "coins"), pile("coins"), pile("coins")], cubes_with(coins=[3, 2]))
    assert (
        localize(result["types"][1]["note"], "de")
        == "{p1} und {p2} bleiben gleichauf: 1 Wertklötzchen wird nicht vergeben."
    )
    assert localize(score([pile("coins")], cubes_with())["types"][3]["note"], "de") == "Niemand hat Kronen."


def test_typed_english_moves_work_whatever_the_language() -> None:
    """The moves are English text in every language: a German player types `pass coins`, `bury 12`."""
    state = scenario(middle=[COINS, PEARLS], top=[RINGS])
    for text in ("reveal", "pass coins", f"bury {PEARLS}"):
        GAME.apply(state, state["current"], text, inplace=True)
    assert state["piles"][0] == [COINS] and state["middle"] == [PEARLS, RINGS]
    assert state["buried"][state["middle"].index(PEARLS)] == 0 and state["current"] == 1
    with refused("`münzen` is not a treasure type"):
        GAME.apply(state, 1, "pass Münzen")
    with pytest.raises(IllegalAction) as info:
        GAME.apply(state, 1, "aufdecken")
    assert localize(str(info.value), "de").startswith(
        "`aufdecken` ist kein Piratz-Zug. Züge: `reveal`, `end`, `pass <Schatz>`"
    )


def test_the_german_rules_say_the_same_in_the_printed_game_s_words() -> None:
    rules = localize(GAME.rules_text(), "de")
    assert len(rules) < 4000 and rules != localize(GAME.rules_text())
    for word in ("Rattenalarm", "aussteigen", "verbuddeln", "Wertklötzchen", "Durchgang", "Nachziehstapel", "Ablage"):
        assert word in rules, word
    assert "`take none`" in rules and "`bury <Karte>`" in rules
