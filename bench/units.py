"""What one unit of work costs, without Discord: the ceiling under every burst figure.

Run: python -m bench.units [--count 1000]   (SIDELINE_BENCH_PG_URL set: PostgreSQL too)

Against the benchmark league (bench/league_data.py), through the services the cogs call: check-ins
one after another and 50 at a time (each its own write unit), /whoisin's read one after another,
and the process's CPU per check-in. A check-in through the command tree costs this plus discord.py's
parsing and the answer. Prints figures only; never asserts a timing.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import time
from collections.abc import Awaitable, Callable
from typing import Any

from bench.league_data import build, player_id
from bench.machine import describe, fresh_database, reproduce


async def timed(count: int, step: Callable[[], Awaitable[Any]], at_once: int = 1) -> tuple[float, float]:
    """(units per second, CPU ms per unit) for ``count`` units, ``at_once`` in flight."""
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(0, count, at_once):
        await asyncio.gather(*[step() for _ in range(at_once)])
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return count / wall, cpu / count * 1000


async def bench(url: str, count: int) -> None:
    from sqlalchemy import text

    from bot.access import Caller

    select_1 = text("SELECT 1")

    harness, upcoming, team_index = await build(url, roster_limit=80)
    bot = harness.bot
    league = bot.settings.leagues[0]
    league_id = bot.league_ids[league.guild_id]
    rng = random.Random(1)

    def someone() -> tuple[Caller, str]:
        game = rng.choice(upcoming)
        member = player_id(team_index[game.home_team_id], rng.randrange(1, 19))
        return Caller(discord_id=member, display_name="P", league=league, league_id=league_id), game.code

    async def check_in() -> None:
        caller, code = someone()
        await bot.services.checkins.check_in(caller, rng.choice(["in", "out", "maybe"]), code)

    async def who_is_in() -> None:
        await bot.services.checkins.who_is_in(*someone())

    async def empty_unit() -> None:  # no statement: SQLAlchemy begins lazily, nothing reaches the driver
        async with bot.sessions.begin():
            pass

    async def select_one() -> None:  # BEGIN IMMEDIATE, one SELECT, COMMIT: the driver's round trips
        async with bot.sessions.begin() as session:
            await session.execute(select_1)

    try:
        await timed(100, check_in)  # warm up
        for label, step, at_once in (("write unit, no statement", empty_unit, 1),
                                     ("write unit, one SELECT 1", select_one, 1),
                                     ("check-in, one at a time", check_in, 1),
                                     ("check-in, 50 at once", check_in, 50),
                                     ("/whoisin read, one at a time", who_is_in, 1)):
            rate, cpu_ms = await timed(count, step, at_once)
            print(f"  {label:30s} {rate:7.0f}/s  {1000 / rate:6.2f} ms each  CPU {cpu_ms:5.2f} ms each")
    finally:
        await harness.close()


async def on(kind: str, count: int) -> None:
    async with fresh_database(None if kind == "sqlite" else os.environ["SIDELINE_BENCH_PG_URL"], "units") as url:
        await bench(url, count)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=1000)
    args = parser.parse_args()
    print("sqlite (CPU includes aiosqlite's thread):")
    asyncio.run(on("sqlite", args.count))
    if os.environ.get("SIDELINE_BENCH_PG_URL"):
        print("postgresql (CPU is the bot's process only; the server runs beside it):")
        asyncio.run(on("postgresql", args.count))
    print(describe())
    print(reproduce("bench.units", f"--count {args.count}"))


if __name__ == "__main__":
    main()
