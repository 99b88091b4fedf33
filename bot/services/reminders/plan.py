"""Game reminders, captain alerts and game notices: planned as outbox rows, written at send time.

Choices the spec leaves open, decided here:
- Every game gets, per team, one reminder row per offset (``league.game_reminder_offsets``) and
  one lineup-check row per captain lead time (``league.captain_alert_offsets``); keys are
  ``game-reminders:<game>:<team>:remind:<minutes>m`` and ``...:alert:<minutes>m`` ("1d" is 1440m,
  as "24h" was, so rows queued before days meant calendar days keep their keys). Planning is
  idempotent: a created, imported or moved game is planned again; pending rows are re-timed
  (``outbox.move``), rows already sent stay sent, rows whose time has passed are dropped.
- When is decided by ``bot.league.offsets.plan_reminders``: days keep the game's local time of day
  in the league's zone, hours are real time. A game planned inside its offsets (created, imported
  or moved late) gets the nearest missed reminder right away, if still useful, and the earlier ones
  are dropped with a log line; lineup checks likewise. After downtime, of several reminders (or
  checks) of one game and team due at once, only the latest goes out.
- The officials' game card (bot/services/officials.py) is planned here too, one row per game and lead time
  (``league.game_card_offsets``, key ``game-reminders:<game>:card:<minutes>m``), timed, re-timed and
  dropped as the reminders are; at send time it becomes a DM to each referee assigned then.
- Reminders and checks expire at the game's start (the courier skips them with a log line).
- A reminder is written when it is sent, as one message per team per game edited in place, pinging
  only at the first and the last reminder time (bot/services/reminders/cards.py): it mentions only
  the rostered players who have not answered then (in / out / maybe are all answers), each once. A
  team without a channel gets a DM per player who has not answered instead (nobody is DMed when
  everyone answered). A player away for the game (/away) counts as answered; one who muted game
  reminders is neither pinged nor DMed, and one who chose DMs (/profile reminders) gets a DM instead
  of the ping (bot/services/availability/preferences.py).
- Captain alerts: at each lead time the team's lineup is checked; each distinct problem (too few
  women/non-binary, below the minimum to start, no goalie) is DMed to the team's captains once and
  recorded in ``captain_alerts``; it is told again only when its text changes (e.g. short by 2
  instead of 1), or when it comes back after being fixed.
- A late drop-out (``bot.services.checkins.service``) DMs the team's captains at once (the team channel
  when it has no captains) and runs the lineup check right away.
- Cancelling tells each team once; moving a game with ``/game move`` tells each team the new time,
  with the check-in buttons (answers given for the old time still stand).
  A team without a channel hears by DM to each rostered player.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.config.settings import LeagueSettings, Settings
from bot.discord_text import clean_user_text, clip, timestamp
from bot.league.checkins.lineup import BELOW_MINIMUM_TO_START, NO_GOALIE, SHORT_OF_WOMEN, CheckedInPlayer, check_lineup
from bot.league.checkins.presets import lineup_rules_for
from bot.league.checkins.status import lineup_status
from bot.league.offsets import Offset, plan_reminders
from bot.services import outbox
from bot.services.availability.away import answers_as_read
from bot.services.availability.guests import guest_players
from bot.services.availability.preferences import DEFAULT, preferences
from bot.services.deadlines.service import FANOUT_USER, Target, team_target
from bot.services.gamesheets.late_start import plan_prompts
from bot.services.gamesheets.officials import plan_notices
from bot.services.outbox import FanOut, Outgoing, Rendered
from bot.services.reminders.messages import queue_edit
from bot.services.shared.attendance import checkins_for_game
from bot.services.shared.checkin_buttons import managed_buttons
from bot.services.shared.eligibility import SuspensionCheck, require_check, suspension_reasons
from bot.services.shared.game_spares import team_spares
from bot.services.shared.guardians import guardians_of
from bot.services.shared.spare_buttons import request_button_id
from storage import lookups
from storage.models import CaptainAlert, Game, OutboxMessage, Team

log = logging.getLogger("sideline.reminders")

REMINDER_KIND = "game_reminder"
ALERT_KIND = "captain_alert_check"
NOTICE_KIND = "game_notice"
CARD_KIND = "game_card"
ALERT_CODES = (SHORT_OF_WOMEN, BELOW_MINIMUM_TO_START, NO_GOALIE)
CONTENT_LIMIT = 2000


def game_prefix(game_id: int) -> str:
    """Every planned reminder and check of one game starts with this key."""
    return f"game-reminders:{game_id}:"


def _epoch(when: datetime) -> int:
    return int(when.timestamp())


# --- planning ---------------------------------------------------------------------------------------
@dataclass
class PlanResult:
    created: int = 0
    moved: int = 0
    dropped: int = 0

    def add(self, other: PlanResult) -> None:
        self.created += other.created
        self.moved += other.moved
        self.dropped += other.dropped


async def plan_game(session: AsyncSession, league: LeagueSettings, game: Game, now: datetime) -> PlanResult:
    """Queue (or re-time) a game's reminders and captain checks; drop them if it is off or over."""
    return await plan_games(session, league, [game], now)


