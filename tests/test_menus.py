"""Menu logic: board buttons from first labels, pickers that walk the rest of each label path."""

from __future__ import annotations

import itertools
import random

import pytest

from games.core import Action, Choice, clone
from games.i18n import localize
from games.piratz import CARDS, Piratz, PiratzAI
from tables.menus import MAX_LABEL, Entry, Menu, button_label, clip, path_to, tag, top_labels, walk

_ids = itertools.count()


def ch(*path: str) -> Choice:
    """A synthetic choice with a unique action."""
    return Choice(Action("move", (str(next(_ids)),)), tuple(path))


def tops(choices: list[Choice]) -> list[str]:
    return top_labels([choices])


def roundtrip(choices: list[Choice]) -> list[tuple[int, ...]]:
    """Check every choice is reached by its clicks, and every menu on the way is well formed. Returns
    each choice's clicks as (index of its board button, picks below it...)."""
    top = tops(choices)
    paths = []
    for target in choices:
        first, path = path_to(choices, target)
        assert first == tag(target.path[0])
        assert walk(choices, first, path) == target
        for cut in range(len(path)):
            menu = walk(choices, first, path[:cut])
            assert isinstance(menu, Menu), (target, path, cut)
            assert menu.tag == first and menu.path == path[:cut]
            assert menu.trail == target.path[: len(menu.trail)]
            assert [o.index for o in menu.entries] == list(range(len(menu.entries)))
            assert len(menu.entries) >= 2  # a one-option question is never asked
            picked = menu.entries[path[cut]]
            assert picked.leaf in (None, target)
        paths.append((top.index(target.path[0]), *path))
    assert len(set(paths)) == len(choices)  # different choices, different paths
    return paths


def go(choices: list[Choice], label: str, *path: int) -> Choice | Menu | None:
    """Click the board button ``label``, then pick ``path``."""
    return walk(choices, tag(label), path)


def labels_of(choices: list[Choice]) -> list[str]:
    return [button_label(label, choices) for label in tops(choices)]


# ---------------------------------------------------------------------------------------------- labels


def test_clip():
    assert MAX_LABEL == 80
    assert clip("short") == "short"
    assert clip("x" * 80) == "x" * 80
    long = "".join(chr(ord("a") + i % 26) for i in range(81))
    clipped = clip(long)
    assert len(clipped) == 80
    assert clipped == long[:79] + "…"
    assert len(clip("y" * 500)) == 80
    assert clip("abcdef", 4) == "abc…"
    assert clip("abcd", 4) == "abcd"


def test_top_labels_dedup_in_first_appearance_order():
    seat0 = [ch("Reveal"), ch("Pass", "Coins"), ch("Pass", "Gems")]
    seat1 = [ch("Bury", "Card 1"), ch("Pass", "Maps"), ch("Reveal")]
    seat2 = [ch("End turn"), ch("Bury", "Card 2")]
    assert top_labels([seat0, seat1, seat2]) == ["Reveal", "Pass", "Bury", "End turn"]
    assert top_labels([seat2, seat0]) == ["End turn", "Bury", "Reveal", "Pass"]
    assert top_labels([]) == []
    assert top_labels([[], seat1]) == ["Bury", "Pass", "Reveal"]


def test_single_choice_groups_are_leaves():
    reveal, end, coins = ch("Reveal"), ch("End turn"), ch("Pass", "Coins — take 3 cards")
    choices = [reveal, end, coins]
    assert tops(choices) == ["Reveal", "End turn", "Pass"]
    assert labels_of(choices) == [
        "Reveal",
        "End turn",
        "Pass → Coins — take 3 cards",  # the whole label: one click completes the action
    ]
    assert go(choices, "Reveal") == reveal
    assert go(choices, "End turn") == end
    assert go(choices, "Pass") == coins
    assert roundtrip(choices) == [(0,), (1,), (2,)]


