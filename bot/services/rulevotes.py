"""Rule-change votes (youth 1.23): a commissioner proposes a new value for a rule setting, the commissioners
and the division's coaches or captains vote once each, and the change passes with the preset's share of
ALL the eligible voters (bot/league/rulevotes.py). Nothing is applied by the vote itself: a passed vote
offers the commissioners an Apply button that changes the setting through /setup rule's own service.

Who may vote is fixed when the vote starts: the division's coaches and captains (a coach is a team's
captain here, bot/services/staff/nominations.py) and the commissioner who starts it. Other commissioners
join when they first press, their role checked then: without Discord's privileged member list the bot
can't name a role's holders in advance. A vote is final: a second press of the same answer, or of the
other one, changes nothing (youth 1.23 counts each voter once).

Restart safety: the closing is an outbox action due at ``closes_at``; the state moves from open to closed
by one conditional UPDATE, whoever gets there first (the last voter's press or the deadline), and the
outcome is one outbox message with a key of its own, so it is announced once.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.access import Caller, Role
from bot.clock import Clock
from bot.config.settings import Settings
from bot.discord_text import clip, quote, timestamp
from bot.errors import Conflict, InvalidInput, NotAllowed, NotFound
from bot.league.offsets import parse_offset
from bot.league.rules import Rules
from bot.league.rulevotes import Tally
from bot.league.setup.rule_settings import current_value, rule_settings, show_value
from bot.services import outbox
from bot.services.outbox import ActionOutcome, ActionRow, Outgoing
from bot.services.setup.league_setup import Actor, LeagueSetupService
from storage import lookups
from storage.db import retried_on_disconnect, rowcount, upsert_insert
from storage.models import Division, RuleVote, RuleVoteVoter, Team, TeamCaptain

log = logging.getLogger("sideline.rulevotes")

CLOSE_KIND = "rulevote_close"
BUTTON_PREFIX = "sideline:rulevote:"
YES, NO, APPLY = "yes", "no", "apply"
RECENT = 10  # closed votes /rulevote list shows after the open ones


def vote_button_id(answer: str, vote_id: int) -> str:
    return f"{BUTTON_PREFIX}{answer}:{vote_id}"


def apply_button_id(vote_id: int) -> str:
    return f"{BUTTON_PREFIX}{APPLY}:{vote_id}"


def setting_label(key: str) -> str:
    """A rule setting in plain words with its name in brackets, as /setup's answers show it."""
    return f"{key.replace('_', ' ').capitalize()} ({key})"


def cited(rules: Rules) -> str:
    return rules.rulevotes.rulevote_citations.threshold or "a league setting"


@dataclass(frozen=True)
class Started:
    id: int
    label: str
    meaning: str
    current: str
    proposed: str
    division: str  # "" for the whole league
    eligible: int
    threshold_percent: int
    needed: int
    closes_at: datetime
    citation: str


@dataclass(frozen=True)
class Cast:
    """What a press did: "recorded", "already" (the voter answered before: ``answer`` is that answer),
    "closed" (the vote had ended; ``outcome`` says how) or "closing" (past its deadline, not yet counted)."""

    vote_id: int
    status: str
    answer: str | None
    tally: Tally
    outcome: str | None = None  # "passed" | "failed" once closed (this press may have closed it)


@dataclass(frozen=True)
class Applied:
    vote_id: int
    label: str
    old: str
    new: str
    already: bool  # applied by an earlier press: nothing changed now


@dataclass(frozen=True)
class Listed:
    id: int
    label: str
    proposed: str
    division: str
    state: str
    outcome: str | None
    tally: Tally
    closes_at: datetime
    applied: bool


