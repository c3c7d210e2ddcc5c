"""What the forkserver of the processes beside the bot imports first (:func:`games.processes.worker_context`):
Ctrl-C ignored. The forkserver hands its signal settings to every process it forks, so the hard AI's search
processes and the render processes ignore Ctrl-C from their first instruction. A terminal sends Ctrl-C to
every process of the command; a worker it reached, idle or still starting, would die with a traceback and
break its pool. The bot stops its workers itself, once their work under way is done.

Only the forkserver imports this module: imported in the bot's process, it would make Ctrl-C do nothing.
"""

from __future__ import annotations

import signal

signal.signal(signal.SIGINT, signal.SIG_IGN)
