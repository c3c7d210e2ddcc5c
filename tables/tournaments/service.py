"""Tournaments: sign-ups, the start (at its time, or early by its organizer), each round drawn and started as
real games, and the next round drawn when the last game of one ends.

A tournament is not a way of playing: its tables are games like any other, created by the same
:class:`~tables.starting.Starter` the lobbies use (each in its own thread, with the tournament's clock and
options, seats named as drawn, the opening mentioning its players once). What it adds is

* an **end-of-game listener** (:meth:`Tournaments.ended`), called inside the commit that ends each of its
  games: it records the table's points, marks a member who was away the whole game as gone, and when that
  was the round's last table draws and starts the next round (or ends the tournament) in the same
  transaction. It first takes the tournament's row (:meth:`data.tournaments.TournamentsRepo.take`), so the
  last two games of a round ending at once in two processes are settled by the database: the second
  waits, then sees the first's result, and only the one that ends the round draws it (a round's primary
  key would refuse a second draw anyway);
* a **scheduler**: a timer per open tournament, armed again after a restart (:meth:`Tournaments.resume`);
  every process may fire it, and the conditional start lets one through.

Every change of a tournament (join, leave, start, cancel) takes its row first too, so a storm of clicks is
applied one click at a time, each edit of the sign-up message showing what its click saw.
"""

from __future__ import annotations

import logging
import re
import secrets
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from typing import Any

from data.outbox import Owed
from data.ratings import AI_USER
from data.store import Store, TournamentRecord, Unit
from data.tournaments import EntrantRecord, TableRecord
from games.core import IllegalAction
from games.i18n import N, T
from games.registry import GAMES
from tables import outbox
from tables.authority import Caller, GameError, may_organize, reach_tournament
from tables.endings import Ended
from tables.lobbies import Answer
from tables.outbox import Message
from tables.results import placings
from tables.starting import Starter, Table
from tables.timers import KeyedTimers
from tables.tournaments import pairing
from tables.tournaments import words as said

log = logging.getLogger("tables.tournaments")

FORMATS = ("swiss", "round-robin")
EVENT_HOURS = 3
"""How long the Discord scheduled event of a tournament's start says it lasts (external events need an end)."""
MAX_ROUNDS = 20
MAX_DELAY = 30 * 86400
"""The latest a tournament may start: 30 days ahead."""


def tournament_lane(tournament_id: int) -> str:
    return f"tournament:{tournament_id}"


def start_time(text: str, now: float) -> float:
    """When ``starts`` means: minutes from now (``30``), a time of day in UTC (``20:30``: the next one), or a
    Discord timestamp (``<t:1767225600:F>``) or its number. :class:`GameError` for anything else."""
    text = text.strip()
    if text.isdigit() and len(text) <= 5:
        return now + 60 * int(text)
    if match := re.fullmatch(r"<t:(\d{9,11})(?::[tTdDfFR])?>|(\d{9,11})", text):
        return float(match[1] or match[2])
    if match := re.fullmatch(r"([01]?\d|2[0-3])[:h.]([0-5]\d)", text):
        today = datetime.fromtimestamp(now, UTC).replace(hour=int(match[1]), minute=int(match[2]), second=0)
        at = today if today.timestamp() > now else today + timedelta(days=1)
        return at.timestamp()
    raise GameError(
        T(
            "`starts` is minutes from now (`30`), a time of day in UTC (`20:30`) or a Discord timestamp; not {text}.",
            text=repr(text[:30]),
        )
    )


def minimum(table: int) -> int:
    """The fewest players a tournament starts with: a full table, and at least three (two are just a game)."""
    return max(table, 3)


def check_table(kind: str, fmt: str, table: int, options: dict[str, Any]) -> dict[str, Any]:
    """The game's resolved options, if a tournament of ``fmt`` may seat ``table`` players a table of it."""
    if fmt not in FORMATS:
        raise GameError(T("A tournament is Swiss or round robin."))
    game = GAMES[kind].game
    try:
        resolved = game.resolve_options(options)
        game.check_players(table, resolved)
    except IllegalAction as exc:
        why = str(exc)
        raise GameError(T("{game} cannot seat tables of {size}: {why}", game=game.title, size=table, why=why)) from exc
    if fmt == "round-robin" and table != 2:
        raise GameError(T("A round robin is played at tables of 2."))
    return resolved


