"""The base of every game's slash-command group: ``/<game> new | open | move | hand | board | resign | rules``.

Each game cog subclasses :class:`GameCog` and gets its ``new`` and ``open`` commands from
:func:`table_commands`, which builds them from the game's engine: the members to challenge, the AI
seats, one option per engine :class:`~games.core.Option` (with its description, default and choices)
and the turn clock. Nothing about a game's table is written twice.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from cogs.app import TableBot
from cogs.clocks import CLOCKS, DEFAULT_CLOCK, clock_seconds
from games.core import Option
from games.registry import GAMES, GameSpec

log = logging.getLogger("tables.cogs")

GAME_OPTION = "The game's number, when you play several games in this channel"
CLOCK_OPTION = "Time per decision before the AI decides for an absent player (default: 1 hour)"
CLOCK_CHOICES = [app_commands.Choice(name=name, value=value) for value, (name, _seconds) in CLOCKS.items()]
"""Every game's ``new`` and ``open`` offer ``clock`` with these choices and ``DEFAULT_CLOCK``."""


def _option_parameter(option: Option) -> tuple[inspect.Parameter, list[app_commands.Choice[str]] | None]:
    """A slash-command parameter for an engine option: a boolean, a choice, a number or text."""
    if isinstance(option.default, bool):
        annotation: Any = bool
    elif isinstance(option.default, int):
        annotation = int
    else:
        annotation = str
    choices = [app_commands.Choice(name=option.label(c), value=c) for c in option.choices] or None
    return inspect.Parameter(
        option.name, inspect.Parameter.KEYWORD_ONLY, default=option.default, annotation=annotation
    ), choices


def _command(
    name: str,
    description: str,
    parameters: list[inspect.Parameter],
    descriptions: dict[str, str],
    choices: dict[str, list[app_commands.Choice[str]]],
    run: Callable[..., Any],
) -> app_commands.Command[Any, ..., None]:
    """A cog command with these keyword parameters, whose callback hands them to ``run(cog, interaction,
    values)``. discord.py reads a command's options from its callback's signature, so the signature is
    built here from the engine's options instead of being written out in every game's cog."""

    async def callback(self: GameCog, interaction: discord.Interaction, **values: Any) -> None:
        await run(self, interaction, values)

    head = [
        inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD),
        inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction),
    ]
    callback.__signature__ = inspect.Signature([*head, *parameters])  # type: ignore[attr-defined]
    callback.__qualname__ = f"GameCog.{name}"  # a method: discord.py binds it to the cog
    callback = app_commands.describe(**descriptions)(callback)
    if choices:
        callback = app_commands.choices(**choices)(callback)
    return app_commands.command(name=name, description=description)(callback)


def table_commands(kind: str, *, members: int, new: str | None = None) -> tuple[app_commands.Command, ...]:
    """The ``new`` and ``open`` commands of game ``kind``: ``new`` challenges up to ``members`` members
    (``player2`` …) and adds AI seats; ``open`` opens a table anyone may join. Both take the engine's
    options and the turn clock. ``new`` describes the ``new`` command (a default names the game)."""
    game = GAMES[kind].game
    title = game.title
    ai = inspect.Parameter(
        "ai", inspect.Parameter.KEYWORD_ONLY, default=0, annotation=app_commands.Range[int, 0, game.max_players - 1]
    )
    clock = inspect.Parameter("clock", inspect.Parameter.KEYWORD_ONLY, default=DEFAULT_CLOCK, annotation=str)
    options, choices = [], {"clock": CLOCK_CHOICES}
    for option in game.options:
        parameter, offered = _option_parameter(option)
        options.append(parameter)
        if offered:
            choices[option.name] = offered
    described = {"ai": "How many seats the bot's AI plays", "clock": CLOCK_OPTION}
    described |= {o.name: o.description for o in game.options}
    invitees = [
        inspect.Parameter(f"player{i}", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=discord.Member | None)
        for i in range(2, members + 1)
    ]
    invited = {
        p.name: "A member to challenge" if p.name == "player2" else "Another member to challenge" for p in invitees
    }

    async def challenge(cog: GameCog, interaction: discord.Interaction, values: dict[str, Any]) -> None:
        players = [values.pop(p.name, None) for p in invitees]
        count, when = values.pop("ai"), values.pop("clock")
        await cog.challenge(interaction, players, count, values, when)

    async def open_table(cog: GameCog, interaction: discord.Interaction, values: dict[str, Any]) -> None:
        count, when = values.pop("ai"), values.pop("clock")
        await cog.open_table(interaction, count, values, when)

    return (
        _command(
            "new",
            new or f"Challenge members (and AI seats) to a game of {title}",
            [*invitees, ai, *options, clock],
            invited | described,
            choices,
            challenge,
        ),
        _command(
            "open",
            f"Open a {title} table that anyone here can join",
            [ai, *options, clock],
            described,
            choices,
            open_table,
        ),
    )


