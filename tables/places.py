"""Where a game is played, when it changes or is asked for: a thread deleted under a game moves it to its
channel; a member asks for the board again."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace

from data.store import Store
from games.i18n import T
from tables import notices, outbox, words
from tables.authority import Caller
from tables.cache import GameCache
from tables.outbox import Message
from tables.seating import deciders

log = logging.getLogger("tables.places")


class Places:
    """Boards posted again, and games moved out of a deleted thread."""

    def __init__(self, store: Store, cache: GameCache, now: Callable[[], float], wake: Callable[[], None]) -> None:
        self.store = store
        self.cache = cache
        self.now = now
        self.wake = wake
        """Tell the delivery loop that something is owed."""

    async def lose_thread(self, thread_id: int, *, board: bool) -> list[int]:
        """A game's thread was deleted: the active games played in it go on in their channel at once, which says
        so once (of two processes, or Discord's event and a post that failed, one does it) and, with ``board``
        (nothing of the game is on its way there), shows the board, notifying whoever must decide; what a game
        that is over still owes there (its final message) goes to the channel too. The active games moved."""
        now = self.now()
        async with self.store.transaction() as db:
            moved, over = await db.games.lose_thread(thread_id)
            for game_id in moved:
                record = await db.games.load(game_id)
                assert record is not None
                spec = self.cache.spec(record)
                log.warning("Game %s: thread %s is gone; on in channel %s", game_id, thread_id, record.channel_id)
                text = "🧵 " + T("The thread of {game} is gone: the game goes on here.", game=words.title(spec, record))
                if not board:  # a post that found the thread gone is tried again there: this goes first
                    lane = f"thread-gone:{game_id}"
                    owed = [outbox.to_channel(lane, record.channel_id, record.guild_id, Message(text), game_id=game_id)]
                else:
                    members = [record.seats[p].user_id for p in deciders(spec, record) if not record.seats[p].is_ai]
                    followers = await db.seats.followers(game_id)
                    owed = [
                        outbox.to_place(game_id, Message(text)),
                        *await notices.board_again(
                            db, spec, record, [u for u in members if u is not None], followers, now=now
                        ),
                    ]
                await db.outbox.add(owed, now=now)
        for game_id in moved + over:
            self.cache.forget(game_id)
        if moved or over:
            self.wake()
        return moved

    async def repost(self, caller: Caller, game_id: int) -> None:
        """Post the board again in the game's place (notifying nobody), and try at once what is still owed."""
        record = replace(await self.cache.reach(caller, game_id))
        spec = self.cache.spec(record)
        now = self.now()
        async with self.store.transaction() as db:
            owed = await notices.board_again(db, spec, record, [], await db.seats.followers(record.id), now=now)
            await db.outbox.add(owed, now=now)
            await db.outbox.rush(now=now, game_id=game_id)
        self.cache.forget(game_id)
        self.wake()
