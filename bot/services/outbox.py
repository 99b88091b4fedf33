"""Queue messages for the bot to send later, once, even across restarts.

Everything the bot posts outside an interaction reply (reminders, announcements, relays,
DMs) is a row here first: a send key per message and recipient makes queueing idempotent,
and the courier (bot/delivery/courier.py) claims due rows, sends them and records the outcome.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Protocol

from sqlalchemy import event, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session

from bot.discord_text import clip
from storage.db import rowcount, upsert_insert
from storage.models import OutboxMessage

MAX_BUTTONS = 25  # Discord: 5 rows of 5


@dataclass(frozen=True)
class Outgoing:
    """One message as it will be sent: text, embeds, optional buttons, who may be pinged.

    ``buttons`` are plain (label, custom_id) buttons; whoever owns the custom_id handles the click
    with a ``DynamicItem`` registered on the bot, so the buttons keep working after a restart.
    """

    content: str = ""
    embeds: tuple[Mapping[str, Any], ...] = ()
    checkin_game: str | None = None
    ping_user_ids: tuple[int, ...] = ()
    buttons: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        if len(self.buttons) > MAX_BUTTONS:
            raise ValueError(f"a message carries at most {MAX_BUTTONS} buttons")
        for label, custom_id in self.buttons:
            if not 1 <= len(label) <= 80 or not 1 <= len(custom_id) <= 100:
                raise ValueError(f"button {label!r} / {custom_id!r}: label 1-80 and custom_id 1-100 characters")


@dataclass(frozen=True)
class FanOut:
    """A message that becomes one row per recipient (e.g. DMs to players who haven't answered)."""

    children: tuple[tuple[str, int, Outgoing], ...]  # (key suffix, user id, message)


@dataclass
class Queued:
    key: str
    due_at: datetime
    created: bool


Rendered = Outgoing | FanOut | None
Renderer = Callable[[AsyncSession, OutboxMessage, datetime], Awaitable[Rendered]]

class Threads(Protocol):
    """What a failure hook may ask of Discord: the courier makes private threads."""

    async def start_private_thread(self, channel_id: int, *, name: str, reason: str) -> int | None:
        """The new thread's id, or None when Discord refused (logged)."""
        ...


#: (the courier, the claimed row, error text) -> a follow-up once a row of its kind fails for good
#: (refused, or out of retries), e.g. a private thread when a captain refuses a note's DM.
FailureHook = Callable[[Threads, Any, str], Awaitable[None]]


@dataclass(frozen=True)
class ActionRow:
    """A claimed row of an action kind: not a message but calls to Discord (an event, a role)."""

    league_id: int
    guild_id: int
    send_key: str
    args: Mapping[str, Any]
    attempts: int  # more than 1: an earlier attempt may have reached Discord before the process died
    claimed_by: str  # the courier (process) holding it


@dataclass(frozen=True)
class ActionOutcome:
    """What an action did: "sent" (Discord changed), "skipped" (nothing to do), "failed" (refused), or
    "later": another row about the same thing is being sent, so this one waits its turn (``LATER``)."""

    status: str
    note: str | None = None


LATER = timedelta(seconds=10)

class SentHook(Protocol):
    """(the unit of work that marks a message row sent, its send key, the new message's id) -> what the
    feature keeps of it, in that same unit of work (e.g. the team reminder message it will edit)."""

    def __call__(self, session: AsyncSession, *, send_key: str, message_id: int) -> Awaitable[None]: ...

#: (Discord's calls, the claimed row) -> its outcome; Discord's other errors raise, and the row is
#: retried with backoff as a message would be. The calls object is the courier's (bot/delivery/discord_actions.py).
Action = Callable[[Any, ActionRow], Awaitable[ActionOutcome]]


@dataclass(frozen=True)
class OutboxKinds:
    """What the courier does with each kind of queued message: how to render it at send time, and
    what follows when it fails for good. The composition root (bot/composition.py) names every kind;
    a row of a kind it doesn't name fails with a logged error instead of going out wrong."""

    renderers: Mapping[str, Renderer]
    failure_hooks: Mapping[str, FailureHook] = field(default_factory=dict)
    actions: Mapping[str, Action] = field(default_factory=dict)
    sent_hooks: Mapping[str, SentHook] = field(default_factory=dict)


def outgoing_args(message: Outgoing) -> dict[str, Any]:
    args: dict[str, Any] = {"content": message.content, "embeds": list(message.embeds),
                            "checkin_game": message.checkin_game,
                            "ping_user_ids": [str(u) for u in message.ping_user_ids]}
    if message.buttons:
        args["buttons"] = [list(b) for b in message.buttons]
    return args


TEXT_KIND = "text"


async def render_text(session: AsyncSession, row: OutboxMessage, now: datetime) -> Rendered:
    """A message whose text was fixed when it was queued."""
    a = row.args
    return Outgoing(content=a.get("content", ""), embeds=tuple(a.get("embeds") or ()),
                    checkin_game=a.get("checkin_game"),
                    ping_user_ids=tuple(int(u) for u in a.get("ping_user_ids") or ()),
                    buttons=tuple((str(label), str(custom_id)) for label, custom_id in a.get("buttons") or ()))


async def enqueue(session: AsyncSession, *, league_id: int, guild_id: int, key: str, due_at: datetime,
                  kind: str = TEXT_KIND, args: dict[str, Any] | None = None, message: Outgoing | None = None,
                  channel_id: int | None = None, user_id: int | None = None,
                  expires_at: datetime | None = None, action: bool = False) -> Queued:
    """Queue a send unless one with the same key exists; the key makes retries and restarts safe.
    ``action``: calls to Discord rather than a message (``OutboxKinds.actions``), to no channel or user."""
    if action and (channel_id is not None or user_id is not None):
        raise ValueError("an action is sent to no channel or user")
    if not action and (channel_id is None) == (user_id is None):
        raise ValueError("a queued message goes to exactly one channel or one user")
    if not kind:
        raise ValueError("a queued message needs a kind")
    values = dict(league_id=league_id, guild_id=guild_id, send_key=key[:200], kind=kind,
                  args=outgoing_args(message) if message else (args or {}), channel_id=channel_id,
                  user_id=user_id, due_at=due_at, expires_at=expires_at, status="pending", attempts=0,
                  next_attempt_at=due_at)
    batch = session.sync_session.info.get(_BATCH)
    if batch is not None:  # inside ``batched``: written with the others at its end
        batch.append(values)
        return Queued(key=key, due_at=due_at, created=True)
    result = await session.execute(upsert_insert(session)(OutboxMessage).values(**values).on_conflict_do_nothing(
        index_elements=["send_key"]))
    created = bool(rowcount(result))
    if created:
        session.sync_session.info.setdefault("outbox_due", []).append(due_at)
    return Queued(key=key, due_at=due_at, created=created)


async def tell(session: AsyncSession, *, league_id: int, guild_id: int, key: str, user_id: int, text: str,
               due_at: datetime) -> Queued:
    """A private DM of plain text to one member, sent once for its key (clipped to Discord's 2,000
    characters): what services say to the one person a decision concerns."""
    return await enqueue(session, league_id=league_id, guild_id=guild_id, key=key, due_at=due_at, user_id=user_id,
                         message=Outgoing(content=clip(text, 2000)))


async def by_key(session: AsyncSession, key: str) -> OutboxMessage | None:
    return await session.scalar(select(OutboxMessage).where(OutboxMessage.send_key == key[:200]))


_BATCH = "outbox_batch"
BATCH_ROWS = 250


@asynccontextmanager
async def batched(session: AsyncSession) -> AsyncIterator[None]:
    """Sends enqueued inside are written together at the end, ``BATCH_ROWS`` to a statement (an
    executemany), the event loop getting a turn between statements: a 20,000-game import queues
    200,000 reminders, and one INSERT each held the loop and the write lock for minutes. Each is
    reported created; a key already queued is still skipped."""
    batch: list[dict[str, Any]] = []
    session.sync_session.info[_BATCH] = batch
    try:
        yield
    finally:
        session.sync_session.info.pop(_BATCH, None)
    await enqueue_many(session, batch)


async def enqueue_many(session: AsyncSession, rows: Sequence[dict[str, Any]]) -> None:
    """Queue many sends (values as :func:`enqueue` builds them) in executemany batches."""
    # The table's own INSERT: one executemany a batch (the ORM's bulk path went row by row here).
    statement = upsert_insert(session)(OutboxMessage.__table__).on_conflict_do_nothing(index_elements=["send_key"])
    for start in range(0, len(rows), BATCH_ROWS):
        await session.execute(statement, list(rows[start:start + BATCH_ROWS]))
        await asyncio.sleep(0)  # the loop's turn: check-ins in the meantime
    if rows:
        session.sync_session.info.setdefault("outbox_due", []).append(min(r["due_at"] for r in rows))


async def cancel_pending(session: AsyncSession, league_id: int, key_prefix: str) -> int:
    result = await session.execute(
        update(OutboxMessage)
        .where(OutboxMessage.league_id == league_id, OutboxMessage.status == "pending",
               OutboxMessage.send_key.startswith(key_prefix, autoescape=True))
        .values(status="cancelled")
    )
    return rowcount(result) or 0


async def has_pending(session: AsyncSession, league_id: int, key_prefix: str) -> bool:
    """Whether a row with this key prefix waits to be sent: an action that reads the state it acts on
    when it runs needs no second row while one waits."""
    return await session.scalar(select(OutboxMessage.id).where(
        OutboxMessage.league_id == league_id, OutboxMessage.status == "pending",
        OutboxMessage.send_key.startswith(key_prefix, autoescape=True)).limit(1)) is not None


async def others_sending(session: AsyncSession, row: ActionRow, key_prefix: str) -> bool:
    """Whether another process holds a row with this key prefix right now: an action that must not
    race itself (two POSTs making two events) waits for it. This process sends its rows one by one."""
    return await session.scalar(select(OutboxMessage.id).where(
        OutboxMessage.league_id == row.league_id, OutboxMessage.status == "sending",
        OutboxMessage.send_key != row.send_key[:200], OutboxMessage.claimed_by != row.claimed_by,
        OutboxMessage.send_key.startswith(key_prefix, autoescape=True)).limit(1)) is not None


async def outcome_unknown(session: AsyncSession, row: ActionRow, key_prefix: str) -> bool:
    """Whether this row, or another with this key prefix, was tried before and its outcome never
    recorded (its process died, or Discord failed): what it did on Discord has to be looked up."""
    if row.attempts > 1:
        return True
    return await session.scalar(select(OutboxMessage.id).where(
        OutboxMessage.league_id == row.league_id, OutboxMessage.status.in_(("pending", "sending")),
        OutboxMessage.attempts > 0, OutboxMessage.send_key != row.send_key[:200],
        OutboxMessage.send_key.startswith(key_prefix, autoescape=True)).limit(1)) is not None


async def pending(session: AsyncSession, league_id: int, key_prefix: str) -> list[OutboxMessage]:
    return list((await session.scalars(
        select(OutboxMessage).where(OutboxMessage.league_id == league_id, OutboxMessage.status == "pending",
                                    OutboxMessage.send_key.startswith(key_prefix, autoescape=True))
        .order_by(OutboxMessage.due_at)
    )).all())


def move(session: AsyncSession, row: OutboxMessage, due_at: datetime, expires_at: datetime | None) -> None:
    """Re-time a pending row (a moved game moves its reminders)."""
    row.due_at = row.next_attempt_at = due_at
    row.expires_at = expires_at
    session.sync_session.info.setdefault("outbox_due", []).append(due_at)


# --- waking the courier after a commit -----------------------------------------------------------
_WAKERS: weakref.WeakKeyDictionary[Engine, Callable[[datetime], None]] = weakref.WeakKeyDictionary()


def on_new_work(engine: Engine, wake: Callable[[datetime], None]) -> None:
    """Call ``wake(earliest due)`` after any commit on ``engine`` that queued or moved a send."""
    _WAKERS[engine] = wake


@event.listens_for(Session, "after_commit")
def _after_commit(session: Session) -> None:
    dues = session.info.pop("outbox_due", None)
    if not dues:
        return
    bind = session.bind
    engine = getattr(bind, "engine", bind)
    wake = _WAKERS.get(engine) if isinstance(engine, Engine) else None
    if wake is not None:
        wake(min(dues))


@event.listens_for(Session, "after_rollback")
def _after_rollback(session: Session) -> None:
    session.info.pop("outbox_due", None)


@dataclass
class DeliveryStats:
    sent: int = 0
    retried: int = 0
    failed: int = 0
    skipped: int = 0
    errors: list[str] = field(default_factory=list)
