"""Read-side check-in queries shared by the schedule and check-in features."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Select, and_, bindparam, func, select, true
from sqlalchemy.ext.asyncio import AsyncSession

from storage.db import PlainQuery, plain_rows
from storage.models import CheckIn, Division, Game, Player, RosterEntry
from storage.repos.core import TeamRef, teams_as
from storage.text import printable


@dataclass(frozen=True)
class GameRef:
    """A game as the replies name it."""

    code: str
    starts_at: datetime
    home: str
    away: str
    venue: str
    status: str

    @property
    def title(self) -> str:
        return f"{self.home} vs {self.away}"


def game_ref(game: Game) -> GameRef:
    return GameRef(game.code, game.starts_at, game.home.name, game.away.name, game.venue, game.status)


@dataclass(frozen=True)
class GameSides:
    """A game with both its teams, read as plain columns."""

    id: int
    ref: GameRef
    home: TeamRef
    away: TeamRef

    @classmethod
    def of(cls, game: Game) -> GameSides:
        return cls(game.id, game_ref(game), TeamRef.of(game.home), TeamRef.of(game.away))


def _game_sides_query() -> Select[Any]:
    home, away = teams_as("home", "away")
    home_division, away_division = Division.__table__.alias("home_division"), Division.__table__.alias("away_division")
    return (select(Game.id, Game.code, Game.starts_at, Game.venue, Game.status,
                   home.c.id, home.c.name, home_division.c.name, away.c.id, away.c.name, away_division.c.name)
            .join(home, Game.home_team_id == home.c.id).join(away, Game.away_team_id == away.c.id)
            .outerjoin(home_division, home.c.division_id == home_division.c.id)
            .outerjoin(away_division, away.c.division_id == away_division.c.id)
            .where(Game.league_id == bindparam("league_id"), Game.code == bindparam("code")))


_GAME_SIDES = PlainQuery(_game_sides_query())


async def game_sides(session: AsyncSession, league_id: int, code: str) -> GameSides | None:
    """The game with this code in the league, with both teams (None: no such game)."""
    rows = await plain_rows(session, _GAME_SIDES, {"league_id": league_id, "code": printable(code).strip()})
    if not rows:
        return None
    gid, gcode, starts_at, venue, status, home_id, home, home_division, away_id, away, away_division = rows[0]
    return GameSides(gid, GameRef(gcode, starts_at, home, away, venue, status),
                     TeamRef(home_id, home, home_division), TeamRef(away_id, away, away_division))


@dataclass(frozen=True)
class CheckInContext:
    """Everything a check-in decides on, read in one query: the game, the caller's roster place
    in the league (None when not on a roster) and the answer they gave before (None when none)."""

    game_id: int
    game: GameRef
    home_team_id: int
    away_team_id: int
    team_id: int | None
    player_id: int | None
    player_name: str | None
    previous: str | None


def _context_query(by_code: bool) -> Select[Any]:
    home, away = teams_as("home", "away")
    # From the player's (league, discord id) unique key: one row, not a scan of the league's rosters.
    place = (select(RosterEntry.team_id, RosterEntry.player_id, Player.name)
             .select_from(Player).join(RosterEntry, and_(RosterEntry.league_id == Player.league_id,
                                                         RosterEntry.player_id == Player.id))
             .where(Player.league_id == bindparam("league_id"), Player.discord_id == bindparam("discord_id"))
             .subquery())
    query = (
        select(Game.id, Game.code, Game.starts_at, Game.venue, Game.status, Game.home_team_id, Game.away_team_id,
               home.c.name, away.c.name, place.c.team_id, place.c.player_id, place.c.name, CheckIn.status)
        .join(home, Game.home_team_id == home.c.id)
        .join(away, Game.away_team_id == away.c.id)
        .outerjoin(place, true())
        .outerjoin(CheckIn, and_(CheckIn.game_id == Game.id, CheckIn.player_id == place.c.player_id))
        .where(Game.league_id == bindparam("league_id"))
    )
    return query.where(Game.code == bindparam("code") if by_code else Game.id == bindparam("game_id"))


# Built once: a check-in is the hottest path, and building a statement costs more than running it.
_CONTEXT_BY_CODE, _CONTEXT_BY_ID = PlainQuery(_context_query(True)), PlainQuery(_context_query(False))


async def checkin_context(session: AsyncSession, league_id: int, discord_id: int, *, code: str | None = None,
                          game_id: int | None = None) -> CheckInContext | None:
    """The game (by code or id, in this league) with the caller's roster place and answer; None: no game."""
    params: dict[str, Any] = {"league_id": league_id, "discord_id": discord_id}
    if code is not None:
        query, params["code"] = _CONTEXT_BY_CODE, printable(code).strip()  # no NUL for PostgreSQL
    else:
        query, params["game_id"] = _CONTEXT_BY_ID, game_id
    rows = await plain_rows(session, query, params)
    if not rows:
        return None
    (gid, gcode, starts_at, venue, status, home_id, away_id, home_name, away_name,
     team_id, player_id, player_name, previous) = rows[0]
    return CheckInContext(gid, GameRef(gcode, starts_at, home_name, away_name, venue, status), home_id, away_id,
                          team_id, player_id, player_name, previous)


