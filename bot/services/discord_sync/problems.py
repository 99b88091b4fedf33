"""A permission Discord refused, told to the commissioners once (admin channel, else announcements).

The problem stays recorded until a call of its scope works again, so a feature that keeps failing
for the same reason is reported once, not at every game or roster change.
"""

from __future__ import annotations

import logging
from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.config.settings import LeagueSettings
from bot.services import outbox
from bot.services.outbox import Outgoing
from storage.db import rowcount, upsert_insert
from storage.models import DiscordProblem

log = logging.getLogger("sideline.discord_sync")


async def report_once(session: AsyncSession, league: LeagueSettings, league_id: int, scope: str, text: str,
                      now: datetime) -> bool:
    """Record the problem; tell the commissioners only when it is new. True when they were told."""
    result = await session.execute(upsert_insert(session)(DiscordProblem).values(
        league_id=league_id, scope=scope, detail=text[:300], reported_at=now).on_conflict_do_nothing(
        index_elements=["league_id", "scope"]))
    if not rowcount(result):
        return False
    channel = league.channels.admin or league.channels.announcements
    if channel is None:
        log.error("league %s: %s (no admin or announcements channel to tell)", league.key, text)
        return False
    await outbox.enqueue(session, league_id=league_id, guild_id=league.guild_id,
                         key=f"discord-problem:{league_id}:{scope}:{int(now.timestamp())}", due_at=now,
                         message=Outgoing(content=text[:2000]), channel_id=channel)
    return True


async def open_scopes(session: AsyncSession, league_id: int) -> set[str]:
    return set((await session.scalars(select(DiscordProblem.scope).where(DiscordProblem.league_id == league_id))).all())


async def clear(session: AsyncSession, league_id: int, *scopes: str) -> None:
    """A call of these scopes worked: the problem is over, and a new one will be reported again."""
    await session.execute(delete(DiscordProblem).where(DiscordProblem.league_id == league_id,
                                                       DiscordProblem.scope.in_(scopes)))


async def clear_prefix(session: AsyncSession, league_id: int, prefix: str) -> None:
    """The commissioner turned the feature on again (after a fix): every problem of it is over."""
    await session.execute(delete(DiscordProblem).where(DiscordProblem.league_id == league_id,
                                                       DiscordProblem.scope.startswith(prefix, autoescape=True)))
