"""The message catalogs: what Babel extracts from the code, and what each language's ``.po`` files hold.

``python -m games.catalogs`` extracts every marked message (:mod:`games.i18n`) from the code, domain by
domain, into ``data/locale/<language>/LC_MESSAGES/<domain>.po`` for every language, keeping the
translations already there (a message no longer in the code is dropped; a new one arrives untranslated).
``python -m games.catalogs --check`` changes nothing and lists what a language still lacks: the test suite
runs the same check, so a message without its German is a failing test.

A domain is the code of one game (its engine, renderer and cog) or of the platform, so the catalog of a
game is written and reviewed beside the game.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from io import BytesIO
from pathlib import Path

from games.i18n import ENGLISH, LANGUAGES, LOCALE_DIR

ROOT = Path(__file__).resolve().parent.parent
KEYWORDS = {
    "T": (1,),
    "N": (1, 2),
    "P": ((1, "c"), 2),
    "tr": (2,),
    "ntr": (2, 3),
    "trp": ((2, "c"), 3),
    "L": (1,),
    "LP": ((1, "c"), 2),
}
"""The functions whose literal arguments are message ids: :func:`games.i18n.T`, ``N``, ``P`` (with its
context), ``tr``, ``ntr``, ``trp``, and ``L``, ``LP`` (a command's description or a choice's name, which
discord.py's translator looks up)."""
PLATFORM = ("bot.py", "games", "tables", "cogs", "rendering")
"""The platform's code: everything in it that no game's domain claims."""
STAMP = datetime(2026, 11, 25, tzinfo=UTC)
_PLACEHOLDER = re.compile(r"\{(\w*)[^}]*\}")
_GENERATED_BY = re.compile(rb"Generated-By: Babel [^\\]*\\n")


def _code_of(module: str) -> Path:
    """Where a game's engine or renderer module is: its package under ``games/`` or ``rendering/`` (all of
    ``games/piratz/``), or the module's own file."""
    parts = module.split(".")
    if parts[0] in ("games", "rendering") and len(parts) > 1:
        package = ROOT / parts[0] / parts[1]
        return package if package.is_dir() else package.with_suffix(".py")
    return ROOT.joinpath(*parts).with_suffix(".py")


def domains() -> dict[str, tuple[Path, ...]]:
    """Each domain's code (files and folders): one per registered game (its engine and its renderer, as its
    registry entry names them), then the platform's."""
    from games.registry import GAMES

    games = {kind: (_code_of(type(s.game).__module__), _code_of(s.renderer)) for kind, s in GAMES.items()}
    return {**games, "platform": tuple(ROOT / p for p in PLATFORM)}


def sources(domain: str) -> Iterator[Path]:
    """The Python files of ``domain``, in a stable order."""
    known = domains()
    claimed = {path for kind, paths in known.items() if kind != "platform" for path in paths}
    for path in known[domain]:
        files = [path] if path.is_file() else sorted(path.rglob("*.py")) if path.is_dir() else []
        for file in files:
            if domain == "platform" and any(file == c or c in file.parents for c in claimed):
                continue
            if file.name != "catalogs.py":
                yield file


def extract(domain: str):  # -> babel Catalog
    """Every message marked in ``domain``'s code, as a Babel template catalog."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract

    template = Catalog(project="pirate-tables", fuzzy=False)
    for file in sources(domain):
        with file.open("rb") as handle:
            for lineno, message, comments, context in extract("python", handle, keywords=KEYWORDS):
                where = (str(file.relative_to(ROOT)), lineno)
                template.add(message, locations=[where], auto_comments=comments, context=context)
    return template


def _path(lang: str, domain: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"


def update(only: Sequence[str] | None = None) -> list[str]:
    """Write every language's catalogs of the domains (``only`` these, if given) from the code; returns the
    files written."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po, write_po

    written = []
    for domain in only or domains():
        template = extract(domain)
        for lang in LANGUAGES:
            if lang == ENGLISH:
                continue
            path = _path(lang, domain)
            if path.exists():
                with path.open("rb") as handle:
                    catalog = read_po(handle, locale=lang, domain=domain)
            else:
                catalog = Catalog(locale=lang, domain=domain, project="pirate-tables", fuzzy=False)
            catalog.update(template, no_fuzzy_matching=True)
            catalog.creation_date = catalog.revision_date = STAMP  # no churn in the files' headers
            catalog.obsolete.clear()
            path.parent.mkdir(parents=True, exist_ok=True)
            buffer = BytesIO()
            write_po(buffer, catalog, width=120, sort_output=True, include_lineno=False, ignore_obsolete=True)
            # Babel writes its own version into the header: left out, so that another Babel writes the same file.
            path.write_bytes(_GENERATED_BY.sub(lambda _: b"Generated-By: Babel\\n", buffer.getvalue()))
            written.append(str(path.relative_to(ROOT)))
    return written


@dataclass(frozen=True, slots=True)
class Gap:
    """Something a language's catalog lacks or gets wrong."""

    lang: str
    domain: str
    message: str
    problem: str

    def __str__(self) -> str:
        return f"{self.lang}/{self.domain}: {self.problem}: {self.message!r}"


def gaps(only: Sequence[str] | None = None) -> list[Gap]:
    """What each language lacks: messages in the code it does not translate (or translates with other
    placeholders than the English), and catalogs out of step with the code."""
    from babel.messages.pofile import read_po

    found = []
    for domain in only or domains():
        template = extract(domain)
        wanted = {(m.id, m.context) for m in template if m.id}
        for lang in LANGUAGES:
            if lang == ENGLISH:
                continue
            path = _path(lang, domain)
            if not path.exists():
                found += [Gap(lang, domain, "", "no catalog (run python -m games.catalogs)")] if wanted else []
                continue
            with path.open("rb") as handle:
                catalog = read_po(handle, locale=lang, domain=domain)
            have = {(m.id, m.context): m for m in catalog if m.id}
            for key in sorted(wanted, key=str):
                entry = have.get(key)
                ids = key[0] if isinstance(key[0], tuple) else (key[0],)
                shown = f"{key[1]}|{ids[0]}" if key[1] else ids[0]
                strings = entry.string if entry is not None else None
                forms = strings if isinstance(strings, tuple | list) else (strings,)
                if entry is None:
                    found.append(Gap(lang, domain, shown, "not in the catalog (run python -m games.catalogs)"))
                elif entry.fuzzy or not all(forms):
                    found.append(Gap(lang, domain, shown, "not translated"))
                elif not all(_fits(form, ids) for form in forms):
                    found.append(Gap(lang, domain, shown, "placeholders differ from the English"))
            for key in sorted(set(have) - wanted, key=str):
                ids = key[0] if isinstance(key[0], tuple) else (key[0],)
                shown = f"{key[1]}|{ids[0]}" if key[1] else ids[0]
                found.append(Gap(lang, domain, shown, "no longer in the code (run python -m games.catalogs)"))
    return found


def conflicts() -> list[str]:
    """Messages two domains translate differently: the catalogs of a language are merged into one (a marked
    message does not say which domain wrote it), so one of the two would be shown in both."""
    from babel.messages.pofile import read_po

    found = []
    for lang in LANGUAGES:
        seen: dict[object, tuple[str, object]] = {}
        for path in sorted((LOCALE_DIR / lang / "LC_MESSAGES").glob("*.po")) if lang != ENGLISH else ():
            with path.open("rb") as handle:
                for message in read_po(handle, locale=lang):
                    forms = message.string if isinstance(message.string, tuple | list) else (message.string,)
                    if not message.id or not all(forms):
                        continue
                    first = seen.setdefault((message.id, message.context), (path.stem, message.string))
                    if first[1] != message.string:
                        found.append(
                            f"{lang}: {message.id!r} is {first[1]!r} in {first[0]}, {message.string!r} in {path.stem}"
                        )
    return found


GLOSSARY = ("draw pile",)
"""Terms a language gives one name wherever they stand (the games' titles are terms too): a message whose
English names the term names it as the language's translation of the term alone does."""


def terms() -> list[str]:
    """Messages that name a term (:data:`GLOSSARY`, a game's title) otherwise than the language's translation
    of the term alone: "Sewer Rat" is "Kanalratte" in the command's description as on the board."""
    from babel.messages.pofile import read_po

    from games.i18n import gettext
    from games.registry import GAMES

    found = []
    words = [*(json.loads(spec.title[1:-1])[0] for spec in GAMES.values()), *GLOSSARY]
    for lang in LANGUAGES:
        if lang == ENGLISH:
            continue
        named = {term: gettext(term, lang) for term in words}
        for path in sorted((LOCALE_DIR / lang / "LC_MESSAGES").glob("*.po")):
            with path.open("rb") as handle:
                for message in read_po(handle, locale=lang):
                    ids = message.id if isinstance(message.id, tuple) else (message.id,)
                    forms = message.string if isinstance(message.string, tuple | list) else (message.string,)
                    for term, name in named.items():
                        uses = ids[0] != term and term.lower() in ids[0].lower() and all(forms)
                        if uses and not all(name.lower() in form.lower() for form in forms):
                            found.append(f"{lang}/{path.stem}: {ids[0]!r} names {term!r} otherwise than {name!r}")
    return found


def _fits(form: str, ids: tuple[str, ...]) -> bool:
    """A translation names only values the English has, and every one of them but the count ``n`` (which a
    singular may write out as a word)."""
    english = set().union(*map(_placeholders, ids))
    return english - {"n"} <= _placeholders(form) <= english


def _placeholders(text: str) -> set[str]:
    return set(_PLACEHOLDER.findall(text))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.catalogs", description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="change nothing; list what each language lacks")
    parser.add_argument("--domain", action="append", choices=domains(), help="only this domain (repeatable)")
    args = parser.parse_args(argv)
    chosen = args.domain or tuple(domains())
    if not args.check:
        for path in update(chosen):
            print(f"wrote {path}")
    missing = [*map(str, gaps(chosen)), *conflicts(), *terms()]
    for gap in missing:
        print(gap)
    print(f"{len(missing)} gaps")
    return 1 if args.check and missing else 0


if __name__ == "__main__":
    sys.exit(main())
