"""Queries on the league's core tables. Every query is scoped to one league.

Text typed by people goes through ``printable`` here, so a NUL (which PostgreSQL refuses) is
dropped before it becomes a query parameter, whichever service passes it on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import BindParameter, ColumnElement, Row, Select, and_, bindparam, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from storage.models import CheckIn, Division, Game, League, Player, RosterEntry, Team, TeamCaptain
from storage.text import printable

# The lookups every command makes are built once, with bound parameters: building a statement
# costs more than running it on an indexed table.
_LEAGUE: BindParameter[int] = bindparam("league_id")
_ID: BindParameter[int] = bindparam("id")
_NAME_MATCHES = func.lower(Team.name) == bindparam("name")  # with name_key(the name typed)
_TEAM_BY_NAME = select(Team).where(Team.league_id == _LEAGUE, _NAME_MATCHES)
_TEAM_BY_ID = select(Team).where(Team.league_id == _LEAGUE, Team.id == _ID)


def name_key(name: str) -> str:
    """A typed name (a team's, a division's, a search) as the lookups compare it: printable, trimmed, any case."""
    return printable(name).strip().lower()


async def team_by_name(session: AsyncSession, league_id: int, name: str) -> Team | None:
    return await session.scalar(_TEAM_BY_NAME, {"league_id": league_id, "name": name_key(name)})


async def team_by_id(session: AsyncSession, league_id: int, team_id: int) -> Team | None:
    return await session.scalar(_TEAM_BY_ID, {"league_id": league_id, "id": team_id})


@dataclass(frozen=True)
class TeamRef:
    """A team as plain columns: all that a reply which only reads a team needs of it."""

    id: int
    name: str
    division: str | None

    @classmethod
    def of(cls, team: Team) -> TeamRef:
        return cls(team.id, team.name, team.division.name if team.division else None)


def _team_ref_query(*, by_name: bool) -> Select[int, str, str]:
    return (select(Team.id, Team.name, Division.name.label("division"))
            .outerjoin(Division, Team.division_id == Division.id)
            .where(Team.league_id == _LEAGUE, _NAME_MATCHES if by_name else Team.id == _ID))


_TEAM_REF_BY_NAME, _TEAM_REF_BY_ID = _team_ref_query(by_name=True), _team_ref_query(by_name=False)


async def team_ref_by_name(session: AsyncSession, league_id: int, name: str) -> TeamRef | None:
    row = (await session.execute(_TEAM_REF_BY_NAME, {"league_id": league_id, "name": name_key(name)})).first()
    return TeamRef(row.id, row.name, row.division) if row else None


async def team_ref_by_id(session: AsyncSession, league_id: int, team_id: int) -> TeamRef | None:
    row = (await session.execute(_TEAM_REF_BY_ID, {"league_id": league_id, "id": team_id})).first()
    return TeamRef(row.id, row.name, row.division) if row else None


async def teams(session: AsyncSession, league_id: int) -> Sequence[Team]:
    return (await session.scalars(select(Team).where(Team.league_id == league_id).order_by(Team.name))).all()


async def search_teams(session: AsyncSession, league_id: int, prefix: str, limit: int = 25) -> Sequence[Team]:
    pattern = f"%{_escape_like(name_key(prefix))}%"
    return (await session.scalars(
        select(Team).where(Team.league_id == league_id, func.lower(Team.name).like(pattern, escape="\\"))
        .order_by(Team.name).limit(limit)
    )).all()


async def division_by_name(session: AsyncSession, league_id: int, name: str) -> Division | None:
    return await session.scalar(
        select(Division).where(Division.league_id == league_id,
                               func.lower(Division.name) == name_key(name))
    )


_PLAYER_BY_DISCORD = select(Player).where(Player.league_id == _LEAGUE, Player.discord_id == bindparam("discord_id"))
# Filtered on the player's (league, discord id) key and joined on (league, player): both lookups
# use a unique index instead of scanning the league's rosters.
_ROSTER_ENTRY = (select(RosterEntry)
                 .join(Player, and_(RosterEntry.league_id == Player.league_id, RosterEntry.player_id == Player.id))
                 .where(Player.league_id == _LEAGUE, Player.discord_id == bindparam("discord_id")))
_ROSTER = (select(RosterEntry).join(Player, RosterEntry.player_id == Player.id)
           .where(RosterEntry.league_id == _LEAGUE, RosterEntry.team_id == bindparam("team_id"))
           .order_by(RosterEntry.position.desc(), func.lower(Player.name)))


async def player_by_discord(session: AsyncSession, league_id: int, discord_id: int) -> Player | None:
    return await session.scalar(_PLAYER_BY_DISCORD, {"league_id": league_id, "discord_id": discord_id})


async def roster_entry(session: AsyncSession, league_id: int, discord_id: int) -> RosterEntry | None:
    """The caller's place on a roster in this league, if any."""
    return await session.scalar(_ROSTER_ENTRY, {"league_id": league_id, "discord_id": discord_id})


