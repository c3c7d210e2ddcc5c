"""The table: the top band (the turn, who decides what), the deck and the discard's top card, the encounter or
duel under way, one row per player (ship, nation, where they are, crew count, cargo, missions), and the
recent events over the legend. The hand image shows whose it is, the viewer's cards in full and what each
unfinished mission still needs; the final image how the game was won and every player's place."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image

from games.core import format_seats
from games.i18n import localize, localize_tree, ntr, tr
from games.pirates.cards import BY_CODE, GOOD, NATION_GOOD, SHIP_OF, SUITS, Face, Mission, at_town
from games.pirates.engine import Pirates
from games.pirates.view import prompt_text
from rendering import theme as t
from rendering.cache import image_cache
from rendering.pirates.cards import back, card_face, flag, ship_picture, suit_colour

View = Mapping[str, Any]
W = 1100
M = 24
STAGE_Y = t.TOP
STAGE_H = 286
"""The panel of the piles and the encounter or duel, under the top band."""
ROWS_Y = STAGE_Y + STAGE_H
ROW_H = 256
EVENT_LINES = 4
"""Recent events shown (a move often tells two or three)."""
BACK_W, BACK_H = 52, 74
"""The backs of a player's unfinished missions."""
LINE = 30
"""A line of a player's missions or holds."""
SHIP_W, SHIP_H = 148, 212


def _card_words(code: str, locale: str) -> str:
    """What a card on the table is, in words: its index and ship."""
    f = BY_CODE[code]
    return f"{localize(f.label, locale)} {localize(f.nation_ship, locale)}"


def _mission_words(code: str, locale: str) -> str:
    """A completed mission in words: its index and kind ("Q♥ bounty")."""
    f = BY_CODE[code]
    kind = tr(locale, "fleet") if f.mission is Mission.TREASURE else localize(f.mission_name, locale)
    return tr(locale, "{card} {kind}", card=f.label, kind=kind)


def _mission_line(
    canvas: Image.Image, xy: tuple[float, float], code: str, ink: t.RGB, width: float, locale: str
) -> None:
    """A completed mission as a line: its flag, index and kind (shrunk to ``width`` px beside the flag)."""
    f = BY_CODE[code]
    x, y = xy
    t.paste(canvas, flag(28, 18, f.suit), (x + 14, y), "mm")
    words, fnt = t.fit_text(_mission_words(code, locale), width - 36, t.MIN_TEXT)
    t.text(canvas, (x + 36, y), words, fnt, ink, anchor="lm")


def _place(player: View, locale: str) -> str:
    if player["out"]:
        return tr(locale, "Out of the game")
    if player["place"] == "sea":
        return tr(locale, "At sea")
    if player["town"] is None:
        return tr(locale, "Docked in the neutral port")
    f = BY_CODE[player["town"]]
    if player["taken"]:
        return tr(locale, "Docked {at_town} (taken)", at_town=at_town(f))
    return tr(locale, "Docked {at_town}", at_town=at_town(f))


def _nation(code: str, locale: str) -> str:
    """A ship with its nation, as a line begins: "English Frigate", "Pirate Treasure Galleon"."""
    words = localize(BY_CODE[code].nation_ship, locale)
    return words[:1].upper() + words[1:]


def _status(view: View, names: Sequence[str], locale: str) -> str:
    """Whose decision it is and what, or how the game ended, with the names written out."""
    over = view.get("over")
    marked = over["summary"] if over else prompt_text(dict(view))
    return " ".join(format_seats(localize(marked or "", locale), list(names)).split())


def _band(canvas: Image.Image, view: View, names: Sequence[str], locale: str) -> None:
    """The top band: the game and the turn, and whose decision it is and what."""
    over = view.get("over") is not None
    tags = [t.Tag(tr(locale, "TURN {n}", n=view["turns"] + 1))]
    title = t.game_title(Pirates.title, locale)
    actors = () if over else tuple(sorted(_actors(view)))
    icon = flag(76, 52, None)
    t.top_band(canvas, icon, title, tags, _status(view, names, locale), x=M, width=W - 2 * M, seats=actors, over=over)