class Tournaments:
    """Tournaments of every server (one per service)."""

    def __init__(self, store: Store, now: Callable[[], float], starter: Starter, wake: Callable[[], None]) -> None:
        self.store = store
        self.now = now
        self.starter = starter
        self.wake = wake
        """Tell the delivery loop that something is owed."""
        self._timers = KeyedTimers(now, self._start_now, "tournament")

    # ------------------------------------------------------------------ creating

    async def create(
        self,
        caller: Caller,
        kind: str,
        fmt: str,
        *,
        rounds: int | None,
        table: int | None,
        starts: str,
        clock: int,
        options: dict[str, Any],
    ) -> Answer:
        """``/tournament new``: store it, post its sign-up message (the caller's answer) and create the Discord
        scheduled event of its start."""
        if kind not in GAMES:
            raise GameError(T("There is no game called {name}.", name=repr(kind[:30])))
        may_organize(caller, await self._open_to_all(caller))
        size = table or GAMES[kind].table
        resolved = check_table(kind, fmt, size, options)
        if rounds is not None and (fmt != "swiss" or not 1 <= rounds <= MAX_ROUNDS):
            raise GameError(
                T("`rounds` is for Swiss tournaments, from 1 to {most}.", most=MAX_ROUNDS)
                if fmt == "swiss"
                else T("A round robin plays as many rounds as it takes for everyone to meet everyone.")
            )
        now = self.now()
        at = start_time(starts, now)
        if not now - 60 <= at <= now + MAX_DELAY:
            raise GameError(T("A tournament starts within the next 30 days."))
        draft = TournamentRecord(
            0, caller.guild_id or 0, caller.channel_id or 0, caller.user_id, kind, fmt, rounds or 0, size, resolved,
            clock, max(at, now), "open", secrets.token_hex(8), now,
        )  # fmt: skip
        async with self.store.transaction() as db:
            draft.id = await db.tournaments.create(draft)
            post = outbox.to_channel(
                tournament_lane(draft.id), draft.channel_id, draft.guild_id, said.signup(draft, []), signup=draft.id
            )
            (entry,) = await db.outbox.add([outbox.answering(post, now=now)], now=now)
            await db.outbox.add([self._event(draft)], now=now)
        self._arm(draft)
        self.wake()
        return Answer(entry=entry)

    def _event(self, t: TournamentRecord) -> Owed:
        """The Discord scheduled event of the tournament's start (members get Discord's reminder)."""
        payload = {
            "op": "create",
            "tournament": t.id,
            "guild": t.guild_id,
            "name": said.name_of(t),
            "start": t.starts_at,
            "end": t.starts_at + EVENT_HOURS * 3600,
            "channel": t.channel_id,
            "description": said.format_line(t, 0),
        }
        return Owed(f"event:{t.id}", "event", payload, outbox.THREAD)

    async def _open_to_all(self, caller: Caller) -> bool:
        return caller.guild_id is not None and await self.store.settings.tournaments_open(caller.guild_id)

    async def set_open(self, caller: Caller, on: bool) -> None:
        """Let every member of the caller's server organize tournaments, or only those with Manage Events or
        Manage Server (a member with Manage Server decides)."""
        if caller.guild_id is None or not caller.manager:
            raise GameError(T("Only a member with Manage Server can decide who organizes tournaments here."))
        await self.store.settings.set_tournaments_open(caller.guild_id, on)

    # ------------------------------------------------------------------ signing up

    async def _change(
        self, caller: Caller, tournament_id: int, change: Callable[[Unit, TournamentRecord], Any], *, answer: bool
    ) -> Answer:
        """Take the tournament's row, check and apply ``change`` in that transaction, and edit its sign-up
        message (the caller's answer when ``answer``: a click on it)."""
        now = self.now()
        async with self.store.transaction() as db:
            t = await db.tournaments.take(tournament_id, "open", "running", "finished", "cancelled")
            if t is None:
                raise GameError(T("There is no tournament #{number} here.", number=tournament_id))
            reach_tournament(caller, t)
            await change(db, t)
            entrants = await db.tournaments.entrants(t.id)
            edit = self._signup_edit(t, entrants)
            (entry,) = await db.outbox.add([outbox.answering(edit, now=now) if answer else edit], now=now)
        self.wake()
        return Answer(entry=entry)

    async def join(self, caller: Caller, tournament_id: int, *, answer: bool = False) -> Answer:
        """Sign the caller up (**Join** or ``/tournament join``)."""

        async def join(db: Unit, t: TournamentRecord) -> None:
            if caller.bot:
                raise GameError(T("Bot accounts cannot join."))
            if t.status != "open":
                raise GameError(T("{tournament} is not taking sign-ups now.", tournament=said.name_of(t)))
            entrants = {e.user_id: e for e in await db.tournaments.entrants(t.id)}
            if caller.user_id in entrants:
                raise GameError(T("You are signed up already."))
            await db.tournaments.join(t.id, caller.user_id, caller.name, now=self.now())

        done = await self._change(caller, tournament_id, join, answer=answer)
        return Answer(
            done.entry, None if answer else "✅ " + T("You are signed up for tournament #{n}.", n=tournament_id)
        )

    async def leave(self, caller: Caller, tournament_id: int, *, answer: bool = False) -> Answer:
        """Take the caller off the list; once it runs, they are not drawn again (their games go on, with the
        AI playing for them when they are away)."""

        async def leave(db: Unit, t: TournamentRecord) -> None:
            if t.status == "open":
                if not await db.tournaments.remove(t.id, caller.user_id):
                    raise GameError(T("You are not signed up."))
            elif t.status != "running" or not await db.tournaments.drop(t.id, [caller.user_id]):
                raise GameError(T("You are not playing in {tournament}.", tournament=said.name_of(t)))

        done = await self._change(caller, tournament_id, leave, answer=answer)
        return Answer(done.entry, None if answer else T("You left tournament #{n}.", n=tournament_id))

    # ------------------------------------------------------------------ starting and cancelling

    async def start(self, caller: Caller | None, tournament_id: int) -> str:
        """Start a tournament: early by its organizer (``caller``), or at its time (``None``: the scheduler,
        which cancels it, saying so, when too few joined). Returns what the caller is told."""
        now = self.now()
        async with self.store.transaction() as db:
            t = await db.tournaments.take(tournament_id, "open", "running", "finished", "cancelled")
            if t is None:
                raise GameError(T("There is no tournament #{number} here.", number=tournament_id))
            if caller is not None:
                reach_tournament(caller, t)
                may_organize(caller, await db.settings.tournaments_open(t.guild_id), t.host_id)
            if t.status != "open":
                raise GameError(T("{tournament} has started already.", tournament=said.name_of(t)))
            players = [e for e in await db.tournaments.entrants(t.id) if not e.dropped]
            fewest = minimum(t.table_size)
            if len(players) < fewest:
                too_few = N(
                    "{tournament} needs at least {n} player; {players} signed up.",
                    "{tournament} needs at least {n} players; {players} signed up.",
                    fewest,
                    tournament=said.name_of(t),
                    players=len(players),
                )
                if caller is not None:
                    raise GameError(too_few)
                await self._close(db, t, "cancelled", [Message("🏴 " + too_few)], now)
                return too_few
            rounds = t.rounds or (
                pairing.swiss_rounds(len(players), t.table_size)
                if t.format == "swiss"
                else pairing.round_robin_rounds(len(players))
            )
            await db.tournaments.set_status(t.id, "running", was="open", rounds=rounds)
            t.status, t.rounds = "running", rounds
            owed = [self._signup_edit(t, players), self._event_now(t, "start")]
            owed += await self._draw(db, t, 1, now)
            await db.outbox.add(owed, now=now)
        self._timers.disarm(tournament_id)
        self.wake()
        return "🎲 " + T("{tournament} has begun: round 1 is drawn.", tournament=said.name_of(t))

    async def cancel(self, caller: Caller, tournament_id: int) -> str:
        """Cancel a tournament (its organizer, or a member with Manage Events or Manage Server). Games under
        way go on as games; no further round is drawn."""
        now = self.now()
        async with self.store.transaction() as db:
            t = await db.tournaments.take(tournament_id, "open", "running")
            if t is None:
                loaded = await db.tournaments.load(tournament_id)
                if loaded is None or loaded.guild_id != caller.guild_id:
                    raise GameError(T("There is no tournament #{number} here.", number=tournament_id))
                raise GameError(T("{tournament} is over already.", tournament=said.name_of(loaded)))
            reach_tournament(caller, t)
            may_organize(caller, await db.settings.tournaments_open(t.guild_id), t.host_id)
            text = "🏴 " + T("{tournament} was cancelled by its organizer.", tournament=said.name_of(t))
            await self._close(db, t, "cancelled", [Message(text)], now)
        self._timers.disarm(tournament_id)
        self.wake()
        return T("{tournament} is cancelled.", tournament=said.name_of(t))

    async def _close(self, db: Unit, t: TournamentRecord, status: str, posts: Sequence[Message], now: float) -> None:
        await db.tournaments.set_status(t.id, status, was=t.status, ended_at=now)
        t.status = status
        entrants = await db.tournaments.entrants(t.id)
        owed = [self._signup_edit(t, entrants)]
        owed += [outbox.to_channel(tournament_lane(t.id), t.channel_id, t.guild_id, m) for m in posts]
        if status == "cancelled":
            owed.append(self._event_now(t, "cancel"))
        await db.outbox.add(owed, now=now)

    async def left_server(self, guild_id: int) -> int:
        """The bot left a server: its tournaments signing up or running are cancelled at once, before its games
        end (no round is drawn there again), and nothing is posted (the bot cannot post there any more). How
        many were."""
        cancelled = 0
        for listed in await self.store.tournaments.listed("open", "running", guild_id=guild_id):
            async with self.store.transaction() as db:
                t = await db.tournaments.take(listed.id, "open", "running")
                if t is not None:
                    cancelled += await db.tournaments.set_status(t.id, "cancelled", was=t.status, ended_at=self.now())
            self._timers.disarm(listed.id)
        return cancelled

    @staticmethod
    def _event_now(t: TournamentRecord, op: str) -> Owed:
        """The tournament's scheduled event started, completed or cancelled (:data:`tables.rows.EVENT_STATUS`),
        in its lane: after the event is made."""
        return Owed(f"event:{t.id}", "event", {"op": op, "tournament": t.id, "guild": t.guild_id})

    def _signup_edit(self, t: TournamentRecord, entrants: Sequence[EntrantRecord]) -> Owed:
        message = said.signup(t, entrants)
        return Owed(tournament_lane(t.id), "edit", {"tournament": t.id, "message": message.to_json()})

    # ------------------------------------------------------------------ rounds

    async def _draw(self, db: Unit, t: TournamentRecord, round_no: int, now: float) -> list[Owed]:
        """Draw round ``round_no`` (once: ``[]`` if it was drawn) and create its games in transaction ``db``;
        what it owes (the draw's post; each game owes its own opening, which mentions its players)."""
        if not await db.tournaments.advance(t.id, drawn=round_no, now=now):
            return []
        t.round = round_no
        entrants = await db.tournaments.entrants(t.id)
        names = {e.user_id: e.name for e in entrants}
        playing = [e.user_id for e in entrants if not e.dropped]
        history = await db.tournaments.tables(t.id)
        draw = await self._pairs(db, t, round_no, playing, history)
        tables: list[TableRecord] = []
        shown: list[tuple[int, list[str]]] = []
        for number, seats in enumerate(draw.tables, start=1):
            started = await self.starter.create(
                db,
                Table(t.kind, [(u, names[u]) for u in seats], 0, t.options, t.clock),
                guild_id=t.guild_id,
                channel_id=t.channel_id,
                host_id=t.host_id,
            )
            record = started.record
            db.after_commit(lambda record=record: self.starter.started(record))
            tables.append(TableRecord(t.id, round_no, number, list(seats), record.id))
            shown.append((record.id, [names[u] for u in seats]))
        for number, user in enumerate(draw.byes, start=len(draw.tables) + 1):
            tables.append(TableRecord(t.id, round_no, number, [user], None, {str(user): str(pairing.BYE)}))
        await db.tournaments.add_tables(tables)
        text = said.draw_text(t, round_no, shown, [names[u] for u in draw.byes])
        return [outbox.to_channel(tournament_lane(t.id), t.channel_id, t.guild_id, Message(text))]

    async def _pairs(
        self, db: Unit, t: TournamentRecord, round_no: int, playing: list[int], history: Sequence[TableRecord]
    ) -> pairing.Draw:
        """Who sits where in round ``round_no``: Swiss from the standings so far, or the round robin's circle
        over the round-1 players (a table with a player who has left is a bye for the other)."""
        if t.format == "round-robin":
            first = [u for table in history if table.round == 1 for u in table.players]
            circle = pairing.round_robin(sorted(first) if first else sorted(playing), round_no)
            here = set(playing)
            draw = pairing.Draw(byes=[u for u in circle.byes if u in here])
            for seats in circle.tables:
                staying = [u for u in seats if u in here]
                if len(staying) == 2:
                    draw.tables.append(staying)
                else:
                    draw.byes += staying
            return draw
        score = _scores(history)
        ratings = await db.ratings.shown(t.kind, t.guild_id, playing)
        players = [
            pairing.Player(u, score.points.get(u, Fraction(0)), ratings[u], frozenset(score.met.get(u, ())),
                           score.byes.get(u, 0))
            for u in playing
        ]  # fmt: skip
        smallest = GAMES[t.kind].game.min_players if t.table_size > 2 else None
        return pairing.swiss(players, t.table_size, t.seed, round_no, smallest=smallest)

    # ------------------------------------------------------------------ the end-of-game listener

    async def ended(self, db: Unit, ended: Ended) -> Sequence[Owed]:
        """A game ended (in its commit's transaction ``db``): if it is a table of a running tournament, record
        its points; when it was the round's last, draw the next round or end the tournament."""
        record = ended.record
        table = await db.tournaments.table_of(record.id)
        if table is None:
            return ()
        t = await db.tournaments.take(table.tournament_id, "running")
        if t is None:
            return ()
        await db.tournaments.score(record.id, _points(ended))
        away = [s.user_id for s in record.seats if s.user_id is not None and s.acted_at is None]
        if away:  # away the whole game: not drawn again
            await db.tournaments.drop(t.id, away)
        if table.round != t.round or await db.tournaments.unscored(t.id, t.round):
            return ()
        return await self._round_over(db, t, ended.now)

    async def _round_over(self, db: Unit, t: TournamentRecord, now: float) -> list[Owed]:
        """The standings after the round, then the next round's draw, or the end."""
        lines, names = await self._standings(db, t)
        playing = [e for e in await db.tournaments.entrants(t.id) if not e.dropped]
        final = t.round >= t.rounds or len(playing) < 2
        lane = tournament_lane(t.id)
        owed = [outbox.to_channel(lane, t.channel_id, t.guild_id, said.standings_message(t, lines, names, final=final))]
        if not final:
            return owed + await self._draw(db, t, t.round + 1, now)
        await db.tournaments.set_status(t.id, "finished", was="running", ended_at=now)
        owed.append(self._event_now(t, "complete"))
        places = []
        for table in await db.tournaments.tables(t.id):
            if table.game_id is not None:
                game = await db.games.load(table.game_id)
                places.append((table.game_id, game.place_id if game is not None and game.thread_id else None))
        text = said.final_text(t, lines, names, places)
        winners = [line.user_id for line in lines if line.place == 1]
        owed.append(outbox.to_channel(lane, t.channel_id, t.guild_id, Message(text, notifies=winners)))
        return owed

    async def _standings(self, db: Unit, t: TournamentRecord) -> tuple[list[pairing.Line], dict[int, str]]:
        entrants = await db.tournaments.entrants(t.id)
        names = {e.user_id: e.name for e in entrants}
        history = await db.tournaments.tables(t.id)
        score = _scores(history)
        users = [e.user_id for e in entrants if e.user_id in score.seen or not e.dropped]
        ratings = await db.ratings.shown(t.kind, t.guild_id, users)
        points = {u: score.points.get(u, Fraction(0)) for u in users}
        return pairing.standings(points, score.met, ratings, score.games, score.byes), names

    # ------------------------------------------------------------------ reading

    async def find(self, caller: Caller, tournament_id: int | None) -> TournamentRecord:
        """Tournament ``tournament_id`` of the caller's server, or (``None``) its newest open or running one."""
        if tournament_id is not None:
            t = await self.store.tournaments.load(tournament_id)
            if t is None:
                raise GameError(T("There is no tournament #{number} here.", number=tournament_id))
            reach_tournament(caller, t)
            return t
        here = await self.store.tournaments.listed("open", "running", guild_id=caller.guild_id or 0)
        if not here:
            raise GameError(T("No tournament is open or running here. Start one with `/tournament new`."))
        return here[-1]

    async def choices(self, caller: Caller, current: str) -> list[tuple[str, int]]:
        """The server's tournaments whose number or game has ``current`` in it, newest first: (label, number)."""
        listed = await self.store.tournaments.listed("open", "running", "finished", guild_id=caller.guild_id or 0)
        out = []
        for t in reversed(listed):
            label = f"#{t.id} {GAMES[t.kind].title}"
            if current in str(t.id) or current.lower() in label.lower():
                out.append((f"{label} ({said.STATUS[t.status]})", t.id))
        return out[:25]

    async def standings(self, caller: Caller, tournament_id: int | None) -> Message:
        """``/tournament standings``: the image, with a line on where the tournament stands."""
        t = await self.find(caller, tournament_id)
        async with self.store.transaction() as db:
            lines, names = await self._standings(db, t)
        if not lines or t.status == "open":
            entrants = await self.store.tournaments.entrants(t.id)
            return Message(said.signup_text(t, entrants))
        return said.standings_message(t, lines, names, final=t.status == "finished")

    async def listing(self, caller: Caller) -> str:
        """``/tournament list``: this server's open and running tournaments."""
        here = await self.store.tournaments.listed("open", "running", guild_id=caller.guild_id or 0)
        if not here:
            return T("No tournament is open or running here. Start one with `/tournament new`.")
        lines = []
        for t in here:
            entrants = [e for e in await self.store.tournaments.entrants(t.id) if not e.dropped]
            when = (
                T("starts {when}", when=f"<t:{int(t.starts_at)}:R>")
                if t.status == "open"
                else T("round {round} of {rounds}", round=t.round, rounds=t.rounds)
            )
            players = N("{n} player", "{n} players", len(entrants))
            lines.append(f"🏆 **{said.name_of(t)}** — {said.format_line(t, len(entrants))} · {players} · {when}")
        return "\n".join(lines)

    # ------------------------------------------------------------------ the scheduler

    def _arm(self, t: TournamentRecord) -> None:
        self._timers.arm(t.id, t.starts_at)

    async def _start_now(self, tournament_id: int) -> None:
        """A tournament's start time has come: start it, unless it started or closed meanwhile."""
        try:
            await self.start(None, tournament_id)
        except GameError:
            return  # started early, cancelled, or started by another process meanwhile
        except Exception:
            log.exception("Tournament %s could not start at its time", tournament_id)

    async def resume(self) -> None:
        """Arm the start of every tournament still signing up (after a restart: at once if its time passed)."""
        for t in await self.store.tournaments.listed("open"):
            self._arm(t)

    async def stop(self) -> None:
        await self._timers.stop()


