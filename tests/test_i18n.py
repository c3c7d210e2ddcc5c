"""Every text an engine writes for a person comes from a catalog, and every catalog speaks German.

The engines' texts are read through the ``pseudo`` language (:mod:`tests.i18n_checks`) over seeded games of
every registered game with its fewest and most players: labels of every legal action, events public and
private, prompts, waiting lines, summaries and private summaries of every seat's view and the spectator's,
refusals, outcomes, and the rules. Then the German catalogs: no message of the code lacks its German.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator

import orjson
import pytest

from games import i18n
from games.catalogs import conflicts, gaps, terms
from games.core import IllegalAction, Option
from games.i18n import LANGUAGES, N, P, T, joined, localize, seat_ref, spoken, unread, with_names
from games.registry import GAMES, GameSpec
from games.simulate import next_actor
from tests.i18n_checks import pseudo, unmarked

NAMES = ["Anne Bonny", "Calico Jack", "Mary Read", "Blackbeard", "Ching Shih", "Henry Morgan", "Ned Low", "Kidd"]
STEPS = 400
"""Steps read per game: enough to reach every phase of a game's first rounds (and its end in most)."""


def texts_of_play(spec: GameSpec, players: int, seed: str) -> Iterator[tuple[str, str]]:
    """``(where, text)`` for every text a seeded game of ``players`` shows a person."""
    game = spec.game
    state = game.new_game(players, None, seed)
    rng = random.Random(seed)
    for step in range(STEPS):
        for seat in [*range(state["seats"]), None]:
            view = game.view(state, seat)
            yield f"summary {seat}", game.summary(view)
            if (prompt := game.prompt(view)) is not None:
                yield f"prompt {seat}", prompt
            if seat is not None:
                yield f"seat summary {seat}", game.seat_summary(view)
        if game.is_over(state):
            outcome = game.outcome(state)
            assert outcome is not None
            yield "outcome", outcome.summary
            return
        acting = game.to_act(state)
        for seat in range(state["seats"]):
            if seat not in acting and (waiting := game.waiting(state, seat)) is not None:
                yield f"waiting {seat}", waiting
        seat = next_actor(game, state, rng)
        for choice in game.choices(state, seat):
            for label in choice.path:
                yield f"label {choice.action}", label
        for junk in ("", "fly away", "x" * 70):
            try:
                game.apply(state, seat, junk)
            except IllegalAction as exc:
                yield f"refusal {junk!r}", str(exc)
        idle = next((s for s in range(state["seats"]) if s not in acting), None)
        if idle is not None:
            with pytest.raises(IllegalAction) as refused:
                game.apply(state, idle, game.legal_actions(state, seat)[0])
            yield "out of turn", str(refused.value)
        action = spec.player.choose(game, state, seat, game.rng(state))
        result = game.apply(state, seat, action, trusted=True)
        for event in result.events:
            yield f"event at step {step}", event.text
        state = result.state


def game_texts(spec: GameSpec) -> Iterator[tuple[str, str]]:
    game = spec.game
    yield "title", game.title
    yield "scores title", game.scores_title
    yield "score", game.score_text(3)
    yield "rules", game.rules_text()
    for players in sorted({game.min_players, max(2, game.min_players), game.max_players}):
        yield from texts_of_play(spec, players, f"i18n-{players}")


def option_texts(option: Option) -> Iterator[str]:
    yield option.description
    yield from (option.label(c) for c in option.choices)


@pytest.mark.parametrize("kind", list(GAMES))
def test_every_text_an_engine_writes_comes_from_a_catalog(kind: str) -> None:
    found: dict[str, str] = {}
    for where, text in game_texts(GAMES[kind]):
        words = unmarked(pseudo(with_names(text, NAMES)), NAMES)
        if words and len(found) < 12:
            found.setdefault(f"{where}: {localize(with_names(text, NAMES))!r}", " ".join(words))
    assert not found, "\n".join(f"{where} -> unmarked {words!r}" for where, words in found.items())


