"""The label paths of every action (the first label is a public board button; the rest goes into the
chooser's own picker, see :meth:`Game.secret`)."""

from __future__ import annotations

from games.core import JSON, Action
from games.i18n import N, T
from games.pirates.cards import BY_CODE, NATION_GOOD, SHIP_OF, face
from games.pirates.combat import card_value
from games.pirates.table import p

DRAW = T("Draw from the deck")
PUBLIC_DECISIONS = frozenset({"friend", "encounter", "plunder", "cove", "swap", "salvage", "spoils"})
"""Decisions whose options show nothing private; every other one lists hand cards or could reveal a
Joker in hand, so its labels below the first are the chooser's only."""

MAIN = {
    "crew": (T("Gather crew"), T("Draw a card into your hand")),
    "magistrate": (T("Visit the magistrate"), DRAW, T("Play your Joker as the mission")),
    "trade": (
        T("Trade for goods"),
        T("Sell cards for goods"),
        T("Play your Joker: fill the holds from the discard pile"),
    ),
    "attack": (T("Attack the town"),),
    "disembark": (T("Disembark"), DRAW, T("Play your Joker: a full crew sets sail now")),
    "ship": (T("Look for a ship"), DRAW, T("Play your Joker: the treasure fleet")),
    "town": (T("Head for the nearest town"), DRAW, T("Play your Joker: Pirate Cove")),
}
COVE = {
    "crew": T("Fill your hand from the deck"),
    "ship": T("Swap ship and cargo for one of two drawn ships"),
    "mission": T("Draw one mission and one cargo"),
}
WRECK = {
    "crew": T("As crew, into your hand"),
    "cargo": T("As cargo, into your holds"),
    "mission": T("As a mission"),
    "none": T("Let it sink"),
}
DISCARD_DOWN = T("Discard down to your limit")
FIGHT = T("Fight")
PLUNDER = T("Plunder")
SPOILS = {"crew": T("A random crew card"), "mission": T("A random unfinished mission"), "none": T("Nothing")}
"""What a victor may plunder besides a cargo card."""
FIXED = {
    "done": (T("Done taking cargo"),),
    "stay": (T("Stay at sea"),),
    "hail": (T("Hail the friendly ship"), T("Draw a card into your hand")),
    "sail": (T("Sail on"),),
    "flee": (T("Flee"),),
    "yield": (T("Strike your colours"), T("Be boarded: lose a random crew card and your heaviest cargo")),
}
"""The label paths of the decisions that depend on nothing but their verb."""


def _card(code: str) -> str:
    f = BY_CODE[code]
    return T(
        "{card} {ship} · {cannons} · crew {crew} · {cargo}",
        card=f.label,
        ship=f.ship_name,
        cannons=f.cannon_count,
        crew=f.crew,
        cargo=f.cargo,
    )


def _cargo(code: str) -> str:
    f = BY_CODE[code]
    return T("{card} · {cargo}", card=f.label, cargo=f.cargo)


def _fire(player: JSON, code: str) -> str:
    f = BY_CODE[code]
    value = card_value(player, f.face)
    if f.joker:
        return T("{card} · +{value} cannon value + a ship from the deck", card=f.label, value=value)
    return T("{card} · +{value} cannon value", card=f.label, value=value)


def describe(state: JSON, seat: int, action: Action) -> tuple[str, ...]:
    """The label path of a legal ``action`` of ``seat``: a turn's main action, or the decision pending."""
    if state["pending"] is None and state["duel"] is None:
        return _main(state, seat, action)
    if action.verb in FIXED:
        return FIXED[action.verb]
    pending, player = state["pending"], state["players"][seat]
    verb, args = action.verb, action.args
    if verb in ("play", "fire"):
        return (T("Choose your combat card") if verb == "play" else T("Fire"), _fire(player, args[0]))
    if verb == "keep":
        f = BY_CODE[args[0]]
        return (T("Keep a mission"), T("{card} {kind}: {text}", card=f.label, kind=f.mission_name, text=f.mission_text))
    if verb == "sell":
        where = T("From your holds") if args[1:] == ("hold",) else T("From your hand")
        return (T("Sell a card"), where, _cargo(args[0]))
    if verb == "buy":
        return (T("Buy goods"), T("Buy {tons} t of goods now", tons=pending["tons"]))
    if verb == "take":
        f = BY_CODE[args[0]]
        return (T("Take from the discard pile"), NATION_GOOD[f.suit or "h"], _cargo(args[0]))
    if verb == "dock":
        dock = T("Dock at {town}", town=face(state["encounter"]["cards"][0]).town)
        return (dock, T("{card} deserts", card=_card(args[0]))) if args else (dock,)
    if verb == "cove":
        return (T("Pirate Cove"), COVE[args[0]])
    if verb == "swap":
        return (T("Take a new ship"), _card(args[0]))
    if verb == "drop":
        return (DISCARD_DOWN, T("Crew: {card}", card=_card(args[0])))
    if verb == "dump":
        if pending is not None and pending["kind"] == "trim":
            return (DISCARD_DOWN, T("Cargo: {card}", card=_cargo(args[0])))
        return (T("Dump cargo"), _cargo(args[0]))
    if verb == "fight":
        return _fight(state, args)
    if verb == "plunder":
        return (T("Keep the wreck"), WRECK[args[0]])
    if verb == "spoils":
        what = args[0]
        return (PLUNDER, SPOILS[what] if what in SPOILS else T("Cargo {card}", card=_cargo(what)))
    raise ValueError(action)


def _fight(state: JSON, args: tuple[str, ...]) -> tuple[str, ...]:
    """Fight the ship met, or (``fight <seat>``) a rival's ship met at sea instead."""
    if not args:
        f = face(state["encounter"]["cards"][0])
        return (FIGHT, T("The {ship} ({card})", ship=f.nation_ship, card=f.label))
    rival = int(args[0])
    ship = SHIP_OF[face(state["players"][rival]["ship"]).suit]
    return (FIGHT, T("{seat}'s {ship} instead", seat=p(rival), ship=ship))


def _main(state: JSON, seat: int, action: Action) -> tuple[str, ...]:
    names = MAIN[action.verb]
    if action.verb == "attack":
        f = face(state["players"][seat]["town"])
        need = 2 * f.size + 1
        return (
            names[0],
            N(
                "{town} ({card}): {n} cannon needed",
                "{town} ({card}): {n} cannons needed",
                need,
                town=f.town,
                card=f.label,
            ),
        )
    if action.verb == "crew":
        return names
    return (names[0], names[2] if action.args == ("jk",) else names[1])
