"""The weekly statistics post (youth 2.16: posted "the following week"): one message in the standings
channel, edited in place each week on the preset's weekday (``stats_post_weekday``) at 9:00 league time.

Each week is an outbox action row, ``stats-week:<league>:<local date>``: the outbox runs it once, across
restarts, and the run plans the next week's row in the same unit of work that reads the statistics. At
start, every league's next row is planned if missing (a new league, a changed weekday: a pending row for
another day is dropped). A run edits the stored message; the first time, or when the message was deleted,
it posts a new one through the outbox (``stats-message:...``) whose id the sent hook keeps.
"""

from __future__ import annotations

import logging
import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.clock import Clock
from bot.config.settings import LeagueSettings, Settings
from bot.discord_text import clip, timestamp
from bot.league.stats import CATEGORY_WORDS, next_post
from bot.services import outbox
from bot.services.discord_sync.api import Gone, Refused
from bot.services.outbox import ActionOutcome, ActionRow, Outgoing
from bot.services.stats.lines import ensure_seasons
from bot.services.stats.service import StatsService
from bot.services.stats.tables import board_table
from storage.db import retried_on_disconnect
from storage.models import League, StatsPost

log = logging.getLogger("sideline.stats")

WEEK_KIND = "stats_week"
MESSAGE_KIND = "stats_message"
CONTENT_LIMIT = 2000
#: Lines of each category in the post: the points' top 10, then the top 5 of the others.
POST_LINES = {"points": 10, "goals": 5, "assists": 5, "pim": 5}


def week_prefix(league_id: int) -> str:
    return f"stats-week:{league_id}:"


async def plan_next(session: AsyncSession, league: LeagueSettings, league_id: int, after: datetime) -> str | None:
    """Queue the league's next weekly post after ``after`` (nothing when it has no weekday or no standings
    channel); a pending one for another day goes. Returns its key."""
    weekday = league.rules.gamesheets.stats_post_weekday
    due = None if weekday is None or league.channels.standings is None else next_post(weekday, league.timezone,
                                                                                        after)
    key = None if due is None else f"{week_prefix(league_id)}{due.astimezone(league.timezone).date().isoformat()}"
    for row in await outbox.pending(session, league_id, week_prefix(league_id)):
        if row.send_key != key:
            row.status = "cancelled"
    if key is not None and due is not None:
        await outbox.enqueue(session, league_id=league_id, guild_id=league.guild_id, key=key, due_at=due,
                             kind=WEEK_KIND, action=True, args={})
    return key


async def message_sent(session: AsyncSession, *, send_key: str, message_id: int) -> None:
    """The outbox's hook once a new statistics message is posted: kept, to be edited next week."""
    await session.execute(update(StatsPost).where(StatsPost.send_key == send_key[:200]).values(message_id=message_id))


@retried_on_disconnect
class WeeklyStats:
    """The action behind each week's row, and the plan at start."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock, settings: Settings,
                 stats: StatsService) -> None:
        self.sessions = sessions
        self.clock = clock
        self.settings = settings
        self.stats = stats

    async def at_start(self, league_ids: dict[int, int]) -> None:
        async with self.sessions.begin() as session:
            for guild_id, league_id in league_ids.items():
                league = self.settings.league_for_guild(guild_id)
                if league is not None:
                    await plan_next(session, league, league_id, self.clock.now())

    async def after_result(self, session: AsyncSession, league_id: int, game_id: int) -> None:
        """The result hook's shape: a league set up in Discord since the start has its weekly post planned once
        it has something to count (idempotent: the week's row is queued once)."""
        del game_id
        key = await session.scalar(select(League.key).where(League.id == league_id))
        league = next((lg for lg in self.settings.all_leagues if lg.key == key), None)
        if league is not None:
            await plan_next(session, league, league_id, self.clock.now())

    async def content(self, session: AsyncSession, league: LeagueSettings, league_id: int) -> str | None:
        """The post: the season's leaders in points, goals, assists and penalty minutes (None: nobody has any)."""
        parts: list[str] = []
        season = None
        for category, lines in POST_LINES.items():
            view = await self.stats.league_leaders(session, league, league_id, category)  # type: ignore[arg-type]
            season = view.season
            if view.board.rows:
                parts.append(f"**{CATEGORY_WORDS[category]}**\n{board_table(view.board, view.teams, lines=lines)}")
        head = (f"📊 **Statistics · {league.name}**" + (f" · {season}" if season else "")
                + f" · updated {timestamp(self.clock.now(), 'f')}")
        if not parts:
            return None
        text = f"{head}\n" + "\n".join(parts) + "\nEvery player's numbers: `/stats player`, `/stats team`."
        while len(text) > CONTENT_LIMIT and len(parts) > 1:  # long names: the last categories go first
            parts.pop()
            text = f"{head}\n" + "\n".join(parts) + "\nMore: `/stats leaders`."
        return clip(text, CONTENT_LIMIT)

    async def __call__(self, api: Any, row: ActionRow) -> ActionOutcome:
        league = self.settings.league_for_guild(row.guild_id)
        if league is None:
            return ActionOutcome("skipped", "the server has no league in the configuration")
        now = self.clock.now()
        async with self.sessions.begin() as session:
            await plan_next(session, league, row.league_id, now)  # next week's, whatever becomes of this one
            channel = league.channels.standings
            if channel is None or league.rules.gamesheets.stats_post_weekday is None:
                return ActionOutcome("skipped", "no weekly statistics post here any more")
            await ensure_seasons(session, row.league_id)  # the totals by the league's seasons as they are now
            content = await self.content(session, league, row.league_id)
            if content is None:
                return ActionOutcome("skipped", "no statistics to post yet")
            post = await session.scalar(select(StatsPost).where(StatsPost.league_id == row.league_id))
            target = (post.channel_id, post.message_id) if (
                post is not None and post.message_id is not None and post.channel_id == channel) else None
        if target is not None:
            try:
                await api.edit_message(target[0], target[1], content)
            except Gone:
                log.info("statistics message %s in %s is gone; posting a new one", target[1], target[0])
            except Refused as exc:
                return ActionOutcome("failed", str(exc))
            else:
                async with self.sessions.begin() as session:
                    await session.execute(update(StatsPost).where(StatsPost.league_id == row.league_id)
                                          .values(updated_at=now))
                return ActionOutcome("sent", "edited")
        await self._post(league, row.league_id, channel, content, now)
        return ActionOutcome("sent", "posted")

    async def _post(self, league: LeagueSettings, league_id: int, channel: int, content: str, now: datetime) -> None:
        key = f"stats-message:{league_id}:{uuid.uuid4().hex[:16]}"
        async with self.sessions.begin() as session:
            await outbox.enqueue(session, league_id=league_id, guild_id=league.guild_id, key=key, due_at=now,
                                 kind=MESSAGE_KIND, message=Outgoing(content=content), channel_id=channel)
            post = await session.scalar(select(StatsPost).where(StatsPost.league_id == league_id))
            if post is None:
                session.add(StatsPost(league_id=league_id, channel_id=channel, send_key=key, posted_at=now,
                                      updated_at=now))
            else:
                post.channel_id, post.message_id, post.send_key = channel, None, key
                post.posted_at = post.updated_at = now
