"""The commissioners' notices about games that lack an official (youth 2.2, 1.14), as outbox rows.

Each notice is planned with its game (bot/services/reminders/plan.py plans every game's sends when a
game is added, imported or moved) and again at start for the upcoming games (``at_start``), under a
key per game, start time and moment: ``officials:<game>:<start epoch>:<ahead|start>``. The outbox sends
each row once, across restarts; the notice is written when it goes out, so an official assigned in the
meantime means nothing is sent (bot/league/gamesheets/officials.py says when and why).

Where: the admin channel, else announcements, else the referees' channel; a league with none of them
gets no notice (logged once at planning).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.clock import Clock
from bot.config.settings import LeagueSettings, Settings
from bot.discord_text import clip, timestamp
from bot.league.gamesheets.officials import START_NOTICE_USEFUL_FOR, missing, notices, role_words
from bot.services.gamesheets.timed import plan_game_sends
from bot.services.outbox import Outgoing, Rendered
from storage.db import retried_on_disconnect
from storage.models import Game, OutboxMessage, RefereeAssignment

log = logging.getLogger("sideline.officials")

NOTICE_KIND = "officials_notice"


def notice_channel(league: LeagueSettings) -> int | None:
    channels = league.channels
    return channels.admin or channels.announcements or channels.referees


async def plan_notices(session: AsyncSession, league: LeagueSettings, games: Sequence[Game], now: datetime, *,
                       new: bool = False) -> int:
    """Queue each game's notices that are still to come; a moved or cancelled game's pending ones are
    dropped. ``new``: games just inserted, with nothing queued yet. Returns how many were queued."""
    if not games:
        return 0
    rules = league.rules.gamesheets
    channel = notice_channel(league)
    if rules.officials_both_required and channel is None:
        log.warning("league %s: no admin, announcements or referees channel: games lacking an official go "
                    "unannounced", league.key)
    return await plan_game_sends(
        session, guild_id=league.guild_id, games=games, kind=NOTICE_KIND, prefix="officials", moment_arg="moment",
        wanted=lambda game: ((n.moment, n.due_at, n.expires_at) for n in notices(rules, game.starts_at, now)
                             if channel),
        new=new, channel_id=channel)


@retried_on_disconnect
class OfficialNotices:
    """Writes each notice when it goes out, from the game's assignments then; plans at start."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock, settings: Settings) -> None:
        self.sessions = sessions
        self.clock = clock
        self.settings = settings

    async def render(self, session: AsyncSession, row: OutboxMessage, now: datetime) -> Rendered:
        game = await session.get(Game, int(row.args["game_id"]))
        league = self.settings.league_for_guild(row.guild_id)
        if game is None or league is None or game.league_id != row.league_id:
            return None
        if game.status != "scheduled" or game.starts_at.isoformat() != row.args.get("starts_at"):
            return None  # off, played, or moved (its new time has notices of its own)
        roles = (await session.scalars(select(RefereeAssignment.role).where(
            RefereeAssignment.game_id == game.id))).all()
        lacking = missing(league.rules.gamesheets, roles)
        if not lacking:
            return None
        cited = league.rules.gamesheets.gamesheet_citations.officials or "league setting"
        head = (f"⚠️ `{game.code}` {game.home.name} vs {game.away.name}, {timestamp(game.starts_at)} "
                + ("**starts now**" if row.args.get("moment") == "start" else f"({timestamp(game.starts_at, 'R')})"))
        text = (f"{head}, has no {' and no '.join(lacking)} assigned. A game can't begin without both officials "
                f"({cited}); without a referee, the commissioners take on the refereeing duties. Assign "
                f"{role_words(lacking)} with `/game referee`.")
        return Outgoing(content=clip(text, 2000))

    async def at_start(self, league_ids: dict[int, int]) -> int:
        """Plan the notices of every upcoming game (those added before this was planned with each game, or
        while a setting was otherwise); already queued ones are left as they are. Returns how many were
        queued."""
        now = self.clock.now()
        queued = 0
        async with self.sessions.begin() as session:
            for guild_id, league_id in league_ids.items():
                league = self.settings.league_for_guild(guild_id)
                if league is None or not league.rules.gamesheets.officials_both_required:
                    continue
                games = list((await session.scalars(select(Game).where(
                    Game.league_id == league_id, Game.status == "scheduled",
                    Game.starts_at > now - START_NOTICE_USEFUL_FOR))).unique().all())
                queued += await plan_notices(session, league, games, now)
        return queued
