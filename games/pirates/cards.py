"""The house card faces of the Pirates Card Game: every card of a poker deck (54 with both Jokers) is at
once a ship, a town, a cargo, a crew member and a mission.

A card in the state is an ``int``: ``deck * 54 + face``. Faces 0–51 are the suited cards (suit
``face // 13``: hearts, diamonds, clubs, spades; rank ``face % 13 + 1``: Ace 1 … King 13); faces 52 and
53 are the Jokers. Two decks (5–8 players) repeat every face, so players name cards by face code
(``"10h"``, ``"qs"``, ``"jk"``): identical faces are interchangeable.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from functools import cache

from games.i18n import N, P, T

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
SUIT_NAMES = {"h": T("hearts"), "d": T("diamonds"), "c": T("clubs"), "s": T("spades")}
NATIONS = {"h": "English", "d": "Spanish", "c": "French", "s": "Dutch"}
"""A suit's nation, in English: what the rules compare (the words a player reads are the phrases below)."""
GOODS = {"h": "sugar", "d": "silver", "c": "tobacco", "s": "spices"}
"""A suit's good, in English (the words a player reads are :data:`GOOD`)."""
NEXT_NATION = {"h": "d", "d": "c", "c": "s", "s": "h"}
"""A Hunt mission's prey: English → Spanish → French → Dutch → English."""
RANK_CODES = ("a", "2", "3", "4", "5", "6", "7", "8", "9", "10", "j", "q", "k")
RANK_NAMES = (T("Ace"), "2", "3", "4", "5", "6", "7", "8", "9", "10", T("Jack"), T("Queen"), T("King"))

# The words a player reads. A nation never goes into a sentence as a word of its own (a language declines
# it with the noun it qualifies): each phrase with a nation in it is a message of its own.
GOOD = {"h": T("sugar"), "d": T("silver"), "c": T("tobacco"), "s": T("spices"), None: T("treasure")}
NATION_GOOD = {"h": T("English sugar"), "d": T("Spanish silver"), "c": T("French tobacco"), "s": T("Dutch spices")}
A_TOWN = {"h": T("an English town"), "d": T("a Spanish town"), "c": T("a French town"), "s": T("a Dutch town")}
A_SHIP = {"h": T("an English ship"), "d": T("a Spanish ship"), "c": T("a French ship"), "s": T("a Dutch ship")}
SHIP_OF = {
    "h": T("English ship"),
    "d": T("Spanish ship"),
    "c": T("French ship"),
    "s": T("Dutch ship"),
    None: T("pirate ship"),
}
"""A player's ship by the nation of its card (a Joker ship: a pirate ship)."""
MISSION_NAME = {
    Mission.DELIVERY: T("delivery"),
    Mission.HUNT: T("hunt"),
    Mission.RAID: T("raid"),
    Mission.BOUNTY: T("bounty"),
    Mission.TREASURE: T("treasure fleet"),
}
"""A mission's kind in a sentence ("5♥ hunt — …")."""
MISSION_TITLE = {
    Mission.DELIVERY: T("Delivery"),
    Mission.HUNT: T("Hunt"),
    Mission.RAID: T("Raid"),
    Mission.BOUNTY: T("Bounty"),
    Mission.TREASURE: T("Treasure fleet"),
}
"""A mission's kind as a heading ("Hunt: Sink a Spanish ship")."""
A_MISSION = {
    Mission.DELIVERY: T("a delivery mission"),
    Mission.HUNT: T("a hunt mission"),
    Mission.RAID: T("a raid mission"),
    Mission.BOUNTY: T("a bounty mission"),
    Mission.TREASURE: T("a treasure fleet mission"),
}

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
SHIP = {
    "Sloop": T("Sloop"),
    "Pinnace": T("Pinnace"),
    "Schooner": T("Schooner"),
    "Brigantine": T("Brigantine"),
    "Brig": T("Brig"),
    "Barque": T("Barque"),
    "Fluyt": T("Fluyt"),
    "Merchantman": T("Merchantman"),
    "Frigate": T("Frigate"),
    "Galleon": T("Galleon"),
    "Ship of the Line": T("Ship of the Line"),
    "Fast Galleon": T("Fast Galleon"),
    "Flag Galleon": T("Flag Galleon"),
    "Treasure Galleon": T("Treasure Galleon"),
}
"""A ship type's name as a player reads it (the English names above are what the rules compare)."""


