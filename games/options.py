"""Table options read from text, as the command line gives them (``--option NAME=VALUE``): ``python bot.py
arena`` and ``python -m games.oracle build`` read them alike, each checked by the game's own
:class:`~games.core.Option`."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.core import Game, IllegalAction, Option
from games.i18n import localize

_BOOLEANS = {"on": True, "true": True, "yes": True, "1": True, "off": False, "false": False, "no": False, "0": False}


def option_form(option: Option) -> str:
    """How an option is written on the command line: ``blind=on|off``, ``variant=standard|…``."""
    if isinstance(option.default, bool):
        return f"{option.name}=on|off"
    if option.choices:
        return f"{option.name}={'|'.join(option.choices)}"
    return f"{option.name}=VALUE"


def _known_options(game: Game) -> str:
    if not game.options:
        return "it has none"
    return "its options: " + ", ".join(option_form(o) for o in game.options)


def _option_value(option: Option, text: str) -> Any:
    """``text`` read as the option's type (a boolean word, a choice in any case), checked by the option."""
    value: Any = text
    if isinstance(option.default, bool):
        if text.lower() not in _BOOLEANS:
            raise ValueError(f"--option {option.name}={text}: say on or off (or true/false, yes/no, 1/0)")
        value = _BOOLEANS[text.lower()]
    elif option.choices:
        value = next((c for c in option.choices if c.lower() == text.lower()), text)
    try:
        return option.validate(value)
    except IllegalAction as exc:
        raise ValueError(f"--option {option.name}={text}: {localize(str(exc)).rstrip('.')}") from None


def game_options(game: Game, assignments: Iterable[str]) -> dict[str, Any]:
    """The table options given as ``name=value`` texts, read and checked with the game's :class:`Option`s.

    Booleans take on/off, true/false, yes/no or 1/0; choices and names ignore case. Raises ``ValueError``
    with a one-line message that names the valid options or values.
    """
    known = {o.name.lower(): o for o in game.options}
    options: dict[str, Any] = {}
    for text in assignments:
        name, equals, value = text.partition("=")
        if not equals or not name.strip():
            raise ValueError(f"--option takes NAME=VALUE, not {text!r} ({_known_options(game)})")
        option = known.get(name.strip().lower())
        if option is None:
            raise ValueError(f"{localize(game.title)} has no option {name.strip()!r}; {_known_options(game)}")
        options[option.name] = _option_value(option, value.strip())
    return options
