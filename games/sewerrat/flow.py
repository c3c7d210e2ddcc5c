"""The course of a turn: the roll and its traps, the move step, the end of the turn, elimination, the end.

Each function mutates the state and appends the public events it causes. The state's ``phase`` says
which decision is pending and ``actor`` which seat makes it:

* ``place`` — the actor places its rat on a white dot (setup, in seat order);
* ``displace`` — a trap of the roll falls on the actor's rat: it chooses where the rat flees;
* ``put`` — the roller puts the trap at the head of ``queue`` anywhere legal;
* ``extra`` — doubles fell on a red trap: the roller chooses one red or two black traps;
* ``move`` — the mover moves its rat (mandatory);
* ``after`` / ``tile`` / ``tiles`` — the mover may push a black trap or change up to 4 tiles, a square
  (``picking``) then its tile at a time (``pending``);
* ``over``.

``queue`` holds the roll's traps not yet placed, each ``[kind, square]`` with kind ``black``, ``red``
or ``choose`` (doubles on a red trap) and square -1 when the roller chooses it.
"""

from __future__ import annotations

import random

from games.core import JSON, Event, Termination, dice
from games.i18n import T, joined, seat_ref
from games.sewerrat.board import add_trap, can_move, escapes, occupied
from games.sewerrat.components import BLACK, DIR_WAY, RED, SIZE, square, square_name

TURN_LIMIT = 300
"""The safety limit: after this many turns the rats still in share the victory."""


def p(seat: int) -> str:
    """A seat's placeholder in engine text, replaced by its player's name (a value of a marked message)."""
    return seat_ref(seat)


