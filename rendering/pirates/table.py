"""The table: the deck and the discard's top card, the encounter or duel under way, and one row per
player (ship, nation, where they are, crew count, cargo, missions). The hand image shows the viewer's
cards in full and what each unfinished mission still needs; the final image who freed their captain."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image

from games.core import article, format_seats, plural
from games.pirates.cards import BY_CODE, GOODS, NATIONS, Face, Mission
from rendering import theme as t
from rendering.cache import image_cache
from rendering.pirates.cards import back, card_face, flag, ship_picture, suit_colour

View = Mapping[str, Any]
W = 1100
M = 24
HEADER_H = 380
ROW_H = 236
BACK_W, BACK_H = 52, 74
"""The backs of a player's unfinished missions."""
LINE = 30
"""A line of a player's missions or holds."""
SHIP_W, SHIP_H = 148, 212


def colour(seat: int) -> t.PlayerColour:
    return t.PLAYER_COLOURS[seat % len(t.PLAYER_COLOURS)]


def _name_pill(canvas: Image.Image, xy: tuple[float, float], name: str, seat: int, width: float) -> t.Box:
    c = colour(seat)
    label, fnt = t.fit_text(name, width - 40, 26)  # a 40 px pill's round ends take 40 px
    return t.pill(canvas, xy, label, fnt, c.fill, c.text, border=c.edge, height=40)


def _card_words(code: str) -> str:
    """What a card on the table is, in words: its index and ship, or its town."""
    f = BY_CODE[code]
    return f"{f.name} {_nation(code)}"


def _mission_line(canvas: Image.Image, xy: tuple[float, float], code: str, ink: t.RGB) -> None:
    """A completed mission as a line: its flag, index and kind."""
    f = BY_CODE[code]
    x, y = xy
    t.paste(canvas, flag(28, 18, f.suit), (x + 14, y), "mm")
    t.text(
        canvas,
        (x + 36, y),
        f"{f.name} {'fleet' if f.mission is Mission.TREASURE else f.mission.value}",
        t.font(t.MIN_TEXT, bold=True),
        ink,
        anchor="lm",
    )


def _place(player: View) -> str:
    if player["out"]:
        return "Out of the game"
    if player["place"] == "sea":
        return "At sea"
    if player["town"] is None:
        return "Docked in the neutral port"
    f = BY_CODE[player["town"]]
    taken = " (taken)" if player["taken"] else ""
    return f"Docked at {f.town}{taken}"


def _nation(code: str) -> str:
    f = BY_CODE[code]
    return f"{f.nation} {f.ship}" if f.suit else "Pirate Treasure Galleon"


def _header(canvas: Image.Image, view: View, names: Sequence[str], final: bool) -> None:
    t.text(canvas, (M + 22, M + 16), "Pirates Card Game", t.font(36, bold=True), t.GOLD)
    if final:
        over = view.get("over") or {}
        winners = over.get("winners", [])
        line = "Captain freed by " + ", ".join(names[s] for s in winners) if winners else "No captain was freed"
    else:
        line = f"Turn {view['turns'] + 1}: {names[view['turn']]}"
    text, fnt = t.fit_text(line, 560, 28)
    t.text(canvas, (M + 22, M + 64), text, fnt, t.FOAM)
    # the deck and the discard pile
    y = M + 104
    x = M + 22
    canvas_back = back(120, 172)
    t.paste(canvas, canvas_back, (x, y))
    t.pill(
        canvas,
        (x + 60, y + 176),
        f"Deck {view['deck']}",
        t.font(t.MIN_TEXT, bold=True),
        t.SEA_DEEP,
        t.FOAM,
        align="center",
        height=34,
    )
    x += 160
    if view["discard"]:
        t.paste(canvas, card_face(view["discard"][-1], 120, 172), (x, y))
    else:
        t.panel(canvas, (x, y, x + 120, y + 172), fill=(20, 44, 58), border=t.MIST, radius=12, shadow=False)
    t.pill(
        canvas,
        (x + 60, y + 176),
        f"Discard {len(view['discard'])}",
        t.font(t.MIN_TEXT, bold=True),
        t.SEA_DEEP,
        t.FOAM,
        align="center",
        height=34,
    )
    _stage(canvas, view, names, (M + 345, M + 100, W - M - 20, HEADER_H - 24))


