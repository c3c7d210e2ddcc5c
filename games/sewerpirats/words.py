"""The game's words, marked for the catalogs (:mod:`games.i18n`): ships, cards, tribes, tokens and variants in
the forms the sentences use them.

A message id is a literal at its call, so each word is a message of its own, looked up from a table by the
plain English key the state keeps (``"cat"``, ``"rats"``, ``"fries"``). Sentences take these words as values;
where a language needs a word in another form (German: "Katzenschiff", "2 Katzenkarten"), the table holds
that form as its own message.
"""

from __future__ import annotations

from games.i18n import N, P, T

SHIP_NOUN: dict[str, str] = {"cat": T("cat ship"), "bird": T("bird ship"), "fish": T("fish ship")}
"""A ship in a sentence: "sets sail with the {ship}"."""
SHIP_TITLE: dict[str, str] = {"cat": T("Cat ship"), "bird": T("Bird ship"), "fish": T("Fish ship")}
"""A ship on a label."""
SYMBOL: dict[str, str] = {"cat": T("cat"), "bird": T("bird"), "fish": T("fish")}
"""A ship's symbol on its own: on the hulls, the cards, in short labels ("Toad on cat 3") and lists."""
CARD_NOUN: dict[str, str] = {"cat": T("cat card"), "bird": T("bird card"), "fish": T("fish card")}
"""One Talisman card in a sentence: "You drew a {card}."."""
CARD_TITLE: dict[str, str] = {"cat": T("Cat card"), "bird": T("Bird card"), "fish": T("Fish card")}
"""One Talisman card on a label."""


def cards_of(symbol: str, n: int) -> str:
    """``n`` Talisman cards of ``symbol``: "2 fish cards"."""
    if symbol == "cat":
        return N("{n} cat card", "{n} cat cards", n)
    if symbol == "bird":
        return N("{n} bird card", "{n} bird cards", n)
    return N("{n} fish card", "{n} fish cards", n)


def cards(n: int) -> str:
    """``n`` Talisman cards of any symbol."""
    return N("{n} card", "{n} cards", n)


TRIBE: dict[str, str] = {
    "rats": T("Rat"),
    "raccoons": T("Raccoon"),
    "cockroaches": T("Cockroach"),
    "weasels": T("Weasel"),
    "snails": T("Snail"),
    "toads": T("Toad"),
}
"""One figure of a tribe: "Rat (play area)"."""
THE_FIGURE: dict[str, str] = {
    "rats": P("accusative", "the rat"),
    "raccoons": P("accusative", "the raccoon"),
    "cockroaches": P("accusative", "the cockroach"),
    "weasels": P("accusative", "the weasel"),
    "snails": P("accusative", "the snail"),
    "toads": P("accusative", "the toad"),
}
"""One figure with its article, as the object of a verb or of "for": "auctions {figure}", "bids for {figure}"
(German: "den Waschbären", "die Ratte")."""
UNDER_THE_FIGURE: dict[str, str] = {
    "rats": P("under", "the rat"),
    "raccoons": P("under", "the raccoon"),
    "cockroaches": P("under", "the cockroach"),
    "weasels": P("under", "the weasel"),
    "snails": P("under", "the snail"),
    "toads": P("under", "the toad"),
}
"""One figure with its article after "under" (German: dative, "unter dem Waschbären")."""
TRIBES_WORD: dict[str, str] = {
    "rats": T("rats"),
    "raccoons": T("raccoons"),
    "cockroaches": T("cockroaches"),
    "weasels": T("weasels"),
    "snails": T("snails"),
    "toads": T("toads"),
}
"""A tribe as a whole: "chose the {tribe}"."""
TRIBES_TITLE: dict[str, str] = {
    "rats": T("Rats"),
    "raccoons": T("Raccoons"),
    "cockroaches": T("Cockroaches"),
    "weasels": T("Weasels"),
    "snails": T("Snails"),
    "toads": T("Toads"),
}
"""The landlubber's tribe choice: "Rats"."""

TOKEN: dict[str, str] = {
    "fries": T("Fries"),
    "noodles": T("Noodles"),
    "burger": T("Burger"),
    "teddy": T("Teddy bear"),
    "doll": T("Soft doll"),
    "tincan": T("Tin can"),
    "ketchup": T("Ketchup"),
    "chili": T("Chili pepper"),
    "milkshake": T("Milkshake"),
    "parrot": T("Parrot"),
    "opener": T("Can opener"),
}
"""Each token type's name."""


def bonus_count(kind: str, n: int) -> str:
    """``n`` bonus tokens of a food's bonus ``kind``: "2 ketchups"."""
    if kind == "ketchup":
        return N("{n} ketchup", "{n} ketchups", n)
    if kind == "chili":
        return N("{n} chili", "{n} chilis", n)
    return N("{n} milkshake", "{n} milkshakes", n)


VARIANT: dict[str, str] = {"standard": T("standard"), "landlubber": T("landlubber"), "auction": T("auction")}
"""The variants' names."""
