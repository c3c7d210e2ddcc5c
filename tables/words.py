"""The words of the bot's messages: names shown safely, events as compact lines, whose turn it is, the
opening, results, lobbies, offers and reminders.

Pure functions over records and events. Names are always shown as text, never as mentions or markup
(a member nicknamed ``@everyone <@123>`` pings nobody and formats nothing); a mention is written only for
a member a message means to show as such, and whom a message *notifies* is decided separately
(:mod:`tables.attention`), never by its text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from data.store import GameRecord, LobbyRecord, SeatRecord
from games.core import Event, Termination, format_seats, plural
from games.registry import GAMES, LEVELS, GameSpec
from tables.seating import deciders, players_out, seat_names, seat_owners, seed_digest

MESSAGE_LIMIT = 2000
"""Discord's limit for a message's content."""

_MENTIONS = re.compile(r"@(everyone|here|[!&]?[0-9]{17,20})")
_MARKDOWN = re.compile(r"([\\*_~`|]|^>(?:>>)?\s|^#{1,3}|^\s*-|\[.+\]\(.+\))", re.MULTILINE)

CLOCKS: dict[str, tuple[str, int]] = {
    "off": ("Off", 0),
    "2m": ("2 minutes", 120),
    "10m": ("10 minutes", 600),
    "1h": ("1 hour", 3600),
    "24h": ("24 hours", 86400),
}
"""The ``clock`` choices of ``new`` and ``open``: value -> (name, seconds per decision)."""
DEFAULT_CLOCK = "1h"
"""Long enough never to hurry a player who is there, short enough that an absent one costs the table an
hour, not the game."""
AI_LEVELS: dict[str, str] = dict(zip(LEVELS, ("Normal", "Hard (thinks ahead)"), strict=True))
"""The ``ai_level`` choices of ``new`` and ``open``: value -> name. ``normal`` is the default."""


def shown(name: str) -> str:
    """A display name as plain text: no mention, no markdown (as Discord's own escaping does)."""
    return _MARKDOWN.sub(lambda m: "\\" + m.group(1), _MENTIONS.sub("@\u200b\\1", name))


def mention(user_id: int) -> str:
    return f"<@{user_id}>"


def title(spec: GameSpec, record: GameRecord) -> str:
    return f"{spec.emoji} **{spec.title} #{record.id}**"


def place_link(record: GameRecord) -> str:
    """A link to where the game is played: its thread, or its channel."""
    return channel_link(record.guild_id, record.place_id)


HERE = "\ue000here\ue000"
"""In a message the outbox delivers later: the link to where its game is played *then* (a game's thread is
opened by the outbox too, so it may not exist yet when the message is written)."""


def linked(text: str, record: GameRecord) -> str:
    """``text`` with the link to where the game is played now in place of :data:`HERE`."""
    return text.replace(HERE, place_link(record))


def channel_link(guild_id: int | None, channel_id: int) -> str:
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}"


def names_shown(spec: GameSpec, record: GameRecord) -> list[str]:
    """Each engine seat's name, safe for message text (for ``{pN}`` in engine text)."""
    return [shown(n) for n in seat_names(spec.game, record)]


def ai_level_text(level: str, seats: Sequence[SeatRecord]) -> str:
    """`` · AI: hard`` on the opening of a game whose AI seats play hard (nothing at ``normal``)."""
    return f" · AI: {level}" if level != "normal" and any(s.user_id is None for s in seats) else ""


def clock_name(seconds: int) -> str:
    return next((name for name, s in CLOCKS.values() if s == seconds), f"{seconds} s")


def option_value(value: object) -> str:
    """A table option as players read it: booleans as on/off."""
    return "on" if value is True else "off" if value is False else str(value)


def options_text(options: dict[str, Any]) -> str:
    return ", ".join(f"{k}: {option_value(v)}" for k, v in options.items())


# ---------------------------------------------------------------------------------------------- boards


_D6 = "⚀⚁⚂⚃⚄⚅"


def event_line(event: Event, names: Sequence[str]) -> str:
    """One public event as a line: dice and reveals are shown as such, not only in words."""
    text = format_seats(event.text, names)
    data = event.data or {}
    if "dice" in data:
        faces = " ".join(
            _D6[d["value"] - 1] if d.get("sides") == 6 and 1 <= d["value"] <= 6 else f"**{d['value']}**"
            for d in data["dice"]
        )
        return f"🎲 {faces} · {text}"
    if "reveal" in data:
        return f"🃏 {text}"
    return f"▸ {text}"


