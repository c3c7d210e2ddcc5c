"""Game records without Discord: the verifiable action log of every registered game, replay positions and
their sampling, and which of a member's games the store lists."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

import pytest

from data.store import GameRecord, SeatRecord, Store
from games.core import Termination
from games.registry import GAMES
from tables.reads import Position, public_positions, sample
from tables.records import BadLog, game_log, read_log, verify_log
from tables.results import ended_without_play, result_of

ROOT = Path(__file__).resolve().parent.parent


def played(kind: str, players: int = 2, *, stop: int | None = None) -> tuple[GameRecord, list[tuple[int, int, str]]]:
    """A game of ``kind`` played by its AI from seed "records" (to the end, or ``stop`` actions), as stored."""
    spec = GAMES[kind]
    game = spec.game
    state = game.new_game(players, {}, "records")
    actions = []
    while not game.is_over(state) and (stop is None or len(actions) < stop):
        seat = game.to_act(state)[0]
        action = spec.player.choose(game, state, seat, game.rng(state))
        actions.append((len(actions) + 1, seat, action.encode()))
        state = game.apply(state, seat, action).state
    seats = [SeatRecord(i, f"P{i}", 100 + i) for i in range(players)]
    outcome = game.outcome(state)
    if outcome is None:
        seats[1].resigned = True
        result = ended_without_play([0], "P1 resigned.", Termination.RESIGNATION)
    else:
        result = result_of(game, state, outcome, seats)
    record = GameRecord(
        id=7,
        kind=kind,
        status="finished",
        version=len(actions),
        seed="records",
        options=state["options"],
        state=state,
        seats=seats,
        guild_id=1,
        channel_id=2,
        thread_id=3,
        message_id=None,
        host_id=100,
        created_at=0.0,
        result=result,
        ended_at=1.0,
    )
    return record, actions


@pytest.mark.parametrize("kind", list(GAMES))
def test_every_games_log_verifies_and_a_changed_action_or_result_does_not(kind: str) -> None:
    record, actions = played(kind)
    text = game_log(record, actions)
    verdict = verify_log(text)
    assert verdict.ok, verdict.lines
    assert read_log(text).actions == actions
    # Another legal move in place of the first action that had one.
    game = GAMES[kind].game
    state = game.new_game(len(record.seats), record.options, record.seed)
    for i, (seq, seat, action) in enumerate(actions):
        others = [a.encode() for a in game.legal_actions(state, seat) if a.encode() != action]
        if others:
            changed = [*actions[:i], (seq, seat, others[0]), *actions[i + 1 :]]
            break
        state = game.apply(state, seat, action).state
    assert not verify_log(game_log_with(record, text, changed)).ok
    tampered = {**record.result, "winners": [s for s in range(len(record.seats)) if s not in record.result["winners"]]}
    lines = [f"result: {json.dumps(tampered)}" if line.startswith("result: ") else line for line in text.splitlines()]
    verdict = verify_log("\n".join(lines))
    assert not verdict.ok and "winners" in verdict.lines[-1]


def game_log_with(record: GameRecord, text: str, actions: list[tuple[int, int, str]]) -> str:
    """``text``'s header with other actions (written as the log writes them, without the readable part)."""
    head = text.split("actions:\n", 1)[0]
    return head + "actions:\n" + "".join(f"{seq}\t{seat}\t{action}\t\n" for seq, seat, action in actions)


def test_a_game_ended_by_resignation_verifies_its_moves_only_as_far_as_they_went() -> None:
    record, actions = played("piratz", stop=12)
    verdict = verify_log(game_log(record, actions))
    assert verdict.ok and "not over when it ended by resignation" in verdict.lines[-1]
    finished, all_actions = played("piratz")
    # A log that says "resignation" for a game its moves end by the rules is not what happened.
    finished.result = {**finished.result, "reason": "resignation"}
    assert not verify_log(game_log(finished, all_actions)).ok


def test_a_log_with_a_missing_action_or_a_bad_header_is_refused() -> None:
    record, actions = played("sewerpirats")
    text = game_log(record, actions)
    lines = text.splitlines()
    gap = lines.index("actions:") + 3
    verdict = verify_log("\n".join(lines[:gap] + lines[gap + 1 :]))
    assert not verdict.ok and "action 3 is missing" in verdict.lines[-1]
    with pytest.raises(BadLog, match="no 'actions:' line"):
        read_log("game: piratz\n")
    with pytest.raises(BadLog, match="lacks seed"):
        read_log(text.replace("seed: records\n", ""))


