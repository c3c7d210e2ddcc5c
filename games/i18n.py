"""Every text a person reads, in their language: messages marked where they are written, translated where
they are shown.

Engines, the table service and the renderers never format English for a reader. They write a **marked
message**, :func:`T` (or :func:`N` for a count), whose English text is the gettext message id and whose
values travel with it::

    T("{seat} passed on {treasure}.", seat=seat_ref(2), treasure=T("coins"))
    N("{n} card", "{n} cards", 3)

A marked message is an ordinary ``str`` (so it lives in JSON states, events, labels, views, outbox rows and
exception messages like any text), holding the message id and its values between two control characters.
Values may be numbers, plain text (names, ``{pN}`` seat references, action texts) or marked messages
themselves. Where a text meets a reader — the delivery loop, a cog's answer, a renderer — :func:`localize`
turns every marked message in it into that reader's language, values first, through the gettext catalogs
in ``data/locale/<language>/LC_MESSAGES/<domain>.po`` (Babel reads them and gives the plural rules).
Plain text outside the marks passes through unchanged, which is how names and numbers stay as they are.

A message id that means different things in different places (a nation's adjective and a language's name,
a compass letter) is given a context, :func:`P` (gettext's ``msgctxt``), so that its lookup never takes
another place's translation: ``P("nation", "English")``. A noun that goes into sentences carries its
grammatical forms the same way: one message per form a sentence needs, the form's name as its context
(``P("dative", "chalices")``, in a small table of the game's nouns), so a catalog can say "mit Kelchen" where
the English says "with chalices".

Message ids are extracted from the code by Babel (``python -m games.catalogs``; keywords ``T``, ``N:1,2``,
``P:1c,2``, and ``tr:2``, ``ntr:2,3``, ``trp:2c,3`` for a renderer's own words), so a message id is always a
literal at its call.
English needs no catalog: the message id is the English text. The ``pseudo`` language marks every message
``⟦…⟧`` and makes it 40% longer: the tests read whole games through it to find any text that is not
marked, and any that no longer fits.
"""

from __future__ import annotations

import contextlib
import json
import math
import re
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import cache, lru_cache
from io import BytesIO
from pathlib import Path
from typing import Any

import orjson

START, END = "\x02", "\x03"
"""The two control characters around a marked message. Inside one, JSON escapes them (``\\u0002``), so
marks never nest as raw characters and one regular expression finds every top-level mark."""
_MARKED = re.compile("\x02([^\x02\x03]*)\x03")
_SEAT_REF = re.compile(r"\{p(\d)\}")
_JSON_SAFE = re.compile(r'[^"\\\x00-\x1f\x7f-\x9f\u2028\u2029]*')
"""Text JSON writes as it is (no quote, backslash or control character to escape)."""

LOCALE_DIR = Path(__file__).resolve().parent.parent / "data" / "locale"
ENGLISH = "en"
PSEUDO = "pseudo"
LANGUAGES: dict[str, str] = {
    "en": "English",
    "de": "Deutsch",
    "fr": "Français",
    "es": "Español",
    "pt_BR": "Português (Brasil)",
}
"""The languages the bot speaks, by code, with their own names (``/games language`` offers these). A code is
the name of the language's catalog folder under ``data/locale`` (a gettext locale: ``de``, ``pt_BR``); a
Discord locale is in the language whose code it spells (``pt-BR`` is ``pt_BR``), else in the language of its
first part (``es-419`` and ``es-ES`` are ``es``, ``en-GB`` is ``en``)."""
CONTEXT = "\x04"
"""What separates a message's context from its id in a marked message and in a compiled catalog (gettext's
own separator, so a catalog's ``msgctxt`` entries are found as they are)."""


# ---------------------------------------------------------------------------------------------- marking


def T(message: str, /, **values: Any) -> str:
    """The message ``message`` (English, with ``{name}`` placeholders) with its ``values``, marked."""
    if not values:
        return _plain(message)
    return "" if _reading.unread else _mark([message, values])


@lru_cache(maxsize=4096)
def _plain(message: str) -> str:
    return _mark([message])


def P(context: str, message: str, /, **values: Any) -> str:
    """:func:`T` for a message whose English means different things in different places: ``context`` (a
    literal, the catalog's ``msgctxt``) keeps its translation apart from every other."""
    return T(f"{context}{CONTEXT}{message}", **values)


def language_name(lang: str) -> str:
    """The name of language ``lang`` (a code of :data:`LANGUAGES`) as a marked message: "German", "Deutsch",
    "Allemand"; its own name (:data:`LANGUAGES`) for a code this table lacks."""
    names = {
        "en": P("language", "English"),
        "de": P("language", "German"),
        "fr": P("language", "French"),
        "es": P("language", "Spanish"),
        "pt_BR": P("language", "Brazilian Portuguese"),
    }
    return names.get(lang) or LANGUAGES.get(lang, lang)


