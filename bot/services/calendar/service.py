"""Calendar feeds: which games a person's link shows, and the links themselves.

``/calendar show`` gives the caller their own games (their roster team's, minus the stretches they
are away), a team's, or the whole league's, as an .ics file and a link they can subscribe to; the
link's token belongs to the caller and ``/calendar reset`` revokes every one of theirs and issues
new ones. Schedules are public in a league (``/schedule team:`` works for everyone), so any member
may take any team's or the league's feed; a player's own feed is only ever theirs.

A token is ``<selector>.<verifier>`` (both ``secrets.token_urlsafe``): the feed server finds the row
by its selector and compares the verifier with ``hmac.compare_digest``, also when no row matched,
so the time an answer takes doesn't tell a guesser how close a secret was (storage/models/calendar.py).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from sqlalchemy import ColumnElement, delete, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.access import Caller
from bot.clock import Clock
from bot.config.settings import LeagueSettings, Settings
from bot.errors import NotFound
from bot.league.calendar import Away, CalendarGame, player_games
from bot.services.calendar.feed import FORMAT, FeedLeague, build_feed
from bot.services.calendar.files import FeedFiles
from bot.services.people import membership, own_team_id, resolve_team_ref
from storage import lookups
from storage.db import retried_on_disconnect
from storage.models import CalendarFeed, Game, League

#: A token as links carry it, the whole of it (``fullmatch``: ``$`` would let a trailing newline through);
#: anything else is unknown without a query.
TOKEN = re.compile(r"([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]{43})")
_DUMMY_VERIFIER = secrets.token_urlsafe(32)
#: Games read from the database at a time, between which the event loop runs.
READ_AT_ONCE = 500

#: Stretches a player is away (``/away``): (session, league id, player id)
#: -> their stretches (bot/services/availability/away.py). None: nobody is away.
AwayReader = Callable[[AsyncSession, int, int], Awaitable[Sequence[Away]]]


@dataclass(frozen=True)
class Feed:
    """What one link shows as of now, and its validator, without the file itself (`CalendarService.body`).

    ``etag`` names everything the file is made of: the league's name, time zone and game format, the
    feed's title, the player's away stretches, and a version of its games read in one aggregate (their
    count, ids, summed SEQUENCE and latest revision): every change a calendar must pick up raises a
    game's SEQUENCE and revision time (bot/services/games.py ``revise``, the games import), and a
    new game adds to the count. So a calendar asking again is answered 304 from that one read."""

    scope: str  # player | team | league
    title: str
    filename: str
    token: str
    etag: str
    league: FeedLeague
    league_id: int
    team_id: int | None  # whose games: this team's, or (None) the league's; a player on no team has none
    away: tuple[Away, ...] = ()  # a player's feed leaves out the games in these stretches


@dataclass(frozen=True)
class FeedFile:
    """One feed, ready to attach; ``token`` is the secret of the caller's link (show it privately)."""

    scope: str  # player | team | league
    title: str
    filename: str
    body: bytes
    token: str


@dataclass(frozen=True)
class Reset:
    revoked: int
    reissued: tuple[FeedFile, ...]


@dataclass(frozen=True)
class _Scope:
    kind: str
    team_id: int | None
    team_name: str | None


def new_token() -> tuple[str, str]:
    """A fresh (selector, verifier): 96 and 256 random bits."""
    return secrets.token_urlsafe(12), secrets.token_urlsafe(32)


def feed_league(league: LeagueSettings) -> FeedLeague:
    return FeedLeague(league.key, league.name, league.timezone, league.rules)


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40] or "team"


