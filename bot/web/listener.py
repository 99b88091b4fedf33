"""How the bot's HTTP servers take connections, so that clients that hold them can't take the bot down.

The calendar feed and the metrics run on aiohttp's web server inside the bot's event loop. Left to
itself, a server holds a connection that never sends a request for as long as the client likes,
accepts until the process runs out of file descriptors (then every accept fails and is logged with a
traceback, once a second), and logs a malformed request with a traceback quoting the client's bytes.
Here, with aiohttp's and asyncio's public APIs:

- **A deadline for the request.** A connection must send a whole request head within the idle
  timeout (``[bot] http_idle_timeout``) of opening, else it is closed; it serves that one request
  (``Connection: close``: nothing is gained by keeping it open for the next, an hour later); an
  answer the client stops reading for that long is cut off (`send`).
- **A cap** (``[bot] http_max_connections``) on the connections both servers hold, lowered to fit
  under the process's file-descriptor limit with room for the bot's own sockets and database
  (`RESERVED_FDS`). At the cap, the oldest connection that has not sent a whole request yet is closed
  to make room (an idle or trickling client gives way to one that asks); when every connection is
  answering a request, the next waits in the kernel's listen queue, using no descriptor, until one
  closes. The accept loop is our own (``loop.sock_accept``), so it can wait there.
- **Quiet logs.** A failed accept, and a malformed request, is one short line without the
  client's bytes, and at most one line per kind a minute, with the count of the rest (`Quiet`).
"""

from __future__ import annotations

import asyncio
import errno
import logging
import resource
import socket
from collections.abc import Callable
from typing import Any

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError

from bot.config.settings import HttpLimits
from bot.errors import CannotListen

log = logging.getLogger("sideline.web")

#: File descriptors left for the bot itself: the gateway, Discord's HTTP pool, the database's
#: connections and files, logs. The cap is lowered to the limit minus these.
RESERVED_FDS = 256
#: The least cap, however low the limit: a limit this low fails elsewhere first.
LEAST_CAP = 8
#: After a failed accept (out of descriptors), wait this long: the client waits in the listen queue.
ACCEPT_RETRY = 1.0
#: A kind of log line is written at most once per this many seconds; the rest are counted.
QUIET_INTERVAL = 60.0
#: A failed accept that only means the client left before it was taken: not worth a line.
_CLIENT_GONE = {errno.ECONNABORTED, errno.EPROTO, errno.ECONNRESET}
#: Bytes of an answer written at a time: each must be taken by the client within the idle timeout.
SEND_CHUNK = 256 * 1024


class Quiet:
    """One kind of line at most once per interval: the first at once, the rest counted and written
    as one line when the interval ends (``... (512 more in the last 60 s)``)."""

    def __init__(self, logger: logging.Logger, interval: float = QUIET_INTERVAL) -> None:
        self.logger, self.interval = logger, interval
        self.last: dict[str, float] = {}  # kind -> when its last line was written (loop time)
        self.held: dict[str, tuple[int, str]] = {}  # kind -> (lines not written, the latest)
        self.total: dict[str, int] = {}

    def note(self, kind: str, line: str, level: int = logging.WARNING) -> None:
        loop = asyncio.get_running_loop()
        self.total[kind] = self.total.get(kind, 0) + 1
        last = self.last.get(kind)
        if last is None or (loop.time() - last >= self.interval and kind not in self.held):
            self.last[kind] = loop.time()
            self.logger.log(level, line)
            return
        count, _ = self.held.get(kind, (0, line))
        if not count:
            loop.call_at(last + self.interval, self._flush, kind, level)
        self.held[kind] = (count + 1, line)

    def _flush(self, kind: str, level: int) -> None:
        count, line = self.held.pop(kind, (0, ""))
        if count:
            self.last[kind] = asyncio.get_running_loop().time()
            self.logger.log(level, "%s (%d more in the last %.0f s)", line, count, self.interval)


