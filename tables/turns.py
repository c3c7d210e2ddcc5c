"""A calm thread: one live board per turn.

A *turn* is a stretch of the game during which the same members decide. Its board is one message: posted
when the decision passes to other members (who are notified then, once), and while the same members keep
deciding, updated in place with each decision's lines, image and buttons (a click's answer is that update:
no new message, nothing against Discord's global limit). When the turn ends the board keeps its lines, loses
its buttons, and says who is next: scrolling up reads as the game's history, a turn a message. The AI's
moves between two members' turns are lines of the next board; a stretch where no member decides (only the
AI's seats, or members away) posts at most one board per round and per :data:`AI_BOARD_EVERY` seconds.

:class:`Turn` is the live board's state, stored with the game (its ``turn`` column, written by the commit
that changes it); :func:`plan` decides, for one committed change, what the thread gets.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from functools import lru_cache
from typing import Any

from tables.words import longest

AI_BOARD_EVERY = 10.0
"""Seconds at least between two boards while no member decides."""
BOARD_LIMIT = 1800
"""The longest a board's lines may grow (in any language) before its turn goes on in a new message:
Discord's 2,000 characters, less room for the line of whose decision it is."""


@dataclass(frozen=True, slots=True)
class Turn:
    """The live board of a game, as stored with it."""

    n: int = 0
    """The number of the latest board (its message is the game's ``message_id`` once posted); 0: none yet."""
    deciders: tuple[int, ...] = ()
    """The members the live board's buttons are for (none: the AI decides, or members away)."""
    open: bool = False
    """The latest board still has buttons (a board closed by its turn's last decision has none)."""
    lines: tuple[str, ...] = ()
    """The event lines on the latest board."""
    carried: tuple[str, ...] = ()
    """Lines for the next board (the AI's moves while no member decides)."""
    followed: tuple[str, ...] = ()
    """Lines the game's followers have not been sent yet."""
    posted_at: float = 0.0
    """When the latest board was posted, or its turn closed."""
    round: int = 0
    """The game's round then."""

    @classmethod
    def of(cls, stored: dict[str, Any] | None) -> Turn:
        if not stored:
            return cls()
        return cls(**{k: tuple(v) if isinstance(v, list) else v for k, v in stored.items()})

    def stored(self) -> dict[str, Any]:
        return {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(self).items()}


@dataclass(frozen=True, slots=True)
class Plan:
    """What one change shows in the thread."""

    turn: Turn
    """The live board after it."""
    edit: tuple[str, ...] | None = None
    """The live board's lines after an update in place (``None``: no update)."""
    edit_live: bool = False
    """The update keeps the board live (the new position, its buttons); else it closes the turn (its lines,
    its image as it was, no buttons)."""
    post: tuple[str, ...] | None = None
    """The lines of a new board (``None``: no new board)."""
    strip: bool = False
    """The board before the new one (or before the final message) still has buttons: they go then."""
    followers: tuple[str, ...] = ()
    """Lines sent to the game's followers now (with a new board, or as the game ends)."""
    final: tuple[str, ...] = ()
    """Lines the final message begins with (the game ended after the last board: the AI's moves, a time-out)."""
    lines: tuple[str, ...] = ()
    """The change's own lines (posted on their own should its update find its board overtaken)."""


@dataclass(frozen=True, slots=True)
class Step:
    """One committed change, as :func:`plan` needs it."""

    lines: Sequence[str]
    """Its public event lines."""
    actor: int | None
    """The member whose own decision it was (``None``: the platform's: the AI, a time-out, a lapse)."""
    deciders: tuple[int, ...]
    """The members who decide after it."""
    over: bool
    now: float
    round: int
    repost: bool = False
    """A new board asked for (the game's first, ``/GAME board``, a seat handed over, the game moved out of
    its thread)."""


def fits(lines: Sequence[str]) -> bool:
    return sum(_room(line) for line in lines) <= BOARD_LIMIT


@lru_cache(maxsize=4096)
def _room(line: str) -> int:
    """What a line takes of a board's message in the language that writes it longest, its newline included
    (remembered: a turn's lines are measured again at each of its decisions)."""
    return longest(line) + 1


def plan(turn: Turn, step: Step) -> Plan:
    """What ``step`` shows in the thread, the live board being ``turn`` before it."""
    return replace(_plan(turn, step), lines=tuple(step.lines))


def _plan(turn: Turn, step: Step) -> Plan:
    lines = tuple(step.lines)
    followed = turn.followed + lines
    own = step.actor is not None and step.actor in turn.deciders
    grown = turn.lines + lines
    fit = fits(grown)
    if step.repost:
        return _posted(turn, step, turn.carried + lines, followed)
    if step.over:
        if own and turn.open and fit:
            return Plan(Turn(n=turn.n), edit=grown, final=turn.carried, followers=followed)
        return Plan(Turn(n=turn.n, open=turn.open), strip=turn.open, final=turn.carried + lines, followers=followed)
    same = bool(step.deciders) and set(step.deciders) <= set(turn.deciders) and turn.open and not turn.carried
    if same and (own or step.deciders == turn.deciders) and fit:
        live = replace(turn, deciders=step.deciders, lines=grown, followed=followed)
        return Plan(live, edit=grown, edit_live=True)
    if own and turn.open:  # the turn ends with this decision: its board keeps its lines and loses its buttons
        kept, rest = (grown, ()) if fit else (turn.lines, lines)
        closed = Turn(n=turn.n, carried=rest, followed=followed, posted_at=step.now, round=step.round)
        if not step.deciders:
            return Plan(closed, edit=kept)
        nxt = _posted(closed, step, rest, followed)
        return replace(nxt, edit=kept)
    carried = turn.carried + lines
    if step.deciders or (carried and step.now - turn.posted_at >= AI_BOARD_EVERY and step.round != turn.round):
        return _posted(turn, step, carried, followed)
    return Plan(replace(turn, carried=carried, followed=followed))


def _posted(turn: Turn, step: Step, lines: tuple[str, ...], followed: tuple[str, ...]) -> Plan:
    """A new board with ``lines``: the game's followers get what they have not seen."""
    nxt = Turn(n=turn.n + 1, deciders=step.deciders, open=True, lines=lines, posted_at=step.now, round=step.round)
    return Plan(nxt, post=lines, strip=turn.open, followers=followed)
