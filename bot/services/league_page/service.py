"""The public league page: ``/setup web public:True`` publishes it at a random address, False takes it down.

Off by default. The address's slug (``secrets.token_urlsafe``, 144 random bits) is stored on the league's
row; turning the page off clears it, so the old address answers 404 from the next request on, and turning
it on again makes a new one. The feed server (bot/web/feed_server.py) finds the league by its slug with
every request: nothing is kept in memory that a revocation would have to reach.

Each request first reads the page's validator, a handful of cheap aggregates that move with everything
the page shows: the standings' inputs (every result, forfeit and adjustment; bot/services/standings.py),
the statistics counter (bot/services/stats/versions.py), the games (count, ids, revisions, and how many
have started: "upcoming" moves on when a game starts), the brackets, the rosters, the seasons, the
league's name and rules. A browser asking again is answered 304 from that read alone; otherwise the page
is built once per validator, its HTML written in a thread, and kept (bot/services/calendar/files.py).
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy import case, func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm import aliased

from bot.access import Caller, Role
from bot.clock import Clock
from bot.config.settings import LeagueSettings, Settings
from bot.league.league_page import DEFAULT_NAMES, PageNames, page_name
from bot.league.standings.presets import TEAM_NAME_FALLBACK
from bot.league.standings.table import StandingsRow
from bot.league.stats import CATEGORY_WORDS, Category
from bot.services.calendar.files import FeedFiles
from bot.services.league_page import data as page
from bot.services.playoffs import bracket_rows, rebuild
from bot.services.shared.seasons import league_seasons
from bot.services.standings import INPUTS_VERSION, StandingsTable, load_table
from bot.services.stats.service import StatsService
from storage.db import retried_on_disconnect
from storage.models import Game, League, Player, PlayoffBracket, Result, RosterEntry, Team

#: A slug as the page's address carries it; anything else is unknown without a query.
SLUG = re.compile(r"[A-Za-z0-9_-]{24}")
#: The leaders shown: every category but penalty minutes (data.py says why).
CATEGORIES: tuple[Category, ...] = ("points", "goals", "assists", "gp")

Kind = Literal["html", "embed", "json"]


@dataclass(frozen=True)
class PageState:
    """The league's page after ``/setup web``: its slug (None: not published) and whether this call changed it."""

    league: str
    slug: str | None
    changed: bool
    names: PageNames = DEFAULT_NAMES  # how players without a Discord account are named on it
    names_changed: bool = False


@dataclass(frozen=True)
class Page:
    """A published league's page as of now: what to build it from, and its validator."""

    slug: str
    league: LeagueSettings
    league_id: int
    version: str  # a digest of everything the page shows
    names: str | None = None  # the league's choice for players without a Discord account (None: the default)

    def etag(self, kind: Kind) -> str:
        return f'"{self.version}-{kind}"'


def new_slug() -> str:
    return secrets.token_urlsafe(18)


