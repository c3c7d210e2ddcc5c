"""Discord's documented behaviour that SimCord does not model, emulated around SimCord's one request path
(``simcord.http.router.dispatch``, which every REST call and interaction response of the bot takes).

* **Nonces** (Discord's "Create Message": ``nonce`` with ``enforce_nonce``): "If true and nonce is present, it
  will be checked for uniqueness in the past few minutes. If another message was created by the same author
  with the same nonce, that message will be returned and no new message will be created." SimCord ignores
  nonces; :class:`DiscordRules` returns the first message for a repeated nonce within :data:`NONCE_WINDOW`.
* **Half failures**: a write Discord accepted whose answer never reached the bot (a time-out, a 5xx after the
  write, the process dying right after the send). SimCord's ``inject_error`` fails a request *before* it is
  carried out; :meth:`DiscordRules.lose_answer` carries it out, then fails it.
* **The hour-old edit limit** (error 30046, "Maximum number of edits to messages older than 1 hour reached"):
  :meth:`DiscordRules.limit_old_edits` refuses edits of messages older than an hour.
* **A follow-up is a post in its channel**: the bot posts a board as an interaction's follow-up (``POST
  /webhooks/{application}/{token}``) and edits it through that token; Discord counts both as a message made
  or edited in the interaction's channel. :func:`follow_ups_as_posts` (on for every test) applies SimCord's
  ``inject_error`` faults, and :class:`DiscordRules` its lost answers, to such a request as to the channel's
  path it stands for (``/channels/{channel}/messages``, ``…/messages/{id}``), so a test that fails "a post
  in the thread" fails it whichever way the bot makes it. Ephemeral ones are nobody's post: not matched.
* **Interaction tokens live 15 minutes**: :meth:`DiscordRules.expire_follow_ups` answers a follow-up as Discord
  answers one sent after that (404, Unknown Webhook): as if the bot's answer had come too late.
"""

from __future__ import annotations

import asyncio
import fnmatch
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import discord
import pytest
import simcord
from simcord.backend.errors import BackendError
from simcord.http import router
from simcord.http._helpers import message_response

NONCE_WINDOW = 120.0
"""Seconds a nonce is remembered ("the past few minutes": two, to be safe)."""
EDIT_LIMIT_AGE = 3600.0


class Died(Exception):
    """The process died right after a send. Raised there, and at every request it makes until the test restarts
    it: what it would still have done fails, as if never tried (the rows it was delivering stay pending)."""


@dataclass
class Loss:
    """The next ``times`` requests of ``method`` to a path matching ``path`` are carried out, then fail as
    ``status`` (0: a time-out; ``None``: the process dies)."""

    method: str
    path: str
    status: int | None = 500
    times: int = 1

    def matches(self, method: str, path: str) -> bool:
        return self.method in (method, "*") and fnmatch.fnmatch(path, self.path)


