"""What the shootout commands share: the game, both teams' eligible shooters, who may see what.

The rules themselves are pure (``bot/league/shootouts/``); this module loads what they need:
- a team's pool is its rostered players checked in "in" for the game and not suspended (the
  discipline feature's checks in ``bot.services.shared.eligibility``); in indoor soccer, once a captain or
  referee has marked who was on the floor at the end of overtime, only those players may shoot;
- "the game's referees" are the referees assigned to it (``/game referee``); a game nobody is
  assigned to is every league referee's (as for relays); commissioners may always act as referees;
- orders stay private to the submitting team's captains and the game's referees until the first
  attempt is recorded; from then on both teams' captains see both.

Orders (``orders``) and scoring (``scoring``) build on this.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import cast

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.access import Caller
from bot.errors import Conflict, InvalidInput, NotAllowed
from bot.league.availability import AWAY
from bot.league.shootouts.eligibility import Shooter, ShootoutPool, Violation
from bot.league.shootouts.order import validate_order
from bot.league.shootouts.presets import ShootoutError, ShootoutRules, Side
from bot.league.shootouts.scoring import Attempt, ShootoutState, score_shootout
from bot.league.vocabulary import COUNTS_TOWARD_WOMEN_MINIMUM
from bot.services.availability.away import answers_as_read
from bot.services.name_resolution import Candidate
from bot.services.people import Membership, is_captain_of, membership
from bot.services.shared.attendance import checkins_for_game
from bot.services.shared.eligibility import SuspensionCheck
from bot.services.shared.games import find_game, lock_game
from storage import lookups
from storage.models import Game, Player, RefereeAssignment, Shootout, ShootoutAttempt, ShootoutOrder, Team

SIDES: tuple[Side, Side] = ("home", "away")
#: Violations whose wording can tell who counts as a woman/non-binary player (see ``violations``).
GENDER_HINTING = frozenset({"repeat", "women_take_turns", "women_repeat_not_needed"})


@dataclass(frozen=True)
class GameLabel:
    """A game as the replies name it."""

    code: str
    home: str
    away: str

    @property
    def title(self) -> str:
        return f"{self.home} vs {self.away}"


@dataclass(frozen=True)
class TeamPool:
    """One team of the game: its roster (in roster order), who may shoot, and why the others may not."""

    side: Side
    team: Team
    candidates: tuple[Candidate, ...]
    pool: ShootoutPool
    not_eligible: dict[int, str] = field(default_factory=dict)  # player id -> why, in a captain's words
    floor_marked: bool = False

    @property
    def name(self) -> str:
        return self.team.name


@dataclass
class ShootoutContext:
    """Everything a shootout command needs about one game, loaded in one unit of work."""

    caller: Caller
    member: Membership
    game: Game
    rules: ShootoutRules
    playoff: bool
    referee: bool  # a referee of this game, or a commissioner
    pools: dict[Side, TeamPool]
    shootout: Shootout | None
    orders: dict[Side, ShootoutOrder]
    attempts: list[ShootoutAttempt]
    names: dict[int, str]  # player id -> name, for everyone in an order or an attempt

    @property
    def label(self) -> GameLabel:
        return GameLabel(self.game.code, self.game.home.name, self.game.away.name)

    @property
    def started(self) -> bool:
        return bool(self.attempts) or (self.shootout is not None and self.shootout.started_at is not None)

    def team(self, side: Side) -> str:
        return self.pools[side].name

    def other(self, side: Side) -> Side:
        return "away" if side == "home" else "home"

    def captain_sides(self) -> list[Side]:
        """The sides the caller captains (the captain role and marked captain of that team), or stands in
        for in this game (bot/services/people.py)."""
        return [s for s in SIDES if is_captain_of(self.caller, self.member, self.pools[s].team.id)]

    def may_see_order(self, side: Side) -> bool:
        """Orders are private to their team's captains and the referees until the first attempt."""
        captains = self.captain_sides()
        return self.referee or side in captains or (self.started and bool(captains))

    def side_of_team(self, team_id: int) -> Side | None:
        return next((s for s in SIDES if self.pools[s].team.id == team_id), None)

    def name_of(self, player_id: int) -> str:
        return self.names.get(player_id) or "a removed player"  # its row is gone: no name, and no id to show

    def state(self) -> ShootoutState:
        """The shootout so far, replayed from the recorded attempts."""
        first = cast(Side, self.shootout.first_side if self.shootout and self.shootout.first_side else "home")
        attempts = [Attempt(cast(Side, a.side), a.shooter_id or 0, a.scored) for a in self.attempts]
        try:
            return score_shootout(self.rules, attempts, playoff=self.playoff, first=first)
        except ShootoutError:
            raise Conflict(f"The attempts recorded for {self.game.code} no longer fit the league's shootout "
                           "rules (were they changed?). A commissioner can enter the result with /result enter.") \
                from None

    def sees_gender_hints(self, side: Side) -> bool:
        """Whether the caller may read who counts as a woman/non-binary player on ``side``."""
        r = self.rules
        blocks = r.shootout_block_size > 0 and r.shootout_min_women_per_block > 0
        gendered = r.shootout_min_women_initial > 0 or blocks
        return not gendered or self.caller.is_commissioner or side in self.captain_sides()

    def violations(self, side: Side, order: Sequence[int]) -> list[Violation]:
        """Everything wrong with this order for ``side`` against the current pools, every player named.

        Messages that would tell who counts as a woman/non-binary player (e.g. "not yet: Bea") are
        reworded for anyone but that team's captains and commissioners (referees, the opponent).
        """
        own, other = self.pools[side], self.pools[self.other(side)]
        found = validate_order(self.rules, own.pool, other.pool, order, self.playoff)
        cite = self.rules.shootout_citations.eligibility
        hints = self.sees_gender_hints(side)
        out: list[Violation] = []
        for v in found:
            pid = order[v.position - 1] if v.position is not None and v.position <= len(order) else None
            if v.code == "not_eligible" and pid is not None:
                why = own.not_eligible.get(pid) or f"is not on {own.name}'s roster"
                v = replace(v, message=f"Shooter {v.position}: {self.name_of(pid)} {why} ({cite})")
            elif v.code in GENDER_HINTING and pid is not None and not hints:
                text = f"{self.name_of(pid)} shoots again before every teammate the round needs has had a turn"
                v = replace(v, message=f"Shooter {v.position}: {text} ({v.rule})")
            out.append(v)
        return out


