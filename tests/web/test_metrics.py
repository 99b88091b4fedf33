"""The optional Prometheus endpoint, scraped over HTTP after real work: commands
through the real command tree (one answered, one refused, one that raises), a button, queued messages
sent, failed, retried and rate-limited by the fake Discord, a backlog left due, a late scheduler
wake-up. With ``metrics_port`` unset nothing is served and prometheus-client is never imported; set
without the extra, `sideline run` refuses in one line."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import aiohttp
import discord
import pytest
from aiohttp import web
from discord import app_commands
from prometheus_client.parser import text_string_to_metric_families

from bot.cli import main as cli
from bot.config.settings import Settings
from bot.web.metrics_server import PrometheusRecorder
from tests.commands.test_calendar import free_port
from tests.conftest import SampleLeague, league_config, make_settings
from tests.delivery.test_courier import TEAM_CHANNEL, queue
from tests.harness import Fault, Harness

ROOT = Path(__file__).resolve().parents[2]
Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


@pytest.fixture
def settings() -> Settings:
    return dataclasses.replace(make_settings(league_config()), metrics_port=free_port())


async def scrape(h: Harness) -> tuple[str, Samples]:
    """GET /metrics as Prometheus would; the samples by (name, labels)."""
    url = f"http://127.0.0.1:{h.bot.settings.metrics_port}/metrics"
    async with aiohttp.ClientSession() as http, http.get(url) as response:
        assert response.status == 200
        content_type, body = response.headers["Content-Type"], await response.text()
    samples = {(s.name, frozenset(s.labels.items())): s.value
               for family in text_string_to_metric_families(body) for s in family.samples}
    return content_type, samples


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


@pytest.fixture
async def explode(harness: Harness) -> AsyncIterator[None]:
    @app_commands.command(name="explode", description="Always fails")
    async def command(interaction: discord.Interaction) -> None:
        raise RuntimeError("a bug")

    harness.bot.tree.add_command(command)
    yield


async def test_a_scrape_shows_the_interactions_the_sends_and_the_backlog(
        harness: Harness, league: SampleLeague, explode: None) -> None:
    _, before = await scrape(harness)
    assert not [name for name, _ in before if name == "sideline_interactions_total"]
    reminders = value(before, "sideline_outbox_scheduled_messages")  # the sample season's, for later
    assert reminders > 0 and value(before, "sideline_outbox_backlog_messages") == 0
    ok = await harness.slash("/schedule", as_=league.player("Alice Hart"))
    refused = await harness.slash("/announce", as_=league.player("Alice Hart"), message="Free pizza")
    failed = await harness.slash("/explode", as_=league.player("Alice Hart"))
    pressed = await harness.press("sideline:checkin:G1:in", as_=league.player("Bea Quinn"))
    assert ok.responses and "went wrong" not in ok.text
    assert "Only a commissioner" in refused.content and "(ref " in failed.content and pressed.responses

    # The courier: two sent (one after a 429 discord.py waited out), one refused by its channel (failed,
    # and the admins' notice about it sent), one retried later after Discord's server errors.
    harness.discord.faults += [
        Fault("POST", rf"^/channels/{TEAM_CHANNEL}/messages$", 429, times=1,
              body={"message": "slow down", "retry_after": 0.01, "global": False}),
        Fault("POST", rf"^/channels/{TEAM_CHANNEL + 1}/messages$", 503, times=2),
    ]
    harness.discord.missing_channels.add(TEAM_CHANNEL + 2)
    for key, channel in (("a", TEAM_CHANNEL), ("b", TEAM_CHANNEL), ("retry", TEAM_CHANNEL + 1),
                         ("gone", TEAM_CHANNEL + 2)):
        await queue(harness, key, channel=channel)
    stats = await harness.bot.courier.deliver_due()
    assert (stats.sent, stats.failed, stats.retried) == (3, 1, 1)
    # Left waiting: two due (the older 5 minutes ago), one for tomorrow.
    await queue(harness, "late-1", delay=-timedelta(minutes=5))
    await queue(harness, "late-2", delay=-timedelta(minutes=1))
    await queue(harness, "tomorrow", delay=timedelta(days=1))

    content_type, samples = await scrape(harness)
    assert content_type.startswith("text/plain; version=")
    counted = {(dict(labels)["command"], dict(labels)["outcome"]): n for (name, labels), n in samples.items()
               if name == "sideline_interactions_total"}
    assert counted == {("schedule", "ok"): 1, ("announce", "refused"): 1, ("explode", "error"): 1,
                       ("component:CheckInButton", "ok"): 1}
    for command in ("schedule", "announce", "explode", "component:CheckInButton"):
        assert value(samples, "sideline_interaction_response_seconds_count", command=command) == 1
        assert 0 < value(samples, "sideline_interaction_response_seconds_sum", command=command) < 3
        assert value(samples, "sideline_interaction_response_seconds_bucket", command=command, le="3.0") == 1
    sends = {dict(labels)["status"]: n for (name, labels), n in samples.items()
             if name == "sideline_outbox_sends_total"}
    assert sends == {"sent": 3, "retried": 1, "failed": 1, "skipped": 0, "429": 1}
    assert value(samples, "sideline_outbox_backlog_messages") == 2
    assert value(samples, "sideline_outbox_oldest_due_age_seconds") == 300  # the bot's clock
    assert value(samples, "sideline_outbox_scheduled_messages") == reminders + 2  # + tomorrow's and the retry
    assert value(samples, "process_resident_memory_bytes") > 0

    await harness.bot.courier.deliver_due()  # the backlog goes out: the next scrape says so
    _, samples = await scrape(harness)
    assert value(samples, "sideline_outbox_backlog_messages") == 0
    assert value(samples, "sideline_outbox_oldest_due_age_seconds") == 0
    assert value(samples, "sideline_outbox_sends_total", status="sent") == 5


async def test_scheduler_lag_is_how_late_a_wake_up_ran(harness: Harness) -> None:
    bot = harness.bot
    await bot.scheduler.start()
    bot.scheduler.poke(bot.clock.now(), force=True)  # a wake-up due now...
    time.sleep(0.3)  # noqa: ASYNC251 - ...and the event loop stalls: it runs late
    for _ in range(250):
        _, samples = await scrape(harness)
        if value(samples, "sideline_scheduler_lag_seconds_count"):
            break
        await asyncio.sleep(0.02)
    assert value(samples, "sideline_scheduler_lag_seconds_count") == 1
    assert value(samples, "sideline_scheduler_lag_seconds_sum") >= 0.3
    assert value(samples, "sideline_scheduler_lag_seconds_bucket", le="0.1") == 0
    assert value(samples, "sideline_scheduler_lag_seconds_bucket", le="+Inf") == 1


async def test_a_scrape_without_the_database_still_answers(harness: Harness, monkeypatch: pytest.MonkeyPatch,
                                                           caplog: pytest.LogCaptureFixture) -> None:
    async def down(*args: object) -> None:
        raise OSError("connection refused")

    monkeypatch.setattr("bot.web.metrics_server.read_backlog", down)
    _, samples = await scrape(harness)
    assert ("sideline_outbox_backlog_messages", frozenset()) not in samples  # left out, never stale
    assert value(samples, "sideline_outbox_sends_total", status="sent") == 0
    assert "could not read the outbox backlog" in caplog.text


async def test_the_trace_reads_real_aiohttp_requests() -> None:
    """The harness's fake session plays aiohttp's part in tracing; here real aiohttp does, against a
    local server answering at Discord's paths: an interaction's callback, and a 429 on a send."""
    async def callback(request: web.Request) -> web.Response:
        return web.json_response({}, status=200)

    async def limited(request: web.Request) -> web.Response:
        return web.json_response({"retry_after": 0.0, "global": False}, status=429)

    app = web.Application()
    app.router.add_post("/api/v10/interactions/{id}/{token}/callback", callback)
    app.router.add_post("/api/v10/channels/{id}/messages", limited)
    app.router.add_post("/api/v10/webhooks/{id}/{token}", limited)
    runner = web.AppRunner(app)
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    recorder = PrometheusRecorder()
    recorder.interaction_started(123, "schedule")
    try:
        async with aiohttp.ClientSession(trace_configs=[recorder.http_trace()]) as http:
            base = f"http://127.0.0.1:{port}/api/v10"
            for path in ("/interactions/123/secret-token/callback", "/channels/5/messages", "/webhooks/9/tok"):
                async with http.post(base + path, json={}):
                    pass
    finally:
        await runner.cleanup()
    recorder.interaction_finished(123)
    sample = recorder.registry.get_sample_value
    assert sample("sideline_interaction_response_seconds_count", {"command": "schedule"}) == 1
    assert recorder.rate_limited == 1  # the send's; a followup's 429 is the interaction's, not the courier's
    assert sample("sideline_interactions_total", {"command": "schedule", "outcome": "ok"}) == 1


def test_unset_it_serves_nothing_and_imports_nothing(db_url: str) -> None:
    """In a fresh process (this one has imported prometheus-client for the tests above): a bot built
    and started through the harness, with metrics_port unset."""
    script = f"""