def N(singular: str, plural: str, n: int, /, **values: Any) -> str:
    """A message about ``n`` of something, in the plural form the reader's language wants for ``n``;
    ``{n}`` in either form is the number."""
    return "" if _reading.unread else _mark([singular, {**values, "n": n}, plural])


class _Reading(threading.local):
    unread = False


_reading = _Reading()


@contextlib.contextmanager
def unread() -> Iterator[None]:
    """Text nobody will read is made inside (in this thread): :func:`T` and :func:`N` give ``""`` for a
    message with values instead of marking it. The hard AI's playouts (:mod:`games.search`) make the events
    of thousands of actions a decision and read none: marking them took a tenth of their time."""
    before = _reading.unread
    _reading.unread = True
    try:
        yield
    finally:
        _reading.unread = before


def L(message: str, /) -> str:
    """A command's or an option's description (or a choice's name), left as plain English: discord.py's
    translator (and :func:`gettext` where the bot shows it) writes it out; the mark is for Babel only."""
    return message


_ENCODE = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
"""The standard library's encoder, built once, for what orjson refuses (an integer beyond 64 bits)."""


def _mark(payload: list[Any]) -> str:
    # orjson writes a mark byte for byte as ``_ENCODE`` does (compact, UTF-8 as it is, control characters
    # escaped; a test compares the two over whole games), in 0.3 µs against 2.4: an action marks ~50.
    try:
        return START + orjson.dumps(payload).decode() + END
    except TypeError:  # orjson.JSONEncodeError
        return START + _ENCODE(payload) + END


def seat_ref(seat: int) -> str:
    """The placeholder that the platform replaces by seat ``seat``'s name (:func:`with_names`)."""
    return f"{{p{seat}}}"


LIST = "\x05list"
"""The message id of a list (:func:`joined`): written out by Babel's list patterns, not by a catalog."""


def joined(parts: Sequence[str]) -> str:
    """Texts listed as a sentence does: "Anne", "Anne and Ben", "Anne, Ben, and Cleo" (in the reader's
    language, by Babel's list patterns of the language (CLDR): "Anne, Ben und Cleo", "Anne, Ben et Cleo")."""
    if len(parts) <= 1:
        return parts[0] if parts else ""
    return "" if _reading.unread else _mark([LIST, {"items": list(parts)}])


def is_marked(text: str) -> bool:
    return START in text


# ---------------------------------------------------------------------------------------------- names


def map_plain(text: str, change: Callable[[str], str]) -> str:
    """``text`` with ``change`` applied to its plain parts and, inside its marks, to every plain value: how
    seat names go into marked text without touching message ids (or JSON)."""
    if START not in text:
        return change(text)
    out = []
    last = 0
    for found in _MARKED.finditer(text):
        out.append(change(text[last : found.start()]))
        payload = json.loads(found.group(1))
        if len(payload) > 1:
            payload[1] = {k: map_plain(v, change) if isinstance(v, str) else v for k, v in payload[1].items()}
        out.append(_mark(payload))
        last = found.end()
    out.append(change(text[last:]))
    return "".join(out)


def with_names(text: str, names: Sequence[str]) -> str:
    """``text`` with every ``{pN}`` replaced by seat N's name (missing seats read "seat N"); marked or not."""
    return _with_names(text, tuple(names)) if "{p" in text else text


@lru_cache(maxsize=4096)
def _with_names(text: str, names: tuple[str, ...]) -> str:
    def name(found: re.Match[str]) -> str:
        seat = int(found.group(1))
        return names[seat] if seat < len(names) else f"seat {seat + 1}"

    if START not in text or all(_JSON_SAFE.fullmatch(n) for n in names):
        return _SEAT_REF.sub(name, text)  # a name JSON leaves as it is reads the same inside any mark
    return map_plain(text, lambda plain: _SEAT_REF.sub(name, plain) if "{p" in plain else plain)


# ---------------------------------------------------------------------------------------------- languages


@lru_cache(maxsize=256)
def language(locale: object) -> str:
    """The language the bot speaks for a Discord locale (``"de"``, ``discord.Locale.german``, ``"en-GB"``):
    one of :data:`LANGUAGES`, English when it speaks none closer (or :data:`PSEUDO`, for the tests)."""
    return spoken(locale) or ENGLISH


def spoken(locale: object) -> str | None:
    """The language of :data:`LANGUAGES` a Discord locale is in (``"en-GB"`` is in ``"en"``), or ``None``
    when the bot does not speak it (:data:`PSEUDO` is itself)."""
    code = str(getattr(locale, "value", locale) or "").lower().replace("_", "-")
    if code == PSEUDO:
        return PSEUDO
    spelt = {lang.lower().replace("_", "-"): lang for lang in LANGUAGES}  # pt_BR is Discord's pt-BR
    return spelt.get(code) or spelt.get(code.split("-")[0])


