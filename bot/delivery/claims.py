"""The courier's claims on queued rows, apart from what it does with them.

Each process's courier has its own id. A claim names it and holds for a short lease, renewed while
the courier works, and a courier claims only what it can send well within one lease. A claim whose
lease ran out belongs to no live process and is taken back by any courier. A stopped process's
claims are taken back at once, without waiting for the lease: on SQLite, one process by design,
everything a previous process held; on PostgreSQL, where several processes may share the outbox,
the claims of every process that no longer holds its presence lock (a session advisory lock each
courier takes on a connection of its own, which PostgreSQL releases when the process dies).
Resending a row is harmless: the nonce makes Discord answer with the first message.

A lost presence connection (the server restarted, the backend was terminated) releases the lock
while the process runs on. The process checks its presence connection every
``PRESENCE_CHECK_EVERY`` while it sends; once it fails, it sends nothing more under that claimer id
(another process may take those claims back at any moment), and before it claims again it takes a
fresh presence lock on a new connection under a new claimer id. What it held under the old id is
taken back once, by whichever process's UPDATE gets there first.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from sqlalchemy import ColumnElement, Select, func, literal, or_, select, text, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, AsyncSession, async_sessionmaker

from bot.clock import Clock
from bot.delivery.pace import BATCH
from storage.db import rowcount
from storage.models import OutboxMessage

log = logging.getLogger("sideline.courier")

LEASE = timedelta(seconds=30)  # a claim not renewed for this long is taken back (same nonce)
STUCK_AFTER = LEASE  # the name older tests know it by
RENEW_EVERY = LEASE / 3
PRESENCE_CHECK_EVERY = 1.0  # seconds between checks, while sending, that the presence lock is still held
PRESENCE_CHECK_TIMEOUT = 5.0  # a check not answered within this many seconds counts as a lost connection


#: Presence locks are advisory locks in a key space of their own (PostgreSQL's two-key form), so
#: the processes of the bot running on a database can be counted (``live_processes``).
PRESENCE_SPACE = 0x53444C4E  # "SDLN"
PRESENCE_LOCK = text("SELECT pg_advisory_lock(:space, :key)")
TRY_PRESENCE_LOCK = text("SELECT pg_try_advisory_xact_lock(:space, :key)")
#: Two-key advisory locks show in pg_locks as classid (the space), objid (the key) and objsubid 2.
LIVE_PROCESSES = text("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted "
                      "AND classid = :space AND objsubid = 2 "
                      "AND database = (SELECT oid FROM pg_database WHERE datname = current_database())")


def presence_key(claimer: str) -> int:
    """A process's presence lock: a PostgreSQL advisory lock key (32-bit signed, in ``PRESENCE_SPACE``)
    from its claimer id."""
    return int.from_bytes(hashlib.blake2b(claimer.encode(), digest_size=4).digest(), "big", signed=True)


def _presence(claimer: str) -> dict[str, int]:
    return {"space": PRESENCE_SPACE, "key": presence_key(claimer)}


class ClaimsHost(Protocol):
    """What claims need of the bot: the database and the clock."""

    engine: AsyncEngine
    sessions: async_sessionmaker[AsyncSession]
    clock: Clock


@dataclass(frozen=True)
class Claimed:
    id: int
    league_id: int
    guild_id: int
    send_key: str
    kind: str
    channel_id: int | None
    user_id: int | None
    expires_at: datetime | None
    attempts: int


class PresenceLost(Exception):
    """This process's presence lock went with its connection: its claims may be another's by now."""


class Claims:
    """This process's claims on the outbox: take, renew, hand back, and take back a stopped process's."""

    def __init__(self, bot: ClaimsHost) -> None:
        self.bot = bot
        self.claimer = uuid.uuid4().hex  # this process: its claims are its own until their lease runs out
        self.presence: AsyncConnection | None = None  # PostgreSQL: holds this process's presence lock
        self.lost = False  # the presence connection failed: send nothing more under this claimer id
        self._presence_in_use = asyncio.Lock()  # one statement at a time on the presence connection

    async def recover(self) -> int:
        """At start: take back what no live process holds, so a quick restart strands nothing.

        On SQLite the bot is one process, so whatever another courier claimed was claimed by a
        process that is gone; on PostgreSQL, what lapsed leases and stopped processes held.
        """
        return await self.take_back(everyone_else=self.bot.engine.dialect.name == "sqlite")

    async def announce_presence(self) -> None:
        """PostgreSQL: hold this process's presence lock for as long as it runs, before it claims
        anything, so other processes can tell its claims from a stopped one's."""
        if self.presence is not None or self.bot.engine.dialect.name != "postgresql":
            return
        connection = await self.bot.engine.connect()
        await connection.execute(PRESENCE_LOCK, _presence(self.claimer))
        await connection.commit()  # a session lock: it outlives the transaction, not the connection
        self.presence = connection

    async def live_processes(self) -> int:
        """How many processes of the bot run on this database now, this one included: on PostgreSQL
        those holding a presence lock (for an instant, a stopped one whose claims another process is
        taking back counts too); on SQLite one, by design."""
        if self.bot.engine.dialect.name != "postgresql":
            return 1
        async with self.bot.sessions() as session:
            return max(1, int(await session.scalar(LIVE_PROCESSES, {"space": PRESENCE_SPACE}) or 0))

    async def close(self) -> None:
        """Give up the presence lock: the connection is closed, not handed back to the pool, where
        it would keep the lock and this process would seem to run on (and count) after it stopped."""
        presence, self.presence = self.presence, None
        if presence is not None:
            with contextlib.suppress(Exception):  # already lost: nothing to give up
                await presence.invalidate()
            with contextlib.suppress(Exception):
                await presence.close()

    async def presence_held(self) -> bool:
        """Whether this process still holds its presence lock: on PostgreSQL its connection answers (a
        session lock lasts as long as its session). A failed check marks the presence lost."""
        if self.lost:
            return False
        if self.bot.engine.dialect.name != "postgresql" or self.presence is None:
            return True  # SQLite: one process by design; none taken yet: announce_presence takes it
        try:
            async with self._presence_in_use, asyncio.timeout(PRESENCE_CHECK_TIMEOUT):
                await self._ping(self.presence)
        except Exception:
            self.lost = True
            log.warning("lost the connection holding this process's presence lock: sending nothing more "
                        "under claimer %s until a fresh lock is taken", self.claimer, exc_info=True)
            return False
        return True

    @staticmethod
    async def _ping(connection: AsyncConnection) -> None:
        await connection.execute(text("SELECT 1"))
        await connection.commit()  # idle, not idle in a transaction

    async def keep_presence(self) -> bool:
        """Before claiming: hold a presence lock. After one was lost, take a fresh one on a new
        connection under a new claimer id (what the old id held is taken back once, as a stopped
        process's); returns True then, so the caller counts the processes again."""
        if not await self.presence_held():
            await self.close()
            old, self.claimer = self.claimer, uuid.uuid4().hex
            await self.announce_presence()
            self.lost = False
            log.warning("took a fresh presence lock: claiming again as %s (was %s)", self.claimer, old)
            return True
        await self.announce_presence()
        return False

    async def _watch_presence(self) -> None:
        while not self.lost:
            await asyncio.sleep(PRESENCE_CHECK_EVERY)
            await self.presence_held()

    async def take_back(self, *, everyone_else: bool = False) -> int:
        now = self.bot.clock.now()
        held = (OutboxMessage.status == "sending",)
        not_mine = or_(OutboxMessage.claimed_by.is_(None), OutboxMessage.claimed_by != self.claimer)
        lapsed = or_(OutboxMessage.lease_until.is_(None), OutboxMessage.lease_until <= now)
        async with self.bot.sessions() as session:  # a read first: most rounds find nothing to take
            if await session.scalar(select(OutboxMessage.id).where(*held, or_(not_mine, lapsed)).limit(1)) is None:
                return 0
        async with self.bot.sessions.begin() as session:
            gone: ColumnElement[bool] = lapsed
            if everyone_else:
                gone = or_(gone, not_mine)
            elif session.get_bind().dialect.name == "postgresql":
                stopped = await self._stopped_claimers(session, held)
                if stopped:
                    gone = or_(gone, OutboxMessage.claimed_by.in_(stopped))
            result = await session.execute(update(OutboxMessage).where(*held, gone)
                                           .values(status="pending", claimed_by=None, lease_until=None))
            taken = rowcount(result) or 0
        if taken:
            log.info("took back %d sends claimed by a process that stopped; sending them again (same nonce)", taken)
        return taken

    async def _stopped_claimers(self, session: AsyncSession, held: tuple[ColumnElement[bool], ...]) -> list[str]:
        """The other processes holding claims whose presence lock is free: they have stopped. The lock
        is taken for this transaction only, so a process can't come back to its claims meanwhile."""
        claimers = (await session.scalars(select(OutboxMessage.claimed_by).distinct().where(
            *held, OutboxMessage.claimed_by.is_not(None), OutboxMessage.claimed_by != self.claimer))).all()
        return [c for c in claimers if c and await session.scalar(TRY_PRESENCE_LOCK, _presence(c))]

    async def release(self, rows: list[Claimed], why: str = "stopping") -> None:
        """Hand back claimed rows this process did not try to send: pending again, attempt not counted."""
        async with self.bot.sessions.begin() as session:
            await session.execute(
                update(OutboxMessage)
                .where(OutboxMessage.id.in_([r.id for r in rows]), OutboxMessage.status == "sending",
                       OutboxMessage.claimed_by == self.claimer)
                .values(status="pending", claimed_by=None, lease_until=None, attempts=OutboxMessage.attempts - 1))
        log.info("%s: handed %d claimed send(s) back to the queue", why, len(rows))

    @contextlib.asynccontextmanager
    async def leases_kept(self) -> AsyncIterator[None]:
        """Renew this process's claims while it works, however long Discord makes a send wait."""
        keeper = asyncio.create_task(self._renew_leases(), name="sideline-bg-courier-leases")
        watcher = asyncio.create_task(self._watch_presence(), name="sideline-bg-courier-presence")
        try:
            yield
        finally:
            for task in (keeper, watcher):
                task.cancel()
            for task in (keeper, watcher):
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    async def _renew_leases(self) -> None:
        while True:
            await asyncio.sleep(RENEW_EVERY.total_seconds())
            try:
                await self.renew_claims()
            except Exception:  # the next renewal may work; a lapsed claim is only resent (same nonce)
                log.warning("could not renew the courier's claims", exc_info=True)

    async def renew_claims(self) -> int:
        """Extend the lease on every row this process holds: it is alive and still working on them
        (not once its presence is lost: those claims may be another process's by now)."""
        if not await self.presence_held():
            return 0
        async with self.bot.sessions.begin() as session:
            result = await session.execute(
                update(OutboxMessage)
                .where(OutboxMessage.claimed_by == self.claimer, OutboxMessage.status == "sending")
                .values(lease_until=self.bot.clock.now() + LEASE))
            return rowcount(result) or 0

    async def claim(self, limit: int, *, send_key: str | None = None, spread: bool = False) -> list[Claimed]:
        """Claim up to ``limit`` pending rows, leagues taking turns: each league's longest due row
        before any league's second, so one league's thousands of rows don't hold the others' up.
        ``spread``: within a league, each channel's (or DM's) first before any channel's second, and
        no more than ``BATCH`` of one channel (which go out in about 10 s at Discord's 5 per 5 s)."""
        now = self.bot.clock.now()
        async with self.bot.sessions.begin() as session:
            postgres = session.get_bind().dialect.name == "postgresql"
            due = (OutboxMessage.status == "pending", OutboxMessage.next_attempt_at <= now)
            rows: list[OutboxMessage] = []
            if send_key is None:
                rows = list((await session.scalars(self._in_turns(due, limit, spread=spread, lock=postgres))).all())
            if not rows:  # one row by its key; or another process locked the ranked ones first (SKIP LOCKED)
                which = due if send_key is None else (OutboxMessage.status == "pending",
                                                      OutboxMessage.send_key == send_key)
                query = select(OutboxMessage).where(*which)
                query = query.order_by(OutboxMessage.next_attempt_at, OutboxMessage.id).limit(
                    min(limit, BATCH) if spread else limit)
                if postgres:
                    query = query.with_for_update(skip_locked=True)
                rows = list((await session.scalars(query)).all())
            for row in rows:
                row.status, row.claimed_at, row.attempts = "sending", now, row.attempts + 1
                row.claimed_by, row.lease_until = self.claimer, now + LEASE
            return [Claimed(r.id, r.league_id, r.guild_id, r.send_key, r.kind, r.channel_id, r.user_id,
                            r.expires_at, r.attempts) for r in rows]

    @staticmethod
    def _in_turns(due: tuple[ColumnElement[bool], ...], limit: int, *, spread: bool,
                  lock: bool) -> Select[OutboxMessage]:
        """The due rows ranked within their league (``spread``: by their rank within their channel
        first, then by due time), lowest rank first: the leagues take turns. A window function on
        SQLite and PostgreSQL alike; PostgreSQL skips rows another process is claiming."""
        order = (OutboxMessage.next_attempt_at, OutboxMessage.id)
        in_channel = (func.row_number().over(partition_by=(OutboxMessage.channel_id, OutboxMessage.user_id),
                                             order_by=order) if spread else literal(1))
        rows = select(OutboxMessage.id, OutboxMessage.league_id, OutboxMessage.next_attempt_at,
                      in_channel.label("in_channel")).where(*due).subquery()
        turn = func.row_number().over(partition_by=rows.c.league_id,
                                      order_by=(rows.c.in_channel, rows.c.next_attempt_at, rows.c.id)).label("turn")
        ranked = select(rows.c.id, rows.c.next_attempt_at, turn).where(rows.c.in_channel <= BATCH).subquery()
        chosen = select(ranked.c.id).order_by(ranked.c.turn, ranked.c.next_attempt_at, ranked.c.id).limit(limit)
        query = (select(OutboxMessage).where(OutboxMessage.id.in_(chosen), OutboxMessage.status == "pending")
                 .order_by(OutboxMessage.next_attempt_at, OutboxMessage.id))
        return query.with_for_update(skip_locked=True) if lock else query

    def mine(self, row_id: int) -> tuple[ColumnElement[bool], ...]:
        """The row, while this process's claim on it holds: never overwrite another process's outcome."""
        return (OutboxMessage.id == row_id, OutboxMessage.status == "sending",
                OutboxMessage.claimed_by == self.claimer)

