"""Persistent buttons and selects, and what their clicks do. Their custom ids carry everything needed to
act (game id, board version, menu path…), so they keep working after a restart: ``from_custom_id``
rebuilds them and the handler asks the table service, which reloads the game from the store (RoboDanny's
gatekeeper button is the model). The service describes components as data (:mod:`tables.menus`);
:func:`view_of` makes them Discord's."""

from __future__ import annotations

import logging
import re
import traceback
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

import discord

from games.core import Choice, format_seats
from tables.authority import Caller, GameError
from tables.outbox import Message
from tables.seating import seat_names

if TYPE_CHECKING:
    from cogs.app import TableBot

log = logging.getLogger("tables.cogs")


# ---------------------------------------------------------------------------------------------- answering


def bot_of(interaction: discord.Interaction) -> TableBot:
    return interaction.client  # type: ignore[return-value]


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
    )


async def tell(interaction: discord.Interaction, text: str) -> None:
    """An ephemeral answer, whether or not the interaction was already acknowledged."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


async def show(interaction: discord.Interaction, message: Message) -> None:
    """An ephemeral answer drawn from a service message (a private view, a picker)."""
    from cogs.courier import Courier

    kwargs = await Courier(bot_of(interaction)).kwargs(message)
    if interaction.response.is_done():
        await interaction.followup.send(ephemeral=True, **kwargs)
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
        await tell(interaction, "Sorry, something went wrong on my side. Your game is safe; please try again.")
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
    before this answer: if Discord fails it, they are told it was saved, never invited to play it again."""
    try:
        if picker:
            await interaction.response.edit_message(content=f"✅ {label}", view=None)
        elif interaction.type == discord.InteractionType.application_command:
            await interaction.response.send_message(f"✅ {label}", ephemeral=True)
        else:
            await interaction.response.defer()
    except discord.HTTPException:
        log.info("The answer to a move failed; saying it was saved")
        try:
            await tell(interaction, f"Your move was saved ({label}).")
        except discord.HTTPException:
            log.warning("Could not say that a move was saved either")


async def deliver(interaction: discord.Interaction, entry: int | None, note: str | None = None) -> None:
    """Answer with outbox row ``entry`` (a lobby's message or its edit), or ``note``; if the row cannot be
    the answer, the delivery loop posts it and the interaction is acknowledged quietly."""
    from cogs.courier import Answer

    bot = bot_of(interaction)
    if entry is not None:
        await bot.tables.delivery.answer(entry, Answer(bot, interaction))
    if note is not None:
        await tell(interaction, note)
    elif not interaction.response.is_done():
        await interaction.response.defer()


# ---------------------------------------------------------------------------------------------- playing


async def play(interaction: discord.Interaction, game_id: int, version: int, first: str, path: tuple[int, ...]) -> None:
    """A board button, picker button or picker option was used: act at a leaf, or show the next picker level
    (ephemeral: only the clicker sees it)."""
    tables = bot_of(interaction).tables
    in_picker = bool(interaction.message and interaction.message.flags.ephemeral)
    caller = caller_of(interaction)
    record, node = await tables.walk(caller, game_id, version, first, path)
    if isinstance(node, Choice):
        label = format_seats(node.label, seat_names(tables.spec(record).game, record))
        await tables.act(caller, game_id, node.action.encode(), version=version)
        await confirm(interaction, label, picker=in_picker)
        return
    picker = tables.picker(record, node)
    if in_picker:
        await interaction.response.edit_message(content=picker.content, view=view_of(picker.components))
    else:
        ui = view_of(picker.components)
        await interaction.response.send_message(picker.content, view=ui, ephemeral=True)
        # Its items are DynamicItems, dispatched by custom id alone: discord.py needs no view object for
        # them. Stopping it drops the 15-minute timer discord.py starts for every ephemeral view.
        ui.stop()


async def hand(interaction: discord.Interaction, game_id: int) -> None:
    """The clicker's private view, ephemeral (the fallback when DMs are closed)."""
    message = await bot_of(interaction).tables.private_view(caller_of(interaction), game_id)
    await interaction.response.defer(ephemeral=True, thinking=True)
    await show(interaction, message)


async def follow(interaction: discord.Interaction, game_id: int) -> None:
    tables = bot_of(interaction).tables
    following = await tables.follow(caller_of(interaction), game_id)
    record = await tables.get(game_id)
    title = f"{tables.spec(record).emoji} **{tables.spec(record).title} #{game_id}**"
    text = (
        f"🔭 You follow {title}: I'll DM you the board after every turn. Click again to stop."
        if following
        else f"You no longer follow {title}."
    )
    await tell(interaction, text)


async def rematch(interaction: discord.Interaction, game_id: int) -> None:
    await tell(interaction, await bot_of(interaction).tables.lobbies.rematch(caller_of(interaction), game_id))


