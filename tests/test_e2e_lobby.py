"""End to end: challenges and open tables in SimCord — clicks at the same moment, lobbies started from a
game's thread, and names that must never ping anyone.

SimCord runs one member action at a time (``asyncio.gather`` of two clicks is refused as overlapping
operations), so "at the same moment" is staged the way it happens on a slow database: :func:`hold`
parks the next lobby write of the bot at a gate (a declared external wait, so the click returns with its
handler parked there), another member clicks meanwhile, then the gate opens and the first handler goes
on from the state it read.
"""

from __future__ import annotations

import asyncio

import pytest

from data.store import LobbyRecord
from tables.delivery import Delivery
from tables.lobbies import Lobbies
from tests.conftest import World
from tests.support import raw_messages, said, texts

TTL = 10.0
"""A short invitation life for expiry races: longer than SimCord's settling (5 s, which would let the timer
fire inside a click), and a click's last second still falls within Discord's 3-second answer window."""


def hold(
    world: World, monkeypatch: pytest.MonkeyPatch, *, calls: int = 1, after_write: bool = False
) -> list[asyncio.Event]:
    """Park each of the bot's next ``calls`` lobby changes — after it read the lobby and before it writes it
    back, or (``after_write``) after it wrote it and before it answers — until its event (in call order) is
    set: see :func:`release`. Later changes go straight through."""
    gates = [asyncio.Event() for _ in range(calls)]
    waiting = list(gates)

    async def park() -> None:
        if waiting:
            gate = waiting.pop(0)
            await world.env.external_wait(gate.wait(), reason="the test holds this lobby change")

    if after_write:
        real_answer = Delivery.answer

        async def answer(self: Delivery, entry_id: int, sender) -> bool:
            await park()
            return await real_answer(self, entry_id, sender)

        monkeypatch.setattr(Delivery, "answer", answer)
    else:
        real_read = Lobbies.read

        async def read(self: Lobbies, lobby_id: int) -> LobbyRecord:
            lobby = await real_read(self, lobby_id)
            await park()
            return lobby

        monkeypatch.setattr(Lobbies, "read", read)
    return gates


async def release(world: World, gate: asyncio.Event) -> None:
    gate.set()
    await world.env.settle()


async def only_lobby(world: World) -> LobbyRecord:
    lobby = await world.bot.tables.store.lobbies.load(1)
    assert lobby is not None
    return lobby


def lobby_message(world: World):
    """The lobby message as Discord stores it (content, components, pings)."""
    lobby_id = world.table.channel.history()[0].id
    return world.env.backend.get_message(world.table.channel.id, lobby_id)


async def challenge(world: World, host: str, *invitees: str) -> None:
    table = world.table
    args = {f"player{i + 2}": table.members[n] for i, n in enumerate(invitees)}
    await table.members[host].slash(table.channel, "piratz new", **args)


# ---------------------------------------------------------------------- clicks at the same moment


