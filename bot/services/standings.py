"""The league table from stored results, the standings message kept up to date, point adjustments.

The numbers come from the pure engine (bot/league/standings/) with the league's preset; this module
only loads results from storage, renders a phone-friendly monospace table and remembers which
Discord message shows it, so that the message is edited in place after every result.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
import weakref
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Literal, Protocol

from sqlalchemy import String, bindparam, func, literal_column, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm import aliased

from bot.access import Caller, Role
from bot.clock import Clock
from bot.config.settings import LeagueSettings
from bot.discord_text import clean_user_text, quote
from bot.errors import Conflict, InvalidInput, NotFound
from bot.league.standings.presets import TEAM_NAME_FALLBACK, TIEBREAKERS, StandingsRules
from bot.league.standings.table import GameResult, PointAdjustment, StandingsRow, compute_standings, forfeit_note
from bot.services import outbox
from bot.services.outbox import Outgoing
from bot.services.shared.seasons import WHOLE_HISTORY, SeasonRange, season_range
from storage import lookups
from storage.db import retried_on_disconnect
from storage.models import (
    Division,
    Game,
    League,
    PlayoffDisqualification,
    Result,
    ResultChange,
    StandingsAdjustment,
    StandingsPost,
    Team,
)
from storage.text import printable

log = logging.getLogger("sideline.standings")

#: Columns of a team name in the monospace table: with the other columns, a line fits a phone.
NAME_WIDTH = 12
MAX_ADJUSTMENT = 99
#: A new standings message falls due this late: the publishing call sends it at once itself.
SEND_IT_MYSELF = timedelta(seconds=15)


@dataclass(frozen=True)
class StandingsTable:
    """One league's table (or one division of it), rows in table order, division by division."""

    league_key: str
    league_name: str
    rules: StandingsRules
    rows: tuple[StandingsRow, ...]
    games_counted: int
    generated_at: datetime
    #: Rendered divisions, shared by every table served from one cached computation (load_table).
    _rendered: dict[str, str] = field(default_factory=dict, compare=False, repr=False)
    #: The season the table counts (None: the league has no seasons, every game counts).
    season: str | None = None

    @property
    def divisions(self) -> tuple[str, ...]:
        """Division names in table order ("" for teams without a division)."""
        return tuple(dict.fromkeys(row.division for row in self.rows))

    def division_rows(self, division: str) -> tuple[StandingsRow, ...]:
        return tuple(row for row in self.rows if row.division == division)

    def rendered_rows(self, division: str) -> str:
        """``render_rows`` for one division, rendered once per computed table, not per /standings."""
        text = self._rendered.get(division)
        if text is None:
            text = self._rendered[division] = render_rows(self.division_rows(division), self.rules)
        return text

    @property
    def order_text(self) -> str:
        """How the table is ordered, in words: the preset's criteria."""
        return "Order: " + ", then ".join(TIEBREAKERS[c] for c in self.rules.standings_tiebreakers) + "."

    @property
    def forfeit_text(self) -> str:
        """How the table counts forfeits, with the rule; "" while no forfeit is in it."""
        if not any(row.forfeits for row in self.rows):
            return ""
        return forfeit_note(self.rules)

    @property
    def unsettled(self) -> tuple[StandingsRow, ...]:
        """Rows level with another team on every criterion (placed by name until a commissioner decides)."""
        return tuple(row for row in self.rows if row.tiebreak == TEAM_NAME_FALLBACK and row.gp > 0)

    def json_rows(self) -> list[dict[str, Any]]:
        """The rows for scripts (`sideline standings --json`), best first within each division."""
        return [
            {"rank": r.rank, "team": r.team, "division": r.division or None, "gp": r.gp, "w": r.w, "l": r.l,
             "t": r.t, "otl": r.otl, "pts": r.pts, "gf": r.gf, "ga": r.ga, "so_gf": r.so_gf, "so_ga": r.so_ga,
             "forfeits": r.forfeits, "adjustment": r.adjustment, "tiebreak": r.tiebreak}
            for r in self.rows
        ]


@dataclass(frozen=True)
class AdjustmentMade:
    team: str
    points: int  # 0 when only disqualified
    reason: str
    team_total: int  # the team's net adjustment after this one
    disqualified: bool = False  # left out of the playoff draw by this adjustment


@dataclass(frozen=True)
class Publication:
    """What became of the standings message."""

    outcome: Literal["posted", "edited", "reposted", "queued", "failed", "no-channel"]
    channel_id: int | None = None
    message_id: int | None = None


