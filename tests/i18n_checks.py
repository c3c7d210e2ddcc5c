"""What the language tests look for: text a person reads that no catalog wrote.

Texts are read in the ``pseudo`` language (:mod:`games.i18n`), which writes every message as ``⟦…⟧``; what
is left once the marked messages, the players' names, links, mentions, emoji and figures are taken out
must be punctuation: a word left over is a text that does not come from a catalog.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from games.i18n import START, localize

_INNERMOST = re.compile(r"⟦[^⟦⟧]*⟧")
_NOT_WORDS = re.compile(
    r"https?://\S+"  # links
    r"|<[@#][!&]?\d+>|<a?:\w+:\d+>|<t:\d+(:\w)?>"  # mentions, custom emoji, timestamps
    r"|`[^`]*`"  # typed moves and commands, which stay English in every language
    r"|\b[A-Ka-k](?:1[01]|[1-9])\b"  # Sea Rats! chart coordinates: F6 (its columns A–K are letters of no language)
    r"|/\w+(?: \w+)?"  # slash commands
)
WORD = re.compile(r"[^\W\d_]{2,}")


def unmarked(text: str, names: Iterable[str] = ()) -> list[str]:
    """The words of ``text`` (read in ``pseudo``) that no marked message wrote; ``names`` are the players'
    names, which are nobody's message. A raw mark left in the text (never localized) counts too."""
    if START in text or "\x03" in text:
        return ["<a marked message that was never localized>"]
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    while (inner := _INNERMOST.sub(" ", text)) != text:
        text = inner
    return WORD.findall(_NOT_WORDS.sub(" ", text))


def pseudo(text: str) -> str:
    return localize(text, "pseudo")
