"""What the store holds about one member, and about one server: read whole (``/games privacy``), erased
(``/games forget-me``; a server the bot left, once its grace period is over), and the servers waiting for
that erasure.

Every table that names a member answers here (Red-DiscordBot's ``red_delete_data_for_user`` is the model):
``users`` (their settings), ``seats`` (their places and display names, and through them their moves in
``actions``), ``games`` (the games they started, the last to decide), ``lobbies`` (challenges and tables),
``followers``, ``ratings`` and ``rating_changes``, ``deliveries`` (what their seat was last told) and the
``outbox`` rows of their private messages. What to do with a game still in progress is the table service's
decision (:mod:`tables.privacy`); this module erases what is over.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from data.engine import Row
from data.repository import Repository
from data.rows import JSON, MAYBE_JSON, dumps


@dataclass(frozen=True, slots=True)
class Departure:
    """A server the bot left: its data is erased at ``erase_at`` unless the bot is back before."""

    guild_id: int
    left_at: float
    erase_at: float


@dataclass(frozen=True, slots=True)
class Erased:
    """What an erasure removed, by table (rows)."""

    counts: dict[str, int]


def _dm_lanes(user_id: int) -> str:
    """SQL ``LIKE`` pattern of a member's private lanes in the outbox (``dm:<game>:<user>``)."""
    return f"dm:%:{user_id}"


def forgotten_name(seat: int) -> str:
    """The name a forgotten member's place in a game that is over gets: its number, like a seat nobody named."""
    return f"Player {seat + 1}"


def scrub_lobby(lobby: dict[str, Any], user_id: int) -> bool:
    """Take a member out of a lobby row (as read, JSON columns decoded): their name, their place among the
    invitees and those who accepted, and who closed it. Whether anything changed."""
    names = dict(lobby["names"])
    changed = names.pop(str(user_id), None) is not None
    invitees = [u for u in lobby["invitees"] if u != user_id]
    accepted = [u for u in lobby["accepted"] if u != user_id]
    changed |= invitees != lobby["invitees"] or accepted != lobby["accepted"] or lobby["closed_by"] == user_id
    lobby.update(names=names, invitees=invitees, accepted=accepted)
    if lobby["closed_by"] == user_id:
        lobby["closed_by"] = None
    return changed