STAGE_CARD_W, STAGE_CARD_H = 100, 144
STAGE_STEP = 112


def _stage_title(canvas: Image.Image, xy: tuple[int, int], line: str, width: int) -> None:
    """The stage's title in gold: one line, or two (never cut)."""
    lines, fnt = t.fit_lines(line, width, 26, 2)
    for n, part in enumerate(lines):
        t.text(canvas, (xy[0], xy[1] + n * 30), part, fnt, t.GOLD)


def _stage(canvas: Image.Image, view: View, names: Sequence[str], box: t.Box) -> None:
    """The encounter under way (its cards, named in words, and the cannons needed), or a duel: who has
    chosen, and the two cards once revealed."""
    x0, y0, x1, _ = box
    shown, duel, encounter, pending = view["shown"], view["duel"], view["encounter"], view["pending"]
    cards_y = y0 + 66
    small = t.font(t.MIN_TEXT, bold=True)
    if duel is not None or shown is not None:
        seats = (duel or shown)["seats"]
        _stage_title(canvas, (x0, y0), f"Duel: {names[seats[0]]} against {names[seats[1]]}", x1 - x0)
        revealed = shown is not None and (duel is None or not any(duel["chosen"]))
        for i in range(2):
            x = x0 + i * 240
            if revealed:
                t.paste(canvas, card_face(shown["cards"][i], STAGE_CARD_W, STAGE_CARD_H), (x, cards_y))
                value = str(shown["values"][i])
                t.text(canvas, (x + STAGE_CARD_W + 12, cards_y + 50), value, t.font(40, bold=True), t.GOLD)
                continue
            chosen = duel is not None and duel["chosen"][i]
            if chosen:
                t.paste(canvas, back(STAGE_CARD_W, STAGE_CARD_H), (x, cards_y))
            else:
                t.panel(
                    canvas,
                    (x, cards_y, x + STAGE_CARD_W, cards_y + STAGE_CARD_H),
                    fill=(20, 44, 58),
                    border=t.MIST,
                    radius=12,
                    shadow=False,
                )
            state = "chosen" if chosen else "choosing…"
            t.text(canvas, (x + STAGE_CARD_W / 2, cards_y + STAGE_CARD_H + 18), state, small, t.FOAM, anchor="mm")
        return
    if encounter is None:
        t.text(canvas, (x0, y0), "Open sea", t.font(26, bold=True), t.MIST)
        return
    kind = encounter["kind"]
    titles = {
        "ship": "Enemy ship",
        "fleet": "The treasure fleet",
        "town": "Town",
        "friend": "Friendly ship",
        "enemy": "Enemy ship",
        "ace": "An Ace: fight a captain at sea",
    }
    cards, allies = encounter["cards"], encounter.get("allies", [])
    words = ", ".join(BY_CODE[c].town if kind == "town" else _card_words(c) for c in cards)
    if allies:
        words += f"; {'ally' if len(allies) == 1 else 'allies'} " + ", ".join(_card_words(c) for c in allies)
    _stage_title(canvas, (x0, y0), f"{titles.get(kind, kind)}: {words}" if words else titles.get(kind, kind), x1 - x0)
    for i, code in enumerate(cards + allies):
        x = x0 + i * STAGE_STEP
        t.paste(canvas, card_face(code, STAGE_CARD_W, STAGE_CARD_H), (x, cards_y))
        if i >= len(cards):
            t.text(canvas, (x + STAGE_CARD_W / 2, cards_y + STAGE_CARD_H + 16), "ally", small, t.FOAM, anchor="mm")
    if pending is not None and pending["kind"] == "combat":
        for n, (words, fill) in enumerate(
            [(f"Needs {plural(pending['need'], 'cannon')}", t.DANGER), (f"Fired {pending['total']}", t.SEA_DEEP)]
        ):
            t.pill(
                canvas,
                (x1, cards_y + 4 + n * 52),
                words,
                t.font(24, bold=True),
                fill,
                (255, 255, 255) if n == 0 else t.FOAM,
                align="right",
                height=40,
            )


