"""Tournament draws and scores as pure functions: no repeat tables when avoidable, byes, odd counts,
drop-outs, ties, the circle method, placement points and the standings' tie-breaks."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import pytest

from tables.tournaments.pairing import (
    Player,
    round_robin,
    round_robin_rounds,
    shown,
    standings,
    swiss,
    swiss_rounds,
    table_points,
)


def play_swiss(n: int, rounds: int, table: int = 2, *, seed: str = "s", drop: dict[int, set[int]] | None = None):
    """A whole Swiss tournament where the best-ranked player at each table wins (by user id: lower wins);
    ``drop``: round -> players who left before it. Every draw, with the players' histories."""
    points = {u: Fraction(0) for u in range(1, n + 1)}
    met: dict[int, set[int]] = {u: set() for u in points}
    byes = dict.fromkeys(points, 0)
    gone: set[int] = set()
    draws = []
    for r in range(1, rounds + 1):
        gone |= (drop or {}).get(r, set())
        players = [
            Player(u, points[u], rating=0.0, met=frozenset(met[u]), byes=byes[u]) for u in points if u not in gone
        ]
        draw = swiss(players, table, seed, r)
        draws.append((draw, {u: frozenset(m) for u, m in met.items()}))
        for t in draw.tables:
            for a in t:
                met[a] |= set(t) - {a}
            points[min(t)] += 1
        for u in draw.byes:
            points[u] += 1
            byes[u] += 1
    return draws, points


def test_swiss_eight_players_three_rounds_never_repeat_a_table() -> None:
    draws, points = play_swiss(8, 3)
    for draw, met in draws:
        assert sorted(u for t in draw.tables for u in t) == list(range(1, 9))
        assert not draw.byes
        for t in draw.tables:
            assert t[1] not in met[t[0]], "a repeat table although one could be avoided"
    assert sorted(points.values(), reverse=True)[0] == 3
    assert list(points.values()).count(3) == 1, "three rounds of eight find one winner"


def test_swiss_pairs_equal_scores_first_round_by_rating() -> None:
    players = [Player(u, rating=float(u)) for u in range(1, 5)]
    draw = swiss(players, 2, "seed", 1)
    assert draw.tables == [[4, 3], [2, 1]]


def test_swiss_is_the_same_for_the_same_seed_and_differs_by_round() -> None:
    players = [Player(u) for u in range(1, 11)]
    assert swiss(players, 2, "abc", 1) == swiss(players, 2, "abc", 1)
    assert swiss(players, 2, "abc", 1) != swiss(players, 2, "xyz", 1)


@pytest.mark.parametrize("n", [3, 5, 7, 9])
def test_odd_counts_give_the_bye_to_the_lowest_without_one(n: int) -> None:
    draws, _points = play_swiss(n, n)
    had = []
    for draw, _met in draws:
        assert len(draw.byes) == 1
        assert draw.byes[0] not in had or len(had) >= n, "a second bye while someone has none"
        had.append(draw.byes[0])
    first = draws[0][0]
    assert first.byes[0] not in {u for t in first.tables for u in t}


def test_the_bye_goes_to_the_lowest_ranked_player() -> None:
    players = [Player(1, Fraction(2)), Player(2, Fraction(1)), Player(3, Fraction(0))]
    assert swiss(players, 2, "s", 3).byes == [3]
    players = [Player(1, Fraction(2)), Player(2, Fraction(1)), Player(3, Fraction(0), byes=1)]
    assert swiss(players, 2, "s", 3).byes == [2]


def test_repeats_only_when_unavoidable() -> None:
    # Three players left after two drop-outs, who have all met: a repeat (and a bye) is the only draw.
    everyone = frozenset({1, 2, 3})
    players = [Player(u, met=everyone - {u}) for u in (1, 2, 3, 4)]
    draw = swiss(players, 2, "s", 4)
    assert len(draw.tables) == 2
    # 4 has met nobody: whoever sits with 4 is not a repeat, the other table must be.
    assert sum(4 in t for t in draw.tables) == 1


