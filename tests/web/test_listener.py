"""The HTTP servers against clients that hold connections (bot/web/listener.py): real sockets on
127.0.0.1, the real aiohttp server. A thousand idle connections neither block a calendar app's request
nor stay open past the timeout; a request trickled in, or an answer never read, is cut off; at the
cap the oldest idle connection makes room, and a request waits while every connection is answering;
a malformed request and a failed accept log one short line, at most one a minute with a count."""

from __future__ import annotations

import asyncio
import configparser
import dataclasses
import logging
import os
import re
import resource
import socket
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web

from bot.clock import FixedClock
from bot.config.settings import (
    DEFAULT_HTTP_MAX_CONNECTIONS,
    CalendarServer,
    HttpLimits,
    Settings,
    SettingsError,
    parse_settings,
)
from bot.run.app import create_bot
from bot.web import listener
from bot.web.listener import Connections, HttpServer, Quiet, send
from storage.db import create_engine
from tests.commands.test_calendar import free_port, token_of
from tests.conftest import SampleLeague, league_config, make_settings
from tests.harness import Harness

LOG = "sideline.web"


async def connect(port: int) -> socket.socket:
    sock = socket.socket()
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
    return sock


async def closed_by_server(sock: socket.socket, within: float) -> bool:
    """Whether the server closes it within ``within`` seconds (what it sent before is read and dropped)."""
    loop = asyncio.get_running_loop()
    try:
        async with asyncio.timeout(within):
            while await loop.sock_recv(sock, 65536):
                pass
    except TimeoutError:
        return False
    except ConnectionResetError:
        pass
    return True


async def fetch(port: int, path: str = "/", **headers: str) -> tuple[int, bytes, dict[str, str]]:
    async with aiohttp.ClientSession() as http, http.get(f"http://127.0.0.1:{port}{path}", headers=headers) as r:
        return r.status, await r.read(), dict(r.headers)


