"""Where the tools that check what the bot sends against Discord's limits find the SimCord driver
(``from cogs.demo import SimTable, speaking``). ``python bot.py demo`` itself is :mod:`cogs.offline.demo`."""

from cogs.offline.demo import SimTable, output_problem, run_demo, speaking

__all__ = ["SimTable", "output_problem", "run_demo", "speaking"]
