"""Battles: taking aim, bribes and blackmail, firing and counter-fire, sinking or capturing, the Treasure
stolen in battle, and the defender's flight after a deal.

Bargaining goes back and forth before the attacker fires: the defender offers a bribe or braces; the
attacker answers a bribe, or fires, or demands cargo; a declined demand lets the defender offer a bribe
in turn or give up bargaining (``brace``), after which only firing is left. Each side makes at most
:data:`OFFERS` offers per battle. A bribe that includes the Treasure is accepted at once and passes it to
the attacker; blackmail may demand it."""

from __future__ import annotations

from games.core import JSON, Action, Event, IllegalAction, act
from games.i18n import N, T
from games.searats.board import aim_targets, holds, payments, sail_actions, sail_targets
from games.searats.components import (
    BOOTY_HOLD,
    HOLD,
    MAX_SHOTS,
    SHIPS,
    Dice,
    balls_text,
    cargo,
    goods,
    p,
    ship_name,
    who,
)
from games.searats.flow import end_turn, enter_act, game_over
from games.searats.turn import move_ship, parse_sail

# ---------------------------------------------------------------------------------------------- actions


def shots(state: JSON, seat: int, most: int = MAX_SHOTS) -> list[Action]:
    return [act("fire", n) for n in range(1, min(most, state["ships"][seat]["balls"]) + 1)]


OFFERS = 3
"""Offers each side may make in one battle (bribes by the defender, demands by the attacker)."""


def _deals(state: JSON, verb: str) -> list[Action]:
    """``verb <cannonballs> <supplies>`` for every payment the defender can make to the attacker, and, when
    the defender carries the Treasure, the same with ``chest`` (and ``chest`` alone)."""
    battle = state["battle"]
    ships = state["ships"]
    pays = payments(ships[battle["def"]], ships[battle["att"]])
    actions = [act(verb, b, s) for b, s in pays]
    if state["treasure"] == battle["def"]:
        actions += [act(verb, "chest"), *(act(verb, b, s, "chest") for b, s in pays)]
    return actions


def bribe_actions(state: JSON) -> list[Action]:
    """The defender's bribe, before the attacker fires (or after it declined a demand), or ``brace``."""
    battle = state["battle"]
    if battle.get("closed") or offers(battle)[0] >= OFFERS:
        return []
    actions = _deals(state, "offer")
    return [*actions, act("brace")] if actions else []


def fire_actions(state: JSON) -> list[Action]:
    battle = state["battle"]
    actions = shots(state, battle["att"])
    if may_demand(battle):
        actions += _deals(state, "demand")
    return actions


def may_demand(battle: JSON) -> bool:
    return not battle.get("closed") and offers(battle)[1] < OFFERS


def offers(battle: JSON) -> list[int]:
    """Bribes and demands made so far in a battle (a battle stored before offers were counted: none)."""
    return battle.get("offers") or [0, 0]


def counter_actions(state: JSON) -> list[Action]:
    battle = state["battle"]
    return [*shots(state, battle["def"], battle["fired"]), act("hold")]


def divisions(state: JSON) -> list[tuple[int, int]]:
    """How a captor may divide the cargo of both ships: (captor's cannonballs, captor's supplies), each ship
    within its hold (:func:`holds`: the captor within 12, or within its More Booty cargo)."""
    prize = state["prize"]
    captor, ship = state["ships"][prize["captor"]], state["ships"][prize["ship"]]
    balls = captor["balls"] + ship["balls"]
    supplies = captor["supplies"] - prize["missing"]
    cap = max(HOLD, cargo(captor) - prize["missing"])
    return [
        (b, s)
        for b in range(min(balls, BOOTY_HOLD) + 1)
        for s in range(min(supplies, BOOTY_HOLD) + 1)
        if holds(b, s, cap) and holds(balls - b, supplies - s, HOLD)
    ]


def treasure_in_prize(state: JSON) -> bool:
    """Whether the Treasure is aboard the captor or its prize: the captor then says which ship keeps it."""
    prize = state["prize"]
    return state["treasure"] in (prize["captor"], prize["ship"])