ROW_TEXT_W = 440
"""The width of a row's left column (name, ship, place, crew, cargo, missions)."""
HOLDS_X = W - M - 12 - 200
MISSIONS_X = HOLDS_X - 210
"""Two columns of lines (flag and words) about 200 px wide: completed missions, then the holds."""


def _row(canvas: Image.Image, view: View, seat: int, name: str, y: int, final: bool) -> None:
    player = view["players"][seat]
    t.paste(canvas, card_face(player["ship"], SHIP_W, SHIP_H), (M + 12, y + 5))
    x = M + SHIP_W + 28
    _name_pill(canvas, (x, y + 12), name, seat, ROW_TEXT_W)
    done = player["done"]
    lines = [
        (_nation(player["ship"]), True, t.INK),
        (_place(player), False, t.INK_SOFT),
        (f"Crew {player['hand']}/{player['limit']}", True, t.INK),
        (f"Cargo {player['tons']} t · weight {player['weight']}", False, t.INK),
        (f"Missions done {len(done)} · open {player['missions']}", True, (30, 110, 50) if done else t.INK),
    ]
    for n, (words, bold, ink) in enumerate(lines):
        fitted, fnt = t.fit_text(words, ROW_TEXT_W, t.MIN_TEXT, bold=bold)
        t.text(canvas, (x, y + 76 + n * 32), fitted, fnt, ink, anchor="lm")
    label = t.font(t.MIN_TEXT, bold=True)
    # Completed missions as lines (flag, index, kind), then the unfinished ones as a row of backs.
    t.text(canvas, (MISSIONS_X, y + 10), "Missions", label, t.INK_SOFT)
    for i, code in enumerate(done):
        _mission_line(canvas, (MISSIONS_X, y + 56 + i * LINE), code, (30, 110, 50))
    backs_y = y + 44 + LINE * len(done)
    for i in range(player["missions"]):
        t.paste(canvas, back(BACK_W, BACK_H), (MISSIONS_X + i * 30, backs_y))
    if not done and not player["missions"]:
        t.text(canvas, (MISSIONS_X, y + 56), "none", t.font(t.MIN_TEXT), t.INK_SOFT, anchor="lm")
    # The holds by nation: flag, tons and good (one line per good, never overlapped cards).
    t.text(canvas, (HOLDS_X, y + 10), "Holds", label, t.INK_SOFT)
    tons: dict[str | None, int] = {}
    for code in player["holds"]:
        f = BY_CODE[code]
        tons[f.suit] = tons.get(f.suit, 0) + f.size
    for i, (suit, total) in enumerate(tons.items()):
        cy = y + 56 + i * LINE
        t.paste(canvas, flag(28, 18, suit), (HOLDS_X + 14, cy), "mm")
        good = GOODS[suit] if suit else "treasure"
        t.text(canvas, (HOLDS_X + 36, cy), f"{total} t {good}", t.font(t.MIN_TEXT), t.INK, anchor="lm")
    if not tons:
        t.text(canvas, (HOLDS_X, y + 56), "empty", t.font(t.MIN_TEXT), t.INK_SOFT, anchor="lm")


def _actors(view: View) -> set[int]:
    pending, duel = view["pending"], view["duel"]
    if pending is not None:
        return {pending["seat"]}
    if duel is not None:
        return {s for s, chosen in zip(duel["seats"], duel["chosen"], strict=True) if not chosen}
    return {view["turn"]}


