"""``/sewerrat``: Sewer Rat, the last rat standing in an 8×8 board of plumbing (2–6 players)."""

from __future__ import annotations

from cogs.app import TableBot
from cogs.base import GameCog, table_commands


class SewerRatCog(GameCog, group_name="sewerrat", group_description="Sewer Rat: be the last rat standing (2–6)"):
    kind = "sewerrat"
    new, open = table_commands("sewerrat", members=6)


async def setup(bot: TableBot) -> None:
    await bot.add_cog(SewerRatCog(bot))
