"""What the bot owes, as data: the messages the table service writes into the outbox in the transaction of
the change that causes them (:mod:`data.outbox`), and that the delivery loop hands to Discord.

A message is text, images to draw (a renderer, a view, names: drawn only at delivery), the game's log, the
persistent components it carries, and the members it *notifies* (decided by :mod:`tables.attention`,
never by its text). Nothing here is Discord: the cogs turn these values into ``discord`` calls.

Lanes keep order where it matters: a game's thread gets its posts in order (``game:N``), each member gets
their private messages of a game in order (``dm:N:P``), a lobby's message its edits in order
(``lobby:N``); between lanes, boards that a member waits for go first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from data.outbox import Owed
from games.i18n import ENGLISH, localize, localize_tree

# Priorities: lower goes first between lanes.
WAITED_FOR = 0
"""A board after which a member must decide: someone is waiting for it."""
THREAD = 1
"""Other posts in a game's thread or channel, lobbies."""
PRIVATE = 2
"""Private views, notes and reminders by DM."""
FOLLOWERS = 3
"""Boards for members following a game."""
HOUSEKEEPING = 4
"""Archiving threads."""

CONTENT_LIMIT = 2000
"""Discord's limit for a message's content."""
ANSWER_GRACE = 10.0
"""Seconds the interaction that caused an entry has to deliver it as its answer, before the delivery loop
posts it the usual way."""


@dataclass(frozen=True, slots=True)
class Image:
    """An image to draw at delivery: ``render`` (``board``, ``final`` or ``hand``) of game ``kind`` for
    ``view`` with the seats' ``names``, in the language ``locale``; ``alt`` is its description for screen
    readers."""

    render: str
    kind: str
    view: dict[str, Any]
    names: list[str]
    alt: str
    file: str
    locale: str = ENGLISH


