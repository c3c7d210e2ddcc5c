"""Piratz components as data.

These are **house components**: the rule text names the number of treasure cards (50), the score
cubes (12) and which cards carry a skull, but not the printed card faces or the cube values. The
card list below follows the house table in ``shared/rules/piratz.md`` (ids 0..49 in table order) and
the cube values are gold 3, silver 2, copper 1. Replace them here when the printed components are
known; everything else reads them from this module.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

TYPES: tuple[str, ...] = ("rings", "coins", "pearls", "crowns", "goblets", "shells")
"""The six treasure types, in scoring order."""

TYPE_INDEX: dict[str, int] = {t: i for i, t in enumerate(TYPES)}


@dataclass(frozen=True, slots=True)
class Card:
    """One treasure card: one or two different symbols (in scoring order), maybe a rat, maybe a skull."""

    id: int
    symbols: tuple[str, ...]
    rat: bool = False
    skull: bool = False

    @property
    def label(self) -> str:
        """The face in plain English, e.g. ``"Coins + Pearls"`` or ``"Rings + rat"``: what tells identical
        cards apart. Players read the marked face of :data:`games.piratz.engine.FACE` instead."""
        text = " + ".join(s.capitalize() for s in self.symbols)
        return f"{text} + rat" if self.rat else text


def _build() -> tuple[Card, ...]:
    rat_cards = {"rings": 1, "coins": 1, "pearls": 2, "crowns": 2, "goblets": 2, "shells": 2}
    plain_cards = {"rings": 4, "coins": 4, "pearls": 4, "crowns": 5, "goblets": 5, "shells": 6}
    pairs = (
        ("rings", "coins"),
        ("rings", "pearls"),
        ("rings", "goblets"),
        ("coins", "pearls"),
        ("coins", "crowns"),
        ("coins", "shells"),
        ("pearls", "crowns"),
        ("pearls", "goblets"),
        ("crowns", "goblets"),
        ("crowns", "shells"),
        ("goblets", "shells"),
        ("goblets", "shells"),
    )
    faces: list[tuple[tuple[str, ...], bool, bool]] = []
    for t, n in rat_cards.items():
        faces.extend(((t,), True, False) for _ in range(n))
    for t, n in plain_cards.items():
        # The first plain card of each type carries the skull (removed in a 2-player game).
        faces.extend(((t,), False, k == 0) for k in range(n))
    faces.extend((pair, False, False) for pair in pairs)
    return tuple(Card(i, symbols, rat, skull) for i, (symbols, rat, skull) in enumerate(faces))


CARDS: tuple[Card, ...] = _build()
"""The 50 treasure cards; ``CARDS[i].id == i``."""

SKULL_IDS: tuple[int, ...] = tuple(c.id for c in CARDS if c.skull)

CUBES: tuple[int, ...] = (3, 3, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1)
"""Score cube values: 4 gold (3), 4 silver (2), 4 copper (1)."""

SYMBOL_TOTALS: dict[str, int] = {t: Counter(s for c in CARDS for s in c.symbols)[t] for t in TYPES}
"""Symbols of each type over all 50 cards, as on the score card."""
