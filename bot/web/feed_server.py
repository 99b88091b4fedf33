"""The optional calendar feed server: ``GET /cal/<token>.ics`` for calendar apps to subscribe to.

Off unless ``[bot] calendar_port`` is set; it binds to ``calendar_host`` (127.0.0.1 by default), so
the public side is a reverse proxy's job (README: TLS, rate limits, access logs). It runs on aiohttp's
web server, which discord.py already brings, inside the bot's event loop, and starts and stops with
the bot (bot/client/bot.py). Answers: 200 with the feed (``text/calendar; charset=utf-8``) and a strong
ETag, the feed's validator, so ``If-None-Match`` gets a 304 without the file being built; 404, the
same for a token that is unknown, revoked or malformed. The token is never logged. The file is built
off the event loop and kept until a game changes (bot/services/calendar/files.py).
"""

from __future__ import annotations

import logging

from aiohttp import web

from bot.config.settings import CalendarServer
from bot.errors import CannotListen
from bot.services.calendar.service import CalendarService

log = logging.getLogger("sideline.calendar")

CONTENT_TYPE = "text/calendar; charset=utf-8"
NOT_FOUND = "No calendar here: the link is wrong or was reset. Ask the bot for yours with /calendar show.\n"


def matches(if_none_match: str | None, etag: str) -> bool:
    """RFC 9110: ``*``, or any of the listed tags (a weak ``W/`` one compares weakly)."""
    if not if_none_match:
        return False
    tags = [t.strip().removeprefix("W/") for t in if_none_match.split(",")]
    return "*" in tags or etag in tags


def make_app(service: CalendarService) -> web.Application:
    async def feed(request: web.Request) -> web.StreamResponse:
        found = await service.by_token(request.match_info["token"])
        if found is None:
            return web.Response(status=404, text=NOT_FOUND, content_type="text/plain", charset="utf-8")
        headers = {"ETag": found.etag, "Cache-Control": "private, max-age=300"}
        if matches(request.headers.get("If-None-Match"), found.etag):
            return web.Response(status=304, headers=headers)
        body = await service.body(found)
        headers |= {"Content-Disposition": f'inline; filename="{found.filename}"', "Content-Type": CONTENT_TYPE}
        return web.Response(body=body, headers=headers)

    app = web.Application()
    app.router.add_get("/cal/{token}.ics", feed)
    return app


class FeedServer:
    """The server's life: started in the bot's setup_hook, stopped when the bot closes."""

    def __init__(self, config: CalendarServer, service: CalendarService) -> None:
        self.config = config
        self.runner = web.AppRunner(make_app(service), access_log=None)  # access logs would show tokens
        self.site: web.TCPSite | None = None

    async def start(self) -> None:
        await self.runner.setup()
        self.site = web.TCPSite(self.runner, self.config.host, self.config.port)
        try:
            await self.site.start()
        except OSError as exc:  # taken, or an address this machine doesn't have: say so, not "Discord"
            await self.runner.cleanup()
            raise CannotListen("bot.calendar_port", "calendar_host", self.config.host, self.config.port, exc) from exc
        log.info("calendar feeds served on %s:%d", self.config.host, self.config.port)

    async def stop(self) -> None:
        await self.runner.cleanup()
        self.site = None
