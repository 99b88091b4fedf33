"""The commissioners' review of a referee's suspension: `/suspension review` (youth 1.12, 1.20.2).

Choices the spec leaves open, decided here:
- A referee's suspension over the preset's referee limit is held at that limit, in force at once,
  and marked pending review; so is one "reported to the league". `/suspension review` takes the
  player's oldest suspension waiting for review: `confirm` keeps it as it stands, `set-games` sets its
  length (longer or shorter, "may decrease/increase"), `lift` overturns it. One review per
  suspension (a unique key: two commissioners at the same moment can't both decide); afterwards it
  is final and only an appeal's decision can shorten it (1.20.2).
- Each review is a row (who, when, what, from how many games to how many, the note): the audit. The
  player is told privately (with the note); a change is announced where suspensions are, naming no
  reason; the reply to the commissioner says what happened.
- Review notices (a suspension waiting for review) go to ``channels.admin`` with the details; without
  one, to the announcements channel with the reason and penalty withheld; without either, by DM to
  each commissioner the bot knows. The bot has no privileged intents, so it can't list the members
  of the commissioner role: it knows the commissioners who have used it (set the league up, changed
  a setting, issued a suspension, decided an appeal or a review).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select, union
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.access import Caller, Role
from bot.clock import Clock
from bot.config.settings import LeagueSettings
from bot.discord_text import clean_user_text, clip
from bot.errors import Conflict, InvalidInput, NotFound
from bot.league.discipline.catalogues import PENALTY_CATALOGUES
from bot.league.discipline.infractions import DisciplineError, Infraction
from bot.league.discipline.reviews import review_suspension
from bot.services import outbox
from bot.services.deadlines.service import complete_deadline
from bot.services.discipline.core import REASON_LIMIT, plural, refresh_player, refusal, window_ref
from bot.services.outbox import Outgoing
from bot.services.shared.guardians import mention, reach
from storage import lookups
from storage.db import retried_on_disconnect
from storage.models import Appeal, LeagueSetup, SetupChange, Suspension, SuspensionReview

#: At most this many commissioners get a review notice by DM (when the league has no channel for it).
MAX_COMMISSIONER_DMS = 10


@dataclass(frozen=True)
class SuspensionReviewed:
    suspension_id: int
    player: str
    action: str
    games_before: int
    games_after: int
    asked: int  # what the referee's call asked for
    summary: str
    citation: str
    announced: bool
    note: str = ""  # a length outside the infraction's range, and the rule that lets the commissioners set it


async def known_commissioners(session: AsyncSession, league_id: int) -> list[int]:
    """Discord ids of the people who have acted as this league's commissioners, most useful first."""
    found = union(
        select(LeagueSetup.created_by.label("who")).where(LeagueSetup.league_id == league_id),
        select(SetupChange.changed_by).where(SetupChange.league_id == league_id),
        select(Suspension.issued_by).where(Suspension.league_id == league_id, Suspension.penalty_id.is_(None),
                                           Suspension.issued_by.is_not(None)),
        select(Appeal.decided_by).where(Appeal.league_id == league_id, Appeal.decided_by.is_not(None)),
        select(SuspensionReview.decided_by).where(SuspensionReview.league_id == league_id),
    ).subquery()
    ids = (await session.scalars(select(found.c.who).order_by(found.c.who))).all()
    return [int(i) for i in ids if i is not None][:MAX_COMMISSIONER_DMS]


def admin_channel_warning(league: LeagueSettings, fix: str = "set channels.admin") -> str:
    """What a league without ``channels.admin`` loses (check-config and /setup show say it, each with
    its own ``fix``); "" with one."""
    if league.channels.admin is not None:
        return ""
    where = ("go to the announcements channel without the reason" if league.channels.announcements is not None
             else "go by DM to each commissioner the bot knows")
    return f"no admin channel: suspensions waiting for commissioner review {where} ({fix})"


async def notify_commissioners(session: AsyncSession, league: LeagueSettings, league_id: int, *, key: str,
                               private: str, public: str, now: datetime) -> str:
    """A review notice: admin channel (details), else announcements (``public``: no reason), else a DM to
    each known commissioner. Returns where it went: "admin", "announcements", "dm" or "nowhere"."""
    if league.channels.admin is not None:
        await outbox.enqueue(session, league_id=league_id, guild_id=league.guild_id, key=key, due_at=now,
                             channel_id=league.channels.admin, message=Outgoing(content=private))
        return "admin"
    if league.channels.announcements is not None:
        await outbox.enqueue(session, league_id=league_id, guild_id=league.guild_id, key=key, due_at=now,
                             channel_id=league.channels.announcements, message=Outgoing(content=public))
        return "announcements"
    people = await known_commissioners(session, league_id)
    for who in people:
        await outbox.enqueue(session, league_id=league_id, guild_id=league.guild_id, key=f"{key}:dm:{who}",
                             due_at=now, user_id=who, message=Outgoing(content=private))
    return "dm" if people else "nowhere"


