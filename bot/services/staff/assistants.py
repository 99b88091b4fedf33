"""/team assistant and /team standin: who takes a captain's (coach's) place (youth 1.4, 1.6).

When they hold the captain's powers is bot/league/staff/__init__.py's rule, read by bot/services/people.py for
each command about a game; this module only names them.

Choices the spec leaves open, decided here:
- A commissioner names a team's assistant coach (youth 1.5: the commissioners appoint team management):
  one per team, anyone in the server (a coach needn't be a player); naming another replaces them.
- A captain of a team (the captain role, and marked its captain) names a stand-in for one of the team's
  games: a member on the team's roster (1.6 "another member of the team"), one per team and game, until
  the game has a result; naming another replaces them. A commissioner may name one for either team.
- Whoever is named hears it by DM, with what they may now do; ``remove`` takes the naming back.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.access import Caller, Role
from bot.clock import Clock
from bot.discord_text import clean_user_text, clip, timestamp
from bot.errors import Conflict, InvalidInput, NotAllowed, NotFound
from bot.services import outbox
from bot.services.people import membership
from bot.services.shared.games import find_game
from bot.services.staff.nominations import NominationService
from storage import lookups
from storage.db import retried_on_disconnect
from storage.models import AssistantCoach, Game, StandInCaptain, Team
from storage.text import printable

log = logging.getLogger("sideline.staff")

POWERS = "check the lineup (/lineup), submit the shootout order (/shootout submit) and relay to the referees " \
         "(/relay send)"


@dataclass(frozen=True)
class AssistantChange:
    team: str
    name: str
    action: str  # "named" | "already" | "removed" | "not named"
    replaced: str | None = None  # the assistant coach this one replaced


@dataclass(frozen=True)
class StandInChange:
    game_code: str
    game_title: str
    starts_at: datetime
    team: str
    name: str
    action: str  # "named" | "already" | "removed" | "not named"
    replaced: str | None = None


def _name(text: str) -> str:
    return clean_user_text(text, 100) or "someone"


@retried_on_disconnect
class StaffService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock) -> None:
        self.sessions = sessions
        self.clock = clock
        self.nominations = NominationService(sessions, clock)  # who leads each team before the draft

    async def assistant(self, caller: Caller, member_id: int, member_name: str, team_name: str | None = None, *,
                        remove: bool = False) -> AssistantChange:
        """A commissioner names (or removes) a team's assistant coach."""
        caller.require(Role.COMMISSIONER)
        now, name = self.clock.now(), _name(member_name)
        async with self.sessions.begin() as session:
            team = await self._team(session, caller, member_id, team_name)
            current = await session.scalar(select(AssistantCoach).where(
                AssistantCoach.league_id == caller.league_id, AssistantCoach.team_id == team.id))
            if remove:
                if current is None or current.discord_id != member_id:
                    return AssistantChange(team.name, name, "not named")
                await session.execute(delete(AssistantCoach).where(AssistantCoach.id == current.id))
                log.info("assistant coach of %s removed by %s", team.name, caller.discord_id)
                return AssistantChange(team.name, name, "removed")
            if current is not None and current.discord_id == member_id:
                return AssistantChange(team.name, name, "already")
            replaced = current.name if current is not None else None
            if current is not None:
                await session.execute(delete(AssistantCoach).where(AssistantCoach.id == current.id))
            row = AssistantCoach(league_id=caller.league_id, team_id=team.id, discord_id=member_id, name=name,
                                 named_by=caller.discord_id, named_at=now)
            session.add(row)
            await session.flush()
            await outbox.tell(session, league_id=caller.league_id, guild_id=caller.league.guild_id,
                              key=f"assistant:{row.id}", user_id=member_id, due_at=now,
                              text=f"🧢 {clip(caller.league.name, 100)}: you're {team.name}'s assistant coach. For "
                              f"each game every captain of {team.name} is out or away for, you can {POWERS}.")
            log.info("assistant coach of %s named by %s", team.name, caller.discord_id)
            return AssistantChange(team.name, name, "named", replaced)

    async def _team(self, session: AsyncSession, caller: Caller, member_id: int, team_name: str | None) -> Team:
        if team_name and team_name.strip():
            team = await lookups.team_by_name(session, caller.league_id, team_name)
            if team is None:
                raise NotFound(f"There's no team called “{printable(team_name).strip()[:100]}” in "
                               f"{caller.league.name}.")
            return team
        entry = await lookups.roster_entry(session, caller.league_id, member_id)
        if entry is None:
            raise InvalidInput("They're on no team's roster here: name the team they coach (`team`).")
        team = await lookups.team_by_id(session, caller.league_id, entry.team_id)
        assert team is not None
        return team

    async def stand_in(self, caller: Caller, game_code: str, member_id: int, member_name: str, *,
                       remove: bool = False) -> StandInChange:
        """A captain names a member of their team to hold the captain's powers for one game (youth 1.6)."""
        now, name = self.clock.now(), _name(member_name)
        async with self.sessions.begin() as session:
            game = await find_game(session, caller, game_code)
            member = await membership(session, caller)
            captains = [t for t in game.team_ids() if caller.has_captain_role and t in member.captain_of]
            if not (captains or caller.is_commissioner):
                raise NotAllowed(f"Only a captain of {game.home.name} or {game.away.name}, or a commissioner, can "
                                 f"name a stand-in for `{game.code}`.")
            team = await self._stand_in_team(session, caller, game, member_id, name, captains)
            current = await session.scalar(select(StandInCaptain).where(
                StandInCaptain.league_id == caller.league_id, StandInCaptain.game_id == game.id,
                StandInCaptain.team_id == team.id))
            if remove:
                if current is None or current.discord_id != member_id:
                    return _change(game, team, name, "not named")
                await session.execute(delete(StandInCaptain).where(StandInCaptain.id == current.id))
                log.info("stand-in for %s in %s removed by %s", team.name, game.code, caller.discord_id)
                return _change(game, team, name, "removed")
            if game.status != "scheduled":
                raise Conflict(f"`{game.code}` is {game.status}: there's nothing left to captain in it.")
            if current is not None and current.discord_id == member_id:
                return _change(game, team, name, "already")
            replaced = current.name if current is not None else None
            if current is not None:
                await session.execute(delete(StandInCaptain).where(StandInCaptain.id == current.id))
            row = StandInCaptain(league_id=caller.league_id, game_id=game.id, team_id=team.id, discord_id=member_id,
                                 name=name, named_by=caller.discord_id, named_at=now)
            session.add(row)
            await session.flush()
            await outbox.tell(session, league_id=caller.league_id, guild_id=caller.league.guild_id,
                              key=f"standin:{row.id}", user_id=member_id, due_at=now,
                              text=f"🧢 {clip(caller.league.name, 100)}: you're {team.name}'s stand-in captain for "
                              f"`{game.code}` ({game.home.name} vs {game.away.name}, {timestamp(game.starts_at)}). "
                              f"For that game you can {POWERS}.")
            log.info("stand-in for %s in %s named by %s", team.name, game.code, caller.discord_id)
            return _change(game, team, name, "named", replaced)

    async def _stand_in_team(self, session: AsyncSession, caller: Caller, game: Game, member_id: int, name: str,
                             captains: list[int]) -> Team:
        """The game's team the member plays for, which the caller must captain (or be a commissioner)."""
        entry = await lookups.roster_entry(session, caller.league_id, member_id)
        team = next((t for t in (game.home, game.away) if entry is not None and t.id == entry.team_id), None)
        if team is None:
            raise InvalidInput(f"{name} isn't on the roster of {game.home.name} or {game.away.name}: a stand-in is "
                               "a member of the team.")
        if team.id not in captains and not caller.is_commissioner:
            raise NotAllowed(f"{name} plays for {team.name}: only {team.name}'s captain or a commissioner can name "
                             "them.")
        if member_id in await lookups.captain_ids(session, team.id):
            raise InvalidInput(f"{name} is already a captain of {team.name}.")
        return team


def _change(game: Game, team: Team, name: str, action: str, replaced: str | None = None) -> StandInChange:
    return StandInChange(game.code, f"{game.home.name} vs {game.away.name}", game.starts_at, team.name, name, action,
                         replaced)