def shootout_in_game(caller: Caller, game: Game) -> None:
    """Refuse games of a kind the league's rules settle without a shootout."""
    overtime = caller.league.rules.game_format.overtime_for(game.kind)
    if not overtime.shootout:
        kind = "Playoff games" if game.kind == "playoff" else "Regular-season games"
        raise Conflict(f"{kind} in {caller.league.name} are never decided by a shootout, so {game.code} "
                       "won't have one.")


async def is_game_referee(session: AsyncSession, caller: Caller, game: Game) -> bool:
    """Assigned to the game, or a league referee when nobody is assigned; commissioners always."""
    if caller.is_commissioner:
        return True
    assigned = set((await session.scalars(select(RefereeAssignment.referee_id).where(
        RefereeAssignment.league_id == caller.league_id, RefereeAssignment.game_id == game.id,
        RefereeAssignment.role == "referee"))).all())
    return caller.discord_id in assigned or (caller.is_referee and not assigned)


async def load(session: AsyncSession, caller: Caller, game_code: str, suspensions: SuspensionCheck, *,
               lock: bool = False) -> ShootoutContext:
    """The game's shootout context; ``lock`` serialises writers on the game (``lock_game``): load it
    first in the unit of work, so everything after sees what the writer before did."""
    game = await (lock_game if lock else find_game)(session, caller, game_code)
    shootout_in_game(caller, game)
    rules = caller.league.rules.shootout
    member = await membership(session, caller, game)
    shootout = await session.scalar(select(Shootout).where(Shootout.league_id == caller.league_id,
                                                           Shootout.game_id == game.id))
    orders = {
        owner: o for o in (await session.scalars(select(ShootoutOrder).where(
            ShootoutOrder.league_id == caller.league_id, ShootoutOrder.game_id == game.id))).all()
        if (owner := _side(game, o.team_id)) is not None
    }
    attempts = list((await session.scalars(select(ShootoutAttempt).where(
        ShootoutAttempt.league_id == caller.league_id, ShootoutAttempt.game_id == game.id)
        .order_by(ShootoutAttempt.seq))).all())
    answers = await _answers(session, caller.league_id, game)
    pools: dict[Side, TeamPool] = {}
    for side in SIDES:
        team = game.home if side == "home" else game.away
        floor = getattr(shootout, f"{side}_on_floor", None) if rules.shootout_only_players_on_floor else None
        pools[side] = await _pool(session, caller.league_id, game, team, side, answers, floor, suspensions)
    names = {c.key: c.name for p in pools.values() for c in p.candidates}
    wanted = {pid for o in orders.values() for pid in o.shooters} | {a.shooter_id for a in attempts if a.shooter_id}
    missing = wanted - set(names)
    if missing:
        rows = await session.execute(select(Player.id, Player.name).where(Player.league_id == caller.league_id,
                                                                           Player.id.in_(missing)))
        names |= {pid: name for pid, name in rows.all()}
    names |= {a.shooter_id: a.shooter_name for a in attempts if a.shooter_id and a.shooter_id not in names}
    return ShootoutContext(caller, member, game, rules, game.kind == "playoff",
                           await is_game_referee(session, caller, game), pools, shootout, orders, attempts, names)


