"""What a seat sees (everything is public in Sewer Rat), and the text summaries."""

from __future__ import annotations

from games.core import JSON, joined
from games.sewerrat.board import escapes, moves
from games.sewerrat.components import DIR_NAME, square_text, toilet_exit, toilet_name
from games.sewerrat.flow import TURN_LIMIT, team_count, team_of


def _options(state: JSON, seat: int) -> JSON:
    """Where ``seat``'s rat could go from where it stands: the stops, the toilets' exits, and the moves'
    texts."""
    start = state["rats"][seat]
    if start is None:
        return {"stops": [], "toilets": [], "texts": []}
    runs, sides = moves(state, seat)
    texts = [f"move {DIR_NAME[d]} {k + 1}" for d, stops in runs.items() for k in range(len(stops))]
    texts += [f"toilet {DIR_NAME[d]}" for d in sides]
    toilets = [{"side": DIR_NAME[d], "name": toilet_name(start, d), "exit": toilet_exit(start, d)} for d in sides]
    return {"stops": [q for stops in runs.values() for q in stops], "toilets": toilets, "texts": texts}


def build_view(state: JSON, seat: int | None) -> JSON:
    """The view of ``seat`` (``None``: a spectator). Nothing in Sewer Rat is secret, so every view shows
    the whole table; ``options`` are the legal destinations of the rat that must act now (the mover's
    run and toilets, or a displaced rat's escapes) and ``mine`` the viewer's own rat's moves; ``change``
    is a tile change being built and ``picking`` the square whose new tile is being chosen; ``pending``
    says in words who must decide what (``None`` once the game is over)."""
    phase, actor = state["phase"], state["actor"]
    options: JSON = {"stops": [], "toilets": [], "texts": []}
    if phase == "move":
        options = _options(state, actor)
    elif phase == "displace":
        ways = escapes(state, actor)
        options = {"stops": list(ways.values()), "toilets": [], "texts": [f"flee {DIR_NAME[d]}" for d in ways]}
    seats = state["seats"]
    result = state["result"]
    return {
        "viewer": seat,
        "seats": seats,
        "board": list(state["board"]),
        "supply": dict(state["supply"]),
        "traps": list(state["traps"]),
        "rats": list(state["rats"]),
        "out": sorted(f[0] for f in state["fallen"]),
        "mode": state["options"]["teams"],
        "teams": team_count(state["players"], state["options"]["teams"]),
        "team_of": [team_of(state, s) for s in range(seats)],
        "fallen": [list(f) for f in state["fallen"]],
        "phase": phase,
        "actor": actor,
        "mover": state["mover"],
        "turn": state["turn"],
        "turn_limit": TURN_LIMIT,
        "roll": None if state["roll"] is None else dict(state["roll"], at=list(state["roll"]["at"])),
        "queue": [list(t) for t in state["queue"]],
        "change": [list(t) for t in state["pending"]],
        "picking": state["picking"],
        "pending": pending_text(state),
        "refused": state["refused"],
        "options": options,
        "mine": _options(state, seat)["texts"] if seat is not None else [],
        "result": None if result is None else dict(result, winners=list(result["winners"])),
    }


def _p(seat: int) -> str:
    return "{p" + str(seat) + "}"


def pending_text(state: JSON) -> str | None:
    """Who must decide what now, in words (``{pN}`` for seats)."""
    phase, actor, mover = state["phase"], state["actor"], _p(state["mover"])
    if actor is None:
        return None
    who = _p(actor)
    if phase == "place":
        return f"{who} places their rat on a white dot"
    if phase == "displace":
        return f"a trap falls on {who}'s rat: where does it flee?"
    if phase == "put":
        return f"{who} places a {state['queue'][0][0]} trap anywhere legal"
    if phase == "extra":
        return f"doubles on a red trap: {who} places one red or two black traps"
    if phase == "move":
        return f"{who} moves their rat"
    if phase == "after":
        return f"{who} may push a black trap, change tiles or end the turn"
    if phase == "tile":
        return f"{who} chooses the new tile for {square_text(state['picking'])}"
    refused = " (refused: change more or cancel)" if state["refused"] else ""
    return f"{mover} is changing {len(state['pending'])} of up to 4 tiles{refused}"


def summary_line(view: JSON) -> str:
    """One line: the turn, who acts, where every rat is."""
    rats = ", ".join(
        f"{_p(s)} {'out' if s in view['out'] else square_text(q) if q is not None else 'not placed'}"
        for s, q in enumerate(view["rats"])
    )
    if view["result"] is not None:
        return f"Sewer Rat, game over after {view['turn']} turns. Rats: {rats}."
    if view["phase"] == "place":
        return f"Sewer Rat setup: {_p(view['actor'])} places their rat. Rats: {rats}."
    roll = view["roll"]
    dice = f" (rolled yellow {roll['y']}, green {roll['g']})" if roll else ""
    return f"Sewer Rat turn {view['turn']}: {_p(view['mover'])} to play{dice}. Rats: {rats}."


def seat_text(view: JSON) -> str:
    """The viewer's rat, team and legal moves (nothing is secret in Sewer Rat)."""
    seat = view["viewer"]
    if seat is None:
        return "You are watching this game."
    q = view["rats"][seat]
    if seat in view["out"]:
        where = "Your rat is out."
    elif q is None:
        where = "You have not placed your rat yet."
    else:
        where = f"Your rat is on {square_text(q)}."
    mates = [s for s in range(view["seats"]) if s != seat and view["team_of"][s] == view["team_of"][seat]]
    team = f" Your team: {joined([_p(s) for s in [seat, *mates]])}." if view["mode"] != "ffa" else ""
    moves_ = view["mine"]
    can = f" From there it can: {', '.join(f'`{m}`' for m in moves_)}." if moves_ else ""
    if q is not None and not moves_:
        can = " From there it has no move right now."
    return where + team + can
