"""``/piratz``: Piratz, the push-your-luck treasure game (2–4 players)."""

from __future__ import annotations

from cogs.app import TableBot
from cogs.base import GameCog, table_commands


class PiratzCog(GameCog, group_name="piratz", group_description="Piratz: dig up treasure, beware the rats (2–4)"):
    kind = "piratz"
    new, open = table_commands("piratz", members=4)


async def setup(bot: TableBot) -> None:
    await bot.add_cog(PiratzCog(bot))
