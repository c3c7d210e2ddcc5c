"""Playing games in Discord: boards in threads, action buttons and pickers, AI turns, private views.

The path of every action, top to bottom: an interaction arrives → the game service validates and
commits it (:meth:`Tables.act` returns the events) → :meth:`Host.publish` posts the new board with every
public event and returns the private followup → the interaction is answered → the followup is sent
(:class:`PrivateMail`). Each game's latest board message carries the buttons; posting a new board
strips them from the previous one.
"""

from __future__ import annotations

import asyncio
import io
import logging
import traceback
from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord

from cogs import records
from cogs.clocks import Clocks, clock_name, now_ts
from cogs.components import (
    BoardSelect,
    FollowButton,
    HandButton,
    PlayButton,
    PlaySelect,
    RematchButton,
)
from cogs.messages import (
    NO_PINGS,
    chunks,
    deciders,
    event_line,
    final_lines,
    names_shown,
    opening,
    out_line,
    pings,
    result_line,
    shown,
    title,
    waiting_line,
)
from cogs.private import Followup, PrivateMail, place_link
from cogs.runner import Runner
from cogs.seats import Seats
from data.store import GameRecord, SeatRecord
from games.core import Choice, Event, format_seats
from games.registry import GAMES, GameSpec
from rendering import pool as render_pool
from tables import menus
from tables.service import Applied, GameError, KeyedLocks, deciding, seat_names

if TYPE_CHECKING:
    from cogs.app import TableBot

log = logging.getLogger("tables.host")

AI_NAMES = ("Salty Sal", "One-Eyed Olga", "Barnacle Bill", "Captain Cheddar", "Rusty Rita", "Peg-Leg Pip", "Bosun Bea")
AI_BATCH = 12
"""AI actions applied before a board is posted, so a run of AI moves does not flood the thread."""
ACTION_BUTTONS = 20
"""Board buttons for actions (4 rows of 5); the fifth row holds "My hand"."""
PICKER_BUTTONS = 15
"""Picker options shown as buttons; more become select menus."""


def ai_name(seat: int) -> str:
    return f"🤖 {AI_NAMES[seat % len(AI_NAMES)]}"