NATION_SHIPS: dict[str, tuple[str, ...]] = {
    "h": (
        T("English Sloop"),
        T("English Pinnace"),
        T("English Schooner"),
        T("English Brigantine"),
        T("English Brig"),
        T("English Barque"),
        T("English Fluyt"),
        T("English Merchantman"),
        T("English Frigate"),
        T("English Galleon"),
        T("English Ship of the Line"),
        T("English Fast Galleon"),
        T("English Flag Galleon"),
    ),
    "d": (
        T("Spanish Sloop"),
        T("Spanish Pinnace"),
        T("Spanish Schooner"),
        T("Spanish Brigantine"),
        T("Spanish Brig"),
        T("Spanish Barque"),
        T("Spanish Fluyt"),
        T("Spanish Merchantman"),
        T("Spanish Frigate"),
        T("Spanish Galleon"),
        T("Spanish Ship of the Line"),
        T("Spanish Fast Galleon"),
        T("Spanish Flag Galleon"),
    ),
    "c": (
        T("French Sloop"),
        T("French Pinnace"),
        T("French Schooner"),
        T("French Brigantine"),
        T("French Brig"),
        T("French Barque"),
        T("French Fluyt"),
        T("French Merchantman"),
        T("French Frigate"),
        T("French Galleon"),
        T("French Ship of the Line"),
        T("French Fast Galleon"),
        T("French Flag Galleon"),
    ),
    "s": (
        T("Dutch Sloop"),
        T("Dutch Pinnace"),
        T("Dutch Schooner"),
        T("Dutch Brigantine"),
        T("Dutch Brig"),
        T("Dutch Barque"),
        T("Dutch Fluyt"),
        T("Dutch Merchantman"),
        T("Dutch Frigate"),
        T("Dutch Galleon"),
        T("Dutch Ship of the Line"),
        T("Dutch Fast Galleon"),
        T("Dutch Flag Galleon"),
    ),
}
"""Every ship type of each nation ("English Sloop"), by rank: one message each, so that a language writes the
nation in the form its ship type needs ("englische Schaluppe", "englisches Linienschiff", "sloop anglais")."""
PIRATE_GALLEON = T("Pirate Treasure Galleon")
SHIP_BONUS = {
    "Ship of the Line": T("+1 cannon value in every combat"),
    "Fast Galleon": T("−1 ton when fleeing"),
    "Flag Galleon": T("at the magistrate: draw 2 missions, keep 1"),
}

TOWNS = {  # proper names, kept in German unless a German name is usual ("Havanna")
    "h": (
        T("Port Royal"),
        T("Kingston"),
        T("Bridgetown"),
        T("Nassau"),
        T("St. John's"),
        T("Charles Town"),
        T("Spanish Town"),
        T("Basseterre"),
        T("Plymouth"),
        T("Jamestown"),
        T("Hamilton"),
        T("Belize Town"),
        T("Speightstown"),
    ),
    "d": (
        T("Havana"),
        T("Cartagena"),
        T("Santo Domingo"),
        T("San Juan"),
        T("Veracruz"),
        T("Portobelo"),
        T("Maracaibo"),
        T("Campeche"),
        T("Santiago"),
        T("Panama"),
        T("Trinidad"),
        T("Caracas"),
        T("Nombre de Dios"),
    ),
    "c": (
        T("Tortuga"),
        T("Port-de-Paix"),
        T("Fort-Royal"),
        T("Saint-Pierre"),
        T("Pointe-à-Pitre"),
        T("Cayenne"),
        T("Petit-Goâve"),
        T("Léogâne"),
        T("Cap-Français"),
        T("Marie-Galante"),
        T("Les Saintes"),
        T("Saint-Louis"),
        T("Fort-Dauphin"),
    ),
    "s": (
        T("Willemstad"),
        T("Oranjestad"),
        T("Saba"),
        T("Philipsburg"),
        T("Kralendijk"),
        T("Paramaribo"),
        T("Nieuw Amsterdam"),
        T("Essequibo"),
        T("Berbice"),
        T("Fort Zeelandia"),
        T("Scarborough"),
        T("Fort Nassau"),
        T("Sint Maarten"),
    ),
}
PIRATE_COVE = T("Pirate Cove")
AT_PIRATE_COVE = P("at", "at Pirate Cove")
"""Pirate Cove where a sentence says where a ship is ("docks {at_town}"): German "in der Piratenbucht"."""


def at_town(f: Face) -> str:
    """Where a ship docks at the town of card face ``f``, as a sentence says it: "at Port Royal" (German "in
    Port Royal"), "at Pirate Cove" ("in der Piratenbucht")."""
    return AT_PIRATE_COVE if f.joker else T("at {town}", town=f.town)


