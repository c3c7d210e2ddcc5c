"""Ratings: a finished game's placings, rated with openskill's Plackett–Luce model (checked against the
library's own figures), and committed in the same transaction as the game's result."""

from __future__ import annotations

import asyncio

import pytest
from openskill.models import PlackettLuce

import data.ratings as ratings_module
from data.engine import Conflict
from data.games import Commit
from data.ratings import AI_USER, DEFAULT, GLOBAL, Placing, Rating, rate
from data.store import SeatRecord, Store
from games.registry import GAMES
from tables.results import placings

PL = PlackettLuce()


def members(*user_ids: int | None, resigned: tuple[int, ...] = ()) -> list[SeatRecord]:
    return [SeatRecord(i, f"P{i}", u, i in resigned) for i, u in enumerate(user_ids)]


def result(winners: list[int], scores: list[int] | None = None, reason: str = "rules") -> dict:
    return {"winners": winners, "scores": scores or [], "summary": "", "reason": reason}


def library(teams: list[list[tuple[float, float]]], ranks: list[int]) -> list[list[tuple[float, float]]]:
    """openskill's own figures for these teams of (μ, σ) and ranks."""
    rated = PL.rate([[PL.create_rating([mu, sigma]) for mu, sigma in team] for team in teams], ranks=ranks)
    return [[(r.mu, r.sigma) for r in team] for team in rated]


def figures(new: dict[int, Rating], users: list[int]) -> list[float]:
    """μ and σ of each user in turn, flat (for ``pytest.approx``)."""
    return [x for u in users for x in (new[u].mu, new[u].sigma)]


def flat(pairs: list[tuple[float, float]]) -> list[float]:
    return [x for pair in pairs for x in pair]


def test_a_two_player_win_moves_both_ratings_as_openskill_does() -> None:
    game = GAMES["piratz"].game
    state = game.new_game(2, {}, "r")
    placed = placings(game, state, result([1], [3, 9]), members(11, 22))
    assert placed == [Placing((11,), 1, False), Placing((22,), 0, True)]
    new = rate(placed, {})
    expected = library([[(25, 25 / 3)], [(25, 25 / 3)]], [1, 0])
    assert figures(new, [11, 22]) == pytest.approx(flat([expected[0][0], expected[1][0]]))
    # The figures openskill 6 gives for a first game: 27.635 / 22.365, σ 8.066 both.
    assert new[22].mu == pytest.approx(27.6354, abs=1e-4) and new[11].mu == pytest.approx(22.3646, abs=1e-4)
    assert new[22].sigma == pytest.approx(8.0659, abs=1e-4)
    assert new[22].shown > DEFAULT.shown > new[11].shown


def test_a_four_player_ranking_follows_the_scores_after_the_winner() -> None:
    game = GAMES["piratz"].game
    state = game.new_game(4, {}, "r")
    placed = placings(game, state, result([2], [3, 10, 12, 5]), members(1, 2, 3, 4))
    assert [p.rank for p in placed] == [3, 1, 0, 2]
    current = {1: Rating(30, 5), 2: Rating(20, 7), 3: Rating(25, 8.333), 4: Rating(28, 4)}
    new = rate(placed, current)
    expected = library([[(30, 5)], [(20, 7)], [(25, 8.333)], [(28, 4)]], [3, 1, 0, 2])
    assert figures(new, [1, 2, 3, 4]) == pytest.approx(flat([team[0] for team in expected]))
    assert new[3].mu > current[3].mu and new[1].mu < current[1].mu


def test_a_tie_shares_the_rank() -> None:
    game = GAMES["piratz"].game
    state = game.new_game(3, {}, "r")
    placed = placings(game, state, result([0, 1], [7, 7, 2]), members(1, 2, 3))
    assert [p.rank for p in placed] == [0, 0, 1] and [p.won for p in placed] == [True, True, False]
    new = rate(placed, {})
    expected = library([[(25, 25 / 3)]] * 3, [0, 0, 1])
    assert figures(new, [1, 2, 3]) == pytest.approx(flat([team[0] for team in expected]))
    assert new[1].mu == pytest.approx(new[2].mu)