def chunks(lines: Sequence[str], limit: int = MESSAGE_LIMIT) -> list[str]:
    """Lines packed into as few messages as fit Discord's limit, in order; nothing is dropped (a single
    overlong line is split)."""
    out: list[str] = []
    current = ""
    for line in lines:
        while len(line) > limit:
            if current:
                out.append(current)
                current = ""
            out.append(line[:limit])
            line = line[limit:]
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > limit:
            out.append(current)
            current = line
        else:
            current = candidate
    if current:
        out.append(current)
    return out


def waiting_line(spec: GameSpec, record: GameRecord, view: dict, deadlines: dict[int, float] | None = None) -> str:
    """Whose decision the game waits for (members by mention with their deadline, the AI as thinking), and
    what is pending. ``deadlines``: when each engine seat's decision is due (turn clocks)."""
    if record.status != "active":
        return ""
    game, state = spec.game, record.state
    due: dict[int, float] = {}
    for seat, when in (deadlines or {}).items():
        player = game.controller(state, seat)
        due[player] = min(when, due.get(player, when))
    parts = []
    for player in deciders(spec, record):
        seat = record.seats[player]
        if seat.away:
            parts.append(f"{shown(seat.name)} (away: the AI plays for them)")
        elif seat.is_ai:
            parts.append(f"{shown(seat.name)} is thinking…")
        else:
            clock = f" (⏰ <t:{int(due[player])}:R>)" if player in due else ""
            parts.append(mention(seat.user_id or 0) + clock)
    prompt = game.prompt(view)
    tail = f" — {format_seats(prompt, names_shown(spec, record))}" if prompt else ""
    return "➡️ " + ", ".join(parts) + tail


def out_line(spec: GameSpec, record: GameRecord) -> str:
    out = sorted(players_out(spec.game, record))
    return "☠️ Out: " + ", ".join(shown(record.seats[p].name) for p in out) if out else ""


def opening(spec: GameSpec, record: GameRecord) -> str:
    """The first message of a game: who plays, the options and clock, the shuffle commitment, how to play."""
    humans = " ".join(mention(s.user_id) for s in record.seats if s.user_id is not None)
    return (
        f"{title(spec, record)} begins! {humans}\n"
        f"Players: {', '.join(shown(n) for n in record.names)} · options: {options_text(record.options) or 'none'}"
        f" · turn clock: {clock_name(record.clock)}{ai_level_text(record.ai_level, record.seats)}\n"
        f"Shuffle commitment: SHA-256 `{seed_digest(record.seed)}` (the seed is revealed at the end).\n"
        f"Play with the buttons under the latest board or `/{spec.kind} move` here; "
        f"`/{spec.kind} hand` or **My hand** shows your private view."
    )


# ---------------------------------------------------------------------------------------------- results


def winners(record: GameRecord, spec: GameSpec) -> list[str]:
    """The winning players' names (a player with several winning seats is named once)."""
    result = record.result or {}
    owners = seat_owners(spec.game, record.state)
    players = dict.fromkeys(owners[w] for w in result.get("winners", []))
    return [shown(record.seats[p].name) for p in players]


def scores_line(spec: GameSpec, record: GameRecord) -> str:
    """One entry per player, winners first, then by score: "Scores: Anne 12 points · Ben 9 points". A
    player commanding several seats (a fleet) is named once, with their best seat's score (a fleet's
    seats share it); a player left without a seat scores 0."""
    result = record.result or {}
    scores = result.get("scores") or []
    if not scores:
        return ""
    game = spec.game
    owners = seat_owners(game, record.state)
    best = {p.seat: 0 for p in record.seats}
    for seat, score in enumerate(scores):
        best[owners[seat]] = max(best.get(owners[seat], score), score)
    won = {owners[w] for w in result.get("winners", [])}
    ranking = sorted(best, key=lambda p: (p not in won, -best[p], p))
    entries = (f"{shown(record.seats[p].name)} {plural(best[p], game.score_unit)}" for p in ranking)
    return f"{game.scores_title}: " + " · ".join(entries)


def summary(spec: GameSpec, record: GameRecord) -> str:
    """The stored result's summary, with the players' names (shown safely) in place of ``{pN}``."""
    return format_seats((record.result or {}).get("summary", ""), names_shown(spec, record))


