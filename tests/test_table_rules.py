"""The table service's rules, without Discord: who may act on a game, a lobby or a seat and from where
(the authority rule), what two members doing something at the same moment end in (settled by the
database), whom a board notifies, and what every change owes (its outbox rows, written with it)."""

from __future__ import annotations

import asyncio
import random
from dataclasses import replace

import pytest

from data.store import GameRecord
from games.core import clone
from games.i18n import localize
from games.registry import GAMES
from games.simulate import next_actor
from tables.authority import Caller, GameError, NotYourTurn, may_decide
from tables.outbox import Message
from tables.results import result_of
from tables.words import HERE, result_line, scores_line, shown
from tests.service_support import (
    CHANNEL,
    GUILD,
    NAMES,
    USERS,
    deliver_all,
    member,
    mover,
    new_game,
    owed,
    refused,
    some_legal,
    to_act,
)
from tests.test_sewerrat_rules import roll, table

OTHER_GUILD = 9


def boards(rows) -> list[Message]:
    return [message for _lane, kind, message, payload in rows if kind == "post" and "board" in payload]


# ---------------------------------------------------------------------------------------------- authority


async def test_a_game_is_out_of_reach_from_another_server(tables, store):
    record = await new_game(tables, 2)
    stranger = member(0, guild=OTHER_GUILD)  # Anne herself, asking from another server
    calls = [
        tables.play.act(stranger, record.id, some_legal(record)),
        tables.seats.follow(member(4, guild=OTHER_GUILD), record.id),
        tables.places.repost(member(4, guild=OTHER_GUILD), record.id),
        tables.seats.offer(member(0, guild=OTHER_GUILD), record.id, "2", member(5, guild=OTHER_GUILD)),
        tables.moves.private_view(stranger, record.id),
        tables.play.resign(stranger, record.id),
        tables.play.abandon(member(0, guild=OTHER_GUILD, moderator=True), record.id),
        tables.lobbies.rematch(stranger, record.id),
    ]
    pending = await store.outbox.pending()
    for call in calls:
        with refused(GameError, match=f"There is no game #{record.id} here"):
            await call
    assert (await store.games.load(record.id)).version == 0 and await store.seats.followers(record.id) == []
    assert await store.outbox.pending() == pending  # nothing was posted into the game's server


async def test_in_direct_messages_only_its_members_reach_a_game(tables):
    record = await new_game(tables, 2)
    with refused(GameError, match="no game"):
        await tables.seats.follow(member(4, guild=None), record.id)
    view = await tables.moves.private_view(member(1, guild=None), record.id)
    assert "Your private view" in view.content and "\ue000" not in view.content  # the link is filled in
    applied = await tables.play.act(Caller(USERS[to_act(record)], "x", None), record.id, some_legal(record))
    assert applied.record.version == 1


async def test_a_seat_is_offered_only_to_a_member_of_the_games_server_without_a_place(tables):
    record = await new_game(tables, 2, kind="searats")  # a fleet per player: the host must not take both
    for name, who, why in [
        ("Bart", member(0), "already plays"),  # the host offering the other player's fleet to herself
        ("Bart", member(5, guild=OTHER_GUILD), "not a member of this game's server"),
        ("Bart", Caller(777, "Bot", GUILD, bot=True), "is a bot account"),
    ]:
        with refused(GameError, match=why):
            await tables.seats.offer(member(0), record.id, name, who)
    with refused(GameError, match="Only the seat's player"):
        await tables.seats.offer(member(4), record.id, "Bart", member(5))


async def test_one_seat_offered_to_two_members_accepted_at_once_goes_to_one(tables, store):
    record = await new_game(tables, 2)
    for who in (4, 5):
        await tables.seats.offer(member(1), record.id, "Bart", member(who))
    at = int(tables.now())
    answers = await asyncio.gather(
        *(
            tables.seats.answer(
                member(who), record.id, 1, user_id=USERS[who], holder=USERS[1], at=at, take=True, message=None
            )
            for who in (4, 5)
        ),
        return_exceptions=True,
    )
    taken = [a for a in answers if isinstance(a, Message)]
    refused = [a for a in answers if isinstance(a, GameError)]
    assert len(taken) == 1 and len(refused) == 1 and "changed hands" in str(refused[0]), answers
    holder = (await store.games.load(record.id)).seats[1].user_id
    assert holder in (USERS[4], USERS[5])
    assert sum(s.user_id in (USERS[4], USERS[5]) for s in (await store.games.load(record.id)).seats) == 1