def prize_actions(state: JSON) -> list[Action]:
    splits = divisions(state)
    actions = [act("sink"), *(act("capture", b, s) for b, s in splits)]
    if treasure_in_prize(state):
        actions += [act("capture", b, s, "chest") for b, s in splits]
    return actions


def flee_actions(state: JSON) -> list[Action]:
    flee = state["flee"]
    return sail_actions(state, flee["ship"], flee["roll"], [])


def battle_actions(state: JSON, seat: int) -> list[Action]:
    phase = state["phase"]
    if phase == "bribe":
        return bribe_actions(state)
    if phase == "fire":
        return fire_actions(state)
    if phase == "counter":
        return counter_actions(state)
    if phase == "prize":
        return prize_actions(state)
    if phase == "flee":
        return flee_actions(state)
    return []


# ---------------------------------------------------------------------------------------------- moves


def take_aim(state: JSON, seat: int, target: int, events: list[Event]) -> None:
    distance = dict(aim_targets(state))[target]
    state["battle"] = {
        "att": seat,
        "def": target,
        "dist": distance,
        "fired": 0,
        "hits": [0, 0],
        "offers": [0, 0],
        "closed": False,
    }
    state["fought"].append(target)
    events.append(
        Event(
            N(
                "⚔️ {ship} takes aim at {target}, {n} dot away.",
                "⚔️ {ship} takes aim at {target}, {n} dots away.",
                distance,
                ship=who(seat),
                target=who(target),
            )
        )
    )
    state["phase"] = "bribe" if bribe_actions(state) else "fire"


def deal_terms(action: Action, options: list[Action], refusal: str) -> tuple[int, int, bool]:
    """The (cannonballs, supplies, Treasure) of an ``offer`` or ``demand`` among ``options``."""
    if action not in options:
        raise IllegalAction(refusal)
    args = action.args
    chest = args[-1:] == ("chest",)
    numbers = args[:-1] if chest else args
    return (int(numbers[0]), int(numbers[1]), chest) if numbers else (0, 0, chest)


BRIBE_TERMS = T(
    "A bribe is cannonballs then supplies (add `chest` for the Treasure), at least one item, and leaves no ship "
    "with more than 12 items (12 of a kind)."
)
DEMAND_TERMS = T(
    "A demand is cannonballs then supplies (add `chest` for the Treasure), at least one item, and leaves no ship "
    "with more than 12 items (12 of a kind)."
)


def play_battle(state: JSON, seat: int, action: Action, dice: Dice, events: list[Event]) -> None:
    phase, verb = state["phase"], action.verb
    battle = state["battle"]
    if phase == "bribe":
        if verb == "brace" and not action.args:
            if offers(battle)[1]:  # answering a demand: no more bargaining
                battle["closed"] = True
                events.append(Event(T("{ship} gives up bargaining and braces for the attack.", ship=who(seat))))
            else:
                events.append(Event(T("{ship} offers no bribe.", ship=who(seat))))
            state["phase"] = "fire"
        elif verb == "offer":
            pay = deal_terms(action, bribe_actions(state), BRIBE_TERMS)
            battle["offers"] = [offers(battle)[0] + 1, offers(battle)[1]]
            if pay[2]:
                _treasure_bribe(state, seat, pay, dice, events)
            else:
                make_offer(state, "bribe", seat, battle["att"], pay, (0, 0, False), events)
        else:
            raise IllegalAction(T("Offer a bribe (`offer <cannonballs> <supplies>`), or `brace` for the attack."))
        return
    if phase == "fire":
        if verb == "demand":
            if not may_demand(battle):
                raise IllegalAction(
                    T(
                        "No more demands in this battle ({most} at most, none once the defender braced): fire.",
                        most=OFFERS,
                    )
                )
            pay = deal_terms(action, _deals(state, "demand"), DEMAND_TERMS)
            battle["offers"] = [offers(battle)[0], offers(battle)[1] + 1]
            make_offer(state, "demand", seat, battle["def"], (0, 0, False), pay, events)
            return
        fire(state, seat, battle["def"], _shots(action, state, seat, MAX_SHOTS), dice, events)
        return
    if phase == "counter":
        if verb == "hold" and not action.args:
            events.append(Event(T("{ship} holds fire.", ship=who(seat))))
            finish_battle(state, dice, events)
            return
        fire(state, seat, battle["att"], _shots(action, state, seat, battle["fired"]), dice, events)
        return
    if phase == "prize":
        play_prize(state, seat, action, dice, events)
        return
    if phase == "flee":
        if action.verb not in ("sail", "anchor"):
            raise IllegalAction(T("Flee: `sail <direction> <dots>` or `anchor`."))
        to, _ = parse_sail(state, seat, action, state["flee"]["roll"], [])
        move_ship(state, seat, to, events, fleeing=True)
        state["flee"] = None
        enter_act(state, dice, events)
        return
    raise IllegalAction(T("That is not a move at this point of the battle."))


