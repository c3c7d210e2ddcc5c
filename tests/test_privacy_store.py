"""The privacy service on both engines (SQLite, and PostgreSQL where its server is installed): a member
forgotten leaves no id or name behind, the games they played keep their moves and verify, their place in
a game in progress goes to the AI; a server the bot left waits for its erasure, which takes every row of
it and nothing of another server."""

from __future__ import annotations

from data.privacy import forgotten_name
from data.store import LobbyRecord
from tables.compose import Tables
from tables.records import game_log, verify_log
from tests.service_support import GUILD, USERS, member, mover, new_game, some_legal

OTHER_GUILD = 9


async def played(tables: Tables) -> tuple[int, int, int]:
    """A game Anne and Bart played six moves of before Bart resigned (rated), one they play, and Bart's open
    challenge to Anne: their ids."""
    over = await new_game(tables, 2)
    for _ in range(6):
        record = await tables.cache.get(over.id)
        await tables.play.act(mover(record), over.id, some_legal(record))
    await tables.play.resign(member(1), over.id)
    playing = await new_game(tables, 2)
    await tables.seats.set_notify(USERS[0], True)
    await tables.store.settings.set_locale(USERS[0], "de")
    lobby = await tables.store.lobbies.create(
        LobbyRecord(
            id=0, kind="piratz", mode="challenge", status="open", guild_id=GUILD, channel_id=2, message_id=None,
            host_id=USERS[1], invitees=[USERS[0]], accepted=[], ai=0, options={}, expires_at=10_000.0,
            names={str(USERS[1]): "Bart", str(USERS[0]): "Anne"},
        )
    )  # fmt: skip
    assert lobby is not None
    return over.id, playing.id, lobby


async def test_a_member_forgotten_leaves_no_trace_and_their_games_still_verify(tables: Tables) -> None:
    over, playing, challenge = await played(tables)
    anne = USERS[0]
    privacy = tables.store.privacy
    assert await privacy.ratings_of(anne) and await privacy.lobbies_of(anne)
    await tables.privacy.forget(member(0), anne)

    assert await privacy.places_of(anne) == [] and await privacy.settings_of(anne) is None
    assert await privacy.ratings_of(anne) == [] and await privacy.rating_changes_of(anne) == []
    assert await privacy.lobbies_of(anne) == [] and await privacy.hosted(anne) == []
    lobby = await tables.store.lobbies.load(challenge)
    assert lobby is not None and lobby.status == "declined"
    assert lobby.names == {str(USERS[1]): "Bart"} and lobby.invitees == [] and lobby.closed_by is None
    assert await privacy.ratings_of(USERS[1]), "Bart's own data stays"

    record = await tables.store.games.load(over)
    assert record is not None and record.seats[0].name == forgotten_name(0) and record.seats[0].user_id is None
    log = game_log(record, await tables.store.games.actions(over))
    assert "Anne" not in log and verify_log(log).ok, verify_log(log).lines

    taken = await tables.store.games.load(playing)
    assert taken is not None and taken.status == "active" and taken.seats[0].user_id is None
    assert taken.seats[0].name.startswith("🤖")


async def test_a_server_waits_for_its_erasure_and_only_its_rows_go(tables: Tables) -> None:
    await played(tables)
    elsewhere = await new_game(tables, 2, guild=OTHER_GUILD)
    await tables.store.settings.set_guild_language(GUILD, language="de")
    tables.now.t = 1_000.0
    await tables.privacy.left(GUILD)
    privacy = tables.store.privacy
    (departure,) = await privacy.departures()
    assert (departure.guild_id, departure.erase_at) == (GUILD, 1_000.0 + tables.config.forget_server_after)
    assert await privacy.active_games_in(GUILD) == [] and await privacy.open_lobbies_in(GUILD) == []

    assert await privacy.return_to(GUILD) and await privacy.departures() == []
    await tables.privacy.left(GUILD)
    assert await tables.privacy.erase_due() == 1_000.0 + tables.config.forget_server_after
    tables.now.t += tables.config.forget_server_after
    assert await tables.privacy.erase_due() is None
    assert await privacy.departures() == []
    (count,) = await privacy._q.fetchone("SELECT COUNT(*) FROM games WHERE guild_id = ?", (GUILD,))
    assert count == 0 and await tables.store.settings.guild_language(GUILD) == (None, None)
    (count,) = await privacy._q.fetchone("SELECT COUNT(*) FROM ratings WHERE scope = ?", (GUILD,))
    assert count == 0 and await privacy.ratings_of(USERS[0]), "the ratings across servers stay"
    assert (await tables.store.games.load(elsewhere.id)) is not None
