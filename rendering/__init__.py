"""Pure renderers: a game's view (a JSON dict) in, PNG bytes out. One module per game plus the shared theme.

Renderers run in worker threads (:mod:`rendering.pool`): they keep no mutable global state, only caches
of immutable things (fonts, icons, pre-drawn layers) that are never drawn on after creation. Images are
cached in :mod:`rendering.cache`, one least-recently-used cache with a byte budget.
"""