def enough_files(needed: int) -> None:
    """Raise this process's soft limit on open files to ``needed`` (within the hard limit), or skip."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < needed:
        if hard != resource.RLIM_INFINITY and hard < needed:
            pytest.skip(f"needs {needed} open files; the hard limit is {hard}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (needed, hard))


@asynccontextmanager
async def serving(app: web.Application, limits: HttpLimits, quiet: float = 60.0) -> AsyncIterator[HttpServer]:
    connections = Connections(limits, quiet=Quiet(logging.getLogger(LOG), quiet))
    server = HttpServer(app, "127.0.0.1", free_port(), name="test server", connections=connections,
                        port_key="bot.test_port", host_key="test_host")
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


def hello_app() -> web.Application:
    async def hello(request: web.Request) -> web.Response:
        return web.Response(text="hello")

    app = web.Application()
    app.router.add_get("/", hello)
    return app


# --- a thousand idle connections, through the bot's own feed server ----------------------------------------
IDLE, HELD = 5.0, 1000


@pytest.fixture
def settings() -> Settings:
    """The feed server on, with a timeout short enough to wait for and a cap of exactly the idle ones."""
    return dataclasses.replace(make_settings(league_config()), calendar_server=CalendarServer(port=free_port(), base_url="https://cal.example.org/sideline"),
                               http=HttpLimits(idle_timeout=IDLE, max_connections=HELD))


async def test_a_thousand_idle_connections_neither_block_a_request_nor_outstay_the_timeout(
        settings: Settings, db_url: str, clock: FixedClock) -> None:
    enough_files(2 * HELD + 500)  # both ends of each connection live in this process
    assert settings.calendar_server is not None
    port = settings.calendar_server.port
    h = await Harness(create_bot(settings, engine=create_engine(db_url), clock=clock, run_scheduler=False)).start()
    idle: list[socket.socket] = []
    try:
        league = await SampleLeague(h).load()
        path = f"/cal/{token_of(await h.slash('/calendar show', as_=league.player('Bea Quinn')))}.ics"
        assert h.bot.feed_server is not None
        connections = h.bot.feed_server.server.connections
        assert (await fetch(port, path))[0] == 200  # icalendar loaded, the file built and kept

        opened = time.monotonic()
        for _ in range(HELD // 100):  # a hundred at a time: more at once would overflow the listen queue
            idle += await asyncio.gather(*(connect(port) for _ in range(100)))
        for _ in range(200):  # accepted one at a time; on a busy machine that takes a moment
            if len(connections.open) == HELD:
                break
            await asyncio.sleep(0.01)
        assert len(connections.open) == HELD and connections.evicted == 0

        asked = time.monotonic()
        async with asyncio.timeout(1.0):
            status, body, headers = await fetch(port, path)
        answered_in = time.monotonic() - asked
        assert status == 200 and b"BEGIN:VCALENDAR" in body and headers["Connection"] == "close"
        assert answered_in < 1.0
        # At the cap, the oldest idle connection made room; the other 999 are still held.
        assert connections.evicted == 1
        assert await closed_by_server(idle[0], 1.0) or await closed_by_server(idle[1], 0.1)
        assert len(connections.open) == HELD - 1

        # After the timeout every one of them is closed by the server, none before it.
        results = await asyncio.gather(*(closed_by_server(s, IDLE + 5.0) for s in idle))
        assert all(results)
        assert time.monotonic() - opened >= IDLE - 0.5
        assert connections.open == {}
    finally:
        for sock in idle:
            sock.close()
        await h.close()


# --- deadlines ---------------------------------------------------------------------------------------------
async def test_a_request_trickled_in_is_cut_off_at_the_timeout_and_a_whole_one_is_answered() -> None:
    async with serving(hello_app(), HttpLimits(idle_timeout=0.5, max_connections=10)) as server:
        loop = asyncio.get_running_loop()
        slow = await connect(server.port)
        started = time.monotonic()
        await loop.sock_sendall(slow, b"GET / HTTP/1.1\r\nHost: x\r\n")

        async def trickle() -> None:
            with pytest.raises(OSError):  # the server closed it: a write fails, sooner or later
                for _ in range(100):
                    await loop.sock_sendall(slow, b"X")
                    await asyncio.sleep(0.05)

        trickling = asyncio.create_task(trickle())
        assert await closed_by_server(slow, 3.0)
        assert 0.4 < time.monotonic() - started < 3.0
        await trickling
        slow.close()
        status, body, headers = await fetch(server.port)
        assert (status, body, headers["Connection"]) == (200, b"hello", "close")
        assert server.connections.open == {}


async def test_blank_lines_are_not_a_request() -> None:
    """Blank lines before a request are allowed and ignored: they don't stop the clock."""
    async with serving(hello_app(), HttpLimits(idle_timeout=0.5, max_connections=10)) as server:
        sock = await connect(server.port)
        await asyncio.get_running_loop().sock_sendall(sock, b"\r\n\r\n\n\n\r\n")
        assert await closed_by_server(sock, 3.0)
        sock.close()
        assert server.connections.open == {}


