"""Helpers shared by the tests: what an interaction said, images with their view in PNG text chunks
(stand-in renderers), the messages the bot stored in SimCord, and the trips made to SQLite's thread. The
SimCord driver itself is :class:`cogs.offline.driver.SimTable` (the demo and the benchmark drive the bot with it
too); the fixtures are in ``conftest.py``. Also the worlds a game's scramble gives a seat."""

from __future__ import annotations

import contextlib
import io
import json
import random
from collections.abc import Iterator, Sequence
from typing import Any

from PIL import Image, PngImagePlugin

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def worlds(game: Any, state: dict, seat: int | None, count: int = 30) -> list[dict]:
    """``count`` scrambles of ``state`` for ``seat`` (what the hard AI may sample), one per seed."""
    return [game.scramble(state, seat, random.Random(i)) for i in range(count)]


def texts(result) -> list[str]:
    """Every message an interaction produced for its user (response and follow-ups)."""
    out = [result.response.content] if result.response is not None else []
    return out + [f.content for f in result.followups]


def said(result, fragment: str) -> bool:
    return any(fragment in t for t in texts(result))


def png(**text: Any) -> bytes:
    """A tiny PNG carrying JSON values in text chunks (what a stand-in renderer was asked to draw)."""
    info = PngImagePlugin.PngInfo()
    for key, value in text.items():
        info.add_text(key, json.dumps(value))
    out = io.BytesIO()
    Image.new("RGB", (4, 4)).save(out, "PNG", pnginfo=info)
    return out.getvalue()


def png_text(data: bytes) -> dict[str, Any]:
    image = Image.open(io.BytesIO(data))
    return {key: json.loads(value) for key, value in image.text.items()}


def pixels(data: bytes) -> tuple[tuple[int, int], str, bytes]:
    """What a PNG shows: its size, mode and pixels. Compare images with this, never their bytes: the
    encoder (:func:`rendering.theme.to_png`, ISA-L's deflate) may pick other matches for the same pixels
    from one call to the next, so the same image need not give the same bytes."""
    image = Image.open(io.BytesIO(data))
    return image.size, image.mode, image.tobytes()


def differing(drawn: Sequence[bytes], expected: Sequence[bytes]) -> list[int]:
    """The indices where two lists of PNGs show different images, by :func:`pixels`: a test asserts this is
    empty rather than comparing the images whole, which on failure would make pytest diff megabytes."""
    return [i for i, (got, want) in enumerate(zip(drawn, expected, strict=True)) if pixels(got) != pixels(want)]


def raw_messages(env, channel_id: int) -> list[Any]:
    """SimCord's stored messages of a channel, oldest first (cheaper than ``history()`` in a loop)."""
    return sorted(env.backend.messages.get(channel_id, {}).values(), key=lambda m: m.id)


@contextlib.contextmanager
def sqlite_trips(conn: Any) -> Iterator[list[str]]:
    """The calls made on an aiosqlite connection's thread while the block runs, by the name of the function
    run there: one per trip (each waits for the event loop on its way back)."""
    execute = conn._execute
    calls: list[str] = []

    async def counted(fn: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(fn.__name__)
        return await execute(fn, *args, **kwargs)

    conn._execute = counted
    try:
        yield calls
    finally:
        del conn._execute  # the connection's own method again


def opened(result: Any) -> Any:
    """The picker a click showed: the follow-up of a click on a board (which leaves the board as it is), or the
    picker a click in a picker updated."""
    return result.followups[-1] if result.followups else result.response
