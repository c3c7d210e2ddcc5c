"""``/piratz``: Piratz, the push-your-luck treasure game (2–4 players)."""

from __future__ import annotations

import discord
from discord import app_commands

from cogs.app import TableBot
from cogs.base import CLOCK_CHOICES, CLOCK_OPTION, GameCog
from cogs.clocks import DEFAULT_CLOCK
from games.piratz.engine import Piratz

BLIND = Piratz.option("blind")


class PiratzCog(GameCog, group_name="piratz", group_description="Piratz: dig up treasure, beware the rats (2–4)"):
    kind = "piratz"

    @app_commands.command(name="new", description="Challenge members (and AI seats) to a game of Piratz")
    @app_commands.describe(
        player2="A member to challenge",
        player3="Another member to challenge",
        player4="Another member to challenge",
        ai="How many seats the bot's AI plays",
        blind=BLIND.description,
        clock=CLOCK_OPTION,
    )
    @app_commands.choices(clock=CLOCK_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction,
        player2: discord.Member | None = None,
        player3: discord.Member | None = None,
        player4: discord.Member | None = None,
        ai: app_commands.Range[int, 0, 3] = 0,
        blind: bool = BLIND.default,
        clock: str = DEFAULT_CLOCK,
    ) -> None:
        await self.challenge(interaction, [player2, player3, player4], ai, {"blind": blind}, clock)

    @app_commands.command(name="open", description="Open a Piratz table that anyone here can join")
    @app_commands.describe(ai="How many seats the bot's AI plays", blind=BLIND.description, clock=CLOCK_OPTION)
    @app_commands.choices(clock=CLOCK_CHOICES)
    async def open(
        self,
        interaction: discord.Interaction,
        ai: app_commands.Range[int, 0, 3] = 0,
        blind: bool = BLIND.default,
        clock: str = DEFAULT_CLOCK,
    ) -> None:
        await self.open_table(interaction, ai, {"blind": blind}, clock)


async def setup(bot: TableBot) -> None:
    await bot.add_cog(PiratzCog(bot))
