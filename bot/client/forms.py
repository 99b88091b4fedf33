"""Forms (modals) answered from their custom_id alone, so a form opened before a restart still works.

discord.py hands a modal's submission only to the Modal object that sent it, kept in memory. Sideline's
forms carry their state in their custom_id instead, as its buttons do, and are taken back by a listener
of every interaction. discord.py runs each listener of an event as a task of its own, for every
interaction of any kind (each check-in too), so the features don't listen themselves: they register
their handlers here (``SidelineBot.forms``), and the bot listens once, while any handler is registered.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord.ext import commands

#: Takes a submitted form that is its own (by its custom_id) and returns at once on any other.
FormHandler = Callable[[discord.Interaction[Any]], Awaitable[None]]


class Forms:
    """The form handlers of the loaded features, each tried on every submitted form."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.handlers: list[FormHandler] = []

    def add(self, handler: FormHandler) -> None:
        if handler in self.handlers:
            return
        if not self.handlers:
            self.bot.add_listener(self.on_interaction, "on_interaction")
        self.handlers.append(handler)

    def remove(self, handler: FormHandler) -> None:
        if handler not in self.handlers:
            return
        self.handlers.remove(handler)
        if not self.handlers:
            self.bot.remove_listener(self.on_interaction, "on_interaction")

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """The one listener: anything but a submitted form ends here."""
        if interaction.type is not discord.InteractionType.modal_submit:
            return
        for handler in tuple(self.handlers):
            await handler(interaction)
