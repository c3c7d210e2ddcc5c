"""The rules summary shown by ``/pirates rules``."""

from games.i18n import T

RULES = T(
    """\
**Pirates Card Game** — free your captain by completing **three missions**. 1–4 players with one poker \
deck (5–8 with two); solo is the same game against the deck.

**Every card is everything.** Size: A 1, 2–10 face value, J/Q/K/Joker 10. Cannons ⌈size ÷ 2⌉ (Joker 5). \
Crew: A–4 3, 5–8 4, 9–10 5, J/Q/K/Joker 6. Cargo: size tons of ♥ sugar, ♦ silver, ♣ tobacco, ♠ spices. \
Nations ♥ English, ♦ Spanish, ♣ French, ♠ Dutch; Jokers are pirates (Pirate Cove, Treasure Galleon). \
Ship of the Line (J) +1 cannon value; Fast Galleon (Q) −1 ton when fleeing; Flag Galleon (K) draws 2 \
missions and keeps 1.

**Missions.** A–4 Delivery: bring size + 2 tons of its good to a town of its nation and dock there. \
5–8 Hunt: sink a ship of the next nation (English → Spanish → French → Dutch → English). 9–10 Raid: take \
a town of its nation. J–K Bounty: beat another player (solo: sink a size-10 ship). Joker: sink the \
treasure fleet (sinking it always completes a mission: this one, else your oldest, else the galleon).

**Setup.** Each player gets a ship (face up: its crew number limits hand and holds), a secret mission \
and two crew cards, docked in the neutral port. A random player begins.

**Docked**, one action: *Gather crew* (draw); *Visit the magistrate* (only with no unfinished mission: a \
new mission); *Trade for goods* (discard cards, draw that many tons into the holds; or a Joker: fill the \
holds from the discard pile); *Attack the town* (2 × size + 1 cannons; win: fill the holds); *Disembark* \
(draw: your nation — loyal crew; otherwise sail with at most that card's crew; a Joker — a full hand and \
sail now).

**Sailing**: *Look for a ship* (your nation: friendly, draw a card; otherwise fight it or a player at sea \
of its nation; an Ace: fight a player at sea; a Joker: the treasure fleet and an escort) or *Head for the \
nearest town* (dock: a foreign town costs a deserting crew card; a Joker: Pirate Cove, a haven never attacked \
— fill your hand, swap your ship, or a mission and a cargo).

**Jokers** in hand can be played instead of the card an action draws.

**Combat.** Fire hand cards: cannons, +1 of your nation, +1 Ship of the Line, a Joker adds a drawn ship's \
cannons (the Joker is discarded after the combat). A ship needs size + 1. Won: keep the wreck as \
crew, cargo or mission. Lighter ships (size + cargo tons) may flee; otherwise strike and be boarded \
(a random crew card and your heaviest cargo lost). \
Against a player both choose a card **in secret**; ties discard both and go again; the winner takes the \
loser's card and plunders a random crew card, a random mission or a cargo.

A player whose hand empties at sea is out. The deck reshuffles the discard pile; with both empty a \
**hurricane** takes all cargo and half of every hand.
"""
)
