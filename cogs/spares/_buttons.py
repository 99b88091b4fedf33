"""Accept / Decline under a spare offer (a DM), and "Ask the spare list" under a captain's lineup
alert, working after a restart.

The state lives in the custom_id (``sideline:spare@<league id>:<offer id>:<accept|decline>``,
``sideline:sparereq@<league id>:<game id>:<team id>``): the spares cog registers both with
``bot.add_dynamic_items``. The service checks everything again on every press: the offer is the
presser's, unanswered, its request still open and they still eligible; the alert's presser captains
that team; anything else is a polite private answer that changes nothing.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.client.tree import NO_MENTIONS, ReportingItem, reply
from bot.discord_text import clip, timestamp
from bot.errors import NotAllowed
from bot.services.shared.spare_buttons import (
    ACCEPT,
    DECLINE,
    OFFER_PREFIX,
    REQUEST_PREFIX,
    offer_button_id,
    request_button_id,
)
from bot.services.spares.requests import Requested
from cogs._common import bot_of

TEMPLATE = re.compile(
    rf"{OFFER_PREFIX}@(?P<league>[0-9]{{1,19}}):(?P<offer>[0-9]{{1,19}}):(?P<action>{ACCEPT}|{DECLINE})")
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
        await reply(interaction, result.text, ephemeral=True, allowed_mentions=NO_MENTIONS)


def requested_text(result: Requested) -> str:
    """What the captain reads: how many spares each wave asks (or asked, for a request already open)."""
    game = result.game
    head = f"{result.team} · {game.title}, {timestamp(game.starts_at)} (`{game.code}`)"
    if result.already_open:
        first, second = result.asked
        text = (f"A spare request for {head} is already open, asking for {result.need}.\n"
                f"Asked so far: {_spares(first)} in the first wave; ")
        text += (f"the second wave goes out at {timestamp(result.second_wave_at, 't')}." if result.second_wave_at
                 else f"{_spares(second)} in the second.")
        return clip(text + "\nSpares who accept are added to /lineup and /whoisin, and you're told by DM.", 2000)
    text = f"Asking spares for {head}: {result.need}.\n"
    if not result.first_wave and not result.second_wave:
        when = f" before {timestamp(result.second_wave_at, 't')}" if result.second_wave_at else ""
        text += f"Nobody on the spare list fits right now; anyone who joins{when} is asked then."
    elif not result.best_first:
        text += f"No spare is a best match, so the first wave asks all {_spares(result.first_wave)} who fit, by DM now."
        if result.second_wave_at:
            text += f" Anyone who joins before {timestamp(result.second_wave_at, 't')} is asked then."
    else:
        text += f"First wave, by DM now: {_spares(result.first_wave)} (the best matches)."
        if result.second_wave_at:
            text += (f" Second wave: {_spares(result.second_wave)} more at {timestamp(result.second_wave_at, 't')} "
                     "if the spot is still open.")
    return clip(text + "\nThe first to accept gets the spot; you're told by DM.", 2000)


def _spares(n: int) -> str:
    return f"{n} spare{'' if n == 1 else 's'}"


REQUEST_TEMPLATE = re.compile(
    rf"{REQUEST_PREFIX}@(?P<league>[0-9]{{1,19}}):(?P<game>[0-9]{{1,19}}):(?P<team>[0-9]{{1,19}})")


class SpareRequestButton(ReportingItem, discord.ui.DynamicItem[discord.ui.Button[Any]], template=REQUEST_TEMPLATE):
    """Ask the spare list for what a lineup alert says is missing; rebuilt from its custom_id."""

    def __init__(self, league_id: int, game_id: int, team_id: int) -> None:
        super().__init__(discord.ui.Button(label="Ask the spare list", style=discord.ButtonStyle.primary,
                                           custom_id=request_button_id(league_id, game_id, team_id)))
        self.league_id, self.game_id, self.team_id = league_id, game_id, team_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> SpareRequestButton:
        return cls(int(match["league"]), int(match["game"]), int(match["team"]))

    async def answer(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        if interaction.guild_id is not None:
            caller = bot.caller(interaction)
            if caller.league_id != self.league_id:
                raise NotAllowed(OTHER_SERVER)
        else:
            member = bot.member_in(interaction, self.league_id)
            if member is None:
                raise NotAllowed("That button belongs to a league this bot doesn't run; nothing changed.")
            caller = member
        result = await bot.services.spare_requests.request(caller, game_id=self.game_id, team_id=self.team_id,
                                                           in_a_dm=interaction.guild_id is None)
        await reply(interaction, requested_text(result), ephemeral=True,
                    allowed_mentions=NO_MENTIONS)
