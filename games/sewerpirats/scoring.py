"""Scoring a player's tokens, per category: the final scoring image and the private live preview."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from games.core import plural
from games.sewerpirats.components import Token

FOOD: tuple[tuple[str, str, int, str], ...] = (
    ("fries", "ketchup", 5, "French fries"),
    ("noodles", "chili", 4, "Chinese noodles"),
    ("burger", "milkshake", 3, "Hamburgers"),
)
"""(booty type, bonus type, points the bonus adds to each token, category name)."""


@dataclass(frozen=True, slots=True)
class Line:
    """One category of a player's score."""

    category: str
    points: int
    detail: str

    def as_json(self) -> dict[str, object]:
        """The ``breakdown`` entry of the view's final scores."""
        return {"category": self.category, "points": self.points, "detail": self.detail}


def _values(tokens: Iterable[Token]) -> dict[str, list[int]]:
    grouped: dict[str, list[int]] = {}
    for token in tokens:
        grouped.setdefault(token["type"], []).append(token["value"])
    return grouped


def _toys(teddies: list[int], dolls: list[int], parrots: int) -> int:
    if parrots == 0:
        return 0
    if parrots == 1:
        return max(sum(teddies), sum(dolls)) + 1
    return sum(teddies) + sum(dolls) + parrots


def _cans(cans: list[int], openers: int) -> int:
    return sum(sorted(cans, reverse=True)[:openers])


def total(tokens: Iterable[Token]) -> int:
    """A player's score."""
    v = _values(tokens)
    points = 0
    for booty, bonus, plus, _ in FOOD:
        food = v.get(booty)
        if food:
            points += sum(food) + plus * len(v.get(bonus, ())) * len(food)
    points += _toys(v.get("teddy", []), v.get("doll", []), len(v.get("parrot", ())))
    return points + _cans(v.get("tincan", []), len(v.get("opener", ())))


def breakdown(tokens: Iterable[Token]) -> list[Line]:
    """The score per category, one line for each category in which the player holds a token."""
    v = _values(tokens)
    lines: list[Line] = []
    for booty, bonus, plus, name in FOOD:
        food = sorted(v.get(booty, []))
        extras = len(v.get(bonus, ()))
        if not food and not extras:
            continue
        detail = " + ".join(map(str, food)) if food else f"no {name.lower()}"
        if extras:
            detail += f"; {plural(extras, bonus)}: +{plus * extras} each"
        lines.append(Line(name, sum(food) + plus * extras * len(food), detail))
    teddies, dolls = sorted(v.get("teddy", [])), sorted(v.get("doll", []))
    parrots = len(v.get("parrot", ()))
    if teddies or dolls or parrots:
        if parrots == 0:
            detail = "no parrot: toys count nothing"
        elif parrots == 1:
            detail = "1 parrot: the better of teddies and dolls, +1"
        else:
            detail = f"{parrots} parrots: teddies and dolls, +{parrots}"
        detail = f"teddies {sum(teddies)}, dolls {sum(dolls)}; {detail}"
        lines.append(Line("Toys", _toys(teddies, dolls, parrots), detail))
    cans = sorted(v.get("tincan", []), reverse=True)
    openers = len(v.get("opener", ()))
    if cans or openers:
        opened = cans[:openers]
        detail = f"{plural(openers, 'can opener')} for {plural(len(cans), 'can')}"
        if opened:
            detail += ": " + " + ".join(map(str, opened))
        lines.append(Line("Tin cans", sum(opened), detail))
    return lines
