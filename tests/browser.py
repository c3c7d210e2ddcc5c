"""Playing ``python bot.py play`` in a real browser: headless Chromium from Debian's ``chromium`` package, driven
by Playwright (PyPI's; its own browsers are never downloaded), as a person plays on the page.

:class:`PlayPage` starts ``play`` in a process of its own, opens the address it prints, and does what a person
does there: type a slash command in the composer (picking options and autocomplete suggestions), click a
board's buttons and a picker's, switch "Viewing as", read what the page shows and keep screenshots.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHOTS = Path(os.environ.get("TABLES_BROWSER_SHOTS", ROOT / "browser-shots"))
"""Where the browser tests keep their screenshots (git-ignored; the README shows two of them)."""
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    # This machine's network is closed: without these Chromium keeps trying to reach Google's services.
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SERVICE_BUTTONS = frozenset({"My hand", "Follow", "Rematch", "Accept", "Decline", "Join", "Leave", "Start", "Cancel"})
"""Buttons of the bot's messages that are not moves of a game."""
WAIT_MS = 30_000
POLL_MS = 500
"""How often the page asks for what was published (SimCord's Preview)."""
IDLE = "() => { const p = window.simcordPreview; return p && p.ready && !p.pendingAction && !p.pendingQuery; }"
"""Whether the page shows what it has and waits for nothing it asked for."""
LATEST = """async () => {
  const p = window.simcordPreview;
  const response = await fetch("/api/state", {headers: {
    "X-Simcord-Capability": location.hash.slice(1), "X-Simcord-Context": p.contextId}});
  const published = (await response.json()).publishedRevision;
  return published === p.publishedRevision ? published : null;
}"""
"""The page's revision if it is the newest the server published (``None`` while a newer one is on its way)."""


def chromium() -> Iterator[Any]:
    """A headless Chromium, or the test skipped with a one-line reason where there is none."""
    if not Path(CHROMIUM).exists():
        reason = f"no Chromium at {CHROMIUM}: apt-get install chromium to run the browser tests"
        if os.environ.get("CI"):
            pytest.fail(f"{reason} (CI must run them: .ci/run installs it)")
        pytest.skip(reason)
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (the dev extra has it)")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        try:
            yield browser
        finally:
            browser.close()


