"""Persistent buttons and selects. Their custom ids carry everything needed to act (game id, board version,
menu path…), so they keep working after a restart: ``from_custom_id`` rebuilds them and the click goes to
the bot's handlers (:mod:`cogs.handlers`), which ask the table service; it reloads the game from the store
(RoboDanny's gatekeeper button is the model). The service describes components as data
(:mod:`tables.menus`); :func:`view_of` makes them Discord's, every label written out in the reader's
language and only then cut to Discord's limits.

The handlers are reached through the client (``interaction.client.handlers``), so that they can build
these items without this module importing them back."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import discord

from games.i18n import localize
from tables.menus import CHOOSE, LABELS, clip

BUTTON_LABEL = 80
OPTION_LABEL = 100
PLACEHOLDER = 150
"""Discord's limits for a button's label, a select option's label and a select's placeholder."""


def _handle(interaction: discord.Interaction, name: str, game_id: int | None, *args: Any) -> Any:
    """The bot's handler ``name`` for this click, guarded: expected errors answered, others apologised for."""
    handlers = interaction.client.handlers  # type: ignore[attr-defined]
    return handlers.guard(interaction, game_id, getattr(handlers, name)(interaction, *args))


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
        self,
        game_id: int,
        version: int,
        tag: str,
        path: Sequence[int] = (),
        label: str = "…",
        row: int | None = None,
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
        await _handle(interaction, "play", self.game_id, self.game_id, self.version, self.tag, self.path)


class BoardSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"tb:(?P<game>\d+):(?P<ver>\d+):(?P<start>\d+)"):
    """The board's select menu when more first labels are open than buttons fit; values are tags."""

    def __init__(
        self,
        game_id: int,
        version: int,
        options: Sequence[Sequence[str]] = (),
        start: int = 0,
        row: int | None = None,
        placeholder: str = "…",
    ) -> None:
        choices = [discord.SelectOption(label=label, value=tag) for tag, label in options]
        super().__init__(
            discord.ui.Select(
                custom_id=f"tb:{game_id}:{version}:{start}",
                placeholder=placeholder,
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
        await _handle(interaction, "play", self.game_id, self.game_id, self.version, self.item.values[0], ())


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
        placeholder: str = "…",
    ) -> None:
        options = [discord.SelectOption(label=label, value=str(start + i)) for i, label in enumerate(labels)]
        super().__init__(
            discord.ui.Select(
                custom_id=f"ts:{game_id}:{version}:{tag}:{_path_text(path)}:{start}",
                placeholder=placeholder,
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
        await _handle(interaction, "play", self.game_id, self.game_id, self.version, self.tag, path)


def _simple(
    name: str, template: str, emoji: str | None, style: discord.ButtonStyle, run: str
) -> type[discord.ui.DynamicItem[discord.ui.Button]]:
    """A button that names one game (``<template>:<game>``) and runs handler ``run(interaction, game)``."""

    class Simple(discord.ui.DynamicItem[discord.ui.Button], template=rf"{template}:(?P<game>\d+)"):
        def __init__(self, game_id: int, row: int | None = None, label: str = "…") -> None:
            custom_id = f"{template}:{game_id}"
            button = discord.ui.Button(label=label, emoji=emoji, style=style, custom_id=custom_id, row=row)
            super().__init__(button)
            self.game_id = game_id

        @classmethod
        async def from_custom_id(
            cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
        ) -> Simple:
            return cls(int(match["game"]))

        async def callback(self, interaction: discord.Interaction) -> None:
            await _handle(interaction, run, self.game_id, self.game_id)

    Simple.__name__ = Simple.__qualname__ = name
    return Simple


HandButton = _simple("HandButton", "hand", "🂠", discord.ButtonStyle.secondary, "hand")
"""**My hand**: the clicker's private view, ephemeral (the fallback when DMs are closed)."""
FollowButton = _simple("FollowButton", "follow", "🔭", discord.ButtonStyle.secondary, "follow")
"""**Follow**: a member who is not playing gets the public board by DM after every turn (again: stop)."""
RematchButton = _simple("RematchButton", "rematch", "🔁", discord.ButtonStyle.success, "rematch")
"""**Rematch** on a finished game's final message: the same players and options, a new seed."""


class SeatOfferButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"sub:(?P<game>\d+):(?P<seat>\d+):(?P<user>\d+):(?P<holder>\d+):(?P<at>\d+):(?P<op>take|refuse)",
):
    """Accept or decline taking over a seat (``/games substitute``). The offer names the member it is for,
    who held the seat when it was made (``0``: the AI), and when it was made (offers expire)."""

    def __init__(self, game_id: int, seat: int, user_id: int, holder: int, at: int, op: str, label: str = "…") -> None:
        style = discord.ButtonStyle.success if op == "take" else discord.ButtonStyle.danger
        custom_id = f"sub:{game_id}:{seat}:{user_id}:{holder}:{at}:{op}"
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=custom_id))
        self.game_id, self.seat, self.user_id, self.holder, self.at, self.op = game_id, seat, user_id, holder, at, op

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> SeatOfferButton:
        return cls(*(int(match[k]) for k in ("game", "seat", "user", "holder", "at")), match["op"])

    async def callback(self, interaction: discord.Interaction) -> None:
        offer = (self.game_id, self.seat, self.user_id, self.holder, self.at, self.op == "take")
        await _handle(interaction, "seat_offer", self.game_id, *offer)


