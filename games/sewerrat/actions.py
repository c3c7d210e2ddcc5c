"""The legal actions of each phase and how each is played.

Texts: ``place r3c4``, ``flee n``, ``black r3c4`` / ``red r3c4`` (the roller puts a trap), ``extra red`` /
``extra black``, ``move n 3``, ``toilet w``, ``push r3c4 e``, ``tile r3c4`` (a square to change) then
``lay ne`` (the openings of its new tile in any order, ``blank`` for none), or both at once as
``tile r3c4 ne``, ``confirm``, ``cancel``, ``pass``.

A refused action says why: the rule it breaks, or what the phase asks for instead.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from games.core import JSON, Action, Event, IllegalAction, act
from games.i18n import N, T
from games.sewerrat import flow
from games.sewerrat.board import add_trap, escapes, free_squares, moves, occupied, pushes
from games.sewerrat.components import (
    BLACK,
    DIR_BY_NAME,
    DIR_NAME,
    DIR_SIDE,
    DIR_WAY,
    MASK_BY_TEXT,
    NEIGHBOUR,
    OUTWARD,
    RED,
    SHAPE_NAME,
    SHAPE_OF,
    SQUARE_BY_TEXT,
    SQUARES,
    mask_text,
    square_name,
    square_text,
    tile_phrase,
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
        raise IllegalAction(T("`{text}` is not a square: write it like r3c4 (row 3, column 4).", text=text[:10]))
    return SQUARE_BY_TEXT[text]


def _direction(text: str) -> int:
    if text not in DIR_BY_NAME:
        raise IllegalAction(T("A direction is `n`, `e`, `s` or `w`."))
    return DIR_BY_NAME[text]


def _args(action: Action, count: int) -> tuple[str, ...]:
    if len(action.args) != count:
        raise IllegalAction(N("`{verb}` takes {n} argument.", "`{verb}` takes {n} arguments.", count, verb=action.verb))
    return action.args


def play(state: JSON, seat: int, action: Action, rng: random.Random) -> list[Event]:
    """Apply a legal ``action`` of the actor ``seat``; raises :class:`IllegalAction` before changing
    anything otherwise."""
    if not is_legal(state, seat, action):
        raise IllegalAction(_why_not(state, seat, action))
    events: list[Event] = []
    _PLAY[action.verb](state, seat, action, rng, events)
    return events


def _place(state: JSON, seat: int, action: Action, rng: random.Random, events: list[Event]) -> None:
    q = SQUARE_BY_TEXT[action.args[0]]
    state["rats"][seat] = q
    events.append(Event(T("{seat} places their rat on {square}.", seat=p(seat), square=square_name(q))))
    if seat + 1 < state["seats"]:
        state["actor"] = seat + 1
    else:
        flow.begin_turn(state, 0, rng, events)


def _flee(state: JSON, seat: int, action: Action, rng: random.Random, events: list[Event]) -> None:
    d = DIR_BY_NAME[action.args[0]]
    kind, q = state["queue"].pop(0)
    flow.flee(state, seat, d, escapes(state, seat)[d], events)
    flow.drop(state, q, RED if kind == "red" else BLACK, events)
    flow.resolve(state, rng, events)


def _put_trap(state: JSON, seat: int, action: Action, rng: random.Random, events: list[Event]) -> None:
    """``black r3c4`` or ``red r3c4``: the roller puts the next trap of their roll."""
    verb, q = action.verb, SQUARE_BY_TEXT[action.args[0]]
    state["queue"].pop(0)
    now = add_trap(state["traps"], q, RED if verb == "red" else BLACK)
    state["roll"]["at"].append(q)
    where = {"seat": p(seat), "square": square_name(q)}
    if verb == "red":
        events.append(Event(T("{seat} puts a red trap on {square}: now a red trap.", **where)))
    elif now == RED:
        events.append(Event(T("{seat} puts a black trap on {square}: now a red trap.", **where)))
    else:
        events.append(Event(T("{seat} puts a black trap on {square}: now a black trap.", **where)))
    flow.resolve(state, rng, events)


def _choose_extra(state: JSON, seat: int, action: Action, rng: random.Random, events: list[Event]) -> None:
    """Doubles on a red trap: one red trap more, or two black ones."""
    red = action.args[0] == "red"
    state["queue"][0:1] = [["red", -1]] if red else [["black", -1], ["black", -1]]
    if red:
        events.append(Event(T("{seat} chooses one red trap.", seat=p(seat))))
    else:
        events.append(Event(T("{seat} chooses two black traps.", seat=p(seat))))
    flow.resolve(state, rng, events)


def _move(state: JSON, seat: int, action: Action, rng: random.Random, events: list[Event]) -> None:
    """``move <direction> <stops>`` along the pipes, or ``toilet <side>`` to the toilet's exit."""
    start = state["rats"][seat]
    d = DIR_BY_NAME[action.args[0]]
    if action.verb == "toilet":
        there = toilet_exit(start, d)
        name = toilet_name(start, d)
        events.append(
            Event(
                T(
                    "{seat}'s rat dives into toilet {toilet} and pops out on {square}.",
                    seat=p(seat),
                    toilet=name,
                    square=square_name(there),
                )
            )
        )
    else:
        runs, _ = moves(state, seat)
        there = runs[d][int(action.args[1]) - 1]
        events.append(
            Event(
                T(
                    "{seat}'s rat runs {direction} to {square}.",
                    seat=p(seat),
                    direction=DIR_WAY[d],
                    square=square_name(there),
                )
            )
        )
    state["rats"][seat] = there
    state["phase"] = "after"