def test_group_of_several_opens_a_menu():
    reveal = ch("Reveal")
    coins, gems, maps = ch("Pass", "Coins"), ch("Pass", "Gems"), ch("Pass", "Maps")
    choices = [reveal, coins, gems, maps]
    assert button_label("Pass", choices) == "Pass …"
    menu = go(choices, "Pass")
    assert menu == Menu(
        trail=("Pass",),
        tag=tag("Pass"),
        path=(),
        entries=(Entry("Coins", 0, coins), Entry("Gems", 1, gems), Entry("Maps", 2, maps)),
    )
    assert go(choices, "Pass", 0) == coins
    assert go(choices, "Pass", 2) == maps
    assert roundtrip(choices) == [(0,), (1, 0), (1, 1), (1, 2)]


def test_a_button_is_named_by_its_label_not_its_place():
    # Another seat's decision removed the button before "Pass": the click still means "Pass".
    bury, coins, gems = ch("Bury", "1"), ch("Pass", "Coins"), ch("Pass", "Gems")
    before = [bury, coins, gems]
    after = [coins, gems]
    assert tops(before).index("Pass") != tops(after).index("Pass")
    first, path = path_to(before, gems)
    assert walk(after, first, path) == gems


def test_secret_choices_show_only_their_first_label_on_the_board():
    secret = [
        Choice(Action("play", (str(i),)), ("Choose your card", f"Ace of {suit}"), True)
        for i, suit in enumerate(("spades", "hearts"))
    ]
    assert button_label("Choose your card", secret) == "Choose your card …"
    menu = go(secret, "Choose your card")
    assert [e.label for e in menu.entries] == ["Ace of spades", "Ace of hearts"]
    # a single secret choice is still confirmed in the chooser's own picker, never played from the board
    one = secret[:1]
    assert button_label("Choose your card", one) == "Choose your card …"
    menu = go(one, "Choose your card")
    assert isinstance(menu, Menu) and [e.label for e in menu.entries] == ["Ace of spades"]
    assert go(one, "Choose your card", 0) == one[0]
    assert go(one, "Choose your card", 1) is None
    assert path_to(one, one[0]) == (tag("Choose your card"), (0,))


def test_three_levels():
    g1, g2 = ch("Bury", "Gold", "card 1"), ch("Bury", "Gold", "card 2")
    s3 = ch("Bury", "Silver", "card 3")
    choices = [g1, g2, s3]
    assert button_label("Bury", choices) == "Bury …"
    menu = go(choices, "Bury")
    assert menu.trail == ("Bury",)
    # a group of several ends with "…"; a single choice shows the rest of its path and completes it
    assert menu.entries == (Entry("Gold …", 0, None), Entry("Silver → card 3", 1, s3))
    sub = go(choices, "Bury", 0)
    assert sub == Menu(("Bury", "Gold"), tag("Bury"), (0,), (Entry("card 1", 0, g1), Entry("card 2", 1, g2)))
    assert go(choices, "Bury", 0, 1) == g2
    assert go(choices, "Bury", 1) == s3
    assert roundtrip(choices) == [(0, 0, 0), (0, 0, 1), (0, 1)]


def test_level_shared_by_all_candidates_is_skipped():
    a, b = ch("Take", "Rat card", "Pegleg"), ch("Take", "Rat card", "Hook")
    choices = [a, b]
    menu = go(choices, "Take")
    assert menu.trail == ("Take", "Rat card")
    assert [o.label for o in menu.entries] == ["Pegleg", "Hook"]
    assert go(choices, "Take", 1) == b
    # several shared levels in a row, then a split
    deep = [ch("X", "Y", "Z", "a"), ch("X", "Y", "Z", "b"), ch("X", "Y", "W")]
    menu = go(deep, "X")
    assert menu.trail == ("X", "Y")
    assert [o.label for o in menu.entries] == ["Z …", "W"]
    sub = go(deep, "X", 0)
    assert sub.trail == ("X", "Y", "Z")
    assert [o.label for o in sub.entries] == ["a", "b"]
    assert roundtrip(deep) == [(0, 0, 0), (0, 0, 1), (0, 1)]


