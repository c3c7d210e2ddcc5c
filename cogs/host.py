"""Playing games in Discord: boards in threads, action buttons and pickers, AI turns, private views.

The flow of every action: an interaction arrives → the game service validates and commits it → the
board is rendered (in a worker thread) and posted → the interaction is answered. Each game's latest
board message carries the buttons; posting a new board strips them from the previous one.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import logging
import traceback
from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord

from cogs.components import HandButton, PlayButton, PlaySelect
from data.store import GameRecord, SeatRecord
from games.core import Choice, Event, format_seats
from games.registry import GAMES, GameSpec
from tables import menus
from tables.service import Applied, GameError, seed_digest

if TYPE_CHECKING:
    from cogs.app import TableBot

log = logging.getLogger("tables.host")

AI_NAMES = ("Salty Sal", "One-Eyed Olga", "Barnacle Bill", "Captain Cheddar", "Rusty Rita")
AI_BATCH = 12
"""AI actions applied before a board is posted, so a run of AI moves does not flood the thread."""
ACTION_BUTTONS = 20
"""Board buttons for actions (4 rows of 5); the fifth row holds "My hand"."""
PICKER_BUTTONS = 15
"""Picker options shown as buttons; more become select menus."""


def now_ts() -> float:
    """Wall-clock seconds. Discord's clock helper, so that simulated time in tests applies too."""
    return discord.utils.utcnow().timestamp()


def ai_name(seat: int) -> str:
    return f"🤖 {AI_NAMES[seat % len(AI_NAMES)]}"


def place_link(record: GameRecord) -> str:
    guild = record.guild_id or "@me"
    return f"https://discord.com/channels/{guild}/{record.place_id}"


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


