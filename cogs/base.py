"""The base of every game's slash-command group: ``/<game> move | hand | board | resign | rules``.

Each game cog subclasses :class:`GameCog` and adds its own ``new`` and ``open`` commands, whose options
differ per game (players, AI seats, variants) and must be declared in the command's signature.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from cogs.app import TableBot
from cogs.clocks import CLOCKS, DEFAULT_CLOCK, clock_seconds
from games.registry import GAMES, GameSpec

log = logging.getLogger("tables.cogs")

GAME_OPTION = "The game's number, when you play several games in this channel"
CLOCK_OPTION = "Time per decision before the AI decides for an absent player (default: 1 hour)"
CLOCK_CHOICES = [app_commands.Choice(name=name, value=value) for value, (name, _seconds) in CLOCKS.items()]
"""Every game's ``new`` and ``open`` offer ``clock`` with these choices and ``DEFAULT_CLOCK``."""


@app_commands.guild_only()
class GameCog(commands.GroupCog):
    """Shared commands of a game; subclasses set ``kind`` and define ``new`` and ``open``."""

    kind: ClassVar[str]

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        super().__init__()

    @property
    def spec(self) -> GameSpec:
        return GAMES[self.kind]

    async def challenge(
        self,
        interaction: discord.Interaction,
        players: Sequence[discord.Member | None],
        ai: int,
        options: dict[str, Any],
        clock: str = DEFAULT_CLOCK,
    ) -> None:
        """``new``: the subclass's command passes its members, AI seats, table options and clock."""
        invitees = [p for p in players if p is not None]
        work = self.bot.lobbies.challenge(interaction, self.kind, invitees, ai, options, clock_seconds(clock))
        await self.bot.host.guard(interaction, None, work)

    async def open_table(
        self, interaction: discord.Interaction, ai: int, options: dict[str, Any], clock: str = DEFAULT_CLOCK
    ) -> None:
        """``open``: the subclass's command passes its AI seats, table options and clock."""
        work = self.bot.lobbies.open_table(interaction, self.kind, ai, options, clock_seconds(clock))
        await self.bot.host.guard(interaction, None, work)

    @app_commands.command(name="move", description="Make your move by text, in the game's thread")
    @app_commands.describe(
        action="Your move; start typing to see the moves open to you",
        game=GAME_OPTION,
    )
    async def move(
        self, interaction: discord.Interaction, action: app_commands.Range[str, 1, 100], game: int | None = None
    ) -> None:
        await self.bot.host.guard(interaction, game, self.bot.host.move(interaction, self.kind, action, game))

    @move.autocomplete("action")
    async def move_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        try:
            pairs = await self.bot.host.autocomplete(interaction, self.kind, current)
        except Exception:
            # Autocomplete has no way to show an error; offering nothing is the safe answer.
            log.exception("Autocomplete failed for %s", interaction.user.id)
            return []
        return [app_commands.Choice(name=label, value=value) for label, value in pairs]

    @app_commands.command(name="hand", description="See your private view of this game (only you see it)")
    @app_commands.describe(game=GAME_OPTION)
    async def hand(self, interaction: discord.Interaction, game: int | None = None) -> None:
        async def show() -> None:
            record = await self.bot.host.my_game(interaction, self.kind, game)
            await self.bot.host.show_hand(interaction, record.id)

        await self.bot.host.guard(interaction, game, show())

    @app_commands.command(name="board", description="Post the current board again in this game's thread")
    @app_commands.describe(game=GAME_OPTION)
    async def board(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await self.bot.host.guard(interaction, game, self.bot.host.repost(interaction, self.kind, game))

    @app_commands.command(name="resign", description="Leave this game; the AI plays your seat from now on")
    @app_commands.describe(game=GAME_OPTION)
    async def resign(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await self.bot.host.guard(interaction, game, self.bot.host.resign(interaction, self.kind, game))

    @app_commands.command(name="rules", description="A summary of the rules")
    async def rules(self, interaction: discord.Interaction) -> None:
        embed = discord.Embed(
            title=f"{self.spec.emoji} {self.spec.title} — rules",
            description=self.spec.game.rules_text()[:4096],
            colour=self.spec.colour,
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)
