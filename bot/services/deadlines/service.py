"""Deadlines as data: create one, nudge its audience at set offsets, stop once it is done.

Other features own their deadline through ``ref`` (e.g. ``"dispute:12"``): they create it with
``create_deadline(..., ref=...)`` and close it with ``complete_deadline(session, league_id, ref, ...)``.

Choices the spec leaves open, decided here:
- Nudges are outbox rows (kind ``deadline_nudge``, key ``deadline:<id>:<due epoch>:...``), rendered
  at send time: a deadline done by then sends nothing. The due time is in the key, so moving a
  deadline gives fresh nudges while the ones already sent stay sent.
- Where a nudge goes: commissioners -> the admin channel (else announcements); team -> the team's
  channel, or a DM to each captain when it has none; player -> a DM; role -> the announcements channel,
  naming the role (roles are never pinged).
- Nudges missed while the bot was down are sent late once, and only the latest one that is due:
  an earlier nudge is skipped when a later one is due too. Nudges before the due time expire at it.
- A player who muted deadline nudges (/profile reminders) gets none for a deadline whose audience is
  them alone, unless they captain a team; a team's, a role's and the commissioners' nudges are never muted.
- ``nag_until_done``: one nudge at the due time, then one a day until done; the renderer queues the
  next one (a day missed while the bot was down is not made up: the next goes out on the next whole
  day after the due time).
- ``create_deadline`` with a ``ref`` that exists reschedules that deadline (subject, time, audience,
  offsets) and reopens it: it is "create or update", safe to call again.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.access import Caller, Role
from bot.clock import Clock
from bot.config.settings import LeagueSettings
from bot.discord_text import clean_user_text, quote
from bot.errors import Conflict, InvalidInput, NotFound
from bot.league.deadlines import Offset, format_offset, nudge_times, parse_offset, parse_offsets
from bot.league.local_time import parse_local_time
from bot.services import outbox
from storage import lookups
from storage.db import retried_on_disconnect, rowcount
from storage.models import Deadline, OutboxMessage, Team
from storage.models.deadlines import AUDIENCE_KINDS

log = logging.getLogger("sideline.deadlines")

NUDGE_KIND = "deadline_nudge"
NAG_EVERY = timedelta(days=1)
#: Target of a row that only fans out to DMs at send time (it is never sent as it is).
FANOUT_USER = 0
KINDS = ("custom", "appeal_window", "appeal_decision", "dispute_decision", "payment", "trade")
SUBJECT_LIMIT = 200


@dataclass(frozen=True)
class Target:
    """Where a league message goes: one channel, or one user (FANOUT_USER: DMs decided at send time)."""

    channel_id: int | None = None
    user_id: int | None = None


def team_target(team: Team) -> Target:
    """A team's messages: its channel, else DMs decided at send time."""
    return Target(channel_id=team.channel_id) if team.channel_id else Target(user_id=FANOUT_USER)


def key_prefix(deadline_id: int) -> str:
    return f"deadline:{deadline_id}:"


def epoch(when: datetime) -> int:
    return int(when.timestamp())


def _stored(offset: Offset) -> int | str:
    """How a nudge offset is kept: minutes when it is elapsed time, its spelling when it has days."""
    return offset.minutes if not offset.days else format_offset(offset)


def _offsets(deadline: Deadline) -> tuple[Offset, ...]:
    """The deadline's nudge offsets (older rows hold minutes only: elapsed time)."""
    return tuple(parse_offset(timedelta(minutes=v) if isinstance(v, int) else v) for v in deadline.offsets)


