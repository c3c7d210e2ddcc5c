"""Getting a game together: challenges (named invitees accept or decline) and open tables (anyone joins).

Lobbies live in the store, their buttons are persistent, and their expiry timers are re-armed after a
restart, so an invitation behaves the same whether or not the bot restarted meanwhile.

Clicks at the same moment: every change (accept, decline, join, leave, start, cancel, expiry) is a
read-modify-write that the store applies only over the version it read; on a conflict the change is read
again, checked again against what the other click did, and retried. So no acceptance or seat is lost, and
only one change can take a lobby out of ``open``: at most one game starts from it. Whichever handler
edits the lobby's message last shows the stored state as it is then, not the state it changed.

Where a lobby goes: inside a running game's thread, ``new`` and ``open`` post the invitation (or start
the AI game) in the thread's parent channel, and tell the player so ephemerally; the new game then gets
a thread of its own there. A player who types ``/piratz new`` in a game's thread wants another game, so
it is set up where games start rather than refused, and the running game keeps its thread and commands.

Names are shown as text (never as mentions or markdown), and only an invitation pings anyone: its
invitees, when it is posted. Edits ping nobody.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import discord

from cogs.clocks import clock_name, now_ts
from cogs.components import LobbyButton
from cogs.messages import NO_PINGS, option_value, pings, shown
from data.store import GameRecord, LobbyRecord
from games.core import IllegalAction
from games.registry import GAMES
from tables.service import GameError

if TYPE_CHECKING:
    from cogs.app import TableBot

log = logging.getLogger("tables.lobby")

ATTEMPTS = 5
"""How often a lobby change is read, checked and written again when other changes keep overtaking it."""

Change = Callable[[LobbyRecord], None]
"""Checks a lobby and changes it in place, or raises :class:`GameError`; run again after a conflict."""


class _Expired(Exception):
    """The lobby's time was up when someone clicked."""


def _options_text(options: dict[str, Any]) -> str:
    return ", ".join(f"{k}: {option_value(v)}" for k, v in options.items())


def _name(lobby: LobbyRecord, user_id: int | None) -> str:
    return shown(lobby.names.get(str(user_id), "someone"))


def _what(lobby: LobbyRecord) -> str:
    return "invitation" if lobby.mode == "challenge" else "table"


def _require_open(lobby: LobbyRecord) -> None:
    if lobby.status == "started":
        raise GameError("Too late: this game has already started.")
    if lobby.status != "open":
        raise GameError(f"This {_what(lobby)} is closed ({lobby.status}).")


def _expire(lobby: LobbyRecord) -> None:
    _require_open(lobby)
    lobby.status = "expired"


def _outcome(lobby: LobbyRecord) -> str:
    """The closing line of a lobby that is no longer open."""
    if lobby.status == "started":
        return "🎲 All aboard — the game begins!"
    if lobby.status == "declined":
        return f"🚫 {_name(lobby, lobby.closed_by)} declined, so the challenge is off."
    if lobby.status == "cancelled":
        if lobby.mode == "challenge":
            return f"🚫 {_name(lobby, lobby.host_id)} withdrew the challenge."
        return "🚫 The host closed this table."
    if lobby.status == "expired":
        if lobby.mode == "challenge":
            return "⌛ This invitation expired without enough answers."
        return "⌛ This table expired before the game started."
    return ""


