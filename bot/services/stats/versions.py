"""A league's statistics counter: every change to what the statistics count moves it, in the change's own
unit of work, so an answer kept from before the change is never given after it (bot/services/stats/service.py).

Moved whenever a game's statistics are counted again (bot/services/stats/lines.py ``refresh_game``)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from storage.db import upsert_insert
from storage.models import StatsVersion


async def bump(session: AsyncSession, league_id: int) -> None:
    """Something counted changed: one atomic upsert, so changes at once each move it."""
    insert = upsert_insert(session)(StatsVersion).values(league_id=league_id, version=1)
    await session.execute(insert.on_conflict_do_update(index_elements=[StatsVersion.league_id],
                                                       set_={"version": StatsVersion.version + 1}))

