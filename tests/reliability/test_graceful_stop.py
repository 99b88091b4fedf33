"""SIGTERM to `sideline run` in the middle of a burst of check-ins and queued reminders:
it exits 0 within 10 s (so does Ctrl-C's SIGINT), every check-in it took is answered
and stored, nothing is left claimed, and after a restart every queued reminder is sent exactly once.
On SQLite, a second `sideline run` on the same file is refused in one line while the first runs.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from bot.services.reminders.messages import EDIT_KIND
from storage.db import create_engine
from storage.models import CheckIn, Game, OutboxMessage, Player
from tests.conftest import allow_double_booking
from tests.reliability.reminders_kill_child import read_record
from tests.reliability.test_reminders_kill import ALL_DUE, GAMES, prepare

CHILD = Path(__file__).resolve().parent / "service_child.py"
ROOT = CHILD.parents[2]
STOP_LIMIT = 10.0  # what systemd and Docker wait after SIGTERM before SIGKILL
START_LIMIT = 90.0  # a busy machine's start-up, migrations and first sends

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs SIGTERM")


def read_lines(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.endswith("}")]


def spawn(db_url: str, directory: Path, *extra: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SIDELINE_TOKEN": "offline-test-token"}
    env.pop("SIDELINE_CONFIG", None)
    return subprocess.Popen([sys.executable, str(CHILD), db_url, str(directory), ALL_DUE.isoformat(), *extra],
                            cwd=str(ROOT), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def wait_for(proc: subprocess.Popen[str], ready: Any, what: str, limit: float = START_LIMIT,
             every: float = 0.01) -> None:
    deadline = time.monotonic() + limit
    while not ready():
        if proc.poll() is not None:
            raise AssertionError(f"the bot ended (exit {proc.returncode}) before {what}:\n{proc.stderr.read()}")
        if time.monotonic() > deadline:
            proc.kill()
            raise AssertionError(f"no {what} within {limit:.0f} s:\n{proc.communicate()[1]}")
        time.sleep(every)


def stop(proc: subprocess.Popen[str], sig: signal.Signals = signal.SIGTERM) -> tuple[int | None, float, str]:
    """SIGTERM, as `systemctl stop` or `docker stop` sends it (or Ctrl-C's SIGINT): (exit code, seconds
    to exit, stderr)."""
    started = time.monotonic()
    proc.send_signal(sig)
    try:
        _, err = proc.communicate(timeout=STOP_LIMIT + 20)
    except subprocess.TimeoutExpired:
        proc.kill()
        _, err = proc.communicate()
        return None, time.monotonic() - started, err
    return proc.returncode, time.monotonic() - started, err


async def database_state(db_url: str) -> tuple[set[tuple[int, str, str]], dict[str, int]]:
    """Every stored check-in as (player's Discord id, game code, status), and the outbox by status:
    the edits the answers queued of their teams' reminder messages apart (due seconds after an answer,
    on a clock that stands still here), unless one was left claimed."""
    engine = create_engine(db_url)
    try:
        async with engine.connect() as conn:
            stored = {(int(r[0]), r[1], r[2]) for r in await conn.execute(
                select(Player.discord_id, Game.code, CheckIn.status)
                .join(Player, CheckIn.player_id == Player.id).join(Game, CheckIn.game_id == Game.id))}
            outbox = dict((await conn.execute(select(OutboxMessage.status, func.count())
                                              .where((OutboxMessage.kind != EDIT_KIND)
                                                     | (OutboxMessage.status == "sending"))
                                              .group_by(OutboxMessage.status))).all())
    finally:
        await engine.dispose()
    return stored, outbox


def test_sigterm_mid_burst_stops_cleanly_and_strands_nothing(db_url: str, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    allow_double_booking(monkeypatch)  # 150 games of three teams in an hour: a load, not a schedule
    asyncio.run(prepare(db_url))  # 150 games: 300 reminders due at once on the bot's clock
    sends, fed, answers = tmp_path / "sends.jsonl", tmp_path / "fed.jsonl", tmp_path / "answers.jsonl"
    bot = spawn(db_url, tmp_path, "--checkins")
    # mid-batch (the courier claims 10 at a time): the stop lands while it holds claims
    wait_for(bot, lambda: len(read_lines(answers)) >= 20 and len(read_record(sends)) >= 25,
             "check-ins answered and reminders sent")
    code, took, err = stop(bot)
    assert code == 0, f"exit {code} after SIGTERM:\n{err}"
    assert took < STOP_LIMIT, f"took {took:.1f} s to stop after SIGTERM"
    assert "Traceback" not in err, err

    taken, replies = read_lines(fed), read_lines(answers)
    assert len(replies) == len(taken), "every interaction the bot took was answered before it stopped"
    refused = [r for r in replies if not r["reply"].startswith("You're") or r["status_code"] != 200]
    assert not refused, f"check-ins in flight failed while stopping: {refused[:3]}"
    stored, outbox = asyncio.run(database_state(db_url))
    acknowledged = {(r["player"], r["game"], r["status"]) for r in replies}
    assert acknowledged <= stored, f"acknowledged but not stored: {sorted(acknowledged - stored)[:5]}"
    assert "sending" not in outbox, f"the stopped bot left sends claimed: {outbox}"
    assert outbox.get("pending"), f"SIGTERM came after the reminders were all out: {outbox}"

    again = spawn(db_url, tmp_path)  # the restart: sends what is left, nothing twice
    wait_for(again, lambda: asyncio.run(database_state(db_url))[1] == {"sent": 2 * GAMES},
             "every reminder sent after the restart", every=0.2)
    code, took, err = stop(again, signal.SIGINT)  # Ctrl-C stops it the same way
    assert code == 0 and took < STOP_LIMIT, f"exit {code} after {took:.1f} s:\n{err}"
    created = [line for line in read_record(sends) if not line["duplicate"]]
    per_reminder = Counter((line["content"].split("`")[1], line["channel"]) for line in created)
    assert len(per_reminder) == 2 * GAMES and set(per_reminder.values()) == {1}, "each reminder sent once"


def test_a_second_bot_on_the_same_sqlite_file_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    allow_double_booking(monkeypatch)
    database = (tmp_path / "sideline.db").resolve()
    db_url = f"sqlite+aiosqlite:///{database}"
    asyncio.run(prepare(db_url))
    first = spawn(db_url, tmp_path, "--checkins")
    wait_for(first, lambda: len(read_lines(tmp_path / "answers.jsonl")) >= 10, "check-ins answered")
    second_dir = tmp_path / "second"
    second_dir.mkdir()
    second = spawn(db_url, second_dir, "--checkins")
    try:
        _, err = second.communicate(timeout=60)
    finally:
        code, _, first_err = stop(first)
    assert second.returncode == 2
    assert err.strip().splitlines() == [
        f"sideline: another Sideline bot is running on {database} "
        f"(it holds {database}.lock); stop it first, or use PostgreSQL to run several"]
    assert not read_lines(second_dir / "fed.jsonl"), "the refused bot never connected"
    assert code == 0, first_err
    stored, _ = asyncio.run(database_state(db_url))
    assert {(r["player"], r["game"], r["status"]) for r in read_lines(tmp_path / "answers.jsonl")} <= stored
