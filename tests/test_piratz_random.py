"""Random-play conformance suite for Piratz: thousands of seeded games checked at every step."""

from __future__ import annotations

import json
import random

import pytest

from games.core import Action, IllegalAction, Player, RandomPlayer, clone
from games.piratz import CARDS, Piratz, PiratzAI
from games.piratz.cards import TYPES
from games.simulate import simulate
from tests.test_piratz_engine import VIEW_KEYS

GAME = Piratz()

# Every action text the game knows, plus some malformed ones: the pool illegal moves are drawn from.
ACTION_POOL = [
    Action.decode(text)
    for text in (
        "reveal",
        "end",
        "pass",
        *(f"pass {t}" for t in TYPES),
        *(f"take {c.id}" for c in CARDS),
        *(f"bury {c.id}" for c in CARDS),
        "take 50",
        "bury -1",
        "pass gold",
        "reveal 1",
        "dig",
    )
]


def card_ids(view: dict) -> set[int]:
    """Every card id a view mentions."""
    ids = {c["id"] for c in view["middle"]}
    for p in view["players"]:
        ids.update(c["id"] for c in p["pile"] or ())
    return ids


def check_view(state: dict, viewer: int | None, *, as_json: bool = True) -> None:
    view = GAME.view(state, viewer)
    assert set(view) == VIEW_KEYS
    if as_json:
        text = json.dumps(view)
        assert json.loads(text) == view, "the view is plain JSON"
        assert state["seed"] not in text, "the seed never appears in a view"
    over = state["phase"] == "over"
    hidden = state["options"]["blind"] and not over
    visible = set(state["middle"])
    if not hidden:
        visible.update(c for pile in state["piles"] for c in pile)
    assert card_ids(view) == visible, "no draw, discard or hidden pile card appears"
    assert view["draw_count"] == len(state["draw"]) and view["discard_count"] == len(state["discard"])
    for p in view["players"]:
        assert (p["pile"] is None) == hidden and (p["symbols"] is None) == hidden and (p["rats"] is None) == hidden
    if hidden:
        assert not any(" passed on " in e or " took the " in e for e in view["events"])
    assert (view["scoring"] is not None) == over
    assert isinstance(GAME.summary(view), str) and isinstance(GAME.seat_summary(view), str)


def play_checked(seats: int, blind: bool, seed: str, players: list[Player], *, every: int) -> None:
    """Play one game to the end, checking legality and invariants at every step, and illegal moves,
    views and labels at every ``every``-th step; then replay its log from the seed."""
    state = GAME.new_game(seats, {"blind": blind}, seed)
    rng = random.Random(seed)
    log: list[tuple[int, str]] = []
    while GAME.outcome(state) is None:
        assert len(log) < 2000, "the game does not end"
        to_act = GAME.to_act(state)
        assert len(to_act) == 1
        seat = to_act[0]
        actions = GAME.legal_actions(state, seat)
        assert 0 < len(actions) <= 25, "the seat to act has a move, and the choice fits a Discord picker"
        assert all(GAME.legal_actions(state, s) == [] for s in range(seats) if s != seat)
        thorough = len(log) % every == 0
        illegal = rng.choice(ACTION_POOL)
        if thorough and illegal not in actions:
            before = clone(state)
            with pytest.raises(IllegalAction):
                GAME.apply(state, seat, illegal, inplace=True)
            assert state == before, f"illegal `{illegal}` changed the state"
        if thorough:
            for viewer in (*range(seats), None):
                check_view(state, viewer, as_json=every == 1)
            for choice in GAME.choices(state, seat):
                assert len(choice.path) > 0 and all(0 < len(label) <= 80 for label in choice.path)
        action = players[seat].choose(GAME, state, seat, rng)
        assert action in actions, f"{players[seat].name} chose the illegal `{action}`"
        state = GAME.apply(state, seat, action.encode(), inplace=True).state
        log.append((seat, action.encode()))
        assert GAME.check_invariants(state) == [], (seed, len(log))
    for viewer in (*range(seats), None):
        check_view(state, viewer)
    replay = GAME.new_game(seats, {"blind": blind}, seed)
    for seat, text in log:
        GAME.apply(replay, seat, text, inplace=True)
    assert replay == state, "replaying the log from the seed reproduces the state"


