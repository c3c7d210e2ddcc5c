"""The engine contract shared by every game.

A game is a set of pure functions over a JSON-serialisable ``state`` dict (boardgame.io / OpenSpiel
style). The platform (store, cogs, renderers, benchmarks) talks to every game only through
:class:`Game`, so a new game plugs in by subclassing it.

Conventions every game follows:

* ``state`` holds only JSON values (dict, list, str, int, bool, None). It carries the game's secret
  ``seed`` and the ``step`` counter; randomness comes only from :meth:`Game.rng`, derived from both, so
  replaying the action log from the seed reproduces the state exactly.
* Actions are :class:`Action` values with a stable text form (``"pass coins"``, ``"bury 12"``), used in
  autocomplete, button custom ids and the action log.
* A decision that could have very many options is split into a sequence of small decisions (discard
  one card at a time), so every legal-action list stays short and fits Discord's pickers.
* **Text meant for players is marked, never English** (:mod:`games.i18n`): ``T("{seat} passed.",
  seat=seat_ref(2))``, ``N("{n} card", "{n} cards", n)``. It mentions seats as ``{p0}``, ``{p1}``...
  (:func:`~games.i18n.seat_ref`), which the platform replaces with names (:func:`format_seats`), and is
  written out in each reader's language where it is shown. Engines never see user names or languages.
* :meth:`Game.view` is the only thing renderers and message builders receive. It must never contain
  the seed, the order of a hidden deck, or another seat's secrets.
* **The engine accepts exactly its legal actions.** :meth:`Game.apply` checks every untrusted action
  against :meth:`Game.legal_actions` (one shared check, so no engine can accept ``bury 019`` for
  ``bury 19``); only drivers that picked the action from that list may skip it (``trusted=True``).
* **Seats and players.** A *seat* is what the rules move (a rat, a ship, a hand); a *player* is a person
  or AI at the table. A new state holds their numbers in ``state["players"]`` and ``state["seats"]``
  (the platform reads neither from the state; an engine may keep its per-player data under
  ``players``). Most games have one seat per player; a game may give a player several seats
  (:meth:`Game.seat_count`, :meth:`Game.controller`: a fleet of ships) and group seats into teams that
  win together (:meth:`Game.teams`). Seats can drop out while the others play on (:meth:`Game.out`).
* **The first label of a choice is public.** Everyone sees the board's buttons, which are the first
  labels of the choices of every seat that must act. When a seat's choice is secret
  (:meth:`Game.secret`), everything below the first label is shown only to that seat, and its events
  must not reveal the choice before the rules do.
* **Staleness is per decision.** ``state["since"][seat]`` is the step at which a seat's current decision
  began (it acted, started or stopped having to act, or its legal actions changed). A click made on the
  board of step ``v`` is still good for that seat while ``since[seat] <= v``: one seat's secret choice
  does not make another seat's open picker out of date. :meth:`Game.apply` keeps it; engines don't.
* **Chance that people see.** Dice rolls and reveals are :class:`Event` s with structured ``data``
  (:func:`dice`), derived from the seed like all randomness, so the thread and the board can show them.
"""

from __future__ import annotations

import functools
import json
import marshal
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, ClassVar, NamedTuple

from games.i18n import N, T, with_names
from games.i18n import joined as joined

JSON = dict[str, Any]

ACTION_TEXT_LIMIT = 60
"""Longest action text an engine may produce or a player may type. Action texts appear in
``/<game> move`` (whose autocomplete values Discord caps at 100 characters) and in the action log;
buttons carry menu paths, not action texts. The conformance suite checks every legal action against it."""


class IllegalAction(ValueError):
    """An action the rules forbid. ``str(exc)`` is a sentence a player can read."""


class Action(NamedTuple):
    """One move in text form: a verb and its arguments, e.g. ``Action("pass", ("coins",))``.

    Immutable and hashable. A named tuple rather than a frozen dataclass because engines and AIs build
    tens of thousands of these per second of self-play, and a tuple is about three times cheaper to make.
    """

    verb: str
    args: tuple[str, ...] = ()

    def encode(self) -> str:
        return " ".join((self.verb, *self.args))

    @classmethod
    def decode(cls, text: str) -> Action:
        tokens = text.strip().lower().split()
        if not tokens:
            raise IllegalAction(T("Type an action, for example one offered by autocomplete."))
        if len(text) > ACTION_TEXT_LIMIT:
            raise IllegalAction(T("That action text is too long to be a move in this game."))
        return cls(tokens[0], tuple(tokens[1:]))

    def __str__(self) -> str:
        return self.encode()


