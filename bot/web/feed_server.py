"""The optional calendar feed server: ``GET /cal/<token>.ics`` for calendar apps to subscribe to.

Off unless ``[bot] calendar_port`` is set; it binds to ``calendar_host`` (127.0.0.1 by default), so
the public side is a reverse proxy's job (README: TLS, rate limits, access logs). It runs on aiohttp's
web server, which discord.py already brings, inside the bot's event loop, and starts and stops with
the bot (bot/client/bot.py), behind the limits of bot/web/listener.py (a deadline for the request, a
cap on connections, quiet logs). Answers: 200 with the feed (``text/calendar; charset=utf-8``) and a
strong ETag, the feed's validator, so ``If-None-Match`` gets a 304 without the file being built; 404,
the same for a token that is unknown, revoked or malformed. The token is never logged. The file is
built off the event loop and kept until a game changes (bot/services/calendar/files.py).

The same server answers a league's public page where its commissioners published one (``/setup web``;
bot/services/league_page/service.py): ``/l/<slug>/`` (HTML; ``?embed=1`` without the page's header and
footer, for a league's own website), ``/l/<slug>/data.json`` (the same data) and ``/l/<slug>/calendar.ics``
(every game). The same rules: a validator read first, so ``If-None-Match`` gets a 304 without the page
being built; one plain 404 for a slug that is unknown, revoked or malformed, also of a league that never
published a page. ``Cache-Control: no-cache``: a browser or proxy may keep the page but asks again each
time (a 304 costs one cheap read), so a new result shows, and a revoked page is gone, at once.
"""

from __future__ import annotations

import logging

from aiohttp import web

from bot.config.settings import DEFAULT_HTTP_IDLE_TIMEOUT, CalendarServer
from bot.services.calendar.service import CalendarService
from bot.services.league_page.service import Kind, LeaguePageService
from bot.web.listener import Connections, HttpServer, send

log = logging.getLogger("sideline.calendar")

CONTENT_TYPE = "text/calendar; charset=utf-8"
NOT_FOUND = "No calendar here: the link is wrong or was reset. Ask the bot for yours with /calendar show.\n"
PAGE_NOT_FOUND = "No league page here: the link is wrong, or the league took its page down.\n"
PAGE_TYPES = {"html": "text/html; charset=utf-8", "embed": "text/html; charset=utf-8",
              "json": "application/json; charset=utf-8"}
#: The page runs no script and loads nothing: only its inline style. Framing is allowed (``?embed=1``).
PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"


def matches(if_none_match: str | None, etag: str) -> bool:
    """RFC 9110: ``*``, or any of the listed tags (a weak ``W/`` one compares weakly)."""
    if not if_none_match:
        return False
    tags = [t.strip().removeprefix("W/") for t in if_none_match.split(",")]
    return "*" in tags or etag in tags


def make_app(service: CalendarService, send_within: float = DEFAULT_HTTP_IDLE_TIMEOUT,
             pages: LeaguePageService | None = None) -> web.Application:
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
    if pages is not None:
        add_page_routes(app, pages, service, send_within)
    return app


def add_page_routes(app: web.Application, pages: LeaguePageService, calendar: CalendarService,
                    send_within: float) -> None:
    def missing() -> web.Response:
        return web.Response(status=404, text=PAGE_NOT_FOUND, content_type="text/plain", charset="utf-8")

    async def answer(request: web.Request, kind: Kind) -> web.StreamResponse:
        found = await pages.by_slug(request.match_info["slug"])
        if found is None:
            return missing()
        etag = found.etag(kind)
        headers = {"ETag": etag, "Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff",
                   "Referrer-Policy": "no-referrer", "X-Robots-Tag": "noindex"}
        if matches(request.headers.get("If-None-Match"), etag):
            return web.Response(status=304, headers=headers)
        body = await pages.body(found, kind)
        headers |= {"Content-Type": PAGE_TYPES[kind], "Content-Security-Policy": PAGE_POLICY}
        return await send(request, body, headers, send_within)

    async def html(request: web.Request) -> web.StreamResponse:
        return await answer(request, "embed" if request.query.get("embed") == "1" else "html")

    async def data(request: web.Request) -> web.StreamResponse:
        return await answer(request, "json")

    async def bare(request: web.Request) -> web.StreamResponse:
        """``/l/<slug>`` without its slash: to the page (its links are relative to it)."""
        if await pages.by_slug(request.match_info["slug"]) is None:
            return missing()
        return web.Response(status=308, headers={"Location": f"{request.match_info['slug']}/",
                                                 "Referrer-Policy": "no-referrer"})

    async def league_calendar(request: web.Request) -> web.StreamResponse:
        found = await pages.by_slug(request.match_info["slug"])
        if found is None:
            return missing()
        feed = await calendar.league_feed(found.league, found.league_id)
        headers = {"ETag": feed.etag, "Cache-Control": "no-cache"}
        if matches(request.headers.get("If-None-Match"), feed.etag):
            return web.Response(status=304, headers=headers)
        body = await calendar.body(feed)
        headers |= {"Content-Disposition": f'inline; filename="{feed.filename}"', "Content-Type": CONTENT_TYPE}
        return await send(request, body, headers, send_within)

    app.router.add_get("/l/{slug}", bare)
    app.router.add_get("/l/{slug}/", html)
    app.router.add_get("/l/{slug}/data.json", data)
    app.router.add_get("/l/{slug}/calendar.ics", league_calendar)


class FeedServer:
    """The server's life: started in the bot's setup_hook, stopped when the bot closes."""

    def __init__(self, config: CalendarServer, service: CalendarService, connections: Connections,
                 pages: LeaguePageService | None = None) -> None:
        self.config = config
        self.server = HttpServer(make_app(service, connections.idle_timeout, pages), config.host, config.port,
                                 name="calendar feed", connections=connections, port_key="bot.calendar_port",
                                 host_key="calendar_host")

    async def start(self) -> None:
        await self.server.start()
        log.info("calendar feeds served on %s:%d", self.config.host, self.config.port)

    async def stop(self) -> None:
        await self.server.stop()
