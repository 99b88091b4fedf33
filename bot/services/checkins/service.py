"""Check-ins (in / out / maybe), who is in, and the lineup check captains run before a game.

Choices the spec leaves open, decided here:
- Only players on the roster of a team in the game check in, for a game not yet started,
  cancelled or final. Captains and commissioners don't check in for others.
- A suspended player may not answer "in" or "maybe"; "out" is always accepted (it is true).
- A late drop-out is a switch from "in" to "out" less than 24 h before the start. The result says
  so and the service's ``on_late_dropout`` (the captains' alert) is awaited after the answer is saved.
- Writes are one upsert per (game, player): concurrent answers are each recorded exactly once and
  the last write wins.
- Each check-in is its own unit of work, on SQLite and PostgreSQL alike; a refused check-in raises
  before it writes.
- A check-in reads what it decides on in one query and writes in one unit of work, the gender
  category's once-only ask included (``ask_gender``: the slash command asks, the buttons don't).
- Check-ins carry no team: a player's answers count for the team they are on now, so a player
  removed from the roster simply drops out of the lineup.
- A guardian answers for a player without a Discord account they manage (``player``); without it, a
  member on no roster who manages exactly one player answers for that one, and one who manages several
  is asked to pick. Only the caller's own players are looked up, so another member's answer for
  them reads as "you don't manage a player called …" and changes nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import bindparam, delete, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.access import Caller
from bot.clock import Clock
from bot.config.settings import LeagueSettings
from bot.discord_text import quote
from bot.errors import Conflict, InvalidInput, NotAllowed, NotFound
from bot.league.availability import AWAY
from bot.league.checkins.lineup import CheckedInPlayer, LineupReport, check_lineup
from bot.league.checkins.presets import lineup_rules_for
from bot.league.checkins.status import StatusLine, lineup_status
from bot.league.vocabulary import CHECKIN_STATUSES
from bot.services.availability.away import answers_as_read
from bot.services.availability.guests import game_guests, guest_players
from bot.services.discipline.cleanup import BenchMinorToServe, bench_minors_at_start
from bot.services.people import Membership, in_game, is_captain_of, membership, own_team_id, resolve_team_ref
from bot.services.reminders.messages import queue_edit
from bot.services.setup.gender_ask import mark_asked, needs_gender
from bot.services.shared.attendance import CheckInContext, CheckInContextQuery, GameRef, GameSides, roster_answers
from bot.services.shared.eligibility import SuspensionCheck, require_check, suspension_reasons
from bot.services.shared.game_spares import team_spares
from bot.services.shared.games import find_game_sides
from bot.services.shared.guardians import ManagedPlayer, answering_for, managed_players, only_managed
from storage import lookups
from storage.db import retried_on_disconnect, rowcount, upsert_insert, writers_take_turns
from storage.lookups import TeamRef
from storage.models import CheckIn, Game

log = logging.getLogger("sideline.checkins")

#: A switch from "in" to "out" this close to the start is a late drop-out.
LATE_DROPOUT_WINDOW = timedelta(hours=24)

#: Awaited with (league_id, game_id, player_id) after a late drop-out is saved: the reminders feature
#: alerts the captains. A failing hook is logged; the check-in stands.
LateDropoutHook = Callable[[int, int, int], Awaitable[None]]


@dataclass(frozen=True)
class CheckInResult:
    game: GameRef
    team: str
    player: str
    status: str
    previous: str | None
    late_dropout: bool
    over_away: bool = False  # the game is in one of the player's /away ranges: this answer counts for it
    ask_gender: bool = False  # asked for with the answer, and the first time: ask for their gender category
    managed: bool = False  # answered by a guardian for a player without a Discord account

    @property
    def changed(self) -> bool:
        return self.previous != self.status


@dataclass(frozen=True)
class AttendanceLine:
    name: str
    goalie: bool
    note: str = ""  # an away player's note: only filled in for their captains and commissioners


@dataclass(frozen=True)
class Attendance:
    """A team's answers for one game; names and positions only, never gender."""

    game: GameRef
    team: str
    going: tuple[AttendanceLine, ...]
    out: tuple[AttendanceLine, ...]
    maybe: tuple[AttendanceLine, ...]
    no_reply: tuple[AttendanceLine, ...]
    spares: tuple[AttendanceLine, ...] = ()  # spares who took a spot
    away: tuple[AttendanceLine, ...] = ()  # out for the game by /away (and no answer since)
    guests: tuple[AttendanceLine, ...] = ()  # added by a captain for this game (/guest add)
    status: tuple[StatusLine, ...] = ()  # the lineup's checks a whole team may see (none counts gender)