@contextmanager
def served(*args: str) -> Iterator[str]:
    """``python bot.py play ARGS`` in a process of its own: the page's address; Ctrl-C ends it afterwards, which
    must close it with one line and status 0."""
    process = subprocess.Popen(
        [sys.executable, "bot.py", "play", *args, "--port", "0"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        first = process.stdout.readline() if process.stdout else ""
        match = re.match(r"Open (http://127\.0\.0\.1:\d+/#\S+)$", first.strip())
        if match is None:
            _, err = process.communicate(timeout=30)
            raise AssertionError(f"play printed {first!r} first; stderr: {err}")
        yield match.group(1)
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    assert process.returncode == 0, err
    assert out.strip() == "The table is closed.", out
    assert "Traceback" not in err, err


class PlayPage:
    """The page of a ``play`` table as the person at the keyboard sees it."""

    def __init__(self, browser: Any, url: str, game: str, humans: list[str]) -> None:
        self.game = game
        self.humans = humans
        self.viewer = humans[0]
        # The page forbids evaluated scripts (its Content-Security-Policy): bypassed for the test's waits.
        self.page = browser.new_page(viewport={"width": 1280, "height": 1100}, bypass_csp=True)
        self.page.goto(url)
        self.settle()

    # ------------------------------------------------------------------ waiting and reading

    def settle(self) -> None:
        """Wait until the page shows the latest state published (an action on an older one is refused as stale):
        nothing it asked for is pending, and the page holds the revision the server has, twice in a row."""
        seen = None
        while True:
            self.page.wait_for_function(IDLE, timeout=WAIT_MS)
            revision = self.page.evaluate(LATEST)
            if revision is not None and revision == seen:
                return
            seen = revision
            self.page.wait_for_timeout(POLL_MS if revision is None else 150)

    def messages(self) -> Any:
        return self.page.locator("#channel-message-list > *")

    def text(self) -> str:
        """Everything the page shows as text, with every image's alt text."""
        alts = self.page.locator("img[alt]").evaluate_all("(images) => images.map((i) => i.alt)")
        return self.page.locator("body").inner_text() + "\n" + "\n".join(alts)

    def wait_for_text(self, text: str) -> None:
        """Wait until the conversation shows ``text`` (what the bot does by itself is published as it is done)."""
        self.page.locator("#channel-message-list").get_by_text(text).first.wait_for(timeout=WAIT_MS)
        self.settle()

    def wait_for_channel(self, start: str) -> str:
        """Wait until the page presents a channel or thread whose name starts with ``start``; its name."""
        self.page.wait_for_function(
            "(start) => (document.getElementById('channel-name')?.textContent || '').startsWith(start)",
            arg=start,
            timeout=WAIT_MS,
        )
        self.settle()
        return self.channel()

    def channel(self) -> str:
        return self.page.locator("#channel-name").inner_text()

    def board(self) -> Any:
        """The newest message with moves on its buttons or a select menu (the live board)."""
        self.settle()
        messages = self.messages()
        for i in range(messages.count() - 1, -1, -1):
            message = messages.nth(i)
            if not message.locator(".message-ephemeral-note").count() and (
                self.moves(message) or self.selects(message).count()
            ):
                return message
        raise AssertionError("no board with moves on the page:\n" + self.text()[-2000:])

    def actors(self, board: Any) -> list[str]:
        """The members a board names as deciding now (its ``➡️ @member`` line), the ones this page plays."""
        named = [m.strip().lstrip("@") for m in board.locator(".message-content .mention").all_inner_texts()]
        return [name for name in dict.fromkeys(named) if name in self.humans]

    def pickers(self) -> Any:
        """The ephemeral messages with moves to pick (a picker's next level)."""
        return self.messages().filter(has=self.page.locator(".message-ephemeral-note"))

    def decide(self, pick: int = 0) -> str:
        """Play one decision as a person does: as the member the newest board names, its move number ``pick``
        (a button, or a select menu's option; -1: the last), then each picker's first entry. Returns the
        member who decided."""
        board = self.board()
        who = self.actors(board)
        assert who, "the board names nobody to decide:\n" + board.inner_text()
        self.view_as(who[0])
        self.choose(self.board(), pick)
        for _ in range(8):  # a picker's levels
            picker = self.pickers().last
            if not picker.count() or not (self.moves(picker) or self.selects(picker).count()):
                break
            self.choose(picker)
        return who[0]

    def choose(self, message: Any, pick: int = 0) -> None:
        """Take a message's move number ``pick``: among its move buttons, else its first select menu's options."""
        moves = self.moves(message)
        if moves:
            self.click(moves[pick])
            return
        select = self.selects(message).first
        select.locator(".select-trigger").click()
        select.locator(".select-option").nth(pick).click()
        self.settle()

    def selects(self, message: Any) -> Any:
        return message.locator(".preview-select")

    def moves(self, message: Any) -> list[Any]:
        """A message's buttons that play a move (not **My hand**, **Follow** and the like)."""
        buttons = message.locator("button.component-button:not([aria-disabled=true])")
        labels = buttons.evaluate_all("(buttons) => buttons.map((b) => b.innerText.trim())")
        return [buttons.nth(i) for i, label in enumerate(labels) if label.split("\n")[-1] not in SERVICE_BUTTONS]

    def images_loaded(self, message: Any) -> list[int]:
        """The natural widths of a message's images, once each has loaded (0: it failed to)."""
        images = message.locator("img.attachment-image")
        images.first.wait_for(timeout=WAIT_MS)
        return images.evaluate_all(
            "(images) => Promise.all(images.map((i) => i.complete ? i.naturalWidth : "
            "new Promise((done) => { i.onload = () => done(i.naturalWidth); i.onerror = () => done(0); })))"
        )

    # ------------------------------------------------------------------ acting

    def view_as(self, name: str) -> None:
        if name != self.viewer:
            self.page.locator("#viewer-picker").select_option(label=name)
            self.viewer = name
            self.settle()

    def click(self, button: Any) -> None:
        button.click()
        self.settle()

    def button(self, label: str, message: Any | None = None) -> Any:
        """The newest enabled button with this label (in ``message`` if given)."""
        scope = message if message is not None else self.page.locator("#channel-message-list")
        found = scope.locator("button.component-button:not([aria-disabled=true])", has_text=label)
        return found.last

    def slash(self, command: str, **options: str) -> None:
        """Run ``/command`` from the composer, filling ``options`` as a person does: the option from the
        composer's list, then its value (a member or an autocomplete suggestion is picked from the list
        the composer shows for what is typed)."""
        box = self.page.locator("#channel-composer-input")
        box.click()
        box.type(f"/{command}")
        self.page.locator(".command-entry", has_text=f"/{command}").first.click()
        for name, value in options.items():
            field = self.page.locator(f'.command-option-input[data-option="{name}"]')
            if not field.count():
                self.page.locator(".command-ghost").click()
                self.page.locator(f'.command-suggestion[data-value="{name}"]').click()
            field.click()
            field.type(value)
            suggestions = self.page.locator("#command-suggestion-listbox .command-suggestion")
            if self._suggests(field):
                suggestions.first.wait_for(timeout=WAIT_MS)
                suggestions.first.click()
        self.page.locator("#send-message").click()
        self.settle()

    def _suggests(self, field: Any) -> bool:
        """Whether the composer offers values to pick for the focused option (members, autocomplete)."""
        self.page.wait_for_timeout(400)  # the composer asks the bot after 250 ms of quiet typing
        return field.get_attribute("aria-expanded") == "true"

    def screenshot(self, name: str, message: Any | None = None) -> Path:
        """Keep what the page shows, scrolled to ``message`` (its top) if given, as ``GAME-NAME.png``."""
        if message is not None:
            message.evaluate("(m) => m.scrollIntoView({block: 'start'})")
        SHOTS.mkdir(parents=True, exist_ok=True)
        path = SHOTS / f"{self.game}-{name}.png"
        self.page.screenshot(path=str(path))
        return path