@pytest.mark.parametrize("kind", list(GAMES))
def test_orjson_writes_every_mark_of_a_game_as_the_standard_library_does(kind: str, monkeypatch) -> None:
    """Marks live in stored states, events and outbox rows, and are compared as text (a private view's
    digest): written by orjson, each is byte for byte what ``json`` wrote before it."""
    payloads: list[list] = []
    mark = i18n._mark
    monkeypatch.setattr(i18n, "_mark", lambda payload: payloads.append(payload) or mark(payload))
    spec = GAMES[kind]
    for _ in texts_of_play(spec, spec.game.max_players, "orjson"):
        pass
    assert len(payloads) > 500
    different = [p for p in payloads if orjson.dumps(p).decode() != i18n._ENCODE(p)]
    assert not different, different[:5]


def test_a_mark_orjson_cannot_write_is_written_by_the_standard_library() -> None:
    odd = 'Zoë ☠\x1f\u2028\x7f"\\'  # a name with what JSON escapes and what it leaves
    text = T("{name} holds {n} doubloons", name=odd, n=2**70)
    assert localize(text) == f"{odd} holds {2**70} doubloons"
    assert localize(T("{name} holds {n} doubloons", name=odd, n=7)) == f"{odd} holds 7 doubloons"


@pytest.mark.parametrize("kind", list(GAMES))
def test_the_rules_in_german_fit_discord(kind: str) -> None:
    """The rules summary is an embed's description: 4,096 characters at most in every language."""
    rules = GAMES[kind].game.rules_text()
    german = localize(rules, "de")
    assert german != localize(rules) and len(german) <= 4000


def test_no_message_of_the_code_lacks_its_german() -> None:
    missing = gaps()
    assert not missing, f"{len(missing)} gaps, the first: " + "; ".join(map(str, missing[:10]))


def test_no_two_catalogs_translate_a_message_differently() -> None:
    """A language's catalogs are merged: a message two domains translate differently would read wrong in one."""
    assert not conflicts(), "\n".join(conflicts()[:10])


def test_a_marked_message_is_written_out_in_each_language_with_its_values() -> None:
    text = T("{seat} took {cards}.", seat=seat_ref(1), cards=N("{n} card", "{n} cards", 3))
    assert localize(with_names(text, ["Anne", "Ben"])) == "Ben took 3 cards."
    assert localize(with_names(text, ["Anne", 'B"{en}'])) == 'B"{en} took 3 cards.'  # a name is only text
    assert pseudo(N("{n} card", "{n} cards", 1)) == "⟦1 card··⟧"
    assert localize(joined([T("Scores"), "Ben", "Cleo"]), "de") == "Punkte, Ben und Cleo"
    assert localize(T("Scores")) == "Scores" and localize(T("Scores"), "de-DE") == "Punkte"
    assert localize(T("It is not your turn."), "ja") == "It is not your turn."  # no Japanese: English


def test_text_made_unread_is_not_marked_and_only_in_its_thread() -> None:
    with unread():
        assert T("{seat} draws.", seat=seat_ref(0)) == "" and N("{n} card", "{n} cards", 2) == ""
        assert localize(T("This game is over.")) == "This game is over."  # a message without values: cached
        elsewhere: list[str] = []
        thread = threading.Thread(target=lambda: elsewhere.append(localize(T("{n} up", n=3))))
        thread.start()
        thread.join()
        assert elsewhere == ["3 up"]
        with unread():
            pass
        assert T("{n} up", n=3) == ""  # still unread after a nested context ends
    assert localize(T("{n} up", n=3)) == "3 up"


def test_no_catalog_names_a_game_or_a_term_two_ways() -> None:
    """One name per language for each game and each term of the glossary: "Kanalratte" in the command's
    description as on the board, "Nachziehstapel" wherever the draw pile is."""
    assert not terms(), "\n".join(terms()[:10])


