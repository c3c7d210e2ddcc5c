"""The Pirates Card Game: the rules engine and its heuristic AI."""

from games.pirates.ai import PiratesAI
from games.pirates.engine import Pirates

__all__ = ["Pirates", "PiratesAI"]