@dataclass(frozen=True)
class TeamLineup:
    """One team's check-ins for a game and the rules check on them (captains, commissioners)."""

    game: GameRef
    team: str
    report: LineupReport
    checked_in: tuple[CheckedInPlayer, ...]
    maybe: tuple[str, ...]
    no_reply: int
    roster_size: int
    spare_ids: frozenset[int] = frozenset()  # checked_in players who are spares, not on the roster
    away: tuple[str, ...] = ()
    guests_pending: tuple[str, ...] = ()  # guests added but not cleared (they don't count yet)
    # Bench minors the team serves at the start (a missed cleanup after an earlier game, youth 2.15).
    starts_with: tuple[BenchMinorToServe, ...] = ()
    status: tuple[StatusLine, ...] = ()  # the ✅/❌ lines for captains, from the report's checks
    team_status: tuple[StatusLine, ...] = ()  # the same checks as the whole team may see them



class _Unread:
    """Marks a previous answer that has not been read under the write lock yet."""


UNREAD = _Unread()


async def record_checkin(session: AsyncSession, *, league_id: int, game_id: int, player_id: int,
                         status: str, now: datetime, previous: str | _Unread | None = UNREAD) -> str | None:
    """Upsert one answer (last write wins) and return the answer it replaced, if any.

    The answer replaced is exact under concurrency. A caller that already read it under the
    write lock passes it as ``previous`` (SQLite: BEGIN IMMEDIATE serialises writers, so a read
    in the same unit of work is exact). Otherwise an existing row is locked before it is read,
    and when there is none yet, an INSERT that does nothing on conflict either creates it or
    waits for the concurrent creator to commit.
    """
    insert = upsert_insert(session)
    values = {"league_id": league_id, "game_id": game_id, "player_id": player_id, "status": status,
              "updated_at": now}
    if isinstance(previous, _Unread):
        current = select(CheckIn.status).where(CheckIn.game_id == game_id, CheckIn.player_id == player_id)
        previous = await session.scalar(current.with_for_update())
        if previous is None:
            created = await session.scalar(
                insert(CheckIn).values(**values).on_conflict_do_nothing(
                    index_elements=[CheckIn.game_id, CheckIn.player_id]).returning(CheckIn.id)
            )
            if created is not None:
                return None
            previous = await session.scalar(current.with_for_update())
    await (await session.connection()).execute(_upsert(insert), values)  # Core: no ORM path for a plain row
    return previous


_UPSERTS: dict[Any, Any] = {}
_UPSERTED = ("league_id", "game_id", "player_id", "status", "updated_at")


def _upsert(insert: Any) -> Any:
    """The dialect's check-in upsert, built once per dialect (the hot path's one write)."""
    query = _UPSERTS.get(insert)
    if query is None:
        table = CheckIn.__table__
        stmt = insert(table).values({column: bindparam(column) for column in _UPSERTED})
        query = _UPSERTS[insert] = stmt.on_conflict_do_update(
            index_elements=[table.c.game_id, table.c.player_id],
            set_={"status": stmt.excluded.status, "updated_at": stmt.excluded.updated_at},
        )
    return query


async def forget_checkins(session: AsyncSession, league_id: int, player_id: int) -> int:
    """Delete every answer a player gave in a league; returns how many."""
    result = await session.execute(
        delete(CheckIn).where(CheckIn.league_id == league_id, CheckIn.player_id == player_id)
    )
    return rowcount(result) or 0


@dataclass(frozen=True)
class _Ask:
    """One check-in waiting for its unit of work."""

    caller: Caller
    status: str
    game_code: str | None
    clock: Clock
    suspensions: SuspensionCheck
    context: CheckInContextQuery
    ask_gender: bool = False
    player: str | None = None  # a managed player, as typed or suggested
    player_id: int | None = None  # a managed player, as a reminder's button names them


