"""The README and the docs it links to: the games table follows the registry; the README stays an admin's
handbook (short, with its table of contents, developer material in ``docs/``); and every link in them
leads to a file of the repository, and to a heading of it where the link names one."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games.i18n import localize
from games.registry import GAMES

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


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


def anchors(text: str) -> set[str]:
    """The anchors GitHub gives a Markdown file's headings (outside code blocks)."""
    found, fence = set(), False
    for line in text.splitlines():
        if line.startswith("```"):
            fence = not fence
        elif not fence and (heading := re.match(r"#{1,6} (.+)", line)):
            slug = re.sub(r"[^\w\- ]", "", heading.group(1).strip().lower()).replace(" ", "-")
            found.add(slug)
    return found


def test_the_readme_is_a_short_handbook_with_a_table_of_contents() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 250
    contents = text[text.index("## Contents") :].split("\n## ", 1)[0]
    listed = re.findall(r"\]\(#([\w-]+)\)", contents)
    sections = [s for s in anchors(text) if s not in ("pirate-tables", "contents")]
    assert set(listed) <= anchors(text) and len(listed) >= 8
    top = [re.sub(r"[^\w\- ]", "", h.lower()).replace(" ", "-") for h in re.findall(r"^## (.+)", text, re.M)]
    assert [h for h in top if h != "contents"] == [h for h in listed if h in top], "the contents follow the sections"
    assert sections
    # Developer tools are in docs/command-line.md, not among the players' commands.
    players = text[text.index("## The players' commands") :].split("\n## ", 1)[0]
    for tool in ("games.oracle", "games.catalogs", "python -m bench", "simulate", "arena"):
        assert tool not in players


def test_every_doc_is_linked_from_the_readme() -> None:
    text = README.read_text(encoding="utf-8")
    for doc in DOCS:
        assert f"(docs/{doc.name}" in text, f"{doc.name} is not linked from the README"


@pytest.mark.parametrize("page", [README, *DOCS], ids=lambda p: p.name)
def test_every_link_leads_to_a_file_and_heading_that_exist(page: Path) -> None:
    for target in LINK.findall(page.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target):  # https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        assert file.exists(), f"{page.name}: {target} leads nowhere"
        if anchor:
            assert file.suffix == ".md" and anchor in anchors(file.read_text(encoding="utf-8")), (
                f"{page.name}: {target}: {file.name} has no heading #{anchor}"
            )
