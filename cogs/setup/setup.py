"""/setup: a commissioner creates and runs this server's league from Discord; every answer private.

Options are Discord's own role, channel and member pickers, so nobody copies an id. Permission is
checked by the service (Manage Server or the league's commissioner role); Discord also hides the
group from members without Manage Server (cogs/_common.py ``hide_commissioner_commands``).
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.access import Role
from bot.client.bot import SidelineBot
from bot.client.tree import reply, requires
from bot.config.settings import CalendarServer
from bot.discord_text import clip
from bot.errors import InvalidInput
from bot.league.league_page import PageNames
from bot.league.rules import PRESET_NAMES, build_rules
from bot.league.setup.rule_settings import SECTIONS, rule_settings
from bot.league.setup.timezones import suggest_timezones
from bot.services.league_page.service import PageState
from bot.services.setup.league_setup import Actor, Changed, ShownSetting
from cogs._common import DivisionName, TeamName, bot_of, team_autocomplete
from cogs.setup import _rulebook_upload as rulebook_upload
from cogs.setup._words import setting_label, shown_value

QUIET = discord.AllowedMentions.none()
#: What the bot needs in a league channel, as Discord names the permissions.
CHANNEL_NEEDS = (("view_channel", "View Channel"), ("send_messages", "Send Messages"))


class LeagueChannel(app_commands.Transformer):
    """A text channel of this server the bot can see; the picker offers text and announcement channels."""

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.channel

    @property
    def channel_types(self) -> list[discord.ChannelType]:
        return [discord.ChannelType.text, discord.ChannelType.news]

    async def transform(self, interaction: discord.Interaction, value: object) -> discord.TextChannel:
        channel_id = getattr(value, "id", 0)
        channel = interaction.guild.get_channel(channel_id) if interaction.guild else None
        if not isinstance(channel, discord.TextChannel):
            refusal = InvalidInput(f"I can't see <#{channel_id}>: give me the View Channel permission there, "
                                   "or pick another channel. Nothing changed.")
            raise app_commands.TransformerError(value, self.type, self) from refusal  # the handler shows the cause
        return channel


Channel = app_commands.Transform[discord.TextChannel, LeagueChannel]


def actor_of(interaction: discord.Interaction) -> Actor:
    perms = interaction.permissions
    return Actor(discord_id=interaction.user.id,
                 role_ids=frozenset(r.id for r in getattr(interaction.user, "roles", ())),
                 manages_server=bool(perms and perms.manage_guild))


async def missing_permission(channel: discord.abc.GuildChannel) -> str | None:
    """The first permission the bot lacks in ``channel``, by Discord's name; None when it has them all."""
    me = channel.guild.me
    if me is None:
        return None  # not cached (never on a live gateway); the outbox reports a channel that refuses
    perms = channel.permissions_for(me)
    return next((label for attr, label in CHANNEL_NEEDS if not getattr(perms, attr)), None)


async def check_channels(channels: dict[str, discord.abc.GuildChannel | None]) -> None:
    for name, channel in channels.items():
        if channel is None:
            continue
        missing = await missing_permission(channel)
        if missing:
            raise InvalidInput(f"I can't use {channel.mention} for {name}: I need the {missing} permission there. "
                               "Nothing changed.")


def changed_text(what: str, changed: Changed) -> str:
    if not changed.changes:
        return f"{what}: nothing to change."
    lines = [f"• {setting_label(key)}: {shown_value(key, old)} → {shown_value(key, new)}"
             for key, old, new in changed.changes]
    return clip(f"{what} for {changed.league.name}:\n" + "\n".join(lines), 2000)


def web_text(server: CalendarServer | None, state: PageState) -> str:
    """The answer to /setup web: how it names juniors when that changed, then where the page is."""
    if not state.names_changed:
        return _where(server, state)
    how = ("by their initials (“J. D.”)" if state.names == "initials" else "by their full names")
    return (f"The public page now names players without a Discord account (juniors managed by a guardian) {how}; "
            "everyone else keeps their full name.\n" + _where(server, state))


