"""Whether a player may play a game: the seam where the discipline feature plugs in suspensions.

Check-ins and lineups must refuse or exclude suspended players, but suspensions belong to the
discipline feature. Rather than import it (or guess its tables), this module keeps a registry:
the discipline feature appends one check at import time, e.g. in ``bot/services/discipline.py``::

    from bot.services.eligibility import SUSPENSION_CHECKS

    async def suspended_for(session, *, league_id, player_id, game_id):
        ...  # return "Suspended for 2 more games (boarding, 4 Jan)." or None
    SUSPENSION_CHECKS.append(suspended_for)

Until something registers, nobody is suspended. A check may also carry a ``candidates`` attribute
(see ``CandidateFilter``): the players among many who might be suspended, in one query, so a lineup
of fifteen asks once instead of fifteen times.
"""

from __future__ import annotations

from collections.abc import Sequence
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


class CandidateFilter(Protocol):
    """The players among ``player_ids`` the check might find suspended (a superset is fine)."""

    async def __call__(self, session: AsyncSession, *, league_id: int,
                       player_ids: Sequence[int]) -> set[int]: ...


async def suspension_reasons(session: AsyncSession, league_id: int, player_ids: Sequence[int],
                             game_id: int | None = None) -> dict[int, str]:
    """Player id -> reason, for each of ``player_ids`` suspended for the game (others are absent)."""
    reasons: dict[int, str] = {}
    for player_id in sorted(await suspension_candidates(session, league_id, player_ids)):
        reason = await active_suspension_reason(session, league_id, player_id, game_id)
        if reason:
            reasons[player_id] = reason
    return reasons


async def suspension_candidates(session: AsyncSession, league_id: int, player_ids: Sequence[int]) -> set[int]:
    """The players among ``player_ids`` some check might find suspended (all of them when a check
    has no ``candidates`` filter); the others are certainly eligible."""
    found: set[int] = set()
    for check in SUSPENSION_CHECKS:
        narrow: CandidateFilter | None = getattr(check, "candidates", None)
        if narrow is None:
            return set(player_ids)
        if player_ids:
            found |= await narrow(session, league_id=league_id, player_ids=player_ids)
    return found
