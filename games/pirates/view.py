"""What each seat sees: everything public by the rules, plus the viewer's own hand, unfinished missions
and private picks (the Flag Galleon's two missions, the card chosen for a duel)."""

from __future__ import annotations

from games.core import JSON
from games.i18n import T
from games.pirates.cards import CODES, code, face
from games.pirates.missions import needs
from games.pirates.table import limit, p, weight


def _codes(cards: list[int]) -> list[str]:
    return [CODES[c] for c in cards]


def _player(state: JSON, seat: int) -> JSON:
    player = state["players"][seat]
    return {
        "ship": code(player["ship"]),
        "place": player["place"],
        "town": code(player["town"]) if player["town"] is not None else None,
        "taken": player["taken"],
        "hand": len(player["hand"]),
        "limit": limit(player),
        "holds": _codes(player["holds"]),
        "tons": sum(face(c).size for c in player["holds"]),
        "weight": weight(player),
        "missions": len(player["missions"]),
        "done": _codes(player["done"]),
        "out": player["out"],
    }


def _pending(state: JSON) -> JSON | None:
    pending = state["pending"]
    if pending is None:
        return None
    public = {"kind": pending["kind"], "seat": pending["seat"]}
    for key in ("need", "total", "target", "tons", "friendly", "loser", "rivals", "hand"):
        if key in pending:
            public[key] = pending[key]
    if pending["kind"] == "swap":
        public["cards"] = _codes(pending["cards"])
    return public


def ai_view(state: JSON, seat: int) -> JSON:
    """The part of ``seat``'s view the AI reads (its own record, with its ship's weight in a combat; the
    others' hand sizes; the discard pile while docked): the same facts as :func:`build_view`, built in a
    fraction of the time for self-play and the hard AI's playouts."""
    encounter = state["encounter"]
    player = state["players"][seat]
    own = {
        "ship": CODES[player["ship"]],
        "place": player["place"],
        "town": None if player["town"] is None else CODES[player["town"]],
        "holds": _codes(player["holds"]),
        "limit": limit(player),
    }
    pending = state["pending"]
    if pending is not None and pending["kind"] == "combat":  # only a fight asks whether the ship may flee
        own["weight"] = weight(player)
    return {
        "viewer": seat,
        "players": [own if s == seat else {"hand": len(p["hand"])} for s, p in enumerate(state["players"])],
        "hand": _codes(player["hand"]),
        "missions": _codes(player["missions"]),
        "discard": _codes(state["discard"]) if player["place"] != "sea" else [],
        "pending": _pending(state),
        "encounter": None if encounter is None else {"cards": _codes(encounter["cards"])},
        "duel": state["duel"] is not None,
    }


def build_view(state: JSON, seat: int | None) -> JSON:
    encounter = state["encounter"]
    duel = state["duel"]
    shown = state["shown"]
    view: JSON = {
        "viewer": seat,
        "seats": state["seats"],
        "decks": state["decks"],
        "turn": state["turn"],
        "first": state["first"],
        "turns": state["turns"],
        "players": [_player(state, s) for s in range(state["seats"])],
        "deck": len(state["deck"]),
        "discard": _codes(state["discard"]),
        "pending": _pending(state),
        "encounter": None
        if encounter is None
        else {
            "kind": encounter["kind"],
            "cards": _codes(encounter["cards"]),
            "allies": _codes(encounter.get("allies", [])),
        },
        "duel": None
        if duel is None
        else {"seats": list(duel["seats"]), "chosen": [c is not None for c in duel["chosen"]], "round": duel["round"]},
        "shown": None
        if shown is None
        else {
            "seats": list(shown["seats"]),
            "cards": _codes(shown["cards"]),
            "values": list(shown["values"]),
            "allies": _codes(shown["allies"]),
        },
        "winner": state["winner"],
        "over": state.get("over"),
        "events": list(state.get("log", ())),
    }
    if seat is not None:
        player = state["players"][seat]
        view["hand"] = _codes(player["hand"])
        view["missions"] = _codes(player["missions"])
        # What each unfinished mission still needs, by its card's code: the rules say, not the renderer.
        view["needs"] = {code(card): needs(state, seat, card) for card in player["missions"]}
        pending = state["pending"]
        view["offered"] = (
            _codes(pending["cards"]) if pending and pending["kind"] == "keep" and pending["seat"] == seat else []
        )
        mine = None
        if duel is not None and seat in duel["seats"]:
            chosen = duel["chosen"][duel["seats"].index(seat)]
            mine = code(chosen) if chosen is not None else None
        view["chosen"] = mine
    return view


def _prompt(pending: JSON) -> str:
    """What a pending decision waits for, as a sentence."""
    seat = p(pending["seat"])
    kind = pending["kind"]
    if kind == "combat":
        return T(
            "{seat} fights: {total} of {need} cannons so far — fire a card, dump cargo, flee or strike",
            seat=seat,
            total=pending.get("total", 0),
            need=pending.get("need", 0),
        )
    if kind == "plunder":
        return T("{seat} keeps the wreck as crew, cargo or a mission, or lets it sink", seat=seat)
    if kind == "encounter":
        return T("{seat} fights the ship found, or a rival at sea of its nation", seat=seat)
    if kind == "friend":
        return T("{seat} meets a friendly ship: draw a card or sail on", seat=seat)
    if kind == "dock":
        if pending.get("friendly", True):
            return T("{seat} may dock at the town found", seat=seat)
        return T("{seat} may dock at the town found (a crew card deserts)", seat=seat)
    if kind == "keep":
        return T("{seat} keeps one of the two missions the magistrate offers", seat=seat)
    if kind == "salvage":
        return T("{seat} fills the holds from the discard pile", seat=seat)
    if kind == "spoils":
        return T("{seat} takes the spoils of the combat from {loser}", seat=seat, loser=p(pending["loser"]))
    if kind == "swap":
        return T("{seat} may take one of two ships at Pirate Cove", seat=seat)
    if kind == "trade":
        return T("{seat} trades: {tons} t bought so far", seat=seat, tons=pending.get("tons", 0))
    if kind == "trim":
        return T("{seat} discards down to {hand} crew cards", seat=seat, hand=pending.get("hand", 0))
    if kind == "cove":
        return T("{seat} chooses at Pirate Cove: a full crew, a new ship, or a mission and a cargo", seat=seat)
    return T("{seat} decides", seat=seat)


def prompt_text(view: JSON) -> str | None:
    """What the game waits for, as a sentence (marked, ``{pN}`` placeholders for the players)."""
    if view.get("over") or view.get("winner") is not None:
        return None
    pending, duel = view["pending"], view["duel"]
    if pending is None:
        if duel is not None:
            one, two = duel["seats"]
            return T("{first} and {second} each choose a combat card in secret", first=p(one), second=p(two))
        turn = view["turn"]
        if view["players"][turn]["place"] == "sea":
            return T("{seat} takes an action at sea", seat=p(turn))
        return T("{seat} takes an action in port", seat=p(turn))
    return _prompt(pending)
