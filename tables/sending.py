"""What the delivery needs of Discord (:class:`Sender`, which the cogs implement), how Discord's refusals reach
it (:class:`Transient`: tried again; :class:`Permanent`: handled once), and the nonce that makes a message
created once (:func:`nonce`)."""

from __future__ import annotations

from typing import Protocol

from data.outbox import Entry
from tables.outbox import Message


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

    async def post(
        self, channel_id: int, guild_id: int | None, message: Message, *, nonce: str, made_since: float | None = None
    ) -> int:
        """Post in a channel or thread; the new message's id. It may be made as the follow-up of an interaction
        there (outside Discord's global limit), which has no nonce: with ``made_since`` (a try after one that
        may have made it), the same message the bot posted there since then, if there is one, instead of a
        second."""
        ...

    async def edit(self, channel_id: int, message_id: int, message: Message, *, keep_images: bool = False) -> None:
        """Edit a message to ``message`` (``keep_images``: its attachments stay as they are)."""

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

    async def scheduled_event(
        self, guild_id: int, name: str, start: float, end: float, *, channel_id: int, description: str, again: bool
    ) -> int:
        """A Discord scheduled event of the server (an external one, whose place is the channel); its id. With
        ``again`` (a try after one that failed), the event of that name and start the bot made, if there is
        one, instead of a second."""
        ...

    async def event_status(self, guild_id: int, event_id: int, status: str) -> None:
        """Bring a scheduled event to ``status``: ``active`` (the tournament began), ``completed`` (it ended) or
        ``cancelled`` (one that already began ends instead: Discord cancels only a scheduled one)."""
        ...
