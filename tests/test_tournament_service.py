"""Tournaments in the table service, without Discord, on both engines: refusals in words, a Swiss tournament
and a round robin played to their final standings, and the races — a storm of joins and leaves, two starts
at once, and the last two games of a round ending at once in two processes on one database."""

from __future__ import annotations

import asyncio
from typing import Any

from data.store import Store
from games.i18n import localize
from games.registry import GAMES
from tables.authority import Caller
from tables.compose import Tables
from tables.tournaments.service import start_time
from tests.service_support import CHANNEL, GUILD, owed, refused, tables_on

ORGANIZER = Caller(900, "Org", GUILD, CHANNEL, events=True)
PLAYERS = [Caller(1000 + i, f"P{i}", GUILD, CHANNEL) for i in range(8)]


async def new(tables: Tables, kind: str = "piratz", fmt: str = "swiss", **given: Any) -> int:
    settings = {"rounds": None, "table": None, "starts": "30", "clock": 600, "options": {}} | given
    await tables.tournaments.create(ORGANIZER, kind, fmt, **settings)
    return (await tables.store.tournaments.listed("open", "running"))[-1].id


async def signed_up(tables: Tables, count: int, **given: Any) -> int:
    t = await new(tables, **given)
    for p in PLAYERS[:count]:
        await tables.tournaments.join(p, t)
    return t


async def last_move(tables: Tables, game_id: int) -> tuple[Caller, str] | None:
    """Play a game's members' moves (its AI's too) until one move would end it: that move, unplayed
    (``None`` if the game ended meanwhile)."""
    while True:
        record = await tables.cache.get(game_id)
        if record.status != "active":
            return None
        spec = GAMES[record.kind]
        seat = spec.game.to_act(record.state)[0]
        holder = record.seats[spec.game.controller(record.state, seat)]
        action = spec.player.choose(spec.game, record.state, seat, spec.game.rng(record.state))
        caller = Caller(holder.user_id, holder.name, record.guild_id)
        after = spec.game.apply(record.state, seat, action, trusted=True).state
        if spec.game.outcome(after) is not None:
            return caller, action.encode()
        await tables.play.act(caller, game_id, action.encode())


async def finish(tables: Tables, game_id: int) -> None:
    move = await last_move(tables, game_id)
    if move is not None:
        await tables.play.act(move[0], game_id, move[1])


async def round_games(tables: Tables, t: int) -> list[int]:
    tournament = await tables.store.tournaments.load(t)
    return [x.game_id for x in await tables.store.tournaments.tables(t) if x.round == tournament.round and x.game_id]


async def test_refusals_in_words(tables: Tables) -> None:
    member = PLAYERS[0]
    with refused(match="Manage Events or Manage Server"):
        await tables.tournaments.create(
            member, "piratz", "swiss", rounds=None, table=None, starts="5", clock=0, options={}
        )
    with refused(match="cannot seat tables of 5"):
        await new(tables, table=5)
    with refused(match="round robin is played at tables of 2"):
        await new(tables, "sewerpirats", "round-robin", table=3)
    with refused(match="has no option `variant`"):
        await new(tables, options={"variant": "auction"})
    with refused(match="`starts` is minutes from now"):
        await new(tables, starts="soon")
    t = await signed_up(tables, 2)
    with refused(match="needs at least 3 players; 2 signed up"):
        await tables.tournaments.start(ORGANIZER, t)
    with refused(match="Manage Events or Manage Server"):
        await tables.tournaments.start(member, t)
    elsewhere = Caller(901, "Other", GUILD + 1, 77, events=True)
    with refused(match=f"no tournament #{t} here"):
        await tables.tournaments.join(elsewhere, t)
    with refused(match=f"no tournament #{t} here"):
        await tables.tournaments.cancel(elsewhere, t)
    with refused(match="signed up already"):
        await tables.tournaments.join(member, t)
    await tables.store.settings.set_tournaments_open(GUILD, True)
    await tables.tournaments.create(member, "piratz", "swiss", rounds=None, table=2, starts="5", clock=0, options={})


def test_start_times() -> None:
    now = 1_767_225_600.0  # 2026-01-01 00:00 UTC
    assert start_time("30", now) == now + 1800
    assert start_time("<t:1767229200:F>", now) == 1_767_229_200
    assert start_time("01:30", now) == now + 5400
    assert start_time("23h00", now + 23.5 * 3600) == now + 47 * 3600


