"""The scheduler's wake-ups (bot/delivery/scheduler.py) on the real APScheduler: work that comes in while a round
of sends is under way goes out at the end of that round, not at the next minute's sweep."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

from bot.clock import FixedClock
from bot.delivery.courier import Courier
from bot.delivery.scheduler import Scheduler
from bot.services.outbox import DeliveryStats
from storage.db import create_engine

NOW = datetime(2030, 1, 10, 12, 0, tzinfo=UTC)


class SlowCourier:
    """A courier whose first round waits to be let go; each round reports one message sent while rows
    are waiting, and ``due`` says what the outbox still holds."""

    def __init__(self) -> None:
        self.rounds = 0
        self.waiting = 0  # rows due now
        self.first_round_started = asyncio.Event()
        self.let_go = asyncio.Event()

    async def announce_presence(self) -> None: ...

    async def recover(self) -> int:
        return 0

    async def next_due(self) -> datetime | None:
        return NOW if self.waiting else None

    async def deliver_due(self) -> DeliveryStats:
        self.rounds += 1
        if self.rounds == 1:
            self.first_round_started.set()
            await self.let_go.wait()
        sent, self.waiting = self.waiting, 0
        return DeliveryStats(sent=sent)


async def wait_until(condition: Any, limit: float = 10.0) -> None:
    for _ in range(int(limit / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)


async def test_a_message_queued_during_a_round_goes_out_when_that_round_ends(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'outbox.db'}")
    host = type("Host", (), {"engine": engine, "clock": FixedClock(NOW)})()
    courier = SlowCourier()
    scheduler = Scheduler(cast(Any, host), cast(Courier, courier))
    courier.waiting = 1
    await scheduler.start()  # armed for the row due now: the first round starts and holds
    try:
        await asyncio.wait_for(courier.first_round_started.wait(), 10)
        courier.waiting = 2  # a relay queued while the round runs: the outbox pokes the scheduler
        scheduler.poke(NOW)
        await asyncio.sleep(0.1)  # a wake armed now would have fired (and been skipped) by now
        courier.let_go.set()
        await wait_until(lambda: courier.waiting == 0 and courier.rounds >= 2)
        assert courier.rounds >= 2 and courier.waiting == 0, "the new row waited for the sweep"
    finally:
        scheduler.shutdown()
        await engine.dispose()


async def test_the_sweep_during_a_round_does_not_start_a_second_one_beside_it(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'outbox.db'}")
    host = type("Host", (), {"engine": engine, "clock": FixedClock(NOW)})()
    courier = SlowCourier()
    scheduler = Scheduler(cast(Any, host), cast(Courier, courier))
    courier.waiting = 1
    await scheduler.start()
    try:
        await asyncio.wait_for(courier.first_round_started.wait(), 10)
        await scheduler.run_due()  # the sweep job's call, while the wake's round holds
        assert courier.rounds == 1, "two rounds ran side by side"
        courier.let_go.set()
        await wait_until(lambda: courier.rounds >= 2)
        assert courier.rounds == 2, "the sweep's round runs once the first ends"
    finally:
        scheduler.shutdown()
        await engine.dispose()
