"""Turn an engine's legal choices into button and picker menus (pure logic, no Discord).

A choice has a label path such as ``("Pass", "Coins — take 3 cards")``. The board message gets one
button per distinct first label; a button whose group holds several choices opens an ephemeral picker
that walks the rest of the path, one level per step. The first label is public (everyone sees the
board); the labels of a secret choice below it appear only in the chooser's picker.

A position in that walk is the first label's :func:`tag` and a list of indexes below it (``("3f0a1c",
(1, 0))``). The tag names the board button by its label, not its place, so a button stays right when
another seat's decision adds or removes buttons beside it; the indexes are stable while the clicker's own
decision is (engines list their legal actions in a stable order). Both live in custom ids and survive
a restart.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from games.core import Choice
from games.i18n import T, is_marked, localize

LABELS = {
    "hand": T("My hand"),
    "follow": T("Follow"),
    "rematch": T("Rematch"),
    "take": T("Accept"),
    "refuse": T("Decline"),
    "accept": T("Accept"),
    "decline": T("Decline"),
    "join": T("Join"),
    "leave": T("Leave"),
    "start": T("Start"),
    "cancel": T("Cancel"),
}
"""The words of the buttons whose component names no label of its own: by type (``hand``, ``follow``,
``rematch``), or by operation (a seat offer's, a lobby's)."""
CHOOSE = T("Choose…")
"""A select menu's placeholder."""
MAX_LABEL = 80
"""Discord's limit for button labels and select option labels."""


def clip(text: str, limit: int = MAX_LABEL) -> str:
    """``text`` cut to ``limit`` characters with "…". A marked text is left whole: it is cut where it is
    written out in its reader's language (a cut through a marked message would break it)."""
    return text if len(text) <= limit or is_marked(text) else text[: limit - 1] + "…"


def distinct(labels: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(labels))


def top_labels(choice_lists: Sequence[Sequence[Choice]]) -> list[str]:
    """The first labels of every seat that must act, in order: one board button each."""
    return distinct([c.path[0] for choices in choice_lists for c in choices])


@dataclass(frozen=True, slots=True)
class Entry:
    """One thing to pick in a menu (a picker button or select option)."""

    label: str
    index: int
    leaf: Choice | None
    """Set when picking this entry completes an action."""


@dataclass(frozen=True, slots=True)
class Menu:
    """A step of the walk: the labels chosen so far and what can be picked next."""

    trail: tuple[str, ...]
    tag: str
    path: tuple[int, ...]
    entries: tuple[Entry, ...]


@lru_cache(maxsize=8192)
def tag(label: str) -> str:
    """A short, stable name for a first label (6 hex digits), used in custom ids: of its English, so that it
    is the same in every language and the buttons of a board posted before its words were marked still work."""
    return hashlib.blake2s(localize(label).encode(), digest_size=3).hexdigest()


def _group(choices: Sequence[Choice], depth: int) -> list[tuple[str, list[Choice]]]:
    groups: dict[str, list[Choice]] = {}
    for c in choices:
        groups.setdefault(c.path[depth] if depth < len(c.path) else "", []).append(c)
    return list(groups.items())


def _entry_label(name: str, members: Sequence[Choice], depth: int) -> str:
    if len(members) == 1:
        # A complete action: show the rest of its labels; an action whose labels ended at the level
        # above (a prefix of its siblings') is shown by its own last label.
        rest = members[0].path[depth:] or members[0].path[-1:]
        return clip(" → ".join(rest))
    return clip(f"{name} …")


def walk(choices: Sequence[Choice], first: str, path: Sequence[int]) -> Choice | Menu | None:
    """Follow a click through ``choices`` (the clicker's own): ``first`` is the tag of the board button's
    label, ``path`` the indexes picked below it. Returns the completed choice, the next menu, or ``None``
    if the click no longer matches (the decision changed)."""
    candidates = [c for c in choices if tag(c.path[0]) == first]
    if not candidates:
        return None
    label = candidates[0].path[0]
    trail = [label]
    depth = 1
    consumed = 0
    while True:
        if not candidates:
            return None
        if len(candidates) == 1:
            only = candidates[0]
            if only.secret and consumed == 0:
                # A secret choice is confirmed in the chooser's own picker, never played from the public
                # board: its labels below the first are private.
                if not path:
                    rest = only.path[1:] or only.path
                    return Menu((label,), first, (), (Entry(clip(" → ".join(rest)), 0, only),))
                return only if tuple(path) == (0,) else None
            # A single choice left: picking the group picks it (its remaining labels are shown on the way).
            return only if consumed == len(path) else None
        groups = _group(candidates, depth)
        if len(groups) == 1:
            # Every candidate shares this label: skip the level instead of asking a one-option question.
            trail.append(groups[0][0])
            depth += 1
            if depth > max(len(c.path) for c in candidates):
                return None
            continue
        if consumed == len(path):
            entries = tuple(
                Entry(_entry_label(name, members, depth), i, members[0] if len(members) == 1 else None)
                for i, (name, members) in enumerate(groups)
            )
            return Menu(tuple(t for t in trail if t), first, tuple(path), entries)
        pick = path[consumed]
        if not 0 <= pick < len(groups):
            return None
        name, candidates = groups[pick]
        trail.append(name)
        depth += 1
        consumed += 1


