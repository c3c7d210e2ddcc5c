"""The read model: what members look up about games — their lists, leaderboards, stats, history and replays, and
a finished game's verifiable log. Built on the store alone (no clocks, AI or delivery): :class:`Reads`."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from data.ratings import GLOBAL
from data.store import GameRecord, Store
from games.core import JSON
from games.i18n import N, T
from games.registry import GAMES
from tables import words
from tables.authority import GameError
from tables.records import apply_logged, game_log, names_at, replay
from tables.results import final_view
from tables.seating import seat_owners


class Reads:
    """Lookups in the store, for members' commands (``/games list``, ``leaderboard``, ``stats``, ``history``,
    ``replay``) and for audits."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def game(self, game_id: int) -> GameRecord:
        record = await self.store.games.load(game_id)
        if record is None:
            raise GameError(T("There is no game #{number}.", number=game_id))
        return record

    async def leaderboard(self, kind: str, guild_id: int | None, scope: str | None) -> Board:
        """A game's best-rated players, in a server or everywhere (``scope``)."""
        return await _leaderboard(self.store, kind, guild_id, scope)

    async def stats(self, member_id: int, member_name: str, viewer: int, guild_id: int | None) -> Stats:
        """A member's games, as ``viewer`` may see them: played, won, rating and trend, opponents."""
        return await _stats(self.store, member_id, member_name, viewer, guild_id)

    async def history_page(
        self, member_id: int, member_name: str, viewer: int, guild_id: int | None, page: int
    ) -> tuple[str, int, int]:
        """One page of a member's finished games (0-based, clamped): its text, the page shown, how many pages."""
        return await _history_page(self.store, member_id, member_name, viewer, guild_id, page)

    async def replay_of(self, record: GameRecord, limit: int) -> Replay:
        """The public boards of a game that is over, at most ``limit``."""
        return await _replay_of(self.store, record, limit)

    async def log_text(self, record: GameRecord) -> str:
        """The verifiable action log of a game that is over (:func:`tables.records.game_log`)."""
        return await asyncio.to_thread(game_log, record, await self.store.games.actions(record.id))

    async def replay(self, game_id: int) -> JSON:
        """The game's state rebuilt from its seed and action log (for audits and tests)."""
        return replay(await self.game(game_id), await self.store.games.actions(game_id))


# ---------------------------------------------------------------------------------------------- replays


@dataclass(frozen=True, slots=True)
class Position:
    """A public position of a game: after action ``version`` (0: the start), what spectators saw."""

    version: int
    view: dict[str, Any]
    names: tuple[str, ...]


def public_positions(record: GameRecord, actions: Iterable[tuple[int, int, str]]) -> list[Position]:
    """Every position spectators could see, in order: the start, then each action that changed the
    public view (a secret choice that shows nothing new makes no new position)."""
    spec = GAMES[record.kind]
    game = spec.game

    def drawn(state: JSON) -> tuple[str, ...]:  # the names an image is drawn with (tables.seating.image_names)
        return tuple(record.names) if spec.names_by_player else tuple(names_at(game, state, record.names))

    state = game.new_game(len(record.seats), record.options, record.seed)
    out = [Position(0, game.view(state, None), drawn(state))]
    for seq, seat, action in actions:
        state = apply_logged(game, state, seat, action)
        view = game.view(state, None)
        if view != out[-1].view:
            out.append(Position(seq, view, drawn(state)))
    if game.is_over(state):  # the final image crowns whom the platform crowned
        out[-1] = replace(out[-1], view=final_view(game, state, record.result, out[-1].view))
    return out


def sample(positions: Sequence[Position], limit: int) -> list[Position]:
    """At most ``limit`` positions spread evenly over the game, always the first and the last."""
    if len(positions) <= limit:
        return list(positions)
    step = (len(positions) - 1) / (limit - 1)
    return [positions[round(i * step)] for i in range(limit)]


# ---------------------------------------------------------------------------------------------- results


def players_won(record: GameRecord) -> set[int]:
    """The players (record seat numbers) who won a game that is over."""
    game = GAMES[record.kind].game
    winners = (record.result or {}).get("winners") or []
    owners = seat_owners(game, record.state)
    return {owners[s] for s in winners if s < len(owners)}