_Answer = tuple[CheckInResult, tuple[int, int, int]]  # the result, and (league, game, player) ids


@retried_on_disconnect
class CheckInService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock, *, suspensions: SuspensionCheck,
                 on_late_dropout: LateDropoutHook) -> None:
        self.sessions = sessions
        self.clock = clock
        self.suspensions = require_check(suspensions, "check-ins")
        self.context = CheckInContextQuery(self.suspensions)
        self.on_late_dropout = on_late_dropout

    async def check_in(self, caller: Caller, status: str, game_code: str | None = None, *,
                       ask_gender: bool = False, player: str | None = None,
                       player_id: int | None = None) -> CheckInResult:
        """Record the caller's answer for a game (their team's next game when none is named);
        ``ask_gender``: also decide, once per player, to ask for a gender category the rules need; with
        ``player`` or ``player_id``, a guardian's answer for a player they manage."""
        if status not in CHECKIN_STATUSES:
            raise InvalidInput(f"Answer one of: {', '.join(CHECKIN_STATUSES)}.")
        ask = _Ask(caller, status, game_code, self.clock, self.suspensions, self.context,
                   ask_gender and needs_gender(caller.league.rules),
                   player.strip() if player and player.strip() else None, player_id)
        async with self.sessions.begin() as session:
            result, ids = await _check_in(session, ask)
        if result.late_dropout:
            try:
                await self.on_late_dropout(*ids)
            except Exception:
                log.exception("late drop-out alert failed for game %s player %s", ids[1], ids[2])
        return result

    async def my_players(self, caller: Caller) -> list[ManagedPlayer]:
        """The players without a Discord account the caller manages in this league."""
        async with self.sessions() as session:
            return await managed_players(session, caller.league_id, caller.discord_id)

    async def who_is_in(self, caller: Caller, game_code: str | None = None) -> Attendance:
        """The caller's team's answers for a game: in, out, maybe, no reply."""
        async with self.sessions() as session:
            member = await membership(session, caller)
            if member.team_id is None and not member.captain_of:
                member = await _as_guardian(session, caller, member, game_code)
            team, game = await self._own_team_and_game(session, caller, member, game_code)
            groups: dict[str | None, list[AttendanceLine]] = {s: [] for s in (*CHECKIN_STATUSES, AWAY, None)}
            answers = await roster_answers(session, caller.league_id, team.id, game.id)
            read = await answers_as_read(session, caller.league_id, game.ref.starts_at,
                                         [(r.player_id, r.status, r.answered_at) for r in answers])
            sees_notes = caller.is_commissioner or is_captain_of(caller, member, team.id)
            for r in answers:
                note = read.notes.get(r.player_id, "") if sees_notes else ""
                groups[read.status[r.player_id]].append(AttendanceLine(r.name, r.position == "goalie", note))
            spares = tuple(AttendanceLine(s.name, s.position == "goalie")
                           for s in await team_spares(session, caller.league_id, game.id, team.id))
            waits = caller.league.rules.lineup.guests_need_approval
            guests = tuple(AttendanceLine(g.name, False, "waiting to be cleared" if waits and g.cleared_at is None
                                          else "") for g in await game_guests(session, caller.league_id,
                                                                             game.id, team.id))
            try:
                checks = (await team_lineup(session, self.suspensions, caller.league, caller.league_id, game,
                                            team)).team_status
            except Conflict:  # a division without a court size: /lineup explains, the answers still show
                checks = ()
            return Attendance(game.ref, team.name, tuple(groups["in"]), tuple(groups["out"]),
                              tuple(groups["maybe"]), tuple(groups[None]), spares, tuple(groups[AWAY]), guests,
                              checks)

    async def _own_team_and_game(self, session: AsyncSession, caller: Caller, member: Membership,
                                 game_code: str | None) -> tuple[TeamRef, GameSides]:
        """The caller's team and the named game (else its next one); refuses a game their team isn't in."""
        if game_code is None or not game_code.strip():
            team = await resolve_team_ref(session, caller, None, member)
            return team, GameSides.of(await _next_game(session, caller, member, self.clock.now(), team=team))
        game = await find_game_sides(session, caller, game_code)
        own = own_team_id(member)
        for side in (game.home, game.away):  # read with the game: no second lookup
            if side.id == own:
                return side, game
        team = await resolve_team_ref(session, caller, None, member)  # refuses when there's no own team
        raise InvalidInput(f"{game.ref.code} is {game.ref.title}, not a {team.name} "
                           "game. /whoisin shows your own team's answers.")

    async def lineup(self, caller: Caller, game_code: str | None = None) -> tuple[TeamLineup, ...]:
        """The rules check for the caller's team in a game (both teams for a commissioner)."""
        async with self.sessions() as session:
            member = await membership(session, caller)
            if game_code is None and caller.is_commissioner and member.team_id is None and not member.captain_of:
                raise InvalidInput("Name the game to check (pick one from the suggestions).")
            game = await self._game(session, caller, member, game_code, self.clock.now())
            member = await in_game(session, caller, member, game)
            if not (caller.is_commissioner or caller.has_captain_role or member.acting_for):
                raise NotAllowed("Only a team's captain or a commissioner can check a lineup. "
                                 "/whoisin shows who is coming.")
            teams = [t for t in (game.home, game.away) if caller.is_commissioner or is_captain_of(caller, member, t.id)]
            if not teams:
                raise NotAllowed(f"Only a captain of {game.home.name} or {game.away.name}, or a commissioner, "
                                 f"can check the lineup for {game.ref.code}.")
            return tuple([await self._team_lineup(session, caller, game, team) for team in teams])

    async def _team_lineup(self, session: AsyncSession, caller: Caller, game: GameSides, team: TeamRef) -> TeamLineup:
        lineup = await team_lineup(session, self.suspensions, caller.league, caller.league_id, game, team)
        starts_with = await bench_minors_at_start(session, caller.league, caller.league_id, game_id=game.id,
                                                  starts_at=game.ref.starts_at, team_ids=(team.id,))
        return replace(lineup, starts_with=starts_with)

    async def _game(self, session: AsyncSession, caller: Caller, member: Membership, code: str | None,
                    now: datetime) -> GameSides:
        """The named game, or the next one for the caller's team."""
        if code is not None and code.strip():
            return await find_game_sides(session, caller, code)
        return GameSides.of(await _next_game(session, caller, member, now))


