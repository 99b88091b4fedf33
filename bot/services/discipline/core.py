"""Discipline's shared core: how suspensions are served, and who is suspended for a game.

The rules themselves are pure (bot/league/discipline/). This module counts suspensions down from
stored games and results. Other features reach it through ``Discipline``, which the composition root
(bot/composition.py) builds with every league's configured rules and hands to them:
- check-ins refuse, and lineups, shootouts and reminders exclude, suspended players
  (``Discipline`` is their ``SuspensionCheck``);
- results count suspensions down in each result's transaction (``Discipline.count_down``), whether
  entered in Discord or imported with ``sideline import results``.

Choices the spec leaves open, decided here:
- A suspension belongs to the person: it is served in the games, starting after it was issued, of the
  team the player is on when each is played (the roster's history: ``roster_departures`` plus the
  current roster entry), of any kind (regular, seeding, playoff) and across seasons (youth 1.20.1,
  1.20.2), never in the game it came from. Moved to another team, a player sits out the new team's
  games, and the old team's no longer count; check-ins and lineups refuse them on any team.
  A game counts as served once it has a result (a forfeit too); a cancelled game never counts.
- Several suspensions of one player add up: each is served in the team's games after the earlier
  ones' (consecutive games, youth 1.20.1). An overturned one takes no games.
- With ``suspensions_carry_into_playoffs`` off, a suspension issued before the team's playoffs ends
  when the team's first playoff game has a result (it is marked served). Likewise with
  ``suspensions_carry_into_next_season`` off, a suspension ends when the first game of a later season
  (storage/models/seasons.py: the season a game's date falls in) has a result; on (youth 1.20.2), its
  unserved games carry into the next season in which the player is on a team's roster (a season
  started with ``rosters:clear`` takes everyone off: nothing counts until they are added to a team).
- Served-ness is computed from games and results; ``Suspension.games_served`` and ``status`` are kept
  up to date by the result hook (and after appeal decisions) so that lists and exports can read them.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import ColumnElement, SQLColumnExpression, bindparam, exists, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.access import Caller
from bot.config.settings import LeagueSettings
from bot.discord_text import clean_user_text, clip, timestamp
from bot.errors import Conflict, UserFacingError
from bot.league.discipline import appeals as appeal_rules
from bot.league.discipline import suspensions as suspension_rules
from bot.league.discipline.infractions import DisciplineError
from bot.league.discipline.presets import DisciplineRules
from bot.league.rules import preset
from bot.league.seasons import season_index_at
from bot.services import outbox
from bot.services.deadlines.service import complete_deadline
from bot.services.outbox import Outgoing
from bot.services.shared.guardians import reach, whose
from storage.models import Appeal, Game, League, Penalty, Result, RosterDeparture, RosterEntry, Season, Suspension

log = logging.getLogger("sideline.discipline")

REASON_LIMIT = 1000


def window_ref(suspension_id: int) -> str:
    """The ``ref`` of a suspension's appeal-window deadline."""
    return f"suspension:{suspension_id}:appeal-window"


def decision_ref(appeal_id: int) -> str:
    """The ``ref`` of an appeal's decision deadline."""
    return f"appeal:{appeal_id}"


def refusal(exc: DisciplineError, kind: type[UserFacingError] = Conflict) -> UserFacingError:
    """A pure rule's refusal as a polite error, with its rule citation."""
    text = str(exc)
    return kind(f"{text} ({exc.citation})" if exc.citation else text)


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


# --- pure views of stored rows ----------------------------------------------------------------------
def pure_suspension(row: Suspension) -> suspension_rules.Suspension:
    return suspension_rules.Suspension(id=row.id, player_id=row.player_id, team_id=row.team_id, games=row.games,
                             issued_at=row.issued_at, reason=row.reason,
                             status=row.status)


def pure_appeal(row: Appeal) -> appeal_rules.Appeal:
    return appeal_rules.Appeal(id=row.id, suspension_id=row.suspension_id, filed_at=row.filed_at, reason=row.reason,
                         outcome=row.outcome, decided_at=row.decided_at)


async def appeals_of(session: AsyncSession, league_id: int, suspension_id: int) -> list[Appeal]:
    return list((await session.scalars(
        select(Appeal).where(Appeal.league_id == league_id, Appeal.suspension_id == suspension_id)
        .order_by(Appeal.number)
    )).all())


