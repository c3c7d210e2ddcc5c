"""Readable label paths of legal actions (the Discord buttons and pickers), marked for the catalogs."""

from __future__ import annotations

from games.core import JSON, Action
from games.i18n import T
from games.sewerpirats.board import AREA, CAPTAIN, Figure, locate
from games.sewerpirats.components import SHIPS, token_name
from games.sewerpirats.moves import check_captain, check_move
from games.sewerpirats.sailing import toad_target
from games.sewerpirats.words import CARD_TITLE, SHIP_TITLE, SYMBOL, TRIBE, TRIBES_TITLE, cards, cards_of


def figure_label(state: JSON, fig: Figure) -> str:
    """``"Rat (play area)"``, ``"Toad on cat 3"`` or ``"Weasel captain of fish"``."""
    name = TRIBE[fig["tribe"]]
    where = locate(state, fig["id"])
    if where is None or where[0] == AREA:
        return T("{figure} (play area)", figure=name)
    s, i = where
    if i == CAPTAIN:
        return T("{figure} captain of {ship}", figure=name, ship=SYMBOL[SHIPS[s]])
    return T("{figure} on {ship} {space}", figure=name, ship=SYMBOL[SHIPS[s]], space=i + 1)


def _cost(symbol: str, cost: int) -> str:
    return cards_of(symbol, cost) if cost else T("free")


def describe_action(state: JSON, seat: int, action: Action) -> tuple[str, ...]:
    """The label path of a legal ``action`` of ``seat``."""
    verb, args = action.verb, action.args
    if verb == "draw":
        if args == ("deck",):
            return (T("Draw"), T("From the deck"))
        row = int(args[1]) - 1
        return (T("Draw"), T("Row {row}: {card}", row=row + 1, card=CARD_TITLE[state["row"][row]]))
    if verb == "move":
        plan = check_move(state, seat, args, state["weasel"])
        symbol = SHIPS[plan.ship]
        return (
            T("Move"),
            figure_label(state, plan.fig),
            SHIP_TITLE[symbol],
            T("Space {space} — {cost}", space=plan.target + 1, cost=_cost(symbol, plan.cost)),
        )
    if verb == "captain":
        plan = check_captain(state, seat, args, state["weasel"])
        symbol = SHIPS[plan.ship]
        return (
            T("Captain"),
            figure_label(state, plan.fig),
            T("{ship} — {cost}", ship=SHIP_TITLE[symbol], cost=_cost(symbol, plan.cost)),
        )
    if verb == "sail":
        return (T("Set sail"), SHIP_TITLE[args[0]])
    if verb == "discard":
        return (T("Pay") if state["phase"] == "auction" else T("Discard"), CARD_TITLE[args[0]])
    if verb == "seize":
        booty = state["ships"][state["sail"]["ship"]]["flotsam"][0]["booty"]
        return (T("Seize"), token_name(booty[int(args[0]) - 1]))
    if verb == "stop":
        return (T("Seize"), T("No second token"))
    if verb == "stay":
        return (T("Stay aboard"), _toad_step(state, seat))
    if verb == "snail":
        return (T("Snail"), T("Reveal the top card") if args == ("reveal",) else T("Do not reveal"))
    if verb == "tribe":
        return (T("Tribe"), TRIBES_TITLE[args[0]])
    if verb == "hire":
        return (T("Hire"), _stool_label(state, int(args[0]) - 1))
    if verb == "bid":
        return (T("Bid"), cards(int(args[0])))
    if verb == "pass":
        return (T("Pass"),)
    if verb == "done":
        return (T("Done"),)
    raise ValueError(f"no label for {action}")


def _stool_label(state: JSON, stool: int) -> str:
    """A stool of the bar: its figure, the least bid for it, and how many cards lie under it."""
    entry = state["auction"]["bar"][stool]
    figure, least = TRIBE[entry["tribe"]], cards(stool)
    if not entry["under"]:
        return T("Stool {stool}: {figure} — min {cards}", stool=stool + 1, figure=figure, cards=least)
    return T(
        "Stool {stool}: {figure} — min {cards} (+{under} under it)",
        stool=stool + 1,
        figure=figure,
        cards=least,
        under=cards(len(entry["under"])),
    )


def _toad_step(state: JSON, seat: int) -> str:
    sail = state["sail"]
    at = sail["at"]
    target = toad_target(state, sail["ship"], at, seat)
    if target is None:
        return T("Stay on space {space}", space=at + 1)
    return T("Become captain") if target == CAPTAIN else T("Move to space {space}", space=target + 1)
