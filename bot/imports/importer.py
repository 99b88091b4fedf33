"""Apply validated CSV rows to one league, all or nothing, upserting by natural keys."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from sqlalchemy import func, insert, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm import selectinload

from bot.imports.csv_rows import (
    CsvImportError,
    GameRow,
    PlayerRow,
    Problem,
    TeamRow,
    decode,
    parse_games,
    parse_players,
    parse_teams,
)
from bot.league.lineup import LineupRules, check_roster_limit
from bot.services import deadlines, reminders
from bot.services.reminders import plan_games
from bot.settings import LeagueSettings
from storage.models import Division, Game, League, Player, RosterEntry, Team, TeamCaptain

if TYPE_CHECKING:
    from bot.services.results import ResultHook

KINDS = ("teams", "players", "games", "results")


@dataclass
class ImportReport:
    kind: str
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    notes: list[str] = field(default_factory=list)

    def summary(self) -> str:
        return (f"{self.kind}: {self.created} created, {self.updated} updated, "
                f"{self.unchanged} unchanged")


def _count(report: ImportReport, created: bool, changed: bool) -> None:
    if created:
        report.created += 1
    elif changed:
        report.updated += 1
    else:
        report.unchanged += 1


def _as_stored(game: Game) -> tuple[object, ...]:
    return game.home_team_id, game.away_team_id, game.starts_at, game.venue, game.kind


def _as_row(row: GameRow, home: Team, away: Team) -> tuple[object, ...]:
    return home.id, away.id, row.starts_at, row.venue, row.kind


def _refuse_changes_to_played_games(rows: Sequence[GameRow], games: dict[str, Game], teams: dict[str, Team],
                                    league: LeagueSettings) -> None:
    """A game with a result is on the record: its result, the standings, a bracket and any
    penalties all hang on its teams and kind, so a schedule file may repeat it but not rewrite it
    (/game move and cancel refuse it too)."""
    problems = []
    for r in rows:
        game = games.get(r.code)
        if game is None or game.status != "final":
            continue
        if _as_stored(game) != _as_row(r, teams[r.home.lower()], teams[r.away.lower()]):
            when = game.starts_at.astimezone(league.timezone).strftime("%Y-%m-%d %H:%M")
            played = f"{game.code},{when},{game.home.name},{game.away.name},{game.venue},{game.kind}"
            problems.append(Problem(r.line, f"{r.code} already has a result, so its row can't change; "
                                            f"as played it reads {played}"))
    if problems:
        raise CsvImportError(problems)


class Importer:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], *, on_result: ResultHook) -> None:
        self.sessions = sessions
        self.on_result = on_result  # results count suspensions down as they are backfilled

    async def league_id(self, session: AsyncSession, league: LeagueSettings) -> int:
        row = await session.scalar(select(League).where(League.key == league.key))
        if row is None:
            row = League(key=league.key, guild_id=league.guild_id, name=league.name, preset=league.preset)
            session.add(row)
            await session.flush()
        return row.id

    async def run(self, kind: str, data: bytes, league: LeagueSettings, *, now: datetime,
                  allow_past: bool = False) -> ImportReport:
        text = decode(data)
        if kind == "teams":
            return await self.teams(parse_teams(text), league, now=now)
        if kind == "players":
            return await self.players(parse_players(text), league)
        if kind == "games":
            return await self.games(parse_games(text, league.timezone, now=now, allow_past=allow_past), league,
                                    now=now)
        if kind == "results":
            from bot.services.results import import_results  # results own their storage

            return await import_results(self.sessions, text, league, now=now, on_result=self.on_result)
        raise ValueError(f"unknown import kind {kind!r} (one of {', '.join(KINDS)})")

    async def teams(self, rows: Sequence[TeamRow], league: LeagueSettings, *,
                    now: datetime | None = None) -> ImportReport:
        report = ImportReport("teams")
        rechanneled: list[Team] = []  # existing teams given another channel (or none)
        async with self.sessions.begin() as session:
            league_id = await self.league_id(session, league)
            divisions = {d.name.lower(): d for d in (await session.scalars(
                select(Division).where(Division.league_id == league_id))).all()}
            existing = {t.name.lower(): t for t in (await session.scalars(
                select(Team).where(Team.league_id == league_id).options(selectinload(Team.captains)))).all()}
            for r in rows:
                division = None
                if r.division:
                    division = divisions.get(r.division.lower())
                    if division is None:
                        division = Division(league_id=league_id, name=r.division)
                        session.add(division)
                        await session.flush()
                        divisions[r.division.lower()] = division
                team = existing.get(r.team.lower())
                created = team is None
                if team is None:
                    team = Team(league_id=league_id, name=r.team, captains=[])
                    session.add(team)
                    existing[r.team.lower()] = team
                division_id = division.id if division else None
                captains_changed = {c.discord_id for c in team.captains} != set(r.captain_ids)
                changed = captains_changed or (team.division_id, team.channel_id) != (division_id, r.channel_id)
                if not created and team.channel_id != r.channel_id:
                    rechanneled.append(team)
                team.division_id, team.channel_id = division_id, r.channel_id
                if captains_changed:
                    team.captains = [TeamCaptain(league_id=league_id, discord_id=cid) for cid in r.captain_ids]
                _count(report, created, changed and not created)
            if rechanneled:  # what was queued for the old channel follows the team
                await session.flush()
                await reminders.follow_team_channels(session, league, rechanneled, now or datetime.now(UTC))
                await deadlines.follow_team_channels(session, rechanneled)
        return report

    async def players(self, rows: Sequence[PlayerRow], league: LeagueSettings) -> ImportReport:
        report = ImportReport("players")
        async with self.sessions.begin() as session:
            league_id = await self.league_id(session, league)
            teams = await self._teams_or_fail(session, league_id, [(r.line, r.team) for r in rows])
            players = {p.discord_id: p for p in (await session.scalars(
                select(Player).where(Player.league_id == league_id))).all()}
            entries = {e.player_id: e for e in (await session.scalars(
                select(RosterEntry).where(RosterEntry.league_id == league_id))).all()}
            new_rows = [{"league_id": league_id, "discord_id": r.discord_id, "name": r.name, "gender": r.gender}
                        for r in rows if r.discord_id not in players]
            if new_rows:  # one executemany, not one round trip per player
                await session.execute(insert(Player), new_rows)
                fresh = await session.scalars(select(Player).where(
                    Player.league_id == league_id, Player.discord_id.in_([r["discord_id"] for r in new_rows])))
                players.update((p.discord_id, p) for p in fresh.all())
            created_ids = {r["discord_id"] for r in new_rows}
            new_entries: list[dict[str, object]] = []
            now = datetime.now(UTC)
            for r in rows:
                team = teams[r.team.lower()]
                player = players[r.discord_id]
                created = r.discord_id in created_ids
                changed = player.name != r.name or (r.gender is not None and player.gender != r.gender)
                player.name = r.name
                if r.gender is not None:
                    player.gender = r.gender
                entry = entries.get(player.id)
                if entry is None:
                    new_entries.append({"league_id": league_id, "team_id": team.id, "player_id": player.id,
                                        "position": r.position, "added_at": now})
                    changed = True
                elif entry.team_id != team.id or entry.position != r.position:
                    entry.team_id, entry.position = team.id, r.position
                    changed = True
                _count(report, created, changed and not created)
            if new_entries:
                await session.execute(insert(RosterEntry), new_entries)
            await session.flush()
            sizes = await self._roster_sizes(session, league_id)
            self._check_roster_limits(league.rules.lineup, sizes, teams, rows)
        return report

    @staticmethod
    async def _roster_sizes(session: AsyncSession, league_id: int) -> dict[int, int]:
        rows = await session.execute(select(RosterEntry.team_id, func.count()).where(
            RosterEntry.league_id == league_id).group_by(RosterEntry.team_id))
        return {team_id: size for team_id, size in rows.all()}

    @staticmethod
    def _check_roster_limits(rules: LineupRules, sizes: dict[int, int], teams: dict[str, Team],
                             rows: Sequence[PlayerRow]) -> None:
        problems = []
        for key, team in teams.items():
            breach = check_roster_limit(rules, sizes.get(team.id, 0))
            if breach is not None:
                line = max(r.line for r in rows if r.team.lower() == key)
                problems.append(Problem(line, f"{team.name}: {breach.message}"))
        if problems:
            raise CsvImportError(problems)

    async def games(self, rows: Sequence[GameRow], league: LeagueSettings, *,
                    now: datetime | None = None) -> ImportReport:
        report = ImportReport("games")
        touched: list[Game] = []  # created or changed: their reminders are (re)planned
        async with self.sessions.begin() as session:
            league_id = await self.league_id(session, league)
            names = [(r.line, r.home) for r in rows] + [(r.line, r.away) for r in rows]
            teams = await self._teams_or_fail(session, league_id, names)
            games = {g.code: g for g in (await session.scalars(
                select(Game).where(Game.league_id == league_id))).all()}
            _refuse_changes_to_played_games(rows, games, teams, league)
            for r in rows:
                home, away = teams[r.home.lower()], teams[r.away.lower()]
                game = games.get(r.code)
                created = game is None
                if game is None:
                    game = Game(league_id=league_id, code=r.code, home_team_id=home.id,
                                away_team_id=away.id, starts_at=r.starts_at, venue=r.venue, kind=r.kind)
                    session.add(game)
                    games[r.code] = game
                    touched.append(game)
                    _count(report, True, True)
                    continue
                changed = _as_stored(game) != _as_row(r, home, away)
                game.home_team_id, game.away_team_id = home.id, away.id
                game.starts_at, game.venue, game.kind = r.starts_at, r.venue, r.kind
                if changed:
                    touched.append(game)
                _count(report, created, changed)
            await session.flush()
            await plan_games(session, league, touched, now or datetime.now(UTC))
        return report

    @staticmethod
    async def _teams_or_fail(session: AsyncSession, league_id: int,
                             wanted: list[tuple[int, str]]) -> dict[str, Team]:
        teams = {t.name.lower(): t for t in (await session.scalars(
            select(Team).where(Team.league_id == league_id))).all()}
        problems = [Problem(line, f"unknown team {name!r} (import teams first)")
                    for line, name in wanted if name.lower() not in teams]
        if problems:
            raise CsvImportError(problems)
        return teams