async def suspension_by_id(session: AsyncSession, league_id: int, suspension_id: int) -> Suspension | None:
    return await session.scalar(select(Suspension).where(Suspension.league_id == league_id,
                                                         Suspension.id == suspension_id))


# --- serving ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Serving:
    """Which of the team's games a suspension takes, and how many of them have a result."""

    suspension: Suspension
    games: tuple[Game, ...]  # the games it is served in, played or still to come (as scheduled now)
    served: int
    completed: frozenset[int] = frozenset()  # ids of its games that have a result
    lapsed: bool = False  # ended at the playoffs or at a new season (suspensions_carry_into_* off)

    @property
    def remaining(self) -> int:
        if self.lapsed:
            return 0
        return suspension_rules.games_remaining(pure_suspension(self.suspension), self.served)

    @property
    def game_ids(self) -> frozenset[int]:
        return frozenset(g.id for g in self.games)

    @property
    def still_to_serve(self) -> tuple[Game, ...]:
        """The scheduled games still ahead of it (fewer than ``remaining`` when not all are scheduled)."""
        return tuple(g for g in self.games if g.id not in self.completed)[: self.remaining]


async def roster_history(session: AsyncSession, league_id: int, player_id: int) -> suspension_rules.RosterHistory:
    """The teams a player left, and the one they are on now (with since when)."""
    departures = (await session.execute(
        select(RosterDeparture.team_id, RosterDeparture.left_at, RosterDeparture.joined_at)
        .where(RosterDeparture.league_id == league_id, RosterDeparture.player_id == player_id))).all()
    current = (await session.execute(
        select(RosterEntry.team_id, RosterEntry.added_at)
        .where(RosterEntry.league_id == league_id, RosterEntry.player_id == player_id))).first()
    return suspension_rules.RosterHistory(
        departures=tuple(suspension_rules.Departure(t, at, joined) for t, at, joined in departures),
        current_team_id=current.team_id if current else None,
        current_since=current.added_at if current else None)


async def serving_plan(session: AsyncSession, league_id: int, player_id: int,
                       rules: DisciplineRules) -> list[Serving]:
    """Every not-overturned suspension of a player with the games it is served in, oldest first.

    A suspension belongs to the person: each game counts when the player was on one of its teams
    when it was played (the team they are on now for games still to come), whichever team the
    suspension was issued on (youth 1.20.1).
    """
    rows = list((await session.scalars(
        select(Suspension).where(Suspension.league_id == league_id, Suspension.player_id == player_id,
                                 Suspension.status != "overturned")
        .order_by(Suspension.issued_at, Suspension.id)
        .execution_options(populate_existing=True)  # what is stored now, not what this unit read before
    )).all())
    if not rows:
        return []
    history = await roster_history(session, league_id, player_id)
    team_ids = {r.team_id for r in rows} | {d.team_id for d in history.departures}
    if history.current_team_id is not None:
        team_ids.add(history.current_team_id)
    earliest = min(r.issued_at for r in rows)
    games = list((await session.scalars(
        select(Game).where(Game.league_id == league_id, Game.status != "cancelled",
                           or_(Game.home_team_id.in_(team_ids), Game.away_team_id.in_(team_ids)),
                           Game.starts_at > earliest)
        .order_by(Game.starts_at, Game.id)
    )).unique().all())
    completed = set((await session.scalars(
        select(Result.game_id).where(Result.league_id == league_id, Result.game_id.in_([g.id for g in games]))
    )).all()) if games else set()
    season_starts = [] if rules.suspensions_carry_into_next_season else list((await session.scalars(
        select(Season.starts_at).where(Season.league_id == league_id).order_by(Season.starts_at))).all())
    consumed: set[int] = set()
    plan: list[Serving] = []
    for row in rows:
        source = row.penalty.game_id if row.penalty is not None else None
        pool = [g for g in games if g.starts_at > row.issued_at and g.id != source and g.id not in consumed
                and history.team_at(g.starts_at, issued_on=row.team_id) in g.team_ids()]
        lapsed = False
        if not rules.suspensions_carry_into_playoffs and not await _issued_in_playoffs(session, row):
            lapsed = any(g.kind == "playoff" and g.id in completed for g in pool)
            pool = [g for g in pool if g.kind != "playoff"]
        if season_starts:  # suspensions_carry_into_next_season off: the season it was issued in only
            issued_in = season_index_at(season_starts, row.issued_at)
            later = [g for g in pool if season_index_at(season_starts, g.starts_at) != issued_in]
            lapsed = lapsed or any(g.id in completed for g in later)
            pool = [g for g in pool if g not in later]
        taken = tuple(pool[: row.games])
        consumed.update(g.id for g in taken)
        served = sum(1 for g in taken if g.id in completed)
        plan.append(Serving(row, taken, served, frozenset(g.id for g in taken if g.id in completed),
                            lapsed=lapsed and served < row.games))
    return plan


