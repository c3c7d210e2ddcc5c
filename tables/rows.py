"""Delivering each kind of outbox row (:class:`Rows`): what the delivery loop (:mod:`tables.delivery`) hands
over to the sender, the cogs' Discord adapter, row by row.

* A post goes where its game is played now, in its server's language; an older board overtaken by a newer
  one is posted as its lines only (nothing said is dropped), and the old board's buttons go as the new one
  is posted. A post that finds its thread deleted moves the game to its channel and is tried there.
* A member's private view is one direct message, edited in place; sent anew when they must decide and asked
  for reminders, when it is gone, or when Discord has used up its edits (older than an hour); a newer view
  queued behind it takes its notes.
* A lobby's or a tournament's edit waits for its message to be posted; an older edit of a message a newer
  one follows is skipped.
* A tournament's scheduled event is made once, and cancelled with the tournament.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import replace

from data.outbox import Entry
from data.store import GameRecord, Store
from games.i18n import T, localize
from tables import notices, outbox, words
from tables.authority import GameError
from tables.cache import GameCache
from tables.languages import Languages
from tables.outbox import Message
from tables.places import Places
from tables.sending import EditsUsedUp, Gone, Permanent, Sender, Transient, nonce

log = logging.getLogger("tables.delivery")

EVENT_STATUS = {"start": "active", "complete": "completed", "cancel": "cancelled"}
"""What each change of a tournament's scheduled event brings it to (:meth:`Rows.event`)."""


