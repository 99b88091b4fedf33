"""Read-side check-in queries shared by the schedule and check-in features."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Select, and_, bindparam, case, exists, false, func, or_, select, true
from sqlalchemy.ext.asyncio import AsyncSession

from bot.league.vocabulary import Gender, Position
from bot.services.shared.eligibility import SuspensionCheck
from storage.lookups import TeamRef, teams_as
from storage.models import AwayRange, CheckIn, Division, Game, GenderAsk, Player, ReminderMessage, RosterEntry
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
                   home.c.id.label("home_id"), home.c.name.label("home"), home_division.c.name.label("home_division"),
                   away.c.id.label("away_id"), away.c.name.label("away"), away_division.c.name.label("away_division"))
            .join(home, Game.home_team_id == home.c.id).join(away, Game.away_team_id == away.c.id)
            .outerjoin(home_division, home.c.division_id == home_division.c.id)
            .outerjoin(away_division, away.c.division_id == away_division.c.id)
            .where(Game.league_id == bindparam("league_id"), Game.code == bindparam("code")))


_GAME_SIDES = _game_sides_query()


async def game_sides(session: AsyncSession, league_id: int, code: str) -> GameSides | None:
    """The game with this code in the league, with both teams (None: no such game)."""
    row = (await session.execute(_GAME_SIDES, {"league_id": league_id, "code": printable(code).strip()})).first()
    if row is None:
        return None
    return GameSides(row.id, GameRef(row.code, row.starts_at, row.home, row.away, row.venue, row.status),
                     TeamRef(row.home_id, row.home, row.home_division),
                     TeamRef(row.away_id, row.away, row.away_division))


@dataclass(frozen=True)
class CheckInContext:
    """Everything a check-in decides on, read in one query: the game, the caller's roster place
    in the league (None when not on a roster), the answer they gave before (None when none) and
    whether they might be suspended (only then is the suspension check asked why), when the
    latest away range covering the game was set (None: the caller is not away for it), whether they
    have no gender category and were never asked for one, and whether their team's reminder message
    for the game is posted with no edit queued (an answer that changes something queues one)."""

    game_id: int
    game: GameRef
    home_team_id: int
    away_team_id: int
    team_id: int | None
    player_id: int | None
    player_name: str | None
    previous: str | None
    might_be_suspended: bool
    away_since: datetime | None = None
    gender_unasked: bool = False
    edit_wanted: bool = False


def _context_query(by: str, suspensions: SuspensionCheck, by_player: bool = False) -> Select[Any]:
    """By ``code``, by ``id``, or the ``next`` scheduled game (from ``now``) of the caller's roster team."""
    home, away = teams_as("home", "away")
    # From the player's (league, discord id) unique key: one row, not a scan of the league's rosters. A guardian
    # answering for a player without a Discord account names the player's id instead.
    who = Player.id == bindparam("player_id") if by_player else Player.discord_id == bindparam("discord_id")
    place = (select(RosterEntry.team_id, RosterEntry.player_id, Player.name.label("player_name"),
                    Player.gender.label("player_gender"))
             .select_from(Player).join(RosterEntry, and_(RosterEntry.league_id == Player.league_id,
                                                         RosterEntry.player_id == Player.id))
             .where(Player.league_id == bindparam("league_id"), who)
             .subquery())
    flagged = suspensions.might_be_suspended(Game.league_id, place.c.player_id)
    away_since = (select(func.max(AwayRange.created_at))
                  .where(AwayRange.league_id == Game.league_id, AwayRange.player_id == place.c.player_id,
                         AwayRange.starts_at <= Game.starts_at, AwayRange.ends_at > Game.starts_at)
                  .scalar_subquery())
    # Looked up only for a player with no category (CASE stops there): most have one.
    gender_unasked = case((place.c.player_gender.is_(None),
                           ~exists().where(GenderAsk.league_id == Game.league_id,
                                           GenderAsk.player_id == place.c.player_id)), else_=false())
    edit_wanted = exists().where(ReminderMessage.game_id == Game.id, ReminderMessage.team_id == place.c.team_id,
                                 ReminderMessage.league_id == Game.league_id, ReminderMessage.message_id.is_not(None),
                                 ReminderMessage.edit_due_at.is_(None))
    query = select(Game.id, Game.code, Game.starts_at, Game.venue, Game.status, Game.home_team_id, Game.away_team_id,
                   home.c.name.label("home"), away.c.name.label("away"), place.c.team_id, place.c.player_id,
                   place.c.player_name, CheckIn.status.label("previous"), flagged.label("might_be_suspended"),
                   away_since.label("away_since"), gender_unasked.label("gender_unasked"),
                   edit_wanted.label("edit_wanted"))
    if by == "next":
        # The roster place first, then its team's next game by the team indexes (as storage/lookups.py's
        # upcoming_games reads it: ``league_id + 0``), then that game by its key.
        upcoming = Game.__table__.alias("upcoming")
        next_id = (select(upcoming.c.id)
                   .where((upcoming.c.league_id + 0) == bindparam("league_id"), upcoming.c.status == "scheduled",
                          upcoming.c.starts_at >= bindparam("now"),
                          or_(upcoming.c.home_team_id == place.c.team_id, upcoming.c.away_team_id == place.c.team_id))
                   .order_by(upcoming.c.starts_at, upcoming.c.id).limit(1).scalar_subquery())
        query = query.select_from(place).join(Game, Game.id == next_id)
    query = (
        query.join(home, Game.home_team_id == home.c.id)
        .join(away, Game.away_team_id == away.c.id)
    )
    if by != "next":
        query = query.outerjoin(place, true())
    query = (query.outerjoin(CheckIn, and_(CheckIn.game_id == Game.id, CheckIn.player_id == place.c.player_id))
             .where(Game.league_id == bindparam("league_id")))
    if by == "code":
        return query.where(Game.code == bindparam("code"))
    return query.where(Game.id == bindparam("game_id")) if by == "id" else query