class ServerLog(logging.LoggerAdapter[logging.Logger]):
    """aiohttp's server logger (``AppRunner(logger=...)``): a request it could not parse (bad bytes, a
    line too long) becomes one short line with its kind, never a traceback quoting the client's bytes;
    anything else (a bug of ours) keeps its traceback."""

    def __init__(self, server: str, quiet: Quiet) -> None:
        super().__init__(quiet.logger)
        self.server, self.quiet = server, quiet

    def log(self, level: int, msg: object, *args: object, exc_info: Any = None, **kwargs: Any) -> None:
        if isinstance(exc_info, HttpProcessingError):
            kind = exc_info.__class__.__name__
            self.quiet.note(f"malformed {self.server}", f"{self.server}: a malformed request ({kind}), answered "
                            f"{exc_info.code}", logging.INFO)
            return
        super().log(level, msg, *args, exc_info=exc_info, **kwargs)


async def _one_request_per_connection(request: web.Request, response: web.StreamResponse) -> None:
    """``Connection: close`` on every answer: a calendar app asks once an hour and Prometheus every
    15 s or more, so keeping a connection open between requests saves nothing, and a connection is
    then either waiting for its request (and may be closed to make room) or answering it."""
    response.force_close()
    response.headers["Connection"] = "close"  # aiohttp wrote its own before this hook; still unsent


