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
from bot.services import outbox
from bot.services.outbox import Outgoing, Rendered
from storage.db import retried_on_disconnect
from storage.models import Game, OutboxMessage, RefereeAssignment

log = logging.getLogger("sideline.officials")

NOTICE_KIND = "officials_notice"


def game_prefix(game_id: int) -> str:
    return f"officials:{game_id}:"


def notice_channel(league: LeagueSettings) -> int | None:
    channels = league.channels
    return channels.admin or channels.announcements or channels.referees


async def plan_notices(session: AsyncSession, league: LeagueSettings, games: Sequence[Game], now: datetime, *,
                       new: bool = False) -> int:
    """Queue each game's notices that are still to come (idempotent by key); a moved or cancelled game's
    pending ones are dropped. ``new``: games just inserted, with nothing queued yet. Returns how many
    were queued."""
    if not games:
        return 0
    rules = league.rules.gamesheets
    channel = notice_channel(league)
    existing: dict[str, OutboxMessage] = {}
    if not new:
        prefix = "officials:" if len(games) > 1 else game_prefix(games[0].id)
        existing = {r.send_key: r for r in (await session.scalars(select(OutboxMessage).where(
            OutboxMessage.league_id == games[0].league_id, OutboxMessage.kind == NOTICE_KIND,
            OutboxMessage.send_key.startswith(prefix, autoescape=True)))).all()}
    if rules.officials_both_required and channel is None:
        log.warning("league %s: no admin, announcements or referees channel: games lacking an official go "
                    "unannounced", league.key)
    queued = 0
    planned: set[str] = set()
    for game in games:
        wanted = notices(rules, game.starts_at, now) if game.status == "scheduled" and channel else ()
        for notice in wanted:
            key = f"{game_prefix(game.id)}{int(game.starts_at.timestamp())}:{notice.moment}"
            planned.add(key)
            if key in existing:
                continue
            done = await outbox.enqueue(
                session, league_id=game.league_id, guild_id=league.guild_id, key=key, due_at=notice.due_at,
                kind=NOTICE_KIND, channel_id=channel, expires_at=notice.expires_at,
                args={"game_id": game.id, "starts_at": game.starts_at.isoformat(), "moment": notice.moment})
            queued += int(done.created)
    ids = {str(g.id) for g in games}
    for key, row in existing.items():
        if key.split(":")[1] in ids and key not in planned and row.status == "pending":
            row.status = "cancelled"
    return queued


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