class PrivacyRepo(Repository):
    """A member's data read and erased; servers waiting to be erased (the ``departures`` table)."""

    __slots__ = ()

    # ------------------------------------------------------------------ a member's data, read

    async def settings_of(self, user_id: int) -> Row | None:
        return await self._q.fetchone("SELECT notify, locale FROM users WHERE user_id = ?", (user_id,))

    async def places_of(self, user_id: int) -> list[Row]:
        """Every place the member holds in a game (any status), with the game's public facts, oldest first."""
        return await self._q.fetchall(
            "SELECT g.id, g.kind, g.guild_id, g.channel_id, g.thread_id, g.status, g.created_at, g.ended_at,"
            " g.host_id, g.result, s.seat, s.name, s.resigned, s.away, s.acted_at, s.seated_at"
            " FROM seats s JOIN games g ON g.id = s.game_id WHERE s.user_id = ? ORDER BY g.id, s.seat",
            (user_id,),
        )

    async def hosted(self, user_id: int) -> list[int]:
        """The games the member started."""
        rows = await self._q.fetchall("SELECT id FROM games WHERE host_id = ? ORDER BY id", (user_id,))
        return [r["id"] for r in rows]

    async def timed_actions(self, game_id: int) -> list[tuple[int, int, str, float]]:
        """A game's action log with when each was taken: ``(seq, seat, action, at)``."""
        rows = await self._q.fetchall(
            "SELECT seq, seat, action, at FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
        )
        return [(r["seq"], r["seat"], r["action"], r["at"]) for r in rows]

    async def followed(self, user_id: int) -> list[int]:
        rows = await self._q.fetchall("SELECT game_id FROM followers WHERE user_id = ? ORDER BY game_id", (user_id,))
        return [r["game_id"] for r in rows]

    async def ratings_of(self, user_id: int) -> list[Row]:
        return await self._q.fetchall(
            "SELECT scope, kind, mu, sigma, games, wins FROM ratings WHERE user_id = ? ORDER BY kind, scope",
            (user_id,),
        )

    async def rating_changes_of(self, user_id: int) -> list[Row]:
        return await self._q.fetchall(
            "SELECT game_id, scope, kind, won, mu_before, sigma_before, mu, sigma, at FROM rating_changes"
            " WHERE user_id = ? ORDER BY at, game_id, scope",
            (user_id,),
        )

    async def lobbies_of(self, user_id: int) -> list[dict[str, Any]]:
        """Every lobby that names the member (host, invited, joined, named, closed by them), JSON decoded."""
        like = f"%{user_id}%"
        rows = await self._q.fetchall(
            "SELECT id, kind, mode, status, guild_id, channel_id, host_id, invitees, accepted, names, closed_by,"
            " version FROM lobbies WHERE host_id = ? OR closed_by = ? OR invitees LIKE ? OR accepted LIKE ?"
            " OR names LIKE ? ORDER BY id",
            (user_id, user_id, like, like, like),
        )
        found = []
        for row in rows:
            lobby = {key: row[key] for key in ("id", "kind", "mode", "status", "guild_id", "channel_id", "host_id")}
            lobby |= {key: JSON.read(row[key]) for key in ("invitees", "accepted", "names")}
            lobby |= {"closed_by": row["closed_by"], "version": row["version"]}
            named = str(user_id) in lobby["names"] or user_id in (*lobby["invitees"], *lobby["accepted"])
            if named or user_id in (lobby["host_id"], lobby["closed_by"]):
                found.append(lobby)
        return found

    async def queued_for(self, user_id: int) -> int:
        """Private messages to the member the outbox holds (waiting, or sent in the last day)."""
        (count,) = await self._q.fetchone("SELECT COUNT(*) FROM outbox WHERE lane LIKE ?", (_dm_lanes(user_id),))
        return int(count)

    # ------------------------------------------------------------------ a member's data, erased

    async def hand_to_ai(self, game_id: int, seat: int, *, user_id: int, name: str, now: float) -> bool:
        """A place of a game in progress passes from the member to the AI (their resignation, if any, stands);
        what was last told to it is forgotten. False if the member no longer holds it."""
        async with self._writing() as tx:
            changed = await tx.execute(
                "UPDATE seats SET user_id = NULL, name = ?, timeouts = 0, away = 0, acted_at = NULL, seated_at = ?"
                " WHERE game_id = ? AND seat = ? AND user_id = ?",
                (name, now, game_id, seat, user_id),
            )
            if changed:
                await tx.execute("UPDATE games SET revision = revision + 1 WHERE id = ?", (game_id,))
                await tx.execute("DELETE FROM deliveries WHERE game_id = ? AND seat = ?", (game_id, seat))
            return bool(changed)

    async def forget_member(self, user_id: int) -> tuple[Erased, list[int]]:
        """Erase the member from everything that is over, in one transaction: their settings, ratings and
        rating changes, follows, private messages in the outbox and what their seats were last told; their
        places in games that are over keep their moves under :func:`forgotten_name` with nobody's id; the
        games they started or decided last name nobody; lobbies lose their name and id (see
        :func:`scrub_lobby`; the host of one becomes 0, nobody). A place in a game in progress is left as it
        is (the table service hands it to the AI first). What was erased, and the games whose seats changed."""
        counts: dict[str, int] = {}
        async with self._writing() as tx:
            places = await tx.fetchall(
                "SELECT s.game_id, s.seat FROM seats s JOIN games g ON g.id = s.game_id"
                " WHERE s.user_id = ? AND g.status != 'active'",
                (user_id,),
            )
            for place in places:
                await tx.execute("DELETE FROM deliveries WHERE game_id = ? AND seat = ?", (place[0], place[1]))
                await tx.execute(
                    "UPDATE seats SET user_id = NULL, name = ?, acted_at = NULL WHERE game_id = ? AND seat = ?",
                    (forgotten_name(place[1]), place[0], place[1]),
                )
            games = sorted({place[0] for place in places})
            for game_id in games:
                await tx.execute("UPDATE games SET revision = revision + 1 WHERE id = ?", (game_id,))
            counts["places"] = len(places)
            for table, sql in (
                ("settings", "DELETE FROM users WHERE user_id = ?"),
                ("ratings", "DELETE FROM ratings WHERE user_id = ?"),
                ("rating_changes", "DELETE FROM rating_changes WHERE user_id = ?"),
                ("follows", "DELETE FROM followers WHERE user_id = ?"),
                ("hosted", "UPDATE games SET host_id = 0 WHERE host_id = ?"),
                ("decided_last", "UPDATE games SET last_member = NULL WHERE last_member = ?"),
                ("lobbies_hosted", "UPDATE lobbies SET host_id = 0 WHERE host_id = ?"),
                ("tournaments_organized", "UPDATE tournaments SET host_id = 0 WHERE host_id = ?"),
            ):
                counts[table] = await tx.execute(sql, (user_id,))
            counts["messages"] = await tx.execute("DELETE FROM outbox WHERE lane LIKE ?", (_dm_lanes(user_id),))
            counts["lobbies"] = await self._scrub_lobbies(tx, user_id)
            counts["tournaments"] = await self._scrub_entrants(tx, user_id)
        return Erased(counts), games

    async def _scrub_entrants(self, tx: Any, user_id: int) -> int:
        """The member's sign-ups: each becomes a nameless entrant of its tournament (``Player n``, the n-th
        forgotten there, with the id ``-n`` that no member has), dropped from any round still to be drawn; its
        tables and points follow, so standings still add up."""
        rows = await tx.fetchall("SELECT tournament_id FROM entrants WHERE user_id = ?", (user_id,))
        for row in rows:
            tournament = row["tournament_id"]
            known = await tx.fetchone(
                "SELECT COUNT(*) AS n FROM entrants WHERE tournament_id = ? AND user_id < 0", (tournament,)
            )
            ghost = -(known["n"] + 1)
            await tx.execute(
                "UPDATE entrants SET user_id = ?, name = ?, dropped = 1 WHERE tournament_id = ? AND user_id = ?",
                (ghost, forgotten_name(-ghost - 1), tournament, user_id),
            )
            tables = await tx.fetchall(
                "SELECT round, table_no, players, points FROM tournament_tables WHERE tournament_id = ?", (tournament,)
            )
            for table in tables:
                players, points = JSON.read(table["players"]), MAYBE_JSON.read(table["points"]) or {}
                if user_id not in players:
                    continue
                players = [ghost if p == user_id else p for p in players]
                points = {str(ghost) if k == str(user_id) else k: v for k, v in points.items()}
                await tx.execute(
                    "UPDATE tournament_tables SET players = ?, points = ? WHERE tournament_id = ? AND round = ?"
                    " AND table_no = ?",
                    (JSON.write(players), MAYBE_JSON.write(points), tournament, table["round"], table["table_no"]),
                )
        return len(rows)

    async def tournaments_of(self, user_id: int) -> list[Row]:
        """The tournaments the member signed up for: each one's id, game, status and the member's entry."""
        return await self._q.fetchall(
            "SELECT t.id, t.kind, t.status, e.name, e.joined_at, e.dropped FROM entrants e"
            " JOIN tournaments t ON t.id = e.tournament_id WHERE e.user_id = ? ORDER BY t.id",
            (user_id,),
        )

    async def _scrub_lobbies(self, tx: Any, user_id: int) -> int:
        like = f"%{user_id}%"
        rows = await tx.fetchall(
            "SELECT id, invitees, accepted, names, closed_by FROM lobbies"
            " WHERE closed_by = ? OR invitees LIKE ? OR accepted LIKE ? OR names LIKE ?",
            (user_id, like, like, like),
        )
        changed = 0
        for row in rows:
            lobby = {"closed_by": row["closed_by"]} | {k: JSON.read(row[k]) for k in ("invitees", "accepted", "names")}
            if scrub_lobby(lobby, user_id):
                await tx.execute(
                    "UPDATE lobbies SET invitees = ?, accepted = ?, names = ?, closed_by = ?, version = version + 1"
                    " WHERE id = ?",
                    (
                        dumps(lobby["invitees"]),
                        dumps(lobby["accepted"]),
                        dumps(lobby["names"]),
                        lobby["closed_by"],
                        row["id"],
                    ),
                )
                changed += 1
        return changed

    # ------------------------------------------------------------------ servers the bot left

    async def depart(self, guild_id: int, *, now: float, erase_at: float) -> None:
        """Remember that the bot left a server, to erase its data at ``erase_at`` (leaving again keeps the
        first date)."""
        await self._write(
            "INSERT INTO departures (guild_id, left_at, erase_at) VALUES (?, ?, ?) ON CONFLICT (guild_id) DO NOTHING",
            (guild_id, now, erase_at),
        )

    async def return_to(self, guild_id: int) -> bool:
        """The bot is in the server again: its erasure is called off. Whether one was waiting."""
        return await self._write("DELETE FROM departures WHERE guild_id = ?", (guild_id,)) == 1

    async def departures(self) -> list[Departure]:
        rows = await self._q.fetchall("SELECT guild_id, left_at, erase_at FROM departures ORDER BY erase_at")
        return [Departure(r["guild_id"], r["left_at"], r["erase_at"]) for r in rows]

    async def active_games_in(self, guild_id: int) -> list[int]:
        rows = await self._q.fetchall(
            "SELECT id FROM games WHERE guild_id = ? AND status = 'active' ORDER BY id", (guild_id,)
        )
        return [r["id"] for r in rows]

    async def open_lobbies_in(self, guild_id: int) -> list[int]:
        rows = await self._q.fetchall(
            "SELECT id FROM lobbies WHERE guild_id = ? AND status = 'open' ORDER BY id", (guild_id,)
        )
        return [r["id"] for r in rows]

    async def erase_server(self, guild_id: int) -> tuple[Erased, list[int]] | None:
        """Erase a server's data in one transaction, if its erasure is still waiting (another process, or a
        return, may have settled it): its lobbies (and their messages owed), its tournaments (the same), its
        games with everything that hangs on them (seats, moves, follows, rating changes, messages owed), its
        ratings and its language.
        Ratings across servers stay as the games made them. What was erased and the games; ``None`` if there
        was nothing to do."""
        counts: dict[str, int] = {}
        async with self._writing() as tx:
            if not await tx.execute("DELETE FROM departures WHERE guild_id = ?", (guild_id,)):
                return None
            games = [r["id"] for r in await tx.fetchall("SELECT id FROM games WHERE guild_id = ?", (guild_id,))]
            lobbies = [r["id"] for r in await tx.fetchall("SELECT id FROM lobbies WHERE guild_id = ?", (guild_id,))]
            for lobby_id in lobbies:
                await tx.execute("DELETE FROM outbox WHERE lane = ?", (f"lobby:{lobby_id}",))
            counts["lobbies"] = await tx.execute("DELETE FROM lobbies WHERE guild_id = ?", (guild_id,))
            # Its tournaments (their entrants, rounds and tables go with them) before the games their tables
            # point at, and what was owed for them (``tournament:N``, ``event:N``).
            held = await tx.fetchall("SELECT id FROM tournaments WHERE guild_id = ?", (guild_id,))
            for row in held:
                await tx.execute(
                    "DELETE FROM outbox WHERE lane = ? OR lane = ?", (f"tournament:{row['id']}", f"event:{row['id']}")
                )
            counts["tournaments"] = await tx.execute("DELETE FROM tournaments WHERE guild_id = ?", (guild_id,))
            # Rows of another server's lobby never point at this server's games; a rematch is proposed where
            # its game was played.
            counts["games"] = await tx.execute("DELETE FROM games WHERE guild_id = ?", (guild_id,))
            counts["ratings"] = await tx.execute("DELETE FROM ratings WHERE scope = ?", (guild_id,))
            counts["settings"] = await tx.execute("DELETE FROM guilds WHERE guild_id = ?", (guild_id,))
        return Erased(counts), games