def add_choices(
    view: discord.ui.View,
    record: GameRecord,
    path: tuple[int, ...],
    labels: Sequence[str],
    *,
    max_buttons: int,
    rows: int,
) -> None:
    """One menu level: a button per option (label ``i`` continues the walk at ``path + (i,)``), or, for
    more than ``max_buttons`` options, select menus of at most 25 options in up to ``rows`` rows."""
    if len(labels) <= max_buttons:
        for i, label in enumerate(labels):
            view.add_item(PlayButton(record.id, record.version, (*path, i), label, row=i // 5))
        return
    for row, start in enumerate(range(0, min(len(labels), 25 * rows), 25)):
        view.add_item(PlaySelect(record.id, record.version, path, labels[start : start + 25], start, row=row))


class Host:
    """Runs games in Discord for every game kind (one instance per bot)."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        self.tables = bot.tables
        self._publish_locks: dict[int, asyncio.Lock] = {}
        self._pending: dict[int, list[Event]] = {}
        self._ai_tasks: dict[int, asyncio.Task[None]] = {}
        self._private_tasks: dict[int, asyncio.Task[None]] = {}
        self._held: list[tuple[GameSpec, GameRecord, list[Event]]] = []

    # ------------------------------------------------------------------ guarding

    async def guard(self, interaction: discord.Interaction, game_id: int | None, work: object) -> None:
        """Await ``work``; expected errors become a specific ephemeral reply, others an apology.
        Private messages the work queued are sent once the interaction has been answered."""
        try:
            await work  # type: ignore[misc]
        except GameError as exc:
            await tell(interaction, str(exc))
        except Exception as exc:
            await apologise(interaction, exc, game_id)
        finally:
            self.flush_private()

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
    ) -> GameRecord:
        """Create the game, open its thread, post the opening message and the first board."""
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
        )
        thread = await self._open_thread(record, spec, channel, origin)
        if thread is not None:
            await self.tables.set_place(record.id, thread_id=thread.id)
            record = await self.tables.get(record.id)
        place = self.bot.get_partial_messageable(record.place_id, guild_id=guild_id)
        opts = ", ".join(f"{k}: {v}" for k, v in record.options.items()) or "none"
        humans = " ".join(f"<@{s.user_id}>" for s in record.seats if s.user_id is not None)
        await place.send(
            f"{spec.emoji} **{spec.title} #{record.id}** begins! {humans}\n"
            f"Players: {', '.join(record.names)} · options: {opts}\n"
            f"Shuffle commitment: SHA-256 `{seed_digest(record.seed)}` (the seed is revealed at the end).\n"
            f"Play with the buttons under the latest board or `/{kind} move` here; "
            f"`/{kind} hand` or **My hand** shows your private view."
        )
        await self.publish(record.id)
        return record

    async def _open_thread(
        self,
        record: GameRecord,
        spec: GameSpec,
        channel: discord.abc.Messageable,
        origin: discord.Message | None,
    ) -> discord.Thread | None:
        name = menus.clip(f"{spec.title} #{record.id}: {', '.join(record.names)}", 100)
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

    # ------------------------------------------------------------------ boards

    def _choice_lists(self, spec: GameSpec, record: GameRecord) -> list[list[Choice]]:
        return [spec.game.choices(record.state, s) for s in spec.game.to_act(record.state)]

    def board_view(self, spec: GameSpec, record: GameRecord) -> discord.ui.View:
        view = discord.ui.View(timeout=None)
        to_act = spec.game.to_act(record.state) if record.status == "active" else ()
        if any(not record.seats[s].is_ai for s in to_act):
            lists = self._choice_lists(spec, record)
            top = menus.top_labels(lists)
            flat = [c for cs in lists for c in cs]
            labels = [menus.button_label(top, flat, i) for i in range(len(top))]
            add_choices(view, record, (), labels, max_buttons=ACTION_BUTTONS, rows=4)
        view.add_item(HandButton(record.id, row=4))
        return view

    def _waiting_line(self, spec: GameSpec, record: GameRecord, view: dict[str, object]) -> str:
        if record.status != "active":
            return ""
        parts = []
        for s in spec.game.to_act(record.state):
            seat = record.seats[s]
            parts.append(f"{seat.name} is thinking…" if seat.is_ai else f"<@{seat.user_id}>")
        pending = view.get("pending")
        tail = f" — {format_seats(str(pending), record.names)}" if pending else ""
        return "➡️ " + ", ".join(parts) + tail

    async def _board_payload(self, spec: GameSpec, record: GameRecord, events: Sequence[Event]) -> dict:
        view = spec.game.view(record.state, None)
        names = record.names
        png = await asyncio.to_thread(spec.render_board, view, names)
        summary = format_seats(spec.game.summary(view), names)
        lines = [f"{spec.emoji} **{spec.title} #{record.id}** · {summary}"]
        lines += [f"> {format_seats(e.text, names)}" for e in events if e.seat is None][-8:]
        lines.append(self._waiting_line(spec, record, view))
        content = "\n".join(line for line in lines if line)
        if len(content) > 1900:
            content = content[:1899] + "…"
        file = discord.File(
            io.BytesIO(png),
            filename=f"{spec.kind}-{record.id}-{record.version}.png",
            description=summary[:1000],
        )
        return {"content": content, "file": file, "view": self.board_view(spec, record)}

    async def publish(self, game_id: int, *, hold_private: bool = False) -> None:
        """Post the latest board of a game (with the events not yet shown) and strip the old buttons;
        then deliver private views, turn notifications and, at the end, the final scoring."""
        lock = self._publish_locks.setdefault(game_id, asyncio.Lock())
        async with lock:
            record = await self.tables.get(game_id)
            spec = self.tables.spec(record)
            pending = self._pending.setdefault(game_id, [])
            events = list(pending)
            place = self.bot.get_partial_messageable(record.place_id, guild_id=record.guild_id)
            old = record.message_id
            message = await place.send(**await self._board_payload(spec, record, events))
            del pending[: len(events)]  # shown; if sending failed they wait for the next board
            await self.tables.set_place(game_id, message_id=message.id)
            if old is not None:
                await self._strip(place, old)
            # The final scoring (drawn like a second board) and private messages follow the answer.
            self._queue_private(spec, record, events, hold=hold_private)
        if record.status == "active":
            self.kick_ai(game_id)

    async def _strip(self, place: discord.PartialMessageable, message_id: int) -> None:
        try:
            await place.get_partial_message(message_id).edit(view=None)
        except discord.HTTPException as exc:
            log.info("Could not remove old buttons from message %s: %s", message_id, exc)

    async def _post_final(self, spec: GameSpec, record: GameRecord, place: discord.PartialMessageable) -> None:
        result = record.result or {}
        names = record.names
        winners = [names[w] for w in result.get("winners", [])]
        lines = [f"🏁 **{spec.title} #{record.id} is over.** {format_seats(result.get('summary', ''), names)}"]
        if winners:
            lines.append(("🏆 Winner: " if len(winners) == 1 else "🏆 Shared victory: ") + ", ".join(winners))
        scores = result.get("scores") or []
        if scores:
            ranking = sorted(range(len(scores)), key=lambda i: -scores[i])
            lines.append("Scores: " + " · ".join(f"{names[i]} {scores[i]}" for i in ranking))
        resigned = [s.name for s in record.seats if s.resigned]
        if resigned:
            lines.append("Resigned: " + ", ".join(resigned))
        lines.append(f"Seed: `{record.seed}` (SHA-256 `{seed_digest(record.seed)}`, as posted at the start).")
        kwargs: dict = {"content": "\n".join(lines)}
        if record.status == "finished" and spec.game.is_over(record.state):
            view = spec.game.view(record.state, None)
            png = await asyncio.to_thread(spec.render_final, view, names)
            kwargs["file"] = discord.File(io.BytesIO(png), filename=f"{spec.kind}-{record.id}-final.png")
        await place.send(**kwargs)

    # ------------------------------------------------------------------ private messages

    async def _dm(self, record: GameRecord, seat: SeatRecord, **kwargs: object) -> bool:
        """DM a player; if their DMs are closed, say so once in the game's thread."""
        assert seat.user_id is not None
        try:
            # create_dm needs only the id and is cached, so no user lookup (the bot has no members intent).
            channel = await self.bot.create_dm(discord.Object(id=seat.user_id))
            await channel.send(**kwargs)  # type: ignore[arg-type]
            return True
        except discord.HTTPException as exc:
            log.info("Game %s: DM to %s failed (%s)", record.id, seat.user_id, exc)
            if await self.bot.store.delivery(record.id, seat.seat, "dm_closed") is None:
                await self.bot.store.set_delivery(record.id, seat.seat, "dm_closed", str(exc.code))
                place = self.bot.get_partial_messageable(record.place_id, guild_id=record.guild_id)
                try:
                    await place.send(
                        f"<@{seat.user_id}> I can't send you direct messages, so use the **My hand** button "
                        "or the `hand` command here for your private view."
                    )
                except discord.HTTPException:
                    log.warning("Game %s: could not post the closed-DM note either", record.id)
            return False

    def private_text(self, spec: GameSpec, record: GameRecord, view: dict) -> str:
        """The private summary of a seat's ``view``, labelled with the game and where it is played."""
        where = f"{spec.title} #{record.id} ({place_link(record)})"
        return f"**Your private view in {where}**\n{format_seats(spec.game.seat_summary(view), record.names)}"

    async def private_payload(self, spec: GameSpec, record: GameRecord, seat: int) -> dict:
        view = spec.game.view(record.state, seat)
        kwargs: dict = {"content": self.private_text(spec, record, view)[:2000]}
        if spec.render_hand is not None:
            png = await asyncio.to_thread(spec.render_hand, view, record.names)
            kwargs["file"] = discord.File(io.BytesIO(png), filename=f"{spec.kind}-{record.id}-hand.png")
        return kwargs

    def _queue_private(self, spec: GameSpec, record: GameRecord, events: Sequence[Event], *, hold: bool) -> None:
        """Send the final scoring (once a game ends), private views and reminders in the background, in
        order per game. With ``hold`` they wait for :meth:`flush_private`, so that drawing these images
        does not delay the answer to the player who acted (each takes as long to draw as the board)."""
        self._held.append((spec, record, list(events)))
        if not hold:
            self.flush_private()

    def flush_private(self) -> None:
        """Start delivering the private messages queued so far."""
        held, self._held = self._held, []
        for spec, record, events in held:
            previous = self._private_tasks.get(record.id)
            task = asyncio.create_task(self._deliver_after(previous, spec, record, events))
            self._private_tasks[record.id] = task

    async def _deliver_after(
        self, previous: asyncio.Task[None] | None, spec: GameSpec, record: GameRecord, events: list[Event]
    ) -> None:
        if previous is not None:
            await asyncio.gather(previous, return_exceptions=True)
        try:
            if record.status != "active" and await self.bot.store.delivery(record.id, -1, "final") is None:
                await self.bot.store.set_delivery(record.id, -1, "final", str(record.version))
                place = self.bot.get_partial_messageable(record.place_id, guild_id=record.guild_id)
                await self._post_final(spec, record, place)
            await self._deliver_private(spec, record, events)
        except Exception:
            log.exception("Game %s: the final scoring or private messages could not be delivered", record.id)

    async def _deliver_private(self, spec: GameSpec, record: GameRecord, events: Sequence[Event]) -> None:
        private: dict[int, list[str]] = {}
        for e in events:
            if e.seat is not None:
                private.setdefault(e.seat, []).append(format_seats(e.text, record.names))
        for seat in record.seats:
            if seat.user_id is None or seat.resigned:
                continue
            notes = private.get(seat.seat, [])
            if spec.dm_hands and record.status == "active":
                text = self.private_text(spec, record, spec.game.view(record.state, seat.seat))
                digest = hashlib.sha256(text.encode()).hexdigest()
                if notes or await self.bot.store.delivery(record.id, seat.seat, "hand") != digest:
                    await self.bot.store.set_delivery(record.id, seat.seat, "hand", digest)
                    payload = await self.private_payload(spec, record, seat.seat)
                    if notes:
                        payload["content"] = ("\n".join(f"• {n}" for n in notes) + "\n" + payload["content"])[:2000]
                    await self._dm(record, seat, **payload)
            elif notes:
                await self._dm(record, seat, content="\n".join(notes)[:2000])
        await self._notify_turns(spec, record)

    async def _notify_turns(self, spec: GameSpec, record: GameRecord) -> None:
        """DM "your turn" to players who asked for it (``/games notify on``), once per stretch of turns.
        Who was reminded is kept in the store, so a restart never repeats a reminder."""
        store = self.bot.store
        to_act = spec.game.to_act(record.state) if record.status == "active" else ()
        for seat in record.seats:
            if seat.is_ai or seat.user_id is None:
                continue
            reminded = await store.delivery(record.id, seat.seat, "turn") == "1"
            if seat.seat not in to_act:
                if reminded:  # the stretch is over: remind again when it is their turn next
                    await store.set_delivery(record.id, seat.seat, "turn", "0")
                continue
            if reminded or not await store.notify_enabled(seat.user_id):
                continue
            await store.set_delivery(record.id, seat.seat, "turn", "1")  # first: at most once, even on a crash
            await self._dm(
                record,
                seat,
                content=f"⏰ Your turn in **{spec.title} #{record.id}**: {place_link(record)}",
            )

    # ------------------------------------------------------------------ acting

    async def act(self, interaction: discord.Interaction, game_id: int, action: str, version: int | None) -> Applied:
        applied = await self.tables.act(game_id, action, now=now_ts(), user_id=interaction.user.id, version=version)
        self._pending.setdefault(game_id, []).extend(applied.events)
        try:
            await self.publish(game_id, hold_private=True)  # sent after the answer, by guard()
        except discord.HTTPException as exc:
            log.warning("Game %s: board could not be posted after an action: %s", game_id, exc)
            raise GameError(
                "Your move was saved, but Discord refused the new board. "
                f"Use `/{applied.record.kind} board` to post it again."
            ) from exc
        return applied

    async def on_path(
        self,
        interaction: discord.Interaction,
        game_id: int,
        version: int,
        path: tuple[int, ...],
        *,
        in_picker: bool,
    ) -> None:
        """A board button, picker button or picker select was used: walk the menu, act at a leaf."""
        record = await self.tables.get(game_id)
        spec = self.tables.spec(record)
        seat = self.tables.seat_to_act(record, user_id=interaction.user.id, version=version)
        top = menus.top_labels(self._choice_lists(spec, record))
        node = menus.walk(top, spec.game.choices(record.state, seat), path)
        if node is None:
            raise GameError("That option is not yours to choose right now.")
        if isinstance(node, Choice):
            await interaction.response.defer()
            await self.act(interaction, game_id, node.action.encode(), version)
            if in_picker:
                await interaction.edit_original_response(content=f"✅ {node.label}", view=None)
            return
        content, ui = self._picker(record, node)
        if in_picker:
            await interaction.response.edit_message(content=content, view=ui)
        else:
            await interaction.response.send_message(content, view=ui, ephemeral=True)
            # Its items are DynamicItems, dispatched by custom id alone: discord.py needs no view object
            # for them. Stopping it drops the 15-minute timer discord.py starts for every ephemeral view,
            # which would otherwise keep a task alive per picker shown.
            ui.stop()

    def _picker(self, record: GameRecord, menu: menus.Menu) -> tuple[str, discord.ui.View]:
        ui = discord.ui.View(timeout=None)
        add_choices(ui, record, menu.path, [o.label for o in menu.options], max_buttons=PICKER_BUTTONS, rows=5)
        trail = format_seats(" → ".join(menu.trail), record.names)
        return f"**{trail}** — choose:", ui

    async def move(self, interaction: discord.Interaction, kind: str, text: str) -> None:
        """``/<game> move``: apply a typed action (or the label autocomplete showed) in this thread."""
        record = await self.game_here(interaction, kind)
        spec = self.tables.spec(record)
        seat = record.seat_of(interaction.user.id)
        label = text.strip()
        if seat is not None and record.status == "active":
            # Accept a readable label as well as the action text.
            wanted = text.strip().lower()
            for choice in spec.game.choices(record.state, seat):
                if wanted in (format_seats(choice.label, record.names).lower(), choice.action.encode()):
                    text, label = choice.action.encode(), format_seats(choice.label, record.names)
                    break
        await interaction.response.defer(ephemeral=True)
        await self.act(interaction, record.id, text, None)
        await interaction.followup.send(f"✅ {label}", ephemeral=True)

    async def autocomplete(self, interaction: discord.Interaction, kind: str, current: str) -> list[tuple[str, str]]:
        """The caller's legal actions as (label, action text), filtered by what they typed."""
        place = interaction.channel_id
        if place is None:
            return []
        game_id = await self.bot.store.game_in_place(place)
        if game_id is None:
            return []
        record = await self.tables.get(game_id)
        if record.kind != kind or record.status != "active":
            return []
        seat = record.seat_of(interaction.user.id)
        spec = self.tables.spec(record)
        if seat is None or record.seats[seat].resigned or seat not in spec.game.to_act(record.state):
            return []
        needle = current.strip().lower()
        out = []
        for choice in spec.game.choices(record.state, seat):
            label = format_seats(choice.label, record.names)
            value = choice.action.encode()
            if needle in label.lower() or needle in value:
                out.append((menus.clip(label, 100), value))
        return out[:25]

    async def game_here(self, interaction: discord.Interaction, kind: str | None = None) -> GameRecord:
        place = interaction.channel_id
        game_id = await self.bot.store.game_in_place(place) if place is not None else None
        if game_id is None:
            raise GameError("There is no game in progress here: use this in a game's thread.")
        record = await self.tables.get(game_id)
        if kind is not None and record.kind != kind:
            spec = self.tables.spec(record)
            raise GameError(f"This thread hosts {spec.title}: use `/{record.kind}` commands here.")
        return record

    async def show_hand(self, interaction: discord.Interaction, game_id: int) -> None:
        record = await self.tables.get(game_id)
        spec = self.tables.spec(record)
        seat = record.seat_of(interaction.user.id)
        if seat is None:
            raise GameError(f"You are not playing in {spec.title} #{game_id}, so you have no hand here.")
        await interaction.response.defer(ephemeral=True, thinking=True)
        payload = await self.private_payload(spec, record, seat)
        await interaction.followup.send(ephemeral=True, **payload)

    async def repost(self, interaction: discord.Interaction, kind: str) -> None:
        record = await self.game_here(interaction, kind)
        await interaction.response.defer(ephemeral=True)
        await self.publish(record.id)
        await interaction.followup.send("Board posted.", ephemeral=True)

    async def resign(self, interaction: discord.Interaction, kind: str) -> None:
        record = await self.game_here(interaction, kind)
        await interaction.response.defer(ephemeral=True)
        record, ended = await self.tables.resign(record.id, interaction.user.id, now=now_ts())
        name = record.seats[record.seat_of(interaction.user.id) or 0].name
        place = self.bot.get_partial_messageable(record.place_id, guild_id=record.guild_id)
        if ended:
            await self.end_without_play(record, f"🏳️ {name} resigned.")
        else:
            await place.send(f"🏳️ {name} resigned; the AI plays their seat for the rest of the game.")
            self.kick_ai(record.id)
        await interaction.followup.send("You resigned.", ephemeral=True)

    async def end_without_play(self, record: GameRecord, note: str) -> None:
        """Announce a game that ended by resignation or abandonment, and strip its buttons."""
        spec = self.tables.spec(record)
        place = self.bot.get_partial_messageable(record.place_id, guild_id=record.guild_id)
        await place.send(note)
        if record.message_id is not None:
            await self._strip(place, record.message_id)
        await self._post_final(spec, record, place)

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
                if self.bot.config.ai_delay > 0:
                    await asyncio.sleep(self.bot.config.ai_delay)
                for _ in range(AI_BATCH):
                    record = await self.tables.get(game_id)
                    seats = self._ai_seats_to_act(spec, record) if record.status == "active" else []
                    if not seats:
                        break
                    seat = seats[0]
                    rng = spec.game.rng(record.state)
                    action = spec.player.choose(spec.game, record.state, seat, rng)
                    try:
                        applied = await self.tables.act(
                            game_id, action.encode(), now=now_ts(), seat=seat, version=record.version
                        )
                    except GameError as exc:
                        # A human acted at the same moment (simultaneous choices): look again.
                        log.info("Game %s: AI move %s not applied: %s", game_id, action, exc)
                        continue
                    self._pending.setdefault(game_id, []).extend(applied.events)
                await self.publish(game_id)
        except Exception:
            log.exception("Game %s: the AI runner failed; it restarts on the next action or restart", game_id)
        finally:
            self._ai_tasks.pop(game_id, None)

    @staticmethod
    def _ai_seats_to_act(spec: GameSpec, record: GameRecord) -> list[int]:
        return [s for s in spec.game.to_act(record.state) if record.seats[s].is_ai]

    async def resume(self) -> None:
        """After a (re)start: let AI seats whose turn it is carry on."""
        await self.bot.wait_until_ready()
        for game_id in await self.bot.store.game_ids():
            self.kick_ai(game_id)
