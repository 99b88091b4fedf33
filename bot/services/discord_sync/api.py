"""The Discord calls the sync services make, as plain data, and Discord's refusals in league terms.

The courier hands an implementation (bot/delivery/discord_actions.py) to each action; tests may hand a fake.
"""

from __future__ import annotations

from typing import Any, Protocol

ADMINISTRATOR = 1 << 3
MANAGE_ROLES = 1 << 28
MANAGE_EVENTS = 1 << 33


class Refused(Exception):
    """Discord answered 403: the bot lacks a permission (or the role is above its own)."""

    def __init__(self, code: int, text: str) -> None:
        super().__init__(f"403 {text}")
        self.code, self.text = code, text


class Gone(Exception):
    """Discord answered 404: the event, role or member is no longer there."""

    def __init__(self, code: int, text: str) -> None:
        super().__init__(f"404 {text}")
        self.code, self.text = code, text


UNKNOWN_MEMBER = 10007
UNKNOWN_ROLE = 10011
UNKNOWN_EVENT = 10070


class DiscordCalls(Protocol):
    @property
    def bot_user_id(self) -> int | None: ...

    async def scheduled_events(self, guild_id: int) -> list[dict[str, Any]]: ...

    async def scheduled_event(self, guild_id: int, event_id: int) -> dict[str, Any]: ...

    async def create_scheduled_event(self, guild_id: int, body: dict[str, Any]) -> dict[str, Any]: ...

    async def edit_scheduled_event(self, guild_id: int, event_id: int, body: dict[str, Any]) -> dict[str, Any]: ...

    async def roles(self, guild_id: int) -> list[dict[str, Any]]: ...

    async def create_role(self, guild_id: int, body: dict[str, Any]) -> dict[str, Any]: ...

    async def member(self, guild_id: int, user_id: int) -> dict[str, Any]: ...

    async def add_member_role(self, guild_id: int, user_id: int, role_id: int) -> None: ...

    async def remove_member_role(self, guild_id: int, user_id: int, role_id: int) -> None: ...