async def _issued_in_playoffs(session: AsyncSession, row: Suspension) -> bool:
    found = await session.scalar(
        select(Game.id).where(Game.league_id == row.league_id, Game.kind == "playoff", Game.status != "cancelled",
                              or_(Game.home_team_id == row.team_id, Game.away_team_id == row.team_id),
                              Game.starts_at <= row.issued_at).limit(1))
    return found is not None


async def refresh_player(session: AsyncSession, league_id: int, player_id: int, rules: DisciplineRules, *,
                         now: datetime | None = None) -> list[Suspension]:
    """Store how far each of a player's suspensions is served; returns the ones that just ended.

    The player's suspension rows are locked first (PostgreSQL), so two results stored at once count
    one after the other: the second waits for the first to commit, then reads both results (each
    statement reads what is committed by then), and a game is served, and its notice queued (the
    outbox's send key), exactly once. SQLite's writers already take turns.
    """
    await session.execute(
        select(Suspension.id).where(Suspension.league_id == league_id, Suspension.player_id == player_id)
        .order_by(Suspension.id).with_for_update())
    ended: list[Suspension] = []
    counted: list[Serving] = []
    for serving in await serving_plan(session, league_id, player_id, rules):
        row = serving.suspension
        progressed = serving.served > row.games_served
        row.games_served = serving.served
        done = serving.remaining == 0
        if row.status == "active" and done:
            played = [g.starts_at for g in serving.games if g.id in serving.completed]
            row.status, row.ended_at = "served", max(played) if played else now
            ended.append(row)
        elif row.status == "served" and not done:
            row.status, row.ended_at = "active", None
        elif row.status == "active" and progressed:
            counted.append(serving)
    for serving in counted:
        await _tell_countdown(session, serving, now)
    for row in ended:
        await _tell_served(session, row, row.ended_at or now)
    return ended


def games_left_text(serving: Serving) -> str:
    """The games still to sit out, by code and time, and how many are not scheduled yet."""
    ahead = serving.still_to_serve
    named = ", ".join(f"{g.code} ({clean_user_text(g.home.name, 50)} vs {clean_user_text(g.away.name, 50)}, "
                      f"{timestamp(g.starts_at, 'f')})" for g in ahead)
    unscheduled = serving.remaining - len(ahead)
    if unscheduled > 0:
        more = f"{plural(unscheduled, 'game')} not scheduled yet"
        named = f"{named}, and {more}" if named else more
    return named


async def _tell_countdown(session: AsyncSession, serving: Serving, now: datetime | None) -> None:
    """Tell the player privately that one more game is served, and which games remain."""
    row = serving.suspension
    last = max((g.starts_at for g in serving.games if g.id in serving.completed), default=now)
    if last is None:
        return
    league = await session.get(League, row.league_id)
    if league is None:
        return
    for user, suffix in await _reach(session, row):
        await outbox.enqueue(
            session, league_id=row.league_id, guild_id=league.guild_id,
            key=f"suspension:{row.id}:served:{serving.served}{suffix}", due_at=last, user_id=user,
            message=Outgoing(content=f"⏳ Suspension #{row.id} in {clip(league.name, 100)}: {serving.served} of "
                                     f"{plural(row.games, 'game')} served. Still to sit out: "
                                     f"{games_left_text(serving)}."))


async def _reach(session: AsyncSession, row: Suspension) -> list[tuple[int, str]]:
    """(user, key suffix) for a DM about a suspension: the player, or each guardian of a player without
    a Discord account (their own key each)."""
    return [(u, "" if u == row.player.discord_id else f":{u}")
            for u in await reach(session, row.league_id, row.player)]


