"""``/games``: the commands shared by all games — list, abandon, notify, substitute, follow, and the
records: leaderboard, stats, history, replay."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs import records
from cogs.app import TableBot
from cogs.clocks import now_ts
from cogs.messages import NO_PINGS, shown
from cogs.private import place_link
from data.store import GameRecord
from games.registry import GAMES
from tables.service import GameError


class GamesCog(commands.GroupCog, group_name="games", group_description="Your games across every server"):
    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="list", description="Your active games, with links (only you see this)")
    async def list_games(self, interaction: discord.Interaction) -> None:
        lines = []
        for game_id in await self.bot.store.game_ids(user_id=interaction.user.id):
            record = await self.bot.tables.get(game_id)
            spec = GAMES[record.kind]
            seat = record.seat_of(interaction.user.id)
            to_act = spec.game.to_act(record.state)
            turn = " — **your move**" if seat in to_act else ""
            players = ", ".join(record.names)
            title = f"{spec.emoji} **{spec.title} #{record.id}**"
            lines.append(f"{title} with {players}{turn}\n{place_link(record)}")
        text = "\n".join(lines) if lines else "You have no active games. Start one with `/piratz new`."
        await interaction.response.send_message(text[:2000], ephemeral=True)

    @app_commands.command(name="abandon", description="End a game without a result (its host or a thread moderator)")
    @app_commands.describe(game="The game's number (default: the game of this thread)")
    async def abandon(self, interaction: discord.Interaction, game: int | None = None) -> None:
        async def work() -> None:
            record = (
                await self.bot.tables.get(game) if game is not None else await self.bot.host.my_game(interaction, None)
            )
            moderator = interaction.permissions.manage_threads and interaction.guild_id == record.guild_id
            if interaction.user.id != record.host_id and not moderator:
                raise GameError("Only the game's host or a member with Manage Threads can abandon it.")
            await interaction.response.defer(ephemeral=True)
            record = await self.bot.tables.abandon(record.id, by=shown(interaction.user.display_name), now=now_ts())
            await self.bot.host.end_without_play(
                record,
                f"🏴 {GAMES[record.kind].title} #{record.id} was abandoned by {interaction.user.mention}.",
            )
            await self.bot.host.close_thread(record)
            await interaction.followup.send("Game abandoned; its thread is closed.", ephemeral=True)

        await self.bot.host.guard(interaction, game, work())

    @abandon.autocomplete("game")
    async def abandon_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        out = []
        for game_id in await self.bot.store.game_ids(user_id=interaction.user.id):
            record = await self.bot.tables.get(game_id)
            label = f"#{game_id} {GAMES[record.kind].title} with {', '.join(record.names)}"
            if current in str(game_id) or current.lower() in label.lower():
                out.append(app_commands.Choice(name=label[:100], value=game_id))
        return out[:25]

    @app_commands.command(name="notify", description="Get a direct message when it is your turn")
    async def notify(self, interaction: discord.Interaction, setting: Literal["on", "off"]) -> None:
        await self.bot.store.set_notify(interaction.user.id, setting == "on")
        text = (
            "I'll DM you when it's your turn (if your DMs are closed I'll say so in the game's thread)."
            if setting == "on"
            else "Turn reminders are off."
        )
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(name="substitute", description="Hand a seat of this game to another member")
    @app_commands.describe(
        seat="The seat to hand over: its player's name (start typing) or number",
        member="The member who takes it (they must accept)",
        game="The game's number (default: the game of this thread)",
    )
    async def substitute(
        self, interaction: discord.Interaction, seat: str, member: discord.Member, game: int | None = None
    ) -> None:
        async def work() -> None:
            record = (
                await self.bot.tables.get(game) if game is not None else await self.bot.host.my_game(interaction, None)
            )
            await self.bot.host.seats.offer_seat(interaction, record, self._seat(record, seat), member)

        await self.bot.host.guard(interaction, game, work())

    async def _game(self, interaction: discord.Interaction, game: int | None) -> GameRecord:
        """Game number ``game``, or the caller's game in this thread or channel."""
        return await self.bot.tables.get(game) if game is not None else await self.bot.host.my_game(interaction, None)

    @staticmethod
    def _seat(record: GameRecord, text: str) -> int:
        """A seat named by its number (1-based), its player's name or a mention."""
        wanted = text.strip().lower()
        for s in record.seats:
            if wanted in (str(s.seat + 1), s.name.lower(), f"<@{s.user_id}>", f"<@!{s.user_id}>"):
                return s.seat
        raise GameError(
            f"This game has no seat {shown(text)!r}; its seats: {', '.join(shown(n) for n in record.names)}."
        )

    @substitute.autocomplete("seat")
    async def substitute_seat_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        try:
            record = await self.bot.host.my_game(interaction, None)
        except GameError:
            return []
        return [
            app_commands.Choice(name=f"{s.seat + 1}. {s.name}"[:100], value=str(s.seat + 1))
            for s in record.seats
            if current.lower() in s.name.lower() or current == str(s.seat + 1)
        ][:25]

    @app_commands.command(name="follow", description="Get this game's board by DM after every turn (again: stop)")
    @app_commands.describe(game="The game's number (default: the game of this thread)")
    async def follow(self, interaction: discord.Interaction, game: int | None = None) -> None:
        async def work() -> None:
            record = (
                await self.bot.tables.get(game) if game is not None else await self.bot.host.my_game(interaction, None)
            )
            await self.bot.host.seats.toggle_follow(interaction, record.id)

        await self.bot.host.guard(interaction, game, work())

    # ------------------------------------------------------------------ records

    @app_commands.command(name="leaderboard", description="The best-rated players of a game (an image)")
    @app_commands.describe(game="Which game", scope="This server's ratings (default) or every server's")
    @app_commands.choices(game=[app_commands.Choice(name=spec.title, value=kind) for kind, spec in GAMES.items()])
    async def leaderboard(
        self, interaction: discord.Interaction, game: str, scope: Literal["server", "global"] | None = None
    ) -> None:
        async def work() -> None:
            if game not in GAMES:
                raise GameError(f"There is no game called {shown(game)!r}.")
            await interaction.response.defer(thinking=True)
            file = await records.leaderboard_file(self.bot.store, game, interaction.guild_id, scope)
            await interaction.followup.send(file=file)

        await self.bot.host.guard(interaction, None, work())

    @app_commands.command(name="stats", description="A member's games: played, won, rating and trend, opponents")
    @app_commands.describe(member="Whose stats (default: yours)")
    async def stats(self, interaction: discord.Interaction, member: discord.User | None = None) -> None:
        async def work() -> None:
            await interaction.response.defer(thinking=True)
            who = member or interaction.user
            payload = await records.stats_message(self.bot.store, who, interaction.user.id, interaction.guild_id)
            await interaction.followup.send(allowed_mentions=NO_PINGS, **payload)

        await self.bot.host.guard(interaction, None, work())

    @app_commands.command(name="history", description="A member's finished games with links, latest first (paged)")
    @app_commands.describe(member="Whose games (default: yours)")
    async def history(self, interaction: discord.Interaction, member: discord.User | None = None) -> None:
        async def work() -> None:
            who = member or interaction.user
            viewer, guild_id = interaction.user.id, interaction.guild_id
            text, pages = await records.history_page(self.bot.store, who, viewer, guild_id, 0)
            view = records.HistoryPages(self.bot.store, who, viewer, guild_id, 0, pages)
            await interaction.response.send_message(text, view=view, ephemeral=True, allowed_mentions=NO_PINGS)

        await self.bot.host.guard(interaction, None, work())

    @app_commands.command(name="replay", description="A finished game's public boards as an animation, with its log")
    @app_commands.describe(game="The game's number")
    async def replay(self, interaction: discord.Interaction, game: int) -> None:
        async def work() -> None:
            record = await self.bot.store.load_game(game)
            if record is None or (
                record.guild_id != interaction.guild_id and record.seat_of(interaction.user.id) is None
            ):
                raise GameError(f"There is no game #{game} here.")
            records.ensure_over(record)
            await interaction.response.defer(thinking=True)  # drawing the frames takes a few seconds
            done = await records.replay(self.bot.store, record)
            await interaction.followup.send(done.content, files=done.files, allowed_mentions=NO_PINGS)

        await self.bot.host.guard(interaction, game, work())


async def setup(bot: TableBot) -> None:
    await bot.add_cog(GamesCog(bot))
