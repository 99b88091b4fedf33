"""In a league whose rules count women/non-binary players, a player who checks in without a gender
category is asked once, privately; the answer is kept as /profile gender keeps it.

Whether to ask is read with the check-in's context and the ask recorded in its unit of work
(bot/services/checkins/service.py): a check-in costs no second unit for it."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from bot.league.rules import Rules
from storage.db import rowcount, upsert_insert
from storage.models import GenderAsk


def needs_gender(rules: Rules) -> bool:
    """The lineup or shootout rules count women/non-binary players."""
    return rules.lineup.women_nonbinary_on_court > 0 or any(
        getattr(rules.shootout, name, 0) for name in ("shootout_min_women_initial", "shootout_min_women_per_block"))


async def mark_asked(session: AsyncSession, league_id: int, player_id: int) -> bool:
    """Record that the player is asked; False when they were already (an answer at the same time asked)."""
    result = await session.execute(upsert_insert(session)(GenderAsk).values(
        league_id=league_id, player_id=player_id).on_conflict_do_nothing())
    return bool(rowcount(result))
