"""How a game ends, as the platform records it: the result of a game the engine finished (resigned players
cannot win), of one ended by resignation or abandonment, and the placings ratings are computed from.

Pure functions of the state and the seats, so that ``verify`` recomputes from a log exactly what the
service stored.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from data.ratings import AI_USER, Placing
from data.store import SeatRecord
from games.core import Game, Outcome, Termination
from games.i18n import T, seat_ref
from tables.seating import seat_owners


def result_of(game: Game, state: dict[str, Any], outcome: Outcome, players: Sequence[SeatRecord]) -> dict[str, Any]:
    """The stored result of a finished game, per team. Resigned players cannot win: their seats are never
    winners, and a team whose players all resigned is out of the running; if that leaves no winning
    team, the best-scoring team still standing wins (ties shared). A game the engine ends without a
    winner (a draw with nobody left) has none."""
    resigned = {p.seat for p in players if p.resigned}
    owners = seat_owners(game, state)
    teams = game.teams(state)

    def standing(team: tuple[int, ...]) -> bool:
        return any(owners[s] not in resigned for s in team)

    winning = [t for t in teams if standing(t) and any(s in outcome.winners for s in t)]
    if not winning and outcome.winners and outcome.scores:
        # The engine's winners all resigned: the best of the teams still standing win instead.
        alive = [t for t in teams if standing(t)]
        if alive:
            best = max(max(outcome.scores[s] for s in t) for t in alive)
            winning = [t for t in alive if max(outcome.scores[s] for s in t) == best]
    winners = sorted(s for t in winning for s in t if owners[s] not in resigned)
    return {
        "winners": winners,
        "scores": list(outcome.scores),
        "summary": outcome.summary,
        "reason": outcome.termination.name.lower(),
    }


def ended_without_play(winners: Sequence[int], summary: str, termination: Termination) -> dict[str, Any]:
    """The stored result of a game ended by resignation or abandonment."""
    return {"winners": list(winners), "scores": [], "summary": summary, "reason": termination.name.lower()}


def after_resignation(
    game: Game, state: dict[str, Any], players: Sequence[SeatRecord], who: int
) -> dict[str, Any] | None:
    """The result once player ``who`` (already marked resigned in ``players``) has resigned, or ``None`` if
    the game goes on: more than one team is still standing and a member still plays. One team left wins
    (its players who did not resign); no member left playing abandons the game. The summary names the
    player by ``{pN}`` (one of their seats), so that names are shown safely wherever it is read."""
    out = game.out(state)
    owners = seat_owners(game, state)
    playing = {owners[s] for s in range(len(owners)) if s not in out}
    gone = {p.seat for p in players if p.resigned} | {p.seat for p in players if p.seat not in playing}
    teams = [t for t in game.teams(state) if any(owners[s] not in gone for s in t)]
    humans = [p for p in players if p.user_id is not None and p.seat not in gone]
    if len(teams) > 1 and humans:
        return None
    if who in owners:
        summary = T("{player} resigned.", player=seat_ref(owners.index(who)))
    else:
        summary = T("A player with no ship left resigned.")
    if len(teams) == 1:
        winners = [s for s in teams[0] if owners[s] not in gone]
        return ended_without_play(winners, summary, Termination.RESIGNATION)
    return ended_without_play([], summary, Termination.ABANDONED)


def placings(
    game: Game, state: dict[str, Any], result: dict[str, Any], seats: Sequence[SeatRecord]
) -> list[Placing] | None:
    """How a finished game places its players for rating, or ``None`` when it is not rated (fewer than
    two members, or no result, or abandoned). Players whose seats share an engine team form one team; a
    player left without a seat (a Sea Rats! commander whose ships were all taken) is a team of their own."""
    members = {s.user_id for s in seats if s.user_id is not None}
    if len(members) < 2 or not result or result.get("reason") == "abandoned":
        return None
    owners = seat_owners(game, state)
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
        Placing(tuple(seats[p].user_id or AI_USER for p in sorted(group)), order.index(key), key[0] == 0)
        for group, key in zip(groups, keys, strict=True)
    ]


def final_view(
    game: Game, state: dict[str, Any], result: dict[str, Any] | None, view: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A spectator's view of a game the engine finished, as its final image draws it: crowning the platform's
    winners (``result``'s: a player who resigned cannot win) where they differ from the engine's. ``view``: the
    spectator's view of ``state``, where the caller has it already."""
    view = game.view(state, None) if view is None else view
    outcome = game.outcome(state)
    winners = (result or {}).get("winners")
    if outcome is not None and winners is not None and sorted(winners) != sorted(outcome.winners):
        view = game.crowned(view, winners)
    return view
