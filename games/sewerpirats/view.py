"""What a seat may see (the renderer's input), the pending-decision text, and the text summaries."""

from __future__ import annotations

from collections.abc import Callable

from games.core import JSON, joined, plural
from games.sewerpirats.board import CAPTAIN, captain_ship, second_token
from games.sewerpirats.components import GROUP_BOOTY, HAND_LIMIT, SHIPS, TRIBE_SINGULAR, token_name
from games.sewerpirats.scoring import FOOD, breakdown, total


def _kind(category: str, *, effect: str | None = None, needs_bonus: bool = False) -> JSON:
    return {"category": category, "bonus": effect is not None, "needs_bonus": needs_bonus, "effect": effect}


TOKEN_KINDS: JSON = {
    **{
        kind: _kind(name, effect=None if kind == booty else f"+{plus} per {booty}")
        for booty, bonus, plus, name in FOOD
        for kind in (booty, bonus)
    },
    "teddy": _kind("Toys", needs_bonus=True),
    "doll": _kind("Toys", needs_bonus=True),
    "parrot": _kind("Toys", effect="scores toys"),
    "tincan": _kind("Tin cans", needs_bonus=True),
    "opener": _kind("Tin cans", effect="opens a can"),
}
"""The view's ``token_kinds``, in scoring order: each token type's category of the final scoring, whether
it is a bonus token, what a bonus does, and whether booty scores nothing without its bonus."""


def _shared(item: JSON) -> JSON:
    return item


def _group(group: JSON | None, copy: Callable[[JSON], JSON]) -> JSON | None:
    if group is None:
        return None
    bonus = group["bonus"]
    return {
        "booty": [copy(t) for t in group["booty"]],
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
    copy = _shared if brief else dict
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
                "play_area": [copy(f) for f in p["area"]],
                "hand_count": len(p["hand"]),
                "token_count": len(p["tokens"]),
                "captain": captains.get(s),
                "tokens": [copy(t) for t in p["tokens"]] if mine else None,
                "score": total(p["tokens"]) if mine and not brief else None,
                "breakdown": [line.as_json() for line in breakdown(p["tokens"])] if mine and not brief else None,
            }
        )
    a = state["auction"]
    auction = None
    if a is not None:
        auction = {
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
    sail = state["sail"]
    sailing = None if sail is None else {"ship": SHIPS[sail["ship"]], "space": sail["at"]}
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
                "spaces": [None if f is None else copy(f) for f in ship["spaces"]],
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
        "players": players,
        "hand": None if seat is None else list(state["players"][seat]["hand"]),
        "phase": phase,
        "to_act": [] if state["actor"] is None else [state["actor"]],
        "turn": state["turn"],
        "pending": None if brief else pending(state),
        "sailing": sailing,
        "must_sail": None if must_sail is None else SHIPS[must_sail],
        "token_kinds": TOKEN_KINDS,
        "auction": auction,
        "events": [] if brief else list(state["log"]),
        "final": _final(state) if over else None,
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
    """What the player to act must decide, with ``{pN}`` for seats."""
    seat = state["actor"]
    if seat is None:
        return None
    who = f"{{p{seat}}}"
    phase = state["phase"]
    sail = state["sail"]
    if phase == "crew":
        return f"{who} chooses a tribe"
    if phase == "auction":
        a = state["auction"]
        if a["kind"] == "hire":
            return f"{who} picks a figure at the bar to auction"
        tribe = TRIBE_SINGULAR[a["bar"][a["lot"]]["tribe"]] if a["kind"] != "pay" else ""
        if a["kind"] == "open":
            return f"{who} names the opening bid for the {tribe} (at least {plural(a['lot'], 'card')})"
        if a["kind"] == "raise":
            return f"{who} raises the bid of {plural(a['bid'], 'card')} for the {tribe}, or passes"
        more = "card" if a["pay"] == a["bid"] else "more card"
        return f"{who} chooses {plural(a['pay'], more)} to pay"
    if phase == "action":
        s = captain_ship(state, seat)
        return f"{who} takes an action" if s is None else f"{who} must set sail with the {SHIPS[s]} ship"
    if phase == "draw":
        return f"{who} takes a second card"
    if phase == "discard":
        extra = len(state["players"][seat]["hand"]) - HAND_LIMIT
        return f"{who} discards down to {HAND_LIMIT} cards ({plural(extra, 'card')} too many)"
    if phase == "snail":
        return f"{who} may reveal the top card for the snail"
    if phase == "weasel":
        return f"{who} may take another action with the same weasel"
    ship = SHIPS[sail["ship"]]
    if phase == "toad":
        return f"{who}'s Toad on {ship} {sail['at'] + 1} seizes a token or stays aboard"
    fig = state["ships"][sail["ship"]]["spaces"][sail["at"]]
    where = "captain" if sail["at"] == CAPTAIN else f"{TRIBE_SINGULAR[fig['tribe']]} on space {sail['at'] + 1}"
    if second_token(sail):
        return f"{who} may seize a second token from the {ship} ship for their {where}, or stop"
    more = " (a rat: up to 2)" if sail["take"] > 1 else ""
    return f"{who} seizes a token from the {ship} ship for their {where}{more}"


def summary_line(view: JSON) -> str:
    """One line describing the position."""
    head = f"Sewer Pirats ({view['variant']})"
    if view["final"] is not None:
        scores = ", ".join(f"{{p{s['seat']}}} {s['total']}" for s in view["final"]["scores"])
        winners = joined([f"{{p{w}}}" for w in view["final"]["winners"]])
        return f"{head}: game over, {winners} won. Scores: {scores}."
    ships = "; ".join(
        f"{ship['ship']} {sum(f is not None for f in ship['spaces'][:CAPTAIN])} crew"
        + (" + captain" if ship["spaces"][CAPTAIN] else "")
        for ship in view["ships"]
    )
    return f"{head}: {view['pending']}. Ships: {ships}. Groups left in the pools: {view['groups_left']}."


def seat_text(view: JSON) -> str:
    """The viewer's hand and tokens with the live score preview, or the final score once the game is over."""
    seat = view["viewer"]
    if seat is None:
        return "You are watching: hands and tokens are secret."
    hand = view["hand"]
    cards = ", ".join(f"{hand.count(s)} {s}" for s in SHIPS if s in hand) or "no cards"
    me = view["players"][seat]
    tokens = me["tokens"]
    lines = [f"**Your hand** ({len(hand)}): {cards}"]
    over = view["final"] is not None
    if not tokens:
        lines.append("**Your tokens:** none." if over else "**Your tokens:** none yet.")
        return "\n".join(lines)
    lines.append("**Your tokens:** " + ", ".join(token_name(t) for t in tokens))
    if over:
        lines.append(f"**Final score: {view['final']['scores'][seat]['total']}**")
    else:
        lines.append(f"**Score if the game ended now: {me['score']}**")
    lines += [f"- {line.category}: {line.points} ({line.detail})" for line in breakdown(tokens)]
    return "\n".join(lines)
