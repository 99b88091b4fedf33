"""/goal add|remove: the referee, the timekeeper (youth 2.2: "in charge of recording statistics") or a
commissioner records who scored and who assisted; bot/league/gamesheets/goals.py rules on each goal.

Choices the spec leaves open, decided here:
- Goals are recorded for a game that has started and was neither cancelled nor forfeited, against the
  scoring team's game sheet as it stands (stored first, as everyone saw it). A credited player on the
  other team's sheet is refused.
- The goalie scored upon is the other team's only goalie on its sheet (none when it has none or two).
- A goal taken back stays on record, marked; a disallowed goal's minor stands (it was called).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.access import Caller, Role
from bot.clock import Clock
from bot.discord_text import clip, timestamp
from bot.errors import Conflict, InvalidInput, NotFound
from bot.league.discipline.infractions import DisciplineError, find_infraction
from bot.league.gamesheets.goals import (
    Credit,
    GoalError,
    check_period,
    credits_in_order,
    game_minute,
    read_clock,
    rule_goal,
)
from bot.services.discipline.penalties import PenaltyRecorded, call_penalty, catalogue_for
from bot.services.gamesheets.lines import store_sync, stored
from bot.services.shared.attendance import GameRef, game_ref
from bot.services.shared.eligibility import SuspensionCheck, require_check
from bot.services.shared.games import lock_game
from bot.services.shared.goal_tally import recorded_goals
from bot.services.shared.guardians import Pick, player_named
from bot.services.stats.lines import refresh_game
from storage import lookups
from storage.db import retried_on_disconnect
from storage.models import Game, GameSheetEntry, Goal, Player, Result, Team
from storage.text import printable

#: The minor a player not on the sheet gets for a goal (youth 3.4 (1)), from the league's list of penalties.
OFF_SHEET_INFRACTION = "not_on_game_sheet"
FORFEIT = "a forfeit carries no individual statistics"
RECENT = 25


@dataclass(frozen=True)
class Minor:
    player: str
    penalty_id: int
    minutes: int


@dataclass(frozen=True)
class GoalRecorded:
    id: int
    game: GameRef
    team: str
    scorer: str
    assists: tuple[str, ...]
    period: int | None
    clock: str | None
    counts: bool
    reason: str = ""  # why it is disallowed
    minors: tuple[Minor, ...] = ()
    no_minor: bool = False  # disallowed, but the league's list has no minor for it
    tally: tuple[int, int] = (0, 0)


@dataclass(frozen=True)
class GoalRemoved:
    id: int
    game: GameRef
    team: str
    scorer: str
    had_minor: bool
    tally: tuple[int, int]


@dataclass(frozen=True)
class GoalChoice:
    id: int
    label: str


def _periods(caller: Caller, game: Game) -> int:
    fmt = caller.league.rules.game_format
    return fmt.periods + fmt.overtime_for(game.kind).periods


@retried_on_disconnect
class GoalService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock, *,
                 suspensions: SuspensionCheck) -> None:
        self.sessions = sessions
        self.clock = clock
        self.suspensions = require_check(suspensions, "goals")

    async def add(self, caller: Caller, game_code: str, team_name: str, scorer: Pick, *,
                  assists: tuple[Pick | None, Pick | None] = (None, None), period: int | None = None,
                  time: str | None = None) -> GoalRecorded:
        """Record a goal with its assists; disallowed with a minor, or refused, for a player not on the sheet.

        Each credited player is a member's Discord id or, for a player without an account, a typed name."""
        caller.require(Role.REFEREE, Role.TIMEKEEPER, Role.COMMISSIONER)
        fmt = caller.league.rules.game_format
        now = self.clock.now()
        try:
            clock = read_clock(time, fmt.period_minutes)
        except GoalError as exc:
            raise InvalidInput(exc.message) from None
        async with self.sessions.begin() as session:
            game = await self._open_game(session, caller, game_code, now)
            picked = [await self._player(session, caller, who) for who in (scorer, *assists) if who is not None]
            try:
                ids = credits_in_order(picked[0].id, [p.id for p in picked[1:]])
            except GoalError as exc:
                raise InvalidInput(exc.message) from None
            try:
                check_period(period, _periods(caller, game))
            except GoalError as exc:
                raise InvalidInput(exc.message) from None
            team = _side(game, team_name)
            other = game.away if team.id == game.home_team_id else game.home
            players = [next(p for p in picked if p.id == player_id) for player_id in ids]
            ours = await self._sheet(session, caller, game, team, now)
            theirs = await self._sheet(session, caller, game, other, now)
            on_ours = {e.player_id for e in ours}
            for p in players:
                if p.id in {e.player_id for e in theirs}:
                    raise Conflict(f"{p.name} is on {other.name}'s sheet for {game.code}: a goal is credited to "
                                   f"players of the scoring team ({team.name}).")
            credits = [Credit(p.id, p.name, p.id in on_ours) for p in players]
            try:
                ruling = rule_goal(caller.league.rules.gamesheets, credits)
            except GoalError as exc:
                raise Conflict(exc.message) from None
            goalies = [e.player_id for e in theirs if e.position == "goalie" and e.player_id is not None]
            reason = ""
            if not ruling.counts:
                who = " and ".join(c.name for c in ruling.off_sheet)
                reason = f"{who} not on {team.name}'s game sheet ({ruling.citation or 'league setting'})"
            row = Goal(league_id=caller.league_id, game_id=game.id, team_id=team.id, scorer_id=players[0].id,
                       assist1_id=players[1].id if len(players) > 1 else None,
                       assist2_id=players[2].id if len(players) > 2 else None,
                       goalie_id=goalies[0] if len(goalies) == 1 else None, period=period, clock=clock,
                       disallowed=not ruling.counts, disallowed_reason=clip(reason, 300),
                       recorded_by=caller.discord_id, recorded_at=now)
            session.add(row)
            await session.flush()
            minors, no_minor = await self._minors(session, caller, game, team, players, ruling.minors_to,
                                                  game_minute(period, clock, fmt.period_minutes), now)
            await refresh_game(session, caller.league_id, game.id)
            tally = await recorded_goals(session, game.id, game.home_team_id, game.away_team_id) or (0, 0)
            return GoalRecorded(row.id, game_ref(game), team.name, players[0].name, tuple(p.name for p in players[1:]),
                                period, clock, ruling.counts, reason, minors, no_minor, tally)

    async def remove(self, caller: Caller, game_code: str, goal_id: int) -> GoalRemoved:
        """Take back a goal recorded in error (kept on record, marked)."""
        caller.require(Role.REFEREE, Role.TIMEKEEPER, Role.COMMISSIONER)
        now = self.clock.now()
        async with self.sessions.begin() as session:
            game = await lock_game(session, caller, game_code)
            row = await session.get(Goal, goal_id) if 0 < goal_id < 2**63 else None
            if row is None or row.league_id != caller.league_id or row.game_id != game.id or row.removed_at:
                raise NotFound(f"{game.code} has no goal #{goal_id} to take back: pick one from the suggestions.")
            row.removed_at, row.removed_by = now, caller.discord_id
            await session.flush()
            await refresh_game(session, caller.league_id, game.id)
            scorer = await session.get(Player, row.scorer_id)
            team = game.home if row.team_id == game.home_team_id else game.away
            tally = await recorded_goals(session, game.id, game.home_team_id, game.away_team_id) or (0, 0)
            return GoalRemoved(row.id, game_ref(game), team.name, scorer.name if scorer else "?", row.disallowed,
                               tally)

    async def choices(self, caller: Caller, game_code: str, text: str) -> list[GoalChoice]:
        """The game's goals still on record, newest first, for autocomplete."""
        async with self.sessions() as session:
            game = await lookups.game_by_code(session, caller.league_id, printable(game_code).strip())
            if game is None:
                return []
            rows = (await session.execute(
                select(Goal.id, Goal.period, Goal.clock, Goal.disallowed, Player.name, Team.name.label("team"))
                .join(Player, Player.id == Goal.scorer_id).join(Team, Team.id == Goal.team_id)
                .where(Goal.game_id == game.id, Goal.removed_at.is_(None)).order_by(Goal.id.desc())
                .limit(RECENT))).all()
        needle = text.strip().casefold().lstrip("#")
        out = []
        for r in rows:
            when = f"P{r.period} " if r.period else ""
            when += r.clock or ""
            label = f"#{r.id} · {when.strip() + ' · ' if when.strip() else ''}{r.name} ({r.team})"
            label += " · disallowed" if r.disallowed else ""
            if not needle or needle in label.casefold():
                out.append(GoalChoice(r.id, label))
        return out

    # --- helpers -----------------------------------------------------------------------------------------
    @staticmethod
    async def _open_game(session: AsyncSession, caller: Caller, game_code: str, now: datetime) -> Game:
        game = await lock_game(session, caller, game_code)
        if game.status == "cancelled":
            raise Conflict(f"{game.code} was cancelled: it has no goals.")
        if game.starts_at > now:
            raise InvalidInput(f"{game.code} hasn't started yet: it starts {timestamp(game.starts_at)}.")
        decided = await session.scalar(select(Result.decided).where(Result.game_id == game.id))
        if decided == "forfeit":
            cited = caller.league.rules.lineup.citations.start
            raise Conflict(f"{game.code} was a forfeit: {FORFEIT}" + (f" ({cited})." if cited else "."))
        return game

    @staticmethod
    async def _player(session: AsyncSession, caller: Caller, who: Pick) -> Player:
        if isinstance(who, str):
            return await player_named(session, caller.league_id, caller.league.name, who)
        player = await lookups.player_by_discord(session, caller.league_id, who)
        if player is None:
            raise NotFound(f"<@{who}> isn't a player in {caller.league.name}: only league players are "
                           "credited with goals.")
        return player

    async def _sheet(self, session: AsyncSession, caller: Caller, game: Game, team: Team,
                     now: datetime) -> list[GameSheetEntry]:
        """The team's sheet lines as stored, brought up to its answers first while it still follows them."""
        if game.status == "final":
            rows = await stored(session, game.id, team.id)
        else:
            rows = await store_sync(session, caller.league, caller.league_id, game.id, game.starts_at, team.id,
                                    self.suspensions, now)
        return [r for r in rows if r.removed_at is None]

    @staticmethod
    async def _minors(session: AsyncSession, caller: Caller, game: Game, team: Team, players: list[Player],
                      to: tuple[Credit, ...], minute: int | None, now: datetime) -> tuple[tuple[Minor, ...], bool]:
        """A minor to each player not on the sheet (youth 3.4 (1)), with the league's escalations."""
        if not to:
            return (), False
        try:
            find_infraction(catalogue_for(caller.league.rules), OFF_SHEET_INFRACTION)
        except (DisciplineError, Conflict):
            return (), True
        by_id = {p.id: p for p in players}
        out = []
        for credit in to:
            called: PenaltyRecorded = await call_penalty(
                session, caller, game=game, player=by_id[credit.player_id], team=team,
                infraction=OFF_SHEET_INFRACTION, minute=minute, suspend=None, now=now)
            out.append(Minor(called.player, called.id, called.outcome.minutes))
        return tuple(out), False


def _side(game: Game, name: str) -> Team:
    typed = printable(name).strip().casefold()
    for team in (game.home, game.away):
        if team.name.casefold() == typed:
            return team
    raise InvalidInput(f"{game.code} is {game.home.name} vs {game.away.name}: pick the scoring team from those two.")
