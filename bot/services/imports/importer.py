"""Apply validated CSV rows to one league, all or nothing, upserting by natural keys."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import cast

from sqlalchemy import insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm import selectinload

from bot.config.settings import LeagueSettings
from bot.league.checkins.lineup import check_roster_limit
from bot.league.checkins.presets import LineupRules
from bot.league.rosters import MOVED
from bot.league.setup.teams import TeamLine, TeamNow, file_clashes
from bot.services.deadlines import service as deadlines
from bot.services.discord_sync import events, team_roles
from bot.services.imports.csv_rows import (
    CsvImportError,
    GameRow,
    Parsed,
    PlayerRow,
    Problem,
    TeamRow,
    decode,
    read_games,
    read_players,
    read_teams,
)
from bot.services.imports.names import check_divisions, unknown_team
from bot.services.imports.report import ImportReport
from bot.services.imports.results import import_results
from bot.services.imports.schedule import (
    BATCH_ROWS,
    PLAN_GAMES,
    STEP_ASIDE_S,
    WRITE_STRETCH_S,
    NewGame,
    SchedulePlan,
    plan_schedule,
    read_schedule,
)
from bot.services.reminders import plan as reminders
from bot.services.reminders.plan import plan_games
from bot.services.results import ResultHook
from bot.services.rosters import history as roster_history
from storage.db import writers_take_turns
from storage.models import Division, Game, League, Player, RosterEntry, Team, TeamCaptain

KINDS = ("teams", "players", "games", "results")


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
        # Parsing a large file is pure work: on a worker thread, the event loop serves everyone else.
        text = await asyncio.to_thread(decode, data)
        if kind == "teams":
            return await self.teams(await asyncio.to_thread(read_teams, text), league, now=now)
        if kind == "players":
            return await self.players(await asyncio.to_thread(read_players, text), league, now=now)
        if kind == "games":
            rows = await asyncio.to_thread(read_games, text, league.timezone, now=now, allow_past=allow_past)
            return await self.games(rows, league, now=now)
        if kind == "results":
            return await import_results(self.sessions, text, league, now=now, on_result=self.on_result)
        raise ValueError(f"unknown import kind {kind!r} (one of {', '.join(KINDS)})")

    async def teams(self, parsed: Parsed[TeamRow], league: LeagueSettings, *,
                    now: datetime | None = None) -> ImportReport:
        report = ImportReport("teams", delimiter=parsed.delimiter)
        rows = parsed.rows
        rechanneled: list[Team] = []  # existing teams given another channel (or none)
        async with self.sessions.begin() as session:
            league_id = await self.league_id(session, league)
            divisions = {d.name.lower(): d for d in (await session.scalars(
                select(Division).where(Division.league_id == league_id))).all()}
            checked = check_divisions(rows, tuple(league.rules.lineup.court_sizes_by_division),
                                      [d.name for d in divisions.values()])
            existing = {t.name.lower(): t for t in (await session.scalars(
                select(Team).where(Team.league_id == league_id).options(selectinload(Team.captains)))).all()}
            clashes = [Problem(line, problem) for line, problem in file_clashes(
                [TeamLine(r.line, r.team, r.captain_ids, r.channel_id) for r in rows],
                [TeamNow(t.name, t.channel_id, None, tuple(c.discord_id for c in t.captains))
                 for t in existing.values()])]
            if parsed.problems or checked.problems or clashes:
                raise CsvImportError(parsed.problems + checked.problems + clashes)
            report.warnings += checked.warnings
            for r in rows:
                division = None
                name = checked.names[r.line]
                if name:
                    division = divisions.get(name.lower())
                    if division is None:
                        division = Division(league_id=league_id, name=name)
                        session.add(division)
                        await session.flush()
                        divisions[name.lower()] = division
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
                report.count(created, changed and not created)
            if rechanneled:  # what was queued for the old channel follows the team
                await session.flush()
                await reminders.follow_team_channels(session, league, rechanneled, now or datetime.now(UTC))
                await deadlines.follow_team_channels(session, rechanneled)
        return report

    async def players(self, parsed: Parsed[PlayerRow], league: LeagueSettings, *,
                      now: datetime | None = None) -> ImportReport:
        """Players onto rosters; a player the file puts on another team moves (the move is kept in the
        roster's history, arriving ``now``: the bot's clock, so history and games share one time line)."""
        report = ImportReport("players", delimiter=parsed.delimiter)
        async with self.sessions.begin() as session:
            league_id = await self.league_id(session, league)
            teams = {t.name.lower(): t for t in (await session.scalars(
                select(Team).where(Team.league_id == league_id))).all()}
            known = [t.name for t in teams.values()]
            problems = parsed.problems + [Problem(r.line, unknown_team(r.team, known, league.key))
                                          for r in parsed.rows if r.team.lower() not in teams]
            rows = [r for r in parsed.rows if r.team.lower() in teams]
            players = {p.discord_id: p for p in (await session.scalars(
                select(Player).where(Player.league_id == league_id))).all() if p.discord_id is not None}
            entries = {e.player_id: e for e in (await session.scalars(
                select(RosterEntry).where(RosterEntry.league_id == league_id))).all()}
            rosters = self._rosters_after(rows, teams, players, entries)
            problems += self._roster_limit_problems(league.rules.lineup, rosters, teams, rows)
            if problems:  # every problem of the file at once, before anything is written
                raise CsvImportError(problems)
            report.warnings += self._same_names(rosters, teams)
            new_rows = [{"league_id": league_id, "discord_id": r.discord_id, "name": r.name, "gender": r.gender}
                        for r in rows if r.discord_id not in players]
            if new_rows:  # one executemany, not one round trip per player
                await session.execute(insert(Player), new_rows)
                fresh = await session.scalars(select(Player).where(
                    Player.league_id == league_id, Player.discord_id.in_([r["discord_id"] for r in new_rows])))
                players.update((p.discord_id, p) for p in fresh.all() if p.discord_id is not None)
            created_ids = {r["discord_id"] for r in new_rows}
            new_entries: list[dict[str, object]] = []
            now = now or datetime.now(UTC)
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
                    if entry.team_id != team.id:  # a move: kept, so a suspension follows the player
                        roster_history.leave(session, entry, now, MOVED)
                        entry.added_at = now  # the arrival on the new team
                    entry.team_id, entry.position = team.id, r.position
                    changed = True
                report.count(created, changed and not created)
            if new_entries:
                await session.execute(insert(RosterEntry), new_entries)
            await session.flush()  # the team roles follow the roster as it now stands
            await team_roles.follow_roster(session, league, league_id, now)
        return report

    @staticmethod
    def _rosters_after(rows: Sequence[PlayerRow], teams: dict[str, Team], players: dict[int, Player],
                       entries: dict[int, RosterEntry]) -> dict[int, dict[object, tuple[str, int | None]]]:
        """Each team's roster once the file is in, worked out before anything is written:
        team id -> {a player (their id, or their Discord id if new): (name, the file's line or None)}."""
        by_id = {p.id: p for p in players.values()}
        rosters: dict[int, dict[object, tuple[str, int | None]]] = defaultdict(dict)
        where: dict[object, int] = {}
        for player_id, entry in entries.items():
            rosters[entry.team_id][player_id] = (by_id[player_id].name if player_id in by_id else "", None)
            where[player_id] = entry.team_id
        for r in rows:
            stored = players.get(r.discord_id)
            who: object = stored.id if stored is not None else ("new", r.discord_id)
            if who in where:
                rosters[where[who]].pop(who, None)
            team_id = teams[r.team.lower()].id
            rosters[team_id][who] = (r.name, r.line)
            where[who] = team_id
        return rosters

    @staticmethod
    def _roster_limit_problems(rules: LineupRules, rosters: dict[int, dict[object, tuple[str, int | None]]],
                               teams: dict[str, Team], rows: Sequence[PlayerRow]) -> list[Problem]:
        problems = []
        for key, team in teams.items():
            lines = [r.line for r in rows if r.team.lower() == key]
            breach = check_roster_limit(rules, len(rosters.get(team.id, {}))) if lines else None
            if breach is not None:
                problems.append(Problem(max(lines), f"{team.name}: {breach.message}"))
        return problems

    @staticmethod
    def _same_names(rosters: dict[int, dict[object, tuple[str, int | None]]], teams: dict[str, Team]) -> list[str]:
        """Two players of one name on a team are allowed (they are told apart by Discord id), but a
        row pasted twice with a new id looks the same: worth a look, not a refusal."""
        names = {t.id: t.name for t in teams.values()}
        warnings = []
        for team_id, roster in rosters.items():
            by_name: dict[str, list[int | None]] = defaultdict(list)
            shown: dict[str, str] = {}
            for name, line in roster.values():
                by_name[name.casefold()].append(line)
                shown.setdefault(name.casefold(), name)
            for folded, lines in by_name.items():
                in_file = sorted(line for line in lines if line is not None)
                if len(lines) < 2 or not in_file:
                    continue
                where = f"lines {', '.join(map(str, in_file))}" if len(in_file) > 1 else f"line {in_file[0]}"
                stored = len(lines) - len(in_file)
                also = f", {stored} already on the roster" if stored else ""
                warnings.append(f"line {in_file[-1]}: {names.get(team_id, '?')} has {len(lines)} players named "
                                f"{shown[folded]!r} ({where}{also}); imported, each with their own Discord id")
        return sorted(warnings, key=lambda w: int(w.split(":")[0].removeprefix("line ")))

    async def games(self, parsed: Parsed[GameRow], league: LeagueSettings, *,
                    now: datetime | None = None) -> ImportReport:
        """The file is checked and worked out before the write lock is taken; the games then go in
        whole or not at all, in one transaction of batched statements, and the new games'
        reminders (ten rows a game) after them, a hundred games to a transaction. The event
        loop gets a turn between statements, and other writers (check-ins) between transactions:
        done in one go, a large file (bench/imports.py) held both the loop and the lock for minutes.

        A crash between the two leaves games without reminders: importing the file again plans
        them (``plan_schedule`` finds scheduled games with nothing queued).
        """
        now = now or datetime.now(UTC)
        async with self.sessions() as session:
            seen = await read_schedule(session, league.key)
        plan = await asyncio.to_thread(plan_schedule, parsed, seen, league, now)
        loop = asyncio.get_running_loop()
        writing_since = loop.time()
        async with self.sessions.begin() as session:
            current = await read_schedule(session, league.key)
            if current != seen:  # someone changed the schedule meanwhile: plan on what is there now
                plan = await asyncio.to_thread(plan_schedule, parsed, current, league, now)
            created = await self._write_schedule(session, plan, league, now)
            one_file_lock = writers_take_turns(session)
        unplanned = created + plan.unplanned
        for start in range(0, len(unplanned), PLAN_GAMES):
            async with self.sessions.begin() as session:
                await plan_games(session, league, cast(list[Game], unplanned[start:start + PLAN_GAMES]), now,
                                 new=True)
            # The connection is back in the pool: a check-in waiting for it gets it before the next
            # batch does (without a turn of the loop, this task would take it straight back).
            await asyncio.sleep(0)
            if one_file_lock and loop.time() - writing_since >= WRITE_STRETCH_S:
                # Another process writing the same SQLite file (the bot, while `sideline import` runs)
                # waits in SQLite's busy handler, which sleeps up to 100 ms between tries: transactions
                # back to back would keep it out for the whole import. Step aside for longer than that.
                await asyncio.sleep(STEP_ASIDE_S)
                writing_since = loop.time()
        if league.scheduled_events:
            async with self.sessions.begin() as session:
                await events.follow_games(session, league, await self.league_id(session, league), now)
        return plan.report

    @staticmethod
    async def _write_schedule(session: AsyncSession, plan: SchedulePlan, league: LeagueSettings,
                              now: datetime) -> list[NewGame]:
        """New and changed games in batches; changed games' reminders move with them. The new games."""
        created: list[NewGame] = []
        for start in range(0, len(plan.new), BATCH_ROWS):
            batch = plan.new[start:start + BATCH_ROWS]
            ids = dict((await session.execute(insert(Game).returning(Game.code, Game.id), batch)).all())
            created += [NewGame(id=ids[g["code"]], **g) for g in batch]
            await asyncio.sleep(0)
        for start in range(0, len(plan.changed), BATCH_ROWS):
            await session.execute(update(Game), plan.changed[start:start + BATCH_ROWS])
            await asyncio.sleep(0)
        changed_ids = [g["id"] for g in plan.changed]
        for start in range(0, len(changed_ids), BATCH_ROWS):
            moved = (await session.scalars(select(Game).where(
                Game.id.in_(changed_ids[start:start + BATCH_ROWS])))).unique().all()
            await plan_games(session, league, moved, now)
        return created