def final_lines(spec: GameSpec, record: GameRecord) -> list[str]:
    """The final message in the game's thread: result, reason, scores, who resigned, the seed."""
    result = record.result or {}
    lines = [f"🏁 **{spec.title} #{record.id} is over.** {summary(spec, record)}"]
    reason = result.get("reason")
    if reason:
        lines.append(f"How it ended: {Termination[reason.upper()].value}.")
    won = winners(record, spec)
    if won:
        lines.append(("🏆 Winner: " if len(won) == 1 else "🏆 Winners: ") + ", ".join(won))
    line = scores_line(spec, record)
    if line:
        lines.append(line)
    resigned = [shown(s.name) for s in record.seats if s.resigned]
    if resigned:
        lines.append("Resigned: " + ", ".join(resigned))
    lines.append(f"Seed: `{record.seed}` (SHA-256 `{seed_digest(record.seed)}`, as posted at the start).")
    return lines


def result_line(spec: GameSpec, record: GameRecord) -> str:
    """The one line posted where a game was started, once it ends: winner, scores, a link to the thread."""
    won = winners(record, spec)
    if record.status == "abandoned":
        outcome = "was abandoned"
    elif won:
        outcome = "won by " + ", ".join(won)
    else:
        outcome = "ended with no winner"
    scores = scores_line(spec, record)
    return f"🏁 {title(spec, record)} {outcome}." + (f" {scores}." if scores else "") + f" {HERE}"


# ---------------------------------------------------------------------------------------------- lobbies


def lobby_name(lobby: LobbyRecord, user_id: int | None) -> str:
    return shown(lobby.names.get(str(user_id), "someone"))


def lobby_what(lobby: LobbyRecord) -> str:
    return "invitation" if lobby.mode == "challenge" else "table"


def lobby_outcome(lobby: LobbyRecord) -> str:
    """The closing line of a lobby that is no longer open."""
    if lobby.status == "started":
        return "🎲 All aboard — the game begins!"
    if lobby.status == "declined":
        return f"🚫 {lobby_name(lobby, lobby.closed_by)} declined, so the challenge is off."
    if lobby.status == "cancelled":
        if lobby.mode == "challenge":
            return f"🚫 {lobby_name(lobby, lobby.host_id)} withdrew the challenge."
        return "🚫 The host closed this table."
    if lobby.status == "expired":
        if lobby.mode == "challenge":
            return "⌛ This invitation expired without enough answers."
        return "⌛ This table expired before the game started."
    return ""


def lobby_text(lobby: LobbyRecord) -> str:
    """A lobby's message: who invites whom (or who sits at an open table), its options, and how it stands."""
    spec = GAMES[lobby.kind]
    host = lobby_name(lobby, lobby.host_id)
    extras = []
    if lobby.ai:
        extras.append(plural(lobby.ai, "AI seat") + (f" ({lobby.ai_level})" if lobby.ai_level != "normal" else ""))
    if lobby.options:
        extras.append(options_text(lobby.options))
    extras.append(f"turn clock: {clock_name(lobby.clock)}")
    detail = f" ({'; '.join(extras)})"
    expires = f"<t:{int(lobby.expires_at)}:R>"
    is_open = lobby.status == "open"
    if lobby.mode == "challenge":
        invited = " ".join(mention(uid) for uid in lobby.invitees)
        head = f"{spec.emoji} **{host}** challenges {invited} to **{spec.title}**{detail}!"
        if lobby.rematch_of is not None:
            head = f"🔁 **{host}** asks {invited} for a rematch of {spec.title} #{lobby.rematch_of}{detail}!"
        rows = [f"{'✅' if uid in lobby.accepted else '⏳'} {lobby_name(lobby, uid)}" for uid in lobby.invitees]
        tail = f"Everyone invited must accept; the invitation expires {expires}." if is_open else ""
    else:
        need = max(spec.game.min_players - len(lobby.accepted) - lobby.ai, 0)
        head = f"{spec.emoji} **{host}** opened a **{spec.title}** table{detail}. Anyone may join!"
        rows = [f"• {lobby_name(lobby, uid)}" for uid in lobby.accepted]
        tail = (
            f"{len(lobby.accepted) + lobby.ai}/{spec.game.max_players} seats taken"
            + (f", {need} more needed to start" if need else ", ready to start")
            + f" · closes {expires}."
            if is_open
            else ""
        )
    return "\n".join(part for part in (head, *rows, tail, lobby_outcome(lobby)) if part)


def lobby_moved(channel_id: int, what: str) -> str:
    return (
        f"This thread belongs to a game in progress, so your {what} in <#{channel_id}>, "
        "where the new game gets a thread of its own."
    )


# ---------------------------------------------------------------------------------------------- private


def private_head(spec: GameSpec, record: GameRecord) -> str:
    return f"**Your private view in {spec.title} #{record.id} ({HERE})**"


def listing(names: Iterable[str]) -> str:
    return ", ".join(shown(n) for n in names)
