"""Every game the bot hosts, by key, with the AI that plays it (no rendering or Discord here)."""

from __future__ import annotations

from games.core import Game, Player
from games.piratz import Piratz, PiratzAI
from games.sewerpirats import SewerPirats, SewerPiratsAI

ENGINES: dict[str, tuple[Game, type[Player]]] = {
    "piratz": (Piratz(), PiratzAI),
    "sewerpirats": (SewerPirats(), SewerPiratsAI),
}


def engine(key: str) -> Game:
    return ENGINES[key][0]


def ai_player(key: str) -> Player:
    return ENGINES[key][1]()