def test_walk_returns_none_for_bad_or_stale_paths():
    reveal = ch("Reveal")
    coins, gems = ch("Pass", "Coins"), ch("Pass", "Gems")
    g1, g2 = ch("Bury", "Gold", "1"), ch("Bury", "Gold", "2")
    choices = [reveal, coins, gems, g1, g2]
    assert walk(choices, "000000", ()) is None  # no such button
    assert go(choices, "Nothing") is None
    assert go(choices, "Pass", 2) is None  # only two options
    assert go(choices, "Pass", -1) is None
    assert go(choices, "Reveal", 0) is None  # a leaf has no further step
    assert go(choices, "Pass", 0, 0) is None
    assert go(choices, "Bury", 0, 0, 0) is None
    assert go(choices, "Bury", 1) == g2  # "Gold" is skipped: its two cards are offered directly
    assert go(choices, "Bury", 2) is None
    # the decision changed: the old buttons no longer match the new choices
    later = [ch("Take", "Rat card", "1"), ch("Take", "Rat card", "2")]
    assert go(later, "Reveal") is None
    assert go(later, "Pass", 0) is None
    fewer = [reveal, coins]
    assert go(fewer, "Pass", 1) is None  # "Pass" has a single choice now
    assert go(fewer, "Pass") == coins


def test_path_to_refuses_unreachable_targets():
    choices = [ch("Pass", "Coins"), ch("Pass", "Gems")]
    with pytest.raises(ValueError):
        path_to(choices, ch("Pass", "Maps"))
    with pytest.raises(ValueError):
        path_to(choices, ch("Reveal"))  # not a board button at all


def test_roundtrip_two_levels():
    choices = [ch("Reveal"), *(ch("Pass", t) for t in ("Coins", "Gems", "Maps", "Rum", "Nothing"))]
    paths = roundtrip(choices)
    assert paths[0] == (0,)
    assert paths[1:] == [(1, i) for i in range(5)]


def test_roundtrip_three_levels():
    choices = [ch(a, b, c) for a in ("Bury", "Take") for b in ("Gold", "Silver", "Rum") for c in ("1", "2")]
    paths = roundtrip(choices)
    assert all(len(p) == 3 for p in paths)


def test_roundtrip_sixty_options_at_one_level():
    choices = [ch("Bury", f"Card {i:02d}") for i in range(60)]
    menu = go(choices, "Bury")
    assert len(menu.entries) == 60
    assert [o.label for o in menu.entries] == [f"Card {i:02d}" for i in range(60)]
    assert roundtrip(choices) == [(0, i) for i in range(60)]


def test_roundtrip_mixed_depths():
    choices = [
        ch("Reveal"),
        ch("Pass", "Coins"),
        ch("Pass", "Gems"),
        ch("Move", "North"),
        ch("Move", "South", "fast"),
        ch("Move", "South", "slow"),
        ch("Move", "East", "Dock", "1"),
        ch("Move", "East", "Dock", "2"),
        ch("Move", "East", "Reef"),
        ch("Solo", "only", "choice", "here"),
        ch("Last"),
    ]
    top = tops(choices)
    assert button_label("Solo", choices) == "Solo → only → choice → here"
    paths = dict(zip(choices, roundtrip(choices), strict=True))
    assert paths[choices[0]] == (0,)
    assert paths[choices[9]] == (top.index("Solo"),)
    assert len(paths[choices[6]]) == 4


def test_roundtrip_when_one_path_is_a_prefix_of_another():
    choices = [ch("Dig"), ch("Dig", "deeper"), ch("Dig", "deeper", "still"), ch("Dig", "wide")]
    roundtrip(choices)


def test_menu_option_labels_are_never_empty():
    choices = [ch("Dig"), ch("Dig", "deeper"), ch("Dig", "wide")]
    menu = go(choices, "Dig")
    assert all(o.label for o in menu.entries)


