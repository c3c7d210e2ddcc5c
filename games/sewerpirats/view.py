"""What a seat may see (the renderer's input), the pending-decision text, and the text summaries."""

from __future__ import annotations

from collections.abc import Callable

from games.core import JSON
from games.i18n import N, T, joined, seat_ref
from games.sewerpirats.board import CAPTAIN, captain_ship, second_token
from games.sewerpirats.components import GROUP_BOOTY, HAND_LIMIT, SHIPS, token_name
from games.sewerpirats.scoring import FOOD, TIN_CANS, TOYS, breakdown, total
from games.sewerpirats.words import SHIP_NOUN, SYMBOL, THE_FIGURE, TRIBE, VARIANT, cards


def _kind(category: str, *, effect: str | None = None, needs_bonus: bool = False) -> JSON:
    return {"category": category, "bonus": effect is not None, "needs_bonus": needs_bonus, "effect": effect}


_PLUS = {bonus: plus for _, bonus, plus, _ in FOOD}
EFFECTS: dict[str, str] = {
    "ketchup": T("+{plus} per fries", plus=_PLUS["ketchup"]),
    "chili": T("+{plus} per noodles", plus=_PLUS["chili"]),
    "milkshake": T("+{plus} per burger", plus=_PLUS["milkshake"]),
}
"""What each food's bonus token adds (the points are :data:`FOOD`'s)."""

TOKEN_KINDS: JSON = {
    **{
        kind: _kind(name, effect=None if kind == booty else EFFECTS[bonus])
        for booty, bonus, plus, name in FOOD
        for kind in (booty, bonus)
    },
    "teddy": _kind(TOYS, needs_bonus=True),
    "doll": _kind(TOYS, needs_bonus=True),
    "parrot": _kind(TOYS, effect=T("scores toys")),
    "tincan": _kind(TIN_CANS, needs_bonus=True),
    "opener": _kind(TIN_CANS, effect=T("opens a can")),
}
"""The view's ``token_kinds``, in scoring order: each token type's category of the final scoring (marked),
whether it is a bonus token, what a bonus does (marked), and whether booty scores nothing without its bonus."""


_Copy = Callable[[list[JSON | None]], list[JSON | None]]
"""How a view takes the state's lists of figures and tokens: copied (:func:`_copied`), or shared (``list``)."""


def _copied(items: list[JSON | None]) -> list[JSON | None]:
    """A list of the state's figure or token dicts (or empty spaces), each copied."""
    return [None if item is None else dict(item) for item in items]


def _group(group: JSON | None, copy: _Copy) -> JSON | None:
    if group is None:
        return None
    bonus = group["bonus"]
    return {
        "booty": copy(group["booty"]),
        "bonus": None if bonus is None else {"type": bonus["type"]},  # its value stays face down
    }