async def test_a_record_forgotten_while_its_revision_is_read_is_read_again(tables, store, monkeypatch):
    # On a shared database, get() checks its cached record's revision (an await); a change made meanwhile
    # by another task of this process forgets the record. get() must neither fail nor return the old one.
    record = await new_game(tables, 2)
    await tables.cache.get(record.id)
    revision = type(store.games).revision

    async def changed_meanwhile(games, game_id):
        tables.cache.forget(game_id)
        return await revision(games, game_id)

    monkeypatch.setattr(type(store), "shared", property(lambda self: True))
    monkeypatch.setattr(type(store.games), "revision", changed_meanwhile)
    again = await tables.cache.get(record.id)
    assert again.id == record.id and again is not record
    assert tables.cache.cached(record.id) is again


async def test_an_offer_is_answered_only_by_its_member_and_expires(tables):
    record = await new_game(tables, 2)
    at = int(tables.now())
    kwargs = {"user_id": USERS[4], "holder": USERS[1], "at": at, "take": True, "message": None}
    with refused(GameError, match="for someone else"):
        await tables.seats.answer(member(5), record.id, 1, **kwargs)
    tables.now.t += tables.config.invite_ttl + 1
    with refused(GameError, match="expired"):
        await tables.seats.answer(member(4), record.id, 1, **kwargs)


# ---------------------------------------------------------------------------------------------- rematches


async def finished_duel(tables) -> int:
    record = await new_game(tables, 2)
    await tables.play.resign(member(1), record.id)
    return record.id


async def test_two_quick_clicks_on_rematch_make_one_proposal(tables, store):
    game_id = await finished_duel(tables)
    answers = await asyncio.gather(
        tables.lobbies.rematch(member(0), game_id), tables.lobbies.rematch(member(0), game_id), return_exceptions=True
    )
    assert sum(isinstance(a, str) and "Rematch proposed" in a for a in answers) == 1
    assert sum(isinstance(a, GameError) and "You are in" in str(a) for a in answers) == 1
    assert len(await store.lobbies.open()) == 1


async def test_both_players_clicking_rematch_at_once_start_one_game(tables, store):
    game_id = await finished_duel(tables)
    answers = await asyncio.gather(
        tables.lobbies.rematch(member(0), game_id), tables.lobbies.rematch(member(1), game_id)
    )
    assert any("Rematch proposed" in a for a in answers) and any("begins" in a for a in answers)
    assert len(await store.games.ids()) == 1  # the rematch, once
    (lobby,) = [lobby for lobby in [await store.lobbies.rematch_of(game_id)] if lobby]
    assert lobby.status == "started" and lobby.game_id is not None
    again = await asyncio.gather(tables.lobbies.rematch(member(0), game_id), return_exceptions=True)
    rematch = await tables.cache.get(lobby.game_id)
    # Clicked again: the answer links to where the rematch is played (its channel until its thread opens).
    assert isinstance(again[0], GameError) and f"<#{rematch.place_id}>" in str(again[0])


# ---------------------------------------------------------------------------------------------- lobbies


async def test_two_invitees_accepting_at_once_start_one_game(tables, store):
    answer = await tables.lobbies.challenge(member(0), "piratz", [member(1), member(2)], 0, {})
    assert answer.entry is not None
    (lobby,) = await store.lobbies.open()
    await asyncio.gather(
        tables.lobbies.click(member(1), lobby.id, "accept"), tables.lobbies.click(member(2), lobby.id, "accept")
    )
    lobby = await store.lobbies.load(lobby.id)
    assert lobby.status == "started" and len(await store.games.ids()) == 1
    assert sorted(lobby.accepted) == [USERS[1], USERS[2]]


async def test_a_table_of_a_player_count_the_game_refuses_is_never_made(tables, store):
    with refused(GameError, match="Teams of 3 need 6 players, not 3"):
        await tables.lobbies.challenge(member(0), "sewerrat", [member(1), member(2)], 0, {"teams": "3"})
    assert await store.lobbies.open() == []
    await tables.lobbies.open_table(member(0), "sewerrat", 2, {"teams": "2"})  # 3 seats so far
    (lobby,) = await store.lobbies.open()
    with refused(GameError, match="Teams of 2 need 4 or 6 players, not 3"):
        await tables.lobbies.click(member(0), lobby.id, "start")
    await tables.lobbies.click(member(1), lobby.id, "join")
    await tables.lobbies.click(member(0), lobby.id, "start")
    assert (await store.lobbies.load(lobby.id)).status == "started" and len(await store.games.ids()) == 1