def _piles(canvas: Image.Image, view: View, names: Sequence[str], locale: str) -> None:
    """The deck and the discard pile, each named under its card (wrapped where a language needs two lines),
    and the encounter or duel under way beside them."""
    y = STAGE_Y + 20
    x = M + 22
    t.paste(canvas, back(120, 172), (x, y))
    _pile_name(canvas, (x + 60, y + 178), tr(locale, "Deck {n}", n=view["deck"]))
    x += 160
    if view["discard"]:
        t.paste(canvas, card_face(view["discard"][-1], 120, 172), (x, y))
    else:
        _empty_place(canvas, (x, y, x + 120, y + 172))
    _pile_name(canvas, (x + 60, y + 178), tr(locale, "Discard {n}", n=len(view["discard"])))
    _stage(canvas, view, names, (M + 345, STAGE_Y + 16, W - M - 20, STAGE_Y + STAGE_H - 24), locale)


PILE_NAME_W = 150
"""The width of a pile's name under its card (the two piles' cards stand 160 px apart)."""


def _pile_name(canvas: Image.Image, top: tuple[float, float], words: str) -> None:
    """A pile's name and count centred under its card: one line, or two."""
    fnt = t.font(t.MIN_TEXT, bold=True, condensed=t.text_width(words, t.font(t.MIN_TEXT, bold=True)) > PILE_NAME_W)
    for n, part in enumerate(t.wrap(words, fnt, PILE_NAME_W, 2)):
        t.text(canvas, (top[0], top[1] + n * 28), part, fnt, t.FOAM, anchor="mt", shadow=(0, 0, 0))


STAGE_CARD_W, STAGE_CARD_H = 100, 144
STAGE_STEP = 112


def _stage_title(canvas: Image.Image, xy: tuple[int, int], line: str, width: int) -> None:
    """The stage's title in gold: one line, or two (never cut)."""
    lines, fnt = t.fit_lines(line, width, 26, 2)
    for n, part in enumerate(lines):
        t.text(canvas, (xy[0], xy[1] + n * 30), part, fnt, t.GOLD)


STAGE_CARDS_DY = 66
"""Where the stage's cards stand under its top (its title may take two lines)."""


def _stage(canvas: Image.Image, view: View, names: Sequence[str], box: t.Box, locale: str) -> None:
    """The encounter under way (its cards, named in words, and the cannons needed), or a duel: who has
    chosen, and the two cards once revealed."""
    x0, y0, x1, _ = box
    duel, shown, encounter, pending = view["duel"], view["shown"], view["encounter"], view["pending"]
    if duel is not None or shown is not None:
        _duel(canvas, duel, shown, names, box, locale)
    elif encounter is None:
        t.text(canvas, (x0, y0), tr(locale, "Open sea"), t.font(26, bold=True), t.MIST)
    else:
        _encounter(canvas, encounter, box, locale)
        if pending is not None and pending["kind"] == "combat":
            _cannons(canvas, pending, (x1, y0 + STAGE_CARDS_DY), locale)


def _duel(
    canvas: Image.Image, duel: View | None, shown: View | None, names: Sequence[str], box: t.Box, locale: str
) -> None:
    """A duel: who fights whom, then both cards face up with their values once revealed, else each side's
    back once chosen or an empty place while it is choosing."""
    x0, y0, x1, _ = box
    seats = (duel or shown)["seats"]  # type: ignore[index]
    duel_title = tr(locale, "Duel: {first} against {second}", first=names[seats[0]], second=names[seats[1]])
    _stage_title(canvas, (x0, y0), duel_title, x1 - x0)
    revealed = shown if shown is not None and (duel is None or not any(duel["chosen"])) else None
    for i in range(2):
        xy = (x0 + i * 240, y0 + STAGE_CARDS_DY)
        if revealed is not None:
            _revealed(canvas, xy, revealed["cards"][i], revealed["values"][i])
        else:
            _unrevealed(canvas, xy, duel is not None and duel["chosen"][i], locale)


def _revealed(canvas: Image.Image, xy: tuple[int, int], code: str, value: int) -> None:
    """A duel card revealed: its face, and its value beside it."""
    x, y = xy
    t.paste(canvas, card_face(code, STAGE_CARD_W, STAGE_CARD_H), (x, y))
    t.text(canvas, (x + STAGE_CARD_W + 12, y + 50), str(value), t.font(40, bold=True), t.GOLD)


def _unrevealed(canvas: Image.Image, xy: tuple[int, int], chosen: bool, locale: str) -> None:
    """A side of a duel before the reveal: its card's back once chosen, else an empty place; and under it,
    whether it has chosen."""
    x, y = xy
    if chosen:
        t.paste(canvas, back(STAGE_CARD_W, STAGE_CARD_H), (x, y))
    else:
        _empty_place(canvas, (x, y, x + STAGE_CARD_W, y + STAGE_CARD_H))
    state = tr(locale, "chosen") if chosen else tr(locale, "choosing…")
    state, fnt = t.fit_text(state, 220, t.MIN_TEXT)
    t.text(canvas, (x + STAGE_CARD_W / 2, y + STAGE_CARD_H + 18), state, fnt, t.FOAM, anchor="mm")


