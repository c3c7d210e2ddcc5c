"""``/games``: the commands shared by all games — list, abandon, notify, substitute, follow, the records
(leaderboard, stats, history, replay) and privacy (what the bot stores about a member, and erasing it). Each
asks the table service and answers with what it says."""

from __future__ import annotations

import io
import json

import discord
from discord import app_commands
from discord.ext import commands

from cogs import handlers
from cogs.base import valued
from cogs.components import ForgetButton
from cogs.handlers import caller_of, follow_up, guard, reply_text, tables_of, tell
from games.i18n import LANGUAGES, L, T, language_name, localize
from games.registry import GAMES
from rendering import pool as render_pool
from rendering import records as drawing
from tables import reads, words
from tables.authority import GameError
from tables.compose import Tables
from tables.notices import ALT_LIMIT

GAME = L("The game's number (default: the game of this thread)")
SETTINGS = [app_commands.Choice(name=L("on"), value="on"), app_commands.Choice(name=L("off"), value="off")]
WHO = {"managers": L("Managers (Manage Events or Manage Server)"), "everyone": L("Everyone")}
ORGANIZERS = {
    "managers": T("Tournaments here are organized by members with Manage Events or Manage Server."),
    "everyone": T("Every member here may organize tournaments now."),
}
SCOPES = [app_commands.Choice(name=L("server"), value="server"), app_commands.Choice(name=L("global"), value="global")]


async def _game(tables: Tables, interaction: discord.Interaction, game: int | None) -> int:
    """Game number ``game`` within the caller's reach, or the caller's game in this thread or channel."""
    caller = caller_of(interaction)
    return (await tables.cache.reach(caller, game) if game is not None else await tables.moves.my_game(caller, None)).id


