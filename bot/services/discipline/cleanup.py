"""Arena duties: /cleanup missed and /cleanup withdraw, the button on the officials' game card, and /game duty.
A team on a game's rota (bot/services/shared/duties.py) that didn't help set the arena up (youth 2.1, 3.7 (6))
or clear it after the week's last game (youth 2.15) serves a bench minor; where, bot/league/discipline/cleanup.py
says.

Choices the spec leaves open, decided here:
- Referees and commissioners record it (a missed cleanup once the game has started, a missed setup from the
  game's day on); only a commissioner withdraws a mistaken record. A withdrawal keeps the row with who
  withdrew it, when and why: the audit.
- The card's button works where the card is: in the referees' channel for the league's referees and
  commissioners, and by DM for the referees assigned to the game (Discord gives no roles in a DM).
- The minutes are the league's setting when it is recorded (kept with the record); the citation is
  the preset's (youth 2.15 for cleanup, 2.1 and 3.7 (6) for setup).
- Where the bench minor is served is worked out whenever it is shown (the lineup, the penalty log), never
  stored: a game moved, cancelled or added in between takes the bench minor with it.
- As for other bench minors, nothing is announced to the league. The team's captains are told by DM
  (without captains, in the team's channel) which game starts with it, and again if it is withdrawn.
- Recording it a second time finds the record standing and says so: nothing is stored twice.
- A commissioner may put a team on a game's duty, or take it off, whatever the league's rule says
  (/game duty); "by the rule" forgets that word again.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from sqlalchemy import delete, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.access import Caller, Role
from bot.clock import Clock
from bot.config.settings import LeagueSettings, Settings
from bot.discord_text import clean_user_text, clip, quote, timestamp
from bot.errors import Conflict, InvalidInput, NotAllowed, NotFound
from bot.league.discipline.cleanup import (
    DUTIES,
    MINUTE_SETTINGS,
    Duty,
    DutyRota,
    TeamGame,
    bench_minor_minutes,
    bench_minor_text,
    check_duty_can_be_missed,
    check_on_duty,
    check_scheduled_to_clean_up,
    cited,
    next_game,
)
from bot.league.discipline.infractions import DisciplineError
from bot.services import outbox
from bot.services.discipline.core import REASON_LIMIT, refusal
from bot.services.outbox import Outgoing
from bot.services.shared.duties import duty_citations, rota_for
from bot.services.shared.games import find_game, lock_game
from bot.services.shared.seasons import later_game_in_week
from storage import lookups
from storage.db import retried_on_disconnect
from storage.models import Game, GameDuty, League, MissedCleanup, RefereeAssignment, Team
from storage.text import printable

log = logging.getLogger("sideline.discipline")

#: Later games of a team read to find "their next game" (cancelled ones are skipped).
LOOKAHEAD = 100
MAX_ROW_ID = 2**31 - 1  # a forged button must not overflow an integer column
#: A commissioner's word on a team's duty: on it, off it, or back to the league's rule.
DutySetting = Literal["on", "off", "rule"]
DUTY_SETTINGS: tuple[DutySetting, ...] = ("on", "off", "rule")


@dataclass(frozen=True)
class GameLine:
    """A game as a reply names it."""

    code: str
    starts_at: datetime
    home: str
    away: str

    @classmethod
    def of(cls, game: Game) -> GameLine:
        return cls(game.code, game.starts_at, game.home.name, game.away.name)

    def label(self) -> str:
        return f"{self.code} ({self.home} vs {self.away}, {timestamp(self.starts_at, 'f')})"


@dataclass(frozen=True)
class BenchMinorToServe:
    """A duty bench minor a team serves at the start of a game."""

    record_id: int
    team: str
    minutes: int
    missed_game: str  # the code of the game the duty was for
    citation: str
    duty: Duty = "cleanup"

    def text(self) -> str:
        return bench_minor_text(self.minutes, self.missed_game, self.citation, self.duty)


@dataclass(frozen=True)
class MissedCleanupRecorded:
    id: int
    game: GameLine
    team: str
    minutes: int
    citation: str
    lands_on: GameLine | None  # None: the team has no later game yet; it waits for the next one scheduled
    already: bool  # it was on record before: nothing changed
    captains_told: bool
    duty: Duty = "cleanup"


@dataclass(frozen=True)
class MissedCleanupWithdrawn:
    id: int
    game: GameLine
    team: str
    minutes: int
    lands_on: GameLine | None  # the game that no longer starts with it
    captains_told: bool
    duty: Duty = "cleanup"


@dataclass(frozen=True)
class DutyChanged:
    """A commissioner's word on a team's duty, and the game's rota after it (team names per duty)."""

    game: GameLine
    team: str
    duty: Duty
    setting: DutySetting
    changed: bool
    rota: dict[Duty, tuple[str, ...]]


