"""Between games, end to end: ratings after real games, the leaderboard and stats images, the paged
history, a replay whose frames are the spectator boards posted during the game (and never a seat's
secret), and ``python bot.py verify`` on the log attached to a final message."""

from __future__ import annotations

import io
import os
import random
import time
from pathlib import Path

from PIL import Image, ImageChops, ImageSequence, ImageStat

from bot import main
from data.ratings import AI_USER, GLOBAL
from data.store import GameRecord
from games.registry import GAMES
from rendering.records import FINAL_MS, MAX_FRAMES, replay_frame
from tables import reads
from tests.conftest import World
from tests.support import PNG_MAGIC, pixels, raw_messages, said, texts

LOOK = os.environ.get("RECORDS_LOOK")
"""A folder to save the leaderboard, stats and replay images in, for a person to look at (unset: not saved)."""


async def start(world: World, kind: str, host: str, invitees: list[str], **options) -> GameRecord:
    await world.table.challenge(kind, host, invitees, **options)
    return await world.table.latest_game()


def field(attachment, name: str):
    """An attachment's field, from SimCord's stored message (a dict) or a discord.py ``Attachment``."""
    return attachment.get(name) if isinstance(attachment, dict) else getattr(attachment, name)


def data(world: World, attachment) -> bytes:
    blob = world.env.backend.cdn.get(field(attachment, "url"))
    assert blob is not None, attachment
    return blob


def final_message(world: World, record: GameRecord):
    (final,) = [m for m in raw_messages(world.env, record.place_id) if f"#{record.id} is over" in m.content]
    return final


def difference(frame: Image.Image, board: Image.Image) -> float:
    """Mean absolute difference per channel (0–255) of a replay frame's top-left corner (frames share the
    size of the tallest) and a board."""
    assert frame.width == board.width and frame.height >= board.height, (frame.size, board.size)
    part = frame.crop((0, 0, *board.size))
    return sum(ImageStat.Stat(ImageChops.difference(part, board.convert("RGB"))).mean) / 3


def look(name: str, blob: bytes) -> None:
    if LOOK:
        Path(LOOK).mkdir(parents=True, exist_ok=True)
        (Path(LOOK) / name).write_bytes(blob)


# ---------------------------------------------------------------------------------------------- ratings


async def test_resignations_rate_both_scopes_and_the_leaderboard_shows_them(world: World) -> None:
    table = world.table
    anne, ben = table.members["Anne"], table.members["Ben"]
    for loser in ("Ben", "Ben", "Anne"):
        record = await start(world, "piratz", "Anne", ["Ben"])
        await table.members[loser].slash(table.place(record), "piratz resign")
        record = await table.record(record.id)
        assert record.status == "finished" and record.result["reason"] == "resignation"
        changes = await world.bot.tables.store.ratings.changes(record.id)
        assert {(scope, user) for scope, user, _, _ in changes} == {
            (scope, user) for scope in (table.guild.id, GLOBAL) for user in (anne.id, ben.id)
        }
        loser_id = table.members[loser].id
        assert all((after.mu < before.mu) == (user == loser_id) for _, user, before, after in changes)
    # Abandoned: no rating change.
    record = await start(world, "piratz", "Anne", ["Ben"])
    await anne.slash(table.place(record), "games abandon")
    assert await world.bot.tables.store.ratings.changes(record.id) == []

    shown = await ben.slash(table.channel, "games leaderboard", game="piratz")
    message = shown.response  # the deferred answer, edited
    (image,) = message.attachments
    png = data(world, image)
    assert png.startswith(PNG_MAGIC) and Image.open(io.BytesIO(png)).size[0] == 1100
    look("leaderboard.png", png)
    board = await world.bot.tables.store.ratings.leaderboard("piratz", table.guild.id)
    assert [s.user_id for s in board] == [anne.id, ben.id] and [s.games for s in board] == [3, 3]
    alt = field(image, "description")
    assert alt.startswith(f"1. Anne {board[0].rating.shown:.1f} (3 games, 2 won); 2. Ben"), alt
    everywhere = await ben.slash(table.channel, "games leaderboard", game="piratz", scope="global")
    assert field(everywhere.response.attachments[0], "description") == alt  # one server so far: the same
    empty = await ben.slash(table.channel, "games leaderboard", game="sewerrat")
    assert field(empty.response.attachments[0], "description") == "Nobody is rated yet"


async def test_stats_and_the_paged_history(world: World, monkeypatch) -> None:
    table = world.table
    anne, ben = table.members["Anne"], table.members["Ben"]
    ids = []
    for kind, loser in (("piratz", "Ben"), ("sewerpirats", "Anne"), ("piratz", "Ben")):
        record = await start(world, kind, "Anne", ["Ben"])
        await table.members[loser].slash(table.place(record), f"{kind} resign")
        ids.append(record.id)
    stats = await anne.slash(table.channel, "games stats", member=ben)
    message = stats.response
    (image,) = message.attachments
    look("stats.png", data(world, image))
    assert field(image, "description") == "Piratz: 2 played, 0 won; Sewer Pirats: 1 played, 1 won"
    assert "Last games:" in message.content
    for game_id in ids:
        assert f"#{game_id}**" in message.content  # each game, with a link to its thread
    assert "https://discord.com/channels/" in message.content and "won ·" in message.content

    monkeypatch.setattr(reads, "HISTORY_PAGE", 2)
    history = await anne.slash(table.channel, "games history")
    assert history.ephemeral and said(history, "page 1 of 2"), texts(history)
    first = history.response.content
    assert f"#{ids[2]}**" in first and f"#{ids[1]}**" in first and f"#{ids[0]}**" not in first  # latest first
    older = await anne.click(history.response, label="Older ▶")
    assert said(older, "page 2 of 2") and said(older, f"#{ids[0]}**"), texts(older)


