"""The ``hard`` AI: an information-set search over the engine's own legal actions and ``apply``.

One decision of a seat is searched at the root of its information set (single-observer ISMCTS,
Cowling, Powley and Whitehouse 2012, cut to one level: with the budget of a second, a few hundred
playouts, a deeper tree is never visited often enough to learn anything):

* Every sample is a **determinization**: a world drawn from what the seat may know, never the state
  itself. :meth:`Game.scramble` deals the other seats' secrets and the hidden piles again
  (:func:`games.core.redeal` is canonical, so the world depends only on the seat's knowledge and the
  search's own random source) and a fresh seed decides every future die and draw. Chance and other
  seats' hidden cards are therefore handled by sampling, for every game alike. A secret choice another
  seat has already made (a Pirates duel card) is made again in each world by the model of the others
  (:meth:`Game.take_back`), so that it is the card that model picks from that world's hand, not any.
* The candidates are the seat's legal actions, or the few the normal AI's own judgement keeps of a large
  choice (:meth:`Player.shortlist <games.core.Player.shortlist>`), and always the normal AI's choice.
* Each candidate action is played in that world and the game is **played out** by the game's normal AI
  for every seat (a rollout algorithm improves on its base policy). Other seats' decisions, the secret
  simultaneous choices of a Pirates duel included, are taken by that policy in the playout: no game has
  a special case. The reward is the searching player's share of the victory (:meth:`Game.controller`:
  a fleet's ships are one player; a team's seats win together). A game whose whole playouts are too
  long or too noisy for the budget sets a :meth:`Game.horizon`: its playouts stop after that many
  actions and :meth:`Game.estimate` judges the position there (Sea Rats!, the Pirates Card Game, Sewer
  Rat).
* All candidates are played in the same worlds with the same playout randomness (common random
  numbers): their comparison is paired, which removes most of the luck of the draw from it.
* The budget (a time limit, or a number of playouts for reproducible tests) is spent by **sequential
  halving** (Karnin, Koren and Somekh 2013): every round keeps the better half of the candidates, and
  the last one, between two, gets the part of the budget the game does not spend choosing
  (:attr:`Game.choosing <games.core.Game.choosing>`: half by default).
* The normal AI's own choice stays a candidate to the end and is kept unless the other finalist beats
  it by a clear margin in the last round's paired playouts (worlds that played no part in choosing that
  finalist), so with too small a budget the hard AI plays like the normal one rather than at random.

:func:`decide` is a plain top-level function over JSON, for a process pool; :class:`HardPlayer` is the
same search as a :class:`~games.core.Player`, for arenas and tests (:func:`player_for` gives a game's AI of
either level).

The search is built over any registered game's normal AI, so it sits above the registry
(:mod:`games.registry`), which names each game's AI and knows nothing of this module.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar

from games.core import JSON, Action, Game, Player, clone
from games.i18n import unread
from games.registry import GAMES, LEVELS, GameSpec
from games.simulate import next_actor

THINK_MS = 1000
"""The default time budget of one decision."""
MARGIN = 0.9
"""The part of the budget the search may plan to use: playouts are not interrupted, so it stops when
the next one would end past this part (the rest is the safety margin of the p99)."""
SWITCH_Z = 1.5
"""How many standard errors of the paired difference another action must beat the normal AI's choice
by before the search plays it instead."""
PLAYOUT_LIMIT = 5_000
"""Actions after which a playout of a game without a horizon stops as a loss (no game should get near it)."""


def determinize(game: Game, state: JSON, seat: int, rng: random.Random, policy: Player | None = None) -> JSON:
    """A world ``seat`` cannot tell from ``state``: everything it may not see dealt again (a copy where
    the game hides nothing) and a new seed for every future chance. With ``policy`` (the model of the
    others), a secret choice another seat has made and ``seat`` cannot see yet is taken back and made
    again by ``policy`` from the cards that seat was dealt (:meth:`Game.take_back`), as the playouts will
    make its next ones, rather than left to whatever card the deal put there (where ``policy`` would
    choose what ``seat`` could tell apart, one of the choices it could not, at random). Depends only on
    what ``seat`` may know and on ``rng``."""
    world = game.scramble(state, seat, rng)
    world = clone(state) if world is None else world
    world["seed"] = f"search-{rng.getrandbits(64):x}"
    if policy is not None:
        for other, again in game.take_back(world, seat).items():
            choice = policy.choose(game, world, other, rng)
            choice = choice if choice in again else rng.choice(again)  # never a choice ``seat`` would notice
            game.advance(world, other, choice)
    return world


def reward(game: Game, state: JSON, player: int) -> float:
    """``player``'s share of the victory in a finished ``state`` (0 when it has not ended)."""
    outcome = game.outcome(state)
    if outcome is None:
        return 0.0
    winners = {game.controller(state, s) for s in outcome.winners}
    return 1 / len(winners) if player in winners else 0.0


