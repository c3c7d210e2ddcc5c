"""The demo's transcript reads in time order as a member saw it: a message where it was first posted as it was
then, and each edit where it happened."""

from __future__ import annotations

from pathlib import Path

from cogs.offline.transcript import record_edits, write_transcript
from tests.conftest import World


async def test_an_edited_message_is_written_as_first_posted_then_each_edit_where_it_happened(
    world: World, tmp_path: Path
) -> None:
    table = world.table
    edits = record_edits(table)
    await table.challenge("piratz", "Anne", ["Ben"], ai=1)
    record = await table.latest_game()
    await table.play_moves(record.id, 1)
    write_transcript(table, tmp_path, edits)
    lines = (tmp_path / "transcript.md").read_text(encoding="utf-8").splitlines()

    posted = next(i for i, line in enumerate(lines) if "challenges @Ben" in line and "[#tavern] TestBot:**" in line)
    block = lines[posted : lines.index("", posted)]
    assert not any("All aboard" in line for line in block), block  # as it was when posted
    accepted = lines.index("▶ *Ben clicks Accept*")
    edited = next(i for i, line in enumerate(lines) if line.startswith("✏️ **[#tavern] TestBot edited:**"))
    assert posted < accepted < edited
    assert any("All aboard" in line for line in lines[edited : lines.index("", edited)])
    assert "no buttons now" in lines[edited : lines.index("", edited)][-1].strip()
    # The first board is written with its buttons where it was posted; that they went is an edit after a click.
    board = next(i for i, line in enumerate(lines) if line.startswith("**[thread") and "➡️" in line)
    clicked = next(i for i, line in enumerate(lines) if line.startswith("▶ *") and "with the buttons" in line)
    assert board < clicked
    assert "[My hand]" in lines[lines.index("", board) - 1] or "[My hand]" in "\n".join(lines[board:clicked])
    assert any(line.startswith("✏️") and "edited" in line for line in lines[clicked:])