LOBBY_STYLES: dict[str, discord.ButtonStyle] = {
    "accept": discord.ButtonStyle.success,
    "decline": discord.ButtonStyle.danger,
    "join": discord.ButtonStyle.success,
    "leave": discord.ButtonStyle.secondary,
    "start": discord.ButtonStyle.primary,
    "cancel": discord.ButtonStyle.danger,
}


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button], template=r"lobby:(?P<lobby>\d+):(?P<op>[a-z]+)"):
    """Accept / Decline an invitation; Join / Leave / Start / Cancel an open table."""

    def __init__(self, lobby_id: int, op: str, label: str = "…") -> None:
        button = discord.ui.Button(label=label, style=LOBBY_STYLES[op], custom_id=f"lobby:{lobby_id}:{op}")
        super().__init__(button)
        self.lobby_id, self.op = lobby_id, op

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> LobbyButton:
        if match["op"] not in LOBBY_STYLES:
            raise ValueError(f"unknown lobby operation {match['op']!r}")
        return cls(int(match["lobby"]), match["op"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _handle(interaction, "lobby", None, self.lobby_id, self.op)


class ForgetButton(discord.ui.DynamicItem[discord.ui.Button], template=r"forget:(?P<user>\d+):(?P<op>yes|no)"):
    """``/games forget-me``'s confirmation (``yes``) or its cancel (``no``), for the member ``user`` alone."""

    def __init__(self, user_id: int, op: str, label: str = "…") -> None:
        style = discord.ButtonStyle.danger if op == "yes" else discord.ButtonStyle.secondary
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"forget:{user_id}:{op}"))
        self.user_id, self.op = user_id, op

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> ForgetButton:
        return cls(int(match["user"]), match["op"], item.label or "…")

    async def callback(self, interaction: discord.Interaction) -> None:
        await _handle(interaction, "forget", None, self.user_id, self.op == "yes")


class TournamentButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"tour:(?P<tournament>\d+):(?P<op>join|leave)"
):
    """**Join** / **Leave** on a tournament's sign-up message."""

    def __init__(self, tournament_id: int, op: str, label: str = "…") -> None:
        custom_id = f"tour:{tournament_id}:{op}"
        super().__init__(discord.ui.Button(label=label, style=LOBBY_STYLES[op], custom_id=custom_id))
        self.tournament_id, self.op = tournament_id, op

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> TournamentButton:
        return cls(int(match["tournament"]), match["op"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _handle(interaction, "tournament", None, self.tournament_id, self.op)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    PlayButton,
    BoardSelect,
    PlaySelect,
    HandButton,
    FollowButton,
    RematchButton,
    SeatOfferButton,
    LobbyButton,
    ForgetButton,
    TournamentButton,
)


def item_of(c: dict[str, Any], locale: object = "en") -> discord.ui.Item[Any]:
    """The Discord item a service component describes, its words written out in ``locale`` and only then cut
    to Discord's limits (a button's own label, or the service's word for its kind: :data:`tables.menus.LABELS`)."""
    kind, game, row = c["type"], c.get("game"), c.get("row")

    def say(text: str, limit: int = BUTTON_LABEL) -> str:
        return clip(localize(text, locale), limit)

    label = say(c.get("label") or LABELS.get(c.get("op") or kind, "…"))
    if kind == "play":
        return PlayButton(game, c["version"], c["tag"], c["path"], label, row=row)
    if kind == "board_select":
        options = [(tag, say(text, OPTION_LABEL)) for tag, text in c["options"]]
        return BoardSelect(game, c["version"], options, c["start"], row, say(CHOOSE, PLACEHOLDER))
    if kind == "play_select":
        labels = [say(text, OPTION_LABEL) for text in c["labels"]]
        return PlaySelect(game, c["version"], c["tag"], c["path"], labels, c["start"], row, say(CHOOSE, PLACEHOLDER))
    if kind in ("hand", "follow", "rematch"):
        return {"hand": HandButton, "follow": FollowButton, "rematch": RematchButton}[kind](game, row, label)
    if kind == "seat":
        return SeatOfferButton(game, c["seat"], c["user"], c["holder"], c["at"], c["op"], label)
    if kind == "lobby":
        return LobbyButton(c["lobby"], c["op"], label)
    if kind == "tournament":
        return TournamentButton(c["tournament"], c["op"], label)
    raise ValueError(f"unknown component {kind!r}")


def view_of(components: Sequence[dict[str, Any]], locale: object = "en") -> discord.ui.View:
    """A view holding the components the service describes (persistent: no time-out), in ``locale`` (a Discord
    locale or a language code)."""
    view = discord.ui.View(timeout=None)
    for c in components:
        view.add_item(item_of(c, locale))
    return view
