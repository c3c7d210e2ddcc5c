"""Action D (Set Sail): seizing in order, toads staying aboard, figures leaving or advancing, the
flotsam moving up, the end of the game with its final sailings, and the flow to the next turn."""

from __future__ import annotations

from games.core import JSON, Action, Event, IllegalAction, act
from games.i18n import T, seat_ref
from games.sewerpirats.board import CAPTAIN, captain_ship, has_ability, log, second_token
from games.sewerpirats.components import GROUP_BOOTY, SHIPS, token_name
from games.sewerpirats.moves import plan_actions
from games.sewerpirats.scoring import total, victory
from games.sewerpirats.words import SHIP_NOUN, TRIBE


def lay_group(state: JSON) -> JSON | None:
    """A new face-up flotsam group of 3 booty + 1 bonus from the pools, or None once they are empty."""
    booty, bonus = state["booty_pool"], state["bonus_pool"]
    if len(booty) < GROUP_BOOTY or not bonus:
        return None
    return {"booty": [booty.pop() for _ in range(GROUP_BOOTY)], "bonus": bonus.pop()}


def start_sail(state: JSON, s: int, events: list[Event], *, weasel_may_act: bool) -> None:
    """The captain of ship ``s`` sets sail; seizing runs until a player must choose."""
    captain = state["ships"][s]["spaces"][CAPTAIN]
    weasel = weasel_may_act and has_ability(state, captain, "weasels")
    state["sail"] = {
        "ship": s,
        "at": CAPTAIN,
        "began": False,
        "take": 0,
        "took": 0,
        "weasel": captain["id"] if weasel else None,
    }
    values = {"seat": seat_ref(captain["owner"]), "ship": SHIP_NOUN[SHIPS[s]]}
    if state["final"] is not None:
        log(state, events, T("{seat} sets sail with the {ship} for the last time.", **values))
    else:
        log(state, events, T("{seat} sets sail with the {ship}.", **values))
    _run(state, events)


def distinct_booty(booty: list[JSON]) -> list[int]:
    """Indices of the first token of each distinct (type, value) in a group: identical tokens count once."""
    seen: set[tuple[str, int]] = set()
    picks: list[int] = []
    for i, token in enumerate(booty):
        key = (token["type"], token["value"])
        if key not in seen:
            seen.add(key)
            picks.append(i)
    return picks


def toad_target(board: JSON, s: int, at: int, seat: int) -> int | None:
    """Where ``seat``'s toad on crew space ``at`` of ship ``s`` goes when it stays aboard: the next free
    space toward the bow, passing over occupied ones (the rulebook's toad goes from 2 to C past the toad
    on 3), C only if ``seat`` holds no captain; ``None`` if it cannot advance and stays where it is.
    ``board`` is a state or a view (both have the ships)."""
    spaces = board["ships"][s]["spaces"]
    for i in range(at + 1, CAPTAIN):
        if spaces[i] is None:
            return i
    if spaces[CAPTAIN] is None and captain_ship(board, seat) is None:
        return CAPTAIN
    return None


def seize_actions(state: JSON) -> list[Action]:
    """The seizing player's choices (phase ``seize``) or the toad owner's (phase ``toad``)."""
    sail = state["sail"]
    ship = state["ships"][sail["ship"]]
    actions = [act("seize", i + 1) for i in distinct_booty(ship["flotsam"][0]["booty"])]  # counted from 1
    if state["phase"] == "toad":
        actions.append(act("stay"))
    elif second_token(sail):
        actions.append(act("stop"))
    return actions


