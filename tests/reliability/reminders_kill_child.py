"""A bot process for tests/reliability/test_reminders_kill.py, meant to be SIGKILLed while it delivers reminders.

Usage: ``python tests/reliability/reminders_kill_child.py DB_URL RECORD_FILE NOW_ISO``. It runs the real bot
(scheduler on) over the database (SQLite or PostgreSQL) with the fake Discord. Discord outlives the bot, so the fake
keeps what it created in RECORD_FILE (one JSON line per message request) and reloads it on start:
its enforce_nonce check spans the bot's restarts like the real one. Exits 0 once nothing is left
to send.
"""

from __future__ import annotations

import asyncio
import json
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from sqlalchemy import func, select  # noqa: E402

from bot.clock import FixedClock  # noqa: E402
from bot.config.settings import Settings  # noqa: E402
from bot.run.app import create_bot  # noqa: E402
from storage.db import create_engine  # noqa: E402
from storage.models import OutboxMessage  # noqa: E402
from tests.conftest import league_config, make_settings  # noqa: E402
from tests.harness import Call, FakeDiscord, Harness  # noqa: E402


def settings_for(db_url: str) -> Settings:
    """One league, one reminder 2 h before each game, no captain checks, no game card."""
    # The teams' reminders only: no lineup checks, no officials' game card.
    config = league_config(reminders={"game_offsets": ["2h"], "captain_alert_offsets": [], "game_card_offsets": []})
    return make_settings(config, url=db_url)


def read_record(record: Path) -> list[dict[str, Any]]:
    if not record.exists():
        return []
    lines = record.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip().endswith("}")]  # a torn last line is no message


def remember_in(fake: FakeDiscord, record: Path, *, by: str = "") -> None:
    """Reload the messages Discord already created and write down each new one as it is created
    (``by``: which process sent it, when several share the record)."""
    for line in read_record(record):
        if not line["duplicate"]:
            message = fake._message(line["channel"], {"content": line["content"]})
            fake._nonces[(line["channel"], line["nonce"])] = message
    out = record.open("a", encoding="utf-8", buffering=1)  # line-buffered: each line reaches the OS at once

    def write(call: Call) -> None:
        if call.method == "POST" and call.channel_id is not None and call.status == 200:
            out.write(json.dumps({"channel": call.channel_id, "nonce": str(call.payload.get("nonce")),
                                  "duplicate": call.duplicate, "content": call.content, "by": by}) + "\n")

    fake.hooks.append(write)


async def main(db_url: str, record: Path, now: datetime) -> int:
    bot = create_bot(settings_for(db_url), engine=create_engine(db_url),
                     clock=FixedClock(now), run_scheduler=True)
    harness = Harness(bot)
    remember_in(harness.discord, record)
    await harness.start()  # migrations, cogs, then the scheduler: recover, arm the wake job
    try:
        for _ in range(2400):
            async with bot.sessions() as session:
                left = await session.scalar(select(func.count()).select_from(OutboxMessage).where(
                    OutboxMessage.status.in_(("pending", "sending"))))
            if not left:
                return 0
            await asyncio.sleep(0.05)
        return 1
    finally:
        await harness.close()


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1], Path(sys.argv[2]), datetime.fromisoformat(sys.argv[3]))))
