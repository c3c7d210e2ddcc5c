"""The Piratz rules engine (``shared/rules/piratz.md``).

State layout (JSON): ``draw`` (card ids, top of the pile last), ``discard``, ``removed`` (skull cards
out of a 2-player game), ``middle`` (face-up cards in the order laid) with ``buried`` beside it (the
seat whose spade lies on each card, or ``None``), ``spades_in_middle``, ``spades`` (``True`` while a
seat holds its spade), ``piles``, ``cubes`` (values beside each type, highest first), ``box`` (cubes
not used with 2 players), ``phase``, ``current``, ``revealed`` (cards revealed this turn), ``alert``
(the rat cards a rat alert offers), ``round``, ``last_round``, ``log`` (last public event texts) and,
once the game is over, ``scoring``.

Readings the bot follows where the rule text leaves room:

* A turn is ``reveal`` then ``pass <type>`` or ``end``; or ``pass`` at once. The holder of the last
  spade keeps revealing (``reveal`` again) until they pass.
* The rat alert fires when a revealed rat card brings the face-up unburied rat cards to two (leftovers
  from earlier rounds count, buried rats never do). Taking one of them is optional (``take none``);
  rats not taken stay face up, so after a declined alert two may lie there. A rat revealed beside
  them raises the alert again, and the revealer may take any one of the face-up unburied rat cards.
* When a card must be revealed and the draw pile is empty, the discard pile is shuffled into a new
  draw pile just before that reveal and the round becomes the last one; when a round ends with an
  empty draw pile, or the last round ends, the game is over. With both piles empty, a player can
  only pass.
* ``pass`` without a type is legal only when no face-up unburied card is left to take.
* Scoring gives the highest cube beside a type first; a tie that the rats and the card count do not
  break forfeits every cube still to be given for that type.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from enum import StrEnum
from typing import Any, ClassVar

from games.core import JSON, Action, Event, Game, IllegalAction, Option, Outcome, act, clone, redeal
from games.i18n import L, N, P, T, joined, seat_ref

from .cards import CARDS, CUBES, SKULL_IDS, TYPE_INDEX, TYPES


class Phase(StrEnum):
    """What the seat to act must do (stored in the state as the plain string)."""

    TURN = "turn"
    DECIDE = "decide"
    RAT_ALERT = "rat_alert"
    BURY = "bury"
    OVER = "over"


TURN, DECIDE, RAT_ALERT, BURY, OVER = (p.value for p in Phase)

PHASES = frozenset(p.value for p in Phase)
LOG_SIZE = 6
RAT_ALERT_AT = 2
"""Unburied rat cards in the middle that set off a rat alert."""
ALL_IDS = frozenset(range(len(CARDS)))
SORTED_CUBES = sorted(CUBES)

# Per-card lookup tables, indexed by card id, so the hot paths never touch the dataclasses.
SYMS: tuple[tuple[int, ...], ...] = tuple(tuple(TYPE_INDEX[s] for s in c.symbols) for c in CARDS)
RAT: tuple[bool, ...] = tuple(c.rat for c in CARDS)
LABEL: tuple[str, ...] = tuple(c.label for c in CARDS)
"""Each card's face in plain English: what tells identical cards apart (:func:`distinct`), never shown."""
NAME: tuple[str, ...] = (T("Rings"), T("Coins"), T("Pearls"), T("Crowns"), T("Goblets"), T("Shells"))
PASSED_ON: tuple[str, ...] = (
    P("passed on", "Rings"),
    P("passed on", "Coins"),
    P("passed on", "Pearls"),
    P("passed on", "Crowns"),
    P("passed on", "Goblets"),
    P("passed on", "Shells"),
)
"""A treasure type in the form "passed on {treasure}" needs (German: "steigt mit Kelchen aus", dative)."""
"""The treasure types as players read them, in scoring order (``TYPES``)."""
assert len(NAME) == len(TYPES)


def _symbols_text(card_id: int) -> str:
    """The treasures a card shows, as players read them: "Coins" or "Coins + Pearls"."""
    names = [NAME[t] for t in SYMS[card_id]]
    return names[0] if len(names) == 1 else T("{first} + {second}", first=names[0], second=names[1])


