"""The bot without Discord: SimCord (an in-memory Discord) stands in for it.

``driver`` plays for simulated members (the demo, the end-to-end tests and the benchmark use it),
``transcript`` writes what ``python bot.py demo`` (:mod:`cogs.offline.demo`) played, and ``play`` serves a table on
SimCord's Preview page for a person in a browser. None of it runs in the bot that connects to Discord.
"""