def _empty_place(canvas: Image.Image, box: t.Box) -> None:
    """Where a card would lie: the empty discard pile, a duel card not yet chosen."""
    t.panel(canvas, box, fill=(20, 44, 58), border=t.MIST, radius=12, shadow=False)


def _encounter_headline(encounter: View, locale: str) -> str:
    """The encounter in words: what it is, then its cards (a town by name) and its allies."""
    kind = encounter["kind"]
    titles = {
        "ship": tr(locale, "Enemy ship"),
        "fleet": tr(locale, "The treasure fleet"),
        "town": tr(locale, "Town"),
        "friend": tr(locale, "Friendly ship"),
        "enemy": tr(locale, "Enemy ship"),
        "ace": tr(locale, "An Ace: fight a captain at sea"),
    }
    title = titles.get(kind) or tr(locale, "Encounter")
    cards, allies = encounter["cards"], encounter.get("allies", [])
    words = ", ".join(localize(BY_CODE[c].town, locale) if kind == "town" else _card_words(c, locale) for c in cards)
    if allies:
        listed = ", ".join(_card_words(c, locale) for c in allies)
        words = ntr(
            locale, "{cards}; ally {allies}", "{cards}; allies {allies}", len(allies), cards=words, allies=listed
        )
    return tr(locale, "{title}: {cards}", title=title, cards=words) if words else title


def _encounter(canvas: Image.Image, encounter: View, box: t.Box, locale: str) -> None:
    """The encounter under way: its headline, then its cards and its allies' (each marked as an ally)."""
    x0, y0, x1, _ = box
    _stage_title(canvas, (x0, y0), _encounter_headline(encounter, locale), x1 - x0)
    cards, allies = encounter["cards"], encounter.get("allies", [])
    cards_y = y0 + STAGE_CARDS_DY
    small = t.font(t.MIN_TEXT, bold=True)
    for i, code in enumerate(cards + allies):
        x = x0 + i * STAGE_STEP
        t.paste(canvas, card_face(code, STAGE_CARD_W, STAGE_CARD_H), (x, cards_y))
        if i >= len(cards):
            ally = tr(locale, "ally")
            t.text(canvas, (x + STAGE_CARD_W / 2, cards_y + STAGE_CARD_H + 16), ally, small, t.FOAM, anchor="mm")


def _cannons(canvas: Image.Image, pending: View, right_top: tuple[int, int], locale: str) -> None:
    """A combat's cannons, as two pills ending at ``right_top``'s x: how many it needs, how many are fired."""
    x, y = right_top
    needs = ntr(locale, "Needs {n} cannon", "Needs {n} cannons", pending["need"])
    fired = tr(locale, "Fired {n}", n=pending["total"])
    for n, (words, fill) in enumerate([(needs, t.DANGER), (fired, t.SEA_DEEP)]):
        t.pill(
            canvas,
            (x, y + 4 + n * 52),
            words,
            t.font(t.MIN_TEXT, bold=True),
            fill,
            (255, 255, 255) if n == 0 else t.FOAM,
            align="right",
            height=40,
        )


ROW_TEXT_W = 450
"""The width of a row's left column (name, ship, place, crew, cargo, missions)."""
HOLDS_X = W - M - 12 - 200
MISSIONS_X = HOLDS_X - 210
"""Two columns of lines (flag and words) about 200 px wide: completed missions, then the holds."""


ROW_LINE = 30
"""The spacing of a row's lines of words (left column)."""
ENTRY_LINE, ENTRY_WRAP = 30, 26
"""The spacing of a column's entries (a completed mission, a good in the holds), and of an entry's second
line where one does not fit in one."""


def _entry_lines(words: str, bold: bool, width: float) -> tuple[tuple[str, ...], Any] | None:
    """``words`` in one line (bold may take the condensed face), or two; ``None`` when two do not hold them."""
    fitted, fnt = t.fit_text(words, width, t.MIN_TEXT, bold=bold)
    if fitted == words:
        return (words,), fnt
    fnt = t.font(t.MIN_TEXT, bold, condensed=bold)
    lines = t.wrap(words, fnt, width)
    return (lines, fnt) if len(lines) <= 2 else None


