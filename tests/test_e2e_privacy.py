"""What the bot keeps about people, end to end: ``/games privacy`` (by DM, or ephemerally when DMs are
closed) shows a member their own data and never another member's, ``/games forget-me`` says what it will
do, only the member who asked can confirm it, and afterwards nothing names them while the games they played
still verify; a server the bot leaves is erased after the grace period, survives restarts, and is kept
when the bot is back in time."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from simcord.backend.errors import SetupError

from bot import main
from data.store import GameRecord
from tables.authority import Caller, GameError
from tests.conftest import World
from tests.support import raw_messages, texts

DAY = 86400.0


async def start(world: World, host: str, invitees: list[str], **options) -> GameRecord:
    await world.table.challenge("piratz", host, invitees, **options)
    return await world.table.latest_game()


def attachment_json(world: World, message) -> dict:
    (attachment,) = message.attachments
    url = attachment["url"] if isinstance(attachment, dict) else attachment.url
    return json.loads(world.env.backend.cdn.get(url))


def bot_dms(world: World, member) -> list:
    return [m for m in raw_messages(world.env, member.user.dm_channel.id) if m.author_id == world.bot.user.id]


async def played(world: World) -> dict[str, GameRecord]:
    """Anne's life at the tables: a finished game with Ben and the AI (rated), a game in progress with Ben
    (three moves made), a game of Ben and Calico she follows, and an open challenge of hers to Dara."""
    table = world.table
    anne = table.members["Anne"]
    await anne.slash(table.channel, "games notify", setting="on")
    over = await table.play_to_end((await start(world, "Anne", ["Ben"], ai=1)).id)
    playing = await table.play_moves((await start(world, "Anne", ["Ben"])).id, 3)
    watched = await start(world, "Ben", ["Calico"])
    await anne.slash(table.channel, "games follow", game=watched.id)
    await anne.slash(table.channel, "piratz new", player2=table.members["Dara"])
    return {"over": over, "playing": playing, "watched": watched}


async def test_privacy_sends_the_members_own_data_by_dm_and_nothing_of_anyone_else(world: World) -> None:
    table = world.table
    anne, ben = table.members["Anne"], table.members["Ben"]
    games = await played(world)
    asked = await anne.slash(table.channel, "games privacy")
    assert any("sent you a file by DM" in t for t in texts(asked)), texts(asked)
    data = attachment_json(world, bot_dms(world, anne)[-1])
    text = json.dumps(data)

    assert data["user_id"] == anne.id and data["names"] == ["Anne"]
    assert data["settings"] == {"turn_reminders_by_dm": True, "language": "en"}
    by_game = {g["game"]: g for g in data["games"]}
    assert set(by_game) == {games["over"].id, games["playing"].id}
    assert by_game[games["over"].id]["result"]["reason"] in ("rules", "last_standing", "safety_limit")
    assert data["games_you_started"] == sorted([games["over"].id, games["playing"].id])
    assert data["following"] == [games["watched"].id]
    scopes = {(r["game"], r["scope"]) for r in data["ratings"]}
    assert scopes == {("piratz", table.guild.id), ("piratz", "every server")}
    assert {c["game"] for c in data["rating_changes"]} == {games["over"].id}
    (lobby,) = [lobby for lobby in data["lobbies"] if lobby["status"] == "open"]
    assert lobby["your_part"] == "host" and lobby["your_name"] == "Anne"

    # Her own moves, exactly: those of her seat (in Piratz a seat is its player's).
    for game_id, place in by_game.items():
        seat = place["place"] - 1
        log = await world.bot.tables.store.games.actions(game_id)
        assert [(m["number"], m["move"]) for m in place["your_moves"]] == [(q, a) for q, s, a in log if s == seat]
    assert by_game[games["playing"].id]["your_moves"], "she has moved in the game in progress"
    # Nobody else's: not Ben's id or name, nor a game's state, nor the seed of the game in progress.
    assert str(ben.id) not in text and '"Ben"' not in text and "Calico" not in text
    assert '"state"' not in text and games["playing"].seed not in text


async def test_privacy_with_dms_closed_answers_with_the_file_only_the_member_sees(world: World) -> None:
    table = world.table
    anne = table.members["Anne"]
    await start(world, "Anne", ["Ben"])
    dm = anne.user.dm_channel
    world.env.inject_error("POST", f"/channels/{dm.id}/messages", status=403, code=50007, times=None)
    asked = await anne.slash(table.channel, "games privacy")
    answer = asked.response  # the deferred answer, with the file
    assert answer.ephemeral and "DMs are closed" in answer.content
    assert attachment_json(world, answer)["user_id"] == anne.id


async def test_forget_me_asks_then_erases_and_the_games_she_played_still_verify(
    world: World, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = world.table
    anne, ben = table.members["Anne"], table.members["Ben"]
    games = await played(world)
    store = world.bot.tables.store
    asked = await anne.slash(table.channel, "games forget-me")
    question = asked.response
    assert question.flags.ephemeral
    said = question.content
    for part in (
        "Your settings",
        "Your rating in 1 game",
        "You stop following 1 game",
        "You leave 1 challenge or table",
        "taken out of 2 past challenges and tables",
        f"Piratz #{games['playing'].id}",
        "the AI takes your place",
        "“Player N”",
        "stay as Discord keeps them",
    ):
        assert part in said, said
    assert await store.privacy.ratings_of(anne.id), "nothing is erased before she confirms"

    # Only she can confirm. Ben cannot see her ephemeral question, so Discord gives him no button to click;
    # and were he to send its button's id anyway, the service refuses it: nothing is erased.
    with pytest.raises(SetupError, match="not visible to this user"):
        await ben.click(question, custom_id=f"forget:{anne.id}:yes")
    ben_asks = Caller(ben.id, "Ben", table.guild.id, table.channel.id)
    with pytest.raises(GameError, match="Only the member who asked"):
        await world.bot.tables.privacy.forget(ben_asks, anne.id)
    assert await store.privacy.ratings_of(anne.id) and await store.privacy.settings_of(anne.id) is not None

    done = await anne.click(question, label="Forget me")
    assert "I have forgotten you" in done.response.content and not done.response.components
    assert await store.privacy.settings_of(anne.id) is None
    assert await store.privacy.ratings_of(anne.id) == [] and await store.privacy.rating_changes_of(anne.id) == []
    assert await store.privacy.followed(anne.id) == [] and await store.privacy.places_of(anne.id) == []
    assert await store.privacy.lobbies_of(anne.id) == [] and await store.privacy.hosted(anne.id) == []
    (challenge,) = [lobby for lobby in await store.lobbies.open()] or [None]
    assert challenge is None, "her challenge to Dara is called off"

    # The game in progress goes on, the AI in her place; Ben plays it to the end.
    playing = await table.record(games["playing"].id)
    seat = games["playing"].seat_of(anne.id)
    assert playing.seats[seat].user_id is None and playing.seats[seat].name.startswith("🤖")
    assert any("A player left the table" in m.content for m in raw_messages(world.env, playing.place_id))
    assert (await table.play_to_end(playing.id)).status == "finished"

    # The finished game keeps its moves under "Player N", and its log still verifies.
    over = await table.record(games["over"].id)
    seat = games["over"].seat_of(anne.id)
    assert over.seats[seat].name == f"Player {seat + 1}" and over.seats[seat].user_id is None
    log = await world.bot.tables.reads.log_text(over)
    assert "Anne" not in log and f"Player {seat + 1}" in log
    path = tmp_path / "log.txt"
    path.write_text(log, encoding="utf-8")
    assert main(["verify", str(path)]) == 0
    assert "VERIFIED" in capsys.readouterr().out
    # Ben's data is his own and stays.
    assert await store.privacy.ratings_of(ben.id)

    # What the bot holds about her now: nothing but the language her last click told it.
    again = await anne.slash(table.channel, "games privacy")
    assert any("sent you a file" in t for t in texts(again))
    data = attachment_json(world, bot_dms(world, anne)[-1])
    assert data["games"] == data["ratings"] == data["lobbies"] == data["following"] == []
    assert data["names"] == []
    # At most the language a later command told it (the member's language is remembered for a while in memory,
    # and written again only when it changes).
    assert data["settings"] in (None, {"turn_reminders_by_dm": False, "language": "en"})


async def test_forget_me_can_be_cancelled(world: World) -> None:
    table = world.table
    anne = table.members["Anne"]
    await anne.slash(table.channel, "games notify", setting="on")
    question = (await anne.slash(table.channel, "games forget-me")).response
    cancelled = await anne.click(question, label="Cancel")
    assert cancelled.response.content == "Nothing was erased." and not cancelled.response.components
    assert await world.bot.tables.store.privacy.settings_of(anne.id) is not None


# ---------------------------------------------------------------------------------------------- servers


async def pass_days(world: World, days: float) -> None:
    """Let ``days`` go by, a day at a time (each of SimCord's advances must settle within its time-out)."""
    while days > 0:
        await world.env.advance_time(min(days, 1.0) * DAY)
        days -= 1.0


async def server_data(world: World, guild_id: int) -> dict[str, int]:
    db = world.bot.tables.store.privacy._q
    counts = {}
    for table, where in (("games", "guild_id"), ("lobbies", "guild_id"), ("ratings", "scope"), ("guilds", "guild_id")):
        (counts[table],) = await db.fetchone(f"SELECT COUNT(*) FROM {table} WHERE {where} = ?", (guild_id,))
    return counts


async def leave(world: World) -> int:
    """Anne and Ben finished a game and play another in the server; the bot leaves it. The server's id."""
    table = world.table
    await table.members["Anne"].slash(table.channel, "games language", language="de")
    await table.play_to_end((await start(world, "Anne", ["Ben"], ai=1)).id)
    playing = await table.play_moves((await start(world, "Anne", ["Ben"])).id, 2)
    guild_id = table.guild.id
    before = await server_data(world, guild_id)
    assert before["games"] == 2 and before["ratings"] and before["guilds"] == 1
    await world.bot.get_guild(guild_id).leave()
    await world.env.settle()
    ended = await table.record(playing.id)
    assert ended.status == "abandoned" and not await world.bot.tables.store.ratings.changes(playing.id)
    (departure,) = await world.bot.tables.store.privacy.departures()
    assert departure.guild_id == guild_id and departure.erase_at - departure.left_at == 30 * DAY
    return guild_id


async def test_a_server_the_bot_left_is_erased_after_the_grace_period_across_a_restart(world: World) -> None:
    guild_id = await leave(world)
    await pass_days(world, 29)
    assert (await server_data(world, guild_id))["games"] == 2, "kept during the grace period"
    await world.restart()
    await pass_days(world, 1.01)
    assert await server_data(world, guild_id) == {"games": 0, "lobbies": 0, "ratings": 0, "guilds": 0}
    assert await world.bot.tables.store.privacy.departures() == []
    # Ratings across servers stay as the games made them.
    assert await world.bot.tables.store.privacy.ratings_of(world.table.members["Anne"].id)


async def test_a_restart_after_the_grace_period_erases_at_once(world: World) -> None:
    guild_id = await leave(world)
    await world.bot.tables.privacy.stop()  # the bot is down while the grace period runs out
    await pass_days(world, 31)
    assert (await server_data(world, guild_id))["games"] == 2
    await world.restart()
    await world.env.settle()
    assert await server_data(world, guild_id) == {"games": 0, "lobbies": 0, "ratings": 0, "guilds": 0}


async def test_the_bot_back_in_the_server_within_the_grace_period_keeps_its_data(world: World) -> None:
    guild_id = await leave(world)
    await pass_days(world, 10)
    backend = world.env.backend
    backend._reserved_ids.discard(guild_id)  # the same server again, as when it adds the bot back
    world.env.create_guild(name="Pirate Cove", id=guild_id)
    await world.env.settle()
    assert await world.bot.tables.store.privacy.departures() == []
    await pass_days(world, 31)
    assert (await server_data(world, guild_id))["games"] == 2