@app_commands.guild_only()
class GameCog(commands.GroupCog):
    """Shared commands of a game; subclasses set ``kind`` and ``new, open = table_commands(...)``."""

    kind: ClassVar[str]

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        super().__init__()

    @property
    def spec(self) -> GameSpec:
        return GAMES[self.kind]

    async def challenge(
        self,
        interaction: discord.Interaction,
        players: Sequence[discord.Member | None],
        ai: int,
        options: dict[str, Any],
        clock: str = DEFAULT_CLOCK,
    ) -> None:
        """``new``: the subclass's command passes its members, AI seats, table options and clock."""
        invitees = [p for p in players if p is not None]
        work = self.bot.lobbies.challenge(interaction, self.kind, invitees, ai, options, clock_seconds(clock))
        await self.bot.host.guard(interaction, None, work)

    async def open_table(
        self, interaction: discord.Interaction, ai: int, options: dict[str, Any], clock: str = DEFAULT_CLOCK
    ) -> None:
        """``open``: the subclass's command passes its AI seats, table options and clock."""
        work = self.bot.lobbies.open_table(interaction, self.kind, ai, options, clock_seconds(clock))
        await self.bot.host.guard(interaction, None, work)

    @app_commands.command(name="move", description="Make your move by text, in the game's thread")
    @app_commands.describe(
        action="Your move; start typing to see the moves open to you",
        game=GAME_OPTION,
    )
    async def move(
        self, interaction: discord.Interaction, action: app_commands.Range[str, 1, 100], game: int | None = None
    ) -> None:
        await self.bot.host.guard(interaction, game, self.bot.host.move(interaction, self.kind, action, game))

    @move.autocomplete("action")
    async def move_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        try:
            pairs = await self.bot.host.autocomplete(interaction, self.kind, current)
        except Exception:
            # Autocomplete has no way to show an error; offering nothing is the safe answer.
            log.exception("Autocomplete failed for %s", interaction.user.id)
            return []
        return [app_commands.Choice(name=label, value=value) for label, value in pairs]

    @app_commands.command(name="hand", description="See your private view of this game (only you see it)")
    @app_commands.describe(game=GAME_OPTION)
    async def hand(self, interaction: discord.Interaction, game: int | None = None) -> None:
        async def show() -> None:
            record = await self.bot.host.my_game(interaction, self.kind, game)
            await self.bot.host.show_hand(interaction, record.id)

        await self.bot.host.guard(interaction, game, show())

    @app_commands.command(name="board", description="Post the current board again in this game's thread")
    @app_commands.describe(game=GAME_OPTION)
    async def board(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await self.bot.host.guard(interaction, game, self.bot.host.repost(interaction, self.kind, game))

    @app_commands.command(name="resign", description="Leave this game; the AI plays your seat from now on")
    @app_commands.describe(game=GAME_OPTION)
    async def resign(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await self.bot.host.guard(interaction, game, self.bot.host.resign(interaction, self.kind, game))

    @app_commands.command(name="rules", description="A summary of the rules")
    async def rules(self, interaction: discord.Interaction) -> None:
        embed = discord.Embed(
            title=f"{self.spec.emoji} {self.spec.title} — rules",
            description=self.spec.game.rules_text()[:4096],
            colour=self.spec.colour,
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)
