"""A bot process killed while reminders fire, restarted at once: every reminder is sent exactly once.

The kills land at seeded random points (mid-send, mid-claim, during start-up) and each restart follows
within a second, as systemd's ``Restart=always`` would, with the bot's clock where it was: a restart
must take back what the dead process held, not wait for a timeout to pass.
"""

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

from bot.clock import FixedClock
from bot.run.app import create_bot
from storage.db import create_engine
from storage.models import OutboxMessage
from tests.conftest import DATA, allow_double_booking
from tests.harness import Harness
from tests.reliability.reminders_kill_child import read_record, settings_for

CHILD = Path(__file__).resolve().parent / "reminders_kill_child.py"
ROOT = CHILD.parents[2]
GAMES = 150  # two reminders each (one per team): 300 sends, as in the issue
FIRST_START = datetime(2030, 1, 10, 19, 0, tzinfo=ZoneInfo("America/Toronto")).astimezone(UTC)
ALL_DUE = FIRST_START - timedelta(hours=2) + timedelta(minutes=61)  # every 2 h reminder due, no game started
KILLS = 5
DRAIN_LIMIT = 90.0  # seconds the last process may take to send what is left (under 30 s on a busy machine)

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")


def games_csv(n: int) -> bytes:
    teams = ("Hawks", "Owls", "Bears")  # the teams with a channel
    rows = ["game_id,starts_at,home,away,venue,kind"]
    rows += [f"K{i},2030-01-10 19:{i % 60:02d},{teams[i % 3]},{teams[(i + 1) % 3]},Rink,regular" for i in range(n)]
    return ("\n".join(rows) + "\n").encode()


async def prepare(db_url: str) -> None:
    settings = settings_for(db_url)
    bot = create_bot(settings, engine=create_engine(db_url),
                     clock=FixedClock(datetime(2030, 1, 5, 12, tzinfo=UTC)), run_scheduler=False)
    h = await Harness(bot).start()
    league, importer = settings.leagues[0], bot.services.imports.importer
    for kind in ("teams", "players"):
        await importer.run(kind, (DATA / f"{kind}.csv").read_bytes(), league, now=bot.clock.now())
    await importer.run("games", games_csv(GAMES), league, now=bot.clock.now())
    await h.close()


async def spawn(db_url: str, record: Path, now: datetime) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable, str(CHILD), db_url, str(record), now.isoformat(), cwd=str(ROOT),
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(ROOT)})


async def kill_at_random(proc: asyncio.subprocess.Process, record: Path, rng: random.Random,
                         limit: float = 60.0) -> bool:
    """SIGKILL the child at a random point: after a few more sends, or a random instant after start;
    False if it finished first."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit
    start_sends = len(read_record(record))
    if rng.random() < 0.3:  # anywhere in start-up (migrations, recovery) or the first claims
        sends, at = None, loop.time() + rng.uniform(0.2, 6.0)
    else:
        sends, at = start_sends + rng.randint(1, 40), None
    while loop.time() < deadline and proc.returncode is None:
        if (at is not None and loop.time() >= at) or (sends is not None and len(read_record(record)) >= sends):
            await asyncio.sleep(rng.uniform(0, 0.01))  # not always right after a send
            if proc.returncode is None:
                proc.send_signal(signal.SIGKILL)
            await proc.wait()
            return True
        await asyncio.sleep(0.002)
    if proc.returncode is None:
        proc.kill()
    await proc.wait()
    return False


async def test_quick_restart_strands_nothing(db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    allow_double_booking(monkeypatch)  # 150 games of three teams in an hour: a load, not a schedule
    record = tmp_path / "discord.jsonl"
    await prepare(db_url)
    rng = random.Random(20)
    kills = 0
    for _ in range(KILLS):
        proc = await spawn(db_url, record, ALL_DUE)  # restarted at once, on the same clock
        kills += await kill_at_random(proc, record, rng)
    assert kills >= KILLS - 1, "the runs were killed mid-delivery"
    assert len(read_record(record)) < 2 * GAMES, "something was left to send after the kills"
    proc = await spawn(db_url, record, ALL_DUE)
    try:
        code = await asyncio.wait_for(proc.wait(), DRAIN_LIMIT)
    except TimeoutError:
        proc.kill()
        await proc.wait()
        code = None
    created = [line for line in read_record(record) if not line["duplicate"]]
    per_reminder = Counter((line["content"].split("`")[1], line["channel"]) for line in created)
    engine = create_engine(db_url)
    try:
        async with engine.connect() as conn:
            statuses = dict((await conn.execute(select(OutboxMessage.status, func.count())
                                                .group_by(OutboxMessage.status))).all())
    finally:
        await engine.dispose()
    assert code == 0, f"not everything was sent within {DRAIN_LIMIT:.0f} s of the last restart: {statuses}"
    assert len(per_reminder) == 2 * GAMES and set(per_reminder.values()) == {1}, "each reminder sent once"
    assert len({(line["channel"], line["nonce"]) for line in created}) == 2 * GAMES
    assert statuses == {"sent": 2 * GAMES}
