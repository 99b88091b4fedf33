"""Game results: entered by referees, corrected by commissioners, backfilled from CSV files.

Every change is one transaction: the result row, the game marked final, an audit entry (with the
old values for a correction), the playoff bracket moved on, and the ``on_result`` hook.
It starts by locking the game's row (``lock_game``), so a result and a cancellation (or a second
result) typed at the same moment act one after the other, and the second is told what the first did.

The hook
--------
``on_result(session, league_id, game_id)`` runs inside the same transaction after a result is
entered, fixed or imported: discipline counts suspensions down (``Discipline.count_down``, handed in
by the composition root, bot/composition.py). It may run more than once for a game (after the entry
and after each correction), so it must be idempotent per game. If it raises, the whole result rolls
back: a ``UserFacingError`` is shown to the person who entered it; anything else is a bug and is logged.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any, Literal

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.access import Caller, Role
from bot.clock import Clock
from bot.discord_text import clean_user_text, quote, timestamp
from bot.errors import Conflict, InvalidInput, NotFound
from bot.league.gamesheets.goals import score_differences
from bot.league.rules import Rules
from bot.league.vocabulary import DECISIONS, Decided, GameKind
from bot.services import playoffs
from bot.services.availability.guests import game_guests, guest_counts
from bot.services.shared.games import check_change, lock_game
from bot.services.shared.goal_tally import recorded_goals
from storage.db import retried_on_disconnect
from storage.models import Game, Result, ResultChange, Team
from storage.text import printable

#: Run inside the result's transaction after it is recorded or fixed: ``await hook(session, league_id, game_id)``.
ResultHook = Callable[[AsyncSession, int, int], Awaitable[None]]

PLAYED: tuple[Decided, ...] = ("regulation", "overtime", "shootout")
MAX_SCORE = 99
RECENT_GAMES = 25


@dataclass(frozen=True)
class Score:
    """A result's values, as plain data (also what the audit log stores)."""

    home_score: int
    away_score: int
    decided: Decided
    shootout_home: int | None = None
    shootout_away: int | None = None
    forfeit_team: str | None = None
    penalty_waived: bool = False

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class ResultView:
    game: str
    kind: str
    home: str
    away: str
    score: Score

    @property
    def winner(self) -> str | None:
        """The team that won, or None for a tie."""
        s = self.score
        if s.decided == "forfeit":
            return self.away if s.forfeit_team == self.home else self.home
        if s.decided == "shootout" and s.shootout_home is not None and s.shootout_away is not None:
            return self.home if s.shootout_home > s.shootout_away else self.away
        if s.home_score == s.away_score:
            return None
        return self.home if s.home_score > s.away_score else self.away

    @property
    def summary(self) -> str:
        """'Hawks 3-3 Owls (shootout 2-1)' / 'Owls forfeited: Hawks win 5-0'."""
        s = self.score
        if s.decided == "forfeit":
            winner = self.winner
            high, low = max(s.home_score, s.away_score), min(s.home_score, s.away_score)
            return f"{s.forfeit_team} forfeited: {winner} win {high}-{low}"
        text = f"{self.home} {s.home_score}-{s.away_score} {self.away}"
        if s.decided == "shootout":
            return f"{text} (shootout {s.shootout_home}-{s.shootout_away})"
        return f"{text} (overtime)" if s.decided == "overtime" else text


@dataclass(frozen=True)
class RecordedResult:
    action: Literal["entered", "fixed", "unchanged"]
    result: ResultView
    previous: ResultView | None = None
    points_deducted: int = 0  # standings points the forfeiting team loses (youth rule 2.4)
    bracket_note: str | None = None
    guests: tuple[str, ...] = ()  # "Name (Team)": the guests who counted for the game (/guest)
    goals: tuple[int, int] | None = None  # the goals recorded for the game that count (/goal), if any were
    goal_differences: tuple[str, ...] = ()  # where the score and those goals disagree


@dataclass(frozen=True)
class PlayedGame:
    """A game that has started, for autocomplete: has it a result yet?"""

    code: str
    starts_at: datetime
    home: str
    away: str
    summary: str | None


# --- validation -----------------------------------------------------------------------------------
def _kind_label(kind: str) -> str:
    return "playoff games" if kind == "playoff" else "regular-season games"


