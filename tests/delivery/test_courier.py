"""The outbox and its courier: queued sends go out once, survive restarts and Discord faults."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from datetime import timedelta

import pytest
from sqlalchemy import func, select

from bot.clock import FixedClock
from bot.delivery.courier import LEASE, STUCK_AFTER
from bot.delivery.pace import BATCH, Pace, Pacer
from bot.run.app import create_bot
from bot.services import outbox
from bot.services.outbox import Outgoing
from storage.db import create_engine
from storage.models import OutboxMessage
from tests.conftest import CHANNELS, GUILD, OTHER_CHANNELS, OTHER_GUILD, OTHER_ROLES, league_config, make_settings
from tests.harness import Call, Fault, Harness
from tests.harness.rate_limits import RateLimits

TEAM_CHANNEL = 600_000_000_000_000_001


async def queue(h: Harness, key: str, *, channel: int | None = TEAM_CHANNEL, user: int | None = None,
                delay: timedelta = timedelta(0), expires: timedelta | None = None,
                message: Outgoing | None = None) -> bool:
    now = h.bot.clock.now()
    async with h.bot.sessions.begin() as s:
        queued = await outbox.enqueue(
            s, league_id=h.bot.league_ids[GUILD], guild_id=GUILD, key=key, due_at=now + delay,
            message=message or Outgoing(content=f"hello {key}"), channel_id=None if user else channel,
            user_id=user, expires_at=now + expires if expires else None)
    return queued.created


async def statuses(h: Harness) -> dict[str, str]:
    async with h.bot.sessions() as s:
        rows = await s.execute(select(OutboxMessage.send_key, OutboxMessage.status))
        return dict(rows.all())


async def test_a_send_key_is_queued_and_sent_once(harness: Harness) -> None:
    assert await queue(harness, "k1")
    assert not await queue(harness, "k1")  # same key: nothing new
    await harness.bot.courier.deliver_due()
    await harness.bot.courier.deliver_due()
    sent = harness.discord.channel_messages(TEAM_CHANNEL)
    assert [c.content for c in sent] == ["hello k1"]
    assert (await statuses(harness))["k1"] == "sent"


async def test_only_the_named_users_can_be_pinged(harness: Harness) -> None:
    await queue(harness, "ping", message=Outgoing(content="@everyone <@&1001> <@42> game soon", ping_user_ids=(42,)))
    await harness.bot.courier.deliver_due()
    (call,) = harness.discord.channel_messages(TEAM_CHANNEL)
    assert call.allowed_mentions == {"parse": [], "users": [42]}


async def test_future_sends_wait_for_their_time(harness: Harness) -> None:
    await queue(harness, "later", delay=timedelta(hours=2))
    await harness.bot.courier.deliver_due()
    assert harness.discord.channel_messages() == []
    harness.bot.clock.advance(hours=2)  # type: ignore[attr-defined]
    await harness.bot.courier.deliver_due()
    assert len(harness.discord.channel_messages(TEAM_CHANNEL)) == 1


async def test_a_deleted_channel_fails_and_the_admins_are_told_once(harness: Harness) -> None:
    harness.discord.missing_channels.add(TEAM_CHANNEL)
    for key in ("a", "b", "c"):
        await queue(harness, key)
    stats = await harness.bot.courier.deliver_due()
    assert stats.failed == 3 and stats.retried == 0
    notices = harness.discord.channel_messages(CHANNELS["announcements"])
    assert len(notices) == 1 and f"<#{TEAM_CHANNEL}>" in notices[0].content
    assert (await statuses(harness))["a"] == "failed"
    attempts = [c for c in harness.discord.calls if c.channel_id == TEAM_CHANNEL]
    assert len(attempts) == 3  # one try each: no retry storm


async def test_a_forbidden_channel_is_reported_not_retried(harness: Harness) -> None:
    harness.discord.forbidden_channels.add(TEAM_CHANNEL)
    await queue(harness, "f")
    stats = await harness.bot.courier.deliver_due()
    assert stats.failed == 1
    assert len(harness.discord.channel_messages(CHANNELS["announcements"])) == 1


async def test_server_errors_are_retried_later_and_not_lost(harness: Harness) -> None:
    harness.discord.faults.append(Fault("POST", rf"^/channels/{TEAM_CHANNEL}/messages$", 503, times=2))
    await queue(harness, "s")
    stats = await harness.bot.courier.deliver_due()
    assert stats.retried == 1 and harness.discord.channel_messages(TEAM_CHANNEL) == []
    stats = await harness.bot.courier.deliver_due()
    assert stats.retried == 0, "not before its backoff"
    for _ in range(2):
        harness.bot.clock.advance(minutes=5)  # type: ignore[attr-defined]
        await harness.bot.courier.deliver_due()
    assert len(harness.discord.channel_messages(TEAM_CHANNEL)) == 1
    assert (await statuses(harness))["s"] == "sent"


async def test_a_500_is_retried_by_discord_py_then_sent_once(harness: Harness) -> None:
    harness.discord.faults.append(Fault("POST", rf"^/channels/{TEAM_CHANNEL}/messages$", 500, times=1))
    await queue(harness, "s500")
    stats = await harness.bot.courier.deliver_due()
    assert stats.sent == 1 and len(harness.discord.channel_messages(TEAM_CHANNEL)) == 1


async def test_rate_limits_are_waited_out(harness: Harness) -> None:
    harness.discord.faults.append(Fault("POST", rf"^/channels/{TEAM_CHANNEL}/messages$", 429, times=1,
                                        body={"message": "slow down", "retry_after": 0.01, "global": False}))
    await queue(harness, "r")
    await harness.bot.courier.deliver_due()
    assert len(harness.discord.channel_messages(TEAM_CHANNEL)) == 1


async def test_a_closed_dm_is_counted_never_a_crash(harness: Harness) -> None:
    harness.discord.closed_dms.add(77)
    await queue(harness, "dm-closed", user=77)
    await queue(harness, "dm-open", user=78)
    stats = await harness.bot.courier.deliver_due()
    assert (stats.failed, stats.sent) == (1, 1)
    assert len(harness.discord.dms(78)) == 1 and harness.discord.dms(77) == []


async def test_a_send_past_its_usefulness_is_skipped(harness: Harness) -> None:
    await queue(harness, "stale", expires=timedelta(minutes=10))
    harness.bot.clock.advance(hours=1)  # type: ignore[attr-defined]
    stats = await harness.bot.courier.deliver_due()
    assert stats.skipped == 1 and harness.discord.channel_messages() == []


async def test_a_crash_between_send_and_record_does_not_double_send(harness: Harness) -> None:
    await queue(harness, "crash")
    courier = harness.bot.courier
    real_finish = courier._finish

    async def crash(row_id: int, **values: object) -> None:
        raise RuntimeError("killed after Discord accepted the message")  # before the row is marked sent

    courier._finish = crash  # type: ignore[method-assign]
    with contextlib.suppress(RuntimeError):
        await courier.deliver_due()
    courier._finish = real_finish  # type: ignore[method-assign]
    assert (await statuses(harness))["crash"] == "sending"
    harness.bot.clock.advance(seconds=STUCK_AFTER.total_seconds() + 1)  # type: ignore[attr-defined]
    assert await courier.recover() == 1
    await courier.deliver_due()
    assert len(harness.discord.channel_messages(TEAM_CHANNEL)) == 1  # Discord's nonce check
    assert (await statuses(harness))["crash"] == "sent"


class ProcessKilled(BaseException):
    """Stands for the process dying: not an Exception, so no handler in the bot swallows it."""


async def test_restarts_at_random_points_send_every_message_exactly_once(
        harness: Harness, db_url: str, clock: FixedClock) -> None:
    for i in range(500):
        await queue(harness, f"bulk-{i}", delay=timedelta(seconds=i % 7))
    fake = harness.discord
    harness.bot.clock.advance(minutes=1)  # type: ignore[attr-defined]
    rng = random.Random(4)
    posts = 0
    kill_at = 0

    def kill_after_discord_accepts(call: object) -> None:
        # the worst moment: Discord has the message, the database does not know yet
        nonlocal posts
        posts += 1
        if posts == kill_at:
            raise ProcessKilled

    fake.hooks.append(kill_after_discord_accepts)
    bot = harness.bot
    for _round in range(6):
        kill_at = posts + rng.randint(1, 120)
        with contextlib.suppress(ProcessKilled):
            await bot.courier.deliver_due()
        await bot.engine.dispose()
        if not db_url.startswith("sqlite"):  # SQLite is one process: a restart takes back at once
            clock.advance(seconds=LEASE.total_seconds() + 1)  # elsewhere a dead process's lease lapses first
        # a new process on the same database and the same Discord
        bot = create_bot(bot.settings, engine=create_engine(db_url), clock=clock, run_scheduler=False)
        restarted = Harness(bot)
        restarted.discord = fake
        await restarted.start()
        await bot.courier.recover()
    fake.hooks.clear()
    await bot.courier.deliver_due()
    contents = [c.content for c in fake.channel_messages(TEAM_CHANNEL)]
    assert len(contents) == 500 and len(set(contents)) == 500
    assert sum(c.duplicate for c in fake.calls) >= 5, "each kill left a message Discord had to deduplicate"
    async with bot.sessions() as s:
        assert await s.scalar(select(func.count()).select_from(OutboxMessage)
                              .where(OutboxMessage.status != "sent")) == 0
    await bot.close()


async def test_a_live_claim_is_never_taken_and_a_dead_ones_lapses(
        harness: Harness, db_url: str, clock: FixedClock) -> None:
    """Two processes drain one outbox: neither sends what the other holds while it lives; what a
    process held when it died goes out once its short lease runs out."""
    for i in range(3 * BATCH):
        await queue(harness, f"shared-{i}")
    first = harness.bot.courier
    await first.announce_presence()  # as it does before it claims anything
    held = {row.send_key for row in await first._claim(BATCH)}  # then it hangs
    other = create_bot(harness.bot.settings, engine=create_engine(db_url), clock=clock, run_scheduler=False)
    second = Harness(other)
    second.discord = harness.discord
    await second.start()
    try:
        def sent() -> set[str]:
            return {c.content.removeprefix("hello ") for c in harness.discord.channel_messages(TEAM_CHANNEL)}

        clock.advance(seconds=LEASE.total_seconds() * 2 / 3)
        await other.courier.deliver_due()
        assert len(sent()) == 2 * BATCH and not sent() & held, "the live claims were left alone"
        assert await first.renew_claims() == BATCH  # still alive: its claims hold for another lease
        clock.advance(seconds=LEASE.total_seconds() * 2 / 3)
        await other.courier.deliver_due()
        assert not sent() & held
        clock.advance(seconds=LEASE.total_seconds() / 2)  # no renewal came: the first process is gone
        await other.courier.deliver_due()
        assert sent() == {f"shared-{i}" for i in range(3 * BATCH)}
        assert len(harness.discord.channel_messages(TEAM_CHANNEL)) == 3 * BATCH
        # the first process was only stalled: its late outcome must not overwrite what the other did
        await first._finish((await _ids(harness, held))[0], status="failed", last_error="too late")
        assert set((await statuses(harness)).values()) == {"sent"}
    finally:
        await second.close()


async def _ids(h: Harness, keys: set[str]) -> list[int]:
    async with h.bot.sessions() as s:
        return list((await s.scalars(select(OutboxMessage.id).where(OutboxMessage.send_key.in_(keys)))).all())


async def test_paced_at_discords_limits_every_message_goes_once_and_no_global_429(harness: Harness) -> None:
    """Discord's limits scaled down tenfold (100 requests/s, 5 messages per 0.5 s a channel): the
    courier's pace keeps it under the global one, discord.py waits out each channel's by the headers,
    and a channel whose budget another process spent answers a 429 that is waited out and retried."""
    limits = harness.limit_rates(RateLimits(global_limit=10, global_window=0.1, channel_window=0.5),
                                 Pace(rate=90.0, claim=30, lanes=8, window=0.1))
    channels = [TEAM_CHANNEL + i for i in range(6)]
    for i in range(48):
        await queue(harness, f"paced-{i}", channel=channels[i % len(channels)])
    spent = False

    def another_process_spends_the_channel(call: Call) -> None:
        # right after the courier's first message there, its budget is gone: discord.py still counts 4
        nonlocal spent
        if call.channel_id == channels[0] and call.status == 200 and not spent:
            spent = True
            limits.spend(channels[0])

    harness.discord.hooks.append(another_process_spends_the_channel)
    stats = await harness.bot.courier.deliver_due()
    assert (stats.sent, stats.retried, stats.failed) == (48, 0, 0)
    sent = [c.content for c in harness.discord.channel_messages()]
    assert sorted(sent) == sorted(f"hello paced-{i}" for i in range(48))
    assert limits.global_429s == 0
    assert limits.route_429s >= 1, "the spent channel answered 429 and the send was retried"
    assert set((await statuses(harness)).values()) == {"sent"}
    for channel in channels:  # each channel in the order its messages were queued
        keys = [int(c.content.rsplit("-", 1)[1]) for c in harness.discord.channel_messages(channel)]
        assert keys == sorted(keys)


async def test_a_kill_among_paced_lanes_loses_and_doubles_nothing(harness: Harness, db_url: str,
                                                                  clock: FixedClock) -> None:
    harness.limit_rates(RateLimits(global_limit=20, global_window=0.1, channel_window=0.1),
                        Pace(rate=150.0, claim=40, lanes=8, window=0.1))
    for i in range(60):
        await queue(harness, f"lane-{i}", channel=TEAM_CHANNEL + i % 5)
    posts = 0

    def kill_after_discord_accepts(call: object) -> None:
        nonlocal posts
        posts += 1
        if posts == 17:
            raise ProcessKilled

    harness.discord.hooks.append(kill_after_discord_accepts)
    with contextlib.suppress(ProcessKilled):
        await harness.bot.courier.deliver_due()
    harness.discord.hooks.clear()
    await harness.bot.engine.dispose()
    if not db_url.startswith("sqlite"):
        clock.advance(seconds=LEASE.total_seconds() + 1)
    bot = create_bot(harness.bot.settings, engine=create_engine(db_url), clock=clock, run_scheduler=False)
    restarted = Harness(bot)
    restarted.discord = harness.discord
    restarted.limit_rates(harness.discord.rate_limits, Pace(rate=150.0, claim=40, lanes=8, window=0.1))
    await restarted.start()
    try:
        await bot.courier.recover()
        await bot.courier.deliver_due()
        contents = [c.content for c in harness.discord.channel_messages()]
        assert sorted(contents) == sorted(f"hello lane-{i}" for i in range(60))
        assert sum(c.duplicate for c in harness.discord.calls) >= 1, "the killed send was deduplicated"
        async with bot.sessions() as s:
            assert await s.scalar(select(func.count()).select_from(OutboxMessage)
                                  .where(OutboxMessage.status != "sent")) == 0
    finally:
        await restarted.close()


async def test_the_pacer_never_gives_more_turns_than_a_window_allows_even_after_a_stall() -> None:
    pacer = Pacer(rate=100.0, window=0.05)  # 5 turns in any 50 ms
    loop = asyncio.get_running_loop()
    times: list[float] = []

    async def take(i: int) -> None:
        await pacer.turn()
        times.append(loop.time())
        if i == 3:
            time.sleep(0.03)  # noqa: ASYNC251 - the event loop stalls: the turns due meanwhile must not bunch

    await asyncio.gather(*(take(i) for i in range(20)))
    times.sort()
    assert all(later - earlier >= 0.05 - 1e-6 for earlier, later in zip(times, times[5:], strict=False))
    assert times[-1] - times[0] < 0.5, "and it does give them: about 5 per 50 ms"


async def test_a_paced_claim_takes_each_channels_first_rows_first_and_a_batch_of_one_at_most(
        harness: Harness) -> None:
    for channel in range(3):  # queued channel by channel: ten for the first, then ten for the next...
        for i in range(10):
            await queue(harness, f"c{channel}-{i}", channel=TEAM_CHANNEL + channel)
    harness.bot.courier.pace = Pace()
    claimed = await harness.bot.courier._claim(9, spread=True)
    assert sorted(row.send_key for row in claimed) == sorted(f"c{c}-{i}" for c in range(3) for i in range(3))
    for i in range(3 * BATCH):  # and a long queue for one channel: a claim takes BATCH of it at most
        await queue(harness, f"busy-{i}", channel=TEAM_CHANNEL + 5)
    busy = await harness.bot.courier._claim(100, spread=True)
    assert sum(row.channel_id == TEAM_CHANNEL + 5 for row in busy) == BATCH
    assert len(busy) == BATCH + 21, "and everything of the other channels"
    unspread = await harness.bot.courier._claim(9)
    assert [row.send_key for row in unspread] == [f"busy-{i}" for i in range(BATCH, BATCH + 9)], \
        "the plain claim: oldest first"


@pytest.mark.parametrize("spread", [False, True], ids=["unpaced", "paced"])
async def test_a_big_leagues_backlog_does_not_hold_up_a_small_leagues_one_row(
        db_url: str, clock: FixedClock, spread: bool) -> None:
    settings = make_settings(league_config("big"), league_config("small", OTHER_GUILD, roles=OTHER_ROLES,
                                                                  channels=OTHER_CHANNELS))
    h = await Harness(create_bot(settings, engine=create_engine(db_url), clock=clock, run_scheduler=False)).start()
    try:
        now = clock.now()
        async with h.bot.sessions.begin() as s, outbox.batched(s):
            for i in range(500):  # the big league's rows are all due before the small league's one
                await outbox.enqueue(s, league_id=h.bot.league_ids[GUILD], guild_id=GUILD, key=f"big-{i}",
                                     due_at=now - timedelta(minutes=10), message=Outgoing(content=f"big {i}"),
                                     channel_id=TEAM_CHANNEL + i % 50)
            await outbox.enqueue(s, league_id=h.bot.league_ids[OTHER_GUILD], guild_id=OTHER_GUILD, key="small",
                                 due_at=now, message=Outgoing(content="small"), channel_id=TEAM_CHANNEL + 99)
        first = await h.bot.courier._claim(40, spread=spread)  # a batch: 40 of the 501 rows
        assert "small" in [row.send_key for row in first], "the small league's row is in the first batch"
        assert sum(row.league_id == h.bot.league_ids[GUILD] for row in first) == 39, "and the big one goes on"
    finally:
        await h.close()


async def test_a_graceful_stop_among_paced_lanes_hands_the_rest_back(harness: Harness) -> None:
    harness.limit_rates(RateLimits(global_limit=20, global_window=0.1, channel_window=0.1),
                        Pace(rate=150.0, claim=40, lanes=8, window=0.1))
    for i in range(40):
        await queue(harness, f"stop-{i}", channel=TEAM_CHANNEL + i % 4)
    courier = harness.bot.courier
    harness.discord.hooks.append(lambda call: courier.stop() if len(harness.discord.channel_messages()) == 6
                                 else None)
    stats = await courier.deliver_due()
    left = await statuses(harness)
    assert "sending" not in left.values(), "nothing is left claimed"
    assert stats.sent == list(left.values()).count("sent") == len(harness.discord.channel_messages()) < 40
    courier.stopping = False  # the next process
    await courier.deliver_due()
    assert set((await statuses(harness)).values()) == {"sent"}
    assert len(harness.discord.channel_messages()) == 40
