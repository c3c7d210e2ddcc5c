"""The conformance suite: every registered game (``games.registry.GAMES``), every option set (each choice
of each option, booleans both ways) and every player count passes it by being registered.

* **Play to the end.** Seeded games with random and AI seats, the driver acting for a seeded random seat
  among those that must act (:func:`next_actor`), each action applied from its text as the bot does (so
  the engine checks it). After every step: the invariants hold; ``to_act`` has no out seat; exactly the
  seats to act have legal actions (no duplicates); ``since`` is kept; events are well formed; the state
  is plain JSON (in the slow run, only at the end of most games). The game ends, and its outcome names
  seats and whole teams. Replaying the action log from the seed gives the final state byte for byte; the
  same seed plays the same game.
* **Labels and texts** of every legal action: a non-empty label path that the menus reach
  (``path_to`` then ``walk``), a text form of at most ``ACTION_TEXT_LIMIT`` characters that decodes to
  the action.
* **Exactly the legal actions are accepted.** At sampled positions and for every seat, fuzzed texts
  (empty, blank, 5,000 characters, emoji, markdown, mentions; each legal action with leading zeros,
  non-ASCII digits, an extra argument, in upper case; actions legal elsewhere in the game or for another
  seat) are accepted iff their decoded form is a legal action of that seat. A refusal is an
  ``IllegalAction`` with a sentence (no traceback, no Python repr) and leaves the state byte-identical,
  applied in place or not.
* **No secret leaks** (see :func:`check_secrets`), and AIs decide from what their seat may know.

Positions where several seats act at once are checked at every seat like any other. The default run
plays a few games per table; ``-m slow`` plays thousands per game and option set.
"""

from __future__ import annotations

import functools
import itertools
import json
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from games.core import (
    ACTION_TEXT_LIMIT,
    JSON,
    Action,
    Event,
    Game,
    IllegalAction,
    Player,
    RandomPlayer,
    Step,
    clone,
    format_seats,
)
from games.i18n import LANGUAGES, N, joined, localize
from games.registry import GAMES, GameSpec
from games.simulate import next_actor
from tables.menus import path_to, walk
from tests.toy_game import TOY

MAX_STEPS = 5000
RANDOM = RandomPlayer()


@dataclass(frozen=True)
class Table:
    """One game, option set and player count."""

    kind: str
    players: int
    options: tuple[tuple[str, Any], ...]

    @property
    def spec(self) -> GameSpec:
        return SPECS[self.kind]

    @property
    def game(self) -> Game:
        return self.spec.game

    @property
    def chosen(self) -> dict[str, Any]:
        return dict(self.options)

    def seed(self, label: str, i: int) -> str:
        # Distinctive, so that a view or message containing the seed is caught.
        options = "-".join(f"{k}={v}" for k, v in self.options)
        return f"conformance-{label}-{self.kind}-{self.players}-{options}-{i}"


SPECS: dict[str, GameSpec] = {**GAMES, TOY.kind: TOY}
"""Every registered game, and the test-only toy game (secret simultaneous choices, fleets, teams)."""


def tables(*, ends: bool = False) -> list[Any]:
    """Every game with every combination of option choices and every player count. The default run takes
    the fewest players, one more and the most (the counts where a game's setup changes) — with ``ends``,
    for the heaviest checks, the fewest and the most only; the other counts run with ``-m slow``."""
    params = []
    for kind, spec in SPECS.items():
        game = spec.game
        values = []
        for option in game.options:
            if option.choices:
                values.append([(option.name, c) for c in option.choices])
            elif isinstance(option.default, bool):
                values.append([(option.name, False), (option.name, True)])
            else:
                values.append([(option.name, option.default)])
        for combo in itertools.product(*values):
            for players in range(game.min_players, game.max_players + 1):
                if not fits(game, players, dict(combo)):
                    continue  # refused when the table is made (test_player_counts_the_game_refuses)
                table = Table(kind, players, tuple(combo))
                name = "-".join([kind, f"{players}p", *(f"{k}={v}" for k, v in combo)])
                edge = players in (game.min_players, game.max_players) or (players == game.min_players + 1 and not ends)
                params.append(pytest.param(table, id=name, marks=() if edge else pytest.mark.slow))
    return params


