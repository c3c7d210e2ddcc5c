"""Delivering the outbox to Discord: :class:`Courier` is the delivery loop's :class:`~tables.sending.Sender`,
and :class:`Answer` delivers a row as the answer of the interaction that caused it.

Each message is drawn here (its images, on the bounded render pool: boards a player waits for before
private views and final sheets), with its log file and components, and sent with ``allowed_mentions``
naming exactly the members it notifies. Discord's refusals become :class:`~tables.sending.Transient`
(5xx, 429 with its retry-after, time-outs: tried again) or :class:`~tables.sending.Permanent` (closed
DMs, a deleted channel or message, no permission: handled once).
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

import aiohttp
import cachetools
import discord

from cogs.components import view_of
from games.i18n import T, localize
from games.registry import GAMES
from rendering import pool as render_pool
from rendering.records import render_standings
from tables.compose import Tables
from tables.outbox import Message
from tables.sending import ClosedDms, EditsUsedUp, Gone, Permanent, Transient

CLOSED_DMS = 50007
"""Discord's error code for "Cannot send messages to this user"."""
OLD_EDITS_USED_UP = 30046
"""Discord's "Maximum number of edits to messages older than 1 hour reached" (answered with a 429)."""
UNKNOWN = (10003, 10008)
"""Unknown channel, unknown message."""

CLICKS: cachetools.TTLCache[int, tuple[discord.Interaction, bool]] = cachetools.TTLCache(maxsize=4096, ttl=14 * 60)
"""Per message of the bot's, the latest interaction whose token edits it, for 15 minutes and outside Discord's
global limit: a click on it, answered (its original response is the message: ``False``), or the interaction
it was posted as a follow-up of (``True``). A board's later edits go that way (a picker's move, a typed move,
a closed turn's buttons going)."""

PLACES: cachetools.TTLCache[int, discord.Interaction] = cachetools.TTLCache(maxsize=4096, ttl=14 * 60)
"""Per channel or thread, the latest public interaction there (a click on a board, a game's command), answered:
its follow-ups post there for everyone to see, outside Discord's global limit (a new board, the final
message). One answered by "thinking" is not kept: its first follow-up would finish that answer."""

FOLLOWED = (
    discord.InteractionResponseType.channel_message,
    discord.InteractionResponseType.deferred_message_update,
    discord.InteractionResponseType.message_update,
)
"""Answers after which an interaction's follow-up is a new message of its own."""
MARGIN = timedelta(seconds=30)
"""An interaction's token is not used this close to its end (a slow upload would come too late)."""


def remember(interaction: discord.Interaction) -> None:
    """Keep an answered interaction for what its token can still do: edit the message clicked, post follow-ups."""
    if not interaction.response.is_done() or interaction.client is None:
        return
    message, command = interaction.message, interaction.command
    if message is not None:  # a click: on a board (public), or on a picker (only its member sees it)
        public = not message.flags.ephemeral
        if public:
            CLICKS[message.id] = (interaction, False)
    else:  # a game's own command (its header names the game: "Ben used /sewerpirats"), not /games help
        public = command is not None and command.qualified_name.split()[0] in GAMES
    if public and interaction.guild_id and interaction.channel_id and interaction.response.type in FOLLOWED:
        PLACES[interaction.channel_id] = interaction


def lasting(interaction: discord.Interaction, bot: discord.Client) -> bool:
    """Whether an interaction of ``bot``'s can still be used (its token has more than :data:`MARGIN` left)."""
    return interaction.client is bot and discord.utils.utcnow() < interaction.expires_at - MARGIN


def rewind(kwargs: dict[str, Any]) -> None:
    """Rewind a message's files after a try that read them, for the next (the bot's own request)."""
    for file in [*kwargs.get("files", []), *kwargs.get("attachments", [])]:
        if isinstance(file, discord.File):
            file.reset()


def notifying(message: Message) -> discord.AllowedMentions:
    """Allowed mentions that reach exactly the members a message notifies (never @everyone or a role)."""
    users = [discord.Object(u) for u in message.notifies]
    return discord.AllowedMentions(everyone=False, roles=False, users=users, replied_user=False)


