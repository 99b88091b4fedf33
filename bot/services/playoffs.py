"""The playoff bracket: seeded from the standings, stored as seeds plus winners, moved on by results.

The bracket itself is the pure engine's (bot.league.playoffs): straight seeding 1 v N with byes for
the top seeds. Storage keeps only the seeds and each matchup's winner; the bracket is rebuilt from
them, so a stored bracket can never disagree with the engine.

A matchup's winner is recorded in two ways:
- automatically, when a result is entered for a *playoff* game between the two teams of a matchup
  (the commissioners schedule playoff games with kind "playoff"); a corrected result corrects the
  bracket while the next round is unplayed;
- by hand, ``/bracket advance`` (commissioners), for a game played outside the schedule.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm import aliased

from bot.access import Caller, Role
from bot.clock import Clock
from bot.discord_text import quote
from bot.errors import Conflict, InvalidInput, NotFound
from bot.league.playoffs import (
    MAX_TEAMS,
    MIN_TEAMS,
    SEEDING_TABLE,
    Bracket,
    Matchup,
    PlayoffError,
    advance,
    bracket_size,
    build_bracket,
    check_seed_order,
    render_bracket,
    seeding_games_note,
    settled_order,
    short_of_seeding_games,
)
from bot.league.standings.presets import StandingsRules
from bot.league.standings.table import StandingsRow, compute_standings
from bot.services.shared.seasons import season_range
from bot.services.standings import game_results, point_adjustments, team_divisions
from storage.db import retried_on_disconnect
from storage.models import Game, PlayoffBracket, PlayoffDisqualification, Result, SeedingDecision, Team

RENDER_WIDTH = 28


@dataclass(frozen=True)
class Score:
    """A decided matchup's score, top team first, as its playoff game's result recorded it."""

    top: int
    bottom: int
    decided: str = "regulation"  # regulation, overtime, shootout or forfeit

    @property
    def text(self) -> str:
        """'3-2', '3-2 OT', '3-2 SO', '1-0 forfeit'."""
        suffix = {"overtime": " OT", "shootout": " SO", "forfeit": " forfeit"}.get(self.decided, "")
        return f"{self.top}-{self.bottom}{suffix}"


@dataclass(frozen=True)
class BracketView:
    bracket: Bracket
    text: str  # narrow monospace text (put it in a code block)
    games: dict[str, str]  # matchup id -> the playoff game that decided it
    notes: tuple[str, ...] = ()
    division: str = ""  # "" for a bracket of the whole league
    scores: dict[str, Score] = field(default_factory=dict)  # matchup id -> its game's score, where one is known

    @property
    def champion(self) -> str | None:
        return self.bracket.champion

    @property
    def next_up(self) -> tuple[Matchup, ...]:
        """Matchups whose teams are known and that have no winner yet."""
        return tuple(m for r in self.bracket.rounds for m in r if m.ready and m.winner is None)


@dataclass(frozen=True)
class BracketChange:
    view: BracketView
    matchup_id: str
    winner: str
    note: str


@dataclass(frozen=True)
class SeedingSet:
    note: str
    view: BracketView | None  # None: no bracket yet


def rebuild(row: PlayoffBracket) -> Bracket:
    """The bracket from its stored seeds, with every recorded winner applied round by round."""
    bracket = build_bracket(row.seeds)
    winners: dict[str, Any] = row.winners or {}
    for matchup_id in [m.matchup_id for r in bracket.rounds for m in r]:
        entry = winners.get(matchup_id)
        if entry:
            bracket = advance(bracket, matchup_id, entry["team"])
    return bracket


def view_of(row: PlayoffBracket, notes: tuple[str, ...] = (),
            results: dict[str, tuple[str, str, int, int, str]] | None = None) -> BracketView:
    """The bracket as shown; ``results`` (game code -> home, away, goals, decided) adds the scores."""
    bracket = rebuild(row)
    games = {mid: e["game"] for mid, e in (row.winners or {}).items() if e.get("game")}
    scores: dict[str, Score] = {}
    for m in (m for r in bracket.rounds for m in r):
        found = (results or {}).get(games.get(m.matchup_id, ""))
        if found is None or m.top is None or m.bottom is None:
            continue
        home, away, home_goals, away_goals, decided = found
        if (m.top.team, m.bottom.team) == (home, away):
            scores[m.matchup_id] = Score(home_goals, away_goals, decided)
        elif (m.top.team, m.bottom.team) == (away, home):
            scores[m.matchup_id] = Score(away_goals, home_goals, decided)
    return BracketView(bracket, render_bracket(bracket, RENDER_WIDTH), games, notes, row.division, scores)


async def game_scores(session: AsyncSession, league_id: int,
                      codes: set[str]) -> dict[str, tuple[str, str, int, int, str]]:
    """Final results of the named games: code -> home team, away team, home goals, away goals, decided."""
    if not codes:
        return {}
    home, away = aliased(Team), aliased(Team)
    rows = (await session.execute(
        select(Game.code, home.name, away.name, Result.home_score, Result.away_score, Result.decided)
        .select_from(Result).join(Game, Result.game_id == Game.id)
        .join(home, Game.home_team_id == home.id).join(away, Game.away_team_id == away.id)
        .where(Result.league_id == league_id, Game.code.in_(sorted(codes)), Game.status == "final"))).all()
    return {code: (h, a, hs, as_, decided) for code, h, a, hs, as_, decided in rows}


def advance_note(bracket: Bracket, matchup_id: str, winner: str) -> str:
    """'Hawks win R1-M1 and go on to R2-M1 (Final).' or 'Hawks win the Final: champions!'"""
    matchup = bracket.matchup(matchup_id)
    if bracket.champion == winner and matchup.round_number == len(bracket.rounds):
        return f"{winner} win the Final: champions!"
    for r in bracket.rounds:
        for m in r:
            if matchup_id in (m.top_from, m.bottom_from):
                return f"{winner} win {matchup_id} and go on to {m.matchup_id} ({bracket.round_name(m.round_number)})."
    return f"{winner} win {matchup_id}."


async def bracket_row(session: AsyncSession, league_id: int, division: str = "") -> PlayoffBracket | None:
    return await session.scalar(select(PlayoffBracket).where(PlayoffBracket.league_id == league_id,
                                                             PlayoffBracket.division == division))


async def bracket_rows(session: AsyncSession, league_id: int) -> list[PlayoffBracket]:
    """The league's brackets: one, or one per division (youth 1.1, 1.18), by division."""
    return list((await session.scalars(select(PlayoffBracket).where(PlayoffBracket.league_id == league_id)
                                       .order_by(PlayoffBracket.division))).all())