async def test_the_mover_is_told_why_it_waits_while_another_rat_flees(tables, store):
    record = await new_game(tables, kind="sewerrat")
    position = table(rats={0: "r8c8", 1: "r5c2"}, traps={"r3c2": 1})
    roll(position, 0, 5, 2)  # a trap of seat 0's roll falls on seat 1's rat: seat 1 decides where it flees
    fleeing = replace(record, state=position)
    with pytest.raises(NotYourTurn) as caught:
        may_decide(fleeing, USERS[0])
    assert localize(str(caught.value)) == (
        f"A trap of your roll fell on {NAMES[1]}'s rat: it flees first, then your turn goes on."
    )
    assert may_decide(fleeing, USERS[1]).seats == (1,)


async def test_a_full_table_takes_one_of_two_late_joiners(tables, store):
    await tables.lobbies.open_table(member(0), "piratz", 2, {})  # 1 host + 2 AI seats of 4
    (lobby,) = await store.lobbies.open()
    results = await asyncio.gather(
        tables.lobbies.click(member(1), lobby.id, "join"),
        tables.lobbies.click(member(2), lobby.id, "join"),
        tables.lobbies.click(member(3), lobby.id, "join"),
        return_exceptions=True,
    )
    assert sum(isinstance(r, GameError) and "full" in localize(str(r)) for r in results) == 2
    assert len((await store.lobbies.load(lobby.id)).accepted) == 2


async def test_lobby_buttons_answer_only_their_members_and_server(tables, store):
    await tables.lobbies.challenge(member(0), "piratz", [member(1)], 0, {})
    (lobby,) = await store.lobbies.open()
    with refused(GameError, match="not addressed to you"):
        await tables.lobbies.click(member(3), lobby.id, "accept")
    with refused(GameError, match="not from this server"):
        await tables.lobbies.click(member(1, guild=OTHER_GUILD), lobby.id, "accept")
    assert (await store.lobbies.load(lobby.id)).status == "open"


# ---------------------------------------------------------------------------------------------- words


async def test_names_never_ping_or_format_in_what_the_service_writes(tables, store):
    victim = 345678901234567890  # a member's id, as Discord's are
    mallory = Caller(USERS[1], f"@everyone <@{victim}> **Mal**", GUILD, CHANNEL)
    await tables.lobbies.challenge(member(0), "piratz", [mallory], 0, {})
    (lobby,) = await store.lobbies.open()
    await tables.lobbies.click(mallory, lobby.id, "accept")
    game_id = (await store.games.ids())[0]
    await tables.play.resign(mallory, game_id)
    rows = await owed(tables)
    texts = "\n".join(message.content for *_rest, message, _payload in rows)
    assert f"<@{victim}>" not in texts and "@everyone" not in texts.replace("@\u200beveryone", "")
    assert "**Mal**" not in texts and shown(mallory.name) in texts
    assert all(victim not in message.notifies for _lane, _kind, message, _payload in rows)
    final = next(m for _l, _k, m, p in rows if "is over" in m.content)
    assert f"{shown(mallory.name)} resigned." in final.content


# ---------------------------------------------------------------------------------------------- attention


async def test_a_board_notifies_a_member_when_the_decision_passes_from_another_member(tables):
    record = await new_game(tables, 2)
    await deliver_all(tables)
    first = to_act(record)
    while to_act(record) == first:
        record = (await tables.play.act(mover(record), record.id, some_legal(record))).record
    notified = [m.notifies for m in boards(await owed(tables, record.id))]
    assert notified[:-1] == [[]] * (len(notified) - 1)  # while the first player went on: nobody
    assert notified[-1] == [USERS[to_act(record)]]  # the turn passed: the other player