def play_games(seats: int, blind: bool, label: str, games: int, *, ai_every: int, every: int) -> None:
    """:func:`play_checked` on ``games`` games seeded ``secret-{label}-…``, each with a :class:`PiratzAI`
    in the seats ``s`` where ``game + s`` is a multiple of ``ai_every`` and random players elsewhere."""
    for i in range(games):
        players: list[Player] = [RandomPlayer() if (i + s) % ai_every else PiratzAI() for s in range(seats)]
        play_checked(seats, blind, f"secret-{label}-{seats}-{blind}-{i}", players, every=every)


@pytest.mark.parametrize("blind", [False, True])
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_random_play_with_full_checks(seats: int, blind: bool) -> None:
    play_games(seats, blind, "full", 15, ai_every=3, every=1)


@pytest.mark.parametrize("blind", [False, True])
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_random_play_many_games(seats: int, blind: bool) -> None:
    play_games(seats, blind, "many", 220, ai_every=4, every=10)


def test_pure_apply_leaves_the_input_unchanged() -> None:
    state = GAME.new_game(3, seed="pure")
    rng = random.Random(1)
    while GAME.outcome(state) is None:
        seat = GAME.to_act(state)[0]
        before = clone(state)
        step = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        assert state == before and step.state["step"] == state["step"] + 1
        state = step.state


def perturb_hidden(state: dict, rng: random.Random) -> dict:
    """The same public position with different hidden information: seed, draw and discard order,
    which hidden cards are in which pile, and in blind mode the contents of the collected piles."""
    other = clone(state)
    other["seed"] = "a different seed"
    hidden = other["draw"] + other["discard"]
    if other["options"]["blind"]:
        hidden += [c for pile in other["piles"] for c in pile]
    rng.shuffle(hidden)
    sizes = [len(other["draw"]), len(other["discard"])]
    other["draw"], other["discard"] = hidden[: sizes[0]], hidden[sizes[0] : sizes[0] + sizes[1]]
    if other["options"]["blind"]:
        rest = hidden[sum(sizes) :]
        for pile in other["piles"]:
            pile[:], rest = rest[: len(pile)], rest[len(pile) :]
    assert GAME.check_invariants(other) == []
    return other


@pytest.mark.parametrize("blind", [False, True])
@pytest.mark.parametrize("seats", [2, 4])
def test_ai_uses_only_what_the_view_shows(seats: int, blind: bool) -> None:
    rng = random.Random(7)
    ai = PiratzAI()
    for i in range(25):
        state = GAME.new_game(seats, {"blind": blind}, f"ai-view-{i}")
        while GAME.outcome(state) is None:
            seat = GAME.to_act(state)[0]
            choice = ai.choose(GAME, state, seat, rng)
            other = perturb_hidden(state, rng)
            assert GAME.view(other, seat) == GAME.view(state, seat)
            assert PiratzAI().choose(GAME, other, seat, rng) == choice
            state = GAME.apply(state, seat, choice, inplace=True).state


def test_ai_beats_random_players() -> None:
    games = 150
    ai_first = simulate(GAME, [PiratzAI(), RandomPlayer()], games, seed="ai-a", check=False)
    ai_second = simulate(GAME, [RandomPlayer(), PiratzAI()], games, seed="ai-b", check=False)
    rate = (ai_first["wins"][0] + ai_second["wins"][1]) / (2 * games)
    assert rate >= 0.75, rate
    blind = simulate(GAME, [PiratzAI(), RandomPlayer()], games, seed="ai-c", options={"blind": True}, check=False)
    assert blind["wins"][0] / games >= 0.75
    four = simulate(GAME, [RandomPlayer(), PiratzAI(), RandomPlayer(), RandomPlayer()], 100, seed="ai-d", check=False)
    assert four["wins"][1] / 100 >= 0.5, "a clear majority against three random players"