async def test_a_swiss_tournament_is_played_to_its_final_standings(tables: Tables) -> None:
    t = await signed_up(tables, 5, rounds=3)
    said = await tables.tournaments.start(ORGANIZER, t)
    assert "round 1 is drawn" in localize(said)
    for round_no in (1, 2, 3):
        tournament = await tables.store.tournaments.load(t)
        assert (tournament.status, tournament.round) == ("running", round_no)
        games = await round_games(tables, t)
        assert len(games) == 2  # five players: two tables of two and a bye
        for game_id in games:
            await finish(tables, game_id)
    tournament = await tables.store.tournaments.load(t)
    assert tournament.status == "finished"
    tables_ = await tables.store.tournaments.tables(t)
    byes = [x.players[0] for x in tables_ if x.game_id is None]
    assert len(byes) == len(set(byes)) == 3, "a bye goes to someone without one"
    pairs = [frozenset(x.players) for x in tables_ if x.game_id]
    assert len(pairs) == len(set(pairs)), "no repeat table"
    posts = [m.content for lane, kind, m, _ in await owed(tables) if lane == f"tournament:{t}" and kind == "post"]
    assert any("won!" in p for p in posts), posts
    assert sum("Standings" in p or "standings after round" in p for p in posts) >= 2


async def test_a_round_robin_of_four_meets_everyone_once(tables: Tables) -> None:
    t = await signed_up(tables, 4, kind="sewerpirats", fmt="round-robin", table=2)
    await tables.tournaments.start(ORGANIZER, t)
    for _round in range(3):
        for game_id in await round_games(tables, t):
            await finish(tables, game_id)
    tournament = await tables.store.tournaments.load(t)
    assert (tournament.status, tournament.rounds) == ("finished", 3)
    pairs = {frozenset(x.players) for x in await tables.store.tournaments.tables(t)}
    assert len(pairs) == 6


async def test_a_member_who_leaves_is_not_drawn_again(tables: Tables) -> None:
    t = await signed_up(tables, 4, rounds=2)
    await tables.tournaments.start(ORGANIZER, t)
    await tables.tournaments.leave(PLAYERS[0], t)
    for game_id in await round_games(tables, t):
        await finish(tables, game_id)
    second = [x for x in await tables.store.tournaments.tables(t) if x.round == 2]
    assert PLAYERS[0].user_id not in {u for x in second for u in x.players}
    assert any(x.game_id is None for x in second), "three players left: a bye"


async def test_join_and_leave_storm(tables: Tables) -> None:
    t = await new(tables)

    async def clicks(p: Caller) -> None:
        for _ in range(3):
            await tables.tournaments.join(p, t, answer=True)
            await tables.tournaments.leave(p, t, answer=True)
        await tables.tournaments.join(p, t, answer=True)

    await asyncio.gather(*(clicks(p) for p in PLAYERS))
    entrants = await tables.store.tournaments.entrants(t)
    assert sorted(e.user_id for e in entrants) == [p.user_id for p in PLAYERS]
    edits = [r for r in await tables.store.outbox.pending() if r.lane == f"tournament:{t}" and r.kind == "edit"]
    assert "8 players so far" in localize(edits[-1].payload["message"]["content"])


async def test_two_starts_at_once_start_once(tables: Tables) -> None:
    t = await signed_up(tables, 4)
    results = await asyncio.gather(
        tables.tournaments.start(ORGANIZER, t), tables.tournaments.start(ORGANIZER, t), return_exceptions=True
    )
    assert sum(isinstance(r, str) for r in results) == 1, results
    assert "started already" in localize(str(next(r for r in results if not isinstance(r, str))))
    assert len(await round_games(tables, t)) == 2


