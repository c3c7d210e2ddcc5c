"""The rules summary shown by ``/searats rules``."""

from __future__ import annotations

from games.i18n import T

RULES = T(
    """\
**Sea Rats!** — 2–6 players, six ships. The last pirate with a ship afloat wins.

**Ocean.** 11×11 dots, A–K × 1–11. Ships sail and fire along rows, columns and diagonals; distance is \
the number of steps. The X (F6) holds the Treasure. Ports 1–6: C1, I1, K6, I11, C11, A6.

**Fleets.** Turn order Black, Red, Blue, Green, Purple, Yellow. 2 players command 3 ships each, 3 \
players 2 each, 4–6 players 1 each, spread so turns alternate. The first ship to move is drawn at \
random. Each ship starts on its port with 6 cannonballs and 6 supplies; at most 12 items aboard, never \
more than 12 of a kind.

**A ship's turn**
1. **Roll** a die (rolled for you as the turn begins).
2. **Chart** (optional): the port of the number rolled becomes your course — never the port where you \
last stocked up. Kept until you chart another.
3. **Sail** 0 to the roll's dots in one of 8 directions (`sail ne 3`, `sail ne 3 chart 4`, `anchor`); \
never onto or over a ship, never off the map.
4. **Make port** on your charted port: roll a die and divide it between cannonballs and supplies \
(`stock <cannonballs>`), within 12 items. Never twice in a row at the same port; `anchor` on a port \
makes port only if it is charted and not your last port.
5. **Battle** (optional, each ship once): `aim <ship>` at a ship of another fleet within 5 dots in a \
line, then fire 1–3 cannonballs; a die per ball hits when it is **greater than the distance**. Each hit \
costs a supply. The defender may fire back up to as many balls as were fired at it.
6. **Trade** (optional): `trade <ship>` within 5 dots in a line (your own ships too), `give`, `ask` (or \
`abandon`); both must agree. No exchange leaves a ship with more than 12 items or 12 of a kind.

**Sinking and capture.** A ship that must lose more supplies than it has is hit beyond repair: its \
firer may **capture** it by paying the missing supplies (it joins the fleet, keeps its turn, and the \
captor divides both ships' cargo and the Treasure), or it **sinks** with its cargo. No ship left: you \
are out.

**Bribes and blackmail.** Before the attacker fires, the defender may `offer` a bribe (or `brace`), \
the attacker may `demand` cargo; offers go back and forth (three each) until one is accepted, the \
attacker fires or the defender braces. Add `chest` to offer or demand the Treasure. An accepted deal \
cancels the battle and the defender may flee at once (a roll and a sail). Unanswered offers lapse.

**The Treasure.** End a sail on the X while it is there to take it. Aboard: **Safe Haven** (make port \
at any port you sail to, your last one too). Turn it in (back to the X) for **More Booty** (`booty`: \
another die at port, up to 12 cannonballs and 12 supplies) or **Stronger Wind** (`wind`: two dice, \
chart by either). As the **Most Powerful Bribe** it must be accepted and passes to the attacker. \
In a battle it goes to the ship with more hits; on a tie to the \
ship not carrying it. It returns to the X when its ship sinks.

**The end.** Last player afloat wins; after 200 rounds, the most ships, then the most cargo.
"""
)