@functools.lru_cache(maxsize=8192)
def act(verb: str, *args: object) -> Action:
    """Shorthand used by engines: ``act("bury", 12)`` -> ``Action("bury", ("12",))``. Remembered: an AI
    asks for the same few actions again at every decision of every playout (an action is immutable)."""
    return Action(verb, tuple([str(a) for a in args]))


@dataclass(frozen=True, slots=True)
class Choice:
    """A legal action with the readable labels a player picks it by.

    ``path`` goes from the broadest label to the most specific one, for example
    ``("Pass", "Coins: take 3 cards")``. The Discord layer turns the first label into a button and
    the rest into pickers, and joins them with " → " for autocomplete. The first label is public;
    when ``secret`` is set, the rest is shown to the choosing seat only (in its own ephemeral picker).
    """

    action: Action
    path: tuple[str, ...]
    secret: bool = False

    @property
    def label(self) -> str:
        return " → ".join(self.path)


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened. ``seat is None`` means everyone may read it; otherwise only that seat.

    ``data`` carries the structured facts behind the text, for the thread and the board to show: dice
    (``{"dice": [{"die": "yellow d8", "sides": 8, "value": 5}, ...]}``, see :func:`dice`) or revealed
    cards (``{"reveal": ["Ace of spades", ...]}``). JSON values only.
    """

    text: str
    seat: int | None = None
    data: Mapping[str, Any] | None = None


def dice(*rolls: tuple[str, int, int]) -> dict[str, Any]:
    """Event data for a roll: ``dice(("yellow d8", 8, 5), ("green d8", 8, 2))``."""
    return {"dice": [{"die": die, "sides": sides, "value": value} for die, sides, value in rolls]}


LOG_SIZE = 6
"""Public events a state keeps for its board's recent events (:func:`remember`)."""


def remember(state: JSON, events: Sequence[Event]) -> None:
    """Keep the public ``events`` of a move in ``state["log"]``, the last :data:`LOG_SIZE` of them, for the
    view to show as the board's recent events. A game stored before its log began has none: it starts
    with its next move."""
    log = state.setdefault("log", [])
    log.extend(e.text for e in events if e.seat is None)
    del log[:-LOG_SIZE]


