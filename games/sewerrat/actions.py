"""The legal actions of each phase and how each is played.

Texts: ``place r3c4``, ``flee n``, ``black r3c4`` / ``red r3c4`` (the roller puts a trap), ``extra red`` /
``extra black``, ``move n 3``, ``toilet w``, ``push r3c4 e``, ``tile r3c4`` (a square to change) then
``lay ne`` (the openings of its new tile in any order, ``blank`` for none), or both at once as
``tile r3c4 ne``, ``confirm``, ``cancel``, ``pass``.

A refused action says why: the rule it breaks, or what the phase asks for instead.
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
    OUTWARD,
    RED,
    SHAPE_OF,
    SHAPE_WORD,
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
from games.sewerrat.tiles import MAX_TILES, change_problem, commit, tile_masks, tile_squares


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


def mask_of(text: str) -> int | None:
    """A tile from its openings in any order (``en`` is ``ne``), ``blank`` for none; ``None`` if not one."""
    if text in MASK_BY_TEXT:
        return MASK_BY_TEXT[text]
    if not text or len(set(text)) != len(text) or not set(text) <= set(DIR_BY_NAME):
        return None
    return sum(DIR_BY_NAME[c] for c in text)


def is_legal(state: JSON, seat: int, action: Action) -> bool:
    """Whether ``action`` is one of :func:`legal` (or its one-line tile form, or a tile named in another
    order), without listing every square, push or trap placement when the action names one."""
    verb, args = action.verb, action.args
    phase = state["phase"]
    if seat != state["actor"]:
        return False
    if verb == "tile" and len(args) == 2 and args[0] in SQUARE_BY_TEXT and phase in ("after", "tiles"):
        q, mask = SQUARE_BY_TEXT[args[0]], mask_of(args[1])
        return q in tile_squares(state) and mask is not None and mask in tile_masks(state, q)
    if verb == "lay" and len(args) == 1 and phase == "tile":
        mask = mask_of(args[0])
        return mask is not None and mask in tile_masks(state, state["picking"])
    if verb in ("pass", "confirm", "cancel") and not args:
        if verb == "pass":
            return phase == "after"
        return phase == "tiles" and (verb == "cancel" or not state["refused"])
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
    elif verb == "tile" and len(args) == 1:
        state.update(phase="tile", picking=SQUARE_BY_TEXT[args[0]], refused=False)
    elif verb in ("tile", "lay"):
        if verb == "tile":  # the one-line form: the square and its tile
            state.update(picking=SQUARE_BY_TEXT[args[0]], refused=False)
        q, mask = state["picking"], mask_of(args[-1])
        assert mask is not None
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


PROMPTS = {
    "place": "Place your rat first: `place r3c4`, on an empty white dot.",
    "displace": "A trap fell on your rat: it flees first (`flee <direction>`).",
    "put": "Put the {kind} trap of your roll first: `{kind} r3c4`.",
    "extra": "Doubles on a red trap: choose `extra red` (one red trap) or `extra black` (two black traps) first.",
    "move": "Move your rat first: `move <direction> <stops>`, or `toilet <side>` on an edge square.",
    "after": "Your rat has moved: push a black trap (`push r3c4 e`), change tiles (`tile r3c4 ne`) or `pass`.",
    "tile": "Lay the new tile on {square} first: `lay ne` (its openings), `blank` for none.",
    "tiles": "Change another square (`tile r3c4 ne`), `confirm` the change or `cancel` it.",
}
"""What each phase asks for, said to an action of another phase."""

VERBS = {
    "place": {"place"},
    "displace": {"flee"},
    "put": {"black", "red"},
    "extra": {"extra"},
    "move": {"move", "toilet"},
    "after": {"pass", "push", "tile"},
    "tile": {"lay"},
    "tiles": {"tile", "confirm", "cancel"},
}


def _blocked(state: JSON, seat: int, d: int) -> str:
    """Why ``seat``'s rat finds no square to stop on going ``d``."""
    here = state["rats"][seat]
    rats, traps, board = occupied(state), state["traps"], state["board"]
    if not board[here] & d:
        return f"its tile has no opening to the {DIR_WORD[d].lower()}"
    while True:
        there = NEIGHBOUR[here][d]
        if there < 0:
            return "the edge of the sewer is that way (toilets are `toilet <side>`)"
        if traps[there]:
            return f"a {TRAPS[traps[there]]} trap is on {square_text(there)}"
        if there not in rats:
            return f"it can stop on {square_text(there)}"  # not blocked: the caller asked wrongly
        if not board[there] & d:
            return f"a rat is on {square_text(there)}, where the pipe does not run straight on"
        here = there


