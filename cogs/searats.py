"""``/searats``: Sea Rats!, the last pirate afloat wins (2–6 players commanding six ships)."""

from __future__ import annotations

import discord
from discord import app_commands

from cogs.app import TableBot
from cogs.base import CLOCK_CHOICES, CLOCK_OPTION, GameCog
from cogs.clocks import DEFAULT_CLOCK


class SeaRatsCog(GameCog, group_name="searats", group_description="Sea Rats!: the last pirate afloat wins (2–6)"):
    kind = "searats"

    @app_commands.command(name="new", description="Challenge members (and AI seats) to a game of Sea Rats!")
    @app_commands.describe(
        player2="A member to challenge",
        player3="Another member to challenge",
        player4="Another member to challenge",
        player5="Another member to challenge",
        player6="Another member to challenge",
        ai="How many players the bot's AI plays",
        clock=CLOCK_OPTION,
    )
    @app_commands.choices(clock=CLOCK_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction,
        player2: discord.Member | None = None,
        player3: discord.Member | None = None,
        player4: discord.Member | None = None,
        player5: discord.Member | None = None,
        player6: discord.Member | None = None,
        ai: app_commands.Range[int, 0, 5] = 0,
        clock: str = DEFAULT_CLOCK,
    ) -> None:
        await self.challenge(interaction, [player2, player3, player4, player5, player6], ai, {}, clock)

    @app_commands.command(name="open", description="Open a Sea Rats! table that anyone here can join")
    @app_commands.describe(ai="How many players the bot's AI plays", clock=CLOCK_OPTION)
    @app_commands.choices(clock=CLOCK_CHOICES)
    async def open(
        self, interaction: discord.Interaction, ai: app_commands.Range[int, 0, 5] = 0, clock: str = DEFAULT_CLOCK
    ) -> None:
        await self.open_table(interaction, ai, {}, clock)


async def setup(bot: TableBot) -> None:
    await bot.add_cog(SeaRatsCog(bot))
