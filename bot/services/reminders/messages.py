"""Where each team's game reminder message is, and the edits that keep its counts true.

A team's channel gets one reminder message per game (bot/services/reminders/cards.py decides what it
says); this module keeps the record of it (``reminder_messages``) and queues its edits. An answer
queues an edit through the outbox (kind ``reminder_edit``, an action row the courier paces like any
other call), unless one is already queued: the edit reads the answers when it runs, so a burst of
check-ins becomes one PATCH. The queued flag is one atomic UPDATE, so two answers at once queue one.
"""

from __future__ import annotations

import hashlib
import uuid
from datetime import datetime, timedelta

from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession

from bot.services import outbox
from storage.db import upsert_insert
from storage.models import OutboxMessage, ReminderMessage

EDIT_KIND = "reminder_edit"
#: An edit waits this long after the answer that queued it, so answers given together share it.
EDIT_DELAY = timedelta(seconds=5)


def edit_prefix(game_id: int, team_id: int) -> str:
    return f"reminder-edit:{game_id}:{team_id}:"


def digest(text: str) -> str:
    """What a message shows, in 32 characters: an edit that would change nothing is not sent."""
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


async def reminder_message(session: AsyncSession, game_id: int, team_id: int) -> ReminderMessage | None:
    return await session.get(ReminderMessage, (game_id, team_id))


async def record_post(session: AsyncSession, row: OutboxMessage, *, game_id: int, team_id: int,
                      channel_id: int, text: str, now: datetime) -> None:
    """The outbox row ``row`` is about to post the team's reminder message in ``channel_id``: the
    record points at it (its Discord id comes with ``message_sent``), replacing one that is gone."""
    values = dict(game_id=game_id, team_id=team_id, league_id=row.league_id, guild_id=row.guild_id,
                  channel_id=channel_id, post_key=row.send_key, message_id=None, shown=digest(text),
                  edit_due_at=None, posted_at=now, edited_at=None)
    insert = upsert_insert(session)(ReminderMessage).values(**values)
    await session.execute(insert.on_conflict_do_update(
        index_elements=["game_id", "team_id"],
        set_={k: v for k, v in values.items() if k not in ("game_id", "team_id", "league_id")}))


async def message_sent(session: AsyncSession, *, send_key: str, message_id: int) -> None:
    """The courier's hook once a reminder row is sent: if it posted the team's reminder message,
    its Discord id is kept, in the same unit of work that marks the row sent."""
    await session.execute(update(ReminderMessage).where(ReminderMessage.post_key == send_key[:200])
                          .values(message_id=message_id))


async def queue_edit(session: AsyncSession, *, league_id: int, game_id: int, team_id: int, now: datetime,
                     expires_at: datetime) -> bool:
    """After an answer (or at a reminder time): edit the team's reminder message to show the answers
    as they are then, unless an edit is queued already or there is no message. True when queued."""
    due = now + EDIT_DELAY
    guild_id = await session.scalar(
        update(ReminderMessage)
        .where(ReminderMessage.game_id == game_id, ReminderMessage.team_id == team_id,
               ReminderMessage.league_id == league_id, ReminderMessage.message_id.is_not(None),
               ReminderMessage.edit_due_at.is_(None))
        .values(edit_due_at=due).returning(ReminderMessage.guild_id)
        .execution_options(synchronize_session=False))
    if guild_id is None:
        return False
    await outbox.enqueue(session, league_id=league_id, guild_id=guild_id,
                         key=f"{edit_prefix(game_id, team_id)}{uuid.uuid4().hex[:16]}", due_at=due,
                         kind=EDIT_KIND, args={"game_id": game_id, "team_id": team_id}, expires_at=expires_at,
                         action=True)
    return True
