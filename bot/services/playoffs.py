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

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.access import Caller, Role
from bot.clock import Clock
from bot.errors import Conflict, InvalidInput, NotFound
from bot.league.playoffs import (
    MAX_TEAMS,
    MIN_TEAMS,
    SEEDING_TABLE,
    Bracket,
    Matchup,
    PlayoffError,
    advance,
    build_bracket,
    check_seed_order,
    render_bracket,
    settled_order,
)
from bot.league.standings.presets import StandingsRules
from bot.league.standings.table import StandingsRow, compute_standings
from bot.services.standings import game_results, point_adjustments, team_divisions
from storage.models import PlayoffBracket, PlayoffDisqualification, SeedingDecision, Team

RENDER_WIDTH = 28


@dataclass(frozen=True)
class BracketView:
    bracket: Bracket
    text: str  # narrow monospace text (put it in a code block)
    games: dict[str, str]  # matchup id -> the playoff game that decided it
    notes: tuple[str, ...] = ()

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


def view_of(row: PlayoffBracket, notes: tuple[str, ...] = ()) -> BracketView:
    bracket = rebuild(row)
    games = {mid: e["game"] for mid, e in (row.winners or {}).items() if e.get("game")}
    return BracketView(bracket, render_bracket(bracket, RENDER_WIDTH), games, notes)


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


async def bracket_row(session: AsyncSession, league_id: int) -> PlayoffBracket | None:
    return await session.scalar(select(PlayoffBracket).where(PlayoffBracket.league_id == league_id))


def _store_winner(row: PlayoffBracket, matchup_id: str, winner: str, game: str | None, now: datetime) -> None:
    row.winners = {**(row.winners or {}), matchup_id: {"team": winner, "game": game}}  # a new dict: JSON change
    row.updated_at = now


async def advance_from_result(session: AsyncSession, league_id: int, game_code: str, home: str, away: str,
                              winner: str | None, now: datetime) -> str | None:
    """Move the bracket on after a playoff game's result, when the game is one of its matchups.

    Returns a note for the person who entered the result, or None when the bracket is unaffected.
    A correction that would rewrite a round already played past raises Conflict (fix the later one first).
    """
    row = await bracket_row(session, league_id)
    if row is None or winner is None:
        return None
    bracket = rebuild(row)
    teams = {home, away}
    matchup = next((m for r in bracket.rounds for m in r
                    if m.ready and set(m.teams) == teams), None)
    if matchup is None:
        return None
    if matchup.winner is not None and matchup.winner.team == winner:
        return None
    try:
        moved = advance(bracket, matchup.matchup_id, winner)
    except PlayoffError as exc:
        raise Conflict(f"The playoff bracket can't take this result: {exc}.") from None
    _store_winner(row, matchup.matchup_id, winner, game_code, now)
    return advance_note(moved, matchup.matchup_id, winner)


async def seeding_table(session: AsyncSession, caller: Caller, rules: StandingsRules) -> list[StandingsRow]:
    """The seeding table of the teams in the draw: every team but those disqualified (youth 1.22)."""
    out = set((await session.scalars(select(Team.name).join(
        PlayoffDisqualification, PlayoffDisqualification.team_id == Team.id).where(
        PlayoffDisqualification.league_id == caller.league_id))).all())
    names = list(await team_divisions(session, caller.league_id))
    table = compute_standings(rules, dict.fromkeys(names, SEEDING_TABLE), await game_results(session, caller.league_id),
                              await point_adjustments(session, caller.league_id))
    return [row for row in table if row.team not in out]  # their games still count for their opponents


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


