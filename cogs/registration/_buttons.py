"""Buttons of registration messages, working after a restart: the commissioners' Replace under an unpaid fee
(``sideline:registration:replace:<registration id>``) and Accept / Decline under a waiting-list offer
(``sideline:registration:offer:<accept|decline>:<offer id>``). The services check everything again on each
press: who pressed, and that the state still allows it (a second press changes nothing)."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.client.tree import NO_MENTIONS, ReportingItem, reply
from bot.discord_text import clip, timestamp
from bot.league.registration.forms import money
from bot.services.registration.shared import BUTTON_PREFIX
from bot.services.registration.waiting import ACCEPT, DECLINE, OfferAnswer, offer_button_id, replace_button_id
from cogs._common import bot_of

REPLACE = re.compile(rf"{BUTTON_PREFIX}replace:(?P<id>[0-9]{{1,20}})")
OFFER = re.compile(rf"{BUTTON_PREFIX}offer:(?P<action>{ACCEPT}|{DECLINE}):(?P<id>[0-9]{{1,20}})")


class ReplaceButton(ReportingItem, discord.ui.DynamicItem[discord.ui.Button[Any]], template=REPLACE):
    """A commissioner confirms replacing a registrant who hasn't paid by the deadline (youth 1.15)."""

    def __init__(self, registration_id: int) -> None:
        super().__init__(discord.ui.Button(label=f"Replace #{registration_id}", style=discord.ButtonStyle.danger,
                                           custom_id=replace_button_id(registration_id)))
        self.registration_id = registration_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ReplaceButton:
        return cls(int(match["id"]))

    async def answer(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        done = await bot.services.registration_waiting.replace(bot.caller(interaction), self.registration_id)
        text = f"Replaced #{done.line.id} {done.line.name} ({done.line.division}); they're told by DM."
        text += (f" The spot is offered to {done.offered_to}, first on the waiting list." if done.offered_to
                 else " Nobody is waiting: the spot stays open for the next registrant.")
        await reply(interaction, clip(text, 2000), ephemeral=True, allowed_mentions=NO_MENTIONS)


def offer_text(answer: OfferAnswer) -> str:
    if answer.answer == "accepted" and answer.team:
        text = f"✅ {answer.name} joins {answer.team} ({answer.division}) for the rest of the season."
        if answer.fee_cents and answer.payment_due_at:
            text += (f" The season's fee prorated by the games left ({money(answer.fee_cents)}) is due before their "
                     f"first game, {timestamp(answer.payment_due_at)}.")
            if answer.payment_link:
                text += f" Pay on the league's payment page: <{answer.payment_link}>."
        return text
    if answer.answer == "accepted":
        text = f"✅ {answer.name} has the spot in {answer.division}."
        if answer.fee_cents and answer.payment_due_at:
            text += f" The fee ({money(answer.fee_cents)}) is due by {timestamp(answer.payment_due_at)}."
            if answer.payment_link:
                text += f" Pay on the league's payment page: <{answer.payment_link}>."
        return text
    if answer.answer == "declined":
        return f"Declined: the spot in {answer.division} goes to the next on the waiting list."
    if answer.answer == "expired":
        return f"That offer ran out; the spot in {answer.division} went to the next on the waiting list."
    return f"You've answered that offer already ({answer.answer.removeprefix('already ')}); nothing changed."


class OfferButton(ReportingItem, discord.ui.DynamicItem[discord.ui.Button[Any]], template=OFFER):
    """Accept or Decline a spot offered from the waiting list, in the DM it came in."""

    def __init__(self, action: str, offer_id: int) -> None:
        super().__init__(discord.ui.Button(label=action.title(), custom_id=offer_button_id(action, offer_id),
                                           style=discord.ButtonStyle.success if action == ACCEPT
                                           else discord.ButtonStyle.secondary))
        self.action, self.offer_id = action, offer_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> OfferButton:
        return cls(match["action"], int(match["id"]))

    async def answer(self, interaction: discord.Interaction) -> None:
        answer = await bot_of(interaction).services.registration_waiting.answer_offer(
            interaction.user.id, self.offer_id, self.action == ACCEPT)
        await reply(interaction, clip(offer_text(answer), 2000), ephemeral=True, allowed_mentions=NO_MENTIONS)
