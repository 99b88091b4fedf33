"""/team nominate, /team nominations, /team confirm and /team decline: a team's management before the draft
(youth 1.3, 1.5). Who may coach, and which teams the draft waits for, is bot/league/staff/management.py.

Choices the spec leaves open, decided here:
- A member puts themselves forward (1.5 "Interested candidates ... must notify the commissioner(s)"); a
  commissioner may put anyone forward. A date of birth, given privately, is needed only where the division
  sets a coach's age; it is kept on the nomination and shown to commissioners only.
- A coach too young at the reference date is refused when put forward and again when confirmed (the rules
  may change in between); nothing is saved either time.
- Confirming a coach or captain makes them one of the team's captains (as /setup team does); a person who
  already leads another team is refused. Confirming an assistant coach names them as /team assistant does,
  replacing the one before. Either way the nominee hears it by DM, with the commissioner's note if any.
- Ages are counted at the reference date of the league's newest season (the one being drafted for), or of
  a season starting today when there is none yet.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import date, datetime

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.access import Caller, Role
from bot.clock import Clock
from bot.discord_text import clean_user_text, clip
from bot.errors import Conflict, InvalidInput, NotAllowed, NotFound
from bot.league.registration.eligibility import age_on, reference_date
from bot.league.rules import Rules
from bot.league.staff.management import (
    POST_TITLES,
    POSTS,
    Blocker,
    TeamLeaders,
    coach_age_problem,
    coach_min_age,
    draft_blockers,
)
from bot.services import outbox
from storage import lookups
from storage.db import retried_on_disconnect
from storage.models import AssistantCoach, Division, Season, StaffNomination, Team, TeamCaptain
from storage.text import printable

log = logging.getLogger("sideline.staff")


@dataclass(frozen=True)
class Nominated:
    id: int
    team: str
    post: str  # "coach" | "assistant" | "captain"
    name: str
    already: bool  # the same nomination was waiting already


@dataclass(frozen=True)
class Nomination:
    """A waiting nomination as the commissioners see it (``born`` and ``age`` are theirs only)."""

    id: int
    team: str
    division: str | None
    post: str
    name: str
    discord_id: int
    born: date | None
    age: int | None
    nominated_at: datetime


@dataclass(frozen=True)
class Nominations:
    waiting: list[Nomination]
    blockers: list[Blocker]
    reference: date


@dataclass(frozen=True)
class Decision:
    id: int
    team: str
    post: str
    name: str
    discord_id: int
    confirmed: bool
    replaced: str | None = None  # the assistant coach this one replaced


def parse_born(text: str | None) -> date | None:
    """A date of birth typed as YYYY-MM-DD (None when not given)."""
    if text is None or not text.strip():
        return None
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise InvalidInput("Give the date of birth as year-month-day, like 2010-04-23.") from None


async def reference_day(session: AsyncSession, caller: Caller, now: datetime) -> date:
    """The day ages are counted at for the season being drafted for (the league's newest)."""
    first = await session.scalar(select(Season.first_day).where(Season.league_id == caller.league_id)
                                 .order_by(Season.starts_at.desc()).limit(1))
    if first is None:
        first = now.astimezone(caller.league.timezone).date()
    return reference_date(first, caller.league.rules.registration)


async def team_blockers(session: AsyncSession, league_id: int, rules: Rules, reference: date) -> list[Blocker]:
    """The teams the draft must wait for (the draft asks this before it starts)."""
    teams = (await session.execute(select(Team.id, Team.name, Division.name)
                                   .outerjoin(Division, Division.id == Team.division_id)
                                   .where(Team.league_id == league_id).order_by(Team.name))).all()
    captains: dict[int, list[int]] = {}
    for team_id, discord_id in (await session.execute(select(TeamCaptain.team_id, TeamCaptain.discord_id)
                                                      .where(TeamCaptain.league_id == league_id))).all():
        captains.setdefault(team_id, []).append(discord_id)
    born: dict[tuple[int, int], date] = {}
    for team_id, discord_id, day in (await session.execute(
            select(StaffNomination.team_id, StaffNomination.discord_id, StaffNomination.born)
            .where(StaffNomination.league_id == league_id, StaffNomination.status == "confirmed",
                   StaffNomination.post == "coach", StaffNomination.born.is_not(None))
            .order_by(StaffNomination.id))).all():
        if day is not None:  # the newest confirmed date counts
            born[(team_id, discord_id)] = day
    leaders = [TeamLeaders(name, division, [age_on(born[(team_id, c)], reference) if (team_id, c) in born else None
                                            for c in captains.get(team_id, [])])
               for team_id, name, division in teams]
    return draft_blockers(leaders, rules.staff)


@retried_on_disconnect
class NominationService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock) -> None:
        self.sessions = sessions
        self.clock = clock

    async def nominate(self, caller: Caller, post: str, team_name: str, member_id: int, member_name: str,
                       born_text: str | None = None) -> Nominated:
        """Put a member (yourself; a commissioner: anyone) forward for a team's management (youth 1.5)."""
        if post not in POSTS:
            raise InvalidInput("Choose coach, assistant coach or captain.")
        if member_id != caller.discord_id and not caller.is_commissioner:
            raise NotAllowed("You can put yourself forward; only a commissioner can put someone else forward.")
        born, now = parse_born(born_text), self.clock.now()
        name = clean_user_text(member_name, 100) or "someone"
        title = POST_TITLES[post]
        async with self.sessions.begin() as session:
            team = await _team(session, caller, team_name)
            division = team.division.name if team.division else None
            reference = await reference_day(session, caller, now)
            if born is not None and born > now.date():
                raise InvalidInput("That date of birth is in the future.")
            if post != "coach" or coach_min_age(division, caller.league.rules.staff) is None:
                born = None  # asked only where a coach's age matters: nothing private kept without need
            if post == "coach" and (problem := coach_age_problem(born, reference, division, caller.league.rules.staff)):
                hint = " (a date of birth, given privately)" if born is None else ""
                raise InvalidInput(f"{name} can't be put forward as {team.name}'s coach: {problem}{hint}.")
            if await _holds(session, caller, team, post, member_id):
                raise Conflict(f"{name} is already {team.name}'s {title}.")
            waiting = await session.scalar(select(StaffNomination).where(
                StaffNomination.league_id == caller.league_id, StaffNomination.team_id == team.id,
                StaffNomination.post == post, StaffNomination.discord_id == member_id,
                StaffNomination.status == "pending"))
            if waiting is not None:
                if born is not None:
                    waiting.born = born
                return Nominated(waiting.id, team.name, post, name, already=True)
            row = StaffNomination(league_id=caller.league_id, team_id=team.id, post=post, discord_id=member_id,
                                  name=name, born=born, nominated_by=caller.discord_id, nominated_at=now)
            session.add(row)
            await session.flush()
            log.info("nomination %s for %s of %s by %s", row.id, post, team.name, caller.discord_id)
            return Nominated(row.id, team.name, post, name, already=False)

    async def waiting(self, caller: Caller) -> Nominations:
        """The waiting nominations, with dates of birth and ages, and the teams the draft waits for."""
        caller.require(Role.COMMISSIONER)
        async with self.sessions() as session:
            reference = await reference_day(session, caller, self.clock.now())
            rows = (await session.execute(
                select(StaffNomination, Team.name, Division.name).join(Team, Team.id == StaffNomination.team_id)
                .outerjoin(Division, Division.id == Team.division_id)
                .where(StaffNomination.league_id == caller.league_id, StaffNomination.status == "pending")
                .order_by(StaffNomination.id))).all()
            waiting = [Nomination(n.id, team, division, n.post, n.name, n.discord_id, n.born,
                                  age_on(n.born, reference) if n.born else None, n.nominated_at)
                       for n, team, division in rows]
            blockers = await team_blockers(session, caller.league_id, caller.league.rules, reference)
            return Nominations(waiting, blockers, reference)

    async def draft_blockers(self, caller: Caller) -> list[Blocker]:
        """What keeps the draft from starting: teams without a confirmed coach or captain (youth 1.3)."""
        async with self.sessions() as session:
            reference = await reference_day(session, caller, self.clock.now())
            return await team_blockers(session, caller.league_id, caller.league.rules, reference)

    async def decide(self, caller: Caller, nomination_id: int, *, confirm: bool, note: str | None = None) -> Decision:
        """A commissioner confirms or declines a nomination; the nominee hears it privately."""
        caller.require(Role.COMMISSIONER)
        now, note = self.clock.now(), clean_user_text(note or "", 500)
        async with self.sessions.begin() as session:
            row = await session.scalar(select(StaffNomination).where(
                StaffNomination.league_id == caller.league_id, StaffNomination.id == nomination_id))
            if row is None:
                raise NotFound(f"There's no nomination #{nomination_id} in {caller.league.name}: /team nominations "
                               "lists the waiting ones.")
            if row.status != "pending":
                raise Conflict(f"Nomination #{row.id} ({row.name}) was already {row.status}.")
            team = await lookups.team_by_id(session, caller.league_id, row.team_id)
            assert team is not None  # a nomination goes with its team (ON DELETE CASCADE)
            title, replaced = POST_TITLES[row.post], None
            if confirm:
                replaced = await self._appoint(session, caller, row, team, now)
            taken = await session.execute(update(StaffNomination).where(
                StaffNomination.id == row.id, StaffNomination.status == "pending").values(
                status="confirmed" if confirm else "declined", decided_by=caller.discord_id, decided_at=now))
            if taken.rowcount != 1:  # type: ignore[attr-defined]  # an UPDATE's result has rowcount
                raise Conflict(f"Another commissioner decided nomination #{row.id} a moment ago; nothing changed.")
            said = "confirmed you as" if confirm else "declined your nomination as"
            text = f"🧢 {clip(caller.league.name, 100)}: the commissioners {said} {team.name}'s {title}."
            if note:
                text += f"\nTheir note: {note}"
            await outbox.tell(session, league_id=caller.league_id, guild_id=caller.league.guild_id,
                              key=f"nomination:{row.id}", user_id=row.discord_id, text=text, due_at=now)
            log.info("nomination %s %s by %s", row.id, "confirmed" if confirm else "declined", caller.discord_id)
            return Decision(row.id, team.name, row.post, row.name, row.discord_id, confirm, replaced)

    async def _appoint(self, session: AsyncSession, caller: Caller, row: StaffNomination, team: Team,
                       now: datetime) -> str | None:
        """Make the nominee what they were put forward as; the assistant coach they replace, if any."""
        if row.post == "coach":
            reference = await reference_day(session, caller, now)
            division = team.division.name if team.division else None
            if problem := coach_age_problem(row.born, reference, division, caller.league.rules.staff):
                raise InvalidInput(f"{row.name} can't be confirmed as {team.name}'s coach: {problem}.")
        if row.post == "assistant":
            current = await session.scalar(select(AssistantCoach).where(
                AssistantCoach.league_id == caller.league_id, AssistantCoach.team_id == team.id))
            if current is not None and current.discord_id == row.discord_id:
                return None
            if current is not None:
                await session.execute(delete(AssistantCoach).where(AssistantCoach.id == current.id))
            session.add(AssistantCoach(league_id=caller.league_id, team_id=team.id, discord_id=row.discord_id,
                                       name=row.name, named_by=caller.discord_id, named_at=now))
            return current.name if current is not None else None
        led = (await session.scalars(select(TeamCaptain.team_id).where(
            TeamCaptain.league_id == caller.league_id, TeamCaptain.discord_id == row.discord_id))).all()
        others = [t for t in led if t != team.id]
        if others:
            other = await lookups.team_by_id(session, caller.league_id, others[0])
            raise Conflict(f"{row.name} already leads {other.name if other else 'another team'}: a person leads one "
                           "team. Nothing changed.")
        if not led:
            session.add(TeamCaptain(league_id=caller.league_id, team_id=team.id, discord_id=row.discord_id))
        return None


