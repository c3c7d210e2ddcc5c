"""Attention is precious: whom a board notifies.

A member is notified (pinged) when a decision passes to them from another member — the latest decision a
member made was someone else's — or when they have not made a decision of their own in this game for
:data:`IDLE` seconds. Moves of the AI in between count for neither: a member playing against the AI is not
pinged each time it hands the turn back seconds later. A member who was deciding already is not notified
again, nor is anyone by a board posted again on request, and an AI seat or an away member never.
"""

from __future__ import annotations

from data.store import GameRecord
from games.registry import GameSpec
from tables.seating import deciders

IDLE = 120.0
"""Seconds without a decision of their own after which a member is notified of their turn in any case."""


def notified(spec: GameSpec, before: GameRecord, after: GameRecord, *, now: float) -> list[int]:
    """The members the board after a step from ``before`` to ``after`` notifies."""
    was = set(deciders(spec, before))
    out = []
    for player in deciders(spec, after):
        seat = after.seats[player]
        if player in was or seat.is_ai or seat.user_id is None:
            continue
        handed_over = after.last_member is not None and after.last_member != seat.user_id
        idle = now - (seat.acted_at if seat.acted_at is not None else after.created_at) >= IDLE
        if handed_over or idle:
            out.append(seat.user_id)
    return out
