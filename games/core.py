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
* Text meant for players may mention seats as ``{p0}``, ``{p1}``...; the Discord layer replaces them
  with names (:func:`format_seats`). Engines never see user names.
* :meth:`Game.view` is the only thing renderers and message builders receive. It must never contain
  the seed, the order of a hidden deck, or another seat's secrets.
"""

from __future__ import annotations

import marshal
import random
import re
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple

JSON = dict[str, Any]

ACTION_TEXT_LIMIT = 60
"""Longest action text; keeps ``game id + version + action`` inside Discord's 100-char custom ids."""


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
            raise IllegalAction("Type an action, for example one offered by autocomplete.")
        if len(text) > ACTION_TEXT_LIMIT:
            raise IllegalAction("That action text is too long to be a move in this game.")
        return cls(tokens[0], tuple(tokens[1:]))

    def __str__(self) -> str:
        return self.encode()


def act(verb: str, *args: object) -> Action:
    """Shorthand used by engines: ``act("bury", 12)`` -> ``Action("bury", ("12",))``."""
    return Action(verb, tuple(str(a) for a in args))


@dataclass(frozen=True, slots=True)
class Choice:
    """A legal action with the readable labels a player picks it by.

    ``path`` goes from the broadest label to the most specific one, for example
    ``("Pass", "Coins: take 3 cards")``. The Discord layer turns the first label into a button and
    the rest into pickers, and joins them with " → " for autocomplete.
    """

    action: Action
    path: tuple[str, ...]

    @property
    def label(self) -> str:
        return " → ".join(self.path)


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened. ``seat is None`` means everyone may read it; otherwise only that seat."""

    text: str
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended. ``scores`` is indexed by seat; tied winners share the victory."""

    winners: tuple[int, ...]
    scores: tuple[int, ...]
    summary: str


@dataclass(frozen=True, slots=True)
class Option:
    """A table option chosen when the game is created (``blind``, ``variant``...)."""

    name: str
    description: str
    default: Any
    choices: tuple[str, ...] = ()

    def validate(self, value: Any) -> Any:
        if self.choices:
            if value not in self.choices:
                raise IllegalAction(f"`{self.name}` must be one of: {', '.join(self.choices)}.")
            return value
        if isinstance(self.default, bool):
            return bool(value)
        return value


@dataclass(slots=True)
class Step:
    """What :meth:`Game.apply` returns: the new state and the events it produced."""

    state: JSON
    events: list[Event] = field(default_factory=list)


def clone(state: JSON) -> JSON:
    """A deep copy of a JSON state (marshal is several times faster than ``copy.deepcopy``)."""
    return marshal.loads(marshal.dumps(state))


_SEAT_REF = re.compile(r"\{p(\d)\}")


def format_seats(text: str, names: Sequence[str]) -> str:
    """Replace ``{p0}``... in engine text with display names (missing seats are left as "seat N")."""

    def name(match: re.Match[str]) -> str:
        seat = int(match.group(1))
        return names[seat] if seat < len(names) else f"seat {seat + 1}"

    return _SEAT_REF.sub(name, text)


class Game(ABC):
    """Base class of every rules engine. Subclasses are stateless; all state lives in the JSON dict."""

    kind: ClassVar[str]
    """Command and storage name, e.g. ``"piratz"``."""
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[tuple[Option, ...]] = ()

    # ------------------------------------------------------------------ lifecycle

    def new_game(self, seats: int, options: Mapping[str, Any] | None = None, seed: str = "0") -> JSON:
        """A fresh game for ``seats`` seats, deterministic given ``seed``."""
        if not self.min_players <= seats <= self.max_players:
            raise IllegalAction(f"{self.title} takes {self.min_players}–{self.max_players} players, not {seats}.")
        chosen = self.resolve_options(options or {})
        state: JSON = {"game": self.kind, "seed": str(seed), "step": 0, "seats": seats, "options": chosen}
        self.setup(state, random.Random(f"{seed}/setup"))
        return state

    @classmethod
    def option(cls, name: str) -> Option:
        """The table option called ``name`` (the cogs build their command options from it)."""
        return next(o for o in cls.options if o.name == name)

    def resolve_options(self, options: Mapping[str, Any]) -> JSON:
        known = {o.name: o for o in self.options}
        for name in options:
            if name not in known:
                raise IllegalAction(f"{self.title} has no option `{name}`.")
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

    @abstractmethod
    def describe(self, state: JSON, seat: int, action: Action) -> tuple[str, ...]:
        """The readable label path of a legal action (see :class:`Choice`)."""

    def choices(self, state: JSON, seat: int) -> list[Choice]:
        return [Choice(a, self.describe(state, seat, a)) for a in self.legal_actions(state, seat)]

    @abstractmethod
    def view(self, state: JSON, seat: int | None) -> JSON:
        """What ``seat`` may see (``None``: a spectator). Never another seat's secrets."""

    @abstractmethod
    def outcome(self, state: JSON) -> Outcome | None:
        """The result once the game is over, else ``None``."""

    def is_over(self, state: JSON) -> bool:
        return self.outcome(state) is not None

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
        return "You hold no secret cards in this game."

    # ------------------------------------------------------------------ mutation

    def rng(self, state: JSON) -> random.Random:
        """The random source for the current step, derived from the seed and the step number."""
        return random.Random(f"{state['seed']}/{state['step']}")

    def apply(self, state: JSON, seat: int, action: Action | str, *, inplace: bool = False) -> Step:
        """Validate and apply ``action`` by ``seat``. Raises :class:`IllegalAction` and changes nothing
        (the work happens on a copy unless ``inplace``; engines validate before they mutate)."""
        if isinstance(action, str):
            action = Action.decode(action)
        if self.is_over(state):
            raise IllegalAction("This game is over.")
        if seat not in self.to_act(state):
            raise IllegalAction("It is not your turn.")
        new = state if inplace else clone(state)
        events = self.play(new, seat, action)
        new["step"] += 1
        return Step(new, events)

    @abstractmethod
    def play(self, state: JSON, seat: int, action: Action) -> list[Event]:
        """Apply a move by a seat that may act now, mutating ``state``. Must raise
        :class:`IllegalAction` with a specific reason, before mutating, for any action not in
        :meth:`legal_actions`."""


class Player(ABC):
    """An AI player: picks one of the legal actions. Uses only what ``game.view(state, seat)`` shows."""

    name: ClassVar[str] = "AI"

    @abstractmethod
    def choose(self, game: Game, state: JSON, seat: int, rng: random.Random) -> Action: ...


class RandomPlayer(Player):
    """Uniformly random legal moves: the baseline every AI must beat, and the random-play tests' driver."""

    name = "Random"

    def choose(self, game: Game, state: JSON, seat: int, rng: random.Random) -> Action:
        return rng.choice(game.legal_actions(state, seat))