def play_seize(state: JSON, seat: int, action: Action, events: list[Event]) -> None:
    """Apply ``seize <i>``, ``stay`` (a toad) or ``stop`` (a rat's second token) by the seizing player."""
    sail = state["sail"]
    ship = state["ships"][sail["ship"]]
    booty = ship["flotsam"][0]["booty"]
    if action.verb == "stay" and state["phase"] == "toad":
        if action.args:
            raise IllegalAction(T("Say `stay`: the toad stays aboard and advances if it can."))
        _stay(state, events)
    elif action.verb == "stop" and not action.args:
        if not second_token(sail):
            raise IllegalAction(T("Only a rat's second token may be left: choose a token to seize."))
        sail["take"] = 0
        fig = ship["spaces"][sail["at"]]
        log(
            state,
            events,
            T("{seat}'s {figure} takes no second token.", seat=seat_ref(seat), figure=TRIBE[fig["tribe"]]),
        )
    elif action.verb == "seize":
        if len(action.args) != 1 or not action.args[0].isdigit():
            raise IllegalAction(T("Choose a token by its number in the group, e.g. `seize 1`."))
        index = int(action.args[0]) - 1  # tokens are counted from 1, as the board shows them
        if not 0 <= index < len(booty):
            raise IllegalAction(T("The group holds tokens 1 to {last}.", last=len(booty)))
        first = next(i for i in distinct_booty(booty) if booty[i] == booty[index])
        if first != index:
            raise IllegalAction(
                T("Token {index} is the same as token {first}: `seize {first}`.", index=index + 1, first=first + 1)
            )
        _seize(state, index, events)
    else:
        raise IllegalAction(
            T("Choose a token to seize or stay aboard.") if state["phase"] == "toad" else T("Choose a token to seize.")
        )
    _run(state, events)


def _seize(state: JSON, index: int, events: list[Event]) -> None:
    sail = state["sail"]
    ship = state["ships"][sail["ship"]]
    fig = ship["spaces"][sail["at"]]
    token = ship["flotsam"][0]["booty"].pop(index)
    state["players"][fig["owner"]]["tokens"].append(token)
    sail["take"] -= 1
    sail["took"] += 1
    log(
        state,
        events,
        T(
            "{seat}'s {figure} seized {token}.",
            seat=seat_ref(fig["owner"]),
            figure=TRIBE[fig["tribe"]],
            token=token_name(token),
        ),
    )


def _stay(state: JSON, events: list[Event]) -> None:
    """The toad being asked stays aboard and advances if it can (:func:`toad_target`), then seizing
    moves on."""
    sail = state["sail"]
    spaces = state["ships"][sail["ship"]]["spaces"]
    at = sail["at"]
    fig = spaces[at]
    target = toad_target(state, sail["ship"], at, fig["owner"])
    seat = seat_ref(fig["owner"])
    if target is None:
        text = T("{seat}'s Toad stays aboard and stays where it is.", seat=seat)
    else:
        spaces[at], spaces[target] = None, fig
        if target == CAPTAIN:
            text = T("{seat}'s Toad stays aboard and becomes captain.", seat=seat)
        else:
            text = T("{seat}'s Toad stays aboard and moves to space {space}.", seat=seat, space=target + 1)
    log(state, events, text)
    sail["at"] -= 1
    sail["began"] = False
    sail["take"] = 0


def _run(state: JSON, events: list[Event]) -> None:
    """Seize in order (captain, then bow to stern) until a player must choose or the ship is done."""
    sail = state["sail"]
    ship = state["ships"][sail["ship"]]
    spaces = ship["spaces"]
    group = ship["flotsam"][0]
    booty = group["booty"]
    while sail["at"] >= 0:
        at = sail["at"]
        fig = spaces[at]
        if fig is None:
            sail["at"] -= 1
            continue
        if not sail["began"]:
            sail["began"] = True
            sail["took"] = 0
            sail["take"] = min(2 if has_ability(state, fig, "rats") else 1, len(booty))
            if at == CAPTAIN:
                state["players"][fig["owner"]]["tokens"].append(group["bonus"])
                log(
                    state,
                    events,
                    T(
                        "{seat}'s captain took the {token}.",
                        seat=seat_ref(fig["owner"]),
                        token=token_name(group["bonus"]),
                    ),
                )
                group["bonus"] = None
                sail["took"] = 1
            elif has_ability(state, fig, "toads"):
                if booty:
                    _ask(state, "toad", fig["owner"])
                    return
                _stay(state, events)  # nothing to seize: staying aboard is the toad's only choice
                continue
        if sail["take"] > 0:
            if len(distinct_booty(booty)) == 1 and not second_token(sail):
                _seize(state, 0, events)
                continue
            _ask(state, "seize", fig["owner"])
            return
        if sail["took"]:
            spaces[at] = None
            state["players"][fig["owner"]]["area"].append(fig)
        elif at + 1 < CAPTAIN and spaces[at + 1] is None:
            spaces[at], spaces[at + 1] = None, fig
        sail["at"] -= 1
        sail["began"] = False
    _finish_sail(state, events)


