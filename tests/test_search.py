"""The hard AI (:mod:`games.search`): for every registered game it returns a legal action, decides from what
its seat may know only (the same decision whatever the hidden cards and the seed are), answers at once
when there is nothing to choose, keeps to its time, and runs in a process pool."""

from __future__ import annotations

import contextlib
import pickle
import random
import time
from concurrent.futures import ProcessPoolExecutor

import pytest

from games import search as search_module
from games.core import JSON, Action, Game, Player, clone
from games.i18n import unread
from games.registry import GAMES, LEVELS
from games.search import HardPlayer, decide, determinize, player_for, playout, reward, search
from games.simulate import next_actor, self_play

KINDS = list(GAMES)
PLAYOUTS = 8


def positions(kind: str, count: int = 3, players: int = 2) -> list[tuple[JSON, int]]:
    """Copies of ``count`` states of a normal-AI game, spread over it, each with a seat that has a choice."""
    spec = GAMES[kind]
    game = spec.game
    found: list[tuple[JSON, int]] = []
    rng = random.Random(kind)
    for state in self_play(game, spec.player, players, f"search-{kind}"):
        seats = [s for s in game.to_act(state) if len(game.legal_actions(state, s)) > 1]
        if seats and rng.random() < 0.08:
            found.append((clone(state), seats[0]))
        if len(found) == count:
            break
    assert len(found) == count, f"{kind}: too few positions with a choice"
    return found


def a_choice_of(moves: int, seed: str) -> tuple[JSON, int]:
    """The first state of a 4-player Pirates Card Game of the normal AI where the seat to act has exactly
    ``moves`` legal moves (there, every legal move is a candidate of the search), with that seat."""
    spec = GAMES["pirates"]
    for state in self_play(spec.game, spec.player, 4, seed):
        seat = next_actor(spec.game, state, random.Random(0))
        if len(spec.game.legal_actions(state, seat)) == moves:
            return state, seat
    pytest.fail(f"no choice of {moves} moves in the game")


def hidden(game: Game, state: JSON, seat: int, rng: random.Random) -> JSON:
    """``state`` with everything ``seat`` may not know changed: the other seats' secrets and the seed."""
    other = game.scramble(state, seat, rng)
    other = clone(state) if other is None else other
    other["seed"] = f"other-{rng.getrandbits(32)}"
    return other


@pytest.mark.parametrize("kind", KINDS)
def test_the_hard_ai_plays_a_legal_action_at_positions_reached_by_play(kind: str) -> None:
    game = GAMES[kind].game
    for state, seat in positions(kind):
        action = decide(kind, state, seat, 1000, "legal", iterations=PLAYOUTS)
        assert Action.decode(action) in game.legal_actions(state, seat)


@pytest.mark.parametrize("kind", KINDS)
def test_a_world_depends_only_on_what_the_seat_may_know(kind: str) -> None:
    game, policy = GAMES[kind].game, GAMES[kind].player
    for state, seat in positions(kind):
        other = hidden(game, state, seat, random.Random(7))
        assert determinize(game, state, seat, random.Random(1)) == determinize(game, other, seat, random.Random(1))
        modelled = determinize(game, state, seat, random.Random(1), policy)  # others' secret choices made again
        assert modelled == determinize(game, other, seat, random.Random(1), policy)
        assert game.view(modelled, seat) == game.view(state, seat)


@pytest.mark.parametrize("kind", KINDS)
def test_the_decision_is_the_same_when_the_hidden_parts_are_scrambled(kind: str) -> None:
    game = GAMES[kind].game
    secret = 0
    for state, seat in positions(kind):
        other = hidden(game, state, seat, random.Random(3))
        secret += game.scramble(state, seat, random.Random(3)) not in (None, state)
        assert decide(kind, state, seat, 1000, "same", iterations=PLAYOUTS) == decide(
            kind, other, seat, 1000, "same", iterations=PLAYOUTS
        )
    # Sewer Rat and Sea Rats! hide only their seed (every future die); the others hide cards as well.
    assert secret or kind in ("sewerrat", "searats")


class Refuses(Player):
    """A policy that must not be asked: there is nothing to search."""

    def choose(self, game: Game, state: JSON, seat: int, rng: random.Random) -> Action:
        raise AssertionError("searched a decision with one legal action")


