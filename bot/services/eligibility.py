"""Whether a player may play a game: the seam where the discipline feature plugs in suspensions.

Check-ins and lineups must refuse or exclude suspended players, but suspensions belong to the
discipline feature. Rather than import it (or guess its tables), this module keeps a registry:
the discipline feature appends one check at import time, e.g. in ``bot/services/discipline.py``::

    from bot.services.eligibility import SUSPENSION_CHECKS

    async def suspended_for(session, *, league_id, player_id, game_id):
        ...  # return "Suspended for 2 more games (boarding, 4 Jan)." or None
    SUSPENSION_CHECKS.append(suspended_for)

Until something registers, nobody is suspended.
"""

from __future__ import annotations

from typing import Protocol

from sqlalchemy.ext.asyncio import AsyncSession


class SuspensionCheck(Protocol):
    """Why the player may not play this game (shown to them as-is), or None when they may.

    ``game_id`` is None for "right now, any game"; a check should scope every query to
    ``league_id`` and must not write (it runs inside the caller's unit of work).
    """

    async def __call__(self, session: AsyncSession, *, league_id: int, player_id: int,
                       game_id: int | None) -> str | None: ...


#: Checks consulted in order; the first reason found wins. Appended to by the discipline feature.
SUSPENSION_CHECKS: list[SuspensionCheck] = []


async def active_suspension_reason(session: AsyncSession, league_id: int, player_id: int,
                                   game_id: int | None = None) -> str | None:
    """The first registered check's reason the player is suspended for the game, else None."""
    for check in SUSPENSION_CHECKS:
        reason = await check(session, league_id=league_id, player_id=player_id, game_id=game_id)
        if reason:
            return reason
    return None