@dataclass(frozen=True)
class Presser:
    """Whoever pressed a card's button; ``caller`` is None in a DM (Discord gives no roles there)."""

    discord_id: int
    caller: Caller | None = None


def cleanup_citation(league: LeagueSettings) -> str:
    return league.rules.deadlines.deadline_citations.cleanup


def duty_citation(league: LeagueSettings, duty: Duty) -> str:
    return duty_citations(league)[duty]


def duty_minutes(league: LeagueSettings, duty: Duty) -> int | None:
    rules = league.rules.deadlines
    return rules.setup_missed_bench_minor_minutes if duty == "setup" else rules.cleanup_missed_bench_minor_minutes


def duty_rule_on(league: LeagueSettings, duty: Duty) -> bool:
    rules = league.rules.deadlines
    return rules.setup_duty_first_game_each_day if duty == "setup" else rules.cleanup_duty_last_game_each_week


async def landing_game(session: AsyncSession, league_id: int, missed: Game, team_id: int) -> Game | None:
    """The team's next game after ``missed``, as the schedule stands now."""
    later = (await session.scalars(
        select(Game).where(Game.league_id == league_id, or_(Game.home_team_id == team_id, Game.away_team_id == team_id),
                           Game.starts_at > missed.starts_at)
        .order_by(Game.starts_at, Game.id).limit(LOOKAHEAD))).unique().all()
    found = next_game(TeamGame(missed.id, missed.starts_at),
                      [TeamGame(g.id, g.starts_at, g.status == "cancelled") for g in later])
    return next((g for g in later if found is not None and g.id == found.id), None)


async def served_in(session: AsyncSession, league_id: int, row: MissedCleanup) -> Game | None:
    """The game a record's bench minor is served at the start of: the game itself for a missed setup, the
    team's next game for a missed cleanup (None while there is none)."""
    if row.duty == "setup":
        return row.game if row.game.status != "cancelled" else None
    return await landing_game(session, league_id, row.game, row.team_id)


async def bench_minors_at_start(session: AsyncSession, league: LeagueSettings, league_id: int, *, game_id: int,
                                starts_at: datetime, team_ids: Iterable[int]) -> tuple[BenchMinorToServe, ...]:
    """The duty bench minors the given teams serve at the start of a game (oldest record first)."""
    teams = list(team_ids)
    rows = (await session.scalars(
        select(MissedCleanup).join(Game, Game.id == MissedCleanup.game_id)
        .where(MissedCleanup.league_id == league_id, MissedCleanup.team_id.in_(teams),
               MissedCleanup.withdrawn_at.is_(None), Game.starts_at <= starts_at)
        .order_by(MissedCleanup.recorded_at, MissedCleanup.id))).unique().all() if teams else []
    out = []
    for row in rows:
        lands = await served_in(session, league_id, row)
        if lands is not None and lands.id == game_id:
            out.append(BenchMinorToServe(row.id, row.team.name, row.minutes, row.game.code,
                                         duty_citation(league, row.duty), row.duty))
    return tuple(out)


async def export_rows(session: AsyncSession, league_id: int) -> list[dict[str, object]]:
    """Every missed duty of a league, oldest first, with the game its bench minor is served in as the
    schedule stands now ("" while none is scheduled, or when withdrawn), for `sideline discipline export`."""
    rows = (await session.scalars(select(MissedCleanup).where(MissedCleanup.league_id == league_id)
                                  .order_by(MissedCleanup.recorded_at, MissedCleanup.id))).unique().all()
    out: list[dict[str, object]] = []
    for row in rows:
        lands = None if row.withdrawn_at is not None else await served_in(session, league_id, row)
        out.append({
            "id": row.id, "game": row.game.code, "game_starts_at": row.game.starts_at.isoformat(),
            "team": row.team.name, "minutes": row.minutes, "served_in": lands.code if lands is not None else "",
            "recorded_by": row.recorded_by, "recorded_at": row.recorded_at.isoformat(),
            "withdrawn_at": row.withdrawn_at.isoformat() if row.withdrawn_at is not None else "",
            "withdrawn_by": row.withdrawn_by or "", "withdrawal_note": row.withdrawal_note, "duty": row.duty,
        })
    return out


