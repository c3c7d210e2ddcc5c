"""How play moves on between decisions: a turn begins (and its die is rolled), the battles-and-trades
part of a turn opens or ends, the game ends."""

from __future__ import annotations

from games.core import JSON, Event
from games.i18n import T
from games.searats.board import afloat, aim_targets, commanders_afloat, trade_partners
from games.searats.components import ROUNDS, Dice, who


def fresh_turn(seat: int) -> JSON:
    """What a ship's turn starts from: nothing rolled, charted, fought or traded yet."""
    return {
        "turn": seat,
        "phase": "start",
        "roll": [],
        "wind": False,
        "port": None,
        "battle": None,
        "offer": None,
        "prize": None,
        "flee": None,
        "fought": [],
        "traded": [],
        "trading": False,
    }


def begin_turn(state: JSON, seat: int, dice: Dice) -> None:
    """``seat``'s turn begins: its die is rolled at once, unless it carries the Treasure and may call for
    the Stronger Wind first."""
    state.update(fresh_turn(seat))
    if state["treasure"] != seat:
        roll_to_sail(state, 1, dice)


def roll_to_sail(state: JSON, count: int, dice: Dice) -> None:
    seat = state["turn"]
    state["roll"] = dice.roll(count, lambda shown: T("{ship} rolls: {dice}.", ship=who(seat), dice=shown))
    state["dice"] = {"seat": seat, "what": "sail", "values": list(state["roll"])}
    state["phase"] = "sail"


def enter_act(state: JSON, dice: Dice, events: list[Event]) -> None:
    """After sailing (and making port): battles, then trades; the turn ends by itself when neither is possible."""
    if aim_targets(state) or trade_partners(state):
        state["phase"] = "act"
    else:
        end_turn(state, dice, events)


def end_turn(state: JSON, dice: Dice, events: list[Event]) -> None:
    """Pass the turn to the next ship afloat in the fixed order; a new round starts when the turn comes
    round to the first ship's place again (the first ship drawn at the start, sunk or not)."""
    if game_over(state, events):
        return
    current = state["turn"]
    first, seats = state.get("first", 0), state["seats"]
    order = afloat(state)
    following = [s for s in order if s > current] or order
    nxt = following[0]
    if (nxt - first) % seats <= (current - first) % seats:
        state["round"] += 1
        if game_over(state, events):
            return
    begin_turn(state, nxt, dice)


def game_over(state: JSON, events: list[Event]) -> bool:
    """End the game when at most one commander has a ship afloat, or after the last round."""
    if state["phase"] == "over":
        return True
    if len(commanders_afloat(state)) > 1 and state["round"] <= ROUNDS:
        return False
    state.update(phase="over", battle=None, offer=None, prize=None, flee=None, port=None)
    if state["round"] > ROUNDS:
        events.append(
            Event(T("⌛ {rounds} rounds are over: the most ships, then the most cargo, wins.", rounds=ROUNDS))
        )
    return True
