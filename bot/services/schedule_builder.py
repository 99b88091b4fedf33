"""A division's schedule generated from a file of booked slots, as the games file the import reads.

The schedule is made and checked by bot/league/schedule_builder/; this reads the slots and the division's
teams, and writes the games CSV (through storage/csv_export.py) that ``import games`` takes as it is.
"""

from __future__ import annotations

import asyncio
import io
import re
from collections import Counter
from dataclasses import dataclass
from datetime import date

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.access import Caller, Role
from bot.config.settings import LeagueSettings
from bot.discord_text import quote
from bot.errors import InvalidInput
from bot.league.schedule_builder.checks import check_schedule
from bot.league.schedule_builder.generator import PlannedGame, ScheduleRefused, Slot, generate
from bot.services.imports.csv_rows import COLUMNS, CsvImportError, decode
from bot.services.imports.service import MAX_CSV_BYTES, MAX_PROBLEMS_SHOWN
from bot.services.imports.slots import read_slots
from bot.services.shared.seasons import week_first_day
from storage.csv_export import write_csv
from storage.db import retried_on_disconnect
from storage.models import Division, League, Team


@dataclass(frozen=True)
class TeamCount:
    team: str
    games: int
    home: int
    away: int


@dataclass(frozen=True)
class GeneratedSchedule:
    """A schedule ready to import: its games, how they fall by week and by team, and the games file."""

    division: str | None
    meetings: int
    per_week: int
    games: list[PlannedGame]
    weeks: list[tuple[date, int]]  # each week's first day, league-local, and its games
    teams: list[TeamCount]
    slots: int  # slots in the file this division may use
    csv: bytes  # the games file (bot/services/imports/csv_rows.py's "games" columns)

    @property
    def unused_slots(self) -> int:
        return self.slots - len(self.games)


def games_csv(games: list[PlannedGame], league: LeagueSettings) -> bytes:
    """The games file ``import games`` reads: times in the league's zone, every game a regular one."""
    out = io.StringIO()
    write_csv(out, COLUMNS["games"].names, (
        {"game_id": g.code, "starts_at": g.starts_at.astimezone(league.timezone).strftime("%Y-%m-%d %H:%M"),
         "home": g.home, "away": g.away, "venue": g.venue, "kind": "regular"} for g in games))
    return out.getvalue().encode()


def code_prefix(division: str | None, games_start: date) -> str:
    """Game ids a commissioner can read: the division's first letters and the season's year (``JUN27-01``)."""
    letters = re.sub(r"[^A-Za-z0-9]", "", division or "")[:3].upper() or "S"
    return f"{letters}{games_start:%y}-"


@retried_on_disconnect
class ScheduleBuilderService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        self.sessions = sessions

    async def generate_for(self, caller: Caller, slots: bytes, meetings: int,
                           division: str | None = None) -> GeneratedSchedule:
        """From Discord: commissioners only."""
        caller.require(Role.COMMISSIONER)
        return await self.generate(caller.league, slots, meetings, division)

    async def generate(self, league: LeagueSettings, slots: bytes, meetings: int,
                       division: str | None = None) -> GeneratedSchedule:
        """The schedule, or InvalidInput saying what is wrong with the file or what the slots lack."""
        if len(slots) > MAX_CSV_BYTES:
            raise InvalidInput(f"That file is too large (over {MAX_CSV_BYTES // 1000} kB).")
        if not 1 <= meetings <= 20:
            raise InvalidInput("Teams can meet from 1 to 20 times in a schedule.")
        try:
            parsed = read_slots(decode(slots), league.timezone)
            rows = parsed.rows_or_raise()
        except CsvImportError as exc:
            shown = [f"• {p}" for p in exc.problems[:MAX_PROBLEMS_SHOWN]]
            more = len(exc.problems) - len(shown)
            raise InvalidInput("The slots file has problems; fix these and try again:\n" + "\n".join(shown)
                               + (f"\n• …and {more} more" if more > 0 else "")) from None
        async with self.sessions() as session:
            division, teams = await _division_teams(session, league, division)
            # Weeks as the league counts them: from the first day of the season the slots fall in.
            league_id = await session.scalar(select(League.id).where(League.key == league.key))
            first_day = (await week_first_day(session, league_id, min(r.starts_at for r in rows))
                         if league_id is not None else None)
        rules = league.rules.schedule_builder
        citation = rules.schedule_citations.games_per_team
        minutes = league.rules.game_format.regulation_minutes
        booked = [Slot(r.starts_at, r.venue, r.division, r.line) for r in rows]
        first = min(r.starts_at for r in rows).astimezone(league.timezone).date()
        try:
            games = await asyncio.to_thread(
                generate, teams, booked, meetings=meetings, per_week=rules.games_per_team_per_week,
                tz=league.timezone, game_minutes=minutes, division=division, first_day=first_day,
                citation=citation, code_prefix=code_prefix(division, first))
        except ScheduleRefused as exc:
            text = str(exc)
            raise InvalidInput(f"No schedule was made: {text[:1].lower()}{text[1:]}") from None
        problems = check_schedule(games, teams, meetings=meetings, per_week=rules.games_per_team_per_week,
                                  tz=league.timezone, game_minutes=minutes, first_day=first_day, citation=citation)
        if problems:  # the generator's own promise broken: never shown as a schedule
            raise RuntimeError(f"generated schedule fails its checks: {problems[:3]}")
        weeks = sorted(Counter(g.week for g in games).items())
        home, away = Counter(g.home for g in games), Counter(g.away for g in games)
        return GeneratedSchedule(division, meetings, rules.games_per_team_per_week, games, weeks,
                                 [TeamCount(t, home[t] + away[t], home[t], away[t]) for t in teams],
                                 sum(1 for r in rows if division is None or r.division is None
                                     or r.division.casefold() == division.casefold()),
                                 games_csv(games, league))


async def _division_teams(session: AsyncSession, league: LeagueSettings,
                          division: str | None) -> tuple[str | None, list[str]]:
    """The division's teams by name (its stored spelling); without a division, every team of a league that
    has at most one division."""
    rows = (await session.execute(
        select(Team.name, Division.name).join(League, League.id == Team.league_id)
        .outerjoin(Division, Team.division_id == Division.id)
        .where(League.key == league.key).order_by(Team.name))).all()
    divisions = sorted({d for _, d in rows if d}, key=str.casefold)
    if division is None:
        if len(divisions) > 1:
            raise InvalidInput(f"This league has divisions {', '.join(divisions)}: choose one, since teams meet "
                               "only within their division.")
        return (divisions[0] if divisions else None), [t for t, _ in rows]
    named = next((d for d in divisions if d.casefold() == division.strip().casefold()), None)
    if named is None:
        known = ", ".join(divisions) or "none"
        raise InvalidInput(f"There is no division {quote(division)} in this league (its divisions: {known}).")
    return named, [t for t, d in rows if d == named]