def side_named(game: Game, name: str) -> Team:
    """The game's home or away team by name (case-insensitive), else why not."""
    typed = printable(name).strip()
    for team in (game.home, game.away):
        if team.name.casefold() == typed.casefold():
            return team
    raise InvalidInput(f"{quote(typed) or 'That team'} didn't play game {game.code} "
                       f"({game.home.name} vs {game.away.name}).")


async def standing_record(session: AsyncSession, league_id: int, game_id: int, team_id: int,
                          duty: Duty = "cleanup") -> MissedCleanup | None:
    return await session.scalar(select(MissedCleanup).where(
        MissedCleanup.league_id == league_id, MissedCleanup.game_id == game_id, MissedCleanup.team_id == team_id,
        MissedCleanup.duty == duty, MissedCleanup.withdrawn_at.is_(None)))


async def tell_captains(session: AsyncSession, league: LeagueSettings, league_id: int, team: Team, *, key: str,
                        text: str, now: datetime) -> bool:
    """A team's own news: a DM to each captain, else its channel; False when the team has neither."""
    captains = await lookups.captain_ids(session, team.id)
    for captain in captains:
        await outbox.enqueue(session, league_id=league_id, guild_id=league.guild_id, key=f"{key}:{captain}",
                             due_at=now, user_id=captain, message=Outgoing(content=text))
    if not captains and team.channel_id:
        await outbox.enqueue(session, league_id=league_id, guild_id=league.guild_id, key=key, due_at=now,
                             channel_id=team.channel_id, message=Outgoing(content=text))
    return bool(captains or team.channel_id)


def _where(lands: GameLine | None) -> str:
    return lands.label() if lands is not None else "the next one scheduled (none is yet)"


def recorded_notice(league: LeagueSettings, team: str, game: GameLine, minutes: int, lands: GameLine | None,
                    duty: Duty = "cleanup") -> str:
    """What the team's captains read: which game starts with the bench minor, and that it can be withdrawn."""
    cite = cited(duty_citation(league, duty), MINUTE_SETTINGS[duty])
    if duty == "setup":
        what = (f"{team} didn't help set the arena up before {game.label()}. Your team starts that game with a "
                f"{minutes}-minute bench minor ({cite}).")
    else:
        what = (f"{team} didn't clear the arena after {game.label()}, the week's last game. Your team starts its "
                f"next game, {_where(lands)}, with a {minutes}-minute bench minor ({cite}).")
    return clip(f"🧹 {clip(league.name, 100)}: {what} If this is a mistake, a commissioner can withdraw it.", 2000)


def withdrawn_notice(league: LeagueSettings, team: str, game: str, minutes: int, note: str,
                     duty: Duty = "cleanup") -> str:
    missed = "didn't help set up before" if duty == "setup" else "didn't clean up after"
    which = "That game" if duty == "setup" else "Your team's next game"
    text = (f"🧹 {clip(league.name, 100)}: the record that {team} {missed} {game} is withdrawn by a "
            f"commissioner. {which} no longer starts with a {minutes}-minute bench minor.")
    return clip(text + (f"\nNote: {note}" if note else ""), 2000)


