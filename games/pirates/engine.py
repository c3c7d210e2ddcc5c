"""The Pirates Card Game: the rules engine (specification: ``shared/rules/pirates-card-game.md``).

Rulings where the specification is silent (each has a test):

- 1–4 players use one deck, 5–8 two; cards are named by face code, identical faces of two decks being
  interchangeable.
- A Joker played "instead of drawing" counts as the card the action would reveal: the magistrate's
  mission (a Treasure Fleet mission; the Flag Galleon then draws no second card), the Disembark card (a
  full crew sets sail this turn: the player takes a sailing action at once), the ship found (the
  treasure fleet) or the town found (Pirate Cove). Gather Crew has no Joker form (it would change nothing).
- Pirate Cove is friendly to everyone (no crew deserts there) and a haven: it is never attacked. A Joker
  ship finds every town friendly and never meets a friendly ship.
- A Joker fired in a combat brings a ship drawn from the deck, whose cannons count; the Joker and that
  ship go to the discard pile when the combat ends (a reshuffle meanwhile cannot draw the Joker).
- Deliveries complete on docking (Head for the Nearest Town, Pirate Cove included), not while docked.
- The treasure fleet is one combat against both ships (each needs size + 1 cannons); sinking it completes
  one mission (see :mod:`games.pirates.missions`), and its event says which and why ("sinks the treasure
  fleet: mission 2♠ counts as done"). A town or fleet may be fled from like a ship.
- Attack the Town refused says why: at sea, the neutral port, Pirate Cove, a town already taken.
- Fleeing needs a strictly lighter ship. Striking one's colours (being boarded) is offered whenever
  fleeing is not; firing every card without winning leaves exactly that choice.
- In a duel, a player lighter than the other may dump cargo or flee instead of choosing a card; the
  other's chosen card then goes back to its hand unseen.
- A hurricane discards half of each hand at random. A draw that finds no card anywhere does nothing.
- A player who is out discards cargo and missions; the last player standing wins. After
  ``TURN_LIMIT`` turns per seat the game stops: the most completed missions win (solo: nobody).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar, cast

from games.core import JSON, Action, Event, Game, Outcome, Termination, remember
from games.i18n import N, T
from games.pirates import duel, hidden, turn
from games.pirates.cards import BY_CODE, DECK_SIZE, at_town
from games.pirates.labels import PUBLIC_DECISIONS, describe
from games.pirates.strength import STRENGTH, shares, terms
from games.pirates.table import MISSIONS_TO_WIN, LazyRandom, live_seats, p
from games.pirates.text import RULES
from games.pirates.view import build_view, prompt_text

TURN_LIMIT = 150
"""Turns per seat before the game stops at the safety limit."""
HORIZON_PER_CAPTAIN = 15
"""Actions per captain after which the hard AI's playouts stop (:meth:`Pirates.horizon`), measured at
2 and 4 players (``games/AI.md``, *How the 4-player horizon was found*)."""


class Pirates(Game):
    """The Pirates Card Game for 1–8 players (one deck up to 4, two from 5)."""

    kind: ClassVar[str] = "pirates"
    title: ClassVar[str] = T("Pirates Card Game")
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 8
    scores_title: ClassVar[str] = T("Missions done")
    choosing: ClassVar[float] = 0.3
    """Most decisions offer two to five moves: a few worlds tell which one challenges the normal AI's
    choice, and the last round, which decides, gets 0.7 of the budget instead of half (scored on the
    4-player oracle's 254 positions at 1,000 ms, the search gained more this way with each of five seeds;
    ``games/AI.md``, *The challenger, chosen on fewer worlds*)."""

    def score_text(self, n: int) -> str:
        return N("{n} mission", "{n} missions", n)

    def setup(self, state: JSON, rng: random.Random) -> None:
        seats = state["seats"]
        decks = 1 if seats <= 4 else 2
        deck = list(range(DECK_SIZE * decks))
        rng.shuffle(deck)
        players = []
        for _ in range(seats):
            players.append(
                {
                    "ship": deck.pop(),
                    "missions": [deck.pop()],
                    "hand": [deck.pop(), deck.pop()],
                    "holds": [],
                    "done": [],
                    "place": "port",
                    "town": None,
                    "taken": False,
                    "out": False,
                }
            )
        first = rng.randrange(seats)
        state.update(
            decks=decks,
            deck=deck,
            discard=[],
            players=players,
            turn=first,
            first=first,
            turns=0,
            pending=None,
            encounter=None,
            duel=None,
            shown=None,
            known=[],
            again=False,
            winner=None,
            afloat=seats,
            log=[],
        )

    # ------------------------------------------------------------------ queries

    def _over(self, state: JSON) -> bool:
        if state["winner"] is not None or state["turns"] >= TURN_LIMIT * state["seats"]:
            return True
        live = state["afloat"]
        return live == 0 or (live == 1 and state["seats"] > 1)

    def to_act(self, state: JSON) -> tuple[int, ...]:
        if self._over(state):
            return ()
        if state["pending"] is not None:
            return (state["pending"]["seat"],)
        if state["duel"] is not None:
            return duel.deciders(state)
        return (state["turn"],)

    def legal_actions(self, state: JSON, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        pending = state["pending"]
        if pending is None:
            return duel.actions(state, seat) if state["duel"] is not None else turn.main_actions(state, seat)
        if pending["kind"] == "spoils":
            return duel.spoils_actions(state, seat)
        return turn.pending_actions(state, seat)

    def secret(self, state: JSON, seat: int) -> bool:
        pending = state["pending"]
        return pending is None or pending["kind"] not in PUBLIC_DECISIONS

    def describe(self, state: JSON, seat: int, action: Action) -> tuple[str, ...]:
        return describe(state, seat, action)

    def out(self, state: JSON) -> frozenset[int]:
        return frozenset(s for s, player in enumerate(state["players"]) if player["out"])

    def view(self, state: JSON, seat: int | None) -> JSON:
        view = build_view(state, seat)
        outcome = self.outcome(state)
        view["over"] = None
        if outcome is not None:
            # How it ended (a :class:`Termination` by name, as results store it): the final sheet's headline.
            reason = outcome.termination.name.lower()
            view["over"] = {"winners": list(outcome.winners), "summary": outcome.summary, "reason": reason}
        return view

    def crowned(self, view: JSON, winners: Sequence[int]) -> JSON:
        # The most missions done among the captains who did not resign (the final sheet's "standing" headline).
        return (
            {**view, "over": {"winners": list(winners), "summary": "", "reason": "standing"}} if view["over"] else view
        )

    def horizon(self, state: JSON) -> int | None:
        """A playout of the hard AI stops after :data:`HORIZON_PER_CAPTAIN` actions per captain (30 at two
        or solo, 60 at four): the same few turns each at every table. Past them the sea searches and duels
        make a whole game's outcome too noisy to compare moves by in a second; a fixed 30 cut a 4-player
        playout after a turn or two each, too soon to see what a fight or a flight leads to."""
        return HORIZON_PER_CAPTAIN * max(2, state["seats"])

    def estimate(self, state: JSON, player: int) -> float:
        """``player``'s chance to win: its share of ``exp`` of every captain's strength, a weighted sum of
        what foretells a win (:mod:`games.pirates.strength`: missions completed, above all a second one;
        the ship's crew limit; the hand's cannons against its size; the cargo aboard). A captain out has
        none. Solo, the progress toward the three missions."""
        if state["seats"] == 1:
            solo = state["players"][0]
            if solo["out"]:
                return 0.0
            progress = 2 * len(solo["done"]) + 0.5 * bool(solo["missions"]) + 0.1 * len(solo["hand"])
            return min(1.0, progress / (2 * MISSIONS_TO_WIN + 1))
        seats = [None if other["out"] else terms(other) for other in state["players"]]
        return 0.0 if all(t is None for t in seats) else shares(seats, STRENGTH)[player]

    def outcome(self, state: JSON) -> Outcome | None:
        if not self._over(state):
            return None
        done = tuple(len(player["done"]) for player in state["players"])
        if state["winner"] is not None:
            seat = state["winner"]
            # One event may complete two missions at once: the count said is the one the scores show.
            freed = N(
                "{seat} completed {n} mission and freed the captain.",
                "{seat} completed {n} missions and freed the captain.",
                done[seat],
                seat=p(seat),
            )
            return Outcome((seat,), done, freed)
        live = live_seats(state)
        if not live:
            return Outcome((), done, T("Every crew is lost at sea."), Termination.LAST_STANDING)
        if state["seats"] > 1 and len(live) == 1:
            last = T("{seat} is the last captain at sea.", seat=p(live[0]))
            return Outcome((live[0],), done, last, Termination.LAST_STANDING)
        best = max(done[s] for s in live)
        winners = tuple(s for s in live if done[s] == best) if best and state["seats"] > 1 else ()
        return Outcome(winners, done, T("The seas ran out of time."), Termination.SAFETY_LIMIT)

    def summary(self, view: JSON) -> str:
        parts = []
        for seat, player in enumerate(view["players"]):
            where = T("out") if player["out"] else _place(player)
            ship = face_name(player["ship"])
            done = len(player["done"])
            parts.append(T("{seat} {ship} {place}, {done}/3 missions", seat=p(seat), ship=ship, place=where, done=done))
        over = view.get("over") or view.get("winner") is not None
        head = T("The game is over") if over else T("Turn of {seat}", seat=p(view["turn"]))
        return "; ".join([head, *parts])

    def prompt(self, view: JSON) -> str | None:
        return prompt_text(view)

    def seat_summary(self, view: JSON) -> str:
        if view.get("viewer") is None:
            return T("Spectators hold no cards.")
        hand = ", ".join(card_text(c) for c in view["hand"]) or T("no cards")
        missions = "; ".join(mission_text(c) for c in view["missions"]) or T("none")
        sentences = [T("Your hand: {hand}. Your unfinished missions: {missions}.", hand=hand, missions=missions)]
        if view["offered"]:
            offered = "; ".join(mission_text(c) for c in view["offered"])
            sentences.append(T("The magistrate offers: {missions}.", missions=offered))
        if view["chosen"]:
            sentences.append(T("Your combat card: {card}.", card=card_text(view["chosen"])))
        return " ".join(sentences)

    def rules_text(self) -> str:
        return RULES

    def check_invariants(self, state: JSON) -> list[str]:
        cards = list(state["deck"]) + list(state["discard"])
        problems = []
        for seat, player in enumerate(state["players"]):
            cards += [player["ship"], *player["hand"], *player["holds"], *player["missions"], *player["done"]]
            if player["town"] is not None:
                cards.append(player["town"])
            if len(player["done"]) >= MISSIONS_TO_WIN and state["winner"] is None:
                problems.append(f"seat {seat} completed {len(player['done'])} missions but has not won")
            if player["out"] and (player["hand"] or player["holds"] or player["missions"]):
                problems.append(f"seat {seat} is out but still holds cards")
        if state["afloat"] != len(live_seats(state)):
            problems.append("the count of players still afloat is wrong")
        encounter = state["encounter"]
        if encounter is not None:
            town = encounter["kind"] == "town" and state["pending"] and state["pending"]["kind"] == "combat"
            if not town:
                cards += encounter["cards"]
            cards += encounter.get("allies", []) + encounter.get("jokers", [])
        pending = state["pending"]
        if pending is not None and pending["kind"] in ("keep", "swap"):
            cards += pending["cards"]
        if state["duel"] is not None:
            cards += [c for c in state["duel"]["chosen"] if c is not None]
        if sorted(cards) != list(range(DECK_SIZE * state["decks"])):
            problems.append("the cards are not conserved")
        if any(not hidden.lies(state, k) for k in state.get("known", [])):
            problems.append("a card is remembered where it no longer lies")
        return problems

    def scramble(self, state: JSON, seat: int | None, rng: random.Random) -> JSON:
        return hidden.scramble(state, seat, rng)

    def take_back(self, world: JSON, seat: int) -> dict[int, list[Action]]:
        return duel.take_back(world, seat)

    # ------------------------------------------------------------------ mutation

    def refusal(self, state: JSON, seat: int, action: Action) -> str | None:
        main = state["pending"] is None and state["duel"] is None
        return (main and turn.main_refusal(state, seat, action)) or None

    def play(self, state: JSON, seat: int, action: Action) -> list[Event]:
        # ``apply`` has checked the action (or its caller picked it from ``legal_actions``): not again here,
        # where it took a tenth of the hard AI's playouts. Refusals: ``refusal``.
        rng = cast(random.Random, LazyRandom(lambda: self.rng(state)))
        events: list[Event] = []
        pending = state["pending"]
        if pending is None and state["duel"] is not None:
            duel.play(state, seat, action, rng, events)
        elif pending is None:
            turn.play_main(state, seat, action, rng, events)
        elif pending["kind"] == "spoils":
            duel.play_spoils(state, seat, action, rng, events)
        else:
            turn.play_pending(state, seat, action, rng, events)
        hidden.forget(state)
        remember(state, events)
        return events


def face_name(code_: str) -> str:
    """A card's index as a player reads it (the Joker marked)."""
    return BY_CODE[code_].label


def card_text(code_: str) -> str:
    f = BY_CODE[code_]
    return T("{card} ({cannons}, crew {crew})", card=f.label, cannons=f.cannon_count, crew=f.crew)


def mission_text(code_: str) -> str:
    f = BY_CODE[code_]
    return T("{card} {kind} — {text}", card=f.label, kind=f.mission_name, text=f.mission_text)


def _place(player: JSON) -> str:
    if player["place"] == "sea":
        return T("at sea")
    if player["town"] is None:
        return T("in the neutral port")
    return T("docked {at_town}", at_town=at_town(BY_CODE[player["town"]]))