def _shots(action: Action, state: JSON, seat: int, most: int) -> int:
    if action.verb == "fire" and len(action.args) == 1 and action.args[0].isdigit():
        n = int(action.args[0])
        if 1 <= n <= min(most, state["ships"][seat]["balls"]) and action.args[0] == str(n):
            return n
    top = min(most, state["ships"][seat]["balls"])
    if top == 1:
        raise IllegalAction(T("Fire 1 cannonball: `fire <number>`."))
    raise IllegalAction(T("Fire 1 to {most} cannonballs: `fire <number>`.", most=top))


def make_offer(
    state: JSON,
    kind: str,
    giver: int,
    taker: int,
    give: tuple[int, int, bool],
    get: tuple[int, int, bool],
    events: list[Event],
) -> None:
    """Post an offer that ``taker``'s commander must answer: ``giver`` hands over ``give`` and receives ``get``."""
    state["offer"] = {"kind": kind, "from": giver, "to": taker, "give": list(give), "get": list(get)}
    state["phase"] = "answer"
    if kind == "bribe":
        events.append(
            Event(
                T(
                    "💰 {ship} offers {target} a bribe of {goods}.",
                    ship=who(giver),
                    target=who(taker),
                    goods=bundle(give),
                )
            )
        )
    elif kind == "demand":
        events.append(
            Event(
                T(
                    "🏴‍☠️ {ship} demands {goods} from {target}, or it fires.",
                    ship=who(giver),
                    target=who(taker),
                    goods=bundle(get),
                )
            )
        )


def bundle(items: list[int] | tuple[int, int, bool]) -> str:
    """``"2 cannonballs and the Treasure"`` (marked)."""
    if items[2]:
        if not items[0] and not items[1]:
            return T("the Treasure")
        return T("{goods} and the Treasure", goods=goods(items[0], items[1]))
    return goods(items[0], items[1])


def _pay(state: JSON, pay: list[int] | tuple[int, int, bool]) -> None:
    """The defender hands ``pay`` (cannonballs, supplies, the Treasure) to the attacker."""
    battle = state["battle"]
    source, to = state["ships"][battle["def"]], state["ships"][battle["att"]]
    source["balls"] -= pay[0]
    source["supplies"] -= pay[1]
    to["balls"] += pay[0]
    to["supplies"] += pay[1]
    if pay[2]:
        state["treasure"] = battle["att"]


def _treasure_bribe(state: JSON, seat: int, pay: tuple[int, int, bool], dice: Dice, events: list[Event]) -> None:
    """The Most Powerful Bribe: it must be accepted, and the Treasure passes to the attacking ship."""
    attacker = state["battle"]["att"]
    events.append(
        Event(
            T(
                "💰 {ship} offers {target} {goods} as a bribe: the Most Powerful Bribe must be accepted, and the "
                "Treasure passes to {attacker}.",
                ship=who(seat),
                target=who(attacker),
                goods=bundle(pay),
                attacker=ship_name(attacker),
            )
        )
    )
    _pay(state, pay)
    deal_done(state, dice, events)


