"""The delivery loop: hands what the outbox holds to Discord, and marks a row done only once Discord
accepted it.

The loop takes the oldest pending row of each lane that is due (boards a member waits for first; private
views and followers' boards wait while posts to threads are in flight, so that they never slow the next
board), claims it for a while (so no other process delivers it too) and delivers it through a :class:`Sender`, the cogs'
Discord adapter, which raises :class:`Transient` or :class:`Permanent` for what Discord refused. The rows an
action has just committed that head their lanes, its board among them, start at once (:meth:`Delivery.begin`),
without waiting for the loop to look.

* **Transient** failures (5xx, 429 with its retry-after, time-outs) are tried again after a growing pause
  (:data:`RETRY`), also across a restart; a restart, or a player asking for the board again, tries at
  once.
* **Permanent** ones are handled once and visibly: closed direct messages (50007) are said once in the
  game's thread, which points at **My hand**; a deleted thread moves the game to its channel, which says
  so; anything else is logged with the row, which is kept as ``failed``.
* Rows a later row of their lane says better are not delivered as they were: an older board overtaken
  by a newer one is posted as its lines only (nothing said is dropped), an older private view's notes go
  into the newer one, an older lobby edit is skipped.

What the interaction that caused a row may deliver as its answer (:meth:`Delivery.answer`) goes the same
way, through a sender that answers the interaction.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Protocol

from data.outbox import Entry
from games.i18n import T, localize
from tables import notices, outbox, words
from tables.authority import GameError
from tables.outbox import Message
from tables.pacer import Pacer

if TYPE_CHECKING:
    from tables.service import Tables

log = logging.getLogger("tables.delivery")

RETRY = (0.0, 10.0, 30.0, 60.0, 300.0)
"""Seconds before each new try of a row that failed for a passing reason (then every 5 minutes)."""
CLAIM = 60.0
"""Seconds a process holds a row it is delivering before another may take it (a process that died)."""
LANES_AT_ONCE = 8
"""Lanes the loop delivers at the same time."""
POSTS_AT_ONCE = 64
"""Lanes delivered at the same time counting those an action's commit began (:meth:`Delivery.begin`): the
posts members wait for do not wait for the loop's lanes (the render pool queues their drawing, boards
first), so in a burst every board is queued for drawing as soon as its action is committed."""
CLOSED_KEPT = 1024
"""Rows this process closed lately, remembered: one read as pending just before it closed is not delivered
again (on a database of its own)."""
BROKEN_AFTER = 8
"""Tries of a row whose delivery fails in an unexpected way (a bug) before it is given up as failed."""
KEEP_CLOSED = 86400.0
"""Seconds delivered and failed rows are kept (for the record) before they are purged."""


class Transient(Exception):
    """Discord could not take it now; ``retry_after`` says when to try again, if it said."""

    def __init__(self, reason: str, retry_after: float | None = None) -> None:
        super().__init__(reason)
        self.retry_after = retry_after


class Permanent(Exception):
    """Discord will never take it as it is (``code``: Discord's error code)."""

    def __init__(self, reason: str, code: int = 0) -> None:
        super().__init__(reason)
        self.code = code


class Gone(Permanent):
    """The channel, thread or message no longer exists."""


class ClosedDms(Permanent):
    """The member does not accept direct messages from the bot."""


class EditsUsedUp(Permanent):
    """Discord allows only so many edits of messages older than an hour (30046): this one is not edited."""


def nonce(entry: Entry) -> str:
    """The nonce of the message a row creates (Discord allows 25 characters): the same for every try of the
    row, and no other row's, on any database (its id and when it was written)."""
    return f"{entry.id:x}.{round(entry.created_at * 1000):x}"


class Sender(Protocol):
    """What the delivery loop needs of Discord. Each call raises :class:`Transient` or :class:`Permanent`
    when Discord refuses; images are drawn by the sender.

    A message is created exactly once: it carries the row's :func:`nonce`, which Discord enforces (a second
    create with it, within a few minutes, returns the first message and creates none), so a try after one
    whose answer was lost (a time-out, a 5xx after the write, the process dying right after the send) gives
    the message the first try made."""

    async def post(self, channel_id: int, guild_id: int | None, message: Message, *, nonce: str) -> int:
        """Post in a channel or thread; the new message's id."""
        ...

    async def edit(self, channel_id: int, message_id: int, message: Message) -> None: ...

    async def direct(self, user_id: int, message: Message, *, nonce: str) -> int:
        """A direct message; its id."""
        ...

    async def edit_direct(self, user_id: int, message_id: int, message: Message) -> None: ...

    async def thread(
        self, channel_id: int, name: str, *, message_id: int | None, shared: bool, made_since: float | None
    ) -> int | None:
        """Open a thread on a message (or in a channel); its id. ``None``: the game is played in the channel
        (no permission to open threads, or the channel is a thread: unless ``shared`` with another game,
        the game is played in it). With ``made_since`` (a try after one that failed), the thread of that
        name the bot opened there since then, if there is one, instead of a second."""
        ...

    async def archive(self, thread_id: int) -> None: ...

    async def strip(self, channel_id: int, message_id: int) -> None:
        """Remove a message's components (an old board's buttons)."""
        ...


class Delivery:
    """Delivers the outbox of this process (one per service)."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.outbox = tables.store.outbox
        self.sender: Sender | None = None
        self._lanes: dict[str, asyncio.Task[None]] = {}
        self._held: dict[int, int] = {}
        """The rows this process is delivering now, with their priorities."""
        self._closed: deque[int] = deque(maxlen=CLOSED_KEPT)
        """The rows this process closed lately (on a database of its own, only it closes rows)."""
        self._pacer = Pacer(self._look, "delivery")
        self._purged = 0.0
        self.listeners: list[Callable[[], None]] = []
        """Called after each row is settled (delivered, dropped or failed): ``play`` publishes its page then."""

    def start(self) -> None:
        if self.sender is not None:
            self._pacer.wake()

    async def stop(self) -> None:
        await self._pacer.stop()
        lanes = list(self._lanes.values())
        for task in lanes:
            task.cancel()
        await asyncio.gather(*lanes, return_exceptions=True)

    def wake(self) -> None:
        """Something new is owed: look at the outbox now."""
        if self.sender is not None:
            self._pacer.wake()

    @property
    def posting(self) -> bool:
        """Whether a row members wait for (a post in a game's thread, the board among them) is being delivered."""
        return any(priority <= outbox.THREAD for priority in self._held.values())

    def begin(self, written: Sequence[Entry]) -> bool:
        """Start delivering the rows a change has just written and committed that members wait for (posts in
        its thread, the board among them) now, without waiting for the loop to look for them or for one of
        its :data:`LANES_AT_ONCE` lanes: those that head their lanes and are due (up to
        :data:`POSTS_AT_ONCE` lanes in all). Whether it began any: then the loop looks again once
        they are out (the rest waits for them anyway: boards first), else it must be woken (:meth:`wake`)."""
        if self.sender is None:
            return False
        began = False
        now = self.tables.now()
        for entry in written:
            if len(self._lanes) >= POSTS_AT_ONCE:
                break
            if entry.head and entry.priority <= outbox.THREAD and entry.due_at <= now and entry.lane not in self._lanes:
                self._held[entry.id] = entry.priority  # boards first: the loop holds private rows back meanwhile
                self._lanes[entry.lane] = asyncio.get_running_loop().create_task(
                    self._deliver_claimed(entry, claim=self.tables.store.shared), name=f"deliver-{entry.id}"
                )
                began = True
        return began

    # ------------------------------------------------------------------ the loop

    async def _look(self) -> float | None:
        """Start delivering every lane whose next row is due (up to :data:`LANES_AT_ONCE` lanes at once);
        the seconds until the next row falls due."""
        now = self.tables.now()
        room = LANES_AT_ONCE - len(self._lanes)
        orphaned = now - 2 * self.tables.lease  # rows a process that died wrote are taken over then
        posting = self.posting
        # The rows this process is delivering are still pending (on a database of its own they are claimed
        # in memory only): left out, so that they neither crowd out the rows no lane delivers yet nor are
        # read again for nothing.
        heads = await self.outbox.due(now=now, limit=room, orphaned=orphaned, besides=self._held) if room > 0 else []
        for entry in heads:
            if len(self._lanes) >= LANES_AT_ONCE:
                break
            if entry.priority > outbox.THREAD and posting:
                break  # boards first: private views and followers wait until the posts in flight are out
            posting = posting or entry.priority <= outbox.THREAD
            if entry.lane not in self._lanes and await self._claim(entry):
                self._lanes[entry.lane] = asyncio.get_running_loop().create_task(
                    self._deliver_claimed(entry), name=f"deliver-{entry.id}"
                )
        if now - self._purged > KEEP_CLOSED / 24:
            self._purged = now
            await self.outbox.purge(before=now - KEEP_CLOSED)
        self.tables.collector.tick()  # a full garbage collection, if one is due, between answers
        if self._lanes:
            return None  # a lane being delivered wakes the loop when it is done: it looks again then
        due = await self.outbox.next_due()
        # A row claimed by a process that died is taken over when its claim runs out, and rows it wrote at
        # the lease sweeps (tables.runner).
        return None if due is None else max(0.0, due - now) or None

    async def _claim(self, entry: Entry) -> bool:
        """Take a row for delivery by this process: in memory, and on a database other processes share, in
        the database too (so that no other process delivers it meanwhile)."""
        if entry.id in self._held:
            return False
        self._held[entry.id] = entry.priority
        if self.tables.store.shared:
            taken = await self._claim_shared(entry)
        else:  # one process: a row it has not closed since reading it is its alone
            taken = entry.id not in self._closed
        if not taken:
            self._held.pop(entry.id, None)
        return taken

    async def _claim_shared(self, entry: Entry) -> bool:
        """Claim a row in the database other processes share, so that none of them delivers it meanwhile."""
        now = self.tables.now()
        return await self.outbox.claim(entry.id, self.tables.runner_name, until=now + CLAIM, now=now)

    async def _deliver_claimed(self, entry: Entry, *, claim: bool = False) -> None:
        """Deliver a row this process holds (``claim``: once claimed in the shared database), then free its
        lane and look again."""
        try:
            assert self.sender is not None
            if not claim or await self._claim_shared(entry):
                await self.deliver(entry, self.sender)
        finally:
            self._held.pop(entry.id, None)
            self._lanes.pop(entry.lane, None)
            self._pacer.wake()

    async def answer(self, entry_id: int, sender: Sender) -> bool:
        """Deliver row ``entry_id`` through ``sender`` (the interaction that caused it answering with it), if
        it is the next of its lane; whether it was delivered. If not, the loop delivers it, in its turn."""
        entry = await self.outbox.get(entry_id)
        if entry is None or entry.status != "pending":
            return False
        if not await self.outbox.first(entry) or not await self._claim(entry):
            await self.outbox.make_due(entry.id, now=self.tables.now())
            self.wake()
            return False
        try:
            delivered = await self.deliver(entry, sender)
        finally:
            self._held.pop(entry.id, None)
        self.wake()
        return delivered

    async def deliver(self, entry: Entry, sender: Sender) -> bool:
        """Deliver one claimed row and record how it went; whether Discord accepted it."""
        try:
            if entry.game_id is not None:
                entry = await self._here(entry)
            status, result = await getattr(self, f"_{entry.kind}")(entry, sender)
        except Transient as exc:
            await self._retry(entry, str(exc), exc.retry_after)
            return False
        except Permanent as exc:
            await self._permanent(entry, exc)
            return False
        except Exception as exc:
            log.exception("Outbox row %s (%s, game %s) could not be delivered", entry.id, entry.kind, entry.game_id)
            if entry.attempts + 1 >= BROKEN_AFTER:
                await self._settle(entry, "failed", f"{type(exc).__name__}: {exc}")
            else:
                await self._retry(entry, f"{type(exc).__name__}: {exc}", None)
            return False
        await self._settle(entry, status, result)
        return status == "done"

    async def _settle(self, entry: Entry, status: str, result: str | None) -> None:
        self._closed.append(entry.id)
        await self.outbox.settle(entry.id, status, result, now=self.tables.now())
        for listener in self.listeners:
            listener()

    async def _here(self, entry: Entry) -> Entry:
        """The row with the link to where its game is played now in place of :data:`tables.words.HERE`."""
        content = entry.payload.get("message", {}).get("content", "")
        if words.HERE not in content:
            return entry
        message = {
            **entry.payload["message"],
            "content": words.linked(content, await self.tables.get(entry.game_id or 0)),
        }
        return replace(entry, payload={**entry.payload, "message": message})

    async def _language(self, user_id: int | None, game_id: int | None) -> str:
        """The language of a message to member ``user_id`` (``None``: in the place of game ``game_id``)."""
        if user_id is not None:
            return await self.tables.member_language(user_id)
        return await self.tables.guild_language((await self.tables.get(game_id)).guild_id if game_id else None)

    async def _retry(self, entry: Entry, reason: str, after: float | None) -> None:
        delay = max(RETRY[min(entry.attempts, len(RETRY) - 1)], after or 0.0)
        log.info(
            "Outbox row %s (%s, game %s): %s; trying again in %.0f s",
            entry.id,
            entry.kind,
            entry.game_id,
            reason,
            delay,
        )
        await self.outbox.retry(entry.id, due_at=self.tables.now() + delay, error=reason[:300])

    # ------------------------------------------------------------------ the kinds of rows

    async def _post(self, entry: Entry, sender: Sender) -> tuple[str, str | None]:
        p = entry.payload
        message = Message.from_json(p["message"])
        if p["to"] == "channel":
            if p.get("result_of") is not None and (await self.tables.get(p["result_of"])).thread_id is None:
                return "dropped", "the game has no thread: its channel has the final message"
            message = message.written(await self.tables.guild_language(p.get("guild")))
            message_id = await sender.post(p["channel"], p.get("guild"), message, nonce=nonce(entry))
            if p.get("lobby") is not None:
                await self.tables.store.lobbies.set_message(p["lobby"], message_id)
            return "done", str(message_id)
        record = await self.tables.get(entry.game_id or 0)
        channel = record.place_id
        board = p.get("board")
        later = [e for e in await self.outbox.later(entry, "post") if "board" in e.payload] if board is not None else []
        if later:
            # A newer board follows: what happened is posted, but not how the game stood (its image, its
            # buttons and its status lines would be stale). Whom it notified, the newer one does.
            newer = later[0]
            notifies = sorted({*message.notifies, *newer.payload["message"]["notifies"]})
            await self.outbox.replace_payload(
                newer.id, {**newer.payload, "message": {**newer.payload["message"], "notifies": notifies}}
            )
            kept = message.content.split("\n")[: -p.get("status", 0) or None]
            if not kept:
                return "dropped", f"overtaken by row {newer.id}"
            board, message = None, Message("\n".join(kept))
        if record.thread_id is None and p.get("title"):
            content = f"{p['title']}\n{message.content}"
            message = Message(content, message.images, message.log, message.components, message.notifies)
        old = record.message_id if board is not None or p.get("strip_board") else None
        message = message.written(await self.tables.guild_language(record.guild_id))
        try:
            if old is None:
                message_id = await sender.post(channel, record.guild_id, message, nonce=nonce(entry))
            else:  # the old board's buttons go while the new one (or the final message) is posted
                message_id, _ = await asyncio.gather(
                    sender.post(channel, record.guild_id, message, nonce=nonce(entry)),
                    self._strip(sender, channel, old),
                )
        except Gone:
            if record.thread_id is None:
                raise
            await self.tables.lose_thread(record.thread_id, board=False)
            raise Transient("the game's thread is gone: posting in its channel instead") from None
        if board is not None:
            await self.tables.set_place(record.id, message_id=message_id)
        return "done", str(message_id)

    async def _privates(self, entry: Entry, sender: Sender) -> tuple[str, str | None]:
        """Write what a step owes members privately (:func:`tables.notices.private`), closing this row in
        the same transaction: done once, whatever happens to the process."""
        record = await self.tables.get(entry.game_id or 0)
        notes = {int(p): lines for p, lines in entry.payload["notes"].items()}
        async with self.tables.store.transaction() as db:
            owed = await notices.private(db, self.tables.spec(record), record, notes)
            # Written with the commit, in its trip on SQLite (as are the markers): the write lock is held
            # for the reads the views need, if any, and the commit.
            db.outbox.write_later(owed, now=self.tables.now())
            db.outbox.settle_later(entry.id, "done", f"{len(owed)} rows", now=self.tables.now())
        return "done", f"{len(owed)} rows"

    async def _edit(self, entry: Entry, sender: Sender) -> tuple[str, str | None]:
        p = entry.payload

        def target(payload: dict) -> tuple:
            return payload.get("lobby"), payload.get("message_id")

        if any(target(later.payload) == target(p) for later in await self.outbox.later(entry, "edit")):
            return "dropped", "a newer edit of this message follows"
        message = Message.from_json(p["message"])
        if p.get("lobby") is not None:
            lobby = await self.tables.store.lobbies.load(p["lobby"])
            if lobby is None or lobby.message_id is None:
                if await self._waiting_for_lobby(p["lobby"]):
                    raise Transient("the lobby's message is not posted yet", 1.0)
                return "dropped", "the lobby has no message"
            channel, message_id = lobby.channel_id, lobby.message_id
            lang = await self.tables.guild_language(lobby.guild_id)
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

    async def _dm(self, entry: Entry, sender: Sender) -> tuple[str, str | None]:
        p = entry.payload
        message = Message.from_json(p["message"]).written(await self.tables.member_language(p["user"]))
        return "done", str(await sender.direct(p["user"], message, nonce=nonce(entry)))

    async def _hand(self, entry: Entry, sender: Sender) -> tuple[str, str | None]:
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
            head.insert(0, "⏰ " + T("Your turn: {link}", link=words.place_link(await self.tables.get(game_id))))
        if head:
            content = "\n".join(head) + "\n" + message.content
            message = Message(content, message.images)
        message = message.written(await self.tables.member_language(user))
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

    async def _thread(self, entry: Entry, sender: Sender) -> tuple[str, str | None]:
        p = entry.payload
        game_id = entry.game_id or 0
        origin = None
        if p.get("lobby") is not None:
            lobby = await self.tables.store.lobbies.load(p["lobby"])
            origin = lobby.message_id if lobby is not None else None
            if origin is None and await self._waiting_for_lobby(p["lobby"]):
                raise Transient("the lobby's message is not posted yet", 1.0)
        elif p.get("entry") is not None:
            # The announcement before this row in its lane was delivered (or given up) already.
            result = await self.outbox.result(p["entry"])
            origin = int(result) if result else None
        shared = any(g != game_id for g in await self.tables.store.games.in_place(p["channel"]))
        record = await self.tables.get(game_id)
        name = localize(p["name"], await self.tables.guild_language(record.guild_id))[:100]
        # A thread has no nonce: a try after one whose answer was lost looks for the thread it may have made.
        since = entry.created_at if entry.attempts else None
        thread_id = await sender.thread(p["channel"], name, message_id=origin, shared=shared, made_since=since)
        if thread_id is None:
            return "done", None
        await self.tables.set_place(game_id, thread_id=thread_id)
        return "done", str(thread_id)

    async def _archive(self, entry: Entry, sender: Sender) -> tuple[str, str | None]:
        record = await self.tables.get(entry.game_id or 0)
        if record.thread_id is None:
            return "dropped", "the game has no thread"
        try:
            await sender.archive(record.thread_id)
        except Gone:
            return "dropped", "the thread is gone"
        return "done", str(record.thread_id)

    # ------------------------------------------------------------------ failures

    async def _waiting_for_lobby(self, lobby_id: int) -> bool:
        """Whether the lobby's message is still owed (its post has not been delivered or given up yet)."""
        pending = await self.tables.store.outbox.pending(lane=outbox.lobby_lane(lobby_id))
        return any(e.kind == "post" for e in pending)

    async def _strip(self, sender: Sender, channel: int, message_id: int) -> None:
        """Take an old board's buttons away; a failure costs only a stale button, which says so when used."""
        try:
            await sender.strip(channel, message_id)
        except (Transient, Permanent) as exc:
            log.info("Could not remove the buttons of message %s: %s", message_id, exc)

    async def _permanent(self, entry: Entry, exc: Permanent) -> None:
        await self._settle(entry, "failed", f"{type(exc).__name__} {exc.code}: {exc}"[:300])
        if isinstance(exc, ClosedDms) and entry.game_id is not None:
            await self._closed_dms(entry.game_id, entry.payload["user"])
            return
        log.warning("Outbox row %s (%s, game %s) cannot be delivered: %s", entry.id, entry.kind, entry.game_id, exc)

    async def _closed_dms(self, game_id: int, user_id: int) -> None:
        """Say once in the game's thread that a player's DMs are closed, pointing at **My hand**."""
        try:
            record = await self.tables.get(game_id)
        except GameError:
            return
        player = record.seat_of(user_id)
        if player is None or await self.outbox.marker(game_id, player, "dm_closed") is not None:
            return
        log.info("Game %s: %s has closed DMs", game_id, user_id)
        text = T(
            "{member} I can't send you direct messages, so use the **My hand** button or the `hand` command here "
            "for your private view.",
            member=words.mention(user_id),
        )
        async with self.tables.store.transaction() as db:
            await db.outbox.set_marker(game_id, player, "dm_closed", "50007")
            await db.outbox.add([outbox.to_place(game_id, Message(text, notifies=[user_id]))], now=self.tables.now())
        self.wake()
