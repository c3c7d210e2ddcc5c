"""Sewer Rat: the rules engine and its heuristic AI."""

from games.sewerrat.ai import SewerRatAI
from games.sewerrat.engine import SewerRat

__all__ = ["SewerRat", "SewerRatAI"]