@image_cache
def _base(rows: tuple[tuple[bool, bool], ...]) -> Image.Image:
    """The table's panels (the slow part: soft shadows), one per (highlighted, out) pattern of the rows."""
    canvas = t.new_canvas(W, HEADER_H + ROW_H * len(rows) + M)
    t.panel(canvas, (M, M, W - M, HEADER_H - 10), fill=(28, 64, 84), border=t.GOLD_DEEP)
    for seat, (active, out) in enumerate(rows):
        y = HEADER_H + seat * ROW_H
        fill = t.PARCHMENT_SHADE if out else t.PARCHMENT
        t.panel(canvas, (M, y, W - M, y + ROW_H - 14), fill=fill, border=t.HIGHLIGHT if active else t.GOLD_DEEP)
    return canvas


def _table(view: View, names: Sequence[str], final: bool) -> Image.Image:
    seats = view["seats"]
    drawn = t.seat_names(names, seats)
    actors = set() if final else _actors(view)
    rows = tuple((s in actors, view["players"][s]["out"]) for s in range(seats))
    canvas = _base(rows).copy()
    _header(canvas, view, drawn, final)
    for seat in range(seats):
        _row(canvas, view, seat, drawn[seat], HEADER_H + seat * ROW_H, final)
    return canvas


def render_board(view: View, names: Sequence[str]) -> bytes:
    """The public table (a seat's own view draws the same: hands are in :func:`render_hand`)."""
    return t.to_png(_table(view, names, False))


FINAL_ROW = 170
"""Height of a player's row on the final sheet."""


def render_final(view: View, names: Sequence[str]) -> bytes:
    """The final sheet: who freed their captain and how the game ended, then every player ranked (the
    winners, then by missions done) with the missions they completed face up, the ones left open, and
    where their ship ended."""
    seats = view["seats"]
    drawn = t.seat_names(names, seats)
    over = view.get("over") or {}
    winners = list(over.get("winners", []))
    players = view["players"]
    order = sorted(range(seats), key=lambda s: (s not in winners, -len(players[s]["done"]), players[s]["out"], s))
    if winners:
        freed = " & ".join(drawn[s] for s in winners)
        headline = f"{freed} {'frees the captain' if len(winners) == 1 else 'free their captains'}!"
    else:
        headline = "No captain was freed."
    head_font = t.font(32, bold=True)
    head_lines = t.wrap(headline, head_font, W - 2 * M - 68)
    how_font = t.font(26)
    how = t.wrap(format_seats(over.get("summary", ""), drawn), how_font, W - 2 * M - 20)
    top = 90 + 40 * len(head_lines) + 30 * len(how) + 30
    canvas = t.new_canvas(W, top + FINAL_ROW * seats + M)
    t.title(canvas, (M - 4, 12), t.icon("skull", 54), "PIRATES · THE END", 44)
    t.final_headline(canvas, (M, 84), (head_lines, head_font))
    for n, line in enumerate(how):
        t.text(canvas, (M + 10, 100 + 40 * len(head_lines) + 30 * n), line, how_font, t.FOAM)
    for rank, seat in enumerate(order):
        _final_row(canvas, view, seat, drawn[seat], rank, top + rank * FINAL_ROW, seat in winners)
    return t.to_png(canvas)