def _entries(
    canvas: Image.Image,
    xy: tuple[int, int],
    width: int,
    bottom: int,
    entries: list[tuple[str | None, str, str]],
    bold: bool,
    ink: t.RGB,
) -> int:
    """A column of entries, each a flag and words (``(suit, words, short)``), from the line centred at
    ``xy``: each in one line or two; where the two-line entries would not end above ``bottom``, each in its
    ``short`` words (the flag says the rest). Returns where the column ends."""
    x, y = xy
    laid = [_entry_lines(words, bold, width - 36) for _, words, _ in entries]
    height = sum(ENTRY_LINE + ENTRY_WRAP * (len(lines[0]) - 1) if lines else 999 for lines in laid)
    if y + height - ENTRY_LINE + 14 > bottom:
        laid = [_entry_lines(short, bold, width - 36) for _, _, short in entries]
    for (suit, _, _), lines in zip(entries, laid, strict=True):
        t.paste(canvas, flag(28, 18, suit), (x + 14, y), "mm")
        parts, fnt = lines or ((), None)
        for n, part in enumerate(parts):
            t.text(canvas, (x + 36, y + n * ENTRY_WRAP), part, fnt, ink, anchor="lm")
        y += ENTRY_LINE + ENTRY_WRAP * max(0, len(parts) - 1)
    return y


def _row(canvas: Image.Image, view: View, seat: int, name: str, y: int, locale: str) -> None:
    player = view["players"][seat]
    t.paste(canvas, card_face(player["ship"], SHIP_W, SHIP_H), (M + 12, y + 5))
    x = M + SHIP_W + 28
    bottom = y + ROW_H - 14
    t.name_pill(canvas, (x, y + 12), name, seat, ROW_TEXT_W, 26, 40, align="left")
    done = player["done"]
    lines = [
        (_nation(player["ship"], locale), True, t.INK),
        (_place(player, locale), False, t.INK_SOFT),
        (tr(locale, "Crew {crew}/{limit}", crew=player["hand"], limit=player["limit"]), True, t.INK),
        (tr(locale, "Cargo {tons} t · weight {weight}", tons=player["tons"], weight=player["weight"]), False, t.INK),
        (
            tr(locale, "Missions done {done} · open {open}", done=len(done), open=player["missions"]),
            True,
            (30, 110, 50) if done else t.INK,
        ),
    ]
    cy = y + 76
    for words, bold, ink in lines:
        parts, fnt = _entry_lines(words, bold, ROW_TEXT_W) or (
            (t.ellipsize(words, t.font(t.MIN_TEXT, bold, bold), ROW_TEXT_W),),
            t.font(t.MIN_TEXT, bold, bold),
        )
        for part in parts:
            t.text(canvas, (x, cy), part, fnt, ink, anchor="lm")
            cy += ROW_LINE
    # Completed missions as lines (flag, index, kind), then the unfinished ones as a row of backs (where
    # they fit: the left column counts them too).
    column = HOLDS_X - MISSIONS_X - 10
    heading, fnt = t.fit_text(tr(locale, "Missions"), column, t.MIN_TEXT)
    t.text(canvas, (MISSIONS_X, y + 10), heading, fnt, t.INK_SOFT)
    finished = [(BY_CODE[c].suit, _mission_words(c, locale), localize(BY_CODE[c].label, locale)) for c in done]
    end = _entries(canvas, (MISSIONS_X, y + 56), column, bottom - BACK_H, finished, True, (30, 110, 50))
    backs_y = end - 12
    if backs_y + BACK_H <= bottom:
        for i in range(player["missions"]):
            t.paste(canvas, back(BACK_W, BACK_H), (MISSIONS_X + i * 30, backs_y))
    if not done and not player["missions"]:
        none, fnt = t.fit_text(tr(locale, "none"), column, t.MIN_TEXT, bold=False)
        t.text(canvas, (MISSIONS_X, y + 56), none, fnt, t.INK_SOFT, anchor="lm")
    # The holds by nation: flag, tons and good (one entry per good, never overlapped cards).
    column = W - M - 12 - HOLDS_X
    heading, fnt = t.fit_text(tr(locale, "Holds"), column, t.MIN_TEXT)
    t.text(canvas, (HOLDS_X, y + 10), heading, fnt, t.INK_SOFT)
    tons: dict[str | None, int] = {}
    for code in player["holds"]:
        f = BY_CODE[code]
        tons[f.suit] = tons.get(f.suit, 0) + f.size
    goods = [
        (suit, tr(locale, "{tons} t {good}", tons=total, good=GOOD[suit]), tr(locale, "{tons} t", tons=total))
        for suit, total in tons.items()
    ]
    _entries(canvas, (HOLDS_X, y + 56), column, bottom, goods, False, t.INK)
    if not tons:
        empty, fnt = t.fit_text(tr(locale, "empty"), column, t.MIN_TEXT, bold=False)
        t.text(canvas, (HOLDS_X, y + 56), empty, fnt, t.INK_SOFT, anchor="lm")