class GamesCog(commands.GroupCog, group_name="games", group_description=L("Your games across every server")):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="list", description=L("Your active games, with links (only you see this)"))
    async def list_games(self, interaction: discord.Interaction) -> None:
        tables = tables_of(interaction)
        lines = []
        for record in await tables.cache.games_of(caller_of(interaction)):
            spec = tables.cache.spec(record)
            line = T("{game} with {players}", game=words.title(spec, record), players=words.listing(record.names))
            if record.seat_of(interaction.user.id) in spec.game.to_act(record.state):
                line += " — " + T("**your move**")
            lines.append(f"{line}\n{words.place_link(record)}")
        text = "\n".join(lines) if lines else T("You have no active games here. Start one with `/piratz new`.")
        await tell(interaction, text)

    @app_commands.command(name="abandon", description=L("End a game without a result (its host or a thread moderator)"))
    @app_commands.describe(game=GAME)
    async def abandon(self, interaction: discord.Interaction, game: int | None = None) -> None:
        tables = tables_of(interaction)

        async def work() -> None:
            await tables.play.abandon(caller_of(interaction), await _game(tables, interaction, game))
            await tell(interaction, T("Game abandoned; its thread is closed."))

        await guard(interaction, game, work())

    @abandon.autocomplete("game")
    async def abandon_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        out = []
        for record in await tables_of(interaction).cache.games_of(caller_of(interaction)):
            game = f"#{record.id} {GAMES[record.kind].title}"
            label = localize(T("{game} with {players}", game=game, players=", ".join(record.names)), interaction.locale)
            if current in str(record.id) or current.lower() in label.lower():
                out.append(app_commands.Choice(name=label[:100], value=record.id))
        return out[:25]

    @app_commands.command(name="notify", description=L("Get a direct message when it is your turn"))
    @app_commands.describe(setting=L("Turn reminders on or off"))
    @app_commands.choices(setting=SETTINGS)
    async def notify(self, interaction: discord.Interaction, setting: str) -> None:
        await tables_of(interaction).seats.set_notify(interaction.user.id, setting == "on")
        if setting == "on":
            text = T("I'll DM you when it's your turn (if your DMs are closed I'll say so in the game's thread).")
        else:
            text = T("Turn reminders are off.")
        await tell(interaction, text)

    @app_commands.command(
        name="language", description=L("The language of this server's game threads, boards and results")
    )
    @app_commands.describe(language=L("Leave it out to follow the server's own language"))
    @app_commands.choices(
        language=[app_commands.Choice(name=valued(language_name(code)), value=code) for code in LANGUAGES]
    )
    # Discord keeps per-command permissions for top-level commands only: the service checks Manage Server.
    async def language(self, interaction: discord.Interaction, language: str | None = None) -> None:
        async def work() -> None:
            now = await tables_of(interaction).languages.choose(caller_of(interaction), language)
            await tell(interaction, T("This server's games now speak {language}.", language=language_name(now)))

        await guard(interaction, None, work())

    @app_commands.command(name="organizers", description=L("Who may organize tournaments here (Manage Server)"))
    @app_commands.describe(who=L("Members with Manage Events or Manage Server (default), or everyone"))
    @app_commands.choices(who=[app_commands.Choice(name=name, value=w) for w, name in WHO.items()])
    async def organizers(self, interaction: discord.Interaction, who: str) -> None:
        async def work() -> None:
            await tables_of(interaction).tournaments.set_open(caller_of(interaction), who == "everyone")
            await tell(interaction, ORGANIZERS[who])

        await guard(interaction, None, work())

    @app_commands.command(name="substitute", description=L("Hand a seat of this game to another member"))
    @app_commands.describe(
        seat=L("The seat to hand over: its player's name (start typing) or number"),
        member=L("The member who takes it (they must accept)"),
        game=GAME,
    )
    async def substitute(
        self, interaction: discord.Interaction, seat: str, member: discord.Member, game: int | None = None
    ) -> None:
        tables = tables_of(interaction)

        async def work() -> None:
            number = await _game(tables, interaction, game)
            await tables.seats.offer(caller_of(interaction), number, seat, caller_of(interaction, member))
            await tell(interaction, T("Offer posted in the game's thread."))

        await guard(interaction, game, work())

    @substitute.autocomplete("seat")
    async def substitute_seat_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        try:
            record = await tables_of(interaction).my_game(caller_of(interaction), None)
        except GameError:
            return []
        return [
            app_commands.Choice(name=f"{s.seat + 1}. {s.name}"[:100], value=str(s.seat + 1))
            for s in record.seats
            if current.lower() in s.name.lower() or current == str(s.seat + 1)
        ][:25]

    @app_commands.command(name="follow", description=L("Get this game's board by DM after every turn (again: stop)"))
    @app_commands.describe(game=GAME)
    async def follow(self, interaction: discord.Interaction, game: int | None = None) -> None:
        async def work() -> None:
            await handlers.follow(interaction, await _game(tables_of(interaction), interaction, game))

        await guard(interaction, game, work())

    # ------------------------------------------------------------------ privacy

    @app_commands.command(name="privacy", description=L("What this bot stores about you, as a file (by DM)"))
    async def privacy(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            data = await tables_of(interaction).privacy.export(caller_of(interaction))
            blob = json.dumps(data, indent=2, ensure_ascii=False).encode()
            name = f"pirate-tables-{interaction.user.id}.json"
            about = T("Everything I store about you, as of now (`/games forget-me` erases it).")
            try:
                await interaction.user.send(reply_text(interaction, about), file=discord.File(io.BytesIO(blob), name))
            except discord.Forbidden:  # DMs closed (50007): only they see this answer
                closed = T("Your DMs are closed, so here it is (only you see it).") + "\n" + about
                file = discord.File(io.BytesIO(blob), name)
                await follow_up(interaction, private=True, content=reply_text(interaction, closed), file=file)
                return
            await tell(interaction, T("I sent you a file by DM with everything I store about you."))

        await guard(interaction, None, work())

    @app_commands.command(name="forget-me", description=L("Erase what this bot stores about you (asks first)"))
    async def forget_me(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            plan = await tables_of(interaction).privacy.plan(caller_of(interaction))
            user_id = interaction.user.id
            view = discord.ui.View(timeout=None)
            view.add_item(ForgetButton(user_id, "yes", reply_text(interaction, T("Forget me"))[:80]))
            view.add_item(ForgetButton(user_id, "no", reply_text(interaction, T("Cancel"))[:80]))
            await interaction.response.send_message(reply_text(interaction, plan.text()), view=view, ephemeral=True)
            view.stop()  # DynamicItems, dispatched by custom id alone (they work after a restart too)

        await guard(interaction, None, work())

    # ------------------------------------------------------------------ records

    @app_commands.command(name="leaderboard", description=L("The best-rated players of a game (an image)"))
    @app_commands.describe(game=L("Which game"), scope=L("This server's ratings (default) or every server's"))
    @app_commands.choices(
        game=[app_commands.Choice(name=localize(spec.title), value=kind) for kind, spec in GAMES.items()], scope=SCOPES
    )
    async def leaderboard(self, interaction: discord.Interaction, game: str, scope: str | None = None) -> None:
        async def work() -> None:
            if game not in GAMES:
                raise GameError(T("There is no game called {name}.", name=repr(words.shown(game))))
            await interaction.response.defer(thinking=True)
            tables = tables_of(interaction)
            lang = await tables.languages.server(interaction.guild_id)  # a post in the channel: its server's language
            board = await tables.reads.leaderboard(game, interaction.guild_id, scope)
            rows = [drawing.LeaderRow(*row) for row in board.rows]
            png = await render_pool.run(drawing.render_leaderboard, board.title, board.subtitle, rows, lang)
            alt = localize(board.alt, lang)[:ALT_LIMIT]
            file = discord.File(io.BytesIO(png), filename=f"{game}-leaderboard.png", description=alt)
            await follow_up(interaction, private=False, file=file)

        await guard(interaction, None, work())

    @app_commands.command(name="stats", description=L("A member's games: played, won, rating and trend, opponents"))
    @app_commands.describe(member=L("Whose stats (default: yours)"))
    async def stats(self, interaction: discord.Interaction, member: discord.User | None = None) -> None:
        async def work() -> None:
            await interaction.response.defer(thinking=True)
            who = member or interaction.user
            tables = tables_of(interaction)
            lang = await tables.languages.server(interaction.guild_id)  # a post in the channel: its server's language
            found = await tables.reads.stats(who.id, who.display_name, interaction.user.id, interaction.guild_id)
            rows = [drawing.StatsRow(*row) for row in found.rows]
            png = await render_pool.run(drawing.render_stats, found.title, found.subtitle, rows, lang)
            alt = localize(found.alt, lang)[:ALT_LIMIT]
            file = discord.File(io.BytesIO(png), filename=f"stats-{who.id}.png", description=alt)
            content = localize(found.content, lang)[: words.MESSAGE_LIMIT]
            await follow_up(
                interaction, private=False, content=content, file=file, allowed_mentions=discord.AllowedMentions.none()
            )

        await guard(interaction, None, work())

    @app_commands.command(name="history", description=L("A member's finished games with links, latest first (paged)"))
    @app_commands.describe(member=L("Whose games (default: yours)"))
    async def history(self, interaction: discord.Interaction, member: discord.User | None = None) -> None:
        async def work() -> None:
            pages = HistoryPages(tables_of(interaction), member or interaction.user, interaction)
            text = await pages.turn(0)
            await interaction.response.send_message(
                text, view=pages, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
            )

        await guard(interaction, None, work())

    @app_commands.command(name="replay", description=L("A finished game's public boards as an animation, with its log"))
    @app_commands.describe(game=L("The game's number"))
    async def replay(self, interaction: discord.Interaction, game: int) -> None:
        tables = tables_of(interaction)

        async def work() -> None:
            record = await tables.cache.reach(caller_of(interaction), game)
            reads.ensure_over(record)
            await interaction.response.defer(thinking=True)  # drawing the frames takes a few seconds
            lang = await tables.languages.server(interaction.guild_id)  # a post in the channel: its server's language
            done = await tables.reads.replay_of(record, drawing.MAX_FRAMES)
            spec = tables.cache.spec(record)

            frames = [(p.view, p.names) for p in done.frames]
            webp = await render_pool.run(
                drawing.draw_replay, spec.render_board, spec.render_final, frames, done.final, lang
            )
            about = T("Replay of {game}, every public board from start to finish", game=f"{spec.title} #{record.id}")
            image = discord.File(
                io.BytesIO(webp),
                filename=f"{record.kind}-{record.id}-replay.webp",
                description=localize(about, lang)[:ALT_LIMIT],
            )
            log = await tables.reads.log_text(record)
            files = [image, discord.File(io.BytesIO(log.encode()), filename=f"{record.kind}-{record.id}-log.txt")]
            content = localize(done.content, lang)[: words.MESSAGE_LIMIT]
            await follow_up(
                interaction,
                private=False,
                content=content,
                files=files,
                allowed_mentions=discord.AllowedMentions.none(),
            )

        await guard(interaction, game, work())


class HistoryPages(discord.ui.View):
    """◀ / ▶ buttons that turn the pages of ``/games history`` (on the ephemeral message of who asked)."""

    def __init__(self, tables: Tables, member: discord.abc.User, interaction: discord.Interaction) -> None:
        super().__init__(timeout=900)
        self.tables, self.member = tables, member
        self.viewer, self.guild_id = interaction.user.id, interaction.guild_id
        self.page = 0
        self.interaction = interaction
        """The command that asked: its pages are written in the language of who asked."""
        self.newer.label = "◀ " + reply_text(interaction, T("Newer"))
        self.older.label = reply_text(interaction, T("Older")) + " ▶"

    async def turn(self, page: int) -> str:
        who = self.member
        text, self.page, pages = await self.tables.reads.history_page(
            who.id, who.display_name, self.viewer, self.guild_id, page
        )
        self.older.disabled = self.page >= pages - 1
        self.newer.disabled = self.page <= 0
        return reply_text(self.interaction, text)

    @discord.ui.button(label="◀ Newer", style=discord.ButtonStyle.secondary)
    async def newer(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.edit_message(content=await self.turn(self.page - 1), view=self)

    @discord.ui.button(label="Older ▶", style=discord.ButtonStyle.secondary)
    async def older(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.edit_message(content=await self.turn(self.page + 1), view=self)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(GamesCog(bot))
