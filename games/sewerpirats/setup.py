"""Setting up a game for each variant, and the landlubber variant's tribe choice."""

from __future__ import annotations

import random

from games.core import JSON, Action, Event, IllegalAction, act
from games.i18n import T, seat_ref
from games.sewerpirats.auction import begin, fill_bar
from games.sewerpirats.board import log
from games.sewerpirats.components import (
    AUCTION_HAND,
    COLORS,
    CREW_SIZE,
    ROW_SIZE,
    SHIPS,
    TRIBE_CODES,
    TRIBES,
    bonus_tokens,
    booty_tokens,
    talisman_deck,
)
from games.sewerpirats.sailing import lay_group
from games.sewerpirats.words import TRIBES_WORD

SMALL_HAND = 3
"""Starting cards of the first player and the player to their left (the others draw 4)."""


def setup_state(state: JSON, rng: random.Random) -> None:
    """Fill in a new game: ships and flotsam, the deck and row, then hands and crews per variant."""
    variant = state["options"]["variant"]
    seats = state["seats"]
    deck, booty, bonus = talisman_deck(), booty_tokens(), bonus_tokens()
    for pile in (deck, booty, bonus):
        rng.shuffle(pile)
    state.update(
        variant=variant,
        abilities=variant != "landlubber",
        tribes=[],
        ships=[{"spaces": [None] * 4, "flotsam": []} for _ in SHIPS],
        deck=deck,
        row=[],
        discard=[],
        booty_pool=booty,
        bonus_pool=bonus,
        box=[],
        players=[{"color": COLORS[s], "area": [], "hand": [], "tokens": []} for s in range(seats)],
        seen=[{} for _ in range(seats)],
        first=0,
        turn=0,
        phase="action",
        actor=0,
        snail=None,
        weasel=None,
        sail=None,
        final=None,
        auction=None,
        log=[],
        result=None,
    )
    for ship in state["ships"]:
        ship["flotsam"] = [lay_group(state), lay_group(state)]
    state["row"] = [deck.pop() for _ in range(ROW_SIZE)]
    if variant == "auction":
        bar = fill_bar(seats, rng)
        state["tribes"] = [t for t in TRIBES if any(stool["tribe"] == t for stool in bar)]
        for player in state["players"]:
            player["hand"] = [deck.pop() for _ in range(AUCTION_HAND)]
        begin(state, bar, rng.randrange(seats))
        return
    first = rng.randrange(seats)
    for k in range(seats):
        seat = (first + k) % seats
        state["players"][seat]["hand"] = [deck.pop() for _ in range(SMALL_HAND if k < 2 else SMALL_HAND + 1)]
    state["first"] = state["turn"] = state["actor"] = first
    if variant == "landlubber":
        state["phase"] = "crew"  # tribes are chosen in turn order, starting with the first player
        return
    revealed = rng.sample(TRIBES, CREW_SIZE)
    state["tribes"] = [t for t in TRIBES if t in revealed]
    for seat, player in enumerate(state["players"]):
        player["area"] = [{"id": f"{seat}{TRIBE_CODES[t]}1", "owner": seat, "tribe": t} for t in state["tribes"]]


def crew_actions(state: JSON) -> list[Action]:
    """Landlubber: the tribes the player to choose may still take."""
    return [act("tribe", t) for t in TRIBES if t not in state["tribes"]]


def play_crew(state: JSON, seat: int, action: Action, events: list[Event]) -> None:
    """Landlubber: ``tribe <name>`` gives the player 4 figures of a tribe nobody else chose; the next
    player clockwise chooses, and once everyone has, the first player takes the first turn."""
    if action.verb != "tribe" or len(action.args) != 1 or action.args[0] not in TRIBES:
        raise IllegalAction(T("Choose a tribe: `tribe <{tribes}>`.", tribes="|".join(TRIBES)))
    tribe = action.args[0]
    if tribe in state["tribes"]:
        raise IllegalAction(T("Another player already chose the {tribe}.", tribe=TRIBES_WORD[tribe]))
    state["tribes"].append(tribe)
    code = TRIBE_CODES[tribe]
    state["players"][seat]["area"] = [
        {"id": f"{seat}{code}{n}", "owner": seat, "tribe": tribe} for n in range(1, CREW_SIZE + 1)
    ]
    log(state, events, T("{seat} chose the {tribe}.", seat=seat_ref(seat), tribe=TRIBES_WORD[tribe]))
    state["turn"] = state["actor"] = (seat + 1) % state["seats"]
    if state["turn"] == state["first"]:
        state["phase"] = "action"
