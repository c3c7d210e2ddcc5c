"""The house card faces of the Pirates Card Game: every card of a poker deck (54 with both Jokers) is at
once a ship, a town, a cargo, a crew member and a mission.

A card in the state is an ``int``: ``deck * 54 + face``. Faces 0–51 are the suited cards (suit
``face // 13``: hearts, diamonds, clubs, spades; rank ``face % 13 + 1``: Ace 1 … King 13); faces 52 and
53 are the Jokers. Two decks (5–8 players) repeat every face, so players name cards by face code
(``"10h"``, ``"qs"``, ``"jk"``): identical faces are interchangeable.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import cache

from games.core import article, plural

DECK_SIZE = 54
JOKER_FACES = (52, 53)


class Mission(Enum):
    """What a card means among a player's missions (by rank)."""

    DELIVERY = "delivery"
    HUNT = "hunt"
    RAID = "raid"
    BOUNTY = "bounty"
    TREASURE = "treasure fleet"


SUITS = ("h", "d", "c", "s")
SUIT_SYMBOLS = {"h": "♥", "d": "♦", "c": "♣", "s": "♠"}
SUIT_NAMES = {"h": "hearts", "d": "diamonds", "c": "clubs", "s": "spades"}
NATIONS = {"h": "English", "d": "Spanish", "c": "French", "s": "Dutch"}
GOODS = {"h": "sugar", "d": "silver", "c": "tobacco", "s": "spices"}
NEXT_NATION = {"h": "d", "d": "c", "c": "s", "s": "h"}
"""A Hunt mission's prey: English → Spanish → French → Dutch → English."""
RANK_CODES = ("a", "2", "3", "4", "5", "6", "7", "8", "9", "10", "j", "q", "k")
RANK_NAMES = ("Ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King")

SHIP_TYPES = (
    "Sloop",
    "Pinnace",
    "Schooner",
    "Brigantine",
    "Brig",
    "Barque",
    "Fluyt",
    "Merchantman",
    "Frigate",
    "Galleon",
    "Ship of the Line",
    "Fast Galleon",
    "Flag Galleon",
)
"""Ship type by rank, Ace first; the Joker is the Treasure Galleon."""
SHIP_BONUS = {
    "Ship of the Line": "+1 cannon value in every combat",
    "Fast Galleon": "−1 ton when fleeing",
    "Flag Galleon": "at the magistrate: draw 2 missions, keep 1",
}

TOWNS = {
    "h": (
        "Port Royal",
        "Kingston",
        "Bridgetown",
        "Nassau",
        "St. John's",
        "Charles Town",
        "Spanish Town",
        "Basseterre",
        "Plymouth",
        "Jamestown",
        "Hamilton",
        "Belize Town",
        "Speightstown",
    ),
    "d": (
        "Havana",
        "Cartagena",
        "Santo Domingo",
        "San Juan",
        "Veracruz",
        "Portobelo",
        "Maracaibo",
        "Campeche",
        "Santiago",
        "Panama",
        "Trinidad",
        "Caracas",
        "Nombre de Dios",
    ),
    "c": (
        "Tortuga",
        "Port-de-Paix",
        "Fort-Royal",
        "Saint-Pierre",
        "Pointe-à-Pitre",
        "Cayenne",
        "Petit-Goâve",
        "Léogâne",
        "Cap-Français",
        "Marie-Galante",
        "Les Saintes",
        "Saint-Louis",
        "Fort-Dauphin",
    ),
    "s": (
        "Willemstad",
        "Oranjestad",
        "Saba",
        "Philipsburg",
        "Kralendijk",
        "Paramaribo",
        "Nieuw Amsterdam",
        "Essequibo",
        "Berbice",
        "Fort Zeelandia",
        "Scarborough",
        "Fort Nassau",
        "Sint Maarten",
    ),
}
PIRATE_COVE = "Pirate Cove"