@cache
def catalog(lang: str) -> Any:
    """The translations of ``lang`` (every domain's catalog merged), as gettext translations."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po
    from babel.support import NullTranslations, Translations

    merged: Any = NullTranslations()
    folder = LOCALE_DIR / lang / "LC_MESSAGES"
    for po in sorted(folder.glob("*.po")) if lang not in (ENGLISH, PSEUDO) else ():
        with po.open("rb") as file:
            read = read_po(file, locale=lang)
        for message in list(read):  # untranslated: must not hide another catalog's translation when merged
            forms = message.string if isinstance(message.string, tuple | list) else (message.string,)
            if message.id and (message.fuzzy or not all(forms)):
                read.delete(message.id, context=message.context)
        mo = BytesIO()
        write_mo(mo, read)
        mo.seek(0)
        loaded = Translations(mo, domain=po.stem)
        if isinstance(merged, Translations):
            merged.merge(loaded)
        else:
            merged = loaded
    return merged


def gettext(message: str, lang: str) -> str:
    """``message`` (a message id, after its context if it has one) in ``lang``: the English id itself where
    the catalog has no translation."""
    english = message.rpartition(CONTEXT)[2]
    if lang == PSEUDO:
        return _pseudo(english)
    if lang == ENGLISH:
        return english
    found = catalog(lang).gettext(message)
    return english if found == message else found


def translated(message: str, lang: str) -> str | None:
    """``message`` (a message id, after its context if it has one) in ``lang`` if its catalog has it, else
    ``None`` (English: the id itself)."""
    if lang in (ENGLISH, PSEUDO):
        return gettext(message, lang)
    return getattr(catalog(lang), "_catalog", {}).get(message)


def ngettext(singular: str, plural: str, n: int, lang: str) -> str:
    if lang == PSEUDO:
        return _pseudo(singular if n == 1 else plural)
    if lang == ENGLISH:
        return singular if n == 1 else plural
    return catalog(lang).ngettext(singular, plural, n)


def _pseudo(text: str) -> str:
    """``text`` marked ``⟦…⟧`` and 40% longer (placeholders kept): what a longer language would need."""
    letters = len(re.sub(r"\{[^}]*\}", "", text))
    return f"⟦{text}{'·' * math.ceil(0.4 * letters)}⟧"


# ---------------------------------------------------------------------------------------------- localizing


def localize(text: str, locale: object = ENGLISH) -> str:
    """``text`` with each marked message in it written out in ``locale``'s language."""
    if START not in text:
        return text
    return _localize(text, language(locale))


@lru_cache(maxsize=16384)
def _localize(text: str, lang: str) -> str:
    return _MARKED.sub(lambda found: _written(json.loads(found.group(1)), lang), text)


def _written(payload: list[Any], lang: str) -> str:
    values: Mapping[str, Any] = payload[1] if len(payload) > 1 else {}
    if payload[0] == LIST:
        return _listed([_localize(v, lang) if START in v else v for v in values["items"]], lang)
    plural = len(payload) > 2
    form = ngettext(payload[0], payload[2], int(values["n"]), lang) if plural else gettext(payload[0], lang)
    if not values:
        return form
    shown = {k: _localize(v, lang) if isinstance(v, str) and START in v else v for k, v in values.items()}
    try:
        return form.format(**shown)
    except (KeyError, IndexError, ValueError):  # a translation that names a value the message lacks
        return payload[0].format(**shown) if lang != ENGLISH else form


def _listed(items: list[str], lang: str) -> str:
    from babel.lists import format_list

    if lang == PSEUDO:  # the pattern's words marked, not the items
        return _pseudo(format_list([f"{{{n}}}" for n in range(len(items))], locale=ENGLISH)).format(*items)
    return format_list(items, locale=lang)


def tr(locale: object, message: str, /, **values: Any) -> str:
    """``T(message, **values)`` written out in ``locale``'s language at once: a renderer's own words."""
    return localize(T(message, **values), locale)


def trp(locale: object, context: str, message: str, /, **values: Any) -> str:
    """``P(context, message, **values)`` written out in ``locale``'s language at once."""
    return localize(P(context, message, **values), locale)


def ntr(locale: object, singular: str, plural: str, n: int, /, **values: Any) -> str:
    """``N(singular, plural, n, **values)`` written out in ``locale``'s language at once."""
    return localize(N(singular, plural, n, **values), locale)


def localize_tree(value: Any, locale: object = ENGLISH) -> Any:
    """A JSON value (a view) with every marked message in it localized: what a renderer receives. Only the
    containers that hold a marked message are copied; the rest is shared with ``value`` (read-only)."""
    return _tree(value, language(locale))


def _tree(value: Any, lang: str) -> Any:
    if isinstance(value, str):
        return _localize(value, lang) if START in value else value
    if isinstance(value, dict):
        changed = {k: new for k, v in value.items() if (new := _tree(v, lang)) is not v}
        return {**value, **changed} if changed else value
    if isinstance(value, list):
        items = [_tree(v, lang) for v in value]
        return items if any(new is not old for new, old in zip(items, value, strict=True)) else value
    return value