def test_long_labels_are_clipped():
    long_a, long_b = "A" * 120, "B" * 95
    one = [ch("Pass", long_a)]
    assert len(button_label("Pass", one)) == MAX_LABEL
    assert button_label("Pass", one).endswith("…")
    many = [ch("G" * 100, long_a), ch("G" * 100, long_b)]
    assert button_label("G" * 100, many) == clip("G" * 100 + " …")
    menu = go(many, "G" * 100)
    assert [len(o.label) for o in menu.entries] == [MAX_LABEL, MAX_LABEL]
    assert roundtrip(many) == [(0, 0), (0, 1)]


def test_random_synthetic_trees():
    rng = random.Random(11)
    for _ in range(150):
        paths: set[tuple[str, ...]] = set()
        for _ in range(rng.randint(1, 40)):
            depth = rng.randint(1, 4)
            paths.add(tuple(rng.choice("abc") for _ in range(depth)))
        free = [p for p in paths if not any(q != p and q[: len(p)] == p for q in paths)]
        choices = [ch(*p) for p in free]
        rng.shuffle(choices)
        roundtrip(choices)


# ---------------------------------------------------------------------------------------------- Piratz


def piratz_states(count: int, seed: int = 5):
    """``count`` positions reached by random play (with some PiratzAI moves), across 2–4 seats."""
    game = Piratz()
    rng = random.Random(seed)
    ai = PiratzAI()
    states = []
    for g in itertools.count():
        state = game.new_game(2 + g % 3, {"blind": g % 2 == 1}, f"menus-{g}")
        while not game.is_over(state):
            (seat,) = game.to_act(state)
            # rat alerts and burials are rarer than plain turns: sample them more often
            if rng.random() < {"rat_alert": 1.0, "bury": 0.3}.get(state["phase"], 0.1):
                states.append((state, seat))
                if len(states) == count:
                    return states
            if rng.random() < 0.3:
                action = ai.choose(game, state, seat, rng)
            else:
                action = rng.choice(game.legal_actions(state, seat))
            state = game.apply(state, seat, action).state


def test_every_piratz_choice_is_reachable_through_the_menus():
    game = Piratz()
    states = piratz_states(200)
    assert len(states) == 200
    phases = set()
    for state, seat in states:
        phases.add(state["phase"])
        choices = game.choices(state, seat)
        assert choices
        for label in labels_of(choices):  # a marked label is cut once written out (cogs.components.view_of)
            assert 0 < len(clip(localize(label))) <= MAX_LABEL
        for target in choices:
            first, path = path_to(choices, target)
            assert walk(choices, first, path) == target
            for cut in range(len(path)):
                menu = walk(choices, first, path[:cut])
                assert all(0 < len(clip(localize(o.label))) <= MAX_LABEL for o in menu.entries)
        roundtrip(choices)
    assert phases == {"turn", "decide", "rat_alert", "bury"}  # every kind of decision was covered


def test_piratz_identical_faces_stay_reachable():
    # Random play rarely lays two identical cards face up; build such positions from a real one.
    game = Piratz()
    bury = next(s for s, _ in piratz_states(200) if s["phase"] == "bury")
    rings = [c.id for c in CARDS if c.label == "Rings"]
    pearls = [c.id for c in CARDS if c.label == "Pearls + rat"]
    assert len(rings) >= 2 and len(pearls) == 2
    others = [c for c in bury["middle"] if c not in rings + pearls][:2]
    for phase, middle, alert in (("bury", [*rings, *others], []), ("rat_alert", [*pearls, *others], pearls)):
        state = clone(bury)
        state.update(phase=phase, middle=middle, buried=[None] * len(middle), alert=alert)
        seat = state["current"]
        choices = game.choices(state, seat)
        labels = [c.label for c in choices]
        assert choices
        assert len(set(labels)) == len(labels), labels  # identical labels could not be told apart
        roundtrip(choices)
