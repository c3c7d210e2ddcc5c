"""What the bot keeps about people, shown and erased, without Discord.

* ``/games privacy`` — everything stored about the member who asks, as one JSON document
  (:meth:`Privacy.export`): their ids and the names they played under, their settings, their places and
  their own moves in games, the games they started, ratings and what each game did to them, the games they
  follow, the lobbies that name them, the tournaments they signed up for, private messages the outbox holds
  for them. Never another member's:
  nothing of a game's state, seed (secret until the game is over) or other seats' moves.
* ``/games forget-me`` — says what it will do (:meth:`Privacy.plan`), then, once the member confirms, does
  it (:meth:`Privacy.forget`). In a game still in progress the AI takes their place and plays it to the end
  (as it plays for a member who is away), so the other players' game goes on; the thread says so, naming
  the place, not them. Open challenges and tables they are in lose them (one they host or were challenged
  to is called off); they leave tournaments still signing up and are not drawn again in running ones, and
  in every tournament their entry becomes "Player N" (its tables and points follow, so standings still add
  up). Everything else is erased in one transaction (:meth:`data.privacy.PrivacyRepo.forget_member`):
  settings, ratings and their history, follows, private messages owed, and their id and name wherever they
  appear. A game that is over keeps its moves, played by "Player N" instead of their name: its log, written
  from the store whenever it is asked for, names "Player N" and still passes ``verify``, which checks the
  seed against its published digest and replays the moves; the names are not part of either, and the log's
  own lines are checked against its header's names, which are the same pseudonym.
  Messages already posted in Discord (boards, results, the logs attached to them) are Discord's and the
  server's: the bot does not go back and edit them.
* A server the bot leaves (kicked, or the server deleted): its games in progress end at once (abandoned,
  rated by nobody), its open lobbies close, and the server's data is erased after a grace period
  (``TABLES_FORGET_SERVER_AFTER``, 30 days) unless the bot is back in it by then. The erasure waits in the
  store (``departures``), so it survives restarts: a process erases what is due when it starts and then
  whenever the next one falls due.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from data.engine import Row
from data.ratings import GLOBAL, Rating
from data.store import GameRecord, Store
from games.core import Termination
from games.i18n import N, T, localize
from games.registry import GAMES
from tables import notices, outbox, words
from tables.authority import Caller, GameError, may_confirm
from tables.cache import GameCache
from tables.config import Config
from tables.languages import Languages
from tables.lobbies import Lobbies
from tables.outbox import Message
from tables.pacer import Pacer
from tables.play import Changed, Play
from tables.records import apply_logged
from tables.results import ended_without_play
from tables.seating import seat_owners
from tables.starting import ai_name
from tables.tournaments.service import Tournaments

log = logging.getLogger("tables.privacy")

LOOK_EVERY = 3600.0
"""Seconds at most between two looks for servers whose erasure is due (another process may add one)."""


def _when(ts: float | None) -> str | None:
    return None if ts is None else datetime.fromtimestamp(ts, UTC).isoformat(timespec="seconds")


def own_moves(record: GameRecord, player: int, actions: list[tuple[int, int, str, float]]) -> list[dict[str, Any]]:
    """The moves place ``player`` of a game made (for the engine seats it decided for when each was made, and
    only since its member took it over), replayed from the seed: never another seat's."""
    game = GAMES[record.kind].game
    since = record.seats[player].seated_at or 0.0
    state = game.new_game(len(record.seats), record.options, record.seed)
    mine = []
    for seq, seat, action, at in actions:
        if seat_owners(game, state)[seat] == player and at >= since:
            mine.append({"number": seq, "move": action, "at": _when(at)})
        state = apply_logged(game, state, seat, action)
    return mine