async def roster(session: AsyncSession, league_id: int, team_id: int) -> Sequence[RosterEntry]:
    return (await session.scalars(_ROSTER, {"league_id": league_id, "team_id": team_id})).all()


async def roster_size(session: AsyncSession, league_id: int, team_id: int) -> int:
    return await session.scalar(
        select(func.count()).select_from(RosterEntry)
        .where(RosterEntry.league_id == league_id, RosterEntry.team_id == team_id)
    ) or 0


_CAPTAINS = select(TeamCaptain.discord_id).where(TeamCaptain.team_id == bindparam("team_id")).order_by(
    TeamCaptain.discord_id)
_GAME_BY_CODE = select(Game).where(Game.league_id == _LEAGUE, Game.code == bindparam("code"))
# The game's row only (its teams are joined in), read afresh even if the session holds it already.
_GAME_BY_CODE_FOR_UPDATE = _GAME_BY_CODE.with_for_update(of=Game).execution_options(populate_existing=True)


# Who someone is in a league, in one query: their roster place (NULL when none) and a row per team
# they captain, from the league's row so there is a row even for a stranger.
_MEMBERSHIP = (
    select(RosterEntry.team_id, RosterEntry.player_id, TeamCaptain.team_id.label("captain_of")).select_from(League)
    .outerjoin(Player, and_(Player.league_id == League.id, Player.discord_id == bindparam("discord_id")))
    .outerjoin(RosterEntry, and_(RosterEntry.league_id == Player.league_id, RosterEntry.player_id == Player.id))
    .outerjoin(TeamCaptain, and_(TeamCaptain.league_id == League.id, TeamCaptain.discord_id == bindparam("discord_id")))
    .where(League.id == _LEAGUE))


async def roster_place_and_captained(session: AsyncSession, league_id: int,
                                     discord_id: int) -> tuple[int | None, int | None, set[int]]:
    """The person's roster team and player ids (None when not on a roster) and the ids of the
    teams they captain. Plain columns: every command asks this, and an entity costs twice as much."""
    rows = (await session.execute(_MEMBERSHIP, {"league_id": league_id, "discord_id": discord_id})).all()
    if not rows:
        return None, None, set()
    return rows[0].team_id, rows[0].player_id, {row.captain_of for row in rows if row.captain_of is not None}


async def captain_ids(session: AsyncSession, team_id: int) -> list[int]:
    """The Discord ids of a team's captains (the team's league is checked by whoever found the team)."""
    return list((await session.scalars(_CAPTAINS, {"team_id": team_id})).all())


async def game_by_code(session: AsyncSession, league_id: int, code: str, *, for_update: bool = False) -> Game | None:
    """``for_update``: lock the game's row until the transaction ends (PostgreSQL; on SQLite every unit
    of work already holds the write lock), so commands that change the game act one after the other."""
    query = _GAME_BY_CODE_FOR_UPDATE if for_update else _GAME_BY_CODE
    return await session.scalar(query, {"league_id": league_id, "code": printable(code).strip()})


