"""`sideline health`: one JSON line, exit 0 when healthy, else 1 and the reason."""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.engine import Connection

from bot.cli import main as cli
from bot.run.app import create_bot
from bot.services import outbox
from bot.services.outbox import Outgoing
from storage import migrate
from storage.db import create_engine, is_sqlite
from tests.conftest import GUILD
from tests.harness import Harness
from tests.reliability.reminders_kill_child import settings_for
from tests.reliability.service_child import write_config

ROOT = Path(__file__).resolve().parents[2]


def health(capsys: pytest.CaptureFixture[str], config: Path, *args: str) -> tuple[int, dict[str, Any]]:
    code = cli.main(["--config", str(config), "health", *args])
    out = capsys.readouterr().out
    assert len(out.splitlines()) == 1, f"not one line: {out!r}"
    return code, json.loads(out)


def config_for(tmp_path: Path, db_url: str, bot_extra: str = "") -> Path:
    path = tmp_path / "config.toml"
    write_config(path, db_url)
    if bot_extra:
        path.write_text(path.read_text().replace('log_level = "INFO"\n', f'log_level = "INFO"\n{bot_extra}\n'))
    return path


async def started_with(db_url: str, *due_ago: timedelta) -> None:
    """The database as a started bot leaves it, with one queued message due ``ago`` (real time) each."""
    bot = create_bot(settings_for(db_url), engine=create_engine(db_url), run_scheduler=False)
    h = await Harness(bot).start()
    now = datetime.now(UTC)
    async with bot.sessions.begin() as s:
        for i, ago in enumerate(due_ago):
            await outbox.enqueue(s, league_id=bot.league_ids[GUILD], guild_id=GUILD, key=f"waiting-{i}",
                                 due_at=now - ago, message=Outgoing(content="hello"), channel_id=3001)
    await h.close()


async def run_sync(db_url: str, work: Callable[[Connection], object]) -> None:
    engine = create_engine(db_url)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(work)
    finally:
        await engine.dispose()


def test_healthy_when_the_queue_keeps_up(db_url: str, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    asyncio.run(started_with(db_url, timedelta(minutes=1), timedelta(minutes=-30)))  # one due, one later
    code, line = health(capsys, config_for(tmp_path, db_url))
    assert code == 0, line
    assert line["ok"] is True and line["reason"] is None
    assert line["revision"] == migrate.head_revision()
    assert line["due_messages"] == 1 and 55 < line["oldest_due_age_s"] < 600
    assert line["max_backlog_age_s"] == 600  # the default: 10 minutes


def test_a_message_due_too_long_ago_is_unhealthy(db_url: str, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    asyncio.run(started_with(db_url, timedelta(minutes=20), timedelta(minutes=2)))
    config = config_for(tmp_path, db_url)
    code, line = health(capsys, config)
    assert code == 1
    assert line["ok"] is False and line["reason"] == "backlog_too_old"
    assert line["due_messages"] == 2 and line["oldest_due_age_s"] > 20 * 60 - 5
    assert health(capsys, config, "--max-backlog-age", "30m")[0] == 0
    assert health(capsys, config_for(tmp_path, db_url, 'health_max_backlog_age = "1h"'))[0] == 0


def test_migrations_behind_are_unhealthy(empty_db_url: str, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    from alembic import command
    from alembic.script import ScriptDirectory

    config = config_for(tmp_path, empty_db_url)
    if is_sqlite(empty_db_url):
        sqlite3.connect(empty_db_url.removeprefix("sqlite+aiosqlite:///")).close()  # an empty database file
    code, line = health(capsys, config)
    assert (code, line["reason"], line["revision"]) == (1, "migrations_behind", None)

    head = migrate.head_revision()
    previous = ScriptDirectory.from_config(migrate.alembic_config()).get_revision(head).down_revision
    asyncio.run(run_sync(empty_db_url, lambda c: command.upgrade(migrate.alembic_config(c), str(previous))))
    code, line = health(capsys, config)
    assert (code, line["reason"], line["revision"]) == (1, "migrations_behind", previous)
    assert "sideline db upgrade" in line["detail"]


def test_a_database_from_a_newer_sideline_is_unhealthy(db_url: str, tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    asyncio.run(started_with(db_url))
    asyncio.run(run_sync(db_url, lambda c: c.execute(text("UPDATE alembic_version SET version_num = 'f00dfeedbeef'"))))
    code, line = health(capsys, config_for(tmp_path, db_url))
    assert (code, line["reason"], line["revision"]) == (1, "migrations_unknown", "f00dfeedbeef")


def test_a_missing_sqlite_file_is_unreachable_and_not_created(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    database = tmp_path / "nothing-here.db"
    code, line = health(capsys, config_for(tmp_path, f"sqlite+aiosqlite:///{database}"))
    assert (code, line["ok"], line["reason"]) == (1, False, "database_unreachable")
    assert "no such file" in line["detail"]
    assert not database.exists()


def test_a_database_server_that_does_not_answer_is_unreachable(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("asyncpg")
    url = "postgresql+asyncpg://sideline:secret@127.0.0.1:1/sideline"  # nothing listens on port 1
    code, line = health(capsys, config_for(tmp_path, url))
    assert (code, line["reason"]) == (1, "database_unreachable")
    assert "secret" not in line["detail"]


def test_health_answers_while_the_bot_holds_the_sqlite_write_lock(tmp_path: Path) -> None:
    database = tmp_path / "busy.db"
    db_url = f"sqlite+aiosqlite:///{database}"
    asyncio.run(started_with(db_url))
    writer = sqlite3.connect(database, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")  # a unit of work in the bot, mid-way
    try:
        started = time.monotonic()
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        result = subprocess.run([sys.executable, "-m", "bot.cli", "--config", str(config_for(tmp_path, db_url)),
                                 "health"], capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
        took = time.monotonic() - started
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    assert result.returncode == 0, result.stdout + result.stderr
    assert json.loads(result.stdout)["ok"] is True and len(result.stdout.splitlines()) == 1
    assert took < 20  # the interpreter's start-up; the busy timeout (30 s) was never waited for


def test_a_bad_backlog_age_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = config_for(tmp_path, f"sqlite+aiosqlite:///{tmp_path / 'x.db'}", 'health_max_backlog_age = "soon"')
    assert cli.main(["--config", str(config), "health"]) == 2
    assert "bot.health_max_backlog_age: 'soon' is not a duration like 90s, 10m or 1h" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["--config", str(config_for(tmp_path, "sqlite+aiosqlite:///x.db")), "health",
                  "--max-backlog-age", "0m"])
