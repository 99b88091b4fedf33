"""The registration form (a modal) and what answers it after a restart.

The form's custom_id (``sideline:registration:form:<window id, 0 when the age decides>``) carries its
state, and its submission is taken by ``handle_form``, which the registration cog registers with the
bot's forms (bot/client/forms.py), rather than by the Modal object, so a form opened before a restart
still registers.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import discord

from bot.client.tree import NO_MENTIONS, answer_reporting_errors, reply
from bot.discord_text import clip, timestamp
from bot.league.registration.forms import money
from bot.services.registration.forms import Form, Registered
from bot.services.registration.shared import BUTTON_PREFIX
from cogs._common import bot_of
from cogs.messages._buttons import submitted_value

FORM = re.compile(rf"{BUTTON_PREFIX}form:(?P<window>[0-9]{{1,20}})")
FIELDS = ("name", "date_of_birth", "positions", "guardian", "notes")


def form_id(window_id: int | None) -> str:
    return f"{BUTTON_PREFIX}form:{window_id or 0}"


def registration_form(window_id: int | None, title: str) -> discord.ui.Modal:
    form = discord.ui.Modal(title=clip(title, 45), custom_id=form_id(window_id))
    form.add_item(discord.ui.TextInput(label="Player's name", custom_id="name", max_length=100))
    form.add_item(discord.ui.TextInput(label="Date of birth (YYYY-MM-DD)", custom_id="date_of_birth", max_length=40,
                                       placeholder="2012-03-05 (only commissioners see it)"))
    form.add_item(discord.ui.TextInput(label="Positions", custom_id="positions", max_length=100, required=False,
                                       placeholder="e.g. forward, goalie"))
    form.add_item(discord.ui.TextInput(label="Guardian (for a player under 18)", custom_id="guardian",
                                       max_length=100, required=False,
                                       placeholder="The parent or guardian's name; a guardian may send this form"))
    form.add_item(discord.ui.TextInput(label="Notes", custom_id="notes", style=discord.TextStyle.paragraph,
                                       max_length=1000, required=False))
    return form


def registered_text(done: Registered) -> str:
    if done.status == "waiting":
        text = (f"📝 {done.name} is on the waiting list for {done.division} ({done.season}), number "
                f"{done.queue_position}: the division is full. When a spot opens it's offered here by DM, in order.")
    else:
        text = f"📝 {done.name} is registered for {done.division} ({done.season}) — registration #{done.id}."
        if done.exception_reason:
            text += f" (Age exception: {done.exception_reason}.)"
    if done.status == "registered" and done.fee_cents > 0:
        text += f"\nFee: {money(done.fee_cents)}"
        if done.payment_due_at is not None:
            text += f", to be paid by {timestamp(done.payment_due_at)} or the spot goes to the waiting list"
        text += "."
        if done.payment_link:
            text += f" Pay on the league's payment page: <{done.payment_link}> (Sideline never sees card details)."
    return clip(text, 2000)


async def handle_form(interaction: discord.Interaction) -> None:
    """A registration form came back: register it (the service checks everything again)."""
    if interaction.type is not discord.InteractionType.modal_submit:
        return
    data: Mapping[str, object] = interaction.data or {}
    match = FORM.fullmatch(str(data.get("custom_id", "")))
    if match is None:
        return
    window_id = int(match["window"]) or None

    async def answer(interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        values: dict[str, Any] = {f: submitted_value(interaction.data, f) for f in FIELDS}
        done = await bot.services.registration.register(bot.caller(interaction), window_id, Form(**values))
        await reply(interaction, registered_text(done), ephemeral=True, allowed_mentions=NO_MENTIONS)

    await answer_reporting_errors(interaction, answer)