# --- public API ----------------------------------------------------------------------------------
async def create_deadline(session: AsyncSession, league: LeagueSettings, league_id: int, *, kind: str,
                          subject: str, due_at: datetime, audience_kind: str, audience_id: int | None,
                          now: datetime, offsets: Sequence[timedelta | Offset] | None = None, ref: str | None = None,
                          nag_until_done: bool = False, created_by: int | None = None) -> Deadline:
    """Record a deadline (or reschedule the one with this ``ref``) and queue its nudges."""
    if due_at.tzinfo is None:
        raise ValueError("due_at must be timezone-aware")
    if audience_kind not in AUDIENCE_KINDS:
        raise ValueError(f"audience_kind must be one of {', '.join(AUDIENCE_KINDS)}, not {audience_kind!r}")
    if audience_kind != "commissioners" and audience_id is None:
        raise ValueError(f"a {audience_kind} deadline needs an audience_id")
    subject = subject.strip()
    if not subject:
        raise InvalidInput("A deadline needs a name.")
    if len(subject) > SUBJECT_LIMIT:
        raise InvalidInput(f"A deadline's name can be at most {SUBJECT_LIMIT} characters.")
    if audience_kind == "team" and await lookups.team_by_id(session, league_id, int(audience_id or 0)) is None:
        raise NotFound("That team isn't in this league.")
    deltas = parse_offsets(offsets if offsets is not None else league.rules.deadlines.default_nudge_offsets)

    deadline = None
    if ref is not None:
        deadline = await deadline_by_ref(session, league_id, ref)
    if deadline is None:
        deadline = Deadline(league_id=league_id, ref=ref, created_by=created_by, created_at=now)
        session.add(deadline)
    else:
        await outbox.cancel_pending(session, league_id, key_prefix(deadline.id))
    deadline.kind, deadline.subject = kind[:32], subject
    deadline.due_at = due_at.astimezone(UTC)
    deadline.audience_kind, deadline.audience_id = audience_kind, audience_id
    deadline.offsets = [_stored(d) for d in deltas]
    deadline.nag_until_done = nag_until_done
    deadline.done_at, deadline.done_note = None, ""
    await session.flush()
    await plan_nudges(session, league, deadline, now)
    return deadline


async def complete_deadline(session: AsyncSession, league_id: int, ref: str, *, now: datetime,
                            note: str = "") -> Deadline | None:
    """Mark the deadline with this ``ref`` done and stop its nudges; None when there is none."""
    deadline = await deadline_by_ref(session, league_id, ref)
    if deadline is None:
        return None
    await _complete(session, deadline, now, note)
    return deadline


async def complete_deadline_by_id(session: AsyncSession, league_id: int, deadline_id: int, *, now: datetime,
                                  note: str = "") -> Deadline | None:
    deadline = await deadline_by_id(session, league_id, deadline_id)
    if deadline is None:
        return None
    await _complete(session, deadline, now, note)
    return deadline


async def deadline_by_ref(session: AsyncSession, league_id: int, ref: str) -> Deadline | None:
    return await session.scalar(select(Deadline).where(Deadline.league_id == league_id, Deadline.ref == ref))


async def deadline_by_id(session: AsyncSession, league_id: int, deadline_id: int) -> Deadline | None:
    return await session.scalar(select(Deadline).where(Deadline.league_id == league_id,
                                                       Deadline.id == deadline_id))


async def open_deadlines(session: AsyncSession, league_id: int, *, include_done: bool = False,
                         limit: int = 50) -> list[Deadline]:
    """Deadlines of the league, soonest first (open ones only unless ``include_done``)."""
    query = select(Deadline).where(Deadline.league_id == league_id)
    if not include_done:
        query = query.where(Deadline.done_at.is_(None))
    return list((await session.scalars(query.order_by(Deadline.due_at, Deadline.id).limit(limit))).all())


# --- planning ------------------------------------------------------------------------------------
async def _complete(session: AsyncSession, deadline: Deadline, now: datetime, note: str) -> None:
    if deadline.done_at is None:
        deadline.done_at, deadline.done_note = now, note.strip()[:300]
    await outbox.cancel_pending(session, deadline.league_id, key_prefix(deadline.id))


