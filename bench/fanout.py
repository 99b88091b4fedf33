"""Fan-out at Discord's real limits: N reminders to C channels, all due at once,
through the real courier against the fake Discord with Discord's rate limits on (50 requests/s for
the bot, 5 messages per 5 s per channel; tests/harness/rate_limits.py), in this process.

Prints what was delivered, the wall time and the rate achieved against the 50/s global limit (goal
≥ 90%), duplicates and lost messages (goal 0 each), and the 429s received, global and per channel
(goal: no global 429). The couriers pace themselves as ``sideline run``'s do: ``[bot] send_rate``
(``--rate``) shared out among the live processes, counted by their presence locks (bot/delivery/courier.py).
``--processes 2`` (PostgreSQL): two bots in this process, each with its own engine, courier, presence
lock and discord.py client, drain the same outbox against the same Discord (one bot token: they
share the global limit, so each counts two processes and paces at half the rate). The run stops
itself after ``--limit`` seconds and counts what is still unsent as lost.

    .venv/bin/python -m bench.fanout [--reminders 2000] [--channels 200] [--pg URL] [--processes 2]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

from bench.idle import league
from bench.league_data import NOW
from bench.machine import describe, fresh_database, reproduce

GLOBAL_LIMIT = 50
FIRST_CHANNEL = 10**15


@dataclass
class Result:
    delivered: int
    duplicates: int
    deduplicated: int  # resends Discord answered with the first message (the nonce): no second message
    lost: int
    wall: float
    global_429s: int
    route_429s: int
    per_process: list[int]




async def start_bots(url: str, processes: int, rate: float) -> list[Any]:
    from bot.clock import FixedClock
    from bot.config.settings import parse_settings
    from bot.run.app import create_bot
    from storage.db import create_engine
    from tests.harness import Harness
    from tests.harness.rate_limits import RateLimits

    settings = parse_settings({"bot": {"database_url": url, "send_rate": rate},
                               "leagues": [league(1, "coed-ball-hockey")]})
    clock = FixedClock(NOW)
    limits = RateLimits()  # Discord's, at full size, in real time
    harnesses: list[Any] = []
    for _ in range(processes):
        bot = create_bot(settings, engine=create_engine(url), clock=clock, run_scheduler=False)
        harness = Harness(bot)
        if harnesses:
            harness.discord = harnesses[0].discord  # one Discord, one bot token: one global limit
        harness.discord.validates = False  # Discord's schema check is test tooling, not the bot's time
        harness.limit_rates(limits)  # no pace given: the courier's own, from [bot] send_rate
        await harness.start()  # one after the other: the first runs the migrations
        harnesses.append(harness)
    for harness in harnesses:  # every process present before any counts them (as running bots are)
        await harness.bot.courier.announce_presence()
    return harnesses


async def queue(bot: Any, reminders: int, channels: int) -> None:
    from bot.services import outbox
    from bot.services.outbox import Outgoing

    guild = bot.settings.leagues[0].guild_id
    order = list(range(reminders))
    random.Random(28).shuffle(order)  # neither channel by channel nor round robin
    async with bot.sessions.begin() as session, outbox.batched(session):
        for i in order:
            await outbox.enqueue(session, league_id=bot.league_ids[guild], guild_id=guild, key=f"fanout:{i}",
                                 due_at=NOW, message=Outgoing(content=f"Reminder {i}: game at 7 pm"),
                                 channel_id=FIRST_CHANNEL + i % channels)


async def unsent(bot: Any) -> int:
    from sqlalchemy import func, select

    from storage.models import OutboxMessage

    async with bot.sessions() as session:
        return int(await session.scalar(select(func.count()).select_from(OutboxMessage)
                                        .where(OutboxMessage.status.in_(("pending", "sending")))) or 0)


async def drain(bot: Any, limit: float) -> None:
    """One process's courier: rounds until nothing is left to send (another may hold the rest)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline and not bot.courier.stopping:
        stats = await bot.courier.deliver_due()
        if stats.sent + stats.retried + stats.failed + stats.skipped == 0:
            if not await unsent(bot):
                return
            await asyncio.sleep(0.2)


