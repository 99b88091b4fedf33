"""Many leagues on one bot: start-up, and a reminder wave that every league must get its share of.

1. Start: N leagues (``--leagues``, 1,000; each on its own server, configured as
   tests/reliability/service_child.py's ``many_leagues``) start, each start a fresh process logging in
   offline to the fake Discord (tests/harness): the first on an empty SQLite file (migrations, every
   league registered), then a restart on it. Wall time from ``create_bot`` to logged in with every
   server's GUILD_CREATE handled, and the RSS then. Goal: ≤ 10 s and ≤ 200 MB.
2. Wave: M reminders (``--messages``, 20,000) for the N leagues, all due at once, through the real
   courier against the fake Discord with Discord's rate limits on (50 requests/s for the bot, 5
   messages per 5 s per channel; tests/harness/rate_limits.py). A quarter of them belong to one big
   league (``--big-channels``, 200 channels), due a minute before the rest; the others are shared out
   evenly, three channels a league.
   Prints the rate against the 50/s global limit (goal ≥ 90%), 429s (goal: no global one), and how
   long after the wave began each league's first reminder went out (goal: the last league's
   within 60 s: the leagues take turns, bot/delivery/claims.py).

    .venv/bin/python -m bench.scale [--leagues 1000] [--messages 20000] [--limit 900]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import subprocess
import sys
import time
from datetime import timedelta
from typing import Any

from bench.fanout import drain
from bench.league_data import NOW
from bench.machine import describe, fresh_database, percentile, reproduce, rss_mb

GLOBAL_LIMIT = 50
GOAL_START_S, GOAL_START_MB, GOAL_RATE, GOAL_FIRST_S = 10.0, 200.0, 0.9, 60.0
GUILD = 300_000_000_000_000_000
FIRST_CHANNEL = 10**15
BIG_CHANNELS = 200  # the big league's channels (bench.fanout's 200: fewer bind it to Discord's 1/s per channel)
CHANNELS = 3  # each other league's


def league_guild(i: int) -> int:
    return GUILD + (i << 22)


def channel(league: int, k: int) -> int:
    return FIRST_CHANNEL + league * 100 + k


def settings_for(url: str, leagues: int) -> Any:
    from bot.config.settings import parse_settings

    return parse_settings({"bot": {"database_url": url, "send_rate": 48},
                           "leagues": [{"key": f"l{i}", "name": f"League {i}", "guild_id": league_guild(i),
                                        "preset": "coed-ball-hockey", "timezone": "America/Toronto",
                                        "reminders": {"game_offsets": ["2h"], "captain_alert_offsets": [],
                                                      "game_card_offsets": []}}
                                       for i in range(leagues)]})


async def start(url: str, leagues: int) -> tuple[Any, float]:
    """A started bot (offline login over the fake Discord) and the seconds its start took."""
    from bot.clock import FixedClock
    from bot.run.app import create_bot, freeze_startup_objects
    from tests.harness import Harness

    settings = settings_for(url, leagues)
    began = time.perf_counter()
    harness = Harness(create_bot(settings, clock=FixedClock(NOW), run_scheduler=False))
    harness.discord.validates = False  # Discord's schema check is test tooling, not the bot's time
    await harness.start()
    took = time.perf_counter() - began
    freeze_startup_objects()  # as `sideline run` does once the bot has logged in
    return harness, took


async def measure_start(url: str, leagues: int) -> dict[str, float]:
    harness, took = await start(url, leagues)
    try:
        await asyncio.sleep(0.5)
        gc.collect()
        return {"seconds": took, "rss": rss_mb(), "guilds": len(harness.bot.guilds)}
    finally:
        await harness.close()


def start_in_fresh_process(url: str, leagues: int) -> dict[str, float]:
    out = subprocess.run([sys.executable, "-m", "bench.scale", "--measure-start", url, "--leagues", str(leagues)],
                         capture_output=True, text=True, check=True)
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def plan(leagues: int, messages: int, big_channels: int = BIG_CHANNELS) -> list[tuple[int, int, int]]:
    """(league, channel, due offset in s) per reminder: a quarter for league 0, due a minute earlier."""
    big = messages // 4 if leagues > 1 else messages
    rows = [(0, FIRST_CHANNEL // 2 + i % big_channels, -60) for i in range(big)]
    rest = messages - big
    for j in range(rest):
        league = 1 + j % (leagues - 1)
        rows.append((league, channel(league, (j // (leagues - 1)) % CHANNELS), 0))
    return rows


async def queue(bot: Any, rows: list[tuple[int, int, int]]) -> None:
    from bot.services import outbox
    from bot.services.outbox import Outgoing

    async with bot.sessions.begin() as session, outbox.batched(session):
        for n, (league, to, offset) in enumerate(rows):
            guild = league_guild(league)
            await outbox.enqueue(session, league_id=bot.league_ids[guild], guild_id=guild, key=f"scale:{n}",
                                 due_at=NOW + timedelta(seconds=offset),
                                 message=Outgoing(content=f"Reminder {n}: game at 7 pm"), channel_id=to)


async def wave(url: str, leagues: int, messages: int, limit: float, big_channels: int) -> dict[str, Any]:
    from tests.harness.rate_limits import RateLimits

    harness, _ = await start(url, leagues)
    fake = harness.discord
    try:
        harness.limit_rates(RateLimits())  # Discord's, at full size, in real time; the courier's own pace
        rows = plan(leagues, messages, big_channels)
        league_of = {to: league for league, to, _ in rows}
        await queue(harness.bot, rows)
        fake.clear()
        sent: list[float] = []
        first: dict[int, float] = {}

        def seen(call: Any) -> None:
            if call.channel_id and call.status < 300 and not call.duplicate:
                now = time.monotonic()
                sent.append(now)
                first.setdefault(league_of.get(call.channel_id, -1), now)

        fake.hooks.append(seen)
        began = time.monotonic()
        await drain(harness.bot, limit)
        harness.bot.courier.stop()
        wall = (sent[-1] - began) if sent else time.monotonic() - began
        latencies = [first[i] - began for i in range(leagues) if i in first]
        return {"delivered": len(sent), "wall": wall, "global_429s": fake.rate_limits.global_429s,
                "route_429s": fake.rate_limits.route_429s, "leagues_reached": len(latencies),
                "first_p50": percentile(latencies, 50), "first_max": max(latencies, default=float("nan")),
                "rss": rss_mb()}
    finally:
        await harness.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--leagues", type=int, default=1000)
    parser.add_argument("--messages", type=int, default=20000)
    parser.add_argument("--big-channels", type=int, default=BIG_CHANNELS, help="the big league's channels "
                        "(each takes 1 message/s at Discord's 5 per 5 s: under 50, that league alone can't reach 50/s)")
    parser.add_argument("--limit", type=float, default=900.0, help="stop the wave after this many seconds")
    parser.add_argument("--measure-start", metavar="URL", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure_start:
        print(json.dumps(asyncio.run(measure_start(args.measure_start, args.leagues))))
        return
    if args.leagues < 2:
        parser.error("--leagues: at least 2 (a big league and the others)")

    async def run() -> tuple[list[dict[str, float]], dict[str, Any]]:
        async with fresh_database(None, "scale") as url:
            starts = [start_in_fresh_process(url, args.leagues) for _ in ("first", "restart")]
            return starts, await wave(url, args.leagues, args.messages, args.limit, args.big_channels)

    starts, result = asyncio.run(run())
    print(f"bench.scale: {args.leagues} leagues, SQLite")
    for name, s in zip(("first start (empty database)", "restart"), starts, strict=True):
        print(f"  {name}: {s['seconds']:.2f} s, RSS {s['rss']:.1f} MB, {s['guilds']:.0f} servers "
              f"(goal ≤ {GOAL_START_S:.0f} s, ≤ {GOAL_START_MB:.0f} MB)")
    rate = result["delivered"] / result["wall"] if result["wall"] else 0.0
    print(f"  wave: {args.messages} reminders ({args.messages // 4} for one league in {args.big_channels} channels, "
          f"due a minute earlier), "
          f"delivered {result['delivered']} in {result['wall']:.1f} s: {rate:.1f}/s = "
          f"{100 * rate / GLOBAL_LIMIT:.0f}% of Discord's global {GLOBAL_LIMIT}/s (goal ≥ {100 * GOAL_RATE:.0f}%)")
    print(f"  429s: global {result['global_429s']} (goal 0), per channel {result['route_429s']}")
    print(f"  each league's first reminder after the wave began: p50 {result['first_p50']:.1f} s, "
          f"last {result['first_max']:.1f} s (goal ≤ {GOAL_FIRST_S:.0f} s); "
          f"{result['leagues_reached']} of {args.leagues} leagues reached; RSS {result['rss']:.1f} MB")
    print(describe())
    print(reproduce("bench.scale", f"--leagues {args.leagues}", f"--messages {args.messages}",
                    f"--big-channels {args.big_channels}"))


if __name__ == "__main__":
    main()
