"""Ships, cargo and the dice: the pieces every part of the Sea Rats! engine shares."""

from __future__ import annotations

import random
from collections.abc import Callable

from games.core import JSON, Event, dice, joined
from games.i18n import N, T, seat_ref

SHIPS = ("black", "red", "blue", "green", "purple", "yellow")
"""The six ships in their fixed turn order; a ship's seat is its index."""

START_CARGO = 6
HOLD = 12
"""Items (cannonballs and supplies together, the Treasure not counted) a ship may carry."""
BOOTY_HOLD = 12
"""With More Booty: up to this many cannonballs and this many supplies."""
MAX_SHOTS = 3
RANGE = 5
ROUNDS = 200


NAMES = (T("Black"), T("Red"), T("Blue"), T("Green"), T("Purple"), T("Yellow"))
"""Each ship's name, its colour (marked: the reader's language names the colour)."""


def ship_name(seat: int) -> str:
    """``"Black"`` (marked)."""
    return NAMES[seat]


def p(seat: int) -> str:
    """A ship's commander as a ``{pN}`` placeholder, replaced by the player's name."""
    return seat_ref(seat)


WHO = tuple(T("{ship} ({commander})", ship=name, commander=seat_ref(seat)) for seat, name in enumerate(NAMES))


def who(seat: int) -> str:
    """``"Black ({p0})"`` (marked): a ship and its commander, for event text."""
    return WHO[seat]


def cargo(ship: JSON) -> int:
    return ship["balls"] + ship["supplies"]


def room(ship: JSON) -> int:
    """Items ``ship`` may still take aboard within the 12-item hold."""
    return max(0, HOLD - cargo(ship))


def balls_text(n: int) -> str:
    """``"3 cannonballs"`` (marked)."""
    return N("{n} cannonball", "{n} cannonballs", n)


def supplies_text(n: int) -> str:
    """``"1 supply"`` (marked)."""
    return N("{n} supply", "{n} supplies", n)


def goods(balls: int, supplies: int) -> str:
    """``"2 cannonballs and 1 supply"``, ``"nothing"`` (marked)."""
    parts = []
    if balls:
        parts.append(balls_text(balls))
    if supplies:
        parts.append(supplies_text(supplies))
    return joined(parts) or T("nothing")


class Dice:
    """The step's dice: d6 rolls from the engine's seeded random source, made only when first needed (a
    step without a roll never builds one), each reported as an event everyone sees."""

    def __init__(self, source: Callable[[], random.Random], events: list[Event]) -> None:
        self._source = source
        self._rng: random.Random | None = None
        self.events = events

    def roll(self, count: int, text: Callable[[str], str]) -> list[int]:
        """Roll ``count`` d6; ``text`` makes the event's sentence from the values shown ("Black rolls: 4, 2.")."""
        if self._rng is None:
            self._rng = self._source()
        values = [self._rng.randint(1, 6) for _ in range(count)]
        shown = ", ".join(str(v) for v in values)
        self.events.append(Event(text(shown), None, dice(*(("d6", 6, v) for v in values))))
        return values
