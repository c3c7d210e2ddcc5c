"""The label paths of every action (the first label is a public board button; the rest goes into the
chooser's own picker, see :meth:`Game.secret`)."""

from __future__ import annotations

from games.core import JSON, Action, plural
from games.pirates.cards import BY_CODE, NATIONS, face
from games.pirates.combat import card_value
from games.pirates.table import p

DRAW = "Draw from the deck"
PUBLIC_DECISIONS = frozenset({"friend", "encounter", "plunder", "cove", "swap", "salvage", "spoils"})
"""Decisions whose options show nothing private; every other one lists hand cards or could reveal a
Joker in hand, so its labels below the first are the chooser's only."""

MAIN = {
    "crew": ("Gather crew", "Draw a card into your hand"),
    "magistrate": ("Visit the magistrate", DRAW, "Play your Joker as the mission"),
    "trade": ("Trade for goods", "Sell cards for goods", "Play your Joker: fill the holds from the discard pile"),
    "attack": ("Attack the town",),
    "disembark": ("Disembark", DRAW, "Play your Joker: a full crew sets sail now"),
    "ship": ("Look for a ship", DRAW, "Play your Joker: the treasure fleet"),
    "town": ("Head for the nearest town", DRAW, "Play your Joker: Pirate Cove"),
}


def _card(code: str) -> str:
    f = BY_CODE[code]
    return f"{f.name} {f.ship} · {plural(f.cannons, 'cannon')} · crew {f.crew} · {f.size} t {f.good or 'treasure'}"


def _cargo(code: str) -> str:
    f = BY_CODE[code]
    return f"{f.name} · {f.size} t {f.good or 'treasure'}"


def _fire(player: JSON, code: str) -> str:
    f = BY_CODE[code]
    value = card_value(player, f.face)
    extra = " + a ship from the deck" if f.joker else ""
    return f"{f.name} · +{value} cannon value{extra}"


def describe(state: JSON, seat: int, action: Action) -> tuple[str, ...]:
    pending = state["pending"]
    player = state["players"][seat]
    verb, args = action.verb, action.args
    if pending is None and state["duel"] is None:
        return _main(state, seat, action)
    if verb == "play":
        return ("Choose your combat card", _fire(player, args[0]))
    if verb == "keep":
        f = BY_CODE[args[0]]
        return ("Keep a mission", f"{f.name} {f.mission.value}: {f.mission_text}")
    if verb == "sell":
        where = "From your holds" if args[1:] == ("hold",) else "From your hand"
        return ("Sell a card", where, _cargo(args[0]))
    if verb == "buy":
        return ("Buy goods", f"Buy {pending['tons']} t of goods now")
    if verb == "take":
        f = BY_CODE[args[0]]
        return ("Take from the discard pile", f"{f.nation} {f.good}", _cargo(args[0]))
    if verb == "done":
        return ("Done taking cargo",)
    if verb == "dock":
        town = face(state["encounter"]["cards"][0]).town
        if not args:
            return (f"Dock at {town}",)
        return (f"Dock at {town}", f"{_card(args[0])} deserts")
    if verb == "stay":
        return ("Stay at sea",)
    if verb == "cove":
        return (
            "Pirate Cove",
            {
                "crew": "Fill your hand from the deck",
                "ship": "Swap ship and cargo for one of two drawn ships",
                "mission": "Draw one mission and one cargo",
            }[args[0]],
        )
    if verb == "swap":
        return ("Take a new ship", _card(args[0]))
    if verb == "drop":
        return ("Discard down to your limit", f"Crew: {_card(args[0])}")
    if verb == "dump":
        if pending is not None and pending["kind"] == "trim":
            return ("Discard down to your limit", f"Cargo: {_cargo(args[0])}")
        return ("Dump cargo", _cargo(args[0]))
    if verb == "hail":
        return ("Hail the friendly ship", "Draw a card into your hand")
    if verb == "sail":
        return ("Sail on",)
    if verb == "fight":
        if not args:
            f = face(state["encounter"]["cards"][0])
            return ("Fight", f"The {f.nation} {f.ship} ({f.name})")
        rival = int(args[0])
        nation = NATIONS.get(face(state["players"][rival]["ship"]).suit or "", "pirate")
        return ("Fight", f"{p(rival)}'s {nation} ship instead")
    if verb == "fire":
        return ("Fire", _fire(player, args[0]))
    if verb == "flee":
        return ("Flee",)
    if verb == "yield":
        return ("Strike your colours", "Be boarded: lose a random crew card and your heaviest cargo")
    if verb == "plunder":
        return (
            "Keep the wreck",
            {
                "crew": "As crew, into your hand",
                "cargo": "As cargo, into your holds",
                "mission": "As a mission",
                "none": "Let it sink",
            }[args[0]],
        )
    if verb == "spoils":
        what = args[0]
        if what == "crew":
            return ("Plunder", "A random crew card")
        if what == "mission":
            return ("Plunder", "A random unfinished mission")
        if what == "none":
            return ("Plunder", "Nothing")
        return ("Plunder", f"Cargo {_cargo(what)}")
    raise ValueError(action)


def _main(state: JSON, seat: int, action: Action) -> tuple[str, ...]:
    names = MAIN[action.verb]
    if action.verb == "attack":
        town = state["players"][seat]["town"]
        f = face(town)
        return (names[0], f"{f.town} ({f.name}): {2 * f.size + 1} cannons needed")
    if action.verb == "crew":
        return names
    return (names[0], names[2] if action.args == ("jk",) else names[1])
