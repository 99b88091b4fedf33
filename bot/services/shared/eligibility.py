"""Whether a player may play a game: what check-ins, lineups, shootouts and reminders ask of discipline.

Suspensions belong to the discipline feature (``bot.services.discipline.core.Discipline``). The features
that must refuse or exclude suspended players take a ``SuspensionCheck`` in their constructor, and
the composition root (``bot/composition.py``) hands them the discipline feature's. There is no
default: a service built without one fails at start-up instead of letting everybody play.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from sqlalchemy import ColumnElement, SQLColumnExpression
from sqlalchemy.ext.asyncio import AsyncSession


class SuspensionCheck(Protocol):
    async def reason(self, session: AsyncSession, *, league_id: int, player_id: int,
                     game_id: int | None) -> str | None:
        """Why the player may not play the game (shown to them as-is), or None when they may.

        ``game_id`` None means "right now, any game". Scoped to ``league_id``; reads only (it runs
        inside the caller's unit of work).
        """
        ...

    async def candidates(self, session: AsyncSession, *, league_id: int, player_ids: Sequence[int]) -> set[int]:
        """The players among ``player_ids`` who might be suspended (a superset is fine): one query
        for a whole lineup instead of one per player."""
        ...

    def might_be_suspended(self, league_id: SQLColumnExpression[int],
                           player_id: SQLColumnExpression[int]) -> ColumnElement[bool]:
        """SQL that is true for a player who might be suspended (a superset is fine). A check-in reads
        it in its own query and asks ``reason`` only when it is true: most players never are."""
        ...


def require_check(check: SuspensionCheck | None, needed_by: str) -> SuspensionCheck:
    """Fail closed: a service that must refuse suspended players is never built without the check."""
    if check is None:
        raise TypeError(f"{needed_by} needs a suspension check (bot/composition.py builds it with one)")
    return check


async def suspension_reasons(check: SuspensionCheck, session: AsyncSession, league_id: int,
                             player_ids: Sequence[int], game_id: int | None = None) -> dict[int, str]:
    """Player id -> reason, for each of ``player_ids`` suspended for the game (others are absent)."""
    reasons: dict[int, str] = {}
    for player_id in sorted(await check.candidates(session, league_id=league_id, player_ids=player_ids)):
        reason = await check.reason(session, league_id=league_id, player_id=player_id, game_id=game_id)
        if reason:
            reasons[player_id] = reason
    return reasons
