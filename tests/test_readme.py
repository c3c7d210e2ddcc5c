"""The README's games table follows the registry: every registered game is listed with its command and
player counts."""

from __future__ import annotations

import re
from pathlib import Path

from games.i18n import localize
from games.registry import GAMES

README = Path(__file__).resolve().parent.parent / "README.md"


def games_table() -> dict[str, str]:
    """The games table's rows by command (``/piratz`` -> the row's text)."""
    text = README.read_text(encoding="utf-8")
    table = text[text.index("| Game | Command | Players |") :].split("\n\n", 1)[0]
    rows = {}
    for row in table.splitlines()[2:]:
        found = re.search(r"`/([a-z]+)`", row)
        if found:
            rows[found.group(1)] = row
    return rows


def test_every_registered_game_is_in_the_readme_games_table() -> None:
    rows = games_table()
    for kind, spec in GAMES.items():
        assert kind in rows, f"/{kind} is missing from the README's games table"
        row = rows[kind]
        assert localize(spec.title) in row
        players = f"{spec.game.min_players}–{spec.game.max_players}"
        assert players in row, f"the README says {row!r}; {localize(spec.title)} takes {players} players"