class Termination(Enum):
    """How a game ended (python-chess's ``Termination``, for board games)."""

    RULES = "finished by the rules"
    LAST_STANDING = "last one standing"
    SAFETY_LIMIT = "stopped at the safety limit"
    RESIGNATION = "decided by resignation"
    ABANDONED = "abandoned"


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended. ``scores`` is indexed by seat; tied winners share the victory; the
    winners of a team game are every seat of the winning team(s)."""

    winners: tuple[int, ...]
    scores: tuple[int, ...]
    summary: str
    termination: Termination = Termination.RULES


@dataclass(frozen=True, slots=True)
class Option:
    """A table option chosen when the game is created (``blind``, ``variant``...)."""

    name: str
    description: str
    default: Any
    choices: tuple[str, ...] = ()
    labels: tuple[str, ...] = ()
    """How each choice is shown to players, in the order of ``choices`` (default: the choice itself)."""
    bounds: tuple[int, int] | None = None
    """The lowest and highest value of a whole-number option."""

    def label(self, choice: str) -> str:
        return self.labels[self.choices.index(choice)] if self.labels else choice

    def validate(self, value: Any) -> Any:
        """``value`` as this option's type (a whole number given as text is read as one), or
        :class:`IllegalAction` saying what fits."""
        if self.choices:
            if value not in self.choices:
                raise IllegalAction(
                    T("`{name}` must be one of: {choices}.", name=self.name, choices=", ".join(self.choices))
                )
            return value
        if isinstance(self.default, bool):
            return bool(value)
        if isinstance(self.default, int):
            text = str(value).strip()
            if isinstance(value, bool) or not text.lstrip("-").isdigit() or not text.isascii():
                raise IllegalAction(
                    T("`{name}` must be a whole number, not {value}.", name=self.name, value=repr(text[:20]))
                )
            number = int(text)
            low, high = self.bounds or (number, number)
            if not low <= number <= high:
                raise IllegalAction(T("`{name}` must be between {low} and {high}.", name=self.name, low=low, high=high))
            return number
        return value


@dataclass(frozen=True, slots=True)
class Lapse:
    """A decision the rules let lapse: ``after`` seconds after ``seat``'s decision began (``since``),
    the platform applies ``action`` for it (trusted: a lapse is never one of the player's own moves)."""

    seat: int
    after: float
    action: Action


@dataclass(slots=True)
class Step:
    """What :meth:`Game.apply` returns: the new state and the events it produced."""

    state: JSON
    events: list[Event] = field(default_factory=list)


def clone(state: JSON) -> JSON:
    """A deep copy of a JSON state (marshal is several times faster than ``copy.deepcopy``)."""
    return marshal.loads(marshal.dumps(state))


def redeal(piles: Sequence[list[Any]], rng: random.Random) -> None:
    """Shuffle the contents of ``piles`` together and deal them back, each pile keeping its size (in place):
    how :meth:`Game.scramble` gives hidden cards or tokens a new, equally possible arrangement.

    Canonical: the pooled items are sorted before the shuffle, so the deal depends only on which items
    the piles hold together (what the scrambling seat may know) and on ``rng``, never on where they
    lay. A search that samples its worlds this way decides the same whatever the hidden order was."""
    pool = sorted((item for pile in piles for item in pile), key=_canonical)
    rng.shuffle(pool)
    start = 0
    for pile in piles:
        pile[:] = pool[start : start + len(pile)]
        start += len(pile)


def _canonical(item: Any) -> str:
    return json.dumps(item, sort_keys=True)


def format_seats(text: str, names: Sequence[str]) -> str:
    """Replace ``{p0}``... in engine text (marked or not) with display names (a missing seat: "seat N")."""
    return with_names(text, names)


class Game(ABC):
    """Base class of every rules engine. Subclasses are stateless; all state lives in the JSON dict."""

    kind: ClassVar[str]
    """The game's one identifier: its slash-command group, registry key and stored ``kind``."""
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[tuple[Option, ...]] = ()
    scores_title: ClassVar[str] = T("Scores")
    """How the result line introduces the scores."""
    choosing: ClassVar[float] = 0.5
    """The part of a hard AI's decision spent choosing the move that challenges the normal AI's choice (the
    halving's rounds before the last, :func:`games.search.search`); the rest goes to the last round, which
    alone decides between the two. 0.5 is plain sequential halving's share for three or four moves."""

    def score_text(self, n: int) -> str:
        """A score of ``n`` as the result line shows it (marked: ``N("{n} point", "{n} points", n)``)."""
        return N("{n} point", "{n} points", n)

    # ------------------------------------------------------------------ lifecycle

    def new_game(self, players: int, options: Mapping[str, Any] | None = None, seed: str = "0") -> JSON:
        """A fresh game for ``players`` players, deterministic given ``seed``."""
        chosen = self.resolve_options(options or {})
        self.check_players(players, chosen)
        seats = self.seat_count(players, chosen)
        state: JSON = {
            "game": self.kind,
            "seed": str(seed),
            "step": 0,
            "players": players,
            "seats": seats,
            "options": chosen,
            "since": [0] * seats,
        }
        self.setup(state, random.Random(f"{seed}/setup"))
        return state

    def check_players(self, players: int, options: Mapping[str, Any]) -> None:
        """Raise :class:`IllegalAction`, in one line saying which counts fit, when ``players`` players cannot
        play with ``options`` (the platform asks when a table is made and when it starts)."""
        if not self.min_players <= players <= self.max_players:
            raise IllegalAction(
                T(
                    "{game} takes {low}–{high} players, not {players}.",
                    game=self.title,
                    low=self.min_players,
                    high=self.max_players,
                    players=players,
                )
            )

    def waiting(self, state: JSON, seat: int) -> str | None:
        """Why ``seat``, which may not act now, is waiting, as a sentence with ``{pN}`` placeholders (for
        example another player's decision inside ``seat``'s own turn); ``None``: the platform says whom
        it waits for."""
        return None

    def seat_count(self, players: int, options: Mapping[str, Any]) -> int:
        """How many seats a game for ``players`` has (a fleet of ships per player: more than players)."""
        return players

    @classmethod
    def option(cls, name: str) -> Option:
        """The table option called ``name`` (the cogs build their command options from it)."""
        return next(o for o in cls.options if o.name == name)

    def resolve_options(self, options: Mapping[str, Any]) -> JSON:
        known = {o.name: o for o in self.options}
        for name in options:
            if name not in known:
                raise IllegalAction(T("{game} has no option `{name}`.", game=self.title, name=name))
        return {o.name: o.validate(options.get(o.name, o.default)) for o in self.options}

    @abstractmethod
    def setup(self, state: JSON, rng: random.Random) -> None:
        """Fill in a new ``state`` (which already has seed, step, seats and options)."""

    # ------------------------------------------------------------------ queries

    @abstractmethod
    def to_act(self, state: JSON) -> tuple[int, ...]:
        """Seats that must decide now (several for simultaneous choices; empty once the game is over)."""

    @abstractmethod
    def legal_actions(self, state: JSON, seat: int) -> list[Action]:
        """Every action ``seat`` may take now, in a stable order (empty if it has no decision)."""

    def is_legal(self, state: JSON, seat: int, action: Action) -> bool:
        """Whether ``seat`` may take ``action`` now: one of :meth:`legal_actions`, or a typed shorthand the
        game accepts for one of them in a single step (``tile r3c4 ne`` for ``tile r3c4`` and ``lay ne``)."""
        return action in self.legal_actions(state, seat)

    @abstractmethod
    def describe(self, state: JSON, seat: int, action: Action) -> tuple[str, ...]:
        """The readable label path of a legal action (see :class:`Choice`)."""

    def choices(self, state: JSON, seat: int) -> list[Choice]:
        secret = self.secret(state, seat)
        return [Choice(a, self.describe(state, seat, a), secret) for a in self.legal_actions(state, seat)]

    def choice(self, state: JSON, seat: int, action: Action) -> Choice:
        """The :class:`Choice` of one legal action, as :meth:`choices` gives it."""
        return Choice(action, self.describe(state, seat, action), self.secret(state, seat))

    def secret(self, state: JSON, seat: int) -> bool:
        """Whether ``seat``'s current choice is secret from the others (labels below the first are private)."""
        return False

    def controller(self, state: JSON, seat: int) -> int:
        """The player who decides for ``seat`` (by default each player has the seat of the same number).
        May change during a game: a captured ship gets a new commander."""
        return seat

    # The platform reads a state only through these (and the methods above), never its keys.

    @staticmethod
    def seats_of(state: JSON) -> int:
        """How many seats the game has (:meth:`seat_count` says how many a new game gets)."""
        return state["seats"]

    @staticmethod
    def step(state: JSON) -> int:
        """How many steps (actions) the game has taken."""
        return state["step"]

    @staticmethod
    def options_of(state: JSON) -> JSON:
        """The table options the game was set up with (defaults filled in)."""
        return state["options"]

    def round_of(self, state: JSON) -> int:
        """The game's round now (while only the AI decides, a board is posted at most once a round): by default,
        a step of every seat."""
        return self.step(state) // max(1, self.seats_of(state))

    @staticmethod
    def since(state: JSON, seat: int) -> int:
        """The step at which ``seat``'s current decision began: a board of step ``v`` is still good for that
        seat while ``since <= v``. (A state stored before staleness was per seat: its latest step.)"""
        since = state.get("since")
        return since[seat] if since else state["step"]

    def teams(self, state: JSON) -> tuple[tuple[int, ...], ...]:
        """Seats that win or lose together (by default every seat is its own team)."""
        return tuple((s,) for s in range(state["seats"]))

    def out(self, state: JSON) -> frozenset[int]:
        """Seats eliminated while the game goes on: they never act again and are shown as out."""
        return frozenset()

    def crowned(self, view: JSON, winners: Sequence[int]) -> JSON:
        """A spectator's ``view`` of the game over, crowning ``winners`` (seats) instead of the engine's: the
        platform's, when a player who resigned topped the game (their seats played on by the AI, and a player
        who resigned cannot win). A game whose final view names its winners says where; by default the view
        names none and is returned as it is."""
        return view

    def lapse(self, state: JSON) -> Lapse | None:
        """A pending decision that lapses by itself after a while (an unanswered offer), if any."""
        return None

    @abstractmethod
    def view(self, state: JSON, seat: int | None) -> JSON:
        """What ``seat`` may see (``None``: a spectator). Never another seat's secrets."""

    @abstractmethod
    def outcome(self, state: JSON) -> Outcome | None:
        """The result once the game is over, else ``None``."""

    def is_over(self, state: JSON) -> bool:
        return self.outcome(state) is not None

    def prompt(self, view: JSON) -> str | None:
        """What the game waits for, as one sentence with ``{pN}`` placeholders (the board's ➡️ line), or
        ``None``: by default the view's ``pending`` when it is already a sentence."""
        pending = view.get("pending")
        return pending if isinstance(pending, str) and pending else None

    @abstractmethod
    def summary(self, view: JSON) -> str:
        """One line describing the position (the board image's alt text); may use ``{pN}``."""

    @abstractmethod
    def rules_text(self) -> str:
        """A readable summary of the rules (Markdown, under 4000 characters)."""

    def check_invariants(self, state: JSON) -> list[str]:
        """Rule invariants that must hold after every step (cards conserved...); messages for violations."""
        return []

    def seat_summary(self, view: JSON) -> str:
        """A short private text for the viewer of ``view`` (their hand); games with secrets override."""
        return T("You hold no secret cards in this game.")

    def horizon(self, state: JSON) -> int | None:
        """Actions after which the hard AI's playouts from ``state`` stop and :meth:`estimate` judges the
        position instead of playing to the end (``None``, the default: always to the end). For games whose
        playouts are too long for a second's budget to play enough of them."""
        return None

    def estimate(self, state: JSON, player: int) -> float:
        """``player``'s share of the victory expected from an unfinished ``state``, from 0 to 1 (what a
        playout cut at its :meth:`horizon` is worth; the search calls it only on the worlds it samples). By
        default an even share among the players still in the game."""
        out = self.out(state)
        players = {self.controller(state, s) for s in range(state["seats"]) if s not in out}
        return 1 / len(players) if player in players else 0.0

    def scramble(self, state: JSON, seat: int | None, rng: random.Random) -> JSON | None:
        """A copy of ``state`` in which everything ``seat`` may not know (``None``: a spectator) is changed
        at random, while everything it may know stays: other seats' hands dealt again from the cards it
        cannot see, but for the cards it has seen go into them (a card taken face up, revealed or
        plundered: the state must remember such sightings for as long as they hold), hidden piles
        reshuffled, the seed (which decides all future chance) replaced. The result
        keeps the invariants but need not be reachable by play. ``None`` means the game hides nothing from
        ``seat``. The conformance suite checks that ``seat``'s view, labels and events are the same in both
        (games with secrets must override this)."""
        return None

    def take_back(self, world: JSON, seat: int) -> dict[int, list[Action]]:
        """Take back, in ``world`` (a copy :meth:`scramble` made for ``seat``), the secret choices other
        seats have made that ``seat`` cannot see yet (a card chosen for a simultaneous reveal goes back into
        the hand it came from). Returns each such seat with the actions it may make again that ``seat``
        could not tell from the one taken back (any card of that hand). The hard AI's search has its model
        of the others choose again among them, from the cards the world dealt: what ``seat`` cannot see
        was chosen, not dealt at random like the rest of the hand. ``world`` is changed in place; by
        default nothing is taken back (a game without such choices)."""
        return {}

    # ------------------------------------------------------------------ mutation

    def rng(self, state: JSON) -> random.Random:
        """The random source for the current step, derived from the seed and the step number."""
        return random.Random(f"{state['seed']}/{state['step']}")

    def apply(
        self, state: JSON, seat: int, action: Action | str, *, inplace: bool = False, trusted: bool = False
    ) -> Step:
        """Validate and apply ``action`` by ``seat``. Raises :class:`IllegalAction` and changes nothing
        (the work happens on a copy unless ``inplace``). Unless ``trusted`` (a driver that picked the
        action from :meth:`legal_actions`), the action must be exactly one of the legal actions."""
        if isinstance(action, str):
            action = Action.decode(action)
        if self.is_over(state):
            raise IllegalAction(T("This game is over."))
        before = self.to_act(state)
        if seat not in before:
            raise IllegalAction(T("It is not your turn."))
        if not trusted and not self.is_legal(state, seat, action):
            raise IllegalAction(self._refusal(state, seat, action))
        others = {s: self.legal_actions(state, s) for s in before if s != seat} if len(before) > 1 else {}
        new = state if inplace else clone(state)
        events = self.play(new, seat, action)
        new["step"] = step = new["step"] + 1
        after = self.to_act(new)
        since = new.setdefault("since", [0] * new["seats"])  # games stored before per-seat staleness
        since[seat] = step
        if after != before:
            for s in set(before).symmetric_difference(after):
                since[s] = step
        for s, legal in others.items():
            if s in after and self.legal_actions(new, s) != legal:
                since[s] = step
        return Step(new, events)

    def advance(self, state: JSON, seat: int, action: Action) -> None:
        """Play ``action`` of ``seat`` on ``state`` in place, trusted, for a driver that only plays on and
        reads nothing but the states it reaches (the hard AI's worlds and playouts): :meth:`play` and the step that
        seeds the next chance, without :meth:`apply`'s checks, events or per-seat staleness (``since``)."""
        self.play(state, seat, action)
        state["step"] += 1

    def refusal(self, state: JSON, seat: int, action: Action) -> str | None:
        """Why ``action``, which is not legal for ``seat`` now, is not, in the engine's own words; ``None``
        leaves the general refusal. By default whatever :meth:`play` raises when the action is tried on a
        copy (rules code that checks as it goes); a game whose :meth:`play` trusts its caller, as
        :meth:`apply` lets it, gives its reasons here instead."""
        try:
            self.play(clone(state), seat, action)
        except IllegalAction as exc:
            return str(exc)
        except (ValueError, LookupError, TypeError):
            pass  # text the engine could not even parse ("bury ²")
        return None

    def _refusal(self, state: JSON, seat: int, action: Action) -> str:
        return self.refusal(state, seat, action) or T(
            "`{action}` is not one of your moves right now; autocomplete lists them.", action=action.encode()[:40]
        )

    @abstractmethod
    def play(self, state: JSON, seat: int, action: Action) -> list[Event]:
        """Apply a move by a seat that may act now, mutating ``state``. :meth:`apply` calls it only with an
        action it has checked against :meth:`legal_actions` (or that its trusted caller picked from them).
        Rules code that checks as it goes raises :class:`IllegalAction` with a specific reason, before
        mutating, for an action that is not legal: :meth:`refusal` tries it on a copy to give that
        reason. A game whose ``play`` checks nothing gives its reasons in :meth:`refusal` instead."""


class Player(ABC):
    """An AI player: picks one of the legal actions. Uses only what ``game.view(state, seat)`` shows."""

    name: ClassVar[str] = "AI"

    @abstractmethod
    def choose(self, game: Game, state: JSON, seat: int, rng: random.Random) -> Action: ...

    def shortlist(self, game: Game, state: JSON, seat: int) -> list[Action]:
        """The actions worth the hard AI's search (:mod:`games.search`), from the legal ones: by default all of
        them. An AI whose own judgement rules out most of a large choice keeps its best few here, so that a
        second's playouts are shared by fewer candidates (the search keeps :meth:`choose`'s action too)."""
        return game.legal_actions(state, seat)


class RandomPlayer(Player):
    """Uniformly random legal moves: the baseline every AI must beat, and the random-play tests' driver."""

    name = "Random"

    def choose(self, game: Game, state: JSON, seat: int, rng: random.Random) -> Action:
        return rng.choice(game.legal_actions(state, seat))
