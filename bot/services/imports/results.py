"""Results backfilled from paper game sheets (``sideline import results``): the CSV side of
bot/services/results.py, which records each one exactly as a referee's entry is recorded."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.config.settings import LeagueSettings
from bot.errors import UserFacingError
from bot.services.imports.csv_rows import CsvImportError, Problem, read_results
from bot.services.imports.names import unknown_game
from bot.services.imports.report import ImportReport
from bot.services.results import ResultHook, Score, check_score, forfeit_score, record, result_for, score_of
from storage.models import Game, League


async def import_results(sessions: async_sessionmaker[AsyncSession], text: str, league: LeagueSettings, *,
                         now: datetime, on_result: ResultHook) -> ImportReport:
    """Backfill results from paper game sheets: every row checked first, then all stored or none.

    Unknown game ids, games not played yet, cancelled games and results the league's rules don't allow
    are reported with their line numbers (CsvImportError) and nothing is imported.
    """
    rules = league.rules
    parsed = read_results(text, rules.standings.standings_forfeit_score)  # the league's, not a fixed 5-0
    rows = parsed.rows
    report = ImportReport("results", delimiter=parsed.delimiter)
    async with sessions.begin() as session:
        league_id = await session.scalar(select(League.id).where(League.key == league.key))
        games: dict[str, Game] = {}
        codes_known: list[str] = []
        if league_id is not None:
            codes = [r.code for r in rows]
            games = {g.code: g for g in (await session.scalars(  # locked in one order: no deadlock
                select(Game).where(Game.league_id == league_id, Game.code.in_(codes)).order_by(Game.id)
                .with_for_update(of=Game))).all()}
            if len(games) < len(rows):  # an unknown id: what might have been meant
                codes_known = list((await session.scalars(select(Game.code).where(Game.league_id == league_id))).all())
        problems: list[Problem] = list(parsed.problems)
        planned: list[tuple[int, Game, Score]] = []
        for r in rows:
            game = games.get(r.code)
            if game is None:
                problems.append(Problem(r.line, unknown_game(r.code, codes_known, league.key)))
                continue
            if game.status == "cancelled":
                problems.append(Problem(r.line, f"game {r.code} was cancelled: it can't have a result"))
                continue
            if game.starts_at > now:
                problems.append(Problem(r.line, f"game {r.code} has not been played yet (it starts "
                                                f"{game.starts_at.astimezone(league.timezone):%Y-%m-%d %H:%M})"))
                continue
            if r.decided == "forfeit":
                forfeiting = game.home if r.home_score < r.away_score else game.away
                score = forfeit_score(rules, game, forfeiting)
            else:
                score = Score(r.home_score, r.away_score, r.decided, r.shootout_home, r.shootout_away)
            try:
                check_score(rules, game.kind, score)
            except UserFacingError as exc:
                problems.append(Problem(r.line, f"game {r.code}: {exc.message}"))
                continue
            planned.append((r.line, game, score))
        if problems:
            raise CsvImportError(problems)
        for line, game, score in planned:
            existing = await result_for(session, game)
            if existing is not None and score_of(existing) == score:
                report.unchanged += 1
                continue
            try:
                _, old, note = await record(session, rules, game, score, by=None, now=now, action="imported",
                                            on_result=on_result, reason="CSV import")
            except UserFacingError as exc:
                raise CsvImportError([Problem(line, f"game {game.code}: {exc.message}")]) from None
            if old is None:
                report.created += 1
            else:
                report.updated += 1
            if note:
                report.notes.append(note)
    return report
