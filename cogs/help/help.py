"""/help: every command the caller can use here, by task, with their next game first; and a welcome on joining.

What it lists comes from the live command tree (cogs/help/_pages.py); when that takes more than one
message, Back and Next buttons turn the page.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.access import Caller, Role
from bot.client.bot import SidelineBot
from bot.client.deadline import Acknowledge
from bot.client.tree import ReportingItem, reply, update
from bot.discord_text import clip, timestamp
from bot.errors import NoLeague, UserFacingError
from bot.league.rules import Rules
from cogs._common import bot_of
from cogs.help._pages import Samples, by_task, leaf_commands, paginate

log = logging.getLogger("sideline")
QUIET = discord.AllowedMentions.none()
START = ("Sideline isn't set up on this server yet. Someone with Manage Server starts with "
         "`/setup league preset: name: timezone:`, then `/setup roles`, `/setup channels` and `/setup team`.")
WELCOME = ("👋 Thanks for adding Sideline! An admin (Manage Server) sets the league up here with "
           "`/setup league`; then `/help` shows everyone what they can do.")
HEADINGS = {Role.PLAYER: "Everyone", Role.CAPTAIN: "Captains", Role.REFEREE: "Referees",
            Role.TIMEKEEPER: "Timekeepers", Role.COMMISSIONER: "Commissioners"}
PAGE = re.compile(r"sideline:help:(?P<page>\d{1,2})")
#: Commands a league's rules can turn off: /help doesn't offer them there (used anyway, they refuse,
#: citing the rule). Co-ed "the referee's call stands": no disputes.
OFFERED_WHEN: dict[str, Callable[[Rules], bool]] = {
    "dispute file": lambda rules: rules.deadlines.dispute_calls_allowed,
}


def roles_of(caller: Caller) -> list[Role]:
    held = [Role.PLAYER]
    held += [Role.CAPTAIN] if caller.has_captain_role else []
    held += [Role.REFEREE] if caller.is_referee else []
    held += [Role.TIMEKEEPER] if caller.is_timekeeper else []
    held += [Role.COMMISSIONER] if caller.is_commissioner else []
    return held


async def help_pages(bot: SidelineBot, caller: Caller) -> list[list[discord.Embed]]:
    """The caller's help: their next game and roles first, then what they can do, by task."""
    try:
        view = await bot.services.schedule.upcoming(caller, None, limit=1)
    except UserFacingError:
        view = None  # not on a team
    head = f"Your role here: {', '.join(HEADINGS[r].lower() for r in roles_of(caller))}."
    samples = Samples()
    if view is not None and view.games:
        g = view.games[0]
        head = (f"**Your next game:** {timestamp(g.starts_at)} · {g.home} vs {g.away} · `{g.code}` "
                f"(`/checkin status:in game:{g.code}`)\n{head}")
        samples = Samples(g.code, g.home, g.away)
    else:
        games = await bot.services.schedule.autocomplete_games(caller, "")
        if games:
            samples = Samples(games[0].code, games[0].home.name, games[0].away.name)
    head += "\nEach line is a command as you would type it, with example values: pick your own."
    first = discord.Embed(title=clip(f"{caller.league.name}: what you can do", 256), description=clip(head, 1000))
    rules = caller.league.rules

    def offered(command: app_commands.Command[Any, ..., Any]) -> bool:
        allowed = OFFERED_WHEN.get(command.qualified_name)
        return allowed is None or allowed(rules)

    return paginate(first, by_task(leaf_commands(bot.tree), roles_of(caller), samples, offered))


def page_view(page: int, pages: int) -> discord.ui.View | None:
    """Back and Next, when the help takes more than one message."""
    if pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(HelpPageButton(max(page - 1, 0), "◀ Back", disabled=page == 0))
    view.add_item(HelpPageButton(min(page + 1, pages - 1), "Next ▶", disabled=page == pages - 1))
    return view


class HelpPageButton(ReportingItem, discord.ui.DynamicItem[discord.ui.Button[Any]], template=PAGE):
    """Turns the presser's /help to a page; rebuilt from its custom_id, so it works after a restart."""

    def __init__(self, page: int, label: str = "Page", *, disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, disabled=disabled,
                                           custom_id=f"sideline:help:{page}"))
        self.page = page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> HelpPageButton:
        return cls(int(match["page"]))

    async def answer(self, interaction: discord.Interaction) -> None:
        pages = await help_pages(bot_of(interaction), bot_of(interaction).caller(interaction))
        page = min(self.page, len(pages) - 1)
        view = page_view(page, len(pages))
        if interaction.message is not None and interaction.message.flags.ephemeral:
            await update(interaction, embeds=pages[page], view=view, allowed_mentions=QUIET)
        else:  # /help is only ever sent privately: on any other message the page is the presser's alone
            await reply(interaction, embeds=pages[page], view=view, ephemeral=True, allowed_mentions=QUIET)

    def acknowledgement(self) -> Acknowledge:
        return Acknowledge.BY_EDIT  # the page replaces the one shown


class HelpCog(commands.Cog):
    def __init__(self, bot: SidelineBot) -> None:
        self.bot = bot
        self.bot.add_dynamic_items(HelpPageButton)

    @app_commands.command(name="help")
    @app_commands.guild_only()
    async def help(self, interaction: discord.Interaction) -> None:
        """Every command you can use here, by task, with examples; your next game first."""
        try:
            caller = self.bot.caller(interaction)
        except NoLeague as exc:
            text = START if interaction.guild_id is not None else exc.message
            await reply(interaction, text, ephemeral=True, allowed_mentions=QUIET)
            return
        pages = await help_pages(self.bot, caller)
        view = page_view(0, len(pages))
        await reply(interaction, embeds=pages[0], view=view, ephemeral=True, allowed_mentions=QUIET)

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        """What you can do here, with your next game first."""
        try:
            self.bot.tree.copy_global_to(guild=guild)
            await self.bot.tree.sync(guild=guild)
        except discord.HTTPException:
            log.warning("could not publish the commands to server %s", guild.id, exc_info=True)
        channel = guild.system_channel
        if channel is None or guild.me is None or not channel.permissions_for(guild.me).send_messages:
            return
        try:
            await channel.send(WELCOME, allowed_mentions=QUIET)
        except discord.HTTPException:
            log.warning("could not welcome server %s", guild.id, exc_info=True)


async def setup(bot: SidelineBot) -> None:
    await bot.add_cog(HelpCog(bot))
