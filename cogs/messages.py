"""The words of game messages: names shown safely, events as compact lines, whose turn it is, results.

Pure functions over records and events (no sending). Names are always shown as text, never as mentions
or markup (a member nicknamed ``@everyone <@123>`` pings nobody); mentions are written only for the
players a message means to reach, and every message is sent with ``allowed_mentions`` naming exactly
those (:func:`pings`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import discord

from data.store import GameRecord
from games.core import Event, Termination, format_seats
from games.registry import GameSpec
from tables.service import players_out, seat_names, seat_owners, seed_digest

MESSAGE_LIMIT = 2000
"""Discord's limit for a message's content."""

NO_PINGS = discord.AllowedMentions.none()


def shown(name: str) -> str:
    """A display name as plain text: no mention, no markdown."""
    return discord.utils.escape_markdown(discord.utils.escape_mentions(name))


def pings(user_ids: Iterable[int]) -> discord.AllowedMentions:
    """Allowed mentions that reach exactly these users (and never @everyone or a role)."""
    return discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(u) for u in user_ids])


def names_shown(spec: GameSpec, record: GameRecord) -> list[str]:
    """Each engine seat's name, safe for message text (for ``{pN}`` in engine text)."""
    return [shown(n) for n in seat_names(spec.game, record)]


def mention(user_id: int) -> str:
    return f"<@{user_id}>"


def title(spec: GameSpec, record: GameRecord) -> str:
    return f"{spec.emoji} **{spec.title} #{record.id}**"


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


def deciders(spec: GameSpec, record: GameRecord) -> list[int]:
    """The players (record seat numbers) who must decide now, in the engine's order."""
    if record.status != "active":
        return []
    game, state = spec.game, record.state
    return list(dict.fromkeys(game.controller(state, s) for s in game.to_act(state)))


def waiting_line(spec: GameSpec, record: GameRecord, view: dict, deadlines: dict[int, float] | None = None) -> str:
    """Whose decision the game waits for (members as mentions with their deadline, the AI as thinking),
    and what is pending. ``deadlines``: when each engine seat's decision is due (turn clocks)."""
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
    pending = view.get("pending")
    tail = f" — {format_seats(str(pending), names_shown(spec, record))}" if pending else ""
    return "➡️ " + ", ".join(parts) + tail


def out_line(spec: GameSpec, record: GameRecord) -> str:
    out = sorted(players_out(spec.game, record))
    return "☠️ Out: " + ", ".join(shown(record.seats[p].name) for p in out) if out else ""


def opening(spec: GameSpec, record: GameRecord, clock: str) -> str:
    """The first message of a game: who plays, the options and clock, the shuffle commitment, how to play."""
    humans = " ".join(mention(s.user_id) for s in record.seats if s.user_id is not None)
    options = ", ".join(f"{k}: {option_value(v)}" for k, v in record.options.items()) or "none"
    return (
        f"{title(spec, record)} begins! {humans}\n"
        f"Players: {', '.join(shown(n) for n in record.names)} · options: {options} · turn clock: {clock}\n"
        f"Shuffle commitment: SHA-256 `{seed_digest(record.seed)}` (the seed is revealed at the end).\n"
        f"Play with the buttons under the latest board or `/{spec.kind} move` here; "
        f"`/{spec.kind} hand` or **My hand** shows your private view."
    )


def option_value(value: object) -> str:
    """A table option as players read it: booleans as on/off."""
    return "on" if value is True else "off" if value is False else str(value)


def winners(record: GameRecord, spec: GameSpec) -> list[str]:
    """The winning players' names (a player with several winning seats is named once)."""
    result = record.result or {}
    owners = seat_owners(spec.game, record.state)
    players = dict.fromkeys(owners[w] for w in result.get("winners", []))
    return [shown(record.seats[p].name) for p in players]


def scores_line(spec: GameSpec, record: GameRecord) -> str:
    scores = (record.result or {}).get("scores") or []
    if not scores:
        return ""
    names = names_shown(spec, record)
    ranking = sorted(range(len(scores)), key=lambda i: -scores[i])
    return "Scores: " + " · ".join(f"{names[i]} {scores[i]}" for i in ranking)


def final_lines(spec: GameSpec, record: GameRecord) -> list[str]:
    """The final message in the game's thread: result, reason, scores, who resigned, the seed."""
    result = record.result or {}
    summary = format_seats(result.get("summary", ""), names_shown(spec, record))
    lines = [f"🏁 **{spec.title} #{record.id} is over.** {summary}"]
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


def result_line(spec: GameSpec, record: GameRecord, link: str) -> str:
    """The one line posted where a game was started, once it ends: winner, scores, a link to the thread."""
    won = winners(record, spec)
    if record.status == "abandoned":
        outcome = "was abandoned"
    elif won:
        outcome = "won by " + ", ".join(won)
    else:
        outcome = "ended with no winner"
    scores = scores_line(spec, record)
    return f"🏁 {title(spec, record)} {outcome}." + (f" {scores}." if scores else "") + f" {link}"
