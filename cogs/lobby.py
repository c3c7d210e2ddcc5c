"""Getting a game together: challenges (named invitees accept or decline) and open tables (anyone joins).

Lobbies live in the store, their buttons are persistent, and their expiry timers are re-armed after a
restart, so an invitation behaves the same whether or not the bot restarted meanwhile.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from cogs.components import LobbyButton
from cogs.host import now_ts
from data.store import LobbyRecord
from games.core import IllegalAction
from games.registry import GAMES
from tables.service import GameError

if TYPE_CHECKING:
    from cogs.app import TableBot

log = logging.getLogger("tables.lobby")


def _options_text(options: dict[str, Any]) -> str:
    return ", ".join(f"{k}: {'on' if v is True else 'off' if v is False else v}" for k, v in options.items())


class Lobbies:
    """Challenge and open-table flows for every game kind."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        self._timers: dict[int, asyncio.Task[None]] = {}

    # ------------------------------------------------------------------ creating

    async def _check_host(self, interaction: discord.Interaction) -> None:
        waiting = await self.bot.store.open_lobbies(host_id=interaction.user.id)
        limit = self.bot.config.max_open_invitations
        if len(waiting) >= limit:
            raise GameError(
                f"You already have {len(waiting)} invitations or open tables waiting (the limit is {limit}). "
                "Wait for an answer or cancel one first."
            )

    def _check_options(self, kind: str, options: dict[str, Any]) -> None:
        try:
            GAMES[kind].game.resolve_options(options)
        except IllegalAction as exc:
            raise GameError(str(exc)) from exc

    def _check_seats(self, kind: str, seats: int) -> None:
        spec = GAMES[kind]
        low, high = spec.game.min_players, spec.game.max_players
        if not low <= seats <= high:
            raise GameError(f"{spec.title} takes {low}–{high} players; that would be {seats}.")

    async def challenge(
        self,
        interaction: discord.Interaction,
        kind: str,
        invitees: Sequence[discord.Member | discord.User],
        ai: int,
        options: dict[str, Any],
    ) -> None:
        """``/<game> new``: invite members (they must accept) and add AI seats."""
        spec = GAMES[kind]
        seen: set[int] = set()
        for member in invitees:
            if member.bot:
                raise GameError(f"{member.display_name} is a bot account; add AI seats with the `ai` option instead.")
            if member.id == interaction.user.id:
                raise GameError("You are already at the table: challenge other members.")
            if member.id in seen:
                raise GameError(f"You invited {member.display_name} twice.")
            seen.add(member.id)
        if ai < 0:
            raise GameError("The number of AI seats cannot be negative.")
        self._check_seats(kind, 1 + len(invitees) + ai)
        self._check_options(kind, options)
        await self._check_host(interaction)
        names = {str(interaction.user.id): interaction.user.display_name}
        names |= {str(m.id): m.display_name for m in invitees}
        if not invitees:
            # Only AI opponents: nobody needs to accept.
            await interaction.response.send_message(f"{spec.emoji} Starting **{spec.title}** against the AI…")
            await self.bot.host.start(
                kind=kind,
                channel=interaction.channel,  # type: ignore[arg-type]
                guild_id=interaction.guild_id,
                host_id=interaction.user.id,
                players=[(interaction.user.id, interaction.user.display_name)],
                ai=ai,
                options=options,
                origin=await interaction.original_response(),
            )
            return
        await self._post(interaction, kind, "challenge", [m.id for m in invitees], [], ai, options, names)

    async def open_table(self, interaction: discord.Interaction, kind: str, ai: int, options: dict[str, Any]) -> None:
        """``/<game> open``: a table anyone may join; the host starts it."""
        spec = GAMES[kind]
        if ai < 0:
            raise GameError("The number of AI seats cannot be negative.")
        if 1 + ai > spec.game.max_players:
            raise GameError(f"{spec.title} takes at most {spec.game.max_players} players, AI seats included.")
        self._check_options(kind, options)
        await self._check_host(interaction)
        names = {str(interaction.user.id): interaction.user.display_name}
        await self._post(interaction, kind, "open", [], [interaction.user.id], ai, options, names)

    async def _post(
        self,
        interaction: discord.Interaction,
        kind: str,
        mode: str,
        invitees: list[int],
        accepted: list[int],
        ai: int,
        options: dict[str, Any],
        names: dict[str, str],
    ) -> None:
        """Store a new lobby, post its message with buttons and arm its expiry timer."""
        lobby_id = await self.bot.store.create_lobby(
            kind=kind,
            mode=mode,
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id or 0,
            host_id=interaction.user.id,
            invitees=invitees,
            accepted=accepted,
            ai=ai,
            options=options,
            names=names,
            expires_at=now_ts() + self.bot.config.invite_ttl,
        )
        lobby = await self.bot.store.load_lobby(lobby_id)
        assert lobby is not None
        await interaction.response.send_message(self._text(lobby), view=self._view(lobby))
        lobby.message_id = (await interaction.original_response()).id
        await self.bot.store.update_lobby(lobby)
        self._arm(lobby)

    # ------------------------------------------------------------------ messages

    def _text(self, lobby: LobbyRecord, note: str = "") -> str:
        spec = GAMES[lobby.kind]
        host = f"<@{lobby.host_id}>"
        opts = _options_text(lobby.options)
        extras = []
        if lobby.ai:
            extras.append(f"{lobby.ai} AI seat{'s' if lobby.ai != 1 else ''}")
        if opts:
            extras.append(opts)
        detail = f" ({'; '.join(extras)})" if extras else ""
        expires = f"<t:{int(lobby.expires_at)}:R>"
        if lobby.mode == "challenge":
            rows = []
            for uid in lobby.invitees:
                mark = "✅" if uid in lobby.accepted else "⏳"
                rows.append(f"{mark} <@{uid}>")
            head = f"{spec.emoji} {host} challenges you to **{spec.title}**{detail}!"
            body = "\n".join(rows)
            tail = f"Everyone invited must accept; the invitation expires {expires}." if lobby.status == "open" else ""
        else:
            seated = [f"• <@{uid}>" for uid in lobby.accepted]
            need = max(spec.game.min_players - len(lobby.accepted) - lobby.ai, 0)
            head = f"{spec.emoji} {host} opened a **{spec.title}** table{detail}. Anyone may join!"
            body = "\n".join(seated)
            tail = (
                f"{len(lobby.accepted) + lobby.ai}/{spec.game.max_players} seats taken"
                + (f", {need} more needed to start" if need else ", ready to start")
                + f" · closes {expires}."
                if lobby.status == "open"
                else ""
            )
        return "\n".join(part for part in (head, body, tail, note) if part)

    def _view(self, lobby: LobbyRecord) -> discord.ui.View | None:
        if lobby.status != "open":
            return None
        view = discord.ui.View(timeout=None)
        ops = ("accept", "decline") if lobby.mode == "challenge" else ("join", "leave", "start", "cancel")
        for op in ops:
            view.add_item(LobbyButton(lobby.id, op))
        return view

    async def _refresh(
        self, lobby: LobbyRecord, note: str = "", interaction: discord.Interaction | None = None
    ) -> None:
        content, view = self._text(lobby, note), self._view(lobby)
        if interaction is not None and not interaction.response.is_done():
            await interaction.response.edit_message(content=content, view=view)
            return
        if lobby.message_id is None:
            return
        channel = self.bot.get_partial_messageable(lobby.channel_id, guild_id=lobby.guild_id)
        try:
            await channel.get_partial_message(lobby.message_id).edit(content=content, view=view)
        except discord.HTTPException as exc:
            log.info("Lobby %s: could not update its message: %s", lobby.id, exc)

    # ------------------------------------------------------------------ buttons

    async def on_button(self, interaction: discord.Interaction, lobby_id: int, op: str) -> None:
        lobby = await self.bot.store.load_lobby(lobby_id)
        if lobby is None:
            raise GameError("That invitation no longer exists.")
        if lobby.status != "open":
            raise GameError(f"This invitation is closed ({lobby.status}).")
        if lobby.expires_at <= now_ts():
            await self._close(lobby, "expired", "⌛ This invitation expired.")
            raise GameError("This invitation has expired.")
        user = interaction.user
        await getattr(self, f"_on_{op}")(interaction, lobby, user)

    async def _on_accept(self, interaction: discord.Interaction, lobby: LobbyRecord, user: discord.abc.User) -> None:
        if lobby.mode != "challenge" or user.id not in lobby.invitees:
            raise GameError("This invitation is not addressed to you.")
        if user.id in lobby.accepted:
            raise GameError("You have already accepted; waiting for the others.")
        lobby.accepted.append(user.id)
        lobby.names[str(user.id)] = getattr(user, "display_name", user.name)
        if not await self.bot.store.update_lobby(lobby):
            raise GameError("This invitation changed meanwhile; try again.")
        if set(lobby.invitees) <= set(lobby.accepted):
            await self._start(interaction, lobby)
        else:
            await self._refresh(lobby, interaction=interaction)

    async def _on_decline(self, interaction: discord.Interaction, lobby: LobbyRecord, user: discord.abc.User) -> None:
        if user.id == lobby.host_id:
            await self._close(lobby, "cancelled", f"🚫 <@{user.id}> withdrew the challenge.", interaction)
            return
        if user.id not in lobby.invitees:
            raise GameError("This invitation is not addressed to you.")
        await self._close(lobby, "declined", f"🚫 <@{user.id}> declined, so the challenge is off.", interaction)

    async def _on_join(self, interaction: discord.Interaction, lobby: LobbyRecord, user: discord.abc.User) -> None:
        spec = GAMES[lobby.kind]
        if user.bot:
            raise GameError("Bot accounts cannot join.")
        if user.id in lobby.accepted:
            raise GameError("You are already at this table.")
        if len(lobby.accepted) + lobby.ai >= spec.game.max_players:
            raise GameError("This table is full.")
        lobby.accepted.append(user.id)
        lobby.names[str(user.id)] = getattr(user, "display_name", user.name)
        if not await self.bot.store.update_lobby(lobby):
            raise GameError("This table changed meanwhile; try again.")
        await self._refresh(lobby, interaction=interaction)

    async def _on_leave(self, interaction: discord.Interaction, lobby: LobbyRecord, user: discord.abc.User) -> None:
        if user.id == lobby.host_id:
            raise GameError("You host this table: use Cancel to close it.")
        if user.id not in lobby.accepted:
            raise GameError("You are not at this table.")
        lobby.accepted.remove(user.id)
        if not await self.bot.store.update_lobby(lobby):
            raise GameError("This table changed meanwhile; try again.")
        await self._refresh(lobby, interaction=interaction)

    async def _on_start(self, interaction: discord.Interaction, lobby: LobbyRecord, user: discord.abc.User) -> None:
        spec = GAMES[lobby.kind]
        if user.id != lobby.host_id:
            raise GameError("Only the host can start the game.")
        seats = len(lobby.accepted) + lobby.ai
        if seats < spec.game.min_players:
            raise GameError(f"{spec.title} needs at least {spec.game.min_players} players; {seats} so far.")
        await self._start(interaction, lobby)

    async def _on_cancel(self, interaction: discord.Interaction, lobby: LobbyRecord, user: discord.abc.User) -> None:
        if user.id != lobby.host_id:
            raise GameError("Only the host can cancel this table.")
        await self._close(lobby, "cancelled", "🚫 The host closed this table.", interaction)

    # ------------------------------------------------------------------ outcomes

    async def _close(
        self, lobby: LobbyRecord, status: str, note: str, interaction: discord.Interaction | None = None
    ) -> None:
        lobby.status = status
        if await self.bot.store.update_lobby(lobby):
            self._disarm(lobby.id)
            await self._refresh(lobby, note, interaction)

    async def _start(self, interaction: discord.Interaction, lobby: LobbyRecord) -> None:
        lobby.status = "started"
        if not await self.bot.store.update_lobby(lobby):
            raise GameError("This game has already started.")
        self._disarm(lobby.id)
        await interaction.response.edit_message(
            content=self._text(lobby, "🎲 All aboard — the game begins!"), view=None
        )
        order = (
            [lobby.host_id, *[u for u in lobby.invitees if u != lobby.host_id]]
            if lobby.mode == "challenge"
            else lobby.accepted
        )
        players = [(uid, lobby.names.get(str(uid), f"Player {i + 1}")) for i, uid in enumerate(order)]
        channel = self.bot.get_channel(lobby.channel_id) or await self.bot.fetch_channel(lobby.channel_id)
        origin = None
        if lobby.message_id is not None and isinstance(channel, discord.TextChannel):
            origin = channel.get_partial_message(lobby.message_id)
        record = await self.bot.host.start(
            kind=lobby.kind,
            channel=channel,  # type: ignore[arg-type]
            guild_id=lobby.guild_id,
            host_id=lobby.host_id,
            players=players,
            ai=lobby.ai,
            options=lobby.options,
            origin=origin,  # type: ignore[arg-type]
        )
        lobby.game_id = record.id
        await self.bot.store.update_lobby(lobby, expect_status="started")

    # ------------------------------------------------------------------ expiry

    def _arm(self, lobby: LobbyRecord) -> None:
        self._disarm(lobby.id)
        self._timers[lobby.id] = asyncio.create_task(self._expire_later(lobby.id, lobby.expires_at))

    def _disarm(self, lobby_id: int) -> None:
        task = self._timers.pop(lobby_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def _expire_later(self, lobby_id: int, expires_at: float) -> None:
        await asyncio.sleep(max(0.0, expires_at - now_ts()))
        lobby = await self.bot.store.load_lobby(lobby_id)
        if lobby is not None and lobby.status == "open":
            await self._close(lobby, "expired", "⌛ This invitation expired without enough answers.")

    async def resume(self) -> None:
        """Re-arm the expiry timers of invitations still open after a restart."""
        await self.bot.wait_until_ready()
        for lobby in await self.bot.store.open_lobbies():
            self._arm(lobby)