async def _record(session: AsyncSession, league: LeagueSettings, league_id: int, game: Game, team: Team,
                  duty: Duty, *, by: int, now: datetime) -> MissedCleanupRecorded:
    """Record a team's missed duty for a locked game, after every check: the bench minor and the captains' DM."""
    citation = duty_citation(league, duty)
    try:
        minutes = bench_minor_minutes(duty, duty_minutes(league, duty))
    except DisciplineError as exc:
        raise refusal(exc) from None
    if game.status == "cancelled":
        raise Conflict(f"Game {game.code} was cancelled: nobody played it, so nobody had an arena duty for it.")
    early = check_duty_can_be_missed(duty, now=now, starts_at=game.starts_at, tz=league.timezone)
    if early is not None:
        raise InvalidInput(f"Game {game.code} hasn't been played yet: it starts {timestamp(game.starts_at)}. {early}")
    rota = await rota_for(session, league, league_id, game)
    await _check_on_duty(session, league, league_id, rota, game, team, duty)
    row = await standing_record(session, league_id, game.id, team.id, duty)
    already = row is not None
    if row is None:
        row = MissedCleanup(league_id=league_id, game_id=game.id, team_id=team.id, duty=duty, minutes=minutes,
                            recorded_by=by, recorded_at=now)
        session.add(row)
        await session.flush()
    lands = await served_in(session, league_id, row)
    landing = GameLine.of(lands) if lands is not None else None
    told = False
    if not already:
        key = f"cleanup:{row.id}:missed" if duty == "cleanup" else f"duty:{row.id}:missed"
        told = await tell_captains(session, league, league_id, team, key=key, now=now,
                                   text=recorded_notice(league, team.name, GameLine.of(game), row.minutes, landing,
                                                        duty))
        log.info("missed %s #%s: %s for game %s, recorded by %s", duty, row.id, team.name, game.code, by)
    return MissedCleanupRecorded(row.id, GameLine.of(game), team.name, row.minutes, citation, landing, already, told,
                                 duty)


async def _check_on_duty(session: AsyncSession, league: LeagueSettings, league_id: int, rota: DutyRota, game: Game,
                         team: Team, duty: Duty) -> None:
    if team.id in rota.teams(duty):
        return
    rule_on, citation = duty_rule_on(league, duty), duty_citation(league, duty)
    try:
        if duty == "cleanup" and rule_on and (duty, team.id) not in rota.taken_off:
            later = await later_game_in_week(session, league_id, league.timezone, game)
            check_scheduled_to_clean_up(team=team.name, game=game.code, citation=citation,
                                        later_game=later.code if later is not None else None)
        check_on_duty(rota, duty, team_id=team.id, team=team.name, game=game.code, rule_on=rule_on,
                      citation=citation)
    except DisciplineError as exc:
        raise refusal(exc) from None


