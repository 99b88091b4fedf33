"""Reconcile at start with 50,000 pending reminders in the database: time and RSS after.

Run: python -m bench.scheduler [--rows N]          Goal: at most 2 s and 150 MB.

The database says what is due; start-up re-queues interrupted sends and arms one wake job
for the earliest row (architecture.md "Scheduling"). Measured in a fresh process.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bench.idle import league
from bench.machine import describe, reproduce, rss_mb

GOAL_SECONDS, GOAL_MB = 2.0, 150.0


def settings_for(db: Path):  # type: ignore[no-untyped-def]
    from bot.config.settings import parse_settings

    return parse_settings({"bot": {"database_url": f"sqlite+aiosqlite:///{db}"},
                           "leagues": [league(1, "coed-ball-hockey")]})


async def prepare(db: Path, rows: int) -> None:
    from sqlalchemy import insert

    from bot.run.app import create_bot
    from storage.models import OutboxMessage
    from tests.harness import Harness

    bot = create_bot(settings_for(db), run_scheduler=False)
    await Harness(bot).start()
    league_id = next(iter(bot.league_ids.values()))
    guild_id = next(iter(bot.league_ids))
    now = datetime.now(UTC)
    batch = []
    for i in range(rows):
        due = now + timedelta(minutes=5 + i % 20_000)
        batch.append({"league_id": league_id, "guild_id": guild_id, "send_key": f"game:{i // 6}:reminder:{i}",
                      "kind": "text", "args": {"content": f"Game {i // 6} soon"}, "channel_id": 10 + i % 200,
                      "due_at": due, "next_attempt_at": due, "expires_at": due + timedelta(hours=2),
                      "status": "sending" if i % 1000 == 0 else "pending", "attempts": 0,
                      "claimed_at": now - timedelta(hours=1) if i % 1000 == 0 else None, "created_at": now})
    async with bot.sessions.begin() as session:
        for start in range(0, rows, 5000):
            await session.execute(insert(OutboxMessage), batch[start:start + 5000])
    await bot.close()


async def measure(db: Path) -> tuple[float, float, int]:
    from bot.run.app import create_bot
    from tests.harness import Harness

    bot = create_bot(settings_for(db), run_scheduler=False)
    await Harness(bot).start()  # login, migrations checked, cogs loaded
    started = time.perf_counter()
    await bot.scheduler.start()  # the reconcile: recover interrupted sends, arm the wake job
    seconds = time.perf_counter() - started
    jobs = len(bot.scheduler.aps.get_jobs())
    gc.collect()
    rss = rss_mb()
    await bot.close()
    return seconds, rss, jobs


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=50_000)
    parser.add_argument("--measure")
    args = parser.parse_args()
    if args.measure:
        seconds, rss, jobs = asyncio.run(measure(Path(args.measure)))
        print(f"{seconds:.4f} {rss:.1f} {jobs}")
        return
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "sched.db"
        asyncio.run(prepare(db, args.rows))
        out = subprocess.run([sys.executable, "-m", "bench.scheduler", "--measure", str(db)],
                             capture_output=True, text=True, check=True)
    seconds, rss, jobs = out.stdout.split()
    print(f"reconcile with {args.rows:,} pending sends: {float(seconds) * 1000:.1f} ms, RSS after {float(rss):.1f} MB, "
          f"{jobs} scheduler jobs · goal ≤ {GOAL_SECONDS:.0f} s and ≤ {GOAL_MB:.0f} MB → "
          f"{'met' if float(seconds) <= GOAL_SECONDS and float(rss) <= GOAL_MB else 'MISSED'}")
    print(describe())
    print(reproduce("bench.scheduler", f"--rows {args.rows}"))


if __name__ == "__main__":
    main()
