"""Drawing a few boards of every game the bot hosts before players arrive, so the renderers' per-layout caches
(fonts, icons, pre-drawn layers) are full when the first real board is needed. The games come from the caller
(the bot passes its registry's): rendering knows no list of games."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from games.core import Game, Player
from games.i18n import ENGLISH, tr
from games.simulate import self_play
from rendering import cache

Render = Callable[[Mapping[str, Any], Sequence[str], str], bytes]


class Drawn(Protocol):
    """What the warm-up needs of a game: how to play it, and its renderers (a ``GameSpec``)."""

    @property
    def game(self) -> Game: ...
    @property
    def player(self) -> Player: ...
    @property
    def render_board(self) -> Render: ...
    @property
    def render_final(self) -> Render: ...
    @property
    def render_hand(self) -> Render | None: ...

    def hand_view(self, view: Mapping[str, Any]) -> Mapping[str, Any]: ...


SAMPLES = (1, 40)
"""Steps of each warm-up game whose board (and a hand) are drawn, besides the final position: enough to
fill every layout cache of a seat count without drawing the whole game."""
WARM_SHARE = 0.4
"""Share of the render cache's budget the warm-up may fill."""


def warm_renderers(games: Sequence[Drawn], share: float = WARM_SHARE, locale: str = ENGLISH) -> int:
    """Render boards, hands and final scores in ``locale`` from one short seeded AI game per game of ``games``
    and seat count, the smallest tables of every game first, until the warmed images fill ``share`` of the render
    cache's budget (the rest is left for the games actually played). Blocking: run it in a thread. Returns
    the number of images drawn. A table is drawn only if the cache, grown by as much as the largest table
    so far grew it, stays within that share: only a table larger than every one before it (up to ~30 MB)
    can take it past."""
    drawn = 0
    names = [tr(locale, "Player {n}", n=i + 1) for i in range(8)]
    # The smallest tables first, by game name.
    tables = sorted(
        (players - spec.game.min_players, spec.game.kind, i, players)
        for i, spec in enumerate(games)
        for players in _sizes(spec)
    )
    largest = 0
    for _, _, i, players in tables:
        held = cache.stats().bytes
        if held + largest > share * cache.stats().budget:
            break
        spec = games[i]
        game = spec.game
        state = None
        for steps, state in enumerate(self_play(game, spec.player, players, f"warm-{players}")):
            if steps in SAMPLES:
                seat_names = names[: game.seats_of(state)]
                spec.render_board(game.view(state, None), seat_names, locale)
                for seat in game.to_act(state)[:1]:
                    if spec.render_hand is not None:
                        spec.render_hand(spec.hand_view(game.view(state, seat)), seat_names, locale)
                drawn += 1
        assert state is not None
        spec.render_final(game.view(state, None), names[: game.seats_of(state)], locale)
        drawn += 1
        largest = max(largest, cache.stats().bytes - held)
    return drawn


def _sizes(spec: Drawn) -> range:
    return range(spec.game.min_players, spec.game.max_players + 1)