async def checkin_contexts(session: AsyncSession, league_id: int,
                           asks: Sequence[tuple[int, str]]) -> dict[tuple[int, str], CheckInContext]:
    """Contexts for many (discord id, game code) pairs in one league, in three queries whatever their
    number. A pair whose game doesn't exist in the league is absent."""
    codes = {code: printable(code).strip() for _, code in asks}
    home, away = teams_as("home", "away")
    games = {row[1]: row for row in await plain_rows(session, (
        select(Game.id, Game.code, Game.starts_at, Game.venue, Game.status, Game.home_team_id,
               Game.away_team_id, home.c.name, away.c.name)
        .join(home, Game.home_team_id == home.c.id).join(away, Game.away_team_id == away.c.id)
        .where(Game.league_id == league_id, Game.code.in_(set(codes.values())))
    ))}
    places = {row[0]: row[1:] for row in await plain_rows(session, (
        select(Player.discord_id, RosterEntry.team_id, RosterEntry.player_id, Player.name)
        .select_from(Player).join(RosterEntry, and_(RosterEntry.league_id == Player.league_id,
                                                     RosterEntry.player_id == Player.id))
        .where(Player.league_id == league_id, Player.discord_id.in_({d for d, _ in asks}))
    ))}
    answers: dict[tuple[int, int], str] = {}
    if games and places:
        answers = {(g, p): s for g, p, s in await plain_rows(session, (
            select(CheckIn.game_id, CheckIn.player_id, CheckIn.status)
            .where(CheckIn.game_id.in_({g[0] for g in games.values()}),
                   CheckIn.player_id.in_({p[1] for p in places.values()}))
        ))}
    out: dict[tuple[int, str], CheckInContext] = {}
    for discord_id, code in asks:
        game = games.get(codes[code])
        if game is None:
            continue
        gid, gcode, starts_at, venue, status, home_id, away_id, home_name, away_name = game
        team_id, player_id, name = places.get(discord_id, (None, None, None))
        previous = answers.get((gid, player_id)) if player_id is not None else None
        out[(discord_id, code)] = CheckInContext(gid, GameRef(gcode, starts_at, home_name, away_name, venue, status),
                                                 home_id, away_id, team_id, player_id, name, previous)
    return out


@dataclass(frozen=True)
class RosterAnswer:
    """A rostered player and their answer for one game (``status`` None: no reply yet)."""

    player_id: int
    name: str
    position: str
    gender: str | None
    status: str | None
    answered_at: datetime | None
    answer_id: int | None


# A team's roster with each player's answer, as plain rows in one query: /whoisin and /lineup read
# nothing else about the players, and loading ORM objects cost more than the query (bench/).
_ROSTER_ANSWERS = PlainQuery(
    select(RosterEntry.player_id, Player.name, RosterEntry.position, Player.gender, CheckIn.status,
           CheckIn.updated_at, CheckIn.id)
    .join(Player, RosterEntry.player_id == Player.id)
    .outerjoin(CheckIn, and_(CheckIn.game_id == bindparam("game_id"), CheckIn.player_id == RosterEntry.player_id))
    .where(RosterEntry.league_id == bindparam("league_id"), RosterEntry.team_id == bindparam("team_id"))
    .order_by(RosterEntry.position.desc(), func.lower(Player.name))
)


async def roster_answers(session: AsyncSession, league_id: int, team_id: int, game_id: int) -> list[RosterAnswer]:
    """The team's roster in roster order (goalies last, then by name), each with their answer for the game."""
    rows = await plain_rows(session, _ROSTER_ANSWERS, {"league_id": league_id, "team_id": team_id,
                                                        "game_id": game_id})
    return [RosterAnswer(*row) for row in rows]


_FOR_GAME = select(CheckIn).where(CheckIn.game_id == bindparam("game_id")).order_by(CheckIn.updated_at, CheckIn.id)


async def checkins_for_game(session: AsyncSession, league_id: int, game_id: int) -> Sequence[CheckIn]:
    """Every answer for one game, oldest first (the lineup rules use check-in order).

    ``game_id`` comes from a lookup scoped to ``league_id``; filtering on the game alone lets SQLite
    use the (game, player) index instead of scanning the whole league's check-ins.
    """
    del league_id  # scoped by the caller's game lookup (see above)
    return (await session.scalars(_FOR_GAME, {"game_id": game_id})).all()


async def checkin_count_for_player(session: AsyncSession, league_id: int, player_id: int) -> int:
    return await session.scalar(
        select(func.count()).select_from(CheckIn)
        .where(CheckIn.league_id == league_id, CheckIn.player_id == player_id)
    ) or 0