class CheckInContextQuery:
    """The check-in's one read, each of its six forms built once per service with its suspension
    check, when first used: a check-in is the hottest path, and building a statement costs more than
    running it; built at start, the six held half a megabyte of an idle bot (bench/idle.py)."""

    def __init__(self, suspensions: SuspensionCheck) -> None:
        self.suspensions = suspensions
        self.queries: dict[tuple[str, bool], Select[Any]] = {}

    async def __call__(self, session: AsyncSession, league_id: int, discord_id: int, *, code: str | None = None,
                       game_id: int | None = None, next_after: datetime | None = None,
                       player_id: int | None = None) -> CheckInContext | None:
        """The game (by code or id, in this league) with the caller's roster place and answer (with
        ``player_id``: that player's, whom the caller manages); None: no game. ``next_after``: the next
        scheduled game of the player's roster team from then on (None: none, or on no roster)."""
        by_player = player_id is not None
        params: dict[str, Any] = {"league_id": league_id}
        params.update({"player_id": player_id} if by_player else {"discord_id": discord_id})
        if code is not None:
            by, params["code"] = "code", printable(code).strip()  # no NUL for PostgreSQL
        elif next_after is not None:
            by, params["now"] = "next", next_after
        else:
            by, params["game_id"] = "id", game_id
        # On the unit's connection: the same transaction, without the ORM session's execution path
        # (plain columns need none of it, and it costs a check-in more than SQLite runs the query).
        query = self.queries.get((by, by_player))
        if query is None:
            query = self.queries[by, by_player] = _context_query(by, self.suspensions, by_player)
        row = (await (await session.connection()).execute(query, params)).first()
        if row is None:
            return None
        return CheckInContext(row.id, GameRef(row.code, row.starts_at, row.home, row.away, row.venue, row.status),
                              row.home_team_id, row.away_team_id, row.team_id, row.player_id, row.player_name,
                              row.previous, bool(row.might_be_suspended), row.away_since,
                              bool(row.gender_unasked), bool(row.edit_wanted))


@dataclass(frozen=True)
class RosterAnswer:
    """A rostered player and their answer for one game (``status`` None: no reply yet)."""

    player_id: int
    name: str
    position: Position
    gender: Gender | None
    status: str | None
    answered_at: datetime | None
    answer_id: int | None


# A team's roster with each player's answer, as plain rows in one query: /whoisin and /lineup read
# nothing else about the players, and loading ORM objects cost more than the query (bench/).
_ROSTER_ANSWERS = (
    select(RosterEntry.player_id, Player.name, RosterEntry.position, Player.gender, CheckIn.status,
           CheckIn.updated_at.label("answered_at"), CheckIn.id.label("answer_id"))
    .join(Player, RosterEntry.player_id == Player.id)
    .outerjoin(CheckIn, and_(CheckIn.game_id == bindparam("game_id"), CheckIn.player_id == RosterEntry.player_id))
    .where(RosterEntry.league_id == bindparam("league_id"), RosterEntry.team_id == bindparam("team_id"))
    .order_by(RosterEntry.position.desc(), func.lower(Player.name))
)


async def roster_answers(session: AsyncSession, league_id: int, team_id: int, game_id: int) -> list[RosterAnswer]:
    """The team's roster in roster order (goalies last, then by name), each with their answer for the game."""
    rows = await session.execute(_ROSTER_ANSWERS, {"league_id": league_id, "team_id": team_id, "game_id": game_id})
    return [RosterAnswer(r.player_id, r.name, r.position, r.gender, r.status, r.answered_at, r.answer_id)
            for r in rows]


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
