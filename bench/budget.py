"""What a game asks of Discord's budget: ``python -m bench.budget [--games …] [--against REV [--runs N]]``.

One game of each kind is played through the real bot in SimCord as ``python bot.py demo`` plays it (its
default table: three players, two of them members, the demo's seed), and the REST requests the bot made are
counted per member decision (from the challenge on: not the process's start or its commands' sync), split
into interaction responses (outside Discord's global limit of 50 requests a second per bot) and the rest
(inside it). Also:

* ``board_messages``: the new messages in the game's thread that carry a board image, against ``passes``,
  the times the decision passed to a member (from the game's log), and ``opening_and_final`` besides;
* ``thread_posts_per_5s``: new messages in the thread (the bot's posts, interactions' follow-ups and public
  answers) in every window of four consecutive actions (a
  production timeline: the AI waits 1.5 s a move and members are no faster, so 5 s span four actions),
  p99 and max (Discord allows about 5 per 5 s in a channel);
* ``sustained_games``: the active games one bot token sustains at one member decision per 10 s each,
  under the global limit: ``50 × 10 / global requests per member decision``.

It uses only what the demo uses (the SimCord driver's challenge and play, the bot's store), so
``--against REV`` runs this same file on revision ``REV`` (a temporary worktree, the same virtual
environment) and gives both figures and the ratio of their medians.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import statistics
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()
GLOBAL_LIMIT = 50
"""Requests a second a bot may make outside interaction responses (Discord's global rate limit)."""
DECISION_EVERY = 10.0
"""Seconds between two member decisions in a game, for :func:`sustained`."""
WINDOW = 4
"""Consecutive actions in 5 s (1.5 s an action)."""
_VERSION = re.compile(r'"t:\d+:(\d+):')
_IMAGE_VERSION = re.compile(r"-(\d+)\.png$")


def interaction(path: str) -> bool:
    """Whether a request is an interaction's (its response or a follow-up): outside the global limit."""
    return path.startswith(("/interactions/", "/webhooks/"))


def passes_to_members(game: Any, seats: list[Any], state: dict, actions: list[tuple[int, int, str]]) -> int:
    """How many times the decision passed to a member, replaying a game's log from its start ``state``: an
    action after which the members deciding are some, and others than before it."""
    from games.core import Action

    def members(now: dict) -> frozenset[int]:
        if game.is_over(now):
            return frozenset()
        controllers = {game.controller(now, s) for s in game.to_act(now)}
        return frozenset(p for p in controllers if seats[p].user_id is not None)

    passes, deciding = 0, members(state)
    passes += bool(deciding)
    for _seq, seat, text in actions:
        state = game.apply(state, seat, Action.decode(text), trusted=True).state
        now = members(state)
        passes += bool(now) and now != deciding
        deciding = now
    return passes


def posted_in(request: Any, backend: Any) -> int | None:
    """The channel a request posts a new message in, if it does: the bot's own post, an interaction's follow-up
    or its public answer (those two land in the interaction's channel; an ephemeral one is nobody's post)."""
    parts = request.path.strip("/").split("/")
    body = request.json if isinstance(request.json, dict) else {}
    if request.method != "POST":
        return None
    if parts[0] == "channels" and parts[2:] == ["messages"]:
        return int(parts[1])
    if parts[0] == "interactions" and parts[3:] == ["callback"]:
        token, body = parts[2], (body.get("data") or {}) if body.get("type") == 4 else None
    elif parts[0] == "webhooks" and len(parts) == 3:
        token = parts[2]
    else:
        return None
    if body is None or body.get("flags", 0) & 64 or token not in backend.interaction_tokens:
        return None
    return backend.interaction_by_token(token).channel_id


def thread_windows(requests: list[Any], thread_id: int, backend: Any) -> list[int]:
    """New messages in the thread in every window of :data:`WINDOW` consecutive actions. A request's action is
    the newest board version seen so far (in a button's id or a board image's name)."""
    version, posts = 0, Counter()
    for r in requests:
        body = json.dumps(r.json) if r.json else ""
        for found in _VERSION.findall(body):
            version = max(version, int(found))
        for attachment in (r.json or {}).get("attachments", []) if isinstance(r.json, dict) else []:
            named = _IMAGE_VERSION.search(str(attachment.get("filename", "")))
            version = max(version, int(named.group(1))) if named else version
        if posted_in(r, backend) == thread_id:
            posts[version] += 1
    return [sum(posts[v + k] for k in range(WINDOW)) for v in range(max(posts, default=0) + 1)]


def sustained(global_per_decision: float) -> float:
    """Active games one token sustains at a member decision per :data:`DECISION_EVERY` s each."""
    return round(GLOBAL_LIMIT * DECISION_EVERY / global_per_decision, 1) if global_per_decision else float("inf")


async def one_game(kind: str, players: int = 3, seed: str = "demo") -> dict[str, Any]:
    """One demo game of ``kind``, and what it asked of Discord."""
    import simcord

    from cogs.app import create_bot
    from cogs.demo import SimTable  # where every revision --against may run has it
    from games.registry import GAMES

    decided = 0
    for name in ("click_through", "move"):
        original = getattr(SimTable, name)

        async def counting(self: Any, *args: Any, _original: Any = original, **kwargs: Any) -> Any:
            nonlocal decided
            decided += 1
            return await _original(self, *args, **kwargs)

        setattr(SimTable, name, counting)
    humans = 2 if players >= 3 else 1
    with tempfile.TemporaryDirectory() as tmp:
        bot = create_bot(database=Path(tmp) / "budget.db", ai_delay=0, seed=seed, warm_renderers=False)
        try:
            async with simcord.run(bot) as env:
                await bot.tree.sync()
                started = len(env.backend.http_requests)  # the process's start and its commands: not the game's
                table = SimTable(env, bot)
                names = list(table.members)
                await table.challenge(kind, names[0], names[1:humans], ai=players - humans)
                record = await table.latest_game()
                record = await table.play_to_end(record.id, via="mixed")
                await env.settle()
                requests = list(env.backend.http_requests)[started:]
                thread = table.place(record)
                boards = [
                    m for m in thread.history() if m.author.id == bot.user.id and any(
                        _IMAGE_VERSION.search(a.filename) and "hand" not in a.filename for a in m.attachments
                    )
                ]  # fmt: skip
                store = bot.tables.store
                actions = await store.games.actions(record.id)
        finally:
            await bot.close()
            if hasattr(bot, "tables"):
                await bot.tables.close()
    spec = GAMES[kind]
    start = spec.game.new_game(len(record.seats), record.options, record.seed)
    outside = sum(not interaction(r.path) for r in requests)
    inside = len(requests) - outside
    windows = thread_windows(requests, thread.id, env.backend)
    ordered = sorted(windows) or [0]
    return {
        "actions": record.version,
        "decisions": decided,
        "passes": passes_to_members(spec.game, record.seats, start, actions),
        "board_messages": len(boards),
        "requests": {"interaction": inside, "global": outside},
        "per_decision": {"interaction": round(inside / decided, 2), "global": round(outside / decided, 2)},
        "thread_posts_per_5s": {"p99": ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))], "max": ordered[-1]},
        "sustained_games": sustained(outside / decided),
    }


