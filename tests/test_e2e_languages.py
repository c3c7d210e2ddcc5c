"""End to end, in other languages: whole games of every game played through the real bot in SimCord by
members who speak the ``pseudo`` language (every message ``⟦…⟧``, 40% longer) leave no word in any message,
embed, button, thread name, image description or image that a catalog did not write; what one member reads is in
their language and what the thread shows in the server's; a German member's ``move`` autocomplete offers
German labels and takes them; ``/games language`` sets a server's language, for members with Manage Server
only.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import discord
import pytest
import simcord

from cogs.offline.driver import DEMO_NAMES, SimTable, speaking
from games.core import format_seats
from games.i18n import LANGUAGES, T, gettext, language_name, localize, spoken, translated
from games.registry import GAMES
from tables.starting import AI_NAMES
from tests.conftest import World
from tests.i18n_checks import unmarked
from tests.support import raw_messages, texts
from tests.test_render_fit import recording

NAMES = [*DEMO_NAMES, *AI_NAMES, "🤖"]


def readable(message: Any) -> Iterator[str]:
    """Every text of a SimCord message that a person reads."""
    yield message.content
    for embed in message.embeds:
        yield str(embed.get("title", ""))
        yield str(embed.get("description", ""))
    for row in message.components:
        for component in row.get("components", []):
            yield component.get("label") or ""
            yield component.get("placeholder") or ""
            for option in component.get("options", []):
                yield option.get("label", "")
                yield option.get("description") or ""
    for attachment in message.attachments:
        yield attachment.get("description") or ""


def everything_seen(env: simcord.Env) -> Iterator[tuple[str, str]]:
    """``(where, text)`` for every message in SimCord and every thread's name."""
    backend = env.backend
    for channel_id, messages in backend.messages.items():
        channel = backend.channels.get(channel_id)
        if channel is not None and channel.is_thread:
            yield f"thread {channel_id}", channel.name
        for message in messages.values():
            for text in readable(message):
                yield f"message {message.id} in {channel_id}", text


@pytest.fixture
def pseudo_world(world: World) -> Iterator[World]:
    """The world with a server and members who all speak ``pseudo``."""
    table = SimTable(world.env, world.bot, locale="pseudo")
    world.table = table
    with speaking({member.id: "pseudo" for member in table.members.values()}):
        yield world


@pytest.mark.parametrize("kind", list(GAMES))
async def test_a_whole_game_in_pseudo_shows_no_word_a_catalog_did_not_write(pseudo_world: World, kind: str) -> None:
    table = pseudo_world.table
    players = max(3, GAMES[kind].game.min_players) if kind != "searats" else 2
    with recording() as drawn:  # every word drawn on every image of the game, in the render threads too
        await table.challenge(kind, "Anne", ["Ben"], ai=players - 2)
        record = await table.latest_game()
        record = await table.play_to_end(record.id, via="mixed")
    assert record.status == "finished"
    found = {}
    images = [(f"image {n}", " ".join(t.s for t in sheet.texts)) for n, sheet in enumerate(drawn.sheets.values())]
    assert images
    for where, text in [*everything_seen(pseudo_world.env), *images]:
        words = unmarked(text, NAMES)
        if words:
            found.setdefault(" ".join(words), f"{where}: {text[:200]!r}")
    assert not found, "\n".join(f"{words} <- {where}" for words, where in list(found.items())[:15])


async def test_a_member_reads_their_language_and_the_thread_the_servers(world: World) -> None:
    """Anne speaks ``pseudo`` in an English server: her pickers, answers and private hand are hers; the
    thread, its boards and their buttons stay English."""
    table = world.table
    anne = table.members["Anne"]
    with speaking({anne.id: "pseudo"}):
        await table.challenge("sewerpirats", "Anne", ["Ben"], ai=1)
        record = await table.latest_game()
        record = await table.play_moves(record.id, 6)
        hand = await anne.slash(table.place(record), "sewerpirats hand")
    private = [t for t in texts(hand) if t]
    assert private and all(not unmarked(t, NAMES) for t in private), private
    pickers = [
        m
        for m in raw_messages(world.env, table.place(record).id)
        if m.is_ephemeral and int((m.interaction_metadata or {}).get("user", {}).get("id", 0)) == anne.id
    ]
    assert pickers and all(not unmarked(t, NAMES) for m in pickers for t in readable(m)), [m.content for m in pickers]
    for message in raw_messages(world.env, table.place(record).id):
        for text in readable(message) if not message.is_ephemeral else ():
            assert "⟦" not in text, text
    anne_dms = raw_messages(world.env, anne.user.dm_channel.id)
    assert anne_dms and all("⟦" in m.content for m in anne_dms if m.content)


async def test_a_german_member_gets_german_dms_in_an_english_server(world: World) -> None:
    table = world.table
    anne = table.members["Anne"]
    with speaking({anne.id: "de"}):
        await table.challenge("pirates", "Anne", ["Ben"])
        record = await table.latest_game()
        record = await table.play_moves(record.id, 3)
    dms = {
        member.id: [m.content for m in raw_messages(world.env, member.user.dm_channel.id)]
        for member in (anne, table.members["Ben"])
    }
    header = "**Your private view in {game} ({place})**"  # what every DM of a game starts with, in each language
    german, english = gettext(header, "de").split("{game}")[0], header.split("{game}")[0]
    assert german != english
    ben = table.members["Ben"].id
    assert dms[anne.id] and all(german in text and english not in text for text in dms[anne.id]), dms[anne.id]
    assert dms[ben] and all(english in text and german not in text for text in dms[ben]), dms[ben]


