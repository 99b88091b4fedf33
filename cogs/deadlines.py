"""/deadline add|list|done: any deadline, nudging its audience until a commissioner marks it done."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.access import Role
from bot.client.bot import SidelineBot
from bot.client.tree import NO_MENTIONS, reply, requires
from bot.discord_text import clip, local_label, timestamp
from bot.services.deadlines.service import Audience, DeadlineLine
from cogs._common import bot_of, suggesting_for


def deadline_line(d: DeadlineLine) -> str:
    nudges = ", ".join(d.nudges) or "none"
    state = f"✅ done {timestamp(d.done_at, 'R')}" if d.done_at else f"nudges {nudges} before"
    if d.nag_until_done and not d.done_at:
        state += ", then daily until done"
    return f"`#{d.id}` **{clip(d.subject, 120)}** · due {timestamp(d.due_at)} · for {d.audience} · {state}"


def deadlines_embed(lines: tuple[DeadlineLine, ...], include_done: bool) -> discord.Embed:
    embed = discord.Embed(title="Deadlines" if include_done else "Open deadlines")
    embed.description = clip("\n".join(deadline_line(d) for d in lines) or "No deadlines.", 4000)
    return embed


async def audience_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Commissioners, the league's teams, and the server's roles."""
    bot = bot_of(interaction)
    caller = suggesting_for(interaction)
    if caller is None:
        return []
    choices = await bot.services.deadlines.audience_choices(caller, current[:100])
    needle = current.strip().casefold()
    roles = [r for r in (interaction.guild.roles if interaction.guild else ()) if not r.is_default()]
    choices += [(f"Role: @{r.name}", f"role:{r.id}") for r in roles if needle in f"role: @{r.name}".casefold()]
    return [app_commands.Choice(name=clip(label, 100), value=value[:100]) for label, value in choices[:25]]


async def open_deadline_autocomplete(interaction: discord.Interaction,
                                     current: str) -> list[app_commands.Choice[str]]:
    bot = bot_of(interaction)
    caller = suggesting_for(interaction)
    if caller is None:
        return []
    found = await bot.services.deadlines.autocomplete(caller, current[:100])
    tz = caller.league.timezone
    return [app_commands.Choice(name=clip(f"#{d.id} {d.subject} (due {local_label(d.due_at, tz)})", 100),
                                value=str(d.id)) for d in found]


async def on_server(guild: discord.Guild | None, who: Audience) -> bool:
    """Whether a role or member audience is on this server (roles come with the server; a member
    may need asking Discord). Only Discord's "unknown member" counts as no."""
    if guild is None:
        return False
    if who.kind == "role":
        return who.id != guild.id and guild.get_role(who.id or 0) is not None  # guild.id: @everyone
    if guild.get_member(who.id or 0) is not None:
        return True
    try:
        await guild.fetch_member(who.id or 0)
    except discord.NotFound:
        return False
    return True


@app_commands.guild_only()
class DeadlinesCog(commands.GroupCog, group_name="deadline", group_description="Deadlines with nudges."):
    def __init__(self, bot: SidelineBot) -> None:
        self.bot = bot
        self.service = bot.services.deadlines

    @app_commands.command(name="add", extras=requires(Role.COMMISSIONER))
    @app_commands.describe(name="What is due, e.g. “Team fees”",
                           due="When, in the league's time zone, as YYYY-MM-DD HH:MM",
                           audience="Who is nudged: commissioners, a team, a role, or a @member",
                           nudges="How long before to nudge, e.g. “3d 1d 2h” "
                                  "(days keep the time of day; default: the league's)",
                           nag="Keep nudging daily after it is due until it is marked done")
    @app_commands.autocomplete(audience=audience_autocomplete)
    @app_commands.guild_only()
    async def add(self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 200],
                  due: app_commands.Range[str, 1, 40], audience: app_commands.Range[str, 1, 100],
                  nudges: app_commands.Range[str, 1, 100] | None = None, nag: bool = False) -> None:
        """Add a deadline that nudges its audience (commissioners)."""
        added = await self.service.add(self.bot.caller(interaction), name=name, due=due, audience=audience,
                                       nudges=nudges, nag_until_done=nag,
                                       on_this_server=lambda who: on_server(interaction.guild, who))
        await reply(
            interaction, clip(f"Added {deadline_line(added.deadline)}. {added.nudges_queued} nudges queued.", 2000),
            ephemeral=True, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="list", extras=requires(Role.COMMISSIONER))
    @app_commands.describe(include_done="Also show deadlines already marked done")
    @app_commands.guild_only()
    async def list_(self, interaction: discord.Interaction, include_done: bool = False) -> None:
        """The league's deadlines (commissioners)."""
        lines = await self.service.list_deadlines(self.bot.caller(interaction), include_done=include_done)
        await reply(interaction, embed=deadlines_embed(lines, include_done), ephemeral=True,
                    allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="done", extras=requires(Role.COMMISSIONER))
    @app_commands.describe(deadline="The deadline (pick from the suggestions)", note="Optional note for the record")
    @app_commands.autocomplete(deadline=open_deadline_autocomplete)
    @app_commands.guild_only()
    async def done(self, interaction: discord.Interaction, deadline: app_commands.Range[str, 1, 20],
                   note: app_commands.Range[str, 1, 300] = "") -> None:
        """Mark a deadline done; its nudges stop (commissioners)."""
        line = await self.service.done(self.bot.caller(interaction), deadline, note)
        await reply(interaction, clip(f"Done: {deadline_line(line)}. No more nudges.", 2000),
                    ephemeral=True, allowed_mentions=NO_MENTIONS)


async def setup(bot: SidelineBot) -> None:
    await bot.add_cog(DeadlinesCog(bot))
