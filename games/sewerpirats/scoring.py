"""Scoring a player's tokens, per category: the final scoring image and the private live preview."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from games.i18n import N, T, joined, seat_ref
from games.sewerpirats.components import Token
from games.sewerpirats.words import bonus_count

FOOD: tuple[tuple[str, str, int, str], ...] = (
    ("fries", "ketchup", 5, T("French fries")),
    ("noodles", "chili", 4, T("Chinese noodles")),
    ("burger", "milkshake", 3, T("Hamburgers")),
)
"""(booty type, bonus type, points the bonus adds to each token, category name (marked))."""
NO_FOOD: dict[str, str] = {
    "fries": T("no french fries"),
    "noodles": T("no chinese noodles"),
    "burger": T("no hamburgers"),
}
TOYS = T("Toys")
TIN_CANS = T("Tin cans")


@dataclass(frozen=True, slots=True)
class Line:
    """One category of a player's score."""

    category: str
    """The category's name (marked)."""
    points: int
    detail: str
    """How the points came about (marked)."""

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
        detail = " + ".join(map(str, food)) if food else NO_FOOD[booty]
        if extras:
            detail = T(
                "{values}; {bonuses}: +{plus} each",
                values=detail,
                bonuses=bonus_count(bonus, extras),
                plus=plus * extras,
            )
        lines.append(Line(name, sum(food) + plus * extras * len(food), detail))
    teddies, dolls = sorted(v.get("teddy", [])), sorted(v.get("doll", []))
    parrots = len(v.get("parrot", ()))
    if teddies or dolls or parrots:
        if parrots == 0:
            rule = T("no parrot: toys count nothing")
        elif parrots == 1:
            rule = T("1 parrot: the better of teddies and dolls, +1")
        else:
            rule = T("{n} parrots: teddies and dolls, +{n}", n=parrots)
        detail = T("teddies {teddies}, dolls {dolls}; {rule}", teddies=sum(teddies), dolls=sum(dolls), rule=rule)
        lines.append(Line(TOYS, _toys(teddies, dolls, parrots), detail))
    cans = sorted(v.get("tincan", []), reverse=True)
    openers = len(v.get("opener", ()))
    if cans or openers:
        opened = cans[:openers]
        values = {
            "openers": N("{n} can opener", "{n} can openers", openers),
            "cans": N("{n} can", "{n} cans", len(cans)),
        }
        if opened:
            detail = T("{openers} for {cans}: {values}", values=" + ".join(map(str, opened)), **values)
        else:
            detail = T("{openers} for {cans}", **values)
        lines.append(Line(TIN_CANS, sum(opened), detail))
    return lines


def victory(winners: list[int] | tuple[int, ...], best: int) -> str:
    """Who won with how many points, as a sentence (the outcome's summary and the last line of the log)."""
    names = joined([seat_ref(w) for w in winners])
    if len(winners) > 1:
        return N(
            "{winners} share the victory with {n} point.",
            "{winners} share the victory with {n} points.",
            best,
            winners=names,
        )
    return N("{winner} wins with {n} point.", "{winner} wins with {n} points.", best, winner=names)
