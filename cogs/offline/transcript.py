"""The demo's transcript: every message as each member saw it, in time order, with each edit where it
happened, and every image."""

from __future__ import annotations

import mimetypes
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cogs.offline.driver import SimTable
from games.i18n import T, localize

_MENTION = re.compile(r"<@!?(\d+)>")

TRANSCRIPT = "transcript.md"
IMAGES = "images"
"""The transcript's file and the folder of its attachments (images, and a finished game's log), in the
demo's folder."""


@dataclass(frozen=True, slots=True)
class Shown:
    """A message as members saw it at one moment: what the transcript writes of it."""

    content: str
    embeds: list[dict[str, Any]]
    attachments: list[dict[str, Any]]
    components: list[dict[str, Any]]
    pings: list[int]

    @classmethod
    def of(cls, message: Any) -> Shown:
        """A copy of a SimCord backend message's visible parts (they are replaced, not mutated, by an edit)."""
        return cls(
            message.content,
            list(message.embeds),
            list(message.attachments),
            list(message.components),
            list(message.ping_user_ids),
        )


@dataclass(frozen=True, slots=True)
class Edit:
    """An edit of message ``message_id``, made when ``newest`` was the newest message of the world, at the
    ``moment``-th thing that happened besides messages (:attr:`SimTable.moments`)."""

    newest: int
    moment: int
    message_id: int
    before: Shown
    after: Shown


LOADING = 1 << 7
"""Discord's flag of a deferred answer still "thinking": its first edit is its first content, not an edit."""


def record_edits(table: SimTable) -> list[Edit]:
    """Record every edit of a message in ``table``'s world from now on, in order (SimCord keeps only a message's
    last state): around the backend's one edit path, which REST edits and interaction updates all take."""
    backend = table.env.backend
    edits: list[Edit] = []
    original = backend.edit_message

    def edit_message(channel_id: int, message_id: int, fields: dict[str, Any]) -> Any:
        message = backend.get_message(channel_id, message_id)
        before, loading = Shown.of(message), message.flags & LOADING
        edited = original(channel_id, message_id, fields)
        if not loading:
            edits.append(Edit(table.newest(), next(table.moments), message_id, before, Shown.of(edited)))
        return edited

    backend.edit_message = edit_message
    return edits


def write_transcript(table: SimTable, out: Path, edits: Sequence[Edit] = ()) -> int:
    """Write every message as each user saw it, in time order, into the folder ``out`` (new: the demo puts it in
    place once written): where it was posted as it was then, each of its ``edits`` (:func:`record_edits`)
    where it happened ("✏️ edited: …"), with a 🔔 line naming the members a message notified (channel,
    thread, DM, ephemeral), and every attachment: an image shown, another file (a game's log) linked.
    Returns the number of images."""
    writer = _Writer(table, out / IMAGES)
    messages = {m.id: m for msgs in table.env.backend.messages.values() for m in msgs.values()}
    first: dict[int, Shown] = {}
    for edit in edits:
        first.setdefault(edit.message_id, edit.before)
    # What happened, in order: each message where it was posted, each driver note and edit after the newest
    # message of its moment, in the order they happened.
    happened = [(m.id, -1, writer.posted(m, first.get(m.id) or Shown.of(m))) for m in messages.values()]
    happened += [(newest, moment, [f"▶ *{text}*"]) for newest, moment, text in table.log]
    versions: dict[int, int] = {}
    for edit in edits:
        message = messages.get(edit.message_id)
        if message is not None:
            versions[edit.message_id] = versions.get(edit.message_id, 0) + 1
            happened.append((edit.newest, edit.moment, writer.edited(message, edit, versions[edit.message_id])))
    lines = ["# " + writer.said(T("Transcript")), ""]
    for _newest, _moment, told in sorted(happened, key=lambda h: (h[0], h[1])):
        lines += told
    (out / TRANSCRIPT).write_text("\n".join(lines), encoding="utf-8")
    return writer.saved


