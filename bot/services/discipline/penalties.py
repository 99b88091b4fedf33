"""/penalty: a referee records an infraction; the preset's escalations follow (bot/league/discipline/penalties.py).

Choices the spec leaves open, decided here:
- Penalties are recorded for games that have started and were not cancelled, against a player on the
  roster of one of the game's teams; "prior penalties" are that player's earlier ones in that game.
- An automatic suspension becomes a stored suspension at once (announced, the player told, appeal
  window opened). One the commissioners must review (youth 1.12: longer than a referee may give, or
  reported to the league) is held at the referee's limit, stored active and marked ``pending_review``
  until `/suspension review`; the commissioners are told (bot/services/discipline/reviews.py says where).
- A referee may give a suspension with the call (`suspend:`, youth 1.12); the penalty row keeps the
  games the call asked for, the suspension the games it stands at.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.access import Caller, Role
from bot.clock import Clock
from bot.discord_text import clean_user_text, clip, quote, timestamp
from bot.errors import Conflict, InvalidInput, NotFound
from bot.league.discipline.catalogues import PENALTY_CATALOGUES
from bot.league.discipline.infractions import DisciplineError, Infraction, find_infraction
from bot.league.discipline.penalties import PenaltyOutcome, PenaltyRecord, apply_penalty
from bot.league.rules import Rules
from bot.services.discipline.core import plural, refusal
from bot.services.discipline.reviews import notify_commissioners
from bot.services.discipline.suspensions import MAX_GAMES, SuspensionIssued, issue_suspension
from bot.services.shared.games import find_game
from bot.services.shared.guardians import Pick, player_named
from storage import lookups
from storage.db import retried_on_disconnect
from storage.models import BenchPenalty, Game, Penalty, Player, RosterEntry, Team
from storage.text import printable

MAX_MINUTE = 300
CHOICES = 25


@dataclass(frozen=True)
class BenchPenaltyRecorded:
    """A bench minor called against a team (youth 3.7), with nobody's name on it."""

    id: int
    game: str
    team: str
    minutes: int
    summary: str
    citation: str


@dataclass(frozen=True)
class PenaltyRecorded:
    id: int
    game: str
    player: str
    team: str
    outcome: PenaltyOutcome
    suspension: SuspensionIssued | None


def catalogue_for(rules: Rules) -> tuple[Infraction, ...]:
    catalogue = PENALTY_CATALOGUES.get(rules.preset)
    if not catalogue:
        raise Conflict("This league's rules have no list of penalties.")
    return catalogue


def infraction_choices(rules: Rules, text: str) -> list[tuple[str, str]]:
    """(label, key) of the preset's infractions matching the typed text, for autocomplete."""
    catalogue = PENALTY_CATALOGUES.get(rules.preset, ())
    needle = " ".join(text.casefold().replace("_", " ").split())
    found = [i for i in catalogue
             if not needle or needle in i.name.casefold() or needle in i.key.replace("_", " ")]
    return [(clip(f"{i.name} · {i.category.replace('_', ' ')}", 100), i.key) for i in found[:CHOICES]]


def check_call(rules: Rules, infraction: str, minute: int | None, suspend: int | None) -> None:
    """Refuse an infraction not in the league's list, a minute or a suspension out of range."""
    catalogue = catalogue_for(rules)
    try:
        find_infraction(catalogue, infraction)
    except DisciplineError:
        raise InvalidInput(f"“{quote(infraction, 64)}” isn't in this league's list of "
                           "penalties: pick one from the suggestions.") from None
    if minute is not None and not 0 <= minute <= MAX_MINUTE:
        raise InvalidInput(f"The minute is the game minute, 0 to {MAX_MINUTE}.")
    if suspend is not None and not 1 <= suspend <= MAX_GAMES:
        raise InvalidInput(f"A suspension is 1 to {MAX_GAMES} games.")


def check_game(game: Game, now: datetime) -> None:
    """Penalties belong to games that have started and were not cancelled."""
    if game.status == "cancelled":
        raise Conflict(f"Game {game.code} was cancelled: it can't have penalties.")
    if game.starts_at > now:
        raise InvalidInput(f"Game {game.code} hasn't started yet: it starts {timestamp(game.starts_at)}.")