def _why_not(state: JSON, seat: int, action: Action) -> str:
    """A specific reason for refusing ``action``: the rule it breaks, or what the phase asks for."""
    verb = action.verb
    phase = state["phase"]
    if phase not in VERBS:
        return "This game is over."
    if verb not in VERBS[phase]:
        kind = state["queue"][0][0] if phase == "put" else ""
        square = square_text(state["picking"]) if phase == "tile" else ""
        return PROMPTS[phase].format(kind=kind, square=square)
    rats, traps = occupied(state), state["traps"]
    if verb == "place":
        q = _square(_args(action, 1)[0])
        if q in rats:
            return f"A rat is already on {square_text(q)}."
        return f"{square_text(q)} is not a white dot: rats start on the dead ends marked with a white circle."
    if verb == "flee":
        d = _direction(_args(action, 1)[0])
        return f"Your rat cannot flee {DIR_WORD[d].lower()}: {_blocked(state, seat, d)}."
    if verb in ("black", "red"):
        kind = state["queue"][0][0]
        if verb != kind:
            return f"The next trap of your roll is {kind}: `{kind} r3c4`."
        q = _square(_args(action, 1)[0])
        if traps[q] == RED:
            return f"{square_text(q)} already has a red trap: put the trap on a square without one."
        if q in rats:
            return f"A rat is on {square_text(q)}: traps go on squares without a rat."
    if verb == "extra":
        return "Choose `extra red` (one red trap) or `extra black` (two black traps)."
    if verb == "move":
        d = _direction(_args(action, 2)[0])
        runs, _ = moves(state, seat)
        if d not in runs:
            return f"Your rat cannot move {DIR_WORD[d].lower()}: {_blocked(state, seat, d)}."
        return f"Your rat can move {DIR_WORD[d].lower()} 1 to {len(runs[d])} stops from here."
    if verb == "toilet":
        d = _direction(_args(action, 1)[0])
        start = state["rats"][seat]
        if not OUTWARD[start] & d:
            return f"There is no toilet on the {DIR_WORD[d].lower()} side of {square_text(start)}."
        if not state["board"][start] & d:
            return f"Your tile has no opening to toilet {toilet_name(start, d)}."
        exit_ = toilet_exit(start, d)
        if traps[exit_]:
            return (
                f"A {TRAPS[traps[exit_]]} trap is on {square_text(exit_)}, the exit of toilet {toilet_name(start, d)}."
            )
        if exit_ in rats:
            return f"A rat is on {square_text(exit_)}, the exit of toilet {toilet_name(start, d)}."
    if verb == "push":
        q = _square(_args(action, 2)[0])
        d = _direction(action.args[1])
        if traps[q] != BLACK:
            return f"There is no black trap on {square_text(q)} to push."
        there = NEIGHBOUR[q][d]
        if there < 0:
            return "A trap cannot be pushed off the board (nor through a toilet)."
        if traps[there] == RED:
            return f"{square_text(there)} has a red trap: a black trap cannot be pushed onto it."
        if there in rats:
            return f"A rat is on {square_text(there)}: a trap cannot be pushed onto a rat."
    if verb == "tile":
        args = action.args
        if len(args) not in (1, 2):
            return "`tile` takes a square, and may name its new tile: `tile r3c4` or `tile r3c4 ne`."
        q = _square(args[0])
        if len(state["pending"]) >= MAX_TILES:
            return f"A change takes at most {MAX_TILES} tiles: `confirm` or `cancel` it."
        if any(q == p for p, _ in state["pending"]):
            return f"{square_text(q)} is already in this change."
        if q in rats or traps[q]:
            return "You cannot change a tile with a rat or a trap on it."
        if len(args) == 2:
            return _lay_refusal(state, q, args[1])
    if verb == "lay":
        return _lay_refusal(state, state["picking"], _args(action, 1)[0])
    if verb == "confirm" and state["refused"]:
        return "This change was refused as it stands: change another tile, or `cancel`."
    return f"`{action.encode()[:40]}` is not one of your moves right now; autocomplete lists them."


def _lay_refusal(state: JSON, q: int, text: str) -> str:
    mask = mask_of(text)
    if mask is None:
        return "Name a tile by its openings (n, e, s, w, in any order: ne, nes, nesw), or blank for none."
    return (
        f"No {SHAPE_WORD[SHAPE_OF[mask]].lower()} tile is left in the supply, nor can a square this change"
        f" may still take give one back: turn the tile of {square_text(q)}, or choose a shape the supply has."
    )