async def test_an_answer_the_client_stops_reading_is_cut_off() -> None:
    sent: list[web.StreamResponse] = []

    async def big(request: web.Request) -> web.StreamResponse:
        sent.append(await send(request, b"x" * (32 * 1024 * 1024), {"Content-Type": "text/plain"}, within=0.5))
        return sent[-1]

    app = web.Application()
    app.router.add_get("/big", big)
    async with serving(app, HttpLimits(idle_timeout=0.5, max_connections=10)) as server:
        loop = asyncio.get_running_loop()
        client = socket.socket()
        client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        client.setblocking(False)
        await loop.sock_connect(client, ("127.0.0.1", server.port))
        await loop.sock_sendall(client, b"GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
        for _ in range(300):  # never read: the server gives up on it
            if sent and not server.connections.open:
                break
            await asyncio.sleep(0.02)
        assert sent and server.connections.open == {}
        client.close()


# --- the cap -----------------------------------------------------------------------------------------------
async def test_at_the_cap_the_oldest_idle_connection_makes_room() -> None:
    async with serving(hello_app(), HttpLimits(idle_timeout=30, max_connections=3)) as server:
        idle = [await connect(server.port) for _ in range(3)]
        for _ in range(100):
            if len(server.connections.open) == 3:
                break
            await asyncio.sleep(0.01)
        assert (await fetch(server.port))[:2] == (200, b"hello")
        assert await closed_by_server(idle[0], 2.0)  # the oldest
        assert not await closed_by_server(idle[1], 0.2) and not await closed_by_server(idle[2], 0.01)
        assert server.connections.evicted == 1
        for sock in idle:
            sock.close()


async def test_at_the_cap_with_every_connection_answering_the_next_waits_its_turn() -> None:
    release = asyncio.Event()
    started: list[int] = []

    async def slow(request: web.Request) -> web.Response:
        started.append(1)
        await release.wait()
        return web.Response(text="done")

    app = web.Application()
    app.router.add_get("/", slow)
    async with serving(app, HttpLimits(idle_timeout=30, max_connections=3)) as server:
        busy = [asyncio.create_task(fetch(server.port)) for _ in range(3)]
        for _ in range(200):
            if len(started) == 3:
                break
            await asyncio.sleep(0.01)
        assert len(started) == 3
        fourth = asyncio.create_task(fetch(server.port))
        await asyncio.sleep(0.3)
        assert len(started) == 3 and not fourth.done()  # waiting in the listen queue, nobody evicted
        assert len(server.connections.open) == 3 and server.connections.evicted == 0
        release.set()
        answers = await asyncio.gather(*busy, fourth)
        assert [a[:2] for a in answers] == [(200, b"done")] * 4


def test_the_cap_stays_under_the_file_limit(monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(listener, "fd_limit", lambda: 1024)
    assert Connections(HttpLimits(max_connections=512)).cap == 512
    assert not caplog.records
    assert Connections(HttpLimits(max_connections=5000)).cap == 1024 - listener.RESERVED_FDS
    assert caplog.messages == ["http_max_connections is 5000 but this process may open only 1024 files: serving "
                               "at most 768 connections (raise the limit, e.g. LimitNOFILE in "
                               "deploy/sideline.service)"]
    monkeypatch.setattr(listener, "fd_limit", lambda: None)
    assert Connections(HttpLimits(max_connections=5000)).cap == 5000


# --- quiet logs --------------------------------------------------------------------------------------------
SECRET = b"SECRET-CLIENT-BYTES"
MALFORMED = [
    b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + SECRET + b"\r\n\r\n",  # TLS spoken to a plain-HTTP port
    b"GET / HTTP/1.1\r\nHost: x\r\nX-" + SECRET + b"\x00: y\r\n\r\n",  # a header name no server takes
    b"GET /" + SECRET * 1000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",  # a request line far too long
    b"BREW " + SECRET + b" HTCPCP/1.0\r\n\r\n",
]


async def answer_to(port: int, raw: bytes) -> bytes:
    loop = asyncio.get_running_loop()
    sock = await connect(port)
    try:
        await loop.sock_sendall(sock, raw)
        chunks = []
        async with asyncio.timeout(5):
            while chunk := await loop.sock_recv(sock, 65536):
                chunks.append(chunk)
    except ConnectionResetError:
        pass
    finally:
        sock.close()
    return b"".join(chunks)


async def test_a_malformed_request_logs_one_short_line_without_the_clients_bytes(
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    async with serving(hello_app(), HttpLimits(idle_timeout=5, max_connections=10), quiet=0) as server:
        for i, raw in enumerate(MALFORMED, start=1):
            answer = await answer_to(server.port, raw)
            assert re.match(rb"HTTP/1\.[01] 4\d\d ", answer), answer[:100]
            lines = [r for r in caplog.records if r.name.startswith(("sideline", "aiohttp", "asyncio"))]
            assert len(lines) == i, [r.getMessage() for r in lines]
        assert (await fetch(server.port))[:2] == (200, b"hello")  # the server carries on
    for record in lines:
        message = record.getMessage()
        assert record.name == LOG and record.levelno == logging.INFO and record.exc_info is None
        assert re.fullmatch(r"test server: a malformed request \(\w+\), answered 4\d\d", message), message
        assert "SECRET" not in message and len(message) < 100
    assert len(caplog.text) < 1000  # the old log: 132 KB for seven requests


async def test_malformed_requests_are_counted_not_each_logged(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    async with serving(hello_app(), HttpLimits(idle_timeout=5, max_connections=10), quiet=1.0) as server:
        for _ in range(30):
            await answer_to(server.port, MALFORMED[0])
        assert len(caplog.records) == 1  # the first at once
        await asyncio.sleep(1.2)
    assert [r.getMessage() for r in caplog.records] == [
        "test server: a malformed request (BadHttpMethod), answered 400",
        "test server: a malformed request (BadHttpMethod), answered 400 (29 more in the last 1 s)"]


async def test_failed_accepts_are_counted_not_each_logged(monkeypatch: pytest.MonkeyPatch,
                                                          caplog: pytest.LogCaptureFixture) -> None:
    """Out of file descriptors for real: the soft limit lowered to what is open, then the gaps filled."""
    caplog.set_level(logging.INFO)
    monkeypatch.setattr(listener, "ACCEPT_RETRY", 0.01)  # retried often: without the count, a line each time
    async with serving(hello_app(), HttpLimits(idle_timeout=30, max_connections=100), quiet=0.5) as server:
        clients = [socket.socket() for _ in range(5)]  # made now: connecting needs no new descriptor
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        fillers: list[int] = []
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(int(fd) for fd in os.listdir("/proc/self/fd")) + 8, hard))
        try:
            while True:
                try:
                    fillers.append(os.open(os.devnull, os.O_RDONLY))
                except OSError:
                    break
            for client in clients:
                client.setblocking(False)
                await asyncio.get_running_loop().sock_connect(client, ("127.0.0.1", server.port))
            await asyncio.sleep(1.2)
        finally:
            for fd in fillers:
                os.close(fd)
            resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
        failed = server.connections.quiet.total["accept test server"]
        await asyncio.sleep(0.6)  # the last count is written
        lines = [r for r in caplog.records if "could not accept" in r.getMessage()]
        assert failed >= 20
        assert 2 <= len(lines) <= 4  # one at once, then one per half second
        assert all(r.exc_info is None and len(r.getMessage()) < 150 for r in lines)
        assert lines[0].getMessage() == "test server: could not accept a connection (Too many open files); 0 open"
        counted = 1 + sum(int(m[1]) for r in lines[1:] if (m := re.search(r"\((\d+) more in the last", r.getMessage())))
        assert counted == failed
        loop = asyncio.get_running_loop()
        for client in clients:  # waiting in the listen queue all along: taken now
            await loop.sock_sendall(client, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            assert (await loop.sock_recv(client, 4096)).startswith(b"HTTP/1.1 200 ")
            client.close()


# --- the settings ------------------------------------------------------------------------------------------
def test_the_limits_default_and_can_be_set() -> None:
    assert parse_settings({"bot": {}}).http == HttpLimits(idle_timeout=10.0, max_connections=512)
    assert parse_settings({"bot": {"http_idle_timeout": "30s", "http_max_connections": 2000}}).http == HttpLimits(
        idle_timeout=30.0, max_connections=2000)


@pytest.mark.parametrize(("bot", "key"), [
    ({"http_idle_timeout": "0s"}, "bot.http_idle_timeout"),
    ({"http_idle_timeout": "2h"}, "bot.http_idle_timeout"),
    ({"http_idle_timeout": 10}, "bot.http_idle_timeout"),
    ({"http_max_connections": 0}, "bot.http_max_connections"),
    ({"http_max_connections": "500"}, "bot.http_max_connections"),
    ({"http_max_connections": True}, "bot.http_max_connections"),
])
def test_bad_limits_are_named(bot: dict[str, object], key: str) -> None:
    with pytest.raises(SettingsError) as refused:
        parse_settings({"bot": bot}, Path("config.toml"))
    assert refused.value.key == key


def test_the_systemd_unit_allows_the_default_cap_and_the_bots_own_files() -> None:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str
    unit.read(Path(__file__).resolve().parents[2] / "deploy" / "sideline.service")
    assert int(unit["Service"]["LimitNOFILE"]) >= DEFAULT_HTTP_MAX_CONNECTIONS + listener.RESERVED_FDS