def build_view(state: JSON, seat: int | None, *, brief: bool = False) -> JSON:
    """The view of ``seat`` (``None``: a spectator): public board plus the viewer's own secrets.

    ``sailing`` names the ship whose group is being seized and the index in its ``spaces`` of the figure
    whose turn to seize it is (``None`` outside a sailing).

    ``brief`` is the AI's view of one decision: it leaves out what only people read (``pending``,
    ``events``, the live score) and shares the state's figure and token dicts instead of copying them
    (they hold nothing secret; the AI only reads its view)."""
    over = state["result"] is not None
    copy = list if brief else _copied  # a brief view's lists share the state's dicts
    sail = state["sail"]
    phase = state["phase"]
    must_sail = captain_ship(state, state["actor"]) if phase == "action" else None
    if state["final"] is not None and phase in ("seize", "toad", "weasel"):
        phase = "final"
    return {
        "game": "sewerpirats",
        "variant": state["variant"],
        "abilities": state["abilities"],
        "viewer": seat,
        "seats": state["seats"],
        "tribes": list(state["tribes"]),
        "ships": [
            {
                "ship": SHIPS[i],
                "spaces": copy(ship["spaces"]),
                "flotsam": [_group(g, copy) for g in ship["flotsam"]],
            }
            for i, ship in enumerate(state["ships"])
        ],
        "row": list(state["row"]),
        "deck_count": len(state["deck"]),
        "discard_count": len(state["discard"]),
        "booty_pool": len(state["booty_pool"]),
        "bonus_pool": len(state["bonus_pool"]),
        "groups_left": min(len(state["booty_pool"]) // GROUP_BOOTY, len(state["bonus_pool"])),
        "players": _players(state, seat, copy, brief=brief, over=over),
        "hand": None if seat is None else list(state["players"][seat]["hand"]),
        "phase": phase,
        "to_act": [] if state["actor"] is None else [state["actor"]],
        "turn": state["turn"],
        "pending": None if brief else pending(state),
        "sailing": None if sail is None else {"ship": SHIPS[sail["ship"]], "space": sail["at"]},
        "must_sail": None if must_sail is None else SHIPS[must_sail],
        "token_kinds": TOKEN_KINDS,
        "auction": _auction(state),
        "events": [] if brief else list(state["log"]),
        "final": _final(state) if over else None,
    }


def _players(state: JSON, seat: int | None, copy: _Copy, *, brief: bool, over: bool) -> list[JSON]:
    """Every player as ``seat`` sees them: their crew, how many cards and tokens they hold, the ship they
    captain, and their tokens and score only to themselves (to everyone once the game is over)."""
    captains: dict[int, str] = {}
    for i, ship in enumerate(state["ships"]):
        if ship["spaces"][CAPTAIN] is not None:
            captains[ship["spaces"][CAPTAIN]["owner"]] = SHIPS[i]
    players = []
    for s, p in enumerate(state["players"]):
        mine = s == seat or over
        players.append(
            {
                "seat": s,
                "color": p["color"],
                "play_area": copy(p["area"]),
                "hand_count": len(p["hand"]),
                "token_count": len(p["tokens"]),
                "captain": captains.get(s),
                "tokens": copy(p["tokens"]) if mine else None,
                "score": total(p["tokens"]) if mine and not brief else None,
                "breakdown": [line.as_json() for line in breakdown(p["tokens"])] if mine and not brief else None,
            }
        )
    return players


def _auction(state: JSON) -> JSON | None:
    """The Crew Member Auction as everyone sees it: the bar (only how many cards lie under each figure),
    the lot, the bid and who made it (``None`` outside an auction)."""
    a = state["auction"]
    if a is None:
        return None
    return {
        "bar": [
            {"tribe": stool["tribe"], "cards_under": len(stool["under"]), "min_bid": i}
            for i, stool in enumerate(a["bar"])
        ],
        "lot": a["lot"],
        "bid": a["bid"],
        "bidder": a["bidder"],
        "active": list(a["active"]),
        "crew_counts": [len(p["area"]) for p in state["players"]],
    }


def _final(state: JSON) -> JSON:
    result = state["result"]
    scores = [
        {
            "seat": s,
            "total": result["scores"][s],
            "tokens": [dict(t) for t in p["tokens"]],
            "breakdown": [line.as_json() for line in breakdown(p["tokens"])],
            "space_sum": result["space_sums"][s],
        }
        for s, p in enumerate(state["players"])
    ]
    best = max(result["scores"])
    tied = [s for s, points in enumerate(result["scores"]) if points == best]
    return {"scores": scores, "winners": list(result["winners"]), "tied": tied}


def pending(state: JSON) -> str | None:
    """What the player to act must decide, with ``{pN}`` for seats (marked)."""
    seat = state["actor"]
    if seat is None:
        return None
    who = seat_ref(seat)
    phase = state["phase"]
    sail = state["sail"]
    if phase == "crew":
        return T("{seat} chooses a tribe", seat=who)
    if phase == "auction":
        return _auction_pending(state["auction"], who)
    if phase == "action":
        s = captain_ship(state, seat)
        if s is None:
            return T("{seat} takes an action", seat=who)
        return T("{seat} must set sail with the {ship}", seat=who, ship=SHIP_NOUN[SHIPS[s]])
    if phase == "draw":
        return T("{seat} takes a second card", seat=who)
    if phase == "discard":
        extra = len(state["players"][seat]["hand"]) - HAND_LIMIT
        return N(
            "{seat} discards down to {limit} cards ({n} card too many)",
            "{seat} discards down to {limit} cards ({n} cards too many)",
            extra,
            seat=who,
            limit=HAND_LIMIT,
        )
    if phase == "snail":
        return T("{seat} may reveal the top card for the snail", seat=who)
    if phase == "weasel":
        return T("{seat} may take another action with the same weasel", seat=who)
    ship = SHIPS[sail["ship"]]
    if phase == "toad":
        return T(
            "{seat}'s Toad on {ship} {space} seizes a token or stays aboard",
            seat=who,
            ship=SYMBOL[ship],
            space=sail["at"] + 1,
        )
    return _seize_pending(state, who, ship)


def _auction_pending(a: JSON, who: str) -> str:
    if a["kind"] == "hire":
        return T("{seat} picks a figure at the bar to auction", seat=who)
    if a["kind"] == "pay":
        if a["pay"] == a["bid"]:
            return N("{seat} chooses {n} card to pay", "{seat} chooses {n} cards to pay", a["pay"], seat=who)
        return N("{seat} chooses {n} more card to pay", "{seat} chooses {n} more cards to pay", a["pay"], seat=who)
    figure = THE_FIGURE[a["bar"][a["lot"]]["tribe"]]
    if a["kind"] == "open":
        return T(
            "{seat} names the opening bid for {figure} (at least {cards})",
            seat=who,
            figure=figure,
            cards=cards(a["lot"]),
        )
    return T("{seat} bids more than {cards} for {figure}, or passes", seat=who, cards=cards(a["bid"]), figure=figure)


def _seize_pending(state: JSON, who: str, ship: str) -> str:
    sail = state["sail"]
    values = {"seat": who, "ship": SHIP_NOUN[ship]}
    if sail["at"] == CAPTAIN:
        if second_token(sail):
            return T("{seat} may seize a second token from the {ship} for their captain, or stop", **values)
        if sail["take"] > 1:
            return T("{seat} seizes a token from the {ship} for their captain (a rat: up to 2)", **values)
        return T("{seat} seizes a token from the {ship} for their captain", **values)
    fig = state["ships"][sail["ship"]]["spaces"][sail["at"]]
    values |= {"figure": TRIBE[fig["tribe"]], "space": sail["at"] + 1}
    if second_token(sail):
        return T(
            "{seat} may seize a second token from the {ship} for their {figure} on space {space}, or stop", **values
        )
    if sail["take"] > 1:
        return T("{seat} seizes a token from the {ship} for their {figure} on space {space} (a rat: up to 2)", **values)
    return T("{seat} seizes a token from the {ship} for their {figure} on space {space}", **values)


def summary_line(view: JSON) -> str:
    """One line describing the position (marked)."""
    variant = VARIANT.get(view["variant"], view["variant"])
    if view["final"] is not None:
        scores = ", ".join(f"{seat_ref(s['seat'])} {s['total']}" for s in view["final"]["scores"])
        winners = joined([seat_ref(w) for w in view["final"]["winners"]])
        return T(
            "Sewer Pirats ({variant}): game over, {winners} won. Scores: {scores}.",
            variant=variant,
            winners=winners,
            scores=scores,
        )
    ships = "; ".join(_ship_crew(ship) for ship in view["ships"])
    return T(
        "Sewer Pirats ({variant}): {pending}. Ships: {ships}. Groups left in the pools: {groups}.",
        variant=variant,
        pending=view["pending"] or "",
        ships=ships,
        groups=view["groups_left"],
    )


def _ship_crew(ship: JSON) -> str:
    crew = sum(f is not None for f in ship["spaces"][:CAPTAIN])
    if ship["spaces"][CAPTAIN]:
        return T("{ship} {n} crew + captain", ship=SYMBOL[ship["ship"]], n=crew)
    return T("{ship} {n} crew", ship=SYMBOL[ship["ship"]], n=crew)


def seat_text(view: JSON) -> str:
    """The viewer's hand and tokens with the live score preview, or the final score once the game is over
    (marked, one line each)."""
    seat = view["viewer"]
    if seat is None:
        return T("You are watching: hands and tokens are secret.")
    hand = view["hand"]
    held = ", ".join(T("{n} {symbol}", n=hand.count(s), symbol=SYMBOL[s]) for s in SHIPS if s in hand)
    me = view["players"][seat]
    tokens = me["tokens"]
    lines = [T("**Your hand** ({n}): {cards}", n=len(hand), cards=held or T("no cards"))]
    over = view["final"] is not None
    if not tokens:
        lines.append(T("**Your tokens:** none.") if over else T("**Your tokens:** none yet."))
        return "\n".join(lines)
    lines.append(T("**Your tokens:** {tokens}", tokens=", ".join(token_name(t) for t in tokens)))
    if over:
        lines.append(T("**Final score: {score}**", score=view["final"]["scores"][seat]["total"]))
    else:
        lines.append(T("**Score if the game ended now: {score}**", score=me["score"]))
    lines += [
        T("- {category}: {points} ({detail})", category=line.category, points=line.points, detail=line.detail)
        for line in breakdown(tokens)
    ]
    return "\n".join(lines)
