"""Which league a check-in button pressed in a DM answers for.

A DM has no server to find the league from, so the button names it; buttons sent before they did
name only the game code, and then the leagues where the presser plays that game are the candidates.
Either way only someone on the roster of one of that game's teams gets an answer about it, so a
forged or forwarded custom_id learns nothing about another league's game.
"""

from __future__ import annotations

from collections.abc import Collection

from sqlalchemy import and_, or_, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from storage.db import once_more_if_disconnected
from storage.models import Game, Player, PlayerGuardian, RosterEntry
from storage.text import printable


@once_more_if_disconnected
async def leagues_where_they_play(sessions: async_sessionmaker[AsyncSession], discord_id: int, game_code: str,
                                  league_ids: Collection[int]) -> list[int]:
    """The leagues, of ``league_ids``, where ``discord_id`` is on a team playing the game ``game_code``."""
    if not league_ids:
        return []
    query = (
        select(Game.league_id).distinct()
        .join(RosterEntry, and_(RosterEntry.league_id == Game.league_id,
                                or_(RosterEntry.team_id == Game.home_team_id,
                                    RosterEntry.team_id == Game.away_team_id)))
        .join(Player, and_(Player.league_id == RosterEntry.league_id, Player.id == RosterEntry.player_id))
        .where(Player.discord_id == discord_id, Game.code == printable(game_code).strip(),
               Game.league_id.in_(list(league_ids)))
        .order_by(Game.league_id)
    )
    async with sessions() as session:
        return list((await session.scalars(query)).all())


@once_more_if_disconnected
async def guards_in(sessions: async_sessionmaker[AsyncSession], discord_id: int, player_id: int, game_code: str,
                    league_id: int) -> bool:
    """Whether ``discord_id`` manages ``player_id`` in the league, on a team playing the game ``game_code``:
    a guardian's button pressed in a DM answers only then, and says nothing about the game otherwise."""
    query = (
        select(Game.id)
        .join(RosterEntry, and_(RosterEntry.league_id == Game.league_id,
                                or_(RosterEntry.team_id == Game.home_team_id,
                                    RosterEntry.team_id == Game.away_team_id)))
        .join(PlayerGuardian, and_(PlayerGuardian.league_id == RosterEntry.league_id,
                                   PlayerGuardian.player_id == RosterEntry.player_id))
        .where(PlayerGuardian.discord_id == discord_id, RosterEntry.player_id == player_id,
               Game.code == printable(game_code).strip(), Game.league_id == league_id)
        .limit(1)
    )
    async with sessions() as session:
        return await session.scalar(query) is not None
