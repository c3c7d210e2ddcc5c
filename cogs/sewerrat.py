"""``/sewerrat``: Sewer Rat, the last rat standing in an 8×8 board of plumbing (2–6 players)."""

from __future__ import annotations

import discord
from discord import app_commands

from cogs.app import TableBot
from cogs.base import CLOCK_CHOICES, CLOCK_OPTION, GameCog
from cogs.clocks import DEFAULT_CLOCK
from games.sewerrat.engine import SewerRat

TEAMS = SewerRat.option("teams")
TEAM_NAMES = {"ffa": "Free-for-all", "2": "Teams of 2", "3": "Teams of 3"}
TEAM_CHOICES = [app_commands.Choice(name=TEAM_NAMES[v], value=v) for v in TEAMS.choices]


class SewerRatCog(GameCog, group_name="sewerrat", group_description="Sewer Rat: be the last rat standing (2–6)"):
    kind = "sewerrat"

    @app_commands.command(name="new", description="Challenge members (and AI seats) to a game of Sewer Rat")
    @app_commands.describe(
        player2="A member to challenge",
        player3="Another member to challenge",
        player4="Another member to challenge",
        player5="Another member to challenge",
        player6="Another member to challenge",
        ai="How many seats the bot's AI plays",
        teams=TEAMS.description,
        clock=CLOCK_OPTION,
    )
    @app_commands.choices(teams=TEAM_CHOICES, clock=CLOCK_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction,
        player2: discord.Member | None = None,
        player3: discord.Member | None = None,
        player4: discord.Member | None = None,
        player5: discord.Member | None = None,
        player6: discord.Member | None = None,
        ai: app_commands.Range[int, 0, 5] = 0,
        teams: str = TEAMS.default,
        clock: str = DEFAULT_CLOCK,
    ) -> None:
        players = [player2, player3, player4, player5, player6]
        await self.challenge(interaction, players, ai, {"teams": teams}, clock)

    @app_commands.command(name="open", description="Open a Sewer Rat table that anyone here can join")
    @app_commands.describe(ai="How many seats the bot's AI plays", teams=TEAMS.description, clock=CLOCK_OPTION)
    @app_commands.choices(teams=TEAM_CHOICES, clock=CLOCK_CHOICES)
    async def open(
        self,
        interaction: discord.Interaction,
        ai: app_commands.Range[int, 0, 5] = 0,
        teams: str = TEAMS.default,
        clock: str = DEFAULT_CLOCK,
    ) -> None:
        await self.open_table(interaction, ai, {"teams": teams}, clock)


async def setup(bot: TableBot) -> None:
    await bot.add_cog(SewerRatCog(bot))
