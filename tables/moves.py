"""Finding a member's move: the game they mean where they asked, the move they picked on a board's buttons and
pickers or typed (by its action text or its label, in English or their language), what autocomplete offers
them, and their private view. A move found here is applied once, by the engine, when it is played
(:meth:`tables.play.Play.act`): nothing here decides whether it is legal."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace

from data.store import GameRecord
from games.core import Choice, format_seats
from games.i18n import ENGLISH, T, language, localize
from tables import menus, notices, words
from tables.authority import Caller, GameError, NotSeated, may_decide, seated
from tables.cache import GameCache
from tables.outbox import Message
from tables.seating import deciding, seat_names

Back = Callable[[Caller, GameRecord], Awaitable[GameRecord]]
"""A member who was away uses the game again (:meth:`tables.play.Play.back`)."""


class Moves:
    """What a member means, in the games where they ask."""

    def __init__(self, cache: GameCache, back: Back) -> None:
        self.cache = cache
        self.back = back

    async def my_game(
        self, caller: Caller, kind: str | None, game_id: int | None = None, *, action: str | None = None
    ) -> GameRecord:
        """The caller's game: ``game_id`` if given (within their reach); else the one they play where they asked
        — when they play several, the one where ``action`` is legal for them, or a question which one."""
        if game_id is not None:
            record = await self.cache.reach(caller, game_id)
            if kind is not None and record.kind != kind:
                title = self.cache.spec(record).title
                said = T(
                    "Game #{number} is {game}: use `/{kind}` commands.", number=game_id, game=title, kind=record.kind
                )
                raise GameError(said)
            return record
        records = await self.cache.games_here(caller.channel_id) if caller.channel_id is not None else []
        records = [r for r in records if r.guild_id == caller.guild_id]
        if not records:
            raise GameError(T("There is no game in progress here: use this in a game's thread."))
        if kind is not None:
            of_kind = [r for r in records if r.kind == kind]
            if not of_kind:
                other = self.cache.spec(records[0])
                raise GameError(
                    T("This thread hosts {game}: use `/{kind}` commands here.", game=other.title, kind=records[0].kind)
                )
            records = of_kind
        mine = [r for r in records if r.seat_of(caller.user_id) is not None]
        if len(mine) == 1:
            return mine[0]
        if not mine:
            return records[0]  # the newest: acting says "You are not playing in …"
        if action is not None:
            fits = [r for r in mine if self.named(r, caller.user_id, action, caller.locale) is not None]
            if len(fits) == 1:
                return fits[0]
        numbers = ", ".join(f"#{r.id}" for r in mine)
        raise GameError(
            T("You play several games here ({numbers}): say which one with the `game` option.", numbers=numbers)
        )

    async def typed(
        self, caller: Caller, kind: str, text: str, game_id: int | None = None
    ) -> tuple[GameRecord, str, int | None, str]:
        """The move a member typed (``/GAME move``), found once: its game, the action's text, the engine seat it
        is for (``None``: text that names none of their moves, played as typed so that the engine says why
        not) and its label as shown (marked). Autocomplete's values name the game (``#3 …``) when the member
        plays several in the channel."""
        text = text.strip()
        if game_id is None and text.startswith("#"):
            head, _, text = text[1:].partition(" ")
            game_id = int(head) if head.isdigit() else None
        record = await self.back(caller, await self.my_game(caller, kind, game_id, action=text))
        found = self.named(record, caller.user_id, text, caller.locale)
        if found is None:
            return record, text, None, text
        seat, choice = found
        label = format_seats(choice.label, seat_names(self.cache.spec(record).game, record))
        return record, choice.action.encode(), seat, label

    def named(
        self, record: GameRecord, user_id: int, text: str, locale: str | None = None
    ) -> tuple[int, Choice] | None:
        """The user's choice that ``text`` names, by its action text or its label as shown, in English or in their
        language (``locale``), with the engine seat it is for."""
        spec = self.cache.spec(record)
        player = record.seat_of(user_id)
        if player is None or record.status != "active":
            return None
        wanted = text.strip().lower()
        names = seat_names(spec.game, record)
        langs = {ENGLISH, language(locale)}
        for seat in deciding(spec.game, record, player):
            # An action's text (what autocomplete offers) is found without labelling every other action.
            for action in spec.game.legal_actions(record.state, seat):
                if wanted == action.encode():
                    return seat, spec.game.choice(record.state, seat, action)
            for choice in spec.game.choices(record.state, seat):
                label = format_seats(choice.label, names)
                if any(wanted == localize(label, lang).lower() for lang in langs):
                    return seat, choice
        return None

    async def walk(
        self, caller: Caller, game_id: int, version: int, first: str, path: tuple[int, ...]
    ) -> tuple[GameRecord, int, Choice | menus.Menu]:
        """A board button, picker button or picker option was used: the caller's completed choice (with the
        engine seat it is for), or the next picker level to show them (only they see it)."""
        record = await self.back(caller, await self.cache.reach(caller, game_id))
        spec = self.cache.spec(record)
        for seat in may_decide(record, caller.user_id, version).seats:
            node = menus.walk(spec.game.choices(record.state, seat), first, path)
            if node is not None:
                return record, seat, node
        raise GameError(T("That option is not yours to choose right now."))

    def picker(self, record: GameRecord, menu: menus.Menu) -> Message:
        """A picker level as an ephemeral message: the trail so far and what to choose next."""
        spec = self.cache.spec(record)
        labels = [format_seats(e.label, seat_names(spec.game, record)) for e in menu.entries]
        trail = format_seats(" → ".join(menu.trail), words.names_shown(spec, record))
        return Message(
            T("**{trail}** — choose:", trail=trail),
            components=menus.picker_components(record.id, record.version, menu, labels),
        )

    async def autocomplete(self, caller: Caller, kind: str, current: str) -> list[tuple[str, str]]:
        """The caller's legal actions in games of ``kind`` where they asked, as (label, action text), filtered by
        what they typed. When they must move in several games there, labels and values start with the game's
        number."""
        if caller.channel_id is None:
            return []
        records = [
            r
            for r in await self.cache.games_here(caller.channel_id, caller.user_id)
            if r.kind == kind and r.guild_id == caller.guild_id
        ]
        options = []
        for record in records:
            player = record.seat_of(caller.user_id)
            if player is not None and not record.seats[player].resigned:
                seats = deciding(self.cache.spec(record).game, record, player)
                if seats:
                    options.append((record, seats))
        needle, lang = current.strip().lower(), language(caller.locale)
        out: list[tuple[str, str]] = []
        seen: set[str] = set()
        for record, seats in options:
            game = self.cache.spec(record).game
            names = seat_names(game, record)
            for choice in (c for seat in seats for c in game.choices(record.state, seat)):
                label, value = format_seats(choice.label, names), choice.action.encode()
                english, label = localize(label), localize(label, lang)
                if len(options) > 1:
                    label, value = f"#{record.id}: {label}", f"#{record.id} {value}"
                found = needle in label.lower() or needle in value or needle in english.lower()
                if found and value not in seen:
                    seen.add(value)  # a fleet's seats often share an action: offer it once
                    out.append((menus.clip(label, 100), value))
        return out[:25]

    async def private_view(self, caller: Caller, game_id: int) -> Message:
        """The caller's private view (every seat they control), for an ephemeral answer."""
        record = await self.back(caller, await self.cache.reach(caller, game_id))
        if record.seat_of(caller.user_id) is None:
            title = self.cache.spec(record).title
            raise NotSeated(T("You are not playing in {game}, so you have no hand here.", game=f"{title} #{game_id}"))
        message = notices.private_message(self.cache.spec(record), record, seated(caller, record))
        return replace(message, content=words.linked(message.content, record))