def fits(game: Game, players: int, options: dict[str, Any]) -> bool:
    try:
        game.check_players(players, game.resolve_options(options))
    except IllegalAction:
        return False
    return True


TABLES = tables()
TABLE_ENDS = tables(ends=True)


def test_player_counts_the_game_refuses_are_refused_by_new_game() -> None:
    """Every option set and player count a game refuses (``check_players``) is never set up."""
    refused = 0
    for spec in SPECS.values():
        game = spec.game
        for option in game.options:
            for choice in option.choices or ():
                for players in range(game.min_players, game.max_players + 1):
                    if not fits(game, players, {option.name: choice}):
                        refused += 1
                        with pytest.raises(IllegalAction):
                            game.new_game(players, {option.name: choice}, "refused")
    assert refused  # Sewer Rat's teams refuse some counts


def dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def seat_players(spec: GameSpec, seats: int, i: int) -> list[Player]:
    """The game's AI in about a third of the seats (which ones varies with ``i``), random players elsewhere."""
    return [spec.player if (i + s) % 3 == 0 else RANDOM for s in range(seats)]


# ---------------------------------------------------------------------------------------------- play


def check_position(game: Game, state: JSON, players: int, where: str) -> dict[int, list[Action]]:
    """The checks made before every step; returns every seat's legal actions."""
    assert not game.check_invariants(state), f"{where}: {game.check_invariants(state)}"
    seats = state["seats"]
    to_act = game.to_act(state)
    out = game.out(state)
    assert len(set(to_act)) == len(to_act) and all(0 <= s < seats for s in to_act), f"{where}: to_act {to_act}"
    assert not out & set(to_act), f"{where}: out seats {sorted(out)} must act: {to_act}"
    assert (game.outcome(state) is None) == bool(to_act), f"{where}: to_act {to_act} but outcome {game.outcome(state)}"
    teams = game.teams(state)
    assert sorted(s for team in teams for s in team) == list(range(seats)), f"{where}: teams {teams}"
    legal = {s: game.legal_actions(state, s) for s in range(seats)}
    for s, actions in legal.items():
        assert bool(actions) == (s in to_act), f"{where}: seat {s} (to act: {to_act}) has legal actions {actions}"
        assert len(set(actions)) == len(actions), f"{where}: seat {s} has duplicate actions {actions}"
        assert 0 <= game.controller(state, s) < players, f"{where}: seat {s} has no player"
    return legal


def check_events(events: list[Event], seats: int, where: str) -> None:
    for e in events:
        assert isinstance(e, Event) and isinstance(e.text, str) and e.text.strip(), f"{where}: event {e!r}"
        assert e.seat is None or 0 <= e.seat < seats, f"{where}: event to seat {e.seat}"
        if e.data is not None:
            assert json.loads(json.dumps(e.data)) == e.data, f"{where}: event data is not plain JSON: {e.data}"


def check_since(
    game: Game, state: JSON, seat: int, before: dict[int, list[Action]], since: list[int], where: str
) -> None:
    """``apply`` restarts the decision of the seat that acted and of seats whose decision changed, and only
    theirs: another seat's pending choice stays fresh."""
    step = state["step"]
    now = state["since"]
    assert len(now) == state["seats"] and now[seat] == step and max(now) <= step, f"{where}: since {now}"
    after = game.to_act(state)
    for s, legal in before.items():
        if s != seat and bool(legal) == (s in after) and game.legal_actions(state, s) == legal:
            assert now[s] == since[s], f"{where}: seat {s}'s unchanged decision became stale"


