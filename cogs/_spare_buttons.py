"""Accept / Decline under a spare offer (a DM), working after a restart.

The state lives in the custom_id (``sideline:spare@<league id>:<offer id>:<accept|decline>``): the
spares cog registers ``SpareOfferButton`` with ``bot.add_dynamic_items``. The service checks
everything again on every press: the offer is the presser's, unanswered, its request still open and
they still eligible; anything else is a polite private answer that changes nothing.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.errors import NotAllowed
from bot.services.spares.requests import ACCEPT, BUTTON_PREFIX, DECLINE, offer_button_id
from bot.tree import NO_MENTIONS, ReportingItem
from cogs._common import bot_of

TEMPLATE = re.compile(
    rf"{BUTTON_PREFIX}@(?P<league>[0-9]{{1,19}}):(?P<offer>[0-9]{{1,19}}):(?P<action>{ACCEPT}|{DECLINE})")
OTHER_SERVER = "That offer belongs to another server's league; nothing changed."
LABELS = {ACCEPT: "Accept", DECLINE: "Decline"}
STYLES = {ACCEPT: discord.ButtonStyle.success, DECLINE: discord.ButtonStyle.secondary}


class SpareOfferButton(ReportingItem, discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    """Accept or Decline one spare offer; rebuilt from its custom_id on every press."""

    def __init__(self, league_id: int, offer_id: int, action: str) -> None:
        super().__init__(discord.ui.Button(label=LABELS[action], style=STYLES[action],
                                           custom_id=offer_button_id(league_id, offer_id, action)))
        self.league_id, self.offer_id, self.action = league_id, offer_id, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> SpareOfferButton:
        return cls(int(match["league"]), int(match["offer"]), match["action"])

    async def answer(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        if interaction.guild_id is not None and bot.caller(interaction).league_id != self.league_id:
            raise NotAllowed(OTHER_SERVER)
        if self.league_id not in bot.league_ids.values():
            raise NotAllowed("That offer isn't yours to answer.")
        result = await bot.services.spare_requests.answer(self.league_id, self.offer_id, interaction.user.id,
                                                          self.action)
        await interaction.response.send_message(result.text, ephemeral=True, allowed_mentions=NO_MENTIONS)
