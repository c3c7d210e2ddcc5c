"""The records of games that are over, without Discord: the readable action log anyone can verify, the
public positions a replay shows, and a member's results per game.

The log (``game_log``) is plain text: a header of ``key: value`` lines (the game, its players and options,
the seed's SHA-256 as posted at the start, the seed revealed at the end, the posted result), then one line
per action: its number, the seat that took it, its text and, for people, who did what. ``verify_log``
checks a log with nothing but the published engines: the seed hashes to the digest, every action was
legal when it was taken, and the replayed game ends with the posted result.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from data.store import GameRecord, SeatRecord
from games.core import Action, Game, IllegalAction, format_seats
from games.registry import GAMES
from tables.service import result_of, seat_owners, seed_digest

LOG_TITLE = "# Pirate Tables game log"
ACTIONS = "actions:"
DECIDED = ("rules", "last_standing", "safety_limit")
"""Endings the engine decides (the others, resignation and abandonment, are the players')."""


class BadLog(ValueError):
    """The file is not a game log this program can read; ``str(exc)`` says why, in one line."""


def names_at(game: Game, state: dict[str, Any], record: GameRecord) -> list[str]:
    """Each engine seat's player's name in ``state`` (controllers can change during a game)."""
    return [record.seats[p].name for p in seat_owners(game, state)]


def game_log(record: GameRecord, actions: Sequence[tuple[int, int, str]]) -> str:
    """The verifiable, readable action log of a game that is over."""
    game = GAMES[record.kind].game
    header = {
        "game": record.kind,
        "id": record.id,
        "players": len(record.seats),
        "options": json.dumps(record.options, sort_keys=True),
        "names": json.dumps(record.names, ensure_ascii=False),
        "resigned": json.dumps([s.seat for s in record.seats if s.resigned]),
        "seed-sha256": seed_digest(record.seed),
        "seed": record.seed,
        "result": json.dumps(record.result, ensure_ascii=False, sort_keys=True),
    }
    lines = [
        f"{LOG_TITLE}: {GAMES[record.kind].title} #{record.id}",
        "# Check it with:  python bot.py verify THIS_FILE",
        *(f"{key}: {value}" for key, value in header.items()),
        ACTIONS,
    ]
    state = game.new_game(len(record.seats), record.options, record.seed)
    for seq, seat, action in actions:
        names = names_at(game, state, record)
        label = format_seats(" → ".join(game.describe(state, seat, Action.decode(action))), names)
        lines.append(f"{seq}\t{seat}\t{action}\t{names[seat]}: {label}")
        state = game.apply(state, seat, action, inplace=True).state
    return "\n".join(lines) + "\n"


@dataclass(slots=True)
class Log:
    """A game log read back: the header's values and the actions."""

    kind: str
    players: int
    options: dict[str, Any]
    resigned: list[int]
    digest: str
    seed: str
    result: dict[str, Any]
    actions: list[tuple[int, int, str]] = field(default_factory=list)


def read_log(text: str) -> Log:
    """Parse a game log; :class:`BadLog` with the reason if it is not one."""
    header: dict[str, str] = {}
    actions: list[tuple[int, int, str]] = []
    lines = iter(text.splitlines())
    for line in lines:
        if line.strip() == ACTIONS:
            break
        if line.startswith("#") or not line.strip():
            continue
        key, colon, value = line.partition(":")
        if not colon:
            raise BadLog(f"not a game log: the line {line[:60]!r} is not 'key: value'")
        header[key.strip()] = value.strip()
    else:
        raise BadLog(f"not a game log: no {ACTIONS!r} line")
    for line in lines:
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) < 3 or not parts[0].isdigit() or not parts[1].isdigit():
            raise BadLog(f"not a game log: the action line {line[:60]!r} is not 'number<TAB>seat<TAB>action'")
        actions.append((int(parts[0]), int(parts[1]), parts[2]))
    missing = [
        k for k in ("game", "players", "options", "resigned", "seed-sha256", "seed", "result") if k not in header
    ]
    if missing:
        raise BadLog(f"not a game log: its header lacks {', '.join(missing)}")
    try:
        return Log(
            kind=header["game"],
            players=int(header["players"]),
            options=json.loads(header["options"]),
            resigned=list(json.loads(header["resigned"])),
            digest=header["seed-sha256"],
            seed=header["seed"],
            result=json.loads(header["result"]) or {},
            actions=actions,
        )
    except (ValueError, TypeError) as exc:
        raise BadLog(f"not a game log: a header value cannot be read ({exc})") from None


@dataclass(slots=True)
class Verdict:
    """What :func:`verify_log` found: ``ok`` and one line per check, for people."""

    ok: bool
    lines: list[str]


