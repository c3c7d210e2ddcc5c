"""The one authority rule: who may act on a game, a lobby or a seat, and from where.

* **Where.** A game or lobby is acted on only from its own server; in direct messages, only by a member
  seated in the game. A game of another server does not exist as far as the caller can tell ("There is no
  game #N here"), so no command reaches into, or reveals, another server's games.
* **Who.** A seat's decisions by the member who holds it, on the board of that decision or a later one
  (:func:`may_decide`); resigning by a seated member; abandoning by the game's host or a member with Manage
  Threads; handing a seat over by its member, the host or such a
  moderator, and only to a member of the game's server who has no place at the table yet; setting a
  server's language by a member with Manage Server, in that server; confirming ``/games forget-me`` by the
  member who asked it, alone; organizing a tournament (creating,
  starting early, cancelling) by a member with Manage Events or Manage Server, its own organizer, or
  anyone where the server allows it (:func:`may_organize`). A tournament of another server does not
  exist for the caller, as a game does not.

These checks read the record under the game's lock; the store's conditional writes then settle any race
with another process or click (the version read, the seat's holder, the lobby's version, one open rematch
per game), so a check and its change cannot come apart.
"""

from __future__ import annotations

from dataclasses import dataclass

from data.store import GameRecord, LobbyRecord, TournamentRecord
from games.core import format_seats
from games.i18n import T
from games.registry import GAMES
from tables import words
from tables.seating import deciding, players_out, seat_names


class GameError(Exception):
    """An expected problem with a user's request; ``str(exc)`` (a marked message) is shown to that user only,
    in their language."""


class NotSeated(GameError):
    pass


class NotYourTurn(GameError):
    pass


class StaleBoard(GameError):
    pass


@dataclass(frozen=True, slots=True)
class Caller:
    """Who asks, and from where: what the cog knows of an interaction."""

    user_id: int
    name: str
    """Their display name (raw: shown only through :func:`tables.words.shown`)."""
    guild_id: int | None
    """The server the command came from (``None``: a direct message)."""
    channel_id: int | None = None
    moderator: bool = False
    """They may manage threads where they asked (Discord's Manage Threads)."""
    bot: bool = False
    locale: str | None = None
    """Their Discord language (their answers, pickers and private messages follow it); ``None``: unknown (a
    member named in someone else's command)."""
    guild_locale: str | None = None
    """Their server's preferred locale, as Discord says it (``None``: in DMs)."""
    manager: bool = False
    """They may manage the server where they asked (Discord's Manage Server): set its games' language."""
    events: bool = False
    """They may manage the server's events where they asked (Discord's Manage Events): organize tournaments."""


def reach(caller: Caller, record: GameRecord) -> None:
    """The game is within the caller's reach: asked from its server, or in DMs by a member seated in it."""
    here = (
        record.guild_id == caller.guild_id
        if caller.guild_id is not None
        else record.seat_of(caller.user_id) is not None
    )
    if not here:
        raise GameError(T("There is no game #{number} here.", number=record.id))


def reach_lobby(caller: Caller, lobby: LobbyRecord) -> None:
    if lobby.guild_id != caller.guild_id:
        raise GameError(T("That invitation is not from this server."))


def reach_tournament(caller: Caller, tournament: TournamentRecord) -> None:
    """The tournament is within the caller's reach: asked from its server."""
    if tournament.guild_id != caller.guild_id:
        raise GameError(T("There is no tournament #{number} here.", number=tournament.id))


def may_organize(caller: Caller, everyone: bool, host_id: int | None = None) -> None:
    """Whether the caller may organize a tournament (create one; start or cancel ``host_id``'s): a member with
    Manage Events or Manage Server, the tournament's own organizer, or anyone where the server lets
    ``everyone``."""
    if caller.guild_id is None:
        raise GameError(T("Tournaments are played in a server, not in direct messages."))
    if not (caller.events or caller.manager or everyone or caller.user_id == host_id):
        raise GameError(T("Only a member with Manage Events or Manage Server can organize tournaments here."))


