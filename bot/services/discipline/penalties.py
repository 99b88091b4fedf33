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

from dataclasses import dataclass

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
from storage import lookups
from storage.models import Game, Penalty, Team

MAX_MINUTE = 300
CHOICES = 25


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


class PenaltyService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock) -> None:
        self.sessions = sessions
        self.clock = clock

    async def record(self, caller: Caller, *, game_code: str, discord_id: int, infraction: str,
                     minute: int | None = None, suspend: int | None = None) -> PenaltyRecorded:
        """Record a call against a player and everything that follows from it."""
        caller.require(Role.REFEREE, Role.COMMISSIONER)
        rules = caller.league.rules
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
        now = self.clock.now()
        async with self.sessions.begin() as session:
            game = await find_game(session, caller, game_code)
            if game.status == "cancelled":
                raise Conflict(f"Game {game.code} was cancelled: it can't have penalties.")
            if game.starts_at > now:
                raise InvalidInput(f"Game {game.code} hasn't started yet: it starts {timestamp(game.starts_at)}.")
            entry = await lookups.roster_entry(session, caller.league_id, discord_id)
            if entry is None or entry.team_id not in game.team_ids():
                raise NotFound(f"That member isn't on the roster of {game.home.name} or {game.away.name}.")
            team = game.home if entry.team_id == game.home_team_id else game.away
            prior = (await session.scalars(
                select(Penalty).where(Penalty.league_id == caller.league_id, Penalty.game_id == game.id,
                                      Penalty.player_id == entry.player_id)
                .order_by(Penalty.created_at, Penalty.id))).unique().all()
            try:
                outcome = apply_penalty(rules.discipline, catalogue,
                                        [PenaltyRecord(p.infraction_key, p.category, p.minute)
                                         for p in prior],
                                        infraction, minute, rules.game_format.regulation_minutes,
                                        referee_games=suspend)
            except DisciplineError as exc:
                raise refusal(exc, InvalidInput) from None
            row = Penalty(league_id=caller.league_id, game_id=game.id, player_id=entry.player_id, team_id=team.id,
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
                    session, caller.league, caller.league_id, player=entry.player, team=team,
                    games=outcome.suspension_games, reason=clip(f"{outcome.summary} (game {game.code})", 1000),
                    issued_by=caller.discord_id, now=now, penalty_id=row.id, pending_review=outcome.pending_review)
            if outcome.pending_review:
                await self._ask_for_review(session, caller, row, game, team, entry.player.name, suspension)
            return PenaltyRecorded(row.id, game.code, entry.player.name, team.name, outcome, suspension)

    @staticmethod
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

    async def recent_games(self, caller: Caller, text: str, limit: int = CHOICES) -> list[Game]:
        """Games that have started, most recent first, matching the code or a team name."""
        needle = text.strip().casefold()
        async with self.sessions() as session:
            query = select(Game).where(Game.league_id == caller.league_id, Game.starts_at <= self.clock.now(),
                                       Game.status != "cancelled")
            games = (await session.scalars(query.order_by(Game.starts_at.desc(), Game.id.desc()).limit(200))).all()
            return [g for g in games if not needle or needle in g.code.casefold()
                    or needle in g.home.name.casefold() or needle in g.away.name.casefold()][:limit]