def _store_winner(row: PlayoffBracket, matchup_id: str, winner: str, game: str | None, now: datetime) -> None:
    row.winners = {**(row.winners or {}), matchup_id: {"team": winner, "game": game}}  # a new dict: JSON change
    row.updated_at = now


async def advance_from_result(session: AsyncSession, league_id: int, game_code: str, home: str, away: str,
                              winner: str | None, now: datetime) -> str | None:
    """Move the bracket on after a playoff game's result, when the game is one of its matchups.

    Returns a note for the person who entered the result, or None when the bracket is unaffected.
    A correction that would rewrite a round already played past raises Conflict (fix the later one first).
    """
    if winner is None:
        return None
    teams = {home, away}
    found = [(row, bracket, m) for row in await bracket_rows(session, league_id) for bracket in (rebuild(row),)
             for r in bracket.rounds for m in r if m.ready and set(m.teams) == teams]
    if not found:
        return None
    row, bracket, matchup = found[0]
    if matchup.winner is not None and matchup.winner.team == winner:
        return None
    try:
        moved = advance(bracket, matchup.matchup_id, winner)
    except PlayoffError as exc:
        raise Conflict(f"The playoff bracket can't take this result: {exc}.") from None
    _store_winner(row, matchup.matchup_id, winner, game_code, now)
    return advance_note(moved, matchup.matchup_id, winner)


async def draws(session: AsyncSession, caller: Caller, rules: StandingsRules) -> dict[str, list[StandingsRow]]:
    """Each draw's seeding table ("" for the whole league, else one per division where the rules draw
    divisions apart), with every team but those disqualified (youth 1.22)."""
    out = set((await session.scalars(select(Team.name).join(
        PlayoffDisqualification, PlayoffDisqualification.team_id == Team.id).where(
        PlayoffDisqualification.league_id == caller.league_id))).all())
    divisions = await team_divisions(session, caller.league_id)
    by_division = rules.standings_playoffs_by_division and any(divisions.values())
    grouping = divisions if by_division else dict.fromkeys(divisions, SEEDING_TABLE)
    season = await season_range(session, caller.league_id)  # the current season's table seeds its playoffs
    table = compute_standings(rules, grouping, await game_results(session, caller.league_id, season),
                              await point_adjustments(session, caller.league_id, season))
    found: dict[str, list[StandingsRow]] = {}
    for row in table:  # a disqualified team's games still count for its opponents
        if row.team not in out:
            found.setdefault(row.division if by_division else "", []).append(row)
    return found


def draw_name(division: str) -> str:
    return f"the {division} division" if division else "the league"


