"""The goals recorded for a game, counted per team: /result enter compares the score with them, and the
goal commands show the running count (bot/services/gamesheets/goals.py records them)."""

from __future__ import annotations

from sqlalchemy import bindparam, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from storage.models import Goal

_TALLY = (select(Goal.team_id, func.count()).where(Goal.game_id == bindparam("game_id"), Goal.removed_at.is_(None),
                                                   Goal.disallowed.is_(False))
          .group_by(Goal.team_id))
_ANY = select(Goal.id).where(Goal.game_id == bindparam("game_id"), Goal.removed_at.is_(None)).limit(1)


async def recorded_goals(session: AsyncSession, game_id: int, home_id: int, away_id: int) -> tuple[int, int] | None:
    """(home, away) goals that count among those recorded for the game; None when none were recorded (then
    there is nothing to compare a score with)."""
    if await session.scalar(_ANY, {"game_id": game_id}) is None:
        return None
    counts = {team_id: n for team_id, n in (await session.execute(_TALLY, {"game_id": game_id})).all()}
    return counts.get(home_id, 0), counts.get(away_id, 0)