@dataclass(frozen=True, slots=True)
class Message:
    """A message to post or an edit to make."""

    content: str = ""
    images: list[Image] = field(default_factory=list)
    log: int | None = None
    """Attach the verifiable action log of this game."""
    components: list[dict[str, Any]] = field(default_factory=list)
    """Persistent components (see :mod:`tables.menus` for their shapes)."""
    notifies: list[int] = field(default_factory=list)
    """The members this message notifies (pings); nobody else, whatever its text says."""
    locale: str = ENGLISH
    """The language it is written out in (:meth:`written`), for what the adapter adds (button labels)."""

    def written(self, lang: str) -> Message:
        """This message for readers of ``lang``: its text, its images' descriptions and its components'
        labels written out (:func:`games.i18n.localize`), its images to be drawn in ``lang``; its text within
        Discord's limit (a text is cut there only written out: a cut through a marked message would break it)."""
        return Message(
            localize(self.content, lang)[:CONTENT_LIMIT],
            [replace(image, alt=localize(image.alt, lang), locale=lang) for image in self.images],
            self.log,
            localize_tree(self.components, lang),
            self.notifies,
            lang,
        )

    def to_json(self) -> dict[str, Any]:
        # Not ``asdict``: that deep-copies every view, and the row is serialized at once anyway.
        return {
            "content": self.content,
            "images": [{f: getattr(i, f) for f in Image.__slots__} for i in self.images],
            "log": self.log,
            "components": self.components,
            "notifies": self.notifies,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Message:
        return cls(
            data.get("content", ""),
            [Image(**i) for i in data.get("images", ())],
            data.get("log"),
            list(data.get("components", ())),
            list(data.get("notifies", ())),
        )


def game_lane(game_id: int) -> str:
    return f"game:{game_id}"


def dm_lane(game_id: int, user_id: int) -> str:
    return f"dm:{game_id}:{user_id}"


def lobby_lane(lobby_id: int) -> str:
    return f"lobby:{lobby_id}"


# ---------------------------------------------------------------------------------------------- entries
# Each function returns what to write into the outbox; the delivery loop reads the same shapes back.


def to_place(game_id: int, message: Message, *, priority: int = THREAD, board: int | None = None, **extra: Any) -> Owed:
    """A post in the game's place (its thread, or its channel). ``board``: the version this board shows;
    once posted it is the game's latest board (its buttons), and the previous board loses its own.
    ``extra``: ``turn`` (the board's number: :class:`tables.turns.Turn`), ``strip`` (the board before it
    still has buttons: they go as it is posted), ``title`` (a first line naming the game, when it is played
    in a shared channel), ``status`` (how many of a board's last lines say how the game stands: stale once a
    newer board follows), ``strip_board`` (the latest board loses its buttons: the final message)."""
    payload: dict[str, Any] = {"to": "place", "message": message.to_json(), **extra}
    if board is not None:
        payload["board"] = board
    return Owed(game_lane(game_id), "post", payload, priority, game_id)


def to_channel(
    lane: str, channel_id: int, guild_id: int | None, message: Message, *, game_id: int | None = None, **extra: Any
) -> Owed:
    """A post in a channel. ``extra``: ``lobby`` (the post shows that lobby), ``result_of`` (the result line of
    a game, posted only if the game has a thread of its own: otherwise its channel has the final message)."""
    payload = {"to": "channel", "channel": channel_id, "guild": guild_id, "message": message.to_json(), **extra}
    return Owed(lane, "post", payload, THREAD, game_id)


def edit_lobby(lobby_id: int, message: Message) -> Owed:
    """Show a lobby's new state on its message (the latest edit queued wins)."""
    return Owed(lobby_lane(lobby_id), "edit", {"lobby": lobby_id, "message": message.to_json()}, THREAD)


def edit_message(
    lane: str,
    message_id: int,
    message: Message,
    *,
    channel_id: int | None = None,
    user: int | None = None,
    game_id: int | None = None,
) -> Owed:
    """Edit a message the bot posted: in a channel, or in its direct messages with ``user``."""
    payload = {"channel": channel_id, "message_id": message_id, "user": user, "message": message.to_json()}
    return Owed(lane, "edit", payload, PRIVATE if user else THREAD, game_id)


def edit_board(
    game_id: int, turn: int, message: Message, added: Sequence[str], *, keep_image: bool, status: int = 0
) -> Owed:
    """Update board ``turn`` of a game in place (its message, once posted: the game's latest board) to
    ``message``; ``keep_image``: its image stays as it is (a turn's board, closed). ``added``: the lines this
    update adds, posted on their own should the board not be the latest any more (nothing said is dropped);
    ``status``: how many of the message's last lines say how the game stands."""
    payload = {
        "live": turn,
        "message": message.to_json(),
        "added": list(added),
        "keep_image": keep_image,
        "status": status,
    }
    return Owed(game_lane(game_id), "edit", payload, WAITED_FOR, game_id)


def open_thread(
    game_id: int, channel_id: int, name: str, *, lobby: int | None = None, entry: int | None = None
) -> Owed:
    """Open the game's thread: on the lobby's message or on the message a given entry posted (``None``:
    a thread of its own in the channel). Without permission the game is played in the channel."""
    payload = {"channel": channel_id, "name": name, "lobby": lobby, "entry": entry}
    return Owed(game_lane(game_id), "thread", payload, WAITED_FOR, game_id)


def direct(game_id: int, user_id: int, message: Message, *, priority: int = PRIVATE) -> Owed:
    """A direct message to a member about a game."""
    return Owed(dm_lane(game_id, user_id), "dm", {"user": user_id, "message": message.to_json()}, priority, game_id)


def hand(game_id: int, player: int, user_id: int, message: Message, notes: Sequence[str], *, fresh: bool) -> Owed:
    """A member's one private message of a game, kept up to date by editing it; sent anew when ``fresh`` (a
    turn reminder), or when it is gone. ``notes`` head it (private events), and carry over if a newer view
    overtakes this one before it is delivered."""
    payload = {"user": user_id, "player": player, "message": message.to_json(), "notes": list(notes), "fresh": fresh}
    return Owed(dm_lane(game_id, user_id), "hand", payload, PRIVATE, game_id)


def privates(game_id: int, notes: dict[str, list[str]]) -> Owed:
    """Work out, after the board, what a step of game ``game_id`` owes members privately (their views,
    the step's private ``notes`` per player, reminders): the delivery loop writes those rows then."""
    return Owed(f"privates:{game_id}", "privates", {"notes": notes}, PRIVATE, game_id)


def archive(game_id: int, *, at: float) -> Owed:
    """Archive and lock the game's thread at ``at``."""
    return Owed(f"archive:{game_id}", "archive", {}, HOUSEKEEPING, game_id, due_at=at)


def answering(owed: Owed, *, now: float) -> Owed:
    """``owed``, delivered as the answer of the interaction that causes it (the delivery loop takes it over
    if that answer fails, or after :data:`ANSWER_GRACE`)."""
    return replace(owed, payload={**owed.payload, "answer": True}, due_at=now + ANSWER_GRACE)
