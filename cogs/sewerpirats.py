"""``/sewerpirats``: Sewer Pirats, crew three pirat ships and seize the flotsam (2–5 players)."""

from __future__ import annotations

from cogs.app import TableBot
from cogs.base import GameCog, table_commands


class SewerPiratsCog(
    GameCog, group_name="sewerpirats", group_description="Sewer Pirats: crew the pirat ships, seize the booty (2–5)"
):
    kind = "sewerpirats"
    new, open = table_commands("sewerpirats", members=5)


async def setup(bot: TableBot) -> None:
    await bot.add_cog(SewerPiratsCog(bot))
