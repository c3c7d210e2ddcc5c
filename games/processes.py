"""How every process beside the bot starts (the hard AI's searches, the render processes)."""

from __future__ import annotations

import multiprocessing
import multiprocessing.context


def worker_context() -> multiprocessing.context.ForkServerContext:
    """From a forkserver: a clean interpreter rather than a fork of the bot's running event loop, connections
    and threads, which imports the games (their registry) once for every process it forks."""
    context = multiprocessing.get_context("forkserver")
    # games.worker first: every process forked from there ignores Ctrl-C from its start (see that module).
    context.set_forkserver_preload(["games.worker", "games.registry"])
    return context
