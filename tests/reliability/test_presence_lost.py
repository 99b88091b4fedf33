"""PostgreSQL: a process's presence connection is terminated mid-wave (``pg_terminate_backend``).

Before, neither process noticed: the other took back the first one's claims while it kept sending
them, and each counted one process, so both sent at the whole rate (seen: 842 messages for 800
reminders at 80 to 92 requests/s). Now the process whose presence is lost stops sending at once,
takes a fresh presence lock on a new connection under a new claimer id, and only then claims
again; what it held is taken back once. Two bots in this process (each its own engine, courier and
presence lock) drain one outbox against one fake Discord with Discord's rate limits on.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from collections import Counter
from typing import Any

import asyncpg
import pytest
from sqlalchemy import func, select, text
from sqlalchemy.engine import make_url

from bot.services import outbox
from bot.services.outbox import Outgoing
from storage.models import OutboxMessage
from tests.client.test_shards import NOW, start
from tests.conftest import GUILD, make_settings
from tests.harness import Call, Harness
from tests.harness.rate_limits import RateLimits

REMINDERS = 480
CHANNELS = 120
FIRST_CHANNEL = 10**15
SEND_RATE = 48.0  # [bot] send_rate: each of two processes sends at 24/s
KILL_AFTER = 120  # sends before the first process's presence connection is terminated
LIMIT_S = 90.0  # the wave's own time limit (the sends take about 10 s); never an assertion


async def queue(bot: Any) -> None:
    async with bot.sessions.begin() as session, outbox.batched(session):
        for i in range(REMINDERS):
            await outbox.enqueue(session, league_id=bot.league_ids[GUILD], guild_id=GUILD, key=f"wave:{i}",
                                 due_at=NOW, message=Outgoing(content=f"Reminder {i}"),
                                 channel_id=FIRST_CHANNEL + i % CHANNELS)


async def unsent(bot: Any) -> int:
    async with bot.sessions() as session:
        return int(await session.scalar(select(func.count()).select_from(OutboxMessage)
                                        .where(OutboxMessage.status.in_(("pending", "sending")))) or 0)


async def drain(bot: Any) -> None:
    deadline = time.monotonic() + LIMIT_S
    while time.monotonic() < deadline:
        stats = await bot.courier.deliver_due()
        if stats.sent + stats.retried + stats.failed + stats.skipped == 0:
            if not await unsent(bot):
                return
            await asyncio.sleep(0.2)


async def terminate(url: str, pid: int) -> None:
    u = make_url(url)
    conn = await asyncpg.connect(host=u.host, port=u.port or 5432, user=u.username, password=u.password,
                                 database=u.database)
    try:
        assert await conn.fetchval("SELECT pg_terminate_backend($1)", pid)
    finally:
        await conn.close()


async def presence_pid(h: Harness) -> int:
    presence = h.bot.courier.claims.presence
    assert presence is not None
    return int(await presence.scalar(text("SELECT pg_backend_pid()")))


def busiest_second(times: list[float]) -> int:
    """The most requests in any one second (a sliding window over when they were made)."""
    times.sort()
    most, first = 0, 0
    for last, at in enumerate(times):
        while at - times[first] >= 1.0:
            first += 1
        most = max(most, last - first + 1)
    return most


async def test_a_lost_presence_connection_mid_wave_sends_every_reminder_once_within_the_rate(
        pg_url: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="sideline.courier")
    settings = dataclasses.replace(make_settings(url=pg_url), send_rate=SEND_RATE)
    a = await start(settings, pg_url)
    b = await start(settings, pg_url, discord=a)
    fake = a.discord
    try:
        fake.validates = False  # Discord's schema check is test tooling, not what is measured
        limits = RateLimits()  # Discord's, at full size, in real time
        for h in (a, b):
            h.limit_rates(limits)
            await h.bot.courier.announce_presence()
        await queue(a.bot)
        first_pid, first_claimer = await presence_pid(a), a.bot.courier.claimer
        fake.clear()
        requests: list[float] = []
        killed = asyncio.Event()
        kills: list[asyncio.Task[None]] = []

        def watch(call: Call) -> None:
            if not call.channel_id:
                return
            requests.append(time.monotonic())
            if len(requests) == KILL_AFTER and not killed.is_set():
                killed.set()
                kills.append(asyncio.get_running_loop().create_task(terminate(pg_url, first_pid)))

        fake.hooks.append(watch)
        await asyncio.gather(drain(a.bot), drain(b.bot))
        await asyncio.gather(*kills)

        assert killed.is_set()
        created = Counter(c.content for c in fake.channel_messages())
        assert len(created) == REMINDERS and set(created.values()) == {1}, "every reminder created once"
        assert await unsent(a.bot) == 0
        assert limits.global_429s == 0, "the two stayed within Discord's global limit together"
        noticed = [r.getMessage() for r in caplog.records if "presence" in r.getMessage()]
        assert any(m.startswith("lost the connection holding") for m in noticed), noticed
        assert any(m.startswith("took a fresh presence lock") for m in noticed), noticed
        assert a.bot.courier.claimer != first_claimer, "claims again under a new claimer id"
        assert await presence_pid(a) != first_pid, "a fresh presence lock, on a new connection"
        assert await a.bot.courier.claims.live_processes() == 2
        wall = max(requests) - min(requests)
        print(f"\n{REMINDERS} reminders, presence killed after {KILL_AFTER} sends: {len(requests)} requests "
              f"in {wall:.1f} s ({len(requests) / wall:.1f}/s, send_rate {SEND_RATE:.0f} shared by 2), "
              f"{sum(c.duplicate for c in fake.calls)} deduplicated by nonce, busiest second "
              f"{busiest_second(requests)} requests, global 429s {limits.global_429s}, per process "
              f"{[h.bot.courier.totals.sent for h in (a, b)]}")
    finally:
        await b.close()
        await a.close()


async def test_one_process_that_lost_its_presence_renews_nothing_and_sends_its_old_claims_once(
        pg_url: str) -> None:
    """Alone: the claims it held under the old id are its own no more; it takes them back, as a stopped
    process's, under its new id, and each goes out once."""
    h = await start(make_settings(url=pg_url), pg_url)
    try:
        courier = h.bot.courier
        async with h.bot.sessions.begin() as session:
            for i in range(5):
                await outbox.enqueue(session, league_id=h.bot.league_ids[GUILD], guild_id=GUILD, key=f"k{i}",
                                     due_at=NOW, message=Outgoing(content=f"m{i}"), channel_id=FIRST_CHANNEL)
        await courier.announce_presence()
        old = courier.claimer
        assert len(await courier._claim(5)) == 5
        await terminate(pg_url, await presence_pid(h))

        assert not await courier.claims.presence_held()
        assert await courier.renew_claims() == 0, "claims that may be another's are not kept alive"
        stats = await courier.deliver_due()

        assert stats.sent == 5 and courier.claimer != old
        assert sorted(c.content for c in h.discord.channel_messages()) == [f"m{i}" for i in range(5)]
        assert await unsent(h.bot) == 0
    finally:
        await h.close()
