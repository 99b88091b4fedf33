"""Running a shootout: who was on the floor (indoor soccer), each attempt, and the result it decides.

Referees record attempt by attempt (``bot.league.shootouts.scoring.record_attempt``); the team shooting is
the shooter's. The first attempt starts the shootout (the orders become visible to both captains)
and says which team shoots first and the tied score it started from. Once the shootout is decided
the game's result is entered through the results feature (``bot.services.results.record``, in the
same transaction), shootout goals apart from the tied score, and both teams' channels are told.

A referee records what happened: a shooter who breaks a rule the bot knows of (a repeat too early,
a missing woman/non-binary shooter) or who differs from the submitted order is recorded with a
warning, not refused — the referee on the floor decides. Out-of-turn attempts and attempts after
the shootout is decided are refused.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import cast

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.access import Caller
from bot.clock import Clock
from bot.discord_text import clip
from bot.errors import Conflict, InvalidInput, NotAllowed
from bot.league.checkins.presets import lineup_rules_for
from bot.league.shootouts.eligibility import eligible_shooters
from bot.league.shootouts.presets import Side
from bot.league.shootouts.scoring import ShootoutState, record_attempt
from bot.services import outbox
from bot.services.name_resolution import resolve_names
from bot.services.results import (
    ResultHook,
    Score,
    check_playable,
    check_score,
    record,
    result_for,
    score_of,
    view_of,
)
from bot.services.shared.eligibility import SuspensionCheck, require_check
from bot.services.shared.games import check_change
from bot.services.shootouts.context import SIDES, GameLabel, ShootoutContext, load
from bot.services.shootouts.orders import NOTHING_SAVED
from storage.db import retried_on_disconnect
from storage.models import Shootout, ShootoutAttempt

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class FloorMarked:
    game: GameLabel
    teams: tuple[tuple[str, tuple[str, ...]], ...]  # (team, players on the floor)
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class AttemptRecorded:
    game: GameLabel
    seq: int
    shooter: str
    team: str
    scored: bool
    home: str
    away: str
    home_goals: int
    away_goals: int
    next_team: str | None
    winner: str | None
    result: str | None = None  # the game's result once decided, e.g. "Hawks 3-3 Owls (shootout 2-0)"
    warnings: tuple[str, ...] = ()

    @property
    def decided(self) -> bool:
        return self.winner is not None

    @property
    def score(self) -> str:
        return f"{self.home} {self.home_goals}-{self.away_goals} {self.away}"


@dataclass(frozen=True)
class AttemptUndone:
    game: GameLabel
    seq: int
    shooter: str
    team: str
    scored: bool
    score: str  # the shootout after the undo, e.g. "Hawks 1-0 Owls"
    next_team: str | None  # None: no attempt left, the next one starts the shootout again


@dataclass(frozen=True)
class ShooterChoice:
    label: str
    value: str


def _require_referee(ctx: ShootoutContext, what: str) -> None:
    if not ctx.referee:
        raise NotAllowed(f"Only a referee of {ctx.game.code} or a commissioner can {what}.")


async def _require_no_result(session: AsyncSession, ctx: ShootoutContext) -> None:
    existing = await result_for(session, ctx.game)
    if existing is not None:
        summary = view_of(ctx.game, score_of(existing)).summary
        raise Conflict(f"{ctx.game.code} already has a result ({summary}), so there's no shootout to run. "
                       "A commissioner can correct it with /result fix.")


@retried_on_disconnect
class ShootoutScoringService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock, *, suspensions: SuspensionCheck,
                 on_result: ResultHook) -> None:
        self.sessions = sessions
        self.clock = clock
        self.suspensions = require_check(suspensions, "shootout scoring")
        self.on_result = on_result

    async def mark_floor(self, caller: Caller, game_code: str, players: str) -> FloorMarked:
        """A captain (own team) or referee (either team) marks who was on the floor when overtime ended."""
        rules = caller.league.rules.shootout
        if not rules.shootout_only_players_on_floor:
            raise InvalidInput(f"No need in {caller.league.name}: any eligible player may shoot in a shootout, "
                               "not only those on the floor at the end of overtime.")
        now = self.clock.now()
        async with self.sessions.begin() as session:
            ctx = await load(session, caller, game_code, self.suspensions, lock=True)
            mine = ctx.captain_sides()
            if not (ctx.referee or mine):
                raise NotAllowed(f"Only a captain of {ctx.team('home')} or {ctx.team('away')}, a referee of "
                                 f"{ctx.game.code} or a commissioner can mark who was on the floor.")
            check_playable(ctx.game, now)
            if ctx.started:
                raise Conflict(f"The shootout in {ctx.game.code} has started: who was on the floor can't change now.")
            await _require_no_result(session, ctx)
            sides = list(SIDES) if ctx.referee else mine
            candidates = [c for s in sides for c in ctx.pools[s].candidates]
            where = " or ".join(f"{ctx.team(s)}'s roster" for s in sides)
            picked = resolve_names(players, candidates, where=where, lead=NOTHING_SAVED)
            row = ctx.shootout or Shootout(league_id=caller.league_id, game_id=ctx.game.id)
            if ctx.shootout is None:
                session.add(row)
            marked: list[tuple[str, tuple[str, ...]]] = []
            notes: list[str] = []
            for side in SIDES:
                pool = ctx.pools[side]
                chosen = list(dict.fromkeys(c for c in picked if c.group == pool.team.id))
                if not chosen:
                    continue
                limit = self._court_size(caller, ctx, side)
                if len(chosen) > limit:
                    raise InvalidInput(f"That's {len(chosen)} {pool.name} players; at most {limit} are on the floor "
                                       "at once (the goalie included). Nothing was saved.")
                setattr(row, f"{side}_on_floor", [c.key for c in chosen])
                marked.append((pool.name, tuple(c.name for c in chosen)))
                notes += [f"{c.name} {pool.not_eligible[c.key]}, so can't shoot anyway." for c in chosen
                          if c.key in pool.not_eligible]
            row.floor_marked_by, row.floor_marked_at = caller.discord_id, now
            return FloorMarked(ctx.label, tuple(marked), tuple(notes))

    @staticmethod
    def _court_size(caller: Caller, ctx: ShootoutContext, side: Side) -> int:
        team = ctx.pools[side].team
        try:
            return lineup_rules_for(caller.league.rules.lineup, team.division.name if team.division else None) \
                .players_on_court
        except ValueError:
            return caller.league.rules.lineup.players_on_court

    async def record(self, caller: Caller, game_code: str, shooter: str, scored: bool,
                     tied_at: int | None = None) -> AttemptRecorded:
        """A referee records one attempt; the deciding one enters the game's result."""
        now = self.clock.now()
        try:
            async with self.sessions.begin() as session:
                ctx = await load(session, caller, game_code, self.suspensions, lock=True)
                _require_referee(ctx, "record shootout attempts")
                game = ctx.game
                state = ctx.state()
                if state.winner is not None:
                    raise Conflict(f"The shootout in {game.code} is already decided: {ctx.team(state.winner)} won "
                                   f"{state.home_goals}-{state.away_goals}. A commissioner can correct the result "
                                   "with /result fix.")
                await _require_no_result(session, ctx)
                check_change(game, "shootout_attempt")
                check_playable(game, now)
                candidates = [c for s in SIDES for c in ctx.pools[s].candidates]
                where = f"{ctx.team('home')}'s or {ctx.team('away')}'s roster"
                picked = resolve_names(shooter, candidates, where=where)
                if len(picked) != 1:
                    raise InvalidInput("Record one attempt at a time: name one shooter.")
                who = picked[0]
                side = ctx.side_of_team(who.group or 0)
                assert side is not None
                tied = self._tied_score(ctx, tied_at)
                if not ctx.attempts:
                    state = ShootoutState.begin(ctx.rules, playoff=ctx.playoff, first=side)
                if not state.may_shoot(side):
                    after = state.next_side or ctx.other(side)
                    raise Conflict(f"It's {ctx.team(after)}'s turn to shoot, not {ctx.team(side)}'s: "
                                   "nothing was recorded.")
                warnings = self._warnings(ctx, side, who.key)
                state = record_attempt(state, side, who.key, scored)
                row = ctx.shootout or Shootout(league_id=caller.league_id, game_id=game.id)
                if ctx.shootout is None:
                    session.add(row)
                if not ctx.attempts:
                    row.tied_score, row.first_side = tied, side
                    row.started_by, row.started_at = caller.discord_id, now
                session.add(ShootoutAttempt(league_id=caller.league_id, game_id=game.id, seq=len(ctx.attempts) + 1,
                                            side=side, shooter_id=who.key, shooter_name=who.name[:100],
                                            scored=scored, recorded_by=caller.discord_id, recorded_at=now))
                summary = None
                if state.winner is not None:
                    row.decided_at = now
                    summary = await self._enter_result(session, caller, ctx, state, tied)
                return AttemptRecorded(
                    ctx.label, len(ctx.attempts) + 1, who.name, ctx.team(side), scored, ctx.team("home"),
                    ctx.team("away"), state.home_goals, state.away_goals,
                    ctx.team(state.next_side) if state.next_side else None,
                    ctx.team(state.winner) if state.winner else None, summary, warnings,
                )
        except IntegrityError:
            raise Conflict(f"Another attempt for {game_code.strip()[:64]} was recorded at the same moment, so this "
                           "one wasn't. Check /shootout check and record it again if it's missing.") from None

    async def undo_last(self, caller: Caller, game_code: str) -> AttemptUndone:
        """Take back the last attempt of an undecided shootout: a referee who tapped the wrong shooter
        or outcome fixes it at once instead of playing on from a wrong score. A decided shootout is a
        result, which /result fix corrects."""
        async with self.sessions.begin() as session:
            ctx = await load(session, caller, game_code, self.suspensions, lock=True)
            _require_referee(ctx, "take back shootout attempts")
            if not ctx.attempts:
                raise Conflict(f"No shootout attempt has been recorded in {ctx.game.code}, so there's nothing "
                               "to take back.")
            state = ctx.state()
            if state.winner is not None:
                raise Conflict(f"The shootout in {ctx.game.code} is decided and its result entered "
                               f"({ctx.team(state.winner)} won): a commissioner can correct it with /result fix.")
            await _require_no_result(session, ctx)
            check_change(ctx.game, "shootout_undo")
            last = ctx.attempts.pop()
            await session.delete(last)
            # The row goes (the shootout replays from what is left); the log keeps who took what back.
            log.info("league %s game %s: shootout attempt %d (%s, %s) taken back by %s", caller.league_id,
                     ctx.game.code, last.seq, last.shooter_name, "scored" if last.scored else "missed",
                     caller.discord_id)
            if not ctx.attempts and ctx.shootout is not None:  # back to before the shootout started
                shootout = ctx.shootout
                shootout.tied_score = shootout.first_side = None
                shootout.started_by = shootout.started_at = None
            state = ctx.state()
            return AttemptUndone(ctx.label, last.seq, last.shooter_name, ctx.team(cast(Side, last.side)), last.scored,
                                 f"{ctx.team('home')} {state.home_goals}-{state.away_goals} {ctx.team('away')}",
                                 ctx.team(state.next_side) if ctx.attempts and state.next_side else None)

    @staticmethod
    def _tied_score(ctx: ShootoutContext, tied_at: int | None) -> int:
        started_from = ctx.shootout.tied_score if ctx.shootout is not None else None
        if started_from is None:
            if tied_at is None:
                raise InvalidInput("The first attempt starts the shootout: add tied_at, the goals each team had "
                                   "after overtime (e.g. 3 for a 3-3 tie). Nothing was recorded.")
            return tied_at
        if tied_at is not None and tied_at != started_from:
            raise Conflict(f"The shootout started from a {started_from}-{started_from} tie; leave tied_at out "
                           "(a commissioner can fix the result afterwards). Nothing was recorded.")
        return started_from

    @staticmethod
    def _warnings(ctx: ShootoutContext, side: Side, player_id: int) -> tuple[str, ...]:
        """Rules this shot breaks as far as the bot knows, and a departure from the submitted order."""
        taken = [a.shooter_id or 0 for a in ctx.attempts if a.side == side] + [player_id]
        pos = len(taken)
        found = [v.message for v in ctx.violations(side, taken) if v.position == pos]
        order = ctx.orders.get(side)
        if order is not None and pos <= len(order.shooters) and order.shooters[pos - 1] != player_id:
            found.append(f"{ctx.team(side)}'s order had {ctx.name_of(order.shooters[pos - 1])} as shooter {pos}.")
        return tuple(found)

    async def _enter_result(self, session: AsyncSession, caller: Caller, ctx: ShootoutContext,
                            state: ShootoutState, tied: int) -> str:
        """The deciding attempt: the game's result, and the news for both teams' channels."""
        game, now = ctx.game, self.clock.now()
        score = Score(tied, tied, "shootout", state.home_goals, state.away_goals)
        check_score(caller.league.rules, game.kind, score)
        await session.flush()
        await record(session, caller.league.rules, game, score, by=caller.discord_id, now=now, action="entered",
                     on_result=self.on_result)
        summary = view_of(game, score).summary
        winner = ctx.team(state.winner) if state.winner else ""
        text = clip(f"🥅 Shootout decided in `{game.code}`: **{winner}** win. Final: {summary}.", 2000)
        for team in (game.home, game.away):
            if team.channel_id:
                await outbox.enqueue(session, league_id=caller.league_id, guild_id=caller.league.guild_id,
                                     key=f"shootout:{game.id}:decided:{team.id}", due_at=now,
                                     message=outbox.Outgoing(content=text), channel_id=team.channel_id)
        return summary

    async def shooter_choices(self, caller: Caller, game_code: str, current: str) -> list[ShooterChoice]:
        """Autocomplete for /shootout record: the eligible shooters, the team due next first (referees only)."""
        async with self.sessions() as session:
            ctx = await load(session, caller, game_code, self.suspensions)
            if not ctx.referee:
                return []
            nxt = ctx.state().next_side if ctx.attempts else None
            sides = sorted(SIDES, key=lambda s: s != nxt)
            needle = current.strip().casefold()
            out = []
            for side in sides:
                pool = ctx.pools[side]
                discord_ids = {c.key: c.discord_id for c in pool.candidates}
                for s in eligible_shooters(ctx.rules, pool.pool):
                    if needle in s.name.casefold():
                        who = discord_ids[s.player_id]  # None: no Discord account, picked by name
                        out.append(ShooterChoice(f"{s.name} ({pool.name})", f"<@{who}>" if who else s.name))
            return out[:25]
