"""Shards over PostgreSQL: two `sideline run` processes, `--shard-count 2`, one
with `--shard-ids 0` and one with `--shard-ids 1`, on one PostgreSQL database, each connecting
through discord.py's own gateway code to a fake gateway that reads the IDENTIFY's shard and sends
only that shard's servers (tests/harness/fake_gateway.py).

1,000 due reminders across 100 servers go out exactly once, counted by the fake Discord, whose
nonce check spans both processes (a shared record, tests/reliability/service_child.py); both
processes send (queued messages belong to no shard). Each process answers the interactions of its
own shard's servers. SIGKILL one mid-wave: the other sends the rest, none twice.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
import tomllib
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import func, select

from bot.clock import FixedClock
from bot.config.settings import parse_settings
from bot.config.shards import shard_of
from bot.run.app import create_bot
from bot.services.reminders.plan import plan_games
from storage.db import create_engine
from storage.models import Game, OutboxMessage, Team
from tests.harness import Harness
from tests.reliability.reminders_kill_child import read_record
from tests.reliability.service_child import league_guild, many_leagues
from tests.reliability.test_graceful_stop import CHILD, ROOT, STOP_LIMIT, read_lines, stop
from tests.reliability.test_reminders_kill import ALL_DUE, FIRST_START

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL and fcntl")

LEAGUES = 100
GAMES = 5  # per league, two teams each: 1,000 reminders
REMINDERS = LEAGUES * GAMES * 2
DRAIN_LIMIT = 120.0  # seconds for the wave on a loaded machine (about 20 s on a quiet one)


async def prepare(db_url: str) -> None:
    """100 leagues (the config's), two teams with a channel each and five games: every game's 2 h
    reminder, per team, queued by the bot's own planning and due at ``ALL_DUE``."""
    settings = parse_settings(tomllib.loads(many_leagues(db_url, LEAGUES)), "prepare.toml")
    bot = create_bot(settings, engine=create_engine(db_url),
                     clock=FixedClock(datetime(2030, 1, 5, 12, tzinfo=UTC)), run_scheduler=False)
    harness = await Harness(bot).start()  # registers the leagues
    try:
        for i, league in enumerate(settings.leagues):
            async with bot.sessions.begin() as session:
                league_id = bot.league_ids[league.guild_id]
                teams = [Team(league_id=league_id, name=name, channel_id=700_000_000_000_000_000 + 10 * i + n)
                         for n, name in enumerate(("Hawks", "Owls"))]
                session.add_all(teams)
                await session.flush()
                games = [Game(league_id=league_id, code=f"L{i}G{g}", home_team_id=teams[g % 2].id,
                              away_team_id=teams[1 - g % 2].id, starts_at=FIRST_START + timedelta(minutes=g),
                              venue="Rink") for g in range(GAMES)]
                session.add_all(games)
                await session.flush()
                await plan_games(session, league, games, bot.clock.now(), new=True)
    finally:
        await harness.close()


def spawn(db_url: str, directory: Path, shared: Path, shard_id: int) -> subprocess.Popen[str]:
    """`sideline run --shard-ids N --shard-count 2`, its log (stderr) in DIR/log.txt to read as it runs."""
    directory.mkdir(exist_ok=True)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SIDELINE_TOKEN": "offline-test-token"}
    env.pop("SIDELINE_CONFIG", None)
    with (directory / "log.txt").open("w") as log:
        return subprocess.Popen(
            [sys.executable, str(CHILD), db_url, str(directory), ALL_DUE.isoformat(), "--gateway", "--leagues",
             str(LEAGUES), "--shared", str(shared), "--shard-ids", str(shard_id), "--shard-count", "2"],
            cwd=str(ROOT), env=env, stdout=subprocess.DEVNULL, stderr=log, text=True)


def log_of(proc: subprocess.Popen[str]) -> str:
    directory = proc.args[3]  # type: ignore[index]  # python, the child, the database, its folder, ...
    return (Path(directory) / "log.txt").read_text(encoding="utf-8")


def wait(proc: subprocess.Popen[str], ready: Callable[[], bool], what: str, limit: float = DRAIN_LIMIT) -> None:
    """Until ``ready()``; fails with the process's log if it ends first or ``limit`` seconds pass
    (a bound on a hang, not a timing assertion)."""
    deadline = time.monotonic() + limit
    while not ready():
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise AssertionError(f"no {what} (exit {proc.wait()}):\n{log_of(proc)}")
        time.sleep(0.1)


def stopped(proc: subprocess.Popen[str]) -> tuple[int | None, float, str]:
    """SIGTERM, as systemd or Docker stop it: (exit code, seconds to exit, its log)."""
    code, took, _ = stop(proc)
    return code, took, log_of(proc)


async def outbox_state(db_url: str) -> dict[str, int]:
    engine = create_engine(db_url)
    try:
        async with engine.connect() as conn:
            return dict((await conn.execute(select(OutboxMessage.status, func.count())
                                            .group_by(OutboxMessage.status))).all())
    finally:
        await engine.dispose()


def all_sent(db_url: str) -> bool:
    return asyncio.run(outbox_state(db_url)) == {"sent": REMINDERS}


def created_once(shared: Path) -> Counter[str]:
    """Each reminder Discord created (not the resends its nonce check answered), by its text."""
    return Counter(line["content"] for line in read_record(shared) if not line["duplicate"])


def check_each_sent_once(shared: Path) -> None:
    created = created_once(shared)
    assert len(created) == REMINDERS, f"{len(created)} distinct reminders created, not {REMINDERS}"
    twice = [content for content, n in created.items() if n > 1]
    assert not twice, f"created twice: {twice[:3]}"
    for i in (0, LEAGUES - 1):  # e.g. the first and last league's first game, for each team
        assert sum(f"`L{i}G0`" in content for content in created) == 2


def test_two_shards_send_every_reminder_once_and_answer_their_own_servers(pg_url: str, tmp_path: Path) -> None:
    asyncio.run(prepare(pg_url))
    assert asyncio.run(outbox_state(pg_url)) == {"pending": REMINDERS}
    shared = tmp_path / "sends.jsonl"
    bots = {shard: spawn(pg_url, tmp_path / f"shard{shard}", shared, shard) for shard in (0, 1)}
    try:
        for bot in bots.values():
            wait(bot, lambda: all_sent(pg_url), "every reminder sent")
    finally:
        results = {shard: stopped(bot) for shard, bot in bots.items()}
    for shard, (code, took, err) in results.items():
        assert code == 0 and took < STOP_LIMIT, f"shard {shard}: exit {code} after {took:.1f} s:\n{err}"
        assert "Traceback" not in err, err
    check_each_sent_once(shared)
    senders = Counter(line["by"] for line in read_record(shared) if not line["duplicate"])
    assert set(senders) == {"--shard-ids 0 --shard-count 2", "--shard-ids 1 --shard-count 2"}, (
        f"queued messages belong to no shard: both processes send them ({senders})")

    servers = {league_guild(i) for i in range(LEAGUES)}
    for shard in (0, 1):
        folder = tmp_path / f"shard{shard}"
        mine = {g for g in servers if shard_of(g, 2) == shard}
        assert 30 < len(mine) < 70  # the servers are shared out between the two shards
        (identified,) = read_lines(folder / "identified.jsonl")  # one IDENTIFY, as this shard
        assert identified == {"shard": [shard, 2], "guilds": sorted(mine)}
        answers = read_lines(folder / "answers.jsonl")
        assert sorted(a["guild"] for a in answers) == sorted(mine), "each server of its shard, answered once"
        assert {(a["status_code"], tuple(a["shard"])) for a in answers} == {(200, (shard, 2))}
        assert "is not in its server" not in results[shard][2], "no warning about the other shard's servers"


def test_sigkill_of_one_shard_mid_wave_the_other_sends_the_rest_once(pg_url: str, tmp_path: Path) -> None:
    asyncio.run(prepare(pg_url))
    shared = tmp_path / "sends.jsonl"
    bots = {shard: spawn(pg_url, tmp_path / f"shard{shard}", shared, shard) for shard in (0, 1)}
    survivor, victim = bots[0], bots[1]
    sharing = "2 process(es) of the bot send messages: this one at 25.0 of its 50 requests/s"
    try:
        for bot in bots.values():  # both running and pacing for two, whichever started first
            wait(bot, lambda bot=bot: sharing in log_of(bot), "count of two processes")
        wait(victim, lambda: len(created_once(shared)) >= REMINDERS // 4, "a quarter of the wave sent")
        victim.send_signal(signal.SIGKILL)
        victim.wait(timeout=30)
        killed_at = len(read_record(shared))
        assert len(created_once(shared)) < REMINDERS, "the kill came after the wave: nothing left to take over"
        wait(survivor, lambda: all_sent(pg_url), "the survivor sending the rest")
    finally:
        if victim.poll() is None:
            victim.kill()
        code, took, err = stopped(survivor)
    assert code == 0 and took < STOP_LIMIT, f"exit {code} after {took:.1f} s:\n{err}"
    check_each_sent_once(shared)
    after = [line for line in read_record(shared)[killed_at:] if not line["duplicate"]]
    assert after and {line["by"] for line in after} == {"--shard-ids 0 --shard-count 2"}
    shared_out = err.index(sharing)
    alone = err.index("1 process(es) of the bot send messages: this one at 50.0 of its 50 requests/s")
    assert shared_out < alone, "the survivor paced itself at half the bot's rate, then at all of it"
