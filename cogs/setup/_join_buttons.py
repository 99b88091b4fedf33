"""Join requests' buttons, rebuilt from their custom_id on every press (they survive a restart).

``sideline:join@<league>:<team>:<player>:<position>:<yes|no>``: a captain's Approve / Decline.
``sideline:joinask@<league>:<team>``: the Join button a captain posts with /team invite.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.access import Caller
from bot.client.deadline import Acknowledge
from bot.client.tree import ReportingItem, reply, update
from bot.errors import NotAllowed
from cogs._common import bot_of

QUIET = discord.AllowedMentions.none()
DECIDE = re.compile(r"sideline:join@(?P<league>\d{1,19}):(?P<team>\d{1,19}):(?P<player>\d{1,19})"
                    r":(?P<position>skater|goalie):(?P<answer>yes|no)")
ASK = re.compile(r"sideline:joinask@(?P<league>\d{1,19}):(?P<team>\d{1,19})")
OTHER_SERVER = "That button belongs to another server's league."
NOT_YOURS = "Only the team's captains or a commissioner can answer that request; nothing changed."


def decision_buttons(league_id: int, team_id: int, player_id: int, position: str) -> tuple[tuple[str, str], ...]:
    base = f"sideline:join@{league_id}:{team_id}:{player_id}:{position}"
    return (("Approve", f"{base}:yes"), ("Decline", f"{base}:no"))


def join_button(league_id: int, team_id: int) -> tuple[str, str]:
    return ("Join", f"sideline:joinask@{league_id}:{team_id}")


def presser(interaction: discord.Interaction, league_id: int) -> Caller:
    """On a server: its league (refusing another's button); in a DM: a plain member of the button's league."""
    bot = bot_of(interaction)
    if interaction.guild_id is not None:
        caller = bot.caller(interaction)
        if caller.league_id != league_id:
            raise NotAllowed(OTHER_SERVER)
        return caller
    member = bot.member_in(interaction, league_id)
    if member is None:
        raise NotAllowed(OTHER_SERVER)
    return member


async def deciding_presser(interaction: discord.Interaction, league_id: int) -> Caller:
    """Who answers a join request: in a DM, with their roles on the league's server, so the captain role
    is checked there as on the server."""
    if interaction.guild_id is not None:
        return presser(interaction, league_id)
    member = await bot_of(interaction).member_with_roles(interaction, league_id)
    if member is None:
        raise NotAllowed(NOT_YOURS)
    return member


class JoinDecisionButton(ReportingItem, discord.ui.DynamicItem[discord.ui.Button[Any]], template=DECIDE):
    def __init__(self, league_id: int, team_id: int, player_id: int, position: str, approve: bool) -> None:
        label, custom_id = decision_buttons(league_id, team_id, player_id, position)[0 if approve else 1]
        style = discord.ButtonStyle.success if approve else discord.ButtonStyle.danger
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=custom_id))
        self.league_id, self.team_id, self.player_id = league_id, team_id, player_id
        self.position, self.approve = position, approve

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> JoinDecisionButton:
        return cls(int(match["league"]), int(match["team"]), int(match["player"]), match["position"],
                   match["answer"] == "yes")

    async def answer(self, interaction: discord.Interaction) -> None:
        caller = await deciding_presser(interaction, self.league_id)
        decided = await bot_of(interaction).services.joins.decide(
            caller, team_id=self.team_id, player_id=self.player_id, position=self.position, approve=self.approve)
        verb = "approved" if decided.approved else "declined"
        text = f"{decided.player}'s request to join {decided.team} was {verb} by {caller.display_name}."
        await update(interaction, text, allowed_mentions=QUIET)

    def acknowledgement(self) -> Acknowledge:
        return Acknowledge.BY_EDIT  # the decision replaces the request's buttons


class JoinAskButton(ReportingItem, discord.ui.DynamicItem[discord.ui.Button[Any]], template=ASK):
    def __init__(self, league_id: int, team_id: int) -> None:
        label, custom_id = join_button(league_id, team_id)
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.primary, custom_id=custom_id))
        self.league_id, self.team_id = league_id, team_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> JoinAskButton:
        return cls(int(match["league"]), int(match["team"]))

    async def answer(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is None:  # posted in team channels only: a DM press is a forgery
            raise NotAllowed("Press Join in your league's server.")
        caller = presser(interaction, self.league_id)
        joins = bot_of(interaction).services.joins
        team = await joins.team_name(self.league_id, self.team_id)
        asked = await joins.ask(caller, team, position=None, gender=None, make_buttons=decision_buttons)
        await reply(
            interaction, f"Asked {asked.team}'s captains ({asked.asked}); you'll hear back privately.", ephemeral=True,
            allowed_mentions=QUIET)