async def _team(session: AsyncSession, caller: Caller, team_name: str) -> Team:
    team = await lookups.team_by_name(session, caller.league_id, team_name)
    if team is None:
        raise NotFound(f"There's no team called “{printable(team_name).strip()[:100]}” in {caller.league.name}.")
    return team


async def _holds(session: AsyncSession, caller: Caller, team: Team, post: str, member_id: int) -> bool:
    """The member already holds the post on the team (a coach and a captain are both the team's captain)."""
    if post == "assistant":
        held = await session.scalar(select(AssistantCoach.id).where(
            AssistantCoach.league_id == caller.league_id, AssistantCoach.team_id == team.id,
            AssistantCoach.discord_id == member_id))
        return held is not None
    if member_id not in await lookups.captain_ids(session, team.id):
        return False
    if post == "captain" or team.division is None:
        return True
    # A captain whose age isn't on file may be put forward as the coach where the division sets an age.
    if caller.league.rules.staff.coach_min_age_by_division.get(team.division.name.casefold()) is None:
        return True
    confirmed = await session.scalar(select(StaffNomination.id).where(
        StaffNomination.team_id == team.id, StaffNomination.discord_id == member_id,
        StaffNomination.post == "coach", StaffNomination.status == "confirmed"))
    return confirmed is not None