def _actors(view: View) -> set[int]:
    pending, duel = view["pending"], view["duel"]
    if pending is not None:
        return {pending["seat"]}
    if duel is not None:
        return {s for s, chosen in zip(duel["seats"], duel["chosen"], strict=True) if not chosen}
    return {view["turn"]}


@image_cache
def _legend(locale: str) -> t.Legend:
    """Every flag and card back the table shows, with what it means."""
    flags = [(flag(40, 26, suit), localize(NATION_GOOD[suit], locale)) for suit in SUITS]
    return [[*flags, (flag(40, 26, None), localize(SHIP_OF[None], locale)), (back(26, 38), tr(locale, "a mission"))]]


def _events_y(seats: int) -> int:
    return ROWS_Y + ROW_H * seats


@image_cache
def _base(rows: tuple[tuple[bool, bool], ...], lines: int, locale: str) -> Image.Image:
    """The table's panels (the slow part: soft shadows), one per (highlighted, out) pattern of the rows and
    room for ``lines`` lines of recent events, with the legend under them."""
    legend = _legend(locale)
    ey = _events_y(len(rows))
    canvas = t.new_canvas(W, ey + t.events_height(lines, t.legend_height(legend, W - 2 * M)) + M)
    t.panel(canvas, (M, STAGE_Y, W - M, STAGE_Y + STAGE_H - 14), fill=(28, 64, 84), border=t.GOLD_DEEP)
    for seat, (active, out) in enumerate(rows):
        y = ROWS_Y + seat * ROW_H
        fill = t.PARCHMENT_SHADE if out else t.PARCHMENT
        t.panel(canvas, (M, y, W - M, y + ROW_H - 14), fill=fill, border=t.HIGHLIGHT if active else t.GOLD_DEEP)
    t.events_panel(canvas, (M, ey), W - 2 * M, lines, legend)
    return canvas


def _table(view: View, names: Sequence[str], locale: str) -> Image.Image:
    seats = view["seats"]
    drawn = t.seat_names(names, seats, locale)
    actors = _actors(view) if view.get("over") is None else set()
    rows = tuple((s in actors, view["players"][s]["out"]) for s in range(seats))
    recent = view.get("events", [])[-EVENT_LINES:]
    events = t.event_lines(tuple(format_seats(e, drawn) for e in recent), W - 2 * M)
    canvas = _base(rows, t.event_room(sum(map(len, events)), EVENT_LINES), locale).copy()
    _band(canvas, view, drawn, locale)
    _piles(canvas, view, drawn, locale)
    for seat in actors:  # as every game marks who decides
        t.glow(canvas, (M, ROWS_Y + seat * ROW_H, W - M, ROWS_Y + (seat + 1) * ROW_H - 14))
    for seat in range(seats):
        _row(canvas, view, seat, drawn[seat], ROWS_Y + seat * ROW_H, locale)
    t.draw_events(canvas, (M, _events_y(seats)), W - 2 * M, events)
    return canvas


def render_board(view: View, names: Sequence[str], locale: str = "en") -> bytes:
    """The public table (a seat's own view draws the same: hands are in :func:`render_hand`), in
    ``locale``'s language."""
    view = localize_tree(view, locale)
    return t.to_png(_table(view, names, locale))


FINAL_ROW = 184
"""Height of a player's row on the final sheet (where their ship ended may take two lines)."""


def _ending(view: View, drawn: Sequence[str], locale: str) -> tuple[str, str]:
    """The final sheet's headline, how the game was won (the captain freed, the last captain at sea, the
    most missions done when the seas ran out of time, or among the captains who did not resign when one who
    did finished first: ``standing``) or that nobody won, and the line under it."""
    over = view.get("over") or {}
    winners = over.get("winners", [])
    names = " & ".join(drawn[s] for s in winners)
    players = view["players"]
    summary = format_seats(over.get("summary", ""), drawn)
    match over.get("reason"):
        case "last_standing":
            # The summary says what the headline says: under it, who was lost instead.
            out = [drawn[s] for s, player in enumerate(players) if player["out"]]
            lost = ntr(
                locale,
                "{names} has no crew left at sea.",
                "{names} have no crew left at sea.",
                len(out),
                names=" & ".join(out),
            )
            if winners:
                return tr(locale, "{names} is the last captain at sea!", names=names), lost
            return tr(locale, "Every crew is lost at sea."), lost
        case "safety_limit" | "standing" if winners:
            done = len(players[winners[0]]["done"])
            if len(winners) == 1:
                won = ntr(
                    locale,
                    "{names} wins with {n} mission done!",
                    "{names} wins with {n} missions done!",
                    done,
                    names=names,
                )
            else:
                won = ntr(
                    locale,
                    "{names} share the victory with {n} mission done!",
                    "{names} share the victory with {n} missions done!",
                    done,
                    names=names,
                )
            return won, summary
    if winners:
        return tr(locale, "{names} frees the captain!", names=names), summary
    return tr(locale, "No captain was freed."), summary