def _push(state: JSON, seat: int, action: Action, rng: random.Random, events: list[Event]) -> None:
    q, d = SQUARE_BY_TEXT[action.args[0]], DIR_BY_NAME[action.args[1]]
    there = NEIGHBOUR[q][d]
    state["traps"][q] = 0
    now = add_trap(state["traps"], there, BLACK)
    where = {"seat": p(seat), "start": square_name(q), "square": square_name(there)}
    if now == RED:
        events.append(Event(T("{seat} pushes the black trap on {start} to {square} (red).", **where)))
    else:
        events.append(Event(T("{seat} pushes the black trap on {start} to {square} (black).", **where)))
    flow.end_turn(state, rng, events)


def _pick_tile(state: JSON, seat: int, action: Action, rng: random.Random, events: list[Event]) -> None:
    """``tile r3c4``: the square whose tile the change takes next; ``tile r3c4 ne`` lays its new tile too."""
    if len(action.args) == 1:
        state.update(phase="tile", picking=SQUARE_BY_TEXT[action.args[0]], refused=False)
        return
    state.update(picking=SQUARE_BY_TEXT[action.args[0]], refused=False)
    _lay(state, seat, action, rng, events)


def _lay(state: JSON, seat: int, action: Action, rng: random.Random, events: list[Event]) -> None:
    """The new tile of the square being picked (its openings are the action's last argument)."""
    q, mask = state["picking"], mask_of(action.args[-1])
    assert mask is not None
    state["pending"].append([q, mask])
    state.update(phase="tiles", picking=None)
    if mask == state["board"][q]:
        events.append(Event(T("{seat} keeps the tile on {square}.", seat=p(seat), square=square_name(q))))
    else:
        tile = tile_phrase(mask)
        events.append(Event(T("{seat} plans {tile} on {square}.", seat=p(seat), tile=tile, square=square_name(q))))


def _confirm(state: JSON, seat: int, action: Action, rng: random.Random, events: list[Event]) -> None:
    reason = change_problem(state)
    if reason is not None:
        state["refused"] = True
        events.append(Event(T("The tile change is refused: {reason}. Change more tiles or cancel.", reason=reason)))
        return
    changed = ", ".join(square_name(q) for q, _ in state["pending"])
    commit(state)
    events.append(Event(T("{seat} changes the tiles on {squares}.", seat=p(seat), squares=changed)))
    flow.end_turn(state, rng, events)


def _cancel(state: JSON, seat: int, action: Action, rng: random.Random, events: list[Event]) -> None:
    state["pending"] = []
    events.append(Event(T("{seat} cancels the tile change.", seat=p(seat))))
    flow.end_turn(state, rng, events)


def _pass(state: JSON, seat: int, action: Action, rng: random.Random, events: list[Event]) -> None:
    events.append(Event(T("{seat} ends their turn.", seat=p(seat))))
    flow.end_turn(state, rng, events)