@asynccontextmanager
async def refusals() -> AsyncIterator[None]:
    """Discord's refusals as the delivery loop's failures."""
    try:
        yield
    except discord.HTTPException as exc:
        if exc.code == OLD_EDITS_USED_UP:
            raise EditsUsedUp(exc.text or str(exc), exc.code) from exc
        if exc.status == 429 or exc.status >= 500:
            after = exc.response.headers.get("Retry-After") if exc.response is not None else None
            raise Transient(f"{exc.status} {exc.text or exc}", float(after) if after else None) from exc
        if exc.code == CLOSED_DMS:
            raise ClosedDms(exc.text or str(exc), exc.code) from exc
        if exc.status == 404 or exc.code in UNKNOWN:
            raise Gone(exc.text or str(exc), exc.code) from exc
        raise Permanent(f"{exc.status} {exc.text or exc}", exc.code) from exc
    except (TimeoutError, aiohttp.ClientError) as exc:
        raise Transient(f"{type(exc).__name__}: {exc}") from exc


class Courier:
    """The delivery loop's sender for one bot."""

    def __init__(self, bot: discord.Client, tables: Tables) -> None:
        self.bot = bot
        self.tables = tables

    async def files(self, message: Message) -> list[discord.File]:
        """A message's images, drawn, and its log."""
        files = []
        for image in message.images:
            if image.render == "standings":
                png = await render_pool.run_later(render_standings, image.view, image.names, image.locale)
                files.append(discord.File(io.BytesIO(png), filename=image.file, description=image.alt))
                continue
            spec = GAMES[image.kind]
            render = {"board": spec.render_board, "final": spec.render_final}.get(image.render) or spec.render_hand
            assert render is not None, f"{image.kind} draws no {image.render} image"
            draw = render_pool.run if image.render == "board" else render_pool.run_later
            png = await draw(render, image.view, image.names, image.locale)
            files.append(discord.File(io.BytesIO(png), filename=image.file, description=image.alt))
        if message.log is not None:
            record = await self.tables.cache.get(message.log)
            text = await self.tables.reads.log_text(record)
            files.append(
                discord.File(
                    io.BytesIO(text.encode()),
                    filename=f"{record.kind}-{record.id}-log.txt",
                    description=localize(
                        T(
                            "The action log of {game} #{number}: check it with python bot.py verify",
                            game=GAMES[record.kind].title,
                            number=record.id,
                        ),
                        message.locale,
                    ),
                )
            )
        return files

    async def kwargs(self, message: Message) -> dict[str, Any]:
        """``send`` arguments of a message."""
        out: dict[str, Any] = {"content": message.content or None, "allowed_mentions": notifying(message)}
        files = await self.files(message)
        if files:
            out["files"] = files
        if message.components:
            out["view"] = view_of(message.components, message.locale)
        return out

    def _place(self, channel_id: int, guild_id: int | None = None) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(channel_id, guild_id=guild_id)

    async def post(
        self, channel_id: int, guild_id: int | None, message: Message, *, nonce: str, made_since: float | None = None
    ) -> int:
        kwargs = await self.kwargs(message)
        if made_since is not None and (made := await self._made_message(channel_id, kwargs, made_since)) is not None:
            return made
        followed = await self._follow_up(channel_id, kwargs)
        if followed is not None:
            return followed
        async with refusals():  # discord.py sends a nonce with enforce_nonce: Discord creates the message once
            return (await self._place(channel_id, guild_id).send(**kwargs, nonce=nonce)).id

    async def _follow_up(self, channel_id: int, kwargs: dict[str, Any]) -> int | None:
        """Post as a follow-up of the latest public interaction in the channel (:data:`PLACES`) while its token
        lasts: the message's id, or ``None`` when there is none or its token no longer works (the bot posts
        it itself). A follow-up whose answer was lost is looked for before the next try (``made_since``)."""
        interaction = PLACES.get(channel_id)
        if interaction is None or not lasting(interaction, self.bot):
            return None
        try:
            async with refusals():
                sent = await interaction.followup.send(**kwargs, wait=True)
        except Permanent:
            PLACES.pop(channel_id, None)
            rewind(kwargs)
            return None
        CLICKS[sent.id] = (interaction, True)
        return sent.id

    async def _made_message(self, channel_id: int, kwargs: dict[str, Any], since: float) -> int | None:
        """The message the bot posted in the channel since ``since`` with this text and these files (a try whose
        answer was lost made it), if there is one."""
        content = (kwargs.get("content") or "").strip()
        files = sorted(file.filename for file in kwargs.get("files", []))
        after = datetime.fromtimestamp(since - 1, UTC)  # Discord's clock and the row's may differ a little
        async with refusals():
            async for made in self._place(channel_id).history(after=after, limit=50):
                same = made.content.strip() == content and sorted(a.filename for a in made.attachments) == files
                if made.author.id == self.bot.user.id and same:
                    return made.id
        return None

    async def edit(self, channel_id: int, message_id: int, message: Message, *, keep_images: bool = False) -> None:
        kwargs = await self.edited(message, keep_images=keep_images)
        if not await self._through_click(message_id, kwargs):
            async with refusals():
                await self._place(channel_id).get_partial_message(message_id).edit(**kwargs)

    async def _through_click(self, message_id: int, kwargs: dict[str, Any]) -> bool:
        """Edit a message through the latest interaction whose token edits it, while it lasts (:data:`CLICKS`);
        whether it was (an edit is the same either way: one that fails so is made by the bot's own request)."""
        click, followed = CLICKS.get(message_id, (None, False))
        if click is None or not lasting(click, self.bot):
            return False
        try:
            async with refusals():
                if followed:
                    await click.followup.edit_message(message_id, **kwargs)
                else:
                    await click.edit_original_response(**kwargs)
        except (Transient, Permanent):
            CLICKS.pop(message_id, None)
            rewind(kwargs)
            return False
        return True

    async def edited(self, message: Message, *, keep_images: bool) -> dict[str, Any]:
        """``edit`` arguments of a message: its components in place of the old ones (none: they go), its
        images in place of the old attachments unless they stay (``keep_images``)."""
        kwargs = await self.kwargs(message)
        kwargs.setdefault("view", None)
        files = kwargs.pop("files", [])
        if not keep_images:
            kwargs["attachments"] = files
        return kwargs

    async def _dm(self, user_id: int) -> discord.DMChannel:
        # create_dm needs only the id and is cached, so no user lookup (the bot has no members intent).
        async with refusals():
            return await self.bot.create_dm(discord.Object(id=user_id))

    async def direct(self, user_id: int, message: Message, *, nonce: str) -> int:
        kwargs = await self.kwargs(message)
        channel = await self._dm(user_id)
        async with refusals():
            return (await channel.send(**kwargs, nonce=nonce)).id

    async def edit_direct(self, user_id: int, message_id: int, message: Message) -> None:
        kwargs = await self.kwargs(message)
        kwargs["attachments"] = kwargs.pop("files", [])
        channel = await self._dm(user_id)
        async with refusals():
            await channel.get_partial_message(message_id).edit(**kwargs)

    async def thread(
        self, channel_id: int, name: str, *, message_id: int | None, shared: bool, made_since: float | None
    ) -> int | None:
        async with refusals():
            channel = self.bot.get_channel(channel_id) or await self.bot.fetch_channel(channel_id)
            if isinstance(channel, discord.Thread):
                if not shared:
                    return None  # a thread of its own already: the game is played in it
                channel = channel.parent or await self.bot.fetch_channel(channel.parent_id)
                message_id = None
            if made_since is not None and isinstance(channel, discord.TextChannel):
                made = await self._made(channel, name, made_since)
                if made is not None:
                    return made
            try:
                if message_id is not None:
                    origin = channel.get_partial_message(message_id)  # type: ignore[union-attr]
                    return (await origin.create_thread(name=name, auto_archive_duration=1440)).id
                if isinstance(channel, discord.TextChannel):
                    thread = await channel.create_thread(
                        name=name, type=discord.ChannelType.public_thread, auto_archive_duration=1440
                    )
                    return thread.id
            except discord.Forbidden:
                pass  # no permission to open threads: the game is played in the channel
        return None

    async def _made(self, channel: discord.TextChannel, name: str, since: float) -> int | None:
        """The thread named ``name`` the bot opened in ``channel`` since ``since`` (a try whose answer was lost
        made it), if there is one."""
        for thread in await channel.guild.active_threads():
            made = discord.utils.snowflake_time(thread.id).timestamp()
            ours = thread.parent_id == channel.id and thread.name == name and thread.owner_id == self.bot.user.id
            if ours and made >= since - 1:  # Discord's clock and the row's may differ a little
                return thread.id
        return None

    async def archive(self, thread_id: int) -> None:
        async with refusals():
            thread = self.bot.get_channel(thread_id) or await self.bot.fetch_channel(thread_id)
            if isinstance(thread, discord.Thread):
                await thread.edit(archived=True, locked=True)

    async def strip(self, channel_id: int, message_id: int) -> None:
        if not await self._through_click(message_id, {"view": None}):
            async with refusals():
                await self._place(channel_id).get_partial_message(message_id).edit(view=None)

    async def scheduled_event(
        self, guild_id: int, name: str, start: float, end: float, *, channel_id: int, description: str, again: bool
    ) -> int:
        async with refusals():
            guild = self.bot.get_guild(guild_id) or await self.bot.fetch_guild(guild_id)
            begins = datetime.fromtimestamp(start, UTC)
            if again:
                for event in await guild.fetch_scheduled_events():
                    if event.name == name and event.start_time == begins and event.creator_id == self.bot.user.id:
                        return event.id
            event = await guild.create_scheduled_event(
                name=name,
                start_time=begins,
                end_time=datetime.fromtimestamp(end, UTC),
                entity_type=discord.EntityType.external,
                privacy_level=discord.PrivacyLevel.guild_only,
                location=f"<#{channel_id}>",
                description=description,
            )
            return event.id

    async def event_status(self, guild_id: int, event_id: int, status: str) -> None:
        async with refusals():
            guild = self.bot.get_guild(guild_id) or await self.bot.fetch_guild(guild_id)
            event = await guild.fetch_scheduled_event(event_id)
            scheduled = event.status is discord.EventStatus.scheduled
            if status == "cancelled" and scheduled:
                await event.cancel()
            elif scheduled:  # an external event is started by its maker, and only one started is ended
                event = await event.start()
            if status != "active" and event.status is discord.EventStatus.active:
                await event.end()


