"""The Pirates Card Game speaks German: events, labels, refusals and card names written out from the
German catalog (with the right plural and the adjective declined for each ship), the images drawn in German,
and moves typed in English still played."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from games.core import IllegalAction
from games.i18n import localize, with_names
from games.pirates import Pirates
from games.pirates.cards import BY_CODE, face
from rendering.pirates import render_board, render_final, render_hand
from tests.support import pixels
from tests.test_pirates_rules import do, stack, table, texts
from tests.test_render_pirates import ending, final_text

G = Pirates()
NAMES = ["Anne", "Ben"]


def german(text: str) -> str:
    return localize(with_names(text, NAMES), "de")


def test_the_title_scores_and_rules_are_german() -> None:
    assert german(G.title) == "Piraten-Kartenspiel"
    assert german(G.scores_title) == "Erfüllte Missionen"
    assert (german(G.score_text(1)), german(G.score_text(4))) == ("1 Mission", "4 Missionen")
    rules = german(G.rules_text())
    assert rules.startswith("**Piraten-Kartenspiel**") and "*Crew anheuern*" in rules and len(rules) <= 4000


def test_card_names_ships_and_missions_in_german() -> None:
    assert german(BY_CODE["as"].long_name) == "Pik-Ass"
    assert german(BY_CODE["qh"].long_name) == "Herz-Dame"
    assert german(BY_CODE["jk"].long_name) == "Joker"
    # the nation's adjective takes the ending of each ship's gender
    assert german(BY_CODE["3h"].nation_ship) == "englischer Schoner"
    assert german(BY_CODE["9d"].nation_ship) == "spanische Fregatte"
    assert german(BY_CODE["jc"].nation_ship) == "französisches Linienschiff"
    assert german(BY_CODE["jk"].nation_ship) == "Piraten-Schatzgaleone"
    assert german(BY_CODE["3d"].mission_text) == "Liefere 5 t Silber in eine spanische Stadt"
    assert german(BY_CODE["6s"].mission_text) == "Versenke ein englisches Schiff"
    assert german(BY_CODE["ad"].town) == "Havanna" and german(BY_CODE["jk"].town) == "Piratenbucht"
    assert german(BY_CODE["ah"].town) == "Port Royal"  # a proper name stays as it is


def test_german_events_take_the_plural_the_count_needs() -> None:
    state = table(2, s0={"ship": "2h", "hand": ["5d", "6d"]})
    stack(state, "9c")
    events = do(state, 0, "crew")
    assert "Anne heuert Crew an: 1 Karte auf die Hand." in [german(e.text) for e in events]
    assert "Du ziehst 9♣." in [german(e.text) for e in events if e.seat == 0]

    state = table(2, s0={"ship": "5h", "hand": ["10c", "9c"], "place": "sea"})
    stack(state, "ad")
    events = do(state, 0, "ship")  # an Ace, and nobody else at sea: the Ace itself (size 1: 2 cannons)
    assert "Anne findet ein Ass: spanische Schaluppe." in [german(e.text) for e in events]
    assert "Anne braucht 2 Kanonen zum Sieg." in [german(e.text) for e in events]
    events = do(state, 0, "fire 9c")
    assert "Anne feuert 9♣ ab: +5 (5 von 2)." in [german(e.text) for e in events]
    assert "Anne versenkt ein Schiff: Schaluppe (A♦)!" in [german(e.text) for e in events]

    state = table(2, s0={"ship": "jh", "hand": ["2c"], "place": "sea"})
    stack(state, "as")
    events = do(state, 0, "ship")  # 1 + 1 needed, 1 from the Ship of the Line
    assert "Anne braucht 2 Kanonen zum Sieg (+1 durch das Linienschiff)." in [german(e.text) for e in events]


def test_german_labels_prompts_and_the_outcome() -> None:
    state = table(
        2, s0={"ship": "5h", "hand": ["2c"], "place": "sea"}, s1={"ship": "6d", "hand": ["3c"], "place": "sea"}
    )
    stack(state, "9d")
    do(state, 0, "ship")
    labels = {a.action.encode(): [german(label) for label in a.path] for a in G.choices(state, 0)}
    assert labels["fight"] == ["Kämpfen", "spanische Fregatte (9♦)"]
    assert labels["fight 1"] == ["Kämpfen", "Stattdessen Ben angreifen (spanisches Schiff)"]
    assert german(G.prompt(G.view(state, None)) or "") == (
        "Anne bekämpft das gefundene Schiff oder einen Rivalen seiner Nation auf See"
    )
    do(state, 0, "fight")
    labels = {a.action.encode(): [german(label) for label in a.path] for a in G.choices(state, 0)}
    assert labels["fire 2c"] == ["Feuern", "2♣ · +1 Kanonenwert"]
    mine = german(G.seat_summary(G.view(state, 0)))
    assert mine.startswith("Deine Hand: 2♣ (1 Kanone, Crew 3). Deine offenen Missionen: keine.")
    won = table(1, s0={"ship": "5h", "hand": ["10c", "kh", "9c"], "missions": ["qd", "6h"], "done": ["9s", "kd"]})
    won["players"][0]["place"] = "sea"
    stack(won, "10d")
    for move in ("ship", "fire 10c", "fire kh"):
        do(won, 0, move)
    assert german(G.outcome(won).summary) == "Anne hat 4 Missionen erfüllt und den Kapitän befreit."


def test_a_refusal_reads_in_german_and_names_the_typed_move_as_typed() -> None:
    with pytest.raises(IllegalAction) as refused:
        G.apply(table(2, s0={"ship": "5h", "hand": ["10c"], "place": "port"}), 0, "attack")
    assert german(str(refused.value)) == "Der neutrale Hafen gehört keiner Nation: Er kann nicht angegriffen werden."
    with pytest.raises(IllegalAction) as refused:
        G.apply(table(2, s0={"hand": ["2c"]}), 0, "fire 2c")
    assert german(str(refused.value)) == (
        "`fire 2c` ist gerade keiner deiner Züge; die Autovervollständigung listet sie auf."
    )


def test_moves_typed_in_english_still_play_whatever_the_language() -> None:
    state = table(2, s0={"ship": "5h", "hand": ["10c", "9c"], "place": "sea"})
    stack(state, "3d")
    do(state, 0, "ship")
    do(state, 0, "fire 10c")
    events = do(state, 0, "plunder cargo")
    assert [face(c).code for c in state["players"][0]["holds"]] == ["3d"]
    assert texts(events) == "{p0} keeps 3♦ as cargo."
    assert texts(events, "de") == "{p0} behält 3♦ als Ladung."


def test_the_images_are_drawn_in_german() -> None:
    state = table(2, s0={"ship": "5h", "hand": ["2c", "jk"], "missions": ["3d"], "place": "sea"})
    stack(state, "9d")
    do(state, 0, "ship")
    for render, seat in ((render_board, None), (render_hand, 0), (render_final, None)):
        view = G.view(state, seat)
        english, german_png = render(view, NAMES), render(view, NAMES, "de")
        assert pixels(english) != pixels(german_png)
        assert Image.open(io.BytesIO(english)).size[0] == Image.open(io.BytesIO(german_png)).size[0]
    assert pixels(render_board(G.view(state, None), NAMES, "en")) == pixels(render_board(G.view(state, None), NAMES))


@pytest.mark.parametrize(
    ("kind", "headline", "under"),
    [
        ("freed", "Anne befreit den Kapitän!", "Anne hat 3 Missionen erfüllt und den Kapitän befreit."),
        ("last", "Ben ist der letzte Kapitän auf See!", "Anne hat auf See keine Crew mehr."),
        ("lost", "Alle Crews sind auf See verschollen.", "Anne hat auf See keine Crew mehr."),
        ("limit", "Anne gewinnt mit 1 erfüllten Mission!", "Die Zeit auf See ist abgelaufen."),
        ("tie", "Anne & Ben teilen sich den Sieg mit 1 erfüllten Mission!", "Die Zeit auf See ist abgelaufen."),
        ("nobody", "Kein Kapitän wurde befreit.", "Die Zeit auf See ist abgelaufen."),
    ],
)
def test_the_final_headline_says_in_german_how_the_game_was_won(kind: str, headline: str, under: str) -> None:
    assert f" {headline} {under} 1. " in final_text(ending(kind), "de")