_PLAY: dict[str, Callable[[JSON, int, Action, random.Random, list[Event]], None]] = {
    "place": _place,
    "flee": _flee,
    "black": _put_trap,
    "red": _put_trap,
    "extra": _choose_extra,
    "move": _move,
    "toilet": _move,
    "push": _push,
    "tile": _pick_tile,
    "lay": _lay,
    "confirm": _confirm,
    "cancel": _cancel,
    "pass": _pass,
}
"""How each legal verb is played (:func:`play` has checked the action)."""


def _asked(state: JSON) -> str:
    """What the phase asks for, said to an action of another phase."""
    phase = state["phase"]
    if phase == "place":
        return T("Place your rat first: `place r3c4`, on an empty white dot.")
    if phase == "displace":
        return T("A trap fell on your rat: it flees first (`flee <direction>`).")
    if phase == "put":
        if state["queue"][0][0] == "red":
            return T("Put the red trap of your roll first: `red r3c4`.")
        return T("Put the black trap of your roll first: `black r3c4`.")
    if phase == "extra":
        return T("Doubles on a red trap: choose `extra red` (one red trap) or `extra black` (two black traps) first.")
    if phase == "move":
        return T("Move your rat first: `move <direction> <stops>`, or `toilet <side>` on an edge square.")
    if phase == "after":
        return T("Your rat has moved: push a black trap (`push r3c4 e`), change tiles (`tile r3c4 ne`) or `pass`.")
    if phase == "tile":
        return T(
            "Lay the new tile on {square} first: `lay ne` (its openings), `blank` for none.",
            square=square_name(state["picking"]),
        )
    return T("Change another square (`tile r3c4 ne`), `confirm` the change or `cancel` it.")


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
        return T("its tile has no opening to the {direction}", direction=DIR_WAY[d])
    while True:
        there = NEIGHBOUR[here][d]
        if there < 0:
            return T("the edge of the sewer is that way (toilets are `toilet <side>`)")
        if traps[there] == RED:
            return T("a red trap is on {square}", square=square_name(there))
        if traps[there]:
            return T("a black trap is on {square}", square=square_name(there))
        if there not in rats:
            return T("it can stop on {square}", square=square_name(there))  # not blocked: the caller asked wrongly
        if not board[there] & d:
            return T("a rat is on {square}, where the pipe does not run straight on", square=square_name(there))
        here = there


def _why_not(state: JSON, seat: int, action: Action) -> str:
    """A specific reason for refusing ``action``: the rule it breaks, or what the phase asks for."""
    phase = state["phase"]
    if phase not in VERBS:
        return T("This game is over.")
    if action.verb not in VERBS[phase]:
        return _asked(state)
    why_not = _WHY_NOT.get(action.verb)
    reason = None if why_not is None else why_not(state, seat, action)
    if reason is None:
        return T("`{action}` is not one of your moves right now; autocomplete lists them.", action=action.encode()[:40])
    return reason


def _why_not_place(state: JSON, seat: int, action: Action) -> str:
    q = _square(_args(action, 1)[0])
    if q in occupied(state):
        return T("A rat is already on {square}.", square=square_name(q))
    return T(
        "{square} is not a white dot: rats start on the dead ends marked with a white circle.",
        square=square_name(q),
    )


def _why_not_flee(state: JSON, seat: int, action: Action) -> str:
    d = _direction(_args(action, 1)[0])
    return T("Your rat cannot flee {direction}: {reason}.", direction=DIR_WAY[d], reason=_blocked(state, seat, d))


def _why_not_trap(state: JSON, seat: int, action: Action) -> str | None:
    kind = state["queue"][0][0]
    if action.verb != kind:
        if kind == "red":
            return T("The next trap of your roll is red: `red r3c4`.")
        return T("The next trap of your roll is black: `black r3c4`.")
    q = _square(_args(action, 1)[0])
    if state["traps"][q] == RED:
        return T("{square} already has a red trap: put the trap on a square without one.", square=square_name(q))
    if q in occupied(state):
        return T("A rat is on {square}: traps go on squares without a rat.", square=square_name(q))
    return None


def _why_not_extra(state: JSON, seat: int, action: Action) -> str:
    return T("Choose `extra red` (one red trap) or `extra black` (two black traps).")


