"""The rules summary shown by the bot's rules command."""

from __future__ import annotations

from games.i18n import T

RULES = T("""\
**Sewer Rat** — 2–6 players, one rat each, free-for-all or in teams: of 2 with 4 or 6 players, of 3 \
with 6 (seats alternate between teams; each team has its colour). The last rat (or team) able to move \
wins.

**The board.** An 8×8 grid of plumbing tiles, rows 1–8 top to bottom, columns 1–8 left to right; a \
square is written `r3c4`. Yellow toilets Y1–Y8 sit at both ends of each row, green G1–G8 at both ends of \
each column. The bot lays a random valid plumbing; rats start on white dots (the circle-capped dead ends).

**Your turn.**
1. **Roll** the yellow and green d8 (y, g): black traps fall on (row y, column g) and (row g, column y); \
doubles put one red trap on (y, y). Black on black makes red. Black on red: you put it anywhere with no \
red trap and no rat. Doubles on black: it turns red and you put an extra black trap. Doubles on red: you \
put one red or two black traps. A trap falling on a rat: its owner moves it in a straight line to the \
nearest square it can stop on (their choice of direction), or it is out.
2. **Move** your rat (you must): a straight line along connected pipes, passing rats but not stopping on \
one, never onto or across a trap (`move n 3`). From an edge square you may instead dive into the toilet \
your pipe opens into and pop out on the first square at the other end of that row or column \
(`toilet w`), if neither end square has a trap and the exit has no rat.
3. **Then you may** push one black trap one square (`push r3c4 e`; onto a black trap it makes red; never \
onto a red trap or a rat, never off the board), **or** change up to 4 tiles without rats or traps \
(`tile r3c4 ne`: the new tile by its openings; a new shape comes from the supply, the old tile goes \
back), then `confirm` or `cancel`. Only the whole change is checked: every opening must meet an opening \
or its toilet. Or `pass`.

**Out.** A rat with no legal move when its move begins, or at the end of its own turn, is out. Rats that \
fall in the same roll fall at once: if they were the last, they share the victory. After 300 turns the \
rats still in share it.
""")
