"""Every game's slash-command group: ``/<game> new | open | move | hand | board | resign | rules``.

A game's cog is built from its registry entry (:func:`cog_class`): the group's name and description, the
members ``new`` may challenge, its AI seats, one option per engine :class:`~games.core.Option` (with its
description, default and choices) and the turn clock. Nothing about a game is written twice. Each command
turns the interaction into a call of the table service and answers with what it says.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Callable, Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.handlers import caller_of, confirm, deliver, guard, show, tables_of, tell
from games.core import Option
from games.i18n import L, T, localize
from games.registry import GAMES, GameSpec
from tables.words import AI_LEVELS, CLOCKS, DEFAULT_CLOCK

log = logging.getLogger("tables.cogs")

GAME_OPTION = L("The game's number, when you play several games in this channel")
CLOCK_OPTION = L("Time per decision before the AI decides for an absent player (default: 1 hour)")
CLOCK_CHOICES = [app_commands.Choice(name=name, value=value) for value, (name, _seconds) in CLOCKS.items()]
"""Every game's ``new`` and ``open`` offer ``clock`` with these choices and ``DEFAULT_CLOCK``."""
AI_LEVEL_OPTION = L("How the AI seats play: normal, or hard (it searches ahead; a second or so per decision)")
AI_LEVEL_CHOICES = [app_commands.Choice(name=name, value=value) for value, name in AI_LEVELS.items()]


def valued(text: str) -> app_commands.locale_str:
    """A description written with values (a marked message), which Discord cannot look up as it is: its
    English for Discord, and the marked message for the translator (``extras["marked"]``) to write out."""
    return app_commands.locale_str(localize(text), marked=text)


def option_parameter(option: Option) -> tuple[inspect.Parameter, list[app_commands.Choice[str]] | None]:
    """A slash-command parameter for an engine option: a boolean, a choice, a number or text."""
    if isinstance(option.default, bool):
        annotation: Any = bool
    elif isinstance(option.default, int):
        annotation = app_commands.Range[int, option.bounds[0], option.bounds[1]] if option.bounds else int
    else:
        annotation = str
    choices = [app_commands.Choice(name=option.label(c), value=c) for c in option.choices] or None
    return inspect.Parameter(
        option.name, inspect.Parameter.KEYWORD_ONLY, default=option.default, annotation=annotation
    ), choices


def command(
    name: str,
    description: str | app_commands.locale_str,
    parameters: list[inspect.Parameter],
    descriptions: dict[str, str],
    choices: dict[str, list[app_commands.Choice[str]]],
    run: Callable[..., Any],
    cog: str = "GameCog",
) -> app_commands.Command[Any, ..., None]:
    """A cog command with these keyword parameters, whose callback hands them to ``run(cog, interaction,
    values)``. discord.py reads a command's options from its callback's signature, so the signature is
    built here from the engine's options instead of being written out in every game's cog."""

    async def callback(self: commands.Cog, interaction: discord.Interaction, **values: Any) -> None:
        await run(self, interaction, values)

    head = [
        inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD),
        inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction),
    ]
    callback.__signature__ = inspect.Signature([*head, *parameters])  # type: ignore[attr-defined]
    callback.__qualname__ = f"{cog}.{name}"  # a method: discord.py binds it to the cog
    callback = app_commands.describe(**descriptions)(callback)
    if choices:
        callback = app_commands.choices(**choices)(callback)
    return app_commands.command(name=name, description=description)(callback)


def table_commands(spec: GameSpec) -> tuple[app_commands.Command, ...]:
    """The ``new`` and ``open`` commands of a game: ``new`` challenges up to ``spec.members`` members
    (``player2`` …) and adds AI seats; ``open`` opens a table anyone may join. Both take the engine's
    options and the turn clock."""
    game = spec.game
    ai = inspect.Parameter(
        "ai", inspect.Parameter.KEYWORD_ONLY, default=0, annotation=app_commands.Range[int, 0, game.max_players - 1]
    )
    clock = inspect.Parameter("clock", inspect.Parameter.KEYWORD_ONLY, default=DEFAULT_CLOCK, annotation=str)
    level = inspect.Parameter("ai_level", inspect.Parameter.KEYWORD_ONLY, default="normal", annotation=str)
    options, choices = [], {"clock": CLOCK_CHOICES, "ai_level": AI_LEVEL_CHOICES}
    for option in game.options:
        parameter, offered = option_parameter(option)
        options.append(parameter)
        if offered:
            choices[option.name] = offered
    described = {"ai": L("How many seats the bot's AI plays"), "clock": CLOCK_OPTION, "ai_level": AI_LEVEL_OPTION}
    described |= {o.name: o.description for o in game.options}
    invitees = [
        inspect.Parameter(f"player{i}", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=discord.Member | None)
        for i in range(2, spec.members + 1)
    ]
    invited = {
        p.name: L("A member to challenge") if p.name == "player2" else L("Another member to challenge")
        for p in invitees
    }

    async def challenge(cog: GameCog, interaction: discord.Interaction, values: dict[str, Any]) -> None:
        players = [values.pop(p.name, None) for p in invitees]
        count, when, level = values.pop("ai"), CLOCKS[values.pop("clock")][1], values.pop("ai_level")
        await cog.challenge(interaction, [p for p in players if p is not None], count, values, when, level)

    async def open_table(cog: GameCog, interaction: discord.Interaction, values: dict[str, Any]) -> None:
        count, when, level = values.pop("ai"), CLOCKS[values.pop("clock")][1], values.pop("ai_level")
        await cog.open_table(interaction, count, values, when, level)

    return (
        command(
            "new", spec.challenge, [*invitees, ai, *options, clock, level], invited | described, choices, challenge
        ),
        command(
            "open",
            valued(T("Open a {game} table that anyone here can join", game=game.title)),
            [ai, *options, clock, level],
            described,
            choices,
            open_table,
        ),
    )