def answer_deal(state: JSON, accepted: bool, dice: Dice, events: list[Event]) -> None:
    """The answer to a bribe or a demand: an accepted deal moves the cargo and ends the battle; a declined
    bribe lets the attacker fire or demand, a declined demand lets the defender bribe or brace."""
    offer = state["offer"]
    state["offer"] = None
    if not accepted:
        state["phase"] = "bribe" if offer["kind"] == "demand" and bribe_actions(state) else "fire"
        return
    _pay(state, offer["give"] if offer["kind"] == "bribe" else offer["get"])
    deal_done(state, dice, events)


def deal_done(state: JSON, dice: Dice, events: list[Event]) -> None:
    """No battle: the defender may flee at once (a roll and a sail, no battle, no port, not its turn)."""
    defender = state["battle"]["def"]
    state["battle"] = None
    events.append(Event(T("🤝 The deal is done: no battle. {ship} may flee.", ship=who(defender))))
    roll = dice.roll(1, lambda shown: T("{ship} rolls to flee: {dice}.", ship=who(defender), dice=shown))[0]
    state["dice"] = {"seat": defender, "what": "flee", "values": [roll]}
    if not sail_targets(state, defender, roll):
        events.append(Event(T("{ship} has nowhere to sail.", ship=who(defender))))
        enter_act(state, dice, events)
        return
    state["flee"] = {"ship": defender, "roll": roll}
    state["phase"] = "flee"


def fire(state: JSON, seat: int, target: int, n: int, dice: Dice, events: list[Event]) -> None:
    """``seat`` fires ``n`` cannonballs at ``target``: a hit for each die greater than the distance."""
    battle = state["battle"]
    attacking = seat == battle["att"]
    shooter = state["ships"][seat]
    shooter["balls"] -= n
    balls, dots = balls_text(n), N("{n} dot", "{n} dots", battle["dist"])
    if attacking:
        values = dice.roll(
            n,
            lambda shown: T(
                "{ship} fires {balls} at {dots}: {dice}.", ship=who(seat), balls=balls, dots=dots, dice=shown
            ),
        )
    else:
        values = dice.roll(
            n,
            lambda shown: T(
                "{ship} fires back {balls} at {dots}: {dice}.", ship=who(seat), balls=balls, dots=dots, dice=shown
            ),
        )
    state["dice"] = {"seat": seat, "what": "fire" if attacking else "counter", "values": values}
    hits = sum(v > battle["dist"] for v in values)
    battle["hits"][0 if attacking else 1] = hits
    if attacking:
        battle["fired"] = n
    events.append(Event(N("💥 {n} hit on {ship}.", "💥 {n} hits on {ship}.", hits, ship=who(target))))
    ship = state["ships"][target]
    if hits <= ship["supplies"]:
        ship["supplies"] -= hits
        if attacking and ship["balls"] >= 1:
            state["phase"] = "counter"
        else:
            finish_battle(state, dice, events)
        return
    missing = hits - ship["supplies"]
    events.append(
        Event(
            N(
                "🔥 {ship} is hit beyond repair ({n} supply short).",
                "🔥 {ship} is hit beyond repair ({n} supplies short).",
                missing,
                ship=who(target),
            )
        )
    )
    if shooter["supplies"] >= missing:
        state["prize"] = {"captor": seat, "ship": target, "missing": missing}
        state["phase"] = "prize"
        return
    sink(state, target, seat, events)
    finish_battle(state, dice, events)


def play_prize(state: JSON, seat: int, action: Action, dice: Dice, events: list[Event]) -> None:
    prize = state["prize"]
    target = prize["ship"]
    if action.verb == "sink" and not action.args:
        sink(state, target, seat, events)
    elif action.verb == "capture":
        refusal = T(
            "Capture like `capture 5 6`: the cannonballs and supplies your ship keeps (each ship at most 12 items, "
            "12 of a kind); add `chest` to leave the Treasure aboard the captured ship."
        )
        if action not in prize_actions(state):
            raise IllegalAction(refusal)
        chest = action.args[-1:] == ("chest",)
        capture(state, seat, target, int(action.args[0]), int(action.args[1]), chest, events)
    else:
        raise IllegalAction(T("`sink` the ship, or `capture <cannonballs> <supplies>` to keep aboard your ship."))
    state["prize"] = None
    finish_battle(state, dice, events)


