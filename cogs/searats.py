"""``/searats``: Sea Rats!, the last pirate afloat wins (2–6 players commanding six ships)."""

from __future__ import annotations

from cogs.app import TableBot
from cogs.base import GameCog, table_commands


class SeaRatsCog(GameCog, group_name="searats", group_description="Sea Rats!: the last pirate afloat wins (2–6)"):
    kind = "searats"
    new, open = table_commands("searats", members=6)


async def setup(bot: TableBot) -> None:
    await bot.add_cog(SeaRatsCog(bot))
