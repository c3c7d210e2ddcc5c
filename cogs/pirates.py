"""``/pirates``: the Pirates Card Game, free your captain with three missions (1–8 players; alone, solo)."""

from __future__ import annotations

from cogs.app import TableBot
from cogs.base import GameCog, table_commands


class PiratesCog(GameCog, group_name="pirates", group_description="Pirates Card Game: complete three missions (1–8)"):
    kind = "pirates"
    new, open = table_commands(
        "pirates", members=4, new="Start a Pirates Card Game: challenge members, add AI seats, or sail solo"
    )


async def setup(bot: TableBot) -> None:
    await bot.add_cog(PiratesCog(bot))