@dataclass
class DiscordRules:
    """The rules above, on one SimCord world (installed by :func:`discord_rules`)."""

    env: simcord.Env
    nonces: dict[str, tuple[int, int, float]] = field(default_factory=dict)
    """A nonce's message (channel id, message id) and when it was created."""
    losses: list[Loss] = field(default_factory=list)
    deaths: int = 0
    """How many times the process died after a send (the test restarts it)."""
    dead: bool = False
    """Set when the process died: until :meth:`revive`, every request it makes dies too."""
    old_edits_limited: bool = False
    follow_ups_expired: bool = False
    duplicates_prevented: int = 0

    def lose_answer(self, method: str, path: str, status: int | None = 500, times: int = 1) -> None:
        """Carry out the next ``times`` matching requests, then fail them (``status`` 0: a time-out; ``None``:
        the process dies right after sending)."""
        self.losses.append(Loss(method, path, status, times))

    def limit_old_edits(self) -> None:
        self.old_edits_limited = True

    def expire_follow_ups(self) -> None:
        """Every follow-up from now on comes after its interaction's 15 minutes."""
        self.follow_ups_expired = True

    def revive(self) -> None:
        """The process was restarted: requests go through again."""
        self.dead = False

    # ------------------------------------------------------------------ the request path

    def dispatch(self, original: Any, backend: Any, method: str, path: str, **kwargs: Any) -> Any:
        if self.dead:
            raise Died(f"{method} {path}: the process is dead")
        self._refuse(backend, method, path)
        body = kwargs.get("json") if isinstance(kwargs.get("json"), dict) else {}
        nonce = body.get("nonce") if body.get("enforce_nonce") else None
        if method == "POST" and nonce is not None and fnmatch.fnmatch(path, "/channels/*/messages"):
            kept = self.nonces.get(str(nonce))
            now = _now()
            if kept is not None and now - kept[2] < NONCE_WINDOW:
                # The same author sent this nonce a moment ago: Discord returns that message, creates none.
                self.duplicates_prevented += 1
                backend.http_requests.append(router.HttpLogEntry(method, path, {}, kwargs.get("json"), None))
                ctx = router.RequestContext(backend, {}, method=method, path=path)
                return message_response(ctx, backend.get_message(kept[0], kept[1]))
            answer = original(backend, method, path, **kwargs)
            self.nonces[str(nonce)] = (int(answer["channel_id"]), int(answer["id"]), now)
        else:
            answer = original(backend, method, path, **kwargs)
        paths = [path, posted_as(backend, method, path, kwargs.get("json")) or path]
        loss = next((loss for loss in self.losses if any(loss.matches(method, p) for p in paths)), None)
        if loss is not None:
            loss.times -= 1
            if loss.times <= 0:
                self.losses.remove(loss)
            if loss.status is None:
                self.dead = True
                self.deaths += 1
                raise Died(f"{method} {path}: the process died right after sending")
            if loss.status == 0:
                raise TimeoutError(f"{method} {path}: no answer")
            raise BackendError(loss.status, 0, "the write went through, its answer was lost")
        return answer

    def _refuse(self, backend: Any, method: str, path: str) -> None:
        """Discord's refusals SimCord does not make: old messages' edits (30046), expired tokens."""
        if self.old_edits_limited and method == "PATCH" and fnmatch.fnmatch(path, "/channels/*/messages/*"):
            message_id = int(path.strip("/").split("/")[3])
            age = _now() - discord.utils.snowflake_time(message_id).timestamp()
            if age > EDIT_LIMIT_AGE:
                raise BackendError(429, 30046, "Maximum number of edits to messages older than 1 hour reached.")
        if self.follow_ups_expired and method in ("POST", "PATCH") and fnmatch.fnmatch(path, "/webhooks/*/*"):
            raise BackendError(404, 10015, "Unknown Webhook")


def posted_as(backend: Any, method: str, path: str, body: Any) -> str | None:
    """The channel path an interaction's public follow-up (or an edit of a public message through an
    interaction's token) stands for; ``None`` for any other request."""
    parts = path.strip("/").split("/")
    if parts[0] != "webhooks" or len(parts) < 3 or parts[2] not in backend.interaction_tokens:
        return None
    record = backend.interaction_by_token(parts[2])
    if method == "POST" and len(parts) == 3:
        ephemeral = isinstance(body, dict) and body.get("flags", 0) & 64
        return None if ephemeral else f"/channels/{record.channel_id}/messages"
    if method == "PATCH" and len(parts) == 5 and parts[3] == "messages":
        message_id = record.message_id if parts[4] == "@original" else int(parts[4])
        message = backend.messages.get(record.channel_id, {}).get(message_id)
        if message is None or message.is_ephemeral:
            return None
        return f"/channels/{record.channel_id}/messages/{message_id}"
    return None


@contextmanager
def follow_ups_as_posts() -> Iterator[None]:
    """SimCord's injected faults apply to a follow-up as to the post in its channel it stands for."""
    original = router.dispatch

    def dispatch(backend: Any, method: str, path: str, **kwargs: Any) -> Any:
        stands = posted_as(backend, method, path, kwargs.get("json"))
        if stands is not None:
            router._check_faults(backend, method, stands)
        return original(backend, method, path, **kwargs)

    router.dispatch = dispatch
    try:
        yield
    finally:
        router.dispatch = original


def _now() -> float:
    return discord.utils.utcnow().timestamp()


@contextmanager
def installed(env: simcord.Env) -> Iterator[DiscordRules]:
    """Discord's rules above on ``env`` for the duration of the block."""
    rules = DiscordRules(env)
    original = router.dispatch

    def dispatch(backend: Any, method: str, path: str, **kwargs: Any) -> Any:
        return rules.dispatch(original, backend, method, path, **kwargs)

    router.dispatch = dispatch
    try:
        yield rules
    finally:
        router.dispatch = original


@pytest.fixture
def discord_rules(simcord_env: simcord.Env) -> Iterator[DiscordRules]:
    with installed(simcord_env) as rules:
        yield rules


async def settled(env: simcord.Env) -> None:
    """Let the bot finish what it is doing (a dead process's tasks end with :class:`Died`)."""
    await env.settle()
    await asyncio.sleep(0)
