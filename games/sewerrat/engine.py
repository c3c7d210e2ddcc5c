"""Sewer Rat: the rules engine (specification: ``shared/rules/sewer-rat.md``).

Rulings where the specification is silent (each has a test):

- Teams of 2 need 4 or 6 players, teams of 3 need 6 (:data:`TEAM_SIZES`); seat ``s`` is on team
  ``s mod teams``, so seats alternate. Another count is refused when the table is made.
- ``tile r3c4 ne`` is ``tile r3c4`` then ``lay ne`` in one step; a tile's openings may be named in any
  order (``en``).
- The roll's traps are placed in order, (y, g) then (g, y). A displaced rat's owner is asked only when
  it has a choice of direction; with one way out the rat takes it. A displaced rat does not use toilets.
- The roll is resolved as a whole: rats it eliminates fall at once, and the end is checked once it is
  placed. A roller whose rat falls during its own roll places no further trap.
- A tile change takes each square once (a square picked may keep its tile; it still counts toward the
  4); a confirmation that would leave the plumbing invalid is refused (the change stays pending to be
  completed or cancelled, and cannot be confirmed again unchanged). Cancelling ends the turn without a
  change.
- The squares of a tile change may be picked in any order: a shape is offered whenever some order of the
  change's squares (those picked, and those it may still take) finds each new tile in the supply; a
  confirmation that no order of its squares can lay is refused like an invalid plumbing (see
  :mod:`games.sewerrat.tiles`).
- A refused action says why: the rule it breaks, or what the phase asks for. The mover, whose turn waits
  while another player's rat flees a trap of its roll, is told so (:meth:`SewerRat.waiting`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from games.core import JSON, Action, Event, Game, IllegalAction, Option, Outcome, Termination, remember
from games.i18n import L, N, T, localize, seat_ref
from games.sewerrat.actions import is_legal, legal, play
from games.sewerrat.board import freedom, occupied
from games.sewerrat.components import SHAPE_OF, TILE_SET
from games.sewerrat.flow import team_count
from games.sewerrat.labels import describe_action
from games.sewerrat.plumbing import lay, problem, supply_after
from games.sewerrat.text import RULES
from games.sewerrat.view import build_view, seat_text, summary_line

TEAM_SIZES = {"2": (4, 6), "3": (6,)}
"""The player counts each team size fits (the rules: 2 or 3 teams of 2, 2 teams of 3)."""


class SewerRat(Game):
    """Sewer Rat for 2–6 rats, free-for-all or in teams."""

    kind: ClassVar[str] = "sewerrat"
    title: ClassVar[str] = T("Sewer Rat")
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    scores_title: ClassVar[str] = T("Turns in the sewer")
    options: ClassVar[tuple[Option, ...]] = (
        Option(
            "teams",
            L("Free-for-all (ffa), or teams of 2 or 3 players; seats alternate between teams"),
            "ffa",
            ("ffa", "2", "3"),
            (L("Free-for-all"), L("Teams of 2"), L("Teams of 3")),
        ),
    )

    def setup(self, state: JSON, rng: random.Random) -> None:
        board = lay(rng)
        state.update(
            board=board,
            supply=supply_after(board),
            traps=[0] * len(board),
            rats=[None] * state["seats"],
            phase="place",
            actor=0,
            mover=0,
            turn=0,
            roll=None,
            queue=[],
            pending=[],
            picking=None,
            refused=False,
            fallen=[],
            result=None,
            log=[],
        )

    def teams(self, state: JSON) -> tuple[tuple[int, ...], ...]:
        count = team_count(state["players"], state["options"]["teams"])
        return tuple(tuple(range(t, state["seats"], count)) for t in range(count))

    def horizon(self, state: JSON) -> int | None:
        """A playout of the hard AI stops after 20 actions (about two rounds at four rats): past that the
        dice decide more than the move searched."""
        return 20

    def estimate(self, state: JSON, player: int) -> float:
        """``player``'s share of the rats' strength, a rat's strength being the square of its freedom
        (:func:`~games.sewerrat.board.freedom`: a rat with one way out is worth much less than one with
        three, a rat that cannot move nothing), its team's shared among the team's seats as a victory is.
        A rat not yet placed counts as the mean of those placed."""
        rats = state["rats"]
        placed = occupied(state)
        if not placed:
            return super().estimate(state, player)
        board, traps = state["board"], state["traps"]
        strength = [max(freedom(board, traps, placed, q), 0.0) ** 2 if q is not None else None for q in rats]
        known = [s for s in strength if s is not None]
        mean = sum(known) / len(known)
        out = self.out(state)
        strength = [0.0 if s in out else mean if v is None else v for s, v in enumerate(strength)]
        total = sum(strength)
        if not total:
            return super().estimate(state, player)
        team = next(t for t in self.teams(state) if player in t)
        return sum(strength[s] for s in team) / total / len(team)

    def out(self, state: JSON) -> frozenset[int]:
        return frozenset(f[0] for f in state["fallen"])

    def to_act(self, state: JSON) -> tuple[int, ...]:
        actor = state["actor"]
        return () if actor is None else (actor,)

    def legal_actions(self, state: JSON, seat: int) -> list[Action]:
        return legal(state, seat)

    def is_legal(self, state: JSON, seat: int, action: Action) -> bool:
        return is_legal(state, seat, action)

    def check_players(self, players: int, options: Mapping[str, Any]) -> None:
        super().check_players(players, options)
        fits = TEAM_SIZES.get(str(options.get("teams", "ffa")))
        if fits is not None and players not in fits:
            size = options["teams"]
            if len(fits) == 2:
                raise IllegalAction(
                    T("Teams of {size} need {a} or {b} players, not {n}.", size=size, a=fits[0], b=fits[1], n=players)
                )
            raise IllegalAction(T("Teams of {size} need {a} players, not {n}.", size=size, a=fits[0], n=players))

    def waiting(self, state: JSON, seat: int) -> str | None:
        actor = state["actor"]
        if state["phase"] == "displace" and seat == state["mover"] and actor != seat:
            return T(
                "A trap of your roll fell on {seat}'s rat: it flees first, then your turn goes on.",
                seat=seat_ref(actor),
            )
        return None

    def describe(self, state: JSON, seat: int, action: Action) -> tuple[str, ...]:
        return describe_action(state, seat, action)

    def play(self, state: JSON, seat: int, action: Action) -> list[Event]:
        events = play(state, seat, action, self.rng(state))
        remember(state, events)
        return events

    def view(self, state: JSON, seat: int | None) -> JSON:
        return build_view(state, seat)

    def crowned(self, view: JSON, winners: Sequence[int]) -> JSON:
        return {**view, "result": {**view["result"], "winners": list(winners)}} if view["result"] else view

    def outcome(self, state: JSON) -> Outcome | None:
        result = state["result"]
        if result is None:
            return None
        winners = tuple(result["winners"])
        # A rat's score is the number of turns it lasted: the winners' is the game's length.
        fell = {seat: turn for seat, turn, _ in state["fallen"]}
        scores = tuple(fell.get(s, state["turn"]) for s in range(state["seats"]))
        return Outcome(winners, scores, result["summary"], Termination[result["termination"]])

    def summary(self, view: JSON) -> str:
        return summary_line(view)

    def seat_summary(self, view: JSON) -> str:
        return seat_text(view)

    def score_text(self, n: int) -> str:
        return N("{n} turn", "{n} turns", n)

    def rules_text(self) -> str:
        return RULES

    def check_invariants(self, state: JSON) -> list[str]:
        problems: list[str] = []
        board = state["board"]
        reason = problem(board)
        if reason:
            problems.append(f"invalid plumbing: {localize(reason)}")
        counts = Counter(SHAPE_OF[m] for m in board)
        if any(counts[s] + state["supply"][s] != n or state["supply"][s] < 0 for s, n in TILE_SET.items()):
            problems.append(f"tiles not conserved: board {dict(counts)}, supply {state['supply']}")
        rats = [q for q in state["rats"] if q is not None]
        if len(set(rats)) != len(rats):
            problems.append(f"two rats share a square: {state['rats']}")
        if any(state["traps"][q] for q in rats):
            problems.append("a rat stands on a trap")
        fallen = [f[0] for f in state["fallen"]]
        if len(set(fallen)) != len(fallen) or any(state["rats"][s] is not None for s in fallen):
            problems.append(f"fallen rats {fallen} but rats {state['rats']}")
        if len(state["pending"]) > 4:
            problems.append("more than 4 tiles in a change")
        actor = state["actor"]
        if actor is not None and actor in fallen:
            problems.append(f"seat {actor} is out but must act")
        return problems