async def _answers(session: AsyncSession, league_id: int, game: Game) -> dict[int, str | None]:
    """Each player's answer as it reads for the game: an "in" given before the player marked themselves
    away for it (/away) reads "away", as in /whoisin and /lineup."""
    checkins = await checkins_for_game(session, league_id, game.id)
    return (await answers_as_read(session, league_id, game.starts_at,
                                  [(c.player_id, c.status, c.updated_at) for c in checkins])).status


def _side(game: Game, team_id: int) -> Side | None:
    return "home" if team_id == game.home_team_id else "away" if team_id == game.away_team_id else None


async def _pool(session: AsyncSession, league_id: int, game: Game, team: Team, side: Side,
                answers: dict[int, str | None], floor: list[int] | None, suspensions: SuspensionCheck) -> TeamPool:
    entries = sorted(await lookups.roster(session, league_id, team.id), key=lambda e: e.id)
    shooters: list[Shooter] = []
    why: dict[int, str] = {}
    for e in entries:
        status = answers.get(e.player_id)
        if status != "in":
            why[e.player_id] = (f"hasn't checked in for {game.code}" if status is None
                                else f"is away for {game.code} (/away)" if status == AWAY
                                else f"answered “{status}” for {game.code}, not “in”")
            continue
        if await suspensions.reason(session, league_id=league_id, player_id=e.player_id, game_id=game.id):
            why[e.player_id] = f"is suspended for {game.code}"
            continue
        on_floor = floor is None or e.player_id in floor
        shooters.append(Shooter(e.player_id, e.player.name, e.player.gender in COUNTS_TOWARD_WOMEN_MINIMUM,
                                e.position, on_floor))
    candidates = tuple(Candidate(e.player_id, e.player.name, e.player.discord_id, team.id) for e in entries)
    return TeamPool(side, team, candidates, ShootoutPool(tuple(shooters)), why, floor is not None)


def acting_side(ctx: ShootoutContext, team_name: str | None, *, what: str) -> Side:
    """The team a captain (their own) or commissioner (the named one) acts for; refuses anyone else."""
    game, caller = ctx.game, ctx.caller
    mine = ctx.captain_sides()
    if team_name and team_name.strip():
        wanted = team_name.strip().casefold()
        side = next((s for s in SIDES if ctx.pools[s].name.casefold() == wanted), None)
        if side is None:
            raise InvalidInput(f"{team_name.strip()[:100]} isn't playing in {game.code} ({ctx.label.title}).")
        if side in mine or caller.is_commissioner:
            return side
        raise NotAllowed(f"Only {ctx.pools[side].name}'s captain or a commissioner can {what} for "
                         f"{ctx.pools[side].name}.")
    elif len(mine) == 1:
        return mine[0]
    elif caller.is_commissioner or len(mine) > 1:
        raise InvalidInput(f"Name the team ({ctx.label.title}) whose shootout order you mean.")
    raise NotAllowed(f"Only a captain of {game.home.name} or {game.away.name}, or a commissioner, can {what} "
                     f"for {game.code}.")