# ---------------------------------------------------------------------------------------------- replays


async def test_a_sewer_pirats_replay_is_the_spectator_boards_and_no_secret(world: World) -> None:
    table = world.table
    record = await start(world, "sewerpirats", "Anne", ["Ben"], variant="standard")
    record = await table.play_to_end(record.id)
    spec = GAMES["sewerpirats"]
    game = spec.game
    posted = {}
    for m in raw_messages(world.env, record.place_id):
        for a in m.attachments:
            name = a["filename"]
            if name.startswith(f"sewerpirats-{record.id}-") and name[:-4].rsplit("-", 1)[1].isdigit():
                posted[int(name[:-4].rsplit("-", 1)[1])] = data(world, a)
    assert len(posted) > 10

    world.env.settle_timeout = 60  # drawing ~50 boards and encoding them takes seconds (the command defers)
    started = time.perf_counter()
    shown = await table.members["Calico"].slash(table.channel, "games replay", game=record.id)
    seconds = time.perf_counter() - started
    message = shown.response  # the deferred answer, edited
    webp, log = message.attachments
    assert field(webp, "filename") == f"sewerpirats-{record.id}-replay.webp"
    assert field(log, "filename").endswith("-log.txt")
    blob = data(world, webp)
    look("replay.webp", blob)
    assert len(blob) < 8_000_000, len(blob)
    animation = Image.open(io.BytesIO(blob))
    frames, durations = [], []
    for frame in ImageSequence.Iterator(animation):
        frames.append(frame.convert("RGB"))  # decodes it, which reads its duration
        durations.append(frame.info["duration"])
    assert len(frames) == MAX_FRAMES and durations[-1] == FINAL_MS
    assert sum(durations) <= 6000, sum(durations)  # a few seconds, for a game of ~100 actions
    size = len(blob) / 1e6
    print(f"replay: {size:.2f} MB, {len(frames)} frames, {sum(durations) / 1000:.1f} s long, made in {seconds:.1f} s")

    # Replay the log: each frame is the spectator board of its position, which is the board the thread showed
    # then, and which stays the same when every seat's secrets are dealt anew.
    actions = await world.bot.tables.store.games.actions(record.id)
    states = [game.new_game(len(record.seats), record.options, record.seed)]
    for _seq, seat, action in actions:
        states.append(game.apply(states[-1], seat, action).state)
    versions = [p.version for p in reads.sample(reads.public_positions(record, actions), MAX_FRAMES)]
    rng = random.Random(7)
    expected = []
    matched = 0
    for i, version in enumerate(versions):
        render = spec.render_final if i == len(versions) - 1 else spec.render_board
        board = render(game.view(states[version], None), record.names)
        scrambled = game.scramble(states[version], None, rng)
        assert scrambled is not None and pixels(render(game.view(scrambled, None), record.names)) == pixels(board), (
            version
        )
        if version in posted and render is spec.render_board:
            assert pixels(posted[version]) == pixels(board), version  # what the thread showed at that moment
            matched += 1
        expected.append(replay_frame(board))
    assert matched >= 10, matched
    for i, frame in enumerate(frames):
        # Lossy WebP: each frame is within a few levels of its board, and nearer to it than to any other.
        distances = [difference(frame, board) for board in expected]
        assert distances[i] < 6 and distances[i] == min(distances), (i, distances[i], min(distances))


# ---------------------------------------------------------------------------------------------- verify


async def test_verify_passes_on_a_real_log_and_fails_with_one_action_changed(world: World, tmp_path, capsys) -> None:
    table = world.table
    record = await start(world, "piratz", "Anne", ["Ben"], ai=1)
    record = await table.play_to_end(record.id)
    final = final_message(world, record)
    image, log = final.attachments
    assert image["filename"].endswith("-final.png") and log["filename"] == f"piratz-{record.id}-log.txt"
    text = data(world, log).decode()
    path = tmp_path / "game.txt"
    path.write_text(text, encoding="utf-8")
    assert main(["verify", str(path)]) == 0
    out = capsys.readouterr().out
    assert "VERIFIED" in out and f"all {record.version} actions are legal" in out
    # Two members and the AI: all three rated, the AI as the game's one AI player.
    assert {user for _, user, _, _ in await world.bot.tables.store.ratings.changes(record.id)} == {
        table.members["Anne"].id,
        table.members["Ben"].id,
        AI_USER,
    }

    # One action changed to another move that was legal at that point: the log no longer holds.
    lines = text.splitlines()
    start_at = lines.index("actions:") + 1
    game = GAMES["piratz"].game
    state = game.new_game(len(record.seats), record.options, record.seed)
    for i, line in enumerate(lines[start_at:], start=start_at):
        seq, seat, action, _ = line.split("\t")
        others = [a.encode() for a in game.legal_actions(state, int(seat)) if a.encode() != action]
        if others:
            lines[i] = "\t".join([seq, seat, others[0], "changed"])
            break
        state = game.apply(state, int(seat), action).state
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["verify", str(path)]) == 1
    assert "NOT VERIFIED" in capsys.readouterr().out

    # A seed that does not hash to the posted digest fails at once.
    path.write_text(text.replace(f"seed: {record.seed}", "seed: another"), encoding="utf-8")
    assert main(["verify", str(path)]) == 1
    assert "FAIL: the seed's SHA-256" in capsys.readouterr().out


def test_verify_refuses_what_is_not_a_log_in_one_line(tmp_path, capsys) -> None:
    missing = tmp_path / "nothing.txt"
    assert main(["verify", str(missing)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot read" in err
    junk = tmp_path / "junk.txt"
    junk.write_text("hello\n", encoding="utf-8")
    assert main(["verify", str(junk)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a game log" in err