async def test_a_german_members_autocomplete_offers_german_labels_and_takes_them(world: World) -> None:
    table = world.table
    anne = table.members["Anne"]
    with speaking({anne.id: "de"}):
        await table.challenge("piratz", "Anne", ["Ben"])
        record = await table.latest_game()
        seat = table.human_to_act(record)
        member = table.member_of(record, seat)
        if member.id != anne.id:  # Ben opens: one move of his, then Anne's turn
            await table.move(record, seat, table.pick(record, seat))
            record = await table.record(record.id)
        choices = GAMES["piratz"].game.choices(record.state, record.seat_of(anne.id))
        german = [localize(c.label, "de") for c in choices]
        english = [localize(c.label) for c in choices]
        assert german != english
        offered = await anne.autocomplete(table.place(record), "piratz move", "action", "")
        assert [c["name"] for c in offered] == german
        picked = next(c for c in offered if c["value"] == choices[0].action.encode())
        result = await anne.slash(table.place(record), "piratz move", action=picked["name"])
        assert any(t.startswith("✅") for t in texts(result)), texts(result)
        assert (await table.record(record.id)).version == record.version + 1


async def test_a_server_set_to_german_gets_german_boards_finals_and_results(world: World) -> None:
    """``/games language`` is for members with Manage Server; once set, the server's threads speak it."""
    table = world.table
    admins = table.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    admin = table.guild.add_member(world.env.create_user("admin", global_name="Admin"), roles=[admins])
    ben = table.members["Ben"]
    refused = await ben.slash(table.channel, "games language", language="de")
    assert any("Manage Server" in t for t in texts(refused)), texts(refused)
    assert await world.bot.tables.languages.server(table.guild.id) == "en"

    done = await admin.slash(table.channel, "games language", language="de")
    assert any("now speak German." in t for t in texts(done)), texts(done)  # in the admin's own English
    table.locale = "de"  # the invitations the members click are German now
    await table.challenge("piratz", "Anne", ["Ben"])
    record = await table.latest_game()
    record = await table.play_to_end(record.id, via="mixed")
    spec = GAMES["piratz"]
    final = raw_messages(world.env, table.place(record).id)[-1]
    game = f"{localize(spec.title, 'de')} #{record.id}"
    assert localize(T("**{game} is over.** {summary}", game=game, summary=""), "de").strip() in final.content
    alt = format_seats(spec.game.summary(spec.game.view(record.state, None)), record.names)
    assert final.attachments[0].get("description") == localize(alt, "de")
    winner = record.names[record.result["winners"][0]]
    result = [m.content for m in raw_messages(world.env, table.channel.id) if game in m.content][-1]
    assert f"{spec.emoji} **{game}** wurde von {winner} (" in result and " gewonnen · " in result, result
    assert all(result.count(name) == 1 for name in record.names), result  # each player named once


def discord_locales() -> dict[str, list[str]]:
    """Discord's locales by the language of :data:`LANGUAGES` they are in (English's left out: Discord shows the
    English itself), e.g. ``{"de": ["de"], "es": ["es-ES", "es-419"]}``."""
    found: dict[str, list[str]] = {}
    for locale in discord.Locale:
        if (lang := spoken(locale)) not in (None, "en"):
            found.setdefault(lang, []).append(locale.value)
    return found


async def test_every_command_option_and_choice_is_described_in_every_language_within_discords_limits(
    world: World,
) -> None:
    """What Discord shows of the commands (descriptions, option descriptions, choice names) has a translation
    for every Discord locale of every language the bot speaks, through the bot's translator as discord.py asks
    it when the commands are synced, and within Discord's limits: nothing is cut in code, so a catalog's text
    over a limit is a failure here (descriptions 1–100 characters, names 1–32, choice names 1–100)."""
    tree = world.bot.tree
    translator = tree.translator
    assert translator is not None
    locales = discord_locales()
    assert set(locales) == set(LANGUAGES) - {"en"}
    missing, long = [], []
    for command in tree.walk_commands():
        payload = await command.get_translated_payload(tree, translator)
        shown = [("", payload)]
        shown += [(f" {o['name']}", o) for o in payload.get("options", []) if o.get("type", 1) > 2]
        for where, part in shown:
            named = f"/{command.qualified_name}{where}"
            texts = [("description", 100, part, "description"), ("name", 32, part, "name")]
            texts += [("choice", 100, choice, "name") for choice in part.get("choices", [])]
            for what, limit, item, key in texts:
                english = item.get(key) or ""
                translations = item.get(f"{key}_localizations") or {}
                if not 1 <= len(english) <= limit:
                    long.append(f"{named} {what} in English: {english!r}")
                for codes in locales.values():
                    for code in codes:
                        text = translations.get(code)
                        if text is not None and not 1 <= len(text) <= limit:
                            long.append(f"{named} {what} in {code} ({len(text)}): {text!r}")
                        needed = what != "name" and english and not english.isdigit()
                        if needed and text is None:
                            missing.append(f"{named} {what} in {code}: {english!r}")
    assert not long, "\n".join(long[:20])
    assert not missing, "\n".join(missing[:20])


async def test_the_languages_are_offered_by_their_names_in_the_members_language(world: World) -> None:
    """``/games language`` names each language as the member's language does: "Englisch" for a German member,
    never a nation's adjective from a game's catalog ("englisch")."""
    tree = world.bot.tree
    command = tree.get_command("games").get_command("language")  # type: ignore[union-attr]
    payload = await command.get_translated_payload(tree, tree.translator)
    choices = {c["value"]: c for c in payload["options"][0]["choices"]}
    assert choices["en"]["name"] == "English" and choices["de"]["name"] == "German"
    assert choices["en"]["name_localizations"]["de"] == "Englisch"
    assert choices["de"]["name_localizations"]["de"] == "Deutsch"
    assert localize(language_name("en"), "de") == "Englisch" and translated("English", "de") is None
