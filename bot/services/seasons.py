"""A league's seasons: start, end, show; and which stretch of games "the current season" means.

A season is a stretch of the calendar (bot/league/seasons.py): games, results and point adjustments
belong to the season their time falls in, so nothing that creates a game has to know about seasons;
rosters, by their history (bot/services/rosters/history.py). Starting a season keeps the rosters
(the default: nothing is lost) or clears them (every player leaves their team, recorded, so the
season before keeps its rosters). A league without any season row is one open season (how it was
before seasons existed).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.access import Caller, Role
from bot.clock import Clock
from bot.config.settings import LeagueSettings
from bot.discord_text import clean_user_text
from bot.errors import Conflict, InvalidInput
from bot.league.seasons import MAX_WEEKS, SeasonSpan, season_start, week_label
from bot.services.rosters import history as roster_history
from bot.services.shared.seasons import SeasonRange, league_seasons, season_ranges
from storage.db import retried_on_disconnect
from storage.models import Game, Season

_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


@dataclass(frozen=True)
class SeasonView:
    name: str
    first_day: date
    weeks: int
    ended_at: datetime | None
    games: int
    when: str  # "week 3 of 10", "playoffs (after week 10)", "starts 2027-01-04", "ended"

    def as_json(self) -> dict[str, object]:
        return {"name": self.name, "first_day": self.first_day.isoformat(), "weeks": self.weeks,
                "ended_at": self.ended_at, "games": self.games, "when": self.when}


#: What starting a season does to the rosters: teams carry on as they are, or every player leaves.
ROSTER_CHOICES = ("keep", "clear")


@dataclass(frozen=True)
class SeasonStarted:
    """A season started, and what happened to the rosters: ``players`` kept, or left their teams."""

    season: SeasonView
    rosters: str  # "keep" | "clear"
    players: int
    teams: int

    def as_json(self) -> dict[str, object]:
        return {**self.season.as_json(), "rosters": self.rosters,
                ("players_kept" if self.rosters == "keep" else "players_left"): self.players, "teams": self.teams}


@dataclass(frozen=True)
class SeasonsShown:
    league_name: str
    current: SeasonView | None  # the latest season (ended or not); None before the first
    earlier: tuple[SeasonView, ...]  # newest first

    def as_json(self) -> dict[str, object]:
        return {"current": self.current.as_json() if self.current else None,
                "earlier": [s.as_json() for s in self.earlier]}


def parse_first_day(text: str) -> date:
    """A first day as YYYY-MM-DD (the league's calendar day)."""
    raw = (text or "").strip()
    try:
        if not _ISO_DAY.fullmatch(raw):
            raise ValueError
        return date.fromisoformat(raw)
    except ValueError:
        raise InvalidInput(f"Give the first day as YYYY-MM-DD, e.g. 2027-01-04 (not “{raw[:40]}”).") from None


@retried_on_disconnect
class SeasonService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock) -> None:
        self.sessions = sessions
        self.clock = clock

    # --- commands -------------------------------------------------------------------------------
    async def start(self, caller: Caller, name: str, first_day: str, weeks: int,
                    rosters: str = "keep") -> SeasonStarted:
        """Commissioners start a season, keeping the rosters or clearing them."""
        caller.require(Role.COMMISSIONER)
        return await self.start_league(caller.league, caller.league_id, name, first_day, weeks, rosters=rosters,
                                       by=caller.discord_id)

    async def end(self, caller: Caller) -> SeasonView:
        """Commissioners end the running season (its games and table stay; the next starts with /season start)."""
        caller.require(Role.COMMISSIONER)
        return await self.end_league(caller.league, caller.league_id)

    async def show(self, caller: Caller) -> SeasonsShown:
        """Everyone may see the seasons."""
        return await self.show_league(caller.league, caller.league_id)

    async def names(self, caller: Caller, text: str) -> list[str]:
        """Season names for autocomplete, newest first."""
        async with self.sessions() as session:
            names = [s.name for s in reversed(await league_seasons(session, caller.league_id))]
        needle = text.strip().casefold()
        return [n for n in names if needle in n.casefold()][:25]

    # --- by league (the command line too) -------------------------------------------------------
    async def start_league(self, league: LeagueSettings, league_id: int, name: str, first_day: str, weeks: int,
                           *, rosters: str = "keep", by: int | None = None) -> SeasonStarted:
        """``rosters``: "keep" (teams carry on) or "clear" (every player leaves their team as the season
        starts: recorded in the roster's history, so the season before keeps its rosters)."""
        title = clean_user_text(name or "", 100)
        if not title:
            raise InvalidInput("Give the season a name, e.g. Fall 2026.")
        day = parse_first_day(first_day)
        if isinstance(weeks, bool) or not isinstance(weeks, int) or not 1 <= weeks <= MAX_WEEKS:
            raise InvalidInput(f"Weeks of regular season must be a whole number from 1 to {MAX_WEEKS}.")
        if rosters not in ROSTER_CHOICES:
            raise InvalidInput("Rosters must be keep (teams carry on) or clear (every player leaves their team).")
        starts_at = season_start(day, league.timezone)
        now = self.clock.now()
        async with self.sessions.begin() as session:
            seasons = await league_seasons(session, league_id)
            if any(s.name.casefold() == title.casefold() for s in seasons):
                raise Conflict(f"{league.name} already has a season called “{title}”.")
            if seasons:
                last = seasons[-1]
                if last.ended_at is None:
                    raise Conflict(f"{last.name} is still running: end it first with /season end.")
                if starts_at <= last.starts_at:
                    raise InvalidInput(f"A new season must start after {last.name} started "
                                       f"({last.first_day.isoformat()}).")
            # The first season holds everything before it too: only a later one can take played games,
            # and clearing the rosters before games already played would take players out of them.
            played = (seasons or rosters == "clear") and await session.scalar(select(func.count(Game.id)).where(
                Game.league_id == league_id, Game.starts_at >= starts_at, Game.status == "final"))
            if played and not seasons:
                raise Conflict(f"Games on or after {day.isoformat()} already have results ({played}): clearing the "
                               "rosters then would take players out of games they played. Pick a later first "
                               "day, or keep the rosters and remove players with /roster remove.")
            if played:
                raise Conflict(f"Games on or after {day.isoformat()} already have results ({played}): they would "
                               "leave the previous season. Pick a later first day.")
            season = Season(league_id=league_id, name=title, first_day=day, weeks=weeks, starts_at=starts_at,
                            ended_at=None, created_by=by, created_at=now)
            session.add(season)
            await session.flush()
            if rosters == "clear":
                players, teams = await roster_history.clear_rosters(session, league, league_id, starts_at, now)
            else:
                players, teams = await roster_history.rostered(session, league_id)
            view = await self._view(session, league, season, SeasonRange(title, starts_at, None), now)
            return SeasonStarted(view, rosters, players, teams)

    async def end_league(self, league: LeagueSettings, league_id: int) -> SeasonView:
        now = self.clock.now()
        async with self.sessions.begin() as session:
            seasons = await league_seasons(session, league_id)
            if not seasons or seasons[-1].ended_at is not None:
                raise Conflict("No season is running: start one with /season start.")
            season = seasons[-1]
            season.ended_at = now
            return await self._view(session, league, season, season_ranges(seasons)[-1], now)

    async def show_league(self, league: LeagueSettings, league_id: int | None) -> SeasonsShown:
        now = self.clock.now()
        async with self.sessions() as session:
            seasons = await league_seasons(session, league_id) if league_id is not None else []
            views = [await self._view(session, league, s, r, now) for s, r in zip(seasons, season_ranges(seasons),
                                                                                  strict=True)]
        return SeasonsShown(league.name, views[-1] if views else None, tuple(reversed(views[:-1])))

    async def _view(self, session: AsyncSession, league: LeagueSettings, season: Season, span: SeasonRange,
                    now: datetime) -> SeasonView:
        query = select(func.count(Game.id)).where(Game.league_id == season.league_id)
        if span.starts_at is not None:
            query = query.where(Game.starts_at >= span.starts_at)
        if span.ends_at is not None:
            query = query.where(Game.starts_at < span.ends_at)
        games = int(await session.scalar(query) or 0)
        when = "ended" if season.ended_at is not None else week_label(
            SeasonSpan(season.name, season.first_day, season.weeks), now, league.timezone)
        return SeasonView(season.name, season.first_day, season.weeks, season.ended_at, games, when)
