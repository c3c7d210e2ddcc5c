"""The tournaments' store on both engines: sign-ups, taking a tournament's row, rounds drawn once, tables
scored once, the server's setting, and changes that wait for the transaction's commit."""

from __future__ import annotations

from data.store import Store
from data.tournaments import TableRecord, TournamentRecord


def draft(**changes) -> TournamentRecord:
    values = dict(
        id=0, guild_id=1, channel_id=2, host_id=10, kind="piratz", format="swiss", rounds=3, table_size=2,
        options={"blind": False}, clock=600, starts_at=100.0, status="open", seed="s", created_at=50.0,
    )  # fmt: skip
    return TournamentRecord(**(values | changes))


async def test_sign_ups_leave_and_join_again(store: Store) -> None:
    t = await store.tournaments.create(draft())
    for user in (11, 12, 13):
        await store.tournaments.join(t, user, f"P{user}", now=60.0 + user)
    assert await store.tournaments.remove(t, 12) == 1
    await store.tournaments.join(t, 11, "Renamed", now=90.0)
    entrants = await store.tournaments.entrants(t)
    assert [(e.user_id, e.name, e.dropped) for e in entrants] == [(13, "P13", False), (11, "Renamed", False)]
    assert await store.tournaments.drop(t, [13, 13, 99]) == 1
    assert [e.dropped for e in await store.tournaments.entrants(t)] == [True, False]


async def test_taking_checks_the_status_and_counts_the_change(store: Store) -> None:
    t = await store.tournaments.create(draft())
    async with store.transaction() as db:
        taken = await db.tournaments.take(t, "open")
    assert taken is not None and taken.version == 1
    async with store.transaction() as db:
        assert await db.tournaments.take(t, "running") is None
        assert await db.tournaments.set_status(t, "running", was="open", rounds=4)
        assert not await db.tournaments.set_status(t, "running", was="open")
    assert ((await store.tournaments.load(t)).status, (await store.tournaments.load(t)).rounds) == ("running", 4)
    assert [x.id for x in await store.tournaments.listed("running", guild_id=1)] == [t]
    assert await store.tournaments.listed("open", guild_id=1) == []


async def test_a_round_is_drawn_once_and_a_table_scored_once(store: Store) -> None:
    t = await store.tournaments.create(draft())
    assert await store.tournaments.advance(t, drawn=1, now=100.0)
    assert not await store.tournaments.advance(t, drawn=1, now=101.0)
    assert (await store.tournaments.load(t)).round == 1
    await store.tournaments.add_tables([TableRecord(t, 1, 1, [11, 12]), TableRecord(t, 1, 2, [13], points={"13": "1"})])
    assert await store.tournaments.unscored(t, 1) == 1
    tables = await store.tournaments.tables(t)
    assert [(x.table_no, x.players, x.points) for x in tables] == [(1, [11, 12], None), (2, [13], {"13": "1"})]


async def test_the_server_setting(store: Store) -> None:
    assert not await store.settings.tournaments_open(5)
    await store.settings.set_guild_language(5, language="de")
    await store.settings.set_tournaments_open(5, True)
    assert await store.settings.tournaments_open(5)
    assert (await store.settings.guild_language(5))[0] == "de"


async def test_after_commit_runs_only_once_committed(store: Store) -> None:
    seen: list[str] = []
    async with store.transaction() as db:
        db.after_commit(lambda: seen.append("first"))
        assert seen == []
    assert seen == ["first"]
    try:
        async with store.transaction() as db:
            db.after_commit(lambda: seen.append("rolled back"))
            raise RuntimeError
    except RuntimeError:
        pass
    assert seen == ["first"]


async def test_shown_ratings_default_for_unrated_players(store: Store) -> None:
    shown = await store.ratings.shown("piratz", 1, [11, 12])
    assert shown[11] == shown[12] == 0.0
