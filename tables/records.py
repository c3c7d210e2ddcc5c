"""The records of games that are over, without Discord: the readable action log anyone can verify, the
public positions a replay shows, and a member's results per game.

The log (``game_log``) is plain English text (a file anyone can check with the published program, whatever
language its game was played in): a header of ``key: value`` lines (the game, its players and options,
the seed's SHA-256 as posted at the start, the seed revealed at the end, the posted result), then one line
per action: its number, the seat that took it, its text and, for people, who did what. ``verify_log``
checks a log with nothing but the published engines: the seed hashes to the digest, every action was
legal when it was taken, and the replayed game ends with the posted result.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from data.store import GameRecord, SeatRecord
from games.core import JSON, Action, Game, IllegalAction, format_seats
from games.i18n import localize, localize_tree
from games.registry import GAMES
from tables.results import after_resignation, result_of
from tables.seating import seat_owners, seed_digest

if TYPE_CHECKING:
    pass

LOG_TITLE = "# Pirate Tables game log"
ACTIONS = "actions:"
DECIDED = ("rules", "last_standing", "safety_limit")
"""Endings the engine decides (the others, resignation and abandonment, are the players')."""


class BadLog(ValueError):
    """The file is not a game log this program can read; ``str(exc)`` says why, in one line."""


def names_at(game: Game, state: dict[str, Any], names: Sequence[str]) -> list[str]:
    """Each engine seat's player's name in ``state`` (controllers can change during a game)."""
    return [names[p] for p in seat_owners(game, state)]


def apply_logged(game: Game, state: JSON, seat: int, text: str) -> JSON:
    """Apply one action of a game's log to ``state`` in place, as the service applied it: a lapse (the
    platform's own action, never a legal move of the player) trusted, everything else checked."""
    lapse = game.lapse(state)
    trusted = lapse is not None and lapse.seat == seat and lapse.action == Action.decode(text)
    return game.apply(state, seat, text, inplace=True, trusted=trusted).state


def replay(record: GameRecord, actions: Iterable[tuple[int, int, str]]) -> JSON:
    """A game's state rebuilt from its seed and action log."""
    game = GAMES[record.kind].game
    state = game.new_game(len(record.seats), record.options, record.seed)
    for _seq, seat, text in actions:
        state = apply_logged(game, state, seat, text)
    return state


def log_line(game: Game, state: JSON, seq: int, seat: int, action: str, names: Sequence[str]) -> str:
    """An action's line in the log: its number, seat and text, then who did what, for people."""
    shown = names_at(game, state, names)
    label = localize(format_seats(" → ".join(game.describe(state, seat, Action.decode(action))), shown))
    return f"{seq}\t{seat}\t{action}\t{shown[seat]}: {label}"


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
        "result": json.dumps(localize_tree(record.result), ensure_ascii=False, sort_keys=True),
    }
    lines = [
        f"{LOG_TITLE}: {localize(GAMES[record.kind].title)} #{record.id}",
        "# Check it with:  python bot.py verify THIS_FILE",
        *(f"{key}: {value}" for key, value in header.items()),
        ACTIONS,
    ]
    state = game.new_game(len(record.seats), record.options, record.seed)
    for seq, seat, action in actions:
        lines.append(log_line(game, state, seq, seat, action, record.names))
        state = apply_logged(game, state, seat, action)
    return "\n".join(lines) + "\n"


@dataclass(slots=True)
class Log:
    """A game log read back: the header's values and the actions (with the line each was written as)."""

    kind: str
    players: int
    options: dict[str, Any]
    names: list[str]
    resigned: list[int]
    digest: str
    seed: str
    result: dict[str, Any]
    actions: list[tuple[int, int, str]] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)


HEADER = ("game", "players", "options", "names", "resigned", "seed-sha256", "seed", "result")


def read_log(text: str) -> Log:
    """Parse a game log; :class:`BadLog` with the reason if it is not one."""
    header: dict[str, str] = {}
    actions: list[tuple[int, int, str]] = []
    written: list[str] = []
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
        written.append(line)
    missing = [k for k in HEADER if k not in header]
    if missing:
        raise BadLog(f"not a game log: its header lacks {', '.join(missing)}")
    try:
        return Log(
            kind=header["game"],
            players=int(header["players"]),
            options=json.loads(header["options"]),
            names=[str(n) for n in json.loads(header["names"])],
            resigned=[int(r) for r in json.loads(header["resigned"])],
            digest=header["seed-sha256"],
            seed=header["seed"],
            result=json.loads(header["result"]) or {},
            actions=actions,
            lines=written,
        )
    except (ValueError, TypeError) as exc:
        raise BadLog(f"not a game log: a header value cannot be read ({exc})") from None


@dataclass(slots=True)
class Verdict:
    """What :func:`verify_log` found: ``ok`` and one line per check, for people."""

    ok: bool
    lines: list[str]


