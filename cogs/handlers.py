"""What the bot's interactions do: each turns an interaction into a call of the table service and answers
it with what the service says. Commands (:mod:`cogs.base`, :mod:`cogs.games`) and persistent components
(:mod:`cogs.components`, through ``bot.handlers``) share them."""

from __future__ import annotations

import logging
import traceback
from collections.abc import Awaitable
from typing import Any

import discord

from cogs.components import view_of
from cogs.courier import Answer, Courier, remember
from games.core import Choice, format_seats
from games.i18n import T, language, localize
from tables import words
from tables.authority import Caller, GameError, may_confirm
from tables.compose import Tables
from tables.outbox import Message
from tables.seating import seat_names

log = logging.getLogger("tables.cogs")


def tables_of(interaction: discord.Interaction) -> Tables:
    """The table service of the bot the interaction came to."""
    return interaction.client.tables  # type: ignore[attr-defined]


def caller_of(interaction: discord.Interaction, user: discord.abc.User | None = None) -> Caller:
    """Who is asking (or ``user``, named in the command), and from where, as the table service needs it."""
    who = user or interaction.user
    return Caller(
        user_id=who.id,
        name=getattr(who, "display_name", who.name),
        guild_id=interaction.guild_id,
        channel_id=interaction.channel_id,
        moderator=user is None and bool(interaction.permissions.manage_threads),
        bot=who.bot,
        locale=str(interaction.locale.value) if user is None else None,
        guild_locale=interaction.guild_locale.value if interaction.guild_locale else None,
        manager=user is None and bool(interaction.permissions.manage_guild),
        events=user is None and bool(interaction.permissions.manage_events),
    )


def reply_text(interaction: discord.Interaction, text: str) -> str:
    """``text`` (marked) written out for the member who asked, in their Discord language, within Discord's
    limit: how every ephemeral answer reads."""
    return localize(text, interaction.locale)[: words.MESSAGE_LIMIT]


EXPIRED = (10015, 10062)
"""Discord's Unknown Webhook and Unknown Interaction: the interaction's token, good for 15 minutes, ran out."""


async def follow_up(interaction: discord.Interaction, *, private: bool, **kwargs: Any) -> None:
    """A follow-up of an interaction already acknowledged (``private``: only its member sees it). Once the
    interaction's token has run out (15 minutes: a slow answer, a retry), it goes another way: by direct
    message to the member if private, else in the channel."""
    try:
        await interaction.followup.send(ephemeral=private, **kwargs)
    except discord.NotFound as exc:
        if exc.code not in EXPIRED:
            raise
        log.info("Interaction %s expired before its follow-up: sent by %s", interaction.id, "DM" if private else "post")
        target = interaction.user if private else interaction.channel
        await target.send(**kwargs)  # type: ignore[union-attr]


async def tell(interaction: discord.Interaction, text: str) -> None:
    """An ephemeral answer, whether or not the interaction was already acknowledged, in the language of the
    member who asked."""
    text = reply_text(interaction, text)
    if interaction.response.is_done():
        await follow_up(interaction, private=True, content=text)
    else:
        await interaction.response.send_message(text, ephemeral=True)


async def show(interaction: discord.Interaction, message: Message) -> None:
    """An ephemeral answer drawn from a service message (a private view, a picker)."""
    written = message.written(language(interaction.locale))
    kwargs = await Courier(interaction.client, tables_of(interaction)).kwargs(written)
    if interaction.response.is_done():
        await follow_up(interaction, private=True, **kwargs)
    else:
        await interaction.response.send_message(ephemeral=True, **kwargs)


async def apologise(interaction: discord.Interaction, error: BaseException, game_id: int | None = None) -> None:
    """Log an unexpected error with its traceback and tell the user briefly (never the details)."""
    original = getattr(error, "original", error)
    log.error(
        "Unexpected error (game %s, user %s, command %s)\n%s",
        game_id,
        interaction.user.id,
        getattr(interaction.command, "qualified_name", None),
        "".join(traceback.format_exception(original)),
    )
    try:
        await tell(interaction, T("Sorry, something went wrong on my side. Your game is safe; please try again."))
    except discord.HTTPException:
        log.warning("Could not send the apology for an unexpected error")


async def guard(interaction: discord.Interaction, game_id: int | None, work: Awaitable[Any]) -> None:
    """Await ``work``; expected errors become a specific ephemeral reply, others an apology."""
    try:
        await work
    except GameError as exc:
        await tell(interaction, str(exc))
    except Exception as exc:
        await apologise(interaction, exc, game_id)


async def confirm(interaction: discord.Interaction, label: str, *, picker: bool) -> None:
    """Tell a member their move was made: their picker becomes ✅, a typed move gets a private ✅, a board
    button is simply acknowledged (the new board shows it). The move is committed, with everything it owes,
    before this answer: if Discord fails it, they are told it was saved, never invited to play it again.
    ``label`` (marked) is written out in the member's language."""
    try:
        if picker:
            await interaction.response.edit_message(content=reply_text(interaction, f"✅ {label}"), view=None)
        elif interaction.type == discord.InteractionType.application_command:
            await interaction.response.send_message(reply_text(interaction, f"✅ {label}"), ephemeral=True)
        else:
            await interaction.response.defer()
    except discord.HTTPException:
        log.info("The answer to a move failed; saying it was saved")
        try:
            await tell(interaction, T("Your move was saved ({move}).", move=label))
        except discord.HTTPException:
            log.warning("Could not say that a move was saved either")


