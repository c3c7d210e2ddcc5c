"""Odds and Evens: a toy game that exists only in the tests, to prove the platform hosts every kind of game
the five real ones need: simultaneous secret choices, dice everyone sees, teams, several seats per
player, elimination, and an outcome with its reason.

Rules. Every seat starts with 3 lives. Each round, every seat still in play secretly chooses 1, 2 or 3;
when all have chosen, the choices are revealed and a d6 is rolled: a seat whose number plus the die is
odd loses a life, and a seat with no life left is out. The game ends when one team is left (last one
standing) or after 12 rounds (the safety limit: most lives in total wins). Options: ``fleet`` gives
each player 1 or 2 seats (seats alternate between players); ``teams`` pairs even and odd players.

This module is the game's engine, AI and renderer at once, and :data:`TOY` its registration, which the tests
add with ``registered(TOY)``; nothing outside the tests knows it. Its command group, catalog domain and the
rest the platform builds from that registration alone.
"""

from __future__ import annotations

import io
import json
import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from PIL import Image, ImageDraw, PngImagePlugin

from games.core import JSON, Action, Event, Game, IllegalAction, Option, Outcome, Player, Termination, act, dice
from games.i18n import localize_tree
from games.registry import GameSpec

LIVES = 3
ROUNDS = 12


def p(seat: int) -> str:
    """A seat's placeholder in engine text (``{p0}``), replaced by its player's name."""
    return "{p" + str(seat) + "}"


class OddsAndEvens(Game):
    kind: ClassVar[str] = "oddsevens"
    title: ClassVar[str] = "Odds and Evens"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    options: ClassVar[tuple[Option, ...]] = (
        Option("fleet", "Seats per player", "1", ("1", "2")),
        Option("teams", "Even players against odd players", False),
    )

    def seat_count(self, players: int, options: Mapping[str, Any]) -> int:
        return players * int(options["fleet"])

    def setup(self, state: JSON, rng: random.Random) -> None:
        state.update(lives=[LIVES] * state["seats"], chosen=[None] * state["seats"], round=1, roll=None, shown=None)

    def controller(self, state: JSON, seat: int) -> int:
        return seat % state["players"]

    def teams(self, state: JSON) -> tuple[tuple[int, ...], ...]:
        if not state["options"]["teams"]:
            return tuple((s,) for s in range(state["seats"]))
        sides = ([s for s in range(state["seats"]) if self.controller(state, s) % 2 == side] for side in (0, 1))
        return tuple(tuple(side) for side in sides)

    def out(self, state: JSON) -> frozenset[int]:
        return frozenset(s for s, lives in enumerate(state["lives"]) if lives == 0)

    def to_act(self, state: JSON) -> tuple[int, ...]:
        if self.outcome(state) is not None:
            return ()
        return tuple(s for s in range(state["seats"]) if state["lives"][s] > 0 and state["chosen"][s] is None)

    def legal_actions(self, state: JSON, seat: int) -> list[Action]:
        return [act("pick", n) for n in (1, 2, 3)] if seat in self.to_act(state) else []

    def secret(self, state: JSON, seat: int) -> bool:
        return True

    def describe(self, state: JSON, seat: int, action: Action) -> tuple[str, ...]:
        return ("Choose your number", f"Number {action.args[0]}")

    def play(self, state: JSON, seat: int, action: Action) -> list[Event]:
        if action.verb != "pick" or action.args not in (("1",), ("2",), ("3",)):
            raise IllegalAction("Choose 1, 2 or 3.")
        state["chosen"][seat] = int(action.args[0])
        events = [Event(f"You chose {action.args[0]}.", seat), Event(f"{p(seat)} has chosen.")]
        if any(c is None for s, c in enumerate(state["chosen"]) if state["lives"][s] > 0):
            return events
        roll = self.rng(state).randint(1, 6)
        picks = {s: c for s, c in enumerate(state["chosen"]) if c is not None}
        shown = ", ".join(f"{p(s)}: {c}" for s, c in picks.items())
        events.append(Event(f"Revealed: {shown}.", data={"reveal": [str(c) for c in picks.values()]}))
        revealed = list(state["chosen"])
        events.append(Event(f"The die shows {roll}.", data=dice(("d6", 6, roll))))
        for s, c in picks.items():
            if (c + roll) % 2:
                state["lives"][s] -= 1
                events.append(Event(f"{p(s)} loses a life."))
                if state["lives"][s] == 0:
                    events.append(Event(f"{p(s)} is out."))
        state.update(chosen=[None] * state["seats"], roll=roll, shown=revealed, round=state["round"] + 1)
        return events

    def view(self, state: JSON, seat: int | None) -> JSON:
        return {
            "lives": list(state["lives"]),
            "chosen": [c is not None for c in state["chosen"]],
            "mine": state["chosen"][seat] if seat is not None else None,
            "viewer": seat,
            "round": state["round"],
            "roll": state["roll"],
            "shown": state["shown"],
            "out": sorted(self.out(state)),
        }

    def _standing(self, state: JSON) -> list[tuple[int, ...]]:
        return [t for t in self.teams(state) if any(state["lives"][s] > 0 for s in t)]

    def outcome(self, state: JSON) -> Outcome | None:
        standing = self._standing(state)
        lives = tuple(state["lives"])
        if len(standing) <= 1:
            winners = standing[0] if standing else ()
            return Outcome(tuple(winners), lives, "Last one standing.", Termination.LAST_STANDING)
        if state["round"] > ROUNDS:
            totals = {t: sum(lives[s] for s in t) for t in standing}
            best = max(totals.values())
            winners = tuple(s for t, total in totals.items() if total == best for s in t)
            return Outcome(winners, lives, "The rounds ran out.", Termination.SAFETY_LIMIT)
        return None

    def scramble(self, state: JSON, seat: int, rng: random.Random) -> JSON | None:
        """The same position with every other seat's unrevealed number (and the seed) changed."""
        other = json.loads(json.dumps(state))
        other["seed"] = f"scrambled-{rng.random()}"
        other["chosen"] = [c if s == seat or c is None else rng.randint(1, 3) for s, c in enumerate(state["chosen"])]
        return other

    def summary(self, view: JSON) -> str:
        lives = ", ".join(f"{p(s)} {n}" for s, n in enumerate(view["lives"]))
        return f"Round {view['round']}; lives {lives}"

    def seat_summary(self, view: JSON) -> str:
        mine = view["mine"]
        return f"Your number this round: {mine}." if mine is not None else "You have not chosen yet."

    def rules_text(self) -> str:
        return __doc__ or ""

    def check_invariants(self, state: JSON) -> list[str]:
        return [f"seat {s} has {n} lives" for s, n in enumerate(state["lives"]) if not 0 <= n <= LIVES]


