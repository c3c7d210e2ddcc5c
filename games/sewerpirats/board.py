"""State helpers shared by the rule modules: figures, hands, the Talisman deck and the public log.

State layout (JSON), besides the platform's seed/step/seats/options:

- ``variant``, ``abilities`` (False in the landlubber variant), ``tribes`` in play;
- ``ships``: a list in ship order, each ``{"spaces": [fig|None x4], "flotsam": [group|None, group|None]}``
  (spaces 0-2 are crew spaces 1-3, space 3 is the captain's space C); a figure is ``{"id", "owner",
  "tribe"}``, a group ``{"booty": [token...], "bonus": token|None}``;
- ``deck`` (its top is the last element), ``row``, ``discard``, ``booty_pool``, ``bonus_pool``,
  ``box`` (booty nobody could take);
- ``players[s]``: ``color``, ``area`` (figures in the play area), ``hand`` (symbols), ``tokens``;
- ``first``, ``turn``; ``phase`` (crew, auction, action, draw, discard, snail, weasel, seize, toad,
  over) and ``actor``, the one seat to decide;
- the decision in progress: ``sail`` (the ship sailing, the space whose figure is seizing and how many
  tokens it still takes), ``snail`` / ``weasel`` (the figure whose ability is offered), ``auction``;
- ``final`` (``{"trigger", "cursor"}`` once the end is triggered), ``log`` (the last public events),
  ``result`` (scores, winners and space sums once the game is over).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from games.core import JSON, Event
from games.sewerpirats import hidden
from games.sewerpirats.components import SHIPS

CAPTAIN = 3
"""Index of the captain's space C in a ship's ``spaces``."""
AREA = -1
"""Pseudo ship index meaning "in the owner's play area"."""
SHIP_INDEX: dict[str, int] = {name: i for i, name in enumerate(SHIPS)}
LOG_SIZE = 8

Figure = dict[str, Any]


class StepRng:
    """The step's random source, created on first use (seeding it costs more than most steps)."""

    __slots__ = ("_factory", "_rng")

    def __init__(self, factory: Callable[[], random.Random]) -> None:
        self._factory = factory
        self._rng: random.Random | None = None

    def get(self) -> random.Random:
        if self._rng is None:
            self._rng = self._factory()
        return self._rng


def owner_of(fid: str) -> int:
    """The seat of a figure id (ids start with the owner's seat digit)."""
    return int(fid[0])


def locate(state: JSON, fid: str) -> tuple[int, int] | None:
    """Where a player's figure is: ``(ship, space)`` aboard, ``(AREA, index)`` in the play area."""
    for s, ship in enumerate(state["ships"]):
        for i, fig in enumerate(ship["spaces"]):
            if fig is not None and fig["id"] == fid:
                return s, i
    if not fid[:1].isdigit() or owner_of(fid) >= state["seats"]:
        return None
    for i, fig in enumerate(state["players"][owner_of(fid)]["area"]):
        if fig["id"] == fid:
            return AREA, i
    return None


def captain_ship(state: JSON, seat: int) -> int | None:
    """The ship on which ``seat`` has its captain, if any."""
    for s, ship in enumerate(state["ships"]):
        fig = ship["spaces"][CAPTAIN]
        if fig is not None and fig["owner"] == seat:
            return s
    return None


def second_token(sail: JSON) -> bool:
    """Whether the figure seizing now has already taken a booty token: only a rat takes another one,
    and that second token is optional (a captain's first token comes after its bonus)."""
    return sail["took"] > (1 if sail["at"] == CAPTAIN else 0)


def area_choices(area: list[Figure]) -> list[Figure]:
    """One figure per tribe from a play area (the lowest id): figures of a tribe there are alike."""
    best: dict[str, Figure] = {}
    for fig in area:
        known = best.get(fig["tribe"])
        if known is None or fig["id"] < known["id"]:
            best[fig["tribe"]] = fig
    return sorted(best.values(), key=lambda f: f["id"])


def has_ability(state: JSON, fig: Figure, tribe: str) -> bool:
    """Whether ``fig`` uses ``tribe``'s special ability (never in the landlubber variant)."""
    return fig["tribe"] == tribe and state["abilities"]


def draw_card(state: JSON, rng: StepRng) -> str | None:
    """Take the top Talisman card, reshuffling the discard pile into a new deck when the deck is empty."""
    deck = state["deck"]
    if not deck:
        if not state["discard"]:
            return None
        deck.extend(state["discard"])
        state["discard"].clear()
        rng.get().shuffle(deck)
    return deck.pop()


def can_draw(state: JSON) -> bool:
    """Whether a card can be taken from the deck (reshuffling if needed)."""
    return bool(state["deck"] or state["discard"])


def refill_row(state: JSON, rng: StepRng) -> None:
    """Lay cards from the deck until the face-up row holds four (or nothing is left)."""
    row = state["row"]
    while len(row) < 4:
        card = draw_card(state, rng)
        if card is None:
            return
        row.append(card)


def discard_from_hand(state: JSON, seat: int, symbol: str, count: int, *, face_up: bool) -> None:
    """Move ``count`` cards of ``symbol`` from a hand to the discard pile (the caller checked them), seen by
    every player (``face_up``: a move's cost) or by their owner alone (a hand-limit discard, a payment)."""
    hand = state["players"][seat]["hand"]
    for _ in range(count):
        hand.remove(symbol)
        state["discard"].append(symbol)
    hidden.lost(state, seat, count, symbol if face_up else None)


def log(state: JSON, events: list[Event], text: str) -> None:
    """Record a public event (the view shows the last few)."""
    events.append(Event(text))
    entries = state["log"]
    entries.append(text)
    if len(entries) > LOG_SIZE:
        del entries[0]
