"""Once a week, the rules questions the bot couldn't answer, in the league's admin channel.

A digest is a row in the outbox due on Monday morning in the league's time zone, keyed by the week,
so a restart neither loses nor repeats it (bot/services/outbox.py). It is queued when there is
something to tell (a question the bot was unsure of or that someone marked not what they asked); at
send time it reads that week's open questions (nothing: nothing is sent) and queues the next
week's. Who asked is shown only where the league turned it on.
"""

from __future__ import annotations

import logging
from datetime import datetime, time, timedelta

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.config.settings import LeagueSettings, Settings
from bot.discord_text import clip, timestamp
from bot.services import outbox
from bot.services.outbox import Outgoing, Rendered
from bot.services.rulebooks.questions import unanswered_questions
from storage.models import OutboxMessage, RuleFeedbackSettings

log = logging.getLogger("sideline.rules")

DIGEST_KIND = "rule_digest"
#: Monday, 09:00 in the league's time zone.
DIGEST_WEEKDAY, DIGEST_AT = 0, time(9, 0)
WEEK = timedelta(days=7)
#: Questions a digest lists (the newest; it says how many there were).
DIGEST_SHOWN = 10


def next_digest_at(now: datetime, league: LeagueSettings) -> datetime:
    """The next Monday 09:00 in the league's time zone after ``now``, in UTC."""
    local = now.astimezone(league.timezone)
    day = local.date() + timedelta(days=(DIGEST_WEEKDAY - local.weekday()) % 7)
    due = datetime.combine(day, DIGEST_AT, tzinfo=league.timezone)
    if due <= local:
        due = datetime.combine(day + WEEK, DIGEST_AT, tzinfo=league.timezone)
    return due.astimezone(now.tzinfo)


def digest_key(league_id: int, due: datetime, league: LeagueSettings) -> str:
    week = due.astimezone(league.timezone).isocalendar()
    return f"rule-digest:{league_id}:{week.year}-W{week.week:02d}"


async def ensure_digest(session: AsyncSession, league: LeagueSettings, league_id: int, now: datetime) -> bool:
    """Queue this week's digest unless it is queued (or the league has no admin channel to post it in)."""
    channel = league.channels.admin
    if channel is None:
        return False
    due = next_digest_at(now, league)
    queued = await outbox.enqueue(session, league_id=league_id, guild_id=league.guild_id,
                                  key=digest_key(league_id, due, league), due_at=due, kind=DIGEST_KIND,
                                  args={"since": (due - WEEK).isoformat()}, channel_id=channel)
    return queued.created


def digest_embed(lines: list[str], total: int, since: datetime) -> dict[str, object]:
    more = f"\n…and {total - len(lines)} more." if total > len(lines) else ""
    return {
        "title": f"Rules questions the bot couldn't answer this week ({total})",
        "description": clip(f"Asked since {timestamp(since, 'D')}:\n" + "\n".join(lines) + more, 4000),
        "footer": {"text": "Link a question to the section that answers it with /rulebook link; "
                           "see them all with /rulebook unanswered."},
    }


class RuleDigest:
    """Renders a league's weekly digest when it is due, and queues the next week's."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    async def render(self, session: AsyncSession, row: OutboxMessage, now: datetime) -> Rendered:
        league = self.settings.league_for_guild(row.guild_id)
        if league is None:
            log.info("skipped %s: the server has no league any more", row.send_key)
            return None
        await ensure_digest(session, league, row.league_id, max(now, row.due_at))
        since = datetime.fromisoformat(str(row.args.get("since"))) if row.args.get("since") else row.due_at - WEEK
        found, total = await unanswered_questions(session, row.league_id, limit=DIGEST_SHOWN, since=since,
                                                  until=row.due_at)
        if not found:
            log.info("skipped %s: no question went unanswered that week", row.send_key)
            return None
        show = bool(await session.scalar(select(RuleFeedbackSettings.show_askers)
                                         .where(RuleFeedbackSettings.league_id == row.league_id)))
        lines = []
        for q in found:
            who = f" — <@{q.asked_by}>" if show and q.asked_by else ""
            lines.append(f"`#{q.id}` “{clip(q.question, 150)}” ({q.why}){who}")
        return Outgoing(embeds=(digest_embed(lines, total, since),))