def _where(server: CalendarServer | None, state: PageState) -> str:
    if state.slug is None:
        if state.changed:
            return (f"{state.league}'s public page is taken down: its link stopped working. Publishing it again "
                    "with `/setup web public:True` makes a new link.")
        return (f"{state.league} has no public page. `/setup web public:True` publishes one: standings, schedule, "
                "results, the bracket and the leaders, readable by anyone with the link (no Discord ids, "
                "genders or discipline on it).")
    head = (f"{state.league}'s public page is published." if state.changed
            else f"{state.league}'s public page is up.")
    if server is None:
        return (f"{head} This bot serves no web pages, though, so there is no link to share yet; whoever runs "
                "the bot can turn its web server on. `/setup web public:False` takes the page down.")
    link = server.page_link(state.slug)
    return (f"{head}\nLink (anyone who has it can read the page): <{link}>\nFor your own website: "
            f"<{link}?embed=1>\nThe same data as JSON: <{link}data.json>\n"
            "`/setup web public:False` takes it down at once (publishing again makes a new link).")


def show_embed(league_name: str, shown: list[ShownSetting], section: str | None) -> discord.Embed:
    rules = [s for s in shown if s.key.startswith("rules.")]
    if section:
        picked = [s for s in rules if s.key.split(".", 1)[1] in _section_keys(section)]
        title = f"{league_name}: {section} rules"
    else:
        picked = [s for s in shown if not s.key.startswith("rules.")]
        picked += [s for s in rules if s.source != "preset" or s.note]
        title = f"{league_name}: settings"
    lines = [f"**{setting_label(s.key)}** = {shown_value(s.key, s.value)} · {s.source}"
             + (f" · {s.citation}" if s.citation else "") + (f"\n  ⚠️ {s.note}" if s.note else "") for s in picked]
    if not section:
        lines.append(f"Rules not listed come from the preset; see them with section: ({', '.join(SECTIONS)}).")
    return discord.Embed(title=clip(title, 256), description=clip("\n".join(lines), 4000))


def _section_keys(section: str) -> set[str]:
    return {s.key for s in rule_settings(build_rules("coed-ball-hockey")) if s.section == section}


async def preset_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=p, value=p) for p in PRESET_NAMES if current.casefold() in p]


async def timezone_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=z, value=z) for z in suggest_timezones(current[:100])]