def verify_log(text: str) -> Verdict:
    """Check a game log against the published engines (see the module's docstring). :class:`BadLog` if
    the text is not a game log at all."""
    log = read_log(text)
    spec = GAMES.get(log.kind)
    if spec is None:
        raise BadLog(f"the log is of a game this program does not know: {log.kind!r}")
    game = spec.game
    lines: list[str] = []
    if seed_digest(log.seed) != log.digest:
        return Verdict(False, [f"FAIL: the seed's SHA-256 is {seed_digest(log.seed)}, not the posted {log.digest}."])
    lines.append(f"ok: the seed hashes to the posted SHA-256 {log.digest}.")
    try:
        state = game.new_game(log.players, log.options, log.seed)
    except IllegalAction as exc:
        return Verdict(False, [*lines, f"FAIL: the game cannot be set up: {exc}"])
    for expected, (seq, seat, action) in enumerate(log.actions, start=1):
        if seq != expected:
            return Verdict(False, [*lines, f"FAIL: action {expected} is missing (the next one is numbered {seq})."])
        try:
            state = game.apply(state, seat, action, inplace=True).state
        except IllegalAction as exc:
            return Verdict(False, [*lines, f"FAIL: action {seq} ({action!r} by seat {seat}) is not legal there: {exc}"])
    lines.append(f"ok: all {len(log.actions)} actions are legal, replayed from the seed with the published engine.")
    outcome = game.outcome(state)
    reason = log.result.get("reason")
    if reason not in DECIDED:
        if outcome is not None:
            return Verdict(False, [*lines, f"FAIL: the replay ends the game by the rules, but the log says {reason}."])
        lines.append(f"ok: the game was not over when it ended by {reason}, as the log says.")
        return Verdict(True, lines)
    if outcome is None:
        return Verdict(False, [*lines, "FAIL: the replayed game is not over, but the log posts a result."])
    seats = [SeatRecord(p, "", None, p in log.resigned) for p in range(log.players)]
    replayed = result_of(game, state, outcome, seats)
    for key in ("winners", "scores", "reason", "summary"):
        if replayed[key] != log.result.get(key):
            return Verdict(
                False,
                [*lines, f"FAIL: the replay gives {key} {replayed[key]!r}; the log posts {log.result.get(key)!r}."],
            )
    lines.append(
        f"ok: the replay gives the posted result (winners {replayed['winners']}, scores {replayed['scores']})."
    )
    return Verdict(True, lines)


# ---------------------------------------------------------------------------------------------- replays


@dataclass(frozen=True, slots=True)
class Position:
    """A public position of a game: after action ``version`` (0: the start), what spectators saw."""

    version: int
    view: dict[str, Any]
    names: tuple[str, ...]


def public_positions(record: GameRecord, actions: Iterable[tuple[int, int, str]]) -> list[Position]:
    """Every position spectators could see, in order: the start, then each action that changed the
    public view (a secret choice that shows nothing new makes no new position)."""
    game = GAMES[record.kind].game
    state = game.new_game(len(record.seats), record.options, record.seed)
    out = [Position(0, game.view(state, None), tuple(names_at(game, state, record)))]
    for seq, seat, action in actions:
        state = game.apply(state, seat, action, inplace=True).state
        view = game.view(state, None)
        if view != out[-1].view:
            out.append(Position(seq, view, tuple(names_at(game, state, record))))
    return out


def sample(positions: Sequence[Position], limit: int) -> list[Position]:
    """At most ``limit`` positions spread evenly over the game, always the first and the last."""
    if len(positions) <= limit:
        return list(positions)
    step = (len(positions) - 1) / (limit - 1)
    return [positions[round(i * step)] for i in range(limit)]


# ---------------------------------------------------------------------------------------------- results


def players_won(record: GameRecord) -> set[int]:
    """The players (record seat numbers) who won a game that is over."""
    game = GAMES[record.kind].game
    winners = (record.result or {}).get("winners") or []
    owners = seat_owners(game, record.state)
    return {owners[s] for s in winners if s < len(owners)}


@dataclass(slots=True)
class GameStats:
    """A member's results in one game: played and won (games that are over, abandoned ones not counted),
    their opponents by how often they met, their latest games (newest first)."""

    kind: str
    played: int = 0
    won: int = 0
    opponents: dict[str, int] = field(default_factory=dict)
    latest: list[GameRecord] = field(default_factory=list)

    def favourites(self, count: int = 3) -> list[str]:
        return sorted(self.opponents, key=lambda name: (-self.opponents[name], name))[:count]


def member_stats(records: Iterable[GameRecord], user_id: int, *, latest: int = 3) -> dict[str, GameStats]:
    """Per game kind (in the registry's order), a member's :class:`GameStats` over ``records`` (given
    newest first)."""
    stats: dict[str, GameStats] = {}
    for record in records:
        player = record.seat_of(user_id)
        if player is None or record.status != "finished" or record.kind not in GAMES:
            continue
        entry = stats.setdefault(record.kind, GameStats(record.kind))
        entry.played += 1
        entry.won += player in players_won(record)
        for seat in record.seats:
            if seat.seat != player and seat.user_id not in (None, user_id):
                entry.opponents[seat.name] = entry.opponents.get(seat.name, 0) + 1
        if len(entry.latest) < latest:
            entry.latest.append(record)
    return {kind: stats[kind] for kind in GAMES if kind in stats}
