"""Sea Rats!: the rules engine and its heuristic AI."""

from games.searats.ai import SeaRatsAI
from games.searats.engine import SeaRats

__all__ = ["SeaRats", "SeaRatsAI"]