async def rule_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Every rule setting, with its meaning and where the rulebook says it."""
    bot = bot_of(interaction)
    league = bot.settings.league_for_guild(interaction.guild_id)
    rules = league.rules if league else build_rules("coed-ball-hockey")
    typed = current.casefold().strip()
    found = [s for s in rule_settings(rules) if typed in s.key or typed in s.meaning.casefold()]
    found.sort(key=lambda s: (not s.key.startswith(typed), s.key))
    return [app_commands.Choice(name=clip(f"{s.key} ({s.cited()}): {s.meaning}", 100), value=s.key)
            for s in found[:25]]


async def section_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=s, value=s) for s in SECTIONS if current.casefold() in s]


@app_commands.guild_only()
class SetupCog(commands.GroupCog, group_name="setup",
               group_description="Set up this server's league (Manage Server or commissioners)."):
    def __init__(self, bot: SidelineBot) -> None:
        self.bot = bot
        self.service = bot.services.setup
        self.teams = bot.services.setup_teams

    async def reply(self, interaction: discord.Interaction, text: str) -> None:
        await reply(interaction, clip(text, 2000), ephemeral=True, allowed_mentions=QUIET)

    @app_commands.command(name="league", extras=requires(Role.COMMISSIONER))
    @app_commands.describe(preset="The rulebook the league plays by", name="The league's name",
                           timezone="Where the games are, e.g. America/Toronto (not EST or UTC-5)")
    @app_commands.autocomplete(preset=preset_autocomplete, timezone=timezone_autocomplete)
    async def league(self, interaction: discord.Interaction, preset: app_commands.Range[str, 1, 64],
                     name: app_commands.Range[str, 1, 100], timezone: app_commands.Range[str, 1, 64]) -> None:
        """Create this server's league from a rules preset."""
        made = await self.service.create(interaction.guild_id or 0, actor_of(interaction), preset=preset,
                                         name=name, timezone=timezone)
        await self.reply(interaction, f"{made.league.name} is set up ({made.league.preset}, "
                         f"{made.league.timezone.key}). Next: /setup roles, /setup channels, /setup team. /rule "
                         "answers from the preset's rulebook already; /setup rulebook file: uploads your own.")

    @app_commands.command(name="roles", extras=requires(Role.COMMISSIONER))
    @app_commands.describe(captain="Role of team captains", referee="Role of referees",
                           commissioner="Role of commissioners (they can use /setup too)",
                           timekeeper="Role of timekeepers: they keep game sheets, goals and statistics")
    async def roles(self, interaction: discord.Interaction, captain: discord.Role | None = None,
                    referee: discord.Role | None = None, commissioner: discord.Role | None = None,
                    timekeeper: discord.Role | None = None) -> None:
        """Pick the league's captain, referee, timekeeper and commissioner roles."""
        given = {"captain": captain, "referee": referee, "commissioner": commissioner, "timekeeper": timekeeper}
        for name, role in given.items():
            if role is not None and role.is_default():
                raise InvalidInput(f"@everyone can't be the {name} role; pick a role only some members have.")
        changed = await self.service.set_ids(interaction.guild_id or 0, actor_of(interaction), "role",
                                             {k: r.id if r else None for k, r in given.items()})
        await self.reply(interaction, changed_text("Roles", changed))

    @app_commands.command(name="channels", extras=requires(Role.COMMISSIONER))
    @app_commands.describe(announcements="Announcements and reminders", standings="The standings post",
                           referees="Referees' channel", admin="Commissioners' private channel for problems",
                           draft="Where the draft board is posted")
    async def channels(self, interaction: discord.Interaction, announcements: Channel | None = None,
                       standings: Channel | None = None, referees: Channel | None = None,
                       admin: Channel | None = None, draft: Channel | None = None) -> None:
        """Pick the channels the league posts in."""
        given = {"announcements": announcements, "standings": standings, "referees": referees, "admin": admin,
                 "draft": draft}
        self.service.check(interaction.guild_id, actor_of(interaction))  # refuse before looking at channels
        await check_channels(dict(given))
        changed = await self.service.set_ids(interaction.guild_id or 0, actor_of(interaction), "channel",
                                             {k: c.id if c else None for k, c in given.items()})
        await self.reply(interaction, changed_text("Channels", changed))

    @app_commands.command(name="team", extras=requires(Role.COMMISSIONER))
    @app_commands.describe(name="The team's name (an existing team's exact name updates it)",
                           channel="The team's channel", captain="A captain to add to the team",
                           division="The team's division (youth: junior or senior)",
                           replace="Change what the team has, or take another team's captain or channel")
    @app_commands.autocomplete(name=team_autocomplete)
    async def team(self, interaction: discord.Interaction, name: TeamName,
                   channel: Channel | None = None, captain: discord.Member | None = None,
                   division: DivisionName | None = None, replace: bool = False) -> None:
        """Create or update a team, its channel, division and a captain."""
        self.service.check(interaction.guild_id, actor_of(interaction))
        await check_channels({f"team {name}": channel})
        saved = await self.teams.save(interaction.guild_id or 0, actor_of(interaction), name=name,
                                      channel_id=channel.id if channel else None,
                                      captain_id=captain.id if captain else None, division=division,
                                      replace=replace)
        text = f"{saved.team}: " + (", ".join(saved.changes) if saved.changes else "nothing to change") + "."
        league = self.bot.settings.league_for_guild(interaction.guild_id)
        role = league.roles.captain if league else None
        if captain is not None and role and role not in {r.id for r in captain.roles}:
            text += f" Give {captain.display_name} the <@&{role}> role so they can use captain commands."
        await self.reply(interaction, text)

    @team.autocomplete("division")
    async def division_autocomplete(self, interaction: discord.Interaction,
                                    current: str) -> list[app_commands.Choice[str]]:
        names = await self.teams.divisions(interaction.guild_id)
        return [app_commands.Choice(name=n, value=n) for n in names if current.casefold() in n.casefold()][:25]

    @app_commands.command(name="team-remove", extras=requires(Role.COMMISSIONER))
    @app_commands.describe(name="The team to remove")
    @app_commands.autocomplete(name=team_autocomplete)
    async def team_remove(self, interaction: discord.Interaction, name: TeamName) -> None:
        """Remove a team that has no games on the schedule (commissioners)."""
        removed = await self.teams.remove(interaction.guild_id or 0, actor_of(interaction), name)
        await self.reply(interaction, f"{removed} is removed.")

    @app_commands.command(name="rule", description="Override one rule setting, or reset it to the preset.",
                          extras=requires(Role.COMMISSIONER))
    @app_commands.describe(key="The rule setting (type to search)", value="The new value, e.g. 2, true, [\"2d\"]",
                           reset="Go back to the preset's value")
    @app_commands.autocomplete(key=rule_autocomplete)
    async def rule(self, interaction: discord.Interaction, key: app_commands.Range[str, 1, 100],
                   value: app_commands.Range[str, 1, 200] | None = None, reset: bool = False) -> None:
        """Remove a team that has no games."""
        changed = await self.service.set_rule(interaction.guild_id or 0, actor_of(interaction), key, value,
                                              reset=reset)
        await self.reply(interaction, changed_text("Rules", changed))

    @app_commands.command(name="reminders", extras=requires(Role.COMMISSIONER))
    @app_commands.describe(games="Before each game, to teams, e.g. 2d 1d 2h",
                           captain_alerts="Lineup alerts to captains, e.g. 1d 3h",
                           game_cards="The game card to the game's referees, e.g. 2h (off: none)")
    @app_commands.rename(captain_alerts="captain-alerts", game_cards="game-cards")
    async def reminders(self, interaction: discord.Interaction, games: app_commands.Range[str, 1, 100] | None = None,
                        captain_alerts: app_commands.Range[str, 1, 100] | None = None,
                        game_cards: app_commands.Range[str, 1, 100] | None = None) -> None:
        """When reminders go out before games."""
        changed = await self.service.set_reminders(interaction.guild_id or 0, actor_of(interaction), games,
                                                   captain_alerts, game_cards)
        await self.reply(interaction, changed_text("Reminders", changed))

    @app_commands.command(name="discord", extras=requires(Role.COMMISSIONER))
    @app_commands.describe(scheduled_events="Each game as a Discord scheduled event (the bot needs Manage Events)",
                           team_roles="A role per team, given to its roster (the bot needs Manage Roles)")
    @app_commands.rename(scheduled_events="scheduled-events", team_roles="team-roles")
    async def discord_features(self, interaction: discord.Interaction, scheduled_events: bool | None = None,
                               team_roles: bool | None = None) -> None:
        """Keep games as Discord events and a role per team in step with the league."""
        changed = await self.service.set_flags(interaction.guild_id or 0, actor_of(interaction),
                                               {"scheduled_events": scheduled_events, "team_roles": team_roles})
        queued = await self.bot.services.discord_sync.turned_on(changed.league, changed.league_id,
                                                                events=scheduled_events is True,
                                                                roles=team_roles is True)
        text = changed_text("Discord features", changed)
        if queued.events_queued or queued.members_queued:
            text += (f"\nQueued {queued.events_queued} game event update(s) and {queued.members_queued} "
                     "team role change(s); they go out in the background.")
        await self.reply(interaction, text)

    @app_commands.command(name="show", extras=requires(Role.COMMISSIONER))
    @app_commands.describe(section="A rules section to list in full (lineup, shootout, ...)")
    @app_commands.autocomplete(section=section_autocomplete)
    async def show(self, interaction: discord.Interaction,
                   section: app_commands.Range[str, 1, 32] | None = None) -> None:
        """The league's settings, where each comes from, and citations."""
        if section is not None and section not in SECTIONS:
            raise InvalidInput(f"No rules section {section!r}; pick one of: {', '.join(SECTIONS)}.")
        league, shown = await self.service.show(interaction.guild_id or 0, actor_of(interaction))
        await reply(interaction, embed=show_embed(league.name, shown, section), ephemeral=True,
                    allowed_mentions=QUIET)

    @app_commands.command(name="web", extras=requires(Role.COMMISSIONER))
    @app_commands.describe(public="True: publish a read-only league page with a new link; False: take it down",
                           names="How the page names players without a Discord account (juniors): "
                                 "initials (the default) or full names")
    async def web(self, interaction: discord.Interaction, public: bool | None = None,
                  names: PageNames | None = None) -> None:
        """The league's public web page: standings, schedule, results, bracket, leaders."""
        state = await self.bot.services.league_page.set_public(self.bot.caller(interaction), public, names)
        await self.reply(interaction, web_text(self.bot.settings.calendar_server, state))

    @app_commands.command(name="rulebook", extras=requires(Role.COMMISSIONER))
    @app_commands.describe(file="The league's rulebook as a .txt or .md file; it replaces the one /rule uses",
                           reset="Go back to the preset's own rulebook")
    async def rulebook(self, interaction: discord.Interaction, file: discord.Attachment | None = None,
                       reset: bool = False) -> None:
        """Upload the rulebook /rule answers from, or go back to the preset's."""
        await rulebook_upload.answer(self.bot, interaction, actor_of(interaction), file, reset)


async def setup(bot: SidelineBot) -> None:
    await bot.add_cog(SetupCog(bot))

