"""Seats and followers: handing a place at the table to another member (``/games substitute``), following a
game as a spectator, and a member's wish for turn reminders by DM."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from data.outbox import Owed
from data.store import GameRecord, Store, Unit
from games.i18n import T
from games.registry import GameSpec
from tables import notices, outbox, words
from tables.authority import Caller, GameError, may_offer
from tables.cache import GameCache
from tables.config import Config
from tables.locks import KeyedLocks
from tables.outbox import Message
from tables.play import Changed


class Seats:
    """Who sits at a table, and who watches it."""

    def __init__(
        self,
        store: Store,
        cache: GameCache,
        config: Config,
        now: Callable[[], float],
        locks: KeyedLocks,
        changed: Changed,
        wake: Callable[[], None],
    ) -> None:
        self.store = store
        self.cache = cache
        self.config = config
        self.now = now
        self.locks = locks
        self.changed = changed
        self.wake = wake
        """Tell the delivery loop that something is owed."""

    async def follow(self, caller: Caller, game_id: int) -> bool:
        """Follow (or stop following) a game as a spectator: the public board by DM after every turn. Whether
        the caller follows it now."""
        record = await self.cache.reach(caller, game_id)
        spec = self.cache.spec(record)
        if record.seat_of(caller.user_id) is not None:
            raise GameError(T("You play in {game}: its turns come to you already.", game=f"{spec.title} #{game_id}"))
        if record.status != "active":
            raise GameError(T("{game} is over.", game=f"{spec.title} #{game_id}"))
        if await self.store.seats.follow(game_id, caller.user_id, True):
            return True
        await self.store.seats.follow(game_id, caller.user_id, False)
        return False

    async def set_notify(self, user_id: int, on: bool) -> None:
        """Whether a member wants a direct message when it is their turn (``/games notify``)."""
        await self.store.settings.set_notify(user_id, on)

    @staticmethod
    def seat_named(record: GameRecord, text: str) -> int:
        """A place named by its number (1-based), its player's name or a mention."""
        wanted = text.strip().lower()
        for s in record.seats:
            if wanted in (str(s.seat + 1), s.name.lower(), f"<@{s.user_id}>", f"<@!{s.user_id}>"):
                return s.seat
        raise GameError(
            T(
                "This game has no seat {seat}; its seats: {seats}.",
                seat=repr(words.shown(text)),
                seats=words.listing(record.names),
            )
        )

    async def offer(self, caller: Caller, game_id: int, seat: str, member: Caller) -> None:
        """``/games substitute``: offer a place at the table to ``member`` (of the game's server), who must
        accept. Its player, the game's host or a moderator may offer it; never to a member who already has a
        place at this table."""
        record = await self.cache.reach(caller, game_id)
        spec = self.cache.spec(record)
        player = self.seat_named(record, seat)
        if record.status != "active":
            raise GameError(T("{game} is over.", game=f"{spec.title} #{record.id}"))
        may_offer(caller, record, player)
        if member.bot:
            raise GameError(T("{name} is a bot account.", name=words.shown(member.name)))
        if member.guild_id != record.guild_id:
            raise GameError(T("{name} is not a member of this game's server.", name=words.shown(member.name)))
        if record.seat_of(member.user_id) is not None:
            raise GameError(T("{name} already plays in this game.", name=words.shown(member.name)))
        at = int(self.now())
        holder = record.seats[player].user_id or 0
        about = {"type": "seat", "game": game_id, "seat": player, "user": member.user_id, "holder": holder, "at": at}
        buttons = [{**about, "op": op} for op in ("take", "refuse")]
        text = "🔁 " + T(
            "{member}, {name} offers you {holder}'s seat in {game}. The offer expires {when}.",
            member=words.mention(member.user_id),
            name=words.shown(caller.name),
            holder=words.shown(record.seats[player].name),
            game=words.title(spec, record),
            when=f"<t:{at + int(self.config.invite_ttl)}:R>",
        )
        owed = outbox.to_place(game_id, Message(text, components=buttons, notifies=[member.user_id]))
        await self.store.outbox.add([owed], now=self.now())
        self.wake()

    async def answer(
        self,
        caller: Caller,
        game_id: int,
        player: int,
        *,
        user_id: int,
        holder: int,
        at: int,
        take: bool,
        message: tuple[int, int] | None,
    ) -> Message | None:
        """The member offered a place accepts it (they play it and get its private view at once, which is
        returned; its former player no longer can) or declines. ``message``: the offer's ``(channel, id)``, which
        loses its buttons. Of two members accepting at once, one takes the place."""
        if caller.user_id != user_id:
            raise GameError(T("This offer is for someone else."))
        record = await self.cache.reach(caller, game_id)
        spec = self.cache.spec(record)
        if self.now() > at + self.config.invite_ttl:
            raise GameError(T("This offer has expired; ask for a new one."))
        if record.status != "active":
            raise GameError(T("{game} is over.", game=f"{spec.title} #{game_id}"))
        if (record.seats[player].user_id or 0) != holder:
            raise GameError(T("This seat has changed hands since the offer was made."))
        async with self.locks.hold(game_id):
            async with self.store.transaction() as db:
                owed = self._offer_closed(caller, record, player, take, message)
                if take:
                    owed += await self._take(db, caller, spec, record, player)
                await db.outbox.add(owed, now=self.now())
            self.cache.forget(game_id)
        if not take:
            self.wake()
            return None
        record = await self.cache.get(game_id)
        self.changed(record, ())
        view = notices.private_message(spec, record, player)
        return replace(view, content=words.linked(view.content, record))

    @staticmethod
    def _offer_closed(
        caller: Caller, record: GameRecord, player: int, take: bool, message: tuple[int, int] | None
    ) -> list[Owed]:
        """The offer's message, edited to say how it was answered (its buttons go)."""
        if message is None:
            return []
        name, old = words.shown(caller.name), words.shown(record.seats[player].name)
        if take:
            done = "🔁 " + T("{name} takes over {holder}'s seat.", name=name, holder=old)
        else:
            done = "🚫 " + T("{name} declined the seat.", name=name)
        channel_id, message_id = message
        lane = outbox.game_lane(record.id)
        return [outbox.edit_message(lane, message_id, Message(done), channel_id=channel_id, game_id=record.id)]

    async def _take(self, db: Unit, caller: Caller, spec: GameSpec, record: GameRecord, player: int) -> list[Owed]:
        """The member takes the place, in transaction ``db`` (settled by the store: of two, one), and what that
        owes: the former member's private view retired, the board again, the private views afresh."""
        old = record.seats[player]
        now = self.now()
        if not await db.seats.substitute(
            record.id, player, holder=old.user_id, user_id=caller.user_id, name=caller.name, now=now
        ):
            raise GameError(T("This seat has changed hands since the offer was made."))
        owed = await self._hand_over(db, spec, record, player, old.user_id, caller.name)
        taken = await db.games.load(record.id)
        assert taken is not None
        owed += await notices.board_again(db, spec, taken, [], await db.seats.followers(record.id), now=now)
        owed += await notices.private(db, spec, taken, {})
        return owed

    @staticmethod
    async def _hand_over(
        db: Unit, spec: GameSpec, record: GameRecord, player: int, old: int | None, newcomer: str
    ) -> list[Owed]:
        """A place changed hands: the former member's private message no longer shows it, and the newcomer's
        private messages start afresh."""
        kept = await db.outbox.marker(record.id, player, "hand_message")
        await db.outbox.forget_markers(record.id, player)
        if old is None or kept is None:
            return []
        note = T(
            "You handed your seat in {game} over to {name}; this view is no longer kept.",
            game=words.title(spec, record),
            name=words.shown(newcomer),
        )
        lane = outbox.dm_lane(record.id, old)
        return [outbox.edit_message(lane, int(kept), Message(note), user=old, game_id=record.id)]
