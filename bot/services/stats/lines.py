"""Each counted game's lines and each player's running totals, kept in step with what they count.

A game's lines (bot/league/stats.py says what counts) are worked out from its game sheets, goals,
penalties and result whenever one of them changes, in that change's unit of work (``refresh_game``: the
sheets and goals from bot/services/gamesheets/, and through the composition root each result and each
penalty). What changed is applied to the players' totals as a difference, with atomic upserts, so the
totals are always the sum of the lines without summing them again; the game's row is locked first, so
two changes to one game take turns (SQLite's BEGIN IMMEDIATE already serialises writers).

Totals are per season. When the league's seasons change (a season started), the lines are given their
seasons again and the totals counted once from the lines (``ensure_seasons``), before the next read or
change uses them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from datetime import datetime

from sqlalchemy import case, delete, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from bot.league.seasons import season_index_at
from bot.services.shared.seasons import league_seasons
from bot.services.stats.versions import bump
from storage.db import upsert_insert
from storage.models import (
    Game,
    GameSheetEntry,
    Goal,
    Penalty,
    Result,
    Season,
    StatLine,
    StatsVersion,
    StatTotal,
)

#: The line numbers the totals sum (points are goals and assists).
SUMMED = ("gp", "goals", "assists", "pim")


@dataclass
class Line:
    team_id: int
    gp: int = 0
    goals: int = 0
    assists: int = 0
    pim: int = 0
    goalie: int = 0
    goals_against: int = 0
    shutout: int = 0


NUMBERS = tuple(f.name for f in fields(Line) if f.name != "team_id")


def signature(seasons: Sequence[Season]) -> str:
    """The seasons as the totals are counted by: each one's id and start."""
    return ";".join(f"{s.id}@{s.starts_at.isoformat()}" for s in seasons)


def season_of(seasons: Sequence[Season], moment: datetime) -> int:
    """The id of the season ``moment`` falls in (0: the league has none)."""
    index = season_index_at([s.starts_at for s in seasons], moment)
    return 0 if index is None else seasons[index].id


async def ensure_seasons(session: AsyncSession, league_id: int) -> list[Season]:
    """The league's seasons; if they changed since the totals were counted, every line gets its season again
    and the totals are counted from the lines, once (a write: call it in a unit of work)."""
    seasons = await league_seasons(session, league_id)
    state = await session.get(StatsVersion, league_id)
    wanted = signature(seasons)
    if state is not None and state.seasons == wanted:
        return seasons
    if seasons:
        whens = [(StatLine.starts_at >= s.starts_at, s.id) for s in reversed(seasons[1:])]
        assign = case(*whens, else_=seasons[0].id) if whens else seasons[0].id
    else:
        assign = 0
    await session.execute(update(StatLine).where(StatLine.league_id == league_id).values(season_id=assign))
    await session.execute(delete(StatTotal).where(StatTotal.league_id == league_id))
    sums = [func.sum(getattr(StatLine, n)) for n in SUMMED]
    await session.execute(insert(StatTotal).from_select(
        ["league_id", "season_id", "player_id", *SUMMED, "points"],
        select(StatLine.league_id, StatLine.season_id, StatLine.player_id, *sums,
               func.sum(StatLine.goals + StatLine.assists))
        .where(StatLine.league_id == league_id).group_by(StatLine.league_id, StatLine.season_id, StatLine.player_id)))
    await session.execute(upsert_insert(session)(StatsVersion).values(
        league_id=league_id, version=1, seasons=wanted).on_conflict_do_update(
        index_elements=[StatsVersion.league_id], set_={"seasons": wanted, "version": StatsVersion.version + 1}))
    return seasons


