"""Acknowledge / Reply under a relay, and the reply form, working in the referees channel and in DMs.

The state lives in the custom_id (``sideline:relay:<ack|reply>:<relay id>``): the relay cog registers
``RelayButton`` with ``bot.add_dynamic_items``, so presses work after a restart. The reply form's
submission (custom_id ``sideline:relay:answer:<relay id>``) is handled by ``handle_answer``, which the
relay cog registers with the bot's forms (bot/client/forms.py), rather than by the Modal object, for the
same reason.
Everything is checked again by the service on every press and submission (forged ids included).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import discord

from bot.client.deadline import Acknowledge
from bot.client.tree import NO_MENTIONS, ReportingItem, answer_reporting_errors, reply
from bot.discord_text import clip
from bot.league.messages import TEXT_LIMIT
from bot.services.messages.relays import (
    ACK,
    BUTTON_PREFIX,
    REPLY,
    RelayLine,
    RelayService,
    RelayUpdate,
    Responder,
    button_id,
)
from cogs._common import bot_of

TEMPLATE = re.compile(rf"{BUTTON_PREFIX}(?P<action>{ACK}|{REPLY}):(?P<id>[0-9]{{1,20}})")
ANSWER_FORM = re.compile(rf"{BUTTON_PREFIX}answer:(?P<id>[0-9]{{1,20}})")
ANSWER_FIELD = "answer"
LABELS = {ACK: "Acknowledge", REPLY: "Reply"}
STYLES = {ACK: discord.ButtonStyle.success, REPLY: discord.ButtonStyle.primary}


def responder_of(interaction: discord.Interaction) -> Responder:
    """Who pressed: with their league roles in a server, without them in a DM."""
    caller = bot_of(interaction).caller(interaction) if interaction.guild_id is not None else None
    return Responder(interaction.user.id, interaction.user.display_name, caller)


def service_of(interaction: discord.Interaction) -> RelayService:
    bot = bot_of(interaction)
    return bot.services.relays


def acknowledged_reply(update: RelayUpdate) -> str:
    r = update.relay
    if update.changed:
        return f"Acknowledged relay #{r.id}. {r.captain_name} is told by DM."
    if r.answered_at is not None:
        return f"Relay #{r.id} was already answered by {r.answered_by_name}; nothing new was sent."
    return f"Relay #{r.id} was already acknowledged by {r.acknowledged_by_name}; nothing new was sent."


class RelayButton(ReportingItem, discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    """Acknowledge or Reply for one relay; rebuilt from its custom_id on every press."""

    def __init__(self, action: str, relay_id: int, label: str | None = None) -> None:
        super().__init__(discord.ui.Button(label=label or LABELS[action], style=STYLES[action],
                                           custom_id=button_id(action, relay_id)))
        self.action = action
        self.relay_id = relay_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> RelayButton:
        return cls(match["action"], int(match["id"]))

    async def answer(self, interaction: discord.Interaction) -> None:
        service = service_of(interaction)
        responder = responder_of(interaction)
        if self.action == ACK:
            update = await service.acknowledge(responder, self.relay_id)
            await reply(interaction, acknowledged_reply(update), ephemeral=True,
                        allowed_mentions=NO_MENTIONS)
            return
        relay = await service.check_can_answer(responder, self.relay_id)
        form = answer_form(relay)
        await interaction.response.send_modal(form)
        form.stop()  # handle_answer takes the submission, even after a restart

    def acknowledgement(self) -> Acknowledge:
        """Reply opens a form, which Discord takes only as the first response: it is never deferred."""
        return Acknowledge.NEVER if self.action == REPLY else Acknowledge.PRIVATELY


def answer_form(relay: RelayLine) -> discord.ui.Modal:
    form = discord.ui.Modal(title=clip(f"Reply to relay #{relay.id} ({relay.team})", 45),
                            custom_id=f"{BUTTON_PREFIX}answer:{relay.id}")
    form.add_item(discord.ui.TextInput(label="Your reply to the captain", custom_id=ANSWER_FIELD,
                                       style=discord.TextStyle.paragraph, max_length=TEXT_LIMIT, required=True,
                                       placeholder=clip(relay.message, 100)))
    return form


def submitted_value(data: Any, field: str) -> str:
    """A text field's value from a modal submission (rows or labels, however Discord nests them)."""
    stack = list((data or {}).get("components") or [])
    while stack:
        item = stack.pop(0)
        if not isinstance(item, dict):
            continue
        if item.get("custom_id") == field and isinstance(item.get("value"), str):
            return item["value"]
        stack += list(item.get("components") or []) + ([item["component"]] if "component" in item else [])
    return ""


async def handle_answer(interaction: discord.Interaction) -> None:
    """A referee's reply form came back: record it and send it to the captain (via the service)."""
    if interaction.type is not discord.InteractionType.modal_submit:
        return
    data: Mapping[str, object] = interaction.data or {}
    match = ANSWER_FORM.fullmatch(str(data.get("custom_id", "")))
    if match is None:
        return
    relay_id = int(match["id"])

    async def answer(interaction: discord.Interaction) -> None:
        update = await service_of(interaction).answer(responder_of(interaction), relay_id,
                                                      submitted_value(interaction.data, ANSWER_FIELD))
        await reply(
            interaction, f"Reply sent to {update.relay.captain_name} (relay #{update.relay.id}).", ephemeral=True,
            allowed_mentions=NO_MENTIONS)

    await answer_reporting_errors(interaction, answer)


def inbox_view(relays: tuple[RelayLine, ...]) -> discord.ui.View | None:
    """Acknowledge / Reply for the first relays of an inbox (five rows of buttons at most)."""
    if not relays:
        return None
    view = discord.ui.View(timeout=None)
    for row, relay in enumerate(relays[:5]):
        for action in (ACK, REPLY):
            button = RelayButton(action, relay.id, label=f"{LABELS[action]} #{relay.id}")
            button.row = row
            view.add_item(button)
    view.stop()  # DynamicItems answer the clicks: nothing for discord.py to hold (15 min per ephemeral reply)
    return view
