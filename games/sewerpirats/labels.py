"""Readable label paths of legal actions (the Discord buttons and pickers)."""

from __future__ import annotations

from games.core import JSON, Action, plural
from games.sewerpirats.board import AREA, CAPTAIN, Figure, locate
from games.sewerpirats.components import SHIPS, TRIBE_SINGULAR, token_name
from games.sewerpirats.moves import check_captain, check_move
from games.sewerpirats.sailing import toad_target


def figure_label(state: JSON, fig: Figure) -> str:
    """``"Rat (play area)"``, ``"Toad on cat 3"`` or ``"Weasel captain of fish"``."""
    name = TRIBE_SINGULAR[fig["tribe"]]
    where = locate(state, fig["id"])
    if where is None or where[0] == AREA:
        return f"{name} (play area)"
    s, i = where
    return f"{name} captain of {SHIPS[s]}" if i == CAPTAIN else f"{name} on {SHIPS[s]} {i + 1}"


def _cost(cost: int) -> str:
    return plural(cost, "card") if cost else "free"


def describe_action(state: JSON, seat: int, action: Action) -> tuple[str, ...]:
    """The label path of a legal ``action`` of ``seat``."""
    verb, args = action.verb, action.args
    if verb == "draw":
        return (
            ("Draw", "From the deck")
            if args == ("deck",)
            else ("Draw", f"Row {int(args[1]) + 1}: {state['row'][int(args[1])]} card")
        )
    if verb == "move":
        plan = check_move(state, seat, args, state["weasel"])
        return (
            "Move",
            figure_label(state, plan.fig),
            f"{SHIPS[plan.ship].title()} ship",
            f"Space {plan.target + 1} — {_cost(plan.cost)}",
        )
    if verb == "captain":
        plan = check_captain(state, seat, args, state["weasel"])
        return (
            "Captain",
            figure_label(state, plan.fig),
            f"{SHIPS[plan.ship].title()} ship — {_cost(plan.cost)}",
        )
    if verb == "sail":
        return ("Set sail", f"{args[0].title()} ship")
    if verb == "discard":
        return ("Pay" if state["phase"] == "auction" else "Discard", f"{args[0].title()} card")
    if verb == "seize":
        booty = state["ships"][state["sail"]["ship"]]["flotsam"][0]["booty"]
        return ("Seize", token_name(booty[int(args[0])]))
    if verb == "stop":
        return ("Seize", "No second token")
    if verb == "stay":
        return ("Stay aboard", _toad_step(state, seat))
    if verb == "snail":
        return ("Snail", "Reveal the top card" if args == ("reveal",) else "Do not reveal")
    if verb == "tribe":
        return ("Tribe", args[0].title())
    if verb == "hire":
        stool = int(args[0])
        entry = state["auction"]["bar"][stool]
        under = f" (+{plural(len(entry['under']), 'card')} under it)" if entry["under"] else ""
        return (
            "Hire",
            f"Stool {stool + 1}: {TRIBE_SINGULAR[entry['tribe']]} — min {plural(stool, 'card')}{under}",
        )
    if verb == "bid":
        return ("Bid", plural(int(args[0]), "card"))
    return (verb.title(),)


def _toad_step(state: JSON, seat: int) -> str:
    sail = state["sail"]
    at = sail["at"]
    target = toad_target(state, sail["ship"], at, seat)
    if target is None:
        return f"Stay on space {at + 1}"
    return "Become captain" if target == CAPTAIN else f"Move to space {target + 1}"
