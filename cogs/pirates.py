"""``/pirates``: Pirates Card Game, its commands built from its registry entry (:func:`cogs.base.game_cog`)."""

from __future__ import annotations

from cogs.base import game_cog

setup = game_cog(__name__)
