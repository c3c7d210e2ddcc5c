"""End to end in SimCord: tournaments played through the real bot by simulated members (the demo driver's
:class:`~cogs.offline.driver.SimTable` makes their moves) — an 8-member Swiss Piratz tournament of three
rounds started by its schedule, and a 4-member round-robin Sewer Pirats tournament started early by its
organizer, each to its final standings, with a restart during a round and one between rounds; the sign-up
message, its Join / Leave buttons (after a restart too), the Discord scheduled event, and refusals."""

from __future__ import annotations

import time
from collections.abc import Sequence

import discord
import pytest

from cogs.offline.driver import SimTable
from games.registry import GAMES
from tests.conftest import World
from tests.support import raw_messages, texts

EIGHT = ("Anne", "Ben", "Calico", "Dara", "Edda", "Finn", "Gale", "Hook")


def organizer(world: World, table: SimTable):
    role = table.guild.create_role("events", permissions=discord.Permissions(manage_events=True))
    return table.guild.add_member(world.env.create_user("org", global_name="Org"), roles=[role])


def signup_message(world: World, table: SimTable) -> discord.Message:
    """The newest message of the channel with a tournament's buttons."""
    return next(m for m in reversed(table.channel.history()) if any(b.startswith("tour:") for b in buttons(m)))


def buttons(message) -> list[str]:
    found = []

    def walk(components) -> None:
        for c in components or ():
            custom = c.get("custom_id") if isinstance(c, dict) else getattr(c, "custom_id", None)
            if custom:
                found.append(custom)
            walk(c.get("components") if isinstance(c, dict) else getattr(c, "children", None))

    walk(message.components)
    return found


async def join_all(world: World, table: SimTable, names: Sequence[str]) -> int:
    message = signup_message(world, table)
    join = next(b for b in buttons(message) if b.endswith(":join"))
    for name in names:
        await table.members[name].click(message, custom_id=join)
    return int(join.split(":")[1])


async def play_round(world: World, table: SimTable, t: int, *, restart_after: int | None = None) -> None:
    """Play every game of the tournament's current round to its end (restarting the bot after the
    ``restart_after``-th game, if given)."""
    tournaments = world.bot.tables.store.tournaments
    current = (await tournaments.load(t)).round
    games = [x.game_id for x in await tournaments.tables(t) if x.round == current and x.game_id]
    assert games
    for i, game_id in enumerate(games):
        await table.play_to_end(game_id)
        await world.env.settle()
        if restart_after == i:
            await restart(world, table)
            tournaments = world.bot.tables.store.tournaments


def event_statuses(world: World, table: SimTable) -> list[int]:
    """The server's scheduled events' statuses (Discord's: 1 scheduled, 2 active, 3 completed, 4 cancelled)."""
    events = world.env.backend.get_guild(table.guild.id).scheduled_events.values()
    return [int(getattr(e.status, "value", e.status)) for e in events]


async def restart(world: World, table: SimTable) -> None:
    await world.restart()
    table.bot = world.bot
    await world.env.settle()


@pytest.mark.slow  # twelve games of Piratz: about a minute on a busy machine
async def test_an_eight_member_swiss_piratz_tournament(world: World) -> None:
    began = time.perf_counter()
    table = SimTable(world.env, world.bot, EIGHT)
    org = organizer(world, table)
    refused = await table.members["Anne"].slash(table.channel, "tournament new", game="piratz")
    assert any("Manage Events" in t for t in texts(refused)), texts(refused)
    result = await org.slash(table.channel, "tournament new", game="piratz", format="swiss", rounds=3, starts="5")
    await world.env.settle()
    signup = signup_message(world, table)
    assert "Swiss, 3 rounds, tables of 2" in signup.content and "<t:" in signup.content, texts(result)
    events = list(world.env.backend.get_guild(table.guild.id).scheduled_events.values())
    assert [e.name for e in events] == ["Piratz tournament #1"]

    await restart(world, table)  # the buttons survive it
    t = await join_all(world, table, EIGHT)
    await world.env.settle()
    assert "8 players so far" in signup_message(world, table).content
    await world.env.advance_time(300)  # the schedule starts it
    await world.env.settle()
    assert (await world.bot.tables.store.tournaments.load(t)).status == "running"
    await play_round(world, table, t, restart_after=1)  # a restart during round 1
    await restart(world, table)  # and one between rounds
    assert (await world.bot.tables.store.tournaments.load(t)).round == 2
    await play_round(world, table, t)
    await play_round(world, table, t)
    tournament = await world.bot.tables.store.tournaments.load(t)
    assert (tournament.status, tournament.round) == ("finished", 3)
    tables = await world.bot.tables.store.tournaments.tables(t)
    assert len(tables) == 12 and len({frozenset(x.players) for x in tables}) == 12, "no repeat table"
    posts = [m.content for m in raw_messages(world.env, table.channel.id)]
    assert sum(p.startswith("🎲") for p in posts) == 3, "each round drawn and announced once"
    assert any("won!" in p for p in posts)
    standings = [m for m in raw_messages(world.env, table.channel.id) if m.attachments]
    assert len(standings) == 3, "standings after each round, the last final"
    print(f"8-member Swiss e2e: {time.perf_counter() - began:.1f} s")