class _Writer:
    """Writes messages of ``table``'s world as lines of the transcript, saving their attachments to ``images``."""

    def __init__(self, table: SimTable, images: Path) -> None:
        self.table = table
        self.backend = table.env.backend
        self.images = images
        images.mkdir(parents=True, exist_ok=True)
        self.users = {u.id: (u.global_name or u.name) for u in self.backend.users.values()}
        self.saved = 0
        """Images written so far."""

    def said(self, text: str) -> str:
        return localize(text, self.table.locale)

    def where(self, message: Any) -> str:
        """Where a message was posted, as its readers know the place (and who alone sees an ephemeral one)."""
        channel = self.backend.channels.get(message.channel_id)
        if channel is None:
            place = "?"
        elif channel.recipient_ids:
            others = [self.users.get(r, "?") for r in channel.recipient_ids if r != self.table.bot.user.id]
            place = self.said(T("DM to {members}", members=", ".join(others)))
        elif channel.is_thread:
            place = self.said(T("thread “{name}”", name=channel.name))
        else:
            place = f"#{channel.name}"
        if message.is_ephemeral:
            viewer = (message.interaction_metadata or {}).get("user") or {}
            member = self.users.get(int(viewer.get("id", 0)), "?")
            place += " · " + self.said(T("ephemeral, only {member} sees it", member=member))
        return place

    def content(self, shown: Shown) -> str:
        someone = self.said(T("someone"))
        return _MENTION.sub(lambda m: "@" + self.users.get(int(m.group(1)), someone), shown.content)

    def attachments(self, message: Any, shown: Shown, version: int) -> list[str]:
        """A message's files, saved: an image shown, another file (a game's log) linked."""
        lines = []
        for attachment in shown.attachments:
            data = self.backend.cdn.get(attachment["url"])
            if data is None:
                continue
            name = f"{message.id}{f'-v{version}' if version else ''}-{attachment['filename']}"
            (self.images / name).write_bytes(data)
            described = attachment.get("description") or ""
            if (mimetypes.guess_type(name)[0] or "").startswith("image/"):
                self.saved += 1
                lines.append(f"![{described}]({IMAGES}/{name})")
            else:  # Markdown would show it as a broken image
                lines.append(f"📎 [{described or name}]({IMAGES}/{name})")
        return lines

    def buttons(self, shown: Shown) -> list[str]:
        labels = [c.get("label") or c.get("placeholder") for row in shown.components for c in row.get("components", [])]
        if not any(labels):
            return []
        listed = " · ".join(f"[{label}]" for label in labels if label)
        return ["  " + self.said(T("buttons: {buttons}", buttons=listed))]

    def posted(self, message: Any, shown: Shown) -> list[str]:
        """A message as it was posted."""
        author = self.users.get(message.author_id, "?")
        lines = [f"**[{self.where(message)}] {author}:** {self.content(shown)}".rstrip()]
        for embed in shown.embeds:
            lines.append(f"> **{embed.get('title', '')}**")
            lines += [f"> {row}" for row in str(embed.get("description", "")).splitlines()]
        lines += self.attachments(message, shown, 0) + self.buttons(shown)
        if shown.pings:  # whom the message notified: anyone can count the pings of a game
            lines.append("🔔 " + ", ".join(self.users.get(u, "?") for u in shown.pings))
        return [*lines, ""]

    def edited(self, message: Any, edit: Edit, version: int) -> list[str]:
        """What an edit changed: the new text, the new images, the buttons now (or that they are gone)."""
        before, after = edit.before, edit.after
        author = self.users.get(message.author_id, "?")
        head = f"✏️ **[{self.where(message)}] " + self.said(T("{author} edited:", author=author))
        if after.content != before.content:
            lines = [f"{head}** {self.content(after)}".rstrip()]
        else:  # the same words: say which message it is by its first line
            first_line = self.content(after).split("\n")[0]
            lines = [f"{head}** “{first_line}”" if first_line else f"{head}**"]
        if after.attachments != before.attachments:
            lines += self.attachments(message, after, version)
        if after.components != before.components:
            lines += self.buttons(after) or ["  " + self.said(T("no buttons now"))]
        return [*lines, ""]
