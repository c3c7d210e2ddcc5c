"""Getting a game together: challenges (named invitees accept or decline), open tables (anyone joins),
rematches, and their expiry.

Lobbies live in the store and their buttons are persistent; expiry timers are re-armed after a restart.
Every change (accept, decline, join, leave, start, cancel, expiry) is a read-modify-write that the store
applies only over the version it read; on a conflict the lobby is read again, the change checked again
against what the other click did, and retried. The change that takes a lobby out of ``open`` into
``started`` creates the game in the same transaction, so exactly one game starts from a lobby, and a game
has at most one open rematch proposal (the store's unique index decides between two members proposing at
once: the second joins the first's).

Where a lobby goes: inside a running game's thread, ``new`` and ``open`` post the invitation (or start the
AI game) in the thread's parent channel, and tell the player so; the new game then gets a thread of its
own there. Every message a lobby owes goes through the outbox; the caller's interaction may deliver the
first one as its answer.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from data.outbox import Owed
from data.store import LobbyRecord, Store, Unit
from games.core import IllegalAction
from games.i18n import N, T
from games.registry import GAMES
from tables import outbox, words
from tables.authority import Caller, GameError, reach_lobby
from tables.cache import GameCache
from tables.config import Config
from tables.outbox import Message
from tables.starting import Starter, Table
from tables.timers import KeyedTimers

log = logging.getLogger("tables.lobbies")

ATTEMPTS = 5
"""How often a lobby change is read, checked and written again when other changes keep overtaking it."""
OPS = {"challenge": ("accept", "decline"), "open": ("join", "leave", "start", "cancel")}
"""The buttons of each kind of lobby."""

Change = Callable[[LobbyRecord], None]
"""Checks a lobby and changes it in place, or raises :class:`GameError`; run again after a conflict."""


@dataclass(frozen=True, slots=True)
class Answer:
    """How the cog answers the interaction that made a lobby change: by delivering outbox entry ``entry``
    (the lobby's message, or its edit) as its answer, and/or with a private ``note``."""

    entry: int | None = None
    note: str | None = None


class Expired(GameError):
    """The lobby's time was up when someone clicked."""


def _require_open(lobby: LobbyRecord) -> None:
    if lobby.status == "started":
        raise GameError(T("Too late: this game has already started."))
    if lobby.status != "open":
        raise GameError(words.lobby_closed(lobby))


def _message(lobby: LobbyRecord, *, notify: Sequence[int] = ()) -> Message:
    buttons = (
        [{"type": "lobby", "lobby": lobby.id, "op": op} for op in OPS[lobby.mode]] if lobby.status == "open" else []
    )
    return Message(words.lobby_text(lobby), components=buttons, notifies=list(notify))


def _check_options(kind: str, options: dict[str, Any]) -> None:
    try:
        GAMES[kind].game.resolve_options(options)
    except IllegalAction as exc:
        raise GameError(str(exc)) from exc


def _check_invitees(caller: Caller, invitees: Sequence[Caller]) -> None:
    """Members a challenge may invite: no bot account, not the host, nobody twice."""
    seen: set[int] = set()
    for member in invitees:
        if member.bot:
            raise GameError(
                T("{name} is a bot account; add AI seats with the `ai` option instead.", name=words.shown(member.name))
            )
        if member.user_id == caller.user_id:
            raise GameError(T("You are already at the table: challenge other members."))
        if member.user_id in seen:
            raise GameError(T("You invited {name} twice.", name=words.shown(member.name)))
        seen.add(member.user_id)


def _check_level(level: str) -> None:
    if level not in words.AI_LEVELS:
        raise GameError(
            T(
                "The AI level is one of: {levels}; not {level}.",
                levels=", ".join(words.AI_LEVELS),
                level=words.shown(level)[:20],
            )
        )


def _check_seats(kind: str, seats: int, options: dict[str, Any]) -> None:
    """Whether ``seats`` players may play ``kind`` with ``options`` (the game's own rule, one line)."""
    game = GAMES[kind].game
    try:
        game.check_players(seats, game.resolve_options(options))
    except IllegalAction as exc:
        raise GameError(str(exc)) from exc


# ---------------------------------------------------------------------------------------------- changes


def accept(lobby: LobbyRecord, user: Caller) -> None:
    if lobby.mode != "challenge" or user.user_id not in lobby.invitees:
        raise GameError(T("This invitation is not addressed to you."))
    if user.user_id in lobby.accepted:
        raise GameError(T("You have already accepted; waiting for the others."))
    lobby.accepted.append(user.user_id)
    lobby.names[str(user.user_id)] = user.name
    if set(lobby.invitees) <= set(lobby.accepted):
        lobby.status = "started"


def decline(lobby: LobbyRecord, user: Caller) -> None:
    if user.user_id == lobby.host_id:
        lobby.status = "cancelled"
    elif user.user_id in lobby.invitees:
        lobby.status = "declined"
    else:
        raise GameError(T("This invitation is not addressed to you."))
    lobby.closed_by = user.user_id


def join(lobby: LobbyRecord, user: Caller) -> None:
    if user.bot:
        raise GameError(T("Bot accounts cannot join."))
    if user.user_id in lobby.accepted:
        raise GameError(T("You are already at this table."))
    if len(lobby.accepted) + lobby.ai >= GAMES[lobby.kind].game.max_players:
        raise GameError(T("This table is full."))
    lobby.accepted.append(user.user_id)
    lobby.names[str(user.user_id)] = user.name


def leave(lobby: LobbyRecord, user: Caller) -> None:
    if user.user_id == lobby.host_id:
        raise GameError(T("You host this table: use Cancel to close it."))
    if user.user_id not in lobby.accepted:
        raise GameError(T("You are not at this table."))
    lobby.accepted.remove(user.user_id)


def start(lobby: LobbyRecord, user: Caller) -> None:
    game = GAMES[lobby.kind].game
    if user.user_id != lobby.host_id:
        raise GameError(T("Only the host can start the game."))
    seats = len(lobby.accepted) + lobby.ai
    if seats < game.min_players:
        raise GameError(
            N(
                "{game} needs at least {n} player; {players} so far.",
                "{game} needs at least {n} players; {players} so far.",
                game.min_players,
                game=game.title,
                players=seats,
            )
        )
    _check_seats(lobby.kind, seats, lobby.options)
    lobby.status = "started"


def cancel(lobby: LobbyRecord, user: Caller) -> None:
    if user.user_id != lobby.host_id:
        raise GameError(T("Only the host can cancel this table."))
    lobby.status = "cancelled"
    lobby.closed_by = user.user_id


CHANGES: dict[str, Callable[[LobbyRecord, Caller], None]] = {
    "accept": accept,
    "decline": decline,
    "join": join,
    "leave": leave,
    "start": start,
    "cancel": cancel,
}


class Lobbies:
    """Challenges, open tables and rematches for every game kind (one per service)."""

    def __init__(
        self,
        store: Store,
        config: Config,
        now: Callable[[], float],
        cache: GameCache,
        starter: Starter,
        wake: Callable[[], None],
    ) -> None:
        self.store = store
        self.config = config
        self.now = now
        self.cache = cache
        self.starter = starter
        self.wake = wake
        """Tell the delivery loop that something is owed."""
        self._timers = KeyedTimers(now, self._expire_now, "lobby")

    # ------------------------------------------------------------------ creating

    async def _place(self, caller: Caller, parent_id: int | None) -> int | None:
        """The parent channel when the command was used in a running game's thread (a new game must never
        share that thread), else ``None``: the lobby is posted where the command was used."""
        here = caller.channel_id
        if here is None or parent_id is None or not await self.store.games.in_place(here):
            return None
        return parent_id

    async def _check_host(self, caller: Caller) -> None:
        waiting = await self.store.lobbies.count_open(caller.user_id)
        limit = self.config.max_open_invitations
        if waiting >= limit:
            raise GameError(
                N(
                    "You already have {n} invitation or open table waiting (the limit is {limit}). Wait for an "
                    "answer or cancel one first.",
                    "You already have {n} invitations or open tables waiting (the limit is {limit}). Wait for an "
                    "answer or cancel one first.",
                    waiting,
                    limit=limit,
                )
            )

    async def challenge(
        self,
        caller: Caller,
        kind: str,
        invitees: Sequence[Caller],
        ai: int,
        options: dict[str, Any],
        clock: int = 0,
        *,
        ai_level: str = "normal",
        parent_id: int | None = None,
    ) -> Answer:
        """``/<game> new``: invite members (they must accept) and add AI seats playing at ``ai_level``, with a
        turn clock of ``clock`` seconds per decision; with no invitee, the game starts at once.
        ``parent_id``: the channel of the thread the command was used in."""
        _check_invitees(caller, invitees)
        if ai < 0:
            raise GameError(T("The number of AI seats cannot be negative."))
        _check_level(ai_level)
        _check_options(kind, options)
        _check_seats(kind, 1 + len(invitees) + ai, options)
        await self._check_host(caller)
        names = {str(caller.user_id): caller.name} | {str(m.user_id): m.name for m in invitees}
        if invitees:
            return await self._post(
                caller,
                kind,
                "challenge",
                [m.user_id for m in invitees],
                [],
                ai,
                options,
                names,
                clock,
                parent_id,
                ai_level,
            )
        return await self._start_alone(
            caller, Table(kind, [(caller.user_id, caller.name)], ai, options, clock, ai_level), parent_id
        )

    async def _start_alone(self, caller: Caller, table: Table, parent_id: int | None) -> Answer:
        """A game with nobody to wait for (the AI's seats, or solo): started at once, announced where the command
        was used (or, from a running game's thread, in its channel, the caller told so)."""
        spec = GAMES[table.kind]
        parent = await self._place(caller, parent_id)
        if table.ai:
            text = spec.emoji + " " + T("Starting **{game}** against the AI…", game=spec.title)
        else:
            text = spec.emoji + " " + T("Starting **{game}** solo…", game=spec.title)
        channel = parent or caller.channel_id or 0
        async with self.store.transaction() as db:
            started = await self.starter.create(
                db,
                table,
                guild_id=caller.guild_id,
                channel_id=channel,
                host_id=caller.user_id,
                announce=Message(text),
                answered=parent is None,
            )
        self.starter.started(started.record)
        if parent is not None:
            return Answer(note=words.lobby_moved(parent, "game"))
        return Answer(entry=started.answer)

    async def open_table(
        self,
        caller: Caller,
        kind: str,
        ai: int,
        options: dict[str, Any],
        clock: int = 0,
        *,
        ai_level: str = "normal",
        parent_id: int | None = None,
    ) -> Answer:
        """``/<game> open``: a table anyone may join; the host starts it."""
        game = GAMES[kind].game
        if ai < 0:
            raise GameError(T("The number of AI seats cannot be negative."))
        _check_level(ai_level)
        if 1 + ai > game.max_players:
            raise GameError(
                N(
                    "{game} takes at most {n} player, AI seats included.",
                    "{game} takes at most {n} players, AI seats included.",
                    game.max_players,
                    game=game.title,
                )
            )
        _check_options(kind, options)
        await self._check_host(caller)
        names = {str(caller.user_id): caller.name}
        return await self._post(
            caller, kind, "open", [], [caller.user_id], ai, options, names, clock, parent_id, ai_level
        )

    async def _post(
        self,
        caller: Caller,
        kind: str,
        mode: str,
        invitees: list[int],
        accepted: list[int],
        ai: int,
        options: dict[str, Any],
        names: dict[str, str],
        clock: int,
        parent_id: int | None,
        ai_level: str,
    ) -> Answer:
        """Store a new lobby and the message that shows it (notifying only the invitees), and arm its expiry
        timer. Posted as the caller's answer, unless it goes to the parent channel."""
        parent = await self._place(caller, parent_id)
        channel = parent or caller.channel_id or 0
        now = self.now()
        draft = LobbyRecord(
            0,
            kind,
            mode,
            "open",
            caller.guild_id,
            channel,
            None,
            caller.user_id,
            invitees,
            accepted,
            ai,
            options,
            now + self.config.invite_ttl,
            names,
            clock=clock,
            ai_level=ai_level,
        )
        async with self.store.transaction() as db:
            lobby_id = await db.lobbies.create(draft)
            assert lobby_id is not None
            lobby = replace(draft, id=lobby_id)
            post = outbox.to_channel(
                outbox.lobby_lane(lobby_id), channel, caller.guild_id, _message(lobby, notify=invitees), lobby=lobby_id
            )
            (entry,) = await db.outbox.add([post if parent else outbox.answering(post, now=now)], now=now)
        self._arm(lobby)
        self.wake()
        if parent is not None:
            return Answer(note=words.lobby_moved(parent, mode))
        return Answer(entry=entry)

    # ------------------------------------------------------------------ changes

    async def _change(self, lobby_id: int, change: Change, *, answer: bool = False) -> tuple[LobbyRecord, int]:
        """Apply ``change`` to the stored lobby and write it, with its message's edit (and, if it starts,
        the game), unless another write came first: then read the lobby again and re-apply ``change`` to
        that (it checks again, and may refuse now). The lobby and its edit's outbox entry."""
        for _ in range(ATTEMPTS):
            lobby = await self.read(lobby_id)
            change(lobby)
            async with self.store.transaction() as db:
                if not await db.lobbies.update(lobby):
                    continue
                started = await self._start(db, lobby) if lobby.status == "started" else None
                now = self.now()
                edit = outbox.edit_lobby(lobby.id, _message(lobby))
                (entry,) = await db.outbox.add([outbox.answering(edit, now=now) if answer else edit], now=now)
            if lobby.status != "open":
                self._timers.disarm(lobby_id)
            if started is not None:
                self.starter.started(started)
            self.wake()
            return lobby, entry
        raise GameError(T("Many people are clicking this right now; try again in a moment."))

    async def read(self, lobby_id: int) -> LobbyRecord:
        """The lobby as stored now: what a change checks and changes before writing it back over this
        version (another click may write it in between: then the change reads it again)."""
        lobby = await self.store.lobbies.load(lobby_id)
        if lobby is None:
            raise GameError(T("That invitation no longer exists."))
        return lobby

    async def click(self, caller: Caller, lobby_id: int, op: str) -> Answer:
        """A lobby button: apply its change for the clicker; the lobby's edit is the click's answer."""
        if op not in CHANGES:
            raise GameError(T("That button does not belong to a lobby."))
        now = self.now()

        def change(lobby: LobbyRecord) -> None:
            reach_lobby(caller, lobby)
            _require_open(lobby)
            if lobby.expires_at <= now:
                raise Expired(words.lobby_expired(lobby))
            CHANGES[op](lobby, caller)

        try:
            _lobby, entry = await self._change(lobby_id, change, answer=True)
        except Expired:
            await self._expire_now(lobby_id)
            raise
        return Answer(entry=entry)

    async def _start(self, db: Unit, lobby: LobbyRecord) -> Any:
        """Create the game of a lobby this change marks ``started``, in the change's transaction; its thread
        opens on the lobby's message."""
        order = (
            [lobby.host_id, *[u for u in lobby.invitees if u != lobby.host_id]]
            if lobby.mode == "challenge"
            else lobby.accepted
        )
        players = [(uid, lobby.names.get(str(uid), f"Player {i + 1}")) for i, uid in enumerate(order)]
        started = await self.starter.create(
            db,
            Table(lobby.kind, players, lobby.ai, lobby.options, lobby.clock, lobby.ai_level),
            guild_id=lobby.guild_id,
            channel_id=lobby.channel_id,
            host_id=lobby.host_id,
            lobby=lobby.id,
        )
        lobby.game_id = started.record.id
        # Nothing else writes a started lobby, so this cannot conflict.
        await db.lobbies.update(lobby)
        return started.record

    # ------------------------------------------------------------------ rematches

    async def rematch(self, caller: Caller, game_id: int) -> str:
        """**Rematch** on a finished game: the same players (members and AI seats) and options, a new seed.
        The first member to click proposes it (an invitation to the others, in the channel where the game
        began); each member's click accepts; the game starts in a new thread when all have, and the proposal
        expires like an invitation. Returns the clicker's private answer."""
        record = await self.cache.reach(caller, game_id)
        spec = GAMES[record.kind]
        members = [s.user_id for s in record.seats if s.user_id is not None]
        if caller.user_id not in members:
            raise GameError(T("Only the players of {game} can ask for its rematch.", game=f"{spec.title} #{game_id}"))
        if record.status == "active":
            raise GameError(T("This game is still being played."))
        for _ in range(ATTEMPTS):
            lobby = await self.store.lobbies.rematch_of(game_id)
            if lobby is not None and lobby.status == "started":
                place = f"<#{await self._place_of(lobby)}>"
                raise GameError(T("The rematch has started already: {place}.", place=place))
            if lobby is None or lobby.status != "open":
                proposed = await self._propose(caller, record, [u for u in members if u is not None])
                if proposed is not None:
                    return proposed
                continue  # another member proposed it at the same moment: join theirs
            if caller.user_id == lobby.host_id or caller.user_id in lobby.accepted:
                raise GameError(T("You are in; waiting for the others to click **Rematch** (or Accept)."))

            def agree(current: LobbyRecord) -> None:
                _require_open(current)
                accept(current, caller)

            lobby, _entry = await self._change(lobby.id, agree)
            if lobby.status == "started":
                return "🎲 " + T("Everyone is in: the rematch begins!")
            return "✅ " + T("You are in for the rematch.")
        raise GameError(T("Many people are clicking this right now; try again in a moment."))

    async def _place_of(self, lobby: LobbyRecord) -> int:
        """Where a started lobby's game is played (its thread once it has one), else the lobby's channel."""
        if lobby.game_id is None:
            return lobby.channel_id
        return (await self.cache.get(lobby.game_id)).place_id

    async def _propose(self, caller: Caller, record: Any, members: list[int]) -> str | None:
        """Propose the rematch of ``record`` (``None`` if another member proposed it at the same moment)."""
        others = [u for u in members if u != caller.user_id]
        names = {str(s.user_id): s.name for s in record.seats if s.user_id is not None} | {
            str(caller.user_id): caller.name
        }
        now = self.now()
        draft = LobbyRecord(
            0,
            record.kind,
            "challenge",
            "open",
            record.guild_id,
            record.channel_id,
            None,
            caller.user_id,
            others,
            [],
            sum(s.user_id is None for s in record.seats),
            record.options,
            now + self.config.invite_ttl,
            names,
            clock=record.clock,
            rematch_of=record.id,
            ai_level=record.ai_level,
        )
        started = None
        async with self.store.transaction() as db:
            lobby_id = await db.lobbies.create(draft)
            if lobby_id is None:
                return None
            lobby = replace(draft, id=lobby_id)
            if others:
                owed: list[Owed] = [
                    outbox.to_channel(
                        outbox.lobby_lane(lobby_id),
                        record.channel_id,
                        record.guild_id,
                        _message(lobby, notify=others),
                        lobby=lobby_id,
                    )
                ]
                await db.outbox.add(owed, now=now)
            else:
                lobby.status = "started"
                await db.lobbies.update(lobby)
                started = await self._start(db, lobby)
        self.wake()
        if started is not None:
            self.starter.started(started)
            return "🎲 " + T("The rematch begins!")
        self._arm(lobby)
        return T(
            "Rematch proposed in {channel}: it starts when everyone has clicked **Rematch** or Accept.",
            channel=f"<#{record.channel_id}>",
        )

    # ------------------------------------------------------------------ privacy

    async def forget(self, user_id: int) -> int:
        """Take a member out of every lobby still open, their name and id with them (they asked to be
        forgotten): a challenge they host or are challenged to is called off, a table they host closes, one
        they joined goes on without them. Each lobby's message says so. How many lobbies they were in."""

        def forget(lobby: LobbyRecord) -> None:
            if lobby.status == "open":
                if lobby.host_id == user_id:
                    lobby.status = "cancelled"
                elif lobby.mode == "challenge" and user_id in lobby.invitees:
                    lobby.status = "declined"
            lobby.names.pop(str(user_id), None)
            lobby.invitees = [u for u in lobby.invitees if u != user_id]
            lobby.accepted = [u for u in lobby.accepted if u != user_id]
            if lobby.closed_by == user_id:
                lobby.closed_by = None

        named = [
            lobby
            for lobby in await self.store.lobbies.open()
            if user_id in (lobby.host_id, *lobby.invitees, *lobby.accepted) or str(user_id) in lobby.names
        ]
        for lobby in named:
            await self._change(lobby.id, forget)
        return len(named)

    async def close(self, lobby_id: int) -> None:
        """Close a lobby still open for a reason of the platform's own (the bot left its server)."""

        def close(lobby: LobbyRecord) -> None:
            _require_open(lobby)
            lobby.status = "cancelled"

        try:
            await self._change(lobby_id, close)
        except GameError:
            return

    # ------------------------------------------------------------------ expiry

    def _arm(self, lobby: LobbyRecord) -> None:
        self._timers.arm(lobby.id, lobby.expires_at)

    async def _expire_now(self, lobby_id: int) -> None:
        """Close a lobby whose time is up, unless it started or closed meanwhile."""

        def expire(lobby: LobbyRecord) -> None:
            _require_open(lobby)
            lobby.status = "expired"

        try:
            await self._change(lobby_id, expire)
        except GameError:
            return

    async def resume(self) -> None:
        """Re-arm the expiry timers of lobbies still open (after a restart)."""
        for lobby in await self.store.lobbies.open():
            self._arm(lobby)

    async def stop(self) -> None:
        await self._timers.stop()
