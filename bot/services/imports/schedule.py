"""A games file against the league's schedule: read, checked and worked out before anything is
written, so the import holds the write lock only while it writes (bench/imports.py).

``read_schedule`` reads what the plan depends on in plain columns; ``plan_schedule`` is pure (it
runs on a worker thread) and raises ``CsvImportError`` with every problem, by line. The importer
reads the schedule again under the write lock and plans again if it changed in between.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.config.settings import LeagueSettings
from bot.league.schedule_builder.checks import clashes, venue_key
from bot.services.imports.csv_rows import CsvImportError, GameRow, Parsed, Problem
from bot.services.imports.names import unknown_team
from bot.services.imports.report import ImportReport
from storage.models import Game, League, OutboxMessage, Team

#: Rows to a statement, the event loop getting a turn between statements.
BATCH_ROWS = 250
#: New games whose reminders are planned in one transaction (about eleven rows each: two teams' reminders and
#: lineup checks, and the officials' game card), about a thousand rows to a transaction.
PLAN_GAMES = 90
#: On SQLite, after this long writing a file's reminders in back-to-back transactions, the importer
#: leaves the write lock free for STEP_ASIDE_S, longer than SQLite's busy handler sleeps between tries:
#: another process's check-in then waits about a second at most (bench/imports.py).
WRITE_STRETCH_S = 1.0
STEP_ASIDE_S = 0.15


@dataclass(frozen=True)
class StoredGame:
    id: int
    home_team_id: int
    away_team_id: int
    starts_at: datetime
    venue: str
    kind: str
    status: str
    sequence: int = 0  # calendar feeds' SEQUENCE: a changed row raises it


@dataclass(frozen=True, slots=True)
class NewGame:
    """A game just inserted, as its reminders are planned: what ``reminders.plan_games`` reads of a
    ``Game``, without an ORM object each (20,000 of them took seconds under the write lock)."""

    id: int
    league_id: int
    code: str
    home_team_id: int
    away_team_id: int
    starts_at: datetime
    venue: str
    kind: str
    status: str
    revised_at: datetime | None = None  # the import's time: calendar feeds' DTSTAMP

    def team_ids(self) -> tuple[int, int]:
        return (self.home_team_id, self.away_team_id)


@dataclass(frozen=True)
class Schedule:
    """A league's teams (by name, any case: id and name) and games (by game id) as stored."""

    league_id: int | None
    teams: dict[str, tuple[int, str]]
    games: dict[str, StoredGame]
    planned: frozenset[int] = frozenset()  # games with reminders queued (or sent)


@dataclass
class SchedulePlan:
    new: list[dict[str, Any]] = field(default_factory=list)  # Game columns, for one executemany
    changed: list[dict[str, Any]] = field(default_factory=list)  # with the game's id: an update by key
    unplanned: list[NewGame] = field(default_factory=list)  # unchanged, upcoming, nothing queued
    report: ImportReport = field(default_factory=lambda: ImportReport("games"))


async def read_schedule(session: AsyncSession, league_key: str) -> Schedule:
    league_id = await session.scalar(select(League.id).where(League.key == league_key))
    if league_id is None:
        return Schedule(None, {}, {})
    teams = {name.lower(): (team_id, name) for team_id, name in (await session.execute(
        select(Team.id, Team.name).where(Team.league_id == league_id))).all()}
    games = {code: StoredGame(game_id, home_id, away_id, starts_at, venue, kind, status, sequence)
             for code, game_id, home_id, away_id, starts_at, venue, kind, status, sequence in (await session.execute(
        select(Game.code, Game.id, Game.home_team_id, Game.away_team_id, Game.starts_at, Game.venue, Game.kind,
               Game.status, Game.sequence).where(Game.league_id == league_id))).all()}
    planned = frozenset((await session.scalars(select(OutboxMessage.args["game_id"].as_integer()).where(
        OutboxMessage.league_id == league_id, OutboxMessage.send_key.startswith("game-reminders:")).distinct())).all())
    return Schedule(league_id, teams, games, planned)