def render_final(view: View, names: Sequence[str], locale: str = "en") -> bytes:
    """The final sheet: how the game was won (:func:`_ending`), then every player ranked (the winners,
    then by missions done) with the missions they completed face up, the ones left open, and where their
    ship ended; in ``locale``'s language."""
    view = localize_tree(view, locale)
    seats = view["seats"]
    drawn = t.seat_names(names, seats, locale)
    winners = list((view.get("over") or {}).get("winners", []))
    players = view["players"]
    order = sorted(range(seats), key=lambda s: (s not in winners, -len(players[s]["done"]), players[s]["out"], s))
    headline, under = _ending(view, drawn, locale)
    head_font = t.font(32, bold=True)
    head_lines = t.wrap(headline, head_font, W - 2 * M - 68)
    how_font = t.font(26)
    how = t.wrap(under, how_font, W - 2 * M - 20)
    top = 90 + 40 * len(head_lines) + 30 * len(how) + 30
    canvas = t.new_canvas(W, top + FINAL_ROW * seats + M)
    t.heading(
        canvas,
        flag(76, 52, None),
        tr(locale, "{game} · THE END", game=t.game_title(Pirates.title, locale)),
        (),
        x=M,
        width=W - 2 * M,
    )
    t.final_headline(canvas, (M, 84), (head_lines, head_font))
    for n, line in enumerate(how):
        t.text(canvas, (M + 10, 100 + 40 * len(head_lines) + 30 * n), line, how_font, t.FOAM)
    for rank, seat in enumerate(order):
        _final_row(canvas, view, seat, drawn[seat], rank, top + rank * FINAL_ROW, seat in winners, locale)
    return t.to_png(canvas)


def _final_row(
    canvas: Image.Image, view: View, seat: int, name: str, rank: int, y: int, won: bool, locale: str
) -> None:
    player = view["players"][seat]
    fill = t.mix(t.GOLD, t.PARCHMENT, 0.55) if won else t.PARCHMENT_SHADE if player["out"] else t.PARCHMENT
    t.panel(canvas, (M, y, W - M, y + FINAL_ROW - 14), fill=fill, border=t.GOLD_DEEP)
    t.text(canvas, (M + 40, y + 52), f"{rank + 1}.", t.font(44, bold=True), t.INK, anchor="mm")
    if won:
        t.paste(canvas, t.icon("crown", 40), (M + 40, y + 108), "mm")
    x = M + 80
    t.name_pill(canvas, (x, y + 14), name, seat, 480, 26, 40, align="left")
    done = player["done"]
    count = ntr(
        locale, "{n} mission done · {open} open", "{n} missions done · {open} open", len(done), open=player["missions"]
    )
    count, fnt = t.fit_text(count, 500, 28)
    t.text(canvas, (x, y + 76), count, fnt, (30, 110, 50) if done else t.INK)
    for n, line in enumerate(t.wrap(_place(player, locale), t.font(t.MIN_TEXT), 500, 2)):
        t.text(canvas, (x, y + 112 + n * 30), line, t.font(t.MIN_TEXT), t.INK_SOFT)
    mx = 600
    for i, code in enumerate(done):
        _mission_line(canvas, (mx, y + 36 + i * LINE), code, (30, 110, 50), W - M - 12 - mx, locale)
    if not done:
        none, fnt = t.fit_text(tr(locale, "no mission done"), W - M - 12 - mx, t.MIN_TEXT, bold=False)
        t.text(canvas, (mx, y + 70), none, fnt, t.INK_SOFT, anchor="lm")


HAND_CARD_W, HAND_CARD_H = 96, 137
"""The small card beside each hand row (its words are in the row, large enough for a phone)."""
HAND_LINE = 34


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


