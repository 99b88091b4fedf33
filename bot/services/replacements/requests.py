"""/replace request, decide and pending: a captain asks to replace a player of their team; the bot checks
youth 1.16's conditions from the game sheets and the season's weeks (bot/league/replacements/conditions.py)
and files the request for the commissioners, who approve (the player leaves the roster) or decline it. An
approval offers the team's place to the first on the division's registration waiting list
(bot/services/registration/waiting.py); only when no one waits do the commissioners name the replacement."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime

from sqlalchemy import func, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.access import Caller, Role
from bot.clock import Clock
from bot.discord_text import clean_text, clean_user_text, quote
from bot.errors import Conflict, InvalidInput, NotFound
from bot.league.replacements.conditions import (
    REASONS,
    Assessment,
    Attendance,
    absence_conditions,
    injury_conditions,
    prorated_fee_cents,
)
from bot.league.rosters import REMOVED
from bot.league.seasons import season_start
from bot.services import outbox
from bot.services.discipline.reviews import notify_commissioners
from bot.services.discord_sync import team_roles
from bot.services.people import membership, require_captain_or_commissioner
from bot.services.registration import waiting
from bot.services.rosters import history as roster_history
from bot.services.shared.seasons import running_season, team_regular_games
from storage import lookups
from storage.db import retried_on_disconnect
from storage.models import Game, GameSheetEntry, ReplacementRequest, RosterEntry, Team

NOTE_LIMIT = 300
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_AMOUNT = re.compile(r"^\$?(\d{1,6})(?:\.(\d{1,2}))?$")
_MENTION = re.compile(r"^<@!?(\d{15,20})>$")


@dataclass(frozen=True)
class RequestFiled:
    id: int
    team: str
    player: str
    assessment: Assessment
    notified: str  # where the commissioners heard: "admin", "announcements", "dm" or "nowhere"


@dataclass(frozen=True)
class Decided:
    id: int
    team: str
    player: str
    reason: str
    approved: bool
    override_reason: str
    replacement: str
    refund_cents: int | None
    fee_cents: int | None
    games_left: int
    season_games: int
    fee_due_at: datetime | None
    note: str
    citation: str
    offered_to: str | None = None  # the first on the waiting list, offered the place
    division: str = ""  # whose waiting list was asked ("" : the team's division has no registration)
    named_unused: str = ""  # a name the commissioner gave while someone waited: the list comes first


@dataclass(frozen=True)
class Pending:
    id: int
    team: str
    player: str
    reason: str
    conditions_met: bool
    requested_at: datetime


def parse_amount(text: str) -> int:
    """"40", "40.5", "$40.50" -> cents; anything else is refused."""
    match = _AMOUNT.match(text.strip())
    if match is None:
        raise InvalidInput(f"“{quote(text)}” isn't an amount: write it like 40 or 40.50. Nothing changed.")
    return int(match[1]) * 100 + int((match[2] or "0").ljust(2, "0"))


def _verdict_lines(assessment: Assessment) -> str:
    return "\n".join(f"{'✅' if v.holds else '❌'} {v.message} ({v.rule})" for v in assessment.verdicts)


@retried_on_disconnect
class ReplacementService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock) -> None:
        self.sessions = sessions
        self.clock = clock

    async def request(self, caller: Caller, *, discord_id: int, reason: str,
                      injured_on: str | None) -> RequestFiled:
        try:
            return await self._request(caller, discord_id, reason, injured_on)
        except IntegrityError:  # another request for the player was filed at the same moment
            raise Conflict("Someone asked to replace that player at the same moment; `/replace pending` shows the "
                           "request. Nothing changed.") from None

    async def _request(self, caller: Caller, discord_id: int, reason: str, injured_on: str | None) -> RequestFiled:
        if reason not in REASONS:
            raise InvalidInput(f"The reason must be one of: {', '.join(REASONS)}. Nothing changed.")
        tz = caller.league.timezone
        now = self.clock.now()
        disclosed: date | None = None
        if reason == "injury":
            if not injured_on or not _DATE.match(injured_on.strip()):
                raise InvalidInput("For an injury, give the day it was disclosed to you as YYYY-MM-DD (for example "
                                   "2030-01-20) in the injury date option. Nothing changed.")
            try:
                disclosed = date.fromisoformat(injured_on.strip())
            except ValueError:
                raise InvalidInput(f"“{quote(injured_on)}” isn't a real date. Nothing changed.") from None
            if disclosed > now.astimezone(tz).date():
                raise InvalidInput("The injury's disclosure date is in the future. Nothing changed.")
        rules = caller.league.rules.replacements
        async with self.sessions.begin() as session:
            member = await membership(session, caller)
            entry = await lookups.roster_entry(session, caller.league_id, discord_id)
            if entry is None:
                raise NotFound("That member isn't on a roster in this league, so there's no one to replace. "
                               "Nothing changed.")
            team = await lookups.team_by_id(session, caller.league_id, entry.team_id)
            assert team is not None
            require_captain_or_commissioner(caller, member, team)
            waiting = await session.scalar(select(ReplacementRequest.id).where(
                ReplacementRequest.league_id == caller.league_id, ReplacementRequest.player_id == entry.player_id,
                ReplacementRequest.status == "pending").limit(1))
            if waiting is not None:
                raise Conflict(f"There's already a request (#{waiting}) to replace {entry.player.name} waiting for "
                               "the commissioners. Nothing changed.")
            first_day, season_start = await _season_start(session, caller)
            if reason == "injury":
                assert disclosed is not None
                assessment = injury_conditions(rules, disclosed, now, first_day, tz)
            else:
                played = await _attendance(session, caller.league_id, team.id, entry.player_id, season_start, now)
                assessment = absence_conditions(rules, played, now, first_day, tz)
            row = ReplacementRequest(
                league_id=caller.league_id, team_id=team.id, player_id=entry.player_id,
                player_name=entry.player.name, reason=reason, disclosed_on=disclosed,
                verdicts=_verdict_lines(assessment), conditions_met=assessment.met, status="pending",
                requested_by=caller.discord_id, requested_at=now)
            session.add(row)
            await session.flush()
            verdict = ("meets the rule" if assessment.met
                       else "does NOT meet the rule (an emergency approval needs a reason)")
            private = (f"🔁 Commissioners: {team.name}'s captain asks to replace {entry.player.name} "
                       f"({reason}); request #{row.id} {verdict}:\n{row.verdicts}\n"
                       f"Approve or decline it with `/replace decide request:{row.id}`.")
            public = (f"🔁 Commissioners: a replacement request (#{row.id}) is waiting for your decision; "
                      "`/replace pending` lists it.")
            where = await notify_commissioners(session, caller.league, caller.league_id,
                                               key=f"replacement:{row.id}:filed", private=private[:2000],
                                               public=public, now=now)
            return RequestFiled(row.id, team.name, entry.player.name, assessment, where)

    async def pending(self, caller: Caller) -> list[Pending]:
        caller.require(Role.COMMISSIONER)
        async with self.sessions() as session:
            rows = (await session.execute(
                select(ReplacementRequest, Team.name).join(Team, Team.id == ReplacementRequest.team_id)
                .where(ReplacementRequest.league_id == caller.league_id, ReplacementRequest.status == "pending")
                .order_by(ReplacementRequest.requested_at, ReplacementRequest.id).limit(25))).all()
            return [Pending(r.id, name, r.player_name, r.reason, r.conditions_met, r.requested_at) for r, name in rows]

    async def decide(self, caller: Caller, *, request_id: int, approve: bool, replacement: str | None,
                     refund: str | None, override: str | None, note: str | None) -> Decided:
        try:
            return await self._decide(caller, request_id, approve, replacement, refund, override, note)
        except IntegrityError:  # a second approval at the same moment offered the same place
            raise Conflict(f"Request #{request_id} was decided at the same moment by someone else; "
                           "`/replace pending` shows what's left. Nothing changed.") from None

    async def _decide(self, caller: Caller, request_id: int, approve: bool, replacement: str | None,
                      refund: str | None, override: str | None, note: str | None) -> Decided:
        caller.require(Role.COMMISSIONER)
        rules = caller.league.rules.replacements
        now = self.clock.now()
        why = clean_user_text(override or "", NOTE_LIMIT).strip()
        said = clean_user_text(note or "", NOTE_LIMIT).strip()
        async with self.sessions.begin() as session:
            row = await session.scalar(select(ReplacementRequest).where(
                ReplacementRequest.league_id == caller.league_id, ReplacementRequest.id == request_id)
                .with_for_update())
            if row is None:
                raise NotFound(f"There's no replacement request #{request_id} in this league. `/replace pending` "
                               "lists the waiting ones.")
            if row.status != "pending":
                raise Conflict(f"Request #{row.id} was already {row.status}. Nothing changed.")
            team = await lookups.team_by_id(session, caller.league_id, row.team_id)
            assert team is not None
            cite = (rules.replacement_citations.injury if row.reason == "injury"
                    else rules.replacement_citations.absence) or "league setting"
            if not approve:
                row.status, row.decided_by, row.decided_at, row.decision_note = "declined", caller.discord_id, now, said
                await self._tell_captain(session, caller, row, f"❌ The commissioners declined request #{row.id} to "
                                         f"replace {row.player_name}." + (f" Their note: {said}" if said else ""), now)
                return Decided(row.id, team.name, row.player_name, row.reason, False, "", "", None, None, 0, 0,
                               None, said, cite)
            if not row.conditions_met:
                emergency = rules.replacement_citations.emergency or "league setting"
                if not rules.replacement_emergency_override:
                    raise Conflict(f"Request #{row.id} doesn't meet the rule ({cite}), and this league allows no "
                                   "emergency approvals. Decline it instead. Nothing changed.")
                if not why:
                    raise InvalidInput(f"Request #{row.id} doesn't meet the rule ({cite}):\n{row.verdicts}\n"
                                       f"To approve it anyway as an emergency ({emergency}), give your reason in the "
                                       "override option. Nothing changed.")
            elif why:
                why = ""  # nothing to override: the conditions hold
            name = clean_text(replacement or "").strip()[:100]
            refund_cents: int | None = None
            if refund is not None and refund.strip():
                if row.reason != "injury" or not rules.replacement_injury_refund:
                    raise InvalidInput(f"No refund is given for an absence ({cite}); leave the refund empty. "
                                       "Nothing changed.")
                refund_cents = parse_amount(refund)
            games = await team_regular_games(session, caller.league_id, team.id,
                                             (await _season_start(session, caller))[1])
            window = await waiting.replacement_window(session, caller.league_id, team)
            offered = (await waiting.offer_replacement(session, caller.league, caller.league_id, window, row.id, now)
                       if window is not None else None)
            division = window.division if window is not None else ""
            replacement_id: int | None = None
            if offered is None:  # no one waits: the commissioners name the replacement, as before the list
                listed = f"on {division}'s waiting list" if division else "on a waiting list for this team's division"
                if not name:
                    raise InvalidInput(f"No one is {listed}, so the bot can't offer the place. Name the replacement "
                                       "player in the replacement option to approve. Nothing changed.")
                mention = _MENTION.match(name)
                replacement_id = int(mention[1]) if mention else None
                if replacement_id is not None:
                    player = await lookups.player_by_discord(session, caller.league_id, replacement_id)
                    name = player.name if player is not None else name
            upcoming = [g for g in games if g > now]
            fee = rules.replacement_season_dues_cents
            fee_cents = prorated_fee_cents(fee, len(upcoming), len(games)) if fee is not None else None
            entry = await session.scalar(select(RosterEntry).where(
                RosterEntry.league_id == caller.league_id, RosterEntry.player_id == row.player_id))
            if entry is not None:  # the existing roster removal: kept in the roster's history
                roster_history.leave(session, entry, now, REMOVED)
                discord_id = entry.player.discord_id
                await session.delete(entry)
                await session.flush()
                if discord_id is not None:
                    await team_roles.follow(session, caller.league, caller.league_id, entry.team_id, discord_id, now)
            row.status, row.decided_by, row.decided_at = "approved", caller.discord_id, now
            row.decision_note, row.override_reason = said, why
            row.refund_cents, row.prorated_fee_cents = refund_cents, fee_cents
            row.fee_due_at = upcoming[0] if upcoming else None
            if offered is not None:  # named when they accept (bot/services/registration/waiting.py)
                await self._tell_captain(session, caller, row, f"✅ The commissioners approved request #{row.id}: "
                                         f"{row.player_name}'s place on {team.name} is offered to the first on the "
                                         "waiting list. You'll be told who joins.", now)
                return Decided(row.id, team.name, row.player_name, row.reason, True, why, "", refund_cents,
                               fee_cents, len(upcoming), len(games), row.fee_due_at, said, cite, offered, division,
                               name)
            row.replacement_name, row.replacement_discord_id = name, replacement_id
            await self._tell_captain(session, caller, row, f"✅ The commissioners approved request #{row.id}: "
                                     f"{name} replaces {row.player_name} on {team.name}.", now)
            return Decided(row.id, team.name, row.player_name, row.reason, True, why, name, refund_cents, fee_cents,
                           len(upcoming), len(games), row.fee_due_at, said, cite, None, division)

    @staticmethod
    async def _tell_captain(session: AsyncSession, caller: Caller, row: ReplacementRequest, text: str,
                            now: datetime) -> None:
        if row.requested_by == caller.discord_id:
            return
        await outbox.tell(session, league_id=caller.league_id, guild_id=caller.league.guild_id,
                          key=f"replacement:{row.id}:decided", user_id=row.requested_by, text=text, due_at=now)


async def _season_start(session: AsyncSession, caller: Caller) -> tuple[date, datetime]:
    """Week 1's first day and its start: the running season's, else the league's first game's day."""
    season = await running_season(session, caller.league_id)
    if season is not None:
        return season.first_day, season.starts_at
    first = await session.scalar(select(func.min(Game.starts_at)).where(Game.league_id == caller.league_id))
    if first is None:
        raise Conflict("This league has no season and no games yet, so there are no weeks or games to check the "
                       "request against. Nothing changed.")
    day = first.astimezone(caller.league.timezone).date()
    return day, season_start(day, caller.league.timezone)


async def _attendance(session: AsyncSession, league_id: int, team_id: int, player_id: int, since: datetime,
                      now: datetime) -> list[Attendance]:
    """The team's regular games with a result this season, each with whether the player was on its sheet
    (None: the team's sheet of it is empty)."""
    games = (await session.execute(select(Game.id, Game.code, Game.starts_at).where(
        Game.league_id == league_id, Game.status == "final", Game.kind == "regular",
        or_(Game.home_team_id == team_id, Game.away_team_id == team_id),
        Game.starts_at >= since, Game.starts_at <= now))).all()
    lines = (await session.execute(select(GameSheetEntry.game_id, GameSheetEntry.player_id).where(
        GameSheetEntry.league_id == league_id, GameSheetEntry.team_id == team_id,
        GameSheetEntry.game_id.in_([g.id for g in games]), GameSheetEntry.removed_at.is_(None)))).all()
    sheets: dict[int, set[int | None]] = {}
    for game_id, who in lines:
        sheets.setdefault(game_id, set()).add(who)
    return [Attendance(g.code, g.starts_at, (player_id in sheets[g.id]) if g.id in sheets else None) for g in games]