async def plan_games(session: AsyncSession, league: LeagueSettings, games: Sequence[Game],
                     now: datetime, *, new: bool = False) -> PlanResult:
    """``plan_game`` for many games (an import) with one query for what is already queued.

    ``new``: games just inserted, with nothing queued yet (no query for it): their sends are
    written in executemany batches (``outbox.batched``), and the event loop gets a turn every
    25 games, so a 20,000-game import holds neither the loop nor the write lock for long.
    """
    total = PlanResult()
    if not games:
        return total
    league_id = games[0].league_id
    teams = {t.id: t for t in await lookups.teams(session, league_id)}
    prefix = "game-reminders:" if len(games) > 1 else game_prefix(games[0].id)
    existing: dict[int, dict[str, OutboxMessage]] = {}
    for row in () if new else (await session.scalars(select(OutboxMessage).where(
            OutboxMessage.league_id == league_id, OutboxMessage.send_key.startswith(prefix, autoescape=True)))).all():
        existing.setdefault(int(row.send_key.split(":")[1]), {})[row.send_key] = row
    async with outbox.batched(session) if new else nullcontext():
        for i, game in enumerate(games, start=1):
            total.add(await _plan_one(session, league, game, now, existing.get(game.id, {}), teams))
            if new and i % 25 == 0:
                await asyncio.sleep(0)
        # The game's own sends at its start: the commissioners' notices about missing officials, and the
        # officials' late-start prompts.
        await plan_notices(session, league, games, now, new=new)
        await plan_prompts(session, league, games, now, new=new)
    return total


async def _plan_one(session: AsyncSession, league: LeagueSettings, game: Game, now: datetime,
                    existing: dict[str, OutboxMessage], teams: dict[int, Team]) -> PlanResult:
    result = PlanResult()
    if game.status != "scheduled" or game.starts_at <= now:
        for row in existing.values():
            if row.status == "pending":
                row.status = "cancelled"
                result.dropped += 1
        return result
    planned: set[str] = set()
    for kind, stage, offsets in ((REMINDER_KIND, "remind", league.game_reminder_offsets),
                                 (ALERT_KIND, "alert", league.captain_alert_offsets)):
        plan = plan_reminders(game.starts_at, offsets, now, league.timezone)
        for team_id in game.team_ids():
            target = team_target(teams[team_id]) if stage == "remind" else Target(user_id=FANOUT_USER)
            for offset, when in plan.send:
                key = f"{game_prefix(game.id)}{team_id}:{stage}:{offset.minutes}m"
                planned.add(key)
                args: dict[str, object] = {"game_id": game.id, "team_id": team_id, "offset": offset.minutes}
                await _place(session, league, game, key, when, kind, args, target, existing.get(key), result)
        _log_dropped(game, stage, plan.dropped, existing)
    cards = plan_reminders(game.starts_at, league.game_card_offsets, now, league.timezone)
    for offset, when in cards.send:  # the officials' card: one per game, to whoever referees it then
        key = f"{game_prefix(game.id)}card:{offset.minutes}m"
        planned.add(key)
        await _place(session, league, game, key, when, CARD_KIND, {"game_id": game.id, "offset": offset.minutes},
                     Target(user_id=FANOUT_USER), existing.get(key), PlanResult())  # not the teams' reminders
    for key, row in existing.items():
        if key not in planned and row.status == "pending":
            row.status = "cancelled"
            result.dropped += 1
    if result.moved:  # a new time: the teams' reminder messages show it
        for team_id in game.team_ids():
            await queue_edit(session, league_id=game.league_id, game_id=game.id, team_id=team_id, now=now,
                             expires_at=game.starts_at)
    return result


