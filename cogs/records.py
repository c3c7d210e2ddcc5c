"""The records of finished games in Discord: the log file on a final message, and what ``/games
leaderboard``, ``stats``, ``history`` and ``replay`` post (the commands themselves are in ``cogs.games``)."""

from __future__ import annotations

import asyncio
import io
from dataclasses import dataclass

import discord

from cogs.messages import shown, title, winners
from cogs.private import place_link
from data.ratings import GLOBAL
from data.store import GameRecord, Store
from games.registry import GAMES
from rendering import pool as render_pool
from rendering import records as drawing
from tables.records import game_log, member_stats, players_won, public_positions, sample
from tables.service import GameError

HISTORY_PAGE = 5
STATS_GAMES = 500
"""The latest games that ``/games stats`` counts."""


async def log_file(store: Store, record: GameRecord) -> discord.File:
    """The game's readable, verifiable action log (``python bot.py verify`` checks it)."""
    text = await asyncio.to_thread(game_log, record, await store.actions(record.id))
    return discord.File(
        io.BytesIO(text.encode()),
        filename=f"{record.kind}-{record.id}-log.txt",
        description=f"The action log of {GAMES[record.kind].title} #{record.id}: check it with python bot.py verify",
    )


def scope_of(guild_id: int | None, scope: str | None) -> tuple[int, str]:
    """The ratings scope asked for (this server unless ``global``, or outside a server) and its name."""
    if scope == "global" or guild_id is None:
        return GLOBAL, "every server"
    return guild_id, "this server"


async def leaderboard_file(store: Store, kind: str, guild_id: int | None, scope: str | None) -> discord.File:
    spec = GAMES[kind]
    number, name = scope_of(guild_id, scope)
    standings = await store.leaderboard(kind, number, limit=10)
    rows = [drawing.LeaderRow(i + 1, s.name or "?", s.rating.shown, s.games, s.wins) for i, s in enumerate(standings)]
    png = await render_pool.run(drawing.render_leaderboard, f"{spec.title} leaderboard", f"Ratings in {name}", rows)
    alt = "; ".join(f"{r.rank}. {r.name} {r.rating:.1f} ({r.games} games, {r.wins} won)" for r in rows)
    return discord.File(
        io.BytesIO(png), filename=f"{kind}-leaderboard.png", description=(alt or "Nobody is rated yet")[:1000]
    )


def _game_line(record: GameRecord, user_id: int | None = None) -> str:
    """One game that is over, for people: title, when, who played, how it ended, a link to its thread."""
    spec = GAMES[record.kind]
    when = f"<t:{int(record.ended_at or record.created_at)}:d>"
    players = ", ".join(shown(n) for n in record.names)
    if record.status == "abandoned":
        outcome = "abandoned"
    else:
        won = winners(record, spec)
        outcome = "🏆 " + ", ".join(won) if won else "no winner"
        if user_id is not None and record.seat_of(user_id) is not None:
            outcome = ("won" if record.seat_of(user_id) in players_won(record) else "lost") + f" · {outcome}"
    return f"{title(spec, record)} · {when} · {players} · {outcome} · {place_link(record)}"


def _where(member: discord.abc.User, viewer: int, guild_id: int | None) -> dict:
    """Which games of ``member`` a ``viewer`` is shown: all of their own; another member's in this server
    only (a member's games elsewhere are not this server's business)."""
    return {"everywhere": member.id == viewer, "guild_id": guild_id}


async def stats_message(store: Store, member: discord.abc.User, viewer: int, guild_id: int | None) -> dict:
    """``/games stats``: an image with a row per game, and the latest games with links."""
    number, name = scope_of(guild_id, None)
    ids = await store.ended_games(member.id, limit=STATS_GAMES, **_where(member, viewer, guild_id))
    records = [r for i in ids if (r := await store.load_game(i))]
    stats = member_stats(records, member.id)
    ratings = await store.standings_of(member.id, number)
    rows = []
    for kind, spec in GAMES.items():
        entry = stats.get(kind)
        if entry is None and kind not in ratings:
            continue
        rating = ratings.get(kind)
        trend = await store.rating_trend(member.id, number, kind)
        rows.append(
            drawing.StatsRow(
                spec.title,
                entry.played if entry else 0,
                entry.won if entry else 0,
                rating.rating.shown if rating else None,
                tuple(trend),
                tuple(entry.favourites()) if entry else (),
            )
        )
    png = await render_pool.run(drawing.render_stats, member.display_name, f"Ratings in {name}", rows)
    alt = "; ".join(f"{r.title}: {r.played} played, {r.won} won" for r in rows) or "No finished games yet"
    latest = [_game_line(r, member.id) for r in records if r.status == "finished"][:5]
    lines = [f"📊 **{shown(member.display_name)}** — stats (ratings in {name})"]
    lines += ["Last games:", *latest] if latest else ["No finished games yet."]
    file = discord.File(io.BytesIO(png), filename=f"stats-{member.id}.png", description=alt[:1000])
    return {"content": "\n".join(lines)[:2000], "file": file}