async def _tell_served(session: AsyncSession, row: Suspension, when: datetime | None) -> None:
    """Tell the player privately that they may play again, and close the appeal window."""
    if when is None:
        return
    league = await session.get(League, row.league_id)
    if league is None:
        return
    for user, suffix in await _reach(session, row):
        await outbox.enqueue(
            session, league_id=row.league_id, guild_id=league.guild_id, key=f"suspension:{row.id}:served{suffix}",
            due_at=when, user_id=user,
            message=Outgoing(content=f"✅ {whose(row.player)} suspension #{row.id} in {clip(league.name, 100)} is "
                                     f"served ({plural(row.games, 'game')}). "
                                     + ("You can check in for games again." if row.player.discord_id is not None
                                        else "They can be checked in for games again.")))
    await complete_deadline(session, row.league_id, window_ref(row.id), now=when, note="served")


# --- discipline as the other features see it ----------------------------------------------------
# Built once: every /checkin asks them, and building a statement costs more than running it.
_ANY_ACTIVE = select(Suspension.id).where(
    Suspension.league_id == bindparam("league_id"), Suspension.player_id == bindparam("player_id"),
    Suspension.status == "active").limit(1)
_ACTIVE_IN_LEAGUE = select(Suspension.player_id).where(
    Suspension.league_id == bindparam("league_id"), Suspension.status == "active")


class Discipline:
    """Who is suspended for a game, and counting suspensions down as results come in.

    Built once by the composition root with every configured league's rules, so a result entered
    in Discord and one imported from the command line are served by the same rules (e.g. a league's
    ``suspensions_carry_into_playoffs``). A league the configuration doesn't name uses its preset's.
    """

    def __init__(self, leagues: Iterable[LeagueSettings]) -> None:
        self.leagues = leagues  # may be live (bot.config.settings.AllLeagues): a league set up in Discord joins

    @property
    def rules_by_key(self) -> Mapping[str, DisciplineRules]:
        return {lg.key: lg.rules.discipline for lg in self.leagues}

    async def rules(self, session: AsyncSession, league_id: int) -> DisciplineRules:
        league = await session.get(League, league_id)
        if league is None:
            return DisciplineRules()
        return self.rules_by_key.get(league.key) or preset(league.preset).discipline

    async def reason(self, session: AsyncSession, *, league_id: int, player_id: int,
                     game_id: int | None) -> str | None:
        """Why the player may not play the game (shown to the player), or None. Reads only."""
        active = await session.execute(_ANY_ACTIVE, {"league_id": league_id, "player_id": player_id})
        if active.first() is None:
            return None
        rules = await self.rules(session, league_id)
        for serving in await serving_plan(session, league_id, player_id, rules):
            row = serving.suspension
            if row.status != "active" or serving.remaining == 0:
                continue
            if game_id is not None and game_id not in serving.game_ids:
                continue
            left = f"{serving.remaining} of {plural(row.games, 'game')} still to serve"
            return f"you're suspended (suspension #{row.id}, {left}: {clip(row.reason, 150)})."
        return None

    async def candidates(self, session: AsyncSession, *, league_id: int, player_ids: Sequence[int]) -> set[int]:
        """The players among many with an active suspension: one query for a whole lineup."""
        active = await session.execute(_ACTIVE_IN_LEAGUE, {"league_id": league_id})
        return {row.player_id for row in active}.intersection(player_ids)

    def might_be_suspended(self, league_id: SQLColumnExpression[int],
                           player_id: SQLColumnExpression[int]) -> ColumnElement[bool]:
        """The player has an active suspension (whether it covers a given game is ``reason``'s to say)."""
        return exists().where(Suspension.league_id == league_id, Suspension.player_id == player_id,
                              Suspension.status == "active")

    async def count_down(self, session: AsyncSession, league_id: int, game_id: int) -> None:
        """A result was recorded: the game's teams' suspended players have served one more game
        (runs in the result's transaction; idempotent)."""
        game = await session.get(Game, game_id)
        if game is None or game.league_id != league_id:
            return
        teams = game.team_ids()
        # Whoever was on one of the game's teams: issued there, on its roster now, or left it since.
        on_teams = or_(Suspension.team_id.in_(teams),
                       Suspension.player_id.in_(select(RosterEntry.player_id).where(
                           RosterEntry.league_id == league_id, RosterEntry.team_id.in_(teams))),
                       Suspension.player_id.in_(select(RosterDeparture.player_id).where(
                           RosterDeparture.league_id == league_id, RosterDeparture.team_id.in_(teams))))
        player_ids = set((await session.scalars(
            select(Suspension.player_id).where(Suspension.league_id == league_id, Suspension.status == "active",
                                               on_teams)
        )).all())
        rules = await self.rules(session, league_id)
        for player_id in sorted(player_ids):
            await refresh_player(session, league_id, player_id, rules, now=game.starts_at)

    async def reconcile(self, session: AsyncSession, league_id: int) -> int:
        """Store progress from results recorded while the bot was not running; returns how many ended."""
        player_ids = set((await session.scalars(select(Suspension.player_id).where(
            Suspension.league_id == league_id, Suspension.status == "active"))).all())
        rules = await self.rules(session, league_id)
        ended = 0
        for player_id in sorted(player_ids):
            ended += len(await refresh_player(session, league_id, player_id, rules))
        return ended


