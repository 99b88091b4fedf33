"""/stats player|leaders|team: the league's statistics (public league data), and attendance (private: the
player, their captains and the commissioners).

The league's leaders are read down an index of the season's running totals (bot/services/stats/lines.py
keeps them with every change); a division's are one grouped query over its teams' lines. Either is kept in
this process per league, season, category and division until the league's statistics counter moves
(bot/services/stats/versions.py: every change to what counts moves it in its own unit of work), read in
the same query as the seasons. Several processes each keep their own and read the same counter. A change of
the league's seasons has the totals counted again once, before the first read that needs them.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.access import Caller
from bot.clock import Clock
from bot.config.settings import LeagueSettings
from bot.errors import InvalidInput, NotFound
from bot.league.stats import CATEGORIES, TOP, Attendance, Board, Category, PlayerStats, attendance, rank
from bot.services.people import is_captain_of, membership
from bot.services.shared.guardians import Pick, managed_players, player_named
from bot.services.shared.seasons import SeasonRange, league_seasons, pick_season, season_range
from bot.services.stats import queries
from bot.services.stats.lines import ensure_seasons, signature
from storage import lookups
from storage.db import retried_on_disconnect
from storage.models import Game, League, Player, RosterEntry, StatsVersion
from storage.text import printable

#: Boards kept per process (a league's categories, divisions and seasons); the least recently used go.
KEPT_BOARDS = 256
T = TypeVar("T")


@dataclass(frozen=True)
class _Season:
    id: int
    span: SeasonRange
    version: int
    stale: bool


@dataclass(frozen=True)
class LeadersView:
    league: str
    season: str | None
    division: str | None
    board: Board
    teams: dict[int, str]  # each leader's roster team now


@dataclass(frozen=True)
class PlayerView:
    name: str
    team: str | None
    season: str | None
    stats: PlayerStats


@dataclass(frozen=True)
class TeamView:
    team: str
    season: str | None
    lines: tuple[queries.TeamLine, ...]
    attendance: dict[int, Attendance] | None  # None: not for this caller (only its captains, commissioners)

    @property
    def totals(self) -> PlayerStats:
        lines = [line.stats for line in self.lines]
        return PlayerStats(goals=sum(s.goals for s in lines), assists=sum(s.assists for s in lines),
                           pim=sum(s.pim for s in lines))


@retried_on_disconnect
class StatsService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock) -> None:
        self.sessions = sessions
        self.clock = clock
        self._boards: OrderedDict[tuple[Any, ...], tuple[int, Board]] = OrderedDict()

    async def leaders(self, caller: Caller, category: str = "points", division: str | None = None,
                      season: str | None = None) -> LeadersView:
        """The top 10 of a category, ties shown as ties; the league's or one division's, this season or another."""
        if category not in CATEGORIES:
            raise InvalidInput(f"Pick a category: {', '.join(CATEGORIES)}.")

        async def read(session: AsyncSession, chosen: _Season) -> LeadersView:
            return await self._leaders(session, caller.league, caller.league_id, category, division, chosen)

        return await self._reading(caller.league_id, season, read)

    async def league_leaders(self, session: AsyncSession, league: LeagueSettings, league_id: int, category: Category,
                             *, division: str | None = None, season: str | None = None) -> LeadersView:
        """The leaders read in the caller's unit of work (the weekly post counts the seasons again first)."""
        return await self._leaders(session, league, league_id, category, division,
                                   await self._season(session, league_id, season))

    async def boards(self, league: LeagueSettings, league_id: int,
                     categories: tuple[Category, ...]) -> list[LeadersView]:
        """The league's leaders in each category this season, read in one unit of work of their own (the
        public league page, bot/services/league_page/service.py)."""
        async def read(session: AsyncSession, chosen: _Season) -> list[LeadersView]:
            return [await self._leaders(session, league, league_id, c, None, chosen) for c in categories]

        return await self._reading(league_id, None, read)

    @staticmethod
    async def version(session: AsyncSession, league_id: int) -> int:
        """The league's statistics counter: it moves with every change to what the leaders count."""
        state = await session.get(StatsVersion, league_id)
        return state.version if state is not None else 0

    async def _leaders(self, session: AsyncSession, league: LeagueSettings, league_id: int, category: Category,
                       division: str | None, chosen: _Season) -> LeadersView:
        division_id, division_name = None, None
        if division is not None and division.strip():
            found = await lookups.division_by_name(session, league_id, printable(division).strip())
            if found is None:
                raise NotFound(f"There's no division “{printable(division).strip()[:100]}” in {league.name}.")
            division_id, division_name = found.id, found.name
        board = await self._board(session, league_id, chosen, category, division_id)
        teams = await queries.team_names(session, league_id, [r.tally.player_id for r in board.rows])
        return LeadersView(league.name, chosen.span.name, division_name, board, teams)

    async def _reading(self, league_id: int, season: str | None,
                       read: Callable[[AsyncSession, _Season], Awaitable[T]]) -> T:
        """Read in one unit of work; if the league's seasons changed since its totals were counted, count them
        again first (once, in a unit of work of its own) and read afresh."""
        async with self.sessions() as session:
            chosen = await self._season(session, league_id, season)
            if not chosen.stale:
                return await read(session, chosen)
        async with self.sessions.begin() as writing:
            await ensure_seasons(writing, league_id)
        async with self.sessions() as session:
            return await read(session, await self._season(session, league_id, season))

    @staticmethod
    async def _season(session: AsyncSession, league_id: int, name: str | None) -> _Season:
        """The season asked for (its id, 0 for a league without seasons, and its games), the statistics counter,
        and whether the totals were counted by other seasons than the league's now."""
        seasons = await league_seasons(session, league_id)
        span = pick_season(seasons, name)
        state = await session.get(StatsVersion, league_id)
        chosen = next((s for s in seasons if span.name is not None and s.name == span.name), None)
        return _Season(chosen.id if chosen is not None else 0, span, state.version if state is not None else 0,
                       state is not None and state.seasons != signature(seasons))

    async def _board(self, session: AsyncSession, league_id: int, chosen: _Season, category: Category,
                     division_id: int | None) -> Board:
        """The category's leaders, kept until the statistics counter moves: the league's read down the totals'
        index, a division's summed from its teams' lines."""
        key = (league_id, chosen.id, category, division_id)
        kept = self._boards.get(key)
        if kept is not None and kept[0] == chosen.version:
            self._boards.move_to_end(key)
            return kept[1]
        if division_id is None:
            tallies = await queries.leaders(session, league_id, chosen.id, category, top=TOP)
        else:
            tallies = await queries.division_leaders(session, league_id, chosen.id, category, division_id, top=TOP)
        board = rank(category, tallies)
        self._boards[key] = (chosen.version, board)
        self._boards.move_to_end(key)
        while len(self._boards) > KEPT_BOARDS:
            self._boards.popitem(last=False)
        return board

    async def player(self, caller: Caller, discord_id: Pick | None, season: str | None = None) -> PlayerView:
        """A player's numbers: games played, goals, assists, points, penalty minutes, shoot-out attempts and
        goals apart; a goalie's games, goals against and shutouts. The player is a member, or by name one
        without a Discord account; nobody named: the caller, or the one player a guardian manages."""
        async def read(session: AsyncSession, chosen: _Season) -> PlayerView:
            player = await _named(session, caller, discord_id)
            if player is None:
                raise NotFound(f"That member isn't a player in {caller.league.name}, so there are no statistics.")
            stats = await queries.player_stats(session, caller.league_id, player.id, chosen.id, chosen.span)
            team = (await queries.team_names(session, caller.league_id, [player.id])).get(player.id)
            return PlayerView(player.name, team, chosen.span.name, stats)

        return await self._reading(caller.league_id, season, read)

    async def team(self, caller: Caller, team_name: str, season: str | None = None) -> TeamView:
        """Each player's numbers for the team; attendance too, for its captains and the commissioners."""
        async def read(session: AsyncSession, chosen: _Season) -> TeamView:
            team = await lookups.team_by_name(session, caller.league_id, printable(team_name).strip())
            if team is None:
                raise NotFound(f"There's no team called “{printable(team_name).strip()[:100]}” in "
                               f"{caller.league.name}.")
            lines = await queries.team_lines(session, caller.league_id, team.id, chosen.id)
            member = await membership(session, caller)
            private = None
            if caller.is_commissioner or is_captain_of(caller, member, team.id):
                private = await self._team_attendance(session, caller.league_id, team.id, chosen.span)
            return TeamView(team.name, chosen.span.name, tuple(lines), private)

        return await self._reading(caller.league_id, season, read)

    async def _team_attendance(self, session: AsyncSession, league_id: int, team_id: int,
                               span: SeasonRange) -> dict[int, Attendance]:
        roster = (await session.execute(select(RosterEntry.player_id, RosterEntry.added_at).where(
            RosterEntry.league_id == league_id, RosterEntry.team_id == team_id))).all()
        games = await queries.team_games(session, league_id, team_id, span, None)
        starts = await _starts(session, games)
        played, spared = await queries.attendance_marks(session, team_id, games, [r.player_id for r in roster])
        return {r.player_id: attendance([((r.player_id, g) in played, g in spared) for g in games
                                         if starts[g] >= r.added_at]) for r in roster}

    async def export_rows(self, league: LeagueSettings, season: str | None = None) -> list[dict[str, object]]:
        """Every player with a number in the season, by name, for ``sideline stats export`` (CSV)."""
        async with self.sessions() as session:
            league_id = await session.scalar(select(League.id).where(League.key == league.key))
        if league_id is None:
            return []

        async def read(session: AsyncSession, chosen: _Season) -> list[dict[str, object]]:
            numbers = await queries.every_player(session, league_id, chosen.id, chosen.span)
            if not numbers:
                return []
            players = (await session.execute(select(Player.id, Player.discord_id, Player.name).where(
                Player.id.in_(list(numbers))).order_by(Player.name, Player.id))).all()
            teams = await queries.team_names(session, league_id, list(numbers))
            return [{"season": chosen.span.name or "", "player": p.name, "discord_id": str(p.discord_id or ""),
                     "team": teams.get(p.id, ""), "gp": s.gp, "goals": s.goals, "assists": s.assists,
                     "points": s.points, "pim": s.pim, "shootout_goals": s.so_goals,
                     "shootout_attempts": s.so_attempts, "goalie_gp": s.goalie_gp, "goals_against": s.goals_against,
                     "shutouts": s.shutouts} for p in players for s in (numbers[p.id],)]

        return await self._reading(league_id, season, read)


