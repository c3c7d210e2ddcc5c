"""A new game of Sea Rats!: fleets, ships on their ports, the Treasure on the X."""

from __future__ import annotations

import random

from games.core import JSON
from games.searats.components import SHIPS, START_CARGO
from games.searats.flow import fresh_turn
from games.searats.geometry import PORTS


def seat_count(players: int) -> int:
    """Ships that sail: all six with 2, 3 or 6 players (fleets of 3, 2 or 1), otherwise one per player."""
    return len(SHIPS) if len(SHIPS) % players == 0 else players


def fleets(players: int) -> list[int]:
    """The first commander of each ship: fleets spread so that turns alternate between players
    (2 players: Black, Blue, Purple against Red, Green, Yellow)."""
    return [s % players for s in range(seat_count(players))]


def setup_state(state: JSON, rng: random.Random) -> None:
    """Fill in a new state: each ship on its own port (Black on port 1 …) with 6 cannonballs and 6 supplies;
    the first ship to move drawn at random from the seed (the players' dice)."""
    seats = state["seats"]
    first = rng.randrange(seats)
    state.update(
        ships=[
            {
                "at": PORTS[s + 1],
                "balls": START_CARGO,
                "supplies": START_CARGO,
                "chart": None,
                "last": None,
                "sunk": False,
            }
            for s in range(seats)
        ],
        ctrl=fleets(state["players"]),
        treasure=None,
        round=1,
        dice=None,
        fates=[],
        log=[],
        first=first,
        **fresh_turn(first),
    )