class Lobbies:
    """Challenge and open-table flows for every game kind."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        self._timers: dict[int, asyncio.Task[None]] = {}
        self._showing: dict[int, asyncio.Lock] = {}

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

    async def _place(self, interaction: discord.Interaction) -> discord.TextChannel | None:
        """The parent channel when the command was used in a running game's thread (a new game must
        never share that thread), else ``None``: the lobby is posted where the command was used."""
        here = interaction.channel_id
        parent_id = getattr(interaction.channel, "parent_id", None)
        if here is None or parent_id is None or not await self.bot.store.games_in_place(here):
            return None
        channel = self.bot.get_channel(parent_id) or await self.bot.fetch_channel(parent_id)
        if not isinstance(channel, discord.TextChannel):
            raise GameError("This thread belongs to a game in progress: start a new game from a text channel.")
        return channel

    async def challenge(
        self,
        interaction: discord.Interaction,
        kind: str,
        invitees: Sequence[discord.Member | discord.User],
        ai: int,
        options: dict[str, Any],
        clock: int = 0,
    ) -> None:
        """``/<game> new``: invite members (they must accept) and add AI seats, with a turn clock of
        ``clock`` seconds per decision. In a running game's thread
        the invitation goes to the parent channel (see the module's docstring)."""
        spec = GAMES[kind]
        seen: set[int] = set()
        for member in invitees:
            if member.bot:
                raise GameError(
                    f"{shown(member.display_name)} is a bot account; add AI seats with the `ai` option instead."
                )
            if member.id == interaction.user.id:
                raise GameError("You are already at the table: challenge other members.")
            if member.id in seen:
                raise GameError(f"You invited {shown(member.display_name)} twice.")
            seen.add(member.id)
        if ai < 0:
            raise GameError("The number of AI seats cannot be negative.")
        self._check_seats(kind, 1 + len(invitees) + ai)
        self._check_options(kind, options)
        await self._check_host(interaction)
        names = {str(interaction.user.id): interaction.user.display_name}
        names |= {str(m.id): m.display_name for m in invitees}
        if invitees:
            await self._post(interaction, kind, "challenge", [m.id for m in invitees], [], ai, options, names, clock)
            return
        # Only AI opponents: nobody needs to accept.
        against = "against the AI" if ai else "solo"
        text = f"{spec.emoji} Starting **{spec.title}** {against}…"
        parent = await self._place(interaction)
        if parent is None:
            await interaction.response.send_message(text, allowed_mentions=NO_PINGS)
            channel, origin = interaction.channel, await interaction.original_response()
        else:
            origin = await parent.send(text, allowed_mentions=NO_PINGS)
            await interaction.response.send_message(self._moved_note(parent.id, "game starts"), ephemeral=True)
            channel = parent
        await self.bot.host.start(
            kind=kind,
            channel=channel,  # type: ignore[arg-type]
            guild_id=interaction.guild_id,
            host_id=interaction.user.id,
            players=[(interaction.user.id, interaction.user.display_name)],
            ai=ai,
            options=options,
            origin=origin,
            clock=clock,
        )

    async def open_table(
        self, interaction: discord.Interaction, kind: str, ai: int, options: dict[str, Any], clock: int = 0
    ) -> None:
        """``/<game> open``: a table anyone may join; the host starts it. In a running game's thread the
        table is posted in the parent channel (see the module's docstring)."""
        spec = GAMES[kind]
        if ai < 0:
            raise GameError("The number of AI seats cannot be negative.")
        if 1 + ai > spec.game.max_players:
            raise GameError(f"{spec.title} takes at most {spec.game.max_players} players, AI seats included.")
        self._check_options(kind, options)
        await self._check_host(interaction)
        names = {str(interaction.user.id): interaction.user.display_name}
        await self._post(interaction, kind, "open", [], [interaction.user.id], ai, options, names, clock)

    @staticmethod
    def _moved_note(channel_id: int, what: str) -> str:
        return (
            f"This thread belongs to a game in progress, so your {what} in <#{channel_id}>, "
            "where the new game gets a thread of its own."
        )

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
        clock: int = 0,
    ) -> None:
        """Store a new lobby, arm its expiry timer and post its message with buttons (pinging only the
        invitees)."""
        parent = await self._place(interaction)
        channel_id = parent.id if parent is not None else interaction.channel_id or 0
        lobby_id = await self.bot.store.create_lobby(
            kind=kind,
            mode=mode,
            guild_id=interaction.guild_id,
            channel_id=channel_id,
            host_id=interaction.user.id,
            invitees=invitees,
            accepted=accepted,
            ai=ai,
            options=options,
            clock=clock,
            names=names,
            expires_at=now_ts() + self.bot.config.invite_ttl,
        )
        lobby = await self.bot.store.load_lobby(lobby_id)
        assert lobby is not None
        # Armed first: a lobby whose message could not be posted still expires, instead of counting
        # against its host's limit for good.
        self._arm(lobby)
        content, view, mentions = self._text(lobby), self._view(lobby), pings(invitees)
        if parent is None:
            await interaction.response.send_message(content, view=view, allowed_mentions=mentions)
            message = await interaction.original_response()
        else:
            message = await parent.send(content, view=view, allowed_mentions=mentions)
            what = "invitation is posted" if mode == "challenge" else "table is open"
            await interaction.response.send_message(self._moved_note(channel_id, what), ephemeral=True)
        await self.bot.store.set_lobby_message(lobby_id, message.id)

    # ------------------------------------------------------------------ messages

    def _text(self, lobby: LobbyRecord) -> str:
        spec = GAMES[lobby.kind]
        host = _name(lobby, lobby.host_id)
        opts = _options_text(lobby.options)
        extras = []
        if lobby.ai:
            extras.append(f"{lobby.ai} AI seat{'s' if lobby.ai != 1 else ''}")
        if opts:
            extras.append(opts)
        extras.append(f"turn clock: {clock_name(lobby.clock)}")
        detail = f" ({'; '.join(extras)})"
        expires = f"<t:{int(lobby.expires_at)}:R>"
        is_open = lobby.status == "open"
        if lobby.mode == "challenge":
            invited = " ".join(f"<@{uid}>" for uid in lobby.invitees)
            head = f"{spec.emoji} **{host}** challenges {invited} to **{spec.title}**{detail}!"
            if lobby.rematch_of is not None:
                head = f"🔁 **{host}** asks {invited} for a rematch of {spec.title} #{lobby.rematch_of}{detail}!"
            rows = [f"{'✅' if uid in lobby.accepted else '⏳'} {_name(lobby, uid)}" for uid in lobby.invitees]
            tail = f"Everyone invited must accept; the invitation expires {expires}." if is_open else ""
        else:
            need = max(spec.game.min_players - len(lobby.accepted) - lobby.ai, 0)
            head = f"{spec.emoji} **{host}** opened a **{spec.title}** table{detail}. Anyone may join!"
            rows = [f"• {_name(lobby, uid)}" for uid in lobby.accepted]
            tail = (
                f"{len(lobby.accepted) + lobby.ai}/{spec.game.max_players} seats taken"
                + (f", {need} more needed to start" if need else ", ready to start")
                + f" · closes {expires}."
                if is_open
                else ""
            )
        return "\n".join(part for part in (head, *rows, tail, _outcome(lobby)) if part)

    def _view(self, lobby: LobbyRecord) -> discord.ui.View | None:
        if lobby.status != "open":
            return None
        view = discord.ui.View(timeout=None)
        ops = ("accept", "decline") if lobby.mode == "challenge" else ("join", "leave", "start", "cancel")
        for op in ops:
            view.add_item(LobbyButton(lobby.id, op))
        return view

    async def _show(self, lobby_id: int, interaction: discord.Interaction | None = None) -> None:
        """Edit the lobby's message (through the interaction's answer when there is one) to show the
        lobby as stored now. One edit at a time per lobby, each reading the store afresh: two handlers
        that finish in either order leave the newest state on the message, never an older one."""
        lock = self._showing.setdefault(lobby_id, asyncio.Lock())
        async with lock:
            lobby = await self.bot.store.load_lobby(lobby_id)
            assert lobby is not None
            content, view = self._text(lobby), self._view(lobby)
            if lobby.status != "open":
                # Its text is final now, so later edits need no order among themselves.
                self._showing.pop(lobby_id, None)
            if interaction is not None and not interaction.response.is_done():
                await interaction.response.edit_message(content=content, view=view, allowed_mentions=NO_PINGS)
                return
            if lobby.message_id is None:
                return
            channel = self.bot.get_partial_messageable(lobby.channel_id, guild_id=lobby.guild_id)
            try:
                await channel.get_partial_message(lobby.message_id).edit(
                    content=content, view=view, allowed_mentions=NO_PINGS
                )
            except discord.HTTPException as exc:
                log.info("Lobby %s: could not update its message: %s", lobby.id, exc)

    # ------------------------------------------------------------------ changes

    async def _change(self, lobby_id: int, change: Change) -> LobbyRecord:
        """Apply ``change`` to the stored lobby and write it, unless another write came first: then read
        the lobby again and re-apply ``change`` to that (it checks again, and may refuse now)."""
        for _ in range(ATTEMPTS):
            lobby = await self.bot.store.load_lobby(lobby_id)
            if lobby is None:
                raise GameError("That invitation no longer exists.")
            change(lobby)
            if await self.bot.store.update_lobby(lobby):
                if lobby.status != "open":
                    self._disarm(lobby_id)
                return lobby
        raise GameError("Many people are clicking this right now; try again in a moment.")

    async def on_button(self, interaction: discord.Interaction, lobby_id: int, op: str) -> None:
        """A lobby button: apply its change for the clicker, then show the result or start the game."""
        act: Callable[[LobbyRecord, discord.abc.User], None] = getattr(self, f"_on_{op}")
        user = interaction.user

        def change(lobby: LobbyRecord) -> None:
            _require_open(lobby)
            if lobby.expires_at <= now_ts():
                raise _Expired
            act(lobby, user)

        try:
            lobby = await self._change(lobby_id, change)
        except _Expired:
            await self._expire_now(lobby_id)
            raise GameError("This invitation has expired.") from None
        if lobby.status == "started":
            await self._start(interaction, lobby)
        else:
            await self._show(lobby_id, interaction)

    @staticmethod
    def _on_accept(lobby: LobbyRecord, user: discord.abc.User) -> None:
        if lobby.mode != "challenge" or user.id not in lobby.invitees:
            raise GameError("This invitation is not addressed to you.")
        if user.id in lobby.accepted:
            raise GameError("You have already accepted; waiting for the others.")
        lobby.accepted.append(user.id)
        lobby.names[str(user.id)] = getattr(user, "display_name", user.name)
        if set(lobby.invitees) <= set(lobby.accepted):
            lobby.status = "started"

    @staticmethod
    def _on_decline(lobby: LobbyRecord, user: discord.abc.User) -> None:
        if user.id == lobby.host_id:
            lobby.status = "cancelled"
        elif user.id in lobby.invitees:
            lobby.status = "declined"
        else:
            raise GameError("This invitation is not addressed to you.")
        lobby.closed_by = user.id

    @staticmethod
    def _on_join(lobby: LobbyRecord, user: discord.abc.User) -> None:
        if user.bot:
            raise GameError("Bot accounts cannot join.")
        if user.id in lobby.accepted:
            raise GameError("You are already at this table.")
        if len(lobby.accepted) + lobby.ai >= GAMES[lobby.kind].game.max_players:
            raise GameError("This table is full.")
        lobby.accepted.append(user.id)
        lobby.names[str(user.id)] = getattr(user, "display_name", user.name)

    @staticmethod
    def _on_leave(lobby: LobbyRecord, user: discord.abc.User) -> None:
        if user.id == lobby.host_id:
            raise GameError("You host this table: use Cancel to close it.")
        if user.id not in lobby.accepted:
            raise GameError("You are not at this table.")
        lobby.accepted.remove(user.id)

    @staticmethod
    def _on_start(lobby: LobbyRecord, user: discord.abc.User) -> None:
        spec = GAMES[lobby.kind]
        if user.id != lobby.host_id:
            raise GameError("Only the host can start the game.")
        seats = len(lobby.accepted) + lobby.ai
        if seats < spec.game.min_players:
            raise GameError(f"{spec.title} needs at least {spec.game.min_players} players; {seats} so far.")
        lobby.status = "started"

    @staticmethod
    def _on_cancel(lobby: LobbyRecord, user: discord.abc.User) -> None:
        if user.id != lobby.host_id:
            raise GameError("Only the host can cancel this table.")
        lobby.status = "cancelled"
        lobby.closed_by = user.id

    # ------------------------------------------------------------------ starting

    async def rematch(self, interaction: discord.Interaction, game_id: int) -> None:
        """**Rematch** on a finished game: the same players (members and AI seats) and options, a new seed.
        The first member to click proposes it (an invitation to the others, in the channel where the game
        began); each member's click accepts; the game starts in a new thread when all have, and the
        proposal expires like an invitation."""
        record = await self.bot.tables.get(game_id)
        spec = GAMES[record.kind]
        members = [s.user_id for s in record.seats if s.user_id is not None]
        user = interaction.user
        if user.id not in members:
            raise GameError(f"Only the players of {spec.title} #{game_id} can ask for its rematch.")
        if record.status == "active":
            raise GameError("This game is still being played.")
        lobby = await self.bot.store.rematch_lobby(game_id)
        if lobby is not None and lobby.status == "started":
            raise GameError(f"The rematch has started already: <#{lobby.channel_id}>.")
        if lobby is None or lobby.status != "open":
            await self._propose_rematch(interaction, record, members)
            return
        if user.id == lobby.host_id or user.id in lobby.accepted:
            raise GameError("You are in; waiting for the others to click **Rematch** (or Accept).")

        def accept(current: LobbyRecord) -> None:
            _require_open(current)
            self._on_accept(current, user)

        lobby = await self._change(lobby.id, accept)
        if lobby.status == "started":
            await interaction.response.send_message("🎲 Everyone is in: the rematch begins!", ephemeral=True)
            await self._start(None, lobby)
        else:
            await interaction.response.send_message("✅ You are in for the rematch.", ephemeral=True)
            await self._show(lobby.id)

    async def _propose_rematch(self, interaction: discord.Interaction, record: GameRecord, members: list[int]) -> None:
        user = interaction.user
        others = [u for u in members if u != user.id]
        names = {str(s.user_id): s.name for s in record.seats if s.user_id is not None}
        names[str(user.id)] = getattr(user, "display_name", user.name)
        ai = sum(s.user_id is None for s in record.seats)
        lobby_id = await self.bot.store.create_lobby(
            kind=record.kind,
            mode="challenge",
            guild_id=record.guild_id,
            channel_id=record.channel_id,
            host_id=user.id,
            invitees=others,
            accepted=[],
            ai=ai,
            options=record.options,
            names=names,
            expires_at=now_ts() + self.bot.config.invite_ttl,
            clock=record.clock,
            rematch_of=record.id,
        )
        lobby = await self.bot.store.load_lobby(lobby_id)
        assert lobby is not None
        if not others:
            lobby.status = "started"
            if not await self.bot.store.update_lobby(lobby):
                raise GameError("The rematch has started already.")
            await interaction.response.send_message("🎲 The rematch begins!", ephemeral=True)
            await self._start(None, lobby)
            return
        self._arm(lobby)
        channel = self.bot.get_partial_messageable(record.channel_id, guild_id=record.guild_id)
        message = await channel.send(
            self._text(lobby),
            view=self._view(lobby),
            allowed_mentions=pings(others),
        )
        await self.bot.store.set_lobby_message(lobby_id, message.id)
        await interaction.response.send_message(
            f"Rematch proposed in <#{record.channel_id}>: it starts when everyone has clicked **Rematch** or Accept.",
            ephemeral=True,
        )

    async def _start(self, interaction: discord.Interaction | None, lobby: LobbyRecord) -> None:
        """Start the game of a lobby this change has just marked ``started`` (``interaction``: the click
        that did it, whose message is the lobby's; ``None`` when the lobby's message is elsewhere)."""
        await self._show(lobby.id, interaction)
        order = (
            [lobby.host_id, *[u for u in lobby.invitees if u != lobby.host_id]]
            if lobby.mode == "challenge"
            else lobby.accepted
        )
        players = [(uid, lobby.names.get(str(uid), f"Player {i + 1}")) for i, uid in enumerate(order)]
        channel = self.bot.get_channel(lobby.channel_id) or await self.bot.fetch_channel(lobby.channel_id)
        origin = None
        if isinstance(channel, discord.Thread) and await self.bot.store.games_in_place(channel.id):
            # Posted in a plain thread where another game has started meanwhile: this one gets a thread
            # of its own in the parent channel instead.
            channel = channel.parent or await self.bot.fetch_channel(channel.parent_id)
        elif lobby.message_id is not None and isinstance(channel, discord.TextChannel):
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
            clock=lobby.clock,
        )
        lobby.game_id = record.id
        # Nothing else writes a started lobby, so this cannot conflict.
        if not await self.bot.store.update_lobby(lobby):
            log.warning("Lobby %s: could not record its game %s", lobby.id, record.id)

    # ------------------------------------------------------------------ expiry

    def _arm(self, lobby: LobbyRecord) -> None:
        self._disarm(lobby.id)
        self._timers[lobby.id] = asyncio.create_task(self._expire_later(lobby.id, lobby.expires_at))

    def _disarm(self, lobby_id: int) -> None:
        task = self._timers.pop(lobby_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def _expire_now(self, lobby_id: int) -> None:
        """Close a lobby whose time is up, unless it started or closed meanwhile."""
        try:
            await self._change(lobby_id, _expire)
        except GameError:
            return
        await self._show(lobby_id)

    async def _expire_later(self, lobby_id: int, expires_at: float) -> None:
        await asyncio.sleep(max(0.0, expires_at - now_ts()))
        await self._expire_now(lobby_id)

    async def resume(self) -> None:
        """Re-arm the expiry timers of invitations still open after a restart."""
        await self.bot.wait_until_ready()
        for lobby in await self.bot.store.open_lobbies():
            self._arm(lobby)
