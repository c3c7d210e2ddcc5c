"""Sewer Pirats components: ships, Talisman cards, tribes, player colours and the token mix.

The rulebook text does not print the values of the booty tokens nor how the 14 bonus tokens split
between their kinds, so this is a house mix that respects the printed totals (42 booty, 14 bonus,
hence exactly 14 flotsam groups). Replace ``BOOTY`` and ``BONUS`` when the printed mix is known.
"""

from __future__ import annotations

from typing import Any

from games.i18n import T
from games.sewerpirats.words import TOKEN

SHIPS: tuple[str, ...] = ("cat", "bird", "fish")
"""Ship order, which is also the order of the final sailings."""
CARDS_PER_SHIP = 18
"""Talisman cards per symbol (54 in all)."""

TRIBES: tuple[str, ...] = ("rats", "raccoons", "cockroaches", "weasels", "snails", "toads")
FIGURES_PER_TRIBE = 5
TRIBE_CODES: dict[str, str] = {
    "rats": "ra",
    "raccoons": "rc",
    "cockroaches": "co",
    "weasels": "we",
    "snails": "sn",
    "toads": "to",
}
"""Two-letter codes used in figure ids such as ``"2ra1"`` (seat 2, first rat)."""
COLORS: tuple[str, ...] = ("red", "green", "yellow", "blue", "black")

CREW_SIZE = 4
"""Figures per player."""
HAND_LIMIT = 6
ROW_SIZE = 4
GROUP_BOOTY = 3
"""Booty tokens per flotsam group (plus one bonus token)."""
AUCTION_HAND = 8

BOOTY: dict[str, tuple[int, ...]] = {
    "fries": (1, 1, 1, 2, 2, 2, 3, 3, 3),
    "noodles": (2, 2, 2, 3, 3, 3, 4, 4, 4),
    "burger": (3, 3, 4, 4, 5, 5, 6, 6),
    "teddy": (5, 6, 7, 8, 9),
    "doll": (5, 6, 7, 8, 9),
    "tincan": (8, 9, 10, 11, 12, 13),
}
BONUS: dict[str, int] = {"ketchup": 2, "chili": 2, "milkshake": 3, "parrot": 3, "opener": 4}
"""Bonus token kinds and how many of each."""

Token = dict[str, Any]
"""``{"type": str, "value": int}``; bonus tokens have value 0."""


def booty_tokens() -> list[Token]:
    """All 42 booty tokens, in a fixed order (shuffle before use)."""
    return [{"type": kind, "value": v} for kind, values in BOOTY.items() for v in values]


def bonus_tokens() -> list[Token]:
    """All 14 bonus tokens, in a fixed order (shuffle before use)."""
    return [{"type": kind, "value": 0} for kind, count in BONUS.items() for _ in range(count)]


def talisman_deck() -> list[str]:
    """The 54 Talisman cards as ship symbols, in a fixed order (shuffle before use)."""
    return [ship for ship in SHIPS for _ in range(CARDS_PER_SHIP)]


def token_name(token: Token) -> str:
    """``"Fries 3"`` for booty, ``"Ketchup"`` for a bonus token (marked)."""
    name = TOKEN[token["type"]]
    return T("{token} {value}", token=name, value=token["value"]) if token["type"] in BOOTY else name
