"""Turn an engine's legal choices into button and picker menus (pure logic, no Discord).

A choice has a label path such as ``("Pass", "Coins — take 3 cards")``. The board message gets one
button per distinct first label; a button whose group holds several choices opens an ephemeral picker
that walks the rest of the path, one level per step. A position in that walk is a list of indexes
(``[1, 0, 2]``), which is stable for a given board version because engines list their legal actions in
a stable order — so the indexes can live in custom ids and survive a restart.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.core import Choice

MAX_LABEL = 80
"""Discord's limit for button labels and select option labels."""


def clip(text: str, limit: int = MAX_LABEL) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def distinct(labels: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(labels))


def top_labels(choice_lists: Sequence[Sequence[Choice]]) -> list[str]:
    """The first labels of every seat that must act, in order: one board button each."""
    return distinct([c.path[0] for choices in choice_lists for c in choices])


@dataclass(frozen=True, slots=True)
class Option:
    label: str
    index: int
    leaf: Choice | None
    """Set when picking this option completes an action."""


@dataclass(frozen=True, slots=True)
class Menu:
    """A step of the walk: the labels chosen so far and what can be picked next."""

    trail: tuple[str, ...]
    path: tuple[int, ...]
    options: tuple[Option, ...]


def _group(choices: Sequence[Choice], depth: int) -> list[tuple[str, list[Choice]]]:
    groups: dict[str, list[Choice]] = {}
    for c in choices:
        groups.setdefault(c.path[depth] if depth < len(c.path) else "", []).append(c)
    return list(groups.items())


def _option_label(name: str, members: Sequence[Choice], depth: int) -> str:
    if len(members) == 1:
        # A complete action: show the rest of its labels; an action whose labels ended at the level
        # above (a prefix of its siblings') is shown by its own last label.
        rest = members[0].path[depth:] or members[0].path[-1:]
        return clip(" → ".join(rest))
    return clip(f"{name} …")


def walk(top: Sequence[str], choices: Sequence[Choice], path: Sequence[int]) -> Choice | Menu | None:
    """Follow ``path`` through ``choices``: the first index picks among ``top`` (the board's buttons),
    later ones among the groups of the next label. Returns the completed choice, the next menu, or
    ``None`` if the path no longer matches (the board changed)."""
    if not path or not 0 <= path[0] < len(top):
        return None
    label = top[path[0]]
    candidates = [c for c in choices if c.path[0] == label]
    trail = [label]
    depth = 1
    consumed = 1
    while True:
        if not candidates:
            return None
        if len(candidates) == 1:
            # A single choice left: picking the group picks it (its remaining labels are shown on the way).
            if consumed == len(path):
                return candidates[0]
            return None
        groups = _group(candidates, depth)
        if len(groups) == 1:
            # Every candidate shares this label: skip the level instead of asking a one-option question.
            trail.append(groups[0][0])
            depth += 1
            if depth > max(len(c.path) for c in candidates):
                return None
            continue
        if consumed == len(path):
            options = tuple(
                Option(_option_label(name, members, depth), i, members[0] if len(members) == 1 else None)
                for i, (name, members) in enumerate(groups)
            )
            return Menu(tuple(t for t in trail if t), tuple(path), options)
        pick = path[consumed]
        if not 0 <= pick < len(groups):
            return None
        name, candidates = groups[pick]
        trail.append(name)
        depth += 1
        consumed += 1


def button_label(top: Sequence[str], choices: Sequence[Choice], index: int) -> str:
    """A board button's label: the group's name, or the whole label when the group is one action."""
    group = [c for c in choices if c.path[0] == top[index]]
    if len(group) == 1:
        return clip(group[0].label)
    return clip(f"{top[index]} …")


def path_to(top: Sequence[str], choices: Sequence[Choice], target: Choice) -> tuple[int, ...]:
    """The menu path that leads to ``target`` (what a player clicks through): the inverse of
    :func:`walk`, used by the offline demo, the end-to-end tests and the benchmark."""
    path = [top.index(target.path[0])]
    while True:
        node = walk(top, choices, path)
        if node == target:
            return tuple(path)
        if not isinstance(node, Menu):
            raise ValueError(f"{target.label!r} cannot be reached through the menus")
        for option in node.options:
            if option.leaf == target or _leads_to(top, choices, [*path, option.index], target):
                path.append(option.index)
                break
        else:
            raise ValueError(f"{target.label!r} is not offered in the menu {node.trail}")


def _leads_to(top: Sequence[str], choices: Sequence[Choice], path: list[int], target: Choice) -> bool:
    node = walk(top, choices, path)
    if node is None or isinstance(node, Choice):
        return node == target
    return any(
        option.leaf == target or _leads_to(top, choices, [*path, option.index], target) for option in node.options
    )