def fd_limit() -> int | None:
    """The process's soft limit on open files; None when unlimited."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return None if soft == resource.RLIM_INFINITY else soft


class Connections:
    """The connections both servers hold, and the rules above: the deadline for a request, the cap."""

    def __init__(self, limits: HttpLimits, *, quiet: Quiet | None = None) -> None:
        self.idle_timeout = limits.idle_timeout
        self.cap = limits.max_connections
        limit = fd_limit()
        if limit is not None and self.cap > limit - RESERVED_FDS:
            self.cap = max(LEAST_CAP, limit - RESERVED_FDS)
            log.warning("http_max_connections is %d but this process may open only %d files: serving at most "
                        "%d connections (raise the limit, e.g. LimitNOFILE in deploy/sideline.service)",
                        limits.max_connections, limit, self.cap)
        self.quiet = quiet or Quiet(log)
        self.open: dict[_Guarded, None] = {}  # in the order they opened: the oldest first
        self.coming = 0  # accepted, with room kept for them, not open yet
        self.evicted = 0
        self._freed = asyncio.Event()

    def guard(self, inner: asyncio.Protocol) -> _Guarded:
        return _Guarded(inner, self)

    async def room(self) -> None:
        """Return when one more connection fits, and keep its room (``coming``) until it opens: at once
        under the cap; at the cap, after closing the oldest that has sent no whole request, or when
        one closes."""
        while len(self.open) + self.coming >= self.cap:
            waiting = next((c for c in self.open if not c.asked), None)
            if waiting is not None:
                self.evicted += 1
                waiting.close()
                continue
            self._freed.clear()
            await self._freed.wait()
        self.coming += 1

    def closed(self, connection: _Guarded) -> None:
        if connection in self.open:
            del self.open[connection]
            self._freed.set()


class _Guarded(asyncio.Protocol):
    """aiohttp's protocol for one connection, with the deadline for its first request: every call
    passes through; the bytes are only watched for the blank line that ends a request head."""

    def __init__(self, inner: asyncio.Protocol, connections: Connections) -> None:
        self.inner, self.connections = inner, connections
        self.asked = False  # a whole request head arrived
        self.tail = b""
        self.transport: asyncio.Transport | None = None
        self.deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        self.connections.open[self] = None
        self.deadline = asyncio.get_running_loop().call_later(self.connections.idle_timeout, self.close)
        self.inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if not self.asked:
            # The blank line after the first line that isn't blank (those before a request are
            # ignored), perhaps split across two reads.
            window = self.tail + data if self.tail else data.lstrip(b"\r\n")
            if b"\n\r\n" in window or b"\n\n" in window:
                self.asked = True
                self._disarm()
            self.tail = window[-3:]
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received()

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self.connections.closed(self)
        self.inner.connection_lost(exc)

    def close(self) -> None:
        """Out of time or out of room: closed (nothing is written to it, so nothing waits to go out)."""
        self._disarm()
        self.connections.closed(self)
        if self.transport is not None:
            self.transport.close()

    def _disarm(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None


class HttpServer:
    """One aiohttp application behind the rules above, on ``host:port``; ``name`` says which server
    in log lines, ``port_key``/``host_key`` which settings in a start-up error."""

    def __init__(self, app: web.Application, host: str, port: int, *, name: str, connections: Connections,
                 port_key: str, host_key: str) -> None:
        self.host, self.port, self.name = host, port, name
        self.connections = connections
        self.port_key, self.host_key = port_key, host_key
        app.on_response_prepare.append(_one_request_per_connection)
        self.runner = web.AppRunner(app, access_log=None,  # access logs would show the feeds' tokens
                                    keepalive_timeout=connections.idle_timeout,
                                    logger=ServerLog(name, connections.quiet))
        self.sockets: list[socket.socket] = []
        self.accepting: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        await self.runner.setup()
        try:
            self.sockets = await listen(self.host, self.port)
        except OSError as exc:  # taken, or an address this machine doesn't have: say so, not "Discord"
            await self.runner.cleanup()
            raise CannotListen(self.port_key, self.host_key, self.host, self.port, exc) from exc
        factory = self.runner.server
        assert factory is not None
        self.accepting = [asyncio.create_task(self._accept(sock, factory), name=f"{self.name} accept")
                          for sock in self.sockets]

    async def stop(self) -> None:
        for task in self.accepting:
            task.cancel()
        await asyncio.gather(*self.accepting, return_exceptions=True)
        for sock in self.sockets:
            sock.close()
        self.accepting, self.sockets = [], []
        await self.runner.cleanup()  # closes the connections still open

    async def _accept(self, sock: socket.socket, factory: Callable[[], asyncio.Protocol]) -> None:
        loop = asyncio.get_running_loop()
        connections = self.connections
        while True:
            try:
                conn, _ = await loop.sock_accept(sock)
            except OSError as exc:
                if exc.errno not in _CLIENT_GONE:
                    connections.quiet.note(f"accept {self.name}", f"{self.name}: could not accept a connection "
                                           f"({exc.strerror or exc.__class__.__name__}); {len(connections.open)} open")
                    await asyncio.sleep(ACCEPT_RETRY)
                continue
            try:
                await connections.room()
            except BaseException:
                conn.close()
                raise
            try:
                await loop.connect_accepted_socket(lambda: connections.guard(factory()), conn)
            except OSError:  # the client left meanwhile
                conn.close()
            except BaseException:
                conn.close()
                raise
            finally:
                connections.coming -= 1


async def listen(host: str, port: int, backlog: int = 1024) -> list[socket.socket]:
    """Listening sockets on every address ``host`` names (``localhost``: IPv4 and IPv6), as
    ``loop.create_server`` would make them; ``backlog`` is how many clients may wait to be taken (at
    the cap, or while the bot is busy) before the system turns new ones away."""
    loop = asyncio.get_running_loop()
    infos = await loop.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    sockets: list[socket.socket] = []
    try:
        for family, kind, proto, _, address in dict.fromkeys(infos):
            sock = socket.socket(family, kind, proto)
            sockets.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            sock.bind(address)
            sock.listen(backlog)
            sock.setblocking(False)
    except OSError:
        for sock in sockets:
            sock.close()
        raise
    return sockets


async def send(request: web.Request, body: bytes, headers: dict[str, str], within: float) -> web.StreamResponse:
    """Write an answer a piece at a time, each taken by the client within ``within`` seconds: one that
    stops reading is cut off, rather than holding the answer in memory for as long as it likes."""
    response = web.StreamResponse(headers=headers)
    response.content_length = len(body)
    await response.prepare(request)
    view = memoryview(body)
    try:
        for start in range(0, len(body), SEND_CHUNK):
            async with asyncio.timeout(within):
                await response.write(view[start:start + SEND_CHUNK])
    except TimeoutError:
        if request.transport is not None:
            request.transport.abort()
        return response
    await response.write_eof()
    return response