@retried_on_disconnect
class RuleVoteService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock, settings: Settings,
                 setup: LeagueSetupService) -> None:
        self.sessions = sessions
        self.clock = clock
        self.settings = settings
        self.setup = setup

    # --- /rulevote start -----------------------------------------------------------------------------
    async def start(self, caller: Caller, key: str, proposal: str, division: str | None,
                    channel_id: int) -> Started:
        """Open a vote, refusing a proposal /setup rule would refuse; who may vote is fixed now."""
        caller.require(Role.COMMISSIONER)
        league, key = caller.league, key.strip()
        proposed = show_value(self.setup.proposed_rule(league, key, proposal))
        current = show_value(current_value(league.rules, key))
        label = setting_label(key)
        if proposed == current:
            raise InvalidInput(f"{label} is already {quote(current)}: there is nothing to vote on.")
        rules = league.rules.rulevotes
        period = parse_offset(rules.rulevote_period)
        now = self.clock.now()
        closes = now + timedelta(days=period.days) + period.elapsed
        async with self.sessions.begin() as session:
            found = await self._division(session, caller, division)
            name = found.name if found else ""
            clash = await session.scalar(select(RuleVote).where(
                RuleVote.league_id == caller.league_id, RuleVote.state == "open", RuleVote.setting_key == key,
                RuleVote.division == name))
            if clash is not None:
                raise Conflict(f"Vote #{clash.id} on {label} is already open until {timestamp(clash.closes_at)}; "
                               "let it finish first.")
            captains = select(TeamCaptain.discord_id).join(Team, Team.id == TeamCaptain.team_id).where(
                TeamCaptain.league_id == caller.league_id, Team.league_id == caller.league_id)
            if found is not None:
                captains = captains.where(Team.division_id == found.id)
            voters = {int(d): "captain" for d in (await session.scalars(captains)).all()}
            voters[caller.discord_id] = "commissioner"
            vote = RuleVote(league_id=caller.league_id, division=name, setting_key=key, proposed_value=proposed[:200],
                            proposal_text=proposal.strip()[:200], current_value=current[:200],
                            threshold_percent=rules.rulevote_threshold_percent, channel_id=channel_id,
                            opened_by=caller.discord_id, opened_at=now, closes_at=closes)
            session.add(vote)
            await session.flush()
            session.add_all([RuleVoteVoter(league_id=caller.league_id, vote_id=vote.id, discord_id=d, kind=kind)
                             for d, kind in sorted(voters.items())])
            await outbox.enqueue(session, league_id=caller.league_id, guild_id=league.guild_id,
                                 key=_close_key(vote.id), due_at=closes, kind=CLOSE_KIND,
                                 args={"vote_id": vote.id}, action=True)
            vote_id = vote.id
        tally = Tally(0, 0, len(voters), rules.rulevote_threshold_percent)
        meaning = next((s.meaning for s in rule_settings(league.rules) if s.key == key), "")
        log.info("rule vote #%s opened on %s", vote_id, key)
        return Started(vote_id, label, meaning, current, proposed, name, len(voters),
                       rules.rulevote_threshold_percent, tally.needed, closes, cited(league.rules))

    @staticmethod
    async def _division(session: AsyncSession, caller: Caller, division: str | None) -> Division | None:
        if division is None or not division.strip():
            return None
        found = await lookups.division_by_name(session, caller.league_id, division.strip())
        if found is None:
            names = (await session.scalars(select(Division.name).where(Division.league_id == caller.league_id)
                                           .order_by(Division.name))).all()
            known = f"; its divisions: {', '.join(names)}" if names else "; it has none, so leave division empty"
            raise InvalidInput(f"{caller.league.name} has no division “{quote(division, 50)}”{known}.")
        return found

    # --- a press on Yes or No -------------------------------------------------------------------------
    async def vote(self, caller: Caller, vote_id: int, answer: str) -> Cast:
        if answer not in (YES, NO):
            raise InvalidInput("Answer yes or no.")
        now = self.clock.now()
        async with self.sessions.begin() as session:
            # Presses on one vote take turns (PostgreSQL; SQLite's writers already do), so the last voter's
            # count sees every earlier answer and closes the vote.
            vote = await self._vote(session, caller, vote_id, lock=True)
            if vote.state != "open":
                return Cast(vote.id, "closed", None, _stored_tally(vote), vote.outcome)
            if now >= vote.closes_at:  # past its deadline: the closing action counts and announces it
                return Cast(vote.id, "closing", None, await _tally(session, vote))
            mine = RuleVoteVoter.vote_id == vote.id, RuleVoteVoter.discord_id == caller.discord_id
            known = await session.scalar(select(RuleVoteVoter.id).where(*mine))
            if known is None:
                if not caller.is_commissioner:
                    whom = "the coaches and captains" + (f" of {vote.division}" if vote.division else "")
                    raise NotAllowed(f"Only {caller.league.name}'s commissioners and {whom} when the vote started "
                                     f"vote on this rule change ({cited(caller.league.rules)}). Thanks for your "
                                     "interest!")
                await session.execute(upsert_insert(session)(RuleVoteVoter).values(
                    league_id=caller.league_id, vote_id=vote.id, discord_id=caller.discord_id, kind="commissioner")
                    .on_conflict_do_nothing(index_elements=["vote_id", "discord_id"]))
            taken = await session.execute(update(RuleVoteVoter).where(*mine, RuleVoteVoter.answer.is_(None))
                                          .values(answer=answer, answered_at=now))
            tally = await _tally(session, vote)
            if not rowcount(taken):
                before = await session.scalar(select(RuleVoteVoter.answer).where(*mine))
                return Cast(vote.id, "already", before, tally)
            outcome = None
            if tally.everyone_voted:
                outcome = await self._close(session, vote.id, caller.league_id, caller.league.guild_id, now)
            return Cast(vote.id, "recorded", answer, tally, outcome)

    # --- closing --------------------------------------------------------------------------------------
    async def close_due(self, api: object, row: ActionRow) -> ActionOutcome:
        """The outbox action due at a vote's deadline: it closes with the votes it has."""
        async with self.sessions.begin() as session:
            outcome = await self._close(session, int(row.args["vote_id"]), row.league_id, row.guild_id,
                                        self.clock.now())
        return ActionOutcome("skipped", f"closed: {outcome}" if outcome else "closed already")

    async def _close(self, session: AsyncSession, vote_id: int, league_id: int, guild_id: int,
                     now: datetime) -> str | None:
        """Close an open vote and queue its announcement; None when it was closed already (by the last
        voter or the deadline: whichever moved the state first announces)."""
        vote = await session.scalar(select(RuleVote).where(RuleVote.id == vote_id, RuleVote.league_id == league_id))
        if vote is None or vote.state != "open":
            return None
        tally = await _tally(session, vote)
        outcome = "passed" if tally.passes else "failed"
        moved = await session.execute(update(RuleVote).where(
            RuleVote.id == vote_id, RuleVote.league_id == league_id, RuleVote.state == "open").values(
            state="closed", outcome=outcome, closed_at=now, yes_votes=tally.yes, no_votes=tally.no,
            eligible_voters=tally.eligible))
        if not rowcount(moved):
            return None
        buttons = ((f"Apply the change (vote #{vote_id})", apply_button_id(vote_id)),) if tally.passes else ()
        await outbox.enqueue(session, league_id=league_id, guild_id=guild_id, key=f"rulevote:{vote_id}:outcome",
                             due_at=now, channel_id=vote.channel_id,
                             message=Outgoing(content=outcome_text(vote, tally, self._citation(guild_id)),
                                              buttons=buttons))
        await outbox.cancel_pending(session, league_id, _close_key(vote_id))
        log.info("rule vote #%s closed: %s", vote_id, outcome)
        return outcome

    def _citation(self, guild_id: int) -> str:
        league = self.settings.league_for_guild(guild_id)
        return cited(league.rules) if league is not None else "a league setting"

    # --- Apply ----------------------------------------------------------------------------------------
    async def apply(self, caller: Caller, vote_id: int) -> Applied:
        """A commissioner applies a passed vote's change through /setup rule's service, once."""
        caller.require(Role.COMMISSIONER)
        async with self.sessions() as session:
            vote = await self._vote(session, caller, vote_id)
        label = setting_label(vote.setting_key)
        if vote.state == "open":
            raise Conflict(f"Vote #{vote.id} is still open until {timestamp(vote.closes_at)}; nothing to apply yet.")
        if vote.outcome != "passed":
            raise Conflict(f"Vote #{vote.id} didn't pass ({cited(caller.league.rules)}), so {label} stays as it is.")
        if vote.applied_at is not None:
            return Applied(vote.id, label, vote.current_value, vote.proposed_value, already=True)
        changed = await self.setup.set_rule(caller.league.guild_id, Actor(caller.discord_id, caller.role_ids,
                                                                          caller.manages_server),
                                            vote.setting_key, vote.proposal_text, reset=False)
        async with self.sessions.begin() as session:
            await session.execute(update(RuleVote).where(
                RuleVote.id == vote.id, RuleVote.league_id == caller.league_id, RuleVote.applied_at.is_(None))
                .values(applied_by=caller.discord_id, applied_at=self.clock.now()))
        old, new = vote.current_value, vote.proposed_value
        if changed.changes:
            _, before, after = changed.changes[0]
            old = before if before is not None else old
            new = after if after is not None else new
        return Applied(vote.id, label, old, new, already=False)

    # --- /rulevote list -------------------------------------------------------------------------------
    async def listing(self, caller: Caller) -> list[Listed]:
        """Open votes, then the latest closed ones."""
        async with self.sessions() as session:
            opened = (await session.scalars(select(RuleVote).where(
                RuleVote.league_id == caller.league_id, RuleVote.state == "open").order_by(RuleVote.closes_at))).all()
            closed = (await session.scalars(select(RuleVote).where(
                RuleVote.league_id == caller.league_id, RuleVote.state == "closed")
                .order_by(RuleVote.id.desc()).limit(RECENT))).all()
            out = []
            for vote in [*opened, *closed]:
                tally = await _tally(session, vote) if vote.state == "open" else _stored_tally(vote)
                out.append(Listed(vote.id, setting_label(vote.setting_key), vote.proposed_value, vote.division,
                                  vote.state, vote.outcome, tally, vote.closes_at, vote.applied_at is not None))
        return out

    @staticmethod
    async def _vote(session: AsyncSession, caller: Caller, vote_id: int, *, lock: bool = False) -> RuleVote:
        query = select(RuleVote).where(RuleVote.id == vote_id, RuleVote.league_id == caller.league_id)
        vote = await session.scalar(query.with_for_update() if lock else query)
        if vote is None:
            raise NotFound("That rule-change vote isn't one of this league's.")
        return vote


