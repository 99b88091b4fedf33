"""Shootout orders: captains submit them, check them against today's check-ins, ask for a legal one.

An order is checked by the pure rules (``bot.league.shootouts.order.validate_order``) against the team's
eligible shooters and the opponent's (co-ed leagues match the smaller team). An order that breaks
any rule is refused with every reason and its rule, and nothing is stored; a legal one replaces the
team's earlier order. Check-ins change after a submission, so ``check`` re-judges the stored order
against the pools as they are now.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.access import Caller
from bot.clock import Clock
from bot.discord_text import clip
from bot.errors import Conflict, InvalidInput, NotAllowed
from bot.league.shootouts.eligibility import Shooter, Violation, eligible_shooters
from bot.league.shootouts.order import validate_goalie_change
from bot.league.shootouts.presets import ShootoutError, Side
from bot.league.shootouts.suggestion import suggest_order
from bot.services.name_resolution import resolve_names
from bot.services.shared.eligibility import SuspensionCheck, require_check
from bot.services.shootouts.context import SIDES, GameLabel, ShootoutContext, TeamPool, acting_side, load
from storage.db import retried_on_disconnect
from storage.models import ShootoutOrder

NOTHING_SAVED = "Nothing was saved; check these names:"


class IllegalOrder(InvalidInput):
    """The order breaks shootout rules; ``violations`` has every reason with its rule."""

    def __init__(self, team: str, violations: Sequence[Violation]) -> None:
        self.violations = tuple(violations)
        lines = [f"That order breaks the shootout rules, so nothing was saved for {team}:"]
        lines += [f"• {v.message}" for v in self.violations]
        lines.append("/shootout suggest proposes a legal order.")
        super().__init__(clip("\n".join(lines), 1900))


def goalie_change(ctx: ShootoutContext, side: Side, goalie: str) -> list[Violation]:
    """The named goalie against the one in goal at the end of overtime (the floor a referee marked)."""
    pool = ctx.pools[side]
    (named,) = resolve_names(goalie, pool.candidates, where=f"{pool.name}'s roster", lead=NOTHING_SAVED)[:1]
    rules = ctx.caller.league.rules.shootout
    in_goal = [s for s in pool.pool.eligible if s.position == "goalie" and s.on_floor]
    if rules.shootout_goalie_may_change or not pool.floor_marked or len(in_goal) != 1:
        return []
    started = in_goal[0]
    asked = next((s for s in pool.pool.eligible if s.player_id == named.key), None)
    return validate_goalie_change(rules, started, asked or Shooter(named.key, named.name, False, "skater", False))


@dataclass(frozen=True)
class SubmittedOrder:
    game: GameLabel
    team: str
    shooters: tuple[str, ...]
    replaced: bool  # the team had an order before
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class TeamOrderView:
    """One team's order as the caller may see it; ``hidden`` when it is the other team's, before the start."""

    team: str
    hidden: bool = False
    shooters: tuple[str, ...] = ()
    submitted_at: datetime | None = None
    problems: tuple[str, ...] = ()

    @property
    def submitted(self) -> bool:
        return bool(self.shooters)


@dataclass(frozen=True)
class OrderCheck:
    game: GameLabel
    started: bool
    teams: tuple[TeamOrderView, ...]
    score: str | None = None  # the shootout so far, once it has started
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class SuggestedOrder:
    game: GameLabel
    team: str
    shooters: tuple[str, ...]
    command: str  # a /shootout submit line to copy
    notes: tuple[str, ...] = ()  # preferred shooters who can't shoot (and why), pools still to settle


def score_line(ctx: ShootoutContext) -> str | None:
    """'Hawks 1-0 Owls after 3 attempts; Owls shoot next' once the shootout has started."""
    if not ctx.attempts:
        return None
    state = ctx.state()
    text = (f"{ctx.team('home')} {state.home_goals}-{state.away_goals} {ctx.team('away')} "
            f"after {len(ctx.attempts)} attempt{'s' if len(ctx.attempts) != 1 else ''}")
    if state.winner is not None:
        return f"{text}: {ctx.team(state.winner)} won the shootout"
    return f"{text}; {ctx.team(state.next_side)} shoot next" if state.next_side else text


def pool_notes(ctx: ShootoutContext, side: Side) -> tuple[str, ...]:
    """What may still change the verdict: the floor not marked, the other team not checked in."""
    notes = []
    own, other = ctx.pools[side], ctx.pools[ctx.other(side)]
    if ctx.rules.shootout_only_players_on_floor and not own.floor_marked:
        notes.append(f"Who of {own.name} was on the floor at the end of overtime isn't marked yet "
                     "(/shootout floor); only those players may shoot, so check again once it is.")
    if ctx.rules.shootout_match_smaller_team and not other.pool.eligible:
        notes.append(f"Nobody from {other.name} is checked in yet, so the order isn't matched to their team "
                     "yet; /shootout check re-checks it.")
    return tuple(notes)


def _require_open(ctx: ShootoutContext) -> None:
    game = ctx.game
    if game.status == "cancelled":
        raise Conflict(f"{game.code} ({ctx.label.title}) was cancelled: there's no shootout.")
    if ctx.started:
        raise Conflict(f"The shootout in {game.code} has started: orders can't change now.")
    if game.status == "final":
        raise Conflict(f"{game.code} ({ctx.label.title}) is over: it already has a result.")


@retried_on_disconnect
class ShootoutOrderService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock, *,
                 suspensions: SuspensionCheck) -> None:
        self.sessions = sessions
        self.clock = clock
        self.suspensions = require_check(suspensions, "shootout orders")

    async def submit(self, caller: Caller, game_code: str, shooters: str,
                     team_name: str | None = None, goalie: str | None = None) -> SubmittedOrder:
        """A captain (or commissioner) stores their team's order if it breaks no rule.

        ``goalie`` names the team's goalie for the shootout: where the goalie may not be changed (indoor,
        "Goalies may not be substituted during shootout"), an order whose goalie isn't the one on the
        floor at the end of overtime is refused, quoting the rule.
        """
        now = self.clock.now()
        try:
            async with self.sessions.begin() as session:
                ctx = await load(session, caller, game_code, self.suspensions, lock=True)
                side = acting_side(ctx, team_name, what="submit a shootout order")
                _require_open(ctx)
                pool = ctx.pools[side]
                picked = resolve_names(shooters, pool.candidates, where=f"{pool.name}'s roster", lead=NOTHING_SAVED)
                order = [c.key for c in picked]
                problems = ctx.violations(side, order)
                if goalie is not None:
                    problems = [*problems, *goalie_change(ctx, side, goalie)]
                if problems:
                    raise IllegalOrder(pool.name, problems)
                row = ctx.orders.get(side)
                if row is None:
                    session.add(ShootoutOrder(league_id=caller.league_id, game_id=ctx.game.id, team_id=pool.team.id,
                                              shooters=order, submitted_by=caller.discord_id, submitted_at=now,
                                              updated_at=now))
                else:
                    row.shooters, row.submitted_by, row.updated_at = order, caller.discord_id, now
                return SubmittedOrder(ctx.label, pool.name, tuple(c.name for c in picked), row is not None,
                                      pool_notes(ctx, side))
        except IntegrityError:
            raise Conflict(f"Someone else submitted {game_code.strip()[:64]}'s order for your team at the same "
                           "moment; run /shootout check and submit again if it isn't yours.") from None

    async def check(self, caller: Caller, game_code: str) -> OrderCheck:
        """The orders the caller may see, and everything wrong with them against today's check-ins."""
        async with self.sessions() as session:
            ctx = await load(session, caller, game_code, self.suspensions)
            mine = ctx.captain_sides()
            if not (ctx.referee or mine):
                raise NotAllowed(f"Only a captain of {ctx.team('home')} or {ctx.team('away')}, a referee of "
                                 f"this game or a commissioner can see the shootout orders for {ctx.game.code}.")
            views = []
            notes: list[str] = []
            for side in SIDES:
                team = ctx.team(side)
                if not ctx.may_see_order(side):
                    views.append(TeamOrderView(team, hidden=True))
                    continue
                row = ctx.orders.get(side)
                if row is None:
                    views.append(TeamOrderView(team))
                    continue
                problems = tuple(v.message for v in ctx.violations(side, row.shooters))
                views.append(TeamOrderView(team, False, tuple(ctx.name_of(p) for p in row.shooters),
                                           row.updated_at, problems))
                if not ctx.started:
                    notes += [n for n in pool_notes(ctx, side) if n not in notes]
            return OrderCheck(ctx.label, ctx.started, tuple(views), score_line(ctx), tuple(notes))

    async def suggest(self, caller: Caller, game_code: str, preferred: str | None = None,
                      team_name: str | None = None) -> SuggestedOrder:
        """A legal order for the caller's team, keeping the preferred first shooters where the rules allow."""
        async with self.sessions() as session:
            ctx = await load(session, caller, game_code, self.suspensions)
            side = acting_side(ctx, team_name, what="ask for a shootout order")
            pool, other = ctx.pools[side], ctx.pools[ctx.other(side)]
            wanted = resolve_names(preferred, pool.candidates, where=f"{pool.name}'s roster") \
                if preferred and preferred.strip() else []
            eligible = {s.player_id for s in eligible_shooters(ctx.rules, pool.pool)}
            skipped = tuple(f"{c.name} {_why_not(ctx, pool, c.key)}, so they're left out."
                            for c in dict.fromkeys(wanted) if c.key not in eligible)
            try:
                order = suggest_order(ctx.rules, pool.pool, other.pool, [c.key for c in wanted if c.key in eligible],
                                      None, ctx.playoff)
            except ShootoutError as exc:
                raise Conflict(f"There's no legal order for {pool.name} yet: {exc}.") from None
            names = tuple(ctx.name_of(p) for p in order)
            command = f"/shootout submit game:{ctx.game.code} shooters:{', '.join(names)}"
            return SuggestedOrder(ctx.label, pool.name, names, command, skipped + pool_notes(ctx, side))


def _why_not(ctx: ShootoutContext, pool: TeamPool, player_id: int) -> str:
    if player_id in pool.not_eligible:
        return pool.not_eligible[player_id]
    shooter = next((s for s in pool.pool.eligible if s.player_id == player_id), None)
    if shooter is not None and not shooter.on_floor:
        return "wasn't on the floor at the end of overtime"
    return "may not shoot in this league's shootouts (goalies don't)"