def team_count(players: int, teams: str) -> int:
    """How many teams ``players`` form under the ``teams`` option (``ffa``, ``2`` or ``3`` players a team):
    as many as full teams need, at least two; seats alternate between them."""
    if teams == "ffa":
        return players
    return max(2, -(-players // int(teams)))


def team_of(state: JSON, seat: int) -> int:
    return seat % team_count(state["players"], state["options"]["teams"])


def standing_teams(state: JSON) -> list[int]:
    """The teams with a rat still in, in order."""
    count = team_count(state["players"], state["options"]["teams"])
    return sorted({s % count for s, q in enumerate(state["rats"]) if q is not None})


def team_seats(state: JSON, team: int) -> list[int]:
    count = team_count(state["players"], state["options"]["teams"])
    return [s for s in range(state["seats"]) if s % count == team]


def eliminate(state: JSON, seat: int, when: str, events: list[Event]) -> None:
    """Remove ``seat``'s rat; rats that fall in the same ``when`` of the same turn fall at once (``roll``:
    it cannot flee a trap of the roll; ``move``: it has no move when its move begins; ``end``: none at the
    end of its turn)."""
    state["rats"][seat] = None
    state["fallen"].append([seat, state["turn"], when])
    if when == "roll":
        text = T("{seat}'s rat cannot flee the trap and is out.", seat=p(seat))
    elif when == "move":
        text = T("{seat}'s rat has no legal move and is out.", seat=p(seat))
    else:
        text = T("{seat}'s rat cannot move at the end of its turn and is out.", seat=p(seat))
    events.append(Event(f"💀 {text}"))


def finish(state: JSON, winners: list[int], termination: Termination, summary: str) -> None:
    state.update(phase="over", actor=None, queue=[], pending=[], picking=None)
    state["result"] = {"winners": sorted(winners), "termination": termination.name, "summary": summary}


def check_end(state: JSON, events: list[Event]) -> bool:
    """End the game if at most one team has a rat left; whether it ended."""
    standing = standing_teams(state)
    if len(standing) > 1:
        return False
    if standing:
        winners = team_seats(state, standing[0])
    else:
        # Every remaining rat fell at once: the teams of those rats share the victory.
        last = state["fallen"][-1][1:]
        teams = {team_of(state, s) for s, *when in state["fallen"] if when == last}
        winners = [s for t in sorted(teams) for s in team_seats(state, t)]
    names = joined([p(s) for s in winners])
    if not standing:
        summary = T("{names} share the victory: the last rats fell at once.", names=names)
    elif len(winners) > 1:
        summary = T("{names} win: their team has the last rat standing.", names=names)
    else:
        summary = T("{names} wins: the last rat standing.", names=names)
    finish(state, winners, Termination.LAST_STANDING, summary)
    events.append(Event(f"🏁 {summary}"))
    return True


def begin_turn(state: JSON, seat: int, rng: random.Random, events: list[Event]) -> None:
    """Start ``seat``'s turn: roll the yellow and green d8 and place the traps."""
    state.update(mover=seat, turn=state["turn"] + 1, pending=[], picking=None, refused=False)
    y, g = rng.randint(1, SIZE), rng.randint(1, SIZE)
    state["roll"] = {"y": y, "g": g, "at": []}
    events.append(
        Event(
            T("{seat} rolls yellow {y}, green {g}.", seat=p(seat), y=y, g=g),
            data=dice(("yellow d8", SIZE, y), ("green d8", SIZE, g)),
        )
    )
    if y == g:
        state["queue"] = [["red", square(y - 1, y - 1)]]
    else:
        state["queue"] = [["black", square(y - 1, g - 1)], ["black", square(g - 1, y - 1)]]
    resolve(state, rng, events)


def drop(state: JSON, q: int, kind: int, events: list[Event]) -> None:
    """Put a trap of the roll on ``q`` (where it lands, for the board to show)."""
    now = add_trap(state["traps"], q, kind)
    state["roll"]["at"].append(q)
    if now == RED:
        events.append(Event(T("A red trap is now on {square}.", square=square_name(q))))
    else:
        events.append(Event(T("A black trap is now on {square}.", square=square_name(q))))


def resolve(state: JSON, rng: random.Random, events: list[Event]) -> None:
    """Place the roll's traps in order until one needs a decision; then start the move step."""
    queue, traps, mover = state["queue"], state["traps"], state["mover"]
    while queue:
        kind, q = queue[0]
        if q < 0 or kind == "choose":
            if state["rats"][mover] is None:
                # A roller whose rat fell during its own roll places nothing more.
                queue.pop(0)
                continue
            state.update(phase="extra" if kind == "choose" else "put", actor=mover)
            return
        if traps[q] == RED and kind == "black":
            queue[0] = ["black", -1]
            events.append(
                Event(
                    T(
                        "The black trap falls on the red trap at {square}: {seat} places it.",
                        square=square_name(q),
                        seat=p(mover),
                    )
                )
            )
            continue
        if traps[q] and kind == "red":
            if traps[q] == BLACK:
                drop(state, q, RED, events)
                queue[0] = ["black", -1]
                events.append(Event(T("Doubles on a black trap: {seat} places an extra black trap.", seat=p(mover))))
            else:
                queue[0] = ["choose", -1]
                events.append(
                    Event(T("Doubles on a red trap: {seat} places one red or two black traps.", seat=p(mover)))
                )
            continue
        if q in occupied(state):
            seat = state["rats"].index(q)
            ways = escapes(state, seat)
            if len(ways) > 1:
                state.update(phase="displace", actor=seat)
                return
            if ways:
                (d, there), *_ = ways.items()
                flee(state, seat, d, there, events)
            else:
                eliminate(state, seat, "roll", events)
        drop(state, q, RED if kind == "red" else BLACK, events)
        queue.pop(0)
    after_roll(state, rng, events)


def flee(state: JSON, seat: int, d: int, there: int, events: list[Event]) -> None:
    state["rats"][seat] = there
    events.append(
        Event(
            T(
                "{seat}'s rat flees the trap {direction} to {square}.",
                seat=p(seat),
                direction=DIR_WAY[d],
                square=square_name(there),
            )
        )
    )


def after_roll(state: JSON, rng: random.Random, events: list[Event]) -> None:
    """The roll is placed: the end is checked (rats it eliminated fell at once), then the move step."""
    if check_end(state, events):
        return
    mover = state["mover"]
    if state["rats"][mover] is None:
        next_turn(state, rng, events)
    elif not can_move(state, mover):
        eliminate(state, mover, "move", events)
        if not check_end(state, events):
            next_turn(state, rng, events)
    else:
        state.update(phase="move", actor=mover)


def end_turn(state: JSON, rng: random.Random, events: list[Event]) -> None:
    """The mover's turn is over: a rat that cannot move now is out; then the next rat's turn."""
    mover = state["mover"]
    state.update(pending=[], picking=None, refused=False)
    if not can_move(state, mover):
        eliminate(state, mover, "end", events)
        if check_end(state, events):
            return
    next_turn(state, rng, events)


def next_turn(state: JSON, rng: random.Random, events: list[Event]) -> None:
    if state["turn"] >= TURN_LIMIT:
        winners = [s for t in standing_teams(state) for s in team_seats(state, t)]
        names = joined([p(s) for s in winners])
        summary = T("{limit} turns have passed: {names} share the victory.", limit=TURN_LIMIT, names=names)
        finish(state, winners, Termination.SAFETY_LIMIT, summary)
        events.append(Event(f"🏁 {summary}"))
        return
    seats = state["seats"]
    seat = state["mover"]
    for _ in range(seats):
        seat = (seat + 1) % seats
        if state["rats"][seat] is not None:
            break
    begin_turn(state, seat, rng, events)
