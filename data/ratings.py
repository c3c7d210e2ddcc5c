"""Ratings: openskill's Plackett–Luce model over the placings of a finished game.

Who is rated, and how (docs/playing.md, *Ratings and records*, says the same for players):

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

How a game places its players is the table service's to say (:func:`tables.results.placings`); this module
rates placings and keeps the ratings.

The rating shown is conservative, ``μ − 3σ``: it starts at 0 and rises as the bot becomes sure of a
player's skill.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from data.engine import Row
from data.repository import Repository
from data.rows import Rows, derived

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


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's rating in one game and scope, with how many rated games they played and won."""

    user_id: int
    """``AI_USER`` for the game's AI."""
    name: str | None = derived()
    """Their latest display name at a table (``None`` when not asked for)."""
    rating: Rating = derived()
    """From the columns ``mu`` and ``sigma``."""
    games: int
    wins: int


_STANDINGS = Rows(Standing)


def _standing(row: Row) -> Standing:
    """A row of ``ratings``, with the latest name of its player in ``name`` (the AI is named here)."""
    name = "🤖 AI" if row["user_id"] == AI_USER else row["name"]
    return _STANDINGS.read(row, name=name, rating=Rating(row["mu"], row["sigma"]))


class RatingsRepo(Repository):
    """The ``ratings`` and ``rating_changes`` tables."""

    __slots__ = ()

    async def rate(
        self, game_id: int, kind: str, guild_id: int | None, placed: Sequence[Placing], *, now: float
    ) -> None:
        """Rate a finished game from its placings, per server and globally. Called in the transaction that
        stores the game's result, so a crash rates it either with its result or not at all, and the
        primary key of ``rating_changes`` means a game is never rated twice."""
        won = {u for p in placed if p.won for u in p.players}
        users = sorted({u for p in placed for u in p.players})
        scopes = sorted({guild_id or GLOBAL, GLOBAL})
        async with self._writing() as tx:
            # Read-then-write: first take every rating row this game changes (made at the default rating if
            # new), in one order for every game (scope, then user). On PostgreSQL that locks the rows, so two
            # games that end at once with a player in common are rated one after the other, never both from
            # the same old rating; and the one order means two such games cannot deadlock.
            await tx.executemany(
                "INSERT INTO ratings (scope, kind, user_id, mu, sigma, games, wins) VALUES (?, ?, ?, ?, ?, 0, 0)"
                " ON CONFLICT (scope, kind, user_id) DO UPDATE SET games = ratings.games",
                [(scope, kind, user, DEFAULT.mu, DEFAULT.sigma) for scope in scopes for user in users],
            )
            for scope in scopes:
                current = {}
                for user in users:
                    row = await tx.fetchone(
                        "SELECT mu, sigma FROM ratings WHERE scope = ? AND kind = ? AND user_id = ?",
                        (scope, kind, user),
                    )
                    current[user] = Rating(row["mu"], row["sigma"])
                for user, new in rate(placed, current).items():
                    await tx.execute(
                        "UPDATE ratings SET mu = ?, sigma = ?, games = games + 1, wins = wins + ?"
                        " WHERE scope = ? AND kind = ? AND user_id = ?",
                        (new.mu, new.sigma, int(user in won), scope, kind, user),
                    )
                    old = current[user]
                    await tx.execute(
                        "INSERT INTO rating_changes (game_id, scope, user_id, kind, won, mu_before, sigma_before, mu,"
                        " sigma, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (game_id, scope, user, kind, int(user in won), old.mu, old.sigma, new.mu, new.sigma, now),
                    )

    async def shown(self, kind: str, scope: int, user_ids: Sequence[int]) -> dict[int, float]:
        """The shown rating (μ − 3σ) of each of ``user_ids`` in a game and scope (the default for a player
        not rated yet)."""
        out = dict.fromkeys(user_ids, DEFAULT.mu - 3 * DEFAULT.sigma)
        if user_ids:
            marks = ", ".join("?" * len(user_ids))
            rows = await self._q.fetchall(
                f"SELECT user_id, mu, sigma FROM ratings WHERE scope = ? AND kind = ? AND user_id IN ({marks})",
                (scope, kind, *user_ids),
            )
            out |= {row["user_id"]: row["mu"] - 3 * row["sigma"] for row in rows}
        return out

    async def leaderboard(self, kind: str, scope: int, *, limit: int = 10) -> list[Standing]:
        """The best-rated players of a game in a scope (a server's id, or ``GLOBAL``), best first by the
        conservative rating μ − 3σ."""
        return [
            _standing(row)
            for row in await self._q.fetchall(
                "SELECT r.*, (SELECT s.name FROM seats s WHERE s.user_id = r.user_id ORDER BY s.game_id DESC LIMIT 1)"
                " AS name FROM ratings r WHERE r.scope = ? AND r.kind = ?"
                " ORDER BY r.mu - 3 * r.sigma DESC, r.games DESC LIMIT ?",
                (scope, kind, limit),
            )
        ]

    async def standings_of(self, user_id: int, scope: int) -> dict[str, Standing]:
        """A player's rating in every game they were rated in, by game kind."""
        return {
            row["kind"]: _standing(row)
            for row in await self._q.fetchall(
                "SELECT r.*, NULL AS name FROM ratings r WHERE r.scope = ? AND r.user_id = ?", (scope, user_id)
            )
        }

    async def trend(self, user_id: int, scope: int, kind: str, *, limit: int = 10) -> list[float]:
        """A player's shown rating (μ − 3σ) before their last ``limit`` rated games and after each, oldest
        first (empty if never rated)."""
        rows = await self._q.fetchall(
            "SELECT mu_before, sigma_before, mu, sigma FROM rating_changes WHERE user_id = ? AND scope = ? AND"
            " kind = ? ORDER BY at DESC, game_id DESC LIMIT ?",
            (user_id, scope, kind, limit),
        )
        rows.reverse()
        if not rows:
            return []
        first = Rating(rows[0]["mu_before"], rows[0]["sigma_before"]).shown
        return [first, *(Rating(r["mu"], r["sigma"]).shown for r in rows)]

    async def changes(self, game_id: int) -> list[tuple[int, int, Rating, Rating]]:
        """What a game did to ratings: ``(scope, user_id, before, after)`` per rated player and scope."""
        return [
            (r["scope"], r["user_id"], Rating(r["mu_before"], r["sigma_before"]), Rating(r["mu"], r["sigma"]))
            for r in await self._q.fetchall(
                "SELECT * FROM rating_changes WHERE game_id = ? ORDER BY scope, user_id", (game_id,)
            )
        ]