async def deliver(interaction: discord.Interaction, entry: int | None, note: str | None = None) -> None:
    """Answer with outbox row ``entry`` (a lobby's message or its edit), or ``note``; if the row cannot be
    the answer, the delivery loop posts it and the interaction is acknowledged quietly."""
    tables = tables_of(interaction)
    if entry is not None:
        await tables.delivery.answer(entry, Answer(interaction.client, tables, interaction))
    if note is not None:
        await tell(interaction, note)
    elif not interaction.response.is_done():
        await interaction.response.defer()


# ---------------------------------------------------------------------------------------------- playing


async def play(interaction: discord.Interaction, game_id: int, version: int, first: str, path: tuple[int, ...]) -> None:
    """A board button, picker button or picker option was used: act at a leaf, or show the next picker level
    (ephemeral: only the clicker sees it)."""
    tables = tables_of(interaction)
    in_picker = bool(interaction.message and interaction.message.flags.ephemeral)
    caller = caller_of(interaction)
    record, seat, node = await tables.moves.walk(caller, game_id, version, first, path)
    if isinstance(node, Choice):
        label = format_seats(node.label, seat_names(tables.cache.spec(record).game, record))
        # A board's click answers with the board's update; a picker's move updates it through the board click
        # that opened the picker, by the delivery loop (:data:`cogs.courier.CLICKS`).
        board = None if in_picker else interaction.message
        answered = board is not None and board.id == record.message_id and not interaction.is_expired()
        applied = await tables.play.act(
            caller, game_id, node.action.encode(), version=version, seat=seat, answered=answered
        )
        if applied.answer is not None:  # the board they clicked, updated as the click's answer
            await tables.delivery.answer(applied.answer, Answer(interaction.client, tables, interaction))
        if not interaction.response.is_done():
            await confirm(interaction, label, picker=in_picker)
        remember(interaction)  # a board's click (not a picker's): its board's later edits may go through it
        return
    picker = tables.moves.picker(record, node)
    content = reply_text(interaction, picker.content)
    ui = view_of(picker.components, interaction.locale)
    if in_picker:
        await interaction.response.edit_message(content=content, view=ui)
    else:
        # The board's click is acknowledged without changing it, and the picker follows, ephemeral: the move it
        # leads to updates the board through this click (:data:`cogs.courier.CLICKS`).
        await interaction.response.defer()
        remember(interaction)
        await follow_up(interaction, private=True, content=content, view=ui)
    # Its items are DynamicItems, dispatched by custom id alone: discord.py needs no view object for them.
    # Stopping it drops the 15-minute timer discord.py starts for every ephemeral view.
    ui.stop()


async def hand(interaction: discord.Interaction, game_id: int) -> None:
    """The clicker's private view, ephemeral (the fallback when DMs are closed)."""
    message = await tables_of(interaction).moves.private_view(caller_of(interaction), game_id)
    await interaction.response.defer(ephemeral=True, thinking=True)
    await show(interaction, message)


async def follow(interaction: discord.Interaction, game_id: int) -> None:
    tables = tables_of(interaction)
    following = await tables.seats.follow(caller_of(interaction), game_id)
    record = await tables.cache.get(game_id)
    title = words.title(tables.cache.spec(record), record)
    if following:
        text = "🔭 " + T("You follow {game}: I'll DM you the board after every turn. Click again to stop.", game=title)
    else:
        text = T("You no longer follow {game}.", game=title)
    await tell(interaction, text)


async def rematch(interaction: discord.Interaction, game_id: int) -> None:
    await tell(interaction, await tables_of(interaction).lobbies.rematch(caller_of(interaction), game_id))


async def seat_offer(
    interaction: discord.Interaction, game_id: int, seat: int, user: int, holder: int, at: int, take: bool
) -> None:
    """The member offered a seat accepts (they see its private view at once) or declines."""
    message = interaction.message
    where = (message.channel.id, message.id) if message is not None else None
    await interaction.response.defer(ephemeral=True, thinking=take)
    view = await tables_of(interaction).seats.answer(
        caller_of(interaction), game_id, seat, user_id=user, holder=holder, at=at, take=take, message=where
    )
    if view is not None:
        await show(interaction, view)
    else:
        await tell(interaction, T("You declined the seat."))


async def lobby(interaction: discord.Interaction, lobby_id: int, op: str) -> None:
    answer = await tables_of(interaction).lobbies.click(caller_of(interaction), lobby_id, op)
    await deliver(interaction, answer.entry, answer.note)


# ---------------------------------------------------------------------------------------------- privacy


async def forget(interaction: discord.Interaction, user_id: int, confirmed: bool) -> None:
    """``/games forget-me``'s buttons: the member who asked confirms (they are forgotten, and told what was
    done) or cancels; the confirmation loses its buttons either way. Nobody else can click them."""
    tables, caller = tables_of(interaction), caller_of(interaction)
    may_confirm(caller, user_id)
    if not confirmed:
        await interaction.response.edit_message(content=reply_text(interaction, T("Nothing was erased.")), view=None)
        return
    await interaction.response.defer()
    done = await tables.privacy.forget(caller, user_id)
    await interaction.edit_original_response(content=reply_text(interaction, done), view=None)


async def tournament(interaction: discord.Interaction, tournament_id: int, op: str) -> None:
    """**Join** or **Leave** on a tournament's sign-up message: its edit is the click's answer."""
    answer = await getattr(tables_of(interaction).tournaments, op)(caller_of(interaction), tournament_id, answer=True)
    await deliver(interaction, answer.entry)