class Rows:
    """Delivers one outbox row of each kind through a sender, saying how it went: ``("done", result)``,
    ``("dropped", why)``; or raises what Discord refused (:class:`~tables.delivery.Transient`,
    :class:`~tables.delivery.Permanent`)."""

    def __init__(
        self,
        store: Store,
        cache: GameCache,
        languages: Languages,
        places: Places,
        now: Callable[[], float],
        lease: float = 30.0,
    ) -> None:
        self.store = store
        self.outbox = store.outbox
        self.cache = cache
        self.languages = languages
        self.places = places
        self.now = now
        self.started = now()
        self.orphaned_after = 2 * lease
        """How old a row another process wrote is when this one takes it over (its writer died, its lease
        ran out: :mod:`tables.delivery`)."""

    def tried(self, entry: Entry) -> float | None:
        """When a post may have been made already (``None``: it cannot have been): by a try that failed, by a
        process that died (this one's before a restart, or another whose rows it took over). A post made as an
        interaction's follow-up has no nonce: the sender looks for it before posting again."""
        taken_over = self.now() - entry.created_at >= self.orphaned_after
        return entry.created_at if entry.attempts or entry.created_at < self.started or taken_over else None

    async def here(self, entry: Entry) -> Entry:
        """The row with the link to where its game is played now in place of :data:`tables.words.HERE`."""
        content = entry.payload.get("message", {}).get("content", "")
        if words.HERE not in content:
            return entry
        message = {
            **entry.payload["message"],
            "content": words.linked(content, await self.cache.get(entry.game_id or 0)),
        }
        return replace(entry, payload={**entry.payload, "message": message})

    async def _language(self, user_id: int | None, game_id: int | None) -> str:
        """The language of a message to member ``user_id`` (``None``: in the place of game ``game_id``)."""
        if user_id is not None:
            return await self.languages.member(user_id)
        return await self.languages.server((await self.cache.get(game_id)).guild_id if game_id else None)

    async def post(self, entry: Entry, sender: Sender) -> tuple[str, str | None]:
        p = entry.payload
        message = Message.from_json(p["message"])
        if p["to"] == "channel":
            if p.get("result_of") is not None and (await self.cache.get(p["result_of"])).thread_id is None:
                return "dropped", "the game has no thread: its channel has the final message"
            message = message.written(await self.languages.server(p.get("guild")))
            message_id = await sender.post(
                p["channel"], p.get("guild"), message, nonce=nonce(entry), made_since=self.tried(entry)
            )
            if p.get("lobby") is not None:
                await self.store.lobbies.set_message(p["lobby"], message_id)
            if p.get("signup") is not None:
                await self.store.tournaments.set_message(p["signup"], message_id)
            return "done", str(message_id)
        record = await self.cache.get(entry.game_id or 0)
        board = p.get("board")
        strip = bool(p.get("strip") or p.get("strip_board"))
        later = [e for e in await self.outbox.later(entry, "post") if "board" in e.payload] if board is not None else []
        if later:
            # A newer board follows: what happened is posted, but not how the game stood (its image, its
            # buttons and its status lines would be stale). Whom it notified, the newer one does; the buttons
            # it would have taken from the board before it, the newer one takes.
            newer = later[0]
            notifies = sorted({*message.notifies, *newer.payload["message"]["notifies"]})
            payload = {**newer.payload, "message": {**newer.payload["message"], "notifies": notifies}}
            await self.outbox.replace_payload(newer.id, {**payload, "strip": strip or payload.get("strip", False)})
            kept = message.content.split("\n")[: -p.get("status", 0) or None]
            if not kept:
                return "dropped", f"overtaken by row {newer.id}"
            board, strip, message = None, False, Message("\n".join(kept))
        if record.thread_id is None and p.get("title"):
            content = f"{p['title']}\n{message.content}"
            message = Message(content, message.images, message.log, message.components, message.notifies)
        message_id = await self._posted(entry, sender, record, message, record.message_id if strip else None)
        if board is not None:
            await self.cache.set_place(record.id, message_id=message_id, board_turn=p.get("turn"))
        return "done", str(message_id)

    async def _posted(self, entry: Entry, sender: Sender, record: GameRecord, message: Message, old: int | None) -> int:
        """Post a message in the game's place, in its server's language (``old``: the message whose buttons go
        meanwhile); a thread found deleted moves the game to its channel, where the row is tried again."""
        message = message.written(await self.languages.server(record.guild_id))
        channel, since = record.place_id, self.tried(entry)
        try:
            posting = sender.post(channel, record.guild_id, message, nonce=nonce(entry), made_since=since)
            if old is None:
                return await posting
            message_id, _ = await asyncio.gather(posting, self._strip(sender, channel, old))
            return message_id
        except Gone:
            if record.thread_id is None:
                raise
            await self.places.lose_thread(record.thread_id, board=False)
            raise Transient("the game's thread is gone: posting in its channel instead") from None

    async def privates(self, entry: Entry, sender: Sender) -> tuple[str, str | None]:
        """Write what a step owes members privately (:func:`tables.notices.private`), closing this row in
        the same transaction: done once, whatever happens to the process."""
        record = await self.cache.get(entry.game_id or 0)
        notes = {int(p): lines for p, lines in entry.payload["notes"].items()}
        async with self.store.transaction() as db:
            owed = await notices.private(db, self.cache.spec(record), record, notes)
            # Written with the commit, in its trip on SQLite (as are the markers): the write lock is held
            # for the reads the views need, if any, and the commit.
            db.outbox.write_later(owed, now=self.now())
            db.outbox.settle_later(entry.id, "done", f"{len(owed)} rows", now=self.now())
        return "done", f"{len(owed)} rows"

    async def edit(self, entry: Entry, sender: Sender) -> tuple[str, str | None]:
        p = entry.payload
        if "live" in p:
            return await self._board(entry, sender)

        def target(payload: dict) -> tuple:
            return payload.get("lobby"), payload.get("tournament"), payload.get("message_id")

        if any(target(later.payload) == target(p) for later in await self.outbox.later(entry, "edit")):
            return "dropped", "a newer edit of this message follows"
        message = Message.from_json(p["message"])
        if p.get("tournament") is not None:
            tournament = await self.store.tournaments.load(p["tournament"])
            if tournament is None or tournament.message_id is None:
                if await self._waiting_for_post(f"tournament:{p['tournament']}"):
                    raise Transient("the sign-up message is not posted yet", 1.0)
                return "dropped", "the tournament has no sign-up message"
            channel, message_id = tournament.channel_id, tournament.message_id
            lang = await self.languages.server(tournament.guild_id)
        elif p.get("lobby") is not None:
            lobby = await self.store.lobbies.load(p["lobby"])
            if lobby is None or lobby.message_id is None:
                if await self._waiting_for_lobby(p["lobby"]):
                    raise Transient("the lobby's message is not posted yet", 1.0)
                return "dropped", "the lobby has no message"
            channel, message_id = lobby.channel_id, lobby.message_id
            lang = await self.languages.server(lobby.guild_id)
        else:
            channel, message_id = p["channel"], p["message_id"]
            lang = await self._language(p.get("user"), entry.game_id)
        message = message.written(lang)
        try:
            if p.get("user") is not None:
                await sender.edit_direct(p["user"], message_id, message)
            else:
                await sender.edit(channel, message_id, message)
        except Gone:
            return "dropped", "the message is gone"
        except EditsUsedUp:
            return "dropped", "the message is older than an hour and its edits are used up"
        return "done", str(message_id)

    async def _board(self, entry: Entry, sender: Sender) -> tuple[str, str | None]:
        """An update of a board in place (:func:`tables.outbox.edit_board`). A newer update of the same board
        queued behind it takes its lines (and its image, if the newer keeps the old one). A board that is not
        the game's latest message any more (overtaken by a newer one before it was posted) gets nothing: the
        lines the update adds are posted on their own. A board that cannot be edited (deleted, or older than
        an hour with Discord's edits used up) is posted anew, if the update keeps it live, else its lines."""
        p = entry.payload
        newer = next((e for e in await self.outbox.later(entry, "edit") if e.payload.get("live") == p["live"]), None)
        if newer is not None:
            payload = {**newer.payload, "added": [*p["added"], *newer.payload["added"]]}
            if payload["keep_image"] and not p["keep_image"]:  # the newer keeps the image this one would show
                images = p["message"].get("images", [])
                payload |= {"keep_image": False, "message": {**payload["message"], "images": images}}
            await self.outbox.replace_payload(newer.id, payload)
            return "dropped", f"overtaken by row {newer.id}"
        record = await self.cache.get(entry.game_id or 0)
        message = Message.from_json(p["message"])
        if record.board_turn == p["live"] and record.message_id is not None:
            written = message.written(await self.languages.server(record.guild_id))
            try:
                await sender.edit(record.place_id, record.message_id, written, keep_images=p["keep_image"])
                return "done", str(record.message_id)
            except (Gone, EditsUsedUp):
                if not p["keep_image"]:  # the turn goes on: its board, posted anew
                    message_id = await self._posted(entry, sender, record, message, None)
                    await self.cache.set_place(record.id, message_id=message_id, board_turn=p["live"])
                    return "done", str(message_id)
        if not p["added"]:
            return "dropped", "its board was overtaken, and it adds no line"
        return "done", str(await self._posted(entry, sender, record, Message("\n".join(p["added"])), None))

    async def dm(self, entry: Entry, sender: Sender) -> tuple[str, str | None]:
        p = entry.payload
        message = Message.from_json(p["message"]).written(await self.languages.member(p["user"]))
        return "done", str(await sender.direct(p["user"], message, nonce=nonce(entry)))

    async def hand(self, entry: Entry, sender: Sender) -> tuple[str, str | None]:
        """A member's one private message of a game: edited in place, or sent anew when they must decide and
        asked for reminders (``fresh``) or when it is gone. A newer view queued behind it takes its notes."""
        p = entry.payload
        later = await self.outbox.later(entry, "hand")
        if later:
            newer = later[0]
            await self.outbox.replace_payload(
                newer.id,
                {
                    **newer.payload,
                    "notes": [*p["notes"], *newer.payload["notes"]],
                    "fresh": p["fresh"] or newer.payload["fresh"],
                },
            )
            return "dropped", f"overtaken by row {newer.id}"
        game_id, player, user = entry.game_id or 0, p["player"], p["user"]
        message = Message.from_json(p["message"])
        head = [f"• {note}" for note in p["notes"]]
        if p["fresh"]:
            head.insert(0, "⏰ " + T("Your turn: {link}", link=words.place_link(await self.cache.get(game_id))))
        if head:
            content = "\n".join(head) + "\n" + message.content
            message = Message(content, message.images)
        message = message.written(await self.languages.member(user))
        kept = await self.outbox.marker(game_id, player, "hand_message")
        if kept is not None and not p["fresh"]:
            try:
                await sender.edit_direct(user, int(kept), message)
                return "done", kept
            except (Gone, EditsUsedUp):
                pass  # deleted, or no longer editable (older than an hour: Discord's edits used up): a new one
        message_id = await sender.direct(user, message, nonce=nonce(entry))
        await self.outbox.set_marker(game_id, player, "hand_message", str(message_id))
        return "done", str(message_id)

    async def thread(self, entry: Entry, sender: Sender) -> tuple[str, str | None]:
        p = entry.payload
        game_id = entry.game_id or 0
        origin = None
        if p.get("lobby") is not None:
            lobby = await self.store.lobbies.load(p["lobby"])
            origin = lobby.message_id if lobby is not None else None
            if origin is None and await self._waiting_for_lobby(p["lobby"]):
                raise Transient("the lobby's message is not posted yet", 1.0)
        elif p.get("entry") is not None:
            # The announcement before this row in its lane was delivered (or given up) already.
            result = await self.outbox.result(p["entry"])
            origin = int(result) if result else None
        shared = any(g != game_id for g in await self.store.games.in_place(p["channel"]))
        record = await self.cache.get(game_id)
        name = localize(p["name"], await self.languages.server(record.guild_id))[:100]
        # A thread has no nonce: a try after one whose answer was lost looks for the thread it may have made.
        since = entry.created_at if entry.attempts else None
        thread_id = await sender.thread(p["channel"], name, message_id=origin, shared=shared, made_since=since)
        if thread_id is None:
            return "done", None
        await self.cache.set_place(game_id, thread_id=thread_id)
        return "done", str(thread_id)

    async def archive(self, entry: Entry, sender: Sender) -> tuple[str, str | None]:
        record = await self.cache.get(entry.game_id or 0)
        if record.thread_id is None:
            return "dropped", "the game has no thread"
        try:
            await sender.archive(record.thread_id)
        except Gone:
            return "dropped", "the thread is gone"
        return "done", str(record.thread_id)

    async def _waiting_for_lobby(self, lobby_id: int) -> bool:
        """Whether the lobby's message is still owed (its post has not been delivered or given up yet)."""
        return await self._waiting_for_post(outbox.lobby_lane(lobby_id))

    async def _waiting_for_post(self, lane: str) -> bool:
        """Whether a post of ``lane`` is still owed (not delivered or given up yet)."""
        pending = await self.store.outbox.pending(lane=lane)
        return any(e.kind == "post" for e in pending)

    async def event(self, entry: Entry, sender: Sender) -> tuple[str, str | None]:
        """A tournament's Discord scheduled event: made for its start (once: a try after one whose answer was
        lost finds the event it made), started when the tournament begins, completed when it ends, or cancelled
        with it."""
        p = entry.payload
        tournament = await self.store.tournaments.load(p["tournament"])
        if tournament is None:
            return "dropped", "the tournament is gone"
        if p["op"] in EVENT_STATUS:
            if tournament.event_id is None:
                return "dropped", "the tournament has no event"
            try:
                await sender.event_status(p["guild"], tournament.event_id, EVENT_STATUS[p["op"]])
            except Gone:
                return "dropped", "the event is gone"
            return "done", str(tournament.event_id)
        if tournament.status != "open":
            return "dropped", "the tournament is no longer signing up"
        lang = await self.languages.server(p["guild"])
        name, about = localize(p["name"], lang)[:100], localize(p["description"], lang)[:1000]
        event_id = await sender.scheduled_event(
            p["guild"], name, p["start"], p["end"], channel_id=p["channel"], description=about, again=entry.attempts > 0
        )
        await self.store.tournaments.set_event(tournament.id, event_id)
        return "done", str(event_id)

    async def _strip(self, sender: Sender, channel: int, message_id: int) -> None:
        """Take an old board's buttons away; a failure costs only a stale button, which says so when used."""
        try:
            await sender.strip(channel, message_id)
        except (Transient, Permanent) as exc:
            log.info("Could not remove the buttons of message %s: %s", message_id, exc)

    async def closed_dms(self, game_id: int, user_id: int) -> bool:
        """Say once in the game's thread that a player's DMs are closed, pointing at **My hand**; whether it is
        owed now."""
        try:
            record = await self.cache.get(game_id)
        except GameError:
            return False
        player = record.seat_of(user_id)
        if player is None or await self.outbox.marker(game_id, player, "dm_closed") is not None:
            return False
        log.info("Game %s: %s has closed DMs", game_id, user_id)
        text = T(
            "{member} I can't send you direct messages, so use the **My hand** button or the `hand` command here "
            "for your private view.",
            member=words.mention(user_id),
        )
        async with self.store.transaction() as db:
            await db.outbox.set_marker(game_id, player, "dm_closed", "50007")
            await db.outbox.add([outbox.to_place(game_id, Message(text, notifies=[user_id]))], now=self.now())
        return True
