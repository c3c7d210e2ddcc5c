"""A tournament's draws and scores, as pure functions: who sits at which table in a round (Swiss or round
robin), the points each placing at a table is worth, and the standings with their tie-breaks.

Nothing here reads the store or knows Discord: :mod:`tables.tournaments.service` gives these functions what
the store holds and stores what they return, so the same stored history always draws the same round.

* **Swiss.** Players are ranked by points, then rating, then a random order drawn from the tournament's
  seed and the round's number (so a restart draws the same). Tables are filled from the top: each takes the
  best-ranked player still free and the next ones who have not shared a table with them, when that is
  possible for the whole round (a search over the ranked order); only otherwise are repeats allowed, the
  fewest first. Players left over who cannot fill a table get a bye, scored as a win: the lowest-ranked
  players who have had no bye yet.
* **Round robin** (tables of two): the circle method; with an odd count, the player paired with the empty
  place has the bye.
* **Points** for a placing at a table: the winners share 1 point (a draw of two: ½ each); the others get
  placement points below any winner's, from the game's own ranking: ``(n − 1 − rank) / (2 · (n − 1))`` at a
  table of ``n``, so at a table of two the loser gets 0 and at a table of three the second gets ¼.
* **Tie-breaks**: Buchholz (the sum of the points of everyone a player shared a table with), then rating.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations

BYE = Fraction(1)
"""A bye scores as a win."""


@dataclass(frozen=True, slots=True)
class Player:
    """A player as a draw sees them: their points so far, rating, and history."""

    user_id: int
    points: Fraction = Fraction(0)
    rating: float = 0.0
    met: frozenset[int] = frozenset()
    """Everyone they have shared a table with."""
    byes: int = 0


@dataclass(frozen=True, slots=True)
class Draw:
    """One round: its tables (user ids, in seat order) and who has a bye."""

    tables: list[list[int]] = field(default_factory=list)
    byes: list[int] = field(default_factory=list)


def swiss_rounds(players: int, table: int) -> int:
    """Rounds enough to find a winner: each round a table's winner goes on, so ``ceil(log_table(players))``
    (``ceil(log2(n))`` for tables of two), at least one."""
    if players <= table:
        return 1
    return max(1, math.ceil(math.log(players) / math.log(table) - 1e-9))


def round_robin_rounds(players: int) -> int:
    """Rounds in which everyone meets everyone at a table of two (one more with an odd count: the byes)."""
    return players - 1 if players % 2 == 0 else players


def ranked(players: Sequence[Player], seed: str, round_no: int) -> list[Player]:
    """Players by points, then rating, then a random order drawn from ``seed`` and the round's number."""
    rng = random.Random(f"{seed}:{round_no}")
    lots = {p.user_id: rng.random() for p in sorted(players, key=lambda p: p.user_id)}
    return sorted(players, key=lambda p: (-p.points, -p.rating, lots[p.user_id]))


def _repeats(group: Sequence[Player]) -> int:
    return sum(b.user_id in a.met for a, b in combinations(group, 2))


def _fill(free: list[Player], table: int, allowed: int, budget: list[int]) -> list[list[Player]] | None:
    """Tables of ``table`` from ``free`` (ranked), the best-ranked free player heading each, with at most
    ``allowed`` repeated pairs in all; ``None`` if there is no such draw (or the search ``budget`` ran out)."""
    if not free:
        return []
    budget[0] -= 1
    if budget[0] < 0:
        return None
    head, rest = free[0], free[1:]
    for others in combinations(range(len(rest)), table - 1):
        group = [head, *(rest[i] for i in others)]
        cost = _repeats(group)
        if cost > allowed:
            continue
        left = [p for i, p in enumerate(rest) if i not in others]
        tail = _fill(left, table, allowed - cost, budget)
        if tail is not None:
            return [group, *tail]
    return None


def _byes(order: list[Player], count: int) -> list[Player]:
    """The ``count`` lowest-ranked players, those without a bye first."""
    lowest_first = list(reversed(order))
    return sorted(lowest_first, key=lambda p: p.byes > 0)[:count]