def called(preset: str, row: Suspension) -> Infraction | None:
    """The infraction a suspension came from (its penalty's), in the preset's catalogue; None for one a
    commissioner gave, or a call the catalogue no longer lists."""
    if row.penalty is None:
        return None
    return next((i for i in PENALTY_CATALOGUES.get(preset, ()) if i.key == row.penalty.infraction_key), None)


@retried_on_disconnect
class SuspensionReviewService:
    """`/suspension review` for commissioners."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock) -> None:
        self.sessions = sessions
        self.clock = clock

    async def review(self, caller: Caller, *, discord_id: int, action: str, games: int | None,
                     note: str | None) -> SuspensionReviewed:
        caller.require(Role.COMMISSIONER)
        said = clean_user_text(note or "", REASON_LIMIT)
        now = self.clock.now()
        rules = caller.league.rules.discipline
        try:
            async with self.sessions.begin() as session:
                player = await lookups.player_by_discord(session, caller.league_id, discord_id)
                if player is None:
                    raise NotFound("That member has no suspension in this league.")
                rows = list((await session.scalars(
                    select(Suspension).where(Suspension.league_id == caller.league_id,
                                             Suspension.player_id == player.id, Suspension.status == "active")
                    .order_by(Suspension.issued_at, Suspension.id))).unique().all())
                reviewed_ids = set((await session.scalars(select(SuspensionReview.suspension_id).where(
                    SuspensionReview.league_id == caller.league_id,
                    SuspensionReview.suspension_id.in_([r.id for r in rows])))).all()) if rows else set()
                waiting = [r for r in rows if r.pending_review and r.id not in reviewed_ids]
                row = waiting[0] if waiting else next((r for r in rows if r.id in reviewed_ids), None)
                if row is None:
                    raise NotFound(f"{clean_user_text(player.name, 100)} has no active suspension waiting for "
                                   "the commissioners' review.")
                try:
                    decision = review_suspension(rules, current_games=row.games, pending=row.pending_review,
                                                 reviewed=row.id in reviewed_ids, action=action, games=games,
                                                 infraction=called(caller.league.rules.preset, row))
                except DisciplineError as exc:
                    kind = Conflict if row.id in reviewed_ids else InvalidInput
                    raise refusal(exc, kind) from None
                session.add(SuspensionReview(
                    league_id=caller.league_id, suspension_id=row.id, action=decision.action,
                    games_before=decision.games_before, games_after=decision.games_after, note=said,
                    decided_by=caller.discord_id, decided_at=now))
                await session.flush()
                row.pending_review = False
                if decision.lifted:
                    row.status, row.ended_at = "overturned", now
                    await complete_deadline(session, caller.league_id, window_ref(row.id), now=now, note="lifted")
                else:
                    row.games = decision.games_after
                await refresh_player(session, caller.league_id, row.player_id, rules, now=now)
                asked = row.penalty.suspension_games if row.penalty is not None else decision.games_before
                announced = await self._tell(session, caller, row, decision.summary, said, now=now)
                return SuspensionReviewed(row.id, row.player.name, decision.action, decision.games_before,
                                          decision.games_after, asked, decision.summary, decision.citation,
                                          announced, decision.note)
        except IntegrityError:
            raise Conflict("Another commissioner reviewed that suspension at the same moment.") from None

    @staticmethod
    async def _tell(session: AsyncSession, caller: Caller, row: Suspension, summary: str, note: str, *,
                    now: datetime) -> bool:
        """The player privately (with the note); the outcome announced where suspensions are (no reason)."""
        league = caller.league
        text = (f"🔎 Your suspension #{row.id} in {clip(league.name, 100)} was reviewed by the commissioners: "
                f"{summary}. It is final now: only an appeal's decision can shorten it.")
        if note:
            text += f"\nNote: {note}"
        for user in await reach(session, caller.league_id, row.player):  # a player, or their guardians
            suffix = "" if user == row.player.discord_id else f":{user}"
            await outbox.enqueue(session, league_id=caller.league_id, guild_id=league.guild_id,
                                 key=f"suspension:{row.id}:review:dm{suffix}", due_at=now, user_id=user,
                                 message=Outgoing(content=text))
        channel = league.channels.announcements
        if channel is None:
            return False
        name = clean_user_text(row.player.name, 100)
        what = ("is lifted" if row.status == "overturned"
                else f"stands at {plural(row.games, 'game')}, final")
        await outbox.enqueue(session, league_id=caller.league_id, guild_id=league.guild_id,
                             key=f"suspension:{row.id}:review:announce", due_at=now, channel_id=channel,
                             message=Outgoing(content=f"🔎 After the commissioners' review, "
                                                      f"{mention(row.player.discord_id, name)}"
                                                      f"{f' ({name})' if row.player.discord_id else ''}"
                                                      f"'s suspension #{row.id} {what}.",
                                              ping_user_ids=(row.player.discord_id,) if row.player.discord_id else ()))
        return True
