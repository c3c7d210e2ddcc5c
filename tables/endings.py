"""What happens once a game is over, however it ended (its last move, a time-out, a resignation, an
abandon): the end-of-game listeners, called inside the transaction of the commit that ends it, each adding
what it writes and what it owes. An after-the-game feature (a tournament's next round) is one more listener.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from data.outbox import Owed
from data.store import GameRecord, Unit
from games.registry import GameSpec
from tables import notices, outbox
from tables.results import placings


@dataclass(frozen=True, slots=True)
class Ended:
    """A game that has just ended, as its commit stored it."""

    spec: GameSpec
    record: GameRecord
    now: float
    closed: bool = False
    """Closed by a member (abandoned by its host or a moderator): its thread is archived at once."""
    told: Sequence[str] = ()
    """Lines no board has shown (the AI's moves, a time-out, after the last board): the final message's first."""
    strip: bool = False
    """The last board still has buttons: they go as the final message is posted."""


Listener = Callable[[Unit, Ended], Awaitable[Sequence[Owed]]]
"""Called in the ending commit's transaction ``db``; returns the messages it owes (written with the commit)."""


async def rate(db: Unit, ended: Ended) -> Sequence[Owed]:
    """A finished game's ratings (an abandoned one rates nobody)."""
    record = ended.record
    placed = placings(ended.spec.game, record.state, record.result or {}, record.seats)
    if record.status == "finished" and placed is not None:
        await db.ratings.rate(record.id, record.kind, record.guild_id, placed, now=ended.now)
    return ()


async def final_messages(db: Unit, ended: Ended) -> Sequence[Owed]:
    """The final message in the game's place and the result line where it began (:func:`notices.ending`)."""
    return notices.ending(ended.spec, ended.record, ended.told, strip=ended.strip)


def archiving(after: float) -> Listener:
    """The game's thread archived and locked ``after`` seconds after it ended (at once when it was closed)."""

    async def archive(db: Unit, ended: Ended) -> Sequence[Owed]:
        wait = 0.0 if ended.closed else after
        return [outbox.archive(ended.record.id, at=(ended.record.ended_at or ended.now) + wait)]

    return archive


def listeners(archive_after: float) -> list[Listener]:
    """The platform's own: ratings, the final messages, archiving."""
    return [rate, final_messages, archiving(archive_after)]
