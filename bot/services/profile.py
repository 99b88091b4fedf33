"""A player's own profile: see what the league keeps about them, set their gender, forget it.

"Personal data" here is what a player gives about themselves and the league can run without:
their gender category, their check-in answers, their away ranges (with their notes) and how they want
to hear reminders (``reminders``; bot/services/availability/preferences.py says what may be muted).
``forget`` removes all of them. The roster place
(name, Discord id, team, position) stays: captains and commissioners manage it, and results,
penalties and suspensions refer to it; leaving the team is done with the captain.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.access import Caller
from bot.clock import Clock
from bot.errors import InvalidInput, NotFound
from bot.league.stats import Attendance
from bot.league.vocabulary import COUNTS_TOWARD_WOMEN_MINIMUM, GENDERS
from bot.services.checkins.service import forget_checkins
from bot.services.shared.attendance import checkin_count_for_player
from bot.services.shared.guardians import managed_players, pick_managed
from bot.services.stats.service import own_attendance
from storage import lookups
from storage.db import retried_on_disconnect, rowcount
from storage.models import AwayRange, Player, ReminderPreference, RosterEntry
from storage.models.availability import DELIVERIES


@dataclass(frozen=True)
class Profile:
    """Everything shown by /profile show; only ever sent to the player themself."""

    league: str
    name: str
    team: str | None
    position: str | None
    gender: str | None
    checkins: int
    attendance: Attendance | None = None  # this season's games of their team: played, missed (from the sheets)
    managed: bool = False  # a player without a Discord account, shown to their guardian

    @property
    def counts_toward_minimum(self) -> bool:
        return self.gender in COUNTS_TOWARD_WOMEN_MINIMUM


@dataclass(frozen=True)
class Forgotten:
    league: str
    gender_removed: bool
    checkins_removed: int
    kept_roster_place: str | None  # the team, when the player is still on one
    away_removed: int = 0  # away ranges (their notes are the player's own words)
    reminders_reset: bool = False  # their /profile reminders choices

    @property
    def removed_anything(self) -> bool:
        return self.gender_removed or self.checkins_removed > 0 or self.away_removed > 0 or self.reminders_reset


@dataclass(frozen=True)
class ReminderSettings:
    """What /profile reminders shows: where game reminders reach the player, and what is muted."""

    league: str
    delivery: str
    game_reminders: bool
    deadline_nudges: bool
    changed: bool
    team_has_channel: bool


@retried_on_disconnect
class ProfileService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock) -> None:
        self.sessions = sessions
        self.clock = clock

    async def show(self, caller: Caller, managed: str | None = None) -> Profile:
        """The caller's profile; with ``managed``, that of a player without a Discord account they manage
        (only their own players are looked up)."""
        async with self.sessions() as session:
            if managed is not None and managed.strip():
                mine = pick_managed(await managed_players(session, caller.league_id, caller.discord_id), managed)
                player = await session.get(Player, mine.player_id)
                assert player is not None and player.league_id == caller.league_id
                entry = await session.scalar(select(RosterEntry).where(RosterEntry.league_id == caller.league_id,
                                                                       RosterEntry.player_id == player.id))
                team = await lookups.team_by_id(session, caller.league_id, entry.team_id) if entry else None
                return Profile(league=caller.league.name, name=player.name, team=team.name if team else None,
                               position=entry.position if entry else None, gender=player.gender,
                               checkins=await checkin_count_for_player(session, caller.league_id, player.id),
                               attendance=await own_attendance(session, caller.league_id, player.id), managed=True)
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
            player = await lookups.player_by_discord(session, caller.league_id, caller.discord_id)
            if player is None:
                return Forgotten(caller.league.name, False, 0, None)
            had_gender = player.gender is not None
            player.gender = None
            removed = await forget_checkins(session, caller.league_id, player.id)
            away = rowcount(await session.execute(delete(AwayRange).where(
                AwayRange.league_id == caller.league_id, AwayRange.player_id == player.id))) or 0
            prefs = rowcount(await session.execute(delete(ReminderPreference).where(
                ReminderPreference.league_id == caller.league_id, ReminderPreference.player_id == player.id))) or 0
            team, _ = await self._roster_place(session, caller)
            return Forgotten(caller.league.name, had_gender, removed, team, away, prefs > 0)

    async def reminders(self, caller: Caller, *, delivery: str | None = None, game_reminders: bool | None = None,
                        deadline_nudges: bool | None = None) -> ReminderSettings:
        """Show, or change, how the caller hears game reminders and deadline nudges."""
        if delivery is not None and delivery not in DELIVERIES:
            raise InvalidInput(f"Delivery must be one of: {', '.join(DELIVERIES)}.")
        changing = (delivery, game_reminders, deadline_nudges) != (None, None, None)
        async with self.sessions.begin() as session:
            player = await self._player(session, caller)
            row = await session.scalar(select(ReminderPreference).where(
                ReminderPreference.league_id == caller.league_id, ReminderPreference.player_id == player.id))
            if row is None and changing:
                row = ReminderPreference(league_id=caller.league_id, player_id=player.id, delivery="channel",
                                         mute_game_reminders=False, mute_deadline_nudges=False,
                                         updated_at=self.clock.now())
                session.add(row)
            if row is not None and changing:
                if delivery is not None:
                    row.delivery = delivery
                if game_reminders is not None:
                    row.mute_game_reminders = not game_reminders
                if deadline_nudges is not None:
                    row.mute_deadline_nudges = not deadline_nudges
                row.updated_at = self.clock.now()
                await session.flush()
            entry = await lookups.roster_entry(session, caller.league_id, caller.discord_id)
            team = await lookups.team_by_id(session, caller.league_id, entry.team_id) if entry else None
            return ReminderSettings(caller.league.name, row.delivery if row else "channel",
                                    not (row and row.mute_game_reminders), not (row and row.mute_deadline_nudges),
                                    changing, bool(team and team.channel_id))

    @staticmethod
    async def _player(session: AsyncSession, caller: Caller) -> Player:
        player = await lookups.player_by_discord(session, caller.league_id, caller.discord_id)
        if player is None:
            raise NotFound(f"{caller.league.name} keeps no profile for you: you're not on a roster here. "
                           "Your captain adds you with /roster add.")
        return player

    async def _profile(self, session: AsyncSession, caller: Caller, player: Player) -> Profile:
        team, position = await self._roster_place(session, caller)
        return Profile(
            league=caller.league.name, name=player.name, team=team, position=position, gender=player.gender,
            checkins=await checkin_count_for_player(session, caller.league_id, player.id),
            attendance=await own_attendance(session, caller.league_id, player.id),
        )

    @staticmethod
    async def _roster_place(session: AsyncSession, caller: Caller) -> tuple[str | None, str | None]:
        """The caller's team name and position, or (None, None) when on no roster."""
        entry = await lookups.roster_entry(session, caller.league_id, caller.discord_id)
        if entry is None:
            return None, None
        team = await lookups.team_by_id(session, caller.league_id, entry.team_id)
        return (team.name if team else None), entry.position
