"""The graceful stop's parts in one process (bot/run/lifecycle.py); tests/reliability/test_graceful_stop.py sends the
real SIGTERM to a real `sideline run`."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from bot.run.lifecycle import AlreadyRunning, lock_path, single_process, stop_gracefully
from storage.models import OutboxMessage
from tests.conftest import SampleLeague
from tests.delivery.test_courier import TEAM_CHANNEL, queue
from tests.harness import Call, Harness


async def test_a_stopping_courier_finishes_its_send_and_hands_the_rest_back(harness: Harness) -> None:
    for i in range(8):
        await queue(harness, f"k{i}")
    courier = harness.bot.courier

    def stop_after_the_third(call: Call) -> None:
        if call.channel_id == TEAM_CHANNEL and len(harness.discord.channel_messages(TEAM_CHANNEL)) == 3:
            courier.stop()  # SIGTERM while the third message is on its way

    harness.discord.hooks.append(stop_after_the_third)
    stats = await courier.deliver_due()
    assert stats.sent == 3
    assert [c.content for c in harness.discord.channel_messages(TEAM_CHANNEL)] == ["hello k0", "hello k1", "hello k2"]
    async with harness.bot.sessions() as s:
        rows = (await s.execute(select(OutboxMessage.send_key, OutboxMessage.status, OutboxMessage.attempts,
                                       OutboxMessage.claimed_by).order_by(OutboxMessage.send_key))).all()
    assert [tuple(r) for r in rows] == [(f"k{i}", "sent", 1, courier.claimer) for i in range(3)] + [
        (f"k{i}", "pending", 0, None) for i in range(3, 8)]  # back in the queue, no attempt counted


async def test_an_interaction_in_flight_when_the_stop_comes_is_answered_and_stored(
        harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    league = await SampleLeague(harness).load()
    service = harness.bot.services.checkins
    real_check_in = service.check_in
    started, release = asyncio.Event(), asyncio.Event()

    async def slow_check_in(*args: Any, **kwargs: Any) -> Any:
        started.set()
        await release.wait()  # still working when the stop begins
        return await real_check_in(*args, **kwargs)

    monkeypatch.setattr(service, "check_in", slow_check_in)
    gateway = asyncio.create_task(asyncio.Event().wait())
    reply = asyncio.create_task(harness.slash("/checkin", as_=league.player("Alice Hart"), status="in", game="G1"))
    await started.wait()
    stopping = asyncio.create_task(stop_gracefully(harness.bot, gateway, within=5))
    await asyncio.sleep(0.2)
    assert not stopping.done(), "the stop waits for the check-in in flight"
    release.set()
    await stopping
    assert gateway.cancelled() and harness.bot.is_closed()
    assert (await reply).content.startswith("You're **in**")


def test_one_bot_per_sqlite_file(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'league.db'}"
    assert lock_path(url) == (tmp_path / "league.db.lock").resolve()
    with single_process(url), pytest.raises(AlreadyRunning, match="another Sideline bot is running on"), \
            single_process(url):
        pass
    with single_process(url):  # released when the first bot stopped
        pass


def test_postgresql_takes_any_number_of_processes() -> None:
    assert lock_path("postgresql+asyncpg://postgres@127.0.0.1:5432/test") is None