def swiss(players: Sequence[Player], table: int, seed: str, round_no: int, *, smallest: int | None = None) -> Draw:
    """A Swiss round of tables of ``table`` (see the module). Players left over sit at one smaller table if
    the game seats ``smallest`` or more of them; otherwise they have byes."""
    order = ranked(players, seed, round_no)
    left = len(order) % table
    small = left if smallest is not None and left >= max(smallest, 2) else 0
    byes = _byes(order, left - small) if left - small else []
    seated = [p for p in order if p not in byes]
    tables: list[list[Player]] | None = None
    most = (len(seated) // table) * math.comb(table, 2) + math.comb(small, 2)
    for allowed in range(most + 1):
        tables = _fill_mixed(seated, table, small, allowed)
        if tables is not None:
            break
    assert tables is not None
    return Draw([[p.user_id for p in t] for t in tables], [p.user_id for p in byes])


def _fill_mixed(seated: list[Player], table: int, small: int, allowed: int) -> list[list[Player]] | None:
    """Full tables from the top, and the smaller table (``small`` players, if any) at the bottom."""
    if not small:
        return _fill(seated, table, allowed, [20_000])
    for bottom in combinations(range(len(seated)), small):
        group = [seated[i] for i in bottom]
        cost = _repeats(group)
        if cost > allowed:
            continue
        top = _fill([p for i, p in enumerate(seated) if i not in bottom], table, allowed - cost, [20_000])
        if top is not None:
            return [*top, group]
    return None


def round_robin(user_ids: Sequence[int], round_no: int) -> Draw:
    """Round ``round_no`` (from 1) of a round robin by the circle method: the first player stays, the others
    turn one place a round; with an odd count, whoever meets the empty place has the bye."""
    ring: list[int | None] = list(user_ids) + ([None] if len(user_ids) % 2 else [])
    n = len(ring)
    turn = (round_no - 1) % max(1, n - 1)
    rest = ring[1:]
    rest = rest[-turn:] + rest[:-turn] if turn else rest
    ring = [ring[0], *rest]
    draw = Draw()
    for i in range(n // 2):
        a, b = ring[i], ring[n - 1 - i]
        if a is None or b is None:
            draw.byes.append(a if b is None else b)  # type: ignore[arg-type]
        else:
            draw.tables.append([a, b])
    return draw


def table_points(places: Mapping[int, tuple[int, bool]]) -> dict[int, Fraction]:
    """Each player's points from their placing at a table of ``len(places)``: ``(rank, won)`` per user id,
    rank 0 the best (equal ranks tie; a rank counts the players placed above). See the module."""
    n = len(places)
    winners = [u for u, (_rank, won) in places.items() if won]
    out = {}
    for user, (rank, won) in places.items():
        better = sum(other < rank for other, _won in places.values())  # equal ranks tie; places below them count
        if won:
            out[user] = Fraction(1, len(winners))
        elif n > 1:
            out[user] = Fraction(n - 1 - better, 2 * (n - 1))
        else:
            out[user] = Fraction(0)
    return out


@dataclass(frozen=True, slots=True)
class Line:
    """A player's line of the standings."""

    user_id: int
    place: int
    """From 1; players tied on points, Buchholz and rating share a place."""
    points: Fraction
    buchholz: Fraction
    rating: float
    games: int
    byes: int


def standings(
    points: Mapping[int, Fraction],
    met: Mapping[int, Iterable[int]],
    ratings: Mapping[int, float],
    games: Mapping[int, int],
    byes: Mapping[int, int],
) -> list[Line]:
    """The standings: by points, then Buchholz (the points of everyone met), then rating."""
    lines = []
    for user, score in points.items():
        buchholz = sum((points.get(o, Fraction(0)) for o in set(met.get(user, ()))), Fraction(0))
        lines.append((user, score, buchholz, ratings.get(user, 0.0)))
    lines.sort(key=lambda x: (-x[1], -x[2], -x[3], x[0]))
    out: list[Line] = []
    for i, (user, score, buchholz, rating) in enumerate(lines):
        tied = out and (out[-1].points, out[-1].buchholz, out[-1].rating) == (score, buchholz, rating)
        place = out[-1].place if tied else i + 1
        out.append(Line(user, place, score, buchholz, rating, games.get(user, 0), byes.get(user, 0)))
    return out


def shown(points: Fraction) -> str:
    """Points as players read them: ``2``, ``1½``, ``¼``, ``2.33`` for other fractions."""
    whole, part = divmod(points, 1)
    marks = {Fraction(1, 2): "½", Fraction(1, 4): "¼", Fraction(3, 4): "¾"}
    if part == 0:
        return str(int(whole))
    if part in marks:
        return (str(int(whole)) if whole else "") + marks[part]
    return f"{float(points):.2f}"
