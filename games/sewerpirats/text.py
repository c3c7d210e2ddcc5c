"""The rules summary shown by the bot's rules command."""

from __future__ import annotations

from games.i18n import T

RULES = T(
    """\
**Sewer Pirats** — 2–5 players. Crew three pirat ships (cat, bird, fish) and seize the best flotsam.

**Ships.** Crew spaces 1, 2, 3 from stern to bow, then the captain's space C. Two face-up flotsam \
groups (3 booty + 1 bonus) float before each bow.

**Your turn: exactly one action.** If you have a captain, you must Set Sail with that ship.
- **Draw two cards**, one at a time, from the deck or the face-up row (refilled after both). Then \
discard down to 6.
- **Move a figure** onto a ship or along it: one card of the ship's symbol per empty space; occupied \
spaces are passed over for free. End on an empty crew space (never past 3, never onto C).
- **Become captain** (C empty, every crew space between the figure and C occupied): 3 cards from the \
play area, 1 card from a crew space. One captain per player.
- **Set Sail**: the captain takes the bonus and a booty token, then each figure from the bow down \
takes one while booty remains. Figures that took something return to their owner's play area; the \
others move one space toward the bow. Untaken booty leaves the game. The next group moves up and a \
new one is laid while the pools last.

**Abilities** (not in the landlubber variant)
- **Rats** may take two booty tokens when seizing (a rat captain: the bonus and two); `stop` after one.
- **Cockroaches** pay one card fewer to move or become captain (a 1-card move is free).
- **Toads** may stay aboard instead of seizing and advance to the next free space (passing over \
occupied ones), even onto C if it is free and their owner has no captain; a toad stays put only if \
it cannot advance. A toad captain cannot.
- **Snails**: after a snail's move you may reveal the top card; if it matches the ship the snail \
steps one more space (swapping with a figure there, even onto C).
- **Weasels**: after a move, captaincy or sailing with a weasel, you may take one more of those \
actions with the same weasel (also in the final sailings).
- **Raccoons** passing over figures when moving or becoming captain steal one random card from each \
other player whose figure they passed.

**End.** When a ship sails and no flotsam is left before it, every other ship with a captain sails \
one last time (cat, bird, fish order), then score.

**Scoring** (tokens are secret; others see only how many you hold)
- Fries, noodles, burgers: printed value, +5 / +4 / +3 per token for each ketchup / chili / milkshake.
- Teddy bears and soft dolls need parrots: one parrot counts your better kind, two count both; each \
parrot is also 1 point.
- Tin cans need can openers: one opener opens one can (the best first).
- Bonus tokens alone are worth nothing.
Ties: add the numbers of the spaces your figures occupy (C counts 4); still tied, share the win.

**Variants** (`variant` option)
- **standard**: 4 random tribes; everyone gets one figure of each.
- **landlubber**: in turn order from the first player, each picks a different tribe and gets 4 of \
it; no abilities.
- **auction**: hire 4 figures at the bar with 8 Talisman cards. The front stool's minimum bid is 0, \
the next 1, and so on; opening on any other stool puts a card under the front figure (its hirer \
takes it). Others raise or pass in turn; you can't bid more cards than you hold. The player with \
the last figure starts, and unspent cards are your starting hand.

**Commands**: `draw deck`, `draw row 1`, `move 0ra1 fish 2`, `captain 0ra1 cat`, `sail cat`, \
`seize 1`, `stop`, `stay`, `snail reveal`, `done`, `tribe rats`, `hire 1`, `bid 2`, `pass`, `discard fish`.
"""
)
