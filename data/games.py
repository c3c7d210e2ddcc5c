"""Games and their action log: the snapshot for fast reads, the log for replay and audit, who sits where,
and which process runs each game (its lease).

Every accepted action is committed in one transaction that checks the version it read
(``UPDATE ... WHERE id = ? AND version = ?``) and, for a member's action, that the member still holds the
seat; so a double click, a seat handed over meanwhile or a second process can never apply two actions to
the same state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from data.engine import Later, Transaction
from data.repository import Repository
from data.rows import FLAG, JSON, MAYBE_JSON, Rows, column, derived, dumps


@dataclass(slots=True)
class SeatRecord:
    """A place at a game's table: one player, a member or the bot's AI. (In games where a player commands
    several engine seats, ``Game.controller`` maps those seats to this record's ``seat`` number.)"""

    seat: int
    name: str
    user_id: int | None = None
    """``None`` for an AI seat."""
    resigned: bool = column(FLAG, default=False)
    timeouts: int = 0
    """Decisions in a row that the turn clock made for this player."""
    away: bool = column(FLAG, default=False)
    """Timed out twice in a row: the AI plays for the member until they act again."""
    acted_at: float | None = None
    """When the member last made a decision of their own in this game."""
    seated_at: float | None = None
    """When the member took this place over from another player (``None``: they have held it from the start)."""

    @property
    def is_ai(self) -> bool:
        """Whether the AI decides for this place now (an AI seat, a resigned or an away member)."""
        return self.user_id is None or self.resigned or self.away

    @property
    def member(self) -> bool:
        """A member still holds this place (perhaps away): their buttons are shown and they can act."""
        return self.user_id is not None and not self.resigned


@dataclass(slots=True)
class GameRecord:
    id: int
    kind: str
    status: str
    """``active``, ``finished`` or ``abandoned``."""
    version: int
    seed: str
    options: dict[str, Any] = column(JSON)
    state: dict[str, Any] = column(JSON)
    seats: list[SeatRecord] = derived()
    """From the ``seats`` table."""
    guild_id: int | None
    channel_id: int
    thread_id: int | None
    message_id: int | None
    host_id: int
    created_at: float
    result: dict[str, Any] | None = column(MAYBE_JSON, default=None)
    clock: int = 0
    """Seconds each decision may take before the AI makes it (0: no clock)."""
    ended_at: float | None = None
    updated_at: float | None = None
    """When the last action was committed (the start of the decisions it opened)."""
    revision: int = 0
    """Counts every write to the game or its seats (actions, places, presence, seats): a cached copy whose
    revision is not the database's is out of date."""
    runner: str | None = None
    """The process that runs the game's AI turns and clocks (its lease; see :meth:`GamesRepo.claim`)."""
    runner_until: float = 0.0
    """When that lease runs out unless its process renews it."""
    last_member: int | None = None
    """The member whose own decision was the latest (AI moves and time-outs leave it as it was)."""
    ai_level: str = "normal"
    """How the game's AI seats play (``normal``: the heuristic; ``hard``: the search). Away, resigned and
    timed-out members' seats are always played at ``normal``."""
    turn: dict[str, Any] | None = column(MAYBE_JSON, default=None)
    """The live board of the game's turn (:class:`tables.turns.Turn`), as the latest commit left it."""
    board_turn: int = 0
    """The number of the board whose message ``message_id`` is (0: none posted yet)."""

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def seat_of(self, user_id: int) -> int | None:
        for s in self.seats:
            if s.user_id == user_id:
                return s.seat
        return None

    @property
    def place_id(self) -> int:
        """The channel the game is played in: its thread, or the channel if no thread could be made."""
        return self.thread_id or self.channel_id


@dataclass(frozen=True, slots=True)
class Commit:
    """One committed step of a game: its actions (``(seat, action text)``, several for a run of AI moves)
    and the new snapshot. ``member``: the member whose own decision this is (``(user_id, player)``), who
    must still hold that place; ``presence``: a player's time-outs in a row and away flag."""

    actions: Sequence[tuple[int, str]]
    state: dict[str, Any]
    status: str = "active"
    result: dict[str, Any] | None = None
    member: tuple[int, int] | None = None
    presence: tuple[int, int, bool] | None = None
    turn: dict[str, Any] | None = None
    """The game's live board after the step (:class:`tables.turns.Turn`)."""


_GAMES = Rows(GameRecord)
_SEATS = Rows(SeatRecord)
_SEATS_OF = (
    "SELECT seat, user_id, name, resigned, timeouts, away, acted_at, seated_at FROM seats"
    " WHERE game_id = ? ORDER BY seat"
)


_STORE_STEP = (
    "UPDATE games SET state = ?, version = version + ?, revision = revision + 1, status = ?, result = ?,"
    " updated_at = ?, ended_at = ?, runner = ?, runner_until = ?, turn = COALESCE(?, turn),"
    " last_member = COALESCE(?, last_member)"
    " WHERE id = ? AND version = ? AND status = 'active'"
    " AND (? OR runner IS NULL OR runner = ? OR runner_until < ?)"
    " AND (? OR EXISTS (SELECT 1 FROM seats s WHERE s.game_id = games.id AND s.seat = ?"
    " AND s.user_id = ? AND s.resigned = 0)) RETURNING revision"
)
"""A step's snapshot, stored by :meth:`GamesRepo.commit`. The check is the write: it is stored only over
the version it was applied to, by a process that may move in the game, and (for a member's own decision)
while the member holds their place."""


def _defer_seats_and_log(tx: Transaction, game_id: int, step: Commit, version: int, now: float) -> None:
    """The writes of a step stored over ``version`` that follow its check and that nobody reads
    (:meth:`Transaction.defer`): the acting player's presence and decision time, and the action log."""
    if step.presence is not None:
        seat_no, timeouts, away = step.presence
        tx.defer(
            "UPDATE seats SET timeouts = ?, away = ? WHERE game_id = ? AND seat = ?",
            (timeouts, int(away), game_id, seat_no),
        )
    if step.member is not None:
        tx.defer("UPDATE seats SET acted_at = ? WHERE game_id = ? AND seat = ?", (now, game_id, step.member[1]))
    tx.defer(
        "INSERT INTO actions (game_id, seq, seat, action, at) VALUES (?, ?, ?, ?, ?)",
        [(game_id, version + i, seat, text, now) for i, (seat, text) in enumerate(step.actions, 1)],
        many=True,
    )


class GamesRepo(Repository):
    """The ``games``, ``seats`` and ``actions`` tables."""

    __slots__ = ()

    async def create(
        self,
        *,
        kind: str,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        seats: Sequence[SeatRecord],
        seed: str,
        options: dict[str, Any],
        state: dict[str, Any],
        now: float,
        clock: int = 0,
        ai_level: str = "normal",
        runner: str | None = None,
        lease_until: float = 0.0,
    ) -> int:
        """A new active game, its lease held by the process ``runner`` that created it."""
        async with self._writing() as tx:
            game_id = await tx.insert(
                "INSERT INTO games (kind, guild_id, channel_id, host_id, status, version, seed, options, state,"
                " created_at, updated_at, clock, ai_level, runner, runner_until)"
                " VALUES (?, ?, ?, ?, 'active', 0, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    kind,
                    guild_id,
                    channel_id,
                    host_id,
                    seed,
                    dumps(options),
                    dumps(state),
                    now,
                    now,
                    clock,
                    ai_level,
                    runner,
                    lease_until,
                ),
            )
            await tx.executemany(
                "INSERT INTO seats (game_id, seat, user_id, name, resigned) VALUES (?, ?, ?, ?, 0)",
                [(game_id, s.seat, s.user_id, s.name) for s in seats],
            )
            return game_id

    async def load(self, game_id: int) -> GameRecord | None:
        row = await self._q.fetchone("SELECT * FROM games WHERE id = ?", (game_id,))
        if row is None:
            return None
        seats = [_SEATS.read(r) for r in await self._q.fetchall(_SEATS_OF, (game_id,))]
        return _GAMES.read(row, seats=seats)

    async def revision(self, game_id: int) -> int | None:
        """The game's revision in the database (``None``: no such game): one small read that tells a process
        whether its cached copy is current."""
        row = await self._q.fetchone("SELECT revision FROM games WHERE id = ?", (game_id,))
        return None if row is None else row["revision"]

    def commit(
        self,
        game_id: int,
        *,
        expected_version: int,
        step: Commit,
        now: float,
        runner: str | None = None,
        lease_until: float = 0.0,
        take_over: bool = True,
    ) -> Later:
        """Store a step's actions and the new snapshot, with the commit of the transaction this repository is
        bound to (in its next trip to the database, on SQLite the commit's own): the game's new revision is
        ``rows[0]["revision"]`` of what it returns once the transaction has committed. If the game moved on
        since ``expected_version`` was read, or the acting member no longer holds their place, the
        transaction raises :class:`~data.engine.Conflict` and is rolled back: nothing it wrote stands.

        The committing process ``runner`` takes the game's lease until ``lease_until``: the process that
        applied an action runs what follows it (AI turns, clocks). A player's action always takes it over
        (``take_over``); the platform's own actions (AI turns, time-outs, lapses) only while the lease is
        this process's or has run out, so a process that lost a game cannot move in it any more."""
        member_user, member_seat = step.member or (None, None)
        tx = self._transaction()
        stored = tx.later(
            _STORE_STEP,
            (
                dumps(step.state),
                len(step.actions),
                step.status,
                MAYBE_JSON.write(step.result),
                now,
                None if step.status == "active" else now,
                runner,
                lease_until,
                MAYBE_JSON.write(step.turn),
                member_user,
                game_id,
                expected_version,
                take_over,
                runner,
                now,
                step.member is None,
                member_seat,
                member_user,
            ),
            required=True,
        )
        _defer_seats_and_log(tx, game_id, step, expected_version, now)
        return stored

    async def finish(self, game_id: int, *, status: str, result: dict[str, Any] | None, now: float) -> bool:
        """End an active game without an action (abandoned, or won by resignation)."""
        changed = await self._write(
            "UPDATE games SET status = ?, result = ?, version = version + 1, revision = revision + 1,"
            " updated_at = ?, ended_at = ? WHERE id = ? AND status = 'active'",
            (status, MAYBE_JSON.write(result), now, now, game_id),
        )
        return changed == 1

    async def set_place(
        self,
        game_id: int,
        *,
        thread_id: int | None = None,
        message_id: int | None = None,
        board_turn: int | None = None,
        no_thread: bool = False,
    ) -> int | None:
        """Remember the game's thread and its latest board message (the one that carries the buttons) and that
        board's number (``board_turn``), or forget its thread (``no_thread``: it was deleted, the game goes on
        in its channel); the game's new revision (``None`` when there is no such game)."""
        row = await self._write_returning(
            "UPDATE games SET thread_id = CASE WHEN ? THEN NULL ELSE COALESCE(?, thread_id) END,"
            " message_id = COALESCE(?, message_id), board_turn = COALESCE(?, board_turn),"
            " revision = revision + 1 WHERE id = ? RETURNING revision",
            (no_thread, thread_id, message_id, board_turn, game_id),
        )
        return None if row is None else row["revision"]

    async def set_turn(self, game_id: int, turn: dict[str, Any]) -> None:
        """Store the game's live board (:class:`tables.turns.Turn`) as a change without moves left it (a board
        asked for again, a seat handed over), with the transaction this repository is bound to."""
        await self._write_unread(
            "UPDATE games SET turn = ?, revision = revision + 1 WHERE id = ?", (dumps(turn), game_id)
        )

    async def lose_thread(self, thread_id: int) -> tuple[list[int], list[int]]:
        """Forget a deleted thread: the games played in it go on in their channel (and what a game that is over
        still owes, its final message, goes there). The ids of the active ones and of those that are over
        (none if another process or an earlier event did it already)."""
        async with self._writing() as tx:
            rows = await tx.fetchall(
                "UPDATE games SET thread_id = NULL, revision = revision + 1 WHERE thread_id = ? RETURNING id, status",
                (thread_id,),
            )
        active = sorted(row["id"] for row in rows if row["status"] == "active")
        return active, sorted(row["id"] for row in rows if row["status"] != "active")

    # ------------------------------------------------------------------ leases

    async def claim(self, game_id: int, runner: str, *, until: float, now: float) -> bool:
        """Take the lease of an active game for the process ``runner`` until ``until``, if nobody holds it,
        it is ``runner``'s already, or it ran out (its process died or let it go). Whether it did."""
        changed = await self._write(
            "UPDATE games SET runner = ?, runner_until = ?, revision = revision + 1 WHERE id = ?"
            " AND status = 'active' AND (runner IS NULL OR runner = ? OR runner_until < ?)",
            (runner, until, game_id, runner, now),
        )
        return changed == 1

    async def renew_leases(self, runner: str, *, until: float) -> list[int]:
        """Extend every lease ``runner`` holds until ``until``: the active games it runs."""
        async with self._writing() as tx:
            rows = await tx.fetchall(
                "UPDATE games SET runner_until = ? WHERE runner = ? AND status = 'active' RETURNING id",
                (until, runner),
            )
            return sorted(r["id"] for r in rows)

    async def release_leases(self, runner: str) -> int:
        """Let go of every lease ``runner`` holds (a process shutting down), so others take its games at
        once; how many."""
        return await self._write("UPDATE games SET runner_until = 0 WHERE runner = ? AND status = 'active'", (runner,))

    async def unleased(self, *, now: float) -> list[tuple[int, int | None, float]]:
        """Active games whose lease nobody holds or ran out: ``(id, guild_id, runner_until)``."""
        return [
            (r["id"], r["guild_id"], r["runner_until"])
            for r in await self._q.fetchall(
                "SELECT id, guild_id, runner_until FROM games WHERE status = 'active'"
                " AND (runner IS NULL OR runner_until < ?) ORDER BY id",
                (now,),
            )
        ]

    # ------------------------------------------------------------------ the log and lookups

    async def actions(self, game_id: int) -> list[tuple[int, int, str]]:
        """The action log as ``(seq, seat, action)``, in order."""
        return [
            (r["seq"], r["seat"], r["action"])
            for r in await self._q.fetchall(
                "SELECT seq, seat, action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
            )
        ]

    async def action_time(self, game_id: int, seq: int) -> float | None:
        """When the action number ``seq`` was committed (``None`` for 0 or an unknown number)."""
        row = await self._q.fetchone("SELECT at FROM actions WHERE game_id = ? AND seq = ?", (game_id, seq))
        return row["at"] if row else None

    async def ids(self, *, status: str = "active", user_id: int | None = None) -> list[int]:
        """Games by status (oldest first); with ``user_id``, those the member holds a place in."""
        if user_id is None:
            sql, args = "SELECT id FROM games WHERE status = ? ORDER BY id", (status,)
        else:
            sql = (
                "SELECT DISTINCT g.id FROM games g JOIN seats s ON s.game_id = g.id"
                " WHERE g.status = ? AND s.user_id = ? ORDER BY g.id"
            )
            args = (status, user_id)
        return [r["id"] for r in await self._q.fetchall(sql, args)]

    async def in_place(self, place_id: int) -> list[int]:
        """The active games played in this thread (or, without a thread, this channel), newest first."""
        return [
            row["id"]
            for row in await self._q.fetchall(
                "SELECT id FROM games WHERE status = 'active' AND (thread_id = ? OR (thread_id IS NULL AND"
                " channel_id = ?)) ORDER BY id DESC",
                (place_id, place_id),
            )
        ]

    async def ended(
        self, user_id: int, *, limit: int, offset: int = 0, everywhere: bool = True, guild_id: int | None = None
    ) -> list[int]:
        """The games a member played that are over (finished or abandoned), the latest to end first: in
        every server, or (``everywhere=False``) only those played in ``guild_id`` (``None``: outside servers)."""
        rows = await self._q.fetchall(
            f"SELECT g.id FROM games g WHERE {_ENDED} ORDER BY g.ended_at DESC, g.id DESC LIMIT ? OFFSET ?",
            (user_id, int(everywhere), guild_id or 0, limit, offset),
        )
        return [r["id"] for r in rows]

    async def count_ended(self, user_id: int, *, everywhere: bool = True, guild_id: int | None = None) -> int:
        """How many games :meth:`ended` can list."""
        (count,) = await self._q.fetchone(
            f"SELECT COUNT(*) FROM games g WHERE {_ENDED}", (user_id, int(everywhere), guild_id or 0)
        )
        return int(count)


_ENDED = (
    "g.status != 'active' AND EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.user_id = ?)"
    " AND (? = 1 OR COALESCE(g.guild_id, 0) = ?)"
)
"""The condition of :meth:`GamesRepo.ended` (arguments: user id, everywhere, guild id or 0)."""
