"""A late drop-out (out after being in, within a day of the game): the team's captains are told at once,
and the lineup is checked again for them (the lineup alert of bot/services/reminders/plan.py)."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.clock import Clock
from bot.config.settings import Settings
from bot.discord_text import clip
from bot.services import outbox
from bot.services.deadlines.service import FANOUT_USER
from bot.services.outbox import Outgoing
from bot.services.reminders.plan import ALERT_KIND, CONTENT_LIMIT, game_heading, game_prefix
from storage import lookups
from storage.models import Game, League, RosterEntry


class LateDropouts:
    """The hook the check-in feature calls after a late drop-out (bound to one bot's database)."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock, settings: Settings) -> None:
        self.sessions = sessions
        self.clock = clock
        self.settings = settings

    async def __call__(self, league_id: int, game_id: int, player_id: int) -> None:
        now = self.clock.now()
        async with self.sessions.begin() as session:
            game = await session.get(Game, game_id)
            entry = await session.scalar(select(RosterEntry).where(
                RosterEntry.league_id == league_id, RosterEntry.player_id == player_id))
            if game is None or entry is None or game.league_id != league_id or entry.team_id not in game.team_ids():
                return
            league_row = await session.get(League, league_id)
            league = self.settings.league_for_guild(league_row.guild_id) if league_row else None
            if league is None:
                return  # another bot's league (several bots share one process in tests)
            team = await lookups.team_by_id(session, league_id, entry.team_id)
            assert team is not None
            text = clip(f"❗ {team.name}: {entry.player.name} dropped out (was in) of {game_heading(game)}\n"
                        "Check your lineup with `/lineup`.", CONTENT_LIMIT)
            key = f"late-dropout:{game.id}:{player_id}:{int(now.timestamp())}"
            captains = await lookups.captain_ids(session, team.id)
            for captain in captains:
                await outbox.enqueue(session, league_id=league_id, guild_id=league.guild_id, key=f"{key}:{captain}",
                                     due_at=now, message=Outgoing(content=text), user_id=captain,
                                     expires_at=game.starts_at)
            if not captains and team.channel_id:
                await outbox.enqueue(session, league_id=league_id, guild_id=league.guild_id, key=key, due_at=now,
                                     message=Outgoing(content=text), channel_id=team.channel_id,
                                     expires_at=game.starts_at)
            await outbox.enqueue(
                session, league_id=league_id, guild_id=league.guild_id,
                key=f"{game_prefix(game.id)}{team.id}:alert:dropout:{player_id}:{int(now.timestamp())}", due_at=now,
                kind=ALERT_KIND, args={"game_id": game.id, "team_id": team.id, "offset": 0, "offsets": []},
                user_id=FANOUT_USER, expires_at=game.starts_at)
