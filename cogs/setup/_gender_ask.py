"""The once-asked gender category select (bot/services/setup/gender_ask.py), rebuilt from its custom_id
``sideline:gender@<league id>`` on every choice, so it works after a restart."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.client.deadline import Acknowledge
from bot.client.tree import ReportingItem, update
from bot.errors import NotAllowed
from bot.league.vocabulary import GENDERS
from cogs._common import bot_of

QUIET = discord.AllowedMentions.none()
TEMPLATE = re.compile(r"sideline:gender@(?P<league>\d{1,19})")
ASK = ("Your league's rules count women/non-binary players on the court. Which category are you? "
       "Only you, your captains and commissioners see it; change it any time with /profile gender.")


class GenderSelect(ReportingItem, discord.ui.DynamicItem[discord.ui.Select[Any]], template=TEMPLATE):
    def __init__(self, league_id: int) -> None:
        super().__init__(discord.ui.Select(
            custom_id=f"sideline:gender@{league_id}", placeholder="Your gender category",
            options=[discord.SelectOption(label=g, value=g) for g in GENDERS]))
        self.league_id = league_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> GenderSelect:
        return cls(int(match["league"]))

    async def answer(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is None:  # only ever sent as a private reply on a server
            raise NotAllowed("Set your gender category with /profile gender in your league's server.")
        bot = bot_of(interaction)
        caller = bot.caller(interaction)
        if caller.league_id != self.league_id:
            raise NotAllowed("That question belongs to another league.")
        values = self.item.values or [""]  # what the member picked, as discord.py read it
        profile = await bot.services.profile.set_gender(caller, str(values[0]))
        await update(interaction, f"Thanks: saved as {profile.gender}, privately.", allowed_mentions=QUIET)

    def acknowledgement(self) -> Acknowledge:
        return Acknowledge.BY_EDIT  # the answer replaces the question


def gender_view(league_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(GenderSelect(league_id))
    view.stop()  # the DynamicItem answers: nothing for discord.py to hold
    return view
