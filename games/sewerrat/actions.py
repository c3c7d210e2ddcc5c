"""The legal actions of each phase and how each is played.

Texts: ``place r3c4``, ``flee n``, ``black r3c4`` / ``red r3c4`` (the roller puts a trap), ``extra red`` /
``extra black``, ``move n 3``, ``toilet w``, ``push r3c4 e``, ``tile r3c4`` (a square to change) then
``lay ne`` (the openings of its new tile, ``blank`` for none), ``confirm``, ``cancel``, ``pass``.
"""

from __future__ import annotations

import random

from games.core import JSON, Action, Event, IllegalAction, act
from games.sewerrat import flow
from games.sewerrat.board import add_trap, escapes, free_squares, moves, occupied, pushes
from games.sewerrat.components import (
    BLACK,
    DIR_BY_NAME,
    DIR_NAME,
    DIR_WORD,
    MASK_BY_TEXT,
    NEIGHBOUR,
    RED,
    SHAPE_OF,
    SQUARE_BY_TEXT,
    SQUARES,
    TRAPS,
    mask_label,
    mask_text,
    square_text,
    toilet_exit,
    toilet_name,
)
from games.sewerrat.flow import p
from games.sewerrat.tiles import change_problem, commit, tile_masks, tile_squares


def dots(state: JSON) -> list[int]:
    """The empty white-dot squares (circle-capped dead ends) a rat may be placed on."""
    rats = occupied(state)
    return [q for q in range(SQUARES) if SHAPE_OF[state["board"][q]] == "cap" and q not in rats]


def legal(state: JSON, seat: int) -> list[Action]:
    """The legal actions of ``seat`` (empty unless it is the actor)."""
    if seat != state["actor"]:
        return []
    phase = state["phase"]
    if phase == "place":
        return [act("place", square_text(q)) for q in dots(state)]
    if phase == "displace":
        return [act("flee", DIR_NAME[d]) for d in escapes(state, seat)]
    if phase == "put":
        kind = state["queue"][0][0]
        return [act(kind, square_text(q)) for q in free_squares(state)]
    if phase == "extra":
        return [act("extra", "red"), act("extra", "black")]
    if phase == "move":
        runs, sides = moves(state, seat)
        out = [act("move", DIR_NAME[d], k + 1) for d, stops in runs.items() for k, _ in enumerate(stops)]
        return out + [act("toilet", DIR_NAME[d]) for d in sides]
    if phase == "tile":
        return [act("lay", mask_text(m)) for m in tile_masks(state, state["picking"])]
    changes = [act("tile", square_text(q)) for q in tile_squares(state)]
    if phase == "after":
        return [act("pass"), *(act("push", square_text(q), DIR_NAME[d]) for q, d in pushes(state)), *changes]
    # tiles: a refused change can still be completed or cancelled, but not confirmed again unchanged
    return [*changes, *([] if state["refused"] else [act("confirm")]), act("cancel")]


def is_legal(state: JSON, seat: int, action: Action) -> bool:
    """Whether ``action`` is one of :func:`legal`, without listing every square, push or trap placement
    when the action names one."""
    verb, args = action.verb, action.args
    phase = state["phase"]
    if seat != state["actor"]:
        return False
    if verb in ("pass", "confirm", "cancel") and not args:
        return (phase == "after" and verb == "pass") or (
            phase == "tiles" and (verb == "cancel" or not state["refused"])
        )
    if len(args) == 1 and args[0] in SQUARE_BY_TEXT:
        q = SQUARE_BY_TEXT[args[0]]
        if verb == "tile":
            return phase in ("after", "tiles") and q in tile_squares(state)
        if verb in ("black", "red"):
            return phase == "put" and state["queue"][0][0] == verb and q in free_squares(state)
    if verb == "push" and phase == "after" and len(args) == 2 and args[0] in SQUARE_BY_TEXT:
        return args[1] in DIR_BY_NAME and (SQUARE_BY_TEXT[args[0]], DIR_BY_NAME[args[1]]) in pushes(state)
    return verb not in ("tile", "black", "red", "push") and action in legal(state, seat)


def _square(text: str) -> int:
    if text not in SQUARE_BY_TEXT:
        raise IllegalAction(f"`{text[:10]}` is not a square: write it like r3c4 (row 3, column 4).")
    return SQUARE_BY_TEXT[text]


def _direction(text: str) -> int:
    if text not in DIR_BY_NAME:
        raise IllegalAction("A direction is n, e, s or w.")
    return DIR_BY_NAME[text]


def _args(action: Action, count: int) -> tuple[str, ...]:
    if len(action.args) != count:
        raise IllegalAction(f"`{action.verb}` takes {count} argument{'s' if count != 1 else ''}.")
    return action.args