def test_a_team_game_rates_each_team_together() -> None:
    game = GAMES["sewerrat"].game
    state = game.new_game(4, {"teams": "2"}, "r")
    assert game.teams(state) == ((0, 2), (1, 3))
    placed = placings(game, state, result([1, 3], reason="last_standing"), members(1, 2, 3, 4))
    assert placed == [Placing((1, 3), 1, False), Placing((2, 4), 0, True)]
    current = {1: Rating(26, 6), 2: Rating(24, 7), 3: Rating(25, 8), 4: Rating(22, 5)}
    new = rate(placed, current)
    expected = library([[(26, 6), (25, 8)], [(24, 7), (22, 5)]], [1, 0])
    assert figures(new, [1, 3, 2, 4]) == pytest.approx(flat([*expected[0], *expected[1]]))


def test_a_fleet_is_one_player_and_the_ai_one_fixed_player() -> None:
    game = GAMES["searats"].game
    state = game.new_game(3, {}, "r")  # fleets of two ships
    placed = placings(game, state, result([0, 3], reason="last_standing"), members(1, 2, None))
    assert placed == [Placing((1,), 0, True), Placing((2,), 1, False), Placing((AI_USER,), 1, False)]


def test_several_ai_seats_move_the_ai_once_by_the_mean_of_their_copies() -> None:
    game = GAMES["piratz"].game
    state = game.new_game(4, {}, "r")
    placed = placings(game, state, result([0], [9, 1, 5, 3]), members(1, 2, None, None))
    assert [p.players for p in placed] == [(1,), (2,), (AI_USER,), (AI_USER,)]
    new = rate(placed, {})
    expected = library([[(25, 25 / 3)]] * 4, [0, 3, 1, 2])
    mean_mu = (expected[2][0][0] + expected[3][0][0]) / 2
    mean_sigma = (expected[2][0][1] + expected[3][0][1]) / 2
    assert (new[AI_USER].mu, new[AI_USER].sigma) == pytest.approx((mean_mu, mean_sigma))


def test_resigning_ranks_last_and_unrated_games() -> None:
    game = GAMES["piratz"].game
    state = game.new_game(3, {}, "r")
    # Ben resigned with the best score: he still places last, below the AI that played on for him.
    placed = placings(game, state, result([0], [5, 20, 3]), members(1, 2, 3, resigned=(1,)))
    assert [p.rank for p in placed] == [0, 2, 1]
    won_by_resignation = placings(game, state, result([0, 2], reason="resignation"), members(1, 2, 3, resigned=(1,)))
    assert [p.rank for p in won_by_resignation] == [0, 1, 0]
    assert placings(game, state, result([], reason="abandoned"), members(1, 2, 3)) is None
    assert placings(game, state, result([0], [5, 1, 2]), members(1, None, None)) is None  # one member


# ---------------------------------------------------------------------------------------------- the store


async def piratz_game(store: Store, users=(1, 2), guild_id: int | None = 5) -> tuple[int, dict]:
    state = GAMES["piratz"].game.new_game(len(users), {}, "s")
    game_id = await store.games.create(
        kind="piratz",
        guild_id=guild_id,
        channel_id=10,
        host_id=users[0] or 1,
        seats=[SeatRecord(i, f"P{i}", u) for i, u in enumerate(users)],
        seed="s",
        options=state["options"],
        state=state,
        now=1.0,
    )
    return game_id, state


async def rated_end(store: Store, game_id: int, state: dict, ending: dict, *, status: str = "finished") -> int | None:
    """End a game as the table service does: its result (by a last action, or without one) and its rating,
    in one transaction. The game's new revision (``None`` if it could not end)."""
    record = await store.games.load(game_id)
    assert record is not None
    try:
        async with store.transaction() as db:
            if ending["reason"] == "rules":
                step = Commit([(0, "reveal")], state, status, ending)
                stored = db.games.commit(game_id, expected_version=0, step=step, now=2.0)
            elif not await db.games.finish(game_id, status=status, result=ending, now=2.0):
                return None
            placed = placings(GAMES["piratz"].game, state, ending, (await db.games.load(game_id)).seats)
            if status == "finished" and placed:
                await db.ratings.rate(game_id, "piratz", record.guild_id, placed, now=2.0)
    except Conflict:
        return None
    return stored.rows[0]["revision"] if ending["reason"] == "rules" else 1


