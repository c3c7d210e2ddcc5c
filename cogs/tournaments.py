"""``/tournament``: new, start, cancel, join, leave, standings, list (:mod:`tables.tournaments.service`). ``new``
takes every registered game's options, from the registry, all optional: one the game has not is refused."""

from __future__ import annotations

import inspect
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.base import CLOCK_CHOICES, CLOCK_OPTION, command, option_parameter, valued
from cogs.courier import Courier
from cogs.handlers import caller_of, deliver, follow_up, guard, tables_of, tell
from games.i18n import L, T, localize
from games.registry import GAMES
from tables.words import CLOCKS, DEFAULT_CLOCK

TOURNAMENT = L("The tournament's number (default: this server's newest)")
FORMATS = {"swiss": L("Swiss"), "round-robin": L("Round robin")}
FORMAT_CHOICES = [app_commands.Choice(name=name, value=value) for value, name in FORMATS.items()]
GAME_CHOICES = [app_commands.Choice(name=localize(spec.title), value=kind) for kind, spec in GAMES.items()]


def _parameter(name: str, annotation: Any, default: Any) -> inspect.Parameter:
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation)


def new_command() -> app_commands.Command[Any, ..., None]:
    """``/tournament new``: the tournament's own settings, then every game's options (optional; each says
    which game it is for)."""
    parameters = [
        _parameter("game", str, inspect.Parameter.empty), _parameter("format", str, "swiss"),
        _parameter("rounds", app_commands.Range[int, 1, 20] | None, None),
        _parameter("table", app_commands.Range[int, 1, 8] | None, None),
        _parameter("starts", app_commands.Range[str, 1, 40], "15"), _parameter("clock", str, DEFAULT_CLOCK),
    ]  # fmt: skip
    described: dict[str, Any] = {
        "game": L("Which game the tournament plays"),
        "format": L("Swiss (tables of equal scores) or round robin (everyone meets everyone, tables of 2)"),
        "rounds": L("Swiss rounds (default: enough to find a winner)"),
        "table": L("Players per table (default: the game's usual table)"),
        "starts": L("When it starts: minutes from now (default 15), a time in UTC (20:30) or a Discord timestamp"),
        "clock": CLOCK_OPTION,
    }
    choices: dict[str, Any] = {"game": GAME_CHOICES, "format": FORMAT_CHOICES, "clock": CLOCK_CHOICES}
    for spec in GAMES.values():
        for option in spec.game.options:
            if option.name in described:
                continue  # two games name an option alike: one parameter, described by the first
            parameter, offered = option_parameter(option)
            annotation = parameter.annotation if isinstance(option.default, bool | int) else str
            parameters.append(_parameter(option.name, annotation | None, None))
            # The option's own description (a game's options have names of their own: `variant` is Sewer Pirats',
            # `teams` Sewer Rat's); with the game's name before it, some would pass Discord's 100 characters.
            described[option.name] = valued(T(option.description))
            if offered:
                choices[option.name] = offered

    async def new(cog: TournamentCog, interaction: discord.Interaction, values: dict[str, Any]) -> None:
        kind, fmt, rounds, table, starts = (values.pop(k) for k in ("game", "format", "rounds", "table", "starts"))
        clock = CLOCKS[values.pop("clock")][1]
        options = {name: value for name, value in values.items() if value is not None}
        create = tables_of(interaction).tournaments.create(
            caller_of(interaction), kind, fmt, rounds=rounds, table=table, starts=starts, clock=clock, options=options
        )

        async def work() -> None:
            answer = await create
            await deliver(interaction, answer.entry, answer.note)

        await guard(interaction, None, work())

    about = L("Set up a tournament: members sign up, then the rounds are drawn and played")
    return command("new", about, parameters, described, choices, new, cog="TournamentCog")


@app_commands.guild_only()
class TournamentCog(commands.GroupCog, group_name="tournament", group_description=L("Tournaments and game nights")):
    new = new_command()

    async def _act(self, interaction: discord.Interaction, tournament: int | None, op: str) -> None:
        """``start``, ``cancel``, ``join`` or ``leave`` on the tournament named (or this server's newest)."""

        async def work() -> None:
            tournaments, caller = tables_of(interaction).tournaments, caller_of(interaction)
            done = await getattr(tournaments, op)(caller, (await tournaments.find(caller, tournament)).id)
            await tell(interaction, done if isinstance(done, str) else done.note)

        await guard(interaction, None, work())

    @app_commands.command(name="start", description=L("Start a tournament now, before its time (its organizer)"))
    @app_commands.describe(tournament=TOURNAMENT)
    async def start(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        await self._act(interaction, tournament, "start")

    @app_commands.command(name="cancel", description=L("Cancel a tournament (its organizer)"))
    @app_commands.describe(tournament=TOURNAMENT)
    async def cancel(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        await self._act(interaction, tournament, "cancel")

    @app_commands.command(name="join", description=L("Sign up for a tournament"))
    @app_commands.describe(tournament=TOURNAMENT)
    async def join(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        await self._act(interaction, tournament, "join")

    @app_commands.command(name="leave", description=L("Leave a tournament: you are not drawn again"))
    @app_commands.describe(tournament=TOURNAMENT)
    async def leave(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        await self._act(interaction, tournament, "leave")

    @app_commands.command(name="standings", description=L("A tournament's standings (an image)"))
    @app_commands.describe(tournament=TOURNAMENT)
    async def standings(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        async def work() -> None:
            tables = tables_of(interaction)
            message = await tables.tournaments.standings(caller_of(interaction), tournament)
            await interaction.response.defer(thinking=True)
            lang = await tables.languages.server(interaction.guild_id)  # a post in the channel: its language
            kwargs = await Courier(interaction.client, tables).kwargs(message.written(lang))
            await follow_up(interaction, private=False, **kwargs)

        await guard(interaction, None, work())

    @app_commands.command(name="list", description=L("This server's open and running tournaments"))
    async def list_tournaments(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            await tell(interaction, await tables_of(interaction).tournaments.listing(caller_of(interaction)))

        await guard(interaction, None, work())

    @start.autocomplete("tournament")
    @cancel.autocomplete("tournament")
    @join.autocomplete("tournament")
    @leave.autocomplete("tournament")
    @standings.autocomplete("tournament")
    async def tournament_autocomplete(self, interaction: discord.Interaction, current: str) -> list[Any]:
        found = await tables_of(interaction).tournaments.choices(caller_of(interaction), current)
        return [app_commands.Choice(name=localize(label, interaction.locale)[:100], value=n) for label, n in found]


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(TournamentCog())
