"""When each decision of a game is due: pure functions of the stored game and its log (the clocks act on them;
the board shows them)."""

from __future__ import annotations

from dataclasses import dataclass

from data.store import GameRecord, Unit
from games.registry import GAMES


@dataclass(frozen=True, slots=True, order=True)
class Due:
    """The next thing a clock does: at ``when``, remind (``half``), time out (``timeout``) or let lapse
    (``lapse``) the decision of ``seat`` that began at step ``since``."""

    when: float
    kind: str
    seat: int
    since: int


async def began(db: Unit, record: GameRecord, seat: int) -> float:
    """When ``seat``'s current decision began for its player: the time of the action that opened it (the last
    one, in a game played in turn: known without asking the store), or when its member took the place over,
    if later (a newcomer's time starts when they sit down)."""
    step = GAMES[record.kind].game.since(record.state, seat)
    seated = record.seats[GAMES[record.kind].game.controller(record.state, seat)].seated_at or 0.0
    if step == 0:
        at: float | None = record.created_at
    elif step == record.version and record.updated_at is not None:
        at = record.updated_at
    else:
        at = await db.games.action_time(record.id, step)
    return max(at if at is not None else record.created_at, seated)


async def deadlines(db: Unit, record: GameRecord) -> dict[int, float]:
    """When each member's pending decision is due, by engine seat (empty without a clock)."""
    if record.status != "active" or not record.clock:
        return {}
    game, state = GAMES[record.kind].game, record.state
    out = {}
    for seat in game.to_act(state):
        if not record.seats[game.controller(state, seat)].is_ai:
            out[seat] = await began(db, record, seat) + record.clock
    return out


async def next_due(db: Unit, record: GameRecord, now: float) -> Due | None:
    """The next reminder, time-out or lapse of an active game, if any."""
    if record.status != "active":
        return None
    game = GAMES[record.kind].game
    due = []
    for seat, deadline in (await deadlines(db, record)).items():
        since = game.since(record.state, seat)
        due.append(Due(deadline, "timeout", seat, since))
        half = deadline - record.clock / 2
        # Before half time no reminder can have gone out: only later does the store need asking.
        if half > now or await db.outbox.marker(record.id, seat, "half") != str(since):
            due.append(Due(half, "half", seat, since))
    lapse = game.lapse(record.state)
    if lapse is not None:
        since = game.since(record.state, lapse.seat)
        due.append(Due(await began(db, record, lapse.seat) + lapse.after, "lapse", lapse.seat, since))
    return min(due, default=None)