@retried_on_disconnect
class LeaguePageService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock, settings: Settings,
                 stats: StatsService) -> None:
        self.sessions = sessions
        self.clock = clock
        self.settings = settings
        self.stats = stats
        self.files = FeedFiles()

    async def set_public(self, caller: Caller, public: bool | None, names: PageNames | None = None) -> PageState:
        """Commissioners publish the page (a new address), take it down (the address stops working), choose
        how it names players without a Discord account, or, with none of these, see where it is."""
        caller.require(Role.COMMISSIONER)
        async with self.sessions.begin() as session:
            league = await session.get(League, caller.league_id, with_for_update=True)
            assert league is not None  # the caller's league has its row
            changed = False
            if public is True and league.public_slug is None:
                league.public_slug, changed = new_slug(), True
            elif public is False and league.public_slug is not None:
                league.public_slug, changed = None, True
            shown: PageNames = "full" if league.public_names == "full" else DEFAULT_NAMES
            names_changed = names is not None and names != shown
            if names is not None:
                league.public_names, shown = names, names
            return PageState(caller.league.name, league.public_slug, changed, shown, names_changed)

    async def by_slug(self, slug: str) -> Page | None:
        """The page an address names, or None for a slug that is unknown, revoked or malformed."""
        if SLUG.fullmatch(slug) is None:
            return None
        async with self.sessions() as session:
            found = (await session.execute(select(League.id, League.guild_id, League.public_names)
                                           .where(League.public_slug == slug))).first()
            if found is None:
                return None
            league = self.settings.league_for_guild(found[1])
            if league is None:  # the league left the config
                return None
            version = await self._version(session, league, found[0], found[2])
        return Page(slug, league, found[0], version, found[2])

    async def body(self, found: Page, kind: Kind) -> bytes:
        """The page (HTML, embedded HTML or JSON): the one kept for this version, else built now."""
        return await self.files.get(found.etag(kind), lambda: self._build(found, kind))

    # --- inside ------------------------------------------------------------------------------------
    async def _version(self, session: AsyncSession, league: LeagueSettings, league_id: int,
                       names: str | None) -> str:
        now = self.clock.now()
        games = tuple((await session.execute(select(
            func.count(), func.coalesce(func.sum(Game.id), 0), func.coalesce(func.sum(Game.sequence), 0),
            func.max(Game.revised_at), func.coalesce(func.sum(case((Game.starts_at <= now, 1), else_=0)), 0))
            .where(Game.league_id == league_id))).one())
        brackets = (await session.execute(select(PlayoffBracket.division, PlayoffBracket.seeds,
                                                  PlayoffBracket.winners)
                                           .where(PlayoffBracket.league_id == league_id)
                                           .order_by(PlayoffBracket.division))).all()
        rosters = tuple((await session.execute(select(
            func.count(), func.coalesce(func.max(RosterEntry.id), 0), func.coalesce(func.sum(RosterEntry.team_id), 0))
            .where(RosterEntry.league_id == league_id))).one())
        seasons = [(s.id, s.name, s.starts_at, s.ended_at) for s in await league_seasons(session, league_id)]
        version: tuple[Any, ...] = (
            page.FORMAT, league.name, league.timezone.key, league.rules.standings, names,
            self.settings.calendar_server is not None,
            tuple((await session.execute(INPUTS_VERSION, {"league_id": league_id})).one()),
            await StatsService.version(session, league_id), games,
            [(d, s, sorted((w or {}).items())) for d, s, w in brackets], rosters, seasons)
        return hashlib.sha256(repr(version).encode()).hexdigest()[:32]

    async def _build(self, found: Page, kind: Kind) -> bytes:
        """Read what the page shows (the database's work, awaited), then write it in a thread."""
        # The writer, with html's entity table, only where a page is asked for: most leagues publish none.
        from bot.services.league_page.render import page_html, page_json

        data = await self._data(found)
        if kind == "json":
            return await self.files.build(page_json, data)
        return await self.files.build(page_html, data, embed=kind == "embed")

    async def _data(self, found: Page) -> page.PageData:
        league, league_id = found.league, found.league_id
        now = self.clock.now()
        async with self.sessions() as session:
            table = await load_table(session, league, league_id, now)
            upcoming = await self._upcoming(session, league, league_id)
            results = await self._results(session, league, league_id)
            brackets = tuple(_bracket(row) for row in await bracket_rows(session, league_id))
            managed = set((await session.scalars(select(Player.id).where(
                Player.league_id == league_id, Player.discord_id.is_(None)))).all())
        views = await self.stats.boards(league, league_id, CATEGORIES)
        boards = tuple(page.Board(v.board.category, CATEGORY_WORDS[v.board.category], tuple(
            page.Leader(r.place, page_name(r.tally.name, managed=r.tally.player_id in managed, choice=found.names),
                        v.teams.get(r.tally.player_id), r.tally.value) for r in v.board.rows),
            v.board.more_level) for v in views)
        return page.PageData(
            league=league.name, season=table.season, timezone=league.timezone.key, divisions=_divisions(table),
            order_text=table.order_text, forfeit_text=table.forfeit_text, upcoming=upcoming, results=results,
            brackets=brackets, boards=boards,
            calendar="calendar.ics" if self.settings.calendar_server is not None else None)

    async def _upcoming(self, session: AsyncSession, league: LeagueSettings,
                        league_id: int) -> tuple[page.GameLine, ...]:
        home, away = aliased(Team), aliased(Team)
        rows = (await session.execute(
            select(Game.code, Game.starts_at, home.name, away.name, Game.venue, Game.kind, Game.status)
            .join(home, Game.home_team_id == home.id).join(away, Game.away_team_id == away.id)
            .where(Game.league_id == league_id, Game.starts_at > self.clock.now(), Game.status != "final")
            .order_by(Game.starts_at, Game.id).limit(page.UPCOMING))).all()
        tz = league.timezone
        return tuple(page.GameLine(code, starts.astimezone(tz), h, a, venue, kind, status == "cancelled")
                     for code, starts, h, a, venue, kind, status in rows)

    @staticmethod
    async def _results(session: AsyncSession, league: LeagueSettings,
                       league_id: int) -> tuple[page.ResultLine, ...]:
        home, away, forfeit = aliased(Team), aliased(Team), aliased(Team)
        rows = (await session.execute(
            select(Game.code, Game.starts_at, home.name, away.name, Result.home_score, Result.away_score,
                   Result.decided, forfeit.name, Result.shootout_home, Result.shootout_away)
            .select_from(Result).join(Game, Result.game_id == Game.id)
            .join(home, Game.home_team_id == home.id).join(away, Game.away_team_id == away.id)
            .outerjoin(forfeit, Result.forfeit_team_id == forfeit.id)
            .where(Result.league_id == league_id, Game.status == "final")
            .order_by(Game.starts_at.desc(), Game.id.desc()).limit(page.RECENT))).all()
        tz = league.timezone
        return tuple(page.ResultLine(code, starts.astimezone(tz), h, a, hs, as_, decided, ff,
                                     (so_h, so_a) if so_h is not None and so_a is not None else None)
                     for code, starts, h, a, hs, as_, decided, ff, so_h, so_a in rows)