@dataclass(frozen=True, slots=True)
class Plan:
    """What ``/games forget-me`` would do for a member now (counts, and the games in progress by name)."""

    in_progress: list[str]
    over: int
    lobbies: int
    """Challenges and tables still open that name the member."""
    past_lobbies: int
    """Challenges and tables that are over (started, declined, expired…) that name the member."""
    ratings: int
    follows: int
    settings: bool
    tournaments: int = 0
    """Tournaments the member signed up for (any status)."""

    def text(self) -> str:
        """The confirmation's words (marked): exactly what confirming does."""
        lines = [*self._erased(), *self._tables()]
        if not lines:
            lines.append(T("Nothing yet: I store nothing about you but what this click tells me."))
        return "\n".join(
            [
                "**" + T("Forget me: this is what confirming erases, in every server") + "**",
                *("• " + line for line in lines),
                T(
                    "Messages already posted (boards, results, the logs attached to them) stay as Discord keeps them. "
                    "This cannot be undone."
                ),
            ]
        )

    def _erased(self) -> list[str]:
        """What goes whole: settings, ratings, follows."""
        lines = []
        if self.settings:
            lines.append(T("Your settings: turn reminders and the language I write to you in."))
        if self.ratings:
            lines.append(
                N(
                    "Your rating in {n} game and its history.",
                    "Your ratings in {n} games and their history.",
                    self.ratings,
                )
            )
        if self.follows:
            lines.append(N("You stop following {n} game.", "You stop following {n} games.", self.follows))
        return lines

    def _tables(self) -> list[str]:
        """What happens at the tables that name the member: lobbies, games in progress, games over."""
        lines = []
        if self.lobbies:
            lines.append(
                N(
                    "You leave {n} challenge or table; one you host or are challenged to is called off.",
                    "You leave {n} challenges and tables; those you host or are challenged to are called off.",
                    self.lobbies,
                )
            )
        if self.past_lobbies:
            lines.append(
                N(
                    "Your name and id are taken out of {n} past challenge or table.",
                    "Your name and id are taken out of {n} past challenges and tables.",
                    self.past_lobbies,
                )
            )
        if self.tournaments:
            lines.append(
                N(
                    "In {n} tournament you are “Player N” from now on; you leave it if it is not over.",
                    "In {n} tournaments you are “Player N” from now on; you leave those that are not over.",
                    self.tournaments,
                )
            )
        if self.in_progress:
            lines.append(
                T(
                    "Games in progress ({games}): the AI takes your place and plays it to the end, so the others"
                    " play on; the thread says a player left, not who.",
                    games=", ".join(self.in_progress),
                )
            )
        if self.over:
            lines.append(
                N(
                    "{n} game that is over keeps its moves, played by “Player N” instead of your name, so its log"
                    " still passes `python bot.py verify`.",
                    "{n} games that are over keep their moves, played by “Player N” instead of your name, so their"
                    " logs still pass `python bot.py verify`.",
                    self.over,
                )
            )
        return lines


