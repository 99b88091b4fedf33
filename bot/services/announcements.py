"""/announce: a commissioner's message posted in the league's announcements channel.

The post goes through the outbox like every other message, so a Discord outage or a restart
delays it rather than losing or doubling it. The text is the commissioner's own, but it still
never pings @everyone, @here or a role: mentions are defused and nobody is pinged.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.access import Caller, Role
from bot.clock import Clock
from bot.discord_text import blank, clean_user_text
from bot.errors import Conflict, InvalidInput
from bot.services import outbox
from bot.services.outbox import Outgoing
from storage.db import retried_on_disconnect

#: Discord's message limit, less room for the heading.
MESSAGE_LIMIT = 1900


@dataclass(frozen=True)
class Announced:
    channel_id: int
    text: str


@retried_on_disconnect
class AnnouncementService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock) -> None:
        self.sessions = sessions
        self.clock = clock

    async def announce(self, caller: Caller, message: str, *, request_id: int) -> Announced:
        """Queue the announcement; ``request_id`` (the interaction) makes a retried request post once."""
        caller.require(Role.COMMISSIONER)
        if len(message) > MESSAGE_LIMIT:
            raise InvalidInput(f"An announcement can be at most {MESSAGE_LIMIT} characters; "
                               f"this one is {len(message)}. Shorten it or split it in two.")
        text = clean_user_text(message, MESSAGE_LIMIT).strip()
        if blank(text):
            raise InvalidInput("Write the announcement.")
        channel = caller.league.channels.announcements
        if channel is None:
            raise Conflict(f"{caller.league.name} has no announcements channel yet, so there's nowhere to post it. "
                           "A commissioner picks one with `/setup channels announcements:`.")
        async with self.sessions.begin() as session:
            await outbox.enqueue(session, league_id=caller.league_id, guild_id=caller.league.guild_id,
                                 key=f"announce:{request_id}", due_at=self.clock.now(), channel_id=channel,
                                 message=Outgoing(content=f"📣 **{caller.league.name}**\n{text}"))
        return Announced(channel, text)