def check_outcome(game: Game, state: JSON, where: str) -> None:
    outcome = game.outcome(state)
    assert outcome is not None and game.to_act(state) == ()
    seats = state["seats"]
    assert len(outcome.scores) == seats, f"{where}: scores {outcome.scores}"
    assert all(isinstance(w, int) and 0 <= w < seats for w in outcome.winners), f"{where}: {outcome.winners}"
    assert len(set(outcome.winners)) == len(outcome.winners), f"{where}: winners {outcome.winners}"
    for team in game.teams(state):
        won = {s in outcome.winners for s in team}
        assert len(won) == 1, f"{where}: part of team {team} won: {outcome.winners}"
    assert isinstance(outcome.summary, str) and outcome.summary.strip(), f"{where}: no result summary"


@dataclass
class Played:
    """One finished game: its action log, final state and the positions kept on the way."""

    seed: str
    log: list[tuple[int, str]]
    state: JSON
    positions: list[JSON] = field(default_factory=list)


def check_json(state: JSON, where: str) -> None:
    assert json.loads(json.dumps(state)) == state, f"{where}: the state is not plain JSON"


def play(table: Table, seed: str, i: int, *, keep: bool = False) -> Played:
    """Play one seeded game to the end with the checks of every step; with ``keep``, keep a copy of every
    position, each checked to be plain JSON (else only the final state is: the check costs a fifth of
    the run)."""
    game = table.game
    state = game.new_game(table.players, table.chosen, seed)
    assert dumps(state) == dumps(game.new_game(table.players, table.chosen, seed)), f"{seed}: setup not seeded"
    players = seat_players(table.spec, state["seats"], i)
    drive, choose = random.Random(f"{seed}/drive"), random.Random(f"{seed}/choose")
    played = Played(seed, [], state)
    while True:
        where = f"seed {seed!r} step {state['step']}"
        legal = check_position(game, state, table.players, where)
        to_act = game.to_act(state)
        if keep:
            check_json(state, where)
            played.positions.append(clone(state))
        if not to_act:
            break
        assert state["step"] < MAX_STEPS, f"{where}: the game does not end"
        seat = next_actor(game, state, drive)
        action = players[seat].choose(game, state, seat, choose)
        text = action.encode()
        since = list(state["since"])
        events = game.apply(state, seat, text, inplace=True).events  # not trusted: the engine checks it
        played.log.append((seat, text))
        where = f"{where} seat {seat} `{text}`"
        check_events(events, state["seats"], where)
        check_since(game, state, seat, legal, since, where)
    check_json(state, f"seed {seed!r}")
    check_outcome(game, state, f"seed {seed!r}")
    return played


def replay(table: Table, played: Played) -> JSON:
    """The final state rebuilt from the seed and the action texts."""
    game = table.game
    state = game.new_game(table.players, table.chosen, played.seed)
    for k, (seat, text) in enumerate(played.log):
        try:
            game.apply(state, seat, text, inplace=True)
        except IllegalAction as exc:
            raise AssertionError(f"{played.seed}: action {k} (seat {seat} `{text}`) does not replay: {exc}") from None
    return state


def check_game(table: Table, played: Played) -> None:
    assert dumps(replay(table, played)) == dumps(played.state), f"{played.seed}: the log replays differently"


