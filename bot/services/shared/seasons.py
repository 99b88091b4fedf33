"""Which stretch of games a season is, as every feature that counts by season reads it: standings,
playoffs, rosters, suspensions, cleanup duty and the reminders. Starting and ending seasons is
bot/services/seasons.py's."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.discord_text import quote
from bot.errors import NotFound
from bot.league.seasons import later_in_week, season_index_at
from storage.models import Game, Season


@dataclass(frozen=True)
class SeasonRange:
    """The games of one season: from ``starts_at`` (None: from the beginning) until ``ends_at`` (None: on)."""

    name: str | None
    starts_at: datetime | None
    ends_at: datetime | None
    ended_at: datetime | None = None  # when a commissioner ended it (/season end), if they did

    def holds(self, moment: datetime) -> bool:
        return (self.starts_at is None or moment >= self.starts_at) and (self.ends_at is None or moment < self.ends_at)


#: A league that never started a season: every game counts, as before seasons existed.
WHOLE_HISTORY = SeasonRange(None, None, None)


async def league_seasons(session: AsyncSession, league_id: int) -> list[Season]:
    return list((await session.scalars(
        select(Season).where(Season.league_id == league_id).order_by(Season.starts_at, Season.id))).all())


def season_ranges(seasons: list[Season]) -> list[SeasonRange]:
    return [SeasonRange(s.name, None if i == 0 else s.starts_at,
                        seasons[i + 1].starts_at if i + 1 < len(seasons) else None, s.ended_at)
            for i, s in enumerate(seasons)]


async def season_range(session: AsyncSession, league_id: int | None, name: str | None = None) -> SeasonRange:
    """The named season's games (case-insensitive), else the current (latest) season's; NotFound names them."""
    if league_id is None:
        if name and name.strip():
            raise NotFound("This league has no seasons yet.")
        return WHOLE_HISTORY
    return pick_season(await league_seasons(session, league_id), name)


def pick_season(seasons: list[Season], name: str | None = None) -> SeasonRange:
    """``season_range`` over seasons already read (the statistics read them once for several uses)."""
    ranges = season_ranges(seasons)
    if not name or not name.strip():
        return ranges[-1] if ranges else WHOLE_HISTORY
    wanted = name.strip().casefold()
    for found in ranges:
        if (found.name or "").casefold() == wanted:
            return found
    known = ", ".join(s.name for s in seasons) or "none yet"
    raise NotFound(f"There's no season “{quote(name)}” (seasons: {known}).")


async def running_season(session: AsyncSession, league_id: int) -> Season | None:
    """The season under way (the latest, unless ended); None between seasons or before the first."""
    latest = await session.scalar(select(Season).where(Season.league_id == league_id)
                                  .order_by(Season.starts_at.desc(), Season.id.desc()).limit(1))
    return latest if latest is not None and latest.ended_at is None else None


async def week_first_day(session: AsyncSession, league_id: int, moment: datetime) -> date | None:
    """The first day the weeks around ``moment`` are counted from: the season it falls in, unless that
    season had ended by then; None for the league's calendar weeks (Monday to Sunday)."""
    seasons = await league_seasons(session, league_id)
    index = season_index_at([s.starts_at for s in seasons], moment)
    if index is None:
        return None
    season = seasons[index]
    return season.first_day if season.ended_at is None or season.ended_at > moment else None


async def later_game_in_week(session: AsyncSession, league_id: int, tz: ZoneInfo, game: Game) -> Game | None:
    """A game of the league later than ``game`` in its week, or None when ``game`` is the week's last
    (youth 2.15: its teams clear the arena). The reminders and /cleanup missed both ask this."""
    others = (await session.scalars(select(Game).where(
        Game.league_id == league_id, Game.status != "cancelled", Game.id != game.id,
        Game.starts_at > game.starts_at, Game.starts_at < game.starts_at + timedelta(days=8))
        .order_by(Game.starts_at, Game.id))).unique().all()
    first_day = await week_first_day(session, league_id, game.starts_at)
    return later_in_week(game.starts_at, ((g, g.starts_at) for g in others), tz, first_day)


async def team_regular_games(session: AsyncSession, league_id: int, team_id: int, since: datetime) -> list[datetime]:
    """When the team's regular games from ``since`` on start, in order (cancelled ones left out): what a
    replacement's fee is prorated by and due before (youth 1.16), for the request's approval and the
    waiting-list registrant who takes the spot alike."""
    return list((await session.scalars(select(Game.starts_at).where(
        Game.league_id == league_id, Game.status != "cancelled", Game.kind == "regular",
        or_(Game.home_team_id == team_id, Game.away_team_id == team_id),
        Game.starts_at >= since).order_by(Game.starts_at))).all())
