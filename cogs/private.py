"""Private messages: each player's private view, private notes and turn reminders, by direct message.

Attention is precious: a player gets **one** private message per game, kept up to date by editing it;
a new DM is sent only when the player must decide and asked for reminders (``/games notify on``). What
was delivered is kept in the store (``deliveries``), so a restart never repeats a message or loses one.

Only Discord's "cannot send messages to this user" (error 50007) means a player's DMs are closed: the
game's thread then says so once and points at **My hand**. Any other failure (a 5xx, a rate limit) is
not recorded as delivered and is retried later.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import discord

from cogs.messages import NO_PINGS, deciders, mention, names_shown, pings, shown, title
from data.store import GameRecord, SeatRecord
from games.core import format_seats
from games.registry import GameSpec
from rendering import pool as render_pool
from tables.service import players_out, seat_names, seats_of

if TYPE_CHECKING:
    from cogs.app import TableBot

log = logging.getLogger("tables.private")

CLOSED_DMS = 50007
"""Discord's error code for "Cannot send messages to this user"."""
RETRY_DELAYS = (15.0, 60.0, 300.0)
"""Seconds before each retry of a private delivery that failed for a passing reason."""


@dataclass(slots=True)
class Followup:
    """What follows a new board once the acting player has been answered: the final scoring when the
    game has ended, and each player's private view, notes and reminder. Returned by ``Host.publish``;
    the caller hands it to :meth:`PrivateMail.send`."""

    record: GameRecord
    notes: dict[int, list[str]] = field(default_factory=dict)
    """Private event texts per player (record seat number)."""
    public: list[str] = field(default_factory=list)
    """What the thread was told (event lines), for the game's followers."""
    board: bytes | None = None
    """The public board image just posted, for the game's followers."""


def place_link(record: GameRecord) -> str:
    guild = record.guild_id or "@me"
    return f"https://discord.com/channels/{guild}/{record.place_id}"