def playout(game: Game, world: JSON, policy: Player, rng: random.Random, player: int, *, to_end: bool = False) -> float:
    """Play ``world`` (in place) with ``policy`` for every seat, to the end or for the game's
    :meth:`~games.core.Game.horizon` of actions; returns ``player``'s share of the victory, or what
    :meth:`~games.core.Game.estimate` expects of it where the playout stopped. ``to_end`` ignores the
    horizon (the oracle's long measurements, :mod:`games.oracle`)."""
    horizon = None if to_end else game.horizon(world)
    limit = horizon or PLAYOUT_LIMIT
    for _ in range(limit):
        if game.is_over(world):
            return reward(game, world, player)
        seat = next_actor(game, world, rng)
        game.advance(world, seat, policy.choose(game, world, seat, rng))
    if game.is_over(world):
        return reward(game, world, player)
    return game.estimate(world, player) if horizon else 0.0


@dataclass(slots=True)
class _Arm:
    action: Action
    rewards: list[float] = field(default_factory=list)

    def mean(self, start: int = 0, stop: int | None = None) -> float:
        """The mean reward of the playouts from number ``start`` to ``stop``."""
        chosen = self.rewards[start:stop]
        return sum(chosen) / len(chosen) if chosen else 0.0


def _beats(arm: _Arm, default: _Arm, start: int) -> bool:
    """Whether ``arm`` wins clearly over ``default`` on the worlds both were played in from number ``start``."""
    diffs = [a - b for a, b in zip(arm.rewards[start:], default.rewards[start:], strict=False)]
    total = sum(diffs)
    return total > 0 and total >= SWITCH_Z * math.sqrt(sum(d * d for d in diffs))


def _pick(arms: list[_Arm], default: _Arm, fresh: int) -> Action:
    """The challenger (the best other arm on the ``fresh`` playouts of the rounds before) if it clearly beats
    the default choice on the worlds played since, else the default choice. Judging on worlds that did
    not pick the challenger keeps the luck that made it look best from deciding."""
    others = [a for a in arms if a is not default]
    if not others or (not fresh and len(others) > 1):
        return default.action
    challenger = max(others, key=lambda a: a.mean(0, fresh))
    return challenger.action if _beats(challenger, default, fresh) else default.action


class _Budget:
    """Playouts left: a fixed number, or as many as fit in the time left at the pace measured so far."""

    def __init__(self, think_ms: int, iterations: int | None) -> None:
        self.started = time.perf_counter()
        self.allowed = think_ms * MARGIN / 1000
        self.iterations = iterations
        self.played = 0

    def total(self) -> int:
        if self.iterations is not None:
            return self.iterations
        elapsed = time.perf_counter() - self.started
        return int(self.allowed * self.played / elapsed) if self.played else 0

    def out(self) -> bool:
        """Whether the next playout would end past the time allowed (never with a fixed number)."""
        if self.iterations is not None or not self.played:
            return False
        elapsed = time.perf_counter() - self.started
        return elapsed * (self.played + 1) / self.played > self.allowed


def candidates(game: Game, known: JSON, seat: int, policy: Player, rng: random.Random) -> list[Action]:
    """The moves a search compares in ``known`` (a world ``seat`` cannot tell from the state): the normal
    AI's choice first, then the rest of its :meth:`~games.core.Player.shortlist`."""
    choice = policy.choose(game, known, seat, rng)
    return [choice, *(a for a in dict.fromkeys(policy.shortlist(game, known, seat)) if a != choice)]