async def game_lines(session: AsyncSession, game: Game) -> dict[int, Line]:
    """The game's lines as its sheets, goals, penalties and result say (none unless it has a played result)."""
    result = await session.scalar(select(Result).where(Result.game_id == game.id))
    if result is None or result.decided == "forfeit":
        return {}
    lines: dict[int, Line] = {}
    goalies: dict[int, list[int]] = {}
    for entry in (await session.execute(select(GameSheetEntry.player_id, GameSheetEntry.team_id,
                                               GameSheetEntry.position).where(
            GameSheetEntry.game_id == game.id, GameSheetEntry.removed_at.is_(None),
            GameSheetEntry.player_id.is_not(None)))).all():
        line = lines.setdefault(entry.player_id, Line(entry.team_id))
        line.gp = 1
        if entry.position == "goalie":
            line.goalie = 1
            goalies.setdefault(entry.team_id, []).append(entry.player_id)
    other = {game.home_team_id: game.away_team_id, game.away_team_id: game.home_team_id}
    for goal in (await session.execute(select(Goal.team_id, Goal.scorer_id, Goal.assist1_id, Goal.assist2_id,
                                              Goal.goalie_id).where(
            Goal.game_id == game.id, Goal.removed_at.is_(None), Goal.disallowed.is_(False)))).all():
        lines.setdefault(goal.scorer_id, Line(goal.team_id)).goals += 1
        for assist in (goal.assist1_id, goal.assist2_id):
            if assist is not None:
                lines.setdefault(assist, Line(goal.team_id)).assists += 1
        if goal.goalie_id is not None:
            lines.setdefault(goal.goalie_id, Line(other.get(goal.team_id, goal.team_id))).goals_against += 1
    for player_id, team_id, minutes in (await session.execute(select(Penalty.player_id, Penalty.team_id,
                                                                     func.sum(Penalty.minutes)).where(
            Penalty.league_id == game.league_id, Penalty.game_id == game.id)  # the (league, game, player) index
            .group_by(Penalty.player_id, Penalty.team_id))).all():
        lines.setdefault(player_id, Line(team_id)).pim += int(minutes or 0)
    against = {game.home_team_id: result.away_score, game.away_team_id: result.home_score}
    for team_id, ids in goalies.items():
        if len(ids) == 1 and against.get(team_id) == 0:
            lines[ids[0]].shutout = 1
    return lines


async def refresh_game(session: AsyncSession, league_id: int, game_id: int) -> None:
    """Bring the game's lines, and its players' totals, up to what counts now; the statistics counter moves."""
    game = await session.scalar(select(Game).where(Game.id == game_id, Game.league_id == league_id)
                                .with_for_update(of=Game))
    if game is None:
        return
    seasons = await ensure_seasons(session, league_id)
    season_id = season_of(seasons, game.starts_at)
    new = await game_lines(session, game)
    old = {row.player_id: row for row in (await session.scalars(select(StatLine).where(
        StatLine.game_id == game.id))).all()}
    deltas: dict[tuple[int, int], dict[str, int]] = {}
    for player_id, row in old.items():
        moved = deltas.setdefault((row.season_id, player_id), dict.fromkeys(SUMMED, 0))
        for n in SUMMED:
            moved[n] -= getattr(row, n)
    for player_id, line in new.items():
        moved = deltas.setdefault((season_id, player_id), dict.fromkeys(SUMMED, 0))
        for n in SUMMED:
            moved[n] += getattr(line, n)
    for (season, player_id), delta in deltas.items():  # only what changed: a goal moves two or three players
        await _add(session, league_id, season, player_id, delta)
    gone = [player_id for player_id in old if player_id not in new]
    if gone:
        await session.execute(delete(StatLine).where(StatLine.game_id == game.id, StatLine.player_id.in_(gone)))
    for player_id, line in new.items():
        values = {"team_id": line.team_id, "season_id": season_id, **{n: getattr(line, n) for n in NUMBERS}}
        stored = old.get(player_id)
        if stored is None:
            session.add(StatLine(game_id=game.id, player_id=player_id, league_id=league_id, starts_at=game.starts_at,
                                 **values))
        elif any(getattr(stored, k) != v for k, v in values.items()):
            for k, v in values.items():
                setattr(stored, k, v)
    await session.flush()
    await bump(session, league_id)


async def refresh_after_result(session: AsyncSession, league_id: int, game_id: int) -> None:
    """The result hook's shape (bot/services/results.py): a result was entered, fixed or imported."""
    await refresh_game(session, league_id, game_id)


async def _add(session: AsyncSession, league_id: int, season_id: int, player_id: int, delta: dict[str, int]) -> None:
    """Move a player's season totals by ``delta`` (an atomic upsert: two changes at once both count)."""
    if not any(delta.values()):
        return
    points = delta["goals"] + delta["assists"]
    values = {**delta, "points": points}
    statement = upsert_insert(session)(StatTotal).values(league_id=league_id, season_id=season_id,
                                                         player_id=player_id, **values)
    await session.execute(statement.on_conflict_do_update(
        index_elements=[StatTotal.league_id, StatTotal.season_id, StatTotal.player_id],
        set_={name: getattr(StatTotal, name) + value for name, value in values.items()}))
