"""Ratings: openskill's Plackett–Luce model over the placings of a finished game.

Who is rated, and how (the README's *Ratings* section says the same for players):

* A game is rated when it is **finished** (by the rules, last one standing, the safety limit, or a
  resignation that left one team) and at least **two members** played in it. An **abandoned** game is
  never rated: nobody won it (this includes a game every member resigned from).
* Each player's team is ranked: the winners first; then the teams still standing, by their best score
  when the game has scores (tied otherwise); teams whose members all **resigned** last. A resignation is
  a loss like any other, so resigning never saves a rating.
* The game's **AI** is one fixed player per game (user 0), rated like a member, so how a member fares
  against it is measurable. When several AI seats sit at one table, each is rated as a copy of the AI and
  the AI's new rating is the mean of the copies' (so a table of many AI seats does not move it many times).
* A member whose seat was handed to a substitute is not rated for that game: whoever held the seat at the
  end is.

The rating shown is conservative, ``μ − 3σ``: it starts at 0 and rises as the bot becomes sure of a
player's skill.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from openskill.models import PlackettLuce

if TYPE_CHECKING:
    from data.store import SeatRecord
    from games.core import Game

MODEL = PlackettLuce()
"""openskill's defaults: μ = 25, σ = 25/3."""
AI_USER = 0
"""The user id under which each game's AI is rated (Discord ids are never 0)."""
GLOBAL = 0
"""The scope of ratings over every server (other scopes are server ids)."""


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float
    sigma: float

    @property
    def shown(self) -> float:
        """The conservative rating players see: μ − 3σ."""
        return self.mu - 3 * self.sigma


DEFAULT = Rating(MODEL.mu, MODEL.sigma)


@dataclass(frozen=True, slots=True)
class Placing:
    """One team of a finished game: its players' user ids (``AI_USER`` for an AI seat), its rank (lower is
    better, equal ranks tie) and whether it won."""

    players: tuple[int, ...]
    rank: int
    won: bool


def rate(placings: Sequence[Placing], current: Mapping[int, Rating]) -> dict[int, Rating]:
    """Every rated user's new rating after a game with these placings (a user without a rating in
    ``current`` starts at :data:`DEFAULT`). A user who appears several times (the AI at a table with
    several AI seats) gets the mean of the copies' new ratings."""
    teams = [
        [MODEL.create_rating([r.mu, r.sigma]) for r in (current.get(u, DEFAULT) for u in p.players)] for p in placings
    ]
    rated = MODEL.rate(teams, ranks=[p.rank for p in placings])
    copies: dict[int, list[Rating]] = {}
    for placing, team in zip(placings, rated, strict=True):
        for user, new in zip(placing.players, team, strict=True):
            copies.setdefault(user, []).append(Rating(new.mu, new.sigma))
    return {
        user: Rating(sum(r.mu for r in rs) / len(rs), sum(r.sigma for r in rs) / len(rs)) for user, rs in copies.items()
    }


def placings(
    game: Game, state: dict[str, Any], result: Mapping[str, Any], seats: Sequence[SeatRecord]
) -> list[Placing] | None:
    """How a finished game places its players for rating, or ``None`` when it is not rated (fewer than
    two members, or no result). Players whose seats share an engine team form one team; a player left
    without a seat (a Sea Rats! commander whose ships were all taken) is a team of their own."""
    members = {s.user_id for s in seats if s.user_id is not None}
    if len(members) < 2 or not result or result.get("reason") == "abandoned":
        return None
    owners = [game.controller(state, s) for s in range(state["seats"])]
    groups: list[set[int]] = []
    for team in game.teams(state):
        players = {owners[s] for s in team}
        joined = [g for g in groups if g & players]
        for g in joined:
            groups.remove(g)
            players |= g
        groups.append(players)
    covered = set().union(*groups) if groups else set()
    groups += [{p.seat} for p in seats if p.seat not in covered]
    winners = set(result.get("winners") or ())
    scores = result.get("scores") or []
    resigned = {p.seat for p in seats if p.resigned}

    def standing(group: set[int]) -> tuple[int, int, float]:
        group_seats = [s for s in range(len(owners)) if owners[s] in group]
        won = any(s in winners for s in group_seats)
        best = max((scores[s] for s in group_seats if s < len(scores)), default=float("-inf")) if scores else 0
        return (0 if won else 1, 1 if group <= resigned else 0, -best)

    keys = [standing(g) for g in groups]
    order = sorted(set(keys))
    return [
        Placing(
            tuple(seats[p].user_id or AI_USER for p in sorted(group)),
            order.index(key),
            key[0] == 0,
        )
        for group, key in zip(groups, keys, strict=True)
    ]
