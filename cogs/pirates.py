"""``/pirates``: the Pirates Card Game, free your captain with three missions (1–8 players; alone, solo)."""

from __future__ import annotations

import discord
from discord import app_commands

from cogs.app import TableBot
from cogs.base import GameCog


class PiratesCog(GameCog, group_name="pirates", group_description="Pirates Card Game: complete three missions (1–8)"):
    kind = "pirates"

    @app_commands.command(name="new", description="Start a Pirates Card Game: challenge members, add AI, or sail solo")
    @app_commands.describe(
        player2="A member to challenge (leave every player empty to play solo)",
        player3="Another member to challenge",
        player4="Another member to challenge",
        ai="How many seats the bot's AI plays",
    )
    async def new(
        self,
        interaction: discord.Interaction,
        player2: discord.Member | None = None,
        player3: discord.Member | None = None,
        player4: discord.Member | None = None,
        ai: app_commands.Range[int, 0, 7] = 0,
    ) -> None:
        await self.challenge(interaction, [player2, player3, player4], ai, {})

    @app_commands.command(name="open", description="Open a Pirates Card Game table that anyone here can join")
    @app_commands.describe(ai="How many seats the bot's AI plays")
    async def open(self, interaction: discord.Interaction, ai: app_commands.Range[int, 0, 7] = 0) -> None:
        await self.open_table(interaction, ai, {})


async def setup(bot: TableBot) -> None:
    await bot.add_cog(PiratesCog(bot))
