"""A bot process SIGKILLed while reminders fire, then restarted: every reminder is sent exactly once."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sys
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import func, select

from bot.app import create_bot
from bot.clock import FixedClock
from storage.db import create_engine
from storage.models import OutboxMessage
from tests.conftest import DATA
from tests.harness import Harness
from tests.reminders_kill_child import read_record, settings_for

CHILD = Path(__file__).resolve().parent / "reminders_kill_child.py"
ROOT = CHILD.parents[1]
GAMES = 75  # two reminders each (one per team): 150 sends, enough to kill mid-stream, quick enough to restart
FIRST_START = datetime(2030, 1, 10, 19, 0, tzinfo=ZoneInfo("America/Toronto")).astimezone(UTC)
ALL_DUE = FIRST_START - timedelta(hours=2) + timedelta(minutes=61)  # every 2 h reminder due, no game started

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")


def games_csv(n: int) -> bytes:
    teams = ("Hawks", "Owls", "Bears")  # the teams with a channel
    rows = ["game_id,starts_at,home,away,venue,kind"]
    rows += [f"K{i},2030-01-10 19:{i % 60:02d},{teams[i % 3]},{teams[(i + 1) % 3]},Rink,regular" for i in range(n)]
    return ("\n".join(rows) + "\n").encode()


async def prepare(db_file: Path) -> None:
    settings = settings_for(db_file)
    bot = create_bot(settings, engine=create_engine(f"sqlite+aiosqlite:///{db_file}"),
                     clock=FixedClock(datetime(2030, 1, 5, 12, tzinfo=UTC)), run_scheduler=False)
    h = await Harness(bot).start()
    league, importer = settings.leagues[0], bot.services.imports.importer
    for kind in ("teams", "players"):
        await importer.run(kind, (DATA / f"{kind}.csv").read_bytes(), league, now=bot.clock.now())
    await importer.run("games", games_csv(GAMES), league, now=bot.clock.now())
    await h.close()


async def spawn(db_file: Path, record: Path, now: datetime) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable, str(CHILD), str(db_file), str(record), now.isoformat(), cwd=str(ROOT),
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(ROOT)})


async def kill_after(proc: asyncio.subprocess.Process, record: Path, sends: int, limit: float = 30.0) -> bool:
    """SIGKILL the child once the fake Discord has recorded ``sends`` messages; False if it finished first."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit
    while loop.time() < deadline and proc.returncode is None:
        if len(read_record(record)) >= sends:
            proc.send_signal(signal.SIGKILL)
            await proc.wait()
            return True
        await asyncio.sleep(0.005)
    if proc.returncode is None:
        proc.kill()
    await proc.wait()
    return False


async def test_a_killed_bot_restarts_and_sends_every_reminder_exactly_once(tmp_path: Path) -> None:
    db_file, record = tmp_path / "bot.db", tmp_path / "discord.jsonl"
    await prepare(db_file)
    rng = random.Random(11)
    now = ALL_DUE
    kills = 0
    for _ in range(3):
        target = len(read_record(record)) + rng.randint(10, 35)
        proc = await spawn(db_file, record, now)
        kills += await kill_after(proc, record, target)
        now += timedelta(minutes=3)  # later than the courier's STUCK_AFTER: claimed rows are re-queued
    assert kills == 3, "each run was killed mid-delivery"
    proc = await spawn(db_file, record, now)
    assert await asyncio.wait_for(proc.wait(), 60) == 0

    created = [line for line in read_record(record) if not line["duplicate"]]
    per_reminder = Counter((line["content"].split("`")[1], line["channel"]) for line in created)
    assert len(per_reminder) == 2 * GAMES and set(per_reminder.values()) == {1}
    assert len({(line["channel"], line["nonce"]) for line in created}) == 2 * GAMES
    engine = create_engine(f"sqlite+aiosqlite:///{db_file}")
    try:
        async with engine.connect() as conn:
            statuses = dict((await conn.execute(select(OutboxMessage.status, func.count())
                                                .group_by(OutboxMessage.status))).all())
    finally:
        await engine.dispose()
    assert statuses == {"sent": 2 * GAMES}