async def audience_target(session: AsyncSession, league: LeagueSettings, league_id: int, audience_kind: str,
                          audience_id: int | None) -> Target | None:
    """Where messages for an audience go; None when the league has nowhere to put them."""
    channels = league.channels
    if audience_kind == "commissioners":
        channel = channels.admin or channels.announcements
        return Target(channel_id=channel) if channel else None
    if audience_kind == "role":
        return Target(channel_id=channels.announcements) if channels.announcements else None
    if audience_kind == "player":
        return Target(user_id=audience_id)
    team = await lookups.team_by_id(session, league_id, int(audience_id or 0))
    return team_target(team) if team is not None else None


async def follow_team_channels(session: AsyncSession, teams: Sequence[Team]) -> int:
    """Teams whose channel changed: the pending nudges of their open deadlines go where the
    team's messages go now. Returns how many nudges were redirected."""
    redirected = 0
    for team in teams:
        target = team_target(team)
        open_ids = (await session.scalars(select(Deadline.id).where(
            Deadline.league_id == team.league_id, Deadline.audience_kind == "team",
            Deadline.audience_id == team.id, Deadline.done_at.is_(None)))).all()
        for deadline_id in open_ids:
            result = await session.execute(
                update(OutboxMessage)
                .where(OutboxMessage.league_id == team.league_id, OutboxMessage.status == "pending",
                       OutboxMessage.send_key.startswith(key_prefix(deadline_id), autoescape=True))
                .values(channel_id=target.channel_id, user_id=target.user_id))
            redirected += rowcount(result) or 0
    return redirected


async def plan_nudges(session: AsyncSession, league: LeagueSettings, deadline: Deadline, now: datetime) -> int:
    """Queue a deadline's nudges (idempotent by key); returns how many were new."""
    if deadline.done_at is not None:
        return 0
    target = await audience_target(session, league, deadline.league_id, deadline.audience_kind,
                                   deadline.audience_id)
    if target is None:
        log.warning("deadline %s (%s) has no channel to nudge %s in; configure channels.admin or "
                    "channels.announcements", deadline.id, deadline.subject, deadline.audience_kind)
        return 0
    due = deadline.due_at
    deltas = _offsets(deadline)
    times = nudge_times(due, deltas, now, league.timezone)
    scheduled = {d.before(due, league.timezone): d for d in deltas}
    created = 0
    for i, when in enumerate(times):
        delta = scheduled.get(when)
        label = f"{delta.minutes}m" if delta is not None else "late"
        following = times[i + 1] if i + 1 < len(times) else None
        if following is None and deadline.nag_until_done:
            following = due
        created += await _queue(session, league, deadline, target, label, when, stage="before",
                                next_at=following, expires_at=due if when < due else None)
    if deadline.nag_until_done:
        day = 0 if now <= due else days_overdue(due, now)
        when = due + day * NAG_EVERY if now <= due else now
        created += await _queue(session, league, deadline, target, f"overdue:{day}", when, stage="overdue",
                                day=day)
    if not times and not deadline.nag_until_done and due > now:
        log.info("deadline %s (%s): no nudge offsets left before it is due", deadline.id, deadline.subject)
    return created


def days_overdue(due: datetime, now: datetime) -> int:
    return int((now - due) / NAG_EVERY)


async def _queue(session: AsyncSession, league: LeagueSettings, deadline: Deadline, target: Target, label: str,
                 when: datetime, *, stage: str, next_at: datetime | None = None, day: int = 0,
                 expires_at: datetime | None = None) -> int:
    queued = await outbox.enqueue(
        session, league_id=deadline.league_id, guild_id=league.guild_id,
        key=f"{key_prefix(deadline.id)}{epoch(deadline.due_at)}:{label}", due_at=when, kind=NUDGE_KIND,
        args={"deadline_id": deadline.id, "stage": stage, "day": day,
              "next_at": next_at.isoformat() if next_at else None},
        channel_id=target.channel_id, user_id=target.user_id, expires_at=expires_at)
    return int(queued.created)


# --- the /deadline commands ----------------------------------------------------------------------
_MENTION = re.compile(r"<@(?P<kind>[!&]?)(?P<id>\d{1,20})>")