SYMBOLS_TEXT: tuple[str, ...] = tuple(_symbols_text(c.id) for c in CARDS)
FACE: tuple[str, ...] = tuple(
    T("{treasure} + rat", treasure=SYMBOLS_TEXT[c.id]) if c.rat else SYMBOLS_TEXT[c.id] for c in CARDS
)
"""Each card's face as players read it: "Coins + Pearls", "Rings + rat"."""

REVEAL = act("reveal")
END = act("end")
PASS_NOTHING = act("pass")
PASS_TYPE: tuple[Action, ...] = tuple(act("pass", t) for t in TYPES)
TAKE: tuple[Action, ...] = tuple(act("take", c.id) for c in CARDS)
TAKE_NONE = act("take", "none")
"""Declining the rat card of a rat alert ("you *may* take one of the two rat cards")."""
BURY_CARD: tuple[Action, ...] = tuple(act("bury", c.id) for c in CARDS)

VERBS = T("`reveal`, `end`, `pass <type>`, `take <card|none>`, `bury <card>`")
"""The moves, as a refusal lists them: the verbs are typed in English, their values' names are the catalog's."""


def card_dict(card_id: int) -> JSON:
    """The view form of a card."""
    card = CARDS[card_id]
    return {"id": card_id, "symbols": list(card.symbols), "rat": card.rat, "skull": card.skull}


def unburied(state: JSON) -> list[int]:
    """Face-up cards in the middle that no spade covers, in the order laid."""
    return [c for c, b in zip(state["middle"], state["buried"], strict=True) if b is None]


def distinct(cards: list[int]) -> list[int]:
    """The first of each group of identical faces among ``cards``: the rules cannot tell identical cards
    apart, and offering each face once keeps a bury choice under Discord's 25 options."""
    seen: set[str] = set()
    out = []
    for c in cards:
        if LABEL[c] not in seen:
            seen.add(LABEL[c])
            out.append(c)
    return out


def available_types(cards: list[int]) -> list[int]:
    """Type indices shown on at least one of ``cards``, in scoring order."""
    present = {t for c in cards for t in SYMS[c]}
    return sorted(present)


def symbol_counts(cards: Iterable[int]) -> list[int]:
    """Symbols of each type (in scoring order) on ``cards``."""
    counts = [0] * len(TYPES)
    for c in cards:
        for t in SYMS[c]:
            counts[t] += 1
    return counts


def _seats_text(seats: list[int]) -> str:
    return joined([seat_ref(s) for s in seats])


def cubes_per_type(seats: int) -> int:
    """Cubes placed beside each treasure type."""
    return 1 if seats == 2 else 2


def _tie_note(best: int, beaten: list[JSON]) -> str:
    """``"{p0} wins the tie with {p1} on more rats and with {p2} on fewer cards."``"""
    parts = []
    rats = [b["seat"] for b in beaten if b["on"] == "rats"]
    if rats:
        parts.append(T("with {seats} on more rats", seats=_seats_text(rats)))
    cards = [b["seat"] for b in beaten if b["on"] == "cards"]
    if cards:
        parts.append(T("with {seats} on fewer cards", seats=_seats_text(cards)))
    return T("{seat} wins the tie {how}.", seat=seat_ref(best), how=joined(parts))


def score(piles: list[list[int]], cubes: list[list[int]]) -> JSON:
    """Final scoring of ``piles`` with the ``cubes`` beside each type (the view's ``scoring`` block).

    An award won over seats with as many symbols says, in ``beat``, which tie-break decided against each
    of them (``"rats"``, then ``"cards"``)."""
    n = len(piles)
    counts = [symbol_counts(pile) for pile in piles]
    rats = [sum(RAT[c] for c in pile) for pile in piles]
    sizes = [len(pile) for pile in piles]
    totals = [0] * n
    types_out = []
    for t, name in enumerate(TYPES):
        values = list(cubes[t])

        def key(s: int, t: int = t) -> tuple[int, int, int]:
            return (-counts[s][t], -rats[s], sizes[s])

        ranking = sorted((s for s in range(n) if counts[s][t] > 0), key=key)
        awards: list[JSON] = []
        notes: list[str] = []
        if not ranking:
            notes.append(T("Nobody has {treasure}.", treasure=NAME[t]))
        i = 0
        while values and i < len(ranking):
            best = ranking[i]
            tied = [s for s in ranking[i:] if key(s) == key(best)]
            if len(tied) > 1:
                notes.append(
                    N(
                        "{seats} are still tied: {n} cube not given.",
                        "{seats} are still tied: {n} cubes not given.",
                        len(values),
                        seats=_seats_text(tied),
                    )
                )
                break
            rivals = [s for s in ranking[i + 1 :] if counts[s][t] == counts[best][t]]
            beaten = [{"seat": s, "on": "rats" if rats[s] != rats[best] else "cards"} for s in rivals]
            if beaten:
                notes.append(_tie_note(best, beaten))
            value = values.pop(0)
            awards.append({"seat": best, "value": value, "beat": beaten})
            totals[best] += value
            i += 1
        types_out.append(
            {
                "type": name,
                "counts": [counts[s][t] for s in range(n)],
                "awards": awards,
                "note": " ".join(notes),
            }
        )
    top = max(totals)
    return {"types": types_out, "totals": totals, "winners": [s for s in range(n) if totals[s] == top]}


