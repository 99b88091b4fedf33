"""Suspensions: issued by commissioners (/suspend) or by a referee's penalty, listed by /suspensions.

Choices the spec leaves open, decided here:
- A suspension belongs to the person (youth 1.20.1): it is served in the games of the team the player
  is on when each game is played, so after a trade or roster move it counts down on the new team's
  games, not the old one's (see bot/services/discipline/core.py). A player on no roster can't be suspended.
- The public announcement (announcements channel) names the player and the games, never the reason:
  the reason and penalties are discipline details, shown only to the player (in the DM), their
  captains and commissioners (/suspensions). Only the suspended player may be pinged.
- The appeal window is a deadline (kind ``appeal_window``) for the player, with one reminder the day
  before it closes; it is closed once an appeal is filed or the suspension is served.
- A referee's suspension that needs the commissioners' review (youth 1.12) is active at once and
  marked "pending review"; the commissioners can lengthen it with another /suspend.
- A commissioner's suspension for a named infraction (``infraction:``, or the call of the referee's
  suspension it replaces) keeps to the length the rulebook gives that infraction (co-ed severe
  offences: 1 to 5 games) unless the rulebook lets the commissioners go beyond it (youth 1.12, 1.13);
  bot/league/discipline/lengths.py says which.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Literal

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.access import Caller, Role
from bot.clock import Clock
from bot.config.settings import LeagueSettings
from bot.discord_text import clean_user_text, clip, timestamp
from bot.errors import Conflict, InvalidInput, NotFound
from bot.league.discipline.appeals import Appeal as PureAppeal
from bot.league.discipline.appeals import appeal_window_closes, is_final
from bot.league.discipline.catalogues import PENALTY_CATALOGUES
from bot.league.discipline.infractions import DisciplineError, Infraction, find_infraction
from bot.league.discipline.lengths import suspension_length
from bot.services import outbox
from bot.services.deadlines.service import complete_deadline, create_deadline
from bot.services.discipline.core import (
    REASON_LIMIT,
    Serving,
    appeals_of,
    current_team_ids,
    may_see_details,
    plural,
    pure_appeal,
    pure_suspension,
    refresh_player,
    refusal,
    serving_plan,
    window_ref,
)
from bot.services.outbox import Outgoing
from bot.services.people import membership
from bot.services.shared.guardians import reach, whose
from storage import lookups
from storage.db import retried_on_disconnect
from storage.models import Player, Suspension, Team

MAX_GAMES = 100
#: The appeal window's reminder to the player: the day before it closes.
WINDOW_REMINDERS = (timedelta(hours=24),)


@dataclass(frozen=True)
class SuspensionIssued:
    id: int
    player_discord_id: int | None  # None: a player without a Discord account (their guardians hear)
    player: str
    team: str
    games: int
    pending_review: bool
    appeal_closes: datetime | None  # None: the league allows no appeals
    announced: bool  # False when the league has no announcements channel
    replaced: int | None = None  # the referee's suspension this one replaces
    note: str = ""  # a length outside the infraction's range, and the rule that lets the commissioners set it


@dataclass(frozen=True)
class SuspensionDetails:
    """What only the player, their captains and commissioners see."""

    reason: str
    issued_at: datetime
    pending_review: bool
    penalty: str | None  # the penalty it came from
    appeal: str  # "open until ...", "pending (#4)", "upheld", "final", ...


@dataclass(frozen=True)
class GameAhead:
    """A game still to sit out."""

    code: str
    starts_at: datetime
    home: str
    away: str


@dataclass(frozen=True)
class SuspensionLine:
    id: int
    player_discord_id: int | None  # None: a player without a Discord account (their guardians hear)
    player: str
    team: str  # the team the player is on now (where the suspension is served), else the one it was issued on
    games: int
    remaining: int
    # The start of the last game to sit out, when every game still to serve is scheduled.
    through: datetime | None
    details: SuspensionDetails | None
    ahead: tuple[GameAhead, ...] = ()  # the scheduled games still to sit out, in order


def announcement(issued: SuspensionIssued) -> str:
    name = clean_user_text(issued.player, 100)
    team = clean_user_text(issued.team, 100)
    who = f"<@{issued.player_discord_id}> ({name}, {team})" if issued.player_discord_id else f"{name} ({team})"
    return (f"🚫 {who} is suspended for {plural(issued.games, 'game')}, "
            f"served in the next games of the team they play for.")


def private_notice(league: LeagueSettings, issued: SuspensionIssued, reason: str, *, by_referee: bool) -> str:
    rules = league.rules.discipline
    lines = [f"🚫 You're suspended for {plural(issued.games, 'game')} in {clip(league.name, 100)} "
             f"(suspension #{issued.id}), served in the next games of the team you play for "
             f"({clean_user_text(issued.team, 100)} now; it follows you to another team).",
             f"Reason: {reason}"]
    if by_referee:
        lines.append("It comes from a referee's call" + (
            "; the commissioners will review it." if issued.pending_review else "."))
    if issued.appeal_closes is None:
        lines.append("Suspensions in this league can't be appealed.")
    else:
        times = "once" if rules.appeals_allowed == 1 else f"up to {rules.appeals_allowed} times"
        closes = issued.appeal_closes
        lines.append(f"You (or your captain) may appeal {times} with `/appeal file suspension:{issued.id} "
                     f"reason:<why>` in the league's server until {timestamp(closes)} ({timestamp(closes, 'R')}). "
                     "After that the suspension is final and can't be shortened.")
    return "\n".join(lines)


async def issue_suspension(session: AsyncSession, league: LeagueSettings, league_id: int, *, player: Player,
                           team: Team, games: int, reason: str, issued_by: int | None, now: datetime,
                           penalty_id: int | None = None, pending_review: bool = False) -> SuspensionIssued:
    """Store a suspension, announce it, tell the player privately and open the appeal window."""
    row = Suspension(league_id=league_id, player_id=player.id, team_id=team.id, games=games, games_issued=games,
                     reason=reason, issued_at=now, issued_by=issued_by, status="active",
                     pending_review=pending_review, penalty_id=penalty_id, games_served=0)
    session.add(row)
    await session.flush()
    rules = league.rules.discipline
    closes = appeal_window_closes(pure_suspension(row), rules=rules) if rules.appeals_allowed > 0 else None
    channel = league.channels.announcements
    issued = SuspensionIssued(row.id, player.discord_id, player.name, team.name, games, pending_review, closes,
                              announced=channel is not None)
    if channel is not None:
        await outbox.enqueue(session, league_id=league_id, guild_id=league.guild_id,
                             key=f"suspension:{row.id}:announce", due_at=now, channel_id=channel,
                             message=Outgoing(content=announcement(issued),
                                              ping_user_ids=(player.discord_id,) if player.discord_id else ()))
    recipients = await reach(session, league_id, player)  # a player without an account: their guardians
    notice = private_notice(league, issued, reason, by_referee=penalty_id is not None)
    if player.discord_id is None:
        notice = f"For {clean_user_text(player.name, 100)}, whom you manage:\n{notice}"
    for user in recipients:
        key = f"suspension:{row.id}:dm" + ("" if user == player.discord_id else f":{user}")
        await outbox.enqueue(session, league_id=league_id, guild_id=league.guild_id, key=key, due_at=now,
                             user_id=user, message=Outgoing(content=notice))
    if closes is not None and recipients:
        await create_deadline(session, league, league_id, kind="appeal_window",
                              subject=f"Last day to appeal your suspension #{row.id} (/appeal file)",
                              due_at=closes, audience_kind="player", audience_id=recipients[0], now=now,
                              offsets=WINDOW_REMINDERS, ref=window_ref(row.id), created_by=issued_by)
    return issued


#: What a commissioner's /suspend does over a player's active suspension from a referee's call.
Existing = Literal["replace", "add"]


async def _referee_suspension(session: AsyncSession, league_id: int, player_id: int) -> Suspension | None:
    """The player's latest active suspension that came from a referee's call (a penalty), if any."""
    return (await session.scalars(select(Suspension).where(
        Suspension.league_id == league_id, Suspension.player_id == player_id, Suspension.status == "active",
        Suspension.penalty_id.is_not(None)).order_by(Suspension.issued_at.desc(), Suspension.id.desc()))).first()


def _second_suspension_warning(row: Suspension) -> str:
    game = f" in `{clean_user_text(row.penalty.game.code, 32)}`" if row.penalty is not None else ""
    return (f"{clean_user_text(row.player.name, 100)} already has suspension #{row.id} "
            f"({plural(row.games, 'game')}) from the referee's call{game}: this would make a second suspension, "
            "served after it. Run /suspend again with `replace: True` to put this one in its place, or "
            "`add: True` to add it as a second one. Nothing changed.")


def _appeal_state(row: Suspension, appeals: list[PureAppeal], now: datetime, league: LeagueSettings) -> str:
    rules = league.rules.discipline
    pending = [a for a in appeals if not a.decided]
    if pending:
        return (f"appeal #{pending[0].id} waiting for the commissioners' decision: "
                f"“{clean_user_text(pending[0].reason, 300)}”")
    decided = [a for a in appeals if a.decided]
    suffix = f" (appeal #{decided[-1].id} {decided[-1].outcome})" if decided else ""
    if is_final(pure_suspension(row), now, appeals, rules=rules):
        return "final" + suffix
    if rules.appeals_allowed == 0:
        return "no appeals in this league"
    closes = appeal_window_closes(pure_suspension(row), rules=rules)
    return f"may be appealed until {timestamp(closes)}" + suffix


@retried_on_disconnect
class SuspensionService:
    """/suspend for commissioners and /suspensions for everyone."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock) -> None:
        self.sessions = sessions
        self.clock = clock

    async def suspend(self, caller: Caller, *, discord_id: int, games: int, reason: str,
                      existing: Existing | None = None, infraction: str | None = None) -> SuspensionIssued:
        """A commissioner's suspension; over an active one from a referee's call, only once told whether it
        replaces that one or adds a second (``existing``): otherwise it is refused with the choice. For a
        named infraction (or the call of the suspension it replaces) the length keeps to the rulebook's."""
        caller.require(Role.COMMISSIONER)
        if not 1 <= games <= MAX_GAMES:
            raise InvalidInput(f"A suspension is 1 to {MAX_GAMES} games.")
        why = clean_user_text(reason, REASON_LIMIT)
        if not why:
            raise InvalidInput("Give the reason for the suspension (the player is told it privately).")
        catalogue = PENALTY_CATALOGUES.get(caller.league.rules.preset, ())
        named: Infraction | None = None
        if infraction is not None:
            try:
                named = find_infraction(catalogue, infraction)
            except DisciplineError:
                raise InvalidInput(f"“{clean_user_text(infraction, 64)}” isn't in this league's list of "
                                   "penalties: pick one from the suggestions. Nothing changed.") from None
        now = self.clock.now()
        async with self.sessions.begin() as session:
            entry = await lookups.roster_entry(session, caller.league_id, discord_id)
            if entry is None:
                raise NotFound("That member isn't on a team's roster in this league: a suspension is served "
                               "in the team's games.")
            team = await lookups.team_by_id(session, caller.league_id, entry.team_id)
            assert team is not None
            referees = await _referee_suspension(session, caller.league_id, entry.player_id)
            if referees is not None and existing is None:
                raise Conflict(_second_suspension_warning(referees))
            if named is None and referees is not None and existing == "replace" and referees.penalty is not None:
                named = next((i for i in catalogue if i.key == referees.penalty.infraction_key), None)
            try:
                length = suspension_length(caller.league.rules.discipline, named, games, by_commissioner=True)
            except DisciplineError as exc:
                raise refusal(exc, InvalidInput) from None
            replaced = None
            if referees is not None and existing == "replace":
                referees.status, referees.ended_at, replaced = "overturned", now, referees.id
                await complete_deadline(session, caller.league_id, window_ref(referees.id), now=now, note="replaced")
                await session.flush()
            issued = await issue_suspension(session, caller.league, caller.league_id, player=entry.player,
                                            team=team, games=games, reason=why, issued_by=caller.discord_id,
                                            now=now)
            if replaced is not None:
                await refresh_player(session, caller.league_id, entry.player_id, caller.league.rules.discipline,
                                     now=now)
                for user in await reach(session, caller.league_id, entry.player):
                    suffix = "" if user == entry.player.discord_id else f":{user}"
                    await outbox.enqueue(session, league_id=caller.league_id, guild_id=caller.league.guild_id,
                                         key=f"suspension:{replaced}:replaced:dm{suffix}", due_at=now, user_id=user,
                                         message=Outgoing(content=f"{whose(entry.player)} suspension #{replaced} from "
                                                                  f"the referee's call is replaced by the "
                                                                  f"commissioners' #{issued.id}."))
            return replace(issued, replaced=replaced, note=length.note)

    async def active(self, caller: Caller) -> tuple[SuspensionLine, ...]:
        """Active suspensions: everyone sees who and how long; details only where the spec allows."""
        now = self.clock.now()
        async with self.sessions() as session:
            member = await membership(session, caller)
            rows = list((await session.scalars(
                select(Suspension).where(Suspension.league_id == caller.league_id, Suspension.status == "active")
                .order_by(Suspension.issued_at, Suspension.id)
            )).unique().all())
            rules = caller.league.rules.discipline
            teams = await current_team_ids(session, caller.league_id, sorted({r.player_id for r in rows}))
            names: dict[int, str] = {i: n for i, n in (await session.execute(select(Team.id, Team.name).where(
                Team.league_id == caller.league_id))).all()} if rows else {}
            lines: list[SuspensionLine] = []
            plans: dict[int, dict[int, Serving]] = {}
            for row in rows:
                if row.player_id not in plans:
                    plans[row.player_id] = {s.suspension.id: s for s in
                                            await serving_plan(session, caller.league_id, row.player_id, rules)}
                serving = plans[row.player_id][row.id]
                remaining = serving.remaining
                if remaining == 0:
                    continue  # served by a result the hook has not stored yet (a CLI backfill)
                ahead = serving.still_to_serve
                through = ahead[-1].starts_at if remaining and len(ahead) == remaining else None
                details = None
                if may_see_details(caller, member.captain_of, row, teams.get(row.player_id)):
                    appeals = [pure_appeal(a) for a in await appeals_of(session, caller.league_id, row.id)]
                    details = SuspensionDetails(
                        reason=row.reason, issued_at=row.issued_at, pending_review=row.pending_review,
                        penalty=row.penalty.summary if row.penalty is not None else None,
                        appeal=_appeal_state(row, appeals, now, caller.league))
                team = names.get(teams.get(row.player_id, row.team_id), row.team.name)
                lines.append(SuspensionLine(
                    row.id, row.player.discord_id, row.player.name, team, row.games, remaining, through, details,
                    ahead=tuple(GameAhead(g.code, g.starts_at, g.home.name, g.away.name) for g in ahead)))
            return tuple(lines)
