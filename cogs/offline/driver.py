"""Driving the real bot in SimCord (an in-memory Discord) as its members would.

:class:`SimTable` seats simulated members at a table in SimCord and plays for them through the bot's real
slash commands and buttons, choosing their moves with the game's AI. The demo, ``play``, the end-to-end
tests and the benchmark all drive the bot with it.
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord
import simcord
import simcord.interactions
from simcord.results import InteractionResult

from cogs.app import TableBot
from games.core import Choice, format_seats
from games.i18n import T, localize
from games.registry import GAMES
from tables import menus
from tables.menus import LABELS
from tables.seating import seat_names

if TYPE_CHECKING:
    from tables.cache import GameRecord, SeatRecord

DEMO_NAMES = ("Anne", "Ben", "Calico", "Dara", "Edda")


@dataclass(slots=True)
class Turn:
    """What one simulated click-through did."""

    user: str
    label: str
    results: list[InteractionResult] = field(default_factory=list)
    spans: list[tuple[float, float]] = field(default_factory=list)
    """``perf_counter`` start and end of each interaction, in order (the last one applies the action)."""


class SimTable:
    """Simulated members of one guild channel who play games through the real bot."""

    def __init__(
        self, env: simcord.Env, bot: TableBot, names: Sequence[str] = DEMO_NAMES, *, locale: str = "en-US"
    ) -> None:
        self.env = env
        self.bot = bot
        self.locale = locale
        """The language of the server and of every member (SimCord's members speak ``en-US``)."""
        self.guild = env.create_guild(name="Pirate Cove", preferred_locale=locale)
        self.channel = self.guild.create_text_channel("tavern")
        self.members = {name: self.guild.add_member(env.create_user(name.lower(), global_name=name)) for name in names}
        self.log: list[tuple[int, int, str]] = []
        """Driver notes ("Anne clicks …") for transcripts: the newest message id at that moment, the moment's
        place in :attr:`moments`, the note."""
        self.moments = itertools.count()
        """The order of what happens in the world beside its messages (notes, edits), for transcripts."""

    def newest(self) -> int:
        """The id of the newest message of the world (ids grow with time)."""
        return max((m for msgs in self.env.backend.messages.values() for m in msgs), default=0)

    def note(self, text: str) -> None:
        self.log.append((self.newest(), next(self.moments), localize(text, self.locale)))

    # ------------------------------------------------------------------ setting up

    async def challenge(
        self, kind: str, host: str, invitees: Sequence[str], ai: int = 0, **options: Any
    ) -> InteractionResult:
        """``/<kind> new`` by ``host``; the invitees accept. Returns the host's command result."""
        args: dict[str, Any] = {f"player{i + 2}": self.members[n] for i, n in enumerate(invitees)}
        if ai:
            args["ai"] = ai
        args.update(options)
        names = {m.id: n for n, m in self.members.items()}
        shown = " ".join(f"{k}:{names.get(getattr(v, 'id', None), v)}" for k, v in args.items())
        self.note(T("{name} runs {command}", name=host, command=f"/{kind} new {shown}"))
        result = await self.members[host].slash(self.channel, f"{kind} new", **args)
        for name in invitees:
            invitation = self.channel.last_message
            assert invitation is not None
            accept = localize(LABELS["accept"], self.locale)  # the invitation is in the server's language
            self.note(T("{name} clicks {button}", name=name, button=accept))
            await self.members[name].click(invitation, label=accept)
        return result

    async def record(self, game_id: int) -> GameRecord:
        return await self.bot.tables.cache.get(game_id)

    async def latest_game(self) -> GameRecord:
        ids = await self.bot.tables.cache.game_ids()
        assert ids, "no active game"
        return await self.record(ids[-1])

    def place(self, record: GameRecord) -> simcord.builders.ChannelHandle:
        for thread in self.channel.threads:
            if thread.id == record.place_id:
                return thread
        return self.channel

    def board_message(self, record: GameRecord) -> discord.Message:
        for message in reversed(self.place(record).history()):
            if message.id == record.message_id:
                return message
        raise LookupError(f"board message {record.message_id} of game {record.id} not found")

    def board_button(self, record: GameRecord, index: int = 0) -> str:
        """The custom id of the ``index``-th action button on the game's latest board."""
        return play_buttons(self.board_message(record))[index]

    def last_board(self, record: GameRecord) -> discord.Message:
        """The newest message with play buttons in the game's place (in this world: another process may
        have posted a newer board in its own)."""
        return next(m for m in reversed(self.place(record).history()) if play_buttons(m))

    def player_of(self, record: GameRecord, seat: int) -> SeatRecord:
        """The player deciding for an engine seat."""
        return record.seats[GAMES[record.kind].game.controller(record.state, seat)]

    def member_of(self, record: GameRecord, seat: int) -> simcord.actors.MemberActor:
        """The simulated member deciding for an engine seat."""
        user_id = self.player_of(record, seat).user_id
        return next(m for m in self.members.values() if m.id == user_id)

    # ------------------------------------------------------------------ playing

    def humans_to_act(self, record: GameRecord, rng: random.Random | None = None) -> list[int]:
        """The engine seats a member must decide for now (shuffled by ``rng``: simultaneous choices are
        made in every order)."""
        if record.status != "active":
            return []
        game = GAMES[record.kind].game
        seats = [s for s in game.to_act(record.state) if not self.player_of(record, s).is_ai]
        if rng is not None:
            rng.shuffle(seats)
        return seats

    def human_to_act(self, record: GameRecord, rng: random.Random | None = None) -> int | None:
        seats = self.humans_to_act(record, rng)
        return seats[0] if seats else None

    def pick(self, record: GameRecord, seat: int) -> Choice:
        """The move the seat's simulated player makes: what the game's AI would play."""
        spec = GAMES[record.kind]
        action = spec.player.choose(spec.game, record.state, seat, spec.game.rng(record.state))
        return next(c for c in spec.game.choices(record.state, seat) if c.action == action)

    async def click_through(self, record: GameRecord, seat: int, choice: Choice) -> Turn:
        """Play ``choice`` with the board's button and, where needed, the ephemeral pickers."""
        spec = GAMES[record.kind]
        member = self.member_of(record, seat)
        first, path = menus.path_to(spec.game.choices(record.state, seat), choice)
        name = self.player_of(record, seat).name
        label = format_seats(choice.label, seat_names(spec.game, record))
        turn = Turn(name, label)
        self.note(T("{name} plays “{move}” with the buttons", name=name, move=label))
        message: Any = self.board_message(record)
        base = f"{record.id}:{record.version}:{first}"
        for depth in range(len(path) + 1):
            prefix = ".".join(map(str, path[:depth]))
            custom_id = f"t:{base}" + (f":{prefix}" if depth else "")
            started = time.perf_counter()
            if _has_component(message, custom_id):
                result = await member.click(message, custom_id=custom_id)
            elif depth == 0:
                select_id = _select_with(message, first)
                result = await member.select(message, [first], custom_id=select_id)
            else:
                pick = path[depth - 1]
                start = pick - pick % 25
                select_id = f"ts:{base}:{'.'.join(map(str, path[: depth - 1]))}:{start}"
                result = await member.select(message, [str(pick)], custom_id=select_id)
            turn.spans.append((started, time.perf_counter()))
            turn.results.append(result)
            # A picker opened from the board follows the click (which leaves the board as it is); the next
            # level replaces it.
            message = result.followups[-1] if depth == 0 and result.followups else result.response
        return turn

    async def move(self, record: GameRecord, seat: int, choice: Choice) -> Turn:
        """Play ``choice`` with ``/<game> move`` in the game's thread."""
        member = self.member_of(record, seat)
        name = self.player_of(record, seat).name
        self.note(T("{name} runs {command}", name=name, command=f"/{record.kind} move action:{choice.action.encode()}"))
        started = time.perf_counter()
        result = await member.slash(self.place(record), f"{record.kind} move", action=choice.action.encode())
        label = format_seats(choice.label, seat_names(GAMES[record.kind].game, record))
        return Turn(name, label, [result], [(started, time.perf_counter())])

    async def play_moves(self, game_id: int, count: int) -> GameRecord:
        """Play ``count`` human decisions with the buttons (AI seats move by themselves in between)."""
        for _ in range(count):
            record = await self.record(game_id)
            seat = self.human_to_act(record)
            assert seat is not None, f"game {game_id}: no human to act"
            await self.click_through(record, seat, self.pick(record, seat))
        return await self.record(game_id)

    async def play_to_end(
        self,
        game_id: int,
        *,
        via: str = "buttons",
        limit: int = 5000,
        progress: Callable[[GameRecord], None] | None = None,
    ) -> GameRecord:
        """Play every human decision until the game ends (AI seats move by themselves); when several
        members must decide at once, they do so in a seeded random order. ``progress``, if given, is shown
        the game before each decision and at its end."""
        rng = random.Random(f"play-{game_id}")
        for i in range(limit):
            record = await self.record(game_id)
            if progress is not None:
                progress(record)
            if record.status != "active":
                return record
            seat = self.human_to_act(record, rng)
            if seat is None:
                await self.env.settle()
                record = await self.record(game_id)
                if record.status == "active" and self.human_to_act(record) is None:
                    raise RuntimeError(f"game {game_id}: nobody can move")
                continue
            choice = self.pick(record, seat)
            use_buttons = via == "buttons" or (via == "mixed" and i % 2 == 0)
            if use_buttons:
                await self.click_through(record, seat, choice)
            else:
                await self.move(record, seat, choice)
        raise RuntimeError(f"game {game_id} did not end within {limit} decisions")


def _components(message: Any) -> list[Any]:
    """Every component of a message (a discord.py Message or SimCord's raw response payload), flattened."""
    found: list[Any] = []

    def walk(components: Any) -> None:
        for c in components or ():
            found.append(c)
            walk(c.get("components") if isinstance(c, dict) else getattr(c, "children", None))

    walk(message.components)
    return found


def play_buttons(message: Any) -> list[str]:
    """The custom ids of a board's play buttons, in order."""
    return [i for c in _components(message) if (i := _custom_id(c)) and i.startswith("t:")]


def _custom_id(component: Any) -> str | None:
    return component.get("custom_id") if isinstance(component, dict) else getattr(component, "custom_id", None)


def _select_with(message: Any, value: str) -> str:
    """The custom id of the board select menu that offers ``value``."""
    for c in _components(message):
        options = c.get("options") if isinstance(c, dict) else getattr(c, "options", None)
        for option in options or ():
            if (option.get("value") if isinstance(option, dict) else option.value) == value:
                return str(_custom_id(c))
    raise LookupError(f"no board select offers {value!r}")


def _has_component(message: Any, custom_id: str) -> bool:
    return any(_custom_id(c) == custom_id for c in _components(message))


@contextmanager
def speaking(locales: Mapping[int, str]) -> Iterator[None]:
    """Members who speak other languages than SimCord's ``en-US``: each interaction of user ``id`` carries
    ``locales[id]`` as Discord's ``locale``, and its server's preferred locale as ``guild_locale``."""
    original = simcord.interactions.base_payload

    def base_payload(backend: Any, **fields: Any) -> tuple[Any, dict[str, Any]]:
        record, payload = original(backend, **fields)
        if fields["user_id"] in locales:
            payload["locale"] = locales[fields["user_id"]]
        if fields.get("guild_id") is not None:
            payload["guild_locale"] = backend.get_guild(fields["guild_id"]).preferred_locale
        return record, payload

    simcord.interactions.base_payload = base_payload
    try:
        yield
    finally:
        simcord.interactions.base_payload = original