# --- who may read the details ----------------------------------------------------------------------
async def current_team_ids(session: AsyncSession, league_id: int, player_ids: Sequence[int]) -> dict[int, int]:
    """Player row id -> the team they are on now."""
    if not player_ids:
        return {}
    rows = await session.execute(select(RosterEntry.player_id, RosterEntry.team_id).where(
        RosterEntry.league_id == league_id, RosterEntry.player_id.in_(player_ids)))
    return {p: t for p, t in rows.all()}


def may_see_details(caller: Caller, captain_of: frozenset[int], row: Suspension,
                    current_team: int | None) -> bool:
    """Discipline details (reason, penalties, appeals): the player, their captains, commissioners."""
    if caller.is_commissioner or row.player.discord_id == caller.discord_id:
        return True
    return caller.has_captain_role and bool({row.team_id, current_team} & captain_of)


# --- export -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class DisciplineExport:
    """A league's penalties, suspensions and appeals as plain rows (the CLI writes CSV or JSON)."""

    penalties: list[dict[str, object]]
    suspensions: list[dict[str, object]]
    appeals: list[dict[str, object]]


def _at(value: datetime | None) -> str:
    return value.isoformat() if value is not None else ""


async def export(session: AsyncSession, league_id: int) -> DisciplineExport:
    """Everything discipline stored for a league, oldest first."""
    penalties = (await session.scalars(select(Penalty).where(Penalty.league_id == league_id)
                                       .order_by(Penalty.created_at, Penalty.id))).unique().all()
    suspensions = (await session.scalars(select(Suspension).where(Suspension.league_id == league_id)
                                         .order_by(Suspension.issued_at, Suspension.id))).unique().all()
    appeals = (await session.scalars(select(Appeal).where(Appeal.league_id == league_id)
                                     .order_by(Appeal.filed_at, Appeal.id))).unique().all()
    return DisciplineExport(
        penalties=[{
            "id": p.id, "game": p.game.code, "game_starts_at": _at(p.game.starts_at), "player": p.player.name,
            "player_discord_id": p.player.discord_id, "team": p.team.name, "infraction": p.infraction_key,
            "called": p.called_key, "category": p.category, "minutes": p.minutes,
            "minute": "" if p.minute is None else p.minute, "ejected": p.ejected, "game_misconduct": p.game_misconduct,
            "suspension_games": p.suspension_games, "pending_review": p.pending_review, "summary": p.summary,
            "referee_discord_id": p.referee_id, "created_at": _at(p.created_at),
        } for p in penalties],
        suspensions=[{
            "id": s.id, "player": s.player.name, "player_discord_id": s.player.discord_id, "team": s.team.name,
            "games": s.games, "games_issued": s.games_issued, "games_served": s.games_served, "status": s.status,
            "pending_review": s.pending_review, "reason": s.reason, "penalty_id": s.penalty_id or "",
            "issued_at": _at(s.issued_at), "issued_by": s.issued_by or "", "ended_at": _at(s.ended_at),
        } for s in suspensions],
        appeals=[{
            "id": a.id, "suspension_id": a.suspension_id, "player": a.suspension.player.name,
            "player_discord_id": a.suspension.player.discord_id, "number": a.number, "filed_by": a.filed_by,
            "filed_at": _at(a.filed_at), "reason": a.reason, "games_before": a.games_before,
            "outcome": a.outcome or "", "games": "" if a.games is None else a.games,
            "decided_at": _at(a.decided_at), "decided_by": a.decided_by or "",
        } for a in appeals],
    )
