"""The spares who took a spot in a game: read by /lineup, /whoisin and the captains' alerts."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import bindparam, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.league.vocabulary import Gender, Position
from storage.models import GameSpare, Player


@dataclass(frozen=True)
class SpareInGame:
    """A spare playing one game for one team; ``gender`` only for the rules check, never shown."""

    player_id: int
    name: str
    position: Position
    gender: Gender | None
    filled_at: datetime


_TEAM_SPARES = (
    select(GameSpare.player_id, Player.name, GameSpare.position, Player.gender, GameSpare.filled_at)
    .join(Player, Player.id == GameSpare.player_id)
    .where(GameSpare.league_id == bindparam("league_id"), GameSpare.game_id == bindparam("game_id"),
           GameSpare.team_id == bindparam("team_id"))
    .order_by(GameSpare.filled_at, GameSpare.id)
)


async def team_spares(session: AsyncSession, league_id: int, game_id: int, team_id: int) -> list[SpareInGame]:
    """The spares playing for the team in the game, in the order they took their spots."""
    rows = await session.execute(_TEAM_SPARES, {"league_id": league_id, "game_id": game_id, "team_id": team_id})
    return [SpareInGame(r.player_id, r.name, r.position, r.gender, r.filled_at) for r in rows]
