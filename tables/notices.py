"""Who is told what about a change: the outbox entries the table service writes with it.

After a step of a game: the board in the game's thread with every public event of the step, whose
decision it is (notifying only whom :mod:`tables.attention` says) and its buttons; each member's private
view (kept in one direct message, edited; sent anew as a turn reminder to members who asked for them) or
their private notes; the followers' copies of the public board; and, once the game is over, the final
message with its image, log and **Rematch** button, the result line where the game began, and the thread's
archiving a while later. Everything here runs inside the transaction of the change (``db``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass

from data.outbox import Owed
from data.store import GameRecord, Unit
from games.core import Event, format_seats
from games.i18n import T
from games.registry import GameSpec
from tables import menus, outbox, words
from tables.deadlines import deadlines
from tables.outbox import Image, Message
from tables.results import final_view
from tables.seating import deciders, image_names, players_out, seat_names, seats_of
from tables.turns import Plan, Step, Turn
from tables.turns import plan as plan_turn

ALT_LIMIT = 1000
"""Discord's limit for an attachment's description (an image's alt text)."""
ARCHIVE_AFTER = 86400.0
"""Seconds after a game ends before its thread is archived (the default of ``TABLES_ARCHIVE_AFTER``)."""


def board_image(spec: GameSpec, record: GameRecord, view: dict, *, render: str = "board") -> Image:
    """The spectators' board (or ``final`` sheet) of a record, described for screen readers."""
    alt = words.capped(format_seats(spec.game.summary(view), seat_names(spec.game, record)), ALT_LIMIT)
    suffix = "final" if render == "final" else str(record.version)
    return Image(render, spec.kind, view, image_names(spec, record), alt, f"{spec.kind}-{record.id}-{suffix}.png")


def board_components(spec: GameSpec, record: GameRecord) -> list[dict]:
    """The board's buttons: the choices of every seat a member decides for now (the AI's included while
    the member is away: a click brings them back)."""
    game, state = spec.game, record.state
    choices = []
    if record.status == "active":
        choices = [
            c
            for s in game.to_act(state)
            if record.seats[game.controller(state, s)].member
            for c in game.choices(state, s)
        ]
    names = seat_names(game, record)  # labels show no markdown: names as they are
    labels = [format_seats(menus.button_label(label, choices), names) for label in menus.top_labels([choices])]
    return menus.board_components(record.id, record.version, choices, labels, active=record.status == "active")


@dataclass(frozen=True, slots=True)
class Board:
    """What a change shows in its game's thread (:func:`board`): the rows it owes, and how."""

    owed: list[Owed]
    plan: Plan
    answer: int | None = None
    """Of ``owed``, the update of the board the member clicked, which their click may deliver as its answer."""


def members_deciding(spec: GameSpec, record: GameRecord) -> tuple[int, ...]:
    """The members who decide now (not the AI, nor the AI for an away member)."""
    seats = (record.seats[p] for p in deciders(spec, record)) if record.status == "active" else ()
    return tuple(sorted({s.user_id for s in seats if not s.is_ai and s.user_id is not None}))


def turn_of(
    spec: GameSpec,
    before: GameRecord,
    record: GameRecord,
    events: Sequence[Event],
    *,
    actor: int | None = None,
    repost: bool = False,
    now: float = 0.0,
) -> Plan:
    """What a change from ``before`` to ``record`` shows in the thread (:func:`tables.turns.plan`): the live
    board updated in place, a new board when the decision passes to other members or one is asked for
    (``repost``), nothing while the AI plays on. ``actor``: the member whose own decision the change was."""
    names = words.names_shown(spec, record)
    lines = [words.event_line(e, names) for e in events if e.seat is None]
    over = record.status != "active"
    step = Step(lines, actor, members_deciding(spec, record), over, now, spec.game.round_of(record.state), repost)
    return plan_turn(Turn.of(before.turn), step)


async def board(
    db: Unit,
    spec: GameSpec,
    before: GameRecord,
    record: GameRecord,
    plan: Plan,
    notifies: Sequence[int],
    followers: Sequence[int],
    *,
    answered: bool = False,
    now: float = 0.0,
) -> Board:
    """The rows that show ``plan`` (:func:`turn_of`) of a change from ``before`` to ``record``: the update of
    the live board (``answered``: delivered by the click's answer, if it can be), the new board (it
    ``notifies`` members), and, with a new board or as the game ends, what each of the game's ``followers``
    gets by DM."""
    view = spec.game.view(record.state, None)
    owed: list[Owed] = []
    answer = None
    if plan.edit is not None:
        owed.append(await _edit(db, spec, record, view, plan, Turn.of(before.turn).n))
        if answered:
            owed[-1], answer = outbox.answering(owed[-1], now=now), 0
    if plan.post is not None:
        owed += await _posts(db, spec, record, view, plan, notifies)
    if plan.followers and (plan.post is not None or record.status != "active") and followers:
        head = f"🔭 {words.title(spec, record)} — {words.HERE}"
        update = Message(words.capped("\n".join([head, *plan.followers])), [board_image(spec, record, view)])
        owed += [outbox.direct(record.id, f, update, priority=outbox.FOLLOWERS) for f in followers]
    return Board(owed, plan, answer)


async def board_again(
    db: Unit, spec: GameSpec, record: GameRecord, notifies: Sequence[int], followers: Sequence[int], *, now: float
) -> list[Owed]:
    """A new board of the game as it stands (its first, one asked for, a seat handed over, the game moved out of
    its thread), in transaction ``db``, which stores it as the live board (``record.turn`` too: the caller's
    copy, then): it ``notifies`` those members."""
    plan = turn_of(spec, record, record, [], repost=True, now=now)
    await db.games.set_turn(record.id, plan.turn.stored())
    record.turn, record.revision = plan.turn.stored(), record.revision + 1
    return (await board(db, spec, record, record, plan, notifies, followers, now=now)).owed


async def _edit(db: Unit, spec: GameSpec, record: GameRecord, view: dict, plan: Plan, n: int) -> Owed:
    """The update of board ``n``: while its members decide on, the new position, its lines and its buttons;
    as its turn ends, its lines (its image stays as it was, its buttons go)."""
    assert plan.edit is not None
    if plan.edit_live:
        status = await _status(db, spec, record, view)
        content = "\n".join([*plan.edit, *status])
        message = Message(content, [board_image(spec, record, view)], components=board_components(spec, record))
        return outbox.edit_board(record.id, n, message, plan.lines, keep_image=False, status=len(status))
    return outbox.edit_board(record.id, n, Message("\n".join(plan.edit)), plan.lines, keep_image=True)


async def _status(db: Unit, spec: GameSpec, record: GameRecord, view: dict) -> list[str]:
    """A board's last lines: whose decision it is (with their deadline), and who is out."""
    status = [words.waiting_line(spec, record, view, await deadlines(db, record)), words.out_line(spec, record)]
    return [line for line in status if line]


async def _posts(
    db: Unit, spec: GameSpec, record: GameRecord, view: dict, plan: Plan, notifies: Sequence[int]
) -> list[Owed]:
    """A new board: its lines, whose decision it is, the image with its buttons (earlier lines in posts of their
    own when they do not fit one message)."""
    status = await _status(db, spec, record, view)
    *earlier, last = words.chunks([*(plan.post or ()), *status]) or [""]
    posts = [outbox.to_place(record.id, Message(text)) for text in earlier]
    waited = bool(plan.turn.deciders)
    image = board_image(spec, record, view)
    message = Message(last, [image], components=board_components(spec, record), notifies=list(notifies))
    priority = outbox.WAITED_FOR if waited else outbox.THREAD
    posts.append(
        outbox.to_place(
            record.id,
            message,
            priority=priority,
            board=record.version,
            turn=plan.turn.n,
            strip=plan.strip,
            title=words.title(spec, record),
            status=len(status),
        )
    )
    return posts


def private_message(spec: GameSpec, record: GameRecord, player: int, *, kept: bool = False) -> Message:
    """A player's private view: the summary of every seat they control and, where the game draws one, an
    image per seat; labelled with the game and its place. ``kept``: the one private message a member keeps
    for the game (their DM, edited in place as what they hold changes): its image is titled with whose hand it
    is, never with what they must decide, which the board says (and **My hand**, drawn when asked): an edit
    each time the decision comes and goes would spend Discord's global limit on nothing they hold."""
    game, state = spec.game, record.state
    names = words.names_shown(spec, record)
    seats = seats_of(game, state, player)
    views = {s: game.view(state, s) for s in seats}
    summaries = {s: game.seat_summary(views[s]) for s in seats}
    parts = [format_seats(summaries[s], names) for s in seats]
    content = words.capped(words.private_head(spec, record) + "\n" + "\n".join(parts))
    images = []
    if spec.hand_image:
        raw, drawn = seat_names(game, record), image_names(spec, record)
        for s in seats[:10]:
            suffix = f"-{s}" if len(seats) > 1 else ""
            alt = words.capped(format_seats(summaries[s], raw), ALT_LIMIT)
            drawn_view = spec.hand_view(views[s])  # only what it draws: an image that would not change is not sent
            if kept and "deciding" in drawn_view:
                drawn_view = {**drawn_view, "deciding": None}
            images.append(Image("hand", spec.kind, drawn_view, drawn, alt, f"{spec.kind}-{record.id}-hand{suffix}.png"))
    return Message(content, images)


def _digest(message: Message) -> str:
    # Views are built in a fixed key order: their JSON needs no sorting to be the same for the same view.
    views = json.dumps([i.view for i in message.images], separators=(",", ":"))
    return hashlib.sha256((message.content + views).encode()).hexdigest()


def private_notes(spec: GameSpec, record: GameRecord, events: Sequence[Event]) -> dict[int, list[str]]:
    """The private events of a step, as lines per player."""
    names = words.names_shown(spec, record)
    notes: dict[int, list[str]] = {}
    for e in events:
        if e.seat is not None:
            notes.setdefault(spec.game.controller(record.state, e.seat), []).append(format_seats(e.text, names))
    return notes


def privates(spec: GameSpec, record: GameRecord, events: Sequence[Event]) -> Owed:
    """What a step owes members privately, written with the step and worked out after its board: each
    member's private view, notes and reminder (:func:`private`, run by the delivery loop)."""
    notes = private_notes(spec, record, events)
    return outbox.privates(record.id, {str(p): lines for p, lines in notes.items()})


async def private(db: Unit, spec: GameSpec, record: GameRecord, notes: dict[int, list[str]]) -> list[Owed]:
    """Each member's private view and ``notes``, and turn reminders for those who asked for them. A
    private view that did not change is not sent again; one reminder per stretch of decisions."""
    game = spec.game
    out = players_out(game, record)
    active = record.status == "active"
    deciding = set(deciders(spec, record))
    owed = []
    for seat in record.seats:
        if seat.user_id is None or seat.resigned or seat.seat in out:
            continue
        mine = notes.get(seat.seat, [])
        reminded = await db.outbox.marker(record.id, seat.seat, "turn") == "1"
        remind = False
        if seat.seat not in deciding:
            if reminded:
                await db.outbox.set_marker(record.id, seat.seat, "turn", "0")
        else:
            remind = not reminded and await db.settings.notify_enabled(seat.user_id)
        if spec.dm_hands and (active or game.is_over(record.state)):  # once over: the final private view
            message = private_message(spec, record, seat.seat, kept=True)
            digest = _digest(message)
            if mine or remind or await db.outbox.marker(record.id, seat.seat, "hand") != digest:
                owed.append(outbox.hand(record.id, seat.seat, seat.user_id, message, mine, fresh=remind))
                await db.outbox.set_marker(record.id, seat.seat, "hand", digest)
        else:
            if mine:
                owed.append(outbox.direct(record.id, seat.user_id, Message(words.capped("\n".join(mine)))))
            if remind:
                text = "⏰ " + T("Your turn in {game}: {place}", game=words.title(spec, record), place=words.HERE)
                owed.append(outbox.direct(record.id, seat.user_id, Message(text)))
        if remind:
            await db.outbox.set_marker(record.id, seat.seat, "turn", "1")
    return owed


def ending(spec: GameSpec, record: GameRecord, told: Sequence[str] = (), *, strip: bool = False) -> list[Owed]:
    """Once a game is over: the final message (``told``: the lines no board showed; the result, image, log,
    **Rematch**; the last board loses its buttons, if it still has them: ``strip``) and the result line where
    the game began."""
    content = words.capped("\n".join([*told, *words.final_lines(spec, record)]))
    images = []
    if record.status == "finished" and spec.game.is_over(record.state):
        view = final_view(spec.game, record.state, record.result)
        images.append(board_image(spec, record, view, render="final"))
    # **Rematch**, and **My hand**: a member's final private view (the boards have no buttons left).
    members = any(s.user_id for s in record.seats)
    components = [{"type": "rematch", "game": record.id}, {"type": "hand", "game": record.id}] if members else []
    final = outbox.to_place(record.id, Message(content, images, record.id, components), strip_board=strip)
    line = Message(words.result_line(spec, record))
    result = outbox.to_channel(
        outbox.game_lane(record.id), record.channel_id, record.guild_id, line, game_id=record.id, result_of=record.id
    )
    return [final, result]