def _final_row(canvas: Image.Image, view: View, seat: int, name: str, rank: int, y: int, won: bool) -> None:
    player = view["players"][seat]
    fill = t.mix(t.GOLD, t.PARCHMENT, 0.55) if won else t.PARCHMENT_SHADE if player["out"] else t.PARCHMENT
    t.panel(canvas, (M, y, W - M, y + FINAL_ROW - 14), fill=fill, border=t.GOLD_DEEP)
    t.text(canvas, (M + 40, y + 52), f"{rank + 1}.", t.font(44, bold=True), t.INK, anchor="mm")
    if won:
        t.paste(canvas, t.icon("crown", 40), (M + 40, y + 108), "mm")
    x = M + 80
    _name_pill(canvas, (x, y + 14), name, seat, 480)
    done = player["done"]
    count = f"{plural(len(done), 'mission')} done · {player['missions']} open"
    t.text(canvas, (x, y + 76), count, t.font(28, bold=True), (30, 110, 50) if done else t.INK)
    t.text(canvas, (x, y + 114), _place(player), t.font(24), t.INK_SOFT)
    mx = 600
    for i, code in enumerate(done):
        _mission_line(canvas, (mx, y + 36 + i * LINE), code, (30, 110, 50))
    if not done:
        t.text(canvas, (mx, y + 70), "no mission done", t.font(t.MIN_TEXT), t.INK_SOFT, anchor="lm")


def _needs(view: View, f: Face) -> str:
    """What an unfinished mission still needs, from the viewer's cargo."""
    me = view["players"][view["viewer"]]
    if f.mission is Mission.DELIVERY:
        have = sum(BY_CODE[c].size for c in me["holds"] if BY_CODE[c].suit == f.suit)
        need = f.size + 2
        town = article(NATIONS[f.suit or "h"])
        return f"{min(have, need)}/{need} t {GOODS[f.suit or 'h']} aboard; then dock at {town} town"
    if f.mission is Mission.RAID:
        return f"Attack {article(f.nation or '')} town: win with 2 × its size + 1 cannons"
    if f.mission is Mission.BOUNTY:
        return "Win a combat against another captain" if view["seats"] > 1 else "Sink a size-10 ship"
    if f.mission is Mission.HUNT:
        return "Look for ships at sea; sinking one takes its size + 1 cannons"
    return "Look for ships at sea until a Joker shows the fleet; sink it and its escort"


HAND_CARD_W, HAND_CARD_H = 96, 137
"""The small card beside each hand row (its words are in the row, large enough for a phone)."""
HAND_LINE = 32