def sample(game: Game, states: list[JSON], count: int) -> list[JSON]:
    """About ``count`` positions spread over a game, the first where several seats act at once included."""
    picked = states[:: max(len(states) // count, 1)]
    several = next((s for s in states if len(game.to_act(s)) > 1), None)
    if several is not None and not any(len(game.to_act(s)) > 1 for s in picked):
        picked.append(several)
    return picked


@functools.cache
def positions(table: Table) -> tuple[str, ...]:
    """About 20 positions from each of two seeded games (as JSON text, so no test can change another's)."""
    found: list[str] = []
    for i in range(2):
        played = play(table, table.seed("positions", i), i, keep=True)
        found += [dumps(p) for p in sample(table.game, played.positions, 20)]
    return tuple(found)


def each_position(table: Table) -> Iterator[tuple[JSON, str]]:
    for text in positions(table):
        state = json.loads(text)
        yield state, f"seed {state['seed']!r} step {state['step']}"


# ---------------------------------------------------------------------------------------------- labels


def check_labels(game: Game, state: JSON, where: str) -> None:
    """Every legal action of every seat to act has a label path the menus reach and a short text form."""
    for seat in game.to_act(state):
        choices = game.choices(state, seat)
        assert [c.action for c in choices] == game.legal_actions(state, seat), f"{where}: choices of seat {seat}"
        for c in choices:
            text = c.action.encode()
            at = f"{where} seat {seat} `{text}`"
            assert len(text) <= ACTION_TEXT_LIMIT, f"{at}: text longer than {ACTION_TEXT_LIMIT}"
            assert Action.decode(text) == c.action, f"{at}: decodes to {Action.decode(text)}"
            assert c.path and all(isinstance(label, str) and label.strip() for label in c.path), f"{at}: {c.path}"
            try:
                first, path = path_to(choices, c)
            except ValueError as exc:
                raise AssertionError(f"{at}: {exc}") from None
            assert walk(choices, first, path) == c, f"{at}: the menus do not reach {c.path}"
            assert game.choice(state, seat, c.action) == c, f"{at}: its choice alone differs from the list's"


# ---------------------------------------------------------------------------------------------- fuzzing

ODD_TEXTS = (
    "",
    " ",
    "\n\t ",
    "x" * 5000,
    "🏴‍☠️",
    "🦜 🦜",
    "<@123>",
    "<@!123456789012345678>",
    "@everyone",
    "@here",
    "**bury** 1",
    "`pass`",
    "||reveal||",
    "> end",
    "\u200b",
    "ｐａｓｓ",
    "None",
    "0",
    "-1",
)
DIGITS = "0123456789"
OTHER_DIGITS = ("⁰¹²³⁴⁵⁶⁷⁸⁹", "٠١٢٣٤٥٦٧٨٩", "０１２３４５６７８９", "𝟎𝟏𝟐𝟑𝟒𝟓𝟔𝟕𝟖𝟗")
UNREADABLE = re.compile(r"Traceback|File \"|Action\(|\w+Error\b|<class |object at 0x|\\n")


def variants(action: Action) -> list[str]:
    """Near misses (and a few harmless spellings) of a legal action's text."""
    text = action.encode()
    verb, args = action.verb, list(action.args)
    out = [
        text.upper(),
        text.title(),
        f"  {text}  ",
        text.replace(" ", "   "),
        f"{text} 1",
        f"{text} extra",
        f"**{verb}** {' '.join(args)}",
        f"`{text}`",
        f"{text} 🏴‍☠️",
        f"🏴‍☠️{text}",
        f"{text} <@123>",
        f"@everyone {text}",
    ]
    if args:
        out.append(verb)
    for k, arg in enumerate(args):

        def spelled(new: str, k: int = k) -> str:
            return " ".join([verb, *args[:k], new, *args[k + 1 :]])

        out += [spelled(f"{arg}x"), spelled("-" + arg)]
        if arg.isascii() and arg.isdigit():
            out += [spelled("0" + arg), spelled("00" + arg), spelled("+" + arg), spelled(str(int(arg) + 1000))]
            out += [spelled(arg.translate(str.maketrans(DIGITS, digits))) for digits in OTHER_DIGITS]
    return out


def acceptable(text: str, legal: list[Action]) -> bool:
    """Whether ``apply`` must accept ``text``: its decoded form (``Action.decode`` lower-cases and splits on
    whitespace) is one of the seat's legal actions."""
    try:
        return Action.decode(text) in legal
    except IllegalAction:
        return False


def attempt(game: Game, state: JSON, before: str, seat: int, text: str, legal: list[Action], where: str) -> None:
    """Apply ``text`` for ``seat`` (``before`` is the state's JSON): accepted iff acceptable, without changing
    its input; refused readably, changing nothing, whether applied purely or in place."""
    accept = acceptable(text, legal)
    at = f"{where} seat {seat} {text[:80]!r}"
    for inplace in (False, True) if not accept else (False,):
        target = clone(state) if inplace else state
        try:
            game.apply(target, seat, text, inplace=inplace)
        except IllegalAction as exc:
            message = str(exc)
            assert not accept, f"{at}: a legal action was refused: {message}"
            assert message.strip() and len(message) <= 300, f"{at}: refusal {message!r}"
            assert not UNREADABLE.search(message), f"{at}: refusal is not a sentence: {message!r}"
        else:
            assert accept, f"{at}: accepted, but {Action.decode(text)} is not legal for seat {seat}"
        assert dumps(target) == before, f"{at}: the state changed (accepted: {accept}, in place: {inplace})"


def check_refusals(game: Game, state: JSON, pool: list[str], rng: random.Random, where: str, *, sample: int) -> None:
    """:func:`attempt`, for each seat to act: odd texts, every legal action of every seat to act, near misses
    of ``sample`` of its own, and ``sample`` texts from ``pool`` (actions legal somewhere in the game); for
    each other seat: every legal action of the seats to act."""
    before = dumps(state)
    to_act = game.to_act(state)
    legal = {s: game.legal_actions(state, s) for s in range(state["seats"])}
    acting = [a.encode() for s in to_act for a in legal[s]]
    for seat in range(state["seats"]):
        texts = list(acting)
        if seat in to_act:
            texts += [*ODD_TEXTS, *rng.sample(pool, min(sample, len(pool)))]
            for action in rng.sample(legal[seat], min(sample, len(legal[seat]))):
                texts += variants(action)
        for text in dict.fromkeys(texts):
            attempt(game, state, before, seat, text, legal[seat], where)


@functools.cache
def action_pool(table: Table) -> list[str]:
    """Every action text legal at some position of the sampled games: realistic illegal texts elsewhere."""
    game = table.game
    texts = {
        a.encode()
        for state, _ in each_position(table)
        for s in range(state["seats"])
        for a in game.legal_actions(state, s)
    }
    return sorted(texts)


# ---------------------------------------------------------------------------------------------- secrets


def seen(events: list[Event], seat: int | None) -> list[tuple[str, int | None, str]]:
    """What ``seat`` reads of ``events``: the public ones and its own."""
    return [(e.text, e.seat, dumps(e.data)) for e in events if e.seat is None or e.seat == seat]


def check_told(game: Game, one: Step, two: Step, seat: int | None, at: str) -> None:
    """Two steps from positions that ``seat`` cannot tell apart: the events it reads may differ only if the
    steps showed it something by the rules, which its view then shows too (see :func:`check_secrets`)."""
    if seen(one.events, seat) != seen(two.events, seat):
        after = dumps(game.view(one.state, seat)), dumps(game.view(two.state, seat))
        assert after[0] != after[1], (
            f"{at}: the events differ but the view does not: {seen(one.events, seat)} != {seen(two.events, seat)}"
        )


def check_views(game: Game, state: JSON, where: str) -> None:
    """Every seat's and the spectators' view is plain JSON without the seed, with its texts."""
    for seat in (*range(state["seats"]), None):
        view = game.view(state, seat)
        text = dumps(view)
        at = f"{where} viewer {seat}"
        assert json.loads(text) == view, f"{at}: the view is not plain JSON"
        assert state["seed"] not in text, f"{at}: the view shows the seed"
        assert isinstance(game.seat_summary(view), str) and isinstance(game.summary(view), str), at


def check_secrets(game: Game, ai: Player, state: JSON, rng: random.Random, where: str) -> bool:
    """What a seat S (or a spectator, ``None``) sees must not change when everything S may not know is
    changed (``game.scramble(state, S)``: other hands dealt again, hidden piles reshuffled, a new seed): its
    view, its private text, the spectators' view and summary, its choices and labels. An AI in S's seat
    picks the same action in both.

    Events are checked by stepping: each seat to act takes one of its legal actions in both positions
    (not when the action is illegal in the scrambled one: its legality depended on that seat's own
    secrets, which are not S's to see). The events S reads (public ones and its own) may differ only if
    the step showed S something by the rules, which then shows in S's view after the step too: the card
    S drew, the card revealed from the hidden deck (the view lists the latest public events), the tokens
    shown at the final scoring. So if S's views after the step are the same in both worlds, S's events
    must be the same. An event that tells S another seat's secret without its view changing fails; most
    steps (moves, bids, seizing, passing) reveal nothing, and there S's events must simply be equal.

    Returns whether the game hides anything from anyone here."""
    hidden = False
    spectators = dumps(game.view(state, None))
    for seat in (*range(state["seats"]), None):
        other = game.scramble(state, seat, rng)
        if other is None:
            continue
        hidden = True
        at = f"{where} viewer {seat}"
        view = game.view(state, seat)
        assert not game.check_invariants(other), f"{at}: scrambled state breaks {game.check_invariants(other)}"
        assert game.to_act(other) == game.to_act(state), f"{at}: scrambling changed who acts"
        assert dumps(game.view(other, seat)) == dumps(view), f"{at}: the view shows what the seat may not know"
        assert game.seat_summary(game.view(other, seat)) == game.seat_summary(view), f"{at}: private text leaks"
        assert dumps(game.view(other, None)) == spectators, f"{at}: the spectators' view leaks"
        assert game.summary(game.view(other, None)) == game.summary(json.loads(spectators)), f"{at}: summary leaks"
        if seat is not None:
            assert game.choices(other, seat) == game.choices(state, seat), f"{at}: choices or labels leak"
            if seat in game.to_act(state):
                pick = ai.choose(game, state, seat, random.Random(where))
                assert ai.choose(game, other, seat, random.Random(where)) == pick, f"{at}: the AI reads secrets"
        for actor in game.to_act(state):
            action = rng.choice(game.legal_actions(state, actor))
            if action in game.legal_actions(other, actor):
                steps = game.apply(state, actor, action), game.apply(other, actor, action)
                check_told(game, *steps, seat, f"{at}: after seat {actor}'s `{action}`")
    return hidden


def check_secret_choices(game: Game, state: JSON, rng: random.Random, where: str) -> None:
    """A secret choice stays secret until the rules reveal it: whichever of its options the chooser takes,
    the other seats and the spectators read the same events, unless their views show the difference (the
    choices revealed when the last seat has chosen)."""
    for actor in game.to_act(state):
        legal = game.legal_actions(state, actor)
        if not game.secret(state, actor) or len(legal) < 2:
            continue
        one, two = rng.sample(legal, 2)
        steps = game.apply(state, actor, one), game.apply(state, actor, two)
        for seat in (*(s for s in range(state["seats"]) if s != actor), None):
            check_told(game, *steps, seat, f"{where} viewer {seat}: seat {actor}'s secret `{one}` or `{two}`")


# ---------------------------------------------------------------------------------------------- tests


@pytest.mark.parametrize("table", TABLES)
def test_games_play_to_the_end_and_replay_from_the_seed(table: Table) -> None:
    for i in range(3):
        played = play(table, table.seed("play", i), i, keep=True)
        check_game(table, played)
        if i == 0:
            again = play(table, played.seed, i)
            assert again.log == played.log and dumps(again.state) == dumps(played.state), "same seed, other game"


@pytest.mark.parametrize("table", TABLE_ENDS)
def test_legal_actions_have_labels_and_texts(table: Table) -> None:
    for state, where in each_position(table):
        check_labels(table.game, state, where)


@pytest.mark.parametrize("table", TABLE_ENDS)
def test_the_engine_accepts_exactly_its_legal_actions(table: Table) -> None:
    rng = random.Random(table.seed("fuzz", 0))
    for state, where in each_position(table):
        check_refusals(table.game, state, action_pool(table), rng, where, sample=3)


@pytest.mark.parametrize("table", TABLES)
def test_no_seat_sees_another_seats_secrets(table: Table) -> None:
    game = table.game
    rng = random.Random(table.seed("secrets", 0))
    hidden = secret_choices = False
    for state, where in each_position(table):
        check_views(game, state, where)
        hidden |= check_secrets(game, table.spec.player, state, rng, where)
        check_secret_choices(game, state, rng, where)
        secret_choices |= any(game.secret(state, s) for s in game.to_act(state))
    assert hidden or not secret_choices, f"{table.kind} has secret choices but no Game.scramble to test them"


REPR = re.compile(r"\{'|'\}|\[|\]|\bNone\b|\bTrue\b|\bFalse\b|\{p\d|\{\w+\}")
"""What a Python value, not a sentence, looks like in a line of text."""


@pytest.mark.parametrize("table", TABLES)
def test_what_a_board_waits_for_and_its_description_are_sentences(table: Table) -> None:
    """The board's ➡️ line (``prompt``) and the image's description (``summary``) read as sentences at every
    position, for every viewer, in every language: never a repr."""
    game = table.game
    names = [f"Player{s}" for s in range(32)]
    for state, where in each_position(table):
        for seat in (None, *game.to_act(state)):
            view = game.view(state, seat)
            prompt = game.prompt(view)
            assert prompt is None or isinstance(prompt, str), f"{where}: prompt {prompt!r}"
            for text in (prompt, game.summary(view)):
                for lang in LANGUAGES if text else ():
                    shown = localize(format_seats(text, names), lang)
                    assert not REPR.search(shown), f"{where} viewer {seat}: {shown!r}"
                    assert not UNREADABLE.search(shown), f"{where} viewer {seat}: {shown!r}"


SLOW_GAMES = 1000
"""Games per game and option set in the slow run, shared among the player counts."""


@pytest.mark.slow
@pytest.mark.parametrize("table", TABLES)
def test_many_games(table: Table) -> None:
    """Thousands of games per game and option set, with the checks of every step and the replay; labels,
    refusals and secrets at a position of every tenth game."""
    game = table.game
    counts = game.max_players - game.min_players + 1
    rng = random.Random(table.seed("slow", 0))
    pool = action_pool(table)
    for i in range(-(-SLOW_GAMES // counts)):
        played = play(table, table.seed("slow", i), i, keep=i % 10 == 0)
        check_game(table, played)
        if played.positions:
            state = rng.choice(played.positions)
            where = f"seed {played.seed!r} step {state['step']}"
            check_labels(game, state, where)
            check_refusals(game, state, pool, rng, where, sample=2)
            check_views(game, state, where)
            check_secrets(game, table.spec.player, state, rng, where)
            check_secret_choices(game, state, rng, where)


def test_counts_and_lists_read_as_sentences_in_each_language() -> None:
    cards = [N("{n} card", "{n} cards", n) for n in (1, 3)]
    assert [localize(c) for c in cards] == ["1 card", "3 cards"]
    lists = [joined(n) for n in ([], ["A"], ["A", "B"], ["A", "B", "C"])]
    assert [localize(t) for t in lists] == ["", "A", "A and B", "A, B, and C"]  # CLDR's English list pattern
    assert [localize(t, "de") for t in lists] == ["", "A", "A und B", "A, B und C"]