async def team_lineup(session: AsyncSession, suspensions: SuspensionCheck, league: LeagueSettings, league_id: int,
                      game: GameSides, team: TeamRef) -> TeamLineup:
    """One team's check-ins for a game, with the spares who took a spot and the guests added for it,
    checked against the rules; a player away for the game (/away) is out unless they answered since."""
    division = team.division
    try:
        rules = lineup_rules_for(league.rules.lineup, division)
    except ValueError:
        raise Conflict(f"{team.name}'s division “{division}” has no court size in the league's rules. A commissioner "
                       "can move the team to a division that has one with `/setup team division:`, or give this "
                       "one a size with `/setup rule key:court_sizes_by_division`.") from None
    roster = await roster_answers(session, league_id, team.id, game.id)
    status = (await answers_as_read(session, league_id, game.ref.starts_at,
                                    [(r.player_id, r.status, r.answered_at) for r in roster])).status
    # In check-in order: the lineup rules count players as they answered.
    answered = sorted((r for r in roster if r.status is not None), key=lambda r: (r.answered_at, r.answer_id))
    going = [r for r in answered if status[r.player_id] == "in"]
    spares = await team_spares(session, league_id, game.id, team.id)
    suspended = await suspension_reasons(suspensions, session, league_id,
                                         [r.player_id for r in going] + [s.player_id for s in spares], game.id)
    players = [CheckedInPlayer(player_id=r.player_id, name=r.name,
                               position=r.position,
                               gender=r.gender,
                               rostered=True, suspended=r.player_id in suspended) for r in going]
    # A spare the league matched to the game plays as if rostered for it (they never count toward the limit).
    players += [CheckedInPlayer(player_id=s.player_id, name=s.name, position=s.position, gender=s.gender,
                                rostered=True, suspended=s.player_id in suspended) for s in spares]
    guests = await guest_players(session, suspensions, league_id, game.id, team.id)
    players += guests
    maybe = [r.name for r in answered if status[r.player_id] == "maybe"]
    away_names = tuple(r.name for r in roster if status[r.player_id] == AWAY)
    pending = tuple(g.name for g in guests if not g.guest_approved and rules.guests_need_approval)
    report = check_lineup(rules, players, roster_size=len(roster))
    return TeamLineup(game.ref, team.name, report, tuple(players), tuple(maybe),
                      no_reply=sum(status[r.player_id] is None for r in roster), roster_size=len(roster),
                      spare_ids=frozenset(s.player_id for s in spares), away=away_names, guests_pending=pending,
                      status=lineup_status(rules, report), team_status=lineup_status(rules, report, for_team=True))