def play(state: JSON, seat: int, action: Action, rng: random.Random) -> list[Event]:
    """Apply a legal ``action`` of the actor ``seat``; raises :class:`IllegalAction` before changing
    anything otherwise."""
    if not is_legal(state, seat, action):
        raise IllegalAction(_why_not(state, seat, action))
    events: list[Event] = []
    verb, args = action.verb, action.args
    if verb == "place":
        q = SQUARE_BY_TEXT[args[0]]
        state["rats"][seat] = q
        events.append(Event(f"{p(seat)} places their rat on {square_text(q)}."))
        if seat + 1 < state["seats"]:
            state["actor"] = seat + 1
        else:
            flow.begin_turn(state, 0, rng, events)
    elif verb == "flee":
        d = DIR_BY_NAME[args[0]]
        kind, q = state["queue"].pop(0)
        flow.flee(state, seat, d, escapes(state, seat)[d], events)
        flow.drop(state, q, RED if kind == "red" else BLACK, events)
        flow.resolve(state, rng, events)
    elif verb in ("black", "red"):
        q = SQUARE_BY_TEXT[args[0]]
        state["queue"].pop(0)
        now = add_trap(state["traps"], q, RED if verb == "red" else BLACK)
        state["roll"]["at"].append(q)
        events.append(Event(f"{p(seat)} puts a {verb} trap on {square_text(q)}: now a {TRAPS[now]} trap."))
        flow.resolve(state, rng, events)
    elif verb == "extra":
        state["queue"][0:1] = [["red", -1]] if args[0] == "red" else [["black", -1], ["black", -1]]
        events.append(Event(f"{p(seat)} chooses {'one red trap' if args[0] == 'red' else 'two black traps'}."))
        flow.resolve(state, rng, events)
    elif verb in ("move", "toilet"):
        _move(state, seat, action, events)
    elif verb == "push":
        q, d = SQUARE_BY_TEXT[args[0]], DIR_BY_NAME[args[1]]
        there = NEIGHBOUR[q][d]
        state["traps"][q] = 0
        now = add_trap(state["traps"], there, BLACK)
        events.append(
            Event(f"{p(seat)} pushes the black trap on {square_text(q)} to {square_text(there)} ({TRAPS[now]}).")
        )
        flow.end_turn(state, rng, events)
    elif verb == "tile":
        state.update(phase="tile", picking=SQUARE_BY_TEXT[args[0]], refused=False)
    elif verb == "lay":
        q, mask = state["picking"], MASK_BY_TEXT[args[0]]
        state["pending"].append([q, mask])
        state.update(phase="tiles", picking=None)
        kept = mask == state["board"][q]
        what = "keeps the tile" if kept else f"plans a {mask_label(mask).lower()}"
        events.append(Event(f"{p(seat)} {what} on {square_text(q)}."))
    elif verb == "confirm":
        reason = change_problem(state)
        if reason is not None:
            state["refused"] = True
            events.append(Event(f"The tile change is refused: {reason}. Change more tiles or cancel."))
        else:
            changed = ", ".join(square_text(q) for q, _ in state["pending"])
            commit(state)
            events.append(Event(f"{p(seat)} changes the tiles on {changed}."))
            flow.end_turn(state, rng, events)
    elif verb == "cancel":
        state["pending"] = []
        events.append(Event(f"{p(seat)} cancels the tile change."))
        flow.end_turn(state, rng, events)
    else:  # pass
        events.append(Event(f"{p(seat)} ends their turn."))
        flow.end_turn(state, rng, events)
    return events


def _move(state: JSON, seat: int, action: Action, events: list[Event]) -> None:
    start = state["rats"][seat]
    d = DIR_BY_NAME[action.args[0]]
    if action.verb == "toilet":
        there = toilet_exit(start, d)
        name = toilet_name(start, d)
        events.append(Event(f"{p(seat)}'s rat dives into toilet {name} and pops out on {square_text(there)}."))
    else:
        runs, _ = moves(state, seat)
        there = runs[d][int(action.args[1]) - 1]
        events.append(Event(f"{p(seat)}'s rat runs {DIR_WORD[d].lower()} to {square_text(there)}."))
    state["rats"][seat] = there
    state["phase"] = "after"


def _why_not(state: JSON, seat: int, action: Action) -> str:
    """A specific reason for refusing ``action`` where one is easy to give."""
    verb = action.verb
    phase = state["phase"]
    if verb == "move" and phase == "move":
        d = _direction(_args(action, 2)[0])
        runs, _ = moves(state, seat)
        if d not in runs:
            return f"Your rat cannot move {DIR_WORD[d].lower()}: no open pipe, or a trap or the edge is in the way."
        return f"Your rat can move {DIR_WORD[d].lower()} 1 to {len(runs[d])} stops from here."
    if verb == "tile" and phase in ("after", "tiles"):
        q = _square(_args(action, 1)[0])
        if q in occupied(state) or state["traps"][q]:
            return "You cannot change a tile with a rat or a trap on it."
    if verb == "lay" and phase == "tile" and _args(action, 1)[0] not in MASK_BY_TEXT:
        return "Name a tile by its openings in N, E, S, W order: ns, ne, nes, nesw, n or blank."
    if verb == "push" and phase == "after":
        q = _square(_args(action, 2)[0])
        if state["traps"][q] != BLACK:
            return f"There is no black trap on {square_text(q)} to push."
    return f"`{action.encode()[:40]}` is not one of your moves right now; autocomplete lists them."
