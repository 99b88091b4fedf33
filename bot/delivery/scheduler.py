"""APScheduler only wakes the bot; the outbox table says what is due and what was sent.

One date job (id ``outbox:wake``) is armed for the earliest due row and re-armed after each
round; a sweep job (id ``outbox:sweep``) catches anything armed while the loop was busy. Work that
comes in during a round makes the round go once more: a wake armed for "now" while the wake job
runs would be skipped by APScheduler (one instance of a job at a time) and wait for the sweep. The wake
job also fires when a claim's lease runs out, so a stopped process's sends are taken back then.
Rebuilding at start is one indexed query, so a restart neither loses nor repeats a send.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from typing import Protocol

from apscheduler.events import EVENT_JOB_SUBMITTED, JobSubmissionEvent
from apscheduler.schedulers.asyncio import AsyncIOScheduler
from sqlalchemy.ext.asyncio import AsyncEngine

from bot import metrics
from bot.clock import Clock
from bot.delivery.courier import Courier
from bot.services import outbox

log = logging.getLogger("sideline.scheduler")

WAKE_JOB = "outbox:wake"
SWEEP_JOB = "outbox:sweep"
SWEEP_EVERY = timedelta(seconds=60)
IDLE_RETRY = timedelta(seconds=1)  # due rows a round could not take (another process holds them): look again


class SchedulerHost(Protocol):
    """What the scheduler needs of the bot: the engine (to hear of new work) and the bot's clock."""

    engine: AsyncEngine
    clock: Clock


class Scheduler:
    def __init__(self, bot: SchedulerHost, courier: Courier, recorder: metrics.Recorder = metrics.OFF) -> None:
        self.bot = bot
        self.courier = courier
        self.aps = AsyncIOScheduler(timezone=UTC, job_defaults={
            "misfire_grace_time": 24 * 3600, "coalesce": True, "max_instances": 1})
        self._armed_for: datetime | None = None
        self._delivering = False  # a round is under way (from the wake or the sweep job)
        self._again = False  # work came in during that round: it goes once more
        if recorder.enabled:
            self.aps.add_listener(lambda event: _woke(recorder, event), EVENT_JOB_SUBMITTED)

    async def start(self) -> None:
        await self.courier.announce_presence()
        await self.courier.recover()  # what the last process held goes out again, at once
        outbox.on_new_work(self.bot.engine.sync_engine, self.poke)
        self.aps.start()
        self.aps.add_job(self.run_due, "interval", seconds=SWEEP_EVERY.total_seconds(), id=SWEEP_JOB,
                         replace_existing=True)
        await self.rearm()

    def pause(self) -> None:
        """No new wake-ups (a graceful stop, bot/run/lifecycle.py). Unlike shutdown, which cancels the
        round under way (APScheduler's asyncio executor cancels its running jobs), that round ends."""
        if self.aps.running:
            self.aps.pause()

    def shutdown(self) -> None:
        if self.aps.running:
            self.aps.shutdown(wait=False)

    async def rearm(self) -> None:
        """Arm the wake job for the earliest pending send (the reconcile step at start)."""
        when = await self.courier.next_due()
        if when is not None:
            self.poke(when, force=True)

    def poke(self, when: datetime, *, force: bool = False) -> None:
        """New work due at ``when``: wake earlier than planned if needed."""
        if not self.aps.running:
            return
        if self._delivering and not force and when <= self.bot.clock.now():
            self._again = True
            return
        if not force and self._armed_for is not None and self._armed_for <= when:
            return
        run_at = max(when, self.bot.clock.now())
        self._armed_for = run_at
        self.aps.add_job(self.run_due, "date", run_date=_wall_clock(run_at, self.bot.clock.now()),
                         id=WAKE_JOB, replace_existing=True)

    async def run_due(self) -> None:
        """Rounds of sends until nothing new is due, then the wake armed for the next due row. The wake
        and the sweep jobs never run two rounds side by side: the second asks the first to go again."""
        if self._delivering:
            self._again = True
            return
        self._delivering = True
        try:
            while True:
                self._again, self._armed_for = False, None
                try:
                    stats = await self.courier.deliver_due()
                    when = await self.courier.next_due()
                except BaseException:  # the database went away, say: look again soon, the sweep after that
                    self.poke(self.bot.clock.now() + IDLE_RETRY, force=True)
                    raise
                progress = bool(stats.sent or stats.retried or stats.failed or stats.skipped)
                now = self.bot.clock.now()
                if progress and (self._again or (when is not None and when <= now)):
                    continue
                if when is not None:  # rows due now that this round couldn't take: not in a busy loop
                    self.poke(when if when > now else now + IDLE_RETRY, force=True)
                elif self._again:
                    self.poke(now + IDLE_RETRY, force=True)
                return
        finally:
            self._delivering = False


def _woke(recorder: metrics.Recorder, event: JobSubmissionEvent) -> None:
    """How late a wake-up (or a sweep) was handed to the loop after its due time (a stalled loop, a busy
    round before it); APScheduler coalesces missed runs into the latest, so that is the one measured."""
    recorder.scheduler_woke(max(0.0, (datetime.now(UTC) - min(event.scheduled_run_times)).total_seconds()))


def _wall_clock(due: datetime, league_now: datetime) -> datetime:
    """APScheduler runs on the real clock; translate a due time on the bot's clock to it."""
    delay = max(timedelta(0), due - league_now)
    return datetime.now(UTC) + delay