async def history_page(
    store: Store, member: discord.abc.User, viewer: int, guild_id: int | None, page: int
) -> tuple[str, int]:
    """One page of ``/games history`` (0-based, clamped) and the number of pages."""
    where = _where(member, viewer, guild_id)
    total = await store.count_ended_games(member.id, **where)
    pages = max(1, -(-total // HISTORY_PAGE))
    page = min(max(page, 0), pages - 1)
    ids = await store.ended_games(member.id, limit=HISTORY_PAGE, offset=page * HISTORY_PAGE, **where)
    records = [r for i in ids if (r := await store.load_game(i))]
    head = f"📜 **{shown(member.display_name)}** — games played, latest first (page {page + 1} of {pages})"
    body = [_game_line(r, member.id) for r in records] or ["No games played to the end yet."]
    return "\n".join([head, *body])[:2000], pages


class HistoryPages(discord.ui.View):
    """◀ / ▶ buttons that turn the pages of ``/games history`` (on the ephemeral message of who asked)."""

    def __init__(
        self, store: Store, member: discord.abc.User, viewer: int, guild_id: int | None, page: int, pages: int
    ) -> None:
        super().__init__(timeout=900)
        self.store, self.member, self.viewer, self.guild_id, self.page = store, member, viewer, guild_id, page
        self.older.disabled = page >= pages - 1
        self.newer.disabled = page <= 0

    async def _turn(self, interaction: discord.Interaction, page: int) -> None:
        text, pages = await history_page(self.store, self.member, self.viewer, self.guild_id, page)
        self.page = min(max(page, 0), pages - 1)
        self.older.disabled = self.page >= pages - 1
        self.newer.disabled = self.page <= 0
        await interaction.response.edit_message(content=text, view=self)

    @discord.ui.button(label="◀ Newer", style=discord.ButtonStyle.secondary)
    async def newer(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await self._turn(interaction, self.page - 1)

    @discord.ui.button(label="Older ▶", style=discord.ButtonStyle.secondary)
    async def older(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await self._turn(interaction, self.page + 1)


@dataclass(slots=True)
class Replay:
    """What ``/games replay`` posts, and how it was made."""

    content: str
    files: list[discord.File]
    positions: int
    """Public positions in the whole game."""
    versions: list[int]
    """The action number after which each frame shows the board (the last frame is the final image)."""


def ensure_over(record: GameRecord) -> None:
    """Replays are of games that are over (a running game's thread shows its board)."""
    if record.status == "active":
        raise GameError(f"{GAMES[record.kind].title} #{record.id} is still being played: replay it once it is over.")


async def replay(store: Store, record: GameRecord) -> Replay:
    """The public boards of a game that is over, as an animated WebP ending on the final image, with its
    action log. Only spectator views are drawn: no seat's secret."""
    ensure_over(record)
    spec = GAMES[record.kind]
    actions = await store.actions(record.id)
    positions = await asyncio.to_thread(public_positions, record, actions)
    shown_positions = sample(positions, drawing.MAX_FRAMES)
    ended = spec.game.is_over(record.state)

    def draw() -> bytes:
        boards = [spec.render_board(p.view, p.names) for p in (shown_positions[:-1] if ended else shown_positions)]
        last = shown_positions[-1]
        final = spec.render_final(last.view, last.names) if ended else None
        return drawing.render_replay(boards, final)

    webp = await render_pool.run(draw)
    sampled = f", {len(shown_positions)} shown" if len(shown_positions) < len(positions) else ""
    content = (
        f"🎞️ Replay of {title(spec, record)}: {len(actions)} actions, {len(positions)} public positions{sampled}, "
        f"as spectators saw them. The log is attached: check it with `python bot.py verify`. {place_link(record)}"
    )
    image = discord.File(
        io.BytesIO(webp),
        filename=f"{record.kind}-{record.id}-replay.webp",
        description=f"Replay of {spec.title} #{record.id}, every public board from start to finish",
    )
    return Replay(content, [image, await log_file(store, record)], len(positions), [p.version for p in shown_positions])
