"""The words of the bot's messages: names shown safely, events as compact lines, whose turn it is, the
opening, results, lobbies, offers and reminders.

Pure functions over records and events. Every word here is a marked message (:mod:`games.i18n`), written
out in the reader's language where it is sent; names, links and numbers are its values. Names are always
shown as text, never as mentions or markup
(a member nicknamed ``@everyone <@123>`` pings nobody and formats nothing); a mention is written only for
a member a message means to show as such, and whom a message *notifies* is decided separately
(:mod:`tables.attention`), never by its text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from data.store import GameRecord, LobbyRecord, SeatRecord
from games.core import Event, format_seats
from games.i18n import LANGUAGES, START, L, N, T, localize
from games.registry import GAMES, LEVELS, GameSpec
from tables.seating import deciders, players_out, seat_names, seat_owners, seed_digest

MESSAGE_LIMIT = 2000
"""Discord's limit for a message's content."""

_MENTIONS = re.compile(r"@(everyone|here|[!&]?[0-9]{17,20})")
_MARKDOWN = re.compile(r"([\\*_~`|]|^>(?:>>)?\s|^#{1,3}|^\s*-|\[.+\]\(.+\))", re.MULTILINE)

CLOCKS: dict[str, tuple[str, int]] = {
    "off": (L("Off"), 0),
    "2m": (L("2 minutes"), 120),
    "10m": (L("10 minutes"), 600),
    "1h": (L("1 hour"), 3600),
    "24h": (L("24 hours"), 86400),
}
"""The ``clock`` choices of ``new`` and ``open``: value -> (name, seconds per decision). The names are
Discord choice names (plain English that Discord's translator writes out); a message shows one marked
(:func:`clock_name`)."""
DEFAULT_CLOCK = "1h"
"""Long enough never to hurry a player who is there, short enough that an absent one costs the table an
hour, not the game."""
AI_LEVELS: dict[str, str] = dict(zip(LEVELS, (L("Normal"), L("Hard (thinks ahead)")), strict=True))
"""The ``ai_level`` choices of ``new`` and ``open``: value -> name (a Discord choice name, as :data:`CLOCKS`).
``normal`` is the default."""
AI_LEVEL_WORDS: dict[str, str] = dict(zip(LEVELS, (T("normal"), T("hard")), strict=True))
"""How a message names each AI level: "AI: hard"."""
ENDINGS: dict[str, str] = {
    "rules": T("finished by the rules"),
    "last_standing": T("last one standing"),
    "safety_limit": T("stopped at the safety limit"),
    "resignation": T("decided by resignation"),
    "abandoned": T("abandoned"),
}
"""How a game ended (a stored result's ``reason``, :class:`games.core.Termination` by name), in words."""
LOBBY_STATUS: dict[str, str] = {
    "started": T("started"),
    "declined": T("declined"),
    "cancelled": T("cancelled"),
    "expired": T("expired"),
}
"""A closed lobby's status, in words."""


def longest(text: str) -> int:
    """The length of ``text`` in the language that writes it longest: what must fit Discord's limits."""
    if START not in text:
        return len(text)
    return max(len(localize(text, lang)) for lang in LANGUAGES)


def capped(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """``text`` cut to ``limit`` characters in every language: plain text as it is, marked text by whole
    lines (a mark is never cut; a newline is never inside one)."""
    if START not in text:
        return text[:limit]
    kept: list[str] = []
    size = -1  # each line at its longest: at least as long as the whole in any one language
    for line in text.split("\n"):
        size += 1 + longest(line)
        if kept and size > limit:
            break
        kept.append(line)
    return "\n".join(kept)


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
    if level == "normal" or all(s.user_id is not None for s in seats):
        return ""
    return " · " + T("AI: {level}", level=AI_LEVEL_WORDS.get(level, level))


def clock_name(seconds: int) -> str:
    """A turn clock as a message names it: "1 hour" (marked)."""
    return next((T(name) for name, s in CLOCKS.values() if s == seconds), N("{n} second", "{n} seconds", seconds))


def option_value(spec: GameSpec, name: str, value: object) -> str:
    """A table option's value as players read it: booleans as on/off, a choice by its label."""
    if value is True:
        return T("on")
    if value is False:
        return T("off")
    option = next((o for o in spec.game.options if o.name == name), None)
    if option is not None and option.choices and value in option.choices:
        return T(option.label(str(value)))  # a label is marked with L() by its game
    return str(value)


def options_text(spec: GameSpec, options: dict[str, Any]) -> str:
    """A table's options as "`blind`: on, `variant`: auction" (options by the name their command gives
    them, which stays as it is typed)."""
    return ", ".join(f"`{k}`: {option_value(spec, k, v)}" for k, v in options.items())


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
    """Lines packed into as few messages as fit Discord's limit in every language, in order; nothing is
    dropped (a single overlong plain line is split; a marked one is never cut)."""
    out: list[str] = []
    current, size = "", 0  # size: the longest the message may be written (each line at its longest)
    for line in lines:
        while len(line) > limit and START not in line:
            if current:
                out.append(current)
                current, size = "", 0
            out.append(line[:limit])
            line = line[limit:]
        length = longest(line)
        if not current:
            current, size = line, length
        elif size + 1 + length > limit:
            out.append(current)
            current, size = line, length
        else:
            current, size = f"{current}\n{line}", size + 1 + length
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
            parts.append(T("{name} (away: the AI plays for them)", name=shown(seat.name)))
        elif seat.is_ai:
            parts.append(T("{name} is thinking…", name=shown(seat.name)))
        else:
            clock = f" (⏰ <t:{int(due[player])}:R>)" if player in due else ""
            parts.append(mention(seat.user_id or 0) + clock)
    prompt = game.prompt(view)
    tail = f" — {format_seats(prompt, names_shown(spec, record))}" if prompt else ""
    return "➡️ " + ", ".join(parts) + tail


def out_line(spec: GameSpec, record: GameRecord) -> str:
    out = sorted(players_out(spec.game, record))
    return "☠️ " + T("Out: {names}", names=", ".join(shown(record.seats[p].name) for p in out)) if out else ""


def opening(spec: GameSpec, record: GameRecord) -> str:
    """The first message of a game: who plays, the options and clock, the shuffle commitment, how to play."""
    humans = " ".join(mention(s.user_id) for s in record.seats if s.user_id is not None)
    players = T(
        "Players: {players} · options: {options} · turn clock: {clock}",
        players=", ".join(shown(n) for n in record.names),
        options=options_text(spec, record.options) or T("none"),
        clock=clock_name(record.clock),
    )
    return "\n".join(
        [
            T("{game} begins! {members}", game=title(spec, record), members=humans).rstrip(),
            players + ai_level_text(record.ai_level, record.seats),
            T(
                "Shuffle commitment: SHA-256 `{digest}` (the seed is revealed at the end).",
                digest=seed_digest(record.seed),
            ),
            T(
                "Play with the buttons under the latest board or `/{kind} move` here; `/{kind} hand` or **My hand** "
                "shows your private view.",
                kind=spec.kind,
            ),
        ]
    )


# ---------------------------------------------------------------------------------------------- results


def winners(record: GameRecord, spec: GameSpec) -> list[str]:
    """The winning players' names (a player with several winning seats is named once)."""
    result = record.result or {}
    owners = seat_owners(spec.game, record.state)
    players = dict.fromkeys(owners[w] for w in result.get("winners", []))
    return [shown(record.seats[p].name) for p in players]


def standings(spec: GameSpec, record: GameRecord) -> list[tuple[str, int, bool]]:
    """Each player once, as (name shown, score, won), winners first, then by score; empty when the result
    has no scores. A player commanding several seats (a fleet) has their best seat's score (a fleet's
    seats share it); a player left without a seat scores 0."""
    result = record.result or {}
    scores = result.get("scores") or []
    if not scores:
        return []
    owners = seat_owners(spec.game, record.state)
    best = {p.seat: 0 for p in record.seats}
    for seat, score in enumerate(scores):
        best[owners[seat]] = max(best.get(owners[seat], score), score)
    won = {owners[w] for w in result.get("winners", [])}
    ranking = sorted(best, key=lambda p: (p not in won, -best[p], p))
    return [(shown(record.seats[p].name), best[p], p in won) for p in ranking]


def scores_line(spec: GameSpec, record: GameRecord) -> str:
    """One entry per player, winners first, then by score: "Scores: Anne 12 points · Ben 9 points"
    (:func:`standings`); empty without scores."""
    ranked = standings(spec, record)
    if not ranked:
        return ""
    return f"{spec.game.scores_title}: " + " · ".join(f"{n} {spec.game.score_text(s)}" for n, s, _won in ranked)


def summary(spec: GameSpec, record: GameRecord) -> str:
    """The stored result's summary, with the players' names (shown safely) in place of ``{pN}``."""
    return format_seats((record.result or {}).get("summary", ""), names_shown(spec, record))


def final_lines(spec: GameSpec, record: GameRecord) -> list[str]:
    """The final message in the game's thread: result, reason, scores, who resigned, the seed."""
    result = record.result or {}
    lines = [
        "🏁 " + T("**{game} is over.** {summary}", game=f"{spec.title} #{record.id}", summary=summary(spec, record))
    ]
    reason = result.get("reason")
    if reason:
        lines.append(T("How it ended: {reason}.", reason=ENDINGS.get(reason, reason)))
    won = winners(record, spec)
    if won:
        lines.append("🏆 " + N("Winner: {names}", "Winners: {names}", len(won), names=", ".join(won)))
    line = scores_line(spec, record)
    if line:
        lines.append(line)
    resigned = [shown(s.name) for s in record.seats if s.resigned]
    if resigned:
        lines.append(T("Resigned: {names}", names=", ".join(resigned)))
    lines.append(
        T(
            "Seed: `{seed}` (SHA-256 `{digest}`, as posted at the start).",
            seed=record.seed,
            digest=seed_digest(record.seed),
        )
    )
    return lines


def result_line(spec: GameSpec, record: GameRecord) -> str:
    """The one line posted where a game was started, once it ends, naming each player once: the winners
    with their score, then the others' (:func:`_won_by`), or how it ended with the scores; then a link to
    the thread."""
    game = title(spec, record)
    won = winners(record, spec)
    if record.status != "abandoned" and won:
        return f"🏁 {_won_by(spec, record, game, won)} {HERE}"
    if record.status == "abandoned":
        outcome = T("{game} was abandoned.", game=game)
    else:
        outcome = T("{game} ended with no winner.", game=game)
    scores = scores_line(spec, record)
    return f"🏁 {outcome}" + (f" {scores}." if scores else "") + f" {HERE}"


def _won_by(spec: GameSpec, record: GameRecord, game: str, won: Sequence[str]) -> str:
    """Who won ``game`` with their score, then every other player's number, each player named once:
    "won by Ben with 3 missions · Anne 1 · Calico 0". Winners who share a score (a team, a tie) have it
    said once; without scores (a resignation), only the winners ``won``."""
    ranked = standings(spec, record)
    if not ranked:
        return T("{game} won by {winners}.", game=game, winners=", ".join(won))
    top = [(name, score) for name, score, first in ranked if first]
    others = " · ".join(f"{name} {score}" for name, score, first in ranked if not first)
    score_text = spec.game.score_text
    if len({score for _name, score in top}) == 1:
        winning = T("{names} with {score}", names=", ".join(name for name, _ in top), score=score_text(top[0][1]))
    else:
        winning = ", ".join(T("{names} with {score}", names=name, score=score_text(score)) for name, score in top)
    if not others:
        return T("{game} won by {winners}.", game=game, winners=winning)
    return T("{game} won by {winners} · {others}.", game=game, winners=winning, others=others)


# ---------------------------------------------------------------------------------------------- lobbies


def lobby_name(lobby: LobbyRecord, user_id: int | None) -> str:
    name = lobby.names.get(str(user_id))
    return shown(name) if name is not None else T("someone")


def lobby_closed(lobby: LobbyRecord) -> str:
    """Why a lobby that is not open takes no more clicks."""
    status = LOBBY_STATUS.get(lobby.status, lobby.status)
    if lobby.mode == "challenge":
        return T("This invitation is closed ({status}).", status=status)
    return T("This table is closed ({status}).", status=status)


def lobby_expired(lobby: LobbyRecord) -> str:
    if lobby.mode == "challenge":
        return T("This invitation has expired.")
    return T("This table has expired.")


def lobby_outcome(lobby: LobbyRecord) -> str:
    """The closing line of a lobby that is no longer open."""
    if lobby.status == "started":
        return "🎲 " + T("All aboard — the game begins!")
    if lobby.status == "declined":
        return "🚫 " + T("{name} declined, so the challenge is off.", name=lobby_name(lobby, lobby.closed_by))
    if lobby.status == "cancelled":
        if lobby.mode == "challenge":
            return "🚫 " + T("{name} withdrew the challenge.", name=lobby_name(lobby, lobby.host_id))
        return "🚫 " + T("The host closed this table.")
    if lobby.status == "expired":
        if lobby.mode == "challenge":
            return "⌛ " + T("This invitation expired without enough answers.")
        return "⌛ " + T("This table expired before the game started.")
    return ""


def _lobby_detail(spec: GameSpec, lobby: LobbyRecord) -> str:
    """A lobby's table in brackets: its AI seats and their level, options and turn clock."""
    extras = []
    if lobby.ai:
        seats = N("{n} AI seat", "{n} AI seats", lobby.ai)
        level = AI_LEVEL_WORDS.get(lobby.ai_level, lobby.ai_level)
        extras.append(seats + (f" ({level})" if lobby.ai_level != "normal" else ""))
    if lobby.options:
        extras.append(options_text(spec, lobby.options))
    extras.append(T("turn clock: {clock}", clock=clock_name(lobby.clock)))
    return f" ({'; '.join(extras)})"


def _challenge_lines(spec: GameSpec, lobby: LobbyRecord, detail: str, expires: str) -> list[str]:
    """A challenge (or a rematch): who invites whom, each invitee's answer, and until when."""
    host, invited = lobby_name(lobby, lobby.host_id), " ".join(mention(uid) for uid in lobby.invitees)
    if lobby.rematch_of is None:
        head = (
            spec.emoji
            + " "
            + T(
                "**{host}** challenges {invited} to **{game}**{detail}!",
                host=host,
                invited=invited,
                game=spec.title,
                detail=detail,
            )
        )
    else:
        head = "🔁 " + T(
            "**{host}** asks {invited} for a rematch of {game}{detail}!",
            host=host,
            invited=invited,
            game=f"{spec.title} #{lobby.rematch_of}",
            detail=detail,
        )
    rows = [f"{'✅' if uid in lobby.accepted else '⏳'} {lobby_name(lobby, uid)}" for uid in lobby.invitees]
    if lobby.status == "open":
        rows.append(T("Everyone invited must accept; the invitation expires {expires}.", expires=expires))
    return [head, *rows]


def _open_table_lines(spec: GameSpec, lobby: LobbyRecord, detail: str, expires: str) -> list[str]:
    """An open table: who sits at it, and how many seats are taken and still needed."""
    host = lobby_name(lobby, lobby.host_id)
    head = (
        spec.emoji
        + " "
        + T("**{host}** opened a **{game}** table{detail}. Anyone may join!", host=host, game=spec.title, detail=detail)
    )
    rows = [f"• {lobby_name(lobby, uid)}" for uid in lobby.accepted]
    if lobby.status != "open":
        return [head, *rows]
    need = max(spec.game.min_players - len(lobby.accepted) - lobby.ai, 0)
    taken, seats = len(lobby.accepted) + lobby.ai, spec.game.max_players
    if need:
        tail = N(
            "{taken}/{seats} seats taken, {n} more needed to start · closes {expires}.",
            "{taken}/{seats} seats taken, {n} more needed to start · closes {expires}.",
            need,
            taken=taken,
            seats=seats,
            expires=expires,
        )
    else:
        tail = T(
            "{taken}/{seats} seats taken, ready to start · closes {expires}.", taken=taken, seats=seats, expires=expires
        )
    return [head, *rows, tail]


def lobby_text(lobby: LobbyRecord) -> str:
    """A lobby's message: who invites whom (or who sits at an open table), its options, and how it stands."""
    spec = GAMES[lobby.kind]
    detail, expires = _lobby_detail(spec, lobby), f"<t:{int(lobby.expires_at)}:R>"
    lines = (_challenge_lines if lobby.mode == "challenge" else _open_table_lines)(spec, lobby, detail, expires)
    return "\n".join(part for part in (*lines, lobby_outcome(lobby)) if part)


def lobby_moved(channel_id: int, what: str) -> str:
    """Told to whoever started a game (``what``: ``game``), an invitation (``challenge``) or a table
    (``open``) in a running game's thread: where it went instead."""
    channel = f"<#{channel_id}>"
    if what == "challenge":
        return T(
            "This thread belongs to a game in progress, so your invitation is posted in {channel}, where the new "
            "game gets a thread of its own.",
            channel=channel,
        )
    if what == "open":
        return T(
            "This thread belongs to a game in progress, so your table is open in {channel}, where the new game "
            "gets a thread of its own.",
            channel=channel,
        )
    return T(
        "This thread belongs to a game in progress, so your game starts in {channel}, where the new game gets a "
        "thread of its own.",
        channel=channel,
    )


# ---------------------------------------------------------------------------------------------- private


def private_head(spec: GameSpec, record: GameRecord) -> str:
    return T("**Your private view in {game} ({place})**", game=f"{spec.title} #{record.id}", place=HERE)


def listing(names: Iterable[str]) -> str:
    return ", ".join(shown(n) for n in names)
