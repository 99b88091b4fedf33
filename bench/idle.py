"""RSS of a started bot (offline: real login over the fake Discord) with all three presets.

Run: python -m bench.idle          Goal: at most 80 MB.

The database is created and migrated first; the figure comes from a fresh process that
starts the bot on it, as a restart in production would.
"""

from __future__ import annotations

import asyncio
import gc
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.machine import describe, reproduce, rss_mb

GOAL_MB = 80.0


def league(i: int, preset: str) -> dict[str, object]:
    return {"key": preset.split("-")[0], "name": preset, "guild_id": 10**17 * i, "preset": preset,
            "timezone": "America/Toronto", "roles": {"captain": i * 10 + 1, "referee": i * 10 + 2,
                                                     "commissioner": i * 10 + 3},
            "channels": {"announcements": i * 100 + 1, "standings": i * 100 + 2, "referees": i * 100 + 3}}


async def start_bot(db: Path) -> float:
    """Start the bot and return its RSS once it is idle."""
    from bot.config.settings import parse_settings
    from bot.run.app import create_bot, freeze_startup_objects
    from tests.harness import Harness

    settings = parse_settings({
        "bot": {"database_url": f"sqlite+aiosqlite:///{db}"},
        "leagues": [league(i, preset) for i, preset in
                    enumerate(("coed-ball-hockey", "youth-ball-hockey", "indoor-soccer"), start=1)],
    })
    harness = Harness(create_bot(settings))
    harness.discord.validates = False  # the fake's copy of Discord's API spec is test tooling, not the bot
    await harness.start()
    freeze_startup_objects()  # as `sideline run` does once the bot has logged in
    await asyncio.sleep(1.0)
    gc.collect()
    rss = rss_mb()
    await harness.close()
    return rss


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--measure":
        print(f"{asyncio.run(start_bot(Path(sys.argv[2]))):.1f}")
        return
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "idle.db"
        asyncio.run(start_bot(db))  # first start: creates and migrates the database
        out = subprocess.run([sys.executable, "-m", "bench.idle", "--measure", str(db)], capture_output=True,
                             text=True, check=True)
    rss = float(out.stdout.strip().splitlines()[-1])
    print(f"idle bot RSS: {rss:.1f} MB · goal ≤ {GOAL_MB:.0f} MB → {'met' if rss <= GOAL_MB else 'MISSED'}")
    print(describe())
    print(reproduce("bench.idle"))


if __name__ == "__main__":
    main()
