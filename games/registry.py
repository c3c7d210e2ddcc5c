"""The one list of games the bot hosts. Everything that needs "every game" reads it: the slash-command groups,
the message catalogs' domains, ``bot.py demo``, ``play`` and ``simulate``, the render warm-up, the benchmark,
the conformance suite and the README's games table.

Adding a game is three places: an engine (``games/<kind>/``), a renderer (``rendering/<kind>``) and one
:class:`GameSpec` in :data:`GAMES`. Renderers are named by module path and imported only when used, so this
module (and the engines) never load Pillow.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from games.core import Game, Player
from games.i18n import L
from games.pirates import Pirates, PiratesAI
from games.piratz import Piratz, PiratzAI
from games.searats import SeaRats, SeaRatsAI
from games.sewerpirats import SewerPirats, SewerPiratsAI
from games.sewerrat import SewerRat, SewerRatAI

LEVELS = ("normal", "hard")
"""The AI levels of every game: ``normal``, its heuristic AI (:attr:`GameSpec.player`), and ``hard``, the
search over it (:mod:`games.search`, which builds on this registry: :func:`games.search.player_for`)."""


Renderer = Callable[[Mapping[str, Any], Sequence[str], str], bytes]
"""``render(view, names, locale) -> PNG bytes``: a view from :meth:`Game.view`, the seats' display names, the
language to draw it in (``"en"`` by default)."""


@dataclass(frozen=True, slots=True)
class GameSpec:
    """How the platform hosts one game."""

    game: Game
    ai: type[Player]
    renderer: str
    """Module with ``render_board(view, names, locale)``, ``render_final(view, names, locale)`` and, for games
    with a private image, ``render_hand(view, names, locale)`` and ``hand_view(view)``, the part of a seat's
    view the hand image draws (``render_hand`` is given only that)."""
    tagline: str = ""
    """What the game is about, in a few words (its command group's description; plain English marked with
    :func:`~games.i18n.L`, which Discord's translator writes out)."""
    members: int = 0
    """Members ``/<game> new`` can name, the host included (0: the game's most players)."""
    new_text: str = ""
    """The description of ``/<game> new`` (marked with :func:`~games.i18n.L`: a description takes no values,
    so each game writes its own whole sentence with its title in it)."""
    colour: int = 0xC9A227
    emoji: str = "🏴‍☠️"
    dm_hands: bool = False
    """Keep each player's private view in a direct message, edited as it changes."""
    hand_image: bool = False
    """The renderer draws a private image of a seat (``render_hand``) beside its private text."""
    names_by_player: bool = False
    """The renderer takes one name per player (in seat order at the start), not one per seat: seats change
    hands in this game (a captured ship), and its images name players who may command no seat any more."""
    bench_players: int = 0
    """Players in the benchmark's games (0: the game's minimum)."""
    table: int = 3
    """Players a tournament seats at a table unless its organizer says otherwise."""
    player: Player = field(init=False, repr=False, compare=False)
    """The AI that plays the bot's seats (one instance: AIs keep no per-game state)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "player", self.ai())
        if not self.members:
            object.__setattr__(self, "members", self.game.max_players)

    @property
    def challenge(self) -> str:
        """The description of ``/<game> new`` (a game that writes none: a challenge to "a game")."""
        return self.new_text or L("Challenge members (and AI seats) to a game")

    @property
    def kind(self) -> str:
        return self.game.kind

    @property
    def title(self) -> str:
        return self.game.title

    def _render_module(self) -> ModuleType:
        return importlib.import_module(self.renderer)

    @property
    def render_board(self) -> Renderer:
        return self._render_module().render_board

    @property
    def render_final(self) -> Renderer:
        return self._render_module().render_final

    @property
    def render_hand(self) -> Renderer | None:
        return getattr(self._render_module(), "render_hand", None)

    def hand_view(self, view: Mapping[str, Any]) -> Mapping[str, Any]:
        """What the hand image draws of a seat's ``view``, all that ``render_hand`` is given: a private view
        whose hand view did not change needs no new image (:attr:`hand_image` games only)."""
        return self._render_module().hand_view(view)  # type: ignore[no-any-return]


GAMES: dict[str, GameSpec] = {}
"""Every hosted game by kind, in the order the README and ``/games`` list them."""


def register(spec: GameSpec) -> GameSpec:
    if spec.kind in GAMES:
        raise ValueError(f"a game called {spec.kind!r} is registered already")
    GAMES[spec.kind] = spec
    return spec


@contextmanager
def registered(spec: GameSpec) -> Iterator[GameSpec]:
    """Register a game for the duration of a block (tests register games of their own)."""
    register(spec)
    try:
        yield spec
    finally:
        GAMES.pop(spec.kind, None)


def spec(kind: str) -> GameSpec:
    return GAMES[kind]


register(
    GameSpec(
        game=Piratz(),
        ai=PiratzAI,
        renderer="rendering.piratz",
        tagline=L("dig up treasure, beware the rats"),
        new_text=L("Challenge members (and AI seats) to a game of Piratz"),
        colour=0xD4A017,
        emoji="💰",
        bench_players=2,
        table=2,
    )
)
register(
    GameSpec(
        game=SewerPirats(),
        ai=SewerPiratsAI,
        renderer="rendering.sewerpirats",
        tagline=L("crew the pirat ships, seize the booty"),
        new_text=L("Challenge members (and AI seats) to a game of Sewer Pirats"),
        colour=0x3D8B5A,
        emoji="🐀",
        dm_hands=True,
        hand_image=True,
        bench_players=3,
    )
)
register(
    GameSpec(
        game=Pirates(),
        ai=PiratesAI,
        renderer="rendering.pirates",
        tagline=L("complete three missions"),
        members=4,
        new_text=L("Start a Pirates Card Game: challenge members, add AI seats, or sail solo"),
        colour=0x8B1E2D,
        emoji="🏴‍☠️",
        dm_hands=True,
        hand_image=True,
        bench_players=2,
    )
)
register(
    GameSpec(
        game=SewerRat(),
        ai=SewerRatAI,
        renderer="rendering.sewerrat",
        tagline=L("be the last rat standing"),
        new_text=L("Challenge members (and AI seats) to a game of Sewer Rat"),
        colour=0x5A7D8C,
        emoji="🚽",
        bench_players=2,
    )
)
register(
    GameSpec(
        game=SeaRats(),
        ai=SeaRatsAI,
        renderer="rendering.searats",
        tagline=L("the last pirate afloat wins"),
        new_text=L("Challenge members (and AI seats) to a game of Sea Rats!"),
        colour=0x1F6F8B,
        emoji="⚓",
        bench_players=2,
        names_by_player=True,
        table=2,
    )
)
