"""Reading a game's spare candidates and a team's need from the database, for the pure matching rules."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import and_, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.config.settings import LeagueSettings
from bot.league.checkins.presets import lineup_rules_for
from bot.league.spares.matching import BUSY_WINDOW, SpareCandidate
from bot.league.spares.needs import Need, what_is_missing
from bot.league.vocabulary import COUNTS_TOWARD_WOMEN_MINIMUM
from bot.services.checkins.service import team_lineup
from bot.services.shared.attendance import GameSides
from bot.services.shared.eligibility import SuspensionCheck, suspension_reasons
from storage.lookups import TeamRef
from storage.models import Game, GameSpare, Player, RosterEntry, Spare


@dataclass(frozen=True)
class SpareMatch:
    """A spare with what the matching needs, and how to reach them (never shown with their category)."""

    candidate: SpareCandidate
    name: str
    discord_id: int


async def need_for(session: AsyncSession, suspensions: SuspensionCheck, league: LeagueSettings, league_id: int,
                   game: GameSides, team: TeamRef) -> Need:
    """What the team is missing for the game now, spares already playing included."""
    lineup = await team_lineup(session, suspensions, league, league_id, game, team)
    return what_is_missing(lineup_rules_for(league.rules.lineup, team.division), lineup.report)


async def candidates_for(session: AsyncSession, suspensions: SuspensionCheck, league_id: int, game: GameSides,
                         *, player_ids: list[int] | None = None) -> list[SpareMatch]:
    """Every spare in the league's pool (or those of ``player_ids``), as candidates for the game."""
    query = (select(Spare.player_id, Spare.plays_skater, Spare.plays_goalie, Spare.free_days, Player.name,
                    Player.discord_id, Player.gender, RosterEntry.team_id)
             .join(Player, Player.id == Spare.player_id)
             .outerjoin(RosterEntry, and_(RosterEntry.league_id == Spare.league_id,
                                          RosterEntry.player_id == Spare.player_id))
             .where(Spare.league_id == league_id).order_by(Spare.joined_at, Spare.id))
    if player_ids is not None:
        query = query.where(Spare.player_id.in_(player_ids))
    rows = (await session.execute(query)).all()
    if not rows:
        return []
    start = game.ref.starts_at
    nearby = (await session.execute(
        select(Game.id, Game.home_team_id, Game.away_team_id)
        .where(Game.league_id == league_id, Game.status != "cancelled", Game.id != game.id,
               Game.starts_at > start - BUSY_WINDOW, Game.starts_at < start + BUSY_WINDOW))).all()
    busy_teams = {t for g in nearby for t in (g.home_team_id, g.away_team_id)}
    nearby_ids = [g.id for g in nearby]
    playing = set((await session.scalars(
        select(GameSpare.player_id).where(GameSpare.league_id == league_id,
                                          or_(GameSpare.game_id == game.id, GameSpare.game_id.in_(nearby_ids))))
    ).all())
    here = set((await session.scalars(select(GameSpare.player_id).where(GameSpare.game_id == game.id))).all())
    suspended = await suspension_reasons(suspensions, session, league_id, [r.player_id for r in rows], game.id)
    sides = {game.home.id, game.away.id}
    out = []
    for r in rows:
        positions = frozenset(p for p, on in (("skater", r.plays_skater), ("goalie", r.plays_goalie)) if on)
        candidate = SpareCandidate(
            player_id=r.player_id, positions=positions,
            counts_toward_women_nonbinary=r.gender in COUNTS_TOWARD_WOMEN_MINIMUM,
            free_days=frozenset(int(d) for d in r.free_days),
            busy=r.team_id in busy_teams or (r.player_id in playing and r.player_id not in here),
            suspended=r.player_id in suspended,
            on_either_team=r.team_id in sides or r.player_id in here)
        out.append(SpareMatch(candidate, r.name, r.discord_id))
    return out
