"""/tellcaptain: a player's private note to their team's captains, stored and sent by DM.

Choices the spec leaves open, decided here:
- The note goes to every captain of the player's roster team except the player; a captain's own
  note goes to their co-captains. Notes are stored (who, team, when, what, how it was delivered).
- A DM the captain refuses falls back, once per note, to a private thread in the team's channel
  with that captain added (``NoteService.dm_refused``, the outbox's failure hook for notes). When
  the team has no channel or the thread can't be made, the player is told by DM that the captain
  couldn't be reached.
- At most ``NOTES_PER_DAY`` notes per player in 24 hours, so the feature can't be used to flood.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.access import Caller
from bot.clock import Clock
from bot.discord_text import blank, clean_user_text, clip
from bot.errors import Conflict, InvalidInput, NotFound
from bot.league.messages import TEXT_LIMIT
from bot.services import outbox
from bot.services.messages.relays import quoted
from bot.services.outbox import Outgoing, Rendered, Threads
from bot.services.people import membership
from storage import lookups
from storage.db import once_more_if_disconnected
from storage.models import CaptainNote, League, OutboxMessage

log = logging.getLogger("sideline.notes")

NOTE_KIND = "captain_note"
NOTES_PER_DAY = 10
_DM_KEY = re.compile(r"note:(?P<note>\d+):dm:(?P<captain>\d+)")


def dm_key(note_id: int, captain_id: int) -> str:
    return f"note:{note_id}:dm:{captain_id}"


def parse_dm_key(send_key: str) -> tuple[int, int] | None:
    """(note id, captain id) of a note's DM row; None for any other row."""
    match = _DM_KEY.fullmatch(send_key)
    return (int(match["note"]), int(match["captain"])) if match else None


@dataclass(frozen=True)
class NoteSent:
    note_id: int
    team: str
    captain_ids: tuple[int, ...]


@dataclass(frozen=True)
class FallbackPlan:
    """What is known when a captain refused a note's DM: where a private thread can go."""

    note_id: int
    league_id: int
    guild_id: int
    team: str
    sender_id: int
    sender_name: str
    channel_id: int | None  # the team's channel; None: no thread possible
    thread_id: int | None  # a thread already made for this note


def note_text(note: CaptainNote) -> str:
    return clip(f"📨 **Private note** from **{note.sender_name}** (<@{note.sender_id}>) of {note.team.name}:\n"
                f"{quoted(note.message)}\nOnly the team's captains get this. Reply to them directly.", 2000)


async def render_note(session: AsyncSession, row: OutboxMessage, now: datetime) -> Rendered:
    """A note's DM to one captain, read from the stored note."""
    note = await session.get(CaptainNote, int(row.args.get("note_id", 0)))
    if note is None or note.league_id != row.league_id:
        return None
    return Outgoing(content=note_text(note))