@dataclass(frozen=True)
class DeadlineLine:
    """A deadline as commissioners see it in /deadline list."""

    id: int
    kind: str
    subject: str
    due_at: datetime
    audience: str  # "commissioners", a team's name, or a role / member mention
    nudges: tuple[str, ...]
    nag_until_done: bool
    done_at: datetime | None
    done_note: str
    ref: str | None


@dataclass(frozen=True)
class DeadlineAdded:
    deadline: DeadlineLine
    nudges_queued: int


@dataclass(frozen=True)
class Audience:
    kind: str
    id: int | None


AudienceCheck = Callable[[Audience], Awaitable[bool]]


def _line(deadline: Deadline, team_names: dict[int, str]) -> DeadlineLine:
    audience = {
        "commissioners": "commissioners",
        "team": team_names.get(int(deadline.audience_id or 0), "a deleted team"),
        "role": f"<@&{deadline.audience_id}>",
        "player": f"<@{deadline.audience_id}>",
    }[deadline.audience_kind]
    return DeadlineLine(deadline.id, deadline.kind, deadline.subject, deadline.due_at, audience,
                        tuple(format_offset(o) for o in _offsets(deadline)),
                        deadline.nag_until_done, deadline.done_at, deadline.done_note, deadline.ref)


async def _team_names(session: AsyncSession, league_id: int) -> dict[int, str]:
    return {t.id: t.name for t in await lookups.teams(session, league_id)}


def parse_due(value: str, league: LeagueSettings, now: datetime) -> datetime:
    """A league-local ``YYYY-MM-DD HH:MM`` in the future, as UTC."""
    tz = league.timezone
    try:
        when = parse_local_time(value.strip(), tz)
    except ValueError as exc:
        raise InvalidInput(f"The due time {exc}. Write it as YYYY-MM-DD HH:MM, {tz.key} time.") from None
    if when <= now:
        raise InvalidInput(f"{value.strip()} ({tz.key}) is in the past; a deadline needs a time ahead.")
    return when


def parse_nudges(value: str | None) -> tuple[Offset, ...] | None:
    """ "72h, 24h, 2h" or "1d, 2h" -> offsets; None (the league's default) when empty."""
    if value is None or not value.strip():
        return None
    try:
        return parse_offsets(p for p in re.split(r"[\s,]+", value.strip()) if p)
    except ValueError as exc:
        raise InvalidInput(f"Nudges: {exc}.") from None


def discord_audience(value: str) -> Audience | None:
    """A role or member, by mention or ``role:<id>`` / ``player:<id>``; None: not one of those."""
    text = value.strip()
    mention = _MENTION.fullmatch(text)
    if mention:
        return Audience("role" if mention["kind"] == "&" else "player", _snowflake(mention["id"]))
    prefix, _, rest = text.partition(":")
    if prefix.casefold() in ("role", "player", "member") and rest.strip().isascii() and rest.strip().isdigit():
        return Audience("role" if prefix.casefold() == "role" else "player", _snowflake(rest.strip()))
    return None


async def parse_audience(session: AsyncSession, league_id: int, value: str) -> Audience:
    """commissioners, a team (by name or ``team:<name>``), a role or a member (mention or ``role:<id>``)."""
    text = value.strip()
    if text.casefold() in ("commissioners", "commissioner", "commish"):
        return Audience("commissioners", None)
    found = discord_audience(text)
    if found is not None:
        return found
    prefix, _, rest = text.partition(":")
    name = rest if prefix.casefold() == "team" else text
    team = await lookups.team_by_name(session, league_id, name)
    if team is None:
        raise NotFound(f"There's no team, role or member “{quote(text)}”. Pick one from the suggestions, "
                       "or mention a role or member.")
    return Audience("team", team.id)


def _snowflake(digits: str) -> int:
    value = int(digits)
    if not 0 < value < 2**63:
        raise InvalidInput(f"{digits[:25]} is not a Discord id.")
    return value