@retried_on_disconnect
class CalendarService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock, settings: Settings,
                 away: AwayReader | None = None) -> None:
        self.sessions = sessions
        self.clock = clock
        self.settings = settings
        self.away = away
        self.files = FeedFiles()

    async def show(self, caller: Caller, team: str | None = None, whole_league: bool = False) -> FeedFile:
        """The caller's feed (their games, a team's, or the league's) and their link to it."""
        async with self.sessions.begin() as session:
            scope = await self._scope(session, caller, team, whole_league)
            same_team = (CalendarFeed.team_id.is_(None) if scope.team_id is None
                         else CalendarFeed.team_id == scope.team_id)
            row = await session.scalar(select(CalendarFeed).where(
                CalendarFeed.league_id == caller.league_id, CalendarFeed.owner_discord_id == caller.discord_id,
                CalendarFeed.scope == scope.kind, same_team).order_by(CalendarFeed.id).limit(1))
            if row is None:
                row = await self._issue(session, caller, scope.kind, scope.team_id)
            feed = await self._feed(session, caller.league, row)
        return await self._file(feed)  # built once the write lock is let go

    async def reset(self, caller: Caller) -> Reset:
        """Revoke every link the caller has in this league, and issue each of them anew."""
        async with self.sessions.begin() as session:
            rows = (await session.scalars(select(CalendarFeed).where(
                CalendarFeed.league_id == caller.league_id, CalendarFeed.owner_discord_id == caller.discord_id)
                .order_by(CalendarFeed.id))).all()
            kept = sorted({(r.scope, r.team_id) for r in rows}, key=lambda s: (s[0], s[1] or 0))
            await session.execute(delete(CalendarFeed).where(
                CalendarFeed.league_id == caller.league_id, CalendarFeed.owner_discord_id == caller.discord_id))
            feeds = [await self._feed(session, caller.league, await self._issue(session, caller, kind, team_id))
                     for kind, team_id in kept]
        return Reset(len(rows), tuple([await self._file(feed) for feed in feeds]))

    async def by_token(self, token: str) -> Feed | None:
        """The feed a link names, or None for a token that is unknown, revoked or malformed."""
        match = TOKEN.fullmatch(token)
        if match is None:
            return None
        selector, verifier = match.groups()
        async with self.sessions() as session:
            found = (await session.execute(
                select(CalendarFeed, League.guild_id).join(League, League.id == CalendarFeed.league_id)
                .where(CalendarFeed.selector == selector))).first()
            stored = found[0].verifier if found is not None else _DUMMY_VERIFIER
            valid = hmac.compare_digest(stored.encode(), verifier.encode())
            if found is None or not valid:
                return None
            league = self.settings.league_for_guild(found[1])
            if league is None:  # the league left the config
                return None
            return await self._feed(session, league, found[0])

    async def body(self, feed: Feed) -> bytes:
        """The file: the one kept for this version, else built off the event loop (bot/services/calendar/files.py)."""
        return await self.files.get(feed.etag, lambda: self._build(feed))

    async def league_feed(self, league: LeagueSettings, league_id: int) -> Feed:
        """Every game of the league, for the public league page's subscription link: the page's address
        is the secret, so the feed has no token of its own and goes when the page does."""
        async with self.sessions() as session:
            return await self._versioned(session, league, "league", league.name, self._filename(league, None), "",
                                         league_id, None)

    async def export(self, league: LeagueSettings, team: str | None = None) -> tuple[str, bytes]:
        """A team's or the league's feed for ``sideline calendar export``: (file name, contents)."""
        async with self.sessions() as session:
            league_id = await session.scalar(select(League.id).where(League.key == league.key))
            if league_id is None:
                raise NotFound(f"League {league.key!r} has nothing stored yet.")
            team_id = None
            if team is not None:
                ref = await lookups.team_ref_by_name(session, league_id, team)
                if ref is None:
                    raise NotFound(f"There's no team called {team!r} in {league.name}.")
                team_id, team = ref.id, ref.name
            title = f"{team} · {league.name}" if team else league.name
            feed = await self._versioned(session, league, "team" if team_id else "league", title,
                                         self._filename(league, team), "", league_id, team_id)
        return feed.filename, await self.body(feed)

    # --- inside ------------------------------------------------------------------------------------
    @staticmethod
    async def _scope(session: AsyncSession, caller: Caller, team: str | None, whole_league: bool) -> _Scope:
        if whole_league:
            return _Scope("league", None, None)
        member = await membership(session, caller)
        if team:
            ref = await resolve_team_ref(session, caller, team, member)
            return _Scope("team", ref.id, ref.name)
        if member.team_id is not None:
            return _Scope("player", None, None)
        if own_team_id(member) is None:
            raise NotFound("You're not on a team in this league, so you have no games of your own. "
                           "Pick a team with `team:`, or take the whole league's with `league: True`.")
        ref = await resolve_team_ref(session, caller, None, member)  # the one team they captain
        return _Scope("team", ref.id, ref.name)

    @staticmethod
    async def _issue(session: AsyncSession, caller: Caller, kind: str, team_id: int | None) -> CalendarFeed:
        selector, verifier = new_token()
        row = CalendarFeed(league_id=caller.league_id, owner_discord_id=caller.discord_id, scope=kind,
                           team_id=team_id, selector=selector, verifier=verifier)
        session.add(row)
        await session.flush()
        return row

    async def _feed(self, session: AsyncSession, league: LeagueSettings, row: CalendarFeed) -> Feed:
        """What one link shows, as of now: a player's team is looked up afresh (trades, removals)."""
        token = f"{row.selector}.{row.verifier}"
        if row.scope == "league":
            return await self._versioned(session, league, "league", league.name, self._filename(league, None),
                                         token, row.league_id, None)
        if row.scope == "team":
            assert row.team_id is not None
            ref = await lookups.team_ref_by_id(session, row.league_id, row.team_id)
            name = ref.name if ref is not None else "team"
            return await self._versioned(session, league, "team", f"{name} · {league.name}",
                                         self._filename(league, name), token, row.league_id, row.team_id)
        team_id, player_id, _ = await lookups.roster_place_and_captained(session, row.league_id, row.owner_discord_id)
        away: tuple[Away, ...] = ()
        if team_id is None or player_id is None:
            team_id = None
        elif self.away is not None:
            away = tuple(await self.away(session, row.league_id, player_id))
        return await self._versioned(session, league, "player", f"My games · {league.name}",
                                     f"sideline-{slug(league.key)}-my-games.ics", token, row.league_id, team_id,
                                     away)

    @staticmethod
    async def _versioned(session: AsyncSession, league: LeagueSettings, scope: str, title: str, filename: str,
                         token: str, league_id: int, team_id: int | None, away: tuple[Away, ...] = ()) -> Feed:
        """The feed with its validator (see `Feed`): one aggregate over its games, no game read."""
        shows = feed_league(league)
        games: tuple[object, ...] = ()
        if _has_games(scope, team_id):
            games = tuple((await session.execute(select(
                func.count(), func.coalesce(func.sum(Game.id), 0), func.coalesce(func.sum(Game.sequence), 0),
                func.max(Game.revised_at)).where(*_games_of(league_id, team_id)))).one())
        version = (FORMAT, scope, title, shows.key, shows.name, shows.timezone.key,
                   shows.rules.game_format, games, away)
        etag = '"' + hashlib.sha256(repr(version).encode()).hexdigest()[:32] + '"'
        return Feed(scope, title, filename, token, etag, shows, league_id, team_id, away)

    async def _file(self, feed: Feed) -> FeedFile:
        return FeedFile(feed.scope, feed.title, feed.filename, await self.body(feed), feed.token)

    async def _build(self, feed: Feed) -> bytes:
        """Read the feed's games (the database's work, awaited), then write the file in a thread."""
        games: list[CalendarGame] = []
        if _has_games(feed.scope, feed.team_id):
            async with self.sessions() as session:
                games = await self._games(session, feed.league_id, feed.team_id)
        return await self.files.build(build_feed, feed.league, feed.title, player_games(games, feed.away))

    @staticmethod
    def _filename(league: LeagueSettings, team: str | None) -> str:
        return f"sideline-{slug(league.key)}{'-' + slug(team) if team else ''}.ics"

    @staticmethod
    async def _games(session: AsyncSession, league_id: int, team_id: int | None) -> list[CalendarGame]:
        home, away = lookups.teams_as("home", "away")
        query = (select(Game.id, Game.code, home.c.name, away.c.name, Game.starts_at, Game.venue, Game.kind,
                        Game.status, Game.sequence, Game.revised_at)
                 .join(home, Game.home_team_id == home.c.id).join(away, Game.away_team_id == away.c.id)
                 .where(*_games_of(league_id, team_id)))
        # A few hundred rows at a time: 20,000 made into objects at once held the event loop 0.5 s.
        games: list[CalendarGame] = []
        async for rows in (await session.stream(query.order_by(Game.starts_at, Game.id))).partitions(READ_AT_ONCE):
            games += [CalendarGame(*row) for row in rows]
        return games


def _has_games(scope: str, team_id: int | None) -> bool:
    """A player on no team's roster has no games to read."""
    return scope != "player" or team_id is not None


def _games_of(league_id: int, team_id: int | None) -> tuple[ColumnElement[bool], ...]:
    """A league's games, or one team's."""
    if team_id is None:
        return (Game.league_id == league_id,)
    return (Game.league_id == league_id, or_(Game.home_team_id == team_id, Game.away_team_id == team_id))
