"""Drawing a few boards of every registered game before players arrive, so the renderers' per-layout
caches (fonts, icons, pre-drawn layers) are full when the first real board is needed."""

from __future__ import annotations

from games.i18n import ENGLISH, tr
from games.registry import GAMES, GameSpec
from games.simulate import self_play
from rendering import cache

SAMPLES = (1, 40)
"""Steps of each warm-up game whose board (and a hand) are drawn, besides the final position: enough to
fill every layout cache of a seat count without drawing the whole game."""
WARM_SHARE = 0.4
"""Share of the render cache's budget the warm-up may fill."""


def warm_renderers(share: float = WARM_SHARE, locale: str = ENGLISH) -> int:
    """Render boards, hands and final scores in ``locale`` from one short seeded AI game per game and seat
    count, the smallest tables of every game first, until the warmed images fill ``share`` of the render
    cache's budget (the rest is left for the games actually played). Blocking: run it in a thread. Returns
    the number of images drawn. A table is drawn only if the cache, grown by as much as the largest table
    so far grew it, stays within that share: only a table larger than every one before it (up to ~30 MB)
    can take it past."""
    drawn = 0
    names = [tr(locale, "Player {n}", n=i + 1) for i in range(8)]
    tables = sorted(
        ((players - spec.game.min_players, kind, players) for kind, spec in GAMES.items() for players in _sizes(spec)),
    )
    largest = 0
    for _, kind, players in tables:
        held = cache.stats().bytes
        if held + largest > share * cache.stats().budget:
            break
        spec = GAMES[kind]
        game = spec.game
        state = None
        for steps, state in enumerate(self_play(game, spec.player, players, f"warm-{players}")):
            if steps in SAMPLES:
                seat_names = names[: state["seats"]]
                spec.render_board(game.view(state, None), seat_names, locale)
                for seat in game.to_act(state)[:1]:
                    if spec.render_hand is not None:
                        spec.render_hand(spec.hand_view(game.view(state, seat)), seat_names, locale)
                drawn += 1
        assert state is not None
        spec.render_final(game.view(state, None), names[: state["seats"]], locale)
        drawn += 1
        largest = max(largest, cache.stats().bytes - held)
    return drawn


def _sizes(spec: GameSpec) -> range:
    return range(spec.game.min_players, spec.game.max_players + 1)