class PlayoffService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock) -> None:
        self.sessions = sessions
        self.clock = clock

    async def show(self, caller: Caller) -> BracketView:
        async with self.sessions() as session:
            row = await bracket_row(session, caller.league_id)
            if row is None:
                raise NotFound(f"{caller.league.name} has no playoff bracket yet. "
                               "A commissioner creates it with /bracket create.")
            return view_of(row)

    async def create(self, caller: Caller, teams: int, *, replace: bool = False) -> BracketView:
        """Seed the top ``teams`` of the standings (whole league, divisions ignored) into a straight bracket,
        leaving disqualified teams out and level teams in the order a commissioner set (/bracket seed)."""
        caller.require(Role.COMMISSIONER)
        if isinstance(teams, bool) or not isinstance(teams, int) or not MIN_TEAMS <= teams <= MAX_TEAMS:
            raise InvalidInput(f"A bracket takes {MIN_TEAMS} to {MAX_TEAMS} teams.")
        rules, now = caller.league.rules.standings, self.clock.now()
        async with self.sessions.begin() as session:
            row = await bracket_row(session, caller.league_id)
            if row is not None and not replace:
                raise Conflict(f"{caller.league.name} already has a bracket. Use replace:True to seed a new one "
                               "(the recorded playoff winners are dropped).")
            table = await seeding_table(session, caller, rules)
            if len(table) < teams:
                raise InvalidInput(f"{caller.league.name} has only {len(table)} teams in the draw (disqualified "
                                   f"teams are left out); a bracket of {teams} needs that many.")
            seeds, notes = await settled_seeds(session, caller.league_id, table, rules, teams)
            if row is None:
                row = PlayoffBracket(league_id=caller.league_id, seeds=seeds, winners={}, created_by=caller.discord_id,
                                     created_at=now, updated_at=now)
                session.add(row)
            else:
                row.seeds, row.winners, row.created_by, row.created_at, row.updated_at = (
                    seeds, {}, caller.discord_id, now, now)
            await session.flush()
            return view_of(row, notes)

    async def seed(self, caller: Caller, teams_text: str) -> SeedingSet:
        """A commissioner sets the order of teams level on every seeding criterion (audited); the bracket
        follows it at once when no playoff winner is recorded yet."""
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
            table = await seeding_table(session, caller, rules)
            try:
                check_seed_order(table, rules, [n for _, n in picked])
            except PlayoffError as exc:
                text = str(exc)
                raise InvalidInput(f"{text[:1].upper()}{text[1:]}. Nothing was recorded.") from None
            session.add(SeedingDecision(league_id=caller.league_id, team_ids=[i for i, _ in picked],
                                        made_by=caller.discord_id, made_at=now))
            await session.flush()
            order = ", ".join(n for _, n in picked)
            row = await bracket_row(session, caller.league_id)
            if row is None:
                return SeedingSet(f"Seeding order recorded: {order}. There's no bracket yet: /bracket create "
                                  "applies it.", None)
            if row.winners:
                return SeedingSet(f"Seeding order recorded: {order}. The bracket already has playoff results: "
                                  "recreate it with /bracket create replace:True to apply it.", view_of(row))
            seeds, notes = await settled_seeds(session, caller.league_id, table, rules, len(row.seeds))
            row.seeds, row.updated_at = seeds, now
            await session.flush()
            return SeedingSet(f"Seeding order recorded: {order}; the bracket is seeded again.", view_of(row, notes))

    async def advance(self, caller: Caller, matchup_id: str, winner: str) -> BracketChange:
        """A commissioner records a matchup's winner by hand."""
        caller.require(Role.COMMISSIONER)
        async with self.sessions.begin() as session:
            row = await bracket_row(session, caller.league_id)
            if row is None:
                raise NotFound(f"{caller.league.name} has no playoff bracket yet.")
            bracket = rebuild(row)
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
            row = await bracket_row(session, caller.league_id)
            if row is None:
                return []
            bracket = rebuild(row)
        needle = text.strip().casefold()
        ready = [m for r in bracket.rounds for m in r if m.ready]
        ready.sort(key=lambda m: m.winner is not None)
        return [m for m in ready if not needle or needle in m.matchup_id.casefold()
                or any(needle in team.casefold() for team in m.teams)]