def test_a_single_legal_action_is_played_at_once() -> None:
    spec = GAMES["pirates"]
    game = spec.game
    for state in self_play(game, spec.player, 2, "single"):
        seat = next_actor(game, state, random.Random(0))
        legal = game.legal_actions(state, seat)
        if len(legal) == 1:
            break
    started = time.perf_counter()
    assert search(game, state, seat, Refuses(), random.Random(0), think_ms=5000) == legal[0]
    assert time.perf_counter() - started < 0.05


def test_the_search_keeps_to_its_time() -> None:
    kind = "piratz"
    state, seat = positions(kind, 1)[0]
    started = time.perf_counter()
    decide(kind, state, seat, 200, "time")
    assert time.perf_counter() - started < 1.0  # 200 ms asked; slack for a loaded machine


@pytest.mark.parametrize("moves", [2, 3])
def test_a_timed_search_weighs_a_choice_of_two_in_many_worlds(moves: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # A choice between two moves has a single round of the halving, and the number of worlds it plays
    # was once fixed before any playout had measured the pace: one world, whatever the time allowed.
    spec = GAMES["pirates"]
    game = spec.game
    state, seat = a_choice_of(moves, f"two-{moves}")
    played: list[float] = []

    def counted(*args: object, **kwargs: bool) -> float:
        played.append(playout(*args, **kwargs))  # type: ignore[arg-type]
        return played[-1]

    monkeypatch.setattr("games.search.playout", counted)
    started = time.perf_counter()
    search(game, clone(state), seat, spec.player, random.Random(1), think_ms=300)
    assert len(played) >= 3 * moves  # three worlds at least, even on a loaded machine
    assert time.perf_counter() - started > 0.1  # it thought: nothing was decided on the first world


@pytest.mark.parametrize("choosing", [0.3, 0.5])
def test_the_game_says_how_much_of_a_decision_chooses_the_challenger(
    choosing: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Four candidates: the first round plays the game's share of the playouts on all four, then the normal
    # AI's choice and the best of the others share the rest.
    spec = GAMES["pirates"]
    game = spec.game
    assert type(game).choosing == 0.3  # measured on the 4-player oracle (games/AI.md)
    monkeypatch.setattr(type(game), "choosing", choosing)
    state, seat = a_choice_of(4, "choosing")
    played: list[int] = []
    real_pick = search_module._pick

    def pick(arms: list[search_module._Arm], default: search_module._Arm, fresh: int) -> Action:
        played.extend([fresh, len(default.rewards)])
        return real_pick(arms, default, fresh)

    monkeypatch.setattr("games.search._pick", pick)
    search(game, clone(state), seat, spec.player, random.Random(1), iterations=400)
    first = int(400 * choosing) // 4  # worlds in the first round
    assert played == [first, first + (400 - 4 * first) // 2]


def test_the_same_seed_and_playouts_give_the_same_decision() -> None:
    state, seat = positions("sewerpirats", 1)[0]
    first = decide("sewerpirats", state, seat, 1000, "again", iterations=12)
    assert decide("sewerpirats", state, seat, 1000, "again", iterations=12) == first


def test_decide_runs_in_a_process_pool() -> None:
    assert pickle.loads(pickle.dumps(decide)) is decide
    state, seat = positions("piratz", 1)[0]
    with ProcessPoolExecutor(1) as pool:
        action = pool.submit(decide, "piratz", state, seat, 100, "pool").result(timeout=30)
    assert Action.decode(action) in GAMES["piratz"].game.legal_actions(state, seat)


def test_every_game_has_a_player_for_each_level() -> None:
    assert LEVELS == ("normal", "hard")
    for spec in GAMES.values():
        assert player_for(spec, "normal") is spec.player
        hard = player_for(spec, "hard", think_ms=300)
        assert isinstance(hard, HardPlayer) and hard.policy is spec.player and hard.think_ms == 300
    with pytest.raises(ValueError, match="normal, hard"):
        player_for(GAMES["piratz"], "expert")


class Counting(Player):
    """The game's normal AI, counting the decisions it is asked for."""

    def __init__(self, policy: Player) -> None:
        self.policy = policy
        self.asked = 0

    def choose(self, game: Game, state: JSON, seat: int, rng: random.Random) -> Action:
        self.asked += 1
        return self.policy.choose(game, state, seat, rng)


class Narrowing(Counting):
    """The game's normal AI, counting its decisions and offering the search ``keep`` of the legal actions."""

    def __init__(self, policy: Player, keep: int) -> None:
        super().__init__(policy)
        self.keep = keep

    def shortlist(self, game: Game, state: JSON, seat: int) -> list[Action]:
        return game.legal_actions(state, seat)[-self.keep :] if self.keep else []


def test_the_search_weighs_only_the_policys_shortlist_and_its_own_choice() -> None:
    spec = GAMES["piratz"]
    state, seat = positions("piratz", 1)[0]
    legal = spec.game.legal_actions(state, seat)
    policy = Narrowing(spec.player, 0)  # nothing to weigh against the AI's choice: no playout at all
    choice = search(spec.game, state, seat, policy, random.Random(3), iterations=50)
    assert policy.asked == 1 and choice in legal
    policy = Narrowing(spec.player, 1)
    for i in range(6):
        rng = random.Random(i)  # the search's first steps: the AI's choice in a world the seat cannot tell apart
        own = spec.player.choose(spec.game, determinize(spec.game, state, seat, rng), seat, rng)
        assert search(spec.game, state, seat, policy, random.Random(i), iterations=20) in {legal[-1], own}
    assert policy.asked > 6


def test_the_search_offers_its_host_a_pause_before_every_playout(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = GAMES["sewerpirats"]
    state, seat = positions("sewerpirats", 1)[0]
    events: list[str] = []

    def counted(*args: object) -> float:
        events.append("playout")
        return 0.5

    monkeypatch.setattr("games.search.playout", counted)
    search(spec.game, state, seat, spec.player, random.Random(1), iterations=12, pause=lambda: events.append("pause"))
    assert len(events) >= 24 and events == ["pause", "playout"] * (len(events) // 2)


def test_a_playout_stops_at_the_games_horizon_and_is_worth_its_estimate(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = GAMES["searats"]
    game = spec.game
    state = positions("searats", 1)[0][0]
    monkeypatch.setattr(type(game), "horizon", lambda self, state: 7)
    policy = Counting(spec.player)
    world = clone(state)
    value = playout(game, world, policy, random.Random(5), 0)
    assert policy.asked == 7 and not game.is_over(world)
    assert value == game.estimate(world, 0)
    assert 0 < value < 1


@pytest.mark.parametrize("kind", KINDS)
def test_a_playout_advances_the_state_as_apply_does(kind: str) -> None:
    """Playouts step with :meth:`Game.advance` (no checks, no staleness): every state they reach is the one
    :meth:`Game.apply` reaches with the same actions, but for ``since``, which only the bot reads."""
    spec = GAMES[kind]
    game = spec.game
    state = positions(kind, 1)[0][0]
    advanced, applied = clone(state), clone(state)
    rng = random.Random(4)
    while not game.is_over(applied):
        seat = next_actor(game, applied, rng)
        action = spec.player.choose(game, applied, seat, random.Random(applied["step"]))
        applied = game.apply(applied, seat, action, inplace=True).state
        game.advance(advanced, seat, action)
        assert {**advanced, "since": None} == {**applied, "since": None}
    assert applied["step"] > state["step"] + 10


def test_a_playout_without_a_horizon_plays_to_the_end() -> None:
    spec = GAMES["piratz"]
    state = positions("piratz", 1)[0][0]
    world = clone(state)
    value = playout(spec.game, world, spec.player, random.Random(5), 1)
    assert spec.game.is_over(world) and value == reward(spec.game, world, 1)


def test_the_default_estimate_is_an_even_share_among_the_players_still_in() -> None:
    game = GAMES["piratz"].game
    state = game.new_game(3, seed="estimate")
    assert [game.estimate(state, p) for p in range(3)] == [pytest.approx(1 / 3)] * 3


@pytest.mark.parametrize("kind", KINDS)
def test_the_playouts_events_go_unread_and_decide_nothing(kind: str) -> None:
    """The search marks no event text (:func:`games.i18n.unread`), and decides exactly as it does with
    every event marked: no engine or AI reads the text of an event it makes."""
    spec = GAMES[kind]
    marked = search.__wrapped__  # the search without its ``unread`` context
    for state, seat in positions(kind, count=2):
        world = determinize(spec.game, state, seat, random.Random(5))
        played = []
        for context in (unread, contextlib.nullcontext):
            after = clone(world)
            with context():
                worth = playout(spec.game, after, spec.player, random.Random(9), seat, to_end=True)
            played.append((worth, after["step"]))
        assert played[0] == played[1]
        quiet = search(spec.game, state, seat, spec.player, random.Random(7), iterations=PLAYOUTS * 4)
        loud = marked(spec.game, state, seat, spec.player, random.Random(7), iterations=PLAYOUTS * 4)
        assert quiet == loud