class Piratz(Game):
    """Piratz: reveal treasure cards, pass on a treasure type at the right moment, beware of rats."""

    kind: ClassVar[str] = "piratz"
    title: ClassVar[str] = T("Piratz")
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    options: ClassVar[tuple[Option, ...]] = (
        Option("blind", L("Collected piles stay face down until the end, as at the table"), False),
    )

    # ------------------------------------------------------------------ lifecycle

    def setup(self, state: JSON, rng: random.Random) -> None:
        """Shuffle the draw pile, place the cubes and pick the first player."""
        n = state["seats"]
        deck = [c.id for c in CARDS if not (n == 2 and c.skull)]
        rng.shuffle(deck)
        cubes = list(CUBES)
        rng.shuffle(cubes)
        per = cubes_per_type(n)
        first = rng.randrange(n)
        state.update(
            {
                "round": 1,
                "last_round": False,
                "draw": deck,
                "discard": [],
                "removed": list(SKULL_IDS) if n == 2 else [],
                "middle": [],
                "buried": [],
                "spades_in_middle": [],
                "spades": [True] * n,
                "piles": [[] for _ in range(n)],
                "cubes": [sorted(cubes[t * per : (t + 1) * per], reverse=True) for t in range(len(TYPES))],
                "box": sorted(cubes[len(TYPES) * per :], reverse=True),
                "phase": TURN,
                "current": first,
                "revealed": 0,
                "alert": [],
                "log": [T("Round 1 begins. {seat} goes first.", seat=seat_ref(first))],
                "scoring": None,
            }
        )

    # ------------------------------------------------------------------ queries

    def to_act(self, state: JSON) -> tuple[int, ...]:
        return () if state["phase"] == OVER else (state["current"],)

    @staticmethod
    def last_spade(state: JSON) -> bool:
        """Whether the seat to act holds the only spade still in hand."""
        return state["spades"].count(True) == 1

    @staticmethod
    def can_reveal(state: JSON) -> bool:
        """Whether a card can be revealed at all (from the draw pile or a reshuffled discard pile)."""
        return bool(state["draw"] or state["discard"])

    def legal_actions(self, state: JSON, seat: int) -> list[Action]:
        phase = state["phase"]
        if phase == OVER or seat != state["current"]:
            return []
        if phase == RAT_ALERT:
            return [*(TAKE[c] for c in distinct(state["alert"])), TAKE_NONE]
        cards = unburied(state)
        if phase == BURY:
            return [BURY_CARD[c] for c in distinct(cards)]
        actions: list[Action] = []
        last = self.last_spade(state)
        if (phase == TURN or last) and self.can_reveal(state):
            actions.append(REVEAL)
        if phase == DECIDE and not last:
            actions.append(END)
        types = available_types(cards)
        if types:
            actions.extend(PASS_TYPE[t] for t in types)
        else:
            actions.append(PASS_NOTHING)
        return actions

    def describe(self, state: JSON, seat: int, action: Action) -> tuple[str, ...]:
        if action not in self.legal_actions(state, seat):
            raise IllegalAction(T("`{action}` is not a legal move for you now.", action=str(action)))
        if action == REVEAL:
            return (T("Reveal"),)
        if action == END:
            return (T("End turn"),)
        if action == PASS_NOTHING:
            return (T("Pass for the round"), T("Take nothing"))
        if action == TAKE_NONE:
            return (T("Take no rat card"),)
        if action.verb == "pass":
            t = TYPE_INDEX[action.args[0]]
            taken = sum(1 for c in unburied(state) if t in SYMS[c])
            return (
                T("Pass for the round"),
                N("{treasure} — take {n} card", "{treasure} — take {n} cards", taken, treasure=NAME[t]),
            )
        return (T("Take rat card") if action.verb == "take" else T("Bury"), FACE[int(action.args[0])])

    def crowned(self, view: JSON, winners: Sequence[int]) -> JSON:
        return {**view, "scoring": {**view["scoring"], "winners": list(winners)}} if view["scoring"] else view

    def view(self, state: JSON, seat: int | None) -> JSON:
        phase = state["phase"]
        over = phase == OVER
        blind = state["options"]["blind"]
        hide = blind and not over
        middle = []
        for c, b in zip(state["middle"], state["buried"], strict=True):
            d = card_dict(c)
            d["buried_by"] = b
            middle.append(d)
        players = []
        for s, pile in enumerate(state["piles"]):
            entry: JSON = {
                "seat": s,
                "spade": "held" if state["spades"][s] else "placed",
                "pile_count": len(pile),
                "pile": None,
                "symbols": None,
                "rats": None,
            }
            if not hide:
                entry["pile"] = [card_dict(c) for c in pile]
                entry["symbols"] = dict(zip(TYPES, symbol_counts(pile), strict=True))
                entry["rats"] = sum(RAT[c] for c in pile)
            players.append(entry)
        return {
            "game": self.kind,
            "viewer": seat,
            "seats": state["seats"],
            "blind": blind,
            "round": state["round"],
            "last_round": state["last_round"],
            "draw_count": len(state["draw"]),
            "discard_count": len(state["discard"]),
            "middle": middle,
            "spades_in_middle": list(state["spades_in_middle"]),
            "cubes": {t: list(v) for t, v in zip(TYPES, state["cubes"], strict=True)},
            "players": players,
            "phase": phase,
            "to_act": list(self.to_act(state)),
            "revealed_this_turn": state["revealed"],
            "cubes_per_type": cubes_per_type(state["seats"]),
            "rats_in_middle": sum(RAT[c] for c in unburied(state)),
            "rat_alert_at": RAT_ALERT_AT,
            "alert": list(state["alert"]),
            "last_spade": state["spades"].index(True) if self.last_spade(state) else None,
            "events": list(state["log"]),
            "scoring": clone(state["scoring"]) if over else None,
        }

    def outcome(self, state: JSON) -> Outcome | None:
        if state["phase"] != OVER:
            return None
        scoring = state["scoring"]
        winners = tuple(scoring["winners"])
        scores = tuple(scoring["totals"])
        return Outcome(winners, scores, self._result_text(winners, scores[winners[0]]))

    @staticmethod
    def _result_text(winners: tuple[int, ...], points: int) -> str:
        if len(winners) == 1:
            return N("{seat} wins with {n} point.", "{seat} wins with {n} points.", points, seat=seat_ref(winners[0]))
        return N(
            "{seats} share the victory with {n} point.",
            "{seats} share the victory with {n} points.",
            points,
            seats=_seats_text(list(winners)),
        )

    def summary(self, view: JSON) -> str:
        parts = [T("Round {round}", round=view["round"])]
        if view["last_round"]:
            parts.append(T("last round"))
        parts.append(N("{n} card in the draw pile", "{n} cards in the draw pile", view["draw_count"]))
        if view["phase"] == OVER:
            scoring = view["scoring"]
            winners = tuple(scoring["winners"])
            parts.append(T("Game over: {result}", result=self._result_text(winners, scoring["totals"][winners[0]])))
        else:
            seat = view["to_act"][0]
            holders = sum(p["spade"] == "held" for p in view["players"])
            doing = {
                TURN: T("reveal or pass"),
                DECIDE: T("reveal or pass") if holders == 1 else T("pass or end the turn"),
                RAT_ALERT: T("rat alert: take a rat card or none"),
                BURY: T("bury a card"),
            }[view["phase"]]
            parts.append(T("{seat} to act ({doing})", seat=seat_ref(seat), doing=doing))
        return " · ".join(parts)

    def seat_summary(self, view: JSON) -> str:
        seat = view["viewer"]
        if seat is None:
            return T("You are watching this game.")
        me = view["players"][seat]
        if me["pile"] is None:
            return N("You hold {n} card, face down.", "You hold {n} cards, face down.", me["pile_count"])
        counts = ", ".join(
            T("{treasure} {n}", treasure=NAME[TYPE_INDEX[t]], n=n) for t, n in me["symbols"].items() if n
        )
        return T(
            "Your pile: {cards}, {rats} — {treasure}.",
            cards=N("{n} card", "{n} cards", me["pile_count"]),
            rats=N("{n} rat", "{n} rats", me["rats"]),
            treasure=counts or T("no treasure yet"),
        )

    def rules_text(self) -> str:
        return RULES_TEXT

    def check_invariants(self, state: JSON) -> list[str]:
        errors: list[str] = []
        n = state["seats"]
        cards = [*state["draw"], *state["discard"], *state["middle"], *state["removed"]]
        for pile in state["piles"]:
            cards += pile
        if len(cards) != len(CARDS) or set(cards) != ALL_IDS:
            errors.append("cards are not all accounted for exactly once")
        if sorted(state["removed"]) != (list(SKULL_IDS) if n == 2 else []):
            errors.append("wrong cards out of the game")
        per = cubes_per_type(n)
        awarded = [a["value"] for t in (state["scoring"] or {"types": []})["types"] for a in t["awards"]]
        beside = [v for vals in state["cubes"] for v in vals]
        if sorted(beside + state["box"] + awarded) != SORTED_CUBES:
            errors.append("cube values are not conserved")
        if len(state["box"]) != len(CUBES) - len(TYPES) * per:
            errors.append("wrong number of cubes in the box")
        if any(vals != sorted(vals, reverse=True) or len(vals) > per for vals in state["cubes"]):
            errors.append("cubes beside a type are not highest first")
        buried = state["buried"]
        if len(buried) != len(state["middle"]):
            errors.append("buried marks do not match the middle")
        placed = [b for b in buried if b is not None] + state["spades_in_middle"]
        if len(placed) != len(set(placed)) or not set(placed) <= set(range(n)):
            errors.append("a spade lies in two places")
        for s in range(n):
            if state["spades"][s] == (s in placed):
                errors.append(f"spade of seat {s} is inconsistent")
        face_up = unburied(state)
        phase = state["phase"]
        if phase == OVER:
            if state["scoring"] is None or state["current"] is not None:
                errors.append("game over without scoring, or with a seat to act")
            return errors
        if phase not in PHASES:
            errors.append(f"unknown phase {phase!r}")
        seat = state["current"]
        if not (isinstance(seat, int) and 0 <= seat < n and state["spades"][seat]):
            errors.append("the seat to act does not hold a spade")
        if phase == RAT_ALERT:
            if len(state["alert"]) < 2 or state["alert"] != [c for c in face_up if RAT[c]]:
                errors.append("rat alert that does not offer every face-up unburied rat card")
            if not state["middle"] or not RAT[state["middle"][-1]]:
                errors.append("rat alert without a rat just revealed")
        elif state["alert"]:
            errors.append("rat cards offered outside a rat alert")
        if phase in (TURN, DECIDE) and (phase == TURN) != (state["revealed"] == 0):
            errors.append("revealed count does not match the phase")
        if phase == BURY and not face_up:
            errors.append("bury phase with nothing to bury")
        if state["last_round"] and state["discard"]:
            errors.append("cards in the discard pile during the last round")
        return errors

    # ------------------------------------------------------------------ mutation

    def play(self, state: JSON, seat: int, action: Action) -> list[Event]:
        handler = self._handlers.get(action.verb)
        if handler is None:
            raise IllegalAction(T("`{verb}` is not a Piratz move. Moves: {moves}.", verb=action.verb, moves=VERBS))
        texts: list[str] = []
        handler(self, state, seat, action.args, texts)
        log = state["log"]
        log.extend(texts)
        del log[:-LOG_SIZE]
        return [Event(t) for t in texts]

    @staticmethod
    def _expected(state: JSON) -> str:
        phase = state["phase"]
        if phase == RAT_ALERT:
            return T("Rat alert: take one of the rat cards or none first (`take <card>` or `take none`).")
        if phase == BURY:
            return T("Bury a face-up card with your spade first (`bury <card>`).")
        if phase == DECIDE:
            return T("Reveal another card or pass.") if Piratz.last_spade(state) else T("Pass or end your turn.")
        return T("Reveal a card or pass.")

    def _reveal(self, state: JSON, seat: int, args: tuple[str, ...], texts: list[str]) -> None:
        if args:
            raise IllegalAction(T("`reveal` takes no arguments."))
        phase = state["phase"]
        if phase == DECIDE and not self.last_spade(state):
            raise IllegalAction(T("You already revealed a card this turn: pass or end your turn."))
        if phase not in (TURN, DECIDE):
            raise IllegalAction(T("You cannot reveal now. {expected}", expected=self._expected(state)))
        if not self.can_reveal(state):
            raise IllegalAction(T("The draw pile and the discard pile are both empty: you can only pass."))
        draw = state["draw"]
        if not draw:
            discard = state["discard"]
            self.rng(state).shuffle(discard)
            draw.extend(discard)
            discard.clear()
            state["last_round"] = True
            texts.append(
                N(
                    "The draw pile ran out: {n} discarded card shuffled into a new draw pile. This is the last round!",
                    "The draw pile ran out: {n} discarded cards shuffled into a new draw pile. This is the last round!",
                    len(draw),
                )
            )
        card = draw.pop()
        state["middle"].append(card)
        state["buried"].append(None)
        state["revealed"] += 1
        if RAT[card]:
            texts.append(T("{seat} revealed a {card} card (rat).", seat=seat_ref(seat), card=SYMBOLS_TEXT[card]))
        else:
            texts.append(T("{seat} revealed a {card} card.", seat=seat_ref(seat), card=SYMBOLS_TEXT[card]))
        rats = [c for c in unburied(state) if RAT[c]] if RAT[card] else ()
        if len(rats) >= RAT_ALERT_AT:
            state["phase"] = RAT_ALERT
            state["alert"] = rats
            if len(rats) == 2:
                texts.append(
                    T("Rat alert! {seat} must pass and may take one of the two rat cards.", seat=seat_ref(seat))
                )
            else:
                texts.append(
                    T(
                        "Rat alert! {seat} must pass and may take one of the {n} rat cards.",
                        seat=seat_ref(seat),
                        n=len(rats),
                    )
                )
        else:
            state["phase"] = DECIDE

    def _end(self, state: JSON, seat: int, args: tuple[str, ...], texts: list[str]) -> None:
        if args:
            raise IllegalAction(T("`end` takes no arguments."))
        phase = state["phase"]
        if phase == TURN:
            raise IllegalAction(T("Reveal a card or pass: you can end your turn only after revealing."))
        if phase != DECIDE:
            raise IllegalAction(T("You cannot end your turn now. {expected}", expected=self._expected(state)))
        if self.last_spade(state):
            raise IllegalAction(T("You hold the last spade: keep revealing or pass."))
        texts.append(T("{seat} ended the turn.", seat=seat_ref(seat)))
        self._next_turn(state, seat, texts)

    def _pass(self, state: JSON, seat: int, args: tuple[str, ...], texts: list[str]) -> None:
        if state["phase"] not in (TURN, DECIDE):
            raise IllegalAction(T("You cannot pass now. {expected}", expected=self._expected(state)))
        if len(args) > 1:
            raise IllegalAction(T("`pass` takes one treasure type, for example `pass coins`."))
        cards = unburied(state)
        types = available_types(cards)
        if not args:
            if types:
                names = ", ".join(TYPES[t] for t in types)
                raise IllegalAction(T("Name a treasure type to pass on, one of: {types}.", types=names))
            texts.append(T("{seat} passed and took nothing.", seat=seat_ref(seat)))
        else:
            t = TYPE_INDEX.get(args[0])
            if t is None:
                raise IllegalAction(
                    T("`{word}` is not a treasure type. Types: {types}.", word=args[0], types=", ".join(TYPES))
                )
            if t not in types:
                raise IllegalAction(T("No face-up unburied card shows {treasure}.", treasure=NAME[t]))
            taken = [c for c in cards if t in SYMS[c]]
            self._take_cards(state, seat, taken)
            if state["options"]["blind"]:
                texts.append(
                    N(
                        "{seat} passed and took {n} card.",
                        "{seat} passed and took {n} cards.",
                        len(taken),
                        seat=seat_ref(seat),
                    )
                )
            else:
                texts.append(
                    N(
                        "{seat} passed on {treasure} and took {n} card.",
                        "{seat} passed on {treasure} and took {n} cards.",
                        len(taken),
                        seat=seat_ref(seat),
                        treasure=PASSED_ON[t],
                    )
                )
        self._after_pass(state, seat, texts)

    def _take(self, state: JSON, seat: int, args: tuple[str, ...], texts: list[str]) -> None:
        if state["phase"] != RAT_ALERT:
            raise IllegalAction(
                T(
                    "There is no rat alert: you cannot take a single card. {expected}",
                    expected=self._expected(state),
                )
            )
        alert = state["alert"]
        if args == TAKE_NONE.args:
            texts.append(T("{seat} took no rat card.", seat=seat_ref(seat)))
        else:
            card = self._card_arg("take", args, alert)
            self._take_cards(state, seat, [card])
            if not state["options"]["blind"]:
                texts.append(T("{seat} took the {card} card.", seat=seat_ref(seat), card=FACE[card]))
            elif len(alert) == 2:
                texts.append(T("{seat} took one of the two rat cards.", seat=seat_ref(seat)))
            else:
                texts.append(T("{seat} took one of the {n} rat cards.", seat=seat_ref(seat), n=len(alert)))
        state["alert"] = []
        self._after_pass(state, seat, texts)

    def _bury(self, state: JSON, seat: int, args: tuple[str, ...], texts: list[str]) -> None:
        if state["phase"] != BURY:
            raise IllegalAction(T("You cannot bury a card now. {expected}", expected=self._expected(state)))
        card = self._card_arg("bury", args, unburied(state))
        state["buried"][state["middle"].index(card)] = seat
        state["spades"][seat] = False
        texts.append(T("{seat} buried the {card} card with their spade.", seat=seat_ref(seat), card=FACE[card]))
        self._next_turn(state, seat, texts)

    @staticmethod
    def _card_arg(verb: str, args: tuple[str, ...], options: list[int]) -> int:
        """The card named by ``args``: one of the cards :func:`distinct` keeps of ``options`` (the rat cards of
        an alert for ``take``, the face-up unburied cards for ``bury``)."""
        if len(args) != 1 or not args[0].isdigit():
            raise IllegalAction(
                T("`{verb}` needs one card number, for example `{example}`.", verb=verb, example=f"{verb} 12")
            )
        card = int(args[0])
        if card not in options:
            if verb == "bury":
                raise IllegalAction(T("Card {card} is not a face-up unburied card in the middle.", card=card))
            if len(options) == 2:
                raise IllegalAction(T("Card {card} is not one of the two rat cards of the alert.", card=card))
            raise IllegalAction(
                T("Card {card} is not one of the {n} rat cards of the alert.", card=card, n=len(options))
            )
        first = next(c for c in options if LABEL[c] == LABEL[card])
        if first != card:
            raise IllegalAction(
                T(
                    "Card {card} is identical to card {first}, which stands for both: `{move}`.",
                    card=card,
                    first=first,
                    move=f"{verb} {first}",
                )
            )
        return card

    @staticmethod
    def _take_cards(state: JSON, seat: int, cards: list[int]) -> None:
        state["piles"][seat].extend(cards)
        keep = [(c, b) for c, b in zip(state["middle"], state["buried"], strict=True) if c not in cards]
        state["middle"] = [c for c, _ in keep]
        state["buried"] = [b for _, b in keep]

    def _after_pass(self, state: JSON, seat: int, texts: list[str]) -> None:
        if None in state["buried"]:
            state["phase"] = BURY
            return
        state["spades_in_middle"].append(seat)
        state["spades"][seat] = False
        texts.append(T("{seat} has no card to bury: the spade goes to the middle.", seat=seat_ref(seat)))
        self._next_turn(state, seat, texts)

    def _next_turn(self, state: JSON, seat: int, texts: list[str]) -> None:
        """Hand the turn to the next seat holding a spade, or end the round after the last move."""
        spades = state["spades"]
        n = state["seats"]
        state["revealed"] = 0
        state["phase"] = TURN
        if True in spades:
            nxt = next(s % n for s in range(seat + 1, seat + n + 1) if spades[s % n])
            state["current"] = nxt
            if spades.count(True) == 1 and not spades[seat]:
                texts.append(T("{seat} holds the last spade and reveals until passing.", seat=seat_ref(nxt)))
            return
        self._end_round(state, seat, texts)

    def _end_round(self, state: JSON, seat: int, texts: list[str]) -> None:
        state["discard"].extend(c for c, b in zip(state["middle"], state["buried"], strict=True) if b is not None)
        state["middle"] = unburied(state)
        state["buried"] = [None] * len(state["middle"])
        state["spades_in_middle"] = []
        state["spades"] = [True] * state["seats"]
        if state["last_round"] or not state["draw"]:
            self._finish(state, texts)
            return
        state["round"] += 1
        state["current"] = (seat + 1) % state["seats"]
        texts.append(T("Round {round} begins with {seat}.", round=state["round"], seat=seat_ref(state["current"])))

    def _finish(self, state: JSON, texts: list[str]) -> None:
        scoring = score(state["piles"], state["cubes"])
        for t, entry in enumerate(scoring["types"]):
            for award in entry["awards"]:
                state["cubes"][t].remove(award["value"])
        state["scoring"] = scoring
        state["phase"] = OVER
        state["current"] = None
        winners = tuple(scoring["winners"])
        texts.append(T("Game over! {result}", result=self._result_text(winners, scoring["totals"][winners[0]])))

    _handlers: ClassVar[dict[str, Any]] = {
        "reveal": _reveal,
        "end": _end,
        "pass": _pass,
        "take": _take,
        "bury": _bury,
    }

    def scramble(self, state: JSON, seat: int | None, rng: random.Random) -> JSON:
        """Nobody knows the order of the draw pile (its contents follow from the cards seen) nor, with
        ``blind``, what the collected piles hold until the final scoring: those cards are dealt again, and
        the seed, which decides the reshuffle of the last round, is replaced. The discard pile stays: its
        cards were buried face up."""
        other = clone(state)
        other["seed"] = f"scrambled-{rng.getrandbits(64):x}"
        hidden = [other["draw"]]
        if other["options"]["blind"] and other["phase"] != OVER:
            hidden += other["piles"]
        redeal(hidden, rng)
        return other