def _card_lines(f: Face, locale: str) -> list[tuple[str, int, bool, t.RGB]]:
    """A hand card's rows of text: (text, size, bold, colour) — every role it can play."""
    if f.joker:
        head = tr(locale, "Joker · {ship} · {town}", ship=f.ship_name, town=f.town)
    else:
        head = tr(locale, "{town} · {ship}", town=f.town, ship=f.ship_name)
    roles = tr(locale, "crew {crew} · {cannons} · {cargo}", crew=f.crew, cannons=f.cannon_count, cargo=f.cargo)
    mission = tr(locale, "{kind}: {text}", kind=f.mission_title, text=f.mission_text)
    small = t.MIN_TEXT
    lines = [(head, 30, True, t.INK), (roles, small, False, t.INK), (mission, small, False, (120, 40, 30))]
    if f.bonus:
        lines.append((localize(f.bonus, locale), small, False, t.GOLD_DEEP))
    return lines


def _wrapped(lines: list[tuple[str, int, bool, t.RGB]], width: float) -> list[tuple[str, int, bool, t.RGB]]:
    out = []
    for text, size, bold, ink in lines:
        out += [(part, size, bold, ink) for part in t.wrap(text, t.font(size, bold=bold), width)]
    return out


HAND_FIELDS = ("holds", "limit", "ship")
"""What the hand image draws of its own captain's entry."""


def hand_view(view: View) -> View:
    """What the hand image draws of a seat's view (:func:`render_hand` is given nothing else): the viewer's
    hand, missions (offered, chosen), their ship's crew limit and holds, and what they must decide while it
    is their decision. Another captain's move changes none of it unless it takes from the viewer or passes
    the decision to them, so their direct message is not drawn and sent again for it."""
    seat = view.get("viewer")
    mine = {k: view[k] for k in ("hand", "missions", "needs", "offered", "chosen") if k in view}
    players = view["players"]
    return {
        "viewer": seat,
        "seats": view["seats"],
        "deciding": _deciding(view, seat),
        **mine,
        "players": [{k: p[k] for k in HAND_FIELDS} if s == seat else None for s, p in enumerate(players)],
    }


def _deciding(view: View, seat: int | None) -> str | None:
    """What ``seat`` must decide now, or ``None`` while another captain decides (a hand view keeps it)."""
    if "deciding" in view:
        return view["deciding"]  # type: ignore[no-any-return]
    if seat is None or view.get("over") is not None or seat not in _actors(view):
        return None
    return prompt_text(dict(view))


HAND_TOP = t.TOP + 56
"""Where the hand's cards start, under the top band and the line about the viewer's ship."""
HAND_TEXT_X = M + 20 + HAND_CARD_W + 20
HAND_TEXT_W = W - M - 20 - HAND_TEXT_X
"""Where a hand row's words start, right of its small card, and their width."""


def render_hand(view: View, names: Sequence[str], locale: str = "en") -> bytes:
    """The viewer's hand under a band saying whose it is (and what they must decide while it is their
    decision), a row per card with everything it can be (crew, cargo, mission, bonus) in words a phone can
    read, and their unfinished missions with what each still needs; in ``locale``'s language."""
    seat = view.get("viewer")
    deciding = _deciding(view, seat)
    view = localize_tree(view, locale)
    hand, missions = view.get("hand", []), view.get("missions", [])
    rows = [_wrapped(_card_lines(BY_CODE[code], locale), HAND_TEXT_W) for code in hand]
    heights = [max(HAND_CARD_H + 30, len(lines) * HAND_LINE) + 24 for lines in rows]
    notes = [(c, "") for c in missions] + [(c, "offered") for c in view.get("offered", [])]
    if view.get("chosen"):
        notes.append((view["chosen"], "combat card"))
    blocks = [_mission_block(view, code, tag, W - 2 * M - 140, locale) for code, tag in notes]
    hand_h = sum(heights) if hand else 60
    y = HAND_TOP + hand_h + 16
    mission_h = 70 + (sum(len(b) * HAND_LINE + 16 for b in blocks) if blocks else HAND_LINE + 16)
    canvas = t.new_canvas(W, y + mission_h + M)
    _hand_band(canvas, view, names, deciding, locale)
    _hand_rows(canvas, hand, rows, heights, locale)
    _unfinished_missions(canvas, [code for code, _ in notes], blocks, (y, y + mission_h), locale)
    return t.to_png(canvas)