def test_a_message_with_a_context_is_looked_up_in_its_context_only() -> None:
    """The same English in two places (a language's name, a nation's adjective) is two messages."""
    assert localize(P("language", "English"), "de") == "Englisch"
    assert (
        localize(P("language", "English")) == "English"
        and localize(P("language", "English"), "pseudo") == "⟦English···⟧"
    )
    assert localize(P("no such context", "English"), "de") == "English"  # untranslated: the English


def test_lists_are_joined_as_each_language_joins_them() -> None:
    names = joined(["Anne", "Ben", "Cleo"])
    assert localize(names) == "Anne, Ben, and Cleo" and localize(names, "de") == "Anne, Ben und Cleo"
    assert localize(joined(["Anne", T("Scores")]), "de") == "Anne und Punkte"
    assert unmarked(pseudo(names), ["Anne", "Ben", "Cleo"]) == []


@pytest.mark.parametrize(
    ("added", "locale", "lang"),
    [
        ("pt_BR", "pt-BR", "pt_BR"),
        ("es", "es-419", "es"),
        ("es", "es-ES", "es"),
        ("fr", "fr", "fr"),
        (None, "it", None),
    ],
)
def test_a_discord_locale_is_in_the_language_that_spells_it_or_its_first_part(
    monkeypatch: pytest.MonkeyPatch, added: str | None, locale: str, lang: str | None
) -> None:
    if added:
        monkeypatch.setitem(LANGUAGES, added, added)
    assert spoken(locale) == lang
    assert spoken("en-GB") == "en" and spoken("pseudo") == "pseudo"


def test_no_german_message_keeps_an_english_placeholder_of_a_typed_move() -> None:
    """A typed move's verb stays English (`sail`), the names of its values are the reader's (`<Richtung>`):
    no German message writes `<direction>` or `<card>` as the English does."""
    import re

    from babel.messages.pofile import read_po

    from games.i18n import LOCALE_DIR

    left = []
    for path in sorted((LOCALE_DIR / "de" / "LC_MESSAGES").glob("*.po")):
        with path.open("rb") as handle:
            for message in read_po(handle, locale="de"):
                ids = message.id if isinstance(message.id, tuple) else (message.id,)
                forms = message.string if isinstance(message.string, tuple | list) else (message.string,)
                for word in set(re.findall(r"<[a-z|]+>", ids[0])):
                    left += [f"{path.stem}: {word} in {form[:80]!r}" for form in forms if word in form]
    assert not left, "\n".join(left)


def test_nouns_slotted_into_german_sentences_take_the_form_the_sentence_needs() -> None:
    """A noun goes into a sentence in the form the catalog gives it there (gender, case, article), never as
    "die Figur (Waschbär)" or "mit Kelche"."""
    from games.pirates.cards import BY_CODE, at_town
    from games.piratz.engine import PASSED_ON
    from games.sewerpirats.words import THE_FIGURE, UNDER_THE_FIGURE

    passed = N(
        "{seat} passed on {treasure} and took {n} card.",
        "{seat} passed on {treasure} and took {n} cards.",
        2,
        seat="Anne",
        treasure=PASSED_ON[4],
    )
    assert localize(passed) == "Anne passed on Goblets and took 2 cards."
    assert localize(passed, "de") == "Anne steigt mit Kelchen aus und nimmt 2 Karten."
    auction = T("{seat} auctions {figure} on stool {stool}.", seat="Anne", figure=THE_FIGURE["raccoons"], stool=2)
    assert localize(auction) == "Anne auctions the raccoon on stool 2."
    assert "den Waschbären auf Hocker 2" in localize(auction, "de")
    under = T("Under {figure} you found: {cards}.", figure=UNDER_THE_FIGURE["raccoons"], cards="2")
    assert localize(under, "de").startswith("Unter dem Waschbären lagen")
    joker = next(f for f in BY_CODE.values() if f.joker)
    docks = T("{seat} docks {at_town}.", seat="Anne", at_town=at_town(joker))
    assert (
        localize(docks) == "Anne docks at Pirate Cove." and localize(docks, "de") == "Anne legt in der Piratenbucht an."
    )