class StandingsPoster(Protocol):
    """Shows the standings message on Discord (the cog implements it; tests may fake it)."""

    def message(self, table: StandingsTable) -> Outgoing:
        """The standings message as it will be posted."""

    async def deliver(self, send_key: str) -> None:
        """Send the queued message named by ``send_key`` now, unless another process is sending it."""

    async def edit(self, channel_id: int, message_id: int, table: StandingsTable) -> bool:
        """Edit the message in place; False when it no longer exists (deleted)."""


# --- loading ------------------------------------------------------------------------------------
async def league_row_id(session: AsyncSession, league: LeagueSettings) -> int | None:
    return await session.scalar(select(League.id).where(League.key == league.key))


async def team_divisions(session: AsyncSession, league_id: int) -> dict[str, str]:
    """Team name -> division name ("" without one), ordered by division then team name."""
    rows = (await session.execute(
        select(Team.name, Division.name).outerjoin(Division, Team.division_id == Division.id)
        .where(Team.league_id == league_id)
    )).all()
    ordered = sorted(rows, key=lambda r: (r[1] is None, (r[1] or "").casefold(), r[0].casefold(), r[0]))
    return {team: division or "" for team, division in ordered}


async def game_results(session: AsyncSession, league_id: int,
                       season: SeasonRange = WHOLE_HISTORY) -> list[GameResult]:
    """Every counted result of the season as plain rows: one flat query, no ORM objects."""
    home, away, forfeit = aliased(Team), aliased(Team), aliased(Team)
    query = (
        select(Game.code, home.name, away.name, Result.home_score, Result.away_score, Result.decided,
               Result.shootout_home, Result.shootout_away, forfeit.name, Result.penalty_waived, Game.kind)
        .select_from(Result)
        .join(Game, Result.game_id == Game.id)
        .join(home, Game.home_team_id == home.id)
        .join(away, Game.away_team_id == away.id)
        .outerjoin(forfeit, Result.forfeit_team_id == forfeit.id)
        .where(Result.league_id == league_id, Game.status == "final").order_by(Game.starts_at, Game.id)
    )
    if season.starts_at is not None:
        query = query.where(Game.starts_at >= season.starts_at)
    if season.ends_at is not None:
        query = query.where(Game.starts_at < season.ends_at)
    rows = (await session.execute(query)).all()
    return [
        GameResult(game_id=code, home=h, away=a, home_goals=hs, away_goals=as_, decided=decided,
                   shootout_home=so_h, shootout_away=so_a, forfeit_team=ff,
                   penalty_waived=bool(waived) if decided == "forfeit" else False, kind=kind)
        for code, h, a, hs, as_, decided, so_h, so_a, ff, waived, kind in rows
    ]


async def point_adjustments(session: AsyncSession, league_id: int,
                            season: SeasonRange = WHOLE_HISTORY) -> list[PointAdjustment]:
    """The adjustments made during the season (they belong to the season they were made in)."""
    rows = (await session.scalars(
        select(StandingsAdjustment).where(StandingsAdjustment.league_id == league_id)
        .order_by(StandingsAdjustment.id)
    )).all()
    return [PointAdjustment(team=a.team.name, points=a.points, reason=a.reason) for a in rows
            if season.holds(a.made_at)]


# What the table is computed from, in one cheap query (the public league page's validator reads it
# too: bot/services/league_page/service.py): every result write is audited in
# result_changes (results.record), a played game's teams and kind never change (/game and the
# importer refuse), adjustments are only ever added, a deleted game takes its result and audit
# rows with it, and the teams (names and divisions) are folded into one string.
# The record separator is SQL text, not a bound value: the statement carries no values of its own.
_RECORD_SEPARATOR = literal_column("'\x1e'", String)
_TEAMS_AND_DIVISIONS = (
    select(func.aggregate_strings(Team.name + "\x1f" + func.coalesce(Division.name, ""),
                                  _RECORD_SEPARATOR))  # type: ignore[arg-type]  # SQLAlchemy types it as str only
    .select_from(Team).outerjoin(Division, Team.division_id == Division.id)
    .where(Team.league_id == bindparam("league_id")).scalar_subquery()
)
INPUTS_VERSION = select(_TEAMS_AND_DIVISIONS, *(
    select(aggregate).where(column == bindparam("league_id")).scalar_subquery()
    for aggregate, column in (
        (func.count(ResultChange.id), ResultChange.league_id), (func.max(ResultChange.id), ResultChange.league_id),
        (func.count(Result.id), Result.league_id), (func.max(Result.id), Result.league_id),
        (func.count(StandingsAdjustment.id), StandingsAdjustment.league_id),
        (func.max(StandingsAdjustment.id), StandingsAdjustment.league_id),
    )
))