@image_cache
def _hand_card(code: str) -> Image.Image:
    """The small card beside a hand row: its flag and ship, no words (the row says them, readably)."""
    f = BY_CODE[code]
    img = t.card(HAND_CARD_W, HAND_CARD_H, border_width=2).copy()
    fl = flag(40, 26, f.suit)
    img.alpha_composite(fl, ((HAND_CARD_W - fl.width) // 2, 14))
    pic = ship_picture(HAND_CARD_W - 12, 64, f)
    img.alpha_composite(pic, (6, 56))
    return img


def _card_lines(f: Face) -> list[tuple[str, int, bool, t.RGB]]:
    """A hand card's rows of text: (text, size, bold, colour) — every role it can play."""
    lines = [
        (f"{f.town} · {f.ship}" if not f.joker else f"Joker · {f.ship} · Pirate Cove", 28, True, t.INK),
        (f"crew {f.crew} · {plural(f.cannons, 'cannon')} · {f.size} t {f.good or 'treasure'}", 24, False, t.INK),
        (f"{f.mission.value.title()}: {f.mission_text}", 24, False, (120, 40, 30)),
    ]
    if f.bonus:
        lines.append((f.bonus, 24, False, t.GOLD_DEEP))
    return lines


def _wrapped(lines: list[tuple[str, int, bool, t.RGB]], width: float) -> list[tuple[str, int, bool, t.RGB]]:
    out = []
    for text, size, bold, ink in lines:
        out += [(part, size, bold, ink) for part in t.wrap(text, t.font(size, bold=bold), width)]
    return out


def render_hand(view: View, names: Sequence[str]) -> bytes:
    """The viewer's hand, a row per card with everything it can be (crew, cargo, mission, bonus) in words a
    phone can read, and their unfinished missions with what each still needs."""
    hand, missions = view.get("hand", []), view.get("missions", [])
    text_x = M + 20 + HAND_CARD_W + 20
    text_w = W - M - 20 - text_x
    rows = [_wrapped(_card_lines(BY_CODE[code]), text_w) for code in hand]
    heights = [max(HAND_CARD_H + 30, len(lines) * HAND_LINE) + 24 for lines in rows]
    notes = [(c, "") for c in missions] + [(c, "offered") for c in view.get("offered", [])]
    if view.get("chosen"):
        notes.append((view["chosen"], "combat card"))
    blocks = [_mission_block(view, code, tag, W - 2 * M - 140) for code, tag in notes]
    top = 90
    hand_h = sum(heights) if hand else 60
    y = top + hand_h + 16
    mission_h = 70 + (sum(len(b) * HAND_LINE + 16 for b in blocks) if blocks else HAND_LINE + 16)
    canvas = t.new_canvas(W, y + mission_h + M)
    seat = view.get("viewer")
    drawn = t.seat_names(names, view["seats"])
    if seat is not None:
        _name_pill(canvas, (M, M), drawn[seat], seat, 450)
        me = view["players"][seat]
        crew = f"Crew {len(hand)}/{me['limit']} · {_nation(me['ship'])}"
        text, fnt = t.fit_text(crew, W - 2 * M - 470, 28)
        t.text(canvas, (M + 470, M + 20), text, fnt, t.FOAM, anchor="lm")
    yy = top
    for code, lines, h in zip(hand, rows, heights, strict=True):
        t.panel(canvas, (M, yy, W - M, yy + h - 10), fill=t.PARCHMENT, shadow=False)
        t.paste(canvas, _hand_card(code), (M + 20, yy + 8))
        f = BY_CODE[code]
        label = f.name if not f.joker else "★"
        t.text(
            canvas,
            (M + 20 + HAND_CARD_W / 2, yy + HAND_CARD_H + 14),
            label,
            t.font(24, bold=True),
            suit_colour(f),
            anchor="mt",
        )
        for n, (text, size, bold, ink) in enumerate(lines):
            t.text(canvas, (text_x, yy + 12 + n * HAND_LINE), text, t.font(size, bold=bold), ink)
        yy += h
    if not hand:
        t.text(canvas, (M, top + 10), "No crew cards in hand.", t.font(28), t.MIST)
    t.panel(canvas, (M, y, W - M, y + mission_h), fill=t.PARCHMENT)
    t.text(canvas, (M + 20, y + 14), "Your unfinished missions", t.font(28, bold=True), t.INK)
    yy = y + 60
    if not blocks:
        t.text(canvas, (M + 20, yy), "None: visit the magistrate while docked.", t.font(24), t.INK_SOFT)
    for (code, _tag), block in zip(notes, blocks, strict=True):
        f = BY_CODE[code]
        t.text(canvas, (M + 20, yy), f.name if not f.joker else "Joker", t.font(28, bold=True), suit_colour(f))
        for n, (text, ink) in enumerate(block):
            t.text(canvas, (M + 110, yy + 2 + n * HAND_LINE), text, t.font(24), ink)
        yy += len(block) * HAND_LINE + 16
    return t.to_png(canvas)


def _mission_block(view: View, code: str, tag: str, width: float) -> list[tuple[str, t.RGB]]:
    """A mission's lines: what it asks and (unfinished) what it still needs, wrapped to ``width``."""
    f = BY_CODE[code]
    if tag == "combat card":
        body = "your secret combat card"
    else:
        body = f"{tag + ': ' if tag else ''}{f.mission.value.title()} — {f.mission_text}"
    fnt = t.font(24)
    lines = [(part, t.INK) for part in t.wrap(body, fnt, width)]
    if not tag:
        lines += [(part, t.INK_SOFT) for part in t.wrap(_needs(view, f), fnt, width)]
    return lines