import asyncio, json, sys
from bot.run.app import create_bot
from storage.db import create_engine
from tests.conftest import league_config, make_settings
from tests.harness import Harness

async def main():
    bot = create_bot(make_settings(league_config()), engine=create_engine({db_url!r}), run_scheduler=False)
    h = await Harness(bot).start()
    try:
        print(json.dumps({{"server": bot.metrics_server is not None, "trace": bot.http.http_trace is not None,
                          "recorder": bot.metrics.enabled,
                          "imported": sorted(m for m in sys.modules
                                             if m.startswith(("prometheus", "bot.web.metrics_")))}}))
    finally:
        await h.close()

asyncio.run(main())
"""
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1]) == {"server": False, "trace": False, "recorder": False,
                                                          "imported": []}


@pytest.mark.parametrize(("config", "environ", "where"), [
    ("[bot]\nmetrics_port = 9464\n", {}, "bot.metrics_port"),
    ("[bot]\n", {"SIDELINE_METRICS_PORT": "9464"}, "SIDELINE_METRICS_PORT"),
])
def test_set_without_the_extra_the_bot_refuses_to_start_in_one_line(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, config: str,
        environ: dict[str, str], where: str) -> None:
    monkeypatch.setitem(sys.modules, "prometheus_client", None)  # as if the extra were not installed
    monkeypatch.setenv("SIDELINE_TOKEN", "a-token")
    for name, variable in environ.items():
        monkeypatch.setenv(name, variable)
    path = tmp_path / "config.toml"
    path.write_text(config + f'database_url = "sqlite+aiosqlite:///{tmp_path / "bot.db"}"\n')
    code = cli.main(["--config", str(path), "run"])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.splitlines() == [f"sideline: {where} = 9464: the metrics need prometheus-client, which is not "
                                "installed (pip install 'sideline[metrics]'; in a source tree: .venv/bin/pip "
                                "install -e '.[metrics]'; or unset it)"]
    assert not (tmp_path / "bot.db").exists()  # refused before it touched the database


async def test_a_port_already_taken_stops_the_start_in_one_line(db_url: str) -> None:
    from bot.cli import failures
    from bot.errors import CannotListen
    from bot.run.app import create_bot
    from storage.db import create_engine

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        settings = dataclasses.replace(make_settings(league_config()), metrics_port=port)
        harness = Harness(create_bot(settings, engine=create_engine(db_url), run_scheduler=False))
        try:
            with pytest.raises(CannotListen) as refused:
                await harness.start()
        finally:
            await harness.close()
    assert failures.explain(refused.value) == (
        f"bot.metrics_port = {port}: can't listen on 127.0.0.1:{port} (address already in use) (stop what "
        "listens there, or pick another port or metrics_host)", failures.USAGE)