@dataclass(frozen=True)
class _Computed:
    inputs: tuple[Any, ...]
    rules: StandingsRules
    rows: tuple[StandingsRow, ...]
    counted: int
    rendered: dict[str, str] = field(default_factory=dict)


#: The last table computed per (database, league): /standings is asked far more often than results change.
_computed: weakref.WeakKeyDictionary[Any, dict[tuple[int, SeasonRange], _Computed]] = weakref.WeakKeyDictionary()


async def load_table(session: AsyncSession, league: LeagueSettings, league_id: int | None,
                     now: datetime, season: str | None = None) -> StandingsTable:
    """The whole league's table by the league's preset (plus its config overrides), for the named
    season or else the current one.

    Recomputed only when its inputs changed since the last call on this database (any process's
    writes count: the check reads the database, not a flag in memory). A changed order of the
    teams string only costs a recomputation.
    """
    rules = league.rules.standings
    if league_id is None:  # the league has never been used: no teams yet
        return StandingsTable(league.key, league.name, rules, (), 0, now)
    span = await season_range(session, league_id, season)
    inputs = tuple((await session.execute(INPUTS_VERSION, {"league_id": league_id})).one())
    cache = _computed.setdefault(session.get_bind(), {})
    hit = cache.get((league_id, span))
    if hit is None or hit.inputs != inputs or hit.rules != rules:
        teams = await team_divisions(session, league_id)
        results = await game_results(session, league_id, span)
        adjustments = await point_adjustments(session, league_id, span)
        rows = tuple(compute_standings(rules, teams, results, adjustments))
        counted = sum(1 for r in results if r.kind in rules.standings_counted_kinds)
        hit = cache[(league_id, span)] = _Computed(inputs, rules, rows, counted)
    return StandingsTable(league.key, league.name, rules, hit.rows, hit.counted, now, hit.rendered, span.name)


def only_division(table: StandingsTable, division: str | None) -> StandingsTable:
    """The table cut to one division (named case-insensitively), or NotFound naming the divisions."""
    if not division or not division.strip():
        return table
    wanted = division.strip().casefold()
    match = next((d for d in table.divisions if d and d.casefold() == wanted), None)
    if match is None:
        known = ", ".join(d for d in table.divisions if d) or "none"
        raise NotFound(f"There's no division “{quote(division)}” in {table.league_name} (divisions: {known}).")
    return StandingsTable(table.league_key, table.league_name, table.rules, table.division_rows(match),
                          table.games_counted, table.generated_at, table._rendered, table.season)


# --- rendering ------------------------------------------------------------------------------------
def primary_column(rules: StandingsRules) -> tuple[str, int]:
    """The last column shows what orders the table: points, or the winning percentage."""
    primary = rules.standings_tiebreakers[0]
    return ("PCT", 5) if primary in ("win_pct", "points_pct") else ("PTS", 3)


def primary_value(row: StandingsRow, rules: StandingsRules) -> str:
    primary = rules.standings_tiebreakers[0]
    if primary == "win_pct":
        value = row.win_pct
    elif primary == "points_pct":
        available = row.gp * rules.points_win
        value = row.pts / available if available else 0.0
    else:
        return str(row.pts)
    return f"{value:.3f}".removeprefix("0") if value < 1 else f"{value:.3f}"[:5]


def trim_name(name: str, width: int = NAME_WIDTH) -> str:
    """A team name cut to the column (a code block must not be closed by a name's backticks)."""
    name = name.replace("`", "'")
    return name if len(name) <= width else name[: width - 1] + "…"


def render_rows(rows: Sequence[StandingsRow], rules: StandingsRules, name_width: int = NAME_WIDTH) -> str:
    """Narrow monospace lines: # Team GP W L T [GF] PTS (PCT when the table is ordered by record).

    A ``*`` after a name marks a team level with another on every criterion (see StandingsTable.unsettled).
    """
    label, width = primary_column(rules)
    otl = rules.points_otl is not None
    # Goals for, where they order the table (co-ed: "by record, followed by total goals scored").
    gf = "goals_for" in rules.standings_tiebreakers
    if gf:
        name_width -= 2  # the column takes 3 characters: the lines stay as narrow as a phone's code block
    header = (f"{'#':>2} {'Team':<{name_width}} GP  W  L  T" + (" OT" if otl else "") + (" GF" if gf else "")
              + f" {label:>{width}}")
    lines = [header]
    for row in rows:
        marked = row.tiebreak == TEAM_NAME_FALLBACK and row.gp > 0
        name = trim_name(row.team, name_width - 1) + "*" if marked else trim_name(row.team, name_width)
        line = f"{row.rank:>2} {name:<{name_width}} {row.gp:>2} {row.w:>2} {row.l:>2} {row.t:>2}"
        if otl:
            line += f" {row.otl:>2}"
        if gf:
            line += f" {min(row.gf, 99):>2}" if row.gf < 100 else f"{row.gf:>3}"
        lines.append(f"{line} {primary_value(row, rules):>{width}}")
    return "\n".join(lines)