@retried_on_disconnect
class CleanupService:
    """/cleanup missed for referees and commissioners (and the card's button), /cleanup withdraw and
    /game duty for commissioners."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock, settings: Settings) -> None:
        self.sessions = sessions
        self.clock = clock
        self.settings = settings

    async def missed(self, caller: Caller, *, game_code: str, team_name: str,
                     duty: Duty = "cleanup") -> MissedCleanupRecorded:
        """Record that a team didn't do its arena duty for a game: a bench minor (which game: the rules')."""
        caller.require(Role.REFEREE, Role.COMMISSIONER)
        _known(duty)
        try:
            async with self.sessions.begin() as session:
                game = await lock_game(session, caller, game_code)
                team = side_named(game, team_name)
                return await _record(session, caller.league, caller.league_id, game, team, duty,
                                     by=caller.discord_id, now=self.clock.now())
        except IntegrityError:
            raise Conflict("Someone recorded it at the same moment: it's on record now.") from None

    async def missed_from_card(self, presser: Presser, *, game_id: int, team_id: int,
                               duty: str) -> MissedCleanupRecorded:
        """The button on the officials' game card: as /cleanup missed, for the game and team it names. In a
        DM only a referee assigned to the game may press it; a forged or foreign button changes nothing."""
        known = _known(duty)
        now = self.clock.now()
        try:
            async with self.sessions.begin() as session:
                game = await session.get(Game, game_id) if 0 < game_id <= MAX_ROW_ID else None
                caller = presser.caller
                if game is None or (caller is not None and game.league_id != caller.league_id):
                    raise NotFound("That game isn't on this league's schedule any more; nothing was recorded.")
                league = await self._league_of(session, game.league_id)
                assigned = await session.scalar(select(RefereeAssignment.id).where(
                    RefereeAssignment.game_id == game.id, RefereeAssignment.referee_id == presser.discord_id))
                if assigned is None and not (caller is not None and (caller.is_referee or caller.is_commissioner)):
                    raise NotAllowed("Only the game's referees or a commissioner can record a missed duty; "
                                     "nothing was recorded.")
                locked = await lookups.game_by_code(session, game.league_id, game.code, for_update=True)
                team = next((t for t in (locked.home, locked.away) if t.id == team_id), None) if locked else None
                if locked is None or team is None:
                    raise NotFound(f"That team isn't playing {game.code} any more; nothing was recorded.")
                return await _record(session, league, locked.league_id, locked, team, known,
                                     by=presser.discord_id, now=now)
        except IntegrityError:
            raise Conflict("Someone recorded it at the same moment: it's on record now.") from None

    async def _league_of(self, session: AsyncSession, league_id: int) -> LeagueSettings:
        guild_id = await session.scalar(select(League.guild_id).where(League.id == league_id))
        league = self.settings.league_for_guild(guild_id)
        if league is None:
            raise NotFound("That league isn't run by this bot any more; nothing was recorded.")
        return league

    async def withdraw(self, caller: Caller, *, game_code: str, team_name: str, note: str | None = None,
                       duty: Duty = "cleanup") -> MissedCleanupWithdrawn:
        """Withdraw a mistaken record (commissioners): the bench minor is gone; the row stays as the audit."""
        caller.require(Role.COMMISSIONER)
        _known(duty)
        league, now = caller.league, self.clock.now()
        said = clean_user_text(note or "", REASON_LIMIT)
        async with self.sessions.begin() as session:
            game = await find_game(session, caller, game_code)
            team = side_named(game, team_name)
            row = await standing_record(session, caller.league_id, game.id, team.id, duty)
            if row is None:
                what = "didn't help set up" if duty == "setup" else "did not clean up"
                raise NotFound(f"No “{what}” is on record for {team.name} for game {game.code}: "
                               "there's nothing to withdraw.")
            row.withdrawn_at, row.withdrawn_by, row.withdrawal_note = now, caller.discord_id, said
            lands = await served_in(session, caller.league_id, row)
            landing = GameLine.of(lands) if lands is not None else None
            key = f"cleanup:{row.id}:withdrawn" if duty == "cleanup" else f"duty:{row.id}:withdrawn"
            told = await tell_captains(session, league, caller.league_id, team, key=key, now=now,
                                       text=withdrawn_notice(league, team.name, game.code, row.minutes, said, duty))
            log.info("missed %s #%s withdrawn by %s", duty, row.id, caller.discord_id)
            return MissedCleanupWithdrawn(row.id, GameLine.of(game), team.name, row.minutes, landing, told, duty)

    async def set_duty(self, caller: Caller, *, game_code: str, team_name: str, duty: str,
                       setting: str) -> DutyChanged:
        """A commissioner puts a team on a game's duty, takes it off, or leaves it to the rule again."""
        caller.require(Role.COMMISSIONER)
        known = _known(duty)
        if setting not in DUTY_SETTINGS:
            raise InvalidInput("Say on, off, or by the rule.")
        now = self.clock.now()
        async with self.sessions.begin() as session:
            game = await lock_game(session, caller, game_code)
            if game.status != "scheduled":
                raise Conflict(f"Game {game.code} is {game.status}: its duties can't change any more.")
            team = side_named(game, team_name)
            word = await session.scalar(select(GameDuty).where(
                GameDuty.league_id == caller.league_id, GameDuty.game_id == game.id, GameDuty.team_id == team.id,
                GameDuty.duty == known))
            before = None if word is None else word.on_duty
            if setting == "rule":
                if word is not None:
                    await session.execute(delete(GameDuty).where(GameDuty.id == word.id))
            elif word is None:
                session.add(GameDuty(league_id=caller.league_id, game_id=game.id, team_id=team.id, duty=known,
                                     on_duty=setting == "on", set_by=caller.discord_id, set_at=now))
            else:
                word.on_duty, word.set_by, word.set_at = setting == "on", caller.discord_id, now
            await session.flush()
            after = None if setting == "rule" else setting == "on"
            rota = await rota_for(session, caller.league, caller.league_id, game)
            names = {game.home_team_id: game.home.name, game.away_team_id: game.away.name}
            return DutyChanged(GameLine.of(game), team.name, known, setting, before != after,
                               {d: tuple(names[t] for t in rota.teams(d)) for d in DUTIES})


def _known(duty: str) -> Duty:
    if duty not in DUTIES:
        raise InvalidInput(f"A duty is one of: {', '.join(DUTIES)}.")
    return duty
