"""In a league whose rules count women/non-binary players, a player who checks in without a gender
category is asked once, privately; the answer is kept as /profile gender keeps it."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.access import Caller
from bot.league.rules import Rules
from storage.db import rowcount, upsert_insert
from storage.models import GenderAsk, Player


def needs_gender(rules: Rules) -> bool:
    """The lineup or shootout rules count women/non-binary players."""
    return rules.lineup.women_nonbinary_on_court > 0 or any(
        getattr(rules.shootout, name, 0) for name in ("shootout_min_women_initial", "shootout_min_women_per_block"))


class GenderAskService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        self.sessions = sessions

    async def ask_once(self, caller: Caller) -> bool:
        """True the first time this player checks in here without a gender category the rules need."""
        if not needs_gender(caller.league.rules):
            return False
        async with self.sessions.begin() as session:
            player = (await session.execute(select(Player.id, Player.gender).where(
                Player.league_id == caller.league_id, Player.discord_id == caller.discord_id))).first()
            if player is None or player.gender is not None:
                return False
            result = await session.execute(upsert_insert(session)(GenderAsk).values(
                league_id=caller.league_id, player_id=player.id).on_conflict_do_nothing())
            return bool(rowcount(result))