def sink(state: JSON, ship: int, by: int, events: list[Event]) -> None:
    """The ship goes down with all its cargo; the Treasure, if aboard, returns to the X."""
    wreck = state["ships"][ship]
    wreck.update(sunk=True, balls=0, supplies=0)
    ctrl = state["ctrl"]
    fate = {"ship": ship, "by": by, "how": "sunk", "round": state["round"], "from": ctrl[ship], "captor": ctrl[by]}
    state["fates"].append(fate)
    events.append(Event(T("☠️ {ship} sinks to Davy Jones' Locker!", ship=who(ship))))
    if state["treasure"] == ship:
        state["treasure"] = None
        events.append(Event(T("The Treasure returns to the X.")))


def capture(state: JSON, captor: int, ship: int, balls: int, supplies: int, chest: bool, events: list[Event]) -> None:
    """The captor pays the missing supplies, takes the ship into its commander's fleet and divides the cargo of
    both ships: ``balls`` and ``supplies`` stay aboard the captor, the rest aboard the prize; the Treasure,
    if either carries it, aboard the prize if ``chest``, else aboard the captor."""
    mine, prize = state["ships"][captor], state["ships"][ship]
    missing = state["prize"]["missing"]
    total_balls = mine["balls"] + prize["balls"]
    total_supplies = mine["supplies"] - missing
    mine.update(balls=balls, supplies=supplies)
    prize.update(balls=total_balls - balls, supplies=total_supplies - supplies)
    old = state["ctrl"][ship]
    state["ctrl"][ship] = state["ctrl"][captor]
    fate = {"ship": ship, "by": captor, "how": "captured", "from": old, "round": state["round"]}
    state["fates"].append({**fate, "captor": state["ctrl"][captor]})
    events.append(
        Event(
            T(
                "🏴‍☠️ {captor} pays {missing} and captures {prize}: it joins the fleet of {commander}. {captor} keeps "
                "{kept}, {prize} gets {rest}.",
                captor=ship_name(captor),
                missing=goods(0, missing),
                prize=ship_name(ship),
                commander=p(captor),
                kept=goods(mine["balls"], mine["supplies"]),
                rest=goods(prize["balls"], prize["supplies"]),
            )
        )
    )
    state["battle"]["captured"] = ship
    if state["treasure"] in (captor, ship):
        keeper = ship if chest else captor
        state["treasure"] = keeper
        events.append(Event(T("💰 The Treasure stays aboard {ship}.", ship=ship_name(keeper))))


def finish_battle(state: JSON, dice: Dice, events: list[Event]) -> None:
    """Settle the Treasure if it was in the battle, then back to the ship on turn (whose turn ends if it
    sank or was captured)."""
    battle = state["battle"]
    att, defender = battle["att"], battle["def"]
    carrier = state["treasure"]
    if carrier in (att, defender) and "captured" not in battle:  # a captor divides the Treasure itself
        other = defender if carrier == att else att
        scored, answered = battle["hits"]
        winner = att if scored > answered else defender if answered > scored else other
        if winner != carrier:
            if state["ships"][winner]["sunk"]:
                state["treasure"] = None
                events.append(Event(T("The Treasure returns to the X.")))
            else:
                state["treasure"] = winner
                events.append(
                    Event(T("💰 {ship} steals the Treasure from {carrier}!", ship=who(winner), carrier=who(carrier)))
                )
    state["battle"] = None
    turn = state["turn"]
    if game_over(state, events):
        return
    if state["ships"][turn]["sunk"] or battle.get("captured") == turn:
        end_turn(state, dice, events)
    else:
        enter_act(state, dice, events)


def check_cargo(state: JSON) -> list[str]:
    """Invariant messages: no negative cargo, no ship above its possible hold."""
    problems = []
    for s, ship in enumerate(state["ships"]):
        if not 0 <= ship["balls"] <= BOOTY_HOLD or not 0 <= ship["supplies"] <= BOOTY_HOLD:
            problems.append(f"{SHIPS[s]} carries {ship['balls']}/{ship['supplies']}")
        if ship["sunk"] and cargo(ship):
            problems.append(f"sunk {SHIPS[s]} still has cargo")
    return problems