def _log_dropped(game: Game, stage: str, dropped: Sequence[Offset], existing: dict[str, OutboxMessage]) -> None:
    """Reminders whose time passed before the game was planned are not sent (a nearer one goes out
    now): say so once per game, unless they had gone out already."""
    sent = {int(row.args.get("offset", -1)) for key, row in existing.items()
            if f":{stage}:" in key and row.status not in ("pending", "cancelled")}
    unsent = [o for o in dropped if o.minutes not in sent]
    if unsent:
        what = "reminders" if stage == "remind" else "lineup checks"
        log.info("game %s: %s %s dropped, their time passed before the game was planned "
                 "(the nearest one goes out now)", game.code, ", ".join(map(str, unsent)), what)


async def _place(session: AsyncSession, league: LeagueSettings, game: Game, key: str, when: datetime, kind: str,
                 args: dict[str, object], target: Target, row: OutboxMessage | None, result: PlanResult) -> None:
    if row is None:
        queued = await outbox.enqueue(session, league_id=game.league_id, guild_id=league.guild_id, key=key,
                                      due_at=when, kind=kind, args=args, channel_id=target.channel_id,
                                      user_id=target.user_id, expires_at=game.starts_at)
        result.created += int(queued.created)
        return
    if row.status not in ("pending", "cancelled"):
        return  # sent (or given up on): never again
    if row.status == "cancelled":  # dropped by an earlier move; the time is useful again
        row.status, row.attempts = "pending", 0
    row.args = args
    row.channel_id, row.user_id = target.channel_id, target.user_id
    if (row.due_at, row.expires_at) != (when, game.starts_at) or row.next_attempt_at != when:
        outbox.move(session, row, when, game.starts_at)
        result.moved += 1


async def follow_team_channels(session: AsyncSession, league: LeagueSettings, teams: Sequence[Team],
                               now: datetime) -> PlanResult:
    """Teams whose channel changed: their upcoming games' pending reminders go where the team's
    messages go now (the channel, or the captains when it has none). Sent ones stay sent."""
    if not teams:
        return PlanResult()
    games = await lookups.upcoming_games(session, teams[0].league_id, [t.id for t in teams], now, limit=None)
    return await plan_games(session, league, games, now)


async def notify_teams(session: AsyncSession, league: LeagueSettings, game: Game, notice: str,
                       now: datetime) -> int:
    """Tell both teams a game was cancelled or moved, once per team (and per new time)."""
    created = 0
    for team_id in game.team_ids():
        team = await lookups.team_by_id(session, game.league_id, team_id)
        assert team is not None
        target = team_target(team)
        suffix = f":{_epoch(game.starts_at)}" if notice == "moved" else ""
        queued = await outbox.enqueue(
            session, league_id=game.league_id, guild_id=league.guild_id,
            key=f"game-{notice}:{game.id}:{team_id}{suffix}", due_at=now, kind=NOTICE_KIND,
            args={"game_id": game.id, "team_id": team_id, "notice": notice,
                  "starts_at": game.starts_at.isoformat()},
            channel_id=target.channel_id, user_id=target.user_id, expires_at=game.starts_at)
        created += int(queued.created)
    return created


