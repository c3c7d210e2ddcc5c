"""``python bot.py arena``: two AI levels play seeded games with the seats turning, and the summary is
JSON; a bad command line is one line on stderr with status 2."""

from __future__ import annotations

import json

import pytest

from games.arena import arena, seat_levels
from games.registry import GAMES
from tests.test_cli import cli

LEVELS = ("hard", "normal")


def test_two_levels_alternate_seats_game_by_game() -> None:
    assert [seat_levels(LEVELS, 2, i) for i in range(3)] == [
        ["hard", "normal"],
        ["normal", "hard"],
        ["hard", "normal"],
    ]


def test_with_more_players_the_levels_alternate_and_turn_round_the_table() -> None:
    assert [seat_levels(LEVELS, 3, i) for i in range(3)] == [
        ["hard", "normal", "hard"],
        ["normal", "hard", "hard"],
        ["hard", "hard", "normal"],
    ]
    assert seat_levels(LEVELS, 4, 1) == ["normal", "hard", "normal", "hard"]


def test_the_summary_counts_every_game_and_times_both_levels() -> None:
    result = arena(GAMES["sewerrat"], LEVELS, 2, think_ms=20, seed="shape")
    assert result["game"] == "sewerrat" and result["games"] == 2 and result["players"] == 2
    assert result["levels"] == ["hard", "normal"] and result["think_ms"] == 20
    assert sum(result["wins"].values()) + result["draws"] == pytest.approx(2)
    for level in LEVELS:
        timing = result["decision_time"][level]
        assert timing["decisions"] > 0
        assert 0 <= timing["p50_ms"] <= timing["p99_ms"]
    assert result["decision_time"]["hard"]["p99_ms"] < 1000


def test_progress_is_told_after_every_game() -> None:
    told: list[tuple[int, dict[str, float]]] = []
    result = arena(GAMES["piratz"], LEVELS, 2, think_ms=10, seed="told", progress=lambda n, w: told.append((n, w)))
    assert [n for n, _ in told] == [1, 2] and told[-1][1] == result["wins"]


def test_the_command_prints_the_summary_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = cli(capsys, "arena", "piratz", "--games", "2", "--think-ms", "10", "--seed", "cli")
    assert status == 0
    first, second = err.splitlines()  # a progress line on stderr after every game
    assert first.startswith("arena: 1/2 games, wins: hard ") and ", normal " in first
    assert second.startswith("arena: 2/2 games, wins: hard ")
    result = json.loads(out)
    assert result["game"] == "piratz" and result["seed"] == "cli" and result["options"] == {"blind": False}
    assert set(result["wins"]) == {"hard", "normal"} and set(result["decision_time"]) == {"hard", "normal"}


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ("arena piratz --a hard --b hard", "choose two different levels, not hard twice"),
        ("arena piratz --a expert", "argument --a: invalid choice: 'expert'"),
        ("arena pirates --players 1", "--players: must be a whole number from 2 up, not '1'"),
        ("arena sewerpirats --players 6", "Sewer Pirats takes 2–5 players, not 6"),
        ("arena piratz --games 0", "--games: must be a whole number from 1 up"),
        ("arena piratz --think-ms fast", "--think-ms: must be a whole number from 1 up"),
        ("arena piratz --option colour=red", "Piratz has no option 'colour'"),
        ("arena chess", "argument GAME: there is no game 'chess'; the games are piratz,"),
    ],
)
def test_a_bad_command_line_is_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], argv: str, message: str
) -> None:
    status, out, err = cli(capsys, *argv.split())
    assert status == 2 and out == ""
    assert message in err and err.count("\n") == 1