def _close_key(vote_id: int) -> str:
    return f"rulevote:{vote_id}:close"


async def _tally(session: AsyncSession, vote: RuleVote) -> Tally:
    rows = (await session.execute(select(RuleVoteVoter.answer, func.count()).where(
        RuleVoteVoter.vote_id == vote.id, RuleVoteVoter.league_id == vote.league_id)
        .group_by(RuleVoteVoter.answer))).all()
    counts: dict[Any, int] = {answer: int(n) for answer, n in rows}
    return Tally(counts.get(YES, 0), counts.get(NO, 0), sum(counts.values()), vote.threshold_percent)


def _stored_tally(vote: RuleVote) -> Tally:
    return Tally(vote.yes_votes, vote.no_votes, vote.eligible_voters, vote.threshold_percent)


def outcome_text(vote: RuleVote, tally: Tally, citation: str) -> str:
    """The public announcement: the counts against everyone eligible, the threshold and its rule."""
    where = f" ({vote.division})" if vote.division else ""
    change = f"{setting_label(vote.setting_key)}: {quote(vote.current_value)} → {quote(vote.proposed_value)}{where}"
    silent = tally.eligible - tally.yes - tally.no
    counts = (f"Yes {tally.yes}, No {tally.no}" + (f", no answer {silent}" if silent else "")
              + f" of {tally.eligible} eligible voters; {tally.needed} Yes ({vote.threshold_percent}% of the eligible "
              f"voters, not of the votes cast: {citation}) were needed")
    if tally.passes:
        text = (f"🗳️ Rule-change vote #{vote.id} PASSED. {change}. {counts}. Nothing changes until a commissioner "
                "applies it with the button below.")
    else:
        text = f"🗳️ Rule-change vote #{vote.id} did not pass. {change}. {counts}. The rule stays as it is."
    return clip(text, 2000)