@retried_on_disconnect
class DeadlineService:
    """/deadline add|list|done for commissioners."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock) -> None:
        self.sessions = sessions
        self.clock = clock

    async def add(self, caller: Caller, *, name: str, due: str, audience: str, nudges: str | None = None,
                  nag_until_done: bool = False, on_this_server: AudienceCheck | None = None) -> DeadlineAdded:
        """``on_this_server`` says whether a role or member audience exists on the league's server
        (the cog asks Discord); a deadline for an id that isn't there would nudge nobody."""
        caller.require(Role.COMMISSIONER)
        now = self.clock.now()
        due_at = parse_due(due, caller.league, now)
        offsets = parse_nudges(nudges)
        named = discord_audience(audience)
        if named is not None and on_this_server is not None and not await on_this_server(named):
            what = "role" if named.kind == "role" else "member"
            raise NotFound(f"There's no {what} with id {named.id} on this server, so nobody would be nudged. "
                           f"Mention the {what} instead, or pick from the suggestions.")
        async with self.sessions.begin() as session:
            who = named if named is not None else await parse_audience(session, caller.league_id, audience)
            deadline = await create_deadline(
                session, caller.league, caller.league_id, kind="custom", subject=clean_user_text(name, SUBJECT_LIMIT),
                due_at=due_at, audience_kind=who.kind, audience_id=who.id, now=now, offsets=offsets,
                nag_until_done=nag_until_done, created_by=caller.discord_id)
            queued = await session.scalar(select(func.count()).select_from(OutboxMessage).where(
                OutboxMessage.league_id == caller.league_id, OutboxMessage.status == "pending",
                OutboxMessage.send_key.startswith(key_prefix(deadline.id), autoescape=True)))
            return DeadlineAdded(_line(deadline, await _team_names(session, caller.league_id)), queued or 0)

    async def list_deadlines(self, caller: Caller, *, include_done: bool = False) -> tuple[DeadlineLine, ...]:
        caller.require(Role.COMMISSIONER)
        async with self.sessions() as session:
            names = await _team_names(session, caller.league_id)
            found = await open_deadlines(session, caller.league_id, include_done=include_done)
            return tuple(_line(d, names) for d in found)

    async def done(self, caller: Caller, deadline_id: str, note: str = "") -> DeadlineLine:
        caller.require(Role.COMMISSIONER)
        number = deadline_id.strip().lstrip("#")
        if not (number.isascii() and number.isdigit()):
            raise InvalidInput("Pick a deadline from the suggestions (its number, like 12).")
        async with self.sessions.begin() as session:
            deadline = await deadline_by_id(session, caller.league_id, int(number)) if len(number) <= 18 else None
            if deadline is None:
                raise NotFound(f"There's no deadline #{number[:20]} in {caller.league.name}.")
            if deadline.done_at is not None:
                raise Conflict(f"Deadline #{number} ({deadline.subject}) was already marked done.")
            await _complete(session, deadline, self.clock.now(), clean_user_text(note, 300))
            return _line(deadline, await _team_names(session, caller.league_id))

    async def autocomplete(self, caller: Caller, text: str) -> list[DeadlineLine]:
        """Open deadlines matching the typed text (commissioners only; others see nothing)."""
        if not caller.is_commissioner:
            return []
        needle = text.strip().lstrip("#").casefold()
        found = await self.list_deadlines(caller)
        return [d for d in found if not needle or needle in d.subject.casefold() or needle == str(d.id)][:25]

    async def audience_choices(self, caller: Caller, text: str) -> list[tuple[str, str]]:
        """(label, value) for the audience option: commissioners and the league's teams."""
        needle = text.strip().casefold()
        choices = [("Commissioners", "commissioners")]
        async with self.sessions() as session:
            choices += [(f"Team: {t.name}", f"team:{t.name}") for t in await lookups.teams(session, caller.league_id)]
        return [c for c in choices if needle in c[0].casefold()]
