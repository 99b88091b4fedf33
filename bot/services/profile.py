"""A player's own profile: see what the league keeps about them, set their gender, forget it.

"Personal data" here is what a player gives about themselves and the league can run without:
their gender category and their check-in answers. ``forget`` removes both. The roster place
(name, Discord id, team, position) stays: captains and commissioners manage it, and results,
penalties and suspensions refer to it; leaving the team is done with the captain.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.access import Caller
from bot.errors import InvalidInput, NotFound
from bot.league.vocabulary import COUNTS_TOWARD_WOMEN_MINIMUM, GENDERS
from bot.services.checkins.queries import checkin_count_for_player
from bot.services.checkins.service import forget_checkins
from storage.models import Player
from storage.repos import core


@dataclass(frozen=True)
class Profile:
    """Everything shown by /profile show; only ever sent to the player themself."""

    league: str
    name: str
    team: str | None
    position: str | None
    gender: str | None
    checkins: int

    @property
    def counts_toward_minimum(self) -> bool:
        return self.gender in COUNTS_TOWARD_WOMEN_MINIMUM


@dataclass(frozen=True)
class Forgotten:
    league: str
    gender_removed: bool
    checkins_removed: int
    kept_roster_place: str | None  # the team, when the player is still on one

    @property
    def removed_anything(self) -> bool:
        return self.gender_removed or self.checkins_removed > 0


class ProfileService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        self.sessions = sessions

    async def show(self, caller: Caller) -> Profile:
        async with self.sessions() as session:
            player = await self._player(session, caller)
            return await self._profile(session, caller, player)

    async def set_gender(self, caller: Caller, value: str) -> Profile:
        if value not in GENDERS:
            raise InvalidInput(f"Gender must be one of: {', '.join(GENDERS)}.")
        async with self.sessions.begin() as session:
            player = await self._player(session, caller)
            player.gender = value
            await session.flush()
            return await self._profile(session, caller, player)

    async def forget(self, caller: Caller) -> Forgotten:
        async with self.sessions.begin() as session:
            player = await core.player_by_discord(session, caller.league_id, caller.discord_id)
            if player is None:
                return Forgotten(caller.league.name, False, 0, None)
            had_gender = player.gender is not None
            player.gender = None
            removed = await forget_checkins(session, caller.league_id, player.id)
            team, _ = await self._roster_place(session, caller)
            return Forgotten(caller.league.name, had_gender, removed, team)

    @staticmethod
    async def _player(session: AsyncSession, caller: Caller) -> Player:
        player = await core.player_by_discord(session, caller.league_id, caller.discord_id)
        if player is None:
            raise NotFound(f"{caller.league.name} keeps no profile for you: you're not on a roster here. "
                           "Your captain adds you with /roster add.")
        return player

    async def _profile(self, session: AsyncSession, caller: Caller, player: Player) -> Profile:
        team, position = await self._roster_place(session, caller)
        return Profile(
            league=caller.league.name, name=player.name, team=team, position=position, gender=player.gender,
            checkins=await checkin_count_for_player(session, caller.league_id, player.id),
        )

    @staticmethod
    async def _roster_place(session: AsyncSession, caller: Caller) -> tuple[str | None, str | None]:
        """The caller's team name and position, or (None, None) when on no roster."""
        entry = await core.roster_entry(session, caller.league_id, caller.discord_id)
        if entry is None:
            return None, None
        team = await core.team_by_id(session, caller.league_id, entry.team_id)
        return (team.name if team else None), entry.position