async def call_penalty(session: AsyncSession, caller: Caller, *, game: Game, player: Player, team: Team,
                       infraction: str, minute: int | None, suspend: int | None, now: datetime) -> PenaltyRecorded:
    """A call against a player in the caller's unit of work, with the preset's escalations: the penalty row,
    any suspension, and the commissioners' review. The goals feature calls it for a player not on the
    game sheet (youth 3.4 (1))."""
    rules = caller.league.rules
    catalogue = catalogue_for(rules)
    prior = (await session.scalars(
        select(Penalty).where(Penalty.league_id == caller.league_id, Penalty.game_id == game.id,
                              Penalty.player_id == player.id)
        .order_by(Penalty.created_at, Penalty.id))).unique().all()
    try:
        outcome = apply_penalty(rules.discipline, catalogue,
                                [PenaltyRecord(p.infraction_key, p.category, p.minute) for p in prior],
                                infraction, minute, rules.game_format.regulation_minutes, referee_games=suspend)
    except DisciplineError as exc:
        raise refusal(exc, InvalidInput) from None
    row = Penalty(league_id=caller.league_id, game_id=game.id, player_id=player.id, team_id=team.id,
                  infraction_key=outcome.infraction.key, called_key=outcome.called,
                  category=outcome.infraction.category, minutes=outcome.minutes, minute=minute,
                  ejected=outcome.ejected, game_misconduct=outcome.game_misconduct,
                  suspension_games=outcome.suspension_asked, pending_review=outcome.pending_review,
                  summary=clip(outcome.summary, 1000), referee_id=caller.discord_id, created_at=now)
    session.add(row)
    await session.flush()
    suspension = None
    if outcome.suspension_games > 0:
        suspension = await issue_suspension(
            session, caller.league, caller.league_id, player=player, team=team,
            games=outcome.suspension_games, reason=clip(f"{outcome.summary} (game {game.code})", 1000),
            issued_by=caller.discord_id, now=now, penalty_id=row.id, pending_review=outcome.pending_review)
    if outcome.pending_review:
        await _ask_for_review(session, caller, row, game, team, player.name, suspension)
    return PenaltyRecorded(row.id, game.code, player.name, team.name, outcome, suspension)


async def call_bench_penalty(session: AsyncSession, caller: Caller, *, game: Game, team: Team, infraction: str,
                             minute: int | None, now: datetime, minutes: int | None = None) -> BenchPenaltyRecorded:
    """A bench minor against a team in the caller's unit of work (youth 3.7): one of the league's bench
    infractions, its minutes (or ``minutes``, the league's setting for a late start, youth 2.4)."""
    catalogue = catalogue_for(caller.league.rules)
    try:
        called = find_infraction(catalogue, infraction)
    except DisciplineError:
        raise InvalidInput(f"“{quote(infraction, 64)}” isn't in this league's list of "
                           "penalties: pick one from the suggestions.") from None
    if called.category != "bench_minor":
        benches = [i.name for i in catalogue if i.category == "bench_minor"]
        if not benches:
            raise Conflict("This league's rules have no bench minors: a penalty is called against a player.")
        raise InvalidInput(f"{called.name} is called against a player, not a team: name the player, or pick a "
                           "bench minor for the team.")
    length = called.minutes if minutes is None else minutes
    summary = clip(f"{called.name}: bench minor, {length} minutes", 1000)
    row = BenchPenalty(league_id=caller.league_id, game_id=game.id, team_id=team.id, infraction_key=called.key,
                       minutes=length, minute=minute, summary=summary, called_by=caller.discord_id, created_at=now)
    session.add(row)
    await session.flush()
    return BenchPenaltyRecorded(row.id, game.code, team.name, length, summary, called.citation)


