"""Appeals (youth 1.12, 1.20.2, 1.21): filed once within the window by the player or their captain, decided
by the commissioners within the decision window (a deadline that nags them until it is done).

Choices the spec leaves open, decided here:
- A suspension keeps counting down while its appeal waits (there is no stay); a reduction that leaves
  fewer games than already served ends it at once.
- A commissioners' decision is their review of the suspension too: a "pending review" mark is cleared.
- Every outcome is told privately to the player (and to the captain who filed, if it was a captain);
  a reduced or overturned suspension is also announced where it was announced, naming no reason.
- The commissioners hear of a new appeal at once (where their deadline nudges go: ``channels.admin``,
  else announcements), with no names or reasons in the text: those are in /suspensions.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.access import Caller, Role
from bot.clock import Clock
from bot.discord_text import clean_user_text, clip, local_label, timestamp
from bot.errors import Conflict, InvalidInput, NotAllowed, NotFound
from bot.league.discipline.appeals import APPEAL_OUTCOMES, appeal_allowed, appeal_decision_due, decide_appeal, is_final
from bot.league.discipline.infractions import DisciplineError
from bot.services import outbox
from bot.services.deadlines.service import audience_target, complete_deadline, create_deadline
from bot.services.discipline.core import (
    REASON_LIMIT,
    appeals_of,
    current_team_ids,
    decision_ref,
    plural,
    pure_appeal,
    pure_suspension,
    refresh_player,
    refusal,
    suspension_by_id,
    window_ref,
)
from bot.services.outbox import Outgoing
from bot.services.people import is_captain_of, membership
from bot.services.shared.guardians import reach
from storage import lookups
from storage.db import retried_on_disconnect, rowcount
from storage.models import Appeal, Player, Suspension

CHOICES = 25


@dataclass(frozen=True)
class AppealFiled:
    id: int
    suspension_id: int
    player: str
    decision_due: datetime
    by_captain: bool


@dataclass(frozen=True)
class AppealDecided:
    id: int
    suspension_id: int
    player: str
    outcome: str
    games: int
    summary: str
    late: bool  # decided after it was due
    final: bool


@retried_on_disconnect
class AppealService:
    """/appeal file for the suspended player or their captain, /appeal decide for commissioners."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock) -> None:
        self.sessions = sessions
        self.clock = clock

    async def file(self, caller: Caller, suspension_id: int, reason: str) -> AppealFiled:
        why = clean_user_text(reason, REASON_LIMIT)
        if not why:
            raise InvalidInput("Say why the suspension should be shortened.")
        now = self.clock.now()
        rules = caller.league.rules.discipline
        try:
            async with self.sessions.begin() as session:
                row = await self._suspension(session, caller, suspension_id)
                member = await membership(session, caller)
                current = (await current_team_ids(session, caller.league_id, [row.player_id])).get(row.player_id)
                by_player = row.player.discord_id == caller.discord_id
                by_captain = any(is_captain_of(caller, member, t) for t in {row.team_id, current} if t is not None)
                if not (by_player or by_captain):
                    raise NotAllowed(f"Only the suspended player or their captain can appeal suspension #{row.id}.")
                prior = await appeals_of(session, caller.league_id, row.id)
                try:
                    appeal_allowed(pure_suspension(row), now, [pure_appeal(a) for a in prior], rules=rules)
                except DisciplineError as exc:
                    raise refusal(exc) from None
                appeal = Appeal(league_id=caller.league_id, suspension_id=row.id, number=len(prior) + 1,
                                filed_by=caller.discord_id, filed_at=now, reason=why, games_before=row.games)
                session.add(appeal)
                await session.flush()
                due = appeal_decision_due(pure_appeal(appeal), rules=rules)
                await create_deadline(session, caller.league, caller.league_id, kind="appeal_decision",
                                      subject=f"Decide appeal #{appeal.id} (suspension #{row.id}) with /appeal decide",
                                      due_at=due, audience_kind="commissioners", audience_id=None, now=now,
                                      ref=decision_ref(appeal.id), nag_until_done=True, created_by=caller.discord_id)
                await complete_deadline(session, caller.league_id, window_ref(row.id), now=now, note="appealed")
                await self._tell_commissioners(session, caller, appeal, row, due)
                if not by_player:
                    league = clip(caller.league.name, 100)
                    await self._dm_player(session, caller, f"appeal:{appeal.id}:filed", row.player,
                                   f"📨 Your captain appealed your suspension #{row.id} in {league} "
                                   f"(appeal #{appeal.id}). The commissioners decide by {timestamp(due)}.", now)
                return AppealFiled(appeal.id, row.id, row.player.name, due, not by_player)
        except IntegrityError:
            raise Conflict(f"Suspension #{suspension_id} was appealed at the same moment by someone else.") from None

    async def decide(self, caller: Caller, appeal_id: int, outcome: str, games: int | None = None) -> AppealDecided:
        caller.require(Role.COMMISSIONER)
        if outcome not in APPEAL_OUTCOMES:
            raise InvalidInput(f"The outcome is one of: {', '.join(APPEAL_OUTCOMES)}.")
        now = self.clock.now()
        rules = caller.league.rules.discipline
        async with self.sessions.begin() as session:
            appeal = await session.scalar(select(Appeal).where(Appeal.league_id == caller.league_id,
                                                                Appeal.id == appeal_id))
            if appeal is None:
                raise NotFound(f"There's no appeal #{appeal_id} in {caller.league.name}.")
            if appeal.outcome is not None:
                raise Conflict(f"Appeal #{appeal.id} was already decided ({appeal.outcome}).")
            row = appeal.suspension
            appeals = [pure_appeal(a) for a in await appeals_of(session, caller.league_id, row.id)]
            try:
                decision = decide_appeal(pure_suspension(row), outcome, games, now=now, appeals=appeals, rules=rules)
            except DisciplineError as exc:
                raise refusal(exc) from None
            if decision.appeal_id != appeal.id:
                raise Conflict(f"Appeal #{decision.appeal_id} is the one of suspension #{row.id} to decide.")
            done = await session.execute(
                update(Appeal).where(Appeal.id == appeal.id, Appeal.outcome.is_(None))
                .values(outcome=decision.outcome, games=decision.games, decided_at=now, decided_by=caller.discord_id)
                .execution_options(synchronize_session="fetch"))
            if not rowcount(done):
                raise Conflict(f"Appeal #{appeal.id} was decided at the same moment by someone else.")
            row.games, row.pending_review = decision.games, False
            if decision.status == "overturned":
                row.status, row.ended_at = "overturned", now
                await complete_deadline(session, caller.league_id, window_ref(row.id), now=now, note="overturned")
            await refresh_player(session, caller.league_id, row.player_id, rules, now=now)
            await complete_deadline(session, caller.league_id, decision_ref(appeal.id), now=now, note=decision.outcome)
            decided = [pure_appeal(a) for a in await appeals_of(session, caller.league_id, row.id)]
            final = is_final(pure_suspension(row), now, decided, rules=rules)
            text = (f"⚖️ {decision.summary} (appeal #{appeal.id} of your suspension #{row.id} in "
                    f"{clip(caller.league.name, 100)})" + (" This decision is final." if final else ""))
            await self._dm_player(session, caller, f"appeal:{appeal.id}:decided", row.player, text, now)
            if appeal.filed_by != row.player.discord_id:
                await self._dm(session, caller, f"appeal:{appeal.id}:decided:filer", appeal.filed_by,
                               text.replace("your suspension", f"{clean_user_text(row.player.name, 100)}'s suspension"),
                               now)
            if decision.outcome != "upheld":
                await self._announce_change(session, caller, appeal, row, now)
            return AppealDecided(appeal.id, row.id, row.player.name, decision.outcome, decision.games,
                                 decision.summary, decision.late, final)

    # --- autocomplete ------------------------------------------------------------------------------
    async def appealable(self, caller: Caller, text: str) -> list[tuple[str, int]]:
        """(label, id) of active suspensions the caller may appeal: their own, or their team's as captain."""
        needle = text.strip().lstrip("#").casefold()
        async with self.sessions() as session:
            member = await membership(session, caller)
            teams = set(member.captain_of) if caller.has_captain_role else set()
            rows = (await session.scalars(
                select(Suspension).join(Player, Suspension.player_id == Player.id)
                .where(Suspension.league_id == caller.league_id, Suspension.status == "active")
                .order_by(Suspension.issued_at.desc(), Suspension.id.desc()).limit(200))).unique().all()
            current = await current_team_ids(session, caller.league_id, sorted({r.player_id for r in rows})) \
                if teams else {}
            # A captain's team: the one it was issued on, or the player's team now (it follows the player).
            mine = [r for r in rows if r.player.discord_id == caller.discord_id or r.team_id in teams
                    or current.get(r.player_id) in teams]
            tz = caller.league.timezone
            return [(clip(f"#{r.id} · {r.player.name} · {plural(r.games, 'game')} · issued "
                          f"{local_label(r.issued_at, tz)}", 100), r.id)
                    for r in mine if not needle or needle in r.player.name.casefold() or needle == str(r.id)][:CHOICES]

    async def waiting(self, caller: Caller, text: str) -> list[tuple[str, int]]:
        """(label, id) of appeals waiting for a decision (commissioners only; others see none)."""
        if not caller.is_commissioner:
            return []
        needle = text.strip().lstrip("#").casefold()
        rules = caller.league.rules.discipline
        async with self.sessions() as session:
            rows = (await session.scalars(
                select(Appeal).where(Appeal.league_id == caller.league_id, Appeal.outcome.is_(None))
                .order_by(Appeal.filed_at, Appeal.id).limit(200))).unique().all()
            tz = caller.league.timezone
            out = []
            for a in rows:
                name = a.suspension.player.name
                if needle and needle not in name.casefold() and needle != str(a.id):
                    continue
                due = appeal_decision_due(pure_appeal(a), rules=rules)
                out.append((clip(f"#{a.id} · {name} · suspension #{a.suspension_id} ({plural(a.games_before, 'game')})"
                                 f" · due {local_label(due, tz)}", 100), a.id))
            return out[:CHOICES]

    # --- helpers -----------------------------------------------------------------------------------
    @staticmethod
    async def _suspension(session: AsyncSession, caller: Caller, suspension_id: int) -> Suspension:
        row = await suspension_by_id(session, caller.league_id, suspension_id)
        if row is None:
            raise NotFound(f"There's no suspension #{suspension_id} in {caller.league.name}. "
                           "Pick one from the suggestions.")
        return row

    @staticmethod
    async def _dm(session: AsyncSession, caller: Caller, key: str, user_id: int, text: str, now: datetime) -> None:
        await outbox.enqueue(session, league_id=caller.league_id, guild_id=caller.league.guild_id, key=key,
                             due_at=now, user_id=user_id, message=Outgoing(content=text))

    @staticmethod
    async def _dm_player(session: AsyncSession, caller: Caller, key: str, player: Player, text: str,
                         now: datetime) -> None:
        """A DM to the player, or to each guardian of a player without a Discord account."""
        for user in await reach(session, caller.league_id, player):
            suffix = "" if user == player.discord_id else f":{user}"
            await AppealService._dm(session, caller, key + suffix, user, text, now)

    @staticmethod
    async def _tell_commissioners(session: AsyncSession, caller: Caller, appeal: Appeal, row: Suspension,
                                  due: datetime) -> None:
        target = await audience_target(session, caller.league, caller.league_id, "commissioners", None)
        if target is None or target.channel_id is None:
            return
        await outbox.enqueue(
            session, league_id=caller.league_id, guild_id=caller.league.guild_id,
            key=f"appeal:{appeal.id}:filed:league", due_at=appeal.filed_at, channel_id=target.channel_id,
            message=Outgoing(content=f"📨 Commissioners: appeal #{appeal.id} of suspension #{row.id} was filed. "
                                     f"Decide by {timestamp(due)} with `/appeal decide appeal:{appeal.id}`; "
                                     "/suspensions shows the details."))

    @staticmethod
    async def _announce_change(session: AsyncSession, caller: Caller, appeal: Appeal, row: Suspension,
                               now: datetime) -> None:
        channel = caller.league.channels.announcements
        if channel is None:
            return
        name = clean_user_text(row.player.name, 100)
        team = await lookups.team_by_id(session, caller.league_id, row.team_id)
        what = "is overturned" if row.status == "overturned" else f"is reduced to {plural(row.games, 'game')}"
        where = f" ({clean_user_text(team.name, 100)})" if team else ""
        await outbox.enqueue(session, league_id=caller.league_id, guild_id=caller.league.guild_id,
                             key=f"appeal:{appeal.id}:announce", due_at=now, channel_id=channel,
                             message=Outgoing(content=f"⚖️ On appeal, {name}{where}'s suspension #{row.id} {what}."))