async def first_wins(store: Store, game_id: int, state: dict) -> int | None:
    """Commit the first action of a game as its last: the first seat wins, 9 to 4."""
    return await rated_end(store, game_id, state, result([0], [9, 4]))


async def test_a_finished_game_is_rated_with_its_result_per_server_and_globally(store: Store) -> None:
    game_id, state = await piratz_game(store)
    assert await first_wins(store, game_id, state)
    changes = await store.ratings.changes(game_id)
    assert sorted((scope, user) for scope, user, _, _ in changes) == [(GLOBAL, 1), (GLOBAL, 2), (5, 1), (5, 2)]
    for scope in (5, GLOBAL):
        board = await store.ratings.leaderboard("piratz", scope)
        assert [(s.user_id, s.name, s.games, s.wins) for s in board] == [(1, "P0", 1, 1), (2, "P1", 1, 0)]
        assert board[0].rating.mu == pytest.approx(27.6354, abs=1e-4)
    assert await store.ratings.trend(1, 5, "piratz") == pytest.approx([DEFAULT.shown, board[0].rating.shown])
    # The game cannot finish (nor be rated) a second time.
    assert await rated_end(store, game_id, state, result([1], reason="resignation")) is None
    assert len(await store.ratings.changes(game_id)) == 4


async def test_resignation_rates_and_abandoning_does_not(store: Store) -> None:
    resigned, state = await piratz_game(store, users=(1, 2, 3), guild_id=None)
    assert await store.seats.resign(resigned, 1, user_id=2)
    assert await rated_end(store, resigned, state, result([0, 2], reason="resignation"))
    board = await store.ratings.leaderboard("piratz", GLOBAL)
    assert board[-1].user_id == 2 and board[-1].wins == 0 and {s.user_id for s in board} == {1, 2, 3}
    assert {scope for scope, *_ in await store.ratings.changes(resigned)} == {GLOBAL}  # no server: global only
    abandoned, state = await piratz_game(store)
    assert await rated_end(store, abandoned, state, result([], reason="abandoned"), status="abandoned")
    assert await store.ratings.changes(abandoned) == []


async def test_a_failed_rating_leaves_the_game_unfinished(store: Store, monkeypatch) -> None:
    game_id, state = await piratz_game(store)

    def broken(*args, **kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(ratings_module, "rate", broken)
    with pytest.raises(RuntimeError):
        await first_wins(store, game_id, state)
    await store.settings.set_notify(7, True)  # a later write on the same connection commits nothing of it
    record = await store.games.load(game_id)
    assert record is not None and record.status == "active" and record.version == 0
    assert await store.games.actions(game_id) == [] and await store.ratings.changes(game_id) == []


async def test_games_ending_at_once_in_several_processes_rate_a_common_player_in_turn(store_target) -> None:
    """Four games with Anne (user 1) end at the same moment, each committed by its own process: every game
    must start from the rating the previous one left, never all four from the same old rating."""
    stores = [await Store.open(store_target) for _ in range(4)]
    try:
        games = [await piratz_game(stores[0], users=(1, 10 + n)) for n in range(4)]
        await asyncio.gather(
            *(first_wins(s, game_id, state) for s, (game_id, state) in zip(stores, games, strict=True))
        )
        for scope in (5, GLOBAL):
            changes = [
                (before, after)
                for game_id, _ in games
                for s, user, before, after in await stores[0].ratings.changes(game_id)
                if s == scope and user == 1
            ]
            # The changes form one chain from the default rating to the stored one.
            rating, chained = DEFAULT, 0
            afters = {before: after for before, after in changes}
            while rating in afters:
                rating, chained = afters[rating], chained + 1
            anne = next(s for s in await stores[0].ratings.leaderboard("piratz", scope) if s.user_id == 1)
            assert chained == 4 and anne.games == 4 and anne.wins == 4
            assert anne.rating == rating
    finally:
        for s in stores:
            await s.close()
