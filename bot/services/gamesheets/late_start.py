"""The late-start prompts (youth 2.4; bot/league/gamesheets/late_start.py decides when and what): outbox rows
planned with each game, written when they go out, and what a press records and undoes.

Each prompt is a row ``late-start:<game>:<start epoch>:<minor|forfeit>`` planned with the game (the
reminders' planning, bot/services/reminders/plan.py) and at start for the upcoming games: the outbox sends
each once, across restarts. When it goes out it checks each team's game sheet; a team still short gets a
button. It goes by DM to the game's assigned officials, else to the referees' channel (else the admin
channel). The buttons are DynamicItems (cogs/gamesheets/_buttons.py): they work after a restart too, and
every press is checked again here.

A press records for real: a bench minor (bot/services/discipline/penalties.py) or the preset's forfeit (the
result, its standings effect, and everything that follows a result); each is one standing record per game,
team and action (``late_starts``), and the answer carries an Undo button. Undoing a forfeit takes the result
back (logged as withdrawn), unless a commissioner changed it since or it is a playoff game (its bracket moved
on: /result fix is for that).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.access import Caller
from bot.clock import Clock
from bot.config.settings import LeagueSettings, Settings
from bot.discord_text import clip, timestamp
from bot.errors import Conflict, NotAllowed, NotFound
from bot.league.checkins.lineup import BELOW_MINIMUM_TO_START, CheckedInPlayer, check_lineup
from bot.league.checkins.presets import lineup_rules_for
from bot.league.gamesheets.late_start import NOT_READY, USEFUL_FOR, Stage, applies, prompts, question
from bot.services import outbox
from bot.services.discipline.penalties import call_bench_penalty
from bot.services.gamesheets.lines import team_sheet
from bot.services.gamesheets.timed import plan_game_sends
from bot.services.outbox import FanOut, Outgoing, Rendered
from bot.services.results import ResultHook, check_score, forfeit_score, record, result_for, score_of, view_of
from bot.services.shared.eligibility import SuspensionCheck, require_check
from bot.services.shared.games import check_change
from storage.db import retried_on_disconnect
from storage.models import BenchPenalty, Game, LateStart, OutboxMessage, RefereeAssignment, ResultChange, Team

log = logging.getLogger("sideline.late_start")

PROMPT_KIND = "late_start_prompt"
PREFIX = "sideline:late"
CONTENT_LIMIT = 2000


def button_id(league_id: int, game_id: int, team_id: int, action: str) -> str:
    return f"{PREFIX}@{league_id}:{game_id}:{team_id}:{action}"


async def plan_prompts(session: AsyncSession, league: LeagueSettings, games: Sequence[Game], now: datetime, *,
                       new: bool = False) -> int:
    """Queue each game's prompts still to come; a moved or cancelled game's pending ones are dropped.
    Returns how many were queued. (0 as the user: the DMs are decided when it goes.)"""
    if not applies(league.rules.lineup):
        return 0
    return await plan_game_sends(
        session, guild_id=league.guild_id, games=games, kind=PROMPT_KIND, prefix="late-start", moment_arg="stage",
        wanted=lambda game: ((p.stage, p.due_at, p.expires_at)
                             for p in prompts(league.rules.lineup, game.starts_at, now)),
        new=new, user_id=0)


@dataclass(frozen=True)
class Short:
    team: Team
    why: str  # the lineup check's finding, with its rule


@dataclass(frozen=True)
class Pressed:
    """What a press did, in words, with the button that undoes it (None: nothing to undo)."""

    text: str
    undo: tuple[str, str] | None = None
    standings_changed: bool = False


@retried_on_disconnect
class LateStartPrompts:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock, settings: Settings, *,
                 suspensions: SuspensionCheck, on_result: ResultHook) -> None:
        self.sessions = sessions
        self.clock = clock
        self.settings = settings
        self.suspensions = require_check(suspensions, "late-start prompts")
        self.on_result = on_result

    # --- the prompt ----------------------------------------------------------------------------------------
    async def short_teams(self, session: AsyncSession, league: LeagueSettings, game: Game) -> list[Short]:
        """The game's teams whose sheet is below the minimum to start now."""
        out = []
        for team in (game.home, game.away):
            sheet = await team_sheet(session, league, game.league_id, game.id, game.starts_at, team.id,
                                     self.suspensions, final=False)
            players = [CheckedInPlayer(line.player_id if line.player_id is not None else -(line.guest_id or 0),
                                       line.name, line.position, None, guest_approved=True) for line in sheet.lines]
            try:
                rules = lineup_rules_for(league.rules.lineup, team.division.name if team.division else None)
            except ValueError:
                continue  # a division without a court size: /lineup explains it
            report = check_lineup(rules, players)
            if not report.minimum_to_start_met:
                finding = next((f for f in report.findings if f.code == BELOW_MINIMUM_TO_START), None)
                why = f"{finding.message} ({finding.rule})" if finding else "below the minimum to start"
                out.append(Short(team, why))
        return out

    async def render(self, session: AsyncSession, row: OutboxMessage, now: datetime) -> Rendered:
        game = await session.get(Game, int(row.args["game_id"]))
        league = self.settings.league_for_guild(row.guild_id)
        if game is None or league is None or game.league_id != row.league_id:
            return None
        if game.status != "scheduled" or game.starts_at.isoformat() != row.args.get("starts_at"):
            return None  # off, decided, or moved (its new time has prompts of its own)
        stage: Stage = "minor" if row.args.get("stage") == "minor" else "forfeit"
        short = await self.short_teams(session, league, game)
        if not short:
            return None
        rules = league.rules.lineup
        minutes = rules.start_grace_minutes if stage == "minor" else rules.forfeit_after_minutes
        lines = [f"⏱️ `{game.code}` {game.home.name} vs {game.away.name}, started {timestamp(game.starts_at, 't')}: "
                 f"{minutes} minutes on, by its game sheet:"]
        lines += [f"• **{s.team.name}**: {s.why}" for s in short]
        lines.append("Is it so? Nothing happens until you press; what you record can be undone.")
        buttons = tuple((clip(question(stage, s.team.name, rules.late_start_bench_minor_minutes), 80),
                         button_id(row.league_id, game.id, s.team.id, stage)) for s in short)
        message = Outgoing(content=clip("\n".join(lines), CONTENT_LIMIT), buttons=buttons)
        officials = sorted(set((await session.scalars(select(RefereeAssignment.referee_id).where(
            RefereeAssignment.game_id == game.id))).all()))
        if officials:
            return FanOut(tuple((f"dm:{uid}", uid, message) for uid in officials))
        channel = league.channels.referees or league.channels.admin
        if channel is None:
            log.warning("late-start prompt %s: no official assigned and no referees or admin channel", row.send_key)
            return None
        await outbox.enqueue(session, league_id=row.league_id, guild_id=row.guild_id, key=f"{row.send_key}:channel",
                             due_at=now, message=message, channel_id=channel, expires_at=row.expires_at)
        return FanOut(())

    async def at_start(self, league_ids: dict[int, int]) -> int:
        """Plan the prompts of every upcoming game (games added before they were planned with each game)."""
        now = self.clock.now()
        queued = 0
        async with self.sessions.begin() as session:
            for guild_id, league_id in league_ids.items():
                league = self.settings.league_for_guild(guild_id)
                if league is None or not applies(league.rules.lineup):
                    continue
                games = list((await session.scalars(select(Game).where(
                    Game.league_id == league_id, Game.status == "scheduled",
                    Game.starts_at > now - USEFUL_FOR))).unique().all())
                queued += await plan_prompts(session, league, games, now)
        return queued

    # --- a press --------------------------------------------------------------------------------------------
    async def press(self, caller: Caller, game_id: int, team_id: int, action: str) -> Pressed:
        """An official records (or undoes) what a prompt asked: checked again here, whatever the button says."""
        now = self.clock.now()
        async with self.sessions.begin() as session:
            game = await session.scalar(select(Game).where(Game.id == game_id, Game.league_id == caller.league_id)
                                        .with_for_update(of=Game))
            if game is None:
                raise NotFound("That game isn't in this league any more; nothing changed.")
            await self._may_act(session, caller, game)
            team = next((t for t in (game.home, game.away) if t.id == team_id), None)
            if team is None:
                raise NotFound("That team doesn't play that game; nothing changed.")
            standing = await session.scalar(select(LateStart).where(
                LateStart.game_id == game.id, LateStart.team_id == team.id,
                LateStart.action == action.removeprefix("undo-"), LateStart.undone_at.is_(None)))
            if action == "minor":
                return await self._minor(session, caller, game, team, standing, now)
            if action == "forfeit":
                return await self._forfeit(session, caller, game, team, standing, now)
            if action == "undo-minor":
                return await self._undo_minor(session, caller, game, team, standing, now)
            if action == "undo-forfeit":
                return await self._undo_forfeit(session, caller, game, team, standing, now)
            raise NotFound("That button does nothing any more; nothing changed.")

    @staticmethod
    async def _may_act(session: AsyncSession, caller: Caller, game: Game) -> None:
        if caller.is_commissioner or caller.is_referee or caller.is_timekeeper:
            return
        assigned = await session.scalar(select(RefereeAssignment.id).where(
            RefereeAssignment.game_id == game.id, RefereeAssignment.referee_id == caller.discord_id))
        if assigned is None:
            raise NotAllowed("Only the game's officials or a commissioner can answer this; nothing changed.")

    async def _minor(self, session: AsyncSession, caller: Caller, game: Game, team: Team, standing: LateStart | None,
                     now: datetime) -> Pressed:
        undo = (f"Undo the bench minor to {team.name}", button_id(caller.league_id, game.id, team.id, "undo-minor"))
        if standing is not None:
            return Pressed(f"{team.name}'s late-start bench minor in `{game.code}` is already recorded.", undo)
        if game.status == "cancelled":
            raise Conflict(f"{game.code} was cancelled: there's no bench minor to serve.")
        minutes = caller.league.rules.lineup.late_start_bench_minor_minutes
        called = await call_bench_penalty(session, caller, game=game, team=team, infraction=NOT_READY, minute=0,
                                          now=now, minutes=minutes)
        session.add(LateStart(league_id=caller.league_id, game_id=game.id, team_id=team.id, action="minor",
                              bench_penalty_id=called.id, made_by=caller.discord_id, made_at=now))
        cited = caller.league.rules.lineup.citations.start
        return Pressed(f"Recorded: {team.name} serve a {called.minutes}-minute bench minor to start `{game.code}` "
                       f"(bench penalty B{called.id}{'; ' + cited if cited else ''}). If that was a mistake, undo it "
                       "below.", undo)

    async def _forfeit(self, session: AsyncSession, caller: Caller, game: Game, team: Team,
                       standing: LateStart | None, now: datetime) -> Pressed:
        undo = (f"Undo the forfeit by {team.name}", button_id(caller.league_id, game.id, team.id, "undo-forfeit"))
        if standing is not None:
            return Pressed(f"{team.name}'s forfeit of `{game.code}` is already recorded.", undo)
        existing = await result_for(session, game)
        if existing is not None:
            raise Conflict(f"{game.code} already has a result ({view_of(game, score_of(existing)).summary}); "
                           "nothing changed. A commissioner can correct it with /result fix.")
        rules = caller.league.rules
        score = forfeit_score(rules, game, team)
        check_score(rules, game.kind, score)
        cited = rules.lineup.citations.start
        await record(session, rules, game, score, by=caller.discord_id, now=now, action="entered",
                     on_result=self.on_result, reason=clip(f"late start: {team.name} still short "
                                                           f"({cited or 'league setting'})", 300))
        session.add(LateStart(league_id=caller.league_id, game_id=game.id, team_id=team.id, action="forfeit",
                              made_by=caller.discord_id, made_at=now))
        deducted = rules.standings.points_forfeit_penalty
        text = f"Recorded: {view_of(game, score).summary}" + (f" ({cited})" if cited else "") + "."
        if deducted:
            text += f" {team.name} lose {deducted} standings point{'s' if deducted != 1 else ''}."
        return Pressed(text + " The standings are updated. If that was a mistake, undo it below.", undo, True)

    @staticmethod
    async def _undo_minor(session: AsyncSession, caller: Caller, game: Game, team: Team,
                          standing: LateStart | None, now: datetime) -> Pressed:
        if standing is None:
            return Pressed(f"{team.name} has no late-start bench minor in `{game.code}` to undo; nothing changed.")
        standing.undone_at, standing.undone_by = now, caller.discord_id
        bench = await session.get(BenchPenalty, standing.bench_penalty_id) if standing.bench_penalty_id else None
        if bench is not None and bench.withdrawn_at is None:
            bench.withdrawn_at, bench.withdrawn_by = now, caller.discord_id
        return Pressed(f"Undone: {team.name}'s late-start bench minor in `{game.code}` is withdrawn (kept on record).")

    async def _undo_forfeit(self, session: AsyncSession, caller: Caller, game: Game, team: Team,
                            standing: LateStart | None, now: datetime) -> Pressed:
        if standing is None:
            return Pressed(f"{team.name} has no late-start forfeit of `{game.code}` to undo; nothing changed.")
        result = await result_for(session, game)
        changed = await session.scalar(select(ResultChange.id).where(
            ResultChange.game_id == game.id, ResultChange.changed_at > standing.made_at).limit(1))
        if result is None or result.decided != "forfeit" or result.forfeit_team_id != team.id or changed:
            raise Conflict(f"{game.code}'s result was changed since the forfeit was recorded: a commissioner "
                           "corrects it with /result fix. Nothing changed.")
        if game.kind == "playoff":
            raise Conflict(f"{game.code} is a playoff game and its bracket moved on with the forfeit: a "
                           "commissioner corrects it with /result fix. Nothing changed.")
        game.status = check_change(game, "withdraw_result")
        old = score_of(result)
        await session.execute(delete(type(result)).where(type(result).id == result.id))
        session.add(ResultChange(league_id=game.league_id, game_id=game.id, action="withdrawn", old=old.as_json(),
                                 new={}, changed_by=caller.discord_id, changed_at=now,
                                 reason="late-start forfeit undone"))
        standing.undone_at, standing.undone_by = now, caller.discord_id
        await session.flush()
        await self.on_result(session, game.league_id, game.id)  # suspensions and statistics follow it back
        return Pressed(f"Undone: {team.name}'s forfeit of `{game.code}` is taken back; the game has no result "
                       "again and the standings are updated.", None, True)
