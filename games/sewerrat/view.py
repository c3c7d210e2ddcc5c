"""What a seat sees (everything is public in Sewer Rat), and the text summaries."""

from __future__ import annotations

from games.core import JSON
from games.i18n import N, T, joined, seat_ref
from games.sewerrat.board import escapes, moves
from games.sewerrat.components import DIR_NAME, square_name, toilet_exit, toilet_name
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
        "events": list(state.get("log", ())),
    }


def pending_text(state: JSON) -> str | None:
    """Who must decide what now, in words (``{pN}`` for seats)."""
    phase, actor, mover = state["phase"], state["actor"], seat_ref(state["mover"])
    if actor is None:
        return None
    who = seat_ref(actor)
    if phase == "place":
        return T("{seat} places their rat on a white dot", seat=who)
    if phase == "displace":
        return T("a trap falls on {seat}'s rat: where does it flee?", seat=who)
    if phase == "put":
        if state["queue"][0][0] == "red":
            return T("{seat} places a red trap anywhere legal", seat=who)
        return T("{seat} places a black trap anywhere legal", seat=who)
    if phase == "extra":
        return T("doubles on a red trap: {seat} places one red or two black traps", seat=who)
    if phase == "move":
        return T("{seat} moves their rat", seat=who)
    if phase == "after":
        return T("{seat} may push a black trap, change tiles or end the turn", seat=who)
    if phase == "tile":
        return T("{seat} chooses the new tile for {square}", seat=who, square=square_name(state["picking"]))
    if state["refused"]:
        return T(
            "{seat} is changing {n} of up to 4 tiles (refused: change more or cancel)",
            seat=mover,
            n=len(state["pending"]),
        )
    return T("{seat} is changing {n} of up to 4 tiles", seat=mover, n=len(state["pending"]))


def _rat(view: JSON, seat: int, q: int | None) -> str:
    """Where a seat's rat is, for the summary: ``{p0} r3c4``, ``{p1} out``."""
    if seat in view["out"]:
        return T("{seat} out", seat=seat_ref(seat))
    if q is None:
        return T("{seat} not placed", seat=seat_ref(seat))
    return f"{seat_ref(seat)} {square_name(q)}"


def summary_line(view: JSON) -> str:
    """One line: the turn, who acts, where every rat is."""
    rats = ", ".join(_rat(view, s, q) for s, q in enumerate(view["rats"]))
    if view["result"] is not None:
        return N(
            "Sewer Rat, game over after {n} turn. Rats: {rats}.",
            "Sewer Rat, game over after {n} turns. Rats: {rats}.",
            view["turn"],
            rats=rats,
        )
    if view["phase"] == "place":
        return T("Sewer Rat setup: {seat} places their rat. Rats: {rats}.", seat=seat_ref(view["actor"]), rats=rats)
    roll, mover = view["roll"], seat_ref(view["mover"])
    if roll:
        return T(
            "Sewer Rat turn {turn}: {seat} to play (rolled yellow {y}, green {g}). Rats: {rats}.",
            turn=view["turn"],
            seat=mover,
            y=roll["y"],
            g=roll["g"],
            rats=rats,
        )
    return T("Sewer Rat turn {turn}: {seat} to play. Rats: {rats}.", turn=view["turn"], seat=mover, rats=rats)


def seat_text(view: JSON) -> str:
    """The viewer's rat, team and legal moves (nothing is secret in Sewer Rat): sentences, one message each."""
    seat = view["viewer"]
    if seat is None:
        return T("You are watching this game.")
    q = view["rats"][seat]
    if seat in view["out"]:
        parts = [T("Your rat is out.")]
    elif q is None:
        parts = [T("You have not placed your rat yet.")]
    else:
        parts = [T("Your rat is on {square}.", square=square_name(q))]
    mates = [s for s in range(view["seats"]) if s != seat and view["team_of"][s] == view["team_of"][seat]]
    if view["mode"] != "ffa":
        parts.append(T("Your team: {names}.", names=joined([seat_ref(s) for s in [seat, *mates]])))
    moves_ = view["mine"]
    if moves_:
        parts.append(T("From there it can: {moves}.", moves=", ".join(f"`{m}`" for m in moves_)))
    elif q is not None:
        parts.append(T("From there it has no move right now."))
    return " ".join(parts)
