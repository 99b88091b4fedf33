"""A deadline's nudge as it reads when it is sent: nothing once the deadline is done or a later nudge
is due, a muted player's skipped, and an overdue one queueing the next day's (bot/services/deadlines/service.py
plans them)."""

from __future__ import annotations

import logging
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.discord_text import clip, timestamp
from bot.services import outbox
from bot.services.availability.preferences import preference_of
from bot.services.deadlines.service import (
    FANOUT_USER,
    NAG_EVERY,
    NUDGE_KIND,
    SUBJECT_LIMIT,
    Target,
    days_overdue,
    deadline_by_id,
    epoch,
    key_prefix,
)
from bot.services.outbox import FanOut, Outgoing, Rendered
from storage import lookups
from storage.models import Deadline, OutboxMessage, Team, TeamCaptain

log = logging.getLogger("sideline.deadlines")


def nudge_text(deadline: Deadline, *, overdue: bool, team_name: str | None = None) -> str:
    due = deadline.due_at
    subject = f"**{clip(deadline.subject, SUBJECT_LIMIT)}**"
    who = {
        "commissioners": "Commissioners: ",
        "role": f"<@&{deadline.audience_id}>: ",
        "team": f"{team_name}: " if team_name else "",
        "player": "",
    }[deadline.audience_kind]
    if overdue:
        text = f"⚠️ {who}{subject} was due {timestamp(due)} ({timestamp(due, 'R')}) and isn't done yet."
    else:
        text = f"⏰ {who}{subject} is due {timestamp(due)} ({timestamp(due, 'R')})."
    ref = f"`#{deadline.id}`"
    return f"{text} (deadline {ref}; a commissioner closes it with `/deadline done`)"


async def render_nudge(session: AsyncSession, row: OutboxMessage, now: datetime) -> Rendered:
    """A deadline nudge as it reads now; nothing once the deadline is done or a later nudge is due."""
    args = row.args
    deadline = await deadline_by_id(session, row.league_id, int(args["deadline_id"]))
    if deadline is None or deadline.done_at is not None:
        return None
    if deadline.audience_kind == "player" and await _muted(session, deadline):
        log.info("skipped %s: the player muted deadline nudges (/profile reminders)", row.send_key)
        return None
    if args.get("stage") == "before":
        next_at = args.get("next_at")
        if next_at and now >= datetime.fromisoformat(next_at):
            log.info("skipped %s: a later nudge for the same deadline is due", row.send_key)
            return None
        overdue = False
    else:
        overdue = True
        await _queue_next_nag(session, deadline, row, now)
    team_name = None
    if deadline.audience_kind == "team":
        team = await session.get(Team, int(deadline.audience_id or 0))
        team_name = team.name if team else None
    message = Outgoing(content=nudge_text(deadline, overdue=overdue, team_name=team_name))
    if row.user_id == FANOUT_USER:
        captains = await _team_captain_ids(session, deadline)
        if not captains:
            log.warning("deadline %s: team has no channel and no captains to nudge", deadline.id)
            return None
        return FanOut(tuple((str(c), c, message) for c in captains))
    return message


async def _muted(session: AsyncSession, deadline: Deadline) -> bool:
    """The one player a nudge is for muted deadline nudges, and captains no team (a captain's must arrive)."""
    member = int(deadline.audience_id or 0)
    if not (await preference_of(session, deadline.league_id, member)).mute_deadline_nudges:
        return False
    captains = await session.scalar(select(func.count()).select_from(TeamCaptain).where(
        TeamCaptain.league_id == deadline.league_id, TeamCaptain.discord_id == member))
    return not captains


async def _queue_next_nag(session: AsyncSession, deadline: Deadline, row: OutboxMessage, now: datetime) -> None:
    day = max(int(row.args.get("day", 0)), days_overdue(deadline.due_at, now)) + 1
    when = deadline.due_at + day * NAG_EVERY
    target = Target(channel_id=row.channel_id, user_id=row.user_id)
    await outbox.enqueue(
        session, league_id=deadline.league_id, guild_id=row.guild_id,
        key=f"{key_prefix(deadline.id)}{epoch(deadline.due_at)}:overdue:{day}", due_at=when, kind=NUDGE_KIND,
        args={"deadline_id": deadline.id, "stage": "overdue", "day": day, "next_at": None},
        channel_id=target.channel_id, user_id=target.user_id)


async def _team_captain_ids(session: AsyncSession, deadline: Deadline) -> list[int]:
    team = await session.get(Team, int(deadline.audience_id or 0))
    if team is None or team.league_id != deadline.league_id:
        return []
    return await lookups.captain_ids(session, team.id)