async def own_attendance(session: AsyncSession, league_id: int, player_id: int) -> Attendance | None:
    """A player's games played and missed for their team this season, since they joined it (None when on no
    team): for /profile show, which only they see."""
    entry = await session.scalar(select(RosterEntry).where(RosterEntry.league_id == league_id,
                                                           RosterEntry.player_id == player_id))
    if entry is None:
        return None
    span = await season_range(session, league_id)
    games = await queries.team_games(session, league_id, entry.team_id, span, entry.added_at)
    played, spared = await queries.attendance_marks(session, entry.team_id, games, [player_id])
    return attendance([((player_id, g) in played, g in spared) for g in games])


EXPORT_COLUMNS = ("season", "player", "discord_id", "team", "gp", "goals", "assists", "points", "pim",
                  "shootout_goals", "shootout_attempts", "goalie_gp", "goals_against", "shutouts")


async def _starts(session: AsyncSession, game_ids: list[int]) -> dict[int, datetime]:
    if not game_ids:
        return {}
    return dict((await session.execute(select(Game.id, Game.starts_at).where(Game.id.in_(game_ids)))).all())


async def _named(session: AsyncSession, caller: Caller, who: Pick | None) -> Player | None:
    if isinstance(who, str):
        return await player_named(session, caller.league_id, caller.league.name, who)
    if who is not None:
        return await lookups.player_by_discord(session, caller.league_id, who)
    own = await lookups.player_by_discord(session, caller.league_id, caller.discord_id)
    if own is not None:
        return own
    mine = await managed_players(session, caller.league_id, caller.discord_id)
    if len(mine) > 1:
        raise InvalidInput(f"You manage {len(mine)} players: pick whose statistics you want by name.")
    if not mine:
        raise NotFound(f"You aren't a player in {caller.league.name}: pick the player whose statistics you "
                       "want, a member or by name.")
    return await session.get(Player, mine[0].player_id)