# --- rendering at send time ---------------------------------------------------------------------------
async def _live_game(session: AsyncSession, row: OutboxMessage, now: datetime) -> tuple[Game, Team] | None:
    game = await session.get(Game, int(row.args["game_id"]))
    if game is None or game.league_id != row.league_id:
        return None
    team_id = int(row.args["team_id"])
    team = game.home if game.home_team_id == team_id else game.away if game.away_team_id == team_id else None
    if team is None:
        return None
    if game.status != "scheduled" or now >= game.starts_at:
        return None
    return game, team


async def still_useful(session: AsyncSession, row: OutboxMessage, now: datetime) -> tuple[Game, Team] | None:
    """The game and team a reminder or lineup check is about, unless it is no use any more: the
    game is off or under way, or a later one for the same game and team is due too."""
    live = await _live_game(session, row, now)
    if live is not None and await _superseded(session, row, now):
        log.info("skipped %s: a later one for the game is due", row.send_key)
        return None
    return live


async def _superseded(session: AsyncSession, row: OutboxMessage, now: datetime) -> bool:
    """A later reminder (or lineup check) of the same game and team is due too: only that one goes
    out. After downtime, each team hears once per game, not once per missed offset."""
    stage = ":".join(row.send_key.split(":")[:4]) + ":"  # game-reminders:<game>:<team>:remind:
    later = await session.scalar(select(OutboxMessage.id).where(
        OutboxMessage.league_id == row.league_id, OutboxMessage.send_key.startswith(stage, autoescape=True),
        OutboxMessage.kind == row.kind,  # not the DMs a fanned-out reminder became
        OutboxMessage.status.in_(("pending", "sending", "sent")), OutboxMessage.id != row.id,
        OutboxMessage.due_at > row.due_at, OutboxMessage.due_at <= now).limit(1))
    return later is not None


def game_heading(game: Game) -> str:
    return (f"**{game.home.name} vs {game.away.name}** · {timestamp(game.starts_at)} "
            f"({timestamp(game.starts_at, 'R')}) · {game.venue or 'venue TBA'} · `{game.code}`")


@dataclass(frozen=True)
class Waiting:
    """The team's players a reminder is for now: no answer, not away, not muted, split by where they
    hear it (``pinged`` in the team channel, ``dm`` by direct message)."""

    pinged: tuple[int, ...]
    dm: tuple[int, ...]
    quiet: int  # no answer yet, but muted game reminders
    # Players without a Discord account who have not answered: their guardians hear by DM, one per player,
    # with buttons that answer for that player.
    managed: tuple[ManagedWaiting, ...] = ()

    @property
    def everyone(self) -> tuple[int, ...]:
        return self.pinged + self.dm


@dataclass(frozen=True)
class ManagedWaiting:
    """A player without a Discord account who has not answered, and the guardians who answer for them."""

    player_id: int
    name: str
    guardians: tuple[int, ...]

    def dms(self, key: str, team: Team, game: Game) -> tuple[tuple[str, int, Outgoing], ...]:
        """One DM to each guardian: (key suffix, guardian, message with this player's buttons)."""
        text = clip(f"🏒 {team.name}: {game_heading(game)}\nIs **{clean_user_text(self.name, 100)}** in? "
                    "Tap a button below to answer for them.", CONTENT_LIMIT)
        buttons = managed_buttons(game.code, game.league_id, self.player_id, self.name)
        return tuple((f"{key}{g}:p{self.player_id}", g, Outgoing(content=text, buttons=buttons))
                     for g in self.guardians)


async def waiting_players(session: AsyncSession, league_id: int, game: Game, team: Team) -> Waiting:
    """Who a reminder for this game reaches: rostered players with no answer, each once, except those
    away for it (/away) and those who muted game reminders; DM-preferring ones apart."""
    answers = {c.player_id: c for c in await checkins_for_game(session, league_id, game.id)}
    roster = await lookups.roster(session, league_id, team.id)
    ids = [e.player_id for e in roster]
    read = await answers_as_read(session, league_id, game.starts_at, [
        (i, answers[i].status, answers[i].updated_at) if i in answers else (i, None, None) for i in ids])
    prefs = await preferences(session, league_id, ids)
    guardians = await guardians_of(session, league_id, [e.player_id for e in roster if e.player.discord_id is None])
    pinged: dict[int, None] = {}
    dm: dict[int, None] = {}
    managed: list[ManagedWaiting] = []
    quiet = 0
    for entry in roster:
        if read.status[entry.player_id] is not None:
            continue
        pref = prefs.get(entry.player_id, DEFAULT)
        discord_id = entry.player.discord_id
        if pref.mute_game_reminders:
            quiet += 1
        elif discord_id is None:
            managed.append(ManagedWaiting(entry.player_id, entry.player.name, guardians.get(entry.player_id, ())))
        else:
            (dm if pref.delivery == "dm" else pinged).setdefault(discord_id)
    return Waiting(tuple(pinged), tuple(u for u in dm if u not in pinged), quiet, tuple(managed))