class _Scores:
    """What the tables so far give each player: points, who they met, games, byes."""

    def __init__(self) -> None:
        self.points: dict[int, Fraction] = {}
        self.met: dict[int, set[int]] = {}
        self.games: dict[int, int] = {}
        self.byes: dict[int, int] = {}
        self.seen: set[int] = set()


def _scores(history: Sequence[TableRecord]) -> _Scores:
    score = _Scores()
    for table in history:
        score.seen |= set(table.players)
        for user, value in (table.points or {}).items():
            score.points[int(user)] = score.points.get(int(user), Fraction(0)) + Fraction(value)
        if table.game_id is None:
            for user in table.players:
                score.byes[user] = score.byes.get(user, 0) + 1
            continue
        for user in table.players:
            score.met.setdefault(user, set()).update(u for u in table.players if u != user)
            if table.points is not None:
                score.games[user] = score.games.get(user, 0) + 1
    return score


def _points(ended: Ended) -> dict[str, str]:
    """Each member's points from the game's placings (an abandoned game gives nobody any)."""
    record = ended.record
    members = [s.user_id for s in record.seats if s.user_id is not None]
    placed = placings(ended.spec.game, record.state, record.result or {}, record.seats)
    if record.status != "finished" or placed is None:
        return {str(u): "0" for u in members}
    places = {u: (p.rank, p.won) for p in placed for u in p.players if u != AI_USER}
    return {str(u): str(v) for u, v in pairing.table_points(places).items()}