async def tell(interaction: discord.Interaction, text: str) -> None:
    """An ephemeral answer, whether or not the interaction was already acknowledged."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


async def apologise(interaction: discord.Interaction, error: BaseException, game_id: int | None = None) -> None:
    """Log an unexpected error with its traceback and tell the user briefly (never the details)."""
    original = getattr(error, "original", error)
    log.error(
        "Unexpected error (game %s, user %s, command %s)\n%s",
        game_id,
        interaction.user.id,
        getattr(interaction.command, "qualified_name", None),
        "".join(traceback.format_exception(original)),
    )
    try:
        await tell(interaction, "Sorry, something went wrong on my side. Your game is safe; please try again.")
    except discord.HTTPException:
        log.warning("Could not send the apology for an unexpected error")


class Saved(GameError):
    """The action was committed, but telling Discord about it failed: never invite a second try."""


def add_choices(
    view: discord.ui.View,
    record: GameRecord,
    tag: str,
    path: tuple[int, ...],
    labels: Sequence[str],
    *,
    max_buttons: int,
    rows: int,
) -> None:
    """One picker level below the board button ``tag``: a button per option (label ``i`` continues the
    walk at ``path + (i,)``), or, for more than ``max_buttons`` options, select menus of at most 25
    options in up to ``rows`` rows."""
    if len(labels) <= max_buttons:
        for i, label in enumerate(labels):
            view.add_item(PlayButton(record.id, record.version, tag, (*path, i), label, row=i // 5))
        return
    for row, start in enumerate(range(0, min(len(labels), 25 * rows), 25)):
        view.add_item(PlaySelect(record.id, record.version, tag, path, labels[start : start + 25], start, row=row))


class Host:
    """Runs games in Discord for every game kind (one instance per bot)."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        self.tables = bot.tables
        self.mail = PrivateMail(bot)
        self.clocks = Clocks(self)
        self.seats = Seats(self)
        self.runner = Runner(self)
        self._publishing = KeyedLocks()
        """One board posted at a time per game."""
        self._posted: dict[int, int] = {}
        """The newest board version posted per game (a slower publish never covers a newer board)."""
        self._ai_tasks: dict[int, asyncio.Task[None]] = {}
        self._followups: dict[int, asyncio.Task[None]] = {}
        self._archives: dict[int, asyncio.Task[None]] = {}

    # ------------------------------------------------------------------ guarding

    async def guard(self, interaction: discord.Interaction, game_id: int | None, work: object) -> None:
        """Await ``work``; expected errors become a specific ephemeral reply, others an apology."""
        try:
            await work  # type: ignore[misc]
        except GameError as exc:
            await tell(interaction, str(exc))
        except Exception as exc:
            await apologise(interaction, exc, game_id)

    # ------------------------------------------------------------------ starting

    async def start(
        self,
        *,
        kind: str,
        channel: discord.abc.Messageable,
        guild_id: int | None,
        host_id: int,
        players: Sequence[tuple[int, str]],
        ai: int,
        options: dict[str, object],
        origin: discord.Message | None = None,
        clock: int = 0,
    ) -> GameRecord:
        """Create the game, open its thread, post the opening message and the first board. ``clock``:
        seconds per decision before the AI decides for an absent member (0: no clock)."""
        spec = GAMES[kind]
        seats = [SeatRecord(i, name, user_id) for i, (user_id, name) in enumerate(players)]
        seats += [SeatRecord(len(seats) + i, ai_name(len(seats) + i)) for i in range(ai)]
        channel_id = getattr(channel, "id", 0)
        record = await self.tables.create(
            kind,
            seats=seats,
            options=dict(options),
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            now=now_ts(),
            clock=clock,
        )
        thread = await self._open_thread(record, spec, channel, origin)
        if thread is not None:
            await self.tables.set_place(record.id, thread_id=thread.id)
            record = await self.tables.get(record.id)
        place = self.place(record)
        humans = [s.user_id for s in record.seats if s.user_id is not None]
        await place.send(opening(spec, record, clock_name(record.clock)), allowed_mentions=pings(humans))
        self.follow_up(spec, await self.publish(record, [], before=None))
        return record

    async def _open_thread(
        self,
        record: GameRecord,
        spec: GameSpec,
        channel: discord.abc.Messageable,
        origin: discord.Message | None,
    ) -> discord.Thread | None:
        name = menus.clip(f"{spec.title} #{record.id}: {', '.join(shown(n) for n in record.names)}", 100)
        try:
            if origin is not None:
                return await origin.create_thread(name=name, auto_archive_duration=1440)
            if isinstance(channel, discord.TextChannel):
                return await channel.create_thread(
                    name=name, type=discord.ChannelType.public_thread, auto_archive_duration=1440
                )
        except discord.HTTPException as exc:
            # Without thread permissions the game is played in the channel itself.
            log.warning("Game %s: could not open a thread (%s); playing in the channel", record.id, exc)
        return None

    def place(self, record: GameRecord) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(record.place_id, guild_id=record.guild_id)

    # ------------------------------------------------------------------ boards

    def board_choices(self, spec: GameSpec, record: GameRecord) -> list[Choice]:
        """The choices of every seat that a member decides for now, the AI's included while the member is
        away (the board's buttons)."""
        if record.status != "active":
            return []
        game, state = spec.game, record.state
        return [
            c
            for s in game.to_act(state)
            if record.seats[
                game.controller(state, s)
            ].member  # away members keep their buttons: a click brings them back
            for c in game.choices(state, s)
        ]

    def board_view(self, spec: GameSpec, record: GameRecord) -> discord.ui.View:
        view = discord.ui.View(timeout=None)
        choices = self.board_choices(spec, record)
        labels = menus.top_labels([choices])
        names = names_shown(spec, record)
        shown_labels = [format_seats(menus.button_label(label, choices), names) for label in labels]
        if len(labels) <= ACTION_BUTTONS:
            for i, (label, text) in enumerate(zip(labels, shown_labels, strict=True)):
                view.add_item(PlayButton(record.id, record.version, menus.tag(label), (), text, row=i // 5))
        else:
            pairs = [(menus.tag(label), text) for label, text in zip(labels, shown_labels, strict=True)]
            for row, start in enumerate(range(0, min(len(pairs), 100), 25)):
                view.add_item(BoardSelect(record.id, record.version, pairs[start : start + 25], start, row=row))
        view.add_item(HandButton(record.id, row=4))
        if record.status == "active":
            view.add_item(FollowButton(record.id, row=4))
        return view

    async def _board_payload(self, spec: GameSpec, record: GameRecord, view: dict, lines: list[str]) -> dict:
        """The board message: what happened and whose turn (one short line each), the image of the
        spectator ``view`` with the full description as its alt text, the buttons."""
        names = seat_names(spec.game, record)
        png = await render_pool.run(spec.render_board, view, names)
        summary = format_seats(spec.game.summary(view), names)
        file = discord.File(
            io.BytesIO(png),
            filename=f"{spec.kind}-{record.id}-{record.version}.png",
            description=summary[:1000],
        )
        return {"content": "\n".join(lines)[:2000], "file": file, "view": self.board_view(spec, record)}

    async def publish(self, record: GameRecord, events: Sequence[Event], *, before: GameRecord | None) -> Followup:
        """Post the board of ``record`` after ``events`` (every public one, compactly), ping the players
        who now must decide and did not before ``before`` (none when ``before`` is None: a repost), strip
        the old board's buttons, and return the private followup for the caller to send once it has
        answered."""
        spec = self.tables.spec(record)
        names = names_shown(spec, record)
        happened = [event_line(e, names) for e in events if e.seat is None]
        async with self._publishing.hold(record.id):
            latest = await self.tables.get(record.id)
            place = self.place(latest)
            if latest.version < self._posted.get(record.id, -1):
                # A newer board is up already (a slower publish of an older state): add the events only.
                for text in chunks(happened):
                    await place.send(text, allowed_mentions=NO_PINGS)
                return self._followup(spec, record, events, happened)
            view = spec.game.view(latest.state, None)
            deadlines = await self.clocks.deadlines(latest)
            status = [waiting_line(spec, latest, view, deadlines), out_line(spec, latest)]
            if latest.thread_id is None:
                status.insert(0, title(spec, latest))  # in a shared channel, say which game this is
            *earlier, last = chunks([*happened, *(line for line in status if line)]) or [""]
            for text in earlier:
                await place.send(text, allowed_mentions=NO_PINGS)
            now_deciding = deciders(spec, latest)
            was_deciding = set(deciders(spec, before)) if before is not None else set(now_deciding)
            ping = [
                latest.seats[p].user_id
                for p in now_deciding
                if p not in was_deciding and not latest.seats[p].is_ai and latest.seats[p].user_id is not None
            ]
            old = latest.message_id
            payload = await self._board_payload(spec, latest, view, [last] if last else [])
            board = payload["file"].fp.getvalue()
            message = await place.send(allowed_mentions=pings(u for u in ping if u is not None), **payload)
            self._posted[record.id] = latest.version
            await self.tables.set_place(record.id, message_id=message.id)
            if old is not None and old != message.id:
                await self._strip(place, old)
        return self._followup(spec, record, events, happened, board)

    def _followup(
        self,
        spec: GameSpec,
        record: GameRecord,
        events: Sequence[Event],
        happened: list[str] | None = None,
        board: bytes | None = None,
    ) -> Followup:
        names = names_shown(spec, record)
        notes: dict[int, list[str]] = {}
        for e in events:
            if e.seat is not None:
                player = spec.game.controller(record.state, e.seat)
                notes.setdefault(player, []).append(format_seats(e.text, names))
        return Followup(record, notes, happened or [], board)

    async def _strip(self, place: discord.PartialMessageable, message_id: int) -> None:
        try:
            await place.get_partial_message(message_id).edit(view=None)
        except discord.HTTPException as exc:
            log.info("Could not remove old buttons from message %s: %s", message_id, exc)

    def follow_up(self, spec: GameSpec, followup: Followup) -> None:
        """Send a followup in the background, in order per game: the final scoring once a game has ended
        (drawn like a board, so it must not delay the answer), then the private messages."""
        game_id = followup.record.id
        previous = self._followups.get(game_id)
        task = asyncio.create_task(self._send_followup(previous, spec, followup))
        self._followups[game_id] = task
        task.add_done_callback(
            lambda done: self._followups.pop(game_id, None) if self._followups.get(game_id) is done else None
        )
        if followup.record.status != "active":
            # Nothing more will be posted for this game: its bookkeeping goes (memory stays bounded).
            self._posted.pop(game_id, None)
        self.clocks.arm(followup.record)
        if followup.record.status == "active":
            self.kick_ai(game_id)

    async def _send_followup(self, previous: asyncio.Task[None] | None, spec: GameSpec, followup: Followup) -> None:
        if previous is not None:
            await asyncio.gather(previous, return_exceptions=True)
        record = followup.record
        try:
            if record.status != "active":
                await self.post_final(record)
            await self.mail.send(spec, followup)
            await self.mail.send_followers(spec, followup)
        except Exception:
            log.exception("Game %s: the final scoring or private messages could not be delivered", record.id)

    async def post_final(self, record: GameRecord) -> None:
        """The final message (once per game, recorded in the store), and one line where the game began."""
        store = self.bot.store
        if await store.delivery(record.id, -1, "final") is not None:
            return
        await store.set_delivery(record.id, -1, "final", str(record.version))
        spec = self.tables.spec(record)
        kwargs: dict = {"content": "\n".join(final_lines(spec, record))[:2000], "allowed_mentions": NO_PINGS}
        if record.status == "finished" and spec.game.is_over(record.state):
            view = spec.game.view(record.state, None)
            names = seat_names(spec.game, record)
            png = await render_pool.run_later(spec.render_final, view, names)
            alt = format_seats(spec.game.summary(view), names)[:1000]
            kwargs["file"] = discord.File(
                io.BytesIO(png), filename=f"{spec.kind}-{record.id}-final.png", description=alt
            )
        if any(s.user_id is not None for s in record.seats):
            rematch = discord.ui.View(timeout=None)
            rematch.add_item(RematchButton(record.id))
            kwargs["view"] = rematch
        # Records: the game's verifiable action log rides on the final message, after the final image.
        kwargs["files"] = [*filter(None, [kwargs.pop("file", None)]), await records.log_file(store, record)]
        await self.place(record).send(**kwargs)
        self.archive_later(record)
        if record.thread_id is not None:
            channel = self.bot.get_partial_messageable(record.channel_id, guild_id=record.guild_id)
            try:
                await channel.send(result_line(spec, record, place_link(record)), allowed_mentions=NO_PINGS)
            except discord.HTTPException as exc:
                log.info("Game %s: could not post the result in its channel: %s", record.id, exc)

    # ------------------------------------------------------------------ acting

    async def play(
        self, interaction: discord.Interaction, game_id: int, action: str, version: int | None, label: str
    ) -> Followup:
        """Apply a member's action and post the new board. Once the action is committed, a failure to tell
        Discord never asks the player to play it again."""
        applied = await self.tables.act(game_id, action, now=now_ts(), user_id=interaction.user.id, version=version)
        try:
            return await self.publish(applied.record, applied.events, before=applied.before)
        except Exception as exc:
            if isinstance(exc, discord.HTTPException):
                log.warning("Game %s: board could not be posted after an action: %s", game_id, exc)
            else:
                log.exception("Game %s: the board after an action failed", game_id)
            spec = self.tables.spec(applied.record)
            self.follow_up(spec, self._followup(spec, applied.record, applied.events))
            raise self._saved(applied, label) from exc

    def _saved(self, applied: Applied, label: str) -> Saved:
        return Saved(
            f"Your move was saved ({label}), but the new board could not be posted. "
            f"Use `/{applied.record.kind} board` to post it again."
        )

    async def on_path(
        self,
        interaction: discord.Interaction,
        game_id: int,
        version: int,
        first: str,
        path: tuple[int, ...],
        *,
        in_picker: bool,
    ) -> None:
        """A board button, picker button or picker select was used: walk the clicker's own choices, act at
        a leaf, or show the next picker level (ephemeral: only the clicker sees it)."""
        record = await self.tables.back(await self.tables.get(game_id), interaction.user.id)
        spec = self.tables.spec(record)
        seats = self.tables.seats_to_act(record, user_id=interaction.user.id, version=version)
        node = None
        for seat in seats:
            node = menus.walk(spec.game.choices(record.state, seat), first, path)
            if node is not None:
                break
        if node is None:
            raise GameError("That option is not yours to choose right now.")
        names = names_shown(spec, record)
        if isinstance(node, Choice):
            label = format_seats(node.label, names)
            await interaction.response.defer()
            followup = await self.play(interaction, game_id, node.action.encode(), version, label)
            try:
                if in_picker:
                    await interaction.edit_original_response(content=f"✅ {label}", view=None)
            except discord.HTTPException as exc:
                raise Saved(f"Your move was saved ({label}).") from exc
            finally:
                self.follow_up(spec, followup)
            return
        content, ui = self._picker(record, node, names)
        if in_picker:
            await interaction.response.edit_message(content=content, view=ui)
        else:
            await interaction.response.send_message(content, view=ui, ephemeral=True)
            # Its items are DynamicItems, dispatched by custom id alone: discord.py needs no view object
            # for them. Stopping it drops the 15-minute timer discord.py starts for every ephemeral view,
            # which would otherwise keep a task alive per picker shown.
            ui.stop()

    def _picker(self, record: GameRecord, menu: menus.Menu, names: Sequence[str]) -> tuple[str, discord.ui.View]:
        ui = discord.ui.View(timeout=None)
        labels = [format_seats(e.label, names) for e in menu.entries]
        add_choices(ui, record, menu.tag, menu.path, labels, max_buttons=PICKER_BUTTONS, rows=5)
        trail = format_seats(" → ".join(menu.trail), names)
        return f"**{trail}** — choose:", ui

    async def move(self, interaction: discord.Interaction, kind: str, text: str, game: int | None = None) -> None:
        """``/<game> move``: apply a typed action (or the label autocomplete showed) in this thread."""
        text = text.strip()
        if game is None and text.startswith("#"):
            # Autocomplete's values name the game when the caller plays several in this channel.
            number, _, text = text[1:].partition(" ")
            game = int(number) if number.isdigit() else None
        record = await self.my_game(interaction, kind, game, action=text)
        record = await self.tables.back(record, interaction.user.id)
        spec = self.tables.spec(record)
        label, action = text, text
        named = self._named_choice(record, interaction.user.id, text)
        if named is not None:  # a readable label works as well as the action text
            action, label = named.action.encode(), format_seats(named.label, names_shown(spec, record))
        await interaction.response.defer(ephemeral=True)
        followup = await self.play(interaction, record.id, action, None, label)
        try:
            await interaction.followup.send(f"✅ {label}", ephemeral=True)
        except discord.HTTPException as exc:
            raise Saved(f"Your move was saved ({label}).") from exc
        finally:
            self.follow_up(spec, followup)

    async def autocomplete(self, interaction: discord.Interaction, kind: str, current: str) -> list[tuple[str, str]]:
        """The caller's legal actions as (label, action text), filtered by what they typed. When the caller
        must move in several games here, labels and values start with the game's number."""
        if interaction.channel_id is None:
            return []
        records = [
            r for r in await self.tables.games_here(interaction.channel_id, interaction.user.id) if r.kind == kind
        ]
        needle = current.strip().lower()
        out: list[tuple[str, str]] = []
        seen: set[str] = set()
        options = []
        for record in records:
            spec = self.tables.spec(record)
            player = record.seat_of(interaction.user.id)
            if player is None or record.seats[player].resigned:
                continue
            seats = deciding(spec.game, record, player)
            if seats:
                options.append((record, spec, seats))
        several = len(options) > 1
        for record, spec, seats in options:
            names = names_shown(spec, record)
            for seat in seats:
                for choice in spec.game.choices(record.state, seat):
                    label = format_seats(choice.label, names)
                    value = choice.action.encode()
                    if several:
                        label, value = f"#{record.id}: {label}", f"#{record.id} {value}"
                    if (needle in label.lower() or needle in value) and value not in seen:
                        seen.add(value)  # a fleet's seats often share an action: offer it once
                        out.append((menus.clip(label, 100), value))
        return out[:25]

    async def my_game(
        self, interaction: discord.Interaction, kind: str | None, game: int | None = None, *, action: str | None = None
    ) -> GameRecord:
        """The caller's game in this thread or channel: ``game`` if given; else the one they play here —
        when they play several, the one where ``action`` is legal for them, or a question which one."""
        if game is not None:
            record = await self.tables.get(game)
            if kind is not None and record.kind != kind:
                raise GameError(f"Game #{game} is {self.tables.spec(record).title}: use `/{record.kind}` commands.")
            return record
        place = interaction.channel_id
        records = await self.tables.games_here(place) if place is not None else []
        if not records:
            raise GameError("There is no game in progress here: use this in a game's thread.")
        if kind is not None:
            mine_any = [r for r in records if r.kind == kind]
            if not mine_any:
                other = self.tables.spec(records[0])
                raise GameError(f"This thread hosts {other.title}: use `/{records[0].kind}` commands here.")
            records = mine_any
        mine = [r for r in records if r.seat_of(interaction.user.id) is not None]
        if len(mine) == 1:
            return mine[0]
        if not mine:
            return records[0]  # the newest: the service says "You are not playing in …"
        if action is not None:
            fits = [r for r in mine if self._named_choice(r, interaction.user.id, action) is not None]
            if len(fits) == 1:
                return fits[0]
        numbers = ", ".join(f"#{r.id}" for r in mine)
        raise GameError(f"You play several games here ({numbers}): say which one with the `game` option.")

    def _named_choice(self, record: GameRecord, user_id: int, text: str) -> Choice | None:
        """The user's legal choice that ``text`` names, by its action text or its label as shown."""
        spec = self.tables.spec(record)
        player = record.seat_of(user_id)
        if player is None or record.status != "active":
            return None
        wanted = text.strip().lower()
        names = names_shown(spec, record)
        for seat in deciding(spec.game, record, player):
            for choice in spec.game.choices(record.state, seat):
                if wanted in (choice.action.encode(), format_seats(choice.label, names).lower()):
                    return choice
        return None

    async def show_hand(self, interaction: discord.Interaction, game_id: int) -> None:
        """The caller's private view (every seat they control), ephemeral."""
        record = await self.tables.back(await self.tables.get(game_id), interaction.user.id)
        spec = self.tables.spec(record)
        player = record.seat_of(interaction.user.id)
        if player is None:
            raise GameError(f"You are not playing in {spec.title} #{game_id}, so you have no hand here.")
        await interaction.response.defer(ephemeral=True, thinking=True)
        payload = await self.mail.payload(spec, record, player)
        await interaction.followup.send(ephemeral=True, **payload)

    async def repost(self, interaction: discord.Interaction, kind: str, game: int | None = None) -> None:
        record = await self.my_game(interaction, kind, game)
        spec = self.tables.spec(record)
        await interaction.response.defer(ephemeral=True)
        self._posted.pop(record.id, None)
        self.follow_up(spec, await self.publish(record, [], before=None))
        await interaction.followup.send("Board posted.", ephemeral=True)

    async def resign(self, interaction: discord.Interaction, kind: str, game: int | None = None) -> None:
        record = await self.my_game(interaction, kind, game)
        await interaction.response.defer(ephemeral=True)
        record, ended = await self.tables.resign(record.id, interaction.user.id, now=now_ts())
        player = record.seat_of(interaction.user.id)
        name = shown(record.seats[player or 0].name)
        if ended:
            await self.end_without_play(record, f"🏳️ {name} resigned.")
        else:
            await self.place(record).send(
                f"🏳️ {name} resigned; the AI plays their seat for the rest of the game.", allowed_mentions=NO_PINGS
            )
            self.kick_ai(record.id)
        await interaction.followup.send("You resigned.", ephemeral=True)

    async def end_without_play(self, record: GameRecord, note: str) -> None:
        """Announce a game that ended by resignation or abandonment, and strip its buttons."""
        place = self.place(record)
        await place.send(note, allowed_mentions=NO_PINGS)
        if record.message_id is not None:
            await self._strip(place, record.message_id)
        await self.post_final(record)

    # ------------------------------------------------------------------ threads

    async def close_thread(self, record: GameRecord) -> None:
        """Archive and lock a game's thread (abandoned, or finished long enough ago)."""
        if record.thread_id is None:
            return
        try:
            thread = self.bot.get_channel(record.thread_id) or await self.bot.fetch_channel(record.thread_id)
            if isinstance(thread, discord.Thread):
                await thread.edit(archived=True, locked=True)
        except discord.HTTPException as exc:
            log.info("Game %s: could not archive its thread: %s", record.id, exc)

    def archive_later(self, record: GameRecord) -> None:
        """Archive a finished game's thread ``archive_after`` seconds after it ended (also across restarts)."""
        if record.thread_id is not None and record.id not in self._archives:
            self._archives[record.id] = asyncio.create_task(self._archive(record.id), name=f"archive-{record.id}")

    async def _archive(self, game_id: int) -> None:
        try:
            record = await self.tables.get(game_id)
            ended = record.ended_at if record.ended_at is not None else now_ts()
            await asyncio.sleep(max(0.0, ended + self.bot.config.archive_after - now_ts()))
            if await self.bot.store.delivery(game_id, -1, "archived") is None:
                await self.bot.store.set_delivery(game_id, -1, "archived", "1")
                await self.close_thread(record)
        finally:
            self._archives.pop(game_id, None)

    # ------------------------------------------------------------------ AI seats

    def kick_ai(self, game_id: int) -> None:
        """Start the AI runner for this game unless one is already running."""
        task = self._ai_tasks.get(game_id)
        if task is None or task.done():
            self._ai_tasks[game_id] = asyncio.create_task(self._run_ai(game_id), name=f"ai-{game_id}")

    async def _run_ai(self, game_id: int) -> None:
        try:
            while True:
                record = await self.tables.get(game_id)
                spec = self.tables.spec(record)
                if record.status != "active" or not self._ai_seats_to_act(spec, record):
                    return
                if not self.tables.runs(record, now_ts()):
                    return  # another process runs this game's AI seats now
                if self.bot.config.ai_delay > 0:
                    await asyncio.sleep(self.bot.config.ai_delay)
                before = record = await self.tables.get(game_id)
                events: list[Event] = []
                for _ in range(AI_BATCH):
                    seats = self._ai_seats_to_act(spec, record) if record.status == "active" else []
                    if not seats:
                        break
                    seat = seats[0]
                    action = spec.player.choose(spec.game, record.state, seat, spec.game.rng(record.state))
                    try:
                        applied = await self.tables.act(
                            game_id, action.encode(), now=now_ts(), seat=seat, version=record.version
                        )
                    except GameError as exc:
                        # A member acted at the same moment (simultaneous choices): look again.
                        log.info("Game %s: AI move %s not applied: %s", game_id, action, exc)
                        record = await self.tables.get(game_id)
                        continue
                    events.extend(applied.events)
                    record = applied.record
                self.follow_up(spec, await self.publish(record, events, before=before))
        except Exception:
            log.exception("Game %s: the AI runner failed; it restarts on the next action or restart", game_id)
        finally:
            self._ai_tasks.pop(game_id, None)

    @staticmethod
    def _ai_seats_to_act(spec: GameSpec, record: GameRecord) -> list[int]:
        game, state = spec.game, record.state
        return [s for s in game.to_act(state) if record.seats[game.controller(state, s)].is_ai]

    async def stop(self) -> None:
        """The bot is closing: stop this process's games (their leases go, :mod:`cogs.runner`) and the
        timers that would use the store after it closed (AI turns, clocks, thread archiving)."""
        await self.runner.stop()
        waiting = [*self._ai_tasks.values(), *self._archives.values(), *self.clocks.tasks()]
        for task in waiting:
            task.cancel()
        await asyncio.gather(*waiting, return_exceptions=True)

    async def resume(self) -> None:
        """After a (re)start: the games this process runs carry on (AI seats whose turn it is, clocks: see
        :mod:`cogs.runner`), and the finished games of its servers have their threads archived in time."""
        await self.bot.wait_until_ready()
        await self.runner.start()
        for game_id in await self.bot.store.unarchived():
            record = await self.tables.get(game_id)
            if self.runner.serves(record.guild_id):
                self.archive_later(record)