def test_replay_positions_skip_unchanged_views_and_sampling_keeps_both_ends() -> None:
    record, actions = played("pirates", 3)
    positions = public_positions(record, actions)
    assert positions[0].version == 0 and positions[-1].version == len(actions)
    assert all(a.view != b.view for a, b in itertools.pairwise(positions))
    fake = [Position(i, {}, ()) for i in range(100)]
    chosen = sample(fake, 40)
    assert len(chosen) == 40 and chosen[0].version == 0 and chosen[-1].version == 99
    assert [p.version for p in chosen] == sorted({p.version for p in chosen})
    assert sample(fake[:5], 40) == fake[:5]


async def test_another_members_games_are_listed_from_this_server_only(tmp_path) -> None:
    store = await Store.open(tmp_path / "bot.db")
    try:
        ids = []
        for guild in (5, 6, None):
            game_id = await store.games.create(
                kind="piratz",
                guild_id=guild,
                channel_id=1,
                host_id=1,
                seats=[SeatRecord(0, "A", 1), SeatRecord(1, "B", 2)],
                seed="s",
                options={},
                state={},
                now=1.0,
            )
            await store.games.finish(game_id, status="abandoned", result=None, now=float(game_id))
            ids.append(game_id)
        assert await store.games.ended(1, limit=10) == ids[::-1]
        assert await store.games.ended(1, limit=10, everywhere=False, guild_id=5) == [ids[0]]
        assert await store.games.ended(1, limit=10, everywhere=False, guild_id=None) == [ids[2]]
        assert await store.games.count_ended(1, everywhere=False, guild_id=6) == 1
        assert await store.games.ended(1, limit=1, offset=1) == [ids[1]]
    finally:
        await store.close()


def test_the_records_service_loads_neither_discord_nor_pillow() -> None:
    probe = (
        "import json, sys, tables.records;"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in ('discord', 'PIL'))))"
    )
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == []


# ---------------------------------------------------------------------------------------------- verify


def tampered(text: str, **header: object) -> str:
    """``text`` with some header values replaced (as JSON)."""
    lines = text.splitlines()
    for key, value in header.items():
        lines = [f"{key}: {json.dumps(value)}" if line.startswith(f"{key}: ") else line for line in lines]
    return "\n".join(lines) + "\n"


def resigned_duel() -> tuple[GameRecord, list[tuple[int, int, str]]]:
    """A duel in which P1 resigned after 12 actions, as the service records it."""
    record, actions = played("piratz", stop=12)
    record.result = {**record.result, "summary": "{p1} resigned."}
    return record, actions


def test_a_resignation_verifies_only_with_who_resigned_and_who_won() -> None:
    record, actions = resigned_duel()
    text = game_log(record, actions)
    assert verify_log(text).ok
    # Winners and resigned seats swapped: each is consistent alone, but the summary names who resigned.
    swapped = tampered(text, resigned=[0], result={**record.result, "winners": [1]})
    verdict = verify_log(swapped)
    assert not verdict.ok and "resigned" in verdict.lines[-1]
    assert not verify_log(tampered(text, resigned=[])).ok
    assert not verify_log(tampered(text, result={**record.result, "winners": [0, 1]})).ok


def test_an_abandoned_game_verifies_and_has_no_winner() -> None:
    record, actions = played("piratz", stop=8)
    record.seats[1].resigned = False
    record.result = ended_without_play([], "Abandoned by P0.", Termination.ABANDONED)
    text = game_log(record, actions)
    assert verify_log(text).ok
    assert not verify_log(tampered(text, result={**record.result, "winners": [0]})).ok


def test_the_header_is_checked_against_the_replay() -> None:
    record, actions = played("piratz")
    text = game_log(record, actions)
    # The names swapped: the action lines say who did what.
    verdict = verify_log(tampered(text, names=list(reversed(record.names))))
    assert not verdict.ok and "is written" in verdict.lines[-1]
    # Options the engine would not have resolved so.
    verdict = verify_log(tampered(text, options={}))
    assert not verdict.ok and "options" in verdict.lines[-1]
    assert not verify_log(tampered(text, players=3)).ok
    assert not verify_log(tampered(text, resigned=[5])).ok
