"""/setup team and /setup team-remove: a league's teams, their channels and captains, from Discord."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import delete, func, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.clock import Clock
from bot.config.settings import LeagueSettings
from bot.discord_text import clean_text
from bot.errors import Conflict, InvalidInput, NoLeague, NotFound
from bot.league.setup.teams import TeamAsked, TeamNow, TeamPlan, plan_team
from bot.league.typos import did_you_mean
from bot.services.deadlines import service as deadlines
from bot.services.reminders import plan as reminders
from bot.services.setup.league_setup import START, Actor, LeagueSetupService
from storage import lookups
from storage.db import retried_on_disconnect
from storage.models import Division, Game, League, SetupChange, Team, TeamCaptain


@dataclass(frozen=True)
class TeamChange:
    team: str
    created: bool
    changes: list[str]


@retried_on_disconnect
class TeamSetupService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock, leagues: LeagueSetupService) -> None:
        self.sessions = sessions
        self.clock = clock
        self.leagues = leagues  # its permission check and "managed by the file" refusal

    async def _league_id(self, session: AsyncSession, guild_id: int) -> int:
        league_id = await session.scalar(select(League.id).where(League.guild_id == guild_id))
        if league_id is None:
            raise NoLeague(START)
        return league_id

    async def save(self, guild_id: int, actor: Actor, *, name: str, channel_id: int | None,
                   captain_id: int | None, division: str | None = None, replace: bool = False) -> TeamChange:
        """Create the team, or update the one with exactly this name; a name differing only in case clashes.
        What would overwrite a channel, captain or division, or take another team's, needs ``replace``."""
        league = self.leagues.check(guild_id, actor)
        if league is None:
            raise NoLeague(START)
        name = " ".join(clean_text(name).split())[:100]
        if not name:
            raise InvalidInput("Give the team a name.")
        division = " ".join(clean_text(division or "").split())[:100] or None
        fixed = tuple(league.rules.lineup.court_sizes_by_division)
        try:
            return await self._save(league, guild_id, actor, name, channel_id, captain_id, division, fixed,
                                    replace)
        except IntegrityError:  # another /setup team made the same team (or took the channel) a moment ago
            raise Conflict(f"Someone else changed {name} at the same moment; nothing changed here. Run /setup "
                           "team again to see it as it is now.") from None

    async def _save(self, league: LeagueSettings, guild_id: int, actor: Actor, name: str, channel_id: int | None,
                    captain_id: int | None, division: str | None, fixed: tuple[str, ...],
                    replace: bool) -> TeamChange:
        now = self.clock.now()
        async with self.sessions.begin() as session:
            league_id = await self._league_id(session, guild_id)
            team = await lookups.team_by_name(session, league_id, name)
            if team is not None and team.name != name:
                raise Conflict(f"There is already a team called {team.name}; team names can't differ only in "
                               f"case. Use /setup team name:{team.name} to change it.")
            created = team is None
            if created and fixed and division is None:
                raise InvalidInput(f"{league.name} plays in divisions: give the team one with division: "
                                   f"({', '.join(fixed)}).")
            found = await self._division(session, league_id, division, fixed) if division is not None else None
            teams = await self._teams(session, league_id)
            current = next((t for t in teams.values() if t.name == name), None)
            others = [t for t in teams.values() if t.name != name]
            plan = plan_team(current, TeamAsked(channel_id, found.name if found else None, captain_id), others,
                             replace=replace)
            if plan.refusal:
                raise Conflict(plan.refusal)
            changes: list[str] = []
            rechanneled: list[Team] = []
            if team is None:
                team = Team(league_id=league_id, name=name)
                session.add(team)
                await session.flush()
                changes.append("created")
                self._audit(session, league_id, actor, f"teams.{name}", None, "created")
            if found is not None and team.division_id != found.id:
                self._audit(session, league_id, actor, f"teams.{name}.division",
                            current.division if current else None, found.name)
                team.division_id = found.id
            if plan.channel_from is not None:
                other = await lookups.team_by_name(session, league_id, plan.channel_from)
                if other is not None:
                    self._audit(session, league_id, actor, f"teams.{other.name}.channel", other.channel_id, None)
                    other.channel_id = None
                    rechanneled.append(other)
            if channel_id is not None and team.channel_id != channel_id:
                self._audit(session, league_id, actor, f"teams.{name}.channel", team.channel_id, channel_id)
                if not created:
                    rechanneled.append(team)
                team.channel_id = channel_id
            if captain_id is not None and plan.captain_added:
                await self._captain(session, league_id, actor, team, captain_id, plan)
            changes += plan.changes
            if rechanneled:  # what was queued for the old channel follows the team
                await session.flush()
                await reminders.follow_team_channels(session, league, rechanneled, now)
                await deadlines.follow_team_channels(session, rechanneled)
            return TeamChange(team.name, created, changes)

    async def _captain(self, session: AsyncSession, league_id: int, actor: Actor, team: Team, captain_id: int,
                       plan: TeamPlan) -> None:
        """The new captain in, the ones they replace out, and off the team they leave."""
        if plan.captain_from is not None:
            await session.execute(delete(TeamCaptain).where(TeamCaptain.league_id == league_id,
                                                            TeamCaptain.discord_id == captain_id))
            self._audit(session, league_id, actor, f"teams.{plan.captain_from}.captain", captain_id, None)
        if plan.captains_replaced:
            await session.execute(delete(TeamCaptain).where(TeamCaptain.team_id == team.id,
                                                            TeamCaptain.discord_id.in_(plan.captains_replaced)))
            for old in plan.captains_replaced:
                self._audit(session, league_id, actor, f"teams.{team.name}.captain", old, None)
        session.add(TeamCaptain(league_id=league_id, team_id=team.id, discord_id=captain_id))
        self._audit(session, league_id, actor, f"teams.{team.name}.captain", None, captain_id)

    @staticmethod
    async def _teams(session: AsyncSession, league_id: int) -> dict[int, TeamNow]:
        """The league's teams with their channel, division and captains, as the plan reads them."""
        rows = (await session.execute(select(Team.id, Team.name, Team.channel_id, Division.name)
                                      .outerjoin(Division, Division.id == Team.division_id)
                                      .where(Team.league_id == league_id))).all()
        captains: dict[int, list[int]] = {}
        for team_id, discord_id in (await session.execute(
                select(TeamCaptain.team_id, TeamCaptain.discord_id).where(TeamCaptain.league_id == league_id)
                .order_by(TeamCaptain.discord_id))).all():
            captains.setdefault(team_id, []).append(discord_id)
        return {r[0]: TeamNow(r[1], r[2], r[3], tuple(captains.get(r[0], ()))) for r in rows}

    async def _division(self, session: AsyncSession, league_id: int, given: str, fixed: tuple[str, ...]) -> Division:
        """Where the rules size the court by division (youth: junior and senior) it must be one of those, as
        a CSV import requires (a "U14" team would break /lineup later); elsewhere any name, matched in any case."""
        stored = list((await session.scalars(select(Division).where(Division.league_id == league_id))).all())
        if fixed:
            name = next((d for d in fixed if d.casefold() == given.casefold()), None)
            if name is None:
                meant = did_you_mean(given, fixed)
                hint = f"Did you mean {meant}? " if meant else ""
                raise InvalidInput(f"“{given}” isn't one of this league's divisions. {hint}"
                                   f"Use one of: {', '.join(fixed)} (the divisions the rules give a court size).")
        else:
            name = given
        found = next((d for d in stored if d.name.casefold() == name.casefold()), None)
        if found is None:
            found = Division(league_id=league_id, name=name)
            session.add(found)
            await session.flush()
        return found

    async def divisions(self, guild_id: int | None) -> list[str]:
        """The divisions a team may be put in: the rules' (youth: junior, senior), else the ones in use."""
        league = self.leagues.settings.league_for_guild(guild_id) if guild_id is not None else None
        if league is None:
            return []
        if league.rules.lineup.court_sizes_by_division:
            return list(league.rules.lineup.court_sizes_by_division)
        async with self.sessions() as session:
            return list((await session.scalars(select(Division.name).join(League, League.id == Division.league_id)
                                               .where(League.guild_id == guild_id).order_by(Division.name))).all())

    async def remove(self, guild_id: int, actor: Actor, name: str) -> str:
        """Retire a team that never played; one with games on the schedule stays (its history matters)."""
        if self.leagues.check(guild_id, actor) is None:
            raise NoLeague(START)
        async with self.sessions.begin() as session:
            league_id = await self._league_id(session, guild_id)
            team = await lookups.team_by_name(session, league_id, name)
            if team is None:
                raise NotFound(f"No team called {name!r} in this league.")
            result = await session.execute(
                select(Game.status, func.count()).where(
                    Game.league_id == league_id, or_(Game.home_team_id == team.id, Game.away_team_id == team.id))
                .group_by(Game.status))
            counts: dict[str, int] = {status: n for status, n in result.all()}
            if counts.get("final"):
                raise Conflict(f"{team.name} has played {counts['final']} game(s), so it stays in the standings "
                               "and history; it can't be removed.")
            if sum(counts.values()):
                raise Conflict(f"{team.name} has {sum(counts.values())} game(s) on the schedule; cancel or "
                               "move them first, then remove the team.")
            self._audit(session, league_id, actor, f"teams.{team.name}", "created", None)
            await session.execute(delete(Team).where(Team.id == team.id))  # captains, roster: ON DELETE CASCADE
            return team.name

    def _audit(self, session: AsyncSession, league_id: int, actor: Actor, key: str,
               old: object | None, new: object | None) -> None:
        session.add(SetupChange(league_id=league_id, changed_by=actor.discord_id, changed_at=self.clock.now(),
                                key=key[:100], old_value=None if old is None else str(old),
                                new_value=None if new is None else str(new)))