class Privacy:
    """A member's data shown and erased; the data of servers the bot left erased after their grace period."""

    def __init__(
        self,
        store: Store,
        cache: GameCache,
        config: Config,
        now: Callable[[], float],
        play: Play,
        lobbies: Lobbies,
        languages: Languages,
        changed: Changed,
        tournaments: Tournaments,
    ) -> None:
        self.store = store
        self.cache = cache
        self.config = config
        self.now = now
        self.play = play
        self.lobbies = lobbies
        self.languages = languages
        self.changed = changed
        self.tournaments = tournaments
        self._departed: set[int] | None = None
        """The servers whose erasure waits, as this process last read or changed them (``None``: not read yet)."""
        self._pacer = Pacer(self._look, "privacy-erasing")

    # ------------------------------------------------------------------ a member

    async def export(self, caller: Caller) -> dict[str, Any]:
        """Everything the store holds about the caller (see the module), as JSON-ready data."""
        user_id, db = caller.user_id, self.store.privacy
        places = await db.places_of(user_id)
        games = [await self._place(row) for row in places]
        settings = await db.settings_of(user_id)
        names = sorted({row["name"] for row in places})
        lobbies = [self._lobby(lobby, user_id) for lobby in await db.lobbies_of(user_id)]
        names = sorted({*names, *(lobby["your_name"] for lobby in lobbies if lobby["your_name"])})
        return {
            "about": "What Pirate Tables stores about you (/games privacy)",
            "exported_at": _when(self.now()),
            "user_id": user_id,
            "names": names,
            "settings": None
            if settings is None
            else {"turn_reminders_by_dm": bool(settings["notify"]), "language": settings["locale"]},
            "games": games,
            "games_you_started": await db.hosted(user_id),
            "following": await db.followed(user_id),
            "ratings": [self._rating(row) for row in await db.ratings_of(user_id)],
            "rating_changes": [self._change(row) for row in await db.rating_changes_of(user_id)],
            "lobbies": lobbies,
            "tournaments": [dict(row) for row in await db.tournaments_of(user_id)],
            "private_messages_held": await db.queued_for(user_id),
        }

    async def _place(self, row: Row) -> dict[str, Any]:
        """One place of the member's in a game: the game's public facts and the place's own moves."""
        record = await self.store.games.load(row["id"])
        assert record is not None
        actions = await self.store.privacy.timed_actions(record.id)
        moves = await asyncio.to_thread(own_moves, record, row["seat"], actions)
        place: dict[str, Any] = {
            "game": row["id"],
            "kind": row["kind"],
            "title": localize(GAMES[row["kind"]].title),
            "server": row["guild_id"],
            "channel": row["channel_id"],
            "thread": row["thread_id"],
            "status": row["status"],
            "started_at": _when(row["created_at"]),
            "ended_at": _when(row["ended_at"]),
            "place": row["seat"] + 1,
            "your_name": row["name"],
            "resigned": bool(row["resigned"]),
            "away": bool(row["away"]),
            "last_decided_at": _when(row["acted_at"]),
            "your_moves": moves,
        }
        if row["status"] != "active" and record.result:
            owners = seat_owners(GAMES[record.kind].game, record.state)
            won = any(owners[s] == row["seat"] for s in record.result.get("winners") or ())
            place["result"] = {"reason": record.result.get("reason"), "you_won": won}
        return place

    @staticmethod
    def _rating(row: Row) -> dict[str, Any]:
        rating = Rating(row["mu"], row["sigma"])
        return {
            "game": row["kind"],
            "scope": "every server" if row["scope"] == GLOBAL else row["scope"],
            "rating": round(rating.shown, 2),
            "mu": row["mu"],
            "sigma": row["sigma"],
            "games": row["games"],
            "wins": row["wins"],
        }

    @staticmethod
    def _change(row: Row) -> dict[str, Any]:
        return {
            "game": row["game_id"],
            "kind": row["kind"],
            "scope": "every server" if row["scope"] == GLOBAL else row["scope"],
            "won": bool(row["won"]),
            "before": round(Rating(row["mu_before"], row["sigma_before"]).shown, 2),
            "after": round(Rating(row["mu"], row["sigma"]).shown, 2),
            "at": _when(row["at"]),
        }

    @staticmethod
    def _lobby(lobby: dict[str, Any], user_id: int) -> dict[str, Any]:
        """A lobby as it concerns the member: their part in it and the name it shows them by (no one else's)."""
        if lobby["host_id"] == user_id:
            part = "host"
        elif user_id in lobby["accepted"]:
            part = "accepted" if lobby["mode"] == "challenge" else "joined"
        elif user_id in lobby["invitees"]:
            part = "invited"
        else:
            part = "named"
        return {
            "lobby": lobby["id"],
            "kind": lobby["kind"],
            "mode": lobby["mode"],
            "status": lobby["status"],
            "server": lobby["guild_id"],
            "channel": lobby["channel_id"],
            "your_part": part,
            "closed_by_you": lobby["closed_by"] == user_id,
            "your_name": lobby["names"].get(str(user_id)),
        }

    async def plan(self, caller: Caller) -> Plan:
        """What forgetting the caller would do now."""
        user_id, db = caller.user_id, self.store.privacy
        places, lobbies = await db.places_of(user_id), await db.lobbies_of(user_id)
        in_progress = [f"{localize(GAMES[r['kind']].title)} #{r['id']}" for r in places if r["status"] == "active"]
        return Plan(
            in_progress=in_progress,
            over=len({r["id"] for r in places if r["status"] != "active"}),
            lobbies=sum(lobby["status"] == "open" for lobby in lobbies),
            past_lobbies=sum(lobby["status"] != "open" for lobby in lobbies),
            ratings=len({r["kind"] for r in await db.ratings_of(user_id)}),
            follows=len(await db.followed(user_id)),
            settings=await db.settings_of(user_id) is not None,
            tournaments=len(await db.tournaments_of(user_id)),
        )

    async def forget(self, caller: Caller, user_id: int) -> str:
        """Erase member ``user_id``, who must be the caller (the confirmation is theirs alone): their places in
        games in progress to the AI, their open lobbies left, the rest erased (see the module). What was done,
        for the member (marked)."""
        may_confirm(caller, user_id)
        handed = 0
        for row in await self.store.privacy.places_of(user_id):
            if row["status"] == "active":
                handed += await self._hand_to_ai(row["id"], row["seat"], user_id)
        left = await self.lobbies.forget(user_id)
        entered = 0
        for row in await self.store.privacy.tournaments_of(user_id):  # off the lists still drawn from
            if row["status"] in ("open", "running") and not row["dropped"]:
                with contextlib.suppress(GameError):
                    await self.tournaments.leave(caller, row["id"])
                    entered += 1
        hosted = await self.store.privacy.hosted(user_id)
        erased, games = await self.store.privacy.forget_member(user_id)
        for game_id in {*games, *hosted}:
            self.cache.forget(game_id)
        self.languages.forget(user_id)
        log.info("A member was forgotten: %s", ", ".join(f"{k} {v}" for k, v in erased.counts.items() if v))
        lines = ["🧹 " + T("Done: I have forgotten you.")]
        if handed:
            lines.append(
                N(
                    "The AI plays your place in {n} game in progress.",
                    "The AI plays your places in {n} games in progress.",
                    handed,
                )
            )
        if left:
            lines.append(N("You left {n} challenge or table.", "You left {n} challenges and tables.", left))
        if entered:
            lines.append(N("You left {n} tournament.", "You left {n} tournaments.", entered))
        lines.append(T("If you play again, I start remembering what the game needs."))
        return "\n".join(lines)

    async def _hand_to_ai(self, game_id: int, player: int, user_id: int) -> int:
        """The AI takes a member's place in a game in progress; the thread is told (the place, not the member)
        and shown the board with its new player. 1 if it did, 0 if the place or the game changed meanwhile."""
        async with self.play.lock(game_id):
            record = await self.cache.get(game_id)
            if record.status != "active" or record.seats[player].user_id != user_id:
                return 0
            spec = self.cache.spec(record)
            async with self.store.transaction() as db:
                name = ai_name(player)
                if not await db.privacy.hand_to_ai(game_id, player, user_id=user_id, name=name, now=self.now()):
                    return 0
                taken = await db.games.load(game_id)
                assert taken is not None
                line = "🤖 " + T(
                    "A player left the table: {name} plays place {place} from now on.",
                    name=words.shown(name),
                    place=player + 1,
                )
                owed = [outbox.to_place(game_id, Message(line))]
                if taken.status == "active":
                    followers = await db.seats.followers(game_id)
                    owed += await notices.board_again(db, spec, taken, [], followers, now=self.now())
                    owed += await notices.private(db, spec, taken, {})
                await db.outbox.add(owed, now=self.now())
            self.cache.forget(game_id)
        self.changed(await self.cache.get(game_id), ())
        return 1

    # ------------------------------------------------------------------ servers the bot left

    async def left(self, guild_id: int) -> None:
        """The bot left a server: its tournaments are cancelled and its games in progress end now (abandoned),
        its open lobbies close, and its data is erased once the grace period is over, unless the bot is back by
        then."""
        now = self.now()
        await self.store.privacy.depart(guild_id, now=now, erase_at=now + self.config.forget_server_after)
        await self.tournaments.left_server(guild_id)
        await self._end_server_games(guild_id)
        for lobby_id in await self.store.privacy.open_lobbies_in(guild_id):
            await self.lobbies.close(lobby_id)
        if self._departed is not None:
            self._departed.add(guild_id)
        erase_at = _when(now + self.config.forget_server_after)
        log.info("Left server %s: its data is erased at %s unless the bot is back before", guild_id, erase_at)
        self._pacer.wake()

    async def _end_server_games(self, guild_id: int) -> None:
        why = T("The bot left this server.")
        for game_id in await self.store.privacy.active_games_in(guild_id):
            with contextlib.suppress(GameError):  # it ended meanwhile
                await self.play.close(game_id, ended_without_play([], why, Termination.ABANDONED))

    async def back(self, guild_id: int, *, joined: bool) -> None:
        """The bot is in a server (``joined``: it was just added; else the server became available, as every
        server does at a start): an erasure waiting for it is called off."""
        if self._departed is None:
            self._departed = {d.guild_id for d in await self.store.privacy.departures()}
        if (joined or guild_id in self._departed) and await self.store.privacy.return_to(guild_id):
            log.info("Back in server %s: its data is kept", guild_id)
        self._departed.discard(guild_id)

    async def erase_due(self) -> float | None:
        """Erase every server whose grace period is over; when the next one falls due (``None``: none waits)."""
        now, upcoming = self.now(), None
        departures = await self.store.privacy.departures()
        self._departed = {d.guild_id for d in departures}
        for departure in departures:
            if departure.erase_at <= now:
                await self.erase(departure.guild_id)
            else:
                upcoming = departure.erase_at if upcoming is None else min(upcoming, departure.erase_at)
        return upcoming

    async def erase(self, guild_id: int) -> None:
        """Erase a server's data now (its games in progress ended first)."""
        await self._end_server_games(guild_id)
        done = await self.store.privacy.erase_server(guild_id)
        if self._departed is not None:
            self._departed.discard(guild_id)
        if done is None:
            return
        erased, games = done
        for game_id in games:
            self.cache.forget(game_id)
        log.info("Server %s erased: %s", guild_id, ", ".join(f"{k} {v}" for k, v in erased.counts.items()))

    def start(self) -> None:
        """Erase what is due now, then whenever the next erasure falls due (or in an hour at most, for what
        another process may have added)."""
        self._pacer.wake()

    async def stop(self) -> None:
        await self._pacer.stop()

    async def _look(self) -> float:
        try:
            upcoming = await self.erase_due()
        except Exception:
            log.exception("Erasing the data of servers the bot left failed; trying again later")
            upcoming = None
        return LOOK_EVERY if upcoming is None else min(LOOK_EVERY, max(0.0, upcoming - self.now()))
