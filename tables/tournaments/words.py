"""What a tournament says: its sign-up message, a round's draw, the standings and the final post, as marked
messages (written out in the server's language at delivery)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from data.tournaments import EntrantRecord, TournamentRecord
from games.i18n import N, T
from games.registry import GAMES
from tables import words
from tables.outbox import Image, Message
from tables.tournaments.pairing import Line, shown

FORMATS = {"swiss": T("Swiss"), "round-robin": T("round robin")}
"""Each format, as a message names it."""
STATUS = {"open": T("signing up"), "running": T("running"), "finished": T("finished"), "cancelled": T("cancelled")}


def name_of(t: TournamentRecord) -> str:
    """ "Piratz tournament #3"."""
    return T("{game} tournament #{number}", game=GAMES[t.kind].title, number=t.id)


def format_line(t: TournamentRecord, players: int) -> str:
    """The format, its rounds and tables: "Swiss, 3 rounds, tables of 2"."""
    rounds = (
        N("{n} round", "{n} rounds", t.rounds)
        if t.rounds
        else T("rounds enough to find a winner")
        if t.format == "swiss"
        else N("{n} round", "{n} rounds", max(players - 1 + players % 2, 1))
    )
    return T("{format}, {rounds}, tables of {size}", format=FORMATS[t.format], rounds=rounds, size=t.table_size)


def signup_text(t: TournamentRecord, entrants: Sequence[EntrantRecord]) -> str:
    """The sign-up message: the game, the format, the start (a Discord timestamp), the players so far."""
    spec = GAMES[t.kind]
    playing = [e for e in entrants if not e.dropped]
    lines = [
        f"🏆 **{name_of(t)}** — {format_line(t, len(playing))}",
        T("Starts {when} ({relative}).", when=f"<t:{int(t.starts_at)}:F>", relative=f"<t:{int(t.starts_at)}:R>")
        if t.status == "open"
        else T("This tournament is {status}.", status=STATUS[t.status]),
        T("Turn clock: {clock}", clock=words.clock_name(t.clock))
        + (f" · {words.options_text(spec, t.options)}" if t.options else ""),
        N("{n} player so far:", "{n} players so far:", len(playing))
        + " "
        + words.listing(words.shown(e.name) for e in playing)
        if playing
        else T("Nobody has joined yet."),
    ]
    if t.status == "open":
        lines.append(T("Click **Join** to play; the organizer can start early with `/tournament start`."))
    return "\n".join(lines)


def signup(t: TournamentRecord, entrants: Sequence[EntrantRecord]) -> Message:
    buttons = (
        [{"type": "tournament", "tournament": t.id, "op": op} for op in ("join", "leave")] if t.status == "open" else []
    )
    return Message(signup_text(t, entrants), components=buttons)


def draw_text(
    t: TournamentRecord, round_no: int, tables: Sequence[tuple[int, Sequence[str]]], byes: Sequence[str]
) -> str:
    """A round's draw: each table's game and players, and the byes."""
    lines = [f"🎲 **{name_of(t)}** — " + T("round {round} of {rounds}", round=round_no, rounds=t.rounds)]
    for game_id, names in tables:
        lines.append(f"• {GAMES[t.kind].title} #{game_id}: " + words.listing(words.shown(n) for n in names))
    for name in byes:
        lines.append("• " + T("{name} has a bye (scored as a win).", name=words.shown(name)))
    return words.capped("\n".join(lines))


def standings_image(t: TournamentRecord, lines: Sequence[Line], names: Mapping[int, str], *, final: bool) -> Image:
    """The standings drawn (:func:`rendering.records.render_standings`): place, player, points, Buchholz,
    games."""
    heading = T("Final standings") if final else T("Standings after round {round}", round=t.round)
    order = [line.user_id for line in lines]
    view = {
        "title": name_of(t),
        "subtitle": heading,
        "final": final,
        "rows": [[line.place, i, shown(line.points), shown(line.buchholz), line.games] for i, line in enumerate(lines)],
    }
    alt = (
        T("{heading} of {tournament}", heading=heading, tournament=name_of(t))
        + ": "
        + "; ".join(f"{line.place}. {names[line.user_id]} {shown(line.points)}" for line in lines[:20])
    )
    return Image("standings", t.kind, view, [names[u] for u in order], alt, f"tournament-{t.id}-standings.png")


def standings_message(t: TournamentRecord, lines: Sequence[Line], names: Mapping[int, str], *, final: bool) -> Message:
    if final:
        return Message("", images=[standings_image(t, lines, names, final=True)])
    head = f"📊 **{name_of(t)}** — " + T("standings after round {round} of {rounds}", round=t.round, rounds=t.rounds)
    return Message(head, images=[standings_image(t, lines, names, final=False)])


def final_text(
    t: TournamentRecord, lines: Sequence[Line], names: Mapping[int, str], places: Sequence[tuple[int, int | None]]
) -> str:
    """The final post: the winner(s), and a link to every game of the tournament (``places``: each game's id
    and where it was played)."""
    top = [names[line.user_id] for line in lines if line.place == 1]
    if top:
        who = words.listing(f"**{words.shown(n)}**" for n in top)
        head = "🏆 " + T("{tournament} is over: {winner} won!", tournament=name_of(t), winner=who)
    else:
        head = "🏆 " + T("{tournament} is over.", tournament=name_of(t))
    links = [
        f"#{game_id}: " + (words.channel_link(t.guild_id, place) if place else T("no thread"))
        for game_id, place in places
    ]
    return words.capped("\n".join([head, T("Every game of it:"), *links]))