def _header_faults(game: Game, log: Log) -> str | None:
    """What in a log's header cannot be so (players, names, resigned seats, options), if anything."""
    if len(log.names) != log.players:
        return f"the header names {len(log.names)} players but says there were {log.players}"
    if any(not 0 <= r < log.players for r in log.resigned) or len(set(log.resigned)) != len(log.resigned):
        return f"the resigned seats {log.resigned} are not seats of this game"
    try:
        resolved = game.resolve_options(log.options)
    except IllegalAction as exc:
        return f"the options cannot be: {localize(str(exc))}"
    if resolved != log.options:
        return f"the options {log.options} are not those the game was played with ({resolved})"
    return None


def _result_fault(game: Game, state: JSON, log: Log) -> str | None:
    """How the posted result differs from what the replay and the resignations give, if it does."""
    reason = log.result.get("reason")
    seats = [SeatRecord(p, log.names[p], None, p in log.resigned) for p in range(log.players)]
    outcome = game.outcome(state)
    if reason in DECIDED:
        if outcome is None:
            return "the replayed game is not over, but the log posts a result"
        replayed = result_of(game, state, outcome, seats)
        for key in ("winners", "scores", "reason", "summary"):
            replayed_value, posted = _english(replayed[key]), _english(log.result.get(key))
            if replayed_value != posted:
                return f"the replay gives {key} {replayed_value!r}; the log posts {posted!r}"
        return None
    if outcome is not None:
        return f"the replay ends the game by the rules, but the log says {reason}"
    if reason == "resignation" or (reason == "abandoned" and log.resigned):
        if not log.resigned:
            return "the log says the game was won by resignation, but names no resigned seat"
        said = [after_resignation(game, state, seats, who) for who in log.resigned]
        if said[0] is None:
            return f"with seats {log.resigned} resigned the game goes on: nobody won it by resignation"
        summaries = {localize(r["summary"]) for r in said if r is not None}
        summaries |= {f"{log.names[who]} resigned." for who in log.resigned}
        for key in ("winners", "reason"):
            if said[0][key] != log.result.get(key):
                return f"the resignations give {key} {said[0][key]!r}; the log posts {log.result.get(key)!r}"
        if _english(log.result.get("summary")) not in summaries:
            return f"the summary {_english(log.result.get('summary'))!r} does not name a player who resigned"
        return None
    if reason == "abandoned":
        if log.result.get("winners") or log.result.get("scores"):
            return "an abandoned game has no winner and no scores, but the log posts some"
        return None
    return f"the log posts an ending this program does not know: {reason!r}"


def _english(value: Any) -> Any:
    """A posted value as compared: a text in English (a game played before its texts were marked posted
    the English itself), anything else as it is."""
    return localize(value) if isinstance(value, str) else value


def verify_log(text: str) -> Verdict:
    """Check a game log against the published engines: the seed hashes to the posted digest, the header
    (players, names, resigned seats, options) can be so, every action was legal where it was taken and is
    written as the replay describes it (its player's name included), and the posted result (winners,
    scores, reason, summary; for a resignation, who resigned) is what the replay gives. :class:`BadLog` if
    the text is not a game log at all."""
    log = read_log(text)
    spec = GAMES.get(log.kind)
    if spec is None:
        raise BadLog(f"the log is of a game this program does not know: {log.kind!r}")
    game = spec.game
    lines: list[str] = []

    def fail(why: str) -> Verdict:
        return Verdict(False, [*lines, f"FAIL: {why}."])

    if seed_digest(log.seed) != log.digest:
        return fail(f"the seed's SHA-256 is {seed_digest(log.seed)}, not the posted {log.digest}")
    lines.append(f"ok: the seed hashes to the posted SHA-256 {log.digest}.")
    fault = _header_faults(game, log)
    if fault:
        return fail(fault)
    try:
        state = game.new_game(log.players, log.options, log.seed)
    except IllegalAction as exc:
        return fail(f"the game cannot be set up: {localize(str(exc))}")
    lines.append(f"ok: {log.players} players ({', '.join(log.names)}) with options {log.options} can play this game.")
    for expected, ((seq, seat, action), written) in enumerate(zip(log.actions, log.lines, strict=True), start=1):
        if seq != expected:
            return fail(f"action {expected} is missing (the next one is numbered {seq})")
        try:
            line = log_line(game, state, seq, seat, action, log.names)
            state = apply_logged(game, state, seat, action)
        except (IllegalAction, ValueError, LookupError) as exc:
            return fail(f"action {seq} ({action!r} by seat {seat}) is not legal there: {localize(str(exc))}")
        said, described = written.split("\t", 3), line.split("\t", 3)
        if len(said) > 3 and said[3] and said != described:
            return fail(f"action {seq} is written {said[3]!r}; the replay describes it {described[3]!r}")
    lines.append(f"ok: all {len(log.actions)} actions are legal, replayed from the seed with the published engine.")
    fault = _result_fault(game, state, log)
    if fault:
        return fail(fault)
    result, reason = log.result, log.result.get("reason")
    if reason in DECIDED:
        lines.append(
            f"ok: the replay gives the posted result (winners {result['winners']}, scores {result['scores']})."
        )
    else:
        lines.append(
            f"ok: the game was not over when it ended by {reason}, and who resigned gives the posted result"
            f" (winners {result.get('winners')})."
        )
    return Verdict(True, lines)