def _why_not_move(state: JSON, seat: int, action: Action) -> str:
    d = _direction(_args(action, 2)[0])
    runs, _ = moves(state, seat)
    if d not in runs:
        return T("Your rat cannot move {direction}: {reason}.", direction=DIR_WAY[d], reason=_blocked(state, seat, d))
    return N(
        "Your rat can move {direction} only {n} stop from here.",
        "Your rat can move {direction} 1 to {n} stops from here.",
        len(runs[d]),
        direction=DIR_WAY[d],
    )


def _why_not_toilet(state: JSON, seat: int, action: Action) -> str | None:
    d = _direction(_args(action, 1)[0])
    start = state["rats"][seat]
    if not OUTWARD[start] & d:
        return T("There is no toilet on {side} of {square}.", side=DIR_SIDE[d], square=square_name(start))
    if not state["board"][start] & d:
        return T("Your tile has no opening to toilet {toilet}.", toilet=toilet_name(start, d))
    exit_, traps = toilet_exit(start, d), state["traps"]
    where = {"square": square_name(exit_), "toilet": toilet_name(start, d)}
    if traps[exit_] == RED:
        return T("A red trap is on {square}, the exit of toilet {toilet}.", **where)
    if traps[exit_]:
        return T("A black trap is on {square}, the exit of toilet {toilet}.", **where)
    if exit_ in occupied(state):
        return T("A rat is on {square}, the exit of toilet {toilet}.", **where)
    return None


def _why_not_push(state: JSON, seat: int, action: Action) -> str | None:
    q = _square(_args(action, 2)[0])
    d = _direction(action.args[1])
    traps = state["traps"]
    if traps[q] != BLACK:
        return T("There is no black trap on {square} to push.", square=square_name(q))
    there = NEIGHBOUR[q][d]
    if there < 0:
        return T("A trap cannot be pushed off the board (nor through a toilet).")
    if traps[there] == RED:
        return T("{square} has a red trap: a black trap cannot be pushed onto it.", square=square_name(there))
    if there in occupied(state):
        return T("A rat is on {square}: a trap cannot be pushed onto a rat.", square=square_name(there))
    return None


def _why_not_tile(state: JSON, seat: int, action: Action) -> str | None:
    args = action.args
    if len(args) not in (1, 2):
        return T("`tile` takes a square, and may name its new tile: `tile r3c4` or `tile r3c4 ne`.")
    q = _square(args[0])
    if len(state["pending"]) >= MAX_TILES:
        return T("A change takes at most {n} tiles: `confirm` or `cancel` it.", n=MAX_TILES)
    if any(q == p for p, _ in state["pending"]):
        return T("{square} is already in this change.", square=square_name(q))
    if q in occupied(state) or state["traps"][q]:
        return T("You cannot change a tile with a rat or a trap on it.")
    return _lay_refusal(state, q, args[1]) if len(args) == 2 else None


def _why_not_lay(state: JSON, seat: int, action: Action) -> str:
    return _lay_refusal(state, state["picking"], _args(action, 1)[0])


def _why_not_confirm(state: JSON, seat: int, action: Action) -> str | None:
    return T("This change was refused as it stands: change another tile, or `cancel`.") if state["refused"] else None


_WHY_NOT: dict[str, Callable[[JSON, int, Action], str | None]] = {
    "place": _why_not_place,
    "flee": _why_not_flee,
    "black": _why_not_trap,
    "red": _why_not_trap,
    "extra": _why_not_extra,
    "move": _why_not_move,
    "toilet": _why_not_toilet,
    "push": _why_not_push,
    "tile": _why_not_tile,
    "lay": _why_not_lay,
    "confirm": _why_not_confirm,
}
"""The specific reason a verb of the phase is refused, where there is one (``None``: the general refusal)."""


def _lay_refusal(state: JSON, q: int, text: str) -> str:
    mask = mask_of(text)
    if mask is None:
        return T(
            "Name a tile by its openings (`n`, `e`, `s`, `w`, in any order: `ne`, `nes`, `nesw`), or `blank` for none."
        )
    return T(
        "No {shape} tile is left in the supply, nor can a square this change may still take give one back: turn"
        " the tile of {square}, or choose a shape the supply has.",
        shape=SHAPE_NAME[SHAPE_OF[mask]],
        square=square_name(q),
    )
