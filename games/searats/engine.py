"""Sea Rats!: the rules engine (specification: ``shared/rules/sea-rats.md``).

Seats are the ships (Black, Red, Blue, Green, Purple, Yellow, in turn order); ``state["ctrl"]`` holds
each ship's commander, which changes when a ship is captured. Rulings where the specification is silent
(each has a test):

- The first ship to move is drawn from the seed (``state["first"]``); a round starts each time the turn
  comes round to that ship's place. A ship starts on the port of its number (Black on port 1 …); with 4
  or 5 players only the first 4 or 5 ships sail.
- The first turn begins with a ``roll``; every later turn's die is rolled as the turn begins, unless the
  ship carries the Treasure and may first call for the Stronger Wind (``wind``) instead of ``roll``.
- Charting and sailing are one move: ``sail ne 3 chart 4`` (or ``anchor chart 4``); charting the course
  already held is no choice. Sailing 0 dots is ``anchor``; it does not dig up the Treasure.
- A ship never stocks up on its charted port when it is the port where it last stocked up (the source:
  "not at the same port twice in a row"). Safe Haven, with the Treasure aboard, is offered
  (``haven``/``skip``) on any port the ship sails to that it would not make anyway, its last port
  included.
- ``anchor`` (a sail of 0 dots) on the port where the ship stands makes port only if that port is
  charted and is not its last port; Safe Haven needs a sail, so anchoring never offers it.
- Making port with nothing to choose (a full hold, no Treasure) stocks up without a question.
- Battles are aimed at ships of another commander within range (5 dots in a straight line; other ships
  do not block a shot): a fleet never fights itself, nor bribes or blackmails itself, while its ships may
  trade with each other (moving cargo within the fleet). A captured ship is its captor's from then on.
  After ``aim``, the defender offers a bribe or braces; a declined bribe lets the attacker fire or demand
  cargo; a declined demand lets the defender bribe again or give up bargaining (``brace``), after which
  only firing is left. Each side makes at most three offers per battle (the bargaining always ends).
  Offers may include the Treasure (``offer 0 2 chest``, ``offer chest``, ``demand chest``); a bribe with
  it is accepted at once and the Treasure passes to the attacker.
- No exchange (trade, bribe, blackmail, a capture's division) leaves a ship with more than 12 of one kind,
  nor more than 12 items together, or than it carried before if More Booty had taken it past 12.
- A ship hit beyond repair is captured or sunk at its firer's choice (also in counter-fire), and only when
  the firer has the missing supplies. On capture the captor divides both ships' cannonballs and supplies
  within those limits (the prize within 12), and the Treasure, if either carries it: aboard the captor,
  or with ``chest`` aboard the prize (the theft rule does not apply then).
- The Treasure stolen in battle: the ship with more hits (attack against counter-fire) gets it, on a tie
  the one that did not carry it; a sunk winner sends it to the X.
- A ship that sinks or is captured during its own turn ends that turn.
- Trades come after battles (no attack once a trade is proposed), one proposal per partner and turn,
  built in two steps (``give``, then ``ask``), which its opener may ``abandon`` before posting it; once
  posted, the partner answers (or lets it lapse).
- An offer lapses through ``lapse``, which the platform's timer applies for the answering seat
  (``Game.apply(..., trusted=True)``) after the ``lapse`` option's minutes; it is never a legal move, and
  it declines the offer.
- The round limit: after 200 rounds, the commander with the most ships afloat, then the most cargo
  (cannonballs and supplies), wins; equal commanders share the win.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from games.core import (
    JSON,
    Action,
    Event,
    Game,
    IllegalAction,
    Lapse,
    Option,
    Outcome,
    Termination,
    act,
    remember,
)
from games.i18n import L, N, T
from games.searats.battle import battle_actions, check_cargo, play_battle, take_aim
from games.searats.board import aim_targets, commanders_afloat, same_fleet, trade_partners
from games.searats.components import SHIPS, Dice, cargo, ship_name
from games.searats.flow import end_turn
from games.searats.labels import describe_action
from games.searats.setup import seat_count, setup_state
from games.searats.text import RULES
from games.searats.trade import answer, play_trade, start_trade, trade_actions
from games.searats.turn import play_turn, turn_actions
from games.searats.view import build_view, seat_text, summary_line

TURN_PHASES = frozenset({"start", "sail", "haven", "port"})
BATTLE_PHASES = frozenset({"bribe", "fire", "counter", "prize", "flee"})
TRADE_PHASES = frozenset({"give", "ask", "answer"})


class SeaRats(Game):
    """Sea Rats! for 2–6 players commanding six ships."""

    kind: ClassVar[str] = "searats"
    title: ClassVar[str] = T("Sea Rats!")
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    scores_title: ClassVar[str] = T("Ships afloat")
    options: ClassVar[tuple[Option, ...]] = (
        Option(
            "lapse",
            L("Minutes an unanswered bribe, demand or trade offer waits before it lapses"),
            10,
            bounds=(1, 1440),
        ),
    )

    def score_text(self, n: int) -> str:
        return N("{n} ship", "{n} ships", n)

    def seat_count(self, players: int, options: Mapping[str, Any]) -> int:
        return seat_count(players)

    def setup(self, state: JSON, rng: random.Random) -> None:
        setup_state(state, rng)

    def controller(self, state: JSON, seat: int) -> int:
        return state["ctrl"][seat]

    def teams(self, state: JSON) -> tuple[tuple[int, ...], ...]:
        fleets: dict[int, list[int]] = {}
        for seat, player in enumerate(state["ctrl"]):
            fleets.setdefault(player, []).append(seat)
        return tuple(tuple(seats) for _, seats in sorted(fleets.items()))

    def out(self, state: JSON) -> frozenset[int]:
        return frozenset(s for s, ship in enumerate(state["ships"]) if ship["sunk"])

    # ------------------------------------------------------------------ queries

    def to_act(self, state: JSON) -> tuple[int, ...]:
        phase = state["phase"]
        if phase == "over":
            return ()
        if phase in ("bribe", "counter"):
            return (state["battle"]["def"],)
        if phase == "answer":
            return (state["offer"]["to"],)
        if phase == "prize":
            return (state["prize"]["captor"],)
        if phase == "flee":
            return (state["flee"]["ship"],)
        return (state["turn"],)

    def legal_actions(self, state: JSON, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        phase = state["phase"]
        if phase in TURN_PHASES:
            return turn_actions(state, seat)
        if phase == "act":
            return [
                *(act("aim", SHIPS[s]) for s, _ in aim_targets(state)),
                *(act("trade", SHIPS[s]) for s, _ in trade_partners(state)),
                act("end"),
            ]
        if phase in BATTLE_PHASES:
            return battle_actions(state, seat)
        return trade_actions(state)

    def describe(self, state: JSON, seat: int, action: Action) -> tuple[str, ...]:
        return describe_action(state, seat, action)

    def lapse(self, state: JSON) -> Lapse | None:
        """A pending offer lapses ``state["options"]["lapse"]`` minutes after it was made: the platform's
        timer applies ``lapse`` for the answering seat (``None`` when no offer waits)."""
        if state["phase"] != "answer":
            return None
        return Lapse(state["offer"]["to"], state["options"]["lapse"] * 60, act("lapse"))

    # ------------------------------------------------------------------ moves

    def play(self, state: JSON, seat: int, action: Action) -> list[Event]:
        if seat not in self.to_act(state):
            raise IllegalAction(T("It is not your turn."))
        events: list[Event] = []
        dice = Dice(lambda: self.rng(state), events)
        phase = state["phase"]
        if phase in TURN_PHASES:
            play_turn(state, seat, action, dice, events)
        elif phase == "act":
            self._play_act(state, seat, action, dice, events)
        elif phase in BATTLE_PHASES:
            play_battle(state, seat, action, dice, events)
        elif phase == "answer":
            answer(state, seat, action, dice, events)
        elif phase in TRADE_PHASES:
            play_trade(state, seat, action, dice, events)
        else:
            raise IllegalAction(T("This game is over."))
        remember(state, events)
        return events

    @staticmethod
    def _play_act(state: JSON, seat: int, action: Action, dice: Dice, events: list[Event]) -> None:
        verb, args = action.verb, action.args
        if verb == "end" and not args:
            end_turn(state, dice, events)
            return
        target = SHIPS.index(args[0]) if len(args) == 1 and args[0] in SHIPS else None
        if verb == "aim" and target is not None:
            if same_fleet(state, seat, target):
                raise IllegalAction(T("{ship} is one of your own ships.", ship=ship_name(target)))
            if target not in dict(aim_targets(state)):
                raise IllegalAction(
                    T(
                        "You can attack a ship afloat within 5 dots in a straight line, once per turn, "
                        "with a cannonball aboard, before trading."
                    )
                )
            take_aim(state, seat, target, events)
            return
        if verb == "trade" and target is not None:
            if target not in dict(trade_partners(state)):
                raise IllegalAction(T("You can trade with a ship within 5 dots in a straight line, once per turn."))
            start_trade(state, seat, target)
            return
        raise IllegalAction(T("`aim <ship>`, `trade <ship>` or `end` your turn."))

    # ------------------------------------------------------------------ results

    def outcome(self, state: JSON) -> Outcome | None:
        if state["phase"] != "over":
            return None
        ctrl = state["ctrl"]
        strength: dict[int, tuple[int, int]] = {}
        for s, ship in enumerate(state["ships"]):
            if not ship["sunk"]:
                ships, load = strength.get(ctrl[s], (0, 0))
                strength[ctrl[s]] = (ships + 1, load + cargo(ship))
        scores = tuple(strength.get(ctrl[s], (0, 0))[0] for s in range(state["seats"]))
        if len(commanders_afloat(state)) <= 1:
            winners = tuple(s for s in range(state["seats"]) if ctrl[s] in strength)
            return Outcome(winners, scores, T("The last pirate afloat wins."), Termination.LAST_STANDING)
        best = max(strength.values())
        players = {player for player, value in strength.items() if value == best}
        winners = tuple(s for s in range(state["seats"]) if ctrl[s] in players)
        summary = T(
            "After {rounds} rounds: the most ships ({ships}), then the most cargo ({cargo}).",
            rounds=state["round"] - 1,
            ships=best[0],
            cargo=best[1],
        )
        return Outcome(winners, scores, summary, Termination.SAFETY_LIMIT)

    def horizon(self, state: JSON) -> int | None:
        """A playout of the hard AI stops after 60 actions (two to three rounds): a whole game is hundreds of
        actions, too long to play out often enough in a second."""
        return 60

    def estimate(self, state: JSON, player: int) -> float:
        """``player``'s share of the fleets' strength afloat: a ship is worth 1, and 0.1 a supply (a hit it
        can take) and 0.05 a cannonball more, the Treasure 0.15 (everything here is public)."""
        strength: dict[int, float] = {}
        for s, ship in enumerate(state["ships"]):
            if not ship["sunk"]:
                worth = 1 + 0.1 * ship["supplies"] + 0.05 * ship["balls"] + 0.15 * (state["treasure"] == s)
                strength[state["ctrl"][s]] = strength.get(state["ctrl"][s], 0.0) + worth
        total = sum(strength.values())
        return strength.get(player, 0.0) / total if total else 0.0

    def view(self, state: JSON, seat: int | None) -> JSON:
        return build_view(state, seat, self.to_act(state), self.outcome(state))

    def crowned(self, view: JSON, winners: Sequence[int]) -> JSON:
        return {**view, "winners": list(winners)}

    def summary(self, view: JSON) -> str:
        return summary_line(view)

    def seat_summary(self, view: JSON) -> str:
        return seat_text(view)

    def rules_text(self) -> str:
        return RULES

    def check_invariants(self, state: JSON) -> list[str]:
        problems = check_cargo(state)
        spots = [ship["at"] for ship in state["ships"] if not ship["sunk"]]
        if len(set(spots)) != len(spots):
            problems.append("two ships share a dot")
        holder = state["treasure"]
        if holder is not None and state["ships"][holder]["sunk"]:
            problems.append("a sunk ship holds the Treasure")
        if not all(0 <= c < state["players"] for c in state["ctrl"]):
            problems.append(f"bad commanders {state['ctrl']}")
        problems += self._own_fleet_fights(state)
        return problems

    def _own_fleet_fights(self, state: JSON) -> list[str]:
        """A fleet never fights itself: no battle (and so no bribe, blackmail or capture) between two ships of
        one commander, and no ``aim`` offered at one."""
        battle = state["battle"]
        if battle is not None and same_fleet(state, battle["att"], battle["def"]):
            return [f"{SHIPS[battle['att']]} fights {SHIPS[battle['def']]} of its own fleet"]
        if state["phase"] != "act":  # the only phase that offers an ``aim``
            return []
        seat = state["turn"]
        aims = [a.args[0] for a in self.legal_actions(state, seat) if a.verb == "aim"]
        return [
            f"{SHIPS[seat]} may aim at {ship} of its own fleet"
            for ship in aims
            if same_fleet(state, seat, SHIPS.index(ship))
        ]
