"""The optional calendar feed server: ``GET /cal/<token>.ics`` for calendar apps to subscribe to.

Off unless ``[bot] calendar_port`` is set; it binds to ``calendar_host`` (127.0.0.1 by default), so
the public side is a reverse proxy's job (README: TLS, rate limits, access logs). It runs on aiohttp's
web server, which discord.py already brings, inside the bot's event loop, and starts and stops with
the bot (bot/client/bot.py), behind the limits of bot/web/listener.py (a deadline for the request, a
cap on connections, quiet logs). Answers: 200 with the feed (``text/calendar; charset=utf-8``) and a
strong ETag, the feed's validator, so ``If-None-Match`` gets a 304 without the file being built; 404,
the same for a token that is unknown, revoked or malformed. The token is never logged. The file is
built off the event loop and kept until a game changes (bot/services/calendar/files.py).
"""

from __future__ import annotations

import logging

from aiohttp import web

from bot.config.settings import DEFAULT_HTTP_IDLE_TIMEOUT, CalendarServer
from bot.services.calendar.service import CalendarService
from bot.web.listener import Connections, HttpServer, send

log = logging.getLogger("sideline.calendar")

CONTENT_TYPE = "text/calendar; charset=utf-8"
NOT_FOUND = "No calendar here: the link is wrong or was reset. Ask the bot for yours with /calendar show.\n"


def matches(if_none_match: str | None, etag: str) -> bool:
    """RFC 9110: ``*``, or any of the listed tags (a weak ``W/`` one compares weakly)."""
    if not if_none_match:
        return False
    tags = [t.strip().removeprefix("W/") for t in if_none_match.split(",")]
    return "*" in tags or etag in tags


def make_app(service: CalendarService, send_within: float = DEFAULT_HTTP_IDLE_TIMEOUT) -> web.Application:
    async def feed(request: web.Request) -> web.StreamResponse:
        found = await service.by_token(request.match_info["token"])
        if found is None:
            return web.Response(status=404, text=NOT_FOUND, content_type="text/plain", charset="utf-8")
        headers = {"ETag": found.etag, "Cache-Control": "private, max-age=300"}
        if matches(request.headers.get("If-None-Match"), found.etag):
            return web.Response(status=304, headers=headers)
        body = await service.body(found)
        headers |= {"Content-Disposition": f'inline; filename="{found.filename}"', "Content-Type": CONTENT_TYPE}
        return await send(request, body, headers, send_within)

    app = web.Application(client_max_size=1024)  # no request here has a body
    app.router.add_get("/cal/{token}.ics", feed)
    return app


class FeedServer:
    """The server's life: started in the bot's setup_hook, stopped when the bot closes."""

    def __init__(self, config: CalendarServer, service: CalendarService, connections: Connections) -> None:
        self.config = config
        self.server = HttpServer(make_app(service, connections.idle_timeout), config.host, config.port,
                                 name="calendar feed", connections=connections, port_key="bot.calendar_port",
                                 host_key="calendar_host")

    async def start(self) -> None:
        await self.server.start()
        log.info("calendar feeds served on %s:%d", self.config.host, self.config.port)

    async def stop(self) -> None:
        await self.server.stop()