class NoteService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock) -> None:
        self.sessions = sessions
        self.clock = clock

    @once_more_if_disconnected
    async def tell_captain(self, caller: Caller, message: str) -> NoteSent:
        """Store the note and queue a DM to each of the team's captains."""
        text = clean_user_text(message, TEXT_LIMIT)
        if blank(text):
            raise InvalidInput("Write the note for your captain.")
        now = self.clock.now()
        async with self.sessions.begin() as session:
            member = await membership(session, caller)
            if member.team_id is None:
                raise NotFound("You're not on a team in this league, so there's no captain to tell.")
            team = await lookups.team_by_id(session, caller.league_id, member.team_id)
            assert team is not None
            all_captains = await lookups.captain_ids(session, team.id)
            captains = tuple(c for c in all_captains if c != caller.discord_id)
            if not captains:
                if caller.discord_id in all_captains:
                    raise Conflict(f"You're {team.name}'s only captain, so there's nobody else to tell.")
                raise NotFound(f"{team.name} has no captain on record yet. Ask a commissioner to set one.")
            recent = await session.scalar(select(func.count()).select_from(CaptainNote).where(
                CaptainNote.league_id == caller.league_id, CaptainNote.sender_id == caller.discord_id,
                CaptainNote.created_at > now - timedelta(days=1))) or 0
            if recent >= NOTES_PER_DAY:
                raise Conflict(f"You've sent {NOTES_PER_DAY} notes in the last 24 hours; that's the limit. "
                               "Please try again tomorrow.")
            note = CaptainNote(league_id=caller.league_id, team_id=team.id, sender_id=caller.discord_id,
                               sender_name=clean_user_text(caller.display_name, 100) or "a player", message=text,
                               created_at=now, status="sent")
            session.add(note)
            await session.flush()
            for captain in captains:
                await outbox.enqueue(session, league_id=caller.league_id, guild_id=caller.league.guild_id,
                                     key=dm_key(note.id, captain), due_at=now, kind=NOTE_KIND,
                                     args={"note_id": note.id}, user_id=captain)
            return NoteSent(note.id, team.name, captains)

    async def dm_refused(self, threads: Threads, row: Any, error: str) -> None:
        """A captain refused the note's DM: put it in a private thread for them, else tell the player.
        Not run again whole on a lost connection (a second thread would open): its two units of work are."""
        parsed = parse_dm_key(row.send_key)
        if parsed is None:
            return
        note_id, captain_id = parsed
        plan = await self.fallback_plan(row.league_id, note_id)
        if plan is None:
            return
        thread_id = plan.thread_id
        if thread_id is None and plan.channel_id is not None:
            thread_id = await threads.start_private_thread(
                plan.channel_id, name=clip(f"Private note for the {plan.team} captains", 100),
                reason="a /tellcaptain note the captain couldn't get by DM")
        # No explicit "add member" call: the note in the thread mentions the captain (and only pings
        # them), and a mention is how Discord adds someone to a private thread.
        outcome = await self.record_fallback(plan, captain_id, thread_id)
        log.info("note %s: DM to %s refused (%s); %s", note_id, captain_id, error, outcome)

    @once_more_if_disconnected
    async def fallback_plan(self, league_id: int, note_id: int) -> FallbackPlan | None:
        async with self.sessions() as session:
            note = await session.get(CaptainNote, note_id)
            if note is None or note.league_id != league_id:
                return None
            guild_id = await session.scalar(select(League.guild_id).where(League.id == league_id))
            assert guild_id is not None
            return FallbackPlan(note.id, league_id, guild_id, note.team.name, note.sender_id, note.sender_name,
                                note.team.channel_id, note.fallback_thread_id)

    @once_more_if_disconnected
    async def record_fallback(self, plan: FallbackPlan, captain_id: int, thread_id: int | None) -> str:
        """Post the note in the private thread for the captain, or tell the player it couldn't reach them."""
        now = self.clock.now()
        async with self.sessions.begin() as session:
            note = await session.get(CaptainNote, plan.note_id)
            assert note is not None
            if thread_id is not None:
                note.fallback_thread_id = thread_id
                note.status = "thread" if note.status != "undeliverable" else note.status
                text = clip(f"<@{captain_id}>: your DMs are closed to the bot, so this note is here, in a "
                            "private thread for you (server moderators can see private threads too).\n"
                            f"{note_text(note)}", 2000)
                await outbox.enqueue(session, league_id=plan.league_id, guild_id=plan.guild_id,
                                     key=f"note:{note.id}:thread:{captain_id}", due_at=now, channel_id=thread_id,
                                     message=Outgoing(content=text, ping_user_ids=(captain_id,)))
                return "thread"
            note.status = "undeliverable"
            why = ("your team has no channel for a private thread" if plan.channel_id is None
                   else "a private thread in your team's channel couldn't be made")
            text = (f"📭 Your note to your captain <@{captain_id}> ({plan.team}) couldn't be delivered: they "
                    f"don't accept DMs from the bot, and {why}. Please reach them another way.\n"
                    f"{quoted(clip(note.message, 300))}")
            await outbox.enqueue(session, league_id=plan.league_id, guild_id=plan.guild_id,
                                 key=f"note:{note.id}:undeliverable:{captain_id}", due_at=now,
                                 user_id=plan.sender_id, message=Outgoing(content=clip(text, 2000)))
            return "undeliverable"
