"""Reading the statistics: the leaders down an index of the season's totals (bot/services/stats/lines.py
keeps them), a division's from the lines of its teams (one grouped query), a player's and a team's from
their lines, the shoot-outs from their record. Never a loop over the league's rows in Python.
bot/league/stats.py says what counts and ranks the leaders."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import and_, case, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.league.stats import Category, PlayerStats, Tally
from bot.services.shared.seasons import SeasonRange
from storage.models import (
    Game,
    GameSheetEntry,
    GameSpare,
    Player,
    Result,
    RosterEntry,
    ShootoutAttempt,
    StatLine,
    StatTotal,
    Team,
)

#: The totals' (and the lines') column of each category.
COLUMN = {"points": "points", "goals": "goals", "assists": "assists", "pim": "pim", "gp": "gp"}


def counted_games(league_id: int, span: SeasonRange) -> Any:
    """The ids of the league's games in the season with a played result (a forfeit counts nothing)."""
    query = (select(Game.id).join(Result, Result.game_id == Game.id)
             .where(Game.league_id == league_id, Result.decided != "forfeit"))
    if span.starts_at is not None:
        query = query.where(Game.starts_at >= span.starts_at)
    if span.ends_at is not None:
        query = query.where(Game.starts_at < span.ends_at)
    return query


async def leaders(session: AsyncSession, league_id: int, season_id: int, category: Category, *,
                  top: int) -> list[Tally]:
    """Every player at or above the ``top``-th value of the category in the season's totals (those level with
    it included), with their names: two index range scans of the totals, best first."""
    column = getattr(StatTotal, COLUMN[category])
    where = (StatTotal.league_id == league_id, StatTotal.season_id == season_id)
    cutoff = await session.scalar(select(column).where(*where, column > 0).order_by(column.desc())
                                  .offset(top - 1).limit(1)) or 1
    rows = await session.execute(select(StatTotal.player_id, Player.name, column).join(
        Player, Player.id == StatTotal.player_id).where(*where, column >= cutoff))
    return [Tally(pid, name, int(value)) for pid, name, value in rows]


async def division_leaders(session: AsyncSession, league_id: int, season_id: int, category: Category,
                           division_id: int, *, top: int) -> list[Tally]:
    """The same for what players did for one division's teams: a grouped query over those teams' lines."""
    if category == "points":
        value = func.sum(StatLine.goals + StatLine.assists)
    else:
        value = func.sum(getattr(StatLine, COLUMN[category]))
    teams = select(Team.id).where(Team.league_id == league_id, Team.division_id == division_id)
    per = (select(StatLine.player_id.label("pid"), value.label("value"))
           .where(StatLine.league_id == league_id, StatLine.season_id == season_id, StatLine.team_id.in_(teams))
           .group_by(StatLine.player_id).subquery("per_player"))
    ranked = select(per.c.pid, per.c.value, func.rank().over(order_by=per.c.value.desc()).label("place")) \
        .where(per.c.value > 0).subquery("ranked")
    rows = await session.execute(select(ranked.c.pid, Player.name, ranked.c.value)
                                 .join(Player, Player.id == ranked.c.pid).where(ranked.c.place <= top))
    return [Tally(r.pid, r.name, int(r.value)) for r in rows]


def _line_sums() -> list[Any]:
    return [func.coalesce(func.sum(getattr(StatLine, n)), 0) for n in
            ("gp", "goals", "assists", "pim", "goalie", "goals_against", "shutout")]


async def player_stats(session: AsyncSession, league_id: int, player_id: int, season_id: int,
                       span: SeasonRange) -> PlayerStats:
    """One player's numbers in the season: their lines summed (an index range), and their shoot-outs."""
    gp, goals, assists, pim, goalie_gp, against, shutouts = (await session.execute(select(*_line_sums()).where(
        StatLine.league_id == league_id, StatLine.player_id == player_id, StatLine.season_id == season_id))).one()
    attempts, scored = (await session.execute(select(func.count(), func.coalesce(func.sum(
        case((ShootoutAttempt.scored, 1), else_=0)), 0)).where(
        ShootoutAttempt.shooter_id == player_id, ShootoutAttempt.game_id.in_(counted_games(league_id, span))))).one()
    return PlayerStats(int(gp), int(goals), int(assists), int(pim), int(scored or 0), int(attempts or 0),
                       int(goalie_gp), int(against), int(shutouts))


@dataclass(frozen=True)
class TeamLine:
    player_id: int
    name: str
    stats: PlayerStats
    on_roster: bool