async def non_responders(session: AsyncSession, league_id: int, game: Game, team: Team) -> list[int]:
    """Discord ids a reminder for the game reaches now (see ``waiting_players``), each once."""
    return list((await waiting_players(session, league_id, game, team)).everyone)


async def render_notice(session: AsyncSession, row: OutboxMessage, now: datetime) -> Rendered:
    """A cancellation or new-time notice for one team."""
    game = await session.get(Game, int(row.args["game_id"]))
    team = await session.get(Team, int(row.args["team_id"]))
    if game is None or team is None or game.league_id != row.league_id:
        return None
    notice = row.args["notice"]
    if notice == "cancelled":
        if game.status != "cancelled":
            return None
        message = Outgoing(content=clip(f"❌ {team.name}: **{game.home.name} vs {game.away.name}** on "
                                        f"{timestamp(game.starts_at)} (`{game.code}`) is **cancelled**.",
                                        CONTENT_LIMIT))
    else:
        if game.status != "scheduled" or game.starts_at.isoformat() != row.args.get("starts_at"):
            return None  # moved again or cancelled since: a later notice says so
        # Answers given for the old time still stand: the buttons let whoever can't make the new one
        # say so right here.
        message = Outgoing(content=clip(f"📅 {team.name}: new time for {game_heading(game)}\n"
                                        "Can you still make it? Change your answer below if not.", CONTENT_LIMIT),
                           checkin_game=game.code)
    return message if row.user_id != FANOUT_USER else await _to_roster(session, row, team, message)


async def _to_roster(session: AsyncSession, row: OutboxMessage, team: Team, message: Outgoing) -> Rendered:
    """A team without a channel hears by DM, each rostered player once."""
    roster = await lookups.roster(session, row.league_id, team.id)
    guardians = await guardians_of(session, row.league_id, [e.player_id for e in roster if e.player.discord_id is None])
    # a player without a Discord account hears through their guardians (each member once)
    players = [u for e in roster for u in ((e.player.discord_id,) if e.player.discord_id is not None
                                           else guardians.get(e.player_id, ()))]
    return FanOut(tuple((str(u), u, message) for u in dict.fromkeys(players))) if players else None


class LineupAlerts:
    """The captains' lineup alerts: when a team's lineup falls below a rule, its captains hear once.

    Rendered at send time, so it needs each league's lineup rules and who is suspended; the
    composition root (bot/composition.py) builds it with both.
    """

    def __init__(self, settings: Settings, suspensions: SuspensionCheck) -> None:
        self.settings = settings
        self.suspensions = require_check(suspensions, "the captains' lineup alerts")

    async def render(self, session: AsyncSession, row: OutboxMessage, now: datetime) -> Rendered:
        """Check the team's lineup; DM the captains each problem they have not heard about yet."""
        live = await still_useful(session, row, now)
        if live is None:
            return None
        game, team = live
        league = self.settings.league_for_guild(row.guild_id)
        if league is None:
            log.warning("skipped %s: server %s has no league in the configuration", row.send_key, row.guild_id)
            return None
        findings, status = await lineup_problems(session, league, row.league_id, game, team, self.suspensions)
        captains = await lookups.captain_ids(session, team.id)
        if not captains:
            log.warning("no captains to alert for %s in %s", team.name, game.code)
            return None
        new = await _record_alerts(session, row.league_id, game, team, findings, now)
        if not new:
            return None
        children = []
        for code, digest, message in new:
            text = clip(f"⚠️ {team.name} lineup for {game_heading(game)}\n{message}\n{status}\n"
                        "Check it with `/lineup`.", CONTENT_LIMIT)
            # A problem a spare can fix carries the button that asks the spare list.
            buttons = ((("Ask the spare list", request_button_id(row.league_id, game.id, team.id)),)
                       if code in ALERT_CODES else ())
            children += [(f"{code}:{digest}:{c}", c, Outgoing(content=text, buttons=buttons)) for c in captains]
        return FanOut(tuple(children))