class PrivateMail:
    """Sends what is private to each player of a game."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        self._retries: dict[int, asyncio.Task[None]] = {}

    # ------------------------------------------------------------------ what a seat sees

    def private_text(self, spec: GameSpec, record: GameRecord, player: int) -> str:
        """The private summary of every seat a player controls, labelled with the game and its place."""
        game, state = spec.game, record.state
        names = names_shown(spec, record)
        parts = [format_seats(game.seat_summary(game.view(state, s)), names) for s in seats_of(game, state, player)]
        where = f"{spec.title} #{record.id} ({place_link(record)})"
        return f"**Your private view in {where}**\n" + "\n".join(parts)

    async def payload(self, spec: GameSpec, record: GameRecord, player: int) -> dict:
        """Text and images (one per seat the player controls) of a player's private view."""
        kwargs: dict = {"content": self.private_text(spec, record, player)[:2000]}
        render = spec.render_hand
        if render is not None:
            game, state = spec.game, record.state
            names = seat_names(game, record)
            seats = seats_of(game, state, player)
            files = []
            for s in seats[:10]:
                view = game.view(state, s)
                png = await render_pool.run_later(render, view, names)
                alt = format_seats(game.seat_summary(view), names)[:1000]
                name = f"{spec.kind}-{record.id}-hand" + (f"-{s}" if len(seats) > 1 else "") + ".png"
                files.append(discord.File(io.BytesIO(png), filename=name, description=alt))
            kwargs["files"] = files
        return kwargs

    # ------------------------------------------------------------------ sending

    async def send(self, spec: GameSpec, followup: Followup) -> None:
        """Deliver a followup's private messages and reminders; what fails for a passing reason is
        retried later."""
        if not await self._deliver(spec, followup):
            self._retry(spec, followup.record.id)

    async def _deliver(self, spec: GameSpec, followup: Followup) -> bool:
        """Send to every player still playing; False if some message could not be sent for now."""
        record = followup.record
        store = self.bot.store
        game = spec.game
        out = players_out(game, record)
        active = record.status == "active"
        deciding = set(deciders(spec, record))
        delivered = True
        for seat in record.seats:
            if seat.user_id is None or seat.resigned or seat.seat in out:
                continue
            notes = followup.notes.get(seat.seat, [])
            # One reminder per stretch of decisions, recorded so that a restart does not repeat it.
            reminded = await store.delivery(record.id, seat.seat, "turn") == "1"
            if seat.seat not in deciding:
                if reminded:
                    await store.set_delivery(record.id, seat.seat, "turn", "0")
                remind = False
            else:
                remind = not reminded and await store.notify_enabled(seat.user_id)
            try:
                if spec.dm_hands and active:
                    await self._hand(spec, record, seat, notes, fresh=remind)
                else:
                    if notes:
                        await self.dm(record, seat, content="\n".join(notes)[:2000])
                    if remind:
                        text = f"⏰ Your turn in {title(spec, record)}: {place_link(record)}"
                        await self.dm(record, seat, content=text)
            except discord.HTTPException as exc:
                delivered = False
                log.info("Game %s: private message to %s failed (%s); will retry", record.id, seat.user_id, exc)
                continue
            if remind:
                await store.set_delivery(record.id, seat.seat, "turn", "1")
        return delivered

    async def _hand(
        self, spec: GameSpec, record: GameRecord, seat: SeatRecord, notes: Sequence[str], *, fresh: bool
    ) -> None:
        """Keep the player's one private message up to date: edit it, or send a new one when they must
        decide and want reminders (or have none yet). Nothing is sent when nothing changed."""
        store = self.bot.store
        text = self.private_text(spec, record, seat.seat)
        digest = hashlib.sha256(text.encode()).hexdigest()
        if not notes and not fresh and await store.delivery(record.id, seat.seat, "hand") == digest:
            return
        payload = await self.payload(spec, record, seat.seat)
        head = [f"• {n}" for n in notes]
        if fresh:
            head.insert(0, f"⏰ Your turn: {place_link(record)}")
        if head:
            payload["content"] = ("\n".join(head) + "\n" + payload["content"])[:2000]
        kept = await store.delivery(record.id, seat.seat, "hand_message")
        message_id = None
        if kept and not fresh:
            message_id = await self._edit(seat, int(kept), payload)
        if message_id is None:
            message_id = await self.dm(record, seat, **payload)
        if message_id is not None:
            await store.set_delivery(record.id, seat.seat, "hand_message", str(message_id))
        await store.set_delivery(record.id, seat.seat, "hand", digest)

    async def _edit(self, seat: SeatRecord, message_id: int, payload: dict) -> int | None:
        """Edit the kept private message; ``None`` if it is gone (then a new one is sent)."""
        assert seat.user_id is not None
        channel = await self.bot.create_dm(discord.Object(id=seat.user_id))
        try:
            await channel.get_partial_message(message_id).edit(
                content=payload["content"], attachments=payload.get("files", []), allowed_mentions=NO_PINGS
            )
        except discord.NotFound:
            return None
        return message_id

    async def dm(self, record: GameRecord, seat: SeatRecord, **kwargs: object) -> int | None:
        """DM a player; returns the message id, or ``None`` when their DMs are closed (said once in the
        game's thread). Other failures raise, to be retried."""
        assert seat.user_id is not None
        try:
            # create_dm needs only the id and is cached, so no user lookup (the bot has no members intent).
            channel = await self.bot.create_dm(discord.Object(id=seat.user_id))
            message = await channel.send(allowed_mentions=NO_PINGS, **kwargs)  # type: ignore[arg-type]
            return message.id
        except discord.Forbidden as exc:
            if exc.code != CLOSED_DMS:
                raise
        log.info("Game %s: %s has closed DMs", record.id, seat.user_id)
        store = self.bot.store
        if await store.delivery(record.id, seat.seat, "dm_closed") is None:
            await store.set_delivery(record.id, seat.seat, "dm_closed", str(CLOSED_DMS))
            place = self.bot.get_partial_messageable(record.place_id, guild_id=record.guild_id)
            try:
                await place.send(
                    f"{mention(seat.user_id)} I can't send you direct messages, so use the **My hand** button "
                    "or the `hand` command here for your private view.",
                    allowed_mentions=pings([seat.user_id]),
                )
            except discord.HTTPException:
                log.warning("Game %s: could not post the closed-DM note either", record.id)
        return None

    async def hand_over(self, spec: GameSpec, record: GameRecord, player: int, old: SeatRecord) -> None:
        """A place changed hands: its former member's private message no longer shows the seat, and the
        newcomer's private messages start afresh."""
        store = self.bot.store
        kept = await store.delivery(record.id, player, "hand_message")
        await store.forget_deliveries(record.id, player)
        if kept is None or old.user_id is None:
            return
        newcomer = shown(record.seats[player].name)
        note = f"You handed your seat in {title(spec, record)} over to {newcomer}; this view is no longer kept."
        try:
            channel = await self.bot.create_dm(discord.Object(id=old.user_id))
            await channel.get_partial_message(int(kept)).edit(content=note, attachments=[], allowed_mentions=NO_PINGS)
        except discord.HTTPException as exc:
            log.info("Game %s: could not clear the former player's private message: %s", record.id, exc)

    async def send_followers(self, spec: GameSpec, followup: Followup) -> None:
        """Turn-by-turn updates for members following the game: the public board and what happened, by
        DM — never a seat's secrets (the spectator's view)."""
        record = followup.record
        if followup.board is None:
            return
        head = f"🔭 {title(spec, record)} — {place_link(record)}"
        content = "\n".join([head, *followup.public])[:2000]
        for user_id in await self.bot.store.followers(record.id):
            try:
                channel = await self.bot.create_dm(discord.Object(id=user_id))
                file = discord.File(
                    io.BytesIO(followup.board), filename=f"{spec.kind}-{record.id}-{record.version}.png"
                )
                await channel.send(content, file=file, allowed_mentions=NO_PINGS)
            except discord.HTTPException as exc:
                log.info("Game %s: update to follower %s failed (%s)", record.id, user_id, exc)

    # ------------------------------------------------------------------ retries

    def _retry(self, spec: GameSpec, game_id: int) -> None:
        task = self._retries.get(game_id)
        if task is None or task.done():
            self._retries[game_id] = asyncio.create_task(self._retry_later(spec, game_id), name=f"dm-retry-{game_id}")

    async def _retry_later(self, spec: GameSpec, game_id: int) -> None:
        """Deliver again what is still undelivered (the store's records say what), after growing pauses."""
        for delay in RETRY_DELAYS:
            await asyncio.sleep(delay)
            record = await self.bot.tables.get(game_id)
            if record.status != "active":
                return
            try:
                if await self._deliver(spec, Followup(record)):
                    return
            except Exception:
                log.exception("Game %s: retrying private messages failed", game_id)
        log.warning("Game %s: private messages still undelivered after %d retries", game_id, len(RETRY_DELAYS))