def test_drop_outs_are_not_drawn_again() -> None:
    draws, _points = play_swiss(8, 3, drop={2: {3}, 3: {5, 6}})
    assert 3 not in {u for t in draws[1][0].tables for u in t} | set(draws[1][0].byes)
    third = {u for t in draws[2][0].tables for u in t} | set(draws[2][0].byes)
    assert third.isdisjoint({3, 5, 6}) and len(third) == 5


def test_tables_of_three_seat_the_rest_or_give_byes() -> None:
    players = [Player(u) for u in range(1, 8)]
    draw = swiss(players, 3, "s", 1)
    assert [len(t) for t in draw.tables] == [3, 3] and len(draw.byes) == 1
    small = swiss(players[:5], 3, "s", 1, smallest=2)
    assert sorted(len(t) for t in small.tables) == [2, 3] and not small.byes


def test_tables_of_three_avoid_sitting_together_twice() -> None:
    draws, _points = play_swiss(9, 2, table=3)
    _first, (second, met) = draws
    for t in second.tables:
        for a, b in combinations(t, 2):
            assert b not in met[a]


def test_default_rounds() -> None:
    assert [swiss_rounds(n, 2) for n in (2, 3, 4, 5, 8, 9, 16)] == [1, 2, 2, 3, 3, 4, 4]
    assert [swiss_rounds(n, 3) for n in (3, 4, 9, 10)] == [1, 2, 2, 3]
    assert round_robin_rounds(4) == 3 and round_robin_rounds(5) == 5


@pytest.mark.parametrize("n", [2, 4, 5, 6, 7])
def test_round_robin_meets_everyone_once(n: int) -> None:
    users = list(range(10, 10 + n))
    pairs = []
    byes = []
    for r in range(1, round_robin_rounds(n) + 1):
        draw = round_robin(users, r)
        seated = [u for t in draw.tables for u in t]
        assert len(seated) == len(set(seated)) == n - len(draw.byes)
        pairs += [frozenset(t) for t in draw.tables]
        byes += draw.byes
    assert len(pairs) == len(set(pairs)) == n * (n - 1) // 2
    assert sorted(byes) == (users if n % 2 else [])


def test_points_by_placement() -> None:
    assert table_points({1: (0, True), 2: (1, False)}) == {1: 1, 2: 0}
    assert table_points({1: (0, True), 2: (0, True)}) == {1: Fraction(1, 2), 2: Fraction(1, 2)}
    three = table_points({1: (0, True), 2: (1, False), 3: (2, False)})
    assert three == {1: 1, 2: Fraction(1, 4), 3: 0}
    shared = table_points({1: (0, True), 2: (0, True), 3: (1, False)})
    assert shared == {1: Fraction(1, 2), 2: Fraction(1, 2), 3: Fraction(0)}
    # No winner (a draw with nobody left): placement points only.
    assert table_points({1: (0, False), 2: (0, False)}) == {1: Fraction(1, 2), 2: Fraction(1, 2)}


def test_standings_break_ties_by_buchholz_then_rating() -> None:
    points = {1: Fraction(2), 2: Fraction(2), 3: Fraction(1), 4: Fraction(1), 5: Fraction(0)}
    met = {1: [3, 5], 2: [4, 5], 3: [1], 4: [2], 5: [1, 2]}
    ratings = {1: 10.0, 2: 20.0, 3: 5.0, 4: 5.0}
    lines = standings(points, met, ratings, {u: 2 for u in points}, {})
    assert [line.user_id for line in lines][:2] == [2, 1]  # Buchholz equal (1): rating decides
    points[3] = Fraction(3, 2)
    lines = standings(points, met, ratings, {}, {})
    assert [line.user_id for line in lines][:3] == [1, 2, 3]  # 1 met the stronger 3: Buchholz 3/2 > 1
    assert [line.place for line in standings({7: Fraction(1), 8: Fraction(1)}, {}, {}, {}, {})] == [1, 1]


def test_points_as_shown() -> None:
    assert [shown(Fraction(x)) for x in ("2", "3/2", "1/2", "1/4", "7/3")] == ["2", "1½", "½", "¼", "2.33"]