async def lineup_problems(session: AsyncSession, league: LeagueSettings, league_id: int, game: Game,
                          team: Team, suspensions: SuspensionCheck) -> tuple[dict[str, str], str]:
    """Problem code -> message (with its rule) for the alertable lineup problems of one team, and the
    lineup's ✅/❌ lines (the same as /lineup's)."""
    division = team.division.name if team.division else None
    try:
        rules = lineup_rules_for(league.rules.lineup, division)
    except ValueError:
        log.warning("division %r of %s has no court size; lineup alerts skipped", division, team.name)
        return {}, ""
    roster = {e.player_id: e for e in await lookups.roster(session, league_id, team.id)}
    players = []
    checkins = [c for c in await checkins_for_game(session, league_id, game.id) if c.player_id in roster]
    read = await answers_as_read(session, league_id, game.starts_at,
                                 [(c.player_id, c.status, c.updated_at) for c in checkins])
    going = [c.player_id for c in checkins if read.status[c.player_id] == "in"]
    suspended = await suspension_reasons(suspensions, session, league_id, going, game.id)
    for player_id in going:
        entry = roster[player_id]
        players.append(CheckedInPlayer(player_id=entry.player_id, name=entry.player.name,
                                       position=entry.position,
                                       gender=entry.player.gender,
                                       rostered=True, suspended=player_id in suspended))
    spares = await team_spares(session, league_id, game.id, team.id)  # spares who took a spot count too
    spare_suspended = await suspension_reasons(suspensions, session, league_id, [s.player_id for s in spares],
                                               game.id)
    players += [CheckedInPlayer(player_id=s.player_id, name=s.name, position=s.position, gender=s.gender,
                                rostered=True, suspended=s.player_id in spare_suspended) for s in spares]
    players += await guest_players(session, suspensions, league_id, game.id, team.id)
    report = check_lineup(rules, players)
    problems: dict[str, str] = {}
    for finding in report.findings:
        if finding.code in ALERT_CODES and finding.code not in problems:
            problems[finding.code] = f"{finding.message} ({finding.rule})" if finding.rule else finding.message
    return problems, "\n".join(line.render() for line in lineup_status(rules, report))


async def _record_alerts(session: AsyncSession, league_id: int, game: Game, team: Team, problems: dict[str, str],
                         now: datetime) -> list[tuple[str, str, str]]:
    """Store what the captains are about to hear; returns the problems that are new or changed."""
    told = {a.problem_code: a for a in (await session.scalars(
        select(CaptainAlert).where(CaptainAlert.game_id == game.id, CaptainAlert.team_id == team.id))).all()}
    gone = [code for code in told if code not in problems]
    if gone:  # fixed since: if it comes back, the captains hear again
        await session.execute(delete(CaptainAlert).where(CaptainAlert.game_id == game.id,
                                                         CaptainAlert.team_id == team.id,
                                                         CaptainAlert.problem_code.in_(gone)))
    new = []
    for code, message in problems.items():
        digest = hashlib.blake2b(message.encode(), digest_size=8).hexdigest()
        alert = told.get(code)
        if alert is not None and alert.message_hash == digest:
            continue
        if alert is None:
            session.add(CaptainAlert(league_id=league_id, game_id=game.id, team_id=team.id, problem_code=code,
                                     message_hash=digest, alerted_at=now))
        else:
            alert.message_hash, alert.alerted_at = digest, now
        new.append((code, digest, message))
    await session.flush()
    return new
