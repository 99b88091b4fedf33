"""Whether a division's draft is done: the one place that says so, for trades (bot/services/trades/) and the
roster's refusal to move players between teams after it (bot/services/rosters/roster.py).

The draft is done when the division's /draft ended in the running season; for a division drafted outside
the bot, once the draft day a commissioner set with /registration open has begun in the league's time
zone. Neither known: not done, and nothing is locked.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.league.seasons import season_start
from bot.services.shared.seasons import running_season
from storage.models import Draft, RegistrationWindow


async def draft_done(session: AsyncSession, league_id: int, division: str | None, tz: ZoneInfo,
                     now: datetime) -> datetime | None:
    """When the draft of ``division`` (a team's division name; None: the league's only draft day, if any)
    was held in the running season, if it has been; None when it hasn't or no draft day is known."""
    season = await running_season(session, league_id)
    if season is None:
        return None
    drafted = select(func.min(Draft.ended_at)).where(
        Draft.league_id == league_id, Draft.season_id == season.id, Draft.status == "done")
    if division is not None:
        drafted = drafted.where(func.lower(Draft.division) == division.strip().lower())
    ended = await session.scalar(drafted)
    if ended is not None and ended <= now:
        return ended
    query = select(RegistrationWindow.draft_date).where(
        RegistrationWindow.league_id == league_id, RegistrationWindow.season_id == season.id,
        RegistrationWindow.draft_date.is_not(None))
    if division is not None:
        query = query.where(func.lower(RegistrationWindow.division) == division.strip().lower())
    days = [day for day in (await session.scalars(query)).all() if day is not None]
    if not days:
        return None
    held = season_start(min(days), tz)
    return held if held <= now else None