RULES_TEXT = T(
    """\
**Piratz** — 2–4 players. Collect the most treasure of each type, but beware of the rats!

**Cards.** 50 treasure cards show one or two of six treasures (in scoring order: Rings, Coins, \
Pearls, Crowns, Goblets, Shells); 10 of them also show a rat. With 2 players the 6 skull cards are \
removed. Score cubes lie beside each type: one per type with 2 players, two per type with 3–4 \
(gold 3, silver 2, copper 1).

**Your turn.** While you hold your spade, either
• **reveal** the top card of the draw pile into the middle, then **pass** at once or **end** your \
turn; or
• **pass** without revealing.

**Passing.** Name a treasure type and take every face-up, unburied card showing it (rat cards \
included) into your pile. Then you must **bury** a face-up card of your choice with your spade: \
nobody can take it this round. If no face-up card is left, your spade goes to the middle. You sit \
out until the round ends.

**Rat alert!** Rats on face-up, unburied cards in the middle count, even ones left from earlier \
rounds; buried rats never count. If your reveal makes it two rat cards, you must pass: you may take \
one of the two rat cards (your choice; `take none` declines), then bury a card.

**The last spade.** The last player holding a spade keeps revealing, one card after another, until \
they pass or a rat alert makes them pass.

**End of a round.** When everyone has passed, buried cards go to the discard pile, unburied cards \
stay in the middle, everyone takes their spade back, and the player left of the one who moved last \
starts the next round.

**End of the game.** If a round ends with the draw pile empty, the game is over. If a card must be \
revealed and the draw pile is empty, the discard pile is shuffled into a new draw pile: this is the \
**last round**, and the game ends with it. If both piles are empty, you can only pass.

**Scoring.** For each type in order, the player with the most symbols of it takes the highest cube \
beside it; with 3–4 players the runner-up takes the other. Zero symbols win nothing. Ties go to \
the player with more rats (all rat cards held), then to the one with fewer cards; if still tied, \
nobody gets the cubes left for that type. Most points wins; tied players share the victory.

**Blind option.** Collected piles stay face down, for their owner too, until the final scoring.

Moves: `reveal`, `end`, `pass <type>` (`rings`, `coins`, `pearls`, `crowns`, `goblets`, `shells`), \
`take <card>` / `take none`, `bury <card>`.
"""
)
