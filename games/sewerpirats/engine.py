"""Sewer Pirats: the rules engine (specification: ``shared/rules/sewer-pirats.md``).

Rulings where the specification is silent (each has a test):

- Identical choices count once: figures of one tribe in a play area are offered (and accepted) only
  as their lowest id, identical booty tokens in a group only as their first index. The one exception
  is a weasel's extra action, which belongs to the weasel that acted, whatever its number.
- Decisions without a choice are taken for the player: seizing a figure's first token when all
  tokens left are alike, discarding to the hand limit when all cards are of one symbol, paying a bid when all cards are
  of one symbol or the whole hand goes, passing in an auction when the player cannot raise, and the
  final sailings themselves. A compulsory Set Sail is still the player's ``sail`` action.
- A rat's second token is optional: after its first, its owner may ``seize`` another or ``stop``.
- A toad decides when its turn to seize comes: ``seize`` or ``stay``, which advances it to the next
  free space toward the bow, passing over occupied ones, C included if its owner holds no captain;
  only a toad that cannot advance stays where it is. A toad with nothing left to seize stays aboard
  that way without a question (it is its only choice). Other figures that took nothing step on only
  if the next space is empty.
- A snail's lucky step onto an occupied C swaps with that captain (the snail becomes captain).
- "Set Sail with a weasel" means the weasel is the captain. The extra action is offered only when
  one is possible (wherever the weasel lands in its owner's play area, the 4th place included), grants
  no further one, and comes right after the sailing, before any final sailing (in the final sailings
  too): a ship the weasel boards that way still sails in the final round if its turn in the cat, bird,
  fish order has not passed.
- Raccoon steals are random, one card per victim, victims served clockwise from the thief; stolen
  cards do not trigger the hand limit.
- The deck is reshuffled from the discard pile when a card is needed and the deck is empty. If the
  first card of a Draw takes the last card available, the action ends with one card.
- Landlubber tribes are chosen in turn order starting with the first player, after the starting
  hands.
- Auction: each player's reveal fills the rearmost empty stools, so seat 0's figures sit at the
  rear. The card under the front figure is drawn when the opener picks another figure. The hirer
  takes the cards under a figure before paying, and chooses which cards pay the bid.
- Cards discarded to the hand limit or paid in the auction are not shown to the others.
- During the final sailings the view's phase is ``final``. At the end every player's tokens and
  score become public.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar

from games.core import JSON, Action, Event, Game, IllegalAction, Option, Outcome
from games.i18n import L, T
from games.sewerpirats import hidden
from games.sewerpirats.auction import auction_actions, play_auction
from games.sewerpirats.board import CAPTAIN, StepRng
from games.sewerpirats.components import (
    CARDS_PER_SHIP,
    CREW_SIZE,
    ROW_SIZE,
    SHIPS,
    bonus_tokens,
    booty_tokens,
)
from games.sewerpirats.labels import describe_action
from games.sewerpirats.sailing import play_seize, seize_actions
from games.sewerpirats.scoring import victory
from games.sewerpirats.setup import crew_actions, play_crew, setup_state
from games.sewerpirats.text import RULES
from games.sewerpirats.turn import TURN_PHASES, play_turn, turn_actions
from games.sewerpirats.view import build_view, seat_text, summary_line

_ALL_TOKENS = sorted((t["type"], t["value"]) for t in booty_tokens() + bonus_tokens())


class SewerPirats(Game):
    """Sewer Pirats for 2–5 players, standard, landlubber or auction variant."""

    kind: ClassVar[str] = "sewerpirats"
    title: ClassVar[str] = T("Sewer Pirats")
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 5
    options: ClassVar[tuple[Option, ...]] = (
        Option(
            "variant",
            L("standard (4 random tribes), landlubber (pick a tribe, no abilities) or auction (hire your crew)"),
            "standard",
            ("standard", "landlubber", "auction"),
            (L("standard"), L("landlubber"), L("auction")),
        ),
    )

    def setup(self, state: JSON, rng: random.Random) -> None:
        setup_state(state, rng)

    def to_act(self, state: JSON) -> tuple[int, ...]:
        actor = state["actor"]
        return () if actor is None else (actor,)

    def legal_actions(self, state: JSON, seat: int) -> list[Action]:
        if seat != state["actor"]:
            return []
        phase = state["phase"]
        if phase in TURN_PHASES:
            return turn_actions(state, seat)
        if phase in ("seize", "toad"):
            return seize_actions(state)
        if phase == "auction":
            return auction_actions(state, seat)
        return crew_actions(state)

    def describe(self, state: JSON, seat: int, action: Action) -> tuple[str, ...]:
        return describe_action(state, seat, action)

    def play(self, state: JSON, seat: int, action: Action) -> list[Event]:
        events: list[Event] = []
        phase = state["phase"]
        rng = StepRng(lambda: self.rng(state))
        if phase in TURN_PHASES:
            play_turn(state, seat, action, rng, events)
        elif phase in ("seize", "toad"):
            play_seize(state, seat, action, events)
        elif phase == "auction":
            play_auction(state, seat, action, rng, events)
        elif phase == "crew":
            play_crew(state, seat, action, events)
        else:
            raise IllegalAction(T("This game is over."))
        return events

    def view(self, state: JSON, seat: int | None) -> JSON:
        return build_view(state, seat)

    def crowned(self, view: JSON, winners: Sequence[int]) -> JSON:
        # Not a tie the spaces broke: a player who resigned came first.
        return {**view, "final": {**view["final"], "winners": list(winners), "tied": []}} if view["final"] else view

    def outcome(self, state: JSON) -> Outcome | None:
        result = state["result"]
        if result is None:
            return None
        winners = tuple(result["winners"])
        return Outcome(winners, tuple(result["scores"]), victory(winners, max(result["scores"])))

    def summary(self, view: JSON) -> str:
        return summary_line(view)

    def rules_text(self) -> str:
        return RULES

    def seat_summary(self, view: JSON) -> str:
        return seat_text(view)

    def check_invariants(self, state: JSON) -> list[str]:
        problems: list[str] = []
        players = state["players"]
        auction = state["auction"]
        cards = state["deck"] + state["row"] + state["discard"]
        tokens = state["booty_pool"] + state["bonus_pool"] + state["box"]
        for p in players:
            cards += p["hand"]
            tokens += p["tokens"]
        for stool in auction["bar"] if auction is not None else ():
            cards += stool["under"]
        if len(cards) != len(SHIPS) * CARDS_PER_SHIP or any(cards.count(s) != CARDS_PER_SHIP for s in SHIPS):
            problems.append("Talisman cards not conserved")
        for seat, seen in enumerate(state.get("seen") or [{}] * len(players)):
            if any(players[seat]["hand"].count(card) < n for card, n in seen.items()):
                problems.append(f"seat {seat} is known to hold cards it does not hold")
        if len(state["row"]) > ROW_SIZE:
            problems.append("the row holds more than 4 cards")
        figures = [len(p["area"]) for p in players]
        ids = [f["id"] for p in players for f in p["area"]]
        captains = [0] * len(players)
        for ship in state["ships"]:
            for group in ship["flotsam"]:
                if group is not None:
                    tokens += group["booty"]
                    if group["bonus"] is not None:
                        tokens.append(group["bonus"])
            for fig in ship["spaces"]:
                if fig is not None:
                    figures[fig["owner"]] += 1
                    ids.append(fig["id"])
            if ship["spaces"][CAPTAIN] is not None:
                captains[ship["spaces"][CAPTAIN]["owner"]] += 1
        if sorted((t["type"], t["value"]) for t in tokens) != _ALL_TOKENS:
            problems.append("tokens not conserved")
        if len(set(ids)) != len(ids) or any(int(fid[0]) >= len(players) for fid in ids):
            problems.append(f"figure ids are not unique or name no seat: {ids}")
        hiring = state["phase"] in ("crew", "auction")
        at_bar = len(auction["bar"]) if auction is not None else 0
        if (hiring and sum(figures) + at_bar > CREW_SIZE * len(players)) or (
            not hiring and figures != [CREW_SIZE] * len(players)
        ):
            problems.append(f"figures not accounted for: {figures} + {at_bar} at the bar")
        if max(captains) > 1:
            problems.append(f"a player has several captains: {captains}")
        if state["result"] is None and not self.legal_actions(state, state["actor"]):
            problems.append(f"seat {state['actor']} has no legal action in {state['phase']}")
        if state["phase"] == "action" and state["sail"] is not None:
            problems.append("a sailing is unfinished at the start of an action")
        return problems

    def scramble(self, state: JSON, seat: int | None, rng: random.Random) -> JSON:
        return hidden.scramble(state, seat, rng)