@pytest.mark.slow  # six games of Sewer Pirats: about a minute and a half on a busy machine
async def test_a_four_member_round_robin_of_sewer_pirats(world: World) -> None:
    table = world.table
    members = ("Anne", "Ben", "Calico", "Dara")
    org = organizer(world, table)
    await org.slash(table.channel, "tournament new", game="sewerpirats", format="round-robin", table=2, starts="60")
    await world.env.settle()
    t = await join_all(world, table, members)
    early = await table.members["Ben"].slash(table.channel, "tournament start")
    assert any("Manage Events" in x for x in texts(early)), texts(early)
    started = await org.slash(table.channel, "tournament start")
    assert any("round 1 is drawn" in x for x in texts(started)), texts(started)
    await world.env.settle()
    again = await org.slash(table.channel, "tournament start", tournament=t)
    assert any("started already" in x for x in texts(again)), texts(again)
    for round_no in (1, 2, 3):
        await play_round(world, table, t)
        if round_no == 1:
            await restart(world, table)
    tournament = await world.bot.tables.store.tournaments.load(t)
    assert tournament.status == "finished"
    pairs = {frozenset(x.players) for x in await world.bot.tables.store.tournaments.tables(t)}
    assert len(pairs) == 6, "everyone met everyone once"
    standings = await table.members["Anne"].slash(table.channel, "tournament standings", tournament=t)
    assert [a.filename for a in standings.response.attachments] == [f"tournament-{t}-standings.png"]
    listing = await table.members["Anne"].slash(table.channel, "tournament list")
    assert any("No tournament" in x for x in texts(listing))
    assert GAMES["sewerpirats"].game.min_players == 2


async def test_a_one_round_tournament_with_a_restart_in_its_round(world: World) -> None:
    """The default run's tournament: four members sign up with the buttons (one leaves and comes back), the
    organizer starts it early, a restart comes in the middle of its round, and its end names the winner and
    links both games."""
    table = world.table
    org = organizer(world, table)
    await org.slash(table.channel, "tournament new", game="piratz", rounds=1, starts="20:30", clock="10m")
    await world.env.settle()
    t = await join_all(world, table, ("Anne", "Ben", "Calico", "Dara"))
    leave = next(b for b in buttons(signup_message(world, table)) if b.endswith(":leave"))
    await table.members["Dara"].click(signup_message(world, table), custom_id=leave)
    await world.env.settle()
    assert "3 players so far" in signup_message(world, table).content
    await join_all(world, table, ("Dara",))
    stranger = await table.members["Edda"].slash(table.channel, "tournament leave")
    assert any("not signed up" in x for x in texts(stranger)), texts(stranger)
    listing = await table.members["Edda"].slash(table.channel, "tournament list")
    assert any("Piratz tournament #1" in x and "4 players" in x for x in texts(listing)), texts(listing)
    assert event_statuses(world, table) == [1], "the scheduled event waits for its start"
    await org.slash(table.channel, "tournament start")
    await world.env.settle()
    assert event_statuses(world, table) == [2], "begun early: the event is under way"
    late = await table.members["Edda"].slash(table.channel, "tournament join")
    assert any("not taking sign-ups" in x for x in texts(late)), texts(late)
    await play_round(world, table, t, restart_after=0)
    tournament = await world.bot.tables.store.tournaments.load(t)
    assert tournament.status == "finished"
    await world.env.settle()
    assert event_statuses(world, table) == [3], "over: the event is completed"
    posts = [m.content for m in raw_messages(world.env, table.channel.id)]
    final = next(p for p in posts if "won!" in p)
    games = [x.game_id for x in await world.bot.tables.store.tournaments.tables(t)]
    assert all(f"#{g}: https://discord.com/channels/" in final for g in games), final
    openings = [m for thread in table.channel.threads for m in raw_messages(world.env, thread.id)[:1]]
    assert len(openings) == 2 and all(len(set(m.ping_user_ids)) == 2 for m in openings), (
        "each table pinged once, its players"
    )


async def test_a_cancelled_tournament_cancels_its_scheduled_event(world: World) -> None:
    """Discord cancels only an event that has not begun; one that began (the tournament was under way) ends."""
    table = world.table
    org = organizer(world, table)
    await org.slash(table.channel, "tournament new", game="piratz", rounds=1, starts="60")
    await world.env.settle()
    first = (await world.bot.tables.store.tournaments.listed("open"))[-1].id
    await org.slash(table.channel, "tournament cancel", tournament=first)
    await world.env.settle()
    assert event_statuses(world, table) == [4]
    await org.slash(table.channel, "tournament new", game="piratz", rounds=1, starts="60")
    await world.env.settle()
    second = (await world.bot.tables.store.tournaments.listed("open"))[-1].id
    await join_all(world, table, ("Anne", "Ben", "Calico"))
    await org.slash(table.channel, "tournament start", tournament=second)
    await world.env.settle()
    assert event_statuses(world, table) == [4, 2]
    await org.slash(table.channel, "tournament cancel", tournament=second)
    await world.env.settle()
    assert event_statuses(world, table) == [4, 3]
    assert (await world.bot.tables.store.tournaments.load(second)).status == "cancelled"