async def test_the_ai_handing_the_turn_back_notifies_nobody_until_a_member_was_away_a_while(tables):
    record = await new_game(tables, 2, ai=1)
    game = record.id
    for step in range(40):  # noqa: B007  (how far it went is checked below)
        record = await tables.cache.get(game)
        if record.status != "active":
            break
        if record.seats[to_act(record)].is_ai:
            await tables.play.ai_turn(game, 12)
        else:
            tables.now.t += 1
            await tables.play.act(mover(record), game, some_legal(record))
    assert step > 5
    assert all(m.notifies == [] for m in boards(await owed(tables, game)))
    await deliver_all(tables)
    # Anne played her turn long ago: when the AI hands it back now, she is notified.
    record = await tables.cache.get(game)
    while record.status == "active" and not record.seats[to_act(record)].is_ai:
        record = (await tables.play.act(mover(record), game, some_legal(record))).record
    if record.status == "active":
        tables.now.t += 121
        await tables.play.ai_turn(game, 12)
        latest = boards(await owed(tables, game))[-1]
        record = await tables.cache.get(game)
        assert record.status != "active" or latest.notifies == [USERS[0]]


async def test_a_board_posted_again_notifies_nobody(tables):
    record = await new_game(tables, 2)
    await deliver_all(tables)
    for _ in range(3):
        await tables.places.repost(member(4), record.id)  # a spectator asks for the board
    reposts = boards(await owed(tables, record.id))
    assert len(reposts) == 3 and all(m.notifies == [] for m in reposts)


# ---------------------------------------------------------------------------------------------- what is owed


async def test_a_finishing_action_owes_the_board_final_message_result_line_and_archiving(tables, store):
    record = await new_game(tables, 2)
    await deliver_all(tables)
    await tables.play.resign(member(1), record.id)
    rows = await owed(tables, record.id)
    kinds = [(lane.split(":")[0], kind) for lane, kind, _m, _p in rows]
    assert kinds == [("game", "post"), ("game", "post"), ("game", "post"), ("archive", "archive")]
    note, final, result = (m for _l, _k, m, _p in rows[:3])
    assert "resigned" in note.content
    assert "is over" in final.content and final.log == record.id
    assert final.components == [{"type": "rematch", "game": record.id}, {"type": "hand", "game": record.id}]
    assert rows[1][3]["strip_board"] is True  # the last board's buttons go
    assert "won by" in result.content and rows[2][3]["result_of"] == record.id


# ---------------------------------------------------------------------------------------------- words


async def test_result_lines_name_each_player_once_ranked_with_what_the_number_means(tables):
    fleet = await new_game(tables, kind="searats")  # Anne commands Black, Blue, Purple; Ben the others
    ended = replace(fleet, result={"winners": [1, 3, 5], "scores": [0, 3, 0, 3, 0, 3]})
    line = localize(scores_line(GAMES["searats"], ended))
    assert line == f"Ships afloat: {NAMES[1]} 3 ships · {NAMES[0]} 0 ships"
    rats = await new_game(tables, 3, kind="sewerrat")
    ended = replace(rats, result={"winners": [2], "scores": [40, 12, 41]})
    line = localize(scores_line(GAMES["sewerrat"], ended))
    assert line == f"Turns in the sewer: {NAMES[2]} 41 turns · {NAMES[0]} 40 turns · {NAMES[1]} 12 turns"
    cards = await new_game(tables, 1, kind="pirates")
    ended = replace(cards, result={"winners": [0], "scores": [4]})
    assert localize(scores_line(GAMES["pirates"], ended)) == f"Missions done: {NAMES[0]} 4 missions"
    tie = await new_game(tables, 3)
    ended = replace(tie, result={"winners": [1], "scores": [1, 7, 7]})  # the winner first, then by score
    line = localize(scores_line(GAMES["piratz"], ended))
    assert line == f"Scores: {NAMES[1]} 7 points · {NAMES[2]} 7 points · {NAMES[0]} 1 point"


def played(record: GameRecord) -> GameRecord:
    """``record`` played to its end by its game's AI in every seat, with the result the service stores."""
    spec = GAMES[record.kind]
    game, state = spec.game, clone(record.state)
    rng = random.Random(record.seed)
    while not game.is_over(state):
        seat = next_actor(game, state, rng)
        state = game.apply(state, seat, spec.player.choose(game, state, seat, game.rng(state)), inplace=True).state
    result = result_of(game, state, game.outcome(state), record.seats)
    return replace(record, state=state, status="finished", result=result)


RESULT_TABLES = {
    "piratz": (3, {}),
    "sewerpirats": (3, {}),
    "pirates": (3, {}),
    "sewerrat": (4, {"teams": "2"}),  # two teams of two
    "searats": (3, {}),  # a fleet of two ships each
}


