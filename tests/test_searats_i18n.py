"""Sea Rats! in German: events, labels, refusals and the board written out from the catalog (with the right
plural), while the moves players type stay English."""

from __future__ import annotations

import pytest

from games.core import IllegalAction
from games.i18n import localize, with_names
from games.searats.components import goods
from rendering import searats as r
from tests.test_render_phone import text_sizes
from tests.test_render_searats import offer_view
from tests.test_searats_rules import BLACK, RED, G, act_phase, game, play, sail_phase, ship

NAMES = ["Anne", "Ben"]


def german(text: str) -> str:
    return localize(with_names(text, NAMES), "de")


def test_a_typed_english_move_is_played_and_told_in_german() -> None:
    state = sail_phase(game(black="f3"), BLACK, 4)
    state, events = play(state, BLACK, "sail s 3", 2)  # typed as in English, onto the X
    assert state["treasure"] == BLACK
    assert [german(e.text) for e in events] == [
        "Schwarz (Anne) segelt nach F6.",
        "💰 Schwarz (Anne) hebt den Schatz!",
        "Rot (Ben) würfelt: 2.",
    ]


def test_german_labels_count_dots_and_name_directions() -> None:
    state = sail_phase(game(black="f3"), BLACK, 4)
    labels = {c.action.encode(): [german(label) for label in c.path] for c in G.choices(state, BLACK)}
    assert labels["sail w 1"] == ["Segeln, Kurs halten", "Westen", "1 Punkt → E3"]
    assert labels["sail s 3"] == ["Segeln, Kurs halten", "Süden", "3 Punkte → F6 (der Schatz!)"]
    assert labels["sail ne 2 chart 4"] == ["Kurs auf Hafen 4, dann segeln", "Nordosten", "2 Punkte → H1"]
    assert labels["anchor"] == ["Segeln, Kurs halten", "Auf F3 ankern"]


def test_a_german_refusal_keeps_the_typed_move_in_english() -> None:
    state = sail_phase(game(black="f3"), BLACK, 4)
    with pytest.raises(IllegalAction) as refused:
        G.apply(state, BLACK, "sail s 9")
    assert german(str(refused.value)) == "Du darfst 1 bis 4 Punkte segeln (oder `anchor`)."
    assert localize(str(refused.value)) == "You may sail 1 to 4 dots (or `anchor`)."


def test_an_attack_on_your_own_ship_is_refused_in_german() -> None:
    state = act_phase(game(black="e3", blue="e5"), BLACK)
    with pytest.raises(IllegalAction) as refused:
        G.apply(state, BLACK, "aim blue")
    assert german(str(refused.value)) == "Blau ist eines deiner eigenen Schiffe."


def test_a_battle_in_german_with_singular_and_plural() -> None:
    state = act_phase(game(3, black="e3", red="e4"), BLACK)
    ship(state, RED).update(balls=4, supplies=1)
    state, events = play(state, BLACK, "aim red")
    assert german(events[0].text) == "⚔️ Schwarz (Anne) nimmt Rot (Ben) ins Visier, 1 Punkt entfernt."
    if state["phase"] == "bribe":
        state, _ = play(state, RED, "brace")
    state, events = play(state, BLACK, "fire 3", 6, 6, 1)
    said = [german(e.text) for e in events]
    assert said[0] == "Schwarz (Anne) feuert 3 Kanonenkugeln auf 1 Punkt Entfernung: 6, 6, 1."
    assert said[1] == "💥 2 Treffer auf Rot (Ben)."
    assert said[2] == "🔥 Rot (Ben) ist nicht mehr zu retten (es fehlt 1 Vorrat)."
    assert german(goods(1, 3)).startswith("1 Kanonenkugel ") and german(goods(1, 3)).endswith(" 3 Vorräte")


def test_an_answer_lapses_in_german() -> None:
    state = act_phase(game(black="e3", red="e6"), BLACK)
    ship(state, BLACK)["balls"] = 3
    state, _ = play(state, BLACK, "aim red")
    state, events = play(state, RED, "offer 0 1")
    assert german(events[0].text) == "💰 Rot (Ben) bietet Schwarz (Anne) 1 Vorrat als Bestechung."
    step = G.apply(state, BLACK, "lapse", trusted=True)
    assert german(step.events[0].text) == "Schwarz (Anne) lässt die Bestechung unbeantwortet verfallen."


def test_the_score_the_summary_and_the_rules_in_german() -> None:
    assert german(G.score_text(1)) == "1 Schiff" and german(G.score_text(3)) == "3 Schiffe"
    assert german(G.scores_title) == "Schiffe auf See"
    state = G.new_game(2, seed="i18n")
    summary = german(G.summary(G.view(state, None)))
    assert (
        summary.startswith("Runde 1: ") and " muss würfeln. Auf See (Kugeln/Vorräte): Schwarz 6/6, Rot 6/6" in summary
    )
    assert summary.endswith("Schatz: auf dem X.")
    assert german(G.seat_summary(G.view(state, 1))) == (
        "Rot auf I1: 6 Kanonenkugeln, 6 Vorräte; kein Kurs gesetzt; noch nirgends geladen"
    )
    rules = german(G.rules_text())
    assert "**Der Schatz.**" in rules and "`sail ne 3 chart 4`" in rules and len(rules) <= 4000


def test_the_board_is_drawn_in_german() -> None:
    view = offer_view()
    assert (
        r._offer_text(view, NAMES, "de")
        == "Bestechung: Rot bietet 2 Kanonenkugeln + 1 Vorrat. Schwarz (Anne) muss antworten."
    )
    with text_sizes() as drawn:
        r.render_board(view, ["Anne Bonny", "Barnacle Bill"], "de")
    texts = [text for _, text in drawn]
    assert f"RUNDE 1 / {view['rounds']}" in texts and "Schwarz" in texts and "Gelb" in texts
    assert any(text.startswith("Schwarz (Anne Bonny) muss das Angebot beantworten") for text in texts)
    assert not any("Black" in text or "Treasure" in text for text in texts)
