"""Who is on arena duty for a game (setting up, cleaning up), as the officials' card, the teams' game
reminders and /cleanup missed all read it: the league's rules over the schedule as it stands now, then a
commissioner's word for that game (bot/league/discipline/cleanup.py ``duty_rota``). Setting that word is
bot/services/discipline/cleanup.py's."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.config.settings import LeagueSettings
from bot.league.discipline.cleanup import Duty, DutyRota, DutyWord, RotaGame, duty_rota
from bot.services.shared.seasons import week_first_day
from storage.models import Game, GameDuty

#: Games this far either side of a game can share its day or its week.
AROUND = timedelta(days=8)


def duty_citations(league: LeagueSettings) -> Mapping[Duty, str]:
    cites = league.rules.deadlines.deadline_citations
    return {"setup": cites.setup, "cleanup": cites.cleanup}


async def rota_for(session: AsyncSession, league: LeagueSettings, league_id: int, game: Game) -> DutyRota:
    """The game's duty rota now (empty for a cancelled game, and where no rule and no commissioner puts a
    team on duty)."""
    if game.status == "cancelled":
        return DutyRota()
    rules = league.rules.deadlines
    words = [DutyWord(w.team_id, w.duty, w.on_duty) for w in (await session.scalars(select(GameDuty).where(
        GameDuty.league_id == league_id, GameDuty.game_id == game.id))).all()]
    setup, cleanup = rules.setup_duty_first_game_each_day, rules.cleanup_duty_last_game_each_week
    if not (setup or cleanup or words):
        return DutyRota()
    rows = (await session.execute(select(Game.id, Game.starts_at, Game.home_team_id, Game.away_team_id).where(
        Game.league_id == league_id, Game.status != "cancelled", Game.id != game.id,
        Game.starts_at > game.starts_at - AROUND, Game.starts_at < game.starts_at + AROUND))).all()
    others = [RotaGame(r.id, r.starts_at, (r.home_team_id, r.away_team_id)) for r in rows]
    first_day = await week_first_day(session, league_id, game.starts_at) if cleanup else None
    return duty_rota(RotaGame(game.id, game.starts_at, game.team_ids()), others, league.timezone, first_day,
                     setup_first_game_each_day=setup, cleanup_last_game_each_week=cleanup, words=words)