@pytest.mark.parametrize("kind", sorted(RESULT_TABLES))
async def test_the_result_line_of_every_game_names_each_player_once(tables, kind):
    assert set(RESULT_TABLES) == set(GAMES)
    players, options = RESULT_TABLES[kind]
    record = played(await new_game(tables, players, ai=1, kind=kind, options=options))
    line = localize(result_line(GAMES[kind], record))
    names = [shown(s.name) for s in record.seats]
    assert len(names) == players and all(line.count(name) == 1 for name in names), line
    assert (" won by " in line) == bool(record.result["winners"]) and line.endswith(f". {HERE}"), line


async def test_a_result_line_gives_the_winners_score_then_the_others_numbers(tables):
    cards = await new_game(tables, 3, ai=1, kind="pirates")
    bill = cards.seats[2].name
    ended = replace(cards, status="finished", result={"winners": [1], "scores": [1, 3, 0]})
    game = f"🏴‍☠️ **Pirates Card Game #{cards.id}**"
    line = result_line(GAMES["pirates"], ended)
    assert localize(line) == f"🏁 {game} won by Bart with 3 missions · Anne 1 · {bill} 0. {HERE}"
    german = f"🏁 🏴‍☠️ **Piraten-Kartenspiel #{cards.id}** wurde von Bart (3 Missionen) gewonnen · Anne 1 · {bill} 0."
    assert localize(line, "de") == f"{german} {HERE}"
    solo = await new_game(tables, 1, kind="pirates")
    ended = replace(solo, status="finished", result={"winners": [0], "scores": [3]})
    assert localize(result_line(GAMES["pirates"], ended)).endswith(f" won by Anne with 3 missions. {HERE}")
    rats = await new_game(tables, 4, kind="sewerrat", options={"teams": "2"})  # Anne and Cleo, Bart and Dirk
    ended = replace(rats, status="finished", result={"winners": [1, 3], "scores": [9, 15, 12, 15]})
    line = localize(result_line(GAMES["sewerrat"], ended))
    assert line.endswith(f" won by Bart, Dirk with 15 turns · Cleo 12 · Anne 9. {HERE}")  # a team's score said once
    ended = replace(rats, status="finished", result={"winners": [1, 3], "scores": [9, 15, 12, 14]})
    line = localize(result_line(GAMES["sewerrat"], ended))
    assert line.endswith(f" won by Bart with 15 turns, Dirk with 14 turns · Cleo 12 · Anne 9. {HERE}")
    fleet = await new_game(tables, kind="searats")  # Anne commands Black, Blue, Purple; Bart the others
    ended = replace(fleet, status="finished", result={"winners": [1, 3, 5], "scores": [0, 3, 0, 3, 0, 3]})
    assert localize(result_line(GAMES["searats"], ended)).endswith(f" won by Bart with 3 ships · Anne 0. {HERE}")
    nobody = replace(cards, status="finished", result={"winners": [], "scores": [2, 2, 0]})
    line = localize(result_line(GAMES["pirates"], nobody))
    assert line.endswith(
        f"ended with no winner. Missions done: Anne 2 missions · Bart 2 missions · {bill} 0 missions. {HERE}"
    )


async def test_what_the_service_writes_reads_in_german_with_its_counts(tables, store):
    await tables.lobbies.open_table(member(0), "piratz", 1, {}, 3600)
    rows = await tables.store.outbox.pending()
    lobby = Message.from_json(rows[-1].payload["message"]).written("de").content
    assert "1 KI-Platz" in lobby and "Zugzeit: 1 Stunde" in lobby and "Alle dürfen mitspielen!" in lobby
    await deliver_all(tables)
    record = await new_game(tables, 2)
    await tables.play.resign(member(0), record.id)
    german = [
        Message.from_json(r.payload["message"]).written("de").content
        for r in await tables.store.outbox.pending(game_id=record.id)
        if "message" in r.payload
    ]
    assert "🏳️ Anne hat aufgegeben." in german
    assert any("ist vorbei.** Anne hat aufgegeben.\nSpielende: durch Aufgabe entschieden." in t for t in german)
    with refused(GameError, match="already over") as caught:
        await tables.play.resign(member(1), record.id)
    assert localize(str(caught.value), "de") == "Diese Partie ist schon vorbei."
