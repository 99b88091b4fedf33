"""/rulevote start|list and the vote's buttons: rule changes voted on by the commissioners and the division's
coaches or captains (youth 1.23). Yes / No (``sideline:rulevote:<yes|no>:<vote id>``) and a passed vote's
Apply (``sideline:rulevote:apply:<vote id>``) are DynamicItems, so they work after a restart; the service
checks everything again on every press (the league, who pressed, that the vote is still open)."""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.access import Role
from bot.client.bot import SidelineBot
from bot.client.tree import NO_MENTIONS, ReportingItem, reply, requires
from bot.discord_text import clip, quote, timestamp
from bot.services.rulevotes import (
    APPLY,
    BUTTON_PREFIX,
    NO,
    YES,
    Applied,
    Cast,
    Listed,
    Started,
    apply_button_id,
    vote_button_id,
)
from cogs._common import DivisionName, bot_of, division_autocomplete
from cogs.setup.setup import rule_autocomplete

VOTE = re.compile(rf"{BUTTON_PREFIX}(?P<answer>{YES}|{NO}):(?P<id>[0-9]{{1,20}})")
APPLY_ID = re.compile(rf"{BUTTON_PREFIX}{APPLY}:(?P<id>[0-9]{{1,20}})")


def started_text(started: Started, by: int) -> str:
    where = f"the commissioners and the coaches and captains of {started.division}" if started.division \
        else "the commissioners and every team's coaches and captains"
    meaning = f" ({started.meaning.rstrip('.')})" if started.meaning else ""
    return clip(
        f"🗳️ **Rule-change vote #{started.id}**, proposed by <@{by}>: {started.label}{meaning}\n"
        f"From {quote(started.current)} to **{quote(started.proposed)}**.\n"
        f"Who votes: {where} ({started.eligible} eligible now; other commissioners may vote too). One vote each, "
        f"final. It passes with {started.threshold_percent}% of the eligible voters, not of the votes cast "
        f"({started.needed} Yes of {started.eligible}; {started.citation}). Voting closes "
        f"{timestamp(started.closes_at)}, or when everyone has voted.", 2000)


def vote_view(vote_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(VoteButton(YES, vote_id))
    view.add_item(VoteButton(NO, vote_id))
    return view


def cast_text(cast: Cast) -> str:
    t = cast.tally
    if cast.status == "closed":
        how = "passed" if cast.outcome == "passed" else "did not pass"
        return f"Vote #{cast.vote_id} has closed: it {how} ({t.yes} Yes, {t.no} No of {t.eligible}). Thanks!"
    if cast.status == "closing":
        return f"Voting on #{cast.vote_id} has ended; the result is posted here shortly."
    word = (cast.answer or "").title()
    if cast.status == "already":
        return f"You've voted {word} on vote #{cast.vote_id} already; each vote counts once and can't be changed."
    text = f"Your vote on #{cast.vote_id}: **{word}**. {t.yes + t.no} of {t.eligible} eligible voters have voted."
    if cast.outcome:
        text += f" That was the last vote: it {'passed' if cast.outcome == 'passed' else 'did not pass'}; " \
                "the result is posted here."
    return text


def applied_text(done: Applied) -> str:
    if done.already:
        return f"Vote #{done.vote_id}'s change is applied already: {done.label} is {quote(done.new)}."
    return f"Applied vote #{done.vote_id}: {done.label}: {quote(done.old)} → {quote(done.new)}."


def list_text(rows: list[Listed]) -> str:
    if not rows:
        return "No rule-change votes yet. A commissioner starts one with /rulevote start."
    lines = []
    for r in rows:
        where = f" · {r.division}" if r.division else ""
        t = r.tally
        if r.state == "open":
            state = f"open until {timestamp(r.closes_at)} · {t.yes + t.no} of {t.eligible} voted"
        else:
            state = f"{'passed' if r.outcome == 'passed' else 'did not pass'} · Yes {t.yes}, No {t.no} of {t.eligible}"
            state += " · applied" if r.applied else ""
        lines.append(f"#{r.id} · {r.label} → {quote(r.proposed, 60)}{where} · {state}")
    return clip("Rule-change votes (open first, then the latest closed):\n" + "\n".join(lines), 2000)


class VoteButton(ReportingItem, discord.ui.DynamicItem[discord.ui.Button[Any]], template=VOTE):
    """Yes or No on a rule change, by the commissioners and the division's coaches or captains (youth 1.23)."""

    def __init__(self, answer: str, vote_id: int) -> None:
        super().__init__(discord.ui.Button(label=answer.title(), custom_id=vote_button_id(answer, vote_id),
                                           style=discord.ButtonStyle.success if answer == YES
                                           else discord.ButtonStyle.danger))
        self.answer_given, self.vote_id = answer, vote_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> VoteButton:
        return cls(match["answer"], int(match["id"]))

    async def answer(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        cast = await bot.services.rulevotes.vote(bot.caller(interaction), self.vote_id, self.answer_given)
        await reply(interaction, clip(cast_text(cast), 2000), ephemeral=True, allowed_mentions=NO_MENTIONS)


class ApplyButton(ReportingItem, discord.ui.DynamicItem[discord.ui.Button[Any]], template=APPLY_ID):
    """A commissioner applies a passed vote's change, as /setup rule would."""

    def __init__(self, vote_id: int) -> None:
        super().__init__(discord.ui.Button(label="Apply the change", custom_id=apply_button_id(vote_id),
                                           style=discord.ButtonStyle.primary))
        self.vote_id = vote_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ApplyButton:
        return cls(int(match["id"]))

    async def answer(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        done = await bot.services.rulevotes.apply(bot.caller(interaction), self.vote_id)
        await reply(interaction, clip(applied_text(done), 2000), ephemeral=True, allowed_mentions=NO_MENTIONS)


@app_commands.guild_only()
class RuleVoteCog(commands.GroupCog, group_name="rulevote",
                  group_description="Vote on changing a league rule (commissioners, coaches and captains)."):
    def __init__(self, bot: SidelineBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(VoteButton, ApplyButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(VoteButton, ApplyButton)

    @app_commands.command(name="start", extras=requires(Role.COMMISSIONER))
    @app_commands.describe(rule="The rule setting to change (type to search)",
                           proposal="The new value, as /setup rule takes it, e.g. 2, true, 48h",
                           division="Whose coaches and captains vote (default: every team's)")
    @app_commands.autocomplete(rule=rule_autocomplete, division=division_autocomplete)
    async def start(self, interaction: discord.Interaction, rule: app_commands.Range[str, 1, 100],
                    proposal: app_commands.Range[str, 1, 200], division: DivisionName | None = None) -> None:
        """Start a vote on changing a rule setting (commissioners)."""
        started = await self.bot.services.rulevotes.start(self.bot.caller(interaction), rule, proposal, division,
                                                          interaction.channel_id or 0)
        await reply(interaction, started_text(started, interaction.user.id), view=vote_view(started.id),
                    allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="list")
    async def list_votes(self, interaction: discord.Interaction) -> None:
        """Open and recent rule-change votes."""
        rows = await self.bot.services.rulevotes.listing(self.bot.caller(interaction))
        await reply(interaction, list_text(rows), ephemeral=True, allowed_mentions=NO_MENTIONS)


async def setup(bot: SidelineBot) -> None:
    await bot.add_cog(RuleVoteCog(bot))