class Answer(Courier):
    """Delivers a row as the answer of the interaction that caused it: a post as its (public) response, an
    edit of the message whose button was clicked as its update. Anything else is left to the loop."""

    def __init__(self, bot: discord.Client, tables: Tables, interaction: discord.Interaction) -> None:
        super().__init__(bot, tables)
        self.interaction = interaction

    async def post(
        self, channel_id: int, guild_id: int | None, message: Message, *, nonce: str, made_since: float | None = None
    ) -> int:
        if self.interaction.response.is_done() or channel_id != self.interaction.channel_id or made_since:
            raise Transient("not this interaction's answer")
        kwargs = await self.kwargs(message)
        try:
            async with refusals():
                await self.interaction.response.send_message(**kwargs)
        except Transient:
            # An answer has no nonce: one whose answer was lost may still have been made; look before the loop
            # posts it again.
            with contextlib.suppress(Transient, Permanent):
                async with refusals():
                    return (await self.interaction.original_response()).id
            raise
        async with refusals():
            return (await self.interaction.original_response()).id

    async def edit(self, channel_id: int, message_id: int, message: Message, *, keep_images: bool = False) -> None:
        clicked = self.interaction.message
        if self.interaction.response.is_done() or clicked is None or clicked.id != message_id:
            raise Transient("not this interaction's answer")
        kwargs = await self.edited(message, keep_images=keep_images)
        async with refusals():
            await self.interaction.response.edit_message(**kwargs)