async def test_two_invitees_accept_at_the_same_moment(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    table = world.table
    ben, calico = table.members["Ben"], table.members["Calico"]
    await challenge(world, "Anne", "Ben", "Calico")
    invitation = table.channel.last_message
    (gate,) = hold(world, monkeypatch)
    ben_clicked = await ben.click(invitation, label="Accept")  # read, then parked before writing
    assert not ben_clicked.acknowledged
    await calico.click(invitation, label="Accept")
    await release(world, gate)

    assert ben_clicked.acknowledged
    (game_id,) = await world.bot.tables.cache.game_ids()
    record = await world.bot.tables.cache.get(game_id)
    assert [s.user_id for s in record.seats] == [table.members["Anne"].id, ben.id, calico.id]
    lobby = await only_lobby(world)
    assert (lobby.status, sorted(lobby.accepted), lobby.game_id) == ("started", sorted([ben.id, calico.id]), game_id)
    message = lobby_message(world)
    assert "All aboard" in message.content and "⏳" not in message.content and not message.components


async def test_two_members_join_an_open_table_at_the_same_moment(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    table = world.table
    anne, ben, calico = (table.members[n] for n in ("Anne", "Ben", "Calico"))
    await anne.slash(table.channel, "piratz open")
    lobby_msg = table.channel.last_message
    (gate,) = hold(world, monkeypatch)
    await ben.click(lobby_msg, label="Join")
    await calico.click(lobby_msg, label="Join")
    await release(world, gate)

    assert (await only_lobby(world)).accepted == [anne.id, calico.id, ben.id]
    assert "• Ben" in lobby_message(world).content and "• Calico" in lobby_message(world).content
    await anne.click(lobby_msg, label="Start")
    record = await world.bot.tables.cache.get((await world.bot.tables.cache.game_ids())[0])
    assert [s.name for s in record.seats] == ["Anne", "Calico", "Ben"]


async def test_start_while_the_only_other_player_leaves(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    table = world.table
    anne, ben = table.members["Anne"], table.members["Ben"]
    await anne.slash(table.channel, "piratz open")
    lobby_msg = table.channel.last_message
    await ben.click(lobby_msg, label="Join")
    (gate,) = hold(world, monkeypatch)
    start = await anne.click(lobby_msg, label="Start")  # checked with Ben seated, parked before writing
    left = await ben.click(lobby_msg, label="Leave")
    await release(world, gate)

    assert not said(left, "Sorry") and left.acknowledged
    assert start.ephemeral and said(start, "needs at least 2 players"), texts(start)
    assert await world.bot.tables.cache.game_ids() == []  # no game with a member who had left
    lobby = await only_lobby(world)
    assert (lobby.status, lobby.accepted) == ("open", [anne.id])
    message = lobby_message(world)
    assert "Ben" not in message.content and message.components


async def test_leave_while_the_host_starts(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    table = world.table
    anne, ben = table.members["Anne"], table.members["Ben"]
    await anne.slash(table.channel, "piratz open")
    lobby_msg = table.channel.last_message
    await ben.click(lobby_msg, label="Join")
    (gate,) = hold(world, monkeypatch)
    left = await ben.click(lobby_msg, label="Leave")
    await anne.click(lobby_msg, label="Start")
    await release(world, gate)

    assert left.ephemeral and said(left, "Too late: this game has already started"), texts(left)
    (game_id,) = await world.bot.tables.cache.game_ids()
    record = await world.bot.tables.cache.get(game_id)
    assert [s.user_id for s in record.seats] == [anne.id, ben.id]  # Ben is in the game, and was told so
    assert (await only_lobby(world)).status == "started"


async def test_decline_while_the_last_invitee_accepts(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    table = world.table
    ben, calico = table.members["Ben"], table.members["Calico"]
    await challenge(world, "Anne", "Ben", "Calico")
    invitation = table.channel.last_message
    await calico.click(invitation, label="Accept")
    (gate,) = hold(world, monkeypatch)
    declined = await calico.click(invitation, label="Decline")  # changes her mind, parked before writing
    await ben.click(invitation, label="Accept")
    await release(world, gate)

    # Before, the decline failed silently: Calico's click was never answered.
    assert declined.ephemeral and said(declined, "Too late: this game has already started"), texts(declined)
    assert len(await world.bot.tables.cache.game_ids()) == 1
    assert (await only_lobby(world)).status == "started"
    assert "All aboard" in lobby_message(world).content


async def test_accept_while_another_invitee_declines(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    table = world.table
    ben, calico = table.members["Ben"], table.members["Calico"]
    await challenge(world, "Anne", "Ben", "Calico")
    invitation = table.channel.last_message
    await calico.click(invitation, label="Accept")
    (gate,) = hold(world, monkeypatch)
    accepted = await ben.click(invitation, label="Accept")
    await calico.click(invitation, label="Decline")
    await release(world, gate)

    assert accepted.ephemeral and said(accepted, "This invitation is closed (declined)"), texts(accepted)
    assert await world.bot.tables.cache.game_ids() == []
    message = lobby_message(world)
    assert "Calico declined" in message.content and not message.components


async def test_host_cancels_while_someone_joins(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    table = world.table
    anne, ben = table.members["Anne"], table.members["Ben"]
    await anne.slash(table.channel, "piratz open")
    lobby_msg = table.channel.last_message
    (gate,) = hold(world, monkeypatch, after_write=True)
    await ben.click(lobby_msg, label="Join")  # joined, parked before answering with the table it saw
    await anne.click(lobby_msg, label="Cancel")
    await release(world, gate)

    lobby = await only_lobby(world)
    assert (lobby.status, lobby.accepted) == ("cancelled", [anne.id, ben.id])
    # The join's answer came last, but the message shows the closed table, not the open one it joined.
    message = lobby_message(world)
    assert "The host closed this table" in message.content and not message.components
    assert await world.bot.tables.cache.game_ids() == []


async def test_join_while_the_host_cancels(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    table = world.table
    anne, ben = table.members["Anne"], table.members["Ben"]
    await anne.slash(table.channel, "piratz open")
    lobby_msg = table.channel.last_message
    (gate,) = hold(world, monkeypatch)
    joined = await ben.click(lobby_msg, label="Join")
    await anne.click(lobby_msg, label="Cancel")
    await release(world, gate)

    assert joined.ephemeral and said(joined, "This table is closed (cancelled)"), texts(joined)
    assert (await only_lobby(world)).accepted == [anne.id]


async def test_expiry_keeps_an_acceptance_written_at_the_same_moment(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = world.table
    ben = table.members["Ben"]
    await challenge(world, "Anne", "Ben", "Calico")
    invitation = table.channel.last_message
    (gate,) = hold(world, monkeypatch)
    await world.env.advance_time(world.bot.config.invite_ttl)  # the timer fires, parked before writing
    # Meanwhile Ben's acceptance lands, written by another bot process on the same database.
    lobby = await only_lobby(world)
    lobby.accepted.append(ben.id)
    assert await world.bot.tables.store.lobbies.update(lobby)
    await release(world, gate)

    lobby = await only_lobby(world)
    assert (lobby.status, lobby.accepted) == ("expired", [ben.id])  # expired, and nothing overwritten
    message = lobby_message(world)
    assert message.id == invitation.id and "expired" in message.content and not message.components


async def test_expiry_at_the_moment_the_last_invitee_accepts(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    await world.restart(invite_ttl=TTL)
    table = world.table
    await challenge(world, "Anne", "Ben")
    invitation = table.channel.last_message
    (gate,) = hold(world, monkeypatch)
    await world.env.advance_time(TTL - 1)
    accepted = await table.members["Ben"].click(invitation, label="Accept")  # in time, parked before writing
    await world.env.advance_time(1)  # the invitation expires meanwhile
    await release(world, gate)

    # Before, Ben was asked to "try again" an invitation that had expired.
    assert accepted.ephemeral and said(accepted, "This invitation is closed (expired)"), texts(accepted)
    assert await world.bot.tables.cache.game_ids() == []
    assert "expired" in lobby_message(world).content


async def test_last_acceptance_wins_over_an_expiry_at_the_same_moment(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    await world.restart(invite_ttl=TTL)
    table = world.table
    await challenge(world, "Anne", "Ben")
    invitation = table.channel.last_message
    accept, expire = hold(world, monkeypatch, calls=2)
    await world.env.advance_time(TTL - 1)
    await table.members["Ben"].click(invitation, label="Accept")  # in time, parked before writing
    await world.env.advance_time(1)  # the timer fires and reads the lobby, parked before writing
    await release(world, accept)
    await release(world, expire)

    assert len(await world.bot.tables.cache.game_ids()) == 1
    assert (await only_lobby(world)).status == "started"
    assert "expired" not in lobby_message(world).content and "All aboard" in lobby_message(world).content


# ---------------------------------------------------------------------- lobbies from a game's thread


async def game_thread(world: World):
    """Anne and Ben are playing a duel; returns its record and thread."""
    await world.table.challenge("piratz", "Anne", ["Ben"])
    record = await world.table.latest_game()
    thread = world.table.place(record)
    assert thread.is_thread
    return record, thread


async def test_new_in_a_game_thread_is_posted_in_the_parent_channel(world: World) -> None:
    table = world.table
    running, thread = await game_thread(world)
    in_thread = len(thread.history())
    result = await table.members["Anne"].slash(thread, "piratz new", player2=table.members["Calico"])

    assert result.ephemeral and said(result, f"<#{table.channel.id}>"), texts(result)
    assert len(thread.history()) == in_thread  # nothing posted in the running game's thread
    invitation = table.channel.last_message
    assert "challenges" in invitation.content and invitation.components
    await table.members["Calico"].click(invitation, label="Accept")

    new = await table.latest_game()
    assert new.id != running.id and new.place_id not in (thread.id, table.channel.id)
    assert table.place(new).is_thread
    assert await world.bot.tables.store.games.in_place(thread.id) == [running.id]  # its commands reach only it


async def test_open_in_a_game_thread_is_posted_in_the_parent_channel(world: World) -> None:
    table = world.table
    running, thread = await game_thread(world)
    in_thread = len(thread.history())
    result = await table.members["Ben"].slash(thread, "piratz open")

    assert result.ephemeral and said(result, f"<#{table.channel.id}>"), texts(result)
    assert len(thread.history()) == in_thread
    lobby_msg = table.channel.last_message
    await table.members["Calico"].click(lobby_msg, label="Join")
    await table.members["Ben"].click(lobby_msg, label="Start")

    new = await table.latest_game()
    assert new.id != running.id and new.place_id not in (thread.id, table.channel.id)
    assert [s.name for s in new.seats] == ["Ben", "Calico"]
    assert await world.bot.tables.store.games.in_place(thread.id) == [running.id]


async def test_ai_game_from_a_game_thread_starts_from_the_parent_channel(world: World) -> None:
    table = world.table
    running, thread = await game_thread(world)
    result = await table.members["Ben"].slash(thread, "piratz new", ai=1)

    assert result.ephemeral and said(result, f"<#{table.channel.id}>"), texts(result)
    new = await table.latest_game()
    assert new.id != running.id and new.place_id not in (thread.id, table.channel.id)
    assert await world.bot.tables.store.games.in_place(thread.id) == [running.id]


async def test_lobby_in_a_thread_where_a_game_started_meanwhile_gets_its_own_thread(world: World) -> None:
    table = world.table
    finished, thread = await game_thread(world)
    await world.bot.tables.store.games.finish(finished.id, status="abandoned", result=None, now=0.0)
    # The thread hosts no game now: two lobbies are posted right in it.
    await table.members["Anne"].slash(thread, "piratz new", player2=table.members["Calico"])
    first = thread.last_message
    await table.members["Ben"].slash(thread, "piratz new", player2=table.members["Dara"])
    second = thread.last_message
    await table.members["Calico"].click(first, label="Accept")  # played in the thread itself
    in_thread = await table.latest_game()
    assert in_thread.place_id == thread.id
    await table.members["Dara"].click(second, label="Accept")

    newest = await table.latest_game()
    assert newest.id != in_thread.id and newest.place_id != thread.id
    assert await world.bot.tables.store.games.in_place(thread.id) == [in_thread.id]


# ---------------------------------------------------------------------- names never ping


async def test_a_display_name_never_makes_the_bot_ping(world: World) -> None:
    table = world.table
    env = world.env
    anne, ben, calico, dara = (table.members[n] for n in ("Anne", "Ben", "Calico", "Dara"))
    nick = f"@everyone <@{ben.id}> **Mal** @here"
    mal = table.guild.add_member(env.create_user("mallory", global_name="Mallory"), nick=nick)

    def check(*, pinged: set[int]) -> str:
        """The last lobby message, as Discord stored it after its latest send or edit, pings ``pinged``."""
        message = env.backend.get_message(table.channel.id, table.channel.last_message.id)
        assert message.allowed_mentions.users == frozenset(pinged) and not message.allowed_mentions.everyone
        assert set(message.ping_user_ids) == pinged, message.content
        assert not message.mention_everyone and not message.ping_role_ids
        assert ben.id not in message.mention_user_ids or ben.id in pinged
        assert "@everyone" not in message.content and "@here" not in message.content
        assert "**Mal**" not in message.content  # the name's markdown is shown, not applied
        return message.content

    # Mallory's own invitation pings exactly the invitees, never the host, @everyone or Ben.
    await mal.slash(table.channel, "piratz new", player2=calico, player3=dara)
    invitation = table.channel.last_message
    check(pinged={calico.id, dara.id})
    await calico.click(invitation, label="Accept")
    assert "✅ Calico" in check(pinged=set())  # an update pings nobody
    await dara.click(invitation, label="Decline")
    check(pinged=set())

    # Mallory invited: her name appears as text when she accepts and when she declines.
    await anne.slash(table.channel, "piratz new", player2=mal, player3=calico)
    invitation = table.channel.last_message
    check(pinged={mal.id, calico.id})
    await mal.click(invitation, label="Accept")
    assert "✅ @\u200beveryone <@\u200b" in check(pinged=set())
    await mal.click(invitation, label="Decline")
    assert "declined" in check(pinged=set())

    # Mallory's open table pings nobody, joined or closed.
    await mal.slash(table.channel, "piratz open")
    table_msg = table.channel.last_message
    check(pinged=set())
    await ben.click(table_msg, label="Join")
    check(pinged=set())
    await mal.click(table_msg, label="Cancel")
    check(pinged=set())

    # An ephemeral refusal shows the name as text too.
    result = await anne.slash(table.channel, "piratz new", player2=mal, player3=mal)
    assert said(result, "You invited @\u200beveryone <@\u200b"), texts(result)


# ---------------------------------------------------------------------- rough edges


async def test_a_lobby_whose_answer_failed_is_posted_anyway_and_expires(world: World) -> None:
    table = world.table
    ben = table.members["Ben"]
    world.env.inject_error("POST", "/interactions/*/callback")
    await table.members["Anne"].slash(table.channel, "piratz new", player2=ben)
    # The invitation could not be the command's answer: it is posted in the channel all the same, once.
    invitations = [m for m in raw_messages(world.env, table.channel.id) if "challenges" in m.content]
    assert len(invitations) == 1 and invitations[0].ping_user_ids == [ben.id]
    assert len(await world.bot.tables.store.lobbies.open(host_id=table.members["Anne"].id)) == 1
    await world.env.advance_time(world.bot.config.invite_ttl + 1)
    assert await world.bot.tables.store.lobbies.open() == []
    assert (await only_lobby(world)).status == "expired"
    assert "expired" in raw_messages(world.env, table.channel.id)[-1].content