def moderates(caller: Caller, record: GameRecord) -> bool:
    """The caller is the game's host or a moderator of its server."""
    return caller.user_id == record.host_id or (caller.moderator and caller.guild_id == record.guild_id)


def may_abandon(caller: Caller, record: GameRecord) -> None:
    if not moderates(caller, record):
        raise GameError(T("Only the game's host or a member with Manage Threads can abandon it."))


def may_offer(caller: Caller, record: GameRecord, player: int) -> None:
    """Whether the caller may hand place ``player`` over: its member, the host or a moderator."""
    if caller.user_id != record.seats[player].user_id and not moderates(caller, record):
        raise GameError(T("Only the seat's player, the game's host or a member with Manage Threads can hand it over."))


def may_set_language(caller: Caller) -> None:
    """Whether the caller may set the language of the server they ask in: a member with Manage Server."""
    if caller.guild_id is None:
        raise GameError(T("Set a server's language in the server."))
    if not caller.manager:
        raise GameError(T("Only a member with Manage Server can set this server's language."))


def may_confirm(caller: Caller, user_id: int) -> None:
    """Whether the caller may answer a confirmation asked of member ``user_id`` (``/games forget-me``): only
    that member."""
    if caller.user_id != user_id:
        raise GameError(T("Only the member who asked can confirm this."))


def seated(caller: Caller, record: GameRecord) -> int:
    """The caller's place at the table, or :class:`NotSeated`."""
    player = record.seat_of(caller.user_id)
    if player is None:
        raise NotSeated(T("You are not playing in {game}.", game=f"{GAMES[record.kind].title} #{record.id}"))
    return player


@dataclass(frozen=True, slots=True)
class Permit:
    """What the rule lets a member decide in a game now, and what the commit's write checks: that they still
    hold place ``player`` (a seat handed over meanwhile refuses the commit)."""

    user_id: int
    player: int
    """Their place at the table (a record seat number)."""
    seats: tuple[int, ...]
    """The engine seats they may decide for now."""

    @property
    def member(self) -> tuple[int, int]:
        """``(user_id, player)``, as the commit checks it."""
        return (self.user_id, self.player)


def may_decide(record: GameRecord, user_id: int, version: int | None = None) -> Permit:
    """The engine seats member ``user_id`` may decide for now, on the board ``version`` they saw (``None``: the
    latest), or the specific reason they may not as a :class:`GameError`.

    A click from an older board is good for a seat whose own decision has not changed since (``Game.since``):
    another seat's secret choice does not make it stale."""
    spec = GAMES[record.kind]
    game, state = spec.game, record.state
    if record.status != "active":
        raise GameError(T("{game} is over.", game=f"{spec.title} #{record.id}"))
    player = record.seat_of(user_id)
    if player is None:
        raise NotSeated(T("You are not playing in {game}.", game=f"{spec.title} #{record.id}"))
    if record.seats[player].resigned:
        raise NotSeated(T("You resigned from this game; the AI plays your seat now."))
    if player in players_out(game, record):
        raise NotYourTurn(T("You are out of this game; the others play on."))
    seats = deciding(game, record, player)
    if version is not None:
        fresh = [s for s in seats if game.since(state, s) <= version <= record.version]
        if version != record.version and not fresh:
            raise StaleBoard(T("That board is out of date: use the buttons on the latest board message."))
        seats = fresh
    if not seats:
        names = seat_names(game, record)
        mine = [s for s in range(game.seats_of(state)) if game.controller(state, s) == player]
        why = next((text for s in mine if (text := game.waiting(state, s))), None)
        if why is not None:
            raise NotYourTurn(format_seats(why, [words.shown(n) for n in names]))
        waiting = ", ".join(dict.fromkeys(words.shown(names[s]) for s in game.to_act(state)))
        raise NotYourTurn(T("It is not your turn: waiting for {players}.", players=waiting))
    return Permit(user_id, player, tuple(seats))
