"""What only some leagues or requests use is imported when first needed, not at start: a bot started
on SQLite with every preset configured holds none of it (bench/idle.py measures what that saves).
Run in a fresh process: this one has imported whatever earlier tests needed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: Each with why a started SQLite bot needs none of it.
NOT_AT_START = {
    "sqlalchemy.dialects.postgresql": "PostgreSQL's dialect: the URL is SQLite",
    "asyncpg": "PostgreSQL's driver",
    "Stemmer": "the rule search's stemmer: loaded at the first /rule",
    "bot.league.rulebooks.search": "the rule search itself",
    "bot.services.league_page.render": "the league page's writer: loaded when a page is first asked for",
    "icalendar": "the calendar feed: built when a calendar app asks",
    "openpyxl": "spreadsheets: read when one is imported",
    "aiohttp.web": "the HTTP servers: none is configured",
    "bot.web.feed_server": "the calendar feed server",
    "bot.web.metrics_server": "the metrics endpoint",
    "prometheus_client": "metrics: none configured",
}

START = """
import asyncio, json, sys
from bench.idle import league
from bot.config.settings import parse_settings
from bot.run.app import create_bot
from tests.harness import Harness

async def main():
    settings = parse_settings({"bot": {"database_url": "sqlite+aiosqlite:///" + sys.argv[1]},
                               "leagues": [league(i, preset) for i, preset in enumerate(
                                   ("coed-ball-hockey", "youth-ball-hockey", "indoor-soccer"), start=1)]})
    harness = Harness(create_bot(settings))
    harness.discord.validates = False
    await harness.start()
    loaded = sorted(sys.modules)
    await harness.close()
    print(json.dumps(loaded))

asyncio.run(main())
"""


def start(db: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", START, str(db)], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})


def test_a_restarted_sqlite_bot_has_not_imported_what_only_some_leagues_or_requests_use(tmp_path: Path) -> None:
    assert start(tmp_path / "idle.db").returncode == 0  # the first start migrates (migrations name PostgreSQL)
    done = start(tmp_path / "idle.db")  # a restart, as bench/idle.py measures
    assert done.returncode == 0, done.stderr[-3000:]
    loaded = set(json.loads(done.stdout.strip().splitlines()[-1]))
    assert "bot.run.app" in loaded and "cogs.rulebooks.rule" in loaded, "the bot started with every feature"
    imported = {name: why for name, why in NOT_AT_START.items() if name in loaded}
    assert imported == {}, f"imported at start though not needed then: {imported}"