async def seed_orders(session: AsyncSession, league_id: int) -> list[list[str]]:
    """The orders commissioners set for level teams (/bracket seed), oldest first, as team names."""
    teams = dict((await session.execute(select(Team.id, Team.name).where(Team.league_id == league_id))).all())
    rows = (await session.scalars(select(SeedingDecision).where(SeedingDecision.league_id == league_id)
                                  .order_by(SeedingDecision.made_at, SeedingDecision.id))).all()
    return [[teams[i] for i in r.team_ids if i in teams] for r in rows]


async def settled_seeds(session: AsyncSession, league_id: int, table: list[StandingsRow], rules: StandingsRules,
                        teams: int) -> tuple[list[str], tuple[str, ...]]:
    """The top ``teams`` seeds, and a note for each group still level on every criterion."""
    order, unsettled = settled_order(table, rules, await seed_orders(session, league_id))
    seeds = order[:teams]
    level = [g for g in unsettled if any(t in seeds for t in g)]
    notes = tuple(f"Level on every seeding criterion, placed by name for now: {', '.join(g)}. Settle it with "
                  f"/bracket seed teams:{', '.join(g)} (best seed first)." for g in level)
    return seeds, notes


@retried_on_disconnect
class PlayoffService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock) -> None:
        self.sessions = sessions
        self.clock = clock

    async def show(self, caller: Caller) -> tuple[BracketView, ...]:
        async with self.sessions() as session:
            rows = await bracket_rows(session, caller.league_id)
            if not rows:
                raise NotFound(f"{caller.league.name} has no playoff bracket yet. "
                               "A commissioner creates it with /bracket create.")
            codes = {e["game"] for row in rows for e in (row.winners or {}).values() if e.get("game")}
            results = await game_scores(session, caller.league_id, codes)
            return tuple(view_of(row, results=results) for row in rows)

    async def create(self, caller: Caller, teams: int | None, *, replace: bool = False,
                     division: str | None = None) -> tuple[BracketView, ...]:
        """Seed the top ``teams`` of the standings into a straight bracket: one for the whole league, or one
        per division where the rules say so (youth 1.1, 1.18: junior and senior drawn apart; ``division``
        picks one). Disqualified teams are left out; level teams follow the order a commissioner set.
        Where every team qualifies (youth 1.18; co-ed, each team's guaranteed playoff game) the bracket
        takes the whole draw (``teams`` None) and a smaller one is refused; a team short of its
        guaranteed seeding games (co-ed: 2) is named in a note, not refused."""
        caller.require(Role.COMMISSIONER)
        if teams is not None and (isinstance(teams, bool) or not isinstance(teams, int)
                                  or not MIN_TEAMS <= teams <= MAX_TEAMS):
            raise InvalidInput(f"A bracket takes {MIN_TEAMS} to {MAX_TEAMS} teams.")
        rules, now = caller.league.rules.standings, self.clock.now()
        async with self.sessions.begin() as session:
            tables = await draws(session, caller, rules)
            if division is not None:
                wanted = division.strip().casefold()
                picked = [d for d in tables if d.casefold() == wanted]
                if not picked:
                    known = ", ".join(d for d in tables if d) or "none: this league draws one bracket"
                    raise NotFound(f"There's no playoff draw for “{quote(division)}” (draws by division: "
                                   f"{known}).")
                tables = {picked[0]: tables[picked[0]]}
            views = []
            for name, table in tables.items():
                row = await bracket_row(session, caller.league_id, name)
                if row is not None and not replace:
                    raise Conflict(f"{caller.league.name} already has a bracket for {draw_name(name)}. Use "
                                   "replace:True to seed a new one (the recorded playoff winners are dropped).")
                where = draw_name(name)
                if teams is not None and len(table) < teams:
                    raise InvalidInput(f"{where[:1].upper()}{where[1:]} has only {len(table)} teams in the draw "
                                       f"(disqualified teams are left out); a bracket of {teams} needs that many.")
                try:
                    size = bracket_size(rules, [r.team for r in sorted(table, key=lambda r: r.rank)], teams)
                except PlayoffError as exc:
                    raise InvalidInput(f"No bracket for {where}: {exc}. Nothing was created.") from None
                seeds, notes = await settled_seeds(session, caller.league_id, table, rules, size)
                early = seeding_games_note(rules, short_of_seeding_games(rules, table))
                if early:
                    notes = (early, *notes)
                if row is None:
                    row = PlayoffBracket(league_id=caller.league_id, division=name, seeds=seeds, winners={},
                                         created_by=caller.discord_id, created_at=now, updated_at=now)
                    session.add(row)
                else:
                    row.seeds, row.winners, row.created_by, row.created_at, row.updated_at = (
                        seeds, {}, caller.discord_id, now, now)
                await session.flush()
                views.append(view_of(row, notes))
            return tuple(views)

    async def seed(self, caller: Caller, teams_text: str) -> SeedingSet:
        """A commissioner sets the order of teams level on every seeding criterion (audited); a bracket
        follows it at once when no playoff winner is recorded in it yet."""
        caller.require(Role.COMMISSIONER)
        rules, now = caller.league.rules.standings, self.clock.now()
        wanted = [t.strip() for t in teams_text.split(",") if t.strip()]
        async with self.sessions.begin() as session:
            known = {n.casefold(): (i, n) for i, n in (await session.execute(
                select(Team.id, Team.name).where(Team.league_id == caller.league_id))).all()}
            missing = [w[:100] for w in wanted if w.casefold() not in known]
            if missing:
                raise NotFound(f"No team called {', '.join(missing)} in {caller.league.name}.")
            picked = [known[w.casefold()] for w in wanted]
            tables = await draws(session, caller, rules)
            draw = next((d for d, t in tables.items() if {n for _, n in picked} <= {r.team for r in t}), None)
            try:
                check_seed_order(tables.get(draw, []) if draw is not None else [], rules, [n for _, n in picked])
            except PlayoffError as exc:
                text = str(exc)
                raise InvalidInput(f"{text[:1].upper()}{text[1:]}. Nothing was recorded.") from None
            assert draw is not None
            session.add(SeedingDecision(league_id=caller.league_id, team_ids=[i for i, _ in picked],
                                        made_by=caller.discord_id, made_at=now))
            await session.flush()
            order = ", ".join(n for _, n in picked)
            row = await bracket_row(session, caller.league_id, draw)
            if row is None:
                return SeedingSet(f"Seeding order recorded: {order}. There's no bracket for {draw_name(draw)} yet: "
                                  "/bracket create applies it.", None)
            if row.winners:
                return SeedingSet(f"Seeding order recorded: {order}. The bracket already has playoff results: "
                                  "recreate it with /bracket create replace:True to apply it.", view_of(row))
            seeds, notes = await settled_seeds(session, caller.league_id, tables[draw], rules, len(row.seeds))
            row.seeds, row.updated_at = seeds, now
            await session.flush()
            return SeedingSet(f"Seeding order recorded: {order}; the bracket is seeded again.", view_of(row, notes))

    async def advance(self, caller: Caller, matchup_id: str, winner: str) -> BracketChange:
        """A commissioner records a matchup's winner by hand."""
        caller.require(Role.COMMISSIONER)
        async with self.sessions.begin() as session:
            rows = await bracket_rows(session, caller.league_id)
            if not rows:
                raise NotFound(f"{caller.league.name} has no playoff bracket yet.")
            # Matchup ids repeat across divisions' brackets: the winner's team says which one is meant.
            wanted_team = winner.strip().casefold()
            candidates = [(row, rebuild(row)) for row in rows]
            chosen = next(((row, b) for row, b in candidates if any(
                e is not None and e.team.casefold() == wanted_team for r in b.rounds for m in r
                for e in (m.top, m.bottom))), candidates[0])
            row, bracket = chosen
            try:
                matchup = bracket.matchup(matchup_id.strip().upper())
            except PlayoffError as exc:
                raise NotFound(f"{exc}.") from None
            if not matchup.ready:
                waiting = " and ".join(m for m in (matchup.top_from, matchup.bottom_from) if m)
                raise Conflict(f"{matchup.matchup_id} isn't set yet: waiting for the winner of {waiting}.")
            wanted = winner.strip().casefold()
            sides = [e.team for e in (matchup.top, matchup.bottom) if e is not None]
            team = next((t for t in sides if t.casefold() == wanted), None)
            if team is None:
                raise InvalidInput(f"{winner.strip()[:100]} isn't playing in {matchup.matchup_id}: "
                                   f"it's {' v '.join(sides)}.")
            try:
                moved = advance(bracket, matchup.matchup_id, team)
            except PlayoffError as exc:
                raise Conflict(f"{exc}.") from None
            _store_winner(row, matchup.matchup_id, team, None, self.clock.now())
            await session.flush()
            return BracketChange(view_of(row), matchup.matchup_id, team, advance_note(moved, matchup.matchup_id, team))

    async def matchups(self, caller: Caller, text: str) -> list[Matchup]:
        """Matchups with both teams known, unplayed first, for autocomplete."""
        async with self.sessions() as session:
            brackets = [rebuild(row) for row in await bracket_rows(session, caller.league_id)]
        needle = text.strip().casefold()
        ready = [m for bracket in brackets for r in bracket.rounds for m in r if m.ready]
        ready.sort(key=lambda m: m.winner is not None)
        return [m for m in ready if not needle or needle in m.matchup_id.casefold()
                or any(needle in team.casefold() for team in m.teams)]
