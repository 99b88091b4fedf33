"""The roster's history: every way off a team records the stint it ends, and who was on a team when.

Paths that take a player off a team (/roster remove, a CSV import's move, a season started with its
rosters cleared) all record the departure here, with the stint's arrival (the roster entry's
``added_at``) and position, so suspensions (bot/services/discipline/core.py) and ``/roster show
season:`` read one history. Arrivals are roster entries' ``added_at`` (/roster add, /join, imports).
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime

from sqlalchemy import delete, func, insert, select, union
from sqlalchemy.ext.asyncio import AsyncSession

from bot.config.settings import LeagueSettings
from bot.league.rosters import SEASON, Stint, TeamRoster, clear_moment, player_stints, roster_during
from bot.services.discord_sync import team_roles
from storage.models import RosterDeparture, RosterEntry


def leave(session: AsyncSession, entry: RosterEntry, at: datetime, reason: str) -> None:
    """Record that ``entry``'s player leaves its team at ``at`` (the caller deletes or moves the entry)."""
    session.add(RosterDeparture(league_id=entry.league_id, player_id=entry.player_id, team_id=entry.team_id,
                                joined_at=min(entry.added_at, at), left_at=at, position=entry.position,
                                reason=reason))


async def rostered(session: AsyncSession, league_id: int) -> tuple[int, int]:
    """How many players are on a roster, on how many teams."""
    row = (await session.execute(select(func.count(), func.count(RosterEntry.team_id.distinct()))
                                 .where(RosterEntry.league_id == league_id))).one()
    return int(row[0] or 0), int(row[1] or 0)


async def clear_rosters(session: AsyncSession, league: LeagueSettings, league_id: int, season_start: datetime,
                        now: datetime) -> tuple[int, int]:
    """Every player leaves their team as a season starts (bot/league/rosters.py ``clear_moment``): how
    many players left, from how many teams. Captains stay captains; team roles follow the empty rosters."""
    gone = (await session.execute(
        delete(RosterEntry).where(RosterEntry.league_id == league_id)
        .returning(RosterEntry.player_id, RosterEntry.team_id, RosterEntry.position, RosterEntry.added_at)
        .execution_options(synchronize_session=False))).all()
    if gone:
        await session.execute(insert(RosterDeparture), [
            {"league_id": league_id, "player_id": row.player_id, "team_id": row.team_id,
             "joined_at": min(row.added_at, now), "left_at": clear_moment(season_start, row.added_at, now),
             "position": row.position, "reason": SEASON}
            for row in gone])
    await team_roles.follow_roster(session, league, league_id, now)
    return len(gone), len({row.team_id for row in gone})


async def team_roster(session: AsyncSession, league_id: int, team_id: int, start: datetime | None,
                      end: datetime | None) -> TeamRoster:
    """Who was on the team at some moment of ``[start, end)`` (None: unbounded; ``end`` None: up to now)."""
    ever = union(
        select(RosterDeparture.player_id).where(RosterDeparture.league_id == league_id,
                                                RosterDeparture.team_id == team_id),
        select(RosterEntry.player_id).where(RosterEntry.league_id == league_id, RosterEntry.team_id == team_id),
    ).subquery()
    departures = (await session.execute(
        select(RosterDeparture.player_id, RosterDeparture.team_id, RosterDeparture.joined_at,
               RosterDeparture.left_at, RosterDeparture.position, RosterDeparture.reason)
        .where(RosterDeparture.league_id == league_id, RosterDeparture.player_id.in_(select(ever.c.player_id))))).all()
    current = (await session.execute(
        select(RosterEntry.player_id, RosterEntry.team_id, RosterEntry.added_at, RosterEntry.position)
        .where(RosterEntry.league_id == league_id, RosterEntry.player_id.in_(select(ever.c.player_id))))).all()
    left: dict[int, list[Stint]] = defaultdict(list)
    for d in departures:
        left[d.player_id].append(Stint(d.player_id, d.team_id, d.joined_at, d.left_at, d.position, d.reason))
    now_on = {c.player_id: Stint(c.player_id, c.team_id, c.added_at, None, c.position) for c in current}
    stints = [s for player in left.keys() | now_on.keys()
              for s in player_stints(left.get(player, ()), now_on.get(player))]
    return roster_during(stints, team_id, start, end)