@app_commands.guild_only()
class GameCog(commands.GroupCog):
    """The commands of one game; :func:`cog_class` makes a subclass per registered game."""

    spec: GameSpec

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    async def challenge(
        self,
        interaction: discord.Interaction,
        members: Sequence[discord.Member],
        ai: int,
        options: dict[str, Any],
        clock: int,
        ai_level: str = "normal",
    ) -> None:
        """``new``: challenge members (and add AI seats); with no member, the game starts at once."""
        lobbies = tables_of(interaction).lobbies
        invitees = [caller_of(interaction, m) for m in members]
        parent = getattr(interaction.channel, "parent_id", None)

        async def work() -> None:
            caller = caller_of(interaction)
            kind = self.spec.kind
            answer = await lobbies.challenge(
                caller, kind, invitees, ai, options, clock, ai_level=ai_level, parent_id=parent
            )
            await deliver(interaction, answer.entry, answer.note)

        await guard(interaction, None, work())

    async def open_table(
        self, interaction: discord.Interaction, ai: int, options: dict[str, Any], clock: int, ai_level: str = "normal"
    ) -> None:
        """``open``: a table anyone here may join."""
        lobbies = tables_of(interaction).lobbies
        parent = getattr(interaction.channel, "parent_id", None)

        async def work() -> None:
            answer = await lobbies.open_table(
                caller_of(interaction), self.spec.kind, ai, options, clock, ai_level=ai_level, parent_id=parent
            )
            await deliver(interaction, answer.entry, answer.note)

        await guard(interaction, None, work())

    @app_commands.command(name="move", description=L("Make your move by text, in the game's thread"))
    @app_commands.describe(action=L("Your move; start typing to see the moves open to you"), game=GAME_OPTION)
    async def move(
        self, interaction: discord.Interaction, action: app_commands.Range[str, 1, 100], game: int | None = None
    ) -> None:
        tables = tables_of(interaction)
        caller = caller_of(interaction)

        async def work() -> None:
            record, move, seat, label = await tables.moves.typed(caller, self.spec.kind, action, game)
            await tables.play.act(caller, record.id, move, seat=seat)
            await confirm(interaction, label, picker=False)

        await guard(interaction, game, work())

    @move.autocomplete("action")
    async def move_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        try:
            pairs = await tables_of(interaction).moves.autocomplete(caller_of(interaction), self.spec.kind, current)
        except Exception:
            # Autocomplete has no way to show an error; offering nothing is the safe answer.
            log.exception("Autocomplete failed for %s", interaction.user.id)
            return []
        return [app_commands.Choice(name=label, value=value) for label, value in pairs]

    @app_commands.command(name="hand", description=L("See your private view of this game (only you see it)"))
    @app_commands.describe(game=GAME_OPTION)
    async def hand(self, interaction: discord.Interaction, game: int | None = None) -> None:
        tables = tables_of(interaction)

        async def work() -> None:
            record = await tables.moves.my_game(caller_of(interaction), self.spec.kind, game)
            message = await tables.moves.private_view(caller_of(interaction), record.id)
            await interaction.response.defer(ephemeral=True, thinking=True)
            await show(interaction, message)

        await guard(interaction, game, work())

    @app_commands.command(name="board", description=L("Post the current board again in this game's thread"))
    @app_commands.describe(game=GAME_OPTION)
    async def board(self, interaction: discord.Interaction, game: int | None = None) -> None:
        tables = tables_of(interaction)

        async def work() -> None:
            record = await tables.moves.my_game(caller_of(interaction), self.spec.kind, game)
            await tables.places.repost(caller_of(interaction), record.id)
            await tell(interaction, T("Board posted."))

        await guard(interaction, game, work())

    @app_commands.command(name="resign", description=L("Leave this game; the AI plays your seat from now on"))
    @app_commands.describe(game=GAME_OPTION)
    async def resign(self, interaction: discord.Interaction, game: int | None = None) -> None:
        tables = tables_of(interaction)

        async def work() -> None:
            record = await tables.moves.my_game(caller_of(interaction), self.spec.kind, game)
            await tables.play.resign(caller_of(interaction), record.id)
            await tell(interaction, T("You resigned."))

        await guard(interaction, game, work())

    @app_commands.command(name="rules", description=L("A summary of the rules"))
    async def rules(self, interaction: discord.Interaction) -> None:
        locale = interaction.locale  # an ephemeral answer: in the language of the member who asked
        embed = discord.Embed(
            title=f"{self.spec.emoji} " + localize(T("{game} — rules", game=self.spec.title), locale),
            description=localize(self.spec.game.rules_text(), locale)[:4096],
            colour=self.spec.colour,
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)


def cog_class(spec: GameSpec) -> type[GameCog]:
    """The command group of a registered game, built from its registry entry."""
    game = spec.game
    tagline = T(spec.tagline) if spec.tagline else ""  # an L() text, in the catalog
    summary = T(
        "{game}: {tagline} ({low}–{high})",
        game=spec.title,
        tagline=tagline,
        low=game.min_players,
        high=game.max_players,
    )
    description = valued(summary)
    new, open_ = table_commands(spec)
    return type(
        f"{spec.kind.title()}Cog",
        (GameCog,),
        {"spec": spec, "new": new, "open": open_, "__doc__": f"``/{spec.kind}``: {localize(summary)}."},
        group_name=spec.kind,
        group_description=description,
    )


async def add_game_cogs(bot: commands.Bot) -> None:
    """Every registered game's command group, built from its registry entry."""
    for spec in GAMES.values():
        await bot.add_cog(cog_class(spec)(bot))
