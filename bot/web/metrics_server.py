"""The optional Prometheus endpoint, ``GET /metrics``.

Off unless ``[bot] metrics_port`` (or ``SIDELINE_METRICS_PORT``) is set: only then does the bot import
this module, and prometheus-client with it (bot/client/bot.py). It binds to ``metrics_host`` (127.0.0.1 by
default) and runs on aiohttp's web server inside the bot's event loop, started and stopped with the bot
as the calendar feed server is (bot/web/feed_server.py), behind the same limits (bot/web/listener.py).
So a scrape awaits its one database read, the outbox backlog, like any query (with a time limit), and
then renders figures kept in memory: it never holds the loop for long. prometheus-client's own server
would answer from a thread of its own, which can't await the bot's database.

Served, besides the process's own figures (CPU, memory, open files, GC):

- ``sideline_interactions_total{command, outcome}``: commands, buttons and forms handled, by outcome:
  ``ok``, ``refused`` (a polite user error: not allowed, wrong input) or ``error`` (a bug, with a ref).
- ``sideline_interaction_response_seconds{command}``: from the bot taking an interaction up to Discord
  accepting its first response (an answer or a "thinking..."): what the user waits for. Read from
  discord.py's HTTP requests (an aiohttp trace), so it is the real round trip.
- ``sideline_outbox_backlog_messages`` and ``sideline_outbox_oldest_due_age_seconds``: queued messages
  whose time has come and that are not sent yet, and how long the oldest has waited (0 when none);
  ``sideline_outbox_scheduled_messages``: queued for later. The whole outbox, whichever process sends.
  Left out of a scrape whose database read failed (logged), rather than shown stale.
- ``sideline_outbox_sends_total{status}``: this process's courier: ``sent``, ``retried``, ``failed``,
  ``skipped`` (counted as each round ends), and ``429``: rate-limit answers Discord gave its REST calls
  (the courier's sends and actions; discord.py waits them out and tries again).
- ``sideline_scheduler_lag_seconds``: how late each scheduler wake-up ran after it was due.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from types import SimpleNamespace

import aiohttp
from aiohttp import web
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    GCCollector,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.metrics_core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from sqlalchemy import case, func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot import metrics
from bot.clock import Clock
from bot.services.outbox import DeliveryStats
from bot.web.listener import Connections, HttpServer
from storage.models import OutboxMessage

log = logging.getLogger("sideline.metrics")

#: Discord shows "The application did not respond" after 3 s: the 3 bucket is that line.
RESPONSE_BUCKETS = (0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0)
LAG_BUCKETS = (0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 10.0, 30.0, 60.0, 300.0)
#: A scrape waits this long for the outbox figures, then serves the rest without them.
READ_WITHIN = 2.0
_CALLBACK = re.compile(r"/interactions/(\d+)/[^/]+/callback$")  # the token in the path is never kept
_WEBHOOK = re.compile(r"/webhooks/\d+/")  # an interaction's followups and edits
_WAITING = ("pending", "sending")


@dataclass
class _Open:
    """An interaction being handled: its command, when the bot took it up, how it is going."""

    command: str
    started: float
    outcome: str = metrics.OK
    answered: bool = False


class PrometheusRecorder(metrics.Recorder):
    """The figures, in a registry of their own (several bots in one test process don't mix)."""

    enabled = True

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        for collector in (ProcessCollector, PlatformCollector, GCCollector):
            collector(registry=self.registry)
        self.interactions = Counter("sideline_interactions", "Commands, buttons and forms handled, by outcome: "
                                    "ok, refused (a user error), error (a bug)", ["command", "outcome"],
                                    registry=self.registry)
        self.response = Histogram("sideline_interaction_response_seconds", "From taking an interaction up to "
                                  "Discord accepting its first response", ["command"], buckets=RESPONSE_BUCKETS,
                                  registry=self.registry)
        self.lag = Histogram("sideline_scheduler_lag_seconds", "How late each scheduler wake-up ran after it "
                             "was due", buckets=LAG_BUCKETS, registry=self.registry)
        self.rate_limited = 0  # 429 answers to REST calls other than interaction responses
        self._open: dict[int, _Open] = {}

    def interaction_started(self, interaction_id: int, command: str) -> None:
        self._open.setdefault(interaction_id, _Open(command, time.monotonic()))

    def interaction_outcome(self, interaction_id: int, outcome: str) -> None:
        handled = self._open.get(interaction_id)
        if handled is not None and handled.outcome == metrics.OK:
            handled.outcome = outcome

    def interaction_finished(self, interaction_id: int) -> None:
        handled = self._open.pop(interaction_id, None)
        if handled is not None:
            self.interactions.labels(handled.command, handled.outcome).inc()

    def interaction_answered(self, interaction_id: int) -> None:
        handled = self._open.get(interaction_id)
        if handled is not None and not handled.answered:
            handled.answered = True
            self.response.labels(handled.command).observe(time.monotonic() - handled.started)

    def scheduler_woke(self, late_seconds: float) -> None:
        self.lag.observe(late_seconds)

    def http_trace(self) -> aiohttp.TraceConfig:
        """For discord.py's HTTP session (``Client(http_trace=...)``): every answer Discord gives."""
        config = aiohttp.TraceConfig()
        config.on_request_end.append(self._on_request_end)
        return config

    async def _on_request_end(self, session: object, context: SimpleNamespace,
                              params: aiohttp.TraceRequestEndParams) -> None:
        path, status = params.url.path, params.response.status
        answered = _CALLBACK.search(path)
        if answered is not None:
            if status < 300:
                self.interaction_answered(int(answered[1]))
        elif status == 429 and not _WEBHOOK.search(path):
            self.rate_limited += 1


@dataclass(frozen=True)
class Backlog:
    due: int
    oldest_due_age_s: float
    scheduled: int


async def read_backlog(sessions: async_sessionmaker[AsyncSession], now: datetime) -> Backlog:
    """The outbox's waiting rows in one indexed read (``ix_outbox_due``), as `sideline health` counts them."""
    is_due = OutboxMessage.next_attempt_at <= now
    async with sessions() as session:
        due, oldest, scheduled = (await session.execute(select(
            func.coalesce(func.sum(case((is_due, 1), else_=0)), 0),
            func.min(case((is_due, OutboxMessage.next_attempt_at))),
            func.coalesce(func.sum(case((is_due, 0), else_=1)), 0),
        ).where(OutboxMessage.status.in_(_WAITING)))).one()
    if oldest is not None and oldest.tzinfo is None:
        oldest = oldest.replace(tzinfo=UTC)
    age = max(0.0, (now - oldest).total_seconds()) if oldest is not None else 0.0
    return Backlog(int(due), age, int(scheduled))


class _Outbox(Collector):
    """The courier's totals and the last backlog read, as they are at the scrape."""

    def __init__(self, recorder: PrometheusRecorder, totals: Callable[[], DeliveryStats]) -> None:
        self.recorder, self.totals = recorder, totals
        self.backlog: Backlog | None = None

    def collect(self) -> Iterator[Metric]:
        sends = CounterMetricFamily("sideline_outbox_sends", "Queued messages and Discord actions this process "
                                    "handled, by outcome; 429: rate-limit answers to its REST calls",
                                    labels=["status"])
        stats = self.totals()
        for status in ("sent", "retried", "failed", "skipped"):
            sends.add_metric([status], getattr(stats, status))
        sends.add_metric(["429"], self.recorder.rate_limited)
        yield sends
        if self.backlog is None:
            return
        yield GaugeMetricFamily("sideline_outbox_backlog_messages", "Queued messages due and not sent yet",
                                value=self.backlog.due)
        yield GaugeMetricFamily("sideline_outbox_oldest_due_age_seconds", "How long the oldest due message has "
                                "waited (0 when none)", value=self.backlog.oldest_due_age_s)
        yield GaugeMetricFamily("sideline_outbox_scheduled_messages", "Queued messages not due yet",
                                value=self.backlog.scheduled)


class MetricsServer:
    """The endpoint's life: started in the bot's setup_hook, stopped when the bot closes."""

    def __init__(self, host: str, port: int, recorder: PrometheusRecorder, *,
                 sessions: async_sessionmaker[AsyncSession], clock: Clock,
                 totals: Callable[[], DeliveryStats], connections: Connections) -> None:
        self.host, self.port = host, port
        self.recorder, self.sessions, self.clock = recorder, sessions, clock
        self.outbox = _Outbox(recorder, totals)
        recorder.registry.register(self.outbox)
        app = web.Application(client_max_size=1024)  # a scrape has no body
        app.router.add_get("/metrics", self.scrape)
        self.server = HttpServer(app, host, port, name="metrics", connections=connections,
                                 port_key="bot.metrics_port", host_key="metrics_host")

    async def scrape(self, request: web.Request) -> web.Response:
        try:
            async with asyncio.timeout(READ_WITHIN):
                self.outbox.backlog = await read_backlog(self.sessions, self.clock.now())
        except Exception as exc:  # the database is down or slow: the other figures still help
            log.warning("metrics: could not read the outbox backlog (%s: %s)", exc.__class__.__name__, exc)
            self.outbox.backlog = None
        return web.Response(body=generate_latest(self.recorder.registry), headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def start(self) -> None:
        await self.server.start()
        log.info("metrics served on http://%s:%d/metrics", self.host, self.port)

    async def stop(self) -> None:
        await self.server.stop()
