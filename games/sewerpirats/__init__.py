"""Sewer Pirats: the rules engine and its heuristic AI."""

from games.sewerpirats.ai import SewerPiratsAI
from games.sewerpirats.engine import SewerPirats

__all__ = ["SewerPirats", "SewerPiratsAI"]