def button_label(label: str, choices: Sequence[Choice]) -> str:
    """A board button's label: the group's name, or the whole label when the group is one public action.
    ``choices`` are those of every seat that must act."""
    group = [c for c in choices if c.path[0] == label]
    if len(group) == 1 and not group[0].secret:
        return clip(group[0].label)
    return clip(f"{label} …")


def path_to(choices: Sequence[Choice], target: Choice) -> tuple[str, tuple[int, ...]]:
    """The clicks that lead to ``target`` (the board button's tag, then the picks below it): the inverse
    of :func:`walk`, used by the offline demo, the end-to-end tests and the benchmark."""
    first = tag(target.path[0])
    path: list[int] = []
    while True:
        node = walk(choices, first, path)
        if node == target:
            return first, tuple(path)
        if not isinstance(node, Menu):
            raise ValueError(f"{target.label!r} cannot be reached through the menus")
        for entry in node.entries:
            if entry.leaf == target or _leads_to(choices, first, [*path, entry.index], target):
                path.append(entry.index)
                break
        else:
            raise ValueError(f"{target.label!r} is not offered in the menu {node.trail}")


def _leads_to(choices: Sequence[Choice], first: str, path: list[int], target: Choice) -> bool:
    node = walk(choices, first, path)
    if node is None or isinstance(node, Choice):
        return node == target
    return any(
        entry.leaf == target or _leads_to(choices, first, [*path, entry.index], target) for entry in node.entries
    )


# ---------------------------------------------------------------------------------------------- components
# A message's persistent components, as data: the cogs make Discord's buttons and selects of them
# (``cogs.components``). Every id they need to act later is here, so they work after a restart.

ACTION_BUTTONS = 20
"""Board buttons for actions (4 rows of 5); the fifth row holds "My hand" and "Follow"."""
PICKER_BUTTONS = 15
"""Picker options shown as buttons; more become select menus."""


def play_button(game_id: int, version: int, first: str, path: Sequence[int], label: str, row: int) -> dict:
    """A board button (``path`` empty: the first label ``first``) or a picker's option button."""
    return {
        "type": "play",
        "game": game_id,
        "version": version,
        "tag": first,
        "path": list(path),
        "label": label,
        "row": row,
    }


def board_components(
    game_id: int, version: int, choices: Sequence[Choice], labels: Sequence[str], *, active: bool
) -> list[dict]:
    """The board's components: a button per first label (``labels``: each as shown, names filled in), or
    select menus when there are more than fit; then **My hand** and, while the game is on, **Follow**."""
    firsts = top_labels([choices])
    out: list[dict] = []
    if len(firsts) <= ACTION_BUTTONS:
        for i, (label, text) in enumerate(zip(firsts, labels, strict=True)):
            out.append(play_button(game_id, version, tag(label), (), text, i // 5))
    else:
        pairs = [[tag(label), text] for label, text in zip(firsts, labels, strict=True)]
        for row, start in enumerate(range(0, min(len(pairs), 100), 25)):
            out.append(
                {
                    "type": "board_select",
                    "game": game_id,
                    "version": version,
                    "options": pairs[start : start + 25],
                    "start": start,
                    "row": row,
                }
            )
    out.append({"type": "hand", "game": game_id, "row": 4})
    if active:
        out.append({"type": "follow", "game": game_id, "row": 4})
    return out


def picker_components(game_id: int, version: int, menu: Menu, labels: Sequence[str]) -> list[dict]:
    """One picker level (``labels``: its entries as shown): a button per entry, or select menus of at most
    25 entries in up to 5 rows."""
    if len(labels) <= PICKER_BUTTONS:
        return [
            play_button(game_id, version, menu.tag, (*menu.path, i), label, i // 5) for i, label in enumerate(labels)
        ]
    return [
        {
            "type": "play_select",
            "game": game_id,
            "version": version,
            "tag": menu.tag,
            "path": list(menu.path),
            "labels": list(labels[start : start + 25]),
            "start": start,
            "row": row,
        }
        for row, start in enumerate(range(0, min(len(labels), 125), 25))
    ]