JOKER = T("Joker")


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
    joker: bool = field(init=False)
    name: str = field(init=False)
    """``"10♥"``, ``"K♠"``, ``"Joker"``: the index, the same in every language (the Joker's name, for a
    reader, is :attr:`label`)."""
    label: str = field(init=False)
    """The card's index as a player reads it: ``"10♥"``, or the Joker marked."""

    def __post_init__(self) -> None:
        # Worked out once per face: the engine names cards in the events of every playout the hard AI plays.
        joker = self.suit is None
        name = "Joker" if self.suit is None else f"{RANK_CODES[self.rank - 1].upper()}{SUIT_SYMBOLS[self.suit]}"
        object.__setattr__(self, "joker", joker)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "label", JOKER if joker else name)

    @property
    def nation(self) -> str | None:
        """The nation in English (``None`` for a Joker): for the rules, not for a reader."""
        return NATIONS[self.suit] if self.suit else None

    @property
    def good(self) -> str | None:
        """The good in English (``None`` for a Joker): for the rules, not for a reader."""
        return GOODS[self.suit] if self.suit else None

    @property
    def bonus(self) -> str | None:
        """The ship type's bonus, marked (``None`` for most ships)."""
        return SHIP_BONUS.get(self.ship)

    @property
    def long_name(self) -> str:
        """``"10 of hearts"``, ``"Ace of spades"`` (German "Pik-Ass"), ``"Joker"``; marked."""
        if self.suit is None:
            return JOKER
        return T("{rank} of {suit}", rank=RANK_NAMES[self.rank - 1], suit=SUIT_NAMES[self.suit])

    @property
    def ship_name(self) -> str:
        """The ship type, marked: ``"Frigate"``."""
        return SHIP[self.ship]

    @property
    def nation_ship(self) -> str:
        """The ship with its nation, marked: ``"English Frigate"``, ``"Pirate Treasure Galleon"``."""
        return PIRATE_GALLEON if self.suit is None else NATION_SHIPS[self.suit][self.rank - 1]

    @property
    def good_name(self) -> str:
        """The cargo's good, marked: ``"sugar"``, ``"treasure"`` for a Joker."""
        return GOOD[self.suit]

    @property
    def cargo(self) -> str:
        """The card as cargo, marked: ``"7 t sugar"``."""
        return T("{tons} t {good}", tons=self.size, good=self.good_name)

    @property
    def cannon_count(self) -> str:
        """``"4 cannons"``, marked."""
        return N("{n} cannon", "{n} cannons", self.cannons)

    @property
    def mission_name(self) -> str:
        """The mission's kind in a sentence, marked: ``"hunt"``."""
        return MISSION_NAME[self.mission]

    @property
    def mission_title(self) -> str:
        """The mission's kind as a heading, marked: ``"Hunt"``."""
        return MISSION_TITLE[self.mission]

    @property
    def mission_text(self) -> str:
        """The mission line, marked: what completing this card as a mission takes."""
        if self.mission is Mission.DELIVERY:
            return T("Deliver {tons} t of {good} to {town}", tons=self.size + 2, good=self.good_name, town=self.a_town)
        if self.mission is Mission.HUNT:
            return T("Sink {ship}", ship=A_SHIP[NEXT_NATION[self.suit or "h"]])
        if self.mission is Mission.RAID:
            return T("Take {town}", town=self.a_town)
        if self.mission is Mission.BOUNTY:
            return T("Beat a rival captain (solo: sink a 10)")
        return T("Sink the treasure fleet")

    @property
    def a_town(self) -> str:
        """A town of this card's nation, marked: ``"an English town"``."""
        return A_TOWN[self.suit or "h"]


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


JOKER_CARDS = frozenset(f + DECK_SIZE * deck for f in JOKER_FACES for deck in (0, 1))
"""The Jokers' card ids (both decks)."""


def is_joker(card: int) -> bool:
    return card in JOKER_CARDS


def size(card: int) -> int:
    return FACES[card % DECK_SIZE].size


def suit(card: int) -> str | None:
    return FACES[card % DECK_SIZE].suit


def label(card: int) -> str:
    """A card's index as a player reads it (the Joker marked)."""
    return FACES[card % DECK_SIZE].label


def cargo_text(card: int) -> str:
    """``"7 t sugar"`` (a Joker carries 10 t of treasure), marked."""
    return face(card).cargo
