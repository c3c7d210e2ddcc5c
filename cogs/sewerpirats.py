"""``/sewerpirats``: Sewer Pirats, crew three pirat ships and seize the flotsam (2–5 players)."""

from __future__ import annotations

import discord
from discord import app_commands

from cogs.app import TableBot
from cogs.base import CLOCK_CHOICES, CLOCK_OPTION, GameCog
from cogs.clocks import DEFAULT_CLOCK
from games.sewerpirats.engine import SewerPirats

VARIANT = SewerPirats.option("variant")
VARIANTS = [app_commands.Choice(name=v, value=v) for v in VARIANT.choices]


class SewerPiratsCog(
    GameCog, group_name="sewerpirats", group_description="Sewer Pirats: crew the pirat ships, seize the booty (2–5)"
):
    kind = "sewerpirats"

    @app_commands.command(name="new", description="Challenge members (and AI seats) to a game of Sewer Pirats")
    @app_commands.describe(
        player2="A member to challenge",
        player3="Another member to challenge",
        player4="Another member to challenge",
        player5="Another member to challenge",
        ai="How many seats the bot's AI plays",
        variant=VARIANT.description,
        clock=CLOCK_OPTION,
    )
    @app_commands.choices(variant=VARIANTS, clock=CLOCK_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction,
        player2: discord.Member | None = None,
        player3: discord.Member | None = None,
        player4: discord.Member | None = None,
        player5: discord.Member | None = None,
        ai: app_commands.Range[int, 0, 4] = 0,
        variant: str = VARIANT.default,
        clock: str = DEFAULT_CLOCK,
    ) -> None:
        await self.challenge(interaction, [player2, player3, player4, player5], ai, {"variant": variant}, clock)

    @app_commands.command(name="open", description="Open a Sewer Pirats table that anyone here can join")
    @app_commands.describe(ai="How many seats the bot's AI plays", variant=VARIANT.description, clock=CLOCK_OPTION)
    @app_commands.choices(variant=VARIANTS, clock=CLOCK_CHOICES)
    async def open(
        self,
        interaction: discord.Interaction,
        ai: app_commands.Range[int, 0, 4] = 0,
        variant: str = VARIANT.default,
        clock: str = DEFAULT_CLOCK,
    ) -> None:
        await self.open_table(interaction, ai, {"variant": variant}, clock)


async def setup(bot: TableBot) -> None:
    await bot.add_cog(SewerPiratsCog(bot))
