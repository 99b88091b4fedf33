"""Discord's calls for the outbox's action rows (scheduled events, team roles), as plain data.

The services that decide what to call (bot/services/discord_sync/) see no discord.py: they get
dicts back, and Discord's refusals as ``Refused`` (403) or ``Gone`` (404). Other errors (429, 5xx)
propagate, and the courier retries the row with backoff.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import discord
from discord.http import HTTPClient, handle_message_parameters

from bot.discord_text import fit_content
from bot.services.discord_sync.api import Gone, Refused

T = TypeVar("T")
REASON = "Sideline: kept in step with the league's schedule and rosters"


async def _plain(call: Awaitable[T]) -> T:
    try:
        return await call
    except discord.Forbidden as exc:
        raise Refused(exc.code, exc.text or "Missing Permissions") from None
    except discord.NotFound as exc:
        raise Gone(exc.code, exc.text or "Not Found") from None


class DiscordActions:
    """What ``bot.services.discord_sync.api.DiscordCalls`` asks, over discord.py's HTTP client."""

    def __init__(self, http: HTTPClient, bot_user_id: Callable[[], int | None]) -> None:
        self.http = http
        self._bot_user_id = bot_user_id

    @property
    def bot_user_id(self) -> int | None:
        return self._bot_user_id()

    async def scheduled_events(self, guild_id: int) -> list[dict[str, Any]]:
        return list(await _plain(self.http.get_scheduled_events(guild_id, False)))  # type: ignore[arg-type]

    async def create_scheduled_event(self, guild_id: int, body: dict[str, Any]) -> dict[str, Any]:
        return dict(await _plain(self.http.create_guild_scheduled_event(guild_id, reason=REASON, **body)))

    async def scheduled_event(self, guild_id: int, event_id: int) -> dict[str, Any]:
        return dict(await _plain(self.http.get_scheduled_event(guild_id, event_id, False)))

    async def edit_scheduled_event(self, guild_id: int, event_id: int, body: dict[str, Any]) -> dict[str, Any]:
        return dict(await _plain(self.http.edit_scheduled_event(guild_id, event_id, reason=REASON, **body)))

    async def roles(self, guild_id: int) -> list[dict[str, Any]]:
        return [dict(r) for r in await _plain(self.http.get_roles(guild_id))]

    async def create_role(self, guild_id: int, body: dict[str, Any]) -> dict[str, Any]:
        return dict(await _plain(self.http.create_role(guild_id, reason=REASON, **body)))

    async def member(self, guild_id: int, user_id: int) -> dict[str, Any]:
        return dict(await _plain(self.http.get_member(guild_id, user_id)))

    async def add_member_role(self, guild_id: int, user_id: int, role_id: int) -> None:
        await _plain(self.http.add_role(guild_id, user_id, role_id, reason=REASON))

    async def edit_message(self, channel_id: int, message_id: int, content: str) -> None:
        """New text for one of the bot's messages; it pings nobody (its buttons stay as they are)."""
        params = handle_message_parameters(content=fit_content(content),
                                           allowed_mentions=discord.AllowedMentions.none())
        await _plain(self.http.edit_message(channel_id, message_id, params=params))

    async def remove_member_role(self, guild_id: int, user_id: int, role_id: int) -> None:
        await _plain(self.http.remove_role(guild_id, user_id, role_id, reason=REASON))