def _is_score(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_SCORE


def check_score(rules: Rules, kind: GameKind, score: Score) -> None:
    """Refuse a result that can't have happened under the league's rules (InvalidInput says why)."""
    s = score
    if s.decided not in DECISIONS:
        raise InvalidInput(f"“{quote(str(s.decided), 30)}” isn't a way to decide a game: {', '.join(DECISIONS)}.")
    for name in ("home_score", "away_score"):
        if not _is_score(getattr(s, name)):
            raise InvalidInput(f"Scores are whole numbers from 0 to {MAX_SCORE} (got {getattr(s, name)!r} "
                               f"for {name.removesuffix('_score')}).")
    overtime = rules.game_format.overtime_for(kind)
    if s.decided == "shootout":
        if s.shootout_home is None or s.shootout_away is None:
            raise InvalidInput("A shootout result needs the shootout goals: shootout_home and shootout_away.")
        if not (_is_score(s.shootout_home) and _is_score(s.shootout_away)):
            raise InvalidInput(f"Shootout goals are whole numbers from 0 to {MAX_SCORE}.")
        if s.shootout_home == s.shootout_away:
            raise InvalidInput("A shootout has a winner: the shootout goals can't be equal.")
        if s.home_score != s.away_score:
            raise InvalidInput("A game goes to a shootout only from a tie: enter the tied score (e.g. 3-3) "
                               "and the shootout goals separately.")
        if not overtime.shootout:
            raise InvalidInput(f"{_kind_label(kind).capitalize()} in this league have no shootout.")
        return
    if s.shootout_home is not None or s.shootout_away is not None:
        raise InvalidInput("Shootout goals are only for games decided by a shootout.")
    if s.decided == "forfeit":
        return
    if s.decided == "overtime":
        if s.home_score == s.away_score:
            raise InvalidInput("An overtime result needs a winner: the scores can't be equal "
                               "(a tie after overtime goes to a shootout, or stands).")
        if overtime.periods == 0:
            raise InvalidInput(f"{_kind_label(kind).capitalize()} in this league have no overtime: "
                               "enter the regulation score.")
        margin = overtime.overtime_margin_problem(s.home_score, s.away_score)
        if margin is not None:
            cite = rules.game_format.overtime_citation(kind)
            raise InvalidInput(f"{margin}{f' ({cite})' if cite else ''}. Enter the score as it stood when the "
                               "winning goal went in.")
        return
    if s.home_score == s.away_score and not overtime.tie_stands:
        after = "a shootout" if overtime.periods == 0 else "overtime"
        raise InvalidInput(f"{_kind_label(kind).capitalize()} in this league can't end tied: a tie goes to "
                           f"{after}. Enter how it was decided.")


def check_playable(game: Game, now: datetime) -> None:
    """A result only for a game that has started and was not cancelled."""
    if game.status == "cancelled":
        raise Conflict(f"Game {game.code} was cancelled: it can't have a result.")
    if game.starts_at > now:
        raise InvalidInput(f"Game {game.code} hasn't been played yet: it starts {timestamp(game.starts_at)}.")


def forfeit_score(rules: Rules, game: Game, forfeiting: Team) -> Score:
    """The rules' forfeit score (youth rule 2.4: 5-0), the forfeiting side getting the low one."""
    win, lose = rules.standings.standings_forfeit_score
    home_forfeits = forfeiting.id == game.home_team_id
    return Score(lose if home_forfeits else win, win if home_forfeits else lose, "forfeit",
                 forfeit_team=forfeiting.name)


def side_named(game: Game, name: str) -> Team:
    """The home or away team of the game with this name (case-insensitive)."""
    typed = printable(name).strip()
    for team in (game.home, game.away):
        if team.name.casefold() == typed.casefold():
            return team
    raise InvalidInput(f"{quote(typed) or 'That team'} isn't playing in game {game.code} "
                       f"({game.home.name} vs {game.away.name}).")


def score_of(result: Result) -> Score:
    return Score(result.home_score, result.away_score, result.decided, result.shootout_home,
                 result.shootout_away, result.forfeit_team.name if result.forfeit_team else None,
                 bool(result.penalty_waived) if result.decided == "forfeit" else False)


def view_of(game: Game, score: Score) -> ResultView:
    return ResultView(game.code, game.kind, game.home.name, game.away.name, score)


async def result_for(session: AsyncSession, game: Game) -> Result | None:
    return await session.scalar(select(Result).where(Result.league_id == game.league_id,
                                                     Result.game_id == game.id))


def _apply(row: Result, game: Game, score: Score) -> None:
    row.home_score, row.away_score, row.decided = score.home_score, score.away_score, score.decided
    row.shootout_home, row.shootout_away = score.shootout_home, score.shootout_away
    forfeiting = None
    if score.forfeit_team is not None:
        forfeiting = game.home if score.forfeit_team == game.home.name else game.away
    row.forfeit_team_id = forfeiting.id if forfeiting else None
    row.forfeit_team = forfeiting
    row.penalty_waived = score.penalty_waived


async def record(session: AsyncSession, rules: Rules, game: Game, score: Score, *, by: int | None,
                 now: datetime, action: Literal["entered", "fixed", "imported"], on_result: ResultHook,
                 reason: str | None = None) -> tuple[Result, Score | None, str | None]:
    """Store a (validated) result and everything that follows from it, in the caller's transaction.

    Returns the row, the values it had before (None when new) and a note about the bracket.
    """
    row = await result_for(session, game)
    old = score_of(row) if row is not None else None
    status = check_change(game, "enter_result" if row is None else "fix_result")
    if row is None:
        row = Result(league_id=game.league_id, game_id=game.id, entered_by=by, entered_at=now)
        session.add(row)
    else:
        row.updated_by, row.updated_at = by, now
    _apply(row, game, score)
    game.status = status
    session.add(ResultChange(league_id=game.league_id, game_id=game.id, action=action,
                             old=old.as_json() if old else None, new=score.as_json(), changed_by=by,
                             changed_at=now, reason=reason))
    await session.flush()
    note = None
    if game.kind == "playoff":
        note = await playoffs.advance_from_result(session, game.league_id, game.code, game.home.name,
                                                  game.away.name, view_of(game, score).winner, now)
    await on_result(session, game.league_id, game.id)
    return row, old, note


async def goals_check(session: AsyncSession, game: Game, score: Score) -> dict[str, Any]:
    """The goals recorded for the game (/goal) against the score entered, where any were recorded; a
    forfeit's score is the rules', not the game's, so it isn't compared."""
    goals = await recorded_goals(session, game.id, game.home_team_id, game.away_team_id)
    if goals is None or score.decided == "forfeit":
        return {}
    return {"goals": goals, "goal_differences": score_differences(
        game.home.name, game.away.name, (score.home_score, score.away_score), goals)}


def _deducted(rules: Rules, score: Score) -> int:
    if score.decided != "forfeit" or score.penalty_waived:
        return 0
    return rules.standings.points_forfeit_penalty


# --- use cases ------------------------------------------------------------------------------------
async def _guests_who_played(session: AsyncSession, caller: Caller, game: Game) -> tuple[str, ...]:
    """The game's guests who counted (cleared, or no clearance needed), for the result's attendance."""
    names = {game.home_team_id: game.home.name, game.away_team_id: game.away.name}
    guests = await game_guests(session, caller.league_id, game.id)
    return tuple(f"{g.name} ({names.get(g.team_id, '?')})" for g in guests
                 if guest_counts(caller.league.rules.lineup, g))


@retried_on_disconnect
class ResultService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock, *, on_result: ResultHook) -> None:
        self.sessions = sessions
        self.clock = clock
        self.on_result = on_result

    async def enter(self, caller: Caller, game_code: str, *, home: int, away: int, decided: str,
                    shootout_home: int | None = None, shootout_away: int | None = None) -> RecordedResult:
        """A referee or commissioner enters a played game's score."""
        caller.require(Role.REFEREE, Role.COMMISSIONER)
        if decided not in PLAYED:
            raise InvalidInput(f"Decided must be one of {', '.join(PLAYED)} (a forfeit has its own command).")
        score = Score(home, away, decided, shootout_home, shootout_away)
        return await self._enter(caller, game_code, lambda game: score)

    async def forfeit(self, caller: Caller, game_code: str, team_name: str) -> RecordedResult:
        """A referee or commissioner records that a team forfeited: the rules' forfeit score counts."""
        caller.require(Role.REFEREE, Role.COMMISSIONER)
        rules = caller.league.rules
        return await self._enter(caller, game_code,
                                 lambda game: forfeit_score(rules, game, side_named(game, team_name)))

    async def _enter(self, caller: Caller, game_code: str, make: Callable[[Game], Score]) -> RecordedResult:
        rules, now = caller.league.rules, self.clock.now()
        try:
            async with self.sessions.begin() as session:
                game = await lock_game(session, caller, game_code)
                check_playable(game, now)
                score = make(game)
                check_score(rules, game.kind, score)
                existing = await result_for(session, game)
                if existing is not None:
                    current = score_of(existing)
                    if current == score:
                        return RecordedResult("unchanged", view_of(game, score))
                    raise Conflict(f"Game {game.code} already has a result ({view_of(game, current).summary}). "
                                   "A commissioner can correct it with /result fix.")
                _, _, note = await record(session, rules, game, score, by=caller.discord_id, now=now,
                                          action="entered", on_result=self.on_result)
                return RecordedResult("entered", view_of(game, score), None, _deducted(rules, score), note,
                                      await _guests_who_played(session, caller, game),
                                      **await goals_check(session, game, score))
        except IntegrityError:
            raise Conflict(f"Someone entered a result for game {quote(game_code, 64)} at the same "
                           "moment; check it and ask a commissioner to fix it if it's wrong.") from None

    async def fix(self, caller: Caller, game_code: str, *, home: int | None = None, away: int | None = None,
                  decided: str | None = None, shootout_home: int | None = None, shootout_away: int | None = None,
                  forfeit_team: str | None = None, penalty_waived: bool | None = None,
                  reason: str | None = None) -> RecordedResult:
        """A commissioner corrects a result; options left out keep their old values; the old values are logged."""
        caller.require(Role.COMMISSIONER)
        rules, now = caller.league.rules, self.clock.now()
        why = clean_user_text(reason, 300) if reason else None
        async with self.sessions.begin() as session:
            game = await lock_game(session, caller, game_code)
            check_playable(game, now)
            check_change(game, "fix_result")
            existing = await result_for(session, game)
            if existing is None:
                raise NotFound(f"Game {game.code} has no result yet: enter it with /result enter.")
            old = score_of(existing)
            new = self._corrected(rules, game, old, home=home, away=away, decided=decided,
                                  shootout_home=shootout_home, shootout_away=shootout_away,
                                  forfeit_team=forfeit_team, penalty_waived=penalty_waived)
            check_score(rules, game.kind, new)
            if new == old:
                return RecordedResult("unchanged", view_of(game, new), view_of(game, old))
            _, _, note = await record(session, rules, game, new, by=caller.discord_id, now=now, action="fixed",
                                      on_result=self.on_result, reason=why)
            return RecordedResult("fixed", view_of(game, new), view_of(game, old), _deducted(rules, new), note,
                                  **await goals_check(session, game, new))

    @staticmethod
    def _corrected(rules: Rules, game: Game, old: Score, *, home: int | None, away: int | None,
                   decided: str | None, shootout_home: int | None, shootout_away: int | None,
                   forfeit_team: str | None, penalty_waived: bool | None) -> Score:
        """The old values with the given ones replaced, keeping the result consistent."""
        how = decided or old.decided
        if how not in DECISIONS:
            raise InvalidInput(f"Decided must be one of {', '.join(DECISIONS)}.")
        if how == "forfeit":
            name = forfeit_team or old.forfeit_team
            if name is None:
                raise InvalidInput("Name the team that forfeited (forfeit_team).")
            score = forfeit_score(rules, game, side_named(game, name))
            if shootout_home is not None or shootout_away is not None:
                raise InvalidInput("Shootout goals are only for games decided by a shootout.")
            given = (home if home is not None else score.home_score, away if away is not None else score.away_score)
            if given != (score.home_score, score.away_score):
                raise InvalidInput(f"A forfeit counts {score.home_score}-{score.away_score} by the rules: "
                                   "leave home and away empty.")
            waived = penalty_waived if penalty_waived is not None else (
                old.penalty_waived if old.decided == "forfeit" else False)
            return Score(score.home_score, score.away_score, "forfeit", forfeit_team=score.forfeit_team,
                         penalty_waived=bool(waived))
        if forfeit_team is not None or penalty_waived is not None:
            raise InvalidInput("forfeit_team and waive_penalty are only for forfeits (decided: forfeit).")
        if old.decided == "forfeit" and (home is None or away is None):
            raise InvalidInput("This game was a forfeit: give the played score (home and away).")
        new_home = old.home_score if home is None else home
        new_away = old.away_score if away is None else away
        so_home, so_away = shootout_home, shootout_away
        if how == "shootout" and old.decided == "shootout":
            so_home = old.shootout_home if so_home is None else so_home
            so_away = old.shootout_away if so_away is None else so_away
        return Score(new_home, new_away, how, so_home, so_away)

    async def played_games(self, caller: Caller, text: str, limit: int = RECENT_GAMES) -> list[PlayedGame]:
        """Games that have started (most recent first) matching the text, for autocomplete."""
        now = self.clock.now()
        needle = text.strip().casefold()
        async with self.sessions() as session:
            games = (await session.scalars(
                select(Game).where(Game.league_id == caller.league_id, Game.starts_at <= now,
                                   Game.status != "cancelled")
                .order_by(Game.starts_at.desc(), Game.id.desc()).limit(200)
            )).all()
            matching = [g for g in games if not needle or needle in g.code.casefold()
                        or needle in g.home.name.casefold() or needle in g.away.name.casefold()][:limit]
            results = {r.game_id: r for r in (await session.scalars(
                select(Result).where(Result.league_id == caller.league_id,
                                     Result.game_id.in_([g.id for g in matching]))
            )).all()} if matching else {}
            return [PlayedGame(g.code, g.starts_at, g.home.name, g.away.name,
                               view_of(g, score_of(results[g.id])).summary if g.id in results else None)
                    for g in matching]