async def seat_offer(
    interaction: discord.Interaction, game_id: int, seat: int, user: int, holder: int, at: int, take: bool
) -> None:
    """The member offered a seat accepts (they see its private view at once) or declines."""
    message = interaction.message
    where = (message.channel.id, message.id) if message is not None else None
    await interaction.response.defer(ephemeral=True, thinking=take)
    view = await bot_of(interaction).tables.answer_seat(
        caller_of(interaction), game_id, seat, user_id=user, holder=holder, at=at, take=take, message=where
    )
    if view is not None:
        await show(interaction, view)
    else:
        await tell(interaction, "You declined the seat.")


async def lobby(interaction: discord.Interaction, lobby_id: int, op: str) -> None:
    answer = await bot_of(interaction).tables.lobbies.click(caller_of(interaction), lobby_id, op)
    await deliver(interaction, answer.entry, answer.note)


# ---------------------------------------------------------------------------------------------- items


def _path_text(path: Sequence[int]) -> str:
    return ".".join(str(i) for i in path)


def _path(text: str | None) -> tuple[int, ...]:
    return tuple(int(i) for i in text.split(".")) if text else ()


class PlayButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"t:(?P<game>\d+):(?P<ver>\d+):(?P<tag>[0-9a-f]{6})(?::(?P<path>\d+(?:\.\d+)*))?",
):
    """A board action button (``path`` empty: the first label ``tag``), or an option button in an
    ephemeral picker (the picks ``path`` below that label)."""

    def __init__(
        self, game_id: int, version: int, tag: str, path: Sequence[int] = (), label: str = "…", row: int | None = None
    ) -> None:
        custom_id = f"t:{game_id}:{version}:{tag}" + (f":{_path_text(path)}" if path else "")
        style = discord.ButtonStyle.secondary if path else discord.ButtonStyle.primary
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=custom_id, row=row))
        self.game_id, self.version, self.tag, self.path = game_id, version, tag, tuple(path)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> PlayButton:
        return cls(int(match["game"]), int(match["ver"]), match["tag"], _path(match["path"]), item.label or "…")

    async def callback(self, interaction: discord.Interaction) -> None:
        await guard(interaction, self.game_id, play(interaction, self.game_id, self.version, self.tag, self.path))


class BoardSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"tb:(?P<game>\d+):(?P<ver>\d+):(?P<start>\d+)"):
    """The board's select menu when more first labels are open than buttons fit; values are tags."""

    def __init__(
        self, game_id: int, version: int, options: Sequence[Sequence[str]] = (), start: int = 0, row: int | None = None
    ) -> None:
        choices = [discord.SelectOption(label=label, value=tag) for tag, label in options]
        super().__init__(
            discord.ui.Select(
                custom_id=f"tb:{game_id}:{version}:{start}",
                placeholder="Choose…",
                options=choices or [discord.SelectOption(label="…", value="-")],
                row=row,
            )
        )
        self.game_id, self.version = game_id, version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]
    ) -> BoardSelect:
        return cls(int(match["game"]), int(match["ver"]), start=int(match["start"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guard(interaction, self.game_id, play(interaction, self.game_id, self.version, self.item.values[0], ()))


class PlaySelect(
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"ts:(?P<game>\d+):(?P<ver>\d+):(?P<tag>[0-9a-f]{6}):(?P<path>(?:\d+(?:\.\d+)*)?):(?P<start>\d+)",
):
    """A picker's select menu for long option lists; option values are indexes at the next menu level."""

    def __init__(
        self,
        game_id: int,
        version: int,
        tag: str,
        path: Sequence[int],
        labels: Sequence[str] = (),
        start: int = 0,
        row: int | None = None,
    ) -> None:
        options = [discord.SelectOption(label=label, value=str(start + i)) for i, label in enumerate(labels)]
        super().__init__(
            discord.ui.Select(
                custom_id=f"ts:{game_id}:{version}:{tag}:{_path_text(path)}:{start}",
                placeholder="Choose…",
                options=options or [discord.SelectOption(label="…", value="0")],
                row=row,
            )
        )
        self.game_id, self.version, self.tag, self.path = game_id, version, tag, tuple(path)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]
    ) -> PlaySelect:
        return cls(int(match["game"]), int(match["ver"]), match["tag"], _path(match["path"]), start=int(match["start"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        path = (*self.path, int(self.item.values[0]))
        await guard(interaction, self.game_id, play(interaction, self.game_id, self.version, self.tag, path))


def _simple(
    name: str,
    template: str,
    label: str,
    emoji: str | None,
    style: discord.ButtonStyle,
    run: Callable[..., Awaitable[None]],
) -> type[discord.ui.DynamicItem[discord.ui.Button]]:
    """A button that names one game (``<template>:<game>``) and runs ``run(interaction, game)``."""

    class Simple(discord.ui.DynamicItem[discord.ui.Button], template=rf"{template}:(?P<game>\d+)"):
        def __init__(self, game_id: int, row: int | None = None) -> None:
            button = discord.ui.Button(
                label=label, emoji=emoji, style=style, custom_id=f"{template}:{game_id}", row=row
            )
            super().__init__(button)
            self.game_id = game_id

        @classmethod
        async def from_custom_id(
            cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
        ) -> Simple:
            return cls(int(match["game"]))

        async def callback(self, interaction: discord.Interaction) -> None:
            await guard(interaction, self.game_id, run(interaction, self.game_id))

    Simple.__name__ = Simple.__qualname__ = name
    return Simple


HandButton = _simple("HandButton", "hand", "My hand", "🂠", discord.ButtonStyle.secondary, hand)
"""**My hand**: the clicker's private view, ephemeral (the fallback when DMs are closed)."""
FollowButton = _simple("FollowButton", "follow", "Follow", "🔭", discord.ButtonStyle.secondary, follow)
"""**Follow**: a member who is not playing gets the public board by DM after every turn (again: stop)."""
RematchButton = _simple("RematchButton", "rematch", "Rematch", "🔁", discord.ButtonStyle.success, rematch)
"""**Rematch** on a finished game's final message: the same players and options, a new seed."""


class SeatOfferButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"sub:(?P<game>\d+):(?P<seat>\d+):(?P<user>\d+):(?P<holder>\d+):(?P<at>\d+):(?P<op>take|refuse)",
):
    """Accept or decline taking over a seat (``/games substitute``). The offer names the member it is for,
    who held the seat when it was made (``0``: the AI), and when it was made (offers expire)."""

    def __init__(self, game_id: int, seat: int, user_id: int, holder: int, at: int, op: str) -> None:
        take = op == "take"
        label, style = ("Accept", discord.ButtonStyle.success) if take else ("Decline", discord.ButtonStyle.danger)
        custom_id = f"sub:{game_id}:{seat}:{user_id}:{holder}:{at}:{op}"
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=custom_id))
        self.game_id, self.seat, self.user_id, self.holder, self.at, self.op = game_id, seat, user_id, holder, at, op

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> SeatOfferButton:
        return cls(*(int(match[k]) for k in ("game", "seat", "user", "holder", "at")), match["op"])

    async def callback(self, interaction: discord.Interaction) -> None:
        offer = seat_offer(interaction, self.game_id, self.seat, self.user_id, self.holder, self.at, self.op == "take")
        await guard(interaction, self.game_id, offer)


LOBBY_OPS: dict[str, tuple[str, discord.ButtonStyle]] = {
    "accept": ("Accept", discord.ButtonStyle.success),
    "decline": ("Decline", discord.ButtonStyle.danger),
    "join": ("Join", discord.ButtonStyle.success),
    "leave": ("Leave", discord.ButtonStyle.secondary),
    "start": ("Start", discord.ButtonStyle.primary),
    "cancel": ("Cancel", discord.ButtonStyle.danger),
}


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button], template=r"lobby:(?P<lobby>\d+):(?P<op>[a-z]+)"):
    """Accept / Decline an invitation; Join / Leave / Start / Cancel an open table."""

    def __init__(self, lobby_id: int, op: str) -> None:
        label, style = LOBBY_OPS[op]
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"lobby:{lobby_id}:{op}"))
        self.lobby_id, self.op = lobby_id, op

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> LobbyButton:
        if match["op"] not in LOBBY_OPS:
            raise ValueError(f"unknown lobby operation {match['op']!r}")
        return cls(int(match["lobby"]), match["op"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await guard(interaction, None, lobby(interaction, self.lobby_id, self.op))


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    PlayButton,
    BoardSelect,
    PlaySelect,
    HandButton,
    FollowButton,
    RematchButton,
    SeatOfferButton,
    LobbyButton,
)


def item_of(c: dict[str, Any]) -> discord.ui.Item[Any]:
    """The Discord item a service component describes."""
    kind = c["type"]
    if kind == "play":
        return PlayButton(c["game"], c["version"], c["tag"], c["path"], c["label"], row=c["row"])
    if kind == "board_select":
        return BoardSelect(c["game"], c["version"], c["options"], c["start"], row=c["row"])
    if kind == "play_select":
        return PlaySelect(c["game"], c["version"], c["tag"], c["path"], c["labels"], c["start"], row=c["row"])
    if kind == "hand":
        return HandButton(c["game"], row=c.get("row"))
    if kind == "follow":
        return FollowButton(c["game"], row=c.get("row"))
    if kind == "rematch":
        return RematchButton(c["game"])
    if kind == "seat":
        return SeatOfferButton(c["game"], c["seat"], c["user"], c["holder"], c["at"], c["op"])
    if kind == "lobby":
        return LobbyButton(c["lobby"], c["op"])
    raise ValueError(f"unknown component {kind!r}")


def view_of(components: Sequence[dict[str, Any]]) -> discord.ui.View:
    """A view holding the components the service describes (persistent: no time-out)."""
    view = discord.ui.View(timeout=None)
    for c in components:
        view.add_item(item_of(c))
    return view
