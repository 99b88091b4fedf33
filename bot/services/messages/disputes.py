"""Formal disputes: a captain appeals a game's incident to the commissioners, who decide in time.

Youth 2.2: "If a Coach/Captain feels there are any controversies during a game, they may file an
appeal regarding the incident to the League. The commissioner(s) will review the case and conclude
the case within 5 days of submission." Indoor soccer uses the same window as a league default
(``rules.deadlines.dispute_decision_days``). Co-ed "Ref interaction": "the referee's call stands, so if
you have a dispute with a call, suck it up": no disputes there (``dispute_calls_allowed``); captains
relay to the referee (/relay send) instead.

Choices the spec leaves open, decided here:
- Filing: the captain role AND captain of a team in the game, once the game has started (the rule
  is about incidents during a game); one open dispute per team and game.
- Each dispute owns a deadline (kind ``dispute_decision``, ref ``dispute:<id>``, nagging daily once
  overdue) that nudges the commissioners until ``/dispute decide`` completes it. The nudges are
  neutral ("decide dispute #3 about game G1"): they may land in the public announcements channel
  when the league has no admin channel. The dispute's text goes only to the admin channel (when
  configured) and to ``/dispute list``.
- The captain hears the outcome by DM. A decision is final: deciding twice is refused.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.access import Caller, Role
from bot.clock import Clock
from bot.discord_text import blank, clean_user_text, clip, timestamp
from bot.errors import Conflict, InvalidInput, NotFound
from bot.league.deadlines import dispute_decision_due
from bot.league.messages import TEXT_LIMIT
from bot.services import outbox
from bot.services.deadlines.service import complete_deadline, create_deadline
from bot.services.messages.relays import MAX_ROW_ID, quoted
from bot.services.outbox import Outgoing
from bot.services.people import captained_sides, membership
from bot.services.shared.games import find_game
from storage.db import retried_on_disconnect, rowcount
from storage.models import Dispute
from storage.models.messages import DISPUTE_OUTCOMES

DEADLINE_KIND = "dispute_decision"
OUTCOME_WORDS = {"upheld": "upheld ✅", "partly-upheld": "partly upheld ☑️", "rejected": "rejected ❌",
                 "withdrawn": "closed as withdrawn"}


def deadline_ref(dispute_id: int) -> str:
    return f"dispute:{dispute_id}"


@dataclass(frozen=True)
class DisputeLine:
    id: int
    game_code: str
    game_title: str
    team: str
    captain_id: int
    captain_name: str
    message: str
    created_at: datetime
    due_at: datetime
    status: str
    outcome: str | None
    decision: str
    decided_by_name: str
    decided_at: datetime | None


@dataclass(frozen=True)
class DisputeFiled:
    dispute: DisputeLine
    rule: str  # where the decision window comes from


def _line(d: Dispute) -> DisputeLine:
    return DisputeLine(d.id, d.game.code, f"{d.game.home.name} vs {d.game.away.name}", d.team.name, d.captain_id,
                       d.captain_name, d.message, d.created_at, d.due_at, d.status, d.outcome, d.decision,
                       d.decided_by_name, d.decided_at)


def parse_id(value: str) -> int:
    number = value.strip().lstrip("#")
    if not (number.isascii() and number.isdigit()) or not 0 < int(number) <= MAX_ROW_ID:
        raise InvalidInput("Pick a dispute from the suggestions (its number, like 3).")
    return int(number)


async def _dispute(session: AsyncSession, caller: Caller, dispute_id: int) -> Dispute:
    found = await session.scalar(select(Dispute).where(Dispute.league_id == caller.league_id,
                                                       Dispute.id == dispute_id))
    if found is None:
        raise NotFound(f"There's no dispute #{dispute_id} in {caller.league.name}.")
    return found


@retried_on_disconnect
class DisputeService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock) -> None:
        self.sessions = sessions
        self.clock = clock

    async def file(self, caller: Caller, game_code: str, message: str) -> DisputeFiled:
        """Record a captain's dispute and start the commissioners' decision deadline."""
        caller.require(Role.CAPTAIN)
        rules = caller.league.rules.deadlines
        if not rules.dispute_calls_allowed:
            cited = rules.deadline_citations.dispute_calls or "a league setting"
            raise Conflict(f"In {caller.league.name} the referee's call stands ({cited}): calls can't be disputed "
                           "with the commissioners. To tell the referees something, use `/relay send`.")
        text = clean_user_text(message, TEXT_LIMIT)
        if blank(text):
            raise InvalidInput("Describe what you are disputing.")
        now = self.clock.now()
        async with self.sessions.begin() as session:
            game = await find_game(session, caller, game_code)
            member = await membership(session, caller)
            teams = captained_sides(caller, member, game, to="dispute")
            if game.starts_at > now:
                raise Conflict(f"`{game.code}` hasn't started yet: a dispute is about something that happened "
                               "in a game. To reach the referees before it, use `/relay send`.")
            team_id = teams[0]
            already = await session.scalar(select(Dispute.id).where(
                Dispute.game_id == game.id, Dispute.team_id == team_id, Dispute.status == "open"))
            if already is not None:
                raise Conflict(f"Your team already has an open dispute about `{game.code}` (#{already}); the "
                               "commissioners will decide it, and you'll get their decision by DM.")
            dispute = Dispute(league_id=caller.league_id, game_id=game.id, team_id=team_id,
                              captain_id=caller.discord_id, captain_name=clean_user_text(caller.display_name, 100),
                              message=text, created_at=now, due_at=dispute_decision_due(now, rules), status="open")
            session.add(dispute)
            await session.flush()
            await session.refresh(dispute, ["game", "team"])
            await create_deadline(
                session, caller.league, caller.league_id, kind=DEADLINE_KIND,
                subject=f"Decide dispute #{dispute.id} about game {game.code} (/dispute decide)",
                due_at=dispute.due_at, audience_kind="commissioners", audience_id=None, now=now,
                ref=deadline_ref(dispute.id), nag_until_done=True, created_by=caller.discord_id)
            result = _line(dispute)
            admin = caller.league.channels.admin
            if admin is not None:
                await outbox.enqueue(session, league_id=caller.league_id, guild_id=caller.league.guild_id,
                                     key=f"dispute:{dispute.id}:filed", due_at=now, channel_id=admin,
                                     message=Outgoing(content=filed_text(result)))
            return DisputeFiled(result, rules.deadline_citations.dispute or "league setting")

    async def decide(self, caller: Caller, dispute_id: str, outcome: str, text: str) -> DisputeLine:
        """Commissioners decide: the deadline closes, its nudges stop, the captain hears the outcome."""
        caller.require(Role.COMMISSIONER)
        number = parse_id(dispute_id)
        if outcome not in DISPUTE_OUTCOMES:
            raise InvalidInput(f"The outcome must be one of: {', '.join(DISPUTE_OUTCOMES)}.")
        decision = clean_user_text(text, TEXT_LIMIT)
        if blank(decision):
            raise InvalidInput("Write the decision (the captain reads it).")
        now = self.clock.now()
        async with self.sessions.begin() as session:
            dispute = await _dispute(session, caller, number)
            done = await session.execute(
                update(Dispute).where(Dispute.id == dispute.id, Dispute.status == "open")
                .values(status="decided", outcome=outcome, decision=decision, decided_by=caller.discord_id,
                        decided_by_name=clean_user_text(caller.display_name, 100), decided_at=now)
                .execution_options(synchronize_session=False))
            await session.refresh(dispute)
            if not rowcount(done):
                raise Conflict(f"Dispute #{dispute.id} was already decided ({dispute.outcome}) by "
                               f"{dispute.decided_by_name}; a decision is final.")
            await complete_deadline(session, caller.league_id, deadline_ref(dispute.id), now=now,
                                    note=clip(f"{outcome}: {decision}", 300))
            result = _line(dispute)
            await outbox.enqueue(session, league_id=caller.league_id, guild_id=caller.league.guild_id,
                                 key=f"dispute:{dispute.id}:decided", due_at=now, user_id=dispute.captain_id,
                                 message=Outgoing(content=decided_text(result, caller.league.name)))
            return result

    async def list_disputes(self, caller: Caller, *, include_decided: bool = False,
                            limit: int = 25) -> tuple[DisputeLine, ...]:
        caller.require(Role.COMMISSIONER)
        async with self.sessions() as session:
            query = select(Dispute).where(Dispute.league_id == caller.league_id)
            if not include_decided:
                query = query.where(Dispute.status == "open")
            found = await session.scalars(query.order_by(Dispute.due_at, Dispute.id).limit(limit))
            return tuple(_line(d) for d in found.all())

    async def autocomplete(self, caller: Caller, text: str) -> tuple[DisputeLine, ...]:
        """Open disputes matching the typed text (commissioners only; others see nothing)."""
        if not caller.is_commissioner:
            return ()
        needle = text.strip().lstrip("#").casefold()
        return tuple(d for d in await self.list_disputes(caller)
                     if not needle or needle == str(d.id) or needle in f"{d.team} {d.game_code}".casefold())


def filed_text(d: DisputeLine) -> str:
    """For the commissioners' admin channel."""
    return clip(f"⚖️ **Dispute #{d.id}** about `{d.game_code}` ({d.game_title}) from {d.captain_name} "
                f"(<@{d.captain_id}>), captain of {d.team}:\n{quoted(d.message)}\n"
                f"Decision due {timestamp(d.due_at)}: `/dispute decide`.", 2000)


def decided_text(d: DisputeLine, league_name: str) -> str:
    """For the captain, by DM."""
    return clip(f"⚖️ Your dispute #{d.id} about `{d.game_code}` ({d.game_title}) in {league_name} was "
                f"**{OUTCOME_WORDS.get(d.outcome or '', d.outcome)}** by {d.decided_by_name}:\n"
                f"{quoted(d.decision)}", 2000)
