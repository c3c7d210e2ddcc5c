"""Players and seats. A stored game has one :class:`~data.store.SeatRecord` per *player* (a member or an
AI), while the engine moves *seats* (rats, ships, hands): :meth:`Game.controller` says which player decides
for a seat. Most games have one seat per player; Sea Rats! gives a player a fleet. Everything the platform
asks about a game's players is answered here, through the ``Game`` contract only."""

from __future__ import annotations

import hashlib
from typing import Any

from data.store import GameRecord
from games.core import Game
from games.registry import GameSpec


def seed_digest(seed: str) -> str:
    """The SHA-256 posted when a game starts, so players can verify the shuffle once the seed is revealed."""
    return hashlib.sha256(seed.encode()).hexdigest()


def seat_owners(game: Game, state: dict[str, Any]) -> list[int]:
    """The player deciding for each seat."""
    return [game.controller(state, s) for s in range(state["seats"])]


def seat_names(game: Game, record: GameRecord) -> list[str]:
    """A display name per engine seat (its controller's), for ``{pN}`` in engine text and for renderers."""
    names = record.names
    return [names[p] for p in seat_owners(game, record.state)]


def image_names(spec: GameSpec, record: GameRecord) -> list[str]:
    """The names an image of a record is drawn with: one per seat (its controller's), or one per player
    where the game asks for them (:attr:`GameSpec.names_by_player`)."""
    return list(record.names) if spec.names_by_player else seat_names(spec.game, record)


def players_out(game: Game, record: GameRecord) -> set[int]:
    """Players who have no seat left in the game (every seat they control is out)."""
    out = game.out(record.state)
    owners = seat_owners(game, record.state)
    playing = {owners[s] for s in range(len(owners)) if s not in out}
    return {p.seat for p in record.seats if p.seat not in playing}


def seats_of(game: Game, state: dict[str, Any], player: int) -> list[int]:
    """Every seat ``player`` decides for (one, or a fleet)."""
    return [s for s in range(state["seats"]) if game.controller(state, s) == player]


def deciding(game: Game, record: GameRecord, player: int) -> list[int]:
    """The seats ``player`` must decide for now, in the engine's order."""
    state = record.state
    return [s for s in game.to_act(state) if game.controller(state, s) == player]


def deciders(spec: GameSpec, record: GameRecord) -> list[int]:
    """The players (record seat numbers) who must decide now, in the engine's order."""
    if record.status != "active":
        return []
    game, state = spec.game, record.state
    return list(dict.fromkeys(game.controller(state, s) for s in game.to_act(state)))


def ai_seats_to_act(spec: GameSpec, record: GameRecord) -> list[int]:
    """The engine seats the AI must decide for now (AI players, resigned or away members)."""
    if record.status != "active":
        return []
    game, state = spec.game, record.state
    return [s for s in game.to_act(state) if record.seats[game.controller(state, s)].is_ai]
