"""Persistence: a store of games (snapshot + action log), seats, lobbies and user settings, on SQLite
(the default) or PostgreSQL (the engines: :mod:`data.engine`).

Every accepted action is committed in one transaction that checks the version it read
(``UPDATE ... WHERE id = ? AND version = ?``), so a double click or a second process can never apply
two actions to the same state. The snapshot makes reads fast; the log allows replay and audit.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from data.engine import Database, Row, Transaction, open_database
from data.migrations import MIGRATIONS
from data.ratings import AI_USER, DEFAULT, GLOBAL, Rating, placings, rate


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


@dataclass(slots=True)
class SeatRecord:
    """A place at a game's table: one player, a member or the bot's AI. (In games where a player commands
    several engine seats, ``Game.controller`` maps those seats to this record's ``seat`` number.)"""

    seat: int
    name: str
    user_id: int | None = None
    """``None`` for an AI seat."""
    resigned: bool = False
    timeouts: int = 0
    """Decisions in a row that the turn clock made for this player."""
    away: bool = False
    """Timed out twice in a row: the AI plays for the member until they act again."""

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
    options: dict[str, Any]
    state: dict[str, Any]
    seats: list[SeatRecord]
    guild_id: int | None
    channel_id: int
    thread_id: int | None
    message_id: int | None
    host_id: int
    created_at: float
    result: dict[str, Any] | None = None
    clock: int = 0
    """Seconds each decision may take before the AI makes it (0: no clock)."""
    ended_at: float | None = None
    updated_at: float | None = None
    """When the last action was committed (the start of the decisions it opened)."""
    revision: int = 0
    """Counts every write to the game or its seats (actions, places, presence, seats): a cached copy whose
    revision is not the database's is out of date."""
    runner: str | None = None
    """The process that runs the game's AI turns and clocks (its lease; see :meth:`Store.claim_game`)."""
    runner_until: float = 0.0
    """When that lease runs out unless its process renews it."""

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


@dataclass(slots=True)
class LobbyRecord:
    id: int
    kind: str
    mode: str
    """``challenge`` (named invitees must accept) or ``open`` (anyone may join)."""
    status: str
    """``open``, ``started``, ``declined``, ``cancelled`` or ``expired``."""
    guild_id: int | None
    channel_id: int
    message_id: int | None
    host_id: int
    invitees: list[int]
    accepted: list[int]
    ai: int
    options: dict[str, Any]
    expires_at: float
    names: dict[str, str] = field(default_factory=dict)
    game_id: int | None = None
    version: int = 0
    """Counts the writes; :meth:`Store.update_lobby` writes only over the version it read."""
    closed_by: int | None = None
    """Who closed the lobby (the member who declined, or the host who cancelled), if anyone did."""
    clock: int = 0
    """The turn clock of the game it starts (seconds per decision, 0 = off)."""
    rematch_of: int | None = None
    """The finished game this lobby plays again."""


class Store:
    """The bot's database. Use :meth:`open`; every method is a coroutine."""

    def __init__(self, db: Database) -> None:
        self._db = db

    @property
    def shared(self) -> bool:
        """Whether other processes may write to this store too (PostgreSQL): a cached game must then be
        checked against the database's revision before it is trusted."""
        return self._db.shared

    @classmethod
    async def open(cls, target: str | os.PathLike[str]) -> Store:
        """Open the database ``TABLES_DATABASE`` names — a ``postgresql://`` URL, or an SQLite file (created
        with its folders if missing) or ``:memory:`` — and run the migrations it has not run yet."""
        db = await open_database(target)
        await db.migrate(MIGRATIONS)
        return cls(db)

    async def close(self) -> None:
        await self._db.close()

    async def schema_version(self) -> int:
        return await self._db.schema_version()

    # ------------------------------------------------------------------ games

    async def create_game(
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
        runner: str | None = None,
        lease_until: float = 0.0,
    ) -> int:
        """A new active game, its lease held by the process ``runner`` that created it."""
        async with self._db.transaction() as tx:
            game_id = await tx.insert(
                "INSERT INTO games (kind, guild_id, channel_id, host_id, status, version, seed, options, state,"
                " created_at, updated_at, clock, runner, runner_until)"
                " VALUES (?, ?, ?, ?, 'active', 0, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    kind,
                    guild_id,
                    channel_id,
                    host_id,
                    seed,
                    _dumps(options),
                    _dumps(state),
                    now,
                    now,
                    clock,
                    runner,
                    lease_until,
                ),
            )
            await tx.executemany(
                "INSERT INTO seats (game_id, seat, user_id, name, resigned) VALUES (?, ?, ?, ?, 0)",
                [(game_id, s.seat, s.user_id, s.name) for s in seats],
            )
            return game_id

    async def load_game(self, game_id: int) -> GameRecord | None:
        row = await self._db.fetchone("SELECT * FROM games WHERE id = ?", (game_id,))
        if row is None:
            return None
        seats = [
            SeatRecord(r["seat"], r["name"], r["user_id"], bool(r["resigned"]), r["timeouts"], bool(r["away"]))
            for r in await self._db.fetchall(
                "SELECT seat, user_id, name, resigned, timeouts, away FROM seats WHERE game_id = ? ORDER BY seat",
                (game_id,),
            )
        ]
        return GameRecord(
            id=row["id"],
            kind=row["kind"],
            status=row["status"],
            version=row["version"],
            seed=row["seed"],
            options=json.loads(row["options"]),
            state=json.loads(row["state"]),
            seats=seats,
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            thread_id=row["thread_id"],
            message_id=row["message_id"],
            host_id=row["host_id"],
            created_at=row["created_at"],
            updated_at=row["updated_at"],
            result=json.loads(row["result"]) if row["result"] else None,
            clock=row["clock"],
            ended_at=row["ended_at"],
            revision=row["revision"],
            runner=row["runner"],
            runner_until=row["runner_until"],
        )

    async def revision(self, game_id: int) -> int | None:
        """The game's revision in the database (``None``: no such game): one small read that tells a process
        whether its cached copy is current."""
        row = await self._db.fetchone("SELECT revision FROM games WHERE id = ?", (game_id,))
        return None if row is None else row["revision"]

    async def commit_action(
        self,
        game_id: int,
        *,
        expected_version: int,
        seat: int,
        action: str,
        state: dict[str, Any],
        now: float,
        status: str = "active",
        result: dict[str, Any] | None = None,
        presence: tuple[int, int, bool] | None = None,
        runner: str | None = None,
        lease_until: float = 0.0,
        take_over: bool = True,
    ) -> int | None:
        """Store one accepted action and the new snapshot atomically; the game's new revision. ``None`` if
        the game moved on since ``expected_version`` was read (nothing is written then).

        The committing process ``runner`` takes the game's lease until ``lease_until``: the process that
        applied an action runs what follows it (AI turns, clocks). A player's action always takes it over
        (``take_over``); the platform's own actions (AI turns, time-outs, lapses) only while the lease is
        this process's or has run out, so a process that lost a game cannot move in it any more."""
        async with self._db.transaction() as tx:
            row = await tx.fetchone(
                "UPDATE games SET state = ?, version = version + 1, revision = revision + 1, status = ?, result = ?,"
                " updated_at = ?, ended_at = ?, runner = ?, runner_until = ?"
                " WHERE id = ? AND version = ? AND status = 'active'"
                " AND (? OR runner IS NULL OR runner = ? OR runner_until < ?) RETURNING revision",
                (
                    _dumps(state),
                    status,
                    _dumps(result) if result else None,
                    now,
                    None if status == "active" else now,
                    runner,
                    lease_until,
                    game_id,
                    expected_version,
                    take_over,
                    runner,
                    now,
                ),
            )
            if row is None:
                return None  # nothing was written
            if presence is not None:
                seat_no, timeouts, away = presence
                await tx.execute(
                    "UPDATE seats SET timeouts = ?, away = ? WHERE game_id = ? AND seat = ?",
                    (timeouts, int(away), game_id, seat_no),
                )
            await tx.execute(
                "INSERT INTO actions (game_id, seq, seat, action, at) VALUES (?, ?, ?, ?, ?)",
                (game_id, expected_version + 1, seat, action, now),
            )
            if status == "finished" and result:
                await self._rate(tx, game_id, state, result, now)
            return row["revision"]

    async def finish_game(self, game_id: int, *, status: str, result: dict[str, Any] | None, now: float) -> bool:
        """End an active game without an action (abandoned, or won by resignation)."""
        async with self._db.transaction() as tx:
            changed = await tx.execute(
                "UPDATE games SET status = ?, result = ?, version = version + 1, revision = revision + 1,"
                " updated_at = ?, ended_at = ? WHERE id = ? AND status = 'active'",
                (status, _dumps(result) if result else None, now, now, game_id),
            )
            if changed == 1 and status == "finished" and result:
                row = await tx.fetchone("SELECT state FROM games WHERE id = ?", (game_id,))
                await self._rate(tx, game_id, json.loads(row["state"]), result, now)
            return changed == 1

    async def _seat_write(self, game_id: int, sql: str, args: Sequence[Any]) -> int:
        """Change a seat (rows changed), counting it as a write to its game (its revision)."""
        async with self._db.transaction() as tx:
            changed = await tx.execute(sql, args)
            if changed:
                await tx.execute("UPDATE games SET revision = revision + 1 WHERE id = ?", (game_id,))
            return changed

    async def resign_seat(self, game_id: int, seat: int) -> None:
        await self._seat_write(game_id, "UPDATE seats SET resigned = 1 WHERE game_id = ? AND seat = ?", (game_id, seat))

    async def set_presence(self, game_id: int, seat: int, *, timeouts: int, away: bool) -> None:
        """Record a player's time-outs in a row and whether they are away."""
        await self._seat_write(
            game_id,
            "UPDATE seats SET timeouts = ?, away = ? WHERE game_id = ? AND seat = ?",
            (timeouts, int(away), game_id, seat),
        )

    async def substitute(self, game_id: int, seat: int, *, user_id: int, name: str) -> bool:
        """Hand a place to another member (who plays it from now on, not resigned, not away). False if
        that member already holds a place in the game."""
        changed = await self._seat_write(
            game_id,
            "UPDATE seats SET user_id = ?, name = ?, resigned = 0, timeouts = 0, away = 0"
            " WHERE game_id = ? AND seat = ? AND (user_id IS NULL OR user_id != ?)",
            (user_id, name, game_id, seat, user_id),
        )
        return changed == 1

    async def action_time(self, game_id: int, seq: int) -> float | None:
        """When the action number ``seq`` was committed (``None`` for 0 or an unknown number)."""
        row = await self._db.fetchone("SELECT at FROM actions WHERE game_id = ? AND seq = ?", (game_id, seq))
        return row["at"] if row else None

    async def set_place(
        self, game_id: int, *, thread_id: int | None = None, message_id: int | None = None
    ) -> int | None:
        """Remember the game's thread and its latest board message (the one that carries the buttons); the
        game's new revision (``None`` when nothing was given, or there is no such game)."""
        if thread_id is None and message_id is None:
            return None
        async with self._db.transaction() as tx:
            row = await tx.fetchone(
                "UPDATE games SET thread_id = COALESCE(?, thread_id), message_id = COALESCE(?, message_id),"
                " revision = revision + 1 WHERE id = ? RETURNING revision",
                (thread_id, message_id, game_id),
            )
            return None if row is None else row["revision"]

    # ------------------------------------------------------------------ leases

    async def claim_game(self, game_id: int, runner: str, *, until: float, now: float) -> bool:
        """Take the lease of an active game for the process ``runner`` until ``until``, if nobody holds it,
        it is ``runner``'s already, or it ran out (its process died or let it go). Whether it did."""
        async with self._db.transaction() as tx:
            changed = await tx.execute(
                "UPDATE games SET runner = ?, runner_until = ?, revision = revision + 1 WHERE id = ?"
                " AND status = 'active' AND (runner IS NULL OR runner = ? OR runner_until < ?)",
                (runner, until, game_id, runner, now),
            )
            return changed == 1

    async def renew_leases(self, runner: str, *, until: float) -> list[int]:
        """Extend every lease ``runner`` holds until ``until``: the active games it runs."""
        async with self._db.transaction() as tx:
            rows = await tx.fetchall(
                "UPDATE games SET runner_until = ? WHERE runner = ? AND status = 'active' RETURNING id",
                (until, runner),
            )
            return sorted(r["id"] for r in rows)

    async def release_leases(self, runner: str) -> int:
        """Let go of every lease ``runner`` holds (a process shutting down), so others take its games at
        once; how many."""
        return await self._db.execute(
            "UPDATE games SET runner_until = 0 WHERE runner = ? AND status = 'active'", (runner,)
        )

    async def unleased_games(self, *, now: float) -> list[tuple[int, int | None, float]]:
        """Active games whose lease nobody holds or ran out: ``(id, guild_id, runner_until)``."""
        return [
            (r["id"], r["guild_id"], r["runner_until"])
            for r in await self._db.fetchall(
                "SELECT id, guild_id, runner_until FROM games WHERE status = 'active'"
                " AND (runner IS NULL OR runner_until < ?) ORDER BY id",
                (now,),
            )
        ]

    async def actions(self, game_id: int) -> list[tuple[int, int, str]]:
        """The action log as ``(seq, seat, action)``, in order."""
        return [
            (r["seq"], r["seat"], r["action"])
            for r in await self._db.fetchall(
                "SELECT seq, seat, action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
            )
        ]

    async def game_ids(self, *, status: str = "active", user_id: int | None = None) -> list[int]:
        if user_id is None:
            sql, args = "SELECT id FROM games WHERE status = ? ORDER BY id", (status,)
        else:
            sql = (
                "SELECT DISTINCT g.id FROM games g JOIN seats s ON s.game_id = g.id"
                " WHERE g.status = ? AND s.user_id = ? ORDER BY g.id"
            )
            args = (status, user_id)
        return [r["id"] for r in await self._db.fetchall(sql, args)]

    async def games_in_place(self, place_id: int) -> list[int]:
        """The active games played in this thread (or, without a thread, this channel), newest first."""
        return [
            row["id"]
            for row in await self._db.fetchall(
                "SELECT id FROM games WHERE status = 'active' AND (thread_id = ? OR (thread_id IS NULL AND"
                " channel_id = ?)) ORDER BY id DESC",
                (place_id, place_id),
            )
        ]

    # ------------------------------------------------------------------ lobbies

    async def create_lobby(
        self,
        *,
        kind: str,
        mode: str,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        invitees: Iterable[int],
        accepted: Iterable[int],
        ai: int,
        options: dict[str, Any],
        names: dict[str, str],
        expires_at: float,
        clock: int = 0,
        rematch_of: int | None = None,
    ) -> int:
        async with self._db.transaction() as tx:
            return await tx.insert(
                "INSERT INTO lobbies (kind, mode, status, guild_id, channel_id, host_id, invitees, accepted, ai,"
                " options, names, expires_at, clock, rematch_of)"
                " VALUES (?, ?, 'open', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    kind,
                    mode,
                    guild_id,
                    channel_id,
                    host_id,
                    _dumps(list(invitees)),
                    _dumps(list(accepted)),
                    ai,
                    _dumps(options),
                    _dumps(names),
                    expires_at,
                    clock,
                    rematch_of,
                ),
            )

    async def load_lobby(self, lobby_id: int) -> LobbyRecord | None:
        row = await self._db.fetchone("SELECT * FROM lobbies WHERE id = ?", (lobby_id,))
        if row is None:
            return None
        return LobbyRecord(
            id=row["id"],
            kind=row["kind"],
            mode=row["mode"],
            status=row["status"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            message_id=row["message_id"],
            host_id=row["host_id"],
            invitees=json.loads(row["invitees"]),
            accepted=json.loads(row["accepted"]),
            ai=row["ai"],
            options=json.loads(row["options"]),
            expires_at=row["expires_at"],
            names=json.loads(row["names"]),
            game_id=row["game_id"],
            version=row["version"],
            closed_by=row["closed_by"],
            clock=row["clock"],
            rematch_of=row["rematch_of"],
        )

    async def update_lobby(self, lobby: LobbyRecord) -> bool:
        """Write back a changed lobby if nobody wrote it since it was read (its version is unchanged), and
        advance ``lobby.version``. False if it changed meanwhile (nothing is written then): read it again,
        check the change still holds and retry. The message id is not written here (see
        :meth:`set_lobby_message`)."""
        changed = await self._db.execute(
            "UPDATE lobbies SET status = ?, invitees = ?, accepted = ?, names = ?, game_id = ?, closed_by = ?,"
            " version = version + 1 WHERE id = ? AND version = ?",
            (
                lobby.status,
                _dumps(lobby.invitees),
                _dumps(lobby.accepted),
                _dumps(lobby.names),
                lobby.game_id,
                lobby.closed_by,
                lobby.id,
                lobby.version,
            ),
        )
        if changed != 1:
            return False
        lobby.version += 1
        return True

    async def set_lobby_message(self, lobby_id: int, message_id: int) -> None:
        """Remember the message that shows a lobby. Only this writes the message id, so a change read
        before the message was posted cannot erase it."""
        await self._db.execute("UPDATE lobbies SET message_id = ? WHERE id = ?", (message_id, lobby_id))

    async def rematch_lobby(self, game_id: int) -> LobbyRecord | None:
        """The newest lobby that plays ``game_id`` again (open or not)."""
        row = await self._db.fetchone(
            "SELECT id FROM lobbies WHERE rematch_of = ? ORDER BY id DESC LIMIT 1", (game_id,)
        )
        return await self.load_lobby(row["id"]) if row else None

    async def open_lobbies(self, *, host_id: int | None = None) -> list[LobbyRecord]:
        sql, args = "SELECT id FROM lobbies WHERE status = 'open'", ()
        if host_id is not None:
            sql, args = sql + " AND host_id = ?", (host_id,)
        ids = [r["id"] for r in await self._db.fetchall(sql + " ORDER BY id", args)]
        return [lobby for i in ids if (lobby := await self.load_lobby(i)) is not None]

    # ------------------------------------------------------------------ private deliveries

    async def delivery(self, game_id: int, seat: int, kind: str) -> str | None:
        """What was last delivered privately to a seat (``kind``: ``hand`` digest, ``dm_closed``, ``turn``
        reminder: ``"1"`` while the seat has been reminded of its current turn)."""
        row = await self._db.fetchone(
            "SELECT value FROM deliveries WHERE game_id = ? AND seat = ? AND kind = ?", (game_id, seat, kind)
        )
        return row["value"] if row else None

    async def forget_deliveries(self, game_id: int, seat: int) -> None:
        """Forget what was delivered to a place at the table (it has a new player)."""
        await self._db.execute("DELETE FROM deliveries WHERE game_id = ? AND seat = ?", (game_id, seat))

    async def set_delivery(self, game_id: int, seat: int, kind: str, value: str) -> None:
        await self._db.execute(
            "INSERT INTO deliveries (game_id, seat, kind, value) VALUES (?, ?, ?, ?)"
            " ON CONFLICT(game_id, seat, kind) DO UPDATE SET value = excluded.value",
            (game_id, seat, kind, value),
        )

    # ------------------------------------------------------------------ users

    async def set_notify(self, user_id: int, on: bool) -> None:
        await self._db.execute(
            "INSERT INTO users (user_id, notify) VALUES (?, ?)"
            " ON CONFLICT(user_id) DO UPDATE SET notify = excluded.notify",
            (user_id, int(on)),
        )

    async def notify_enabled(self, user_id: int) -> bool:
        row = await self._db.fetchone("SELECT notify FROM users WHERE user_id = ?", (user_id,))
        return bool(row and row["notify"])

    # ------------------------------------------------------------------ followers

    async def follow(self, game_id: int, user_id: int, on: bool) -> bool:
        """Start or stop following a game; False if nothing changed."""
        if on:
            sql = "INSERT INTO followers (game_id, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING"
        else:
            sql = "DELETE FROM followers WHERE game_id = ? AND user_id = ?"
        return await self._db.execute(sql, (game_id, user_id)) == 1

    async def followers(self, game_id: int) -> list[int]:
        return [
            r["user_id"]
            for r in await self._db.fetchall(
                "SELECT user_id FROM followers WHERE game_id = ? ORDER BY user_id", (game_id,)
            )
        ]

    async def unarchived(self) -> list[int]:
        """Finished or abandoned games played in a thread that has not been archived yet."""
        return [
            r["id"]
            for r in await self._db.fetchall(
                "SELECT g.id FROM games g WHERE g.status != 'active' AND g.thread_id IS NOT NULL AND NOT EXISTS"
                " (SELECT 1 FROM deliveries d WHERE d.game_id = g.id AND d.seat = -1 AND d.kind = 'archived')"
                " ORDER BY g.id"
            )
        ]

    # ------------------------------------------------------------------ ratings and records

    async def _rate(
        self, tx: Transaction, game_id: int, state: dict[str, Any], result: dict[str, Any], now: float
    ) -> None:
        """Rate a game that just finished, inside the caller's transaction (so a crash rates it either
        with its result or not at all: an error rolls the result back with it), per server and globally;
        see :mod:`data.ratings`."""
        from games.registry import GAMES  # the engines, only when a game ends

        game = await tx.fetchone("SELECT kind, guild_id FROM games WHERE id = ?", (game_id,))
        spec = GAMES.get(game["kind"])
        if spec is None or state.get("game") != spec.kind:
            return  # not a state this engine made (an unregistered game): nothing to place
        seats = [
            SeatRecord(r["seat"], r["name"], r["user_id"], bool(r["resigned"]))
            for r in await tx.fetchall(
                "SELECT seat, user_id, name, resigned FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
            )
        ]
        placed = placings(spec.game, state, result, seats)
        if placed is None:
            return
        won = {u for p in placed if p.won for u in p.players}
        users = sorted({u for p in placed for u in p.players})
        scopes = sorted({game["guild_id"] or GLOBAL, GLOBAL})
        # Read-then-write: first take every rating row this game changes (made at the default rating if
        # new), in one order for every game (scope, then user). On PostgreSQL that locks the rows, so two
        # games that end at once with a player in common are rated one after the other, never both from
        # the same old rating; and the one order means two such games cannot deadlock.
        await tx.executemany(
            "INSERT INTO ratings (scope, kind, user_id, mu, sigma, games, wins) VALUES (?, ?, ?, ?, ?, 0, 0)"
            " ON CONFLICT (scope, kind, user_id) DO UPDATE SET games = ratings.games",
            [(scope, game["kind"], user, DEFAULT.mu, DEFAULT.sigma) for scope in scopes for user in users],
        )
        for scope in scopes:
            current = {}
            for user in users:
                row = await tx.fetchone(
                    "SELECT mu, sigma FROM ratings WHERE scope = ? AND kind = ? AND user_id = ?",
                    (scope, game["kind"], user),
                )
                current[user] = Rating(row["mu"], row["sigma"])
            for user, new in rate(placed, current).items():
                await tx.execute(
                    "UPDATE ratings SET mu = ?, sigma = ?, games = games + 1, wins = wins + ?"
                    " WHERE scope = ? AND kind = ? AND user_id = ?",
                    (new.mu, new.sigma, int(user in won), scope, game["kind"], user),
                )
                old = current[user]
                await tx.execute(
                    "INSERT INTO rating_changes (game_id, scope, user_id, kind, won, mu_before, sigma_before, mu,"
                    " sigma, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (game_id, scope, user, game["kind"], int(user in won), old.mu, old.sigma, new.mu, new.sigma, now),
                )

    async def leaderboard(self, kind: str, scope: int, *, limit: int = 10) -> list[Standing]:
        """The best-rated players of a game in a scope (a server's id, or ``GLOBAL``), best first by the
        conservative rating μ − 3σ."""
        return [
            _standing(row)
            for row in await self._db.fetchall(
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
            for row in await self._db.fetchall(
                "SELECT r.*, NULL AS name FROM ratings r WHERE r.scope = ? AND r.user_id = ?", (scope, user_id)
            )
        }

    async def rating_trend(self, user_id: int, scope: int, kind: str, *, limit: int = 10) -> list[float]:
        """A player's shown rating (μ − 3σ) before their last ``limit`` rated games and after each, oldest
        first (empty if never rated)."""
        rows = await self._db.fetchall(
            "SELECT mu_before, sigma_before, mu, sigma FROM rating_changes WHERE user_id = ? AND scope = ? AND"
            " kind = ? ORDER BY at DESC, game_id DESC LIMIT ?",
            (user_id, scope, kind, limit),
        )
        rows.reverse()
        if not rows:
            return []
        first = Rating(rows[0]["mu_before"], rows[0]["sigma_before"]).shown
        return [first, *(Rating(r["mu"], r["sigma"]).shown for r in rows)]

    async def rating_changes(self, game_id: int) -> list[tuple[int, int, Rating, Rating]]:
        """What a game did to ratings: ``(scope, user_id, before, after)`` per rated player and scope."""
        return [
            (r["scope"], r["user_id"], Rating(r["mu_before"], r["sigma_before"]), Rating(r["mu"], r["sigma"]))
            for r in await self._db.fetchall(
                "SELECT * FROM rating_changes WHERE game_id = ? ORDER BY scope, user_id", (game_id,)
            )
        ]

    async def ended_games(
        self, user_id: int, *, limit: int, offset: int = 0, everywhere: bool = True, guild_id: int | None = None
    ) -> list[int]:
        """The games a member played that are over (finished or abandoned), the latest to end first: in
        every server, or (``everywhere=False``) only those played in ``guild_id`` (``None``: outside servers)."""
        rows = await self._db.fetchall(
            f"SELECT g.id FROM games g WHERE {_ENDED_GAMES} ORDER BY g.ended_at DESC, g.id DESC LIMIT ? OFFSET ?",
            (user_id, int(everywhere), guild_id or 0, limit, offset),
        )
        return [r["id"] for r in rows]

    async def count_ended_games(self, user_id: int, *, everywhere: bool = True, guild_id: int | None = None) -> int:
        """How many games :meth:`ended_games` can list."""
        (count,) = await self._db.fetchone(
            f"SELECT COUNT(*) FROM games g WHERE {_ENDED_GAMES}", (user_id, int(everywhere), guild_id or 0)
        )
        return int(count)


_ENDED_GAMES = (
    "g.status != 'active' AND EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.user_id = ?)"
    " AND (? = 1 OR COALESCE(g.guild_id, 0) = ?)"
)
"""The condition of :meth:`Store.ended_games` (arguments: user id, everywhere, guild id or 0)."""


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's rating in one game and scope, with how many rated games they played and won."""

    user_id: int
    """``AI_USER`` for the game's AI."""
    name: str | None
    """Their latest display name at a table (``None`` when not asked for)."""
    rating: Rating
    games: int
    wins: int


def _standing(row: Row) -> Standing:
    name = "🤖 AI" if row["user_id"] == AI_USER else row["name"]
    return Standing(row["user_id"], name, Rating(row["mu"], row["sigma"]), row["games"], row["wins"])