def measure(kinds: list[str]) -> dict[str, Any]:
    import logging

    logging.getLogger("discord").setLevel(logging.ERROR)
    return {kind: asyncio.run(one_game(kind)) for kind in kinds}


def run_at(where: Path, kinds: list[str]) -> dict[str, Any]:
    """This file's measure, run on the code of the checkout at ``where``."""
    code = f"import runpy, sys; sys.argv = ['budget', *{kinds!r}]; runpy.run_path({str(HERE)!r}, run_name='__main__')"
    done = subprocess.run([sys.executable, "-c", code], cwd=where, capture_output=True, text=True)
    if done.returncode:
        sys.stderr.write(done.stderr)
        raise SystemExit(f"the budget bench failed in {where}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def against(revision: str, runs: int, kinds: list[str]) -> dict[str, Any]:
    """Both checkouts' figures (their medians over ``runs``) and the ratio, this checkout over ``revision``."""
    root = HERE.parent.parent
    with tempfile.TemporaryDirectory() as tmp:
        other = Path(tmp) / "against"
        subprocess.run(["git", "worktree", "add", "--detach", str(other), revision], cwd=root, check=True,
                       capture_output=True)  # fmt: skip
        try:
            heads, bases = [], []
            for _ in range(runs):
                heads.append(run_at(root, kinds))
                bases.append(run_at(other, kinds))
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(other)], cwd=root, check=True)
    out: dict[str, Any] = {}
    for kind in kinds:
        for figure in ("sustained_games", "board_messages"):
            head = statistics.median(h[kind][figure] for h in heads)
            base = statistics.median(b[kind][figure] for b in bases)
            out.setdefault(kind, {})[figure] = {"head": head, "against": base, "ratio": round(head / base, 2)}
        for side in ("interaction", "global"):
            head = statistics.median(h[kind]["per_decision"][side] for h in heads)
            base = statistics.median(b[kind]["per_decision"][side] for b in bases)
            ratio = round(head / base, 2) if base else None
            out[kind][f"{side}_per_decision"] = {"head": head, "against": base, "ratio": ratio}
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.budget", description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="which games (default: all)")
    parser.add_argument("--against", metavar="REV", help="also on git revision REV, and the ratios")
    parser.add_argument("--runs", type=int, default=1, metavar="N", help="runs of each with --against")
    args = parser.parse_args(argv)
    if not args.games:
        from games.registry import GAMES

        args.games = list(GAMES)
    report = against(args.against, args.runs, args.games) if args.against else measure(args.games)
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
