"""The play service, free of Discord and Pillow: load a game, let its engine validate and apply an action,
commit it, and say what each audience is told; plus the menu logic that turns legal actions into label
paths. The cogs (Discord) and the renderers (Pillow) sit on either side of it.

Importing this package loads neither discord.py nor Pillow (a test checks it).
"""