def plan_schedule(parsed: Parsed[GameRow], schedule: Schedule, league: LeagueSettings,
                  now: datetime) -> SchedulePlan:
    """Which games to insert and which to change; every problem of the file at once, its format's
    included (nothing is written)."""
    teams = schedule.teams
    known = [name for _, name in teams.values()]
    problems = list(parsed.problems)
    problems += [Problem(r.line, unknown_team(name, known, league.key))
                 for r in parsed.rows for name in dict.fromkeys((r.home, r.away)) if name.lower() not in teams]
    rows = [r for r in parsed.rows if r.home.lower() in teams and r.away.lower() in teams]
    names = {team_id: name for team_id, name in teams.values()}
    problems += double_bookings(rows, schedule, names, league)
    plan = SchedulePlan(report=ImportReport("games", delimiter=parsed.delimiter))
    for r in rows:
        home, away = teams[r.home.lower()][0], teams[r.away.lower()][0]
        wanted = (home, away, r.starts_at, r.venue, r.kind)
        game = schedule.games.get(r.code)
        if game is None:
            plan.new.append({"league_id": schedule.league_id, "code": r.code, "home_team_id": home,
                             "away_team_id": away, "starts_at": r.starts_at, "venue": r.venue, "kind": r.kind,
                             "status": "scheduled", "revised_at": now})
            plan.report.count(True, True)
            continue
        stored = (game.home_team_id, game.away_team_id, game.starts_at, game.venue, game.kind)
        if stored != wanted and game.status == "final":
            # A game with a result is on the record: its result, the standings, a bracket and any
            # penalties hang on its teams and kind, so a schedule file may repeat it but not rewrite
            # it (/game move and cancel refuse it too).
            when = game.starts_at.astimezone(league.timezone).strftime("%Y-%m-%d %H:%M")
            played = (f"{r.code},{when},{names[game.home_team_id]},{names[game.away_team_id]},{game.venue},"
                      f"{game.kind}")
            problems.append(Problem(r.line, f"{r.code} already has a result, so its row can't change; "
                                            f"as played it reads {played}"))
        elif stored != wanted:
            plan.changed.append({"id": game.id, "home_team_id": home, "away_team_id": away,
                                 "starts_at": r.starts_at, "venue": r.venue, "kind": r.kind,
                                 "sequence": game.sequence + 1, "revised_at": now})
        elif game.status == "scheduled" and game.starts_at > now and game.id not in schedule.planned:
            plan.unplanned.append(NewGame(game.id, schedule.league_id or 0, r.code, home, away, r.starts_at,
                                          r.venue, r.kind, game.status))
        plan.report.count(False, stored != wanted)
    if problems:
        raise CsvImportError(problems)
    return plan


def double_bookings(rows: Sequence[GameRow], schedule: Schedule, names: dict[int, str],
                    league: LeagueSettings) -> list[Problem]:
    """A team can't play two games at once, nor a venue hold two: two games of one team, or at one venue
    (any case; an empty venue is unknown), starting less than regulation time apart (the shortest a game
    can last, so a clash is certain, never guessed) are refused on the later line; the same pairing at the
    same time twice under two ids is named as such. The clash check is the schedule generator's
    (bot/league/schedule_builder/checks.py).

    The schedule is taken as it will be once the file is in: the file's rows replace the stored
    games of the same id, and cancelled games take no time."""
    length = timedelta(minutes=league.rules.game_format.regulation_minutes)
    games: dict[str, tuple[int | None, int, int, datetime, str]] = {
        code: (None, g.home_team_id, g.away_team_id, g.starts_at, g.venue)
        for code, g in schedule.games.items() if g.status != "cancelled"}
    for r in rows:
        games[r.code] = (r.line, schedule.teams[r.home.lower()][0], schedule.teams[r.away.lower()][0], r.starts_at,
                         r.venue)
    teams = clashes(((team, starts, code) for code, (_, home, away, starts, _) in games.items()
                     for team in (home, away)), length)
    venues = clashes(((venue_key(venue), starts, code) for code, (*_, starts, venue) in games.items()
                      if venue_key(venue)), length)
    problems: dict[tuple[int, str], Problem] = {}
    tz = league.timezone
    for clash, at_venue in [*((c, False) for c in teams), *((c, True) for c in venues)]:
        a, b = str(clash.first), str(clash.second)
        line_a, line_b = games[a][0], games[b][0]
        if line_a is None and line_b is None:
            continue  # already stored so: not this file's doing
        later, other = (b, a) if line_b is not None and (line_a is None or line_b > line_a) else (a, b)
        line = games[later][0] or 0
        where = f"line {games[other][0]}" if games[other][0] is not None else "already scheduled"
        same = games[a][1:3] in (games[b][1:3], games[b][2:0:-1]) and games[a][3] == games[b][3]
        when = games[later][3].astimezone(tz).strftime("%Y-%m-%d %H:%M")
        other_when = games[other][3].astimezone(tz).strftime("%H:%M")
        if same:
            message = (f"{later} is the same game as {other} ({where}): "
                       f"{names[games[later][1]]} vs {names[games[later][2]]} at {when}")
        elif at_venue:
            message = (f"{games[later][4]} would hold two games at once: {later} at {when} and {other} at "
                       f"{other_when} ({where}); a game lasts at least {length.seconds // 60} minutes")
        else:
            message = (f"{names[int(str(clash.key))]} would play two games at once: {later} at {when} and {other} at "
                       f"{other_when} ({where}); a game lasts at least {length.seconds // 60} minutes")
        problems.setdefault((line, later + other), Problem(line, message))
    return list(problems.values())