def _pct(row: StandingsRow, table: StandingsTable) -> str | None:
    primary = table.rules.standings_tiebreakers[0]
    if primary == "win_pct":
        value = row.win_pct
    elif primary == "points_pct":
        available = row.gp * table.rules.points_win
        value = row.pts / available if available else 0.0
    else:
        return None
    return f"{value:.3f}".removeprefix("0")


def _divisions(table: StandingsTable) -> tuple[page.DivisionTable, ...]:
    otl = table.rules.points_otl is not None
    return tuple(page.DivisionTable(division, tuple(
        page.TeamLine(r.rank, r.team, r.gp, r.w, r.l, r.t, r.otl if otl else None, r.gf, r.ga, r.pts,
                      _pct(r, table), r.tiebreak == TEAM_NAME_FALLBACK and r.gp > 0)
        for r in table.division_rows(division))) for division in table.divisions)


def _bracket(row: PlayoffBracket) -> page.BracketLine:
    bracket = rebuild(row)
    games = {mid: e.get("game") for mid, e in (row.winners or {}).items() if e}

    def side(entrant: Any) -> page.Side | None:
        return None if entrant is None else page.Side(entrant.seed, entrant.team)

    rounds = tuple(page.RoundLine(bracket.round_name(i + 1), tuple(
        page.MatchupLine(m.matchup_id, side(m.top), side(m.bottom), m.top_from, m.bottom_from,
                         m.winner.team if m.winner else None, games.get(m.matchup_id)) for m in matchups))
        for i, matchups in enumerate(bracket.rounds))
    return page.BracketLine(row.division, rounds, tuple(page.Side(b.seed, b.team) for b in bracket.byes),
                            bracket.champion)