@dataclass(slots=True)
class GameStats:
    """A member's results in one game: played and won (games that are over, abandoned ones not counted),
    their opponents by how often they met, their latest games (newest first)."""

    kind: str
    played: int = 0
    won: int = 0
    opponents: dict[str, int] = field(default_factory=dict)
    latest: list[GameRecord] = field(default_factory=list)

    def favourites(self, count: int = 3) -> list[str]:
        return sorted(self.opponents, key=lambda name: (-self.opponents[name], name))[:count]


def member_stats(records: Iterable[GameRecord], user_id: int, *, latest: int = 3) -> dict[str, GameStats]:
    """Per game kind (in the registry's order), a member's :class:`GameStats` over ``records`` (given
    newest first)."""
    stats: dict[str, GameStats] = {}
    for record in records:
        player = record.seat_of(user_id)
        if player is None or record.status != "finished" or record.kind not in GAMES:
            continue
        entry = stats.setdefault(record.kind, GameStats(record.kind))
        entry.played += 1
        entry.won += player in players_won(record)
        for seat in record.seats:
            if seat.seat != player and seat.user_id not in (None, user_id):
                entry.opponents[seat.name] = entry.opponents.get(seat.name, 0) + 1
        if len(entry.latest) < latest:
            entry.latest.append(record)
    return {kind: stats[kind] for kind in GAMES if kind in stats}


# ---------------------------------------------------------------------------------------------- commands
# What /games leaderboard, stats, history and replay show, without Discord (the cogs draw and send it).

HISTORY_PAGE = 5
STATS_GAMES = 500
"""The latest games that ``/games stats`` counts."""
GLOBAL_SCOPE = T("every server")


def scope_of(guild_id: int | None, scope: str | None) -> tuple[int, str]:
    """The ratings scope asked for (this server unless ``global``, or outside a server) and its name."""
    if scope == "global" or guild_id is None:
        return GLOBAL, GLOBAL_SCOPE
    return guild_id, T("this server")


@dataclass(frozen=True, slots=True)
class Board:
    """A leaderboard: its heading and rows ``(rank, name, rating, games, wins)``."""

    title: str
    subtitle: str
    rows: list[tuple[int, str, float, int, int]]

    @property
    def alt(self) -> str:
        """The image's description (marked; cut to Discord's limit once written out)."""
        rows = (
            N(
                "{rank}. {name} {rating} ({n} game, {wins} won)",
                "{rank}. {name} {rating} ({n} games, {wins} won)",
                r[3],
                rank=r[0],
                name=r[1],
                rating=f"{r[2]:.1f}",
                wins=r[4],
            )
            for r in self.rows
        )
        return "; ".join(rows) or T("Nobody is rated yet")


async def _leaderboard(store: Store, kind: str, guild_id: int | None, scope: str | None) -> Board:
    number, name = scope_of(guild_id, scope)
    standings = await store.ratings.leaderboard(kind, number, limit=10)
    rows = [(i + 1, s.name or "?", s.rating.shown, s.games, s.wins) for i, s in enumerate(standings)]
    return Board(T("{game} leaderboard", game=GAMES[kind].title), T("Ratings in {scope}", scope=name), rows)


def game_line(record: GameRecord, user_id: int | None = None) -> str:
    """One game that is over, for people: title, when, who played, how it ended, a link to its thread."""
    spec = GAMES[record.kind]
    when = f"<t:{int(record.ended_at or record.created_at)}:d>"
    if record.status == "abandoned":
        outcome = T("abandoned")
    else:
        won = words.winners(record, spec)
        outcome = "🏆 " + ", ".join(won) if won else T("no winner")
        if user_id is not None and record.seat_of(user_id) is not None:
            outcome = (T("won") if record.seat_of(user_id) in players_won(record) else T("lost")) + f" · {outcome}"
    return (
        f"{words.title(spec, record)} · {when} · {words.listing(record.names)} · {outcome} · {words.place_link(record)}"
    )


def _where(member_id: int, viewer: int, guild_id: int | None) -> dict[str, Any]:
    """Which games of a member a ``viewer`` is shown: all of their own; another member's in this server
    only (a member's games elsewhere are not this server's business)."""
    return {"everywhere": member_id == viewer, "guild_id": guild_id}


@dataclass(frozen=True, slots=True)
class Stats:
    """``/games stats``: the image's heading and rows ``(title, played, won, rating, trend, opponents)``,
    and the message's text."""

    title: str
    subtitle: str
    rows: list[tuple[str, int, int, float | None, tuple[float, ...], tuple[str, ...]]]
    content: str

    @property
    def alt(self) -> str:
        """The image's description (marked; cut to Discord's limit once written out)."""
        rows = (T("{game}: {played} played, {won} won", game=r[0], played=r[1], won=r[2]) for r in self.rows)
        return "; ".join(rows) or T("No finished games yet")