async def team_lines(session: AsyncSession, league_id: int, team_id: int, season_id: int) -> list[TeamLine]:
    """Each player's numbers for the team in the season (what they did playing for it), the roster's
    players with nothing yet included."""
    found = {r.player_id: PlayerStats(int(r.gp), int(r.goals), int(r.assists), int(r.pim)) for r in (
        await session.execute(select(StatLine.player_id, *(func.sum(getattr(StatLine, n)).label(n)
                                                          for n in ("gp", "goals", "assists", "pim")))
                              .where(StatLine.league_id == league_id, StatLine.team_id == team_id,
                                     StatLine.season_id == season_id).group_by(StatLine.player_id)))}
    roster = set((await session.scalars(select(RosterEntry.player_id).where(
        RosterEntry.league_id == league_id, RosterEntry.team_id == team_id))).all())
    ids = set(found) | roster
    names = dict((await session.execute(select(Player.id, Player.name).where(Player.id.in_(ids))))
                 .all()) if ids else {}
    out = [TeamLine(pid, names.get(pid, "?"), found.get(pid, PlayerStats()), pid in roster) for pid in ids]
    return sorted(out, key=lambda t: (-t.stats.points, -t.stats.goals, t.name.casefold()))


async def every_player(session: AsyncSession, league_id: int, season_id: int,
                       span: SeasonRange) -> dict[int, PlayerStats]:
    """Each player's numbers in the season, for the export: the lines grouped by player, and the shoot-outs."""
    numbers = {r[0]: [int(v) for v in r[1:]] for r in (await session.execute(
        select(StatLine.player_id, *_line_sums()).where(StatLine.league_id == league_id,
                                                       StatLine.season_id == season_id)
        .group_by(StatLine.player_id))).all()}
    shots = {r[0]: (int(r[1]), int(r[2] or 0)) for r in (await session.execute(
        select(ShootoutAttempt.shooter_id, func.count(), func.sum(case((ShootoutAttempt.scored, 1), else_=0)))
        .where(ShootoutAttempt.shooter_id.is_not(None),
               ShootoutAttempt.game_id.in_(counted_games(league_id, span)))
        .group_by(ShootoutAttempt.shooter_id))).all() if r[0] is not None}
    out = {}
    for pid in set(numbers) | set(shots):
        gp, goals, assists, pim, goalie_gp, against, shutouts = numbers.get(pid, [0] * 7)
        attempts, scored = shots.get(pid, (0, 0))
        out[pid] = PlayerStats(gp, goals, assists, pim, scored, attempts, goalie_gp, against, shutouts)
    return out


async def team_names(session: AsyncSession, league_id: int, player_ids: Sequence[int]) -> dict[int, str]:
    """Each player's roster team now, by name."""
    if not player_ids:
        return {}
    rows = await session.execute(select(RosterEntry.player_id, Team.name).join(Team, Team.id == RosterEntry.team_id)
                                 .where(RosterEntry.league_id == league_id,
                                        RosterEntry.player_id.in_(list(player_ids))))
    return dict(rows.all())


async def team_games(session: AsyncSession, league_id: int, team_id: int, span: SeasonRange,
                     since: datetime | None) -> list[int]:
    """The team's counted games in the season (from ``since``, when the player joined), oldest first."""
    query = counted_games(league_id, span).where(or_(Game.home_team_id == team_id, Game.away_team_id == team_id))
    if since is not None:
        query = query.where(Game.starts_at >= since)
    return list((await session.scalars(query.order_by(Game.starts_at, Game.id))).all())


async def attendance_marks(session: AsyncSession, team_id: int, game_ids: Sequence[int],
                           player_ids: Sequence[int]) -> tuple[set[tuple[int, int]], set[int]]:
    """(player, game) pairs on a sheet among those games, and the games where the team had a spare."""
    if not game_ids or not player_ids:
        return set(), set()
    played = {(r.player_id, r.game_id) for r in await session.execute(select(
        GameSheetEntry.player_id, GameSheetEntry.game_id).where(
        GameSheetEntry.game_id.in_(list(game_ids)), GameSheetEntry.player_id.in_(list(player_ids)),
        GameSheetEntry.removed_at.is_(None)))}
    spared = set((await session.scalars(select(GameSpare.game_id).where(
        and_(GameSpare.game_id.in_(list(game_ids)), GameSpare.team_id == team_id)))).all())
    return played, spared