async def run(reminders: int, channels: int, pg: str | None, processes: int, rate: float, limit: float) -> Result:
    async with fresh_database(pg, "fanout") as url:
        harnesses = await start_bots(url, processes, rate)
        fake = harnesses[0].discord
        try:
            await queue(harnesses[0].bot, reminders, channels)
            fake.clear()
            times: list[float] = []
            fake.hooks.append(lambda call: times.append(time.monotonic())
                              if call.channel_id and call.status < 300 and not call.duplicate else None)
            started = time.monotonic()
            couriers = [asyncio.create_task(drain(h.bot, limit)) for h in harnesses]
            done, pending = await asyncio.wait(couriers, timeout=limit + 5)
            for h in harnesses:
                h.bot.courier.stop()  # the time limit: hand back what is claimed, stop
            if pending:
                await asyncio.wait(pending, timeout=30)
            for task in done:
                task.result()
            wall = (times[-1] - started) if times else time.monotonic() - started
            contents = Counter(c.content for c in fake.channel_messages())
            delivered = len(contents)
            return Result(delivered=delivered, duplicates=sum(n - 1 for n in contents.values()),
                          deduplicated=sum(c.duplicate for c in fake.calls), lost=reminders - delivered,
                          wall=wall, global_429s=fake.rate_limits.global_429s,
                          route_429s=fake.rate_limits.route_429s,
                          per_process=[h.bot.courier.totals.sent for h in harnesses])
        finally:
            for h in harnesses:
                await h.bot.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reminders", type=int, default=2000)
    parser.add_argument("--channels", type=int, default=200)
    parser.add_argument("--pg", metavar="URL", help="PostgreSQL (postgresql+asyncpg://...); a fresh database "
                        "is made in it and dropped after. SQLite (a temporary file) without it")
    parser.add_argument("--processes", type=int, default=1, help="couriers draining the same outbox "
                        "(two bots in this process); more than 1 needs --pg")
    parser.add_argument("--rate", type=float, default=48.0, help="[bot] send_rate: the bot's pace in "
                        "requests/s, shared by the processes (default 48, at most 50)")
    parser.add_argument("--limit", type=float, default=300.0, help="stop after this many seconds")
    args = parser.parse_args()
    if args.processes > 1 and not args.pg:
        parser.error("--processes > 1 needs --pg: on SQLite the bot is one process")
    result = asyncio.run(run(args.reminders, args.channels, args.pg, args.processes, args.rate, args.limit))
    achieved = result.delivered / result.wall if result.wall else 0.0
    print(f"bench.fanout: {args.reminders} reminders to {args.channels} channels, all due at once, "
          f"{'PostgreSQL' if args.pg else 'SQLite'}, {args.processes} process(es)")
    print(f"  delivered {result.delivered} in {result.wall:.1f} s: {achieved:.1f}/s = "
          f"{100 * achieved / GLOBAL_LIMIT:.0f}% of Discord's global {GLOBAL_LIMIT}/s (goal ≥ 90%)")
    print(f"  duplicates {result.duplicates} (goal 0), lost {result.lost} (goal 0); resends Discord "
          f"deduplicated by nonce: {result.deduplicated}")
    print(f"  429s: global {result.global_429s} (goal 0), per channel {result.route_429s}")
    if args.processes > 1:
        print(f"  sent by each process: {result.per_process}")
    print(describe())
    extra = [f"--reminders {args.reminders}", f"--channels {args.channels}"]
    extra += [f"--pg {args.pg}"] if args.pg else []
    extra += [f"--processes {args.processes}"] if args.processes > 1 else []
    print(reproduce("bench.fanout", *extra))


if __name__ == "__main__":
    main()