async def _stats(store: Store, member_id: int, member_name: str, viewer: int, guild_id: int | None) -> Stats:
    number, name = scope_of(guild_id, None)
    ids = await store.games.ended(member_id, limit=STATS_GAMES, **_where(member_id, viewer, guild_id))
    records = [r for i in ids if (r := await store.games.load(i))]
    per_game = member_stats(records, member_id)
    ratings = await store.ratings.standings_of(member_id, number)
    rows = []
    for kind, spec in GAMES.items():
        entry = per_game.get(kind)
        if entry is None and kind not in ratings:
            continue
        rating = ratings.get(kind)
        trend = await store.ratings.trend(member_id, number, kind)
        rows.append(
            (
                spec.title,
                entry.played if entry else 0,
                entry.won if entry else 0,
                rating.rating.shown if rating else None,
                tuple(trend),
                tuple(entry.favourites()) if entry else (),
            )
        )
    latest = [game_line(r, member_id) for r in records if r.status == "finished"][:5]
    lines = ["📊 " + T("**{name}** — stats (ratings in {scope})", name=words.shown(member_name), scope=name)]
    lines += [T("Last games:"), *latest] if latest else [T("No finished games yet.")]
    return Stats(member_name, T("Ratings in {scope}", scope=name), rows, words.capped("\n".join(lines)))


async def _history_page(
    store: Store, member_id: int, member_name: str, viewer: int, guild_id: int | None, page: int
) -> tuple[str, int, int]:
    """One page of ``/games history`` (0-based, clamped): its text, the page shown and the number of pages."""
    where = _where(member_id, viewer, guild_id)
    total = await store.games.count_ended(member_id, **where)
    pages = max(1, -(-total // HISTORY_PAGE))
    page = min(max(page, 0), pages - 1)
    ids = await store.games.ended(member_id, limit=HISTORY_PAGE, offset=page * HISTORY_PAGE, **where)
    records = [r for i in ids if (r := await store.games.load(i))]
    head = "📜 " + T(
        "**{name}** — games played, latest first (page {page} of {pages})",
        name=words.shown(member_name),
        page=page + 1,
        pages=pages,
    )
    body = [game_line(r, member_id) for r in records] or [T("No games played to the end yet.")]
    return words.capped("\n".join([head, *body])), page, pages


def ensure_over(record: GameRecord) -> None:
    """Replays are of games that are over (a running game's thread shows its board)."""
    if record.status == "active":
        raise GameError(
            T(
                "{game} is still being played: replay it once it is over.",
                game=f"{GAMES[record.kind].title} #{record.id}",
            )
        )


@dataclass(frozen=True, slots=True)
class Replay:
    """What ``/games replay`` posts: the public positions to draw (the last as the final image when the game
    ended by its rules), the message, and how it was made."""

    frames: list[Position]
    final: bool
    content: str
    positions: int
    """Public positions in the whole game."""

    @property
    def versions(self) -> list[int]:
        """The action number after which each frame shows the board."""
        return [p.version for p in self.frames]


async def _replay_of(store: Store, record: GameRecord, limit: int) -> Replay:
    """The public boards of a game that is over (at most ``limit``, spread evenly): only spectator views,
    no seat's secret."""
    ensure_over(record)
    spec = GAMES[record.kind]
    actions = await store.games.actions(record.id)
    positions = await asyncio.to_thread(public_positions, record, actions)
    frames = sample(positions, limit)
    values = {
        "game": words.title(spec, record),
        "actions": len(actions),
        "positions": len(positions),
        "link": words.place_link(record),
    }
    if len(frames) < len(positions):
        content = T(
            "Replay of {game}: {actions} actions, {positions} public positions, {shown} shown, as spectators saw "
            "them. The log is attached: check it with `python bot.py verify`. {link}",
            shown=len(frames),
            **values,
        )
    else:
        content = T(
            "Replay of {game}: {actions} actions, {positions} public positions, as spectators saw them. The log is "
            "attached: check it with `python bot.py verify`. {link}",
            **values,
        )
    content = "🎞️ " + content
    return Replay(frames, spec.game.is_over(record.state), content, len(positions))
