"""/roster show|add|remove and /roster guardian add|remove, for a team's captain or a commissioner (and a
guardian stepping down)."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.access import Role
from bot.client.bot import SidelineBot
from bot.client.tree import NO_MENTIONS, reply, requires
from bot.discord_text import clip, timestamp
from bot.errors import InvalidInput
from bot.services.rosters.roster import RosterLine, RosterView
from cogs._common import SeasonName, TeamName, bot_of, season_autocomplete, suggesting_for, team_autocomplete

Position = Literal["skater", "goalie"]
Gender = Literal["woman", "non-binary", "man", "prefer-not-to-say"]
PlayerName = app_commands.Range[str, 1, 100]


def _line(line: RosterLine) -> str:
    who = (f"<@{line.discord_id}> {line.name}" if line.discord_id is not None else
           f"{line.name} (no Discord account; guardian{'s' * (len(line.guardians) != 1)}: "
           f"{' '.join(f'<@{g}>' for g in line.guardians) or 'none'})")
    return (f"{'🥅' if line.position == 'goalie' else '🏒'} {who}"
            + (f" · {line.gender}" if line.gender else "")
            + (f" · left {timestamp(line.left_at, 'D')}" if line.left_at else ""))


def roster_embed(view: RosterView) -> discord.Embed:
    limit = f" / {view.limit}" if view.limit else ""
    season = f" · {view.season}" + (", as it finished" if view.past else "") if view.season else ""
    embed = discord.Embed(title=clip(f"{view.team} roster{season} ({len(view.lines)}{limit})", 256))
    embed.description = clip("\n".join(_line(line) for line in view.lines) or (
        "Nobody was on the roster." if view.past else "Nobody on the roster yet."), 4000)
    if view.left:
        embed.add_field(name=clip(f"Left during {view.season} ({len(view.left)})", 256),
                        value=clip("\n".join(_line(line) for line in view.left), 1024), inline=False)
    embed.set_footer(text="Private: gender categories are shown only to captains and commissioners.")
    return embed


async def managed_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Players without a Discord account on the teams the caller captains (commissioners: all)."""
    caller = suggesting_for(interaction)
    if caller is None:
        return []
    found = await bot_of(interaction).services.roster.managed_names(caller, current[:100])
    return [app_commands.Choice(name=clip(label, 100), value=value) for label, value in found]


