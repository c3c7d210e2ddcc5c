"""Every game played in a real browser, as a person plays it: ``python bot.py play`` on SimCord's Preview page,
in headless Chromium (Debian's ``chromium``; skipped with a one-line reason where it is not installed).

Two members share the keyboard (a hot-seat table, switched with "Viewing as"): Anne challenges Ben from the
composer, Ben accepts, and the page moves into the game's thread; they play decisions with the board's
buttons and pickers and one typed ``/GAME move`` picked from autocomplete; each new board's image must load
and name the member to act; and Ben, viewing the page, must see nothing of Anne's private hand. One Piratz
game is played to its final message and its **Rematch**. Screenshots are kept in ``browser-shots/``
(:data:`tests.browser.SHOTS`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from games.i18n import localize
from games.registry import GAMES
from tests.browser import PlayPage, chromium, served

HUMANS = ["Anne", "Ben"]
DECISIONS = 3
"""Decisions played with the buttons in each game, before the typed one."""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


def check_board(page: PlayPage) -> Any:
    """The live board: its images loaded, and a member named to decide, in its text and its image's words."""
    board = page.board()
    widths = page.images_loaded(board)
    assert widths and all(w > 0 for w in widths), f"a board image did not load: {widths}"
    actors = page.actors(board)
    assert actors, "the board names nobody to decide:\n" + board.inner_text()
    alts = " ".join(board.locator("img").evaluate_all("(images) => images.map((i) => i.alt)"))
    assert any(name in alts for name in actors), f"the board's image does not name {actors}: {alts}"
    return board


@pytest.mark.parametrize("kind", list(GAMES))
def test_a_hot_seat_game_in_the_browser(browser: Any, kind: str) -> None:
    spec = GAMES[kind]
    players = max(3, spec.game.min_players)
    with served(
        kind, "--no-start", "--humans", ",".join(HUMANS), "--players", str(players), "--seed", "browser"
    ) as url:
        page = PlayPage(browser, url, kind, HUMANS)
        assert page.channel() == "tavern"

        # The challenge, from the composer, and its Accept.
        page.slash(f"{kind} new", player2="Ben", ai=str(players - 2))
        assert "Anne challenges" in page.text()
        page.view_as("Ben")
        page.click(page.button("Accept"))
        title = localize(spec.title)
        page.wait_for_channel(f"{title} #1")  # the page presents the game's thread
        page.screenshot("opening", check_board(page))

        deciders = [page.decide() for _ in range(DECISIONS)]
        assert set(deciders) <= set(HUMANS)
        check_board(page)

        # One move typed: /GAME move, its action picked from what autocomplete offers for a few letters.
        board = check_board(page)
        who = page.actors(board)[0]
        page.view_as(who)
        typed = page.moves(page.board())[0].inner_text().strip()[:3]
        page.slash(f"{kind} move", action=typed)
        confirmation = page.pickers().last
        assert "✅" in confirmation.inner_text(), confirmation.inner_text()
        page.screenshot("mid-game", check_board(page))

        # Anne's hand, then Ben's view of the same page: nothing of Anne's.
        page.view_as("Anne")
        page.click(page.button("My hand", page.board()))
        hand = page.pickers().last
        assert "Only you can see this" in hand.inner_text()
        hand_text = "\n".join(hand.locator(".message-content").all_inner_texts())
        hand_alts = hand.locator("img").evaluate_all("(images) => images.map((i) => i.alt)")
        assert len(hand_text) > 20 or hand_alts, hand.inner_text()
        page.screenshot("hand", hand)
        page.view_as("Ben")
        seen = page.text()
        private = [line for line in hand_text.splitlines() if len(line) > 12 and "Anne" not in line]
        for words in [*hand_alts, *private]:
            assert words not in seen, f"Ben sees what Anne's hand shows her: {words}"


def test_piratz_to_the_final_and_a_rematch(browser: Any) -> None:
    """One member against the AI, from the table ``play`` opens to the final message (``/piratz board`` on the
    way, ``/games stats`` at the end), then **Rematch**."""
    with served("piratz", "--seed", "browser-final") as url:
        page = PlayPage(browser, url, "piratz", ["You"])
        page.wait_for_channel("Piratz #1")
        page.slash("piratz board")
        assert "Board posted." in page.pickers().last.inner_text()
        for _ in range(200):
            if page.button("Rematch").count():
                break
            page.decide(-1)  # passing, mostly: the AI reveals, and the game goes quickly
        else:
            pytest.fail("the game did not end within 200 decisions")
        final = page.messages().filter(has=page.page.locator("button", has_text="Rematch")).last
        assert "Piratz #1" in final.inner_text()
        assert all(w > 0 for w in page.images_loaded(final))
        page.screenshot("final", final)
        page.slash("games stats")  # posted in the thread for everyone
        stats = page.messages().last
        assert "used /games" in stats.inner_text() and all(w > 0 for w in page.images_loaded(stats))
        page.click(page.button("Rematch"))
        page.wait_for_channel("Piratz #2")
        check_board(page)


def test_a_table_kept_in_a_file_survives_a_restart_of_play(browser: Any, tmp_path: Any) -> None:
    """``--db FILE``: after Ctrl-C and a new ``play``, the game's board is posted again (its thread was the
    old run's) and the game goes on."""
    kept = str(tmp_path / "table.db")
    with served("piratz", "--seed", "kept", "--db", kept) as url:
        page = PlayPage(browser, url, "piratz", ["You"])
        page.decide()
        board = check_board(page)
        before = ([m.inner_text() for m in page.moves(board)], board.locator("img").first.get_attribute("alt"))
    with served("piratz", "--seed", "kept", "--db", kept) as url:
        page = PlayPage(browser, url, "piratz", ["You"])
        page.wait_for_text("the game goes on here")
        board = check_board(page)
        assert ([m.inner_text() for m in page.moves(board)], board.locator("img").first.get_attribute("alt")) == before
        page.decide()
        check_board(page)