@dataclass(frozen=True, slots=True)
class Face:
    """Everything one card face means."""

    face: int
    code: str
    """Short text form used in actions: ``"10h"``, ``"qs"``, ``"jk"``."""
    rank: int
    """1 (Ace) … 13 (King); 0 for a Joker."""
    suit: str | None
    """``"h"``, ``"d"``, ``"c"``, ``"s"``; ``None`` for a Joker (pirates: no allegiance)."""
    size: int
    cannons: int
    crew: int
    town: str
    ship: str
    mission: Mission

    @property
    def joker(self) -> bool:
        return self.suit is None

    @property
    def nation(self) -> str | None:
        return NATIONS[self.suit] if self.suit else None

    @property
    def good(self) -> str | None:
        return GOODS[self.suit] if self.suit else None

    @property
    def bonus(self) -> str | None:
        return SHIP_BONUS.get(self.ship)

    @property
    def name(self) -> str:
        """``"10♥"``, ``"K♠"``, ``"Joker"``."""
        if self.suit is None:
            return "Joker"
        return f"{RANK_CODES[self.rank - 1].upper()}{SUIT_SYMBOLS[self.suit]}"

    @property
    def long_name(self) -> str:
        """``"10 of hearts"``, ``"Joker"``."""
        if self.suit is None:
            return "Joker"
        return f"{RANK_NAMES[self.rank - 1]} of {SUIT_NAMES[self.suit]}"

    @property
    def mission_text(self) -> str:
        """The mission line: what completing this card as a mission takes."""
        if self.mission is Mission.DELIVERY:
            return f"Deliver {self.size + 2} t of {self.good} to {article(self.nation or '')} town"
        if self.mission is Mission.HUNT:
            return f"Sink {article(NATIONS[NEXT_NATION[self.suit or 'h']])} ship"
        if self.mission is Mission.RAID:
            return f"Take {article(self.nation or '')} town"
        if self.mission is Mission.BOUNTY:
            return "Beat a rival captain (solo: sink a 10)"
        return "Sink the treasure fleet"


def _rank_crew(rank: int) -> int:
    if rank <= 4:
        return 3
    if rank <= 8:
        return 4
    if rank <= 10:
        return 5
    return 6


def _rank_mission(rank: int) -> Mission:
    if rank <= 4:
        return Mission.DELIVERY
    if rank <= 8:
        return Mission.HUNT
    if rank <= 10:
        return Mission.RAID
    return Mission.BOUNTY


def _make(face: int) -> Face:
    if face in JOKER_FACES:
        return Face(face, "jk", 0, None, 10, 5, 6, PIRATE_COVE, "Treasure Galleon", Mission.TREASURE)
    suit, rank = SUITS[face // 13], face % 13 + 1
    size = min(rank, 10)
    return Face(
        face=face,
        code=RANK_CODES[rank - 1] + suit,
        rank=rank,
        suit=suit,
        size=size,
        cannons=(size + 1) // 2,
        crew=_rank_crew(rank),
        town=TOWNS[suit][rank - 1],
        ship=SHIP_TYPES[rank - 1],
        mission=_rank_mission(rank),
    )


FACES: tuple[Face, ...] = tuple(_make(f) for f in range(DECK_SIZE))
BY_CODE: dict[str, Face] = {f.code: f for f in FACES}


@cache
def face(card: int) -> Face:
    """The face of a card id (either deck)."""
    return FACES[card % DECK_SIZE]


CODES: tuple[str, ...] = tuple(f.code for f in FACES) * 2
"""Face code by card id (both decks)."""


def code(card: int) -> str:
    return CODES[card]


def name(card: int) -> str:
    return FACES[card % DECK_SIZE].name


def is_joker(card: int) -> bool:
    return card % DECK_SIZE in JOKER_FACES


def size(card: int) -> int:
    return FACES[card % DECK_SIZE].size


def suit(card: int) -> str | None:
    return FACES[card % DECK_SIZE].suit


def cargo_text(card: int) -> str:
    """``"7 t sugar"`` (a Joker carries 10 t of treasure)."""
    f = face(card)
    return f"{f.size} t {f.good or 'treasure'}"


def card_label(card: int) -> str:
    """A card as a player picks it: ``"7♥ · 4 cannons · crew 4"``."""
    f = face(card)
    return f"{f.name} · {plural(f.cannons, 'cannon')} · {f.size} t {f.good or 'treasure'}"