def _ask(state: JSON, phase: str, seat: int) -> None:
    state["phase"] = phase
    state["actor"] = seat


def _finish_sail(state: JSON, events: list[Event]) -> None:
    sail = state["sail"]
    s = sail["ship"]
    ship = state["ships"][s]
    leftover = ship["flotsam"][0]["booty"]
    if leftover:
        state["box"].extend(leftover)
        tokens = ", ".join(map(token_name, leftover))
        log(state, events, T("Nobody could take {tokens}: back to the box.", tokens=tokens))
    ship["flotsam"] = [ship["flotsam"][1], lay_group(state)]
    state["sail"] = None
    if state["final"] is None and ship["flotsam"][0] is None:
        state["final"] = {"trigger": s, "cursor": -1}
        log(
            state,
            events,
            T(
                "No flotsam is left before the {ship}: the game ends after the final sailings.",
                ship=SHIP_NOUN[SHIPS[s]],
            ),
        )
    if sail["weasel"] is None or not offer_weasel(state, sail["weasel"]):
        end_action(state, events)


def weasel_actions(state: JSON, fid: str) -> list[Action]:
    """The extra actions a weasel may take right after its own Move, Become Captain or Set Sail."""
    seat = int(fid[0])
    actions = plan_actions(state, seat, fid)
    s = captain_ship(state, seat)
    if s is not None and state["ships"][s]["spaces"][CAPTAIN]["id"] == fid:
        actions.append(act("sail", SHIPS[s]))
    return actions


def offer_weasel(state: JSON, fid: str) -> bool:
    """Enter the weasel's follow-up decision if it has any extra action; False if it has none."""
    if not weasel_actions(state, fid):
        return False
    state["weasel"] = fid
    _ask(state, "weasel", int(fid[0]))
    return True


def end_action(state: JSON, events: list[Event]) -> None:
    """The current action is over: the next player's turn, the next final sailing, or the scoring."""
    state["weasel"] = None
    state["snail"] = None
    final = state["final"]
    if final is None:
        state["turn"] = (state["turn"] + 1) % state["seats"]
        _ask(state, "action", state["turn"])
        return
    for s in range(final["cursor"] + 1, len(SHIPS)):
        ship = state["ships"][s]
        if s != final["trigger"] and ship["spaces"][CAPTAIN] is not None and ship["flotsam"][0] is not None:
            final["cursor"] = s
            start_sail(state, s, events, weasel_may_act=True)
            return
    _game_over(state, events)


def space_sums(state: JSON) -> list[int]:
    """Per seat, the numbers of the spaces its figures occupy (C counts 4): the tie-break."""
    sums = [0] * state["seats"]
    for ship in state["ships"]:
        for i, fig in enumerate(ship["spaces"]):
            if fig is not None:
                sums[fig["owner"]] += i + 1
    return sums


def _game_over(state: JSON, events: list[Event]) -> None:
    scores = [total(p["tokens"]) for p in state["players"]]
    sums = space_sums(state)
    best = max(scores)
    tied = [seat for seat, score in enumerate(scores) if score == best]
    top = max(sums[seat] for seat in tied)
    winners = [seat for seat in tied if sums[seat] == top]
    state["result"] = {"scores": scores, "winners": winners, "space_sums": sums}
    state["phase"] = "over"
    state["actor"] = None
    log(state, events, T("Game over: {result}", result=victory(winners, best)))