async def test_the_last_two_games_of_a_round_ending_in_two_processes(store_target: str) -> None:
    """Two services on one database (two processes): each ends one of the round's last two games at the same
    moment. The database lets exactly one draw round 2."""
    stores = [await Store.open(store_target) for _ in range(2)]
    services = [tables_on(s, runner=f"p{i}", seed=f"race{i}") for i, s in enumerate(stores)]
    try:
        one, two = services
        t = await signed_up(one, 4, rounds=2)
        await one.tournaments.start(ORGANIZER, t)
        games = await round_games(one, t)
        last = [await last_move(one, g) for g in games]
        assert None not in last
        for g in games:
            two.cache.forget(g)
        await asyncio.gather(*(s.play.act(m[0], g, m[1]) for s, g, m in zip(services, games, last, strict=True)))
        tournament = await stores[0].tournaments.load(t)
        assert tournament.round == 2
        second = [x for x in await stores[0].tournaments.tables(t) if x.round == 2]
        assert len(second) == 2, "round 2 drawn once"
        assert all(x.points is not None for x in await stores[0].tournaments.tables(t) if x.round == 1)
    finally:
        for s in services:
            await s.stop()
        for s in stores:
            await s.close()


async def test_a_forgotten_member_leaves_no_name_in_tournaments(tables: Tables) -> None:
    """``/games forget-me``: the member leaves tournaments still signing up (their list says so) and is not
    drawn again in running ones; everywhere, their entrant becomes ``Player n`` with an id no member has, their
    tables and points follow it, and the standings still add up."""
    played = await signed_up(tables, 4, rounds=1)
    await tables.tournaments.start(ORGANIZER, played)
    for game_id in await round_games(tables, played):
        await finish(tables, game_id)
    signing = await signed_up(tables, 3)
    anne = PLAYERS[0]
    before = await tables.store.tournaments.entrants(played)
    export = await tables.privacy.export(anne)
    assert {(t["id"], t["status"], t["name"]) for t in export["tournaments"]} == {
        (played, "finished", "P0"),
        (signing, "open", "P0"),
    }
    assert "In 2 tournaments you are “Player N”" in localize((await tables.privacy.plan(anne)).text())
    said = localize(await tables.privacy.forget(anne, anne.user_id))
    assert "You left 1 tournament." in said, said
    assert anne.user_id not in {e.user_id for e in await tables.store.tournaments.entrants(signing)}
    after = await tables.store.tournaments.entrants(played)
    assert anne.user_id not in {e.user_id for e in after} and len(after) == len(before)
    ghost = next(e for e in after if e.user_id < 0)
    assert ghost.name == "Player 1" and ghost.dropped and ghost.user_id == -1
    drawn = await tables.store.tournaments.tables(played)
    assert all(anne.user_id not in x.players for x in drawn)
    assert any(ghost.user_id in x.players for x in drawn)
    points = {k for x in drawn if x.points for k in x.points}
    assert str(anne.user_id) not in points and str(ghost.user_id) in points
    standings = await tables.tournaments.standings(PLAYERS[1], played)
    shown = [localize(standings.content), *(str(image.view) + str(image.names) for image in standings.images)]
    assert standings.images and not any("P0" in text for text in shown) and any("Player 1" in t for t in shown)
    assert await tables.store.privacy.tournaments_of(anne.user_id) == []
    assert (await tables.privacy.export(anne))["tournaments"] == []


async def test_a_server_erased_takes_its_tournaments_with_it(tables: Tables) -> None:
    """A server the bot left is erased after its grace period: its tournaments too (their entrants, rounds,
    tables and the messages owed for them), before its games, which their tables point at."""
    played = await signed_up(tables, 4, rounds=1)
    await tables.tournaments.start(ORGANIZER, played)
    for game_id in await round_games(tables, played):
        await finish(tables, game_id)
    waiting = await signed_up(tables, 2)
    running = await signed_up(tables, 4, rounds=2)
    await tables.tournaments.start(ORGANIZER, running)
    games = await round_games(tables, running)
    await tables.privacy.left(GUILD)
    assert [(await tables.store.tournaments.load(t)).status for t in (waiting, running)] == ["cancelled"] * 2
    assert [(await tables.store.games.load(g)).status for g in games] == ["abandoned"] * len(games)
    drawn = await tables.store.tournaments.tables(running)
    assert {x.round for x in drawn} == {1}, "no round drawn in a server the bot left"
    tables.now.t += tables.config.forget_server_after
    assert await tables.privacy.erase_due() is None
    assert all([await tables.store.tournaments.load(t) is None for t in (played, waiting, running)])
    assert await tables.store.tournaments.tables(played) == [] and await tables.store.tournaments.entrants(played) == []
    lanes = {e.lane for e in await tables.store.outbox.pending()}
    assert not any(lane.endswith((f":{played}", f":{waiting}")) and "tournament" in lane for lane in lanes), lanes