class OddsAndEvensAI(Player):
    name = "Toy AI"

    def choose(self, game: Game, state: JSON, seat: int, rng: random.Random) -> Action:
        return rng.choice(game.legal_actions(state, seat))


# ---------------------------------------------------------------------------------------------- images


def _image(kind: str, view: Mapping[str, Any], names: Sequence[str]) -> bytes:
    """A small image with the view it was drawn from in a PNG text chunk, so tests can check what an
    image could show."""
    image = Image.new("RGB", (320, 40 + 20 * len(names)), (20, 40, 60))
    draw = ImageDraw.Draw(image)
    draw.text((8, 8), f"{kind}: round {view['round']}, roll {view['roll']}", fill=(255, 255, 255))
    for i, (name, lives) in enumerate(zip(names, view["lives"], strict=True)):
        draw.text((8, 30 + 20 * i), f"{name}: {lives}", fill=(255, 255, 255))
    info = PngImagePlugin.PngInfo()
    info.add_text("view", json.dumps(dict(view)))
    info.add_text("names", json.dumps(list(names)))
    out = io.BytesIO()
    image.save(out, "PNG", pnginfo=info)
    return out.getvalue()


def render_board(view: Mapping[str, Any], names: Sequence[str], locale: str = "en") -> bytes:
    return _image("board", localize_tree(view, locale), names)


def render_final(view: Mapping[str, Any], names: Sequence[str], locale: str = "en") -> bytes:
    return _image("final", localize_tree(view, locale), names)


def render_hand(view: Mapping[str, Any], names: Sequence[str], locale: str = "en") -> bytes:
    return _image("hand", localize_tree(view, locale), names)


def hand_view(view: Mapping[str, Any]) -> Mapping[str, Any]:
    """All of it: the stand-in hand image carries the whole view it was drawn from."""
    return view


# ---------------------------------------------------------------------------------------------- registration


TOY = GameSpec(
    game=OddsAndEvens(),
    ai=OddsAndEvensAI,
    renderer="tests.toy_game",
    colour=0x3366CC,
    emoji="🎲",
    dm_hands=True,
    hand_image=True,
    tagline="a test game",
    members=4,
)