def _hand_band(canvas: Image.Image, view: View, names: Sequence[str], deciding: str | None, locale: str) -> None:
    """The band over a hand: whose it is and what they must decide, with a line about their crew and ship;
    or, for a spectator, that spectators hold no cards."""
    seat = view.get("viewer")
    drawn = t.seat_names(names, view["seats"], locale)
    title, icon = t.game_title(Pirates.title, locale), flag(76, 52, None)
    if seat is None:
        t.top_band(canvas, icon, title, (), tr(locale, "Spectators hold no cards."), x=M, width=W - 2 * M)
        return
    decides = " ".join(format_seats(localize(deciding, locale), drawn).split()) if deciding else None
    t.hand_band(canvas, icon, title, seat, drawn[seat], decides, locale, x=M, width=W - 2 * M)
    me, crew = view["players"][seat], len(view.get("hand", []))
    line = tr(locale, "Crew {crew}/{limit} · {ship}", crew=crew, limit=me["limit"], ship=_nation(me["ship"], locale))
    text, fnt = t.fit_text(line, W - 2 * M, 30)
    t.text(canvas, (M + 4, t.TOP + 20), text, fnt, t.FOAM, anchor="lm")


def _hand_rows(
    canvas: Image.Image,
    hand: Sequence[str],
    rows: Sequence[list[tuple[str, int, bool, t.RGB]]],
    heights: Sequence[int],
    locale: str,
) -> None:
    """A row per card in hand: its small card and name beside its lines of words; or that the hand holds no
    crew cards."""
    yy = HAND_TOP
    for code, lines, h in zip(hand, rows, heights, strict=True):
        t.panel(canvas, (M, yy, W - M, yy + h - 10), fill=t.PARCHMENT, shadow=False)
        t.paste(canvas, _hand_card(code), (M + 20, yy + 8))
        f = BY_CODE[code]
        label = f.name if not f.joker else "★"
        t.text(
            canvas,
            (M + 20 + HAND_CARD_W / 2, yy + HAND_CARD_H + 14),
            label,
            t.font(t.MIN_TEXT, bold=True),
            suit_colour(f),
            anchor="mt",
        )
        for n, (text, size, bold, ink) in enumerate(lines):
            t.text(canvas, (HAND_TEXT_X, yy + 12 + n * HAND_LINE), text, t.font(size, bold=bold), ink)
        yy += h
    if not hand:
        empty, fnt = t.fit_text(tr(locale, "No crew cards in hand."), W - 2 * M, 28, bold=False)
        t.text(canvas, (M, HAND_TOP + 10), empty, fnt, t.MIST)


def _unfinished_missions(
    canvas: Image.Image,
    codes: Sequence[str],
    blocks: Sequence[list[tuple[str, t.RGB]]],
    span: tuple[int, int],
    locale: str,
) -> None:
    """The panel of the viewer's missions from ``span[0]`` to ``span[1]``: each one's index beside its
    block of lines (:func:`_mission_block`), or where to get one when there are none."""
    y, end = span
    t.panel(canvas, (M, y, W - M, end), fill=t.PARCHMENT)
    heading, fnt = t.fit_text(tr(locale, "Your unfinished missions"), W - 2 * M - 40, 28)
    t.text(canvas, (M + 20, y + 14), heading, fnt, t.INK)
    yy = y + 60
    if not blocks:
        none, fnt = t.fit_text(tr(locale, "None: visit the magistrate while docked."), W - 2 * M - 40, 28, bold=False)
        t.text(canvas, (M + 20, yy), none, fnt, t.INK_SOFT)
    for code, block in zip(codes, blocks, strict=True):
        f = BY_CODE[code]
        index, fnt = t.fit_text(localize(f.label, locale), 84, 28)
        t.text(canvas, (M + 20, yy), index, fnt, suit_colour(f))
        for n, (text, ink) in enumerate(block):
            t.text(canvas, (M + 110, yy + 2 + n * HAND_LINE), text, t.font(t.MIN_TEXT), ink)
        yy += len(block) * HAND_LINE + 16


def _mission_block(view: View, code: str, tag: str, width: float, locale: str) -> list[tuple[str, t.RGB]]:
    """A mission's lines: what it asks and (unfinished) what it still needs, wrapped to ``width``."""
    f = BY_CODE[code]
    if tag == "combat card":
        body = tr(locale, "your secret combat card")
    elif tag == "offered":
        body = tr(locale, "offered: {kind} — {text}", kind=f.mission_title, text=f.mission_text)
    else:
        body = tr(locale, "{kind} — {text}", kind=f.mission_title, text=f.mission_text)
    fnt = t.font(t.MIN_TEXT)
    lines = [(part, t.INK) for part in t.wrap(body, fnt, width)]
    if not tag:
        lines += [(part, t.INK_SOFT) for part in t.wrap(localize(view["needs"][code], locale), fnt, width)]
    return lines