async def _check_in(session: AsyncSession, ask: _Ask) -> _Answer:
    """Decide and record one check-in in the caller's unit of work; raises before writing if refused."""
    caller, now = ask.caller, ask.clock.now()
    named = ask.game_code is not None and ask.game_code.strip() != ""
    managed = (await answering_for(session, caller.league_id, caller.discord_id, ask.player, ask.player_id)
               if ask.player is not None or ask.player_id is not None else None)
    ctx: CheckInContext | None = None
    if managed is None:
        if named:
            ctx = await ask.context(session, caller.league_id, caller.discord_id, code=ask.game_code)
        else:  # a rostered player's next game comes in the same one read
            ctx = await ask.context(session, caller.league_id, caller.discord_id, next_after=now)
            if ctx is None:  # on no roster, or no game ahead: the longer way finds which, and says so
                member = await membership(session, caller)
                if member.team_id is None:  # not playing: perhaps a guardian answering for their one player
                    managed = await only_managed(session, caller.league_id, caller.discord_id)
                if managed is None:
                    next_game = await _next_game(session, caller, member, now)
                    ctx = await ask.context(session, caller.league_id, caller.discord_id, game_id=next_game.id)
        if ctx is not None and ctx.team_id is None and managed is None:
            managed = await only_managed(session, caller.league_id, caller.discord_id)
    if managed is not None:
        ctx = await _managed_context(session, ask, managed, named, now)
    _check_allowed(ask, ctx, now)
    assert ctx is not None and ctx.player_id is not None and ctx.team_id is not None
    if ask.status != "out" and ctx.might_be_suspended:
        await _check_eligible(session, ask, ctx, managed is not None)
    # SQLite: the context was read under the write lock, so it is still true (else it is read again).
    exact = writers_take_turns(session)
    previous = await record_checkin(session, league_id=caller.league_id, game_id=ctx.game_id,
                                    player_id=ctx.player_id, status=ask.status, now=answered_over_away(now, ctx),
                                    previous=ctx.previous if exact else UNREAD)
    # The team's reminder message shows the new count (one edit for a burst).
    if previous != ask.status and (ctx.edit_wanted or not exact):
        await queue_edit(session, league_id=caller.league_id, game_id=ctx.game_id, team_id=ctx.team_id, now=now,
                         expires_at=ctx.game.starts_at)
    # The gender category is the player's own to give: a guardian answering for a junior isn't asked.
    asked = (ask.ask_gender and managed is None and ctx.gender_unasked
             and await mark_asked(session, caller.league_id, ctx.player_id))
    return _answer(ask, ctx, previous, now, managed is not None, asked)


async def _as_guardian(session: AsyncSession, caller: Caller, member: Membership, game_code: str | None) -> Membership:
    """A member on no team who manages players sees their players' team (the one in the named game)."""
    teams = sorted({m.team_id for m in await managed_players(session, caller.league_id, caller.discord_id)
                    if m.team_id is not None})
    if not teams:
        raise NotFound("You're not on a team in this league, so there's no team to list. "
                       "Ask your captain to add you.")
    if len(teams) > 1 and game_code is not None and game_code.strip():
        game = await find_game_sides(session, caller, game_code)
        teams = [t for t in teams if t in (game.home.id, game.away.id)] or teams
    return replace(member, team_id=teams[0])