async def guarded_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Players without a Discord account the caller may change guardians of: their teams' (commissioners:
    all), and the ones they manage themself (to step down)."""
    caller = suggesting_for(interaction)
    if caller is None:
        return []
    services = bot_of(interaction).services
    found = {value: label for label, value in await services.roster.managed_names(caller, current[:100])}
    typed = current.strip().casefold()
    found.update((str(m.player_id), m.name) for m in await services.checkins.my_players(caller)
                 if typed in m.name.casefold())
    return sorted((app_commands.Choice(name=clip(label, 100), value=value) for value, label in found.items()),
                  key=lambda c: c.name.casefold())[:25]


@app_commands.guild_only()
class RosterCog(commands.GroupCog, group_name="roster", group_description="Team rosters."):
    def __init__(self, bot: SidelineBot) -> None:
        self.bot = bot
        self.service = bot.services.roster

    @app_commands.command(name="show", extras=requires(Role.CAPTAIN, Role.COMMISSIONER))
    @app_commands.describe(team="The team; leave empty for your own",
                           season="An earlier season: who was on the team then; leave empty for today's roster")
    @app_commands.autocomplete(team=team_autocomplete, season=season_autocomplete)
    @app_commands.guild_only()
    async def show(self, interaction: discord.Interaction, team: TeamName | None = None,
                   season: SeasonName | None = None) -> None:
        """A team's roster (captains and commissioners)."""
        view = await self.service.show(self.bot.caller(interaction), team, season)
        await reply(interaction, embed=roster_embed(view), ephemeral=True,
                    allowed_mentions=NO_MENTIONS)

    guardian_group = app_commands.Group(name="guardian", description="Guardians of players without a Discord account.",
                                        guild_only=True)

    @app_commands.command(name="add", extras=requires(Role.CAPTAIN, Role.COMMISSIONER))
    @app_commands.describe(player="The server member to add (or give name and guardian instead)",
                           position="Skater or goalie",
                           gender="Gender category (counts toward on-court minimums)",
                           team="Team (commissioners; captains default to their own team)",
                           name="A player without a Discord account (a junior): their name",
                           guardian="The member who manages that player: checks in and gets reminders for them")
    @app_commands.autocomplete(team=team_autocomplete)
    @app_commands.guild_only()
    async def add(self, interaction: discord.Interaction, player: discord.Member | None = None,
                  position: Position | None = None, gender: Gender | None = None,
                  team: TeamName | None = None, name: PlayerName | None = None,
                  guardian: discord.Member | None = None) -> None:
        """Add a player to your team's roster."""
        caller = self.bot.caller(interaction)
        if player is not None and (name or guardian is not None):
            raise InvalidInput("Give either player (a server member) or name and guardian (a player without a "
                               "Discord account), not both. Nothing changed.")
        if player is not None:
            change = await self.service.add(caller, discord_id=player.id, name=player.display_name,
                                            position=position, gender=gender, team_name=team)
        elif name and guardian is not None:
            if guardian.bot:
                raise InvalidInput("A guardian must be a person, not a bot. Nothing changed.")
            change = await self.service.add_managed(caller, name=name, guardian_id=guardian.id, position=position,
                                                    gender=gender, team_name=team)
        else:
            raise InvalidInput("Pick the server member to add with player; for a player without a Discord "
                               "account give their name and their guardian. Nothing changed.")
        limit = f" of {change.limit}" if change.limit else ""
        players = "player" if change.size == 1 and not change.limit else "players"
        verb = "is now on" if change.action == "added" else "was already on"
        await reply(
            interaction, f"{change.player} {verb} {change.team} ({change.size}{limit} {players}).",
            ephemeral=True, allowed_mentions=NO_MENTIONS,
        )

    @app_commands.command(name="remove", extras=requires(Role.CAPTAIN, Role.COMMISSIONER))
    @app_commands.describe(player="The server member to remove",
                           name="Or a player without a Discord account, by name")
    @app_commands.autocomplete(name=managed_autocomplete)
    @app_commands.guild_only()
    async def remove(self, interaction: discord.Interaction, player: discord.User | None = None,
                     name: PlayerName | None = None) -> None:
        """Remove a player from your team's roster."""
        if (player is None) == (name is None):
            raise InvalidInput("Pick the server member to remove with player, or a player without a Discord "
                               "account with name (one of them). Nothing changed.")
        change = await self.service.remove(self.bot.caller(interaction), discord_id=player.id if player else None,
                                           managed=name)
        await reply(
            interaction, f"{change.player} was removed from {change.team} ({change.size} players left).",
            ephemeral=True, allowed_mentions=NO_MENTIONS,
        )


    @guardian_group.command(name="add", extras=requires(Role.CAPTAIN, Role.COMMISSIONER))
    @app_commands.describe(player="A player without a Discord account on your team",
                           guardian="The member who will also manage them")
    @app_commands.autocomplete(player=managed_autocomplete)
    async def guardian_add(self, interaction: discord.Interaction, player: PlayerName,
                           guardian: discord.Member) -> None:
        """Add a guardian to a player without a Discord account."""
        if guardian.bot:
            raise InvalidInput("A guardian must be a person, not a bot. Nothing changed.")
        added = await self.service.add_guardian(self.bot.caller(interaction), player=player, guardian_id=guardian.id)
        text = (f"{guardian.mention} now manages {added.player}" if added.added
                else f"{guardian.mention} already managed {added.player}")
        await reply(interaction, clip(f"{text} ({added.guardians} guardian{'s' * (added.guardians != 1)}): they "
                                      "check in and get reminders for them.", 2000),
                    ephemeral=True, allowed_mentions=NO_MENTIONS)

    @guardian_group.command(name="remove", extras=requires(Role.CAPTAIN, Role.COMMISSIONER))
    @app_commands.describe(player="A player without a Discord account",
                           guardian="The guardian to remove; leave empty to step down yourself")
    @app_commands.autocomplete(player=guarded_autocomplete)
    async def guardian_remove(self, interaction: discord.Interaction, player: PlayerName,
                              guardian: discord.User | None = None) -> None:
        """Remove a guardian of a player without a Discord account (or step down as one)."""
        caller = self.bot.caller(interaction)
        who = guardian.id if guardian is not None else caller.discord_id
        done = await self.service.remove_guardian(caller, player=player, guardian_id=who)
        left = f"{done.guardians} guardian{'s' * (done.guardians != 1)} left"
        text = (f"You no longer manage {done.player} ({left})." if done.stepped_down
                else f"<@{who}> no longer manages {done.player} ({left}).")
        await reply(interaction, clip(text, 2000), ephemeral=True, allowed_mentions=NO_MENTIONS)


async def setup(bot: SidelineBot) -> None:
    await bot.add_cog(RosterCog(bot))
