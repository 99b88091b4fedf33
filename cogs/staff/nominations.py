"""/team nominate, /team nominations, /team confirm and /team decline: who leads each team before the draft
(youth 1.3, 1.5). Every reply is ephemeral: a date of birth never reaches a channel.

Added to the ``/team`` group of cogs/setup/joins.py (or the ``/staff`` fallback of cogs/staff/assistants.py),
both loaded first.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.access import Role
from bot.client.bot import SidelineBot
from bot.client.tree import NO_MENTIONS, reply, requires
from bot.discord_text import clip, timestamp
from bot.league.staff.management import POST_TITLES
from bot.services.staff.nominations import Decision, Nominated, Nominations
from cogs._common import bot_of, team_autocomplete

POST_CHOICES = [app_commands.Choice(name=POST_TITLES[p], value=p) for p in ("coach", "assistant", "captain")]


def nominated_text(result: Nominated) -> str:
    title = POST_TITLES[result.post]
    if result.already:
        return clip(f"{result.name} was already put forward as {result.team}'s {title} (nomination "
                    f"#{result.id}); the commissioners will confirm or decline it.", 2000)
    return clip(f"{result.name} is put forward as {result.team}'s {title} (nomination #{result.id}). The "
                "commissioners will confirm or decline it; the nominee hears their answer privately.", 2000)


def nominations_text(result: Nominations) -> str:
    lines = [f"**Nominations waiting** (ages as of {result.reference:%B} {result.reference.day}, "
             f"{result.reference.year})"]
    for n in result.waiting:
        born = f", born {n.born.isoformat()} (age {n.age})" if n.born is not None else ""
        lines.append(f"#{n.id} · {n.name} for {n.team}'s {POST_TITLES[n.post]}{born} · {timestamp(n.nominated_at)}")
    if not result.waiting:
        lines.append("None.")
    lines.append("")
    lines.append("**Before the draft**")
    lines += [f"⚠️ {b.reason}" for b in result.blockers] or ["✅ Ready for the draft: every team has the coach or "
                                                             "captain the rules ask for."]
    lines.append("")
    lines.append("Confirm or decline one with /team confirm or /team decline and its number.")
    return clip("\n".join(lines), 2000)


def decision_text(decision: Decision, captain_role: int | None, has_role: bool) -> str:
    title = POST_TITLES[decision.post]
    if not decision.confirmed:
        return clip(f"Declined: {decision.name} as {decision.team}'s {title}. They're told privately.", 2000)
    text = f"Confirmed: {decision.name} is now {decision.team}'s {title}. They're told privately."
    if decision.replaced:
        text += f" (They replace {decision.replaced}.)"
    if decision.post != "assistant" and captain_role is not None and not has_role:
        text += f" Give {decision.name} the <@&{captain_role}> role so they can use captain commands."
    return clip(text, 2000)


@app_commands.describe(post="What they'd be", team="The team",
                       member="Who (default: you; commissioners may put anyone forward)",
                       born="Their date of birth, e.g. 2010-04-23 (only for a coach where an age applies; private)")
@app_commands.choices(post=POST_CHOICES)
@app_commands.autocomplete(team=team_autocomplete)
@app_commands.guild_only()
async def nominate(interaction: discord.Interaction, post: app_commands.Choice[str],
                   team: app_commands.Range[str, 1, 100], member: discord.Member | None = None,
                   born: app_commands.Range[str, 1, 10] | None = None) -> None:
    bot = bot_of(interaction)
    who = member if member is not None else interaction.user
    result = await bot.services.staff.nominations.nominate(bot.caller(interaction), post.value, team, who.id,
                                                           who.display_name, born)
    await reply(interaction, nominated_text(result), ephemeral=True, allowed_mentions=NO_MENTIONS)


@app_commands.guild_only()
async def nominations(interaction: discord.Interaction) -> None:
    bot = bot_of(interaction)
    result = await bot.services.staff.nominations.waiting(bot.caller(interaction))
    await reply(interaction, nominations_text(result), ephemeral=True, allowed_mentions=NO_MENTIONS)


async def _decide(interaction: discord.Interaction, nomination: int, note: str | None, confirm: bool) -> None:
    bot = bot_of(interaction)
    decision = await bot.services.staff.nominations.decide(bot.caller(interaction), nomination, confirm=confirm,
                                                           note=note)
    league = bot.settings.league_for_guild(interaction.guild_id)
    role = league.roles.captain if league else None
    member = interaction.guild.get_member(decision.discord_id) if interaction.guild else None
    has_role = member is not None and role is not None and role in {r.id for r in member.roles}
    await reply(interaction, decision_text(decision, role, has_role), ephemeral=True, allowed_mentions=NO_MENTIONS)


@app_commands.describe(nomination="The nomination's number (from /team nominations)",
                       note="A private note to the nominee")
@app_commands.guild_only()
async def confirm(interaction: discord.Interaction, nomination: app_commands.Range[int, 1, 2_147_483_647],
                  note: app_commands.Range[str, 1, 500] | None = None) -> None:
    await _decide(interaction, nomination, note, confirm=True)


@app_commands.describe(nomination="The nomination's number (from /team nominations)",
                       note="A private note to the nominee")
@app_commands.guild_only()
async def decline(interaction: discord.Interaction, nomination: app_commands.Range[int, 1, 2_147_483_647],
                  note: app_commands.Range[str, 1, 500] | None = None) -> None:
    await _decide(interaction, nomination, note, confirm=False)


NAMES = ("nominate", "nominations", "confirm", "decline")


def nomination_commands() -> list[app_commands.Command[Any, ..., Any]]:
    return [
        app_commands.Command(name="nominate", description="Put yourself forward as a team's coach, assistant "
                             "coach or captain.", callback=nominate),
        app_commands.Command(name="nominations", description="Nominations waiting, and which teams the draft "
                             "waits for (commissioners).", callback=nominations, extras=requires(Role.COMMISSIONER)),
        app_commands.Command(name="confirm", description="Confirm a coach, assistant coach or captain nomination "
                             "(commissioners).", callback=confirm, extras=requires(Role.COMMISSIONER)),
        app_commands.Command(name="decline", description="Decline a coach, assistant coach or captain nomination "
                             "(commissioners).", callback=decline, extras=requires(Role.COMMISSIONER)),
    ]


async def setup(bot: SidelineBot) -> None:
    group = bot.tree.get_command("team") or bot.tree.get_command("staff")
    if not isinstance(group, app_commands.Group):
        raise RuntimeError("cogs/staff/assistants.py loads first and makes the /staff group when /team is missing")
    for command in nomination_commands():
        group.add_command(command)


async def teardown(bot: SidelineBot) -> None:
    for name in ("team", "staff"):
        group = bot.tree.get_command(name)
        if isinstance(group, app_commands.Group):
            for command in NAMES:
                group.remove_command(command)