async def _ask_for_review(session: AsyncSession, caller: Caller, row: Penalty, game: Game, team: Team,
                          player: str, suspension: SuspensionIssued | None) -> None:
    """Tell the commissioners (bot/services/discipline/reviews.py says where); the reason stays private."""
    who = f"{clean_user_text(player, 100)} ({clean_user_text(team.name, 100)})"
    text = (f"🔎 For review: penalty #{row.id} in game {game.code} against {who}: "
            f"{clean_user_text(row.summary, 1200)}.")
    public = f"🔎 Commissioners: penalty #{row.id} in game {game.code} against {who} waits for your review"
    if suspension is not None:
        held = (f" Suspension #{suspension.id} is in force at {plural(suspension.games, 'game')} until you "
                f"review it: `/suspension review` (confirm, set-games or lift).")
        if row.suspension_games > suspension.games:
            held = held.replace(" until", f" ({row.suspension_games} asked) until")
        text += held
        public += f" (suspension #{suspension.id}; the reason is in /suspensions)."
    else:
        public += "; the details are in the penalty log."
    await notify_commissioners(session, caller.league, caller.league_id, key=f"penalty:{row.id}:review",
                               private=text, public=public, now=row.created_at)


#: Run in a penalty's unit of work once it is recorded: ``await hook(session, league_id, game_id)`` (the
#: statistics count penalty minutes; bot/composition.py hands it in).
PenaltyHook = Callable[[AsyncSession, int, int], Awaitable[None]]


@retried_on_disconnect
class PenaltyService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock, *,
                 on_penalty: PenaltyHook | None = None) -> None:
        self.sessions = sessions
        self.clock = clock
        self.on_penalty = on_penalty

    async def record(self, caller: Caller, *, game_code: str, discord_id: Pick, infraction: str,
                     minute: int | None = None, suspend: int | None = None) -> PenaltyRecorded:
        """Record a call against a player (a member's id, or by name one without an account) and everything
        that follows from it."""
        caller.require(Role.REFEREE, Role.COMMISSIONER)
        check_call(caller.league.rules, infraction, minute, suspend)
        now = self.clock.now()
        async with self.sessions.begin() as session:
            game = await find_game(session, caller, game_code)
            check_game(game, now)
            if isinstance(discord_id, str):
                named = await player_named(session, caller.league_id, caller.league.name, discord_id)
                entry = await session.scalar(select(RosterEntry).where(RosterEntry.league_id == caller.league_id,
                                                                       RosterEntry.player_id == named.id))
            else:
                entry = await lookups.roster_entry(session, caller.league_id, discord_id)
            if entry is None or entry.team_id not in game.team_ids():
                raise NotFound(f"That player isn't on the roster of {game.home.name} or {game.away.name}.")
            team = game.home if entry.team_id == game.home_team_id else game.away
            recorded = await call_penalty(session, caller, game=game, player=entry.player, team=team,
                                          infraction=infraction, minute=minute, suspend=suspend, now=now)
            if self.on_penalty is not None:
                await self.on_penalty(session, caller.league_id, game.id)
            return recorded

    async def record_bench(self, caller: Caller, *, game_code: str, team_name: str, infraction: str,
                           minute: int | None = None) -> BenchPenaltyRecorded:
        """A bench minor against a team (youth 3.7): /penalty with a team and no player."""
        caller.require(Role.REFEREE, Role.COMMISSIONER)
        if minute is not None and not 0 <= minute <= MAX_MINUTE:
            raise InvalidInput(f"The minute is the game minute, 0 to {MAX_MINUTE}.")
        now = self.clock.now()
        async with self.sessions.begin() as session:
            game = await find_game(session, caller, game_code)
            check_game(game, now)
            typed = printable(team_name).strip().casefold()
            team = next((t for t in (game.home, game.away) if t.name.casefold() == typed), None)
            if team is None:
                raise InvalidInput(f"{game.code} is {game.home.name} vs {game.away.name}: pick one of those teams.")
            return await call_bench_penalty(session, caller, game=game, team=team, infraction=infraction,
                                            minute=minute, now=now)

    async def recent_games(self, caller: Caller, text: str, limit: int = CHOICES) -> list[Game]:
        """Games that have started, most recent first, matching the code or a team name."""
        needle = text.strip().casefold()
        async with self.sessions() as session:
            query = select(Game).where(Game.league_id == caller.league_id, Game.starts_at <= self.clock.now(),
                                       Game.status != "cancelled")
            games = (await session.scalars(query.order_by(Game.starts_at.desc(), Game.id.desc()).limit(200))).all()
            return [g for g in games if not needle or needle in g.code.casefold()
                    or needle in g.home.name.casefold() or needle in g.away.name.casefold()][:limit]