async def upcoming_games(session: AsyncSession, league_id: int, team_ids: Sequence[int] | None,
                         after: datetime, limit: int | None = 10) -> Sequence[Game]:
    """Scheduled games from ``after`` on, soonest first (``limit`` None: all of them)."""
    query = select(Game).where(_in_league(league_id, by_team=team_ids is not None), Game.status == "scheduled",
                               Game.starts_at >= after)
    if team_ids is not None:
        query = query.where(or_(Game.home_team_id.in_(team_ids), Game.away_team_id.in_(team_ids)))
    return (await session.scalars(query.order_by(Game.starts_at, Game.id).limit(limit))).all()


def _in_league(league_id: int | BindParameter[Any], *, by_team: bool) -> ColumnElement[bool]:
    """The league filter on games. For a few teams' games it reads ``league_id + 0``: SQLite then
    walks the home and away team indexes (a team's handful of games) instead of the league's
    (league, starts_at) index, which visits every upcoming game of the league to find ten."""
    return (Game.league_id + 0 if by_team else Game.league_id) == league_id


def teams_as(*names: str) -> list[Any]:
    """The teams table under each name: a game's two sides in a plain-column query. (A table
    alias, not ``aliased(Team)``: plain columns need no ORM class, and each one holds about 30 KB,
    bench/idle.py.)"""
    return [Team.__table__.alias(name) for name in names]


def _team_schedule() -> Select[Any]:
    home, away = teams_as("home", "away")
    return (select(Game.code, Game.starts_at, home.c.name.label("home"), away.c.name.label("away"), Game.venue,
                   Game.kind, Game.status, CheckIn.status.label("answer"))
            .join(home, Game.home_team_id == home.c.id).join(away, Game.away_team_id == away.c.id)
            .outerjoin(CheckIn, and_(CheckIn.game_id == Game.id, CheckIn.player_id == bindparam("player_id")))
            .where(_in_league(_LEAGUE, by_team=True), Game.status == "scheduled", Game.starts_at >= bindparam("after"),
                   or_(Game.home_team_id == bindparam("team_id"), Game.away_team_id == bindparam("team_id")))
            .order_by(Game.starts_at, Game.id).limit(bindparam("limit")))


_TEAM_SCHEDULE = _team_schedule()


async def team_schedule(session: AsyncSession, league_id: int, team_id: int, after: datetime, limit: int,
                        player_id: int | None) -> Sequence[Row[Any]]:
    """A team's next games as named rows: code, starts_at, home, away, venue, kind, status, and the
    ``answer`` ``player_id`` gave (None for no answer or no player)."""
    return (await session.execute(_TEAM_SCHEDULE, {"league_id": league_id, "team_id": team_id, "after": after,
                                                   "limit": limit, "player_id": player_id})).all()


async def search_games(session: AsyncSession, league_id: int, after: datetime, text: str,
                       team_ids: Sequence[int] | None = None, limit: int = 25) -> Sequence[Game]:
    """Games for autocomplete: upcoming first, matching the code or a team name."""
    query = select(Game).where(_in_league(league_id, by_team=team_ids is not None), Game.starts_at >= after)
    if team_ids is not None:
        query = query.where(or_(Game.home_team_id.in_(team_ids), Game.away_team_id.in_(team_ids)))
    needle = name_key(text)
    if needle:
        home, away = Team.__table__.alias("h"), Team.__table__.alias("a")
        pattern = f"%{_escape_like(needle)}%"
        query = (query.join(home, home.c.id == Game.home_team_id)
                 .join(away, away.c.id == Game.away_team_id)
                 .where(or_(func.lower(Game.code).like(pattern, escape="\\"),
                            func.lower(home.c.name).like(pattern, escape="\\"),
                            func.lower(away.c.name).like(pattern, escape="\\"))))
    return (await session.scalars(query.order_by(Game.starts_at, Game.id).limit(limit))).all()


def _escape_like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
