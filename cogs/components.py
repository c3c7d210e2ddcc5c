"""Persistent buttons and selects. Their custom ids carry everything needed to act (game id, board
version, menu path), so they keep working after a restart: ``from_custom_id`` rebuilds them and the
handler reloads the game from the store (RoboDanny's gatekeeper button is the model)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

if TYPE_CHECKING:
    from cogs.app import TableBot


def _bot(interaction: discord.Interaction) -> TableBot:
    return interaction.client  # type: ignore[return-value]


def _path_text(path: Sequence[int]) -> str:
    return ".".join(str(i) for i in path)


def _path(text: str | None) -> tuple[int, ...]:
    return tuple(int(i) for i in text.split(".")) if text else ()


async def _follow(
    interaction: discord.Interaction, game_id: int, version: int, first: str, path: tuple[int, ...]
) -> None:
    """A board button, picker button or picker option was used: follow the menu path."""
    host = _bot(interaction).host
    in_picker = bool(interaction.message and interaction.message.flags.ephemeral)
    await host.guard(
        interaction, game_id, host.on_path(interaction, game_id, version, first, path, in_picker=in_picker)
    )


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
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary if path else discord.ButtonStyle.primary,
                custom_id=custom_id,
                row=row,
            )
        )
        self.game_id, self.version, self.tag, self.path = game_id, version, tag, tuple(path)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> PlayButton:
        return cls(int(match["game"]), int(match["ver"]), match["tag"], _path(match["path"]), item.label or "…")

    async def callback(self, interaction: discord.Interaction) -> None:
        await _follow(interaction, self.game_id, self.version, self.tag, self.path)


class BoardSelect(
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"tb:(?P<game>\d+):(?P<ver>\d+):(?P<start>\d+)",
):
    """The board's select menu when more first labels are open than buttons fit; values are tags."""

    def __init__(
        self,
        game_id: int,
        version: int,
        options: Sequence[tuple[str, str]] = (),
        start: int = 0,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"tb:{game_id}:{version}:{start}",
                placeholder="Choose…",
                options=[discord.SelectOption(label=label, value=tag) for tag, label in options]
                or [discord.SelectOption(label="…", value="-")],
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
        await _follow(interaction, self.game_id, self.version, self.item.values[0], ())


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
        await _follow(interaction, self.game_id, self.version, self.tag, (*self.path, int(self.item.values[0])))


class HandButton(discord.ui.DynamicItem[discord.ui.Button], template=r"hand:(?P<game>\d+)"):
    """ "My hand": the clicker's private view, ephemeral (the fallback when DMs are closed)."""

    def __init__(self, game_id: int, row: int | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label="My hand",
                emoji="🂠",
                style=discord.ButtonStyle.secondary,
                custom_id=f"hand:{game_id}",
                row=row,
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> HandButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        host = _bot(interaction).host
        await host.guard(interaction, self.game_id, host.show_hand(interaction, self.game_id))


class FollowButton(discord.ui.DynamicItem[discord.ui.Button], template=r"follow:(?P<game>\d+)"):
    """ "Follow": a member who is not playing gets the public board by DM after every turn (again: stop)."""

    def __init__(self, game_id: int, row: int | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label="Follow", emoji="🔭", style=discord.ButtonStyle.secondary, custom_id=f"follow:{game_id}", row=row
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> FollowButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        host = _bot(interaction).host
        await host.guard(interaction, self.game_id, host.seats.toggle_follow(interaction, self.game_id))


class RematchButton(discord.ui.DynamicItem[discord.ui.Button], template=r"rematch:(?P<game>\d+)"):
    """ "Rematch" on a finished game's final message: the same players and options, a new seed, once every
    member has clicked it."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Rematch", emoji="🔁", style=discord.ButtonStyle.success, custom_id=f"rematch:{game_id}"
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> RematchButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = _bot(interaction)
        await bot.host.guard(interaction, self.game_id, bot.lobbies.rematch(interaction, self.game_id))


class SeatOfferButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"sub:(?P<game>\d+):(?P<seat>\d+):(?P<user>\d+):(?P<holder>\d+):(?P<at>\d+):(?P<op>take|refuse)",
):
    """Accept or decline taking over a seat (``/games substitute``). The offer names the member it is for,
    who held the seat when it was made (``0``: the AI), and when it was made (offers expire)."""

    def __init__(self, game_id: int, seat: int, user_id: int, holder: int, at: int, op: str) -> None:
        label, style = (
            ("Accept", discord.ButtonStyle.success) if op == "take" else ("Decline", discord.ButtonStyle.danger)
        )
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=f"sub:{game_id}:{seat}:{user_id}:{holder}:{at}:{op}")
        )
        self.game_id, self.seat, self.user_id, self.holder, self.at, self.op = game_id, seat, user_id, holder, at, op

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> SeatOfferButton:
        fields = (int(match[k]) for k in ("game", "seat", "user", "holder", "at"))
        return cls(*fields, match["op"])

    async def callback(self, interaction: discord.Interaction) -> None:
        host = _bot(interaction).host
        offer = host.seats.answer_seat_offer(
            interaction, self.game_id, self.seat, self.user_id, self.holder, self.at, take=self.op == "take"
        )
        await host.guard(interaction, self.game_id, offer)


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
        bot = _bot(interaction)
        await bot.host.guard(interaction, None, bot.lobbies.on_button(interaction, self.lobby_id, self.op))


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