def render_text(table: StandingsTable) -> str:
    """The table as plain text (the CLI's human output): a heading per division."""
    if not table.rows:
        return f"{table.league_name}: no teams yet."
    parts = []
    for division in table.divisions:
        if division:
            parts.append(division)
        parts.append(table.rendered_rows(division))
        parts.append("")
    parts.append(table.order_text)
    if table.forfeit_text:
        parts.append(table.forfeit_text)
    if table.unsettled:
        parts.append("* level on every criterion: placed by name until the commissioners decide.")
    return "\n".join(parts)


# --- use cases ------------------------------------------------------------------------------------
@dataclass
class _Locks:
    by_league: dict[int, asyncio.Lock] = field(default_factory=dict)

    def get(self, league_id: int) -> asyncio.Lock:
        return self.by_league.setdefault(league_id, asyncio.Lock())


@retried_on_disconnect
class StandingsService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock) -> None:
        self.sessions = sessions
        self.clock = clock
        self._locks = _Locks()

    async def table(self, caller: Caller, division: str | None = None, season: str | None = None) -> StandingsTable:
        """Everyone may see the table: the current season's, or an earlier one's by name."""
        async with self.sessions() as session:
            table = await load_table(session, caller.league, caller.league_id, self.clock.now(), season)
        return only_division(table, division)

    async def league_table(self, league: LeagueSettings, division: str | None = None,
                           season: str | None = None) -> StandingsTable:
        """The table for the command line, by league key."""
        async with self.sessions() as session:
            league_id = await league_row_id(session, league)
            table = await load_table(session, league, league_id, self.clock.now(), season)
        return only_division(table, division)

    async def division_names(self, caller: Caller, text: str) -> list[str]:
        async with self.sessions() as session:
            names = (await session.scalars(
                select(Division.name).where(Division.league_id == caller.league_id).order_by(Division.name)
            )).all()
        needle = text.strip().casefold()
        return [n for n in names if needle in n.casefold()]

    async def adjust(self, caller: Caller, team_name: str, points: int | None, reason: str, *,
                     disqualify: bool = False) -> AdjustmentMade:
        """Commissioners add or remove standings points outside any game, or disqualify a team from the
        playoffs (youth rule 1.22); the preset bounds the points (youth: -1 or -2)."""
        caller.require(Role.COMMISSIONER)
        rules = caller.league.rules.standings
        if points is None and not disqualify:
            raise InvalidInput("Give the points to add or remove, or disqualify:True to leave the team out of "
                               "the playoffs.")
        if points is not None:
            if isinstance(points, bool) or not isinstance(points, int) or not 0 < abs(points) <= MAX_ADJUSTMENT:
                raise InvalidInput(f"Points must be a whole number from -{MAX_ADJUSTMENT} to {MAX_ADJUSTMENT}, "
                                   "not 0.")
            allowed = rules.standings_adjustment_points
            if allowed and points not in allowed:
                cite = rules.standings_citations.adjustment_points or "league setting standings_adjustment_points"
                raise InvalidInput(f"This league's rules allow only {' or '.join(f'{p:+d}' for p in allowed)} "
                                   f"points ({cite}).")
        why = clean_user_text(reason or "", 300)
        if not why:
            raise InvalidInput("Give a reason: it is shown with the adjustment.")
        now = self.clock.now()
        async with self.sessions.begin() as session:
            team = await lookups.team_by_name(session, caller.league_id, printable(team_name))
            if team is None:
                raise NotFound(f"There's no team called “{quote(team_name)}” in {caller.league.name}.")
            if points is not None:
                session.add(StandingsAdjustment(league_id=caller.league_id, team_id=team.id, points=points,
                                                reason=why, made_by=caller.discord_id, made_at=now))
            if disqualify:
                already = await session.scalar(select(PlayoffDisqualification.id).where(
                    PlayoffDisqualification.league_id == caller.league_id, PlayoffDisqualification.team_id == team.id))
                if already is not None and points is None:
                    raise Conflict(f"{team.name} is already disqualified from the playoffs.")
                if already is None:
                    session.add(PlayoffDisqualification(league_id=caller.league_id, team_id=team.id, reason=why,
                                                        made_by=caller.discord_id, made_at=now))
            await session.flush()
            total = await session.scalar(
                select(func.coalesce(func.sum(StandingsAdjustment.points), 0))
                .where(StandingsAdjustment.league_id == caller.league_id, StandingsAdjustment.team_id == team.id)
            )
            return AdjustmentMade(team.name, points or 0, why, int(total or 0), disqualified=disqualify)

    async def publish(self, league: LeagueSettings, league_id: int, poster: StandingsPoster) -> Publication:
        """Show the current table in the league's standings channel: edit the stored message in place,
        or post one (first time, a new channel, or the old message was deleted) and remember its id.

        A new message goes through the outbox, its send key saved with it before Discord is asked: a
        crash between posting and saving the id leaves a message the next publish adopts.
        Serialised per league, so two results entered together never post two messages.
        Run again on a lost connection only before a unit of work commits (storage/db.py): by then Discord
        was asked at most to edit the message in place, which asked again shows the same table.
        """
        channel_id = league.channels.standings
        if channel_id is None:
            return Publication("no-channel")
        async with self._locks.get(league_id):
            async with self.sessions() as session:
                table = await load_table(session, league, league_id, self.clock.now())
                post = await session.scalar(select(StandingsPost).where(StandingsPost.league_id == league_id))
                known = (post.channel_id, post.message_id, post.send_key) if post else None
            # Discord is called outside any transaction: no database lock is held while waiting on it.
            if known is not None and known[0] == channel_id:
                message_id, on_its_way = known[1], False
                if message_id is None and known[2] is not None:  # posted, or about to be, by an earlier call
                    message_id, on_its_way = await self._sent(league_id, known[2], poster)
                if message_id is not None:
                    if await poster.edit(channel_id, message_id, table):
                        await self._touch(league_id)
                        return Publication("edited", channel_id, message_id)
                    log.info("standings message %s in %s is gone; posting a new one", message_id, channel_id)
                elif on_its_way:
                    return Publication("queued", channel_id)
            key = await self._queue_post(league, league_id, channel_id, poster.message(table))
            message_id, on_its_way = await self._sent(league_id, key, poster)
            if message_id is None:
                return Publication("queued" if on_its_way else "failed", channel_id)
            return Publication("reposted" if known is not None else "posted", channel_id, message_id)

    async def _queue_post(self, league: LeagueSettings, league_id: int, channel_id: int, message: Outgoing) -> str:
        """Queue a new standings message and name it as the league's, in one unit of work."""
        now = self.clock.now()
        key = f"standings:{league_id}:{uuid.uuid4().hex[:16]}"
        async with self.sessions.begin() as session:
            # Due a little later: this call sends it itself; the courier only if this call never gets to.
            await outbox.enqueue(session, league_id=league_id, guild_id=league.guild_id, key=key,
                                 due_at=now + SEND_IT_MYSELF, message=message, channel_id=channel_id)
            post = await session.scalar(select(StandingsPost).where(StandingsPost.league_id == league_id))
            if post is None:
                session.add(StandingsPost(league_id=league_id, channel_id=channel_id, message_id=None,
                                          send_key=key, posted_at=now, updated_at=now))
            else:
                post.channel_id, post.message_id, post.send_key = channel_id, None, key
                post.posted_at = post.updated_at = now
        return key

    async def _sent(self, league_id: int, key: str, poster: StandingsPoster) -> tuple[int | None, bool]:
        """The id of the standings message queued as ``key``, sending it now if it is still queued;
        (None, True) while it is on its way, (None, False) if it will never be sent."""
        for attempt in range(2):
            async with self.sessions.begin() as session:
                row = await outbox.by_key(session, key)
                if row is None or row.status in ("failed", "skipped", "cancelled"):
                    return None, False
                if row.status == "sent" and row.message_id is not None:
                    post = await session.scalar(select(StandingsPost).where(
                        StandingsPost.league_id == league_id, StandingsPost.send_key == key))
                    if post is not None and post.message_id is None:
                        post.message_id = row.message_id
                    return row.message_id, False
            if attempt == 0:
                await poster.deliver(key)
        return None, True

    async def _touch(self, league_id: int) -> None:
        async with self.sessions.begin() as session:
            post = await session.scalar(select(StandingsPost).where(StandingsPost.league_id == league_id))
            if post is not None:
                post.updated_at = self.clock.now()
