"""Who sits where, and who watches: handing a seat to a substitute, and spectators following a game.

A seat changes hands only when the member it is offered to accepts (``/games substitute``): they play it
and see its private view from then on, and its former player no longer can. A member who is not playing
can **Follow** a game: the public board by DM after every turn, never a seat's secrets.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

import discord

from cogs.clocks import now_ts
from cogs.components import SeatOfferButton
from cogs.messages import NO_PINGS, mention, pings, shown, title
from data.store import GameRecord
from tables.service import GameError

if TYPE_CHECKING:
    from cogs.host import Host


class Seats:
    """Substitutes and followers for every game (one instance per bot, beside the host)."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.bot = host.bot

    async def toggle_follow(self, interaction: discord.Interaction, game_id: int) -> None:
        """Follow (or stop following) a game as a spectator: the public board by DM after every turn."""
        record = await self.host.tables.get(game_id)
        spec = self.host.tables.spec(record)
        if record.seat_of(interaction.user.id) is not None:
            raise GameError(f"You play in {spec.title} #{game_id}: its turns come to you already.")
        if record.status != "active":
            raise GameError(f"{spec.title} #{game_id} is over.")
        store = self.bot.store
        if await store.follow(game_id, interaction.user.id, True):
            text = f"🔭 You follow {title(spec, record)}: I'll DM you the board after every turn. Click again to stop."
        else:
            await store.follow(game_id, interaction.user.id, False)
            text = f"You no longer follow {title(spec, record)}."
        await interaction.response.send_message(text, ephemeral=True)

    async def offer_seat(
        self, interaction: discord.Interaction, record: GameRecord, player: int, member: discord.abc.User
    ) -> None:
        """``/games substitute``: offer a place at the table to a member, who must accept. Its player, the
        game's host or a member with Manage Threads may offer it."""
        spec = self.host.tables.spec(record)
        if record.status != "active":
            raise GameError(f"{spec.title} #{record.id} is over.")
        seat = record.seats[player]
        moderator = interaction.permissions.manage_threads and interaction.guild_id == record.guild_id
        if interaction.user.id not in (seat.user_id, record.host_id) and not moderator:
            raise GameError("Only the seat's player, the game's host or a member with Manage Threads can hand it over.")
        if member.bot:
            raise GameError(f"{shown(member.display_name)} is a bot account.")
        fleets = spec.game.seat_count(len(record.seats), record.options) > len(record.seats)
        if record.seat_of(member.id) is not None and not fleets:
            raise GameError(f"{shown(member.display_name)} already plays in this game.")
        at = int(now_ts())
        view = discord.ui.View(timeout=None)
        for op in ("take", "refuse"):
            view.add_item(SeatOfferButton(record.id, player, member.id, seat.user_id or 0, at, op))
        expires = at + int(self.bot.config.invite_ttl)
        await self.host.place(record).send(
            f"🔁 {mention(member.id)}, {shown(interaction.user.display_name)} offers you {shown(seat.name)}'s seat "
            f"in {title(spec, record)}. The offer expires <t:{expires}:R>.",
            view=view,
            allowed_mentions=pings([member.id]),
        )
        await interaction.response.send_message("Offer posted in the game's thread.", ephemeral=True)

    async def answer_seat_offer(
        self,
        interaction: discord.Interaction,
        game_id: int,
        player: int,
        user_id: int,
        holder: int,
        at: int,
        *,
        take: bool,
    ) -> None:
        """The member offered a seat accepts (they play it and get its private view at once; its former
        player no longer can) or declines."""
        if interaction.user.id != user_id:
            raise GameError("This offer is for someone else.")
        record = await self.host.tables.get(game_id)
        if now_ts() > at + self.bot.config.invite_ttl:
            raise GameError("This offer has expired; ask for a new one.")
        if (record.seats[player].user_id or 0) != holder:
            raise GameError("This seat has changed hands since the offer was made.")
        if not take:
            await interaction.response.edit_message(
                content=f"🚫 {shown(interaction.user.display_name)} declined the seat.", view=None
            )
            return
        old = record.seats[player]
        await interaction.response.defer(ephemeral=True, thinking=True)
        record = await self.host.tables.substitute(game_id, player, user_id=user_id, name=interaction.user.display_name)
        spec = self.host.tables.spec(record)
        await self.host.mail.hand_over(spec, record, player, old)
        if interaction.message is not None:
            with contextlib.suppress(discord.HTTPException):
                await interaction.message.edit(view=None)
        await self.host.place(record).send(
            f"🔁 {shown(interaction.user.display_name)} takes over {shown(old.name)}'s seat.", allowed_mentions=NO_PINGS
        )
        payload = await self.host.mail.payload(spec, record, player)
        await interaction.followup.send(ephemeral=True, **payload)
        self.host.follow_up(spec, await self.host.publish(record, [], before=None))