@unread()  # the playouts' events are never read
def search(
    game: Game,
    state: JSON,
    seat: int,
    policy: Player,
    rng: random.Random,
    *,
    think_ms: int = THINK_MS,
    iterations: int | None = None,
    pause: Callable[[], None] | None = None,
) -> Action:
    """The action ``seat`` should take in ``state``, searched within ``think_ms`` milliseconds, or with
    about ``iterations`` playouts when given (reproducible whatever the machine's speed; every round of
    the halving plays at least one world, so a small number is exceeded when there are many actions).
    ``policy`` is the game's normal AI: the default choice and the playouts' player. Reads from ``state``
    only what ``seat`` may know (every sample is a :func:`determinize`). ``pause``, when given, is called
    before every playout: the host may hold the search there while it has something more urgent to do
    (the time it holds counts against the budget)."""
    budget = _Budget(think_ms, iterations)
    legal = game.legal_actions(state, seat)
    if len(legal) == 1:
        return legal[0]
    player = game.controller(state, seat)
    arms = [_Arm(a) for a in candidates(game, determinize(game, state, seat, rng, policy), seat, policy, rng)]
    if len(arms) == 1:
        return arms[0].action
    default = arms[0]
    rounds = max(1, math.ceil(math.log2(len(arms))))  # the last round is between two arms
    fresh = 0
    for round_ in range(rounds):
        if round_:  # sequential halving: the better half goes on (the default choice always)
            better = sorted(arms, key=lambda a: -a.mean())[: math.ceil(len(arms) / 2)]
            arms = better if default in better else [default, *better[:-1]]
            fresh = len(default.rewards)
        final = round_ == rounds - 1
        before = budget.played
        worlds = 0
        # How many worlds the round plays is worked out again after each one: a timed budget's total is
        # known only once a playout has measured the pace (a choice between two moves starts with its last
        # round). The final round takes what is left.
        while worlds < (
            max(1, (budget.total() - before) // len(arms))
            if final
            else max(1, int(budget.total() * game.choosing) // (len(arms) * (rounds - 1)))
        ):
            world = determinize(game, state, seat, rng, policy)
            luck = rng.getrandbits(64)
            for arm in arms:
                if pause is not None:
                    pause()
                if budget.out():
                    return _pick(arms, default, fresh)
                after = clone(world)
                game.advance(after, seat, arm.action)
                arm.rewards.append(playout(game, after, policy, random.Random(luck), player))
                budget.played += 1
            worlds += 1
    return _pick(arms, default, fresh)


class HardPlayer(Player):
    """The ``hard`` level of a game: :func:`search` with ``policy``, the game's normal AI."""

    name: ClassVar[str] = "Hard AI"

    def __init__(self, policy: Player, think_ms: int = THINK_MS, iterations: int | None = None) -> None:
        self.policy = policy
        self.think_ms = think_ms
        self.iterations = iterations

    def choose(self, game: Game, state: JSON, seat: int, rng: random.Random) -> Action:
        own = random.Random(rng.getrandbits(64))
        return search(game, state, seat, self.policy, own, think_ms=self.think_ms, iterations=self.iterations)


def decide(
    kind: str,
    state: JSON,
    seat: int,
    think_ms: int,
    seed: str,
    iterations: int | None = None,
    pause: Callable[[], None] | None = None,
) -> str:
    """The hard AI's action for ``seat`` in a game of ``kind``, as action text: a plain top-level function
    of JSON values, so a :class:`concurrent.futures.ProcessPoolExecutor` can run it. ``seed`` makes the
    search's sampling reproducible (with ``iterations``, the decision itself)."""
    hosted = GAMES[kind]
    return search(
        hosted.game,
        state,
        seat,
        hosted.player,
        random.Random(seed),
        think_ms=think_ms,
        iterations=iterations,
        pause=pause,
    ).encode()


def player_for(spec: GameSpec, level: str, think_ms: int = THINK_MS, iterations: int | None = None) -> Player:
    """A game's AI of ``level`` (one of :data:`games.registry.LEVELS`): its normal AI, or a hard AI searching
    for ``think_ms`` per decision (or ``iterations`` playouts). In-process; a process pool calls
    :func:`decide` instead."""
    if level not in LEVELS:
        raise ValueError(f"unknown AI level {level!r}; the levels are {', '.join(LEVELS)}")
    return spec.player if level == "normal" else HardPlayer(spec.player, think_ms, iterations)