async def _managed_context(session: AsyncSession, ask: _Ask, managed: ManagedPlayer, named: bool,
                           now: datetime) -> CheckInContext | None:
    """The check-in context of a player the caller manages, for the named game or their team's next one."""
    caller = ask.caller
    if named:
        return await ask.context(session, caller.league_id, caller.discord_id, code=ask.game_code,
                                 player_id=managed.player_id)
    if managed.team_id is None:
        raise NotFound(f"{managed.name} isn't on a team in this league yet, so there's no game to answer for. "
                       "Ask their team's captain to add them.")
    games = await lookups.upcoming_games(session, caller.league_id, [managed.team_id], now, limit=1)
    if not games:
        raise NotFound(f"{managed.name}'s team has no upcoming games. Name a game to pick one.")
    return await ask.context(session, caller.league_id, caller.discord_id, game_id=games[0].id,
                             player_id=managed.player_id)


def answered_over_away(now: datetime, ctx: CheckInContext) -> datetime:
    """When the answer is stamped: an answer given over an away range is after it by construction, so it
    reads as given since the range (bot/league/availability.py) even when the range was set in the same
    clock tick or by a process whose clock runs ahead."""
    if ctx.away_since is None or ctx.away_since < now:
        return now
    return ctx.away_since + timedelta(microseconds=1)


def _check_allowed(ask: _Ask, ctx: CheckInContext | None, now: datetime) -> None:
    """Refuse a game that doesn't exist, a caller not on either team, and a game that is closed."""
    caller = ask.caller
    if ctx is None:
        named = quote(ask.game_code or "", 64)
        raise NotFound(f"There's no game “{named}” in {caller.league.name}. Pick one from the suggestions.")
    game = ctx.game
    if ctx.team_id is None or ctx.team_id not in (ctx.home_team_id, ctx.away_team_id):
        raise NotAllowed(f"Only players on {game.home} or {game.away} can check in for "
                         f"{game.code}. Ask your captain if you should be on the roster.")
    _require_open(game, now)


async def _check_eligible(session: AsyncSession, ask: _Ask, ctx: CheckInContext, managed: bool) -> None:
    assert ctx.player_id is not None
    reason = await ask.suspensions.reason(session, league_id=ask.caller.league_id, player_id=ctx.player_id,
                                         game_id=ctx.game_id)
    if reason:
        who = ctx.player_name if managed else "You"
        raise NotAllowed(f"{who} can't check in for {ctx.game.code}: {reason}")


def _answer(ask: _Ask, ctx: CheckInContext, previous: str | None, now: datetime, managed: bool,
            ask_gender: bool) -> _Answer:
    assert ctx.player_id is not None and ctx.player_name is not None
    game = ctx.game
    team = game.home if ctx.home_team_id == ctx.team_id else game.away
    late = previous == "in" and ask.status == "out" and game.starts_at - now <= LATE_DROPOUT_WINDOW
    return (CheckInResult(game, team, ctx.player_name, ask.status, previous, late, ctx.away_since is not None,
                          ask_gender=ask_gender, managed=managed),
            (ask.caller.league_id, ctx.game_id, ctx.player_id))


async def _next_game(session: AsyncSession, caller: Caller, member: Membership, now: datetime, *,
                     team: TeamRef | None = None) -> Game:
    """The next game of ``team``, by default the caller's (their roster team, else the one they captain)."""
    if team is None:
        team = await resolve_team_ref(session, caller, None, member)
    games = await lookups.upcoming_games(session, caller.league_id, [team.id], now, limit=1)
    if not games:
        raise NotFound(f"{team.name} has no upcoming games. Name a game to pick one.")
    return games[0]


def _require_open(game: GameRef, now: datetime) -> None:
    if game.status == "cancelled":
        raise Conflict(f"{game.code} ({game.title}) was cancelled; there's nothing to check in for.")
    if game.status == "final" or game.starts_at <= now:
        raise Conflict(f"{game.code} ({game.title}) has already "
                       f"{'been played' if game.status == 'final' else 'started'}; check-ins are closed.")
