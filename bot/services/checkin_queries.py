"""Read-side check-in queries shared by the schedule and check-in features."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from storage.models import CheckIn


async def statuses_for_player(session: AsyncSession, player_id: int, game_ids: Sequence[int]) -> dict[int, str]:
    if not game_ids:
        return {}
    rows = await session.execute(
        select(CheckIn.game_id, CheckIn.status).where(CheckIn.player_id == player_id,
                                                       CheckIn.game_id.in_(game_ids))
    )
    return {game_id: status for game_id, status in rows.all()}


async def checkins_for_game(session: AsyncSession, league_id: int, game_id: int) -> Sequence[CheckIn]:
    """Every answer for one game, oldest first (the lineup rules use check-in order)."""
    return (await session.scalars(
        select(CheckIn).where(CheckIn.league_id == league_id, CheckIn.game_id == game_id)
        .order_by(CheckIn.updated_at, CheckIn.id)
    )).all()


async def checkin_count_for_player(session: AsyncSession, league_id: int, player_id: int) -> int:
    return await session.scalar(
        select(func.count()).select_from(CheckIn)
        .where(CheckIn.league_id == league_id, CheckIn.player_id == player_id)
    ) or 0
