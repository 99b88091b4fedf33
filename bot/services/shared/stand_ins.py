"""Who holds a captain's powers for one game without being its captain: the member a captain named as
stand-in for it, and the team's assistant coach while the coach is absent (youth 1.4, 1.6; what "absent"
means is bot/league/staff/__init__.py's). bot/services/people.py asks this once per game-bound command; naming them
is bot/services/staff.py's."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import and_, literal, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.league.availability import status_with_away
from bot.league.staff import coach_absent
from storage.models import AssistantCoach, AwayRange, CheckIn, Player, StandInCaptain, TeamCaptain


@dataclass(frozen=True)
class ForGame:
    """The game a captain's power is asked for: its id, its start and its two teams."""

    id: int
    starts_at: datetime
    team_ids: tuple[int, int]


async def acting_captain_of(session: AsyncSession, league_id: int, discord_id: int, game: ForGame) -> frozenset[int]:
    """The teams of the game this person acts as captain for: named stand-in for this game, or assistant
    coach of a team whose coach is absent from it. One query when they are neither (nearly everyone)."""
    named = select(StandInCaptain.team_id, literal(False).label("assistant")).where(
        StandInCaptain.league_id == league_id, StandInCaptain.game_id == game.id,
        StandInCaptain.discord_id == discord_id)
    assisting = select(AssistantCoach.team_id, literal(True).label("assistant")).where(
        AssistantCoach.league_id == league_id, AssistantCoach.discord_id == discord_id,
        AssistantCoach.team_id.in_(game.team_ids))
    rows = (await session.execute(named.union_all(assisting))).all()
    acting = {row.team_id for row in rows if not row.assistant and row.team_id in game.team_ids}
    for team_id in {row.team_id for row in rows if row.assistant} - acting:
        if await coach_is_absent(session, league_id, team_id, game):
            acting.add(team_id)
    return frozenset(acting)


async def coach_is_absent(session: AsyncSession, league_id: int, team_id: int, game: ForGame) -> bool:
    """Every captain of the team reads out or away for the game (bot/league/staff/__init__.py)."""
    captains = list((await session.scalars(select(TeamCaptain.discord_id).where(
        TeamCaptain.league_id == league_id, TeamCaptain.team_id == team_id))).all())
    answers = await _answers(session, league_id, captains, game)
    return coach_absent(answers.get(c) for c in captains)


async def _answers(session: AsyncSession, league_id: int, discord_ids: Sequence[int],
                   game: ForGame) -> dict[int, str | None]:
    """Each person's answer for the game as it reads with /away (None: no answer, or on no roster), the
    same reading bot/services/availability/away.py gives every view."""
    if not discord_ids:
        return {}
    rows = (await session.execute(
        select(Player.discord_id, CheckIn.status, CheckIn.updated_at)
        .outerjoin(CheckIn, and_(CheckIn.player_id == Player.id, CheckIn.game_id == game.id))
        .where(Player.league_id == league_id, Player.discord_id.in_(list(discord_ids))))).all()
    away = {r.discord_id: r.created_at for r in (await session.execute(
        select(Player.discord_id, AwayRange.created_at).join(AwayRange, AwayRange.player_id == Player.id)
        .where(Player.league_id == league_id, Player.discord_id.in_(list(discord_ids)),
               AwayRange.starts_at <= game.starts_at, AwayRange.ends_at > game.starts_at)
        .order_by(AwayRange.created_at, AwayRange.id))).all()}
    return {r.discord_id: status_with_away(r.status, r.updated_at, away.get(r.discord_id)) for r in rows}
